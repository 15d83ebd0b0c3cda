// Doubles at and around every midpoint of a format's grid: the inputs where rounding decides,
// and where a detour through float would round twice.
#ifndef MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP
#define MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP

#include <cmath>
#include <cstdint>
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

} // namespace double_sweep

#endif // MINIFLOAT_TESTS_DOUBLE_SWEEP_HPP
