// minifloat: conversions of whole arrays. Every element is converted exactly as the scalar
// functions of convert.hpp convert it, bit for bit, whichever path runs: AVX-512, AVX2 or the
// portable loop on x86-64, NEON or the portable loop on AArch64, chosen once at run time from
// the CPU (detail/dispatch.hpp: simd_path, active_path, and scoped_path, the door for tests
// and benchmarks to run a chosen path).
//
//   convert<R, O>(src, n, dst) / convert<R, O>(src_range, dst_range)
//       float, double, binary16_bits, bfloat16_bits -> any 8-bit type (rounding R, overflow O)
//       any 8-bit type -> float, binary16_bits, bfloat16_bits (exact except e8m0 -> binary16)
//   stochastic_convert<O>(src, n, random_bits, dst)   caller's 32 random bits per element
//   stochastic_convert<O>(src, n, dst, counter_generator{seed, offset})
//       float, double, binary16_bits, bfloat16_bits -> any 8-bit type, stochastic rounding
//   amax(src, n)   max |x| of a float array
//
// Arguments are checked before anything is written (error.hpp): a null pointer with n != 0,
// ranges of different sizes, and a destination that overlaps a source are refused (in-place
// conversion is not supported: the elements have different sizes). n == 0 does nothing.
// Every function is safe to call from many threads at once on different arrays.
#ifndef MINIFLOAT_BULK_HPP
#define MINIFLOAT_BULK_HPP

#include <cstddef>

#include "convert.hpp"
#include "error.hpp"
#include "random.hpp"
#include "detail/dispatch.hpp"

#if MINIFLOAT_HAS_RANGES
#include <ranges>
#include <span>
#endif

namespace minifloat {
namespace detail {

template <class T>
constexpr bool is_8bit_type = value_traits<T>::is_known && sizeof(T) == 1;

// Narrowing n elements on the active path: the path's lane kernels where the map (converter.hpp)
// has a lane variant for this source and target, the scalar conversion element by element
// otherwise (double sources).
template <rounding_rule Rule, overflow Overflow, class From, class To, class Random>
void narrow_array(const From* src, std::size_t n, To* dst, const Random& random) {
  using from_format = typename value_traits<From>::format;
  using to_format = typename value_traits<To>::format;
  if constexpr (step2_for<from_format, to_format, Rule>(portable_kernels::capabilities) !=
                step2_variant::generic) {
    auto* codes = reinterpret_cast<std::uint8_t*>(dst);
    with_kernels(active_path(), [&](auto kernels) {
      decltype(kernels)::template encode<to_format, Rule, Overflow>(src, n, codes, random);
    });
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits = 0;
      if constexpr (std::is_same<Random, random_bits_array>::value) {
        bits = random.bits[i];
      } else if constexpr (std::is_same<Random, counter_generator>::value) {
        bits = random(i);
      }
      dst[i] = convert_value<To, Rule, Overflow>(src[i], bits);
    }
  }
}

// x * scale narrowed to Target with saturation (quantization, docs/spec.md §5) on the active
// path, in one pass.
template <class Target>
void narrow_scaled(const float* x, std::size_t n, Target* q, float scale) {
  using format = typename value_traits<Target>::format;
  auto* codes = reinterpret_cast<std::uint8_t*>(q);
  with_kernels(active_path(), [&](auto kernels) {
    decltype(kernels)::template encode<format, rounding_rule::nearest_even, overflow::saturate>(
        scaled_floats{x, scale}, n, codes, no_random_bits{});
  });
}

// Widening n codes on the active path, exactly.
template <class From, class To>
void widen_array(const From* src, std::size_t n, To* dst) {
  const auto* codes = reinterpret_cast<const std::uint8_t*>(src);
  const stores mode = stores_for(n * sizeof(To));
  with_kernels(active_path(), [&](auto kernels) {
    decltype(kernels)::template decode<typename value_traits<From>::format>(codes, n, dst, mode);
  });
}

// amax's rule, for the loops here and in scaling.hpp: |x| folded into `largest` as bit patterns
// compared as integers (so a NaN beats everything), and the result read back as a float, any
// NaN as the canonical quiet NaN.
inline std::uint32_t fold_magnitude(std::uint32_t largest, float x) noexcept {
  const std::uint32_t magnitude = bit_cast<std::uint32_t>(x) & 0x7FFFFFFFU;
  return select(magnitude > largest, magnitude, largest);
}
inline float magnitude_as_amax(std::uint32_t largest) noexcept {
  return bit_cast<float>(select(largest > 0x7F800000U, 0x7FC00000U, largest));
}

// The checks every array conversion makes.
template <class From, class To>
void check_conversion(const char* function, const From* src, std::size_t n, const To* dst) {
  check_not_null(function, src == nullptr, n, "src");
  check_not_null(function, dst == nullptr, n, "dst");
  check_no_overlap(function, {dst, n * sizeof(To), "dst"}, {src, n * sizeof(From), "src"},
                   " (in-place conversion is not supported)");
}

} // namespace detail

// Converts n elements of src into dst: narrowing (float, double, binary16_bits, bfloat16_bits
// -> an 8-bit type) with rounding R and overflow rule O, or widening (an 8-bit type -> float,
// binary16_bits, bfloat16_bits), exact. Element i equals convert<To, R, O>(src[i]).
template <rounding R = rounding::nearest_even, overflow O = overflow::non_saturating, class From,
          class To>
void convert(const From* src, std::size_t n, To* dst) {
  static_assert(detail::value_traits<From>::is_known && detail::value_traits<To>::is_known,
                "convert: arrays of fp8 types, float, double, binary16_bits or bfloat16_bits");
  static_assert(detail::is_8bit_type<From> != detail::is_8bit_type<To>,
                "convert: one side of an array conversion is an 8-bit type");
  detail::check_conversion("convert", src, n, dst);
  if constexpr (detail::is_8bit_type<To>) {
    detail::narrow_array<detail::rule_of(R), O>(src, n, dst, detail::no_random_bits{});
  } else {
    static_assert(!std::is_same<From, double>::value && !std::is_same<To, double>::value,
                  "convert: widening arrays go to float, binary16_bits or bfloat16_bits");
    detail::widen_array(src, n, dst);
  }
}

// Stochastic rounding of n values (float, double, binary16_bits, bfloat16_bits) with the
// caller's random bits: element i equals stochastic_cast<To, O>(src[i], random_bits[i]).
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, const std::uint32_t* random_bits, To* dst) {
  static_assert(detail::is_8bit_type<To>, "stochastic_convert: the target is an 8-bit type");
  static_assert(detail::value_traits<From>::is_known && !detail::is_8bit_type<From>,
                "stochastic_convert: the source is float, double, binary16_bits or bfloat16_bits");
  detail::check_conversion("stochastic_convert", src, n, dst);
  detail::check_not_null("stochastic_convert", random_bits == nullptr, n, "random_bits");
  detail::check_no_overlap("stochastic_convert", {dst, n, "dst"},
                           {random_bits, n * sizeof(std::uint32_t), "random_bits"});
  detail::narrow_array<detail::rounding_rule::stochastic, O>(
      src, n, dst, detail::random_bits_array{random_bits});
}

// Stochastic rounding of n values with counter_generator's bits: element i equals
// stochastic_cast<To, O>(src[i], generator(i)), on every path and however the array is split
// (convert elements [k, n) with counter_generator{seed, offset + k}).
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, To* dst, counter_generator generator) {
  static_assert(detail::is_8bit_type<To>, "stochastic_convert: the target is an 8-bit type");
  static_assert(detail::value_traits<From>::is_known && !detail::is_8bit_type<From>,
                "stochastic_convert: the source is float, double, binary16_bits or bfloat16_bits");
  detail::check_conversion("stochastic_convert", src, n, dst);
  detail::narrow_array<detail::rounding_rule::stochastic, O>(src, n, dst, generator);
}

// The largest magnitude max |src[i]| of n floats, for scaling (docs/spec.md §5): 0 for n == 0;
// +infinity if an element is infinite and none is NaN; a quiet NaN if any element is NaN (so
// that a poisoned tensor cannot pass for a finite one). -0 counts as 0. Exact, whatever the path.
inline float amax(const float* src, std::size_t n) {
  detail::check_not_null("amax", src == nullptr, n, "src");
  return detail::magnitude_as_amax(detail::with_kernels(
      active_path(), [&](auto kernels) { return decltype(kernels)::max_magnitude_bits(src, n); }));
}

#if MINIFLOAT_HAS_RANGES
// The same functions over contiguous ranges (std::span, std::vector, std::array, C arrays):
// the sizes must match.
template <class Range>
concept contiguous_sized_range =
    std::ranges::contiguous_range<Range> && std::ranges::sized_range<Range>;

template <rounding R = rounding::nearest_even, overflow O = overflow::non_saturating,
          contiguous_sized_range Source, contiguous_sized_range Target>
void convert(Source&& src, Target&& dst) {
  detail::check_same_size("convert", std::ranges::size(src) == std::ranges::size(dst),
                          "src and dst");
  convert<R, O>(std::ranges::data(src), std::ranges::size(src), std::ranges::data(dst));
}

template <overflow O = overflow::non_saturating, contiguous_sized_range Source,
          contiguous_sized_range Random, contiguous_sized_range Target>
void stochastic_convert(Source&& src, Random&& random_bits, Target&& dst) {
  detail::check_same_size("stochastic_convert",
                          std::ranges::size(src) == std::ranges::size(dst) &&
                              std::ranges::size(src) == std::ranges::size(random_bits),
                          "src, random_bits and dst");
  stochastic_convert<O>(std::ranges::data(src), std::ranges::size(src),
                        std::ranges::data(random_bits), std::ranges::data(dst));
}

template <overflow O = overflow::non_saturating, contiguous_sized_range Source,
          contiguous_sized_range Target>
void stochastic_convert(Source&& src, Target&& dst, counter_generator generator) {
  detail::check_same_size("stochastic_convert", std::ranges::size(src) == std::ranges::size(dst),
                          "src and dst");
  stochastic_convert<O>(std::ranges::data(src), std::ranges::size(src), std::ranges::data(dst),
                        generator);
}

inline float amax(std::span<const float> src) { return amax(src.data(), src.size()); }
#endif

} // namespace minifloat

#endif // MINIFLOAT_BULK_HPP
