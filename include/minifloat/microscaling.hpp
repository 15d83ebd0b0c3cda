// minifloat: block-scaled 4- and 6-bit tensors in the layouts models ship (docs/spec.md §7).
//   quantize_mx_packed<T>(x, n, packed, scales, rule)    MXFP4 / MXFP6: 32 elements per e8m0
//   dequantize_mx_packed<T>(packed, n, scales, x)        scale, scales in their own array, the
//                                                        elements packed (packed.hpp): gpt-oss,
//                                                        torchao, ModelOpt, DeepSeek-V4
//   quantize_mxfp4_ggml(x, n, blocks, rule)              ggml / GGUF block_mxfp4: the scale
//   dequantize_mxfp4_ggml(blocks, n, x)                  interleaved, split-half nibbles
//   nvfp4_tensor_scale / quantize_nvfp4 / dequantize_nvfp4
//                                                        NVFP4: 16 e2m1 per ue4m3 scale byte
//                                                        and one float tensor scale,
//                                                        Transformer Engine's recipe bit for bit
// The element codes are quantize_mx's (scaling.hpp) bit for bit; decoding is exact into float
// and bfloat16 (products past the largest give +-inf; results in the subnormal range are exact
// whatever DAZ / FTZ say). Arguments are checked first (error.hpp): n must fill whole blocks.
#ifndef MINIFLOAT_MICROSCALING_HPP
#define MINIFLOAT_MICROSCALING_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "packed.hpp"
#include "scaling.hpp"

namespace minifloat {

// ggml's MXFP4 block (GGUF type MXFP4, llama.cpp block_mxfp4): 17 bytes, the e8m0 scale code,
// then 16 bytes where byte j holds element j in bits 0-3 and element j + 16 in bits 4-7.
struct block_mxfp4 {
  std::uint8_t scale;
  std::uint8_t elements[16];
};
static_assert(sizeof(block_mxfp4) == 17, "ggml's block is 17 bytes");

// NVFP4's block size: 16 e2m1 elements share one ue4m3 scale byte.
constexpr std::size_t nvfp4_block_size = 16;

// NVFP4's per-tensor scale (docs/spec.md §7), as Transformer Engine computes it from the
// tensor's amax: encode = 2688 / amax (2688 = 6 * 448: the largest element times the largest
// scale byte), 1 where amax is 0 or the quotient is 0 or not finite, at most FLT_MAX; decode =
// 1 / encode. Checkpoints store one of the two, under a name of their own:
//   ModelOpt ("weight_scale_2", "input_scale"): the decode scale, amax / 2688;
//   compressed-tensors ("weight_global_scale"): the encode scale, 2688 / amax.
struct nvfp4_tensor_scale {
  float encode;
  float decode;

  static nvfp4_tensor_scale from_amax(float amax) noexcept;
  // From a stored scale, naming its convention: from_decode_scale(modelopt_weight_scale_2),
  // from_encode_scale(compressed_tensors_global_scale). The other is its reciprocal.
  static nvfp4_tensor_scale from_decode_scale(float decode) noexcept {
    return {1.0f / decode, decode};
  }
  static nvfp4_tensor_scale from_encode_scale(float encode) noexcept {
    return {encode, 1.0f / encode};
  }
};

inline nvfp4_tensor_scale nvfp4_tensor_scale::from_amax(float amax) noexcept {
  // On the bits (docs/spec.md §8): a zero, negative or NaN amax, and a quotient that is 0, or
  // past FLT_MAX (FLT_MAX itself is kept: "at most FLT_MAX").
  const std::uint32_t amax_bits = detail::float_bits(amax);
  float encode = 1.0f;
  if (amax_bits != 0 && amax_bits < detail::float_infinity_bits) {
    const float quotient = 2688.0f / amax;
    const std::uint32_t bits = detail::float_bits(quotient);
    encode = bits == 0 ? 1.0f : bits >= detail::float_infinity_bits ? 0x1.fffffep127f : quotient;
  }
  return {encode, 1.0f / encode};
}

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The checks of a block call: n fills whole blocks, nothing null with elements to touch, no
// written array overlapping another one.
inline void check_blocks_of(const char* function, std::size_t n, std::size_t block,
                            const char* multiple) {
  if (n % block != 0) {
    refuse(function, "n is not a multiple of ", multiple);
  }
}

// Element j of a ggml block sits in byte j % 16, low nibble for j < 16. Eight bytes at a time
// in 64-bit words: a code (below 16) shifted by 4 stays in its byte, and so does a byte's high
// nibble shifted down (the neighbour's low nibble that comes with it is masked off), whatever
// the byte order.
inline void to_ggml_order(const std::uint8_t* codes, std::uint8_t* bytes) noexcept {
  for (std::size_t half = 0; half < 16; half += 8) {
    std::uint64_t low;
    std::uint64_t high;
    std::memcpy(&low, codes + half, 8);
    std::memcpy(&high, codes + 16 + half, 8);
    const std::uint64_t both = low | high << 4;
    std::memcpy(bytes + half, &both, 8);
  }
}
inline void from_ggml_order(const std::uint8_t* bytes, std::uint8_t* codes) noexcept {
  constexpr std::uint64_t low_nibbles = 0x0F0F0F0F0F0F0F0FU;
  for (std::size_t half = 0; half < 16; half += 8) {
    std::uint64_t both;
    std::memcpy(&both, bytes + half, 8);
    const std::uint64_t low = both & low_nibbles;
    const std::uint64_t high = both >> 4 & low_nibbles;
    std::memcpy(codes + half, &low, 8);
    std::memcpy(codes + 16 + half, &high, 8);
  }
}

// Blocks per piece of the packed decoders: 512 elements, in the first-level cache. (The
// quantizers take quantize_mx's pieces, mx_quantize_piece_blocks.)
constexpr std::size_t mx_piece_blocks = 16;

// Packed MXFP4 -> float or bfloat16_bits (To), blocks of 32 (16 bytes) with their e8m0 scales:
// the path's kernel decodes blocks while their products stay normal (scale codes 2 to 252:
// nibble lookup, the scale added to the exponent field) and says where it stopped; a block it
// stops at, NaN scales included, goes through dequantize_mx's exact steps.
// Blocks: packed_mxfp4_blocks or ggml_mxfp4_blocks (kernels_portable.hpp); a block the kernel
// stops at is put in element order first.
template <class To, class Blocks>
void dequantize_mxfp4_unchecked(Blocks in, std::size_t blocks, To* x) {
  with_kernels(active_path(), [&](auto kernels) {
    for (std::size_t b = 0; b < blocks; ++b) {
      b += kernels.template decode_e2m1_blocks<To>(in.from(b), blocks - b, x + b * mx_block_size);
      if (b == blocks) {
        break;
      }
      e2m1 elements[mx_block_size];
      if constexpr (Blocks::ggml_order) {
        std::uint8_t codes[mx_block_size];
        from_ggml_order(in.bytes(b), codes);
        for (std::size_t j = 0; j < mx_block_size; ++j) {
          elements[j] = e2m1::from_bits(codes[j]);
        }
      } else {
        unpack_unchecked(in.bytes(b), mx_block_size, elements);
      }
      const e8m0 scale = e8m0::from_bits(in.scale(b));
      dequantize_mx_unchecked(elements, 1, &scale, x + b * mx_block_size);
    }
  });
}

// quantize_mx_packed, with a report or without (Tally).
template <class T, class Tally>
void quantize_mx_packed_checked(const float* x, std::size_t n, std::uint8_t* packed, e8m0* scales,
                                mx_scale_rule rule, Tally&& tally) {
  static_assert(is_packable<T>, "quantize_mx_packed: e2m1, e2m3 or e3m2 elements");
  const char* function = "quantize_mx_packed";
  detail::check_blocks_of(function, n, mx_block_size, "32");
  const std::size_t blocks = n / mx_block_size;
  const detail::array_argument x_read{x, n * sizeof(float), "x"};
  const detail::array_argument packed_written{packed, packed_bytes<T>(n), "packed"};
  const detail::array_argument scales_written{scales, blocks, "scales"};
  detail::check_pair(function, x_read, packed_written, n, "x or packed");
  detail::check_pair(function, x_read, scales_written, blocks, "scales", "");
  detail::check_no_overlap(function, scales_written, packed_written);
  detail::check_mx_scale_rule(function, rule);
  alignas(64) T codes[detail::mx_quantize_piece_blocks * mx_block_size];
  std::size_t m = 0;
  for (std::size_t b = 0; b < blocks; b += m) {
    // MXFP4: whole groups of blocks side by side in one pass where the active path has the
    // kernel (quantize_block_groups, FP4 packed as it goes), without a report or with one that
    // only counts (fp4_block_groups), as quantize_mx takes them for 8-bit elements; a group with
    // a scale code of 254 or 0xFF, and the last blocks, as below.
    if constexpr (std::is_same<T, e2m1>::value) {
      const mx_scale_thresholds thresholds = mx_thresholds<T>(rule);
      const mx_block_scales codes_rule{thresholds.low, thresholds.above_once,
                                       thresholds.above_twice,
                                       reinterpret_cast<std::uint8_t*>(scales + b)};
      b += fp4_block_groups(tally, [&](auto* counts) {
        return quantize_fp4_block_groups_on_path<T, mx_block_size>(
            x + b * mx_block_size, blocks - b, packed + packed_bytes<T>(b * mx_block_size),
            codes_rule, prefetch_ahead(n, 1) != 0 ? x + n : nullptr, counts);
      });
      if (b == blocks) {
        break;
      }
    }
    m = detail::smaller(detail::mx_quantize_piece_blocks, blocks - b);
    if constexpr (std::is_same<T, e2m1>::value) {
      m = general_piece_blocks(tally, m);
    }
    detail::quantize_mx_unchecked(x + b * mx_block_size, m, codes, scales + b, rule, x + n, tally);
    detail::pack_unchecked(codes, m * mx_block_size, packed + packed_bytes<T>(b * mx_block_size));
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// MXFP4 / MXFP6 with packed elements: quantize_mx<T>'s scales and codes (n a multiple of 32),
// the codes packed in T's layout (packed.hpp) into packed_bytes<T>(n) bytes.
template <class T>
void quantize_mx_packed(const float* x, std::size_t n, std::uint8_t* packed, e8m0* scales,
                        mx_scale_rule rule = mx_scale_rule::floor) {
  detail::quantize_mx_packed_checked<T>(x, n, packed, scales, rule, detail::no_tally{});
}
// The same, filling a report of the scaled elements' conversions (report.hpp).
template <class T>
void quantize_mx_packed(const float* x, std::size_t n, std::uint8_t* packed, e8m0* scales,
                        conversion_report& report, mx_scale_rule rule = mx_scale_rule::floor) {
  detail::filling(report, n, [&](auto& tally) {
    detail::quantize_mx_packed_checked<T>(x, n, packed, scales, rule, tally);
  });
}

// The inverse, into float or bfloat16_bits: dequantize_mx of the unpacked codes.
template <class T, class To>
void dequantize_mx_packed(const std::uint8_t* packed, std::size_t n, const e8m0* scales, To* x) {
  static_assert(is_packable<T>, "dequantize_mx_packed: e2m1, e2m3 or e3m2 elements");
  static_assert(std::is_same<To, float>::value || std::is_same<To, bfloat16_bits>::value,
                "dequantize_mx_packed: the target is float or bfloat16_bits");
  const char* function = "dequantize_mx_packed";
  detail::check_blocks_of(function, n, mx_block_size, "32");
  const std::size_t blocks = n / mx_block_size;
  const detail::array_argument x_written{x, n * sizeof(To), "x"};
  detail::check_pair(function, {packed, packed_bytes<T>(n), "packed"}, x_written, n, "packed or x");
  detail::check_pair(function, {scales, blocks, "scales"}, x_written, blocks, "scales", "");
  if constexpr (std::is_same<T, e2m1>::value) {
    static_assert(sizeof(e8m0) == 1, "scale codes are bytes");
    detail::dequantize_mxfp4_unchecked(
        detail::packed_mxfp4_blocks{packed, reinterpret_cast<const std::uint8_t*>(scales)}, blocks,
        x);
  } else {
    alignas(64) T codes[detail::mx_piece_blocks * mx_block_size];
    for (std::size_t b = 0; b < blocks; b += detail::mx_piece_blocks) {
      const std::size_t m = detail::smaller(detail::mx_piece_blocks, blocks - b);
      detail::unpack_unchecked(packed + packed_bytes<T>(b * mx_block_size), m * mx_block_size,
                               codes);
      detail::dequantize_mx_unchecked(codes, m, scales + b, x + b * mx_block_size);
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// quantize_mxfp4_ggml, with a report or without (Tally).
template <class Tally>
void quantize_mxfp4_ggml_checked(const float* x, std::size_t n, block_mxfp4* blocks,
                                 mx_scale_rule rule, Tally&& tally) {
  const char* function = "quantize_mxfp4_ggml";
  detail::check_blocks_of(function, n, mx_block_size, "32");
  const std::size_t count = n / mx_block_size;
  detail::check_pair(function, {x, n * sizeof(float), "x"},
                     {blocks, count * sizeof(block_mxfp4), "blocks"}, n, "x or blocks");
  detail::check_mx_scale_rule(function, rule);
  // A piece of blocks at a time: quantize_mx's codes and scales, then each block's bytes.
  static_assert(sizeof(e2m1) == 1 && sizeof(e8m0) == 1, "a value is its code");
  alignas(64) e2m1 codes[mx_quantize_piece_blocks * mx_block_size];
  e8m0 scales[mx_quantize_piece_blocks];
  std::size_t m = 0;
  for (std::size_t b = 0; b < count; b += m) {
    // Whole groups of blocks side by side in one pass where the active path has the kernel
    // (quantize_block_groups, which writes whole blocks: the scale byte, then the element bytes
    // in ggml's order), without a report or with one that only counts (fp4_block_groups). A
    // group with a scale code of 254 or 0xFF, and the last blocks, as below.
    {
      const std::size_t most = detail::smaller(mx_quantize_piece_blocks, count - b);
      const mx_scale_thresholds thresholds = mx_thresholds<e2m1>(rule);
      std::uint8_t scale_codes[mx_quantize_piece_blocks];
      const mx_block_scales codes_rule{thresholds.low, thresholds.above_once,
                                       thresholds.above_twice, scale_codes};
      const std::size_t done = fp4_block_groups(tally, [&](auto* counts) {
        std::size_t blocks_done = 0;
        detail::with_kernels(active_path(), [&](auto kernels) {
          using path = decltype(kernels);
          if constexpr (path::quantizes_ggml_block_groups) {
            blocks_done = path::quantize_ggml_block_groups(
                x + b * mx_block_size, most, reinterpret_cast<std::uint8_t*>(blocks + b),
                codes_rule, prefetch_ahead(n, 1) != 0 ? x + n : nullptr, counts);
          }
        });
        return blocks_done;
      });
      if (done != 0) {
        m = done;
        continue;
      }
    }
    m = general_piece_blocks(tally, detail::smaller(mx_quantize_piece_blocks, count - b));
    detail::quantize_mx_unchecked(x + b * mx_block_size, m, codes, scales, rule, x + n, tally);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(codes);
    for (std::size_t k = 0; k < m; ++k) {
      blocks[b + k].scale = scales[k].bits();
      detail::to_ggml_order(bytes + k * mx_block_size, blocks[b + k].elements);
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// MXFP4 in ggml's blocks (n a multiple of 32; n / 32 blocks): quantize_mx<e2m1>'s scale and
// codes, in block_mxfp4's order. (llama.cpp's own quantizer takes the floor rule but breaks
// element ties to the lower code, not to even: its bytes can differ from these at midpoints.)
inline void quantize_mxfp4_ggml(const float* x, std::size_t n, block_mxfp4* blocks,
                                mx_scale_rule rule = mx_scale_rule::floor) {
  detail::quantize_mxfp4_ggml_checked(x, n, blocks, rule, detail::no_tally{});
}
// The same, filling a report of the scaled elements' conversions (report.hpp).
inline void quantize_mxfp4_ggml(const float* x, std::size_t n, block_mxfp4* blocks,
                                conversion_report& report,
                                mx_scale_rule rule = mx_scale_rule::floor) {
  detail::filling(report, n, [&](auto& tally) {
    detail::quantize_mxfp4_ggml_checked(x, n, blocks, rule, tally);
  });
}

// The inverse, into float or bfloat16_bits (n a multiple of 32).
template <class To>
void dequantize_mxfp4_ggml(const block_mxfp4* blocks, std::size_t n, To* x) {
  static_assert(std::is_same<To, float>::value || std::is_same<To, bfloat16_bits>::value,
                "dequantize_mxfp4_ggml: the target is float or bfloat16_bits");
  const char* function = "dequantize_mxfp4_ggml";
  detail::check_blocks_of(function, n, mx_block_size, "32");
  const std::size_t count = n / mx_block_size;
  detail::check_pair(function, {blocks, count * sizeof(block_mxfp4), "blocks"},
                     {x, n * sizeof(To), "x"}, n, "blocks or x");
  // The blocks where they lie (their element bytes and scale codes 17 bytes apart), decoded in
  // ggml's nibble order as dequantize_mx_packed decodes its own.
  static_assert(offsetof(block_mxfp4, scale) == 0 && offsetof(block_mxfp4, elements) == 1,
                "ggml's block: the scale code, then the element bytes");
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(blocks);
  static_assert(sizeof(block_mxfp4) == 17, "ggml_mxfp4_blocks' strides");
  detail::dequantize_mxfp4_unchecked(detail::ggml_mxfp4_blocks{bytes + 1, bytes}, count, x);
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// quantize_nvfp4, with a report or without (Tally).
template <class Tally>
void quantize_nvfp4_checked(const float* x, std::size_t n, std::uint8_t* packed, ue4m3* scales,
                            nvfp4_tensor_scale tensor_scale, Tally&& tally) {
  const char* function = "quantize_nvfp4";
  detail::check_blocks_of(function, n, nvfp4_block_size, "16");
  const std::size_t blocks = n / nvfp4_block_size;
  const detail::array_argument x_read{x, n * sizeof(float), "x"};
  const detail::array_argument packed_written{packed, n / 2, "packed"};
  const detail::array_argument scales_written{scales, blocks, "scales"};
  detail::check_pair(function, x_read, packed_written, n, "x or packed");
  detail::check_pair(function, x_read, scales_written, blocks, "scales", "");
  detail::check_no_overlap(function, scales_written, packed_written);
  detail::check_positive_finite(function, tensor_scale.encode, "the encode scale");
  detail::check_positive_finite(function, tensor_scale.decode, "the decode scale");
  const float byte_factor = tensor_scale.encode * (1.0f / 6.0f);
  // Per piece of 128 blocks (8 KiB of floats, which stay in the first-level cache between the
  // passes): the amaxes; the bytes, quantize()'s product amax_b * byte_factor narrowed to ue4m3
  // (nearest-even, saturating) in one kernel call; the factors, `width` blocks at a time (the
  // path's nvfp4_factors); then one narrowing of the piece on the active path, each element
  // times its block's factor as it is read, and the packing.
  constexpr std::size_t piece = 128;
  // (Local arrays the kernels read or write in whole vectors start on a cache line: a 64-byte
  // store across two lines costs both. Unaligned, quantize_nvfp4 of 4 Ki floats on AVX-512 ran
  // at 4.4 to 5.0 el/ns depending on where the stack fell; aligned, at 4.7 to 5.0.)
  alignas(64) e2m1 codes[piece * nvfp4_block_size];
  std::size_t count = 0;
  for (std::size_t first = 0; first < blocks; first += count) {
    // Whole groups of blocks side by side in one pass where the active path has the kernel
    // (quantize_block_groups, FP4 packed as it goes), without a report or with one that only
    // counts (fp4_block_groups): the same operations, a group's amaxes, bytes and factors in
    // lanes. A group with an infinite or NaN amax, and the last blocks, as below.
    {
      static_assert(sizeof(ue4m3) == 1 && std::is_trivially_copyable<ue4m3>::value,
                    "ue4m3 is its code");
      const nvfp4_block_scales rule{byte_factor, tensor_scale.decode,
                                    reinterpret_cast<std::uint8_t*>(scales + first)};
      first += fp4_block_groups(tally, [&](auto* counts) {
        return quantize_fp4_block_groups_on_path<e2m1, nvfp4_block_size>(
            x + first * nvfp4_block_size, blocks - first, packed + first * nvfp4_block_size / 2,
            rule, prefetch_ahead(n, 1) != 0 ? x + n : nullptr, counts);
      });
      if (first == blocks) {
        break;
      }
    }
    count = general_piece_blocks(tally, detail::smaller(piece, blocks - first));
    // The amaxes' bits from the kernel, read as the floats they are (amax's rule; a NaN keeps
    // its payload, which changes nothing: the byte is NaN, and a signaling NaN's flag is raised
    // by its own element's product in the narrowing anyway). Converting each to amax()'s float
    // first, canonical NaN and all, took 4 % of the call on AVX-512.
    alignas(64) std::uint32_t amax_bits[piece];
    detail::with_kernels(active_path(), [&](auto kernels) {
      decltype(kernels)::block_max_magnitude_bits(x + first * nvfp4_block_size, count,
                                                  nvfp4_block_size, amax_bits);
    });
    alignas(64) float amaxes[piece];
    std::memcpy(amaxes, amax_bits, count * sizeof(float));
    detail::narrow_scaled(detail::scaled_floats{amaxes, byte_factor}, count, scales + first);
    // The bytes' values, then the factors. Past `count` (the factors' kernel reads whole
    // vectors) block 0's value again: no operation the blocks' own do not, so no floating-point
    // flag they would not raise.
    alignas(64) float byte_values[piece];
    alignas(64) std::uint32_t factor_bits[piece];
    detail::with_kernels(active_path(), [&](auto kernels) {
      decltype(kernels)::template decode<typename detail::value_traits<ue4m3>::format>(
          reinterpret_cast<const std::uint8_t*>(scales + first), count, byte_values,
          detail::stores::cached);
      for (std::size_t b = count; b < piece; ++b) {
        byte_values[b] = byte_values[0];
      }
      decltype(kernels)::nvfp4_factors(byte_values, count, tensor_scale.decode, factor_bits);
    });
    // (All of them, a fixed size: copied in vectors. Those past `count` are never read.)
    alignas(64) float factors[piece];
    std::memcpy(factors, factor_bits, sizeof factors);
    const std::size_t m = count * nvfp4_block_size;
    static_assert(nvfp4_block_size == std::size_t{1} << 4, "blocks of 2^4 elements");
    detail::narrow_scaled(detail::block_scaled_floats{x + first * nvfp4_block_size, factors, 4, 0,
                                                      x + n, detail::prefetch_ahead(n, 2048)},
                          m, codes, tally);
    detail::pack_unchecked(codes, m, packed + first * nvfp4_block_size / 2);
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// NVFP4 quantization, Transformer Engine's recipe bit for bit (docs/spec.md §7), n a multiple
// of 16: for each block of 16, in float arithmetic in this order,
//   byte = ue4m3(amax_b * (encode * (1 / 6))), nearest-even, saturating;
//   factor = 1 / (float(byte) * decode), at most FLT_MAX (a zero block stores byte 0, elements 0);
//   element = e2m1(x_i * factor), nearest-even (saturating: e2m1 always saturates).
// The elements are packed two per byte (packed.hpp), scales[b] is block b's byte. A NaN in a
// block makes its scale NaN (0x7F); its elements carry no meaning (e2m1 has no NaN).
inline void quantize_nvfp4(const float* x, std::size_t n, std::uint8_t* packed, ue4m3* scales,
                           nvfp4_tensor_scale tensor_scale) {
  detail::quantize_nvfp4_checked(x, n, packed, scales, tensor_scale, detail::no_tally{});
}
// The same, filling a report of the scaled elements' conversions (report.hpp).
inline void quantize_nvfp4(const float* x, std::size_t n, std::uint8_t* packed, ue4m3* scales,
                           nvfp4_tensor_scale tensor_scale, conversion_report& report) {
  detail::filling(report, n, [&](auto& tally) {
    detail::quantize_nvfp4_checked(x, n, packed, scales, tensor_scale, tally);
  });
}

// NVFP4 dequantization: x_i = float(element) * float(byte) * decode, in that order (float
// arithmetic, as Transformer Engine), into float, or that float rounded once more to bfloat16
// (nearest-even) for To = bfloat16_bits.
template <class To>
void dequantize_nvfp4(const std::uint8_t* packed, std::size_t n, const ue4m3* scales,
                      nvfp4_tensor_scale tensor_scale, To* x) {
  static_assert(std::is_same<To, float>::value || std::is_same<To, bfloat16_bits>::value,
                "dequantize_nvfp4: the target is float or bfloat16_bits");
  const char* function = "dequantize_nvfp4";
  detail::check_blocks_of(function, n, nvfp4_block_size, "16");
  const std::size_t blocks = n / nvfp4_block_size;
  const detail::array_argument x_written{x, n * sizeof(To), "x"};
  detail::check_pair(function, {packed, n / 2, "packed"}, x_written, n, "packed or x");
  detail::check_pair(function, {scales, blocks, "scales"}, x_written, blocks, "scales", "");
  // (A stored decode scale, from_decode_scale, may be anything: as quantize_nvfp4, a NaN,
  // infinite, zero or negative one is refused. The vector kernels OR each element's sign into
  // its product's magnitude, which holds for a positive decode only.)
  detail::check_positive_finite(function, tensor_scale.decode, "the decode scale");
  // Per block, the 16 products element · byte (exact: at most 8 significant bits, and normal,
  // or 0 or NaN); then one rounding, times decode, into float (the order stays TE's, whatever
  // -ffast-math allows), and for bfloat16 that float rounded on its bits: the active path's
  // kernel.
  static_assert(sizeof(ue4m3) == 1 && std::is_trivially_copyable<ue4m3>::value,
                "a scale is its code");
  const auto* scale_codes = reinterpret_cast<const std::uint8_t*>(scales);
  detail::with_kernels(active_path(), [&](auto kernels) {
    decltype(kernels)::template decode_nvfp4_blocks<To>(packed, scale_codes, blocks,
                                                        tensor_scale.decode, x);
  });
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace minifloat

#endif // MINIFLOAT_MICROSCALING_HPP
