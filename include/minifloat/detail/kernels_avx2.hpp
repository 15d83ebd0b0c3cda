// minifloat: the AVX2 path's kernel type, avx2_kernels (x86-64 AVX2 + F16C + FMA + BMI2 +
// POPCNT: every AVX2 CPU has them): the lane kernels of lanes.inc on 8 lanes, those of words.inc
// on 16 words, decoding by byte planes, through F16C or by gathers, and the FP4 kernels. Included
// by detail/dispatch.hpp (see x86.hpp), and by kernels_avx512.hpp, whose NVFP4 decoding is this
// path's.
#ifndef MINIFLOAT_DETAIL_KERNELS_AVX2_HPP
#define MINIFLOAT_DETAIL_KERNELS_AVX2_HPP

#include "x86.hpp"

// GCC 12's intrinsics seed their pass-through operands with a self-initialised
// "undefined" vector, which -Wuninitialized reports once they are inlined (GCC PR 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace minifloat {
namespace detail {

// ---------------------------------------------------------------------------------------------
// AVX2 (+ F16C, FMA, BMI2: every AVX2 CPU has them): 8 lanes.
namespace avx2 {

#define MINIFLOAT_AVX2_TARGET __attribute__((target("avx2,f16c,fma,bmi2,popcnt")))
#if defined(__OPTIMIZE__) // forced inline only where optimizing: lanes.inc says why
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX2_TARGET __attribute__((always_inline)) inline
#else
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX2_TARGET inline
#endif
#define MINIFLOAT_ARRAY_FN MINIFLOAT_AVX2_TARGET inline
#define MINIFLOAT_UNROLLED _Pragma("GCC unroll 16") // (lanes.inc says why)
#define MINIFLOAT_ROLLED _Pragma("GCC unroll 1")    // (lanes.inc says why)

// Float addition in MXCSR's rounding (checked per call), per-lane shifts, F16C, packed stores,
// doubles truncated into float by VCVTPD2PS where that is exact (load_double_as_float_bits),
// codes' magnitudes tested on their packed bytes, a float minimum that keeps NaNs.
constexpr lane_capabilities capabilities{
    float_addition_rounding::environment, // float_addition
    true,                                 // per_lane_shifts
    true,                                 // binary16_conversion
    true,                                 // store4
    true,                                 // double_rounding_to_odd
    false,                                // fixup_and_lookup32
    true,                                 // code_bytes_outside
    true,                                 // signs_on_packed_codes
    true,                                 // float_min_keeps_nan
    false,                                // masked_tests
    false                                 // unsigned_minima
};

using u32v = __m256i;
using maskv = __m256i; // all ones in a true lane

constexpr std::size_t width = 8;
MINIFLOAT_LANE_FN u32v splat(std::uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
MINIFLOAT_LANE_FN u32v iota() { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
MINIFLOAT_LANE_FN u32v add(u32v a, u32v b) { return _mm256_add_epi32(a, b); }
MINIFLOAT_LANE_FN u32v sub(u32v a, u32v b) { return _mm256_sub_epi32(a, b); }
MINIFLOAT_LANE_FN u32v and_(u32v a, u32v b) { return _mm256_and_si256(a, b); }
MINIFLOAT_LANE_FN u32v or_(u32v a, u32v b) { return _mm256_or_si256(a, b); }
MINIFLOAT_LANE_FN u32v xor_(u32v a, u32v b) { return _mm256_xor_si256(a, b); }
MINIFLOAT_LANE_FN u32v mul_lo(u32v a, u32v b) { return _mm256_mullo_epi32(a, b); }
template <unsigned N>
MINIFLOAT_LANE_FN u32v shr(u32v a) {
  return _mm256_srli_epi32(a, N);
}
// x >> 16 as a byte shuffle (VPSHUFB, on port 5 of Intel cores, beside the multiplies and
// shifts of lanes.inc counter_bits_lanes on ports 0 and 1).
MINIFLOAT_LANE_FN u32v shr16_lanes(u32v a) {
  const __m256i high_halves =
      _mm256_set_epi8(-1, -1, 15, 14, -1, -1, 11, 10, -1, -1, 7, 6, -1, -1, 3, 2, -1, -1, 15, 14,
                      -1, -1, 11, 10, -1, -1, 7, 6, -1, -1, 3, 2);
  return _mm256_shuffle_epi8(a, high_halves);
}
template <unsigned N>
MINIFLOAT_LANE_FN u32v shl(u32v a) {
  return _mm256_slli_epi32(a, N);
}
MINIFLOAT_LANE_FN u32v shrv(u32v a, u32v count) { return _mm256_srlv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v shlv(u32v a, u32v count) { return _mm256_sllv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v min_u(u32v a, u32v b) { return _mm256_min_epu32(a, b); }
// The float minimum of limit and x (float bits), x itself where x is a NaN: VMINPS returns its
// second source operand where either is a NaN. In an asm statement, so that no compiler flag
// (-ffinite-math-only takes the intrinsic's minimum as commutative) swaps the operands. Both in
// registers ("x", not "xm"): given the choice, clang 14 stored x to the stack and read it back
// as the memory operand, in every vector (saturating float -> e4m3 on AVX2: 6.2-6.4 el/ns
// against g++'s 7.4-7.8, AMD Zen 5; docs/performance.md, stop 81).
MINIFLOAT_LANE_FN u32v min_f32_keeping_nan(u32v limit, u32v x) {
  __m256 result;
  __asm__("vminps {%2, %1, %0|%0, %1, %2}"
          : "=x"(result)
          : "x"(_mm256_castsi256_ps(limit)), "x"(_mm256_castsi256_ps(x)));
  return _mm256_castps_si256(result);
}
MINIFLOAT_LANE_FN u32v max_u(u32v a, u32v b) { return _mm256_max_epu32(a, b); }
MINIFLOAT_LANE_FN maskv eq(u32v a, u32v b) { return _mm256_cmpeq_epi32(a, b); }
MINIFLOAT_LANE_FN maskv gt_u(u32v a, u32v b) {
  // AVX2 compares signed lanes: flipping the top bit maps unsigned order onto signed order.
  const u32v top = _mm256_set1_epi32(static_cast<int>(0x80000000U));
  return _mm256_cmpgt_epi32(_mm256_xor_si256(a, top), _mm256_xor_si256(b, top));
}
// Lanes below 2^31 order the same signed and unsigned.
MINIFLOAT_LANE_FN maskv gt_small(u32v a, u32v b) { return _mm256_cmpgt_epi32(a, b); }
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return _mm256_blendv_epi8(b, a, m); }
// (VPOR: one micro-op on every port; VPBLENDVB takes two or three on Intel cores.)
MINIFLOAT_LANE_FN u32v all_ones_where(maskv m, u32v a) { return _mm256_or_si256(a, m); }
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return _mm256_and_si256(a, b); }
MINIFLOAT_LANE_FN maskv mask_or(maskv a, maskv b) { return _mm256_or_si256(a, b); }
MINIFLOAT_LANE_FN maskv mask_and_not(maskv a, maskv b) { return _mm256_andnot_si256(b, a); }
MINIFLOAT_LANE_FN bool any_lane(maskv m) { return _mm256_testz_si256(m, m) == 0; }
MINIFLOAT_LANE_FN std::uint32_t mask_bits(maskv m) {
  return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
}
// How many lanes are set.
MINIFLOAT_LANE_FN std::size_t count_lanes(maskv m) {
  return static_cast<std::size_t>(_mm_popcnt_u32(mask_bits(m)));
}
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) { return _mm256_sub_epi32(a, m); }
MINIFLOAT_LANE_FN u32v dec_if(maskv m, u32v a) { return _mm256_add_epi32(a, m); }
MINIFLOAT_LANE_FN u32v int_to_float_bits(u32v a) {
  return _mm256_castps_si256(_mm256_cvtepi32_ps(a));
}
// The rounding is MXCSR's: callers use this only after checking that it is Rule's.
template <rounding_rule Rule>
MINIFLOAT_LANE_FN u32v add_f32(u32v a, u32v b) {
  return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
}
// The product of float lanes by a float in the current floating-point environment, as the
// scalar x * scale is.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_set1_ps(b)));
}
MINIFLOAT_LANE_FN u32v min_small(u32v a, u32v b) { return _mm256_min_epi32(a, b); }
MINIFLOAT_LANE_FN u32v max_small(u32v a, u32v b) { return _mm256_max_epi32(a, b); }
// a / b for float lanes, correctly rounded in the current environment: the instruction written
// out, since g++ -ffast-math computes a vector division as a reciprocal estimate and one Newton
// step (not correctly rounded).
MINIFLOAT_LANE_FN u32v quotient_f32(u32v a, u32v b) {
  __m256 quotient;
  __asm__("vdivps {%2, %1, %0|%0, %1, %2}"
          : "=x"(quotient)
          : "x"(_mm256_castsi256_ps(a)), "x"(_mm256_castsi256_ps(b)));
  return _mm256_castps_si256(quotient);
}
// a - b for float lanes in the current environment: the instruction written out too, since
// g++ -ffast-math folds (s + m) - m into s (NVFP4's scale byte value, the magnitude addition's
// sum less its magic constant, came out unrounded).
MINIFLOAT_LANE_FN u32v sub_f32(u32v a, u32v b) {
  __m256 difference;
  __asm__("vsubps {%2, %1, %0|%0, %1, %2}"
          : "=x"(difference)
          : "x"(_mm256_castsi256_ps(a)), "x"(_mm256_castsi256_ps(b)));
  return _mm256_castps_si256(difference);
}
// a * b for float lanes (lane by lane) in the current environment.
MINIFLOAT_LANE_FN u32v product_f32(u32v a, u32v b) {
  return _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
}
MINIFLOAT_LANE_FN u32v truncate_f32(u32v a) { return _mm256_cvttps_epi32(_mm256_castsi256_ps(a)); }

MINIFLOAT_LANE_FN maskv first_lanes(std::size_t count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), iota());
}
// (a & m) | (b & ~m) (lanes_by_addition's sign).
MINIFLOAT_LANE_FN u32v bit_select(u32v m, u32v a, u32v b) {
  return _mm256_or_si256(_mm256_and_si256(a, m), _mm256_andnot_si256(m, b));
}
MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
MINIFLOAT_LANE_FN void store_u32(std::uint32_t* p, u32v a) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a);
}
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t count) {
  // Masked-off lanes are not read (no fault past the end of the array).
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), first_lanes(count));
}
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) {
  return _mm256_castps_si256(_mm256_loadu_ps(p));
}
// `width` stored codes, widened (the reports' rare second look, lanes.inc).
MINIFLOAT_LANE_FN u32v load_codes(const std::uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t count) {
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), first_lanes(count));
}
// 8 doubles' two 32-bit words each (sign, exponent and top 20 mantissa bits; low 32 bits): the
// even and odd dwords of two loads picked within 128-bit lanes, then the quadwords put in order.
MINIFLOAT_LANE_FN void split_double_words(__m256i first, __m256i second, u32v& high, u32v& low) {
  const __m256 a = _mm256_castsi256_ps(first);
  const __m256 b = _mm256_castsi256_ps(second);
  low = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88)), 0xD8);
  high = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8);
}
MINIFLOAT_LANE_FN void load_double_words(const double* p, u32v& high, u32v& low) {
  split_double_words(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4)), high, low);
}
MINIFLOAT_LANE_FN __m256i first_doubles(std::size_t count) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(count)),
                            _mm256_setr_epi64x(0, 1, 2, 3));
}
MINIFLOAT_LANE_FN void load_double_words_partial(const double* p, std::size_t count, u32v& high,
                                                 u32v& low) {
  // Masked-off lanes are not read (no fault past the end of the array).
  const auto* words = reinterpret_cast<const long long*>(p);
  const __m256i first = _mm256_maskload_epi64(words, first_doubles(count));
  const __m256i second = count > 4 ? _mm256_maskload_epi64(words + 4, first_doubles(count - 4))
                                   : _mm256_setzero_si256();
  split_double_words(first, second, high, low);
}
// Doubles rounded to odd into float (docs/spec.md §2; lanes.inc float_bits_rounded_to_odd,
// defined there, is the definition and the fallback).
MINIFLOAT_LANE_FN u32v float_bits_rounded_to_odd(u32v high, u32v low);
// 8 doubles rounded to odd into float by the integer definition, out of line: inlined into the
// loops, its constants took the registers of the fast path's (which then loaded them from the
// stack).
MINIFLOAT_AVX2_TARGET __attribute__((noinline, cold)) inline u32v
double_words_as_float_bits(const double* p) {
  u32v high = splat(0U);
  u32v low = splat(0U);
  load_double_words(p, high, low);
  return float_bits_rounded_to_odd(high, low);
}
// Which of 8 doubles (in two vectors) have the bits of `mask` all 0, lane i as bit i.
MINIFLOAT_LANE_FN int doubles_with_bits_clear(__m256i first, __m256i second, long long mask) {
  const __m256i m = _mm256_set1_epi64x(mask);
  const __m256i zero = _mm256_setzero_si256();
  return _mm256_movemask_pd(
             _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(first, m), zero))) |
         _mm256_movemask_pd(
             _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(second, m), zero)))
             << 4;
}
// 8 doubles as float bits that every 8-bit target rounds as it rounds the doubles: truncated at
// float's precision (the 29 bits float does not keep cleared), which VCVTPD2PS converts exactly
// whatever MXCSR's rounding, FTZ and DAZ where the result is a normal float. Truncation differs
// from rounding to odd (docs/spec.md §2) only in the last bit of an inexact lane, and that bit
// can change a target's rounding only where the truncated float lies on one of the target's
// boundaries: a value of its grid (toward zero, upward, overflow) or halfway between two
// (nearest). A target of at most 7 mantissa bits spaces those at least 2^15 float steps apart,
// so there the float's low 12 bits are 0. Lanes with those bits 0 and lanes whose result is not
// a normal float (zeros, subnormals, infinities, NaNs: the environment can change those) are
// looked at again (rare, but zeros are common in real data): exact zeros and exact values pass,
// any other sends the vector to the integer definition of rounding to odd. (Three operations
// per 8 lanes for the doubt, where rounding to odd took six more than the truncation: AVX2
// double -> e4m3 0.37 -> 0.40-0.42 x float -> e4m3, AMD Zen 5, g++ 12 and clang 14;
// docs/performance.md, stop 64.) The steps: truncated_double_float_bits, then
// checked_double_float_bits.
MINIFLOAT_LANE_FN u32v truncated_double_float_bits(__m256i first, __m256i second) {
  const __m256i cut = _mm256_set1_epi64x(0x1FFFFFFF);
  const __m256 converted = _mm256_insertf128_ps(
      _mm256_castps128_ps256(_mm256_cvtpd_ps(_mm256_castsi256_pd(_mm256_andnot_si256(cut, first)))),
      _mm256_cvtpd_ps(_mm256_castsi256_pd(_mm256_andnot_si256(cut, second))), 1);
  return _mm256_castps_si256(converted);
}
// The look again for the truncated bits of the 8 doubles at p: bits where no lane is doubtful
// or every doubtful lane is an exact zero or exact; else the integer definition.
MINIFLOAT_LANE_FN u32v checked_double_float_bits(const double* p, u32v bits) {
  // The bits of |f| plus 0x00800000 (one more in the exponent field) lie in [0x01000000,
  // 0x7FFFFFFF] for normal floats; below them for zeros and subnormals, and negative for
  // infinities and NaNs (exponent 255 carried into the sign bit): one signed compare.
  const u32v raised = add(and_(bits, splat(0x7FFFFFFFU)), splat(0x00800000U));
  const __m256i not_normal = _mm256_cmpgt_epi32(splat(0x01000000U), raised);
  const __m256i on_boundary = _mm256_cmpeq_epi32(and_(bits, splat(0xFFFU)), splat(0U));
  const int doubtful =
      _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(not_normal, on_boundary)));
  if (doubtful == 0) {
    return bits;
  }
  const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i second = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4));
  const int zeros = doubles_with_bits_clear(first, second, 0x7FFFFFFFFFFFFFFF);
  const int exact = doubles_with_bits_clear(first, second, 0x1FFFFFFF);
  const int unsure = _mm256_movemask_ps(_mm256_castsi256_ps(not_normal));
  if ((unsure & ~zeros) == 0 && (doubtful & ~exact) == 0) {
    return bits;
  }
  return double_words_as_float_bits(p);
}
MINIFLOAT_LANE_FN u32v load_double_as_float_bits(const double* p) {
  return checked_double_float_bits(
      p, truncated_double_float_bits(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4))));
}
// load_double_as_float_bits for 32 doubles, one test of doubt for the four vectors: per lane, a
// field of each 16-bit half that is 0 exactly where the lane is doubtful, (high half + 0x80) &
// 0x7F00 (0 for the exponent fields 0 and 255; the carry of 255's leaves the half) and low half
// & 0x0FFF (the boundary's 12 bits); 1 - field, saturated, is 1 there and 0 elsewhere, and one
// VPTEST of the four vectors' OR finds any: four operations per 8 lanes (an addition, an AND,
// the subtraction, an OR) and a test and a branch per 32, where load_double_as_float_bits's test
// takes seven per 8 and a branch (docs/performance.md, stop 73); a group with a doubtful lane
// takes that test vector by vector.
MINIFLOAT_LANE_FN void load_doubles4_as_float_bits(const double* p, u32v (&bits)[4]) {
  __m256i doubtful = _mm256_setzero_si256();
  MINIFLOAT_UNROLLED
  for (std::size_t v = 0; v < 4; ++v) {
    const double* q = p + 8 * v;
    bits[v] =
        truncated_double_float_bits(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)),
                                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 4)));
    const __m256i fields = and_(_mm256_add_epi16(bits[v], splat(0x00800000U)), splat(0x7F000FFFU));
    doubtful = _mm256_or_si256(doubtful, _mm256_subs_epu16(_mm256_set1_epi16(1), fields));
  }
  if (_mm256_testz_si256(doubtful, doubtful) != 0) {
    return;
  }
  MINIFLOAT_UNROLLED
  for (std::size_t v = 0; v < 4; ++v) {
    bits[v] = checked_double_float_bits(p + 8 * v, bits[v]);
  }
}
MINIFLOAT_LANE_FN u32v load_double_as_float_bits_partial(const double* p, std::size_t count) {
  u32v high = splat(0U);
  u32v low = splat(0U);
  load_double_words_partial(p, count, high, low);
  return float_bits_rounded_to_odd(high, low);
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) {
  return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
MINIFLOAT_LANE_FN u32v load_halves_partial(const std::uint16_t* p, std::size_t count) {
  std::uint16_t buffer[width] = {};
  for (std::size_t i = 0; i < count; ++i) {
    buffer[i] = p[i];
  }
  return load_halves(buffer);
}
// binary16 -> float bits by F16C: exact, and DAZ does not apply to it (a signalling NaN comes
// out quiet, which no 8-bit code tells apart).
MINIFLOAT_LANE_FN u32v load_binary16_as_float_bits(const std::uint16_t* p) {
  return _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
MINIFLOAT_LANE_FN u32v load_binary16_as_float_bits_partial(const std::uint16_t* p,
                                                           std::size_t count) {
  std::uint16_t buffer[width] = {};
  for (std::size_t i = 0; i < count; ++i) {
    buffer[i] = p[i];
  }
  return load_binary16_as_float_bits(buffer);
}
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v codes) {
  // Codes are below 256: two saturating packs leave them as bytes 0-3 of each 128-bit half.
  const __m256i words = _mm256_packus_epi32(codes, codes);
  const __m256i bytes = _mm256_packus_epi16(words, words);
  const __m256i ordered =
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(ordered));
}
// 16 codes from two vectors, a's 8 then b's, to p: the packs leave a0-3 b0-3 | a4-7 b4-7 as
// dwords 0, 1 | 4, 5, and one permute puts them in order.
MINIFLOAT_LANE_FN void store_codes2(std::uint8_t* p, u32v a, u32v b) {
  const __m256i words = _mm256_packus_epi32(a, b);
  const __m256i bytes = _mm256_packus_epi16(words, words);
  const __m256i ordered =
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(ordered));
}
// 32 codes from four vectors: the same packs take two vectors each, leaving, in each 128-bit
// half h, bytes 4h..4h+3 of a, b, c and d in turn; one permute puts those dwords in order.
MINIFLOAT_LANE_FN __m256i codes4(u32v a, u32v b, u32v c, u32v d) {
  const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
  return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
MINIFLOAT_LANE_FN void store_codes4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), codes4(a, b, c, d));
}
// 32 FP4 codes (each lane below 16) packed two per byte into 16 bytes at p, element 2k in the low
// nibble of byte k (packed.hpp): the codes' bytes in order (codes4), VPMADDUBSW making each pair
// (c0, c1) the word c0 + 16 c1, and one pack of the two halves' words to their low bytes.
MINIFLOAT_LANE_FN void store_nibble_pairs4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  const __m256i weights = _mm256_set1_epi16(0x1001); // bytes 1, 16
  const __m256i words = _mm256_maddubs_epi16(codes4(a, b, c, d), weights);
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(p),
      _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
}
// Whether any of the 32 codes has a magnitude (its low 7 bits) outside [first, last], on the
// packed codes (kernels_avx512.hpp's any_code4_outside; the order of the bytes does not matter,
// so not after codes4's permute), the unsigned comparison as a signed one of the bytes ^ 0x80.
MINIFLOAT_LANE_FN bool any_code4_outside(u32v a, u32v b, u32v c, u32v d, std::uint32_t first,
                                         std::uint32_t last) {
  const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
  // 2 code - 2 first, ^ 0x80 (so 0x80 - 2 first added), against 2 (last - first) ^ 0x80.
  const __m256i offset = _mm256_add_epi8(_mm256_add_epi8(bytes, bytes),
                                         _mm256_set1_epi8(static_cast<char>(0x80 - 2 * first)));
  return _mm256_movemask_epi8(_mm256_cmpgt_epi8(
             offset, _mm256_set1_epi8(static_cast<char>((2 * (last - first)) ^ 0x80)))) != 0;
}
// 32 codes from the magnitudes in the low 7 bits of four vectors a, b, c, d (the bits above
// ignored) and the sign bits of four vectors of floats fa, fb, fc, fd: the magnitudes masked and
// packed as codes4 packs them; the floats packed in the same order with signed saturation, which
// keeps each sign as its byte's top bit (a negative float, as an integer below -2^15, becomes
// the word 0x8000, then the byte 0x80; any other a byte below 0x80); the two joined, then one
// permute. 13 instructions, where a sign shift and a bit select per vector and codes4 took 20.
// (In two steps, so that a report tests the magnitudes before the signs join them:
// packed_magnitudes4, in the packs' order, then signed_codes4.)
MINIFLOAT_LANE_FN __m256i packed_magnitudes4(u32v a, u32v b, u32v c, u32v d) {
  const __m256i low7 = _mm256_set1_epi32(0x7F);
  return _mm256_packus_epi16(
      _mm256_packus_epi32(_mm256_and_si256(a, low7), _mm256_and_si256(b, low7)),
      _mm256_packus_epi32(_mm256_and_si256(c, low7), _mm256_and_si256(d, low7)));
}
MINIFLOAT_LANE_FN __m256i signed_codes4(__m256i magnitudes, u32v fa, u32v fb, u32v fc, u32v fd) {
  const __m256i signs = _mm256_packs_epi16(_mm256_packs_epi32(fa, fb), _mm256_packs_epi32(fc, fd));
  const __m256i bytes = _mm256_or_si256(
      magnitudes, _mm256_and_si256(signs, _mm256_set1_epi8(static_cast<char>(0x80))));
  return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
MINIFLOAT_LANE_FN __m256i codes4_signed(u32v a, u32v b, u32v c, u32v d, u32v fa, u32v fb, u32v fc,
                                        u32v fd) {
  return signed_codes4(packed_magnitudes4(a, b, c, d), fa, fb, fc, fd);
}
MINIFLOAT_LANE_FN void store_codes4_signed(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d, u32v fa,
                                           u32v fb, u32v fc, u32v fd) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), codes4_signed(a, b, c, d, fa, fb, fc, fd));
}
// 32 packed codes to p: through the caches, or with a streaming store (p on a
// 32-byte boundary).
MINIFLOAT_LANE_FN void store_packed4(std::uint8_t* p, __m256i codes) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), codes);
}
MINIFLOAT_LANE_FN void store_packed4_streaming(std::uint8_t* p, __m256i codes) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), codes);
}
// Which of packed_magnitudes4's 32 magnitudes (below 128) lie outside [first, last], as the bits
// of a byte mask: any_code4_outside's comparison, the magnitude - first ^ 0x80 (0x80 - first
// added) against (last - first) ^ 0x80, signed.
MINIFLOAT_LANE_FN std::uint32_t magnitudes4_outside(__m256i magnitudes, std::uint32_t first,
                                                    std::uint32_t last) {
  const __m256i offset =
      _mm256_add_epi8(magnitudes, _mm256_set1_epi8(static_cast<char>(0x80 - first)));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(
      _mm256_cmpgt_epi8(offset, _mm256_set1_epi8(static_cast<char>((last - first) ^ 0x80)))));
}
// The smaller of each byte of two packed_magnitudes4 vectors (a running minimum of a group's
// magnitudes, tested once by any_magnitude4_outside).
MINIFLOAT_LANE_FN u32v min_magnitudes4(u32v a, u32v b) { return _mm256_min_epu8(a, b); }
// Whether any lies outside, and how many lie inside (32 less the mask's population count).
MINIFLOAT_LANE_FN bool any_magnitude4_outside(__m256i magnitudes, std::uint32_t first,
                                              std::uint32_t last) {
  return magnitudes4_outside(magnitudes, first, last) != 0;
}
MINIFLOAT_LANE_FN std::size_t count_magnitudes4_in(__m256i magnitudes, std::uint32_t first,
                                                   std::uint32_t last) {
  return 32U -
         static_cast<std::size_t>(_mm_popcnt_u32(magnitudes4_outside(magnitudes, first, last)));
}
// The same to a 32-byte aligned p by a streaming store (encode_array's NonTemporal).
MINIFLOAT_LANE_FN void store_codes4_streaming(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), codes4(a, b, c, d));
}
// The vectors as they are, in registers (kernels_avx512.hpp's kept_in_registers).
template <class Source>
MINIFLOAT_LANE_FN void kept_in_registers(const Source& /*src*/, u32v (&v)[4]) {
  __asm__("" : "+x"(v[0]), "+x"(v[1]), "+x"(v[2]), "+x"(v[3]));
}
// 4 KiB ahead (prefetch_block): the best of 1, 4, 8 and 16 KiB for 64 Mi floats to e4m3 on the
// CI machine.
constexpr std::size_t prefetch_distance = 4096;
MINIFLOAT_LANE_FN void store_codes_partial(std::uint8_t* p, u32v codes, std::size_t count) {
  std::uint8_t buffer[16];
  store_codes(buffer, codes);
  for (std::size_t i = 0; i < count; ++i) {
    p[i] = buffer[i];
  }
}

// The largest lane.
MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) {
  const __m128i four = _mm_max_epu32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
  const __m128i two = _mm_max_epu32(four, _mm_shuffle_epi32(four, 0x4E));
  return static_cast<std::uint32_t>(
      _mm_cvtsi128_si32(_mm_max_epu32(two, _mm_shuffle_epi32(two, 0xB1))));
}

// Per 128-bit half: the maxima of a's lane pairs (0, 1), (2, 3), then b's.
MINIFLOAT_LANE_FN u32v max_of_pairs(u32v a, u32v b) {
  const __m256 af = _mm256_castsi256_ps(a);
  const __m256 bf = _mm256_castsi256_ps(b);
  return _mm256_max_epu32(_mm256_castps_si256(_mm256_shuffle_ps(af, bf, 0x88)),
                          _mm256_castps_si256(_mm256_shuffle_ps(af, bf, 0xDD)));
}
// Lane k: the largest lane of m[k]. Two rounds of max_of_pairs, then one across the halves;
// the lanes end in order.
MINIFLOAT_LANE_FN u32v max_of_each(const u32v (&m)[8]) {
  // [m0 lanes 0-3, m1 0-3, m2 0-3, m3 0-3 | the same for lanes 4-7], and m4 to m7 likewise.
  const u32v low = max_of_pairs(max_of_pairs(m[0], m[1]), max_of_pairs(m[2], m[3]));
  const u32v high = max_of_pairs(max_of_pairs(m[4], m[5]), max_of_pairs(m[6], m[7]));
  return _mm256_max_epu32(_mm256_permute2x128_si256(low, high, 0x20),
                          _mm256_permute2x128_si256(low, high, 0x31));
}

#include "lanes.inc"

// 32 bytes of results to p: through the caches, or streamed (p on a 32-byte boundary).
template <bool NonTemporal>
MINIFLOAT_LANE_FN void store_results(__m256i* p, __m256i v) {
  if constexpr (NonTemporal) {
    _mm256_stream_si256(p, v);
  } else {
    _mm256_storeu_si256(p, v);
  }
}
// Decoding: a gather from the 256-entry table of results. NonTemporal: streaming stores,
// for a dst aligned to 32 bytes (see with_aligned_stores).
template <bool NonTemporal>
MINIFLOAT_ARRAY_FN void decode_array(const std::uint32_t* table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  const int* entries = reinterpret_cast<const int*>(table);
  std::size_t i = 0;
  for (; n - i >= width; i += width) {
    const __m256i codes =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + i)));
    const __m256i results = _mm256_i32gather_epi32(entries, codes, 4);
    store_results<NonTemporal>(reinterpret_cast<__m256i*>(dst + i), results);
  }
  // The tail: fewer than `width` elements. (The explicit bound also keeps GCC 12 from
  // -Waggressive-loop-optimizations when a refused call's constants reach this loop.)
  for (std::size_t k = 0; k < width && i + k < n; ++k) {
    dst[i + k] = table[src[i + k]];
  }
}

// Decoding by arithmetic, for the formats whose codes are binary16 codes once shifted
// (decodes_through_binary16): a code's magnitude bits moved to binary16's place, its sign to
// bit 15, make the binary16 of its value times 2^(bias - 15), subnormals included; F16C widens
// that to float exactly (DAZ does not apply to it), and a product by 2^(15 - bias) (exact, the
// results normal) gives the value. NaN codes are given the quiet NaN the table has (F16C would
// keep their payloads). 16 codes per iteration, about one instruction per result; no gather
// (about 11 cycles per 8 lanes on Zen 5) and no table. 16-bit results are those floats
// narrowed, which is exact (every such format's values are binary16 and bfloat16 values): by
// F16C for binary16, by their top halves for bfloat16 (quiet NaNs stay quiet: 0x7E00, 0x7FC0).
// (An unsigned format of 7 bits, ue4m3, reads a byte's top bit as nothing: keep drops it.)
template <class Format>
constexpr bool decodes_through_binary16 =
    format_info<Format>::total_bits == (format_info<Format>::is_signed ? 8 : 7) &&
    (format_info<Format>::has_subnormals) && format_info<Format>::exponent_bits <= 5 &&
    (format_info<Format>::exponent_bits < 5
         ? format_info<Format>::special_values != specials::ieee
         : format_info<Format>::special_values == specials::ieee);
// The results' types: float, or a 16-bit type whose format is binary16 or bfloat16.
template <class To>
constexpr bool decodes_to_16_bits =
    sizeof(To) == 2 && (std::is_same<typename value_traits<To>::format, formats::binary16>::value ||
                        std::is_same<typename value_traits<To>::format, formats::bfloat16>::value);
template <class Format>
struct binary16_decoder {
  using info = format_info<Format>;
  static constexpr int shift = 10 - static_cast<int>(info::mantissa_bits);
  // The table's NaNs: quiet, with the code's sign (fnuz: its one NaN's), 0x7E00 in binary16.
  static constexpr std::uint32_t nan_float =
      code_table_for<Format, formats::binary32>[info::nan_code];
  static_assert((nan_float & 0x7FFFFFFFU) == 0x7FC00000U, "a canonical quiet NaN");
  static_assert((code_table_for<Format, formats::binary16>[info::nan_code] & 0x7FFFU) == 0x7E00U &&
                    (code_table_for<Format, formats::bfloat16>[info::nan_code] & 0x7FFFU) ==
                        0x7FC0U,
                "the 16-bit tables' NaNs are the narrowed float NaN");
  __m256i keep;
  __m256i low7;
  __m256i quiet_nan;
  __m256 factor;
  MINIFLOAT_LANE_FN binary16_decoder()
      // The sign-extended code shifted left: its magnitude at binary16's place, and copies of
      // the sign from there up, of which bit 15 is kept.
      : keep(_mm256_set1_epi16(static_cast<short>(static_cast<std::uint16_t>(
            (info::is_signed ? 0x8000U : 0U) | (info::magnitude_mask << shift))))),
        low7(_mm256_set1_epi16(0x7F)),
        quiet_nan(_mm256_set1_epi16(static_cast<short>(0x7E00U | (nan_float >> 16 & 0x8000U)))),
        factor(_mm256_set1_ps(static_cast<float>(1ULL << (15 + 40 - info::bias)) / 0x1p40f)) {}

  // The values of the 16 codes at p, as floats: codes 0-7 in low, 8-15 in high.
  MINIFLOAT_LANE_FN void decode16(const std::uint8_t* p, __m256& low, __m256& high) const {
    const __m256i code = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    __m256i half = _mm256_slli_epi16(code, shift);
    if constexpr (shift != 8) {
      half = _mm256_and_si256(half, keep);
    }
    if constexpr (info::special_values == specials::fnuz) {
      half = _mm256_blendv_epi8(half, quiet_nan, _mm256_cmpeq_epi16(code, _mm256_set1_epi16(-128)));
    } else {
      // NaN codes, with their sign: quiet_nan carries +, the code's sign is bit 15 of half.
      const __m256i magnitude = _mm256_and_si256(code, low7);
      const __m256i is_nan =
          info::special_values == specials::ieee
              ? _mm256_cmpgt_epi16(magnitude,
                                   _mm256_set1_epi16(static_cast<short>(info::infinity_code)))
              : _mm256_cmpeq_epi16(magnitude, low7);
      const __m256i signed_nan =
          _mm256_or_si256(quiet_nan, _mm256_and_si256(half, _mm256_set1_epi16(-32768)));
      half = _mm256_blendv_epi8(half, signed_nan, is_nan);
    }
    low = _mm256_cvtph_ps(_mm256_castsi256_si128(half));
    high = _mm256_cvtph_ps(_mm256_extracti128_si256(half, 1));
    if constexpr (info::bias != 15) {
      low = _mm256_mul_ps(low, factor);
      high = _mm256_mul_ps(high, factor);
    }
  }
};
template <class Format, bool NonTemporal, class To>
MINIFLOAT_ARRAY_FN void decode_through_binary16(const std::uint8_t* src, std::size_t n, To* dst) {
  static_assert(std::is_same<To, float>::value || decodes_to_16_bits<To>, "float or 16 bits");
  const binary16_decoder<Format> decoder;
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 16; i != blocks_end; i += 16) {
    __m256 low;
    __m256 high;
    decoder.decode16(src + i, low, high);
    auto* out = reinterpret_cast<__m256i*>(dst + i);
    if constexpr (std::is_same<To, float>::value) {
      store_results<NonTemporal>(out, _mm256_castps_si256(low));
      store_results<NonTemporal>(out + 1, _mm256_castps_si256(high));
    } else {
      __m256i results;
      if constexpr (std::is_same<typename value_traits<To>::format, formats::binary16>::value) {
        results = _mm256_set_m128i(_mm256_cvtps_ph(high, _MM_FROUND_TO_NEAREST_INT),
                                   _mm256_cvtps_ph(low, _MM_FROUND_TO_NEAREST_INT));
      } else {
        // The top halves, packed within 128-bit lanes (low 0-3, high 0-3, low 4-7, high 4-7),
        // then the quadwords put in order.
        results = _mm256_permute4x64_epi64(
            _mm256_packus_epi32(_mm256_srli_epi32(_mm256_castps_si256(low), 16),
                                _mm256_srli_epi32(_mm256_castps_si256(high), 16)),
            0xD8);
      }
      store_results<NonTemporal>(out, results);
    }
  }
  // The tail, fewer than 16: from the table.
  const auto& table = code_table_for<Format, typename value_traits<To>::format>;
  for (std::size_t k = 0; k < 16 && i + k < n; ++k) {
    dst[i + k] = value_traits<To>::from_code(table[src[i + k]]);
  }
}

// Decoding by byte planes, for the formats whose 16-bit results Out (bfloat16 or binary16; a
// float result is the bfloat16 result << 16, tables.hpp byte_lookup_for) are linear in the
// code's magnitude c but for the 16 smallest magnitudes (zero, subnormals) and the 16 largest
// (infinity, NaNs): (c << (K - M)) + (R << K), K the result's mantissa bits, M the code's, R
// the result's bias less the code's. That sum's high and low bytes come from c by a byte shift
// each (a 16-bit shift and a mask), the high one plus a constant (R << K has no low byte: for
// bfloat16 and an odd R, c + 2^M with R - 1); the corrections from two 16-entry VPSHUFB tables
// per byte, indexed by c + 0x70 and c + 0x90 (mod 256: bit 7, which VPSHUFB reads as "none", is
// clear for c below 16 and for c from 0x70 on); then the code's sign ORed into the high byte
// (the fnuz formats' NaN, 0x80, by a compare and two selects) and the two bytes interleaved.
// e4m3, e5m2, e3m4, e4m3_ieee and the fnuz formats fit
// (make_linear_byte_planes checks every code against the tables at compile time): about 23
// instructions per 32 bfloat16 results, where decode_through_binary16 takes 22 per 16, and a
// zero extension by unpacks per 8 floats.
struct linear_byte_planes {
  bool fits;
  std::uint8_t bump; // added to c first: 2^M, or 0
  // The high byte: (c + bump) >> high_shift, masked, + high_add; the low byte: (c + bump) <<
  // low_shift, masked.
  int high_shift;
  std::uint8_t high_add;
  int low_shift;
  bool corrects_bottom; // whether a magnitude below 16 is corrected
  bool corrects_top;    // whether a magnitude from 0x70 on is corrected
  // The fnuz formats: code 0x80 (not -0) is NaN, whose bytes replace the sum's.
  bool negative_zero_is_nan;
  std::uint8_t nan_high;
  std::uint8_t nan_low;
  // Each 16-entry table twice (one per 128-bit lane): the bottom's indexed by c, the top's by
  // c - 0x70.
  alignas(32) std::array<std::uint8_t, 32> bottom_high;
  alignas(32) std::array<std::uint8_t, 32> bottom_low;
  alignas(32) std::array<std::uint8_t, 32> top_high;
  alignas(32) std::array<std::uint8_t, 32> top_low;
};
template <class Format, class Out>
constexpr linear_byte_planes make_linear_byte_planes() noexcept {
  linear_byte_planes planes{};
  constexpr int M = format_info<Format>::mantissa_bits;
  constexpr int K = format_info<Out>::mantissa_bits;
  constexpr int t = K - M; // c's place in the result
  if constexpr (format_info<Format>::total_bits != 8 || !format_info<Format>::is_signed || t < 0 ||
                t > 8) {
    return planes; // fits stays false
  } else {
    constexpr const byte_plane_table& results = byte_planes_for<Format, Out>;
    constexpr int R = format_info<Out>::bias - format_info<Format>::bias;
    // (R << K) with a low byte 0x80 (bfloat16, R odd) is ((R - 1) << K) + (2^M << t).
    constexpr bool odd = ((R * (1 << K)) & 0xFF) != 0;
    constexpr int constant = (odd ? R - 1 : R) * (1 << K);
    static_assert((constant & 0xFF) == 0, "the constant has no low byte");
    planes.bump = static_cast<std::uint8_t>(odd ? 1 << M : 0);
    planes.high_shift = 8 - t;
    planes.high_add = static_cast<std::uint8_t>((constant >> 8) & 0xFF);
    planes.low_shift = t;
    planes.fits = true;
    const auto word = [&](std::size_t code) { return results.high[code] << 8 | results.low[code]; };
    for (std::size_t c = 0; c < 128; ++c) {
      // The sign: -x is x | 0x8000 (the fnuz formats' 0x80, NaN, replaced).
      if (word(c | 0x80U) != (word(c) | 0x8000)) {
        if (c == 0 && format_info<Format>::special_values == specials::fnuz) {
          planes.negative_zero_is_nan = true;
          planes.nan_high = results.high[0x80];
          planes.nan_low = results.low[0x80];
        } else {
          planes.fits = false;
        }
      }
      // The magnitude: the linear bytes, and what they miss.
      const int bumped = static_cast<int>(c) + planes.bump;
      const int high = ((bumped >> planes.high_shift) + planes.high_add) & 0xFF;
      const int low = (bumped << planes.low_shift) & 0xFF;
      const auto high_fix = static_cast<std::uint8_t>((results.high[c] - high) & 0xFF);
      const auto low_fix = static_cast<std::uint8_t>((results.low[c] - low) & 0xFF);
      if (high_fix == 0 && low_fix == 0) {
        continue;
      }
      if (c < 16) {
        planes.corrects_bottom = true;
        planes.bottom_high[c] = planes.bottom_high[c + 16] = high_fix;
        planes.bottom_low[c] = planes.bottom_low[c + 16] = low_fix;
      } else if (c >= 0x70) {
        planes.corrects_top = true;
        planes.top_high[c - 0x70] = planes.top_high[c - 0x70 + 16] = high_fix;
        planes.top_low[c - 0x70] = planes.top_low[c - 0x70 + 16] = low_fix;
      } else {
        planes.fits = false;
      }
    }
    return planes;
  }
}
template <class Format, class Out>
inline constexpr linear_byte_planes linear_byte_planes_for = make_linear_byte_planes<Format, Out>();

// The bytes of x shifted within each byte (Shift > 0: left, < 0: right; the bits that cross
// into the next byte masked off).
template <int Shift>
MINIFLOAT_LANE_FN __m256i shift_bytes(__m256i x) {
  if constexpr (Shift == 0) {
    return x;
  } else if constexpr (Shift >= 8 || Shift <= -8) {
    return _mm256_setzero_si256();
  } else if constexpr (Shift > 0) {
    return _mm256_and_si256(_mm256_slli_epi16(x, Shift),
                            _mm256_set1_epi8(static_cast<char>((0xFF << Shift) & 0xFF)));
  } else {
    return _mm256_and_si256(_mm256_srli_epi16(x, -Shift),
                            _mm256_set1_epi8(static_cast<char>(0xFF >> -Shift)));
  }
}
MINIFLOAT_LANE_FN __m256i load_table32(const std::array<std::uint8_t, 32>& bytes) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes.data()));
}
template <class Format, class Out, bool NonTemporal, class To>
MINIFLOAT_ARRAY_FN void decode_by_byte_planes(const std::uint8_t* src, std::size_t n, To* dst) {
  constexpr const linear_byte_planes& planes = linear_byte_planes_for<Format, Out>;
  static_assert(planes.fits, "a format linear_byte_planes fits");
  constexpr bool to_float = std::is_same<To, float>::value;
  const __m256i low7 = _mm256_set1_epi8(0x7F);
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 32; i != blocks_end; i += 32) {
    __m256i codes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    // The unpacks work within 128-bit lanes: the codes ordered so that their results come out
    // in order (16-bit: codes 0-7, 16-23 | 8-15, 24-31; float: the codes' dwords 0 2 4 6 | 1 3 5
    // 7).
    if constexpr (to_float) {
      codes = _mm256_permutevar8x32_epi32(codes, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    } else {
      codes = _mm256_permute4x64_epi64(codes, 0xD8);
    }
    const __m256i magnitude = _mm256_and_si256(codes, low7);
    __m256i bumped = magnitude;
    if constexpr (planes.bump != 0) {
      bumped = _mm256_add_epi8(magnitude, _mm256_set1_epi8(static_cast<char>(planes.bump)));
    }
    __m256i high = shift_bytes<-planes.high_shift>(bumped);
    if constexpr (planes.high_add != 0) {
      high = _mm256_add_epi8(high, _mm256_set1_epi8(static_cast<char>(planes.high_add)));
    }
    __m256i low = shift_bytes<planes.low_shift>(bumped);
    if constexpr (planes.corrects_bottom) {
      const __m256i index = _mm256_add_epi8(magnitude, _mm256_set1_epi8(0x70));
      high = _mm256_add_epi8(high, _mm256_shuffle_epi8(load_table32(planes.bottom_high), index));
      low = _mm256_add_epi8(low, _mm256_shuffle_epi8(load_table32(planes.bottom_low), index));
    }
    if constexpr (planes.corrects_top) {
      const __m256i index = _mm256_add_epi8(magnitude, _mm256_set1_epi8(static_cast<char>(0x90)));
      high = _mm256_add_epi8(high, _mm256_shuffle_epi8(load_table32(planes.top_high), index));
      low = _mm256_add_epi8(low, _mm256_shuffle_epi8(load_table32(planes.top_low), index));
    }
    high = _mm256_or_si256(high, _mm256_xor_si256(codes, magnitude)); // the sign
    if constexpr (planes.negative_zero_is_nan) {
      const __m256i is_nan = _mm256_cmpeq_epi8(codes, _mm256_set1_epi8(-128));
      high = _mm256_blendv_epi8(high, _mm256_set1_epi8(static_cast<char>(planes.nan_high)), is_nan);
      low = _mm256_blendv_epi8(low, _mm256_set1_epi8(static_cast<char>(planes.nan_low)), is_nan);
    }
    const __m256i words[2] = {_mm256_unpacklo_epi8(low, high), _mm256_unpackhi_epi8(low, high)};
    auto* out = reinterpret_cast<__m256i*>(dst + i);
    if constexpr (to_float) {
      const __m256i zero = _mm256_setzero_si256();
      store_results<NonTemporal>(out, _mm256_unpacklo_epi16(zero, words[0]));
      store_results<NonTemporal>(out + 1, _mm256_unpackhi_epi16(zero, words[0]));
      store_results<NonTemporal>(out + 2, _mm256_unpacklo_epi16(zero, words[1]));
      store_results<NonTemporal>(out + 3, _mm256_unpackhi_epi16(zero, words[1]));
    } else {
      store_results<NonTemporal>(out, words[0]);
      store_results<NonTemporal>(out + 1, words[1]);
    }
  }
  // The tail, fewer than 32: from the table.
  const auto& results = code_table_for<Format, typename value_traits<To>::format>;
  for (std::size_t k = 0; k < 32 && i + k < n; ++k) {
    dst[i + k] = value_traits<To>::from_code(results[src[i + k]]);
  }
}
// Whether decode_by_byte_planes decodes Format's codes into To (float, binary16 or bfloat16).
template <class Format, class To>
constexpr bool decodes_by_byte_planes() {
  if constexpr (std::is_same<To, float>::value || decodes_to_16_bits<To>) {
    return linear_byte_planes_for<Format, typename byte_lookup_for<Format, To>::looked_up>.fits;
  } else {
    return false;
  }
}

// Whether MXCSR rounds to nearest (the default), so that add_f32 may stand for nearest-even.
inline bool rounds_to_nearest() noexcept { return (_mm_getcsr() & 0x6000U) == 0; }

// Eight floats to p, by halves where the output is past the first-level cache (ByHalves: two
// 16-byte stores, VMOVUPS and VEXTRACTF128 to memory, no vector operation). A buffer from malloc
// or std::vector lies on a 16-byte boundary, often 16 bytes past a line, where every other
// 32-byte store straddles two lines and neither half does: MXFP4 -> float (decode_e2m1_blocks)
// at 64 Ki and 256 Ki elements ran at 11.7-12.0 el/ns there and 15.5-15.9 on a line, 16.1-16.2
// by halves from any offset; at 4 Ki the halves' extra stores cost 5-12 %, so smaller outputs
// keep whole stores. (NVFP4's float kernel, bound by its instructions, lost 3 % by halves.)
// Intel Xeon, docs/performance.md, stop 74.
constexpr std::size_t float_halves_from_bytes = std::size_t{64} * 1024;
template <bool ByHalves>
MINIFLOAT_LANE_FN void store_floats(float* p, __m256 v) {
  if constexpr (ByHalves) {
    // (In one asm, low half first: clang 14 joins two intrinsic stores of one vector's halves
    // into the 32-byte store again, and g++ 12, given the high half's alone, stored the halves
    // out of order, which ran at 12 el/ns 32 bytes past a line.)
    __asm__("vmovups {%x2, %0|%0, %x2}\n\tvextractf128 {$1, %2, %1|%1, %2, 1}"
            : "=m"(*reinterpret_cast<__m128*>(p)), "=m"(*reinterpret_cast<__m128*>(p + 4))
            : "x"(v));
  } else {
    _mm256_storeu_ps(p, v);
  }
}

// The low and the high bytes of e2m1's 16 bfloat16 patterns (e2m1_bfloat16_words), each table
// twice: a VPSHUFB lookup per 128-bit lane.
constexpr std::array<std::uint8_t, 64> make_e2m1_bfloat16_byte_tables() noexcept {
  std::array<std::uint8_t, 64> bytes{};
  for (std::size_t k = 0; k < 32; ++k) {
    const std::uint16_t word = e2m1_bfloat16_words[k % 16];
    bytes[k] = static_cast<std::uint8_t>(word & 0xFFU);
    bytes[32 + k] = static_cast<std::uint8_t>(word >> 8);
  }
  return bytes;
}
alignas(32) inline constexpr std::array<std::uint8_t, 64> e2m1_bfloat16_byte_tables =
    make_e2m1_bfloat16_byte_tables();

// MXFP4 blocks from the start while their products stay normal (kernels_portable.hpp:
// decode_e2m1_blocks_portable); returns how many it decoded. One block of 32 per iteration: its
// 16 bytes in both 128-bit lanes, each lane's eight by a VPSHUFB (below), split into nibbles and
// interleaved (element order within a lane); two VPSHUFB lookups give the low and the high bytes
// of e2m1's bfloat16 patterns, and interleaving those gives the words. The lanes' bytes:
// - bfloat16 results: lane 0 bytes 0-3 and 8-11 (elements 0-7, 16-23), lane 1 bytes 4-7 and
//   12-15, so that the two word interleaves are elements 0-15 and 16-31; the block's step is
//   added to the exponent field of the non-zero words (VPSIGNW zeroes it for the zeros);
// - float results: lane 0 bytes 0-1, 4-5, 8-9, 12-13 (elements 0-3, 8-11, 16-19, 24-27), lane 1
//   the others, so that widening the words in place (VPUNPCKLWD / HWD with zero) gives eight
//   elements in order; then times 2^(code - 127), exact (every product is normal: no DAZ / FTZ).
// ggml's blocks (Blocks::ggml_order: elements 0-15 in the low nibbles, 16-31 in the high ones) take
// other bytes per lane (bfloat16: bytes 0-7 | 8-15; float: 0-3, 8-11 | 4-7, 12-15) and put each
// lane's high nibbles after its low ones (VPUNPCKLQDQ) instead of between them. About 20
// instructions per block, 24 for float results, a third of them shuffles. ByHalves: float
// results by store_floats' halves (decode_e2m1_blocks below chooses).
template <class To, bool ByHalves, class Blocks>
MINIFLOAT_ARRAY_FN std::size_t decode_e2m1_blocks_by(Blocks in, std::size_t blocks, To* dst) {
  constexpr bool ggml_order = Blocks::ggml_order;
  constexpr bool to_float = std::is_same<To, float>::value;
  const __m256i low_bytes =
      _mm256_load_si256(reinterpret_cast<const __m256i*>(e2m1_bfloat16_byte_tables.data()));
  const __m256i high_bytes =
      _mm256_load_si256(reinterpret_cast<const __m256i*>(e2m1_bfloat16_byte_tables.data() + 32));
  // Each 128-bit lane's 16 codes are its 8 bytes' low and high nibbles, zipped (pairs) or one
  // after the other (ggml_order); the unpacks below then give the results in order where lane 0
  // holds elements 0-3, 8-11, 16-19, 24-27 (float) or 0-7, 16-23 (bfloat16), lane 1 the rest.
  const __m256i lane_bytes =
      ggml_order
          ? (to_float ? _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, //
                                         4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0)
                      : _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, //
                                         8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0))
          : (to_float ? _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 0, 0, 0, 0, 0, 0, 0, 0, //
                                         2, 3, 6, 7, 10, 11, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0)
                      : _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, //
                                         4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0));
  const __m256i low_nibble = _mm256_set1_epi8(0x0F);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint8_t scale = in.scale(b);
    if (!mx_fp4_block_is_normal(scale)) {
      return b;
    }
    const __m256i bytes = _mm256_shuffle_epi8(
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in.bytes(b)))),
        lane_bytes);
    const __m256i low = _mm256_and_si256(bytes, low_nibble);
    const __m256i high = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), low_nibble);
    const __m256i codes =
        ggml_order ? _mm256_unpacklo_epi64(low, high) : _mm256_unpacklo_epi8(low, high);
    const __m256i low_half = _mm256_shuffle_epi8(low_bytes, codes);
    const __m256i high_half = _mm256_shuffle_epi8(high_bytes, codes);
    const __m256i words[2] = {_mm256_unpacklo_epi8(low_half, high_half),
                              _mm256_unpackhi_epi8(low_half, high_half)};
    To* out = dst + 2 * mx_fp4_block_bytes * b;
    if constexpr (to_float) {
      const __m256i zero = _mm256_setzero_si256();
      const __m256 factor = _mm256_castsi256_ps(_mm256_set1_epi32(
          static_cast<int>(code_table_for<formats::e8m0, formats::binary32>[scale])));
      MINIFLOAT_UNROLLED
      for (std::size_t k = 0; k < 2; ++k) {
        store_floats<ByHalves>(
            out + 16 * k,
            _mm256_mul_ps(_mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, words[k])), factor));
        store_floats<ByHalves>(
            out + 16 * k + 8,
            _mm256_mul_ps(_mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, words[k])), factor));
      }
    } else {
      const __m256i magnitude = _mm256_set1_epi16(0x7FFF);
      const __m256i step = _mm256_set1_epi32(static_cast<int>(e8m0_bfloat16_steps[scale]));
      MINIFLOAT_UNROLLED
      for (std::size_t k = 0; k < 2; ++k) {
        const __m256i nonzero_step = _mm256_sign_epi16(step, _mm256_and_si256(words[k], magnitude));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 16 * k),
                            _mm256_add_epi16(words[k], nonzero_step));
      }
    }
  }
  return blocks;
}
// decode_e2m1_blocks_by, float results of 64 KiB and more by halves (store_floats).
template <class To, class Blocks>
MINIFLOAT_ARRAY_FN std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
  if constexpr (std::is_same<To, float>::value) {
    if (blocks * 32 * sizeof(float) >= float_halves_from_bytes) {
      return decode_e2m1_blocks_by<To, true>(in, blocks, dst);
    }
  }
  return decode_e2m1_blocks_by<To, false>(in, blocks, dst);
}

// Eight floats' bits rounded to bfloat16, nearest-even, in the low halves of the dwords; not NaN
// (kernels_portable.hpp: bfloat16_nearest_even; an infinity stays one).
MINIFLOAT_LANE_FN __m256i bfloat16_nearest_even_not_nan(__m256 values) {
  const __m256i bits = _mm256_castps_si256(values);
  const __m256i last_kept = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
  return _mm256_srli_epi32(
      _mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), last_kept), 16);
}

// A pair of NVFP4 blocks' tables for VPSHUFB (nvfp4_bfloat16_pairs): in 128-bit lane k, byte k's
// 16 results' low bytes by code (low) and their high bytes (high).
struct nvfp4_pair_tables {
  __m256i low;
  __m256i high;
};
// The tables of every scale byte (decode_nvfp4_blocks, for nvfp4_rows_from_blocks blocks or more:
// 8 KiB, each pair of rows in 20 vector instructions): row s byte s's low bytes and its high
// bytes; row s + 128 is row s, the top bit being ignored when read, so that a byte is its row's
// index.
struct nvfp4_bfloat16_byte_rows {
  alignas(32) std::uint8_t low[256][16];
  alignas(32) std::uint8_t high[256][16];

  // The tables of bytes first (lane 0) and second (lane 1).
  MINIFLOAT_LANE_FN nvfp4_pair_tables pair(std::uint8_t first, std::uint8_t second) const {
    return {_mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(low[second]),
                                reinterpret_cast<const __m128i*>(low[first])),
            _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(high[second]),
                                reinterpret_cast<const __m128i*>(high[first]))};
  }
  // Blocks from 0, two pairs at a time, by their bytes' rows (Pairs: nvfp4_bfloat16_pairs, whose
  // put stores by halves or whole); returns the blocks done.
  template <bool ByHalves, class Pairs, class To>
  MINIFLOAT_ARRAY_FN std::size_t decode_pairs(const Pairs& pairs, const std::uint8_t* packed,
                                              const std::uint8_t* scale_codes, std::size_t blocks,
                                              To* dst) const {
    std::size_t b = 0;
    for (; b + 4 <= blocks; b += 4) {
      pairs.template put<ByHalves>(packed, b, pair(scale_codes[b], scale_codes[b + 1]), dst);
      pairs.template put<ByHalves>(packed, b + 2, pair(scale_codes[b + 2], scale_codes[b + 3]),
                                   dst);
    }
    return b;
  }
};
// The smallest and largest of `count` scale bytes, each without its top bit (ignored when read:
// docs/spec.md §7), the smallest made even (the rows are made in pairs).
MINIFLOAT_ARRAY_FN scale_byte_range scale_byte_range_of(const std::uint8_t* bytes,
                                                        std::size_t count) {
  const __m256i read_bits = _mm256_set1_epi8(0x7F);
  __m256i low = read_bits;
  __m256i high = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 32 <= count; i += 32) {
    const __m256i read = _mm256_and_si256(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes + i)), read_bits);
    low = _mm256_min_epu8(low, read);
    high = _mm256_max_epu8(high, read);
  }
  alignas(32) std::uint8_t lows[32];
  alignas(32) std::uint8_t highs[32];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lows), low);
  _mm256_store_si256(reinterpret_cast<__m256i*>(highs), high);
  return scale_byte_range_from(lows, highs, 32, bytes + i, count - i);
}
// NVFP4 blocks into bfloat16, two at a time, one in each 128-bit lane (decode_nvfp4_blocks).
struct nvfp4_bfloat16_pairs {
  __m256 low_magnitudes;
  __m256 high_magnitudes;
  __m256 decode_factor;
  __m256i low_bytes;
  __m256i high_bytes;
  __m256i upper_signs;
  __m256i code_bits;

  MINIFLOAT_ARRAY_FN nvfp4_bfloat16_pairs(__m256 magnitudes, __m256 decode)
      : low_magnitudes(_mm256_castsi256_ps(
            _mm256_broadcastsi128_si256(_mm256_castsi256_si128(_mm256_castps_si256(magnitudes))))),
        high_magnitudes(_mm256_castsi256_ps(_mm256_broadcastsi128_si256(
            _mm256_extracti128_si256(_mm256_castps_si256(magnitudes), 1)))),
        decode_factor(decode),
        low_bytes(_mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14, //
                                   0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14)),
        high_bytes(_mm256_setr_epi8(1, 3, 5, 7, 9, 11, 13, 15, 1, 3, 5, 7, 9, 11, 13, 15, //
                                    1, 3, 5, 7, 9, 11, 13, 15, 1, 3, 5, 7, 9, 11, 13, 15)),
        upper_signs(_mm256_setr_epi64x(0, -0x7F7F7F7F7F7F7F80, 0, -0x7F7F7F7F7F7F7F80)),
        code_bits(_mm256_set1_epi16(0x0F0F)) {}
  // The tables of two bytes (their values' float bits), the first's in lane 0: their eight
  // magnitudes' products (the same two per lane as a block's own table, below), the low four of
  // both bytes in one vector and the high four in another, rounded as below and packed
  // (VPACKUSDW, within lanes) into each byte's eight words in its lane; VPSHUFB makes of them a
  // table of the 16 codes' low bytes and one of their high bytes (the sign OR-ed in for codes
  // 8-15).
  MINIFLOAT_LANE_FN nvfp4_pair_tables tables(std::uint32_t first_bits,
                                             std::uint32_t second_bits) const {
    const __m256 bytes_pair = _mm256_insertf128_ps(_mm256_set1_ps(bit_cast<float>(first_bits)),
                                                   _mm_set1_ps(bit_cast<float>(second_bits)), 1);
    __m256 low_times_byte = _mm256_mul_ps(low_magnitudes, bytes_pair);
    __m256 high_times_byte = _mm256_mul_ps(high_magnitudes, bytes_pair);
    __asm__("" : "+x"(low_times_byte), "+x"(high_times_byte));
    const __m256i words = _mm256_packus_epi32(
        bfloat16_nearest_even_not_nan(_mm256_mul_ps(low_times_byte, decode_factor)),
        bfloat16_nearest_even_not_nan(_mm256_mul_ps(high_times_byte, decode_factor)));
    return {_mm256_shuffle_epi8(words, low_bytes),
            _mm256_or_si256(_mm256_shuffle_epi8(words, high_bytes), upper_signs)};
  }
  // Blocks first and first + 1 by their tables: the pair's 16 bytes widened to words,
  // w | w << 4 masked to 0x0F0F, hold element j's code in byte j of the block's lane; the two
  // tables' VPSHUFBs and VPUNPCKL/HBW make the results, stored by 128-bit halves (ByHalves) or
  // whole, joined by VPERM2I128: the halves' stores need no vector instruction, where the
  // tables take many; the whole stores ran 5 % faster from tables made beforehand (docs/
  // performance.md, stop 75).
  template <bool ByHalves, class To>
  MINIFLOAT_LANE_FN void put(const std::uint8_t* packed, std::size_t first,
                             nvfp4_pair_tables tables, To* dst) const {
    const __m256i widened = _mm256_cvtepu8_epi16(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + nvfp4_block_bytes * first)));
    const __m256i codes =
        _mm256_and_si256(_mm256_or_si256(widened, _mm256_slli_epi16(widened, 4)), code_bits);
    const __m256i low = _mm256_shuffle_epi8(tables.low, codes);
    const __m256i high = _mm256_shuffle_epi8(tables.high, codes);
    const __m256i first_half = _mm256_unpacklo_epi8(low, high);  // elements 0-7 of each block
    const __m256i second_half = _mm256_unpackhi_epi8(low, high); // elements 8-15
    if constexpr (ByHalves) {
      auto* out = reinterpret_cast<__m128i*>(dst + 2 * nvfp4_block_bytes * first);
      _mm_storeu_si128(out, _mm256_castsi256_si128(first_half));
      _mm_storeu_si128(out + 1, _mm256_castsi256_si128(second_half));
      _mm_storeu_si128(out + 2, _mm256_extracti128_si256(first_half, 1));
      _mm_storeu_si128(out + 3, _mm256_extracti128_si256(second_half, 1));
    } else {
      auto* out = reinterpret_cast<__m256i*>(dst + 2 * nvfp4_block_bytes * first);
      _mm256_storeu_si256(out, _mm256_permute2x128_si256(first_half, second_half, 0x20));
      _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(first_half, second_half, 0x31));
    }
  }
};

// NVFP4 blocks into float or bfloat16_bits (kernels_portable.hpp: decode_nvfp4_blocks_portable,
// the same products in the same order), one block of 16 per iteration (into bfloat16 two where
// there are two: below). e2m1's eight non-negative values times the byte's value (exact), then
// times decode: the block's eight result magnitudes (rounding is symmetric, so -(a * d) is
// (-a) * d, zeros included). An empty asm keeps the two products apart (-ffast-math would merge
// byte * decode, another rounding).
// float results: per 8 elements a VPSHUFB of the block's bytes and a VPSRLVD make the codes,
// VPERMPS the magnitudes (the code's low 3 bits) and an XOR the signs (bit 3; below).
// bfloat16 results: the eight magnitudes rounded on their bits (nearest-even) make a table of
// eight words in each 128-bit lane, which VPSHUFB reads for the 16 codes at once (byte indices
// 2c and 2c + 1 for the code's low 3 bits c), the sign OR-ed in from bit 3. NaNs: a NaN byte's
// products are its NaN, 0x7FC00000, whose low half is 0 (so the rounding on the bits keeps it a
// NaN), with each element's sign, as the portable path sets them; decode is positive and finite
// (dequantize_nvfp4 checks), so no other product is a NaN.
template <class To>
MINIFLOAT_ARRAY_FN void decode_nvfp4_blocks(const std::uint8_t* packed,
                                            const std::uint8_t* scale_codes, std::size_t blocks,
                                            float decode, To* dst) {
  constexpr bool to_float = std::is_same<To, float>::value;
  const __m256 magnitudes = _mm256_castsi256_ps(_mm256_loadu_si256(
      reinterpret_cast<const __m256i*>(code_table_for<formats::e2m1, formats::binary32>.data())));
  const std::uint32_t* bytes_as_floats = code_table_for<formats::ue4m3, formats::binary32>.data();
  const __m256 decode_factor = _mm256_set1_ps(decode);
  // (float: VPSHUFB's indices of elements 0-7's bytes and 8-15's, in dwords; the codes' shifts;
  // i << 28 for the table's entry i.)
  const __m256i element_bytes[2] = {
      _mm256_setr_epi8(0, -1, -1, -1, 0, -1, -1, -1, 1, -1, -1, -1, 1, -1, -1, -1, //
                       2, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1, 3, -1, -1, -1),
      _mm256_setr_epi8(4, -1, -1, -1, 4, -1, -1, -1, 5, -1, -1, -1, 5, -1, -1, -1, //
                       6, -1, -1, -1, 6, -1, -1, -1, 7, -1, -1, -1, 7, -1, -1, -1)};
  const __m256i nibble_shifts = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
  const __m256i magnitude_marks =
      _mm256_setr_epi32(0, 1 << 28, 2 << 28, 3 << 28, 4 << 28, 5 << 28, 6 << 28, 7 << 28);
  const __m128i nibbles = _mm_set1_epi8(0x0F);
  const __m256i low_bits = _mm256_set1_epi16(7);
  const __m256i index_step = _mm256_set1_epi16(0x0202);
  const __m256i index_offset = _mm256_set1_epi16(0x0100);
  const __m256i sign_bit = _mm256_set1_epi16(-0x8000);
  std::size_t b = 0;
  if constexpr (!to_float) {
    // bfloat16: two blocks per iteration, one in each 128-bit lane (nvfp4_bfloat16_pairs): 27
    // vector instructions per 32 elements, where a block at a time (below: an odd count's last
    // block) takes 20 per 16 (docs/performance.md, stop 74).
    const nvfp4_bfloat16_pairs pairs(magnitudes, decode_factor);
    if (blocks >= nvfp4_rows_from_blocks) {
      // Many blocks: the tables of the bytes they use first (rows first to last of
      // scale_byte_range_of: the pair tables of bytes s and s + 1, stored), so that a pair's
      // tables are four loads (nvfp4_bfloat16_byte_rows::pair): 12 vector operations per 32
      // elements besides the loads and the stores, where making the tables took 17 more; two
      // pairs per iteration, for the scalar instructions (about 10 a pair). Made for the blocks'
      // bytes only: about 120 ns for all 128 on an Intel Xeon (docs/performance.md, stop 75).
      nvfp4_bfloat16_byte_rows rows;
      const scale_byte_range used = scale_byte_range_of(scale_codes, blocks);
      for (std::uint32_t s = used.first; s <= used.last; s += 2) {
        const nvfp4_pair_tables tables = pairs.tables(bytes_as_floats[s], bytes_as_floats[s + 1]);
        for (std::uint32_t row = s; row < 256; row += 128) {
          _mm256_store_si256(reinterpret_cast<__m256i*>(rows.low[row]), tables.low);
          _mm256_store_si256(reinterpret_cast<__m256i*>(rows.high[row]), tables.high);
        }
      }
      // (By 16-byte halves where dst lies 16 bytes past 32, where every other 32-byte store
      // would straddle two cache lines: 23.3-24.7 -> 25.2-26.6 el/ns from 64 Ki on.)
      b = reinterpret_cast<std::uintptr_t>(dst) % 32 != 0
              ? rows.decode_pairs<true>(pairs, packed, scale_codes, blocks, dst)
              : rows.decode_pairs<false>(pairs, packed, scale_codes, blocks, dst);
    }
    for (; b + 2 <= blocks; b += 2) {
      pairs.put<true>(
          packed, b,
          pairs.tables(bytes_as_floats[scale_codes[b]], bytes_as_floats[scale_codes[b + 1]]), dst);
    }
  }
  for (; b < blocks; ++b) {
    const std::uint32_t byte_bits = bytes_as_floats[scale_codes[b]];
    To* out = dst + 2 * nvfp4_block_bytes * b;
    __m256 times_byte = _mm256_mul_ps(magnitudes, _mm256_set1_ps(bit_cast<float>(byte_bits)));
    __asm__("" : "+x"(times_byte));
    const __m256 results = _mm256_mul_ps(times_byte, decode_factor);
    const std::uint8_t* block = packed + nvfp4_block_bytes * b;
    if constexpr (to_float) {
      // The block's 8 bytes in both lanes (a VPBROADCASTQ load); VPSHUFB puts element j's byte
      // in dword j (elements 0-7, then 8-15) and VPSRLVD by 0 or 4 its code in bits 0-3, the
      // other nibble above them for an even j. VPERMPS reads bits 0-2 (the magnitude); the
      // dword shifted left by 28 holds the whole code in bits 28-31, the sign in bit 31, and
      // XOR-ed with the result it sets the sign, once the table's entry i holds i << 28 XOR-ed
      // in beforehand (so that bits 28-30 come back as they were: a NaN byte's NaN included).
      // 13 vector instructions per block, where the nibbles' split and reordering and the
      // sign's AND took 17 (docs/performance.md, stop 74).
      const __m256i table = _mm256_xor_si256(_mm256_castps_si256(results), magnitude_marks);
      const __m256i bytes =
          _mm256_broadcastq_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(block)));
      MINIFLOAT_UNROLLED
      for (std::size_t k = 0; k < 2; ++k) {
        const __m256i codes =
            _mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, element_bytes[k]), nibble_shifts);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * k),
                            _mm256_xor_si256(_mm256_permutevar8x32_epi32(table, codes),
                                             _mm256_slli_epi32(codes, 28)));
      }
    } else {
      // Words r0..r7 in both 128-bit lanes (VPACKUSDW within lanes, VPERMQ 0, 2, 0, 2).
      const __m256i rounded = bfloat16_nearest_even_not_nan(results);
      const __m256i table = _mm256_permute4x64_epi64(_mm256_packus_epi32(rounded, rounded), 0x88);
      const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(block));
      const __m256i codes = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(
          _mm_and_si128(bytes, nibbles), _mm_and_si128(_mm_srli_epi16(bytes, 4), nibbles)));
      // Word (2c + 1) << 8 | 2c for c = code & 7: c * 0x0202 + 0x0100.
      const __m256i indices = _mm256_add_epi16(
          _mm256_mullo_epi16(_mm256_and_si256(codes, low_bits), index_step), index_offset);
      const __m256i sign = _mm256_and_si256(_mm256_slli_epi16(codes, 12), sign_bit);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                          _mm256_or_si256(_mm256_shuffle_epi8(table, indices), sign));
    }
  }
}

// FP4 packing, 64 codes at a time: VPMADDUBSW makes each pair (c0, c1) of masked codes the word
// c0 + 16 c1 (at most 0xFF), VPACKUSWB keeps the words' low bytes (within 128-bit lanes, which
// VPERMQ puts back in order). The rest as the portable path does.
MINIFLOAT_ARRAY_FN void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n,
                                          std::uint8_t* packed) {
  const __m256i low_nibbles = _mm256_set1_epi8(0x0F);
  const __m256i weights = _mm256_set1_epi16(0x1001); // bytes 1, 16
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes + i + 32));
    const __m256i words_a = _mm256_maddubs_epi16(_mm256_and_si256(a, low_nibbles), weights);
    const __m256i words_b = _mm256_maddubs_epi16(_mm256_and_si256(b, low_nibbles), weights);
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words_a, words_b), 0xD8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(packed + i / 2), bytes);
  }
  pack_nibble_pairs_portable(codes + i, n - i, packed + i / 2);
}

// binary16 or bfloat16 -> e4m3 or e5m2, nearest-even, on 16-bit lanes (words.inc): 32 values
// per iteration. The word primitives words.inc uses:
using w16v = __m256i;
using w16mask = __m256i; // all ones in a true lane
constexpr std::size_t word_width = 16;
MINIFLOAT_LANE_FN w16v splat16(std::uint16_t x) { return _mm256_set1_epi16(static_cast<short>(x)); }
MINIFLOAT_LANE_FN w16v and16(w16v a, w16v b) { return _mm256_and_si256(a, b); }
MINIFLOAT_LANE_FN w16v or16(w16v a, w16v b) { return _mm256_or_si256(a, b); }
MINIFLOAT_LANE_FN w16v add16(w16v a, w16v b) { return _mm256_add_epi16(a, b); }
MINIFLOAT_LANE_FN w16v sub16(w16v a, w16v b) { return _mm256_sub_epi16(a, b); }
template <int N>
MINIFLOAT_LANE_FN w16v shr16(w16v a) {
  return _mm256_srli_epi16(a, N);
}
MINIFLOAT_LANE_FN w16v max16(w16v a, w16v b) { return _mm256_max_epi16(a, b); }
MINIFLOAT_LANE_FN w16v min16(w16v a, w16v b) { return _mm256_min_epi16(a, b); }
MINIFLOAT_LANE_FN w16mask gt16(w16v a, w16v b) { return _mm256_cmpgt_epi16(a, b); }
MINIFLOAT_LANE_FN w16mask not_above16(w16v a, w16v b) {
  return _mm256_cmpeq_epi16(_mm256_min_epu16(a, b), a);
}
MINIFLOAT_LANE_FN w16mask mask16_or(w16mask a, w16mask b) { return _mm256_or_si256(a, b); }
MINIFLOAT_LANE_FN bool any16(w16mask m) { return _mm256_testz_si256(m, m) == 0; }
MINIFLOAT_LANE_FN w16v select16(w16mask m, w16v a, w16v b) { return _mm256_blendv_epi8(b, a, m); }
MINIFLOAT_LANE_FN void kept16(w16v& a, w16v& b, w16v& c) {
  __asm__("" : "+v"(a), "+v"(b), "+v"(c));
}
MINIFLOAT_LANE_FN w16v load_words(const std::uint16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
// Words to bytes: packed within 128-bit lanes (a 0-7, b 0-7, a 8-15, b 8-15), then the
// quadwords put in order.
MINIFLOAT_LANE_FN __m256i low_bytes(w16v a, w16v b) {
  return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
}
MINIFLOAT_LANE_FN void store_low_bytes(std::uint8_t* p, w16v a, w16v b) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), low_bytes(a, b));
}
MINIFLOAT_LANE_FN void store_low_bytes_streaming(std::uint8_t* p, w16v a, w16v b) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), low_bytes(a, b));
}

#include "words.inc"

#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
#undef MINIFLOAT_UNROLLED
#undef MINIFLOAT_ROLLED
#undef MINIFLOAT_AVX2_TARGET
} // namespace avx2

// The AVX2 path (detail/kernels_portable.hpp has the interface).
struct avx2_kernels {
  static constexpr const char* name = "avx2";
  static constexpr lane_capabilities capabilities = avx2::capabilities;
  // quantize_block_groups and quantize_block_rows (below) exist.
  static constexpr bool quantizes_block_groups = true;
  // quantize_block_groups also for FP4 elements, packed two per byte (store_nibble_pairs4).
  static constexpr bool quantizes_fp4_block_groups = true;
  // quantize_ggml_block_groups (ggml's MXFP4 blocks, one per store of 8 lanes) exists.
  static constexpr bool quantizes_ggml_block_groups = true;

  template <class Target, rounding_rule Rule, overflow Overflow, class Source, class Random,
            class Tally = no_tally>
  static void encode(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                     Tally&& tally = Tally{}, stores mode = stores::cached) {
    if constexpr (Rule == rounding_rule::nearest_even && avx2::encodes_by_words<Source, Target> &&
                  std::is_same<std::decay_t<Tally>, no_tally>::value) {
      // Groups of 32 in 16-bit words (words.inc); a group with a value below the target's
      // normals, and the tail, as below.
      avx2::encode_by_words<Target, Overflow>(
          src, n, codes, mode, [&](std::size_t first, std::size_t count) {
            encode_floats<Target, Rule, Overflow>(src + first, count, codes + first, random, tally);
          });
    } else if constexpr (std::is_same<Random, no_random_bits>::value &&
                         !std::is_same<Source, block_scaled_floats>::value) {
      // Past the non-temporal threshold, streaming stores from dst's first 64-byte boundary on,
      // with a report too (as avx512_kernels::encode; not block-scaled floats, whose vectors must
      // lie in a block). Through the caches, a report's call stays whole: split, it would make
      // its first look twice.
      if (!std::is_same<std::decay_t<Tally>, no_tally>::value && mode == stores::cached) {
        encode_floats<Target, Rule, Overflow>(src, n, codes, random, tally);
        return;
      }
      with_aligned_stores(codes, n, mode,
                          [&](auto non_temporal, std::size_t first, std::size_t count) {
                            encode_floats<Target, Rule, Overflow, decltype(non_temporal)::value>(
                                src + first, count, codes + first, random, tally);
                          });
    } else {
      encode_floats<Target, Rule, Overflow>(src, n, codes, random, tally);
    }
  }
  // The lane kernels of lanes.inc on float lanes (other sources widened or rounded to float).
  // (NonTemporal: codes lies on a 64-byte boundary; streaming stores, avx2::encode_array.
  // FromMemory: the output reaches the non-temporal threshold, avx2::encode_array.)
  template <class Target, rounding_rule Rule, overflow Overflow, bool NonTemporal = false,
            bool FromMemory = NonTemporal, class Source, class Random, class Tally>
  static void encode_floats(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                            Tally&& tally) {
    constexpr step2_variant variant = step2_for<formats::binary32, Target, Rule>(capabilities);
    if constexpr (variant == step2_variant::lane_addition_if_nearest) {
      // AVX2 has no embedded rounding: the addition only where MXCSR rounds to nearest. A
      // program that rounds otherwise (rare) gets the portable path's kernel for that case, which
      // every build has: an AVX2 one of its own doubled the code of every nearest-even kernel.
      if (avx2::rounds_to_nearest()) {
        return avx2::encode_array<Target, Rule, Overflow, step2_variant::lane_addition, NonTemporal,
                                  FromMemory>(src, n, codes, random, tally);
      }
      return portable::encode_array<Target, Rule, Overflow, step2_variant::lane_fixed_point>(
          src, n, codes, random, tally);
    } else {
      return avx2::encode_array<Target, Rule, Overflow, variant, NonTemporal, FromMemory>(
          src, n, codes, random, tally);
    }
  }
  // Float and 16-bit float results by byte planes or by arithmetic through binary16 where the
  // format allows it; else float results by a gather from the table, 16-bit ones by the
  // portable loop.
  template <class Format, class To>
  static void decode(const std::uint8_t* codes, std::size_t n, To* dst, stores mode) {
    constexpr bool to_float = std::is_same<To, float>::value;
    if constexpr (avx2::decodes_by_byte_planes<Format, To>()) {
      using looked_up = typename byte_lookup_for<Format, To>::looked_up;
      with_aligned_stores(
          dst, n, mode, [&](auto non_temporal, std::size_t first, std::size_t count) {
            avx2::decode_by_byte_planes<Format, looked_up, decltype(non_temporal)::value>(
                codes + first, count, dst + first);
          });
    } else if constexpr (avx2::decodes_through_binary16<Format> &&
                         (to_float || avx2::decodes_to_16_bits<To>)) {
      with_aligned_stores(dst, n, mode,
                          [&](auto non_temporal, std::size_t first, std::size_t count) {
                            avx2::decode_through_binary16<Format, decltype(non_temporal)::value>(
                                codes + first, count, dst + first);
                          });
    } else if constexpr (to_float) {
      auto* results = reinterpret_cast<std::uint32_t*>(dst);
      const std::uint32_t* table = code_table_for<Format, formats::binary32>.data();
      with_aligned_stores(results, n, mode,
                          [&](auto non_temporal, std::size_t first, std::size_t count) {
                            avx2::decode_array<decltype(non_temporal)::value>(
                                table, codes + first, count, results + first);
                          });
    } else {
      portable_kernels::decode<Format>(codes, n, dst, mode);
    }
  }
  static std::uint32_t max_magnitude_bits(const float* src, std::size_t n) {
    return avx2::max_magnitude_bits(src, n);
  }
  // Per block of block_size floats by `rows` rows `stride` floats apart (the block quantizers').
  static void block_max_magnitude_bits(const float* src, std::size_t blocks, std::size_t block_size,
                                       std::uint32_t* out, std::size_t rows = 1,
                                       std::size_t stride = 0) {
    avx2::block_max_magnitude_bits(src, blocks, block_size, out, rows, stride);
  }
  // One-row blocks of Size floats quantized `width` side by side at a time in one pass
  // (lanes.inc quantize_block_groups); returns the blocks done: none where MXCSR does not round
  // to nearest (the addition's rounding, encode_floats).
  // (counts: a report's, for FP4 elements, lanes.inc quantize_block_groups; nullptr: none.)
  template <class Target, std::size_t Size, class Rule, class Counts = no_tally>
  static std::size_t quantize_block_groups(const float* src, std::size_t blocks,
                                           std::uint8_t* codes, const Rule& rule,
                                           const float* prefetch_end, Counts* counts = nullptr) {
    if (!avx2::rounds_to_nearest()) {
      return 0;
    }
    return avx2::quantize_block_groups<Target, Size>(
        src, blocks, codes, rule, avx2::group_max_by_blocks<Size>{}, prefetch_end, counts);
  }
  // MXFP4 in ggml's 17-byte blocks (block_mxfp4) at `blocks_out`, 8 side by side at a time in
  // one pass as quantize_block_groups above: whole blocks written, scale byte and element bytes
  // (the scale codes to rule.codes too); returns the blocks done (none where MXCSR does not
  // round to nearest).
  template <class Rule, class Counts = no_tally>
  static std::size_t quantize_ggml_block_groups(const float* src, std::size_t blocks,
                                                std::uint8_t* blocks_out, const Rule& rule,
                                                const float* prefetch_end,
                                                Counts* counts = nullptr) {
    if (!avx2::rounds_to_nearest()) {
      return 0;
    }
    return avx2::quantize_block_groups<formats::e2m1, 32, true>(
        src, blocks, blocks_out, rule, avx2::group_max_by_blocks<32>{}, prefetch_end, counts);
  }
  // One block of `rows` rows of Size floats (row r at src + r * stride, its codes at
  // codes + r * stride) narrowed by its factor while the next block's amax is read into
  // *next_amax and the one after it, after_next, is prefetched (lanes.inc
  // quantize_block_rows; nullptr: none); false, having done nothing, where MXCSR does
  // not round to nearest.
  template <class Target, std::size_t Size>
  static bool quantize_block_rows(const float* src, std::size_t rows, std::size_t stride,
                                  float factor, std::uint8_t* codes, const float* next,
                                  const float* after_next, std::uint32_t* next_amax) {
    if (!avx2::rounds_to_nearest()) {
      return false;
    }
    *next_amax =
        avx2::quantize_block_rows<Target, Size>(src, rows, stride, factor, codes, next, after_next);
    return true;
  }
  // The blocks' scales and their inverses as float bits (blocks [0, count) rounded up to a
  // multiple of the path's width; lanes.inc block_scales).
  static void block_scales(const std::uint32_t* largest, std::size_t count, float max_value,
                           int margin, bool power_of_two, std::uint32_t* scales,
                           std::uint32_t* inverses) {
    avx2::block_scales(largest, count, max_value, margin, power_of_two, scales, inverses);
  }
  // quantize_mx's scale codes and factors (lanes.inc mx_scale_codes; blocks [0, count) rounded
  // up to a multiple of the path's width).
  static bool mx_scale_codes(const std::uint32_t* amax_bits, std::size_t count, std::uint32_t low,
                             std::uint32_t above_once, std::uint32_t above_twice,
                             std::uint8_t* codes, std::uint32_t* factors) {
    return avx2::mx_scale_codes(amax_bits, count, low, above_once, above_twice, codes, factors);
  }
  // NVFP4's element factors from the scale bytes' values (lanes.inc nvfp4_factors; blocks
  // [0, count) rounded up to a multiple of the path's width).
  static void nvfp4_factors(const float* bytes, std::size_t count, float decode,
                            std::uint32_t* factors) {
    avx2::nvfp4_factors(bytes, count, decode, factors);
  }
  // FP4 codes (one per byte) packed two per byte, n even.
  static void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed) {
    avx2::pack_nibble_pairs(codes, n, packed);
  }
  // NVFP4 blocks into float or bfloat16_bits: magnitudes through a dword permute.
  template <class To>
  static void decode_nvfp4_blocks(const std::uint8_t* packed, const std::uint8_t* scale_codes,
                                  std::size_t blocks, float decode, To* dst) {
    avx2::decode_nvfp4_blocks(packed, scale_codes, blocks, decode, dst);
  }
  // MXFP4 blocks from the start while their products stay normal: nibbles through two byte
  // shuffles.
  template <class To, class Blocks>
  static std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
    return avx2::decode_e2m1_blocks<To>(in, blocks, dst);
  }
};

} // namespace detail
} // namespace minifloat

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // MINIFLOAT_DETAIL_KERNELS_AVX2_HPP
