// minifloat: the NEON path of the array functions, for AArch64, where Advanced SIMD is part of
// the base architecture (no target attribute, no CPU check). The lane kernels of lanes.inc on
// four 32-bit lanes, and decoding by byte-table lookups (TBL/TBX). Only with GCC or Clang,
// outside nvcc (MINIFLOAT_NEON_PATHS).
#ifndef MINIFLOAT_DETAIL_SIMD_NEON_HPP
#define MINIFLOAT_DETAIL_SIMD_NEON_HPP

#include "../binary16.hpp"
#include "../converter.hpp"
#include "../random.hpp"

#if !defined(MINIFLOAT_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON) &&                  \
    (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define MINIFLOAT_NEON_PATHS 1
#else
#define MINIFLOAT_NEON_PATHS 0
#endif

#if MINIFLOAT_NEON_PATHS
#include <arm_neon.h>

#include <cstddef>
#include <cstring>

namespace minifloat {
namespace detail {
namespace neon {

#define MINIFLOAT_LANE_FN __attribute__((always_inline)) inline
#define MINIFLOAT_ARRAY_FN inline
// The float addition kernel needs a known rounding; NEON's comes from FPCR, and the integer
// kernel needs no such check.
#define MINIFLOAT_LANES_HAVE_FLOAT_ADD 0
#define MINIFLOAT_LANES_HAVE_STORE4 1

using u32v = uint32x4_t;
using maskv = uint32x4_t; // all ones in a true lane

constexpr std::size_t width = 4;
MINIFLOAT_LANE_FN u32v splat(std::uint32_t x) { return vdupq_n_u32(x); }
MINIFLOAT_LANE_FN u32v iota() {
  const std::uint32_t lanes[width] = {0, 1, 2, 3};
  return vld1q_u32(lanes);
}
MINIFLOAT_LANE_FN u32v add(u32v a, u32v b) { return vaddq_u32(a, b); }
MINIFLOAT_LANE_FN u32v sub(u32v a, u32v b) { return vsubq_u32(a, b); }
MINIFLOAT_LANE_FN u32v and_(u32v a, u32v b) { return vandq_u32(a, b); }
MINIFLOAT_LANE_FN u32v or_(u32v a, u32v b) { return vorrq_u32(a, b); }
MINIFLOAT_LANE_FN u32v xor_(u32v a, u32v b) { return veorq_u32(a, b); }
MINIFLOAT_LANE_FN u32v mul_lo(u32v a, u32v b) { return vmulq_u32(a, b); }
template <unsigned N>
MINIFLOAT_LANE_FN u32v shr(u32v a) {
  static_assert(N >= 1 && N <= 31, "an immediate shift count");
  return vshrq_n_u32(a, N);
}
template <unsigned N>
MINIFLOAT_LANE_FN u32v shl(u32v a) {
  static_assert(N >= 1 && N <= 31, "an immediate shift count");
  return vshlq_n_u32(a, N);
}
// USHL shifts by the signed low byte of each count lane (negative: right), and a shift of 32 or
// more either way gives 0. Counts are clamped to 32 first, so that one of 256 + k, say, is not
// read as k.
MINIFLOAT_LANE_FN int32x4_t clamped_count(u32v count) {
  return vreinterpretq_s32_u32(vminq_u32(count, vdupq_n_u32(32)));
}
MINIFLOAT_LANE_FN u32v shrv(u32v a, u32v count) {
  return vshlq_u32(a, vnegq_s32(clamped_count(count)));
}
MINIFLOAT_LANE_FN u32v shlv(u32v a, u32v count) { return vshlq_u32(a, clamped_count(count)); }
MINIFLOAT_LANE_FN u32v min_u(u32v a, u32v b) { return vminq_u32(a, b); }
MINIFLOAT_LANE_FN u32v max_u(u32v a, u32v b) { return vmaxq_u32(a, b); }
MINIFLOAT_LANE_FN maskv eq(u32v a, u32v b) { return vceqq_u32(a, b); }
MINIFLOAT_LANE_FN maskv gt_u(u32v a, u32v b) { return vcgtq_u32(a, b); }
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return vbslq_u32(m, a, b); }
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return vandq_u32(a, b); }
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) { return vsubq_u32(a, m); }
MINIFLOAT_LANE_FN u32v int_to_float_bits(u32v a) { return vreinterpretq_u32_f32(vcvtq_f32_u32(a)); }
// The product of float lanes by a float in the current floating-point environment, as the
// scalar x * scale is.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return vreinterpretq_u32_f32(vmulq_n_f32(vreinterpretq_f32_u32(a), b));
}

MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) { return vld1q_u32(p); }
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) {
  return vreinterpretq_u32_f32(vld1q_f32(p));
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) { return vmovl_u16(vld1_u16(p)); }
// Partial vectors go through a zeroed buffer: no byte past the array is read.
template <class Element>
MINIFLOAT_LANE_FN const Element* copy_first(Element (&buffer)[width], const Element* p,
                                            std::size_t count) {
  std::memcpy(buffer, p, count * sizeof(Element));
  return buffer;
}
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t count) {
  std::uint32_t buffer[width] = {};
  return load_u32(copy_first(buffer, p, count));
}
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t count) {
  float buffer[width] = {};
  return load_float_bits(copy_first(buffer, p, count));
}
MINIFLOAT_LANE_FN u32v load_halves_partial(const std::uint16_t* p, std::size_t count) {
  std::uint16_t buffer[width] = {};
  return load_halves(copy_first(buffer, p, count));
}
// Codes are below 256: two narrowing moves keep each lane's low byte.
MINIFLOAT_LANE_FN uint8x8_t narrow_codes(u32v codes) {
  const uint16x4_t words = vmovn_u32(codes);
  return vmovn_u16(vcombine_u16(words, words));
}
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v codes) {
  const std::uint32_t four = vget_lane_u32(vreinterpret_u32_u8(narrow_codes(codes)), 0);
  std::memcpy(p, &four, width);
}
MINIFLOAT_LANE_FN void store_codes_partial(std::uint8_t* p, u32v codes, std::size_t count) {
  std::uint8_t buffer[width];
  store_codes(buffer, codes);
  std::memcpy(p, buffer, count);
}
MINIFLOAT_LANE_FN void store_codes4(std::uint8_t* p, u32v a, u32v b, u32v c, u32v d) {
  const uint16x8_t ab = vcombine_u16(vmovn_u32(a), vmovn_u32(b));
  const uint16x8_t cd = vcombine_u16(vmovn_u32(c), vmovn_u32(d));
  vst1q_u8(p, vcombine_u8(vmovn_u16(ab), vmovn_u16(cd)));
}

// The largest lane.
MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) { return vmaxvq_u32(a); }

#include "lanes.inc"

// Decoding 16 codes at a time: each result is a 16-bit pattern (every 8-bit format's values are
// bfloat16 values), whose low and high bytes are looked up in two 256-byte tables. TBL looks up
// 64 bytes at a time and gives 0 past them; TBX leaves the byte alone past them, so four lookups
// with the codes less 0, 64, 128 and 192 cover the table.
struct byte_plane {
  uint8x16x4_t part[4];
};
struct byte_planes {
  byte_plane low;
  byte_plane high;
};
MINIFLOAT_LANE_FN byte_planes load_planes(const std::uint16_t* table) {
  std::uint8_t low[256];
  std::uint8_t high[256];
  for (int code = 0; code < 256; ++code) {
    low[code] = static_cast<std::uint8_t>(table[code]);
    high[code] = static_cast<std::uint8_t>(table[code] >> 8);
  }
  byte_planes planes;
  for (std::size_t k = 0; k < 4; ++k) {
    planes.low.part[k] = vld1q_u8_x4(low + 64 * k);
    planes.high.part[k] = vld1q_u8_x4(high + 64 * k);
  }
  return planes;
}
MINIFLOAT_LANE_FN uint8x16_t lookup(const byte_plane& plane, uint8x16_t codes) {
  uint8x16_t bytes = vqtbl4q_u8(plane.part[0], codes);
  bytes = vqtbx4q_u8(bytes, plane.part[1], vsubq_u8(codes, vdupq_n_u8(64)));
  bytes = vqtbx4q_u8(bytes, plane.part[2], vsubq_u8(codes, vdupq_n_u8(128)));
  return vqtbx4q_u8(bytes, plane.part[3], vsubq_u8(codes, vdupq_n_u8(192)));
}

// 16-bit results (binary16, bfloat16, or float's top half). table: the 256 results. Calls
// store(i, first, second) with results i .. i + 7 and i + 8 .. i + 15.
template <class Store>
MINIFLOAT_ARRAY_FN std::size_t decode_blocks(const std::uint16_t* table, const std::uint8_t* src,
                                             std::size_t n, Store store) {
  const byte_planes planes = load_planes(table);
  std::size_t i = 0;
  for (; n - i >= 16; i += 16) {
    const uint8x16_t codes = vld1q_u8(src + i);
    const uint8x16_t low = lookup(planes.low, codes);
    const uint8x16_t high = lookup(planes.high, codes);
    store(i, vreinterpretq_u16_u8(vzip1q_u8(low, high)),
          vreinterpretq_u16_u8(vzip2q_u8(low, high)));
  }
  return i;
}

MINIFLOAT_ARRAY_FN void decode_array(const std::uint16_t* table, const std::uint8_t* src,
                                     std::size_t n, std::uint16_t* dst) {
  std::size_t i = decode_blocks(table, src, n, [dst](std::size_t at, uint16x8_t a, uint16x8_t b) {
    vst1q_u16(dst + at, a);
    vst1q_u16(dst + at + 8, b);
  });
  for (; i < n; ++i) {
    dst[i] = table[src[i]];
  }
}

// float results: the bfloat16 pattern of each value in the top half.
MINIFLOAT_ARRAY_FN void decode_array(const std::uint16_t* bfloat16_table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  std::size_t i =
      decode_blocks(bfloat16_table, src, n, [dst](std::size_t at, uint16x8_t a, uint16x8_t b) {
        const uint16x8_t zero = vdupq_n_u16(0);
        vst1q_u32(dst + at, vreinterpretq_u32_u16(vzip1q_u16(zero, a)));
        vst1q_u32(dst + at + 4, vreinterpretq_u32_u16(vzip2q_u16(zero, a)));
        vst1q_u32(dst + at + 8, vreinterpretq_u32_u16(vzip1q_u16(zero, b)));
        vst1q_u32(dst + at + 12, vreinterpretq_u32_u16(vzip2q_u16(zero, b)));
      });
  for (; i < n; ++i) {
    dst[i] = std::uint32_t{bfloat16_table[src[i]]} << 16;
  }
}

#undef MINIFLOAT_LANES_HAVE_STORE4
#undef MINIFLOAT_LANES_HAVE_FLOAT_ADD
#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
} // namespace neon
} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_NEON_PATHS
#endif // MINIFLOAT_DETAIL_SIMD_NEON_HPP
