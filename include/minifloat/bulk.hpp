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
// The narrowing functions also take a conversion_report& last (report.hpp), which they fill.
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
#include "detail/array_operations.hpp"

#if MINIFLOAT_HAS_RANGES
#include <iterator> // std::ranges::data, std::ranges::size (lighter than <ranges>)
#include <span>
#endif

namespace minifloat {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

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

// The narrowing conversion, filling a report of what it did to the values (report.hpp).
template <rounding R = rounding::nearest_even, overflow O = overflow::non_saturating, class From,
          class To>
void convert(const From* src, std::size_t n, To* dst, conversion_report& report) {
  static_assert(detail::value_traits<From>::is_known && !detail::is_8bit_type<From> &&
                    detail::is_8bit_type<To>,
                "convert with a report: float, double, binary16_bits or bfloat16_bits -> an "
                "8-bit type");
  detail::check_conversion("convert", src, n, dst);
  detail::filling(report, n, [&](auto& tally) {
    detail::narrow_array<detail::rule_of(R), O>(src, n, dst, detail::no_random_bits{}, tally);
  });
}

// Stochastic rounding of n values (float, double, binary16_bits, bfloat16_bits) with the
// caller's random bits: element i equals stochastic_cast<To, O>(src[i], random_bits[i]).
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, const std::uint32_t* random_bits, To* dst) {
  const detail::random_bits_array random{random_bits};
  detail::check_stochastic(src, n, dst, random);
  detail::narrow_array<detail::rounding_rule::stochastic, O>(src, n, dst, random);
}
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, const std::uint32_t* random_bits, To* dst,
                        conversion_report& report) {
  const detail::random_bits_array random{random_bits};
  detail::check_stochastic(src, n, dst, random);
  detail::filling(report, n, [&](auto& tally) {
    detail::narrow_array<detail::rounding_rule::stochastic, O>(src, n, dst, random, tally);
  });
}

// Stochastic rounding of n values with counter_generator's bits: element i equals
// stochastic_cast<To, O>(src[i], generator(i)), on every path and however the array is split
// (convert elements [k, n) with counter_generator{seed, offset + k}).
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, To* dst, counter_generator generator) {
  detail::check_stochastic(src, n, dst, generator);
  detail::narrow_array<detail::rounding_rule::stochastic, O>(src, n, dst, generator);
}
template <overflow O = overflow::non_saturating, class From, class To>
void stochastic_convert(const From* src, std::size_t n, To* dst, counter_generator generator,
                        conversion_report& report) {
  detail::check_stochastic(src, n, dst, generator);
  detail::filling(report, n, [&](auto& tally) {
    detail::narrow_array<detail::rounding_rule::stochastic, O>(src, n, dst, generator, tally);
  });
}

// The largest magnitude max |src[i]| of n floats, for scaling (docs/spec.md §5): 0 for n == 0;
// +infinity if an element is infinite and none is NaN; a quiet NaN if any element is NaN (so
// that a poisoned tensor cannot pass for a finite one). -0 counts as 0. Exact, whatever the path.
inline float amax(const float* src, std::size_t n) {
  detail::check_not_null("amax", src == nullptr, n, "src");
  return detail::largest_magnitude(src, n);
}

#if MINIFLOAT_HAS_RANGES
// The same functions over contiguous ranges (std::span, std::vector, std::array, C arrays):
// the sizes must match.
template <class Range>
concept contiguous_sized_range = requires(Range& range) {
  std::ranges::data(range); // a pointer to contiguous elements
  std::ranges::size(range);
};

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

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace minifloat

#endif // MINIFLOAT_BULK_HPP
