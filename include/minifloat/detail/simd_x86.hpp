// minifloat: the AVX2 and AVX-512 paths of the array functions. Each path is the lane kernels
// of lanes.inc compiled with a target attribute, so that a program built without -m flags still
// runs them on a CPU that has the instructions (bulk.hpp checks the CPU before calling one).
// Only for x86-64 with GCC or Clang, outside nvcc (MINIFLOAT_X86_PATHS).
#ifndef MINIFLOAT_DETAIL_SIMD_X86_HPP
#define MINIFLOAT_DETAIL_SIMD_X86_HPP

#include "../binary16.hpp"
#include "../converter.hpp"
#include "../random.hpp"

#if !defined(MINIFLOAT_NO_SIMD) && defined(__x86_64__) &&                                          \
    (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define MINIFLOAT_X86_PATHS 1
#else
#define MINIFLOAT_X86_PATHS 0
#endif

#if MINIFLOAT_X86_PATHS
#include <cpuid.h>
#include <immintrin.h>

#include <array>
#include <cstddef>

// GCC 12's AVX-512 intrinsics seed their pass-through operands with a self-initialised
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

#define MINIFLOAT_AVX2_TARGET __attribute__((target("avx2,f16c,fma,bmi2")))
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX2_TARGET __attribute__((always_inline)) inline
#define MINIFLOAT_ARRAY_FN MINIFLOAT_AVX2_TARGET inline
#define MINIFLOAT_LANES_HAVE_FLOAT_ADD 1
#define MINIFLOAT_LANES_HAVE_STORE4 0

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
template <unsigned N>
MINIFLOAT_LANE_FN u32v shl(u32v a) {
  return _mm256_slli_epi32(a, N);
}
MINIFLOAT_LANE_FN u32v shrv(u32v a, u32v count) { return _mm256_srlv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v shlv(u32v a, u32v count) { return _mm256_sllv_epi32(a, count); }
MINIFLOAT_LANE_FN u32v min_u(u32v a, u32v b) { return _mm256_min_epu32(a, b); }
MINIFLOAT_LANE_FN u32v max_u(u32v a, u32v b) { return _mm256_max_epu32(a, b); }
MINIFLOAT_LANE_FN maskv eq(u32v a, u32v b) { return _mm256_cmpeq_epi32(a, b); }
MINIFLOAT_LANE_FN maskv gt_u(u32v a, u32v b) {
  // AVX2 compares signed lanes: flipping the top bit maps unsigned order onto signed order.
  const u32v top = _mm256_set1_epi32(static_cast<int>(0x80000000U));
  return _mm256_cmpgt_epi32(_mm256_xor_si256(a, top), _mm256_xor_si256(b, top));
}
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return _mm256_blendv_epi8(b, a, m); }
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return _mm256_and_si256(a, b); }
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) { return _mm256_sub_epi32(a, m); }
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

MINIFLOAT_LANE_FN maskv first_lanes(std::size_t count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), iota());
}
MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t count) {
  // Masked-off lanes are not read (no fault past the end of the array).
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), first_lanes(count));
}
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) {
  return _mm256_castps_si256(_mm256_loadu_ps(p));
}
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t count) {
  return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), first_lanes(count));
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
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v codes) {
  // Codes are below 256: two saturating packs leave them as bytes 0-3 of each 128-bit half.
  const __m256i words = _mm256_packus_epi32(codes, codes);
  const __m256i bytes = _mm256_packus_epi16(words, words);
  const __m256i ordered =
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(ordered));
}
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

#include "lanes.inc"

// Decoding: a gather from the 256-entry table of results.
MINIFLOAT_ARRAY_FN void decode_array(const std::uint32_t* table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  const int* entries = reinterpret_cast<const int*>(table);
  std::size_t i = 0;
  for (; n - i >= width; i += width) {
    const __m256i codes =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_i32gather_epi32(entries, codes, 4));
  }
  // The tail: fewer than `width` elements. (The explicit bound also keeps GCC 12 from
  // -Waggressive-loop-optimizations when a refused call's constants reach this loop.)
  for (std::size_t k = 0; k < width && i + k < n; ++k) {
    dst[i + k] = table[src[i + k]];
  }
}

// Whether MXCSR rounds to nearest (the default), so that add_f32 may stand for nearest-even.
inline bool rounds_to_nearest() noexcept { return (_mm_getcsr() & 0x6000U) == 0; }

#undef MINIFLOAT_LANES_HAVE_STORE4
#undef MINIFLOAT_LANES_HAVE_FLOAT_ADD
#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
} // namespace avx2

// ---------------------------------------------------------------------------------------------
// AVX-512 F/BW/VL/VBMI (Ice Lake, Sapphire Rapids, Zen 4/5): 16 lanes, masked tails, and
// embedded rounding, so the addition kernel serves nearest-even and toward-zero whatever MXCSR
// says.
namespace avx512 {

#define MINIFLOAT_AVX512_TARGET                                                                    \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512dq,avx512cd,avx2,f16c,fma,"    \
                        "bmi2")))
#define MINIFLOAT_LANE_FN MINIFLOAT_AVX512_TARGET __attribute__((always_inline)) inline
#define MINIFLOAT_ARRAY_FN MINIFLOAT_AVX512_TARGET inline
#define MINIFLOAT_LANES_HAVE_FLOAT_ADD 1
#define MINIFLOAT_LANES_HAVE_STORE4 1

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
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return _mm512_mask_blend_epi32(m, b, a); }
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return _kand_mask16(a, b); }
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) {
  return _mm512_mask_add_epi32(a, m, a, _mm512_set1_epi32(1));
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
// The product of float lanes by a float in the current floating-point environment, as the
// scalar x * scale is.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(b)));
}

MINIFLOAT_LANE_FN __mmask16 first_lanes(std::size_t count) {
  return static_cast<__mmask16>(_bzhi_u32(0xFFFFU, static_cast<unsigned>(count)));
}
MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) { return _mm512_loadu_si512(p); }
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t count) {
  return _mm512_maskz_loadu_epi32(first_lanes(count), p);
}
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) { return _mm512_loadu_si512(p); }
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t count) {
  return _mm512_maskz_loadu_epi32(first_lanes(count), p);
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) {
  return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
MINIFLOAT_LANE_FN u32v load_halves_partial(const std::uint16_t* p, std::size_t count) {
  return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(first_lanes(count), p));
}
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v codes) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(codes));
}
MINIFLOAT_LANE_FN void store_codes_partial(std::uint8_t* p, u32v codes, std::size_t count) {
  _mm512_mask_cvtepi32_storeu_epi8(p, first_lanes(count), codes);
}
// 64 codes from four vectors with two byte permutes (VBMI) and a blend: byte 4k of each lane.
// Indices 0-63 name the first operand's bytes, 64-127 the second's: bytes 0-31 of the result
// come from a and b, bytes 32-63 from c and d.
constexpr std::array<std::uint8_t, 64> pack4_indices(bool high_half) {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 64; ++j) {
    const bool second_operand = high_half ? j >= 48 : j >= 16;
    indices[static_cast<std::size_t>(j)] =
        static_cast<std::uint8_t>((second_operand ? 64 : 0) + 4 * (j % 16));
  }
  return indices;
}
alignas(64) inline constexpr std::array<std::uint8_t, 64> pack4_low = pack4_indices(false);
alignas(64) inline constexpr std::array<std::uint8_t, 64> pack4_high = pack4_indices(true);
MINIFLOAT_LANE_FN void store_codes4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  const __m512i first = _mm512_load_si512(pack4_low.data());
  const __m512i second = _mm512_load_si512(pack4_high.data());
  const __m512i low = _mm512_permutex2var_epi8(a, first, b);
  const __m512i high = _mm512_permutex2var_epi8(c, second, d);
  _mm512_storeu_si512(p, _mm512_mask_blend_epi8(0xFFFFFFFF00000000ULL, low, high));
}

// The largest lane.
MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) {
  return static_cast<std::uint32_t>(_mm512_reduce_max_epu32(a));
}

#include "lanes.inc"

// Decoding 64 codes at a time with byte permutes (VBMI). Every 8-bit format's values are
// bfloat16 values, and binary16/bfloat16 results are 16 bits, so each result is a 16-bit
// pattern: its low and high bytes are looked up in two 256-byte tables (the code's low 7 bits
// pick one of 128 bytes held in two registers; its top bit picks the pair). The codes are first
// put in the order that the interleaving unpacks (which work within 128-bit lanes) undo.
struct byte_planes {
  __m512i low[4];
  __m512i high[4];
};
MINIFLOAT_LANE_FN byte_planes load_planes(const std::uint16_t* table) {
  alignas(64) std::uint8_t low[256];
  alignas(64) std::uint8_t high[256];
  for (int code = 0; code < 256; ++code) {
    low[code] = static_cast<std::uint8_t>(table[code]);
    high[code] = static_cast<std::uint8_t>(table[code] >> 8);
  }
  byte_planes planes;
  for (int k = 0; k < 4; ++k) {
    planes.low[k] = _mm512_load_si512(low + std::ptrdiff_t{64} * k);
    planes.high[k] = _mm512_load_si512(high + std::ptrdiff_t{64} * k);
  }
  return planes;
}
MINIFLOAT_LANE_FN __m512i lookup(const __m512i (&plane)[4], __m512i codes) {
  const __m512i low_half = _mm512_permutex2var_epi8(plane[0], codes, plane[1]);
  const __m512i high_half = _mm512_permutex2var_epi8(plane[2], codes, plane[3]);
  return _mm512_mask_blend_epi8(_mm512_movepi8_mask(codes), low_half, high_half);
}
// order[16k + j]: which of the 64 codes goes to byte j of 128-bit lane k, so that after the
// unpacks the results come out in order. For 16-bit results (one unpack level), lane k's bytes
// 0-7 feed the first output's lane k (codes 8k..8k+7) and bytes 8-15 the second's (32 + 8k..).
// For 32-bit results (two levels), byte group j / 4 feeds output j / 4, codes 16(j / 4) + 4k...
MINIFLOAT_LANE_FN __m512i order_for_words() {
  alignas(64) std::uint8_t order[64];
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 16; ++j) {
      order[16 * k + j] = static_cast<std::uint8_t>(j < 8 ? 8 * k + j : 24 + 8 * k + j);
    }
  }
  return _mm512_load_si512(order);
}
MINIFLOAT_LANE_FN __m512i order_for_dwords() {
  alignas(64) std::uint8_t order[64];
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 16; ++j) {
      order[16 * k + j] = static_cast<std::uint8_t>(16 * (j / 4) + 4 * k + j % 4);
    }
  }
  return _mm512_load_si512(order);
}
MINIFLOAT_LANE_FN __mmask64 first_bytes(std::size_t count) {
  return _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(count));
}

// 16-bit results (binary16, bfloat16). table: the 256 results.
MINIFLOAT_ARRAY_FN void decode_array(const std::uint16_t* table, const std::uint8_t* src,
                                     std::size_t n, std::uint16_t* dst) {
  const byte_planes planes = load_planes(table);
  const __m512i order = order_for_words();
  for (std::size_t i = 0; i < n; i += 64) {
    const std::size_t count = n - i < 64 ? n - i : 64;
    const __m512i codes =
        _mm512_permutexvar_epi8(order, _mm512_maskz_loadu_epi8(first_bytes(count), src + i));
    const __m512i low = lookup(planes.low, codes);
    const __m512i high = lookup(planes.high, codes);
    const __mmask64 results = first_bytes(count); // one bit per 16-bit result
    _mm512_mask_storeu_epi16(dst + i, static_cast<__mmask32>(results),
                             _mm512_unpacklo_epi8(low, high));
    _mm512_mask_storeu_epi16(dst + i + 32, static_cast<__mmask32>(results >> 32),
                             _mm512_unpackhi_epi8(low, high));
  }
}

// float results: the bfloat16 pattern of each value in the top half.
MINIFLOAT_ARRAY_FN void decode_array(const std::uint16_t* bfloat16_table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  const byte_planes planes = load_planes(bfloat16_table);
  const __m512i order = order_for_dwords();
  const __m512i zero = _mm512_setzero_si512();
  for (std::size_t i = 0; i < n; i += 64) {
    const std::size_t count = n - i < 64 ? n - i : 64;
    const __m512i codes =
        _mm512_permutexvar_epi8(order, _mm512_maskz_loadu_epi8(first_bytes(count), src + i));
    const __m512i low = lookup(planes.low, codes);
    const __m512i high = lookup(planes.high, codes);
    const __m512i words_a = _mm512_unpacklo_epi8(low, high);
    const __m512i words_b = _mm512_unpackhi_epi8(low, high);
    const __m512i results[4] = {
        _mm512_unpacklo_epi16(zero, words_a), _mm512_unpackhi_epi16(zero, words_a),
        _mm512_unpacklo_epi16(zero, words_b), _mm512_unpackhi_epi16(zero, words_b)};
    if (count == 64) {
      for (int k = 0; k < 4; ++k) {
        _mm512_storeu_si512(dst + i + 16 * static_cast<std::size_t>(k), results[k]);
      }
    } else {
      for (std::size_t k = 0; 16 * k < count; ++k) {
        _mm512_mask_storeu_epi32(dst + i + 16 * k, first_lanes(count - 16 * k), results[k]);
      }
    }
  }
}

#undef MINIFLOAT_LANES_HAVE_STORE4
#undef MINIFLOAT_LANES_HAVE_FLOAT_ADD
#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
} // namespace avx512

} // namespace detail
} // namespace minifloat

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // MINIFLOAT_X86_PATHS
#endif // MINIFLOAT_DETAIL_SIMD_X86_HPP
