// minifloat: formats as traits. A format says how its bits are laid out and how the special
// values (infinities, NaN, zeros) are encoded; every constant the converter and the value type
// need is derived from that here, once (docs/spec.md §1).
#ifndef MINIFLOAT_FORMAT_HPP
#define MINIFLOAT_FORMAT_HPP

#include "config.hpp"

namespace minifloat {

// How a format encodes its special values.
enum class specials {
  // IEEE 754 style: the all-ones exponent holds the infinities (mantissa 0) and NaNs (mantissa
  // non-zero); both zeros exist. e5m2, E3M4, E2M5, and the wide formats float, double, binary16.
  ieee,
  // "fn" (finite, as in OCP E4M3): no infinities; the all-ones exponent holds normal values and
  // only the all-ones magnitude (S.1111.111) is NaN; both zeros exist.
  fn,
  // "fnuz" (finite, no negative zero; AMD MI300, Graphcore): no infinities, one zero, and the
  // code with only the sign bit set (0x80) is the single NaN.
  fnuz,
  // Finite only (the OCP MX element formats e2m1, e2m3, e3m2): no infinities and no NaN; every
  // code is a number and the all-ones exponent holds normal values. Conversions saturate
  // (there is no code to overflow to) and NaN converts to +max (docs/spec.md §7).
  finite,
};

// A binary floating-point format: sign bit (if Signed), ExponentBits, MantissaBits, Bias, the
// special-value rule, and whether the all-zeros exponent holds subnormals and zero (IEEE's
// rule) or one more binade of normal values (e8m0: no zero). Any type with these members can
// be a format.
template <int ExponentBits, int MantissaBits, int Bias, specials Specials, bool Signed = true,
          bool Subnormals = true>
struct binary_format {
  static constexpr int exponent_bits = ExponentBits;
  static constexpr int mantissa_bits = MantissaBits;
  static constexpr int bias = Bias;
  static constexpr specials special_values = Specials;
  static constexpr bool is_signed = Signed;
  static constexpr bool has_subnormals = Subnormals;
};

namespace formats {
// OCP 8-bit formats (OFP8 rev 1.0).
//   e4m3: S.EEEE.MMM, bias 7. No infinities. NaN: S.1111.111 (0x7F, 0xFF). Zeros 0x00, 0x80.
//         Max 448 = S.1111.110, min normal 2^-6 = S.0001.000, min subnormal 2^-9 = S.0000.001.
//   e5m2: S.EEEEE.MM, bias 15. Infinities S.11111.00 (0x7C, 0xFC). NaN S.11111.{01,10,11}.
//         Max 57344 = S.11110.11, min normal 2^-14 = S.00001.00, min subnormal 2^-16.
using e4m3 = binary_format<4, 3, 7, specials::fn>;
using e5m2 = binary_format<5, 2, 15, specials::ieee>;
// IEEE-style formats with the usual bias 2^(E-1) - 1 (e.g. E3M4, E2M5, and IEEE E4M3 with
// infinities: max 240 = S.1110.111, inf S.1111.000, NaN S.1111.mmm with m != 0).
template <int E, int M>
using ieee = binary_format<E, M, (1 << (E - 1)) - 1, specials::ieee>;
// The "fnuz" formats (AMD MI300, Graphcore; LLVM's Float8E4M3FNUZ etc.): bias one larger than
// IEEE's, no infinities, a single zero 0x00, and a single NaN 0x80 (what would be -0). Every
// other code is finite; the all-ones exponent holds normal values.
//   e4m3fnuz:    bias 8,  max 240 = 0x7F, min normal 2^-7,  min subnormal 2^-10.
//   e5m2fnuz:    bias 16, max 57344 = 0x7F, min normal 2^-15, min subnormal 2^-17.
//   e4m3b11fnuz: bias 11, max 30 = 0x7F,  min normal 2^-10, min subnormal 2^-13.
using e4m3fnuz = binary_format<4, 3, 8, specials::fnuz>;
using e5m2fnuz = binary_format<5, 2, 16, specials::fnuz>;
using e4m3b11fnuz = binary_format<4, 3, 11, specials::fnuz>;
// The OCP MX shared scale: unsigned, 8 exponent bits, no mantissa, bias 127; value 2^(E - 127)
// for E = 0x00 (2^-127) to 0xFE (2^127); 0xFF is NaN. No zero, no infinities, no sign:
// converting a negative value (or -inf) gives NaN, and +-0 and every value below 2^-127 give
// 0x00, the smallest. Ties to even means to the even exponent code.
using e8m0 = binary_format<8, 0, 127, specials::fn, false, false>;
// The OCP MX element formats (docs/spec.md §7): both zeros, subnormals, no infinities, no NaN.
//   e2m1 (FP4): S.EE.M, bias 1. Max 6 = S.11.1, min normal 1 = S.01.0, min subnormal 0.5.
//   e2m3 (FP6): S.EE.MMM, bias 1. Max 7.5 = S.11.111, min normal 1, min subnormal 0.125.
//   e3m2 (FP6): S.EEE.MM, bias 3. Max 28 = S.111.11, min normal 0.25, min subnormal 0.0625.
using e2m1 = binary_format<2, 1, 1, specials::finite>;
using e2m3 = binary_format<2, 3, 1, specials::finite>;
using e3m2 = binary_format<3, 2, 3, specials::finite>;
// The NVFP4 block scale: OCP E4M3 without its sign bit (7 bits, 0b1111'110 = 448 the largest,
// 0b1111'111 NaN). Negative values convert to NaN, as for e8m0.
using ue4m3 = binary_format<4, 3, 7, specials::fn, false>;
// The wide interchange formats, used as sources and targets of conversions.
using binary16 = ieee<5, 10>;
using bfloat16 = ieee<8, 7>;
using binary32 = ieee<8, 23>;
using binary64 = ieee<11, 52>;

// The format that fp8<E, M> names: OCP E4M3 for <4, 3>, IEEE-style otherwise.
template <int E, int M>
struct standard {
  using type = ieee<E, M>;
};
template <>
struct standard<4, 3> {
  using type = e4m3;
};
} // namespace formats

namespace detail {
template <int Bits>
using storage_for = std::conditional_t<
    (Bits <= 8), std::uint8_t,
    std::conditional_t<(Bits <= 16), std::uint16_t,
                       std::conditional_t<(Bits <= 32), std::uint32_t, std::uint64_t>>>;
} // namespace detail

// Everything derived from a format's definition: masks, the codes of its special and extreme
// values, and its exponent range. Codes are given as unsigned integers of the format's width.
template <class Format>
struct format_info {
  using format = Format;
  static constexpr int exponent_bits = Format::exponent_bits;
  static constexpr int mantissa_bits = Format::mantissa_bits;
  static constexpr int bias = Format::bias;
  static constexpr specials special_values = Format::special_values;
  static constexpr bool is_signed = Format::is_signed;
  static constexpr bool has_subnormals = Format::has_subnormals;
  static constexpr int total_bits = (is_signed ? 1 : 0) + exponent_bits + mantissa_bits;
  using storage_type = detail::storage_for<total_bits>;

  static_assert(exponent_bits >= 1 && mantissa_bits >= 0 && total_bits <= 64, "bad format");
  static_assert(special_values != specials::ieee || mantissa_bits >= 1,
                "an IEEE-style format needs a mantissa bit to encode NaN");

  static constexpr storage_type one = 1;
  // The bits a code occupies: a 4- or 6-bit format stores its code in the low bits of a byte.
  static constexpr storage_type code_mask = static_cast<storage_type>(
      total_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (total_bits % 64)) - 1);
  static constexpr storage_type magnitude_mask =
      static_cast<storage_type>((std::uint64_t{1} << (exponent_bits + mantissa_bits)) - 1);
  static constexpr storage_type sign_mask =
      is_signed ? static_cast<storage_type>(std::uint64_t{1} << (exponent_bits + mantissa_bits))
                : storage_type{0};
  static constexpr storage_type mantissa_mask =
      static_cast<storage_type>((std::uint64_t{1} << mantissa_bits) - 1);
  static constexpr storage_type max_exponent_field =
      static_cast<storage_type>((1u << exponent_bits) - 1);

  static constexpr bool has_infinity = special_values == specials::ieee;
  static constexpr bool has_nan = special_values != specials::finite;
  // Whether every conversion saturates: a finite-only format has no code to overflow to.
  static constexpr bool always_saturates = special_values == specials::finite;
  // Whether a NaN result carries the input's sign (fnuz's single NaN has none; a finite-only
  // format's "NaN" is +max; an unsigned format has no sign to carry).
  static constexpr bool nan_takes_sign =
      is_signed && (special_values == specials::ieee || special_values == specials::fn);
  // Nearest rounding breaks ties toward the even code, except in a format without mantissa bits
  // (e8m0), where "even" would mean even exponents: there ties round up, away from zero, as
  // LLVM APFloat, PyTorch, ml_dtypes and ONNX do (docs/spec.md §7).
  static constexpr bool ties_away_from_zero = mantissa_bits == 0;
  static constexpr bool has_zero = has_subnormals; // zero is the subnormal with mantissa 0
  static constexpr bool has_negative_zero =
      has_zero && special_values != specials::fnuz && is_signed;

  // Code of +infinity (has_infinity only): all-ones exponent, zero mantissa.
  static constexpr storage_type infinity_code =
      static_cast<storage_type>(std::uint64_t{max_exponent_field} << mantissa_bits);
  // Code of the largest finite value.
  static constexpr storage_type max_finite_code =
      special_values == specials::ieee ? static_cast<storage_type>(infinity_code - 1)
      : special_values == specials::fn ? static_cast<storage_type>(magnitude_mask - 1)
                                       : magnitude_mask; // fnuz, finite
  // The smallest normal value; with subnormals, also the largest and smallest subnormals.
  // Without (e8m0), the all-zeros exponent is the smallest normal binade and these codes name
  // the smallest positive value.
  static constexpr storage_type min_normal_code =
      has_subnormals ? static_cast<storage_type>(one << mantissa_bits) : storage_type{0};
  static constexpr storage_type max_subnormal_code = has_subnormals ? mantissa_mask : 0;
  static constexpr storage_type min_subnormal_code = has_subnormals ? 1 : 0;
  // The NaN a conversion produces, before the sign is applied. 8-bit formats use the all-ones
  // magnitude (0x7F, docs/spec.md §2); wider IEEE formats the canonical quiet NaN, as
  // std::numeric_limits<float>::quiet_NaN() does; fnuz its single NaN 0x80 (sign included); a
  // finite-only format, which has no NaN, +max (what a NaN converts to).
  static constexpr storage_type nan_code =
      special_values == specials::fnuz     ? sign_mask
      : special_values == specials::finite ? max_finite_code
      : (special_values == specials::ieee && total_bits > 8)
          ? static_cast<storage_type>(infinity_code | (one << (mantissa_bits - 1)))
          : magnitude_mask;

  // Unbiased exponents: of the smallest normal (also the scale of the subnormals), of the
  // largest finite value, and of the unit in the last place of the smallest positive value.
  static constexpr int min_normal_exponent = has_subnormals ? 1 - bias : -bias;
  static constexpr int max_normal_exponent = (max_finite_code >> mantissa_bits) - bias;
  static constexpr int min_subnormal_exponent = min_normal_exponent - mantissa_bits;
  // Binades spanned from the smallest subnormal to the largest finite value (the "dynamic
  // range" of the FP8 paper's Table 1: 18 for E4M3, 32 for E5M2).
  static constexpr int dynamic_range_binades =
      max_normal_exponent - (has_subnormals ? min_subnormal_exponent : min_normal_exponent) + 1;

  MINIFLOAT_HOST_DEVICE static constexpr bool is_nan(storage_type code) noexcept {
    return special_values == specials::fnuz     ? code == sign_mask
           : special_values == specials::fn     ? (code & magnitude_mask) == magnitude_mask
           : special_values == specials::finite ? false
                                                : (code & magnitude_mask) > infinity_code;
  }
  MINIFLOAT_HOST_DEVICE static constexpr bool is_infinity(storage_type code) noexcept {
    return has_infinity && (code & magnitude_mask) == infinity_code;
  }
  MINIFLOAT_HOST_DEVICE static constexpr bool is_zero(storage_type code) noexcept {
    return has_zero && (code & magnitude_mask) == 0 && !is_nan(code);
  }
  MINIFLOAT_HOST_DEVICE static constexpr bool is_negative(storage_type code) noexcept {
    return (code & sign_mask) != 0 && !(special_values == specials::fnuz && is_nan(code));
  }
};

} // namespace minifloat

#endif // MINIFLOAT_FORMAT_HPP
