// Stochastic rounding: random (input, random bits) pairs against the reference, and the
// statistical property that makes it useful: the mean of many roundings is the input.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "reference.hpp"
#include "sweep.hpp"

namespace {

using minifloat::overflow;

template <class T>
using Stochastic = under_test::format_fixture<T>;
TYPED_TEST_SUITE(Stochastic, under_test::every_format, under_test::format_names);

TYPED_TEST(Stochastic, RandomPairsMatchTheReference) {
  using T = TypeParam;
  std::mt19937_64 rng(2026);
  sweep::tally tally;
  for (int i = 0; i < 1000000; ++i) {
    const std::uint64_t raw = rng();
    const auto r = static_cast<std::uint32_t>(raw >> 32);
    // Random float bits, and (every other input) a float near the format's range.
    float x;
    if (i % 2 == 0) {
      const auto bits = static_cast<std::uint32_t>(raw);
      std::memcpy(&x, &bits, sizeof x);
    } else {
      const int exponent = static_cast<int>(raw % 64) - 40;
      x = std::ldexp(static_cast<float>(raw & 0xFFFFFF) / 0x1p24f + 1.0f, exponent);
      x = (raw & (1u << 30)) != 0 ? -x : x;
    }
    tally.check(minifloat::stochastic_cast<T>(x, r).bits(),
                this->ref.round(x, reference::mode::stochastic, false, r), "stochastic", raw);
    tally.check(minifloat::stochastic_cast<T, overflow::saturate>(x, r).bits(),
                this->ref.round(x, reference::mode::stochastic, true, r), "saturate", raw);
    const double d = static_cast<double>(x) * (1.0 + 0x1p-40); // bits below float's precision
    tally.check(minifloat::stochastic_cast<T>(d, r).bits(),
                this->ref.round(d, reference::mode::stochastic, false, r), "double", raw);
  }
  tally.report(this->fmt.name.c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

// The mean of n stochastic roundings of x with uniform random bits is x, up to the sampling
// error: the result is lo or hi, so its standard deviation is (hi - lo) sqrt(p (1 - p)).
// A 6-sigma bound fails by chance with probability about 2e-9 (the seed is fixed anyway).
TYPED_TEST(Stochastic, IsUnbiased) {
  using T = TypeParam;
  // Points strictly between neighbouring grid values: in the subnormals, around 1, near the
  // top, at several fractions of the gap; both signs where there are two.
  const std::vector<double> grid = this->ref.grid_values(); // ascending, 0 first
  const std::size_t top = grid.size() - 2;                  // the largest finite value
  const std::pair<std::size_t, double> between[] = {
      {0, 0.3}, {1, 0.77}, {grid.size() / 2, 0.01}, {grid.size() / 2 + 3, 0.5}, {top - 1, 0.9}};
  std::vector<double> inputs;
  for (const auto& [wanted, fraction] : between) {
    const std::size_t index = std::min(wanted, top - 1); // e2m1 has 8 values
    const double x = grid[index] + fraction * (grid[index + 1] - grid[index]);
    inputs.push_back(x);
    if (T::format::is_signed) {
      inputs.push_back(-x);
    }
  }
  std::mt19937 rng(7);
  const int n = 1 << 20;
  for (double x : inputs) {
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      sum +=
          static_cast<double>(minifloat::stochastic_cast<T>(x, static_cast<std::uint32_t>(rng())));
    }
    const double mean = sum / n;
    const double lo =
        static_cast<double>(minifloat::convert<T, minifloat::rounding::toward_zero>(x));
    const double up = static_cast<double>(minifloat::stochastic_cast<T>(x, 0xFFFFFFFFu));
    const double p = (std::fabs(x) - std::fabs(lo)) / std::fabs(up - lo);
    const double sigma = std::fabs(up - lo) * std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(mean, x, 6 * sigma + std::fabs(up - lo) * 0x1p-32) << x;
    EXPECT_GT(p, 0.0) << "x must lie between two grid values: " << x;
  }
}

} // namespace
