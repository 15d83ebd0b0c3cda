// minifloat: the one-byte value types. basic_fp8<Format> holds one byte, the code of a value of
// Format; fp8<E, M> names the standard formats, e4m3 and e5m2 the OCP ones (docs/spec.md §1, §4).
// A format of fewer bits (the MX elements e2m1, e2m3, e3m2; ue4m3) keeps its code in the low bits
// of the byte, the others 0 (docs/spec.md §7).
#ifndef MINIFLOAT_FP8_HPP
#define MINIFLOAT_FP8_HPP

#include <cmath> // FP_NAN, FP_INFINITE, FP_ZERO, FP_SUBNORMAL, FP_NORMAL

#include "tables.hpp"
#include "detail/convert_value.hpp"

namespace minifloat {

template <class Format>
class basic_fp8 {
  using info = format_info<Format>;
  static_assert(info::total_bits <= 8, "basic_fp8 holds formats of at most 8 bits");

  template <class From>
  MINIFLOAT_HOST_DEVICE static constexpr std::uint8_t encode(From x) noexcept {
    return detail::convert_value<basic_fp8, detail::rounding_rule::nearest_even,
                                 overflow::non_saturating>(x, 0)
        .bits();
  }

public:
  using format = Format;

  // Trivial, like float: a default-initialised value is indeterminate; e4m3{} is +0.
  basic_fp8() = default;

  // Conversions from wider types round to nearest, ties to even, and do not saturate (docs/spec.md
  // §2): e4m3(465.0f) is NaN, e5m2(61440.0) is +inf. Use minifloat::convert or saturate_cast for
  // the other modes. All are explicit: narrowing is never implicit (docs/spec.md §4).
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(float x) noexcept : bits_(encode(x)) {}
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(double x) noexcept : bits_(encode(x)) {}
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(binary16_bits x) noexcept : bits_(encode(x)) {}
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(bfloat16_bits x) noexcept : bits_(encode(x)) {}
#if MINIFLOAT_HAS_FLOAT16
  explicit constexpr basic_fp8(_Float16 x) noexcept : bits_(encode(x)) {}
#endif
#if MINIFLOAT_HAS_BFLOAT16
  explicit constexpr basic_fp8(__bf16 x) noexcept : bits_(encode(x)) {}
#endif
  // Every integer, exactly rounded (no detour through float).
  template <class Integer, std::enable_if_t<detail::is_integer_source<Integer>, int> = 0>
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(Integer x) noexcept : bits_(encode(x)) {}
  // Another 8-bit format: one rounding (decoding is exact).
  template <class OtherFormat, std::enable_if_t<!std::is_same<OtherFormat, Format>::value, int> = 0>
  MINIFLOAT_HOST_DEVICE explicit constexpr basic_fp8(basic_fp8<OtherFormat> x) noexcept
      : bits_(encode(x)) {}

  // The code: from_bits(x.bits()) == x for every code. Bits above a narrower format's code are
  // ignored (from_bits(0xF7) is e2m1's 0x7; ue4m3's sign bit is dropped, as cuBLAS reads it).
  MINIFLOAT_HOST_DEVICE static constexpr basic_fp8 from_bits(std::uint8_t bits) noexcept {
    basic_fp8 result{};
    result.bits_ = static_cast<std::uint8_t>(bits & info::code_mask);
    return result;
  }
  MINIFLOAT_HOST_DEVICE constexpr std::uint8_t bits() const noexcept { return bits_; }

  // Widening is exact (docs/spec.md §3).
  // On the host a load from the compile-time table; in CUDA device code (where host tables
  // cannot be read) the converter itself.
  MINIFLOAT_HOST_DEVICE explicit constexpr operator float() const noexcept {
#if defined(__CUDA_ARCH__)
    return widen<float>();
#else
    return decode_table<basic_fp8>[bits_];
#endif
  }
  // Its own table, not float's value widened: e8m0's 0x00 is 2^-127, a float subnormal, which a
  // float -> double conversion reads as 0 where denormals-are-zero is set (docs/spec.md §8).
  MINIFLOAT_HOST_DEVICE explicit constexpr operator double() const noexcept {
#if defined(__CUDA_ARCH__)
    return widen<double>();
#else
    return detail::bit_cast<double>(detail::code_table_for<Format, formats::binary64>[bits_]);
#endif
  }
  MINIFLOAT_HOST_DEVICE explicit constexpr operator binary16_bits() const noexcept {
    return widen<binary16_bits>();
  }
  MINIFLOAT_HOST_DEVICE explicit constexpr operator bfloat16_bits() const noexcept {
    return widen<bfloat16_bits>();
  }
#if MINIFLOAT_HAS_FLOAT16
  explicit constexpr operator _Float16() const noexcept { return widen<_Float16>(); }
#endif
#if MINIFLOAT_HAS_BFLOAT16
  explicit constexpr operator __bf16() const noexcept { return widen<__bf16>(); }
#endif

  // Negation is exact: it flips the sign bit (fnuz: +0 and NaN have no negative; an unsigned
  // format such as e8m0 has no negative values at all, so -x is NaN).
  MINIFLOAT_HOST_DEVICE constexpr basic_fp8 operator-() const noexcept {
    if (!info::is_signed) {
      return from_bits(info::nan_code);
    }
    if (info::special_values == specials::fnuz && (bits_ & info::magnitude_mask) == 0) {
      return *this;
    }
    return from_bits(static_cast<std::uint8_t>(bits_ ^ info::sign_mask));
  }
  MINIFLOAT_HOST_DEVICE constexpr basic_fp8 operator+() const noexcept { return *this; }

private:
  template <class To>
  MINIFLOAT_HOST_DEVICE constexpr To widen() const noexcept {
    using to = detail::value_traits<To>;
    return to::from_code(
        detail::pack<typename to::format, detail::rounding_rule::nearest_even,
                     overflow::non_saturating>(detail::unpack_code<Format>(bits_)));
  }

  std::uint8_t bits_;
};

template <int E, int M>
using fp8 = basic_fp8<typename formats::standard<E, M>::type>;

using e4m3 = fp8<4, 3>; // OCP E4M3 ("fn"): max 448, no infinities, NaN 0x7F / 0xFF
using e5m2 = fp8<5, 2>; // OCP E5M2 (IEEE-like): max 57344, +-inf 0x7C / 0xFC
using e3m4 = fp8<3, 4>; // IEEE-style, bias 3: max 15.5
using e2m5 = fp8<2, 5>; // IEEE-style, bias 1: max 3.9375
// IEEE-style E4M3 (bias 7, infinities 0x78 / 0xF8): max 240. Not OCP's e4m3.
using e4m3_ieee = basic_fp8<formats::ieee<4, 3>>;
// fnuz: one zero, NaN 0x80, no infinities (see formats::e4m3fnuz for the encodings).
using e4m3fnuz = basic_fp8<formats::e4m3fnuz>;       // max 240
using e5m2fnuz = basic_fp8<formats::e5m2fnuz>;       // max 57344
using e4m3b11fnuz = basic_fp8<formats::e4m3b11fnuz>; // max 30
// The OCP MX scale: 2^-127 .. 2^127, NaN 0xFF, unsigned, no zero (see formats::e8m0).
using e8m0 = basic_fp8<formats::e8m0>;
// The OCP MX elements (one value per byte; packed.hpp stores two or four in fewer bytes):
// no infinities, no NaN, conversions saturate and NaN gives +max (docs/spec.md §7).
using e2m1 = basic_fp8<formats::e2m1>; // FP4: max 6, values 0, 0.5, 1, 1.5, 2, 3, 4, 6
using e2m3 = basic_fp8<formats::e2m3>; // FP6: max 7.5, steps 0.125 up to 2
using e3m2 = basic_fp8<formats::e3m2>; // FP6: max 28, smallest 0.0625
// The NVFP4 block scale: E4M3 without a sign, 0 .. 448, NaN 0x7F (see formats::ue4m3).
using ue4m3 = basic_fp8<formats::ue4m3>;

// Classification (docs/spec.md §4), all exact bit tests.
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool isnan(basic_fp8<F> x) noexcept {
  return format_info<F>::is_nan(x.bits());
}
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool isinf(basic_fp8<F> x) noexcept {
  return format_info<F>::is_infinity(x.bits());
}
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool isfinite(basic_fp8<F> x) noexcept {
  return !isnan(x) && !isinf(x);
}
namespace detail {
// Not public as iszero / issubnormal: glibc defines macros of those names.
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool is_zero(basic_fp8<F> x) noexcept {
  return format_info<F>::is_zero(x.bits());
}
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool is_subnormal(basic_fp8<F> x) noexcept {
  using info = format_info<F>;
  return info::has_subnormals && (x.bits() & info::magnitude_mask) != 0 &&
         (x.bits() & info::magnitude_mask) <= info::max_subnormal_code;
}
} // namespace detail
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool isnormal(basic_fp8<F> x) noexcept {
  return isfinite(x) && !detail::is_zero(x) && !detail::is_subnormal(x);
}
// True for negative values, -0 and NaNs with the sign bit set (fnuz's NaN has no sign).
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool signbit(basic_fp8<F> x) noexcept {
  return format_info<F>::is_negative(x.bits());
}
// One of FP_NAN, FP_INFINITE, FP_ZERO, FP_SUBNORMAL, FP_NORMAL, as std::fpclassify returns.
template <class F>
MINIFLOAT_HOST_DEVICE constexpr int fpclassify(basic_fp8<F> x) noexcept {
  return isnan(x)                  ? FP_NAN
         : isinf(x)                ? FP_INFINITE
         : detail::is_zero(x)      ? FP_ZERO
         : detail::is_subnormal(x) ? FP_SUBNORMAL
                                   : FP_NORMAL;
}
// |x|, exact: clears the sign bit (fnuz's NaN 0x80 stays NaN).
template <class F>
MINIFLOAT_HOST_DEVICE constexpr basic_fp8<F> abs(basic_fp8<F> x) noexcept {
  using info = format_info<F>;
  if (info::special_values == specials::fnuz && isnan(x)) {
    return x;
  }
  return basic_fp8<F>::from_bits(static_cast<std::uint8_t>(x.bits() & info::magnitude_mask));
}

namespace detail {
template <class T>
struct is_fp8 : std::false_type {};
template <class F>
struct is_fp8<basic_fp8<F>> : std::true_type {};

// Arithmetic with an 8-bit operand computes in float, or in the wider type of the other
// operand (double, long double), and returns that type (docs/spec.md §4).
template <class T>
using promoted_with =
    std::conditional_t<std::is_floating_point<T>::value && (sizeof(T) > 4), T, float>;
template <class T>
constexpr bool is_arithmetic_operand = std::is_arithmetic<T>::value;
} // namespace detail

namespace detail {
// Whether a comparison's operand is NaN, on its bits (docs/spec.md §4): -ffinite-math-only lets
// compilers drop the unordered case of a float comparison (x86: ucomiss without its parity
// flag), under which a NaN compared equal to everything. The other operand's bits are read
// (the 16-bit types' through float, a long double's through double).
template <class F>
MINIFLOAT_HOST_DEVICE constexpr bool is_nan_operand(basic_fp8<F> x) noexcept {
  return format_info<F>::is_nan(x.bits());
}
template <class T>
MINIFLOAT_HOST_DEVICE constexpr bool is_nan_operand(T x) noexcept {
  if constexpr (std::is_integral<T>::value) {
    return false;
  } else if constexpr (sizeof(T) <= sizeof(float)) {
    return (bit_cast<std::uint32_t>(static_cast<float>(x)) & 0x7FFFFFFFU) > 0x7F800000U;
  } else {
    // double, or long double (whose layout varies) through double: the conversion keeps NaN
    // NaN and takes every other value to a number or an infinity.
    const auto bits = bit_cast<std::uint64_t>(static_cast<double>(x));
    return (bits & ~(std::uint64_t{1} << 63)) > 0x7FF0000000000000U;
  }
}
// An 8-bit value in the type a comparison with a T computes in: double (every 8-bit value is one,
// exactly, and e8m0's 2^-127 stays itself where denormals-are-zero is set), or T's wider type.
template <class T>
using compared_as = std::conditional_t<(sizeof(T) > sizeof(double)), T, double>;
} // namespace detail

// IEEE comparisons: NaN is unordered (decided on the bits, so fast-math flags change nothing),
// +0 == -0, and the values compare exactly. Against an arithmetic operand T the comparison is
// that of the 8-bit value with static_cast<P>(b), P being float or the wider of T and float
// (an integer is converted to float first, as in arithmetic; docs/spec.md §4).
// NOLINTBEGIN(bugprone-macro-parentheses): op is an operator token, not an expression
#define MINIFLOAT_COMPARISON(op, if_unordered)                                                     \
  template <class F1, class F2>                                                                    \
  MINIFLOAT_HOST_DEVICE constexpr bool operator op(basic_fp8<F1> a, basic_fp8<F2> b) noexcept {    \
    return detail::is_nan_operand(a) || detail::is_nan_operand(b) ? if_unordered                   \
                                                                  : static_cast<double>(a)         \
                                                                        op static_cast<double>(b); \
  }                                                                                                \
  template <class F, class T, std::enable_if_t<detail::is_arithmetic_operand<T>, int> = 0>         \
  MINIFLOAT_HOST_DEVICE constexpr bool operator op(basic_fp8<F> a, T b) noexcept {                 \
    using wide = detail::compared_as<T>;                                                           \
    const auto other = static_cast<detail::promoted_with<T>>(b);                                   \
    return detail::is_nan_operand(a) || detail::is_nan_operand(other)                              \
               ? if_unordered                                                                      \
               : static_cast<wide>(static_cast<double>(a)) op static_cast<wide>(other);            \
  }                                                                                                \
  template <class T, class F, std::enable_if_t<detail::is_arithmetic_operand<T>, int> = 0>         \
  MINIFLOAT_HOST_DEVICE constexpr bool operator op(T a, basic_fp8<F> b) noexcept {                 \
    using wide = detail::compared_as<T>;                                                           \
    const auto other = static_cast<detail::promoted_with<T>>(a);                                   \
    return detail::is_nan_operand(other) || detail::is_nan_operand(b)                              \
               ? if_unordered                                                                      \
               : static_cast<wide>(other) op static_cast<wide>(static_cast<double>(b));            \
  }
MINIFLOAT_COMPARISON(==, false)
MINIFLOAT_COMPARISON(!=, true)
MINIFLOAT_COMPARISON(<, false)
MINIFLOAT_COMPARISON(<=, false)
MINIFLOAT_COMPARISON(>, false)
MINIFLOAT_COMPARISON(>=, false)
#undef MINIFLOAT_COMPARISON

// Arithmetic through the exact float values, in float or the wider type of the other operand
// (double, long double), returning that type (docs/spec.md §4).
#define MINIFLOAT_BINARY_OPERATOR(op)                                                              \
  template <class F1, class F2>                                                                    \
  MINIFLOAT_HOST_DEVICE constexpr auto operator op(basic_fp8<F1> a, basic_fp8<F2> b) noexcept {    \
    return static_cast<float>(a) op static_cast<float>(b);                                         \
  }                                                                                                \
  template <class F, class T, std::enable_if_t<detail::is_arithmetic_operand<T>, int> = 0>         \
  MINIFLOAT_HOST_DEVICE constexpr auto operator op(basic_fp8<F> a, T b) noexcept {                 \
    using promoted = detail::promoted_with<T>;                                                     \
    return static_cast<promoted>(static_cast<float>(a)) op static_cast<promoted>(b);               \
  }                                                                                                \
  template <class T, class F, std::enable_if_t<detail::is_arithmetic_operand<T>, int> = 0>         \
  MINIFLOAT_HOST_DEVICE constexpr auto operator op(T a, basic_fp8<F> b) noexcept {                 \
    using promoted = detail::promoted_with<T>;                                                     \
    return static_cast<promoted>(a) op static_cast<promoted>(static_cast<float>(b));               \
  }
// NOLINTEND(bugprone-macro-parentheses)
MINIFLOAT_BINARY_OPERATOR(+)
MINIFLOAT_BINARY_OPERATOR(-)
MINIFLOAT_BINARY_OPERATOR(*)
MINIFLOAT_BINARY_OPERATOR(/)
#undef MINIFLOAT_BINARY_OPERATOR

} // namespace minifloat

#endif // MINIFLOAT_FP8_HPP
