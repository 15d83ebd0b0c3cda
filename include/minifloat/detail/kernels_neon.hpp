// minifloat: the NEON path's kernel type, neon_kernels, for AArch64, where Advanced SIMD is part
// of the base architecture (no target attribute, no CPU check): the lane kernels of lanes.inc on
// four 32-bit lanes, and decoding by byte-table lookups (TBL/TBX). Included only by
// detail/dispatch.hpp, where MINIFLOAT_NEON_PATHS (config.hpp): GCC or Clang, outside nvcc.
#ifndef MINIFLOAT_DETAIL_KERNELS_NEON_HPP
#define MINIFLOAT_DETAIL_KERNELS_NEON_HPP

#include <arm_neon.h>

#include <cstddef>
#include <cstring>

#include "kernels_portable.hpp"

namespace minifloat {
namespace detail {
namespace neon {

#if defined(__OPTIMIZE__) // forced inline only where optimizing: lanes.inc says why
#define MINIFLOAT_LANE_FN __attribute__((always_inline)) inline
#else
#define MINIFLOAT_LANE_FN inline
#endif
#define MINIFLOAT_ARRAY_FN inline
#define MINIFLOAT_UNROLLED _Pragma("GCC unroll 16") // (lanes.inc says why)
#define MINIFLOAT_ROLLED _Pragma("GCC unroll 1")    // (lanes.inc says why)
// The float addition kernel needs a known rounding; NEON's comes from FPCR, and the kernel with
// per-lane shifts needs no such check. Packed stores; binary16 widened by integer arithmetic.
constexpr lane_capabilities capabilities{
    float_addition_rounding::none, // float_addition
    true,                          // per_lane_shifts
    false,                         // binary16_conversion
    true,                          // store4
    false,                         // double_rounding_to_odd
    false,                         // fixup_and_lookup32
    false,                         // code_bytes_outside
    false,                         // signs_on_packed_codes
    false,                         // float_min_keeps_nan
    false,                         // masked_tests
    true                           // unsigned_minima
};

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
// x >> 16 (lanes.inc counter_bits_lanes).
MINIFLOAT_LANE_FN u32v shr16_lanes(u32v a) { return vshrq_n_u32(a, 16); }
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
MINIFLOAT_LANE_FN maskv gt_small(u32v a, u32v b) {
  return vcgtq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b));
}
MINIFLOAT_LANE_FN u32v select(maskv m, u32v a, u32v b) { return vbslq_u32(m, a, b); }
MINIFLOAT_LANE_FN u32v all_ones_where(maskv m, u32v a) { return vorrq_u32(a, m); }
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return vandq_u32(a, b); }
MINIFLOAT_LANE_FN maskv mask_or(maskv a, maskv b) { return vorrq_u32(a, b); }
MINIFLOAT_LANE_FN maskv mask_and_not(maskv a, maskv b) { return vbicq_u32(a, b); }
MINIFLOAT_LANE_FN bool any_lane(maskv m) { return vmaxvq_u32(m) != 0; }
MINIFLOAT_LANE_FN std::uint32_t mask_bits(maskv m) {
  const uint32x4_t weights = {1, 2, 4, 8};
  return vaddvq_u32(vandq_u32(m, weights));
}
// How many lanes are set (a set lane is all ones).
MINIFLOAT_LANE_FN std::size_t count_lanes(maskv m) { return vaddvq_u32(vshrq_n_u32(m, 31)); }
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) { return vsubq_u32(a, m); }
MINIFLOAT_LANE_FN u32v dec_if(maskv m, u32v a) { return vaddq_u32(a, m); }
MINIFLOAT_LANE_FN u32v int_to_float_bits(u32v a) { return vreinterpretq_u32_f32(vcvtq_f32_u32(a)); }
// The product of float lanes by a float in the current floating-point environment, as the
// scalar x * scale is.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return vreinterpretq_u32_f32(vmulq_n_f32(vreinterpretq_f32_u32(a), b));
}
MINIFLOAT_LANE_FN u32v min_small(u32v a, u32v b) {
  return vreinterpretq_u32_s32(vminq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
}
MINIFLOAT_LANE_FN u32v max_small(u32v a, u32v b) {
  return vreinterpretq_u32_s32(vmaxq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
}
MINIFLOAT_LANE_FN u32v sub_f32(u32v a, u32v b) {
  return vreinterpretq_u32_f32(vsubq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)));
}
// a * b for float lanes (lane by lane) in the current environment.
MINIFLOAT_LANE_FN u32v product_f32(u32v a, u32v b) {
  return vreinterpretq_u32_f32(vmulq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)));
}
// a / b for float lanes, correctly rounded in the current environment (FDIV).
MINIFLOAT_LANE_FN u32v quotient_f32(u32v a, u32v b) {
  return vreinterpretq_u32_f32(vdivq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)));
}
MINIFLOAT_LANE_FN u32v truncate_f32(u32v a) {
  return vreinterpretq_u32_s32(vcvtq_s32_f32(vreinterpretq_f32_u32(a)));
}
template <rounding_rule Rule>
u32v add_f32(u32v a, u32v b) = delete; // (capabilities: none)

MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) { return vld1q_u32(p); }
MINIFLOAT_LANE_FN void store_u32(std::uint32_t* p, u32v a) { vst1q_u32(p, a); }
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) {
  return vreinterpretq_u32_f32(vld1q_f32(p));
}
// `width` stored codes, widened (the reports' rare second look, lanes.inc; byte by byte, which
// reads exactly four and is the same on either byte order).
MINIFLOAT_LANE_FN u32v load_codes(const std::uint8_t* p) {
  const std::uint32_t lanes[4] = {p[0], p[1], p[2], p[3]};
  return vld1q_u32(lanes);
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) { return vmovl_u16(vld1_u16(p)); }
// 4 doubles' two 32-bit words each (sign, exponent and top 20 mantissa bits; low 32 bits): a
// de-interleaving load (little-endian: the low word first).
MINIFLOAT_LANE_FN void load_double_words(const double* p, u32v& high, u32v& low) {
  const uint32x4x2_t words = vld2q_u32(reinterpret_cast<const std::uint32_t*>(p));
  low = words.val[0];
  high = words.val[1];
}
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
MINIFLOAT_LANE_FN void load_double_words_partial(const double* p, std::size_t count, u32v& high,
                                                 u32v& low) {
  double buffer[width] = {};
  load_double_words(copy_first(buffer, p, count), high, low);
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
// No software prefetch: the x86 paths' gain was measured on an x86 machine, and this path has
// not been measured on AArch64 hardware.
constexpr std::size_t prefetch_distance = 0;

// The largest lane.
MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) { return vmaxvq_u32(a); }
// Lane k: the largest lane of m[k] (two rounds of pairwise maxima).
MINIFLOAT_LANE_FN u32v max_of_each(const u32v (&m)[4]) {
  return vpmaxq_u32(vpmaxq_u32(m[0], m[1]), vpmaxq_u32(m[2], m[3]));
}

#include "lanes.inc"

// Decoding 16 codes at a time: each result is a 16-bit pattern (every 8-bit format's values are
// bfloat16 values), whose low and high bytes come from the two planes of a byte_plane_table
// (tables.hpp). TBL looks up 64 bytes at a time and gives 0 past them; TBX leaves the byte alone
// past them, so lookups with the codes less 0, 64, 128 and 192 cover a plane, or only the first
// two where the table is sign-symmetric: then the codes' low 7 bits are looked up and their top
// bit is ORed into the high byte.
struct byte_plane {
  uint8x16x4_t part[4];
};
struct planes_in_registers {
  byte_plane low;
  byte_plane high;
};
MINIFLOAT_LANE_FN planes_in_registers load_planes(const byte_plane_table& table) {
  planes_in_registers planes;
  MINIFLOAT_UNROLLED
  for (std::size_t k = 0; k < 4; ++k) {
    planes.low.part[k] = vld1q_u8_x4(table.low.data() + 64 * k);
    planes.high.part[k] = vld1q_u8_x4(table.high.data() + 64 * k);
  }
  return planes;
}
template <std::size_t Parts>
MINIFLOAT_LANE_FN uint8x16_t lookup_plane(const byte_plane& plane, uint8x16_t codes) {
  uint8x16_t bytes = vqtbl4q_u8(plane.part[0], codes);
  for (std::size_t k = 1; k < Parts; ++k) {
    bytes = vqtbx4q_u8(bytes, plane.part[k],
                       vsubq_u8(codes, vdupq_n_u8(static_cast<std::uint8_t>(64 * k))));
  }
  return bytes;
}
// The 16 results as two vectors of eight.
template <bool SignSymmetric>
MINIFLOAT_LANE_FN uint16x8x2_t lookup(const planes_in_registers& planes, uint8x16_t codes) {
  uint8x16_t low;
  uint8x16_t high;
  if constexpr (SignSymmetric) {
    const uint8x16_t magnitude = vandq_u8(codes, vdupq_n_u8(0x7F));
    low = lookup_plane<2>(planes.low, magnitude);
    high = vorrq_u8(lookup_plane<2>(planes.high, magnitude), vandq_u8(codes, vdupq_n_u8(0x80)));
  } else {
    low = lookup_plane<4>(planes.low, codes);
    high = lookup_plane<4>(planes.high, codes);
  }
  return {{vreinterpretq_u16_u8(vzip1q_u8(low, high)), vreinterpretq_u16_u8(vzip2q_u8(low, high))}};
}
MINIFLOAT_LANE_FN std::uint16_t lookup_one(const byte_plane_table& table, std::uint8_t code) {
  return static_cast<std::uint16_t>(table.low[code] | table.high[code] << 8);
}

// 16-bit results (binary16, bfloat16).
template <bool SignSymmetric>
MINIFLOAT_ARRAY_FN void decode_array(const byte_plane_table& table, const std::uint8_t* src,
                                     std::size_t n, std::uint16_t* dst) {
  const planes_in_registers planes = load_planes(table);
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 16; i != blocks_end; i += 16) {
    const uint16x8x2_t results = lookup<SignSymmetric>(planes, vld1q_u8(src + i));
    vst1q_u16(dst + i, results.val[0]);
    vst1q_u16(dst + i + 8, results.val[1]);
  }
  for (; i < n; ++i) {
    dst[i] = lookup_one(table, src[i]);
  }
}

// float results: the bfloat16 pattern of each value in the top half (table: the bfloat16 one).
template <bool SignSymmetric>
MINIFLOAT_ARRAY_FN void decode_array(const byte_plane_table& table, const std::uint8_t* src,
                                     std::size_t n, std::uint32_t* dst) {
  const planes_in_registers planes = load_planes(table);
  const uint16x8_t zero = vdupq_n_u16(0);
  std::size_t i = 0;
  for (const std::size_t blocks_end = n - n % 16; i != blocks_end; i += 16) {
    const uint16x8x2_t results = lookup<SignSymmetric>(planes, vld1q_u8(src + i));
    vst1q_u32(dst + i, vreinterpretq_u32_u16(vzip1q_u16(zero, results.val[0])));
    vst1q_u32(dst + i + 4, vreinterpretq_u32_u16(vzip2q_u16(zero, results.val[0])));
    vst1q_u32(dst + i + 8, vreinterpretq_u32_u16(vzip1q_u16(zero, results.val[1])));
    vst1q_u32(dst + i + 12, vreinterpretq_u32_u16(vzip2q_u16(zero, results.val[1])));
  }
  for (; i < n; ++i) {
    dst[i] = std::uint32_t{lookup_one(table, src[i])} << 16;
  }
}

// FP4 packing, 32 codes at a time: LD2 splits the even and odd codes, SLI puts each odd code's
// low bits above the even code's low nibble. The rest as the portable path does.
MINIFLOAT_ARRAY_FN void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n,
                                          std::uint8_t* packed) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const uint8x16x2_t pairs = vld2q_u8(codes + i);
    vst1q_u8(packed + i / 2, vsliq_n_u8(pairs.val[0], pairs.val[1], 4));
  }
  pack_nibble_pairs_portable(codes + i, n - i, packed + i / 2);
}

// MXFP4 blocks from the start while their products stay normal (kernels_portable.hpp:
// decode_e2m1_blocks_portable); returns how many it decoded. Per block: e2m1's 16 bfloat16
// patterns with the block's step added to the non-zero ones' exponent fields (two 8-word
// additions), split by UZP1 / UZP2 into a table of their low bytes and one of their high bytes;
// the block's bytes split into nibbles and zipped into element order (ggml's order: not zipped);
// two TBL lookups per 16
// elements; and ST2 (bfloat16: low byte, high byte) or ST4 (float: two zero bytes, then those)
// interleaves them into the results as it stores. Byte order: little-endian (the caller's
// check).
template <class To, class Blocks>
MINIFLOAT_ARRAY_FN std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
  constexpr bool ggml_order = Blocks::ggml_order;
  const uint16x8_t patterns[2] = {vld1q_u16(e2m1_bfloat16_words.data()),
                                  vld1q_u16(e2m1_bfloat16_words.data() + 8)};
  const uint16x8_t magnitude = vdupq_n_u16(0x7FFF);
  const uint16x8_t nonzero[2] = {vtstq_u16(patterns[0], magnitude),
                                 vtstq_u16(patterns[1], magnitude)};
  const uint8x16_t low_nibble = vdupq_n_u8(0x0F);
  const uint8x16_t zero = vdupq_n_u8(0);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint8_t scale = in.scale(b);
    if (!mx_fp4_block_is_normal(scale)) {
      return b;
    }
    const uint16x8_t step = vdupq_n_u16(static_cast<std::uint16_t>((scale - 127U) << 7));
    const uint8x16_t words[2] = {
        vreinterpretq_u8_u16(vaddq_u16(patterns[0], vandq_u16(step, nonzero[0]))),
        vreinterpretq_u8_u16(vaddq_u16(patterns[1], vandq_u16(step, nonzero[1])))};
    const uint8x16_t low_bytes = vuzp1q_u8(words[0], words[1]);
    const uint8x16_t high_bytes = vuzp2q_u8(words[0], words[1]);
    const uint8x16_t bytes = vld1q_u8(in.bytes(b));
    const uint8x16_t low = vandq_u8(bytes, low_nibble);
    const uint8x16_t high = vshrq_n_u8(bytes, 4);
    // (ggml_order: the low nibbles are elements 0-15, the high ones 16-31.)
    const uint8x16_t codes[2] = {ggml_order ? low : vzip1q_u8(low, high),
                                 ggml_order ? high : vzip2q_u8(low, high)};
    auto* out = reinterpret_cast<std::uint8_t*>(dst + 2 * mx_fp4_block_bytes * b);
    MINIFLOAT_UNROLLED
    for (std::size_t k = 0; k < 2; ++k) {
      const uint8x16_t low_half = vqtbl1q_u8(low_bytes, codes[k]);
      const uint8x16_t high_half = vqtbl1q_u8(high_bytes, codes[k]);
      if constexpr (std::is_same<To, float>::value) {
        vst4q_u8(out + 64 * k, uint8x16x4_t{{zero, zero, low_half, high_half}});
      } else {
        vst2q_u8(out + 32 * k, uint8x16x2_t{{low_half, high_half}});
      }
    }
  }
  static_cast<void>(zero);
  return blocks;
}

#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
#undef MINIFLOAT_UNROLLED
#undef MINIFLOAT_ROLLED
} // namespace neon

// The NEON path (detail/kernels_portable.hpp has the interface). No streaming stores.
struct neon_kernels {
  static constexpr const char* name = "neon";
  static constexpr lane_capabilities capabilities = neon::capabilities;
  // quantize_block_groups and quantize_block_rows (below) exist.
  static constexpr bool quantizes_block_groups = true;
  // quantize_block_groups also for FP4 elements, packed two per byte (store_nibble_pairs4).
  static constexpr bool quantizes_fp4_block_groups = false;
  // quantize_ggml_block_groups (ggml's MXFP4 blocks, two per store of 16 lanes) exists.
  static constexpr bool quantizes_ggml_block_groups = false;

  template <class Target, rounding_rule Rule, overflow Overflow, class Source, class Random,
            class Tally = no_tally>
  static void encode(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                     Tally&& tally = Tally{}, stores /*mode*/ = stores::cached) {
    constexpr step2_variant variant = step2_for<formats::binary32, Target, Rule>(capabilities);
    neon::encode_array<Target, Rule, Overflow, variant>(src, n, codes, random, tally);
  }
  // Byte lookups over the results' bytes; a float is its bfloat16 pattern << 16.
  template <class Format, class To>
  static void decode(const std::uint8_t* codes, std::size_t n, To* dst, stores /*mode*/) {
    using lookup = byte_lookup_for<Format, To>;
    constexpr const byte_plane_table& planes = lookup::planes;
    neon::decode_array<planes.sign_symmetric>(planes, codes, n,
                                              reinterpret_cast<typename lookup::result_bits*>(dst));
  }
  static std::uint32_t max_magnitude_bits(const float* src, std::size_t n) {
    return neon::max_magnitude_bits(src, n);
  }
  // Per block of block_size floats by `rows` rows `stride` floats apart (the block quantizers').
  static void block_max_magnitude_bits(const float* src, std::size_t blocks, std::size_t block_size,
                                       std::uint32_t* out, std::size_t rows = 1,
                                       std::size_t stride = 0) {
    neon::block_max_magnitude_bits(src, blocks, block_size, out, rows, stride);
  }
  // One-row blocks of Size floats quantized `width` side by side at a time in one pass
  // (lanes.inc quantize_block_groups); returns the blocks done.
  // (counts: a report's, for FP4 elements, lanes.inc quantize_block_groups; nullptr: none.)
  template <class Target, std::size_t Size, class Rule, class Counts = no_tally>
  static std::size_t quantize_block_groups(const float* src, std::size_t blocks,
                                           std::uint8_t* codes, const Rule& rule,
                                           const float* prefetch_end, Counts* counts = nullptr) {
    return neon::quantize_block_groups<Target, Size>(
        src, blocks, codes, rule, neon::group_max_by_blocks<Size>{}, prefetch_end, counts);
  }
  // One block of `rows` rows of Size floats (row r at src + r * stride, its codes at
  // codes + r * stride) narrowed by its factor while the next block's amax is read into
  // *next_amax and the one after it, after_next, is prefetched (lanes.inc
  // quantize_block_rows; nullptr: none).
  template <class Target, std::size_t Size>
  static bool quantize_block_rows(const float* src, std::size_t rows, std::size_t stride,
                                  float factor, std::uint8_t* codes, const float* next,
                                  const float* after_next, std::uint32_t* next_amax) {
    *next_amax =
        neon::quantize_block_rows<Target, Size>(src, rows, stride, factor, codes, next, after_next);
    return true;
  }
  // The blocks' scales and their inverses as float bits (blocks [0, count) rounded up to a
  // multiple of the path's width; lanes.inc block_scales).
  static void block_scales(const std::uint32_t* largest, std::size_t count, float max_value,
                           int margin, bool power_of_two, std::uint32_t* scales,
                           std::uint32_t* inverses) {
    neon::block_scales(largest, count, max_value, margin, power_of_two, scales, inverses);
  }
  // quantize_mx's scale codes and factors (lanes.inc mx_scale_codes; blocks [0, count) rounded
  // up to a multiple of the path's width).
  static bool mx_scale_codes(const std::uint32_t* amax_bits, std::size_t count, std::uint32_t low,
                             std::uint32_t above_once, std::uint32_t above_twice,
                             std::uint8_t* codes, std::uint32_t* factors) {
    return neon::mx_scale_codes(amax_bits, count, low, above_once, above_twice, codes, factors);
  }
  // NVFP4's element factors from the scale bytes' values (lanes.inc nvfp4_factors; blocks
  // [0, count) rounded up to a multiple of the path's width).
  static void nvfp4_factors(const float* bytes, std::size_t count, float decode,
                            std::uint32_t* factors) {
    neon::nvfp4_factors(bytes, count, decode, factors);
  }
  // FP4 codes (one per byte) packed two per byte, n even.
  static void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed) {
    neon::pack_nibble_pairs(codes, n, packed);
  }
  // NVFP4 blocks into float or bfloat16_bits: the portable loop.
  template <class To>
  static void decode_nvfp4_blocks(const std::uint8_t* packed, const std::uint8_t* scale_codes,
                                  std::size_t blocks, float decode, To* dst) {
    decode_nvfp4_blocks_portable(packed, scale_codes, blocks, decode, dst);
  }
  // MXFP4 blocks from the start while their products stay normal: byte-table lookups (the
  // portable loop on a big-endian AArch64).
  template <class To, class Blocks>
  static std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
    if constexpr (little_endian) {
      return neon::decode_e2m1_blocks<To>(in, blocks, dst);
    } else {
      return decode_e2m1_blocks_portable<To>(in, blocks, dst);
    }
  }
};

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_KERNELS_NEON_HPP
