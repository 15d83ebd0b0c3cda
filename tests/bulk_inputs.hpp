// The inputs and the expected codes of the array tests (bulk_test, bulk_streaming_test).
#ifndef MINIFLOAT_TESTS_BULK_INPUTS_HPP
#define MINIFLOAT_TESTS_BULK_INPUTS_HPP

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "double_sweep.hpp"
#include "sweep.hpp"

namespace bulk_inputs {
namespace {

using minifloat::overflow;
using minifloat::detail::rounding_rule;

// Inputs that reach every branch of the kernels: random bit patterns (NaNs, subnormals, huge
// values), values near e4m3's and e5m2's range, exact midpoints, and every 11th value one of
// the special ones below (random bits are an infinity once in 2^31), so that every length and
// lane position meets them.
std::vector<float> test_floats(std::size_t n) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  constexpr float max = std::numeric_limits<float>::max();
  const float specials[] = {inf,    -inf,    nan,    -nan,     0.0f,     -0.0f,
                            max,    -max,    464.0f, -480.0f,  57344.0f, -61440.0f,
                            1e-45f, -1e-45f, 448.0f, -65536.0f};
  std::mt19937 rng(2024);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (i % 4) {
    case 0:
      x[i] = sweep::float_from_bits(static_cast<std::uint32_t>(rng()));
      break;
    case 1:
      x[i] = std::normal_distribution<float>(0.0f, 100.0f)(rng);
      break;
    case 2: // a midpoint between neighbouring e4m3 / e5m2 values, or next to one
      x[i] = std::ldexp(static_cast<float>(rng() % 64) + 0.5f, static_cast<int>(rng() % 40) - 24) *
             (rng() % 2 ? 1.0f : -1.0f);
      break;
    default:
      x[i] = sweep::float_from_bits(0x3F800000U + static_cast<std::uint32_t>(rng() % 0x100000U) -
                                    0x80000U + (static_cast<std::uint32_t>(rng() % 40) << 23) -
                                    (20U << 23));
    }
  }
  constexpr std::size_t count = sizeof specials / sizeof specials[0];
  for (std::size_t i = 5; i < n; i += 11) {
    x[i] = specials[(i / 11) % count];
  }
  return x;
}

template <class Source>
std::vector<Source> sources_from(const std::vector<float>& floats) {
  if constexpr (std::is_same<Source, float>::value) {
    return floats;
  } else {
    std::vector<Source> out(floats.size());
    std::mt19937 rng(7);
    for (std::size_t i = 0; i < out.size(); ++i) {
      if constexpr (std::is_same<Source, double>::value) {
        // Between floats too: doubles that float cannot hold; every fifth one from the edges of
        // float's range.
        static const std::vector<double> edges = double_sweep::edge_doubles();
        out[i] = i % 5 == 4 ? edges[rng() % edges.size()]
                            : static_cast<double>(floats[i]) *
                                  (1.0 + std::ldexp(static_cast<double>(rng() % 64), -40));
      } else {
        out[i] = Source{static_cast<std::uint16_t>(rng())};
      }
    }
    return out;
  }
}

constexpr std::uint8_t guard = 0xA5;

// The scalar conversion of one value: what every array check expects. Out of line, one copy per
// conversion, rather than inlined (and at -O3 vectorized) into each of the hundreds of checking
// loops (g++ -O3: a tenth less code in this file, 7 % less compile time).
template <class T, rounding_rule Rule, overflow O, class Source>
[[gnu::noinline]] std::uint8_t scalar_code(const Source& x, std::uint32_t random_bits) {
  return minifloat::detail::convert_value<T, Rule, O>(x, random_bits).bits();
}

} // namespace
} // namespace bulk_inputs

#endif // MINIFLOAT_TESTS_BULK_INPUTS_HPP
