// minifloat: the AVX-512 path's kernel type, avx512_kernels (F, BW, VL, DQ, CD, VBMI: Ice Lake,
// Sapphire Rapids, Zen 4 and 5): the lane kernels of lanes.inc on 16 lanes with masked tails and
// embedded rounding, those of words.inc on 32 words, and decoding by byte permutes. Included only
// by detail/dispatch.hpp (see x86.hpp).
#ifndef MINIFLOAT_DETAIL_KERNELS_AVX512_HPP
#define MINIFLOAT_DETAIL_KERNELS_AVX512_HPP

#include "kernels_avx2.hpp"
#include "x86.hpp"

// GCC 12's AVX-512 intrinsics seed their pass-through operands with a self-initialised
// "undefined" vector, which -Wuninitialized reports once they are inlined (GCC PR 105593); and
// without optimization some are macros that hand a mask to a builtin taking a signed char or
// short, which -Wsign-conversion reports in the user's code (VFIXUPIMMPS, VRANGEPD).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif

namespace minifloat {
namespace detail {

// ---------------------------------------------------------------------------------------------
// AVX-512 F/BW/VL/VBMI (Ice Lake, Sapphire Rapids, Zen 4/5): 16 lanes, masked tails, and
// embedded rounding, so the addition kernel serves nearest-even and toward-zero whatever MXCSR
// says.
namespace avx512 {

#define MINIFLOAT_AVX512_TARGET                                                                    \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512dq,avx512cd,avx2,f16c,fma,"    \
                        "bmi2,popcnt")))
#if defined(__OPTIMIZE__) // forced inline only where optimizing: lanes.inc says why
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX512_TARGET __attribute__((always_inline)) inline
#else
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX512_TARGET inline
#endif
#define MINIFLOAT_ARRAY_FN MINIFLOAT_AVX512_TARGET inline
#define MINIFLOAT_UNROLLED _Pragma("GCC unroll 16") // (lanes.inc says why)
#define MINIFLOAT_ROLLED _Pragma("GCC unroll 1")    // (lanes.inc says why)

// Float addition with embedded rounding, per-lane shifts, F16C, packed stores, doubles rounded
// to odd by a conversion with embedded rounding, 32-entry lookups by a two-register permute,
// codes' magnitudes tested on their packed bytes.
constexpr lane_capabilities capabilities{
    float_addition_rounding::embedded, // float_addition
    true,                              // per_lane_shifts
    true,                              // binary16_conversion
    true,                              // store4
    true,                              // double_rounding_to_odd
    true,                              // fixup_and_lookup32
    true,                              // code_bytes_outside
    true,                              // signs_on_packed_codes
    false,                             // float_min_keeps_nan
    true,                              // masked_tests
    true                               // unsigned_minima
};

using u32v = __m512i;
using maskv = __mmask16;

constexpr std::size_t width = 16;
MINIFLOAT_LANE_FN u32v splat(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
MINIFLOAT_LANE_FN u32v iota() {
  return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
MINIFLOAT_LANE_FN u32v add(u32v a, u32v b) { return _mm512_add_epi32(a, b); }
MINIFLOAT_LANE_FN u32v sub(u32v a, u32v b) { return _mm512_sub_epi32(a, b); }
MINIFLOAT_LANE_FN u32v and_(u32v a, u32v b) { return _mm512_and_si512(a, b); }
MINIFLOAT_LANE_FN u32v or_(u32v a, u32v b) { return _mm512_or_si512(a, b); }
MINIFLOAT_LANE_FN u32v xor_(u32v a, u32v b) { return _mm512_xor_si512(a, b); }
MINIFLOAT_LANE_FN u32v mul_lo(u32v a, u32v b) { return _mm512_mullo_epi32(a, b); }
template <unsigned N>
MINIFLOAT_LANE_FN u32v shr(u32v a) {
  return _mm512_srli_epi32(a, N);
}
// x >> 16 as a byte shuffle (VPSHUFB, on port 5 of Intel cores, where 512-bit multiplies and
// shifts share port 0): counter_generator's bits (lanes.inc counter_bits_lanes), which with
// this and its folds went from 1.93 to 2.19 el/ns (stochastic float -> e4m3, Xeon with AVX-512).
MINIFLOAT_LANE_FN u32v shr16_lanes(u32v a) {
  const __m512i high_halves =
      _mm512_set4_epi32(static_cast<int>(0xFFFF0F0EU), static_cast<int>(0xFFFF0B0AU),
                        static_cast<int>(0xFFFF0706U), static_cast<int>(0xFFFF0302U));
  return _mm512_shuffle_epi8(a, high_halves);
}
template <unsigned N>
MINIFLOAT_LANE_FN u32v shl(u32v a) {
  return _mm512_slli_epi32(a, N);
}
MINIFLOAT_LANE_FN u32v shrv(u32v a, u32v count) { return _mm512_srlv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v shlv(u32v a, u32v count) { return _mm512_sllv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v min_u(u32v a, u32v b) { return _mm512_min_epu32(a, b); }
MINIFLOAT_LANE_FN u32v max_u(u32v a, u32v b) { return _mm512_max_epu32(a, b); }
MINIFLOAT_LANE_FN maskv eq(u32v a, u32v b) { return _mm512_cmpeq_epu32_mask(a, b); }
MINIFLOAT_LANE_FN maskv gt_u(u32v a, u32v b) { return _mm512_cmpgt_epu32_mask(a, b); }
MINIFLOAT_LANE_FN maskv gt_small(u32v a, u32v b) { return _mm512_cmpgt_epi32_mask(a, b); }
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return _mm512_mask_blend_epi32(m, b, a); }
MINIFLOAT_LANE_FN u32v all_ones_where(maskv m, u32v a) {
  return _mm512_mask_mov_epi32(a, m, _mm512_set1_epi32(-1));
}
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return _kand_mask16(a, b); }
MINIFLOAT_LANE_FN maskv mask_or(maskv a, maskv b) { return _kor_mask16(a, b); }
MINIFLOAT_LANE_FN maskv mask_and_not(maskv a, maskv b) { return _kandn_mask16(b, a); }
MINIFLOAT_LANE_FN bool any_lane(maskv m) { return m != 0; }
// The lanes of k where a & b is not 0, in one VPTESTMD (masked_tests); nonzero_and, every lane's.
MINIFLOAT_LANE_FN maskv nonzero_and_where(maskv k, u32v a, u32v b) {
  return _mm512_mask_test_epi32_mask(k, a, b);
}
MINIFLOAT_LANE_FN maskv nonzero_and(u32v a, u32v b) { return _mm512_test_epi32_mask(a, b); }
// A mask's bits, lane i as bit i, by an asm KMOVW into a 32-bit general register. GCC 12 let a
// mask spilled as 16 bits be read back as 32, two bytes of stale stack data included: at -O3 a
// POPCNT of the spilled mask (16 subnormal results too many in a report), at -O2 a SHRX of a
// spilled _cvtmask16_u32 result (MX with a report counted clipped blocks that were not:
// docs/performance.md, stop 63). The asm's result is an ordinary 32-bit integer from the
// instruction that zero-extends, which no spill can widen. (Both assembler dialects: -masm=intel
// builds include these headers too.)
MINIFLOAT_LANE_FN std::uint32_t mask_bits(maskv m) {
  std::uint32_t bits;
  __asm__("kmovw {%1, %0|%0, %1}" : "=r"(bits) : "k"(m));
  return bits;
}
// How many lanes are set.
MINIFLOAT_LANE_FN std::size_t count_lanes(maskv m) {
  return static_cast<std::size_t>(_mm_popcnt_u32(mask_bits(m)));
}
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) {
  return _mm512_mask_add_epi32(a, m, a, _mm512_set1_epi32(1));
}
MINIFLOAT_LANE_FN u32v dec_if(maskv m, u32v a) {
  return _mm512_mask_sub_epi32(a, m, a, _mm512_set1_epi32(1));
}
MINIFLOAT_LANE_FN u32v int_to_float_bits(u32v a) {
  return _mm512_castps_si512(_mm512_cvtepi32_ps(a));
}
template <rounding_rule Rule>
MINIFLOAT_LANE_FN u32v add_f32(u32v a, u32v b) {
  constexpr int mode =
      (Rule == rounding_rule::toward_zero ? _MM_FROUND_TO_ZERO : _MM_FROUND_TO_NEAREST_INT) |
      _MM_FROUND_NO_EXC;
  return _mm512_castps_si512(
      _mm512_add_round_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), mode));
}
// a + b (positive magnitudes) rounded as Rule says, upward or toward zero, but the other way in
// the lanes of `other`: two additions, the second masked (lanes.inc other_rounding_lanes; upward,
// toward zero where x is negative: -|x| rounded upward).
template <rounding_rule Rule>
MINIFLOAT_LANE_FN u32v add_f32(u32v a, u32v b, maskv other) {
  static_assert(Rule == rounding_rule::upward || Rule == rounding_rule::toward_zero,
                "upward or toward zero");
  constexpr int up = _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC;
  constexpr int toward_zero = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
  const __m512 fa = _mm512_castsi512_ps(a);
  const __m512 fb = _mm512_castsi512_ps(b);
  const __m512 first =
      _mm512_add_round_ps(fa, fb, Rule == rounding_rule::upward ? up : toward_zero);
  return _mm512_castps_si512(_mm512_mask_add_round_ps(
      first, other, fa, fb, Rule == rounding_rule::upward ? toward_zero : up));
}
// The product of float lanes by a float in the current floating-point environment, as the
// scalar x * scale is.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(b)));
}
MINIFLOAT_LANE_FN u32v min_small(u32v a, u32v b) { return _mm512_min_epi32(a, b); }
MINIFLOAT_LANE_FN u32v max_small(u32v a, u32v b) { return _mm512_max_epi32(a, b); }
// a / b for float lanes, correctly rounded in the current environment (as on the AVX2 path: the
// instruction written out, which -ffast-math cannot turn into a reciprocal estimate).
MINIFLOAT_LANE_FN u32v quotient_f32(u32v a, u32v b) {
  __m512 quotient;
  __asm__("vdivps {%2, %1, %0|%0, %1, %2}"
          : "=v"(quotient)
          : "v"(_mm512_castsi512_ps(a)), "v"(_mm512_castsi512_ps(b)));
  return _mm512_castps_si512(quotient);
}
// VFIXUPIMM's tables (one per element width, for float and double lanes alike) that give token
// 14 (+FLT_MAX, +DBL_MAX: low bits all ones) for the classes 0 and 1 (quiet and signalling
// NaN), and in the second also 4 and 5 (-infinity, +infinity); token 0 (keep the first operand)
// for the others.
constexpr std::uint32_t max_where_nan = 0xEEU;
constexpr std::uint32_t max_where_not_finite = 0x00EE00EEU;
// a, but FLT_MAX (0x7F7FFFFF) in the lanes where the float x is a NaN: one fix-up.
MINIFLOAT_LANE_FN u32v all_ones_where_nan(u32v a, u32v x) {
  return _mm512_castps_si512(
      _mm512_fixupimm_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(x), splat(max_where_nan), 0));
}
// a, but FLT_MAX where the float x is a NaN or infinite: one fix-up.
MINIFLOAT_LANE_FN u32v all_ones_where_not_finite(u32v a, u32v x) {
  return _mm512_castps_si512(_mm512_fixupimm_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(x),
                                                splat(max_where_not_finite), 0));
}
// The lanes where neither float a nor x is a NaN: an ordered compare, quiet, exceptions
// suppressed (a: a constant, which is none; x second, which may be read from memory).
MINIFLOAT_LANE_FN maskv ordered_lanes(u32v a, u32v x) {
  return _mm512_cmp_round_ps_mask(_mm512_castsi512_ps(a), _mm512_castsi512_ps(x), _CMP_ORD_Q,
                                  _MM_FROUND_NO_EXC);
}
// bit_select(m, a, b) in the lanes of `where`, b in the others: one masked VPTERNLOGD, written
// over b.
MINIFLOAT_LANE_FN u32v bit_select_where(maskv where, u32v m, u32v a, u32v b) {
  constexpr int second_where_third_else_first = 0xD8; // as bit_select
  return _mm512_mask_ternarylogic_epi32(b, where, a, m, second_where_third_else_first);
}
// min(|x|, limit) for the float lanes x (limit: a non-negative float's bits): one VRANGEPS
// (imm 0b1010: the smaller magnitude, sign cleared), exceptions suppressed. Where x is a NaN the
// result is not one on every CPU (an AMD Zen 5 gives the limit): callers classify x itself
// (ordered_lanes, all_ones_where_nan). Under DAZ a float subnormal x gives 0, which every caller
// encodes as it encodes x.
MINIFLOAT_LANE_FN u32v min_magnitude(u32v x, u32v limit) {
  constexpr int smaller_magnitude_sign_cleared = 0b1010;
  return _mm512_castps_si512(
      _mm512_range_round_ps(_mm512_castsi512_ps(x), _mm512_castsi512_ps(limit),
                            smaller_magnitude_sign_cleared, _MM_FROUND_NO_EXC));
}
// (a & m) | (b & ~m) in one VPTERNLOGD, written over b (which the kernels no longer need: no copy).
MINIFLOAT_LANE_FN u32v bit_select(u32v m, u32v a, u32v b) {
  constexpr int second_where_third_else_first = 0xD8; // (B & C) | (A & ~C) for A = b, B = a, C = m
  return _mm512_ternarylogic_epi32(b, a, m, second_where_third_else_first);
}
// table[index % 32] (table: 64-byte aligned), by one two-register permute.
MINIFLOAT_LANE_FN u32v lookup32(const std::uint32_t* table, u32v index) {
  return _mm512_permutex2var_epi32(_mm512_load_si512(table), index, _mm512_load_si512(table + 16));
}
MINIFLOAT_LANE_FN u32v sub_f32(u32v a, u32v b) {
  return _mm512_castps_si512(_mm512_sub_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
}
// a * b for float lanes (lane by lane) in the current environment.
MINIFLOAT_LANE_FN u32v product_f32(u32v a, u32v b) {
  return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
}
MINIFLOAT_LANE_FN u32v truncate_f32(u32v a) { return _mm512_cvttps_epi32(_mm512_castsi512_ps(a)); }

MINIFLOAT_LANE_FN __mmask16 first_lanes(std::size_t count) {
  return static_cast<__mmask16>(_bzhi_u32(0xFFFFU, static_cast<unsigned>(count)));
}
MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) { return _mm512_loadu_si512(p); }
MINIFLOAT_LANE_FN void store_u32(std::uint32_t* p, u32v a) { _mm512_storeu_si512(p, a); }
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t count) {
  return _mm512_maskz_loadu_epi32(first_lanes(count), p);
}
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) { return _mm512_loadu_si512(p); }
// `width` stored codes, widened (the reports' rare second look, lanes.inc).
MINIFLOAT_LANE_FN u32v load_codes(const std::uint8_t* p) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t count) {
  return _mm512_maskz_loadu_epi32(first_lanes(count), p);
}
MINIFLOAT_LANE_FN __mmask8 first_doubles(std::size_t count) {
  return static_cast<__mmask8>(_bzhi_u32(0xFFU, static_cast<unsigned>(count)));
}
// 8 doubles rounded to odd into float, as float bits: the bits of lanes.inc's
// float_bits_rounded_to_odd but for NaNs' payloads (a NaN all the same). Non-zero magnitudes
// below 2^-126 are raised to it, keeping their sign (an integer maximum on the bits in the lanes
// that are not zero, found by their bits: no floating-point operation, so a subnormal that DAZ
// would read as zero is raised too; VRANGEPD, which did this before, also needed a compare for
// NaN's lanes: double -> e4m3 4.07 -> 4.22 el/ns), so that neither DAZ nor
// flush-to-zero meets a subnormal; then a conversion toward zero (embedded rounding: past
// FLT_MAX it gives FLT_MAX) and the last bit set where any of the 29 mantissa bits it cuts off
// is. (The conversion keeps a normal float's 24 bits, so those 29 bits are what it drops; a
// raised lane's 2^-126 with its last bit set still rounds as the tiny value does; FLT_MAX's last
// bit is set already, and an infinity has no bits there.)
MINIFLOAT_LANE_FN __m256i round_to_odd_as_float_bits(__m512d x) {
  __m512i x_bits = _mm512_castpd_si512(x);
  // An empty asm keeps the zero test on the bits: clang -ffast-math otherwise turns it into
  // x != 0.0, which DAZ makes false for a subnormal (docs/spec.md §8).
  __asm__("" : "+v"(x_bits));
  const __mmask8 nonzero = _mm512_test_epi64_mask(x_bits, _mm512_set1_epi64(0x7FFFFFFFFFFFFFFFLL));
  // 2^-126 with x's sign; as signed integers, the larger of the two is x's sign with the larger
  // magnitude (a negative double's bits are -2^63 plus its magnitude), NaN included.
  const __m512i floor_bits = _mm512_ternarylogic_epi64(
      x_bits, _mm512_set1_epi64(0x3810000000000000LL), _mm512_set1_epi64(INT64_MIN), 0xEC);
  const __m512d raised =
      _mm512_castsi512_pd(_mm512_mask_max_epi64(x_bits, nonzero, x_bits, floor_bits));
  const __m256 truncated = _mm512_cvt_roundpd_ps(raised, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __mmask8 inexact = _mm512_test_epi64_mask(x_bits, _mm512_set1_epi64(0x1FFFFFFF));
  const __m256i bits = _mm256_castps_si256(truncated);
  return _mm256_mask_or_epi32(bits, inexact, bits, _mm256_set1_epi32(1));
}
MINIFLOAT_LANE_FN u32v join(__m256i low, __m256i high) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
}
MINIFLOAT_LANE_FN u32v load_double_as_float_bits(const double* p) {
  return join(round_to_odd_as_float_bits(_mm512_loadu_pd(p)),
              round_to_odd_as_float_bits(_mm512_loadu_pd(p + 8)));
}
MINIFLOAT_LANE_FN void load_doubles4_as_float_bits(const double* p, u32v (&bits)[4]) {
  MINIFLOAT_UNROLLED
  for (std::size_t v = 0; v < 4; ++v) {
    bits[v] = load_double_as_float_bits(p + 16 * v);
  }
}
MINIFLOAT_LANE_FN u32v load_double_as_float_bits_partial(const double* p, std::size_t count) {
  const __m512d first = _mm512_maskz_loadu_pd(first_doubles(count), p);
  const __m512d second =
      count > 8 ? _mm512_maskz_loadu_pd(first_doubles(count - 8), p + 8) : _mm512_setzero_pd();
  return join(round_to_odd_as_float_bits(first), round_to_odd_as_float_bits(second));
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) {
  return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
MINIFLOAT_LANE_FN u32v load_halves_partial(const std::uint16_t* p, std::size_t count) {
  return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(first_lanes(count), p));
}
// binary16 -> float bits by VCVTPH2PS: exact, and DAZ does not apply to it (a signalling NaN
// comes out quiet, which no 8-bit code tells apart).
MINIFLOAT_LANE_FN u32v load_binary16_as_float_bits(const std::uint16_t* p) {
  return _mm512_castps_si512(
      _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
}
MINIFLOAT_LANE_FN u32v load_binary16_as_float_bits_partial(const std::uint16_t* p,
                                                           std::size_t count) {
  return _mm512_castps_si512(_mm512_cvtph_ps(_mm256_maskz_loadu_epi16(first_lanes(count), p)));
}
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v codes) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(codes));
}
MINIFLOAT_LANE_FN void store_codes_partial(std::uint8_t* p, u32v codes, std::size_t count) {
  _mm512_mask_cvtepi32_storeu_epi8(p, first_lanes(count), codes);
}
constexpr std::size_t prefetch_distance = 4096; // as on the AVX2 path
// 64 codes from four vectors a, b, c, d (codes below 256): two VPACKUSDW leave, in each 128-bit
// lane k, the codes of elements 4k..4k+3 of a (words 0-3) and of b (words 4-7), and the same of c
// and d in the second; one VPERMT2B takes the words' low bytes in element order (indices 0-63
// name the first pack's bytes, 64-127 the second's). Three non-destructive-input instructions:
// g++ 12 copied registers around the two VPERMT2B and the blend that did this before.
constexpr std::array<std::uint8_t, 64> pack4_indices() {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 64; ++j) {
    const int vector = j / 16; // a, b, c, d
    const int element = j % 16;
    const int word = 8 * (element / 4) + 4 * (vector % 2) + element % 4;
    indices[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(64 * (vector / 2) + 2 * word);
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> pack4 = pack4_indices();
MINIFLOAT_LANE_FN __m512i codes4(u32v a, u32v b, u32v c, u32v d) {
  const __m512i words_ab = _mm512_packus_epi32(a, b);
  const __m512i words_cd = _mm512_packus_epi32(c, d);
  return _mm512_permutex2var_epi8(words_ab, _mm512_load_si512(pack4.data()), words_cd);
}
MINIFLOAT_LANE_FN void store_codes4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  _mm512_storeu_si512(p, codes4(a, b, c, d));
}
// 64 FP4 codes (each lane below 16) packed two per byte into 32 bytes at p, element 2k in the low
// nibble of byte k (packed.hpp): the codes' bytes in order (codes4), then VPMADDUBSW makes each
// pair (c0, c1) the word c0 + 16 c1 and VPMOVWB keeps the words' low bytes, as
// pack_nibble_pairs does from memory.
MINIFLOAT_LANE_FN void store_nibble_pairs4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  const __m512i weights = _mm512_set1_epi16(0x1001); // bytes 1, 16
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                      _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(codes4(a, b, c, d), weights)));
}
// 64 codes from the magnitudes in the low bytes of four vectors a, b, c, d (below 128:
// lanes_by_addition's sums) and the sign bits of four vectors of floats fa, fb, fc, fd: one
// VPERMT2B per pair of vectors gathers their bytes 0 (magnitudes) or 3 (signs) into one half of
// the line, one VSHUFI64X2 joins the halves, and one bit select the magnitudes and signs. Seven
// instructions, where a sign shift and a bit select per vector and codes4 took eleven.
constexpr std::array<std::uint8_t, 64> byte_of_lanes_indices(int byte) {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 64; ++j) {
    const int lane = j % 16;
    const int table = (j / 16) % 2; // the first vector of the pair (0-63) or the second
    indices[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(64 * table + 4 * lane + byte);
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> lane_low_bytes = byte_of_lanes_indices(0);
alignas(64) inline constexpr std::array<std::uint8_t, 64> lane_top_bytes = byte_of_lanes_indices(3);
// (In two steps, so that a report tests the magnitudes before the signs join them:
// packed_magnitudes4, then signed_codes4. Each half of the line by one VPERMT2B, whose upper
// half is dropped by the VSHUFI64X2 that joins the two: no mask register, which g++ 12 made
// again in every iteration where the loop calls a function.)
MINIFLOAT_LANE_FN __m512i bytes_of_lanes4(const std::array<std::uint8_t, 64>& indices, u32v a,
                                          u32v b, u32v c, u32v d) {
  const __m512i index = _mm512_load_si512(indices.data());
  constexpr int low_halves = 0x44; // 128-bit parts 0, 1 of the first, 0, 1 of the second
  return _mm512_shuffle_i64x2(_mm512_permutex2var_epi8(a, index, b),
                              _mm512_permutex2var_epi8(c, index, d), low_halves);
}
MINIFLOAT_LANE_FN __m512i packed_magnitudes4(u32v a, u32v b, u32v c, u32v d) {
  return bytes_of_lanes4(lane_low_bytes, a, b, c, d);
}
MINIFLOAT_LANE_FN __m512i signed_codes4(__m512i magnitudes, u32v fa, u32v fb, u32v fc, u32v fd) {
  return bit_select(_mm512_set1_epi8(0x7F), magnitudes,
                    bytes_of_lanes4(lane_top_bytes, fa, fb, fc, fd));
}
MINIFLOAT_LANE_FN __m512i codes4_signed(u32v a, u32v b, u32v c, u32v d, u32v fa, u32v fb, u32v fc,
                                        u32v fd) {
  return signed_codes4(packed_magnitudes4(a, b, c, d), fa, fb, fc, fd);
}
MINIFLOAT_LANE_FN void store_codes4_signed(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d, u32v fa,
                                           u32v fb, u32v fc, u32v fd) {
  _mm512_storeu_si512(p, codes4_signed(a, b, c, d, fa, fb, fc, fd));
}
// FP4 codes from the magnitudes in the low bytes of four vectors a, b, c, d (below 8, the bits
// above them 0: lanes_by_addition's sums for an FP4 target, whose magic constants hold nothing
// above the code) and the sign bits of four vectors of floats fa..fd, packed two per byte, element
// 2k of `order` in the low nibble of byte k: the magnitudes' and the signs' bytes gathered as for
// codes4_signed, the signs moved from bit 7 to bit 3 (a word shift: the bits it brings into bits
// 4-7 are dropped by the select) and joined by one VPTERNLOGD, then VPMADDUBSW makes each pair
// (c0, c1) the word c0 + 16 c1 and VPMOVWB keeps the words' low bytes. Ten instructions per 64
// codes, where a sign shift and a bit select per vector before the packing took thirteen.
// (signed_nibble_pairs4's words: each pair's byte c0 + 16 c1 in the low byte of a word, the high
// byte 0.)
MINIFLOAT_LANE_FN __m512i signed_nibble_pair_words4(const std::array<std::uint8_t, 64>& low_bytes,
                                                    const std::array<std::uint8_t, 64>& top_bytes,
                                                    u32v a, u32v b, u32v c, u32v d, u32v fa,
                                                    u32v fb, u32v fc, u32v fd) {
  const __m512i magnitudes = bytes_of_lanes4(low_bytes, a, b, c, d);
  const __m512i signs = _mm512_srli_epi16(bytes_of_lanes4(top_bytes, fa, fb, fc, fd), 4);
  constexpr int first_or_second_and_third = 0xF8; // a | (b & c)
  const __m512i codes = _mm512_ternarylogic_epi32(magnitudes, signs, _mm512_set1_epi8(0x08),
                                                  first_or_second_and_third);
  const __m512i weights = _mm512_set1_epi16(0x1001); // bytes 1, 16
  return _mm512_maddubs_epi16(codes, weights);
}
MINIFLOAT_LANE_FN __m256i signed_nibble_pairs4(const std::array<std::uint8_t, 64>& low_bytes,
                                               const std::array<std::uint8_t, 64>& top_bytes,
                                               u32v a, u32v b, u32v c, u32v d, u32v fa, u32v fb,
                                               u32v fc, u32v fd) {
  return _mm512_cvtepi16_epi8(
      signed_nibble_pair_words4(low_bytes, top_bytes, a, b, c, d, fa, fb, fc, fd));
}
// signed_nibble_pairs4 in element order (a, b, c, d lane by lane) into 32 bytes at p.
MINIFLOAT_LANE_FN void store_nibble_pairs4_signed(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d,
                                                  u32v fa, u32v fb, u32v fc, u32v fd) {
  _mm256_storeu_si256(
      reinterpret_cast<__m256i*>(p),
      signed_nibble_pairs4(lane_low_bytes, lane_top_bytes, a, b, c, d, fa, fb, fc, fd));
}
// The indices of byte `byte` of lane j of the first vector of a pair (0-63) at byte 2j and of
// the second (64-127) at byte 2j + 1: lane j of a in the low nibble and lane j of b in the high
// one (ggml's block_mxfp4: element j and element j + 16 of a block of 32 in byte j).
constexpr std::array<std::uint8_t, 64> interleaved_byte_of_lanes_indices(int byte) {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 64; ++j) {
    const int lane = (j / 2) % 16;
    const int table = j % 2;
    indices[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(64 * table + 4 * lane + byte);
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> interleaved_low_bytes =
    interleaved_byte_of_lanes_indices(0);
alignas(64) inline constexpr std::array<std::uint8_t, 64> interleaved_top_bytes =
    interleaved_byte_of_lanes_indices(3);
// The indices that make two ggml blocks of 17 bytes from signed_nibble_pair_words4's words (the
// first table) and the two scale bytes (bytes 0 and 1 of the second): byte 0 the first block's
// scale, bytes 1-16 its element bytes (words 0-15), byte 17 the second's scale, bytes 18-33 its
// element bytes (words 16-31); the bytes past 33 are not stored.
constexpr std::array<std::uint8_t, 64> ggml_block_pair_indices() {
  std::array<std::uint8_t, 64> indices{};
  for (std::size_t block = 0; block < 2; ++block) {
    indices[17 * block] = static_cast<std::uint8_t>(64 + block);
    for (std::size_t j = 0; j < 16; ++j) {
      indices[17 * block + 1 + j] = static_cast<std::uint8_t>(2 * (16 * block + j));
    }
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> ggml_block_pair_bytes =
    ggml_block_pair_indices();
// Two MX blocks of 32 FP4 elements, a and b the first block's elements 0-15 and 16-31, c and d
// the second's, with the signs of fa..fd, as two whole ggml blocks of 17 bytes at p, the first
// block's scale byte at p and the second's at p + 17 (scales[0], scales[1]): one byte store of
// 34 bytes, where two 16-byte stores of the elements and two scale bytes written apart by the
// caller made ggml's layout 0.88 x the speed of the packed one (AMD Zen 5).
MINIFLOAT_LANE_FN void store_ggml_blocks2_signed(std::uint8_t* p, const std::uint8_t* scales,
                                                 u32v a, u32v b, u32v c, u32v d, u32v fa, u32v fb,
                                                 u32v fc, u32v fd) {
  const __m512i words = signed_nibble_pair_words4(interleaved_low_bytes, interleaved_top_bytes, a,
                                                  b, c, d, fa, fb, fc, fd);
  std::uint16_t scale_pair = 0;
  std::memcpy(&scale_pair, scales, sizeof scale_pair);
  const __m512i blocks =
      _mm512_permutex2var_epi8(words, _mm512_load_si512(ggml_block_pair_bytes.data()),
                               _mm512_set1_epi16(static_cast<short>(scale_pair)));
  constexpr __mmask64 two_blocks = (__mmask64{1} << 34) - 1U;
  _mm512_mask_storeu_epi8(p, two_blocks, blocks);
}
// 64 packed codes to p: through the caches, or with a streaming store (p on a
// 64-byte boundary).
MINIFLOAT_LANE_FN void store_packed4(std::uint8_t* p, __m512i codes) {
  _mm512_storeu_si512(p, codes);
}
MINIFLOAT_LANE_FN void store_packed4_streaming(std::uint8_t* p, __m512i codes) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), codes);
}
// Which of packed_magnitudes4's 64 magnitudes lie outside [first, last], as a mask: minus first,
// unsigned, above last - first. Two instructions.
MINIFLOAT_LANE_FN __mmask64 magnitudes4_outside(__m512i magnitudes, std::uint32_t first,
                                                std::uint32_t last) {
  const __m512i offset = _mm512_sub_epi8(magnitudes, _mm512_set1_epi8(static_cast<char>(first)));
  return _mm512_cmpgt_epu8_mask(offset, _mm512_set1_epi8(static_cast<char>(last - first)));
}
// The smaller of each byte of two packed_magnitudes4 vectors (a running minimum of a group's
// magnitudes, tested once by any_magnitude4_outside).
MINIFLOAT_LANE_FN u32v min_magnitudes4(u32v a, u32v b) { return _mm512_min_epu8(a, b); }
// Whether any lies outside (the mask's test), and how many lie inside (its population count).
MINIFLOAT_LANE_FN bool any_magnitude4_outside(__m512i magnitudes, std::uint32_t first,
                                              std::uint32_t last) {
  return magnitudes4_outside(magnitudes, first, last) != 0;
}
MINIFLOAT_LANE_FN std::size_t count_magnitudes4_in(__m512i magnitudes, std::uint32_t first,
                                                   std::uint32_t last) {
  return 64U - static_cast<std::size_t>(__builtin_popcountll(
                   static_cast<unsigned long long>(magnitudes4_outside(magnitudes, first, last))));
}
// Whether any of the 64 codes has a magnitude (its low 7 bits) outside [first, last], on the
// packed codes (which the compiler shares with store_codes4): twice the code (the sign bit
// shifted out) minus 2 first, unsigned, above 2 (last - first). Three instructions, as fast as
// a VPERMI2B lookup of the magnitudes and a VPMOVB2M (AMD Zen 5).
MINIFLOAT_LANE_FN bool any_code4_outside(u32v a, u32v b, u32v c, u32v d, std::uint32_t first,
                                         std::uint32_t last) {
  const __m512i packed = codes4(a, b, c, d);
  const __m512i offset = _mm512_sub_epi8(_mm512_add_epi8(packed, packed),
                                         _mm512_set1_epi8(static_cast<char>(2 * first)));
  return _mm512_cmpgt_epu8_mask(offset, _mm512_set1_epi8(static_cast<char>(2 * (last - first)))) !=
         0;
}
// The vectors as they are, in registers: an empty asm that may have changed them, so that the
// compiler reads their source once. (GCC 12 read x a second time, as a memory operand of the
// sign's shift: streaming from a source off its lines, whose every load is split in two, ran
// at 6.9-7.0 el/ns that way and 10.0-10.1 with this.)
template <class Source>
MINIFLOAT_LANE_FN void kept_in_registers(const Source& /*src*/, u32v (&v)[4]) {
  __asm__("" : "+v"(v[0]), "+v"(v[1]), "+v"(v[2]), "+v"(v[3]));
}
// v as it is, in a register: an empty asm that may have changed it, so that a loop after it
// holds it rather than making it again from its value (lanes.inc index_floor_for_loop).
template <class Source>
MINIFLOAT_LANE_FN u32v held_in_register(const Source& /*src*/, u32v v) {
  __asm__("" : "+v"(v));
  return v;
}
// Whether a lane of the four vectors of floats v is a NaN: two unordered compares, each of two
// vectors, quiet, exceptions suppressed. (Source, the kernel's, makes lanes.inc's call a dependent
// one, as this path alone has the function. For x * scale, x read again for the compares, so
// that they need not wait for the products, was no faster.)
template <class Source>
MINIFLOAT_LANE_FN bool any_nan_lane4(const Source& /*src*/, const u32v (&v)[4]) {
  const __mmask16 first = _mm512_cmp_round_ps_mask(
      _mm512_castsi512_ps(v[0]), _mm512_castsi512_ps(v[1]), _CMP_UNORD_Q, _MM_FROUND_NO_EXC);
  const __mmask16 second = _mm512_cmp_round_ps_mask(
      _mm512_castsi512_ps(v[2]), _mm512_castsi512_ps(v[3]), _CMP_UNORD_Q, _MM_FROUND_NO_EXC);
  // (One KORTESTW: g++ 12 made two KMOVWs and an OR.)
  return _kortestz_mask16_u8(first, second) == 0;
}
MINIFLOAT_LANE_FN void store_codes4_streaming(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), codes4(a, b, c, d));
}

// The largest lane.
MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) {
  return static_cast<std::uint32_t>(_mm512_reduce_max_epu32(a));
}
// One round of max_of_each's: the lanes of a and b by spans of Span lanes (8, 4, 2 or 1), a's
// even spans and b's odd ones against their neighbours (a's odd spans and b's even ones, moved
// across), so that the maxima of a's pairs of spans fill the even spans and b's the odd ones. A
// maximum of a blend (the spans that stay) and one shuffle (the spans that move across), each
// non-destructive. By unsigned dwords, or by unsigned 16-bit words (Words: each lane two values).
template <std::size_t Span, bool Words = false>
MINIFLOAT_LANE_FN u32v max_round(u32v a, u32v b) {
  constexpr __mmask16 odd_spans = Span == 8   ? 0xFF00
                                  : Span == 4 ? 0xF0F0
                                  : Span == 2 ? 0xCCCC
                                              : 0xAAAA;
  u32v across;
  if constexpr (Span == 8) {
    // a's high half with b's low.
    across = _mm512_shuffle_i64x2(a, b, 0x4E);
  } else if constexpr (Span == 4) {
    // [b0 a1 b2 a3] with its neighbours swapped.
    const u32v swapped = _mm512_mask_blend_epi32(static_cast<__mmask16>(~odd_spans), a, b);
    across = _mm512_shuffle_i32x4(swapped, swapped, 0xB1);
  } else if constexpr (Span == 2) {
    across = _mm512_castps_si512(
        _mm512_shuffle_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), 0x4E));
  } else {
    const u32v swapped = _mm512_mask_blend_epi32(static_cast<__mmask16>(~odd_spans), a, b);
    across = _mm512_shuffle_epi32(swapped, static_cast<_MM_PERM_ENUM>(0xB1));
  }
  const u32v stay = _mm512_mask_blend_epi32(odd_spans, a, b);
  return Words ? _mm512_max_epu16(stay, across) : _mm512_max_epu32(stay, across);
}
// Lane k: the largest lane of m[k]. Four rounds (max_round), each halving the vectors and the
// lanes that hold one vector's maxima. One shuffle per merge, 15 in all, where two-register
// permutes took two (and, with g++, a copy): the shuffles share few ports (VPERMT2D's one on an
// AMD Zen 5).
MINIFLOAT_LANE_FN u32v max_of_each(const u32v (&m)[16]) {
  u32v eight[8];
  MINIFLOAT_UNROLLED
  for (std::size_t k = 0; k < 8; ++k) {
    eight[k] = max_round<8>(m[k], m[k + 8]);
  }
  u32v four[4];
  MINIFLOAT_UNROLLED
  for (std::size_t k = 0; k < 4; ++k) {
    four[k] = max_round<4>(eight[k], eight[k + 4]);
  }
  const u32v two[2] = {max_round<2>(four[0], four[2]), max_round<2>(four[1], four[3])};
  return max_round<1>(two[0], two[1]);
}

#include "lanes.inc"

// The byte permute's indices for mx_group_max_high_words: lane i's low word from bytes 4i + 2
// and 4i + 3 of the second vector (64 + 4i + 2 of the pair), its high word from those of the
// first.
constexpr std::array<std::uint8_t, 64> interleaved_high_words_indices() {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 64; ++j) {
    const int lane = j / 4;
    const int second = j % 4 < 2 ? 64 : 0;
    indices[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(second + 4 * lane + 2 + j % 2);
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> interleaved_high_words =
    interleaved_high_words_indices();

// MX blocks' amaxes with their low 16 bits 0, as quantize_block_groups' GroupMax where the rule
// reads only the high words (kernels::mx_amax_high_words_suffice; a block's largest high word is
// its amax's, since clearing the low bits keeps the order). 66 instructions a group of 16 blocks
// of 32, where the dword amaxes (group_max_magnitudes and max_of_each) take 98:
// 1. Blocks k and k + 8 share vectors from the start: each of k's with the one of k + 8 at the
//    same place, their high words interleaved by one byte permute (k + 8's into the low words),
//    magnitudes by one AND, the two vectors' maximum: 5 instructions for two blocks, where the
//    dwords take 6 and a round of max_of_each 3 more, and a shift and a word blend in place of
//    the permute 7. Vector k holds k's 16 high words in its high words and k + 8's in its low
//    words.
// 2. max_of_each's last three rounds by 16-bit words: lanes 2k and 2k + 1 hold those of k.
// 3. Their larger words (a swap of lanes and a maximum), each block's to its own lane's high word
//    by one VPERMW that zeroes the low words.
struct mx_group_max_high_words {
  MINIFLOAT_LANE_FN u32v operator()(const float* group) const {
    const u32v magnitudes = splat(0x7FFF7FFFU);
    const __m512i high_words = _mm512_load_si512(interleaved_high_words.data());
    u32v pairs[8];
    MINIFLOAT_UNROLLED
    for (std::size_t k = 0; k < 8; ++k) {
      const float* first = group + 32 * k;
      const float* second = first + 256; // block k + 8
      const u32v w0 =
          _mm512_permutex2var_epi8(load_float_bits(first), high_words, load_float_bits(second));
      const u32v w1 = _mm512_permutex2var_epi8(load_float_bits(first + 16), high_words,
                                               load_float_bits(second + 16));
      pairs[k] = _mm512_max_epu16(and_(w0, magnitudes), and_(w1, magnitudes));
    }
    u32v four[4];
    MINIFLOAT_UNROLLED
    for (std::size_t k = 0; k < 4; ++k) {
      four[k] = max_round<8, true>(pairs[k], pairs[k + 4]);
    }
    const u32v two[2] = {max_round<4, true>(four[0], four[2]),
                         max_round<4, true>(four[1], four[3])};
    const u32v one = max_round<2, true>(two[0], two[1]);
    const u32v both = _mm512_max_epu16(one, _mm512_shuffle_epi32(one, _MM_PERM_CDAB));
    // Lane k < 8: word 4k + 1 (k's, a high word); lane 8 + k: word 4k (a low word).
    alignas(64) static constexpr std::uint16_t to_lanes[32] = {
        0, 1, 0, 5, 0, 9, 0, 13, 0, 17, 0, 21, 0, 25, 0, 29,
        0, 0, 0, 4, 0, 8, 0, 12, 0, 16, 0, 20, 0, 24, 0, 28};
    return _mm512_maskz_permutexvar_epi16(0xAAAAAAAAU, _mm512_load_si512(to_lanes), both);
  }
};

// binary16 or bfloat16 -> e4m3 or e5m2, nearest-even, on 16-bit lanes (words.inc): 64 values
// per iteration. The word primitives words.inc uses:
using w16v = __m512i;
using w16mask = __mmask32;
constexpr std::size_t word_width = 32;
MINIFLOAT_LANE_FN w16v splat16(std::uint16_t x) { return _mm512_set1_epi16(static_cast<short>(x)); }
MINIFLOAT_LANE_FN w16v and16(w16v a, w16v b) { return _mm512_and_si512(a, b); }
MINIFLOAT_LANE_FN w16v or16(w16v a, w16v b) { return _mm512_or_si512(a, b); }
MINIFLOAT_LANE_FN w16v add16(w16v a, w16v b) { return _mm512_add_epi16(a, b); }
MINIFLOAT_LANE_FN w16v sub16(w16v a, w16v b) { return _mm512_sub_epi16(a, b); }
template <int N>
MINIFLOAT_LANE_FN w16v shr16(w16v a) {
  return _mm512_srli_epi16(a, N);
}
MINIFLOAT_LANE_FN w16v max16(w16v a, w16v b) { return _mm512_max_epi16(a, b); }
MINIFLOAT_LANE_FN w16v min16(w16v a, w16v b) { return _mm512_min_epi16(a, b); }
MINIFLOAT_LANE_FN w16mask gt16(w16v a, w16v b) { return _mm512_cmpgt_epi16_mask(a, b); }
MINIFLOAT_LANE_FN w16mask not_above16(w16v a, w16v b) { return _mm512_cmple_epu16_mask(a, b); }
MINIFLOAT_LANE_FN w16mask mask16_or(w16mask a, w16mask b) { return _kor_mask32(a, b); }
MINIFLOAT_LANE_FN bool any16(w16mask m) { return m != 0; }
MINIFLOAT_LANE_FN w16v select16(w16mask m, w16v a, w16v b) {
  return _mm512_mask_blend_epi16(m, b, a);
}
MINIFLOAT_LANE_FN void kept16(w16v& a, w16v& b, w16v& c) {
  __asm__("" : "+v"(a), "+v"(b), "+v"(c));
}
MINIFLOAT_LANE_FN w16v load_words(const std::uint16_t* p) { return _mm512_loadu_si512(p); }
// The even bytes of a then b: one two-register byte permute (VBMI).
constexpr std::array<std::uint8_t, 64> even_byte_indices() {
  std::array<std::uint8_t, 64> indices{};
  for (std::size_t j = 0; j < 64; ++j) {
    indices[j] = static_cast<std::uint8_t>(2 * j);
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> even_bytes = even_byte_indices();
MINIFLOAT_LANE_FN __m512i low_bytes(w16v a, w16v b) {
  return _mm512_permutex2var_epi8(a, _mm512_load_si512(even_bytes.data()), b);
}
MINIFLOAT_LANE_FN void store_low_bytes(std::uint8_t* p, w16v a, w16v b) {
  _mm512_storeu_si512(p, low_bytes(a, b));
}
MINIFLOAT_LANE_FN void store_low_bytes_streaming(std::uint8_t* p, w16v a, w16v b) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), low_bytes(a, b));
}

#include "words.inc"

// double -> an 8-bit format by lanes.inc's lanes_by_addition in 64-bit lanes, where that kernel
// clamps (addition_constants::by_clamp: the signed formats whose NaN takes the sign, nearest-even
// or toward zero): no detour through float, and 8 lanes per instruction where the detour took
// about twice the instructions (round to odd, then the float kernel). |x| clamped to the limit
// plus magic(e), e the exponent of the clamped |x| but at least the target's smallest normal
// one, rounds on the target's grid at e with the double addition's rounding (embedded: MXCSR
// plays no part), and leaves the code's magnitude in the sum's low bits, as in float lanes: the
// sum's 52 fraction bits hold the count of grid steps, at most 2^(M + 1) plus the offset. A
// double subnormal that DAZ reads as zero rounds to the zero it would give anyway.
template <class Target, rounding_rule Rule, overflow Overflow>
struct double_addition_constants {
  using info = format_info<Target>;
  using floats = addition_constants<Target, Rule, Overflow>;
  static constexpr std::uint64_t M = info::mantissa_bits;
  static constexpr std::uint64_t smallest_normal = floats::smallest_normal - 127 + 1023;
  // floats::limit_bits (a normal float) as double bits.
  static constexpr std::uint64_t limit_bits =
      ((std::uint64_t{floats::limit_bits >> 23} - 127 + 1023) << 52) |
      (std::uint64_t{floats::limit_bits & 0x7FFFFFU} << 29);
  static constexpr std::uint64_t largest_exponent = limit_bits >> 52;
  static constexpr std::uint64_t magic(std::uint64_t e) {
    return ((e + 52 - M) << 52) + ((e - smallest_normal) << M);
  }
  // Up to 16 binades (e4m3): magic(e) at index e mod 16, one two-register permute; more (e5m2's
  // 31): computed.
  static constexpr bool looked_up = largest_exponent - smallest_normal < 16;
  static constexpr std::array<std::uint64_t, 16> table() {
    std::array<std::uint64_t, 16> t{};
    for (std::uint64_t e = smallest_normal; looked_up && e <= largest_exponent; ++e) {
      t[e % 16] = magic(e);
    }
    return t;
  }
  alignas(64) static constexpr std::array<std::uint64_t, 16> magic_table = table();
};
template <class Target, rounding_rule Rule, overflow Overflow,
          bool ByAddition = step2_for<formats::binary32, Target, Rule>(capabilities) ==
                            step2_variant::lane_addition>
struct clamps_by_addition : std::false_type {}; // (addition_constants exist for these only)
// (Not below_infinity: toward zero into e5m2 without saturation rounds the infinities' lanes up,
// which double_sums does not; those doubles go through float lanes.)
template <class Target, rounding_rule Rule, overflow Overflow>
struct clamps_by_addition<Target, Rule, Overflow, true>
    : std::integral_constant<bool,
                             format_info<Target>::total_bits == 8 &&
                                 addition_constants<Target, Rule, Overflow>::by_clamp &&
                                 !addition_constants<Target, Rule, Overflow>::finite_by_clamp &&
                                 !addition_constants<Target, Rule, Overflow>::below_infinity> {};
template <class Source, class Target, rounding_rule Rule, overflow Overflow, class Tally>
constexpr bool encodes_doubles_by_addition = std::is_same<Source, const double*>::value&&
    std::is_same<Tally, no_tally>::value&& clamps_by_addition<Target, Rule, Overflow>::value;

// The 8 sums |x| + magic(e) of 8 doubles, a NaN's with the NaN code in its low bits.
template <class Target, rounding_rule Rule, overflow Overflow>
MINIFLOAT_LANE_FN __m512i double_sums(__m512i bits) {
  using constants = double_addition_constants<Target, Rule, Overflow>;
  constexpr bool nan_is_limit = clamp_code<Target, Rule, Overflow> == format_info<Target>::nan_code;
  const __m512i limit = _mm512_set1_epi64(static_cast<long long>(constants::limit_bits));
  __m512i clamped;
  if constexpr (nan_is_limit) { // a NaN's magnitude is above the limit: clamped to it too
    clamped = _mm512_min_epu64(_mm512_and_si512(bits, _mm512_set1_epi64(INT64_MAX)), limit);
  } else { // |x| and the limit's smaller (VRANGEPD, as min_magnitude)
    clamped = _mm512_castpd_si512(_mm512_range_round_pd(
        _mm512_castsi512_pd(bits), _mm512_castsi512_pd(limit), 0b1010, _MM_FROUND_NO_EXC));
  }
  __m512i magic;
  if constexpr (constants::looked_up) {
    magic = _mm512_permutex2var_epi64(
        _mm512_load_si512(constants::magic_table.data()),
        _mm512_max_epu64(_mm512_srli_epi64(clamped, 52),
                         _mm512_set1_epi64(static_cast<long long>(constants::smallest_normal))),
        _mm512_load_si512(constants::magic_table.data() + 8));
  } else { // magic(e) = (e << 52) + (e << M) + magic(0) (mod 2^64)
    const __m512i exponent_field = _mm512_and_si512(
        _mm512_max_epu64(
            clamped, _mm512_set1_epi64(static_cast<long long>(constants::smallest_normal << 52))),
        _mm512_set1_epi64(0x7FF0000000000000LL));
    magic = _mm512_add_epi64(
        _mm512_add_epi64(exponent_field, _mm512_srli_epi64(exponent_field, 52 - constants::M)),
        _mm512_set1_epi64(static_cast<long long>(constants::magic(0))));
  }
  constexpr int rounding =
      (Rule == rounding_rule::nearest_even ? _MM_FROUND_TO_NEAREST_INT : _MM_FROUND_TO_ZERO) |
      _MM_FROUND_NO_EXC;
  __m512d sum =
      _mm512_add_round_pd(_mm512_castsi512_pd(clamped), _mm512_castsi512_pd(magic), rounding);
  if constexpr (!nan_is_limit) {
    // +DBL_MAX, whose low bits are all ones (the NaN code), where x takes the NaN code: a NaN
    // (VRANGEPD may have given the limit there), and an infinity where infinities do (lanes.inc
    // infinities_take_nan_code), as all_ones_where_nan and all_ones_where_not_finite do.
    constexpr std::uint32_t table =
        infinities_take_nan_code<Target, Rule, Overflow> ? max_where_not_finite : max_where_nan;
    sum = _mm512_fixupimm_pd(sum, _mm512_castsi512_pd(bits), _mm512_set1_epi64(table), 0);
  }
  return _mm512_castpd_si512(sum);
}

// The codes of 16 doubles (x: the first 8, y: the next) as 16 lanes.
template <class Target, rounding_rule Rule, overflow Overflow>
MINIFLOAT_LANE_FN u32v double_codes(__m512i x, __m512i y) {
  // The sums' low halves and x's high halves, in element order; the code is sign | magnitude.
  const __m512i low_halves =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i high_halves =
      _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const u32v sums = _mm512_permutex2var_epi32(double_sums<Target, Rule, Overflow>(x), low_halves,
                                              double_sums<Target, Rule, Overflow>(y));
  const u32v signs = shr<24>(_mm512_permutex2var_epi32(x, high_halves, y));
  return bit_select(splat(std::uint32_t{format_info<Target>::magnitude_mask}), sums, signs);
}

// The codes of src[0, n): groups of 64 doubles by double_codes, from the source's first cache
// line on; the elements before it and the tail by by_floats(first, count) (the float lanes).
// NonTemporal (outputs past the non-temporal threshold, dst on a 64-byte boundary): from the
// first element on, with streaming stores and the source prefetched into the second-level
// cache, as lanes.inc's encode_array does there.
template <class Target, rounding_rule Rule, overflow Overflow, bool NonTemporal = false,
          class ByFloats>
MINIFLOAT_ARRAY_FN void encode_doubles_by_addition(const double* src, std::size_t n,
                                                   std::uint8_t* dst, const ByFloats& by_floats) {
  std::size_t i = NonTemporal ? 0 : elements_before_line(src, n);
  if (i != 0) {
    by_floats(0, i);
  }
  constexpr std::size_t group = 4 * width;
  for (const std::size_t groups_end = n - (n - i) % group; i != groups_end; i += group) {
    prefetch_source<group, source_prefetch_level<NonTemporal>>(src, i, groups_end);
    u32v codes[4];
    MINIFLOAT_UNROLLED
    for (std::size_t k = 0; k < 4; ++k) {
      const double* p = src + i + k * width;
      codes[k] = double_codes<Target, Rule, Overflow>(_mm512_loadu_si512(p),
                                                      _mm512_loadu_si512(p + width / 2));
    }
    if constexpr (NonTemporal) {
      store_codes4_streaming(dst + i, codes[0], codes[1], codes[2], codes[3]);
    } else {
      store_codes4(dst + i, codes[0], codes[1], codes[2], codes[3]);
    }
  }
  if (i != n) {
    by_floats(i, n - i);
  }
}

// Decoding 64 codes at a time with byte permutes (VBMI). Every 8-bit format's values are
// bfloat16 values, and binary16/bfloat16 results are 16 bits, so each result is a 16-bit
// pattern whose low and high bytes come from the two planes of a byte_plane_table (tables.hpp).
// A permute picks one of 128 bytes held in two registers by a code's low 7 bits; the code's top
// bit picks the pair of registers, or, where the table is sign-symmetric, is ORed into the high
// byte: one permute per plane instead of two and a blend. The codes are first put in the order
// that the interleaving unpacks (which work within 128-bit lanes) undo.
struct planes_in_registers {
  __m512i low[4];
  __m512i high[4];
};
MINIFLOAT_LANE_FN planes_in_registers load_planes(const byte_plane_table& table) {
  planes_in_registers planes;
  MINIFLOAT_UNROLLED
  for (std::size_t k = 0; k < 4; ++k) {
    planes.low[k] = _mm512_load_si512(table.low.data() + 64 * k);
    planes.high[k] = _mm512_load_si512(table.high.data() + 64 * k);
  }
  return planes;
}
MINIFLOAT_LANE_FN __m512i lookup_all_256(const __m512i (&plane)[4], __m512i codes,
                                         __mmask64 upper_half) {
  const __m512i low_half = _mm512_permutex2var_epi8(plane[0], codes, plane[1]);
  const __m512i high_half = _mm512_permutex2var_epi8(plane[2], codes, plane[3]);
  return _mm512_mask_blend_epi8(upper_half, low_half, high_half);
}
struct looked_up {
  __m512i low;  // the results' low bytes
  __m512i high; // and their high bytes
};
template <bool SignSymmetric>
MINIFLOAT_LANE_FN looked_up lookup(const planes_in_registers& planes, __m512i codes) {
  if constexpr (SignSymmetric) {
    const __m512i sign = _mm512_set1_epi8(static_cast<char>(0x80));
    const __m512i magnitude_high = _mm512_permutex2var_epi8(planes.high[0], codes, planes.high[1]);
    return {_mm512_permutex2var_epi8(planes.low[0], codes, planes.low[1]),
            _mm512_ternarylogic_epi32(magnitude_high, codes, sign, 0xF8)}; // a | (b & c)
  } else {
    const __mmask64 upper_half = _mm512_movepi8_mask(codes);
    return {lookup_all_256(planes.low, codes, upper_half),
            lookup_all_256(planes.high, codes, upper_half)};
  }
}
// order[16k + j]: which of the 64 codes goes to byte j of 128-bit lane k, so that the results
// come out in order. The byte unpacks put lane k's bytes 0-7 in the first vector of 16-bit
// results (its words 8k .. 8k + 7) and bytes 8-15 in the second. For 16-bit results those are
// codes 8k + j and 32 + 8k + (j - 8). For float results each 32-bit lane of those two vectors
// holds two results, and a shift (the even word) and a mask (the odd word) make four vectors of
// floats without another shuffle: byte j of lane k is result 4k + (j % 8) / 2 of float vector
// 2 (j / 8) + j % 2.
constexpr std::array<std::uint8_t, 64> unpack_order(bool dwords) {
  std::array<std::uint8_t, 64> order{};
  for (std::size_t k = 0; k < 4; ++k) {
    for (std::size_t j = 0; j < 16; ++j) {
      order[16 * k + j] =
          static_cast<std::uint8_t>(dwords  ? 16 * (2 * (j / 8) + j % 2) + 4 * k + (j % 8) / 2
                                    : j < 8 ? 8 * k + j
                                            : 24 + 8 * k + j);
    }
  }
  return order;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> order_for_words = unpack_order(false);
alignas(64) inline constexpr std::array<std::uint8_t, 64> order_for_dwords = unpack_order(true);
MINIFLOAT_LANE_FN __mmask64 first_bytes(std::size_t count) {
  return _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(count));
}

// A whole 64-byte line of results: through the caches, or (NonTemporal) with a streaming
// store, which needs dst aligned to 64 bytes (see with_aligned_stores).
template <bool NonTemporal>
MINIFLOAT_LANE_FN void store_line(void* dst, __m512i results) {
  if constexpr (NonTemporal) {
    _mm512_stream_si512(static_cast<__m512i*>(dst), results);
  } else {
    _mm512_storeu_si512(dst, results);
  }
}

// The 64 results of 64 codes (put in order_for_words' order) as 16-bit patterns, in two vectors.
template <bool SignSymmetric>
MINIFLOAT_LANE_FN void decode_words(const planes_in_registers& planes, __m512i codes,
                                    __m512i& first, __m512i& second) {
  const looked_up bytes = lookup<SignSymmetric>(planes, codes);
  first = _mm512_unpacklo_epi8(bytes.low, bytes.high);
  second = _mm512_unpackhi_epi8(bytes.low, bytes.high);
}

// 16-bit results (binary16, bfloat16). Whole blocks of 64, then the rest with masked loads
// and stores (which touch no byte past the arrays).
template <bool SignSymmetric, bool NonTemporal>
MINIFLOAT_ARRAY_FN void decode_array(const byte_plane_table& table, const std::uint8_t* src,
                                     std::size_t n, std::uint16_t* dst) {
  const planes_in_registers planes = load_planes(table);
  const __m512i order = _mm512_load_si512(order_for_words.data());
  __m512i first;
  __m512i second;
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 64; i != blocks_end; i += 64) {
    decode_words<SignSymmetric>(planes, _mm512_permutexvar_epi8(order, _mm512_loadu_si512(src + i)),
                                first, second);
    store_line<NonTemporal>(dst + i, first);
    store_line<NonTemporal>(dst + i + 32, second);
  }
  if (i != n) {
    const __mmask64 rest = first_bytes(n - i); // also one bit per 16-bit result
    decode_words<SignSymmetric>(
        planes, _mm512_permutexvar_epi8(order, _mm512_maskz_loadu_epi8(rest, src + i)), first,
        second);
    _mm512_mask_storeu_epi16(dst + i, static_cast<__mmask32>(rest), first);
    _mm512_mask_storeu_epi16(dst + i + 32, static_cast<__mmask32>(rest >> 32), second);
  }
}

// float results: the bfloat16 pattern of each value in the top half (table: the bfloat16 one).
template <bool SignSymmetric>
MINIFLOAT_LANE_FN void decode_dwords(const planes_in_registers& planes, __m512i codes,
                                     __m512i (&results)[4]) {
  const __m512i high_words = _mm512_set1_epi32(static_cast<int>(0xFFFF0000U));
  __m512i words_a;
  __m512i words_b;
  decode_words<SignSymmetric>(planes, codes, words_a, words_b);
  results[0] = _mm512_slli_epi32(words_a, 16);
  results[1] = _mm512_and_si512(words_a, high_words);
  results[2] = _mm512_slli_epi32(words_b, 16);
  results[3] = _mm512_and_si512(words_b, high_words);
}
template <bool SignSymmetric, bool NonTemporal>
MINIFLOAT_ARRAY_FN void decode_array(const byte_plane_table& table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  const planes_in_registers planes = load_planes(table);
  const __m512i order = _mm512_load_si512(order_for_dwords.data());
  __m512i results[4];
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 64; i != blocks_end; i += 64) {
    decode_dwords<SignSymmetric>(
        planes, _mm512_permutexvar_epi8(order, _mm512_loadu_si512(src + i)), results);
    store_line<NonTemporal>(dst + i, results[0]);
    store_line<NonTemporal>(dst + i + 16, results[1]);
    store_line<NonTemporal>(dst + i + 32, results[2]);
    store_line<NonTemporal>(dst + i + 48, results[3]);
  }
  if (i != n) {
    const std::size_t rest = n - i;
    decode_dwords<SignSymmetric>(
        planes, _mm512_permutexvar_epi8(order, _mm512_maskz_loadu_epi8(first_bytes(rest), src + i)),
        results);
    // Vector k holds results 16k .. 16k + 15 (written out, not as a loop over the array, which
    // would keep the results in memory in the loop above too).
    const __mmask64 lanes = first_bytes(rest); // one bit per result
    _mm512_mask_storeu_epi32(dst + i, static_cast<__mmask16>(lanes), results[0]);
    if (rest > 16) {
      _mm512_mask_storeu_epi32(dst + i + 16, static_cast<__mmask16>(lanes >> 16), results[1]);
    }
    if (rest > 32) {
      _mm512_mask_storeu_epi32(dst + i + 32, static_cast<__mmask16>(lanes >> 32), results[2]);
    }
    if (rest > 48) {
      _mm512_mask_storeu_epi32(dst + i + 48, static_cast<__mmask16>(lanes >> 48), results[3]);
    }
  }
}

// Vectors of 16 dwords written one after another from `dst` on, whatever dst's alignment, in
// stores of whole cache lines: where dst lies `shift` dwords past a line, each vector goes out
// joined with the previous one's last `shift` dwords (one VPERMT2D, indices j + 16 - shift) at
// the next line; the first line's part and the last one's by masked stores. (A store that
// straddles two lines costs both; see decode_e2m1_blocks.)
struct dword_line_writer {
  __m512i indices;
  __m512i carry;
  std::uint32_t* next; // the next line, or dst before the first vector
  unsigned shift;
  bool started{false};

  MINIFLOAT_ARRAY_FN explicit dword_line_writer(std::uint32_t* dst)
      : indices(_mm512_add_epi32(
            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            _mm512_set1_epi32(static_cast<int>(16 - shift_of(dst))))),
        carry(_mm512_setzero_si512()), next(dst), shift(shift_of(dst)) {}
  static MINIFLOAT_ARRAY_FN unsigned shift_of(std::uint32_t* dst) {
    const auto to_line = static_cast<unsigned>(elements_to_line(dst));
    return to_line == 0 ? 0U : 16U - to_line;
  }
  MINIFLOAT_ARRAY_FN void put(__m512i v) {
    if (shift == 0) {
      _mm512_storeu_si512(next, v);
      next += 16;
      return;
    }
    if (started) {
      _mm512_store_si512(next, _mm512_permutex2var_epi32(carry, indices, v));
      next += 16;
    } else {
      // The first vector's first 16 - shift dwords, up to the line.
      _mm512_mask_storeu_epi32(next, static_cast<__mmask16>(0xFFFFU >> shift), v);
      next += 16 - shift;
      started = true;
    }
    carry = v;
  }
  // The last vector's last `shift` dwords.
  MINIFLOAT_ARRAY_FN void finish() const {
    if (started) {
      _mm512_mask_storeu_epi32(next, static_cast<__mmask16>(0xFFFFU >> (16 - shift)),
                               _mm512_permutex2var_epi32(carry, indices, _mm512_setzero_si512()));
    }
  }
};

// A table of N entries, entry j being f(j) (permute indices and constants).
template <class T, std::size_t N, class F>
constexpr std::array<T, N> table_by_index(F f) {
  std::array<T, N> table{};
  for (std::size_t j = 0; j < N; ++j) {
    table[j] = static_cast<T>(f(j));
  }
  return table;
}
// A pair of NVFP4 blocks' table (decode_nvfp4_blocks): word 16 k + c, block k's result for code
// c, is the high word of dword 8 k + (c & 7) of the pair's eight magnitudes' products each
// (VPERMW's indices), with the sign bit set for c >= 8 (nvfp4_pair_signs).
alignas(64) inline constexpr std::array<std::uint16_t, 32> nvfp4_pair_table_words =
    table_by_index<std::uint16_t, 32>([](std::size_t j) { return 2 * (8 * (j / 16) + j % 8) + 1; });
alignas(64) inline constexpr std::array<std::uint16_t, 32> nvfp4_pair_signs =
    table_by_index<std::uint16_t, 32>([](std::size_t j) { return j % 16 >= 8 ? 0x8000U : 0U; });
// VPERMB's indices that put byte j / 2 of a pair of NVFP4 blocks (16 bytes) in both bytes of word
// j: element j's byte (decode_nvfp4_blocks).
alignas(64) inline constexpr std::array<std::uint8_t, 64> nvfp4_pair_bytes =
    table_by_index<std::uint8_t, 64>([](std::size_t i) { return i / 4; });
// The 16 bfloat16 results by code of every scale byte, row s byte s's (decode_nvfp4_blocks, for
// nvfp4_rows_from_blocks blocks or more: 8 KiB, each pair of rows in 8 vector instructions); row
// s + 128 is row s, the top bit being ignored when read, so that a byte is its row's index.
struct nvfp4_bfloat16_rows {
  alignas(64) std::uint16_t words[256][16];

  // Byte s's row in words 0-15 (a 32-byte load; the words above, which the results' VPERMT2W
  // never reads, are left as the cast leaves them).
  MINIFLOAT_LANE_FN __m512i row(std::uint8_t s) const {
    return _mm512_castsi256_si512(_mm256_load_si256(reinterpret_cast<const __m256i*>(words[s])));
  }
};
// The smallest and largest of `count` scale bytes, each without its top bit (ignored when read:
// docs/spec.md §7), the smallest made even (the rows are made in pairs).
MINIFLOAT_ARRAY_FN scale_byte_range scale_byte_range_of(const std::uint8_t* bytes,
                                                        std::size_t count) {
  const __m512i read_bits = _mm512_set1_epi8(0x7F);
  __m512i low = read_bits;
  __m512i high = _mm512_setzero_si512();
  std::size_t i = 0;
  for (; i + 64 <= count; i += 64) {
    const __m512i read = _mm512_and_si512(_mm512_loadu_si512(bytes + i), read_bits);
    low = _mm512_min_epu8(low, read);
    high = _mm512_max_epu8(high, read);
  }
  alignas(64) std::uint8_t lows[64];
  alignas(64) std::uint8_t highs[64];
  _mm512_store_si512(lows, low);
  _mm512_store_si512(highs, high);
  return scale_byte_range_from(lows, highs, 64, bytes + i, count - i);
}
// An NVFP4 block's 16 results by code (decode_nvfp4_blocks): magnitudes times the byte's value,
// then times decode (an empty asm between, so that the products cannot be reassociated), the
// sign bit set in codes 8-15 (upper_signs).
MINIFLOAT_LANE_FN __m512i nvfp4_block_table(__m512 magnitudes, float byte, __m512 decode_factor,
                                            __m512i upper_signs) {
  __m512 times_byte = _mm512_mul_ps(magnitudes, _mm512_set1_ps(byte));
  __asm__("" : "+v"(times_byte));
  return _mm512_or_si512(_mm512_castps_si512(_mm512_mul_ps(times_byte, decode_factor)),
                         upper_signs);
}
// Float bits rounded to bfloat16, nearest-even, in each dword's high word (no lane a NaN but
// 0x7FC00000 with a sign, which keeps its high word).
MINIFLOAT_LANE_FN __m512i bfloat16_rounded(__m512i table) {
  // x + 0x7FFF, and 1 more where the high word is odd (a bit test and a masked addition: three
  // instructions, where the odd bit shifted down and added took four).
  const __mmask16 odd = _mm512_test_epi32_mask(table, _mm512_set1_epi32(0x00010000));
  const __m512i up = _mm512_add_epi32(table, _mm512_set1_epi32(0x7FFF));
  return _mm512_mask_add_epi32(up, odd, up, _mm512_set1_epi32(1));
}
// NVFP4 blocks into bfloat16, two at a time (decode_nvfp4_blocks).
struct nvfp4_bfloat16_pairs {
  __m512 magnitudes;
  __m512 decode_factor;
  __m512i table_words;
  __m512i table_signs;
  __m512i element_bytes;
  __m512i nibble_shifts;
  __m512i nibble_bits;
  __m512i second_block; // bit 4 of a pair table's index (VPERMW)
  __m512i second_row;   // bit 5 of two rows' index (VPERMT2W)

  MINIFLOAT_ARRAY_FN nvfp4_bfloat16_pairs(__m512 magnitudes_of_codes, __m512 decode)
      : magnitudes(magnitudes_of_codes), decode_factor(decode),
        table_words(_mm512_load_si512(nvfp4_pair_table_words.data())),
        table_signs(_mm512_load_si512(nvfp4_pair_signs.data())),
        element_bytes(_mm512_load_si512(nvfp4_pair_bytes.data())),
        nibble_shifts(_mm512_set1_epi32(0x00040000)), nibble_bits(_mm512_set1_epi16(0x000F)),
        second_block(_mm512_maskz_set1_epi32(0xFF00, 0x00100010)),
        second_row(_mm512_maskz_set1_epi32(0xFF00, 0x00200020)) {}
  // The table of two bytes (their values' float bits): word 16 k + c, byte k's result for code c.
  // The bytes' eight magnitudes' products in one vector (the first byte's in lanes 0-7, the
  // second's in 8-15: the same two products per lane as a block's own table, rounded as there),
  // made 32 words by one VPERMW and the signs of codes 8-15 (an OR): 8 vector instructions.
  MINIFLOAT_LANE_FN __m512i table(std::uint32_t first_bits, std::uint32_t second_bits) const {
    // (Two scalar loads of the bytes' float values; the second into lanes 8-15.)
    const __m512 bytes_pair = _mm512_insertf32x8(_mm512_set1_ps(bit_cast<float>(first_bits)),
                                                 _mm256_set1_ps(bit_cast<float>(second_bits)), 1);
    __m512 times_byte = _mm512_mul_ps(magnitudes, bytes_pair);
    __asm__("" : "+v"(times_byte));
    const __m512i rounded =
        bfloat16_rounded(_mm512_castps_si512(_mm512_mul_ps(times_byte, decode_factor)));
    return _mm512_or_si512(_mm512_permutexvar_epi16(table_words, rounded), table_signs);
  }
  // The indices of blocks first and first + 1's elements, element j's in word j: a VPERMB (its
  // byte in the word), a VPSRLVW (its nibble in bits 0-3: by 0 for the low nibble, 4 for the
  // high one) and a bit select of the block's bit (`second`: second_block or second_row).
  MINIFLOAT_LANE_FN __m512i indices(const std::uint8_t* packed, std::size_t first,
                                    __m512i second) const {
    const __m512i bytes = _mm512_castsi128_si512(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + nvfp4_block_bytes * first)));
    const __m512i nibbles =
        _mm512_srlv_epi16(_mm512_permutexvar_epi8(element_bytes, bytes), nibble_shifts);
    constexpr int second_selects_first = 0xE2; // b ? a : c, bit by bit
    return _mm512_ternarylogic_epi32(nibbles, nibble_bits, second, second_selects_first);
  }
  // The results of blocks first and first + 1 by their table (VPERMW reads bits 0-4).
  MINIFLOAT_LANE_FN __m512i results(const std::uint8_t* packed, std::size_t first,
                                    __m512i pair_table) const {
    return _mm512_permutexvar_epi16(indices(packed, first, second_block), pair_table);
  }
  // The same by the two blocks' rows, each in the low 16 words of a vector (VPERMT2W reads bits
  // 0-5: the second vector's words are 32-63).
  MINIFLOAT_LANE_FN __m512i results(const std::uint8_t* packed, std::size_t first,
                                    __m512i first_row, __m512i other_row) const {
    return _mm512_permutex2var_epi16(first_row, indices(packed, first, second_row), other_row);
  }
};
// NVFP4 blocks into float or bfloat16_bits (kernels_portable.hpp: decode_nvfp4_blocks_portable;
// the same products in the same order as the AVX2 kernel, avx2::decode_nvfp4_blocks), a block
// per iteration: e2m1's eight non-negative values, twice, times the byte's value (exact), then
// times decode (an empty asm between, as there), the upper eight with the sign bit set: a table
// of the block's 16 results by code, NaN byte included (its NaN with each element's sign). The
// block's 8 bytes, each doubled (VPUNPCKLBW) and widened, shifted right by 0 and 4 in turn
// (VPSRLVD, VPSRLVW): element j's code in its lane's low 4 bits.
// - float: VPERMD reads those 4 bits: 9 or 10 vector instructions per block, where the AVX2
//   kernel takes 20. The output pointer steps with the loop: stored at dst + 16 b (g++ 12 made
//   it an indexed store from a shifted counter), the loop ran at 13.5 el/ns at 4 Ki floats,
//   against 23.4 (AMD Zen 5; the AVX2 kernel 10.5). Stored by whole lines (dword_line_writer,
//   as decode_e2m1_blocks stores): into a buffer 16 bytes past a line 10.6 -> 14.8-15.2 el/ns at
//   64 Ki elements, 16.6 -> 15.0-15.4 at 4 Ki (the joins' VPERMT2D), aligned unchanged (Intel
//   Xeon, docs/performance.md, stop 74).
// - bfloat16: the table rounded on its bits (bfloat16_nearest_even's sum: a NaN, 0x7FC00000 with
//   a sign, keeps its high half), each result the high word of its dword, so that VPERMW's index
//   is 2 code + 1 (its 5 low bits; the bits above the code are garbage it ignores); two blocks
//   at a time where there are two (below).
template <class To>
MINIFLOAT_ARRAY_FN void decode_nvfp4_blocks(const std::uint8_t* packed,
                                            const std::uint8_t* scale_codes, std::size_t blocks,
                                            float decode, To* dst) {
  constexpr bool to_float = std::is_same<To, float>::value;
  const __m512 magnitudes = _mm512_castsi512_ps(_mm512_broadcast_i32x8(_mm256_loadu_si256(
      reinterpret_cast<const __m256i*>(code_table_for<formats::e2m1, formats::binary32>.data()))));
  const std::uint32_t* bytes_as_floats = code_table_for<formats::ue4m3, formats::binary32>.data();
  const __m512 decode_factor = _mm512_set1_ps(decode);
  const __m512i upper_signs = _mm512_maskz_set1_epi32(0xFF00, -0x7FFFFFFF - 1);
  std::size_t b = 0;
  if constexpr (!to_float) {
    // bfloat16: two blocks per iteration, by a table of 32 words for the pair's bytes
    // (nvfp4_bfloat16_pairs): 13 vector instructions per 32 elements, where the two blocks' own
    // tables joined by a VPERMT2W took 20 (docs/performance.md, stop 74).
    const nvfp4_bfloat16_pairs pairs(magnitudes, decode_factor);
    if (blocks >= nvfp4_rows_from_blocks) {
      // Many blocks: the results of the bytes they use first (rows first to last of
      // scale_byte_range_of: the pair tables of bytes s and s + 1, stored), so that a pair's
      // results take the two bytes' rows, two loads, and one VPERMT2W: 4 vector operations per
      // 32 elements besides the loads and the store, where a pair table took 8 more and its
      // VPERMW one (with the rows joined by a VINSERTI64X4 and read by VPERMW, 3-8 % slower from
      // 64 Ki on). Made for the blocks' bytes only: about 60 ns for all 128 on an Intel Xeon
      // (docs/performance.md, stop 75).
      nvfp4_bfloat16_rows rows;
      const scale_byte_range used = scale_byte_range_of(scale_codes, blocks);
      for (std::uint32_t s = used.first; s <= used.last; s += 2) {
        const __m512i table = pairs.table(bytes_as_floats[s], bytes_as_floats[s + 1]);
        _mm512_store_si512(rows.words[s], table);
        _mm512_store_si512(rows.words[s + 128], table);
      }
      for (; b + 2 <= blocks; b += 2) {
        _mm512_storeu_si512(
            dst + 2 * nvfp4_block_bytes * b,
            pairs.results(packed, b, rows.row(scale_codes[b]), rows.row(scale_codes[b + 1])));
      }
    }
    for (; b + 2 <= blocks; b += 2) {
      _mm512_storeu_si512(dst + 2 * nvfp4_block_bytes * b,
                          pairs.results(packed, b,
                                        pairs.table(bytes_as_floats[scale_codes[b]],
                                                    bytes_as_floats[scale_codes[b + 1]])));
    }
  }
  To* out = dst + 2 * nvfp4_block_bytes * b;
  // (float: by whole cache lines, as decode_e2m1_blocks writes them; b is 0 here.)
  dword_line_writer lines(to_float ? reinterpret_cast<std::uint32_t*>(dst) : nullptr);
  for (; b < blocks; ++b, out += 2 * nvfp4_block_bytes) {
    const __m512i table = nvfp4_block_table(
        magnitudes, bit_cast<float>(bytes_as_floats[scale_codes[b]]), decode_factor, upper_signs);
    const __m128i bytes =
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(packed + nvfp4_block_bytes * b));
    const __m128i doubled = _mm_unpacklo_epi8(bytes, bytes);
    if constexpr (to_float) {
      const __m512i codes =
          _mm512_srlv_epi32(_mm512_cvtepu8_epi32(doubled),
                            _mm512_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4));
      lines.put(_mm512_permutexvar_epi32(codes, table));
    } else {
      const __m512i rounded = bfloat16_rounded(table);
      const __m256i codes =
          _mm256_srlv_epi16(_mm256_cvtepu8_epi16(doubled),
                            _mm256_setr_epi16(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4));
      const __m256i indices = _mm256_or_si256(_mm256_slli_epi16(codes, 1), _mm256_set1_epi16(1));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                          _mm512_castsi512_si256(
                              _mm512_permutexvar_epi16(_mm512_castsi256_si512(indices), rounded)));
    }
  }
  if constexpr (to_float) {
    lines.finish();
  }
}

// MXFP4 blocks from the start while their products stay normal (kernels_portable.hpp:
// decode_e2m1_blocks_portable); returns how many it decoded. Per block a table of e2m1's patterns
// with the block's step added to the exponent fields of the non-zero ones (a VPBROADCASTD load
// of e8m0_bfloat16_steps, one masked word add), the block's bytes widened, each made an index of
// its low nibble and one of its high nibble (element order), and a permute:
// - bfloat16: 16 bytes to dwords, b | b << 12 holding the low nibble in the low word's bits 0-3
//   and the high nibble in the high word's (the bits above are garbage VPERMW ignores, the table
//   being there twice), one VPERMW: 6 vector instructions per block, 10 before (16.2 -> 23.3
//   el/ns at 4 Ki on a Xeon, family 6 model 167).
// - float: 8 bytes to qwords twice, b | b << 28 likewise for VPERMD's dwords (4 index bits, 16
//   floats), whose table takes the step in each float's high word; stored by whole lines
//   (dword_line_writer): into a std::vector's buffer (16 bytes past a page) every 64-byte store
//   straddled two lines, and this loop ran at 8.0 el/ns at 64 Ki where the earlier one, through
//   bfloat16 words, gave 11.7 (and 12.5 into an aligned buffer). With the writer 12.2-12.5 at 64
//   Ki, 14.2-15.0 at 4 Ki (the earlier loop 10.7-11.1 and 12.6-13.0). The bfloat16 results
//   keep their plain stores: the same joining by VPERMT2W cost them 15-20 % in the cache.
// - ggml's blocks (Blocks::ggml_order: elements 0-15 in the low nibbles, 16-31 in the high ones):
// the 16
//   bytes widened once, the low nibbles' permute, then the bytes >> 4's.
template <class To, class Blocks>
MINIFLOAT_ARRAY_FN std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
  constexpr bool ggml_order = Blocks::ggml_order;
  constexpr bool to_float = std::is_same<To, float>::value;
  const __m512i table =
      to_float ? _mm512_loadu_si512(code_table_for<formats::e2m1, formats::binary32>.data())
               : _mm512_load_si512(e2m1_bfloat16_words.data());
  // The words a step is added to: a non-zero pattern's exponent field (a float's high word).
  const __mmask32 exponent_words = _mm512_test_epi16_mask(
      table, to_float ? _mm512_set1_epi32(0x7FFF0000) : _mm512_set1_epi16(0x7FFF));
  dword_line_writer out(to_float ? reinterpret_cast<std::uint32_t*>(dst) : nullptr);
  std::size_t b = 0;
  for (; b < blocks && mx_fp4_block_is_normal(in.scale(b)); ++b) {
    const __m512i scaled_table = _mm512_mask_add_epi16(
        table, exponent_words, table,
        _mm512_set1_epi32(static_cast<int>(e8m0_bfloat16_steps[in.scale(b)])));
    const std::uint8_t* bytes = in.bytes(b);
    if constexpr (ggml_order) {
      // ggml's order: the bytes widened, the low nibbles (VPERMD and VPERMW read 4 and 5 index
      // bits, the table twice) then the bytes >> 4.
      const __m128i both = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
      if constexpr (to_float) {
        const __m512i widened = _mm512_cvtepu8_epi32(both);
        out.put(_mm512_permutexvar_epi32(widened, scaled_table));
        out.put(_mm512_permutexvar_epi32(_mm512_srli_epi32(widened, 4), scaled_table));
      } else {
        const __m256i widened = _mm256_cvtepu8_epi16(both);
        _mm512_storeu_si512(
            dst + 2 * mx_fp4_block_bytes * b,
            _mm512_permutexvar_epi16(_mm512_inserti64x4(_mm512_castsi256_si512(widened),
                                                        _mm256_srli_epi16(widened, 4), 1),
                                     scaled_table));
      }
    } else if constexpr (to_float) {
      const __m128i both = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
      const __m128i halves[2] = {both, _mm_unpackhi_epi64(both, both)};
      for (const __m128i half : halves) {
        const __m512i widened = _mm512_cvtepu8_epi64(half);
        out.put(_mm512_permutexvar_epi32(_mm512_or_si512(widened, _mm512_slli_epi64(widened, 28)),
                                         scaled_table));
      }
    } else {
      const __m512i widened =
          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes)));
      _mm512_storeu_si512(
          dst + 2 * mx_fp4_block_bytes * b,
          _mm512_permutexvar_epi16(_mm512_or_si512(widened, _mm512_slli_epi32(widened, 12)),
                                   scaled_table));
    }
  }
  if constexpr (to_float) {
    out.finish();
  }
  return b;
}

// group_max_magnitudes (lanes.inc) for a group `offset` floats (0 to 15) past a 64-byte boundary,
// as std::vector's large buffers lie (16 bytes past one), by loads of whole cache lines: block
// k's lines run from the one holding its first element to the one holding the next block's, the
// first taken in lanes offset and up, the last below offset (a masked maximum; the group's first
// line by an expanding load, its last by a masked one, so that no byte outside the group is
// read; at offset 0 those masks are empty, and each block is its own Size / 16 lines).
// Size / 16 loads per block, each line read once, where the block's own Size / 16 vectors each
// straddled two lines. 1 x 128 tiles' amaxes at 64 Ki floats 16 bytes
// past a boundary (AMD Zen 5): 0.094 cycles per element by the blocks' vectors, 0.061 by whole
// lines; 0.037 from an aligned source. (NVFP4's blocks of one vector gain nothing; in the one-pass
// quantizer MX's blocks of two lose: see avx512_kernels::quantize_block_groups.)
template <std::size_t Size>
MINIFLOAT_ARRAY_FN u32v group_max_magnitudes_by_lines(const float* group, unsigned offset) {
  static_assert(Size % 16 == 0 && Size >= 32, "blocks of two vectors or more");
  const __m512i magnitude = _mm512_set1_epi32(0x7FFFFFFF);
  const auto from_offset = static_cast<__mmask16>(0xFFFFU << offset);
  const auto below_offset = static_cast<__mmask16>((1U << offset) - 1U);
  // Block k's first whole line, as a pointer made once: each load's address is then this
  // register and a constant (computed from k and offset per block, g++ 12 spent 4 scalar
  // instructions on each block's addresses).
  const float* const whole_lines = group + (16U - offset);
  u32v m[16];
  // The magnitudes of the line block k starts in: its lanes from offset on are block k's, those
  // below it the block before's (for the group's first, 0: an expanding load puts the block's
  // first elements in lanes offset and up, from no address before the group). Each shared
  // line's two parts join their blocks' maxima by a masked maximum each, in place (the maximum
  // its own pass-through: no copy).
  u32v head = _mm512_and_si512(_mm512_maskz_expandloadu_epi32(from_offset, group), magnitude);
  // (Unrolled, so that the 16 maxima stay in registers: g++ 12 kept the loop and stored them.)
  MINIFLOAT_UNROLLED
  for (std::size_t k = 0; k < 16; ++k) {
    const float* const lines = whole_lines + k * Size;
    u32v m0 = _mm512_and_si512(_mm512_load_si512(lines), magnitude);
    m0 = _mm512_mask_max_epu32(m0, from_offset, m0, head);
    if constexpr (Size > 32) {
      u32v m1 = _mm512_and_si512(_mm512_load_si512(lines + 16), magnitude);
      MINIFLOAT_UNROLLED
      for (std::size_t i = 32; i + 16 < Size; i += 16) {
        const u32v v = _mm512_and_si512(_mm512_load_si512(lines + i), magnitude);
        if ((i / 16) % 2 == 0) {
          m0 = _mm512_max_epu32(m0, v);
        } else {
          m1 = _mm512_max_epu32(m1, v);
        }
      }
      m0 = _mm512_max_epu32(m0, m1);
    }
    // The next block's first line (after the group's last block, by a masked load: it may end
    // the array).
    const float* const next_line = lines + (Size - 16);
    const u32v next = _mm512_and_si512(k == 15 ? _mm512_maskz_loadu_epi32(below_offset, next_line)
                                               : _mm512_load_si512(next_line),
                                       magnitude);
    m[k] = _mm512_mask_max_epu32(m0, below_offset, m0, next);
    head = next;
  }
  return max_of_each(m);
}
// group_max_magnitudes_by_lines as quantize_block_groups' GroupMax.
template <std::size_t Size>
struct group_max_by_lines {
  unsigned offset;
  MINIFLOAT_LANE_FN u32v operator()(const float* group) const {
    return group_max_magnitudes_by_lines<Size>(group, offset);
  }
};
// The amaxes of `groups` groups one after the other, by whole lines.
template <std::size_t Size>
MINIFLOAT_ARRAY_FN void group_max_magnitude_bits_by_lines(const float* src, unsigned offset,
                                                          std::size_t groups, std::uint32_t* out) {
  for (std::size_t g = 0; g < groups; ++g) {
    _mm512_storeu_si512(out + 16 * g,
                        group_max_magnitudes_by_lines<Size>(src + g * 16 * Size, offset));
  }
}

// FP4 packing, 64 codes at a time: VPMADDUBSW makes each pair (c0, c1) of masked codes the word
// c0 + 16 c1 (at most 0xFF), VPMOVWB keeps the words' low bytes. The rest as the portable path
// does.
MINIFLOAT_ARRAY_FN void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n,
                                          std::uint8_t* packed) {
  const __m512i low_nibbles = _mm512_set1_epi8(0x0F);
  const __m512i weights = _mm512_set1_epi16(0x1001); // bytes 1, 16
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i pairs = _mm512_and_si512(_mm512_loadu_si512(codes + i), low_nibbles);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(packed + i / 2),
                        _mm512_cvtepi16_epi8(_mm512_maddubs_epi16(pairs, weights)));
  }
  pack_nibble_pairs_portable(codes + i, n - i, packed + i / 2);
}

#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
#undef MINIFLOAT_UNROLLED
#undef MINIFLOAT_ROLLED
#undef MINIFLOAT_AVX512_TARGET
} // namespace avx512

// The AVX-512 path (detail/kernels_portable.hpp has the interface).
struct avx512_kernels {
  static constexpr const char* name = "avx512";
  static constexpr lane_capabilities capabilities = avx512::capabilities;
  // quantize_block_groups and quantize_block_rows (below) exist.
  static constexpr bool quantizes_block_groups = true;
  // quantize_block_groups also for FP4 elements, packed two per byte (store_nibble_pairs4).
  static constexpr bool quantizes_fp4_block_groups = true;
  // quantize_ggml_block_groups (ggml's MXFP4 blocks, two per store of 16 lanes) exists.
  static constexpr bool quantizes_ggml_block_groups = true;

  // (mode: non_temporal writes the codes without random bits or report with streaming stores,
  // past dst's first 64-byte boundary. Float -> e4m3 at 64 Mi on an AMD Zen 5, source and
  // destination 16 bytes past a boundary: 8.3-8.4 el/ns through the caches, 10.0-10.1
  // streaming, quantize 7.9-8.4 and 10.0-10.2; the 4 -> 1 copy 9.7-10.3.)
  template <class Target, rounding_rule Rule, overflow Overflow, class Source, class Random,
            class Tally = no_tally>
  static void encode(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                     Tally&& tally = Tally{}, stores mode = stores::cached) {
    constexpr step2_variant variant = step2_for<formats::binary32, Target, Rule>(capabilities);
    if constexpr (variant == step2_variant::lane_addition_unless_daz) {
      // Upward rounding takes a positive float subnormal to the smallest code, and under DAZ
      // (MXCSR bit 6, which embedded rounding does not override) the addition reads it as 0: a
      // program that sets DAZ (rare) gets the shifts, which read the bits as integers.
      if ((_mm_getcsr() & 0x40U) != 0) {
        return encode_by<Target, Rule, Overflow, step2_variant::lane_shifts>(src, n, codes, random,
                                                                             tally, mode);
      }
      return encode_by<Target, Rule, Overflow, step2_variant::lane_addition>(src, n, codes, random,
                                                                             tally, mode);
    } else {
      return encode_by<Target, Rule, Overflow, variant>(src, n, codes, random, tally, mode);
    }
  }
  // encode with step 2's variant chosen.
  template <class Target, rounding_rule Rule, overflow Overflow, step2_variant variant,
            class Source, class Random, class Tally>
  static void encode_by(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                        Tally&& tally, stores mode) {
    // Part of the array by the float lanes (generic: instantiated only where a branch calls it).
    const auto by_floats = [&](auto first, auto count) {
      avx512::encode_array<Target, Rule, Overflow, variant>(src + first, count, codes + first,
                                                            random, tally);
    };
    if constexpr (Rule == rounding_rule::nearest_even && avx512::encodes_by_words<Source, Target> &&
                  std::is_same<std::decay_t<Tally>, no_tally>::value) {
      // Groups of 64 in 16-bit words (words.inc); a group with a value below the target's
      // normals, and the tail, by the float lanes.
      avx512::encode_by_words<Target, Overflow>(src, n, codes, mode, by_floats);
    } else if constexpr (avx512::encodes_doubles_by_addition<Source, Target, Rule, Overflow,
                                                             std::decay_t<Tally>>) {
      // Groups of 64 in double lanes; the head before the first cache line and the tail by the
      // float lanes. (Past the non-temporal threshold, streaming stores from dst's first 64-byte
      // boundary on, as below.)
      if (mode == stores::non_temporal) {
        with_aligned_stores(
            codes, n, mode, [&](auto non_temporal, std::size_t first, std::size_t count) {
              avx512::encode_doubles_by_addition<Target, Rule, Overflow,
                                                 decltype(non_temporal)::value>(
                  src + first, count, codes + first, [&](std::size_t from, std::size_t how_many) {
                    by_floats(first + from, how_many);
                  });
            });
      } else {
        avx512::encode_doubles_by_addition<Target, Rule, Overflow>(src, n, codes, by_floats);
      }
    } else if constexpr (std::is_same<Random, no_random_bits>::value &&
                         !std::is_same<Source, block_scaled_floats>::value) {
      // (Not block-scaled floats: split at dst's line, a vector could straddle two blocks.)
      // With a report too: its loop reads stored codes back only where it looks at a group
      // (report_group_again), a few times a call, and a streamed line read back costs a memory
      // latency. Float -> e4m3 with a report at 64 Mi, x the plain call of the same run: 0.86-0.92
      // through the caches (the source prefetched as from memory), 0.97-1.07 streaming (AMD Zen 5;
      // docs/performance.md, stop 87).
      if (mode == stores::non_temporal) {
        with_aligned_stores(
            codes, n, mode, [&](auto non_temporal, std::size_t first, std::size_t count) {
              avx512::encode_array<Target, Rule, Overflow, variant, decltype(non_temporal)::value>(
                  src + first, count, codes + first, random, tally);
            });
      } else {
        avx512::encode_array<Target, Rule, Overflow, variant>(src, n, codes, random, tally);
      }
    } else {
      avx512::encode_array<Target, Rule, Overflow, variant>(src, n, codes, random, tally);
    }
  }
  // Byte permutes (VBMI) over the results' bytes. Every 8-bit format's values are bfloat16
  // values, so a float is its bfloat16 pattern << 16.
  template <class Format, class To>
  static void decode(const std::uint8_t* codes, std::size_t n, To* dst, stores mode) {
    using lookup = byte_lookup_for<Format, To>;
    constexpr const byte_plane_table& planes = lookup::planes;
    auto* results = reinterpret_cast<typename lookup::result_bits*>(dst);
    with_aligned_stores(
        results, n, mode, [&](auto non_temporal, std::size_t first, std::size_t count) {
          avx512::decode_array<planes.sign_symmetric, decltype(non_temporal)::value>(
              planes, codes + first, count, results + first);
        });
  }
  static std::uint32_t max_magnitude_bits(const float* src, std::size_t n) {
    return avx512::max_magnitude_bits(src, n);
  }
  // Per block of block_size floats by `rows` rows `stride` floats apart (the block quantizers').
  static void block_max_magnitude_bits(const float* src, std::size_t blocks, std::size_t block_size,
                                       std::uint32_t* out, std::size_t rows = 1,
                                       std::size_t stride = 0) {
    // One-row MX blocks and 1 x 128 tiles from a source off its cache lines: whole lines
    // (group_max_magnitude_bits_by_lines), 16 blocks at a time; the rest as lanes.inc does.
    const auto offset = static_cast<unsigned>(elements_to_line(src));
    if (rows == 1 && (block_size == 32 || block_size == 128) && offset != 0 &&
        reinterpret_cast<std::uintptr_t>(src) % sizeof(float) == 0) {
      const std::size_t groups = blocks / 16;
      if (block_size == 32) {
        avx512::group_max_magnitude_bits_by_lines<32>(src, 16 - offset, groups, out);
      } else {
        avx512::group_max_magnitude_bits_by_lines<128>(src, 16 - offset, groups, out);
      }
      const std::size_t done = groups * 16;
      src += done * block_size;
      out += done;
      blocks -= done;
    }
    avx512::block_max_magnitude_bits(src, blocks, block_size, out, rows, stride);
  }
  // One-row blocks of Size floats (16, 32 or 128) quantized 16 side by side at a time in one pass
  // (lanes.inc quantize_block_groups), the amaxes of 1 x 128 tiles by whole cache lines
  // (group_max_magnitudes_by_lines); returns the blocks done. FP4 codes (Target e2m1) go packed
  // two per byte into `codes`. MX's blocks of 32 by their own two vectors, as the narrowing
  // reads them: by whole lines (three loads, two masked maxima per block, from a source 16 bytes
  // past a line) MX e4m3 ran at 0.54-0.59 x the saturating encode, MXFP4 0.54-0.57 and ggml's
  // blocks 0.52-0.53; by the blocks' vectors 0.57-0.63, 0.57-0.60 and 0.54-0.56 (4 Ki and 64 Ki
  // floats, g++ 12, AMD Zen 5). Tiles keep the lines: 0.67-0.74 by them, 0.55-0.65 by vectors.
  // (counts: a report's, for FP4 elements, lanes.inc quantize_block_groups; nullptr: none.)
  template <class Target, std::size_t Size, class Rule, class Counts = no_tally>
  static std::size_t quantize_block_groups(const float* src, std::size_t blocks,
                                           std::uint8_t* codes, const Rule& rule,
                                           const float* prefetch_end, Counts* counts = nullptr) {
    if constexpr (Size >= 128) {
      // (From a source on a line boundary too, offset 0, where the blocks' own vectors are whole
      // lines: by them, 1 x 128 tiles ran 7-10 % slower than by the lines' loop, 13.9-14.5 against
      // 15.6-15.9 el/ns at 4 Ki and 16.1 against 17.3 at 64 Ki, and at 64 Mi 0.72-0.74 against
      // 0.92-0.93 x a streaming 4 -> 1 copy, AMD Zen 5, g++ 12; docs/performance.md, stop 81.
      // The amaxes alone, block_max_magnitude_bits, keep them.)
      const auto to_line = static_cast<unsigned>(elements_to_line(src));
      if (reinterpret_cast<std::uintptr_t>(src) % sizeof(float) == 0) {
        return avx512::quantize_block_groups<Target, Size>(
            src, blocks, codes, rule, avx512::group_max_by_lines<Size>{(16 - to_line) % 16},
            prefetch_end, counts);
      }
    }
    return by_group_max<Size, Counts>(rule, [&](const auto& group_max) {
      return avx512::quantize_block_groups<Target, Size>(src, blocks, codes, rule, group_max,
                                                         prefetch_end, counts);
    });
  }
  // MXFP4 in ggml's 17-byte blocks (block_mxfp4) at `blocks_out`, 16 side by side at a time in
  // one pass as quantize_block_groups above: whole blocks written, scale byte and element bytes
  // (the scale codes to rule.codes too); returns the blocks done.
  template <class Rule, class Counts = no_tally>
  static std::size_t quantize_ggml_block_groups(const float* src, std::size_t blocks,
                                                std::uint8_t* blocks_out, const Rule& rule,
                                                const float* prefetch_end,
                                                Counts* counts = nullptr) {
    return by_group_max<32, Counts>(rule, [&](const auto& group_max) {
      return avx512::quantize_block_groups<formats::e2m1, 32, true>(
          src, blocks, blocks_out, rule, group_max, prefetch_end, counts);
    });
  }
  // quantize(group_max) with the blocks' amaxes by blocks (group_max_by_blocks), or, for MX's
  // blocks of 32 without a report where the rule reads only the amaxes' high words
  // (mx_amax_high_words_suffice), by 16-bit words (mx_group_max_high_words): MX e4m3 at 0.68-0.70
  // x the saturating encode by blocks, 0.72-0.74 by words (with group_factors' floor case; 4 Ki
  // and 64 Ki floats, every source offset, g++ 12, Intel Xeon; docs/performance.md, stop 76). On
  // an AMD Zen 5, the words interleaved by a byte permute: 0.66-0.71 -> 0.70-0.73 (stop 84).
  // (A report's counts read the exact amaxes: a clipped block's largest product.)
  template <std::size_t Size, class Counts, class Rule, class Quantize>
  static std::size_t by_group_max(const Rule& rule, const Quantize& quantize) {
    if constexpr (Size == 32 && std::is_same<Rule, mx_block_scales>::value &&
                  std::is_same<Counts, no_tally>::value) {
      if (mx_amax_high_words_suffice(rule)) {
        return quantize(avx512::mx_group_max_high_words{});
      }
    }
    return quantize(avx512::group_max_by_blocks<Size>{});
  }
  // One block of `rows` rows of Size floats (row r at src + r * stride, its codes at
  // codes + r * stride) narrowed by its factor while the next block's amax is read into
  // *next_amax and the one after it, after_next, is prefetched (lanes.inc
  // quantize_block_rows; nullptr: none).
  template <class Target, std::size_t Size>
  static bool quantize_block_rows(const float* src, std::size_t rows, std::size_t stride,
                                  float factor, std::uint8_t* codes, const float* next,
                                  const float* after_next, std::uint32_t* next_amax) {
    *next_amax = avx512::quantize_block_rows<Target, Size>(src, rows, stride, factor, codes, next,
                                                           after_next);
    return true;
  }
  // The blocks' scales and their inverses as float bits (blocks [0, count) rounded up to a
  // multiple of the path's width; lanes.inc block_scales).
  static void block_scales(const std::uint32_t* largest, std::size_t count, float max_value,
                           int margin, bool power_of_two, std::uint32_t* scales,
                           std::uint32_t* inverses) {
    avx512::block_scales(largest, count, max_value, margin, power_of_two, scales, inverses);
  }
  // quantize_mx's scale codes and factors (lanes.inc mx_scale_codes; blocks [0, count) rounded
  // up to a multiple of the path's width).
  static bool mx_scale_codes(const std::uint32_t* amax_bits, std::size_t count, std::uint32_t low,
                             std::uint32_t above_once, std::uint32_t above_twice,
                             std::uint8_t* codes, std::uint32_t* factors) {
    return avx512::mx_scale_codes(amax_bits, count, low, above_once, above_twice, codes, factors);
  }
  // NVFP4's element factors from the scale bytes' values (lanes.inc nvfp4_factors; blocks
  // [0, count) rounded up to a multiple of the path's width).
  static void nvfp4_factors(const float* bytes, std::size_t count, float decode,
                            std::uint32_t* factors) {
    avx512::nvfp4_factors(bytes, count, decode, factors);
  }
  // FP4 codes (one per byte) packed two per byte, n even.
  static void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed) {
    avx512::pack_nibble_pairs(codes, n, packed);
  }
  // NVFP4 blocks into float or bfloat16_bits, a block per iteration.
  template <class To>
  static void decode_nvfp4_blocks(const std::uint8_t* packed, const std::uint8_t* scale_codes,
                                  std::size_t blocks, float decode, To* dst) {
    avx512::decode_nvfp4_blocks(packed, scale_codes, blocks, decode, dst);
  }
  // MXFP4 blocks from the start while their products stay normal: nibbles through a word
  // permute.
  template <class To, class Blocks>
  static std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
    return avx512::decode_e2m1_blocks<To>(in, blocks, dst);
  }
};

} // namespace detail
} // namespace minifloat

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // MINIFLOAT_DETAIL_KERNELS_AVX512_HPP
