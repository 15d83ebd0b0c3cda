// minifloat/report.hpp: every narrowing array function's report, on every path, against the
// definitions of docs/spec.md §10 applied here element by element (with the independent
// reference's values of the codes), over every binary16 value and 2^16 random float patterns,
// in every rounding (nearest-even for every format, the others for one of each kind); the codes
// equal the scalar functions'.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <random>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "ieee.hpp"
#include "reference.hpp"
#include "report_expect.hpp"
#include "supported_paths.hpp"

namespace {

using minifloat::conversion_report;
using minifloat::overflow;
using minifloat::rounding;

// The definitions, on the exact values converted and the codes they became.
conversion_report expected_report(const reference::format& fmt, const std::vector<double>& values,
                                  const std::uint8_t* codes) {
  const reference::narrower ref(fmt);
  conversion_report r;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    ++r.elements;
    if (ieee::isnan(v)) {
      ++r.nan_inputs;
      continue;
    }
    if (ieee::isinf(v)) {
      ++r.infinite_inputs;
      continue;
    }
    // +-0. (Through a volatile: clang's -Ofast turns the bit test into a comparison with 0.0,
    // which denormals-are-zero makes true for a double subnormal.)
    const volatile std::uint64_t bits = ieee::to_bits(v);
    if ((bits << 1) == 0) {
      continue;
    }
    if (!fmt.has_sign && ieee::signbit(v)) {
      ++r.negative_for_unsigned;
      continue;
    }
    const double result = reference::decode(fmt, codes[i]);
    const bool finite = ieee::isfinite(result);
    if (std::fabs(v) > ref.max_value()) {
      ++(finite ? r.saturated : r.overflowed);
    }
    if (!finite) {
      continue;
    }
    double relative = 1;
    if (result == 0) {
      ++r.flushed_to_zero;
    } else {
      const unsigned exponent_field =
          (codes[i] >> fmt.mantissa_bits) & ((1u << fmt.exponent_bits) - 1);
      if (fmt.has_subnormals && exponent_field == 0) {
        ++r.subnormal;
      }
      relative = std::fabs(result - v) / std::fabs(v);
    }
    r.max_relative_error = std::max(r.max_relative_error, relative);
  }
  return r;
}

void expect_equal(const conversion_report& got, const conversion_report& expected,
                  const std::string& where) {
  expect_equal_counts(got, expected, where);
  EXPECT_DOUBLE_EQ(got.max_relative_error, expected.max_relative_error) << where;
}

// Every binary16 value (NaN, infinities, subnormals, past e4m3's range) and 2^16 random float
// bit patterns (every binade, NaN payloads), in an order that mixes them.
std::vector<float> inputs() {
  std::vector<float> x;
  for (unsigned bits = 0; bits < 65536; ++bits) {
    x.push_back(ieee::to_float(reference::decode_binary16(static_cast<std::uint16_t>(bits))));
  }
  std::mt19937 generator(2026);
  for (int i = 0; i < 65536; ++i) {
    x.push_back(ieee::from_bits<float>(static_cast<std::uint32_t>(generator())));
  }
  std::shuffle(x.begin(), x.end(), generator);
  return x;
}

std::vector<double> exact_values(const std::vector<float>& x) {
  std::vector<double> values;
  for (float v : x) {
    values.push_back(ieee::to_double(v));
  }
  return values;
}

template <class T>
const std::uint8_t* bytes(const std::vector<T>& codes) {
  return reinterpret_cast<const std::uint8_t*>(codes.data());
}

// The formats whose conversions are checked in every rounding and from binary16: one of each
// kind of special values (fn, ieee, fnuz, finite, unsigned, e8m0).
template <class T>
constexpr bool every_mode =
    std::is_same<T, minifloat::e4m3>::value || std::is_same<T, minifloat::e5m2>::value ||
    std::is_same<T, minifloat::e4m3fnuz>::value || std::is_same<T, minifloat::e2m1>::value ||
    std::is_same<T, minifloat::ue4m3>::value || std::is_same<T, minifloat::e8m0>::value;

template <class T>
class Report : public under_test::format_fixture<T> {};
TYPED_TEST_SUITE(Report, under_test::every_format, under_test::format_names);

// convert and stochastic_convert from float, on every path, in every rounding; from double and
// binary16 on the active path.
TYPED_TEST(Report, ConversionsCountAsTheDefinitionsSay) {
  using T = TypeParam;
  const std::vector<float> x = inputs();
  const std::vector<double> values = exact_values(x);
  const std::size_t n = x.size();
  std::vector<std::uint32_t> random_bits(n);
  std::mt19937 generator(7);
  for (auto& r : random_bits) {
    r = static_cast<std::uint32_t>(generator());
  }
  std::vector<T> reported(n);
  // The codes must be the scalar functions' (scalar(x, i) gives element i's).
  const auto same_codes = [&](auto scalar) {
    std::size_t different = 0;
    for (std::size_t i = 0; i < n; ++i) {
      different += scalar(x[i], i).bits() != reported[i].bits();
    }
    return different;
  };
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::string where = minifloat::to_string(path);
    conversion_report report;
    const auto check = [&](const char* what, auto scalar) {
      EXPECT_EQ(same_codes(scalar), 0u) << where << " " << what;
      expect_equal(report, expected_report(this->fmt, values, bytes(reported)), where + " " + what);
    };
    minifloat::convert(x.data(), n, reported.data(), report);
    check("nearest_even", [](float v, std::size_t) { return minifloat::convert<T>(v); });
    // The other modes for one format of each kind of special values (the kernels' report code
    // depends on the format, not on the rounding; each more costs compile time).
    if constexpr (every_mode<T>) {
      minifloat::convert<rounding::toward_zero, overflow::saturate>(x.data(), n, reported.data(),
                                                                    report);
      check("toward_zero saturate", [](float v, std::size_t) {
        return minifloat::convert<T, rounding::toward_zero, overflow::saturate>(v);
      });
      minifloat::convert<rounding::upward>(x.data(), n, reported.data(), report);
      check("upward",
            [](float v, std::size_t) { return minifloat::convert<T, rounding::upward>(v); });
      minifloat::stochastic_convert(x.data(), n, random_bits.data(), reported.data(), report);
      check("stochastic", [&](float v, std::size_t i) {
        return minifloat::stochastic_cast<T>(v, random_bits[i]);
      });
      const minifloat::counter_generator counter{42, 3};
      minifloat::stochastic_convert<overflow::saturate>(x.data(), n, reported.data(), counter,
                                                        report);
      check("stochastic counter saturate", [&](float v, std::size_t i) {
        return minifloat::stochastic_cast<T, overflow::saturate>(v, counter(i));
      });
    }
    // Values in the normal range only: the largest relative error then comes from the lanes
    // the kernels test in vectors (no flushed or clipped value reaches 1 or more).
    const double smallest_normal = reference::decode(this->fmt, 1u << this->fmt.mantissa_bits);
    std::vector<float> in_range;
    for (float v : x) {
      const double magnitude = std::fabs(ieee::to_double(v));
      if (magnitude >= smallest_normal && magnitude <= this->ref.max_value() &&
          (this->fmt.has_sign || !ieee::signbit(v))) {
        in_range.push_back(v);
      }
    }
    ASSERT_GT(in_range.size(), 1000u);
    minifloat::convert(in_range.data(), in_range.size(), reported.data(), report);
    expect_equal(report, expected_report(this->fmt, exact_values(in_range), bytes(reported)),
                 where + " normal range");
    EXPECT_GT(report.max_relative_error, 0.0) << where;
    EXPECT_LT(report.max_relative_error, 0.5) << where;
    // Odd lengths end in a partial vector.
    minifloat::convert(x.data() + 3, 1001, reported.data(), report);
    expect_equal(report,
                 expected_report(this->fmt,
                                 std::vector<double>(values.begin() + 3, values.begin() + 1004),
                                 bytes(reported)),
                 where + " 1001 elements");
  }
  // double (the scalar path) and binary16 sources.
  conversion_report report;
  std::vector<double> doubles(values);
  doubles.push_back(ieee::from_bits<double>(0x0000000000000001U)); // a double subnormal
  doubles.push_back(1e300);
  std::vector<T> codes(doubles.size());
  minifloat::convert(doubles.data(), doubles.size(), codes.data(), report);
  expect_equal(report, expected_report(this->fmt, doubles, bytes(codes)), "double");
  if constexpr (every_mode<T>) {
    std::vector<minifloat::binary16_bits> halves(65536);
    std::vector<double> half_values(65536);
    for (unsigned bits = 0; bits < 65536; ++bits) {
      halves[bits] = minifloat::binary16_bits{static_cast<std::uint16_t>(bits)};
      half_values[bits] = reference::decode_binary16(static_cast<std::uint16_t>(bits));
    }
    codes.resize(65536);
    minifloat::convert(halves.data(), halves.size(), codes.data(), report);
    expect_equal(report, expected_report(this->fmt, half_values, bytes(codes)), "binary16");
  }
}

// The largest relative error where the kernels' quick test must let a lane through: with
// nearest rounding a value in the normal range whose mantissa's low k = 23 - M bits are d errs
// by min(d, 2^k - d) of its last places, and only mantissas near a step's midpoint can beat a
// given largest error m. Each call converts an array of exact values (1) with one value that
// sets m (element 0) and one candidate (element 200, three groups later): candidates in the
// first and second step of a binade, around the interval of d where the candidate's error
// exceeds m (from the definition above, with a few mantissas each side), on every path.
TYPED_TEST(Report, LargestErrorNearTheEdgesOfWhatCanRaiseIt) {
  using T = TypeParam;
  constexpr int k = 23 - T::format::mantissa_bits;
  constexpr std::uint32_t step = std::uint32_t{1} << k;
  constexpr std::uint32_t half = step / 2;
  const auto value = [](std::uint32_t mantissa) {
    return ieee::from_bits<float>(0x3F800000U | mantissa); // 1 + mantissa 2^-23
  };
  const auto relative = [](std::uint32_t mantissa) {
    const std::uint32_t d = mantissa % step;
    return static_cast<double>(std::min(d, step - d)) / (0x1p23 + mantissa);
  };
  // The mantissas whose values set the largest error first: small ones (before the second step
  // is ruled out), larger ones, the peak of the first step.
  std::vector<std::uint32_t> setters = {1, half / 64, half / 4, half / 2, half - half / 8, half};
  std::vector<std::uint32_t> candidates;
  for (const std::uint32_t setter : setters) {
    const double m = relative(setter);
    // d in (m 2^23 / (1 - m), (2^k - m 2^23) / (1 + m)), in the first step and (shifted by one
    // step, where that step's peak beats m) the second.
    const double low = m * 0x1p23 / (1 - m);
    const double high = (step - m * 0x1p23) / (1 + m);
    for (const double edge : {low, high}) {
      for (int offset = -3; offset <= 3; ++offset) {
        const double d = std::floor(edge) + offset;
        if (d >= 0 && d < step) {
          candidates.push_back(static_cast<std::uint32_t>(d));
          if (T::format::mantissa_bits > 0) {
            candidates.push_back(static_cast<std::uint32_t>(d) + step);
          }
        }
      }
    }
  }
  if (T::format::mantissa_bits > 0) {
    candidates.push_back(step + half); // the second step's peak
  }
  const std::size_t n = 256;
  std::vector<float> x(n, 1.0f);
  std::vector<T> reported(n);
  std::size_t raised = 0;
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::string where = minifloat::to_string(path);
    for (const std::uint32_t setter : setters) {
      for (const std::uint32_t candidate : candidates) {
        x[0] = value(setter);
        x[200] = value(candidate);
        raised += relative(candidate) > relative(setter);
        conversion_report report;
        minifloat::convert(x.data(), n, reported.data(), report);
        expect_equal(report, expected_report(this->fmt, exact_values(x), bytes(reported)),
                     where + " setter " + std::to_string(setter) + " candidate " +
                         std::to_string(candidate));
      }
    }
  }
  // Most candidates are chosen to raise the largest error.
  EXPECT_GT(raised, 0u);
}

// The signed 8-bit formats, whose array loops test the stored codes for values outside the
// normal range and the values only for the mantissa window (lanes.inc codes_decide_range).
bool signed_8_bit(const reference::format& fmt) {
  return fmt.has_sign && fmt.exponent_bits + fmt.mantissa_bits == 7;
}

// Every path with the default non-temporal threshold, then with 0.
std::vector<std::pair<minifloat::simd_path, std::size_t>> paths_and_thresholds() {
  std::vector<std::pair<minifloat::simd_path, std::size_t>> all;
  for (const std::size_t threshold :
       {std::size_t{MINIFLOAT_NON_TEMPORAL_THRESHOLD}, std::size_t{0}}) {
    for (const minifloat::simd_path path : supported_paths()) {
      all.emplace_back(path, threshold);
    }
  }
  return all;
}

// One rare value among values of the normal range (the groups that pass the quick tests), at
// group edges and in the middle, among non-zero values and among values half of which are zero
// (ReLU activations: zero codes that need no look), in both overflow rules, on every path; and
// after a flushed value, which makes the largest relative error 1 (FP4 and FP6 then only count,
// lanes.inc counts_after_flush; the 8-bit formats count a group whose codes lie below the normal
// ones from its packed codes, counted_low_codes_after_flush), among non-zero values and among
// zeros.
TYPED_TEST(Report, RareValuesAmongNormalOnes) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  if (!fmt.has_sign) {
    GTEST_SKIP() << "unsigned: the values' full quick test";
  }
  const double smallest_normal = reference::decode(fmt, 1u << fmt.mantissa_bits);
  const double largest = this->ref.max_value();
  const double step = std::ldexp(smallest_normal, -fmt.mantissa_bits); // the subnormals' step
  const int normal_binades = static_cast<int>(std::log2(largest / smallest_normal));
  const std::size_t n = 4096;
  std::mt19937 generator(11);
  const auto normal_values = [&](bool half_zero) {
    std::vector<float> x(n);
    for (auto& v : x) {
      const double fraction = std::uniform_real_distribution<double>(1, 2)(generator);
      const int binade = std::uniform_int_distribution<int>(0, normal_binades - 1)(generator);
      v = static_cast<float>(std::ldexp(fraction * smallest_normal, binade));
      v = generator() % 2 == 0 ? v : -v;
      if (half_zero && generator() % 2 == 0) {
        v = 0.0f;
      }
    }
    return x;
  };
  const std::vector<std::pair<const char*, double>> rare = {
      {"zero", 0.0},
      {"negative zero", -0.0},
      {"flushed", step / 4},
      {"float subnormal", 1e-40},
      {"the smallest float subnormal", 0x1p-149},
      {"subnormal", smallest_normal / 2},
      {"rounded up to the smallest normal", smallest_normal - step / 2 + step / 64},
      {"largest", largest},
      {"past the largest", largest * 1.01},
      {"far past the largest", -largest * 4},
      {"infinity", HUGE_VAL},
      {"NaN", std::nan("")},
      {"a first step's midpoint", 1 + std::ldexp(1.0, -fmt.mantissa_bits - 1)},
  };
  std::vector<T> reported(n);
  // (Also with the non-temporal threshold at 0, as for outputs past it: a report's codes then
  // stream past dst's first line, and its loop reads streamed codes back for the groups it looks
  // at.)
  for (const auto& [path, threshold] : paths_and_thresholds()) {
    const minifloat::scoped_path on(path, threshold);
    for (const int kind : {0, 1, 2, 3}) {
      const bool half_zero = kind == 1 || kind == 3;
      const bool after_flushed = kind >= 2;
      if (threshold == 0 && half_zero) {
        continue;
      }
      std::vector<float> background = normal_values(half_zero);
      if (after_flushed) {
        background[5] = static_cast<float>(step / 4); // flushed
      }
      for (const auto& [name, value] : rare) {
        if (std::fabs(value) > 0 && std::fabs(value) < smallest_normal && !fmt.has_subnormals) {
          continue;
        }
        for (const std::size_t at :
             {std::size_t{0}, std::size_t{63}, std::size_t{64}, std::size_t{1000}, n - 1}) {
          std::vector<float> x = background;
          x[at] = static_cast<float>(value);
          const std::string where = std::string(minifloat::to_string(path)) + " " + name + " at " +
                                    std::to_string(at) + (half_zero ? " among zeros" : "") +
                                    (after_flushed ? " after a flushed value" : "") +
                                    (threshold == 0 ? " (threshold 0)" : "");
          conversion_report report;
          minifloat::convert(x.data(), n, reported.data(), report);
          expect_equal(report, expected_report(fmt, exact_values(x), bytes(reported)), where);
          minifloat::convert<rounding::nearest_even, overflow::saturate>(x.data(), n,
                                                                         reported.data(), report);
          expect_equal(report, expected_report(fmt, exact_values(x), bytes(reported)),
                       where + " saturating");
        }
      }
    }
  }
}

// Rare values in the partial vectors before a source's first cache line and after its last
// whole group (lanes.inc report_values: masked lanes through report_lanes), at every offset from
// a line, in both rounding directions that matter and both overflow rules, on every path.
TYPED_TEST(Report, RareValuesInPartialVectors) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  const double smallest_normal = reference::decode(fmt, 1u << fmt.mantissa_bits);
  const double largest = this->ref.max_value();
  const std::vector<double> rare = {
      std::nan(""),           HUGE_VAL, -largest * 3, smallest_normal / 3, smallest_normal * 0.99,
      smallest_normal * 1e-3, -1.0,     1.0 + 1.0 / 3};
  const std::size_t n = 600;
  std::vector<float> buffer(n + 64);
  const std::size_t line = minifloat::detail::elements_to_line(buffer.data());
  std::vector<T> reported(n);
  std::mt19937 generator(5);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    for (std::size_t offset = 1; offset < 16; ++offset) {
      float* x = buffer.data() + line + offset;
      const std::size_t head = 16 - offset; // before the next line
      const std::size_t tail_start = n - (n - head) % 64;
      for (const std::size_t at : {std::size_t{0}, head - 1, tail_start, n - 1}) {
        for (const double value : rare) {
          for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<float>(
                std::ldexp(std::uniform_real_distribution<double>(1, 2)(generator), -1));
          }
          x[at] = static_cast<float>(value);
          const std::vector<float> copy(x, x + n);
          const std::string where = std::string(minifloat::to_string(path)) + " offset " +
                                    std::to_string(offset) + " at " + std::to_string(at) +
                                    " value " + std::to_string(value);
          conversion_report report;
          minifloat::convert(x, n, reported.data(), report);
          expect_equal(report, expected_report(fmt, exact_values(copy), bytes(reported)), where);
          minifloat::convert<rounding::toward_zero, overflow::saturate>(x, n, reported.data(),
                                                                        report);
          expect_equal(report, expected_report(fmt, exact_values(copy), bytes(reported)),
                       where + " toward_zero saturate");
        }
      }
    }
  }
}

// The running extremes of the first step's mantissas (lanes.inc first_step_extremes_apply), in a
// call longer than the elements they run for (elements_with_extremes). Every value here has one
// mantissa, whose error (about 2^-(M+1) (1 - 2^-8)) lies between the second step's peak and the
// first's, so that after the first look the array loop keeps extremes. They take only values in
// the normal range: a NaN and a value past the overflow bound, whose mantissas are the first
// step's peak and which count for no error where the bound overflows, must not raise the largest
// to that peak (each at a group's start, middle and end, one or both). A value of larger error
// inside the extremes' elements, then one of larger error still (above the step's midpoint)
// past them, must. In both overflow rules, on every path, with the default non-temporal
// threshold and with 0.
TYPED_TEST(Report, RareValuesMantissasAreNotNormalErrors) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  constexpr int k = 23 - T::format::mantissa_bits;
  constexpr std::uint32_t half = std::uint32_t{1} << (k - 1);
  const auto value = [](std::uint32_t mantissa) {
    return ieee::from_bits<float>(0x3F800000U | mantissa); // 1 + mantissa 2^-23
  };
  const std::uint32_t largest_bits = ieee::to_bits(static_cast<float>(this->ref.max_value()));
  // The NaN's bits and the first value of the binade above the largest's, with the peak's
  // mantissa.
  const float peak_nan = ieee::from_bits<float>(0x7F800000U | half);
  const float past_largest =
      ieee::from_bits<float>(((largest_bits & 0x7F800000U) + 0x00800000U) | half);
  const std::vector<std::vector<std::pair<std::size_t, float>>> cases = {
      {{512, peak_nan}},
      {{517, past_largest}},
      {{574, peak_nan}, {575, past_largest}},
      {{6001, peak_nan}, {6002, past_largest}},
      {{3000, value(half - half / 1024)}},
      {{3000, value(half - half / 1024)}, {7000, value(half + half / 4096)}}};
  const std::size_t n = 8192;
  std::vector<float> x(n);
  std::vector<T> reported(n);
  for (const auto& [path, threshold] : paths_and_thresholds()) {
    const minifloat::scoped_path on(path, threshold);
    for (std::size_t c = 0; c < cases.size(); ++c) {
      std::fill(x.begin(), x.end(), value(half - half / 256));
      for (const auto& [at, special] : cases[c]) {
        x[at] = special;
      }
      const std::string where = std::string(minifloat::to_string(path)) + " threshold " +
                                std::to_string(threshold) + " case " + std::to_string(c);
      conversion_report report;
      minifloat::convert(x.data(), n, reported.data(), report);
      const conversion_report expected = expected_report(fmt, exact_values(x), bytes(reported));
      expect_equal(report, expected, where);
      minifloat::convert<rounding::nearest_even, overflow::saturate>(x.data(), n, reported.data(),
                                                                     report);
      expect_equal(report, expected_report(fmt, exact_values(x), bytes(reported)),
                   where + " saturate");
      // (The rare values' mantissas would exceed the values' own errors; FP4 and FP6 always
      // saturate, and a clipped value's error is larger.)
      if (signed_8_bit(fmt) && c < 4) {
        EXPECT_LT(expected.max_relative_error,
                  static_cast<double>(half) / (0x1p23 + static_cast<double>(half)))
            << where;
      }
    }
  }
}

// The values whose first-step extremes the report already has: after the call's first look, the
// next 1024 from its group on, and before a large array's head, the 256 after it (lanes.inc
// add_first_step_extremes_ahead). Where the largest error then lies in the first step, the array
// loop tests only their codes. Exact values (1.0) but an inexact one at element 100 (the first
// look): a value of larger error at each element from just before the head's 256 to past the
// look's 1024 must raise the largest, at four offsets from a line, on every path. Three kinds:
// first-step errors; a later step's error at 100 and a first-step one at 700 (the window in the
// first step from the values read ahead, not from the look's group); later steps' errors alone
// (the window never in the first step: every value is still tested).
TYPED_TEST(Report, LargerErrorsAroundTheValuesReadAhead) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  constexpr int k = 23 - T::format::mantissa_bits;
  constexpr std::uint32_t step = std::uint32_t{1} << k;
  constexpr std::uint32_t half = step >> 1;
  const auto value = [](std::uint32_t mantissa) {
    return ieee::from_bits<float>(0x3F800000U | mantissa); // 1 + mantissa 2^-23
  };
  // First-step errors above the second step's peak (for M <= 6), and the fourth and third steps'
  // below it.
  const float first_step = value(half - half / 128);
  const float first_step_larger = value(half - half / 4096);
  const float fourth_step = value((3 * step + half - half / 128) & 0x7FFFFFU);
  const float third_step = value((2 * step + half - half / 128) & 0x7FFFFFU);
  struct kind {
    float at_100;
    float at_700;
    float larger;
  };
  const kind kinds[] = {{first_step, 1.0f, first_step_larger},
                        {fourth_step, first_step, first_step_larger},
                        {fourth_step, 1.0f, third_step}};
  const std::size_t n = 4096;
  std::vector<float> buffer(n + 64);
  const std::size_t line = minifloat::detail::elements_to_line(buffer.data());
  std::vector<T> reported(n);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::size_t offsets[] = {0, 3, 8, 15};
    for (const std::size_t offset : offsets) {
      float* x = buffer.data() + line + offset;
      // (The later steps' values need four steps in a binade.)
      for (std::size_t c = 0; c < (T::format::mantissa_bits >= 2 ? 3U : 1U); ++c) {
        for (std::size_t at = 150; at < 1400; at += at < 400 || at >= 1000 ? 5 : 61) {
          std::fill(x, x + n, 1.0f);
          x[100] = kinds[c].at_100;
          x[700] = kinds[c].at_700;
          x[at] = kinds[c].larger;
          const std::vector<float> copy(x, x + n);
          const std::string where = std::string(minifloat::to_string(path)) + " offset " +
                                    std::to_string(offset) + " kind " + std::to_string(c) + " at " +
                                    std::to_string(at);
          conversion_report report;
          minifloat::convert(x, n, reported.data(), report);
          const conversion_report expected =
              expected_report(fmt, exact_values(copy), bytes(reported));
          expect_equal(report, expected, where);
          // (The larger error is the largest.)
          const double larger =
              std::fabs(reference::decode(fmt, bytes(reported)[at]) - static_cast<double>(x[at])) /
              static_cast<double>(x[at]);
          EXPECT_EQ(expected.max_relative_error, larger) << where;
        }
      }
    }
  }
}

// A largest error above every normal value's (no mantissa can raise it: the values' window is
// empty), set by a subnormal result, and then a value just below the smallest normal rounded up
// to it, whose relative error (about 2^-(M+1) / (1 - 2^-(M+1))) is larger still: the codes' test
// must let it through (its code is the smallest normal one).
TYPED_TEST(Report, SmallestNormalRoundedUpAfterTheWindowCloses) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  if (!signed_8_bit(fmt) || !fmt.has_subnormals) {
    GTEST_SKIP() << "no subnormal results or no codes' test";
  }
  const int m = fmt.mantissa_bits;
  const double smallest_normal = reference::decode(fmt, 1u << m);
  const double step = std::ldexp(smallest_normal, -m);
  const double first_step_peak = std::ldexp(1.0, -m - 1) / (1 + std::ldexp(1.0, -m - 1));
  const double rounded_up = std::ldexp(1.0, -m - 1) / (1 - std::ldexp(1.0, -m - 1));
  // The setter: the largest subnormal minus e steps, rounded up to it, with a relative error
  // e / (2^M - 1 - e) between the two.
  const double target = (first_step_peak + rounded_up) / 2;
  const double e = target * (std::ldexp(1.0, m) - 1) / (1 + target);
  ASSERT_LT(e, 0.5);
  const float setter = static_cast<float>(smallest_normal - step - e * step);
  const float candidate = static_cast<float>(smallest_normal - step / 2 + step / 1024);
  // (Element 100 lies in a whole group of 64 after the head before x's first cache line.)
  std::vector<float> x(512, 1.0f);
  x[0] = setter;
  x[100] = candidate;
  std::vector<T> reported(x.size());
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    conversion_report report;
    minifloat::convert(x.data(), x.size(), reported.data(), report);
    const conversion_report expected = expected_report(fmt, exact_values(x), bytes(reported));
    EXPECT_GT(expected.max_relative_error, target) << "the candidate sets it";
    expect_equal(report, expected, minifloat::to_string(path));
  }
}

// Values the format holds exactly (the largest error stays 0: the array loop then tests only the
// mantissa bits below the format's, mantissa_window::inexact) and one that it does not, whose low
// bits are 1, a half step (a tie) or all ones, anywhere in the array.
TYPED_TEST(Report, ExactValuesAndOneInexact) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  if (!signed_8_bit(fmt)) {
    GTEST_SKIP() << "the values' full quick test, or none (FP4, FP6)";
  }
  const int k = 23 - fmt.mantissa_bits;
  const std::size_t n = 4096;
  std::vector<float> x(n);
  std::mt19937 generator(5);
  const unsigned normal_codes = (0x7Fu >> fmt.mantissa_bits) - 1; // exponent fields 1 and up
  for (auto& v : x) {
    for (;;) {
      const unsigned code =
          (1u << fmt.mantissa_bits) +
          static_cast<unsigned>(generator() % (normal_codes << fmt.mantissa_bits));
      const double value = reference::decode(fmt, code);
      if (value > 0 && value <= this->ref.max_value()) {
        v = static_cast<float>(generator() % 2 == 0 ? value : -value);
        break;
      }
    }
  }
  std::vector<T> reported(n);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    conversion_report report;
    minifloat::convert(x.data(), n, reported.data(), report);
    expect_equal(report, expected_report(fmt, exact_values(x), bytes(reported)),
                 std::string(minifloat::to_string(path)) + " exact");
    for (const std::uint32_t low_bits :
         {std::uint32_t{1}, std::uint32_t{1} << (k - 1), (std::uint32_t{1} << k) - 1}) {
      for (const std::size_t at : {std::size_t{100}, std::size_t{1000}, n - 1}) {
        std::vector<float> y = x;
        y[at] = ieee::from_bits<float>(ieee::to_bits(y[at]) | low_bits);
        minifloat::convert(y.data(), n, reported.data(), report);
        const conversion_report expected = expected_report(fmt, exact_values(y), bytes(reported));
        EXPECT_GT(expected.max_relative_error, 0.0);
        expect_equal(report, expected,
                     std::string(minifloat::to_string(path)) + " low bits " +
                         std::to_string(low_bits) + " at " + std::to_string(at));
      }
    }
  }
}

// Clipped values whose relative error 1 - largest / |x| sets the largest one, after the window
// of mantissas has closed (a first step's midpoint sets the largest normal error first): the
// array loop counts them and keeps the largest |x| up to 2^29 times the largest value, and looks
// at the rest; saturating (any finite value past the largest) and not (just past it).
TYPED_TEST(Report, ClippedValuesSetTheLargestError) {
  using T = TypeParam;
  const reference::format& fmt = this->fmt;
  if (!signed_8_bit(fmt)) {
    GTEST_SKIP() << "the values' full quick test, or none (FP4, FP6)";
  }
  const double largest = this->ref.max_value();
  // Half the step below the largest value: past largest + that, non-saturating gives infinity
  // or NaN.
  double below = 0;
  for (unsigned code = 0; code < 0x80; ++code) {
    const double v = reference::decode(fmt, code);
    if (v < largest && v > below) {
      below = v;
    }
  }
  const double half_step = (largest - below) / 2;
  const std::size_t n = 4096;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>((1 + static_cast<double>(i % 97) / 97) * (i % 2 == 0 ? 1 : -1));
  }
  x[3] = static_cast<float>(1 + std::ldexp(1.0, -fmt.mantissa_bits - 1)); // the first step's peak
  std::vector<T> reported(n);
  const std::vector<std::vector<double>> clipped_sets = {
      {largest + half_step / 2, -(largest + half_step / 4)},
      {largest * 1.5, -largest * 3, largest * 1.25},
      {largest * 0x1p28, largest * 3},
      {largest * 0x1p30, largest * 3},
      {3.0e38, -largest * 2},
      {HUGE_VAL, largest * 1.5},
  };
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    for (std::size_t set = 0; set < clipped_sets.size(); ++set) {
      std::vector<float> y = x;
      std::size_t at = 700;
      for (const double value : clipped_sets[set]) {
        y[at] = static_cast<float>(value);
        at += 1111;
      }
      const std::string where =
          std::string(minifloat::to_string(path)) + " set " + std::to_string(set);
      conversion_report report;
      minifloat::convert<rounding::nearest_even, overflow::saturate>(y.data(), n, reported.data(),
                                                                     report);
      const conversion_report expected = expected_report(fmt, exact_values(y), bytes(reported));
      EXPECT_GT(expected.saturated, 0u) << where;
      const double peak =
          std::ldexp(1.0, -fmt.mantissa_bits - 1) / (1 + std::ldexp(1.0, -fmt.mantissa_bits - 1));
      if (set > 0) { // (set 0's errors are below half a step)
        EXPECT_GT(expected.max_relative_error, peak) << where;
      }
      expect_equal(report, expected, where + " saturating");
      minifloat::convert(y.data(), n, reported.data(), report);
      expect_equal(report, expected_report(fmt, exact_values(y), bytes(reported)), where);
    }
  }
}

// The scaling functions report on the values they convert: x * scale as float computes it.
TEST(ReportScaling, QuantizeReportsTheScaledValues) {
  using minifloat::e4m3;
  const std::vector<float> x = inputs();
  const std::size_t n = x.size();
  const float scale = 0.75f;
  std::vector<double> scaled;
  for (float v : x) {
    scaled.push_back(ieee::to_double(ieee::product(v, scale)));
  }
  std::vector<e4m3> q(n);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    conversion_report report;
    minifloat::quantize(x.data(), n, q.data(), scale, report);
    expect_equal(report, expected_report(reference::e4m3, scaled, bytes(q)),
                 minifloat::to_string(path));
    EXPECT_GT(report.saturated, 0u);
    EXPECT_GT(report.flushed_to_zero, 0u);
    EXPECT_EQ(report.overflowed, 0u); // quantize saturates
  }
}

// N(0, 1) * 100 matrices with zeros, huge values and a NaN: the block quantizers.
std::vector<float> matrix(std::size_t n) {
  std::mt19937 generator(99);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  std::vector<float> x(n);
  for (auto& v : x) {
    v = normal(generator);
  }
  for (std::size_t i = 0; i < n; i += 97) {
    x[i] = 0.0f;
  }
  x[500] = 3e7f;
  x[1000] = 1e-30f;
  return x;
}

TEST(ReportScaling, BlockQuantizersReportTheScaledElements) {
  using minifloat::e2m1;
  using minifloat::e4m3;
  const std::size_t rows = 8;
  const std::size_t cols = 512;
  const std::size_t n = rows * cols;
  const std::vector<float> x = matrix(n);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::string where = minifloat::to_string(path);
    // 1 x 128 tiles: each element times its tile's scale (1 / scale_inv is that scale exactly
    // only for power-of-two scales, so the scales are asked as powers of two).
    std::vector<e4m3> q(n);
    std::vector<float> scale_inv(n / 128);
    conversion_report report;
    minifloat::quantize_blocks(x.data(), rows, cols, minifloat::tile_1x128, q.data(),
                               scale_inv.data(), report, 0,
                               minifloat::scale_rounding::power_of_two);
    std::vector<double> scaled;
    for (std::size_t i = 0; i < n; ++i) {
      scaled.push_back(ieee::to_double(ieee::product(x[i], 1.0f / scale_inv[i / 128])));
    }
    expect_equal(report, expected_report(reference::e4m3, scaled, bytes(q)), where + " blocks");
    // The same with the exact scales, max(e4m3) / amax: a tile's largest product can round past
    // 448 in float, a clipped value that only the values say (its code is the largest code,
    // which every tile's largest element gets).
    minifloat::quantize_blocks(x.data(), rows, cols, minifloat::tile_1x128, q.data(),
                               scale_inv.data(), report);
    scaled.clear();
    for (std::size_t tile = 0; tile < n / 128; ++tile) {
      float amax = 0;
      for (std::size_t i = 128 * tile; i < 128 * (tile + 1); ++i) {
        amax = std::max(amax, std::fabs(x[i]));
      }
      const float scale = minifloat::compute_scale<e4m3>(amax);
      for (std::size_t i = 128 * tile; i < 128 * (tile + 1); ++i) {
        scaled.push_back(ieee::to_double(ieee::product(x[i], scale)));
      }
    }
    const conversion_report exact = expected_report(reference::e4m3, scaled, bytes(q));
    expect_equal(report, exact, where + " blocks, exact scales");
    EXPECT_GT(exact.saturated, 0u) << "some tile's largest product rounds past 448";
    // MX: each element times 2^-k of its block (exact here).
    std::vector<minifloat::e8m0> scales(n / 32);
    std::vector<e2m1> elements(n);
    for (const auto rule : {minifloat::mx_scale_rule::floor, minifloat::mx_scale_rule::ceil}) {
      minifloat::quantize_mx(x.data(), n, elements.data(), scales.data(), report, rule);
      scaled.clear();
      for (std::size_t i = 0; i < n; ++i) {
        scaled.push_back(std::ldexp(ieee::to_double(x[i]), 127 - scales[i / 32].bits()));
      }
      const conversion_report expected = expected_report(reference::e2m1, scaled, bytes(elements));
      expect_equal(report, expected, where + " mx");
      if (rule == minifloat::mx_scale_rule::ceil) {
        EXPECT_EQ(report.saturated, 0u) << "the ceil rule never clips";
      } else {
        EXPECT_GT(report.saturated, 0u) << "the floor rule clips some blocks";
      }
      // 8-bit elements: the floor rule clips e4m3 blocks too (amax / 2^k in [256, 512), the
      // largest 448), and the kernels count those clipped values in lanes.
      std::vector<e4m3> codes(n);
      conversion_report e4m3_report;
      minifloat::quantize_mx(x.data(), n, codes.data(), scales.data(), e4m3_report, rule);
      scaled.clear();
      for (std::size_t i = 0; i < n; ++i) {
        scaled.push_back(std::ldexp(ieee::to_double(x[i]), 127 - scales[i / 32].bits()));
      }
      const conversion_report expected_e4m3 =
          expected_report(reference::e4m3, scaled, bytes(codes));
      expect_equal(e4m3_report, expected_e4m3, where + " mx e4m3");
      EXPECT_EQ(expected_e4m3.saturated > 0, rule == minifloat::mx_scale_rule::floor) << where;
      // The packed and ggml layouts report the same conversions.
      std::vector<std::uint8_t> packed(n / 2);
      conversion_report packed_report;
      minifloat::quantize_mx_packed<e2m1>(x.data(), n, packed.data(), scales.data(), packed_report,
                                          rule);
      expect_equal(packed_report, expected, where + " mx packed");
      std::vector<minifloat::block_mxfp4> blocks(n / 32);
      conversion_report ggml_report;
      minifloat::quantize_mxfp4_ggml(x.data(), n, blocks.data(), ggml_report, rule);
      expect_equal(ggml_report, expected, where + " ggml");
    }
  }
}

// n floats drawn from `distribution` with a seeded generator, each with a random sign where
// random_signs says so.
template <class Distribution>
std::vector<float> drawn(std::size_t n, unsigned seed, Distribution distribution,
                         bool random_signs) {
  std::mt19937 generator(seed);
  std::vector<float> x(n);
  for (float& v : x) {
    const bool negative = random_signs && (generator() & 1) != 0;
    v = negative ? -distribution(generator) : distribution(generator);
  }
  return x;
}

// Large block-scaled inputs, where the one-pass kernels take most groups of blocks with a report
// once its window of mantissas is narrow (scaling.hpp quantize_block_groups_on_path): N(0, 1) *
// 100 with, past the first groups, a ReLU-like stretch (zeros), values scaled down to subnormal
// and flushed results, and a lone huge block; every signed 8-bit element type the kernels narrow
// to, MX blocks (floor and ceil rules) and 1 x 128 tiles (exact and power-of-two scales), every
// path, against the definitions element by element. Later groups raise the largest error as
// records come (the window narrows), and their subnormal and clipped values are counted in lanes.
template <class T>
void expect_block_reports_of_large_inputs(const reference::format& fmt) {
  const std::size_t n = std::size_t{1} << 16;
  std::vector<float> x = drawn(n, 5, std::normal_distribution<float>(0.0f, 100.0f), false);
  for (std::size_t i = 20000; i < 24000; ++i) {
    x[i] = std::max(x[i], 0.0f);
  }
  for (std::size_t i = 30001; i < n; i += 4099) {
    x[i] *= 1e-5f;
  }
  for (std::size_t i = 31003; i < n; i += 7919) {
    x[i] *= 1e-9f;
  }
  x[50000] = 3e30f;
  std::vector<T> q(n);
  std::vector<minifloat::e8m0> scales(n / 32);
  std::vector<float> scale_inv(n / 128);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::string where = std::string(minifloat::to_string(path)) + " " + fmt.name;
    for (const auto rule : {minifloat::mx_scale_rule::floor, minifloat::mx_scale_rule::ceil}) {
      conversion_report report;
      minifloat::quantize_mx(x.data(), n, q.data(), scales.data(), report, rule);
      std::vector<double> scaled;
      for (std::size_t i = 0; i < n; ++i) {
        scaled.push_back(std::ldexp(ieee::to_double(x[i]), 127 - scales[i / 32].bits()));
      }
      const conversion_report expected = expected_report(fmt, scaled, bytes(q));
      expect_equal(report, expected, where + " mx");
      EXPECT_GT(expected.subnormal, 0u) << where;
      if (fmt.name == std::string("e4m3")) {
        EXPECT_GT(expected.flushed_to_zero, 0u) << where;
      }
    }
    for (const auto rounding :
         {minifloat::scale_rounding::exact, minifloat::scale_rounding::power_of_two}) {
      conversion_report report;
      minifloat::quantize_blocks(x.data(), 1, n, minifloat::tile_1x128, q.data(), scale_inv.data(),
                                 report, 0, rounding);
      std::vector<double> scaled;
      for (std::size_t tile = 0; tile < n / 128; ++tile) {
        float amax = 0;
        for (std::size_t i = 128 * tile; i < 128 * (tile + 1); ++i) {
          amax = std::max(amax, std::fabs(x[i]));
        }
        const float scale = minifloat::compute_scale<T>(amax, 0, rounding);
        for (std::size_t i = 128 * tile; i < 128 * (tile + 1); ++i) {
          scaled.push_back(ieee::to_double(ieee::product(x[i], scale)));
        }
      }
      const conversion_report expected = expected_report(fmt, scaled, bytes(q));
      expect_equal(report, expected, where + " tiles");
      EXPECT_GT(expected.subnormal, 0u) << where;
    }
  }
}

// Values in [1, 2) with scales that neither clip nor reach the subnormals (MX's ceil rule, tiles'
// power-of-two scales: the products keep their mantissas), where the largest error is a normal
// value's: the largest comes from a tie placed late, 1 + 2^-(M+1) rounded to 1 (error exactly
// 1/17 for e4m3, above any other value's), which the one-pass kernels must find as they go (a
// record in the report's window).
template <class T>
void expect_late_record_found(const reference::format& fmt) {
  const std::size_t n = std::size_t{1} << 16;
  std::vector<float> x = drawn(n, 11, std::uniform_real_distribution<float>(1.0f, 2.0f), true);
  const double half_step = std::ldexp(1.0, -fmt.mantissa_bits - 1);
  x[60001] = static_cast<float>(1 + half_step);
  std::vector<T> q(n);
  std::vector<minifloat::e8m0> scales(n / 32);
  std::vector<float> scale_inv(n / 128);
  const double tie_error = half_step / (1 + half_step);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    const std::string where = std::string(minifloat::to_string(path)) + " " + fmt.name;
    conversion_report report;
    minifloat::quantize_mx(x.data(), n, q.data(), scales.data(), report,
                           minifloat::mx_scale_rule::ceil);
    std::vector<double> scaled;
    for (std::size_t i = 0; i < n; ++i) {
      scaled.push_back(std::ldexp(ieee::to_double(x[i]), 127 - scales[i / 32].bits()));
    }
    conversion_report expected = expected_report(fmt, scaled, bytes(q));
    expect_equal(report, expected, where + " mx");
    EXPECT_EQ(expected.max_relative_error, tie_error) << where;
    minifloat::quantize_blocks(x.data(), 1, n, minifloat::tile_1x128, q.data(), scale_inv.data(),
                               report, 0, minifloat::scale_rounding::power_of_two);
    scaled.clear();
    for (std::size_t i = 0; i < n; ++i) {
      scaled.push_back(ieee::to_double(x[i]) / ieee::to_double(scale_inv[i / 128]));
    }
    expected = expected_report(fmt, scaled, bytes(q));
    expect_equal(report, expected, where + " tiles");
    EXPECT_EQ(expected.max_relative_error, tie_error) << where;
  }
}

// The block quantizers' one-pass kernels with a report from the start of a call, where the window
// of mantissas is wide: the first group's first-step extremes (lanes.inc
// group_product_first_step_keys), then, the window in the first step, the groups' running
// extremes (test_product_lanes). Every 32nd element 448, so that each MX block's and tile's
// scale is 1 and the products are the values; the others exact (1.0) but element 100, inexact,
// and one of larger error at places across the first groups (every path's): first-step errors,
// later steps' (the window is not in the first step then), and a small value (2^-9 (1 + d) with
// d just past 2^-4, a subnormal result: its error, d / (1 + d), is larger than its key's, which
// a normal value's rounding up would have).
TEST(ReportScaling, BlockQuantizersFirstStepExtremesFromTheFirstGroup) {
  using minifloat::e4m3;
  const std::size_t n = 4096;
  constexpr std::uint32_t half = std::uint32_t{1} << 19; // e4m3: 23 - M - 1
  constexpr std::uint32_t step = half << 1;
  const auto value = [](std::uint32_t mantissa) {
    return ieee::from_bits<float>(0x3F800000U | mantissa); // 1 + mantissa 2^-23
  };
  const std::pair<float, float> kinds[] = {
      {value(half - half / 128), value(half - half / 4096)},
      {value(3 * step + half - half / 128), value(2 * step + half - half / 128)},
      {value(half - half / 128), std::ldexp(value(half + half / 4096), -9)}};
  std::vector<float> x(n);
  std::vector<e4m3> q(n);
  std::vector<minifloat::e8m0> scales(n / 32);
  std::vector<float> scale_inv(n / 128);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    for (std::size_t kind = 0; kind < 3; ++kind) {
      const std::size_t places[] = {101, 127, 129, 511, 1025, 1500, 2047, 2049, 2081, 3000, 4095};
      for (const std::size_t at : places) {
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = i % 32 == 0 ? 448.0f : 1.0f;
        }
        x[100] = kinds[kind].first;
        x[at] = kinds[kind].second;
        const std::string where = std::string(minifloat::to_string(path)) + " kind " +
                                  std::to_string(kind) + " at " + std::to_string(at);
        const std::vector<double> values = exact_values(x);
        const double larger =
            std::fabs(static_cast<double>(static_cast<float>(e4m3(x[at]))) - values[at]) /
            values[at];
        conversion_report report;
        minifloat::quantize_blocks(x.data(), 1, n, minifloat::tile_1x128, q.data(),
                                   scale_inv.data(), report);
        ASSERT_EQ(scale_inv[0], 1.0f) << where;
        conversion_report expected = expected_report(reference::e4m3, values, bytes(q));
        expect_equal(report, expected, where + " tiles");
        EXPECT_EQ(expected.max_relative_error, larger) << where;
        minifloat::quantize_mx(x.data(), n, q.data(), scales.data(), report);
        ASSERT_EQ(scales[0].bits(), 127) << where;
        expected = expected_report(reference::e4m3, values, bytes(q));
        expect_equal(report, expected, where + " mx");
        EXPECT_EQ(expected.max_relative_error, larger) << where;
      }
    }
  }
}

TEST(ReportScaling, BlockQuantizersReportLargeInputs) {
  expect_block_reports_of_large_inputs<minifloat::e4m3>(reference::e4m3);
  expect_block_reports_of_large_inputs<minifloat::e5m2>(reference::e5m2);
  expect_block_reports_of_large_inputs<minifloat::e4m3fnuz>(reference::e4m3fnuz);
  expect_late_record_found<minifloat::e4m3>(reference::e4m3);
  expect_late_record_found<minifloat::e5m2>(reference::e5m2);
}

// MX e4m3 blocks of values that never reach the subnormals (|x| in [1, 120]): the largest
// relative error is a clipped value's, 1 - 448 / |x| up to 1/8 under the floor rule, above any
// rounding's within the normal range (at most 1/17).
TEST(ReportScaling, MxClippedValuesSetTheLargestError) {
  using minifloat::e4m3;
  const std::size_t n = 4096;
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> magnitude(1.0f, 120.0f);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = (generator() & 1) != 0 ? -magnitude(generator) : magnitude(generator);
  }
  std::vector<minifloat::e8m0> scales(n / 32);
  std::vector<e4m3> codes(n);
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    conversion_report report;
    minifloat::quantize_mx(x.data(), n, codes.data(), scales.data(), report);
    std::vector<double> scaled;
    for (std::size_t i = 0; i < n; ++i) {
      scaled.push_back(std::ldexp(ieee::to_double(x[i]), 127 - scales[i / 32].bits()));
    }
    const conversion_report expected = expected_report(reference::e4m3, scaled, bytes(codes));
    EXPECT_GT(expected.saturated, 0u);
    EXPECT_EQ(expected.subnormal + expected.flushed_to_zero, 0u);
    EXPECT_GT(expected.max_relative_error, 1.0 / 17);
    expect_equal(report, expected, minifloat::to_string(path));
  }
}

// NVFP4: each element times its block's factor 1 / (float(byte) * decode), capped at FLT_MAX
// (Transformer Engine's recipe, docs/spec.md §7), in float. quantize_nvfp4's report on every
// path against the definitions on those products and the stored elements; returns the
// definitions' report.
conversion_report expect_nvfp4_reports(const std::vector<float>& x,
                                       minifloat::nvfp4_tensor_scale tensor_scale) {
  const std::size_t n = x.size();
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::ue4m3> scales(n / 16);
  conversion_report expected;
  for (const minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path on(path);
    conversion_report report;
    minifloat::quantize_nvfp4(x.data(), n, packed.data(), scales.data(), tensor_scale, report);
    std::vector<double> scaled;
    std::vector<std::uint8_t> codes;
    for (std::size_t i = 0; i < n; ++i) {
      const float divisor = ieee::product(static_cast<float>(scales[i / 16]), tensor_scale.decode);
      const float factor = divisor == 0 ? 0x1.fffffep127f : ieee::quotient(1.0f, divisor);
      scaled.push_back(ieee::to_double(ieee::product(x[i], factor)));
      codes.push_back(static_cast<std::uint8_t>((packed[i / 2] >> (4 * (i % 2))) & 0xF));
    }
    expected = expected_report(reference::e2m1, scaled, codes.data());
    expect_equal(report, expected, minifloat::to_string(path));
  }
  return expected;
}

TEST(ReportScaling, Nvfp4ReportsTheScaledElements) {
  const std::vector<float> x = matrix(4096);
  expect_nvfp4_reports(x,
                       minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(x.data(), 4000)));
}

// NVFP4 with a tiny encode scale: a block of elements in [2, 3] gets byte 0 (amax * encode / 6
// is below ue4m3's smallest value), so its factor is FLT_MAX and its products are infinite,
// which the report counts as infinite values, as the definitions say for any infinite product.
// The block lies past the first piece of blocks, after values have flushed to zero (the largest
// error 1), where the one-pass kernels count a report in lanes.
TEST(ReportScaling, Nvfp4InfiniteProductsCountAsInfinite) {
  std::vector<float> x = matrix(8192);
  for (float& v : x) {
    v *= 10;
  }
  const std::size_t infinite_block = 300;
  for (std::size_t i = 16 * infinite_block; i < 16 * (infinite_block + 1); ++i) {
    x[i] = 2.0f + static_cast<float>(i % 16) / 16;
  }
  const conversion_report expected =
      expect_nvfp4_reports(x, minifloat::nvfp4_tensor_scale::from_encode_scale(1e-4f));
  EXPECT_EQ(expected.infinite_inputs, 16u);
  EXPECT_GT(expected.flushed_to_zero, 0u);
}

// A refused call leaves the report as it was.
TEST(ReportScaling, BadArgumentsLeaveTheReportUntouched) {
  conversion_report report;
  report.elements = 12345;
  std::vector<float> x(10, 1.0f);
  std::vector<minifloat::e4m3> q(10);
  EXPECT_THROW(minifloat::quantize(x.data(), 10, q.data(), -1.0f, report), std::invalid_argument);
  EXPECT_THROW(minifloat::convert(static_cast<const float*>(nullptr), 10, q.data(), report),
               std::invalid_argument);
  EXPECT_EQ(report.elements, 12345u);
}

} // namespace
