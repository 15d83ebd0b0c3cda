// Doubles at and around every midpoint of a format's grid: the inputs where rounding decides,
// and where a detour through float would round twice.
#ifndef MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP
#define MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "reference.hpp"
#include "ieee.hpp"

namespace double_sweep {

// About `count` doubles: for every pair of neighbouring grid values a <  b (the virtual value
// past the largest included), the midpoint, the doubles within `ulps` of it, the doubles next
// to a and b, and random doubles in between; each also negated.
inline std::vector<double> inputs(const reference::narrower& ref, std::size_t count) {
  const std::vector<double> grid = ref.grid_values();
  const std::size_t pairs = grid.size() - 1;
  const int ulps = 16;
  const std::size_t per_pair_fixed = 2 * ulps + 1 + 4;
  const std::size_t per_pair_random =
      count / 2 / pairs > per_pair_fixed ? count / 2 / pairs - per_pair_fixed : 0;
  std::mt19937_64 rng(12345);
  std::vector<double> values;
  values.reserve(2 * pairs * (per_pair_fixed + per_pair_random));
  for (std::size_t i = 0; i < pairs; ++i) {
    const double a = grid[i];
    const double b = grid[i + 1];
    const double mid = (a + b) / 2;
    double up = mid;
    double down = mid;
    values.push_back(mid);
    for (int k = 0; k < ulps; ++k) {
      up = std::nextafter(up, ieee::positive_infinity<float>());
      down = std::nextafter(down, -ieee::positive_infinity<float>());
      values.push_back(up);
      values.push_back(down);
    }
    values.push_back(std::nextafter(a, ieee::positive_infinity<float>()));
    values.push_back(std::nextafter(b, -ieee::positive_infinity<float>()));
    values.push_back(std::nextafter(b, ieee::positive_infinity<float>()));
    values.push_back(a);
    std::uniform_real_distribution<double> between(a, b);
    for (std::size_t k = 0; k < per_pair_random; ++k) {
      values.push_back(between(rng));
    }
  }
  const std::size_t positive = values.size();
  for (std::size_t i = 0; i < positive; ++i) {
    values.push_back(-values[i]);
  }
  return values;
}

// Doubles where a conversion through float could go wrong: outside float's normal range (double
// subnormals, below and at 2^-126, from FLT_MAX past 2^128, infinities, NaNs whose payload lies
// in the low word only), and with bits only below float's precision; each also negated.
inline std::vector<double> edge_doubles() {
  const double inf = ieee::positive_infinity<double>();
  const std::uint64_t patterns[] = {
      0x0000000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
      0x3800000000000000, 0x380FFFFFFFFFFFFF, 0x3810000000000000, 0x3810000000000001,
      0x3690000000000000, 0x3698000000000000, 0x36A0000000000000, 0x3E70000000000000,
      0x47EFFFFFE0000000, 0x47EFFFFFE0000001, 0x47EFFFFFF0000000, 0x47EFFFFFFFFFFFFF,
      0x47F0000000000000, 0x47F0000000000001, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000,
      0x7FF0000000000001, 0x7FF8000000000000, 0x7FF7FFFFFFFFFFFF, 0x3FF0000000000001,
      0x3FF0000010000000, 0x3FF0000020000000, 0x3FF0000030000000, 0x3FF000001FFFFFFF,
      0x3FF2000000000001, 0x3FF1FFFFFFFFFFFF, 0x3FF0000000000000, 0x3FD8000000000001,
      // e4m3's tie 1 + 2^-4 and a double step either side; 1 + 2^-4 + 2^-30 (docs/spec.md §2).
      0x3FF1000000000001, 0x3FF0FFFFFFFFFFFF, 0x3FF1000000000000, 0x3FF1000000400000};
  std::vector<double> values;
  for (const std::uint64_t bits : patterns) {
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    values.push_back(x);
    values.push_back(-x);
  }
  // Every binade's first and last double (the exponent field from 0 to 2047: the scalar casts
  // read a float's exponent off the double's, clamped to float's range); and around 1, each of
  // the 16 patterns of the mantissa's top 4 bits (every format's ties lie among them) with each
  // one of the 48 bits below it alone (the scalar casts' sticky bit; docs/spec.md §2).
  for (std::uint64_t exponent = 0; exponent < 2048; ++exponent) {
    for (const std::uint64_t bits : {exponent << 52, exponent << 52 | 0x000FFFFFFFFFFFFF}) {
      double x = 0;
      std::memcpy(&x, &bits, sizeof x);
      values.push_back(x);
      values.push_back(-x);
    }
  }
  for (std::uint64_t top = 0; top < 16; ++top) {
    for (int k = 0; k < 48; ++k) {
      const std::uint64_t bits = 0x3FF0000000000000 | top << 48 | std::uint64_t{1} << k;
      double x = 0;
      std::memcpy(&x, &bits, sizeof x);
      values.push_back(x);
      values.push_back(-x);
    }
  }
  // Every target's grid from its smallest subnormal up: each power of two and the three
  // quarter points above it, plus and minus the smallest double step.
  for (int e = -30; e <= 20; ++e) {
    for (const double q : {1.0, 1.25, 1.5, 1.75}) {
      const double x = std::ldexp(q, e);
      for (const double y : {x, std::nextafter(x, inf), std::nextafter(x, 0.0)}) {
        values.push_back(y);
        values.push_back(-y);
      }
    }
  }
  return values;
}

} // namespace double_sweep

#endif // MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP
