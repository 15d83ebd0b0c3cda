// minifloat: the counter-based generator of random bits for stochastic rounding. The value for
// a counter depends on nothing else (no state), so any element of a bulk call can be computed
// alone: element i of stochastic_convert(src, dst, counter_generator{seed, offset}) is
// stochastic_cast(src[i], counter_generator{seed, offset}(i)), whichever kernel runs, however a
// caller splits the array among threads (give each part the offset of its first element).
//
// The value for seed s and counter c = offset + i (64-bit arithmetic, wrapping) is
//     key = mix32(hi32(c) ^ mix32(hi32(s) ^ mix32(lo32(s))))
//     bits = mix32(mix32(lo32(c) ^ lo32(s)) ^ key)
// where mix32 is the "lowbias32" integer hash (x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15;
// x *= 0x846ca68b; x ^= x >> 16), a bijection on 32-bit words with good avalanche. Within one
// run of 2^32 counters the values are distinct; it is a hash, not a cryptographic generator.
#ifndef MINIFLOAT_RANDOM_HPP
#define MINIFLOAT_RANDOM_HPP

#include "config.hpp"

namespace minifloat {

namespace detail {
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t mix32(std::uint32_t x) noexcept {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t low_half(std::uint64_t x) noexcept {
  return static_cast<std::uint32_t>(x);
}
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t high_half(std::uint64_t x) noexcept {
  return static_cast<std::uint32_t>(x >> 32);
}
} // namespace detail

struct counter_generator {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0; // the counter of element 0

  // The key shared by the 2^32 counters with the same high half.
  MINIFLOAT_HOST_DEVICE constexpr std::uint32_t key(std::uint32_t counter_high) const noexcept {
    using detail::mix32;
    return mix32(counter_high ^ mix32(detail::high_half(seed) ^ mix32(detail::low_half(seed))));
  }
  // The random bits for counter c, given key(hi32(c)).
  MINIFLOAT_HOST_DEVICE static constexpr std::uint32_t
  bits(std::uint32_t counter_low, std::uint32_t seed_low, std::uint32_t key) noexcept {
    return detail::mix32(detail::mix32(counter_low ^ seed_low) ^ key);
  }
  // The random bits for element i.
  MINIFLOAT_HOST_DEVICE constexpr std::uint32_t operator()(std::uint64_t i) const noexcept {
    const std::uint64_t counter = offset + i;
    return bits(detail::low_half(counter), detail::low_half(seed), key(detail::high_half(counter)));
  }
};

namespace detail {
// The other sources of random bits for the array kernels: none (deterministic rounding), and
// the caller's array (element i takes bits[i]).
struct no_random_bits {};
// A float array read as x * scale (the array kernels' source for quantization). Into a signed
// 8-bit format the scale must be positive and finite (quantize checks it), so that x * scale has
// x's sign, a NaN too: the AVX2 kernel takes the codes' signs from x (lanes.inc
// sign_source_bits).
struct scaled_floats {
  const float* data;
  float scale;
  MINIFLOAT_ALWAYS_INLINE scaled_floats operator+(std::size_t i) const { return {data + i, scale}; }
};
// A float array read as x * factors[block]: element i of the array (counted from the array's
// start, `first` for data[0]) by its block's factor factors[i >> block_shift] (the block
// quantizers' source). Blocks hold 2^block_shift >= 16 elements, a multiple of every path's
// vector width, and arrays are whole blocks, so that no vector straddles two blocks.
// A call narrows one piece of the caller's array: the kernels prefetch the element
// `prefetch_ahead` past the one they read (0: none), the next piece's, where it lies before
// `prefetch_end` (the end of the caller's array, or of the row).
struct block_scaled_floats {
  const float* data;
  const float* factors;
  unsigned block_shift;
  std::size_t first;
  const float* prefetch_end;
  std::size_t prefetch_ahead;
  MINIFLOAT_ALWAYS_INLINE block_scaled_floats operator+(std::size_t i) const {
    return {data + i, factors, block_shift, first + i, prefetch_end, prefetch_ahead};
  }
  MINIFLOAT_ALWAYS_INLINE float factor() const { return factors[first >> block_shift]; }
};
constexpr unsigned smallest_scaled_block_shift = 4;
// The scale rules of the block quantizers' one-pass kernels (lanes.inc quantize_block_groups):
// how each block's factor comes from its amax, and where the scales go.
// quantize_blocks: the factor is compute_scale<T>(amax, margin, rounding), with max_value max(T),
// and 1 / factor goes to inverses[block].
struct computed_block_scales {
  float max_value;
  int margin;
  bool power_of_two;
  float* inverses;
};
// quantize_mx: the scale code (mx_scale_code, with its rule's thresholds) goes to codes[block],
// and the factor is 2^-k.
struct mx_block_scales {
  std::uint32_t low;
  std::uint32_t above_once;
  std::uint32_t above_twice;
  std::uint8_t* codes;
};
// quantize_nvfp4: the scale byte ue4m3(amax * byte_factor) goes to codes[block], and the factor
// is 1 / (byte's value * decode), at most FLT_MAX.
struct nvfp4_block_scales {
  float byte_factor;
  float decode;
  std::uint8_t* codes;
};
// The all-floats sweeps' door to the one-pass kernel (tests/exhaustive_test.cpp): every factor
// 1 and no scale output, so that the kernel narrows the floats themselves.
struct unit_block_scales {};
struct random_bits_array {
  const std::uint32_t* bits;
};
} // namespace detail

} // namespace minifloat

#endif // MINIFLOAT_RANDOM_HPP
