// minifloat: the one converter. Every conversion — narrowing, widening, between 8-bit formats,
// from integers — takes the same path:
//   1. unpack the source into sign, class and an exact value significand · 2^exponent;
//   2. round that value on the target's grid with an unbounded exponent range (the rounding
//      policy: nearest-even, toward-zero, upward or stochastic);
//   3. apply the overflow policy to the rounded result (non-saturating or saturate);
//   4. pack the result into the target's encoding.
// Because step 1 is exact and step 2 rounds once, every conversion is correctly rounded
// (docs/spec.md §2: never through an intermediate format).
#ifndef MINIFLOAT_CONVERTER_HPP
#define MINIFLOAT_CONVERTER_HPP

#include "config.hpp"
#include "format.hpp"

namespace minifloat {

// Rounding of a conversion (docs/spec.md §2). Stochastic rounding takes random bits and has its own
// entry point, stochastic_cast.
enum class rounding {
  nearest_even, // the nearest value of the format; ties to the even code
  toward_zero,  // drop the extra bits; never rounds a finite value past the largest finite
  upward,       // toward +infinity (ceil): the e8m0 "ceil" scale rule of CUDA and DeepGEMM.
                // Negative values are truncated, so a finite one never rounds past -max.
};

// What happens to a rounded result beyond the largest finite value (docs/spec.md §2).
enum class overflow {
  non_saturating, // OCP / IEEE: +-inf where the format has it, else NaN with the input's sign
  saturate,       // +-max; infinities become +-max too; NaN stays NaN
};

namespace detail {

enum class value_class : std::uint8_t { zero, finite, infinite, nan };

// An exact value: (-1)^negative · significand · 2^exponent when finite (significand != 0).
struct unpacked {
  value_class kind;
  bool negative;
  int exponent;
  std::uint64_t significand;
};

// The rounding step proper: the public `rounding` plus stochastic rounding.
enum class rounding_rule : std::uint8_t { nearest_even, toward_zero, upward, stochastic };

MINIFLOAT_HOST_DEVICE constexpr rounding_rule rule_of(rounding r) noexcept {
  return r == rounding::nearest_even  ? rounding_rule::nearest_even
         : r == rounding::toward_zero ? rounding_rule::toward_zero
                                      : rounding_rule::upward;
}

// c ? a : b without a branch: compilers turn data-dependent ternaries into jumps, which cost a
// misprediction on real data. (Mask arithmetic on unsigned integers only.)
template <class T>
MINIFLOAT_HOST_DEVICE constexpr T select(bool c, T a, T b) noexcept {
  static_assert(std::is_unsigned<T>::value, "masks need unsigned arithmetic");
  return static_cast<T>(b ^ ((a ^ b) & static_cast<T>(T{0} - T{c})));
}
MINIFLOAT_HOST_DEVICE constexpr int select(bool c, int a, int b) noexcept {
  return static_cast<int>(select(c, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)));
}

// Step 1 for a code of any binary format: exact. Written with selects rather than early
// returns, so that compilers emit straight-line code for bulk loops.
template <class Format>
MINIFLOAT_HOST_DEVICE constexpr unpacked
unpack_code(typename format_info<Format>::storage_type code) noexcept {
  using info = format_info<Format>;
  const std::uint64_t magnitude = code & info::magnitude_mask;
  const std::uint64_t exponent_field = magnitude >> info::mantissa_bits;
  const bool normal = exponent_field != 0 || !info::has_subnormals;
  // normal: 1.mmm * 2^(e - bias); subnormal: 0.mmm * 2^(1 - bias).
  const std::uint64_t significand =
      (magnitude & info::mantissa_mask) | (std::uint64_t{normal} << info::mantissa_bits);
  const int exponent =
      select(normal, static_cast<int>(exponent_field), 1) - info::bias - info::mantissa_bits;
  const value_class kind = info::is_nan(code)        ? value_class::nan
                           : info::is_infinity(code) ? value_class::infinite
                           : info::is_zero(code)     ? value_class::zero
                                                     : value_class::finite;
  return {kind, info::is_negative(code), exponent, significand};
}

// Step 1 for an integer: exact for every value of every integer type up to 64 bits.
template <class Integer>
MINIFLOAT_HOST_DEVICE constexpr unpacked unpack_integer(Integer value) noexcept {
  static_assert(std::is_integral<Integer>::value && sizeof(Integer) <= 8, "64-bit at most");
  if (value == 0) {
    return {value_class::zero, false, 0, 0};
  }
  bool negative = false;
  if constexpr (std::is_signed<Integer>::value) {
    negative = value < 0;
  }
  // Unsigned negation is defined for the most negative value, where -value would overflow.
  const auto bits = static_cast<std::uint64_t>(value);
  return {value_class::finite, negative, 0, negative ? std::uint64_t{0} - bits : bits};
}

// The result of step 2 for an out-of-range or infinite value (step 3).
template <class Format, overflow Overflow>
MINIFLOAT_HOST_DEVICE constexpr typename format_info<Format>::storage_type
overflowed(typename format_info<Format>::storage_type sign) noexcept {
  using info = format_info<Format>;
  using storage = typename info::storage_type;
  if (Overflow == overflow::saturate || info::always_saturates) {
    return static_cast<storage>(sign | info::max_finite_code);
  }
  if (info::has_infinity) {
    return static_cast<storage>(sign | info::infinity_code);
  }
  return info::nan_takes_sign ? static_cast<storage>(sign | info::nan_code) : info::nan_code;
}

// Whether the magnitude, after dropping `shift` low bits of `significand` (the kept part having
// parity `kept_is_odd`; the value's sign `negative`), rounds up by one unit in the last kept
// place. shift may be <= 0 (the value is exact) or beyond 64 (every bit is dropped).
template <rounding_rule Rule>
MINIFLOAT_HOST_DEVICE constexpr bool rounds_up(std::uint64_t significand, int shift,
                                               bool kept_is_odd, bool negative,
                                               std::uint32_t random_bits) noexcept {
  if (Rule == rounding_rule::toward_zero) {
    return false;
  }
  // The dropped bits, as a fraction dropped / 2^shift of one unit in the last kept place.
  const int clamped = select(shift < 0, 0, select(shift > 63, 63, shift));
  const std::uint64_t mask =
      select(shift > 63, ~std::uint64_t{0}, (std::uint64_t{1} << clamped) - 1);
  const std::uint64_t dropped = significand & mask;
  if (Rule == rounding_rule::upward) {
    return !negative & (dropped != 0);
  }
  if (Rule == rounding_rule::nearest_even) {
    // Half a unit is 2^(shift - 1); past shift = 64 it exceeds every 64-bit `dropped`.
    const int half_position = select(shift < 1, 0, select(shift > 64, 63, shift - 1));
    const std::uint64_t half = std::uint64_t{1} << half_position;
    const bool in_range = (shift >= 1) & (shift <= 64);
    return in_range & ((dropped > half) | ((dropped == half) & kept_is_odd));
  }
  // Stochastic (docs/spec.md §2): the fraction truncated to 32 bits, floor(fraction * 2^32), plus
  // the random bits; a carry out of bit 31 rounds the magnitude up.
  const int left = select(shift <= 32, 32 - select(shift < 0, 0, shift), 0);
  const int right = select(shift <= 32, 0, select(shift - 32 > 63, 63, shift - 32));
  const std::uint64_t fraction32 =
      select(shift - 32 > 63, std::uint64_t{0}, (dropped << left) >> right);
  return ((fraction32 + random_bits) >> 32) != 0;
}

// Steps 3 and 4: given the rounded magnitude as a code (possibly past the largest finite
// one: too_large), apply the overflow rule and encode the special values.
template <class Format, rounding_rule Rule, overflow Overflow>
MINIFLOAT_HOST_DEVICE constexpr typename format_info<Format>::storage_type
encode_rounded(value_class kind, bool negative, std::uint64_t magnitude, bool too_large) noexcept {
  using info = format_info<Format>;
  using storage = typename info::storage_type;
  const storage sign = select(negative, info::sign_mask, storage{0});
  // Past the largest finite value (e4m3: 480 would be S.1111.111, NaN's code) the overflow rule
  // decides; toward zero never rounds a finite value past it (docs/spec.md §2).
  const storage overflow_code = overflowed<Format, Overflow>(sign);
  // Toward zero (and upward for a negative value) never rounds a finite value past the largest.
  const auto largest = static_cast<storage>(sign | info::max_finite_code);
  const storage too_large_code = Rule == rounding_rule::toward_zero ? largest
                                 : Rule == rounding_rule::upward
                                     ? select(negative, largest, overflow_code)
                                     : overflow_code;
  const storage zero_code = info::has_negative_zero ? sign : storage{0};
  const storage in_range_code = select(
      magnitude == 0, zero_code, static_cast<storage>(sign | (magnitude & info::magnitude_mask)));
  const storage finite_code = select(too_large, too_large_code, in_range_code);
  const storage nan_code =
      info::nan_takes_sign ? static_cast<storage>(sign | info::nan_code) : info::nan_code;
  const storage special_code =
      select(kind == value_class::nan, nan_code,
             select(kind == value_class::infinite, overflow_code, zero_code));
  const storage code = select(kind == value_class::finite, finite_code, special_code);
  // An unsigned format (e8m0, ue4m3) has no negative values: they are NaN (-0 is zero).
  return info::is_signed ? code : select(negative & (kind != value_class::zero), nan_code, code);
}

// Steps 2 to 4: round an exact value onto Format's grid and encode it. The finite path is
// computed for every input (with safe operands) and the special values selected at the end,
// without branches, so that bulk loops over real data run straight through.
template <class Format, rounding_rule Rule, overflow Overflow>
MINIFLOAT_HOST_DEVICE constexpr typename format_info<Format>::storage_type
pack(const unpacked& value, std::uint32_t random_bits = 0) noexcept {
  using info = format_info<Format>;
  constexpr int M = info::mantissa_bits;

  // The value lies in [2^exponent, 2^(exponent + 1)). (A non-finite input has no
  // significand; any non-zero one keeps the arithmetic defined, and its result is not used.)
  const bool finite = value.kind == value_class::finite;
  const std::uint64_t significand = value.significand | std::uint64_t{!finite};
  const int exponent = value.exponent + detail::most_significant_bit(significand);
  // The weight of one unit in the last place at this magnitude; subnormals share the smallest
  // normal's. `shift` low bits of the significand fall below it: at least -M for any value
  // that can be finite in Format; less only for values that overflow anyway.
  const int quantum =
      select(exponent > info::min_normal_exponent, exponent, info::min_normal_exponent) - M;
  const int shift_exact = quantum - value.exponent;
  const int shift = select(shift_exact < -M, -M, shift_exact);
  const int left = select(shift < 0, -shift, 0);
  const int right = select(shift > 0, select(shift > 63, 63, shift), 0);
  const std::uint64_t kept = select(shift > 63, std::uint64_t{0}, (significand << left) >> right);
  // `kept` counts quanta, the implicit bit included for normals. Adding the exponent field's
  // offset gives the code magnitude directly (`truncated`, the code of the grid value at or
  // below the input); a carry out of the mantissa (1.111 + 0.001) moves into the exponent
  // field, which is the correct encoding. Ties go to the even code.
  const std::uint64_t truncated =
      kept + (static_cast<std::uint64_t>(quantum - (1 - info::bias - M)) << M);
  // (Ties away from zero are ties toward an "odd" kept part: e8m0, docs/spec.md §7.)
  const bool up =
      rounds_up<Rule>(significand, shift, info::ties_away_from_zero || (truncated & 1) != 0,
                      value.negative, random_bits);
  // Without subnormals (e8m0) nothing lies below the smallest normal: such values give it.
  const bool below_smallest = !info::has_subnormals && exponent < info::min_normal_exponent;
  const std::uint64_t magnitude = select(below_smallest, std::uint64_t{0}, truncated + up);

  const bool too_large = (!below_smallest) & ((exponent > info::max_normal_exponent) |
                                              (magnitude > info::max_finite_code));
  return encode_rounded<Format, Rule, Overflow>(value.kind, value.negative, magnitude, too_large);
}

// ---------------------------------------------------------------------------------------------
// The converter's map: which implementation of step 2 serves each source, target, rounding and
// path. Step 2 (rounding onto the target's grid) has variants that give the same codes as
// pack() for every input (the exhaustive sweeps compare them over all 2^32 floats); steps 1, 3
// and 4 go with each. Every conversion asks step2_for below: the scalar casts (detail/
// convert_value.hpp, with the portable path's capabilities) and the array kernels (each path's
// kernel type, detail/kernels_*.hpp). Written out:
//
//   source -> target, rounding                   portable   avx2             avx512    neon
//   (lane_ variants; the scalar casts are the portable column)
//   float16 -> element, nearest_even             addition_if_ addition_if_    addition  shifts
//                                                nearest (1)  nearest (2)
//   float16 -> element, toward_zero              fixed_point  addition_if_    addition  shifts
//                                                             nearest (2)(4)
//   float16 -> element, upward                   fixed_point  addition_if_    addition_ shifts
//                                                             nearest (2)(4)  unless_
//                                                                             daz (3)
//   float16 -> element, stochastic               fixed_point shifts           shifts    shifts
//   float16 -> e8m0, every rule                  exponent    exponent         exponent  exponent
//   binary16 or bfloat16 -> e4m3 or e5m2, nearest_even, arrays without a report, on avx2 and
//       avx512: 16-bit words instead (detail/words.inc, encode_words; values below the target's
//       normals as above, but binary16's in e5m2)
//   double -> element, nearest_even, toward_zero or upward: as float16, once rounded to odd
//       into float (reads_through_float below); arrays without a report on avx512 into the
//       signed formats whose NaN takes the sign (e4m3, e5m2, ...), nearest_even or toward_zero
//       where the addition clamps (but toward zero without saturation into a format with
//       infinities, whose float lanes round the infinities up): the same addition in double
//       lanes instead
//       (kernels_avx512.hpp, encode_doubles_by_addition; the tail and a head before the first
//       cache line as above)
//   double -> element, stochastic; double -> e8m0; integers, another 8-bit type -> any: generic
//       on every path (arrays convert element by element with the scalar conversion)
//   an 8-bit type -> float, double, binary16, bfloat16 (exact): generic at compile time, into
//       tables (tables.hpp), which the kernel types' decode functions look the results up in;
//       the AVX2 path computes float, binary16 and bfloat16 results instead: by byte planes
//       where the 16-bit results are linear in the code's magnitude but for 16 at the bottom and
//       16 at the top (e4m3, e5m2, e3m4, e4m3_ieee and the fnuz formats: kernels_avx2.hpp,
//       decodes_by_byte_planes), else where the codes are binary16 codes once shifted (e2m5:
//       decodes_through_binary16)
//   decimal text -> an 8-bit type: generic, on a dyadic representative (detail/decimal.hpp)
//   float -> e4m3 or e5m2, nearest_even, saturating or not, in CUDA device code on sm_89 and
//       later: device_instruction (detail/convert_value.hpp)
//   float16 or double -> an element of 1 to 5 mantissa bits (e4m3, e5m2, their fnuz forms,
//       e3m4, e2m5, e2m1, e2m3, e3m2, ue4m3), nearest_even, toward_zero or upward, in the
//       scalar casts on the host: the portable column's codes looked up in a table by the float
//       bits, or by a binary16's or a double's own bits (detail/narrowing_table.hpp); float and
//       bfloat16 -> e8m0 the same way (binary16 widened to float first; double generic)
//
// (1) lane_addition where the environment rounds to nearest (fegetround(), and MXCSR where float
//     arithmetic is SSE's) and FLT_EVAL_METHOD is 0, else
//     fixed_point; the scalar casts always take fixed_point (constant expressions, and no
//     question to the environment per value). (2) Where MXCSR rounds to nearest, else the portable
//     path's fixed_point kernel; nearest_even where a NaN's code is not the clamp's (saturation,
//     e5m2's infinity) clamps |x| by VMINPS, which keeps NaNs, then the NaNs to the NaN code's
//     value, with no NaN fix-up (lanes.inc addition_constants::nan_by_float_minimum).
//     (3) Where MXCSR's DAZ is off (checked once per array call), else shifts: upward rounding
//     takes a positive float subnormal to the smallest code, and under DAZ the addition would
//     read it as 0. (4) The nearest-even sum, its code moved one step where that code's value
//     lies on the wrong side of |x| (lanes.inc magnitude_addition); where the target's smallest
//     subnormal is a normal float (every format here), else shifts.
// "float16" is float, binary16 and bfloat16 (the 16-bit formats widen to float exactly first);
// "element" is every one-byte format with subnormals: all but e8m0 (the 8-bit formats, the MX
// elements e2m1, e2m3, e3m2, and the unsigned ue4m3).

// What a path's lane operations offer step 2 (each kernel type's `capabilities`).
enum class float_addition_rounding : std::uint8_t {
  none,        // no float addition whose rounding is known (NEON: FPCR's; the portable path where
               // float arithmetic is not evaluated in float, FLT_EVAL_METHOD != 0: x87)
  embedded,    // the instruction carries its rounding (AVX-512 {rn-sae}, {rz-sae}, {ru-sae}): any
               // MXCSR
  environment, // the environment's (AVX2: MXCSR; the portable arrays: fegetround() and MXCSR
               // where float arithmetic is SSE's): nearest-even
               // where it says so, checked once per array call
};
struct lane_capabilities {
  float_addition_rounding float_addition;
  bool per_lane_shifts;        // a shift count per lane (AVX2, AVX-512, NEON; not baseline SSE2)
  bool binary16_conversion;    // an exact binary16 -> float instruction (F16C)
  bool store4;                 // four vectors of codes packed into one store
  bool double_rounding_to_odd; // doubles rounded to odd into float by instructions (AVX-512;
                               // AVX2 truncates where the last bit cannot matter: spec §2)
  bool fixup_and_lookup32;     // a NaN lanes' fix-up, a lookup among 32 entries and a clamp of
                               // |x| (whatever it makes of a NaN: the fix-up follows), each one
                               // instruction (AVX-512: VFIXUPIMMPS, VPERMI2D, VRANGEPS)
  bool code_bytes_outside;     // whether any of 4 * width codes lies outside a range of
                               // magnitudes, tested on their packed bytes (AVX2, AVX-512)
  bool signs_on_packed_codes;  // 4 * width codes packed from magnitudes and the floats' sign
                               // bits, joined on the packed bytes (AVX2, AVX-512 VBMI)
  bool float_min_keeps_nan;    // a float minimum that returns x where x is a NaN, whatever
                               // the compiler's flags (AVX2: VMINPS's second operand)
  bool masked_tests;           // a bit test that keeps only the lanes of a mask, one
                               // instruction (AVX-512 VPTESTMD with a write mask)
  bool unsigned_minima;        // the report tests' running minima kept unsigned (AVX-512, NEON,
                               // the portable path but under clang), not plus 2^31 and compared
                               // as signed (AVX2's VPCMPGTD): lanes.inc keep_smaller
};

// Whether a path's one-pass block kernels keep the first step's extremes of a report's products
// (lanes.inc blocks_keep_first_step_extremes), and so narrow a wide window of mantissas
// themselves (scaling.hpp quantize_block_groups_on_path): where the window's test is the masked
// bit tests' chain, into a Format with a mantissa.
template <class Format>
constexpr bool blocks_keep_first_step_extremes_on(const lane_capabilities& capabilities) {
  return capabilities.masked_tests && format_info<Format>::mantissa_bits > 0;
}

// The implementations of step 2.
enum class step2_variant : std::uint8_t {
  generic,          // pack() above: the significand shifted in 64-bit arithmetic; any source
  lane_shifts,      // lanes.inc lanes_by_shifts: 32-bit lanes, per-lane shifts
  lane_fixed_point, // lanes.inc lanes_by_fixed_point: fixed shifts and exact float products only
  lane_addition,    // lanes.inc lanes_by_addition: one float addition rounds |x| on the grid
  lane_addition_if_nearest, // lane_addition where the environment rounds to nearest (toward
                            // zero and upward: corrected after it), else the portable path's
                            // lane_fixed_point (and always that in the scalar conversions,
                            // which cannot ask)
  lane_addition_unless_daz, // lane_addition (upward: by lane, up where x > 0, toward zero
                            // where x < 0) where MXCSR does not set DAZ, else lane_shifts
  lane_exponent,            // lanes.inc lanes_by_exponent: e8m0's code is float's exponent
  device_instruction,       // CUDA's cvt.rn.satfinite (sm_89 and later), with the overflow
                            // of the non-saturating conversion put back
};

// The formats the float lane kernels encode into: those with subnormals and less precision than
// float that fit a byte (every 8-bit format but e8m0, the MX elements, ue4m3), and e8m0, whose
// exponent field is float's.
template <class Target>
constexpr bool is_element_lane_target =
    format_info<Target>::has_subnormals&& format_info<Target>::total_bits <= 8 &&
    format_info<Target>::mantissa_bits <= 21 && format_info<Target>::min_normal_exponent <= 0 &&
    format_info<Target>::min_normal_exponent >= -125;
template <class Target>
constexpr bool is_scale_lane_target =
    !format_info<Target>::is_signed && !format_info<Target>::has_subnormals &&
    format_info<Target>::exponent_bits == 8 && format_info<Target>::mantissa_bits == 0 &&
    format_info<Target>::bias == 127;
// The sources the lane kernels read as float bits: float, and the 16-bit formats, which widen
// to float exactly.
template <class Source>
constexpr bool is_lane_source = std::is_same<Source, formats::binary32>::value ||
                                std::is_same<Source, formats::binary16>::value ||
                                std::is_same<Source, formats::bfloat16>::value;

// double -> element in nearest-even, toward zero or upward: the double rounded to odd into
// float first (lanes.inc float_bits_rounded_to_odd), then float's step 2. Float keeps 24 bits,
// at least two more than any such target (mantissa_bits <= 21), and every magnitude below
// float's normals rounds as 2^-126 does where the target's smallest subnormal is 2^-124 or
// more. (Stochastic rounding reads 32 bits of the fraction, which float does not keep.)
template <class Source, class Target, rounding_rule Rule>
constexpr bool reads_through_float = std::is_same<Source, formats::binary64>::value&& Rule !=
                                     rounding_rule::stochastic&& is_element_lane_target<Target>&&
                                                 format_info<Target>::min_normal_exponent -
                                             format_info<Target>::mantissa_bits >=
                                         -124;

// The table above as a function: step 2 for Source -> Target with Rule on a path that has
// `path`'s lane operations.
template <class Source, class Target, rounding_rule Rule>
MINIFLOAT_HOST_DEVICE constexpr step2_variant step2_for(const lane_capabilities& path) noexcept {
  if (!is_lane_source<Source> && !reads_through_float<Source, Target, Rule>) {
    return step2_variant::generic;
  }
  if (is_scale_lane_target<Target>) {
    return step2_variant::lane_exponent;
  }
  if (!is_element_lane_target<Target>) {
    return step2_variant::generic;
  }
  const bool addition_rounds =
      Rule == rounding_rule::nearest_even || Rule == rounding_rule::toward_zero;
  if (path.float_addition == float_addition_rounding::embedded && addition_rounds) {
    return step2_variant::lane_addition;
  }
  if (path.float_addition == float_addition_rounding::embedded && Rule == rounding_rule::upward) {
    return step2_variant::lane_addition_unless_daz;
  }
  // Toward zero and upward from the nearest sum, corrected by the value sum - magic, which must
  // be normal or 0 (no FTZ can flush it): the target's smallest subnormal a normal float. Only
  // on a path with per-lane shifts (AVX2), whose subtraction is an instruction written out: the
  // portable path's is plain C++, which -ffast-math folds with the addition ((s + m) - m = s),
  // and its fixed_point kernel ran toward zero faster anyway (SSE2: 1.30-1.33 el/ns against
  // 1.21-1.23 corrected).
  const bool corrects_nearest =
      (Rule == rounding_rule::upward || Rule == rounding_rule::toward_zero) &&
      path.per_lane_shifts &&
      format_info<Target>::min_normal_exponent - format_info<Target>::mantissa_bits >= -126;
  if (path.float_addition == float_addition_rounding::environment &&
      (Rule == rounding_rule::nearest_even || corrects_nearest)) {
    return step2_variant::lane_addition_if_nearest;
  }
  return path.per_lane_shifts ? step2_variant::lane_shifts : step2_variant::lane_fixed_point;
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_CONVERTER_HPP
