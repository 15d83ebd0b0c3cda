// Test helper: the array functions' paths this CPU can run (the portable one first), and the
// public array functions run on a chosen one through the documented door, minifloat::scoped_path.
#ifndef MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP
#define MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <minifloat/bulk.hpp>

inline std::vector<minifloat::simd_path> supported_paths() {
  std::vector<minifloat::simd_path> paths;
  for (auto path : {minifloat::simd_path::portable, minifloat::simd_path::avx2,
                    minifloat::simd_path::avx512, minifloat::simd_path::neon}) {
    if (minifloat::path_supported(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

// Where the random bits of a stochastic conversion come from: none (the other rules), the
// caller's array, or a counter_generator.
struct no_random_bits {};
struct random_bits_array {
  const std::uint32_t* bits;
};

// n elements of src narrowed into dst on `path` with the rounding rule Rule (the public
// `rounding`, or stochastic) and overflow rule O, by the public functions.
template <minifloat::detail::rounding_rule Rule, minifloat::overflow O, class From, class To,
          class Random>
void narrow_on(minifloat::simd_path path, const From* src, std::size_t n, To* dst,
               const Random& random) {
  using minifloat::detail::rounding_rule;
  const minifloat::scoped_path on(path);
  if constexpr (Rule == rounding_rule::stochastic) {
    if constexpr (std::is_same<Random, random_bits_array>::value) {
      minifloat::stochastic_convert<O>(src, n, random.bits, dst);
    } else {
      static_assert(std::is_same<Random, minifloat::counter_generator>::value, "random bits");
      minifloat::stochastic_convert<O>(src, n, dst, random);
    }
  } else {
    constexpr minifloat::rounding rounding =
        Rule == rounding_rule::nearest_even  ? minifloat::rounding::nearest_even
        : Rule == rounding_rule::toward_zero ? minifloat::rounding::toward_zero
                                             : minifloat::rounding::upward;
    minifloat::convert<rounding, O>(src, n, dst);
  }
}

// n codes widened on `path`, with streaming stores or without.
template <class From, class To>
void widen_on(minifloat::simd_path path, const From* src, std::size_t n, To* dst,
              bool non_temporal) {
  const minifloat::scoped_path on(path, non_temporal ? 0 : SIZE_MAX);
  minifloat::convert(src, n, dst);
}

inline float amax_with_path(minifloat::simd_path path, const float* src, std::size_t n) {
  const minifloat::scoped_path on(path);
  return minifloat::amax(src, n);
}

#endif // MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP
