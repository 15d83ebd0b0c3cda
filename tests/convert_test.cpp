// Conversions against the independent reference: every code both ways, every binary16 and
// bfloat16 input, every pair of 8-bit formats, integers, doubles around every midpoint, and the
// edge cases docs/spec.md §2 names.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>

#include <minifloat/minifloat.hpp>

#include "double_sweep.hpp"
#include "formats_under_test.hpp"
#include "reference.hpp"
#include "sweep.hpp"
#include "ieee.hpp"

namespace {

using minifloat::overflow;
using minifloat::rounding;
using under_test::every_mode;

template <class T>
using Conversion = under_test::format_fixture<T>;
TYPED_TEST_SUITE(Conversion, under_test::every_format, under_test::format_names);

std::uint32_t bits_of(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// Widening (docs/spec.md §3): every code to float, double, binary16 and bfloat16, exactly.
TYPED_TEST(Conversion, WidensEveryCodeExactly) {
  using T = TypeParam;
  for (unsigned code = 0; code < 256; ++code) {
    const T x = T::from_bits(static_cast<std::uint8_t>(code));
    const double expected = reference::decode(this->fmt, code);
    const float as_float = static_cast<float>(x);
    const double as_double = static_cast<double>(x);
    const double as_binary16 =
        reference::decode_binary16(static_cast<minifloat::binary16_bits>(x).bits);
    const double as_bfloat16 =
        reference::decode_bfloat16(static_cast<minifloat::bfloat16_bits>(x).bits);
    if (ieee::isnan(expected)) {
      EXPECT_TRUE(ieee::isnan(as_float) && ieee::isnan(as_double) && ieee::isnan(as_binary16) &&
                  ieee::isnan(as_bfloat16))
          << code;
      // A quiet NaN with the code's sign: the canonical ones of float and double.
      const bool negative = ieee::signbit(expected); // fnuz's NaN 0x80 has no sign
      EXPECT_EQ(bits_of(as_float), negative ? 0xFFC00000u : 0x7FC00000u) << code;
      EXPECT_EQ(bits_of(as_double), negative ? 0xFFF8000000000000u : 0x7FF8000000000000u);
      EXPECT_EQ(static_cast<minifloat::binary16_bits>(x).bits, negative ? 0xFE00u : 0x7E00u);
      EXPECT_EQ(static_cast<minifloat::bfloat16_bits>(x).bits, negative ? 0xFFC0u : 0x7FC0u);
    } else {
      // Equal values and equal signs (so -0 stays -0).
      EXPECT_EQ(bits_of(as_double), bits_of(expected)) << code;
      EXPECT_EQ(bits_of(as_float), bits_of(ieee::to_float(expected))) << code;
      if (T::format::has_subnormals) { // e8m0's range (2^-127 .. 2^127) exceeds binary16's
        EXPECT_EQ(bits_of(as_binary16), bits_of(expected)) << code;
      }
      EXPECT_EQ(bits_of(as_bfloat16), bits_of(expected)) << code;
    }
    EXPECT_EQ(bits_of(minifloat::decode_table<T>[code]), bits_of(as_float)) << code;
  }
}

// Narrowing each decoded value gives its code back in every mode; NaNs give the canonical NaN.
TYPED_TEST(Conversion, RoundTripsEveryCode) {
  using T = TypeParam;
  for (unsigned code = 0; code < under_test::code_count<T>; ++code) {
    const double value = reference::decode(this->fmt, code);
    // NaN codes become the format's canonical NaN (the reference's answer for a NaN input).
    const unsigned expected =
        ieee::isnan(value) ? this->ref.round(value, reference::mode::nearest_even, false) : code;
    for (const auto& m : every_mode) {
      const bool saturated_inf = m.saturate && ieee::isinf(value);
      if (saturated_inf) {
        continue; // covered by the edge cases below
      }
      EXPECT_EQ(under_test::narrow<T>(m, static_cast<float>(value), 0xFFFFFFFFu), expected)
          << m.name << " " << code;
      EXPECT_EQ(under_test::narrow<T>(m, value, 0xFFFFFFFFu), expected) << m.name << " " << code;
      EXPECT_EQ(under_test::narrow<T>(m, T::from_bits(static_cast<std::uint8_t>(code))), expected)
          << m.name << " " << code;
    }
  }
}

template <class T, class Wide>
void check_all_16_bit(const reference::narrower& ref, double (*decode)(std::uint16_t),
                      const char* name) {
  sweep::tally tally;
  for (std::uint32_t bits = 0; bits < 65536; ++bits) {
    const double value = decode(static_cast<std::uint16_t>(bits));
    const Wide input{static_cast<std::uint16_t>(bits)};
    for (const auto& m : every_mode) {
      const std::uint32_t r = sweep::mix(bits);
      tally.check(under_test::narrow<T>(m, input, r), ref.round(value, m.mode, m.saturate, r),
                  m.name, bits);
    }
  }
  tally.report(name);
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

// The exhaustive sweeps take each float's neighbours and rounding class from rounding_runs,
// and its stochastic rounding from round_stochastic_run; they must equal locate's,
// rounding_class's and round's for every float of a few whole chunks that cross every kind of
// boundary: zero, subnormals, the grid, infinity and NaN.
TYPED_TEST(Conversion, ReferenceRunsAgreeWithLocate) {
  const auto& ref = this->ref;
  const std::vector<double> grid = ref.grid_values();
  for (std::uint32_t chunk : {0x00000000u, 0x00010000u, 0x3C000000u, 0x3F800000u, 0x7F7F0000u,
                              0x7F800000u, 0x80000000u, 0xBC000000u, 0xC3E00000u, 0xFF800000u}) {
    std::vector<float> x(1u << 16);
    std::vector<std::uint32_t> bits(x.size());
    std::vector<std::uint8_t> codes(x.size());
    for (std::uint32_t k = 0; k < x.size(); ++k) {
      x[k] = sweep::float_from_bits(chunk + k);
      // Random bits: the two ends, 0 and 2^32 - 1; pseudo-random ones; and, between two grid
      // values, the two values on either side of the one that starts rounding up.
      bits[k] = k % 4 == 0 ? 0u : k % 4 == 1 ? 0xFFFFFFFFu : sweep::mix(chunk + k);
      const auto where = ref.locate(ieee::to_double(x[k]));
      if (k % 4 >= 2 && where.below != ref.npos && where.below + 1 < grid.size()) {
        const double lo = grid[where.below];
        const double fraction =
            (std::fabs(ieee::to_double(x[k])) - lo) / (grid[where.below + 1] - lo);
        const double threshold = 4294967296.0 - std::floor(std::ldexp(fraction, 32));
        if (threshold < 4294967296.0) {
          bits[k] = static_cast<std::uint32_t>(threshold) - (k % 4 - 2);
        }
      }
    }
    std::size_t expected_begin = 0;
    for (const auto& run : ref.rounding_runs(x.data(), x.size())) {
      ASSERT_EQ(run.begin, expected_begin);
      ASSERT_LT(run.begin, run.end);
      for (std::size_t j = run.begin; j < run.end; ++j) {
        const auto where = ref.locate(ieee::to_double(x[j]));
        ASSERT_EQ(ref.rounding_class(where), run.rounding_class) << std::hex << chunk + j;
        ASSERT_EQ(where.below, run.first.below) << std::hex << chunk + j;
      }
      for (bool saturate : {false, true}) {
        ref.round_stochastic_run(run, x.data(), bits.data(), saturate, codes.data());
        for (std::size_t j = run.begin; j < run.end; ++j) {
          ASSERT_EQ(codes[j], ref.round(x[j], reference::mode::stochastic, saturate, bits[j]))
              << std::hex << chunk + j << " saturate " << saturate;
        }
      }
      // Runs are maximal: the next float starts another class.
      if (run.end < x.size()) {
        ASSERT_NE(ref.rounding_class(ref.locate(ieee::to_double(x[run.end]))), run.rounding_class);
      }
      expected_begin = run.end;
    }
    ASSERT_EQ(expected_begin, x.size());
  }
}

// The exhaustive sweeps round once per run of floats with the same rounding_class; that is
// sound only if inputs sharing a class round alike in every mode but stochastic. Checked on a
// stride through all floats and on the floats next to every grid value and midpoint.
TYPED_TEST(Conversion, ReferenceRoundingClassDecidesTheRounding) {
  const auto& ref = this->ref;
  std::vector<float> inputs;
  for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += 4093) {
    inputs.push_back(sweep::float_from_bits(static_cast<std::uint32_t>(bits)));
  }
  for (float x : {0.0f, 1e-45f, 2e-45f, 1e-40f, 1e-38f}) {
    inputs.insert(inputs.end(), {x, -x});
  }
  const std::vector<double> grid = ref.grid_values();
  for (std::size_t i = 0; i < grid.size(); ++i) {
    for (double anchor : {grid[i], i + 1 < grid.size() ? (grid[i] + grid[i + 1]) / 2 : grid[i]}) {
      for (float sign : {1.0f, -1.0f}) {
        float x = sign * static_cast<float>(anchor);
        for (int k = 0; k < 3; ++k) {
          x = std::nextafter(x, 0.0f);
        }
        for (int k = 0; k < 6;
             ++k, x = std::nextafter(x, sign * ieee::positive_infinity<float>())) {
          inputs.push_back(x);
        }
      }
    }
  }
  using modes = std::array<unsigned, 6>;
  const auto round_all = [&](const reference::narrower::located& where) {
    modes codes{};
    std::size_t k = 0;
    for (auto m :
         {reference::mode::nearest_even, reference::mode::toward_zero, reference::mode::upward}) {
      codes[k++] = ref.round(where, m, false);
      codes[k++] = ref.round(where, m, true);
    }
    return codes;
  };
  std::map<std::uint64_t, modes> first_of_class;
  for (float x : inputs) {
    const auto where = ref.locate(x);
    const modes codes = round_all(where);
    const auto [it, inserted] = first_of_class.emplace(ref.rounding_class(where), codes);
    ASSERT_TRUE(inserted || it->second == codes) << x;
  }
  EXPECT_GT(first_of_class.size(), 4 * grid.size()); // the classes split at the midpoints
}

// The scalar casts of floats into the formats of at most 5 mantissa bits read a table by a
// float's top 9 + K bits (K = 4, or M + 1 past 3 mantissa bits) and whether the bits below are
// zero (detail/narrowing_table.hpp), one for each rounding but stochastic and each overflow rule.
// Every entry, through floats of each run of 2^17 (K = 6, the finest): its first, the next, one
// in the middle and its last (the all-floats sweeps, in the exhaustive label, take every float
// into e4m3, e5m2 and the MX elements in every mode; the other formats only in nearest-even
// there).
TYPED_TEST(Conversion, EveryRunOfFloatsInEveryMode) {
  sweep::tally tally;
  for (std::uint32_t run = 0; run < (1U << 15); ++run) {
    for (std::uint32_t offset : {0U, 1U, 1U << 16, (1U << 17) - 1}) {
      const std::uint32_t bits = run << 17 | offset;
      const float x = sweep::float_from_bits(bits);
      for (const auto& m : every_mode) {
        if (m.mode != reference::mode::stochastic) {
          tally.check(under_test::narrow<TypeParam>(m, x),
                      this->ref.round(ieee::to_double(x), m.mode, m.saturate, 0), m.name, bits);
        }
      }
    }
  }
  tally.report(this->fmt.name.c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

TYPED_TEST(Conversion, EveryBinary16Input) {
  check_all_16_bit<TypeParam, minifloat::binary16_bits>(this->ref, reference::decode_binary16,
                                                        "binary16");
}
TYPED_TEST(Conversion, EveryBfloat16Input) {
  check_all_16_bit<TypeParam, minifloat::bfloat16_bits>(this->ref, reference::decode_bfloat16,
                                                        "bfloat16");
}

// The scalar casts read a binary16's code from a table by its top 10 bits and whether the 6
// below are zero, where half the format's smallest subnormal is at least 2^-18 (e5m2fnuz, above,
// sits on that bound). An E5M2 format with bias 17 lies just past it: its midpoints 2^-19 apart
// split the runs of 64 binary16 subnormals, so its casts must widen to float first.
TEST(Conversion, EveryBinary16InputPastTheBinary16TablesBound) {
  using e5m2_bias17 =
      minifloat::basic_fp8<minifloat::binary_format<5, 2, 17, minifloat::specials::ieee>>;
  const reference::format fmt{"e5m2_bias17", 5, 2, 17, reference::nan_rule::ieee};
  check_all_16_bit<e5m2_bias17, minifloat::binary16_bits>(reference::narrower{fmt},
                                                          reference::decode_binary16, "binary16");
}

#if MINIFLOAT_HAS_FLOAT16
TYPED_TEST(Conversion, EveryNativeFloat16Input) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < 65536; ++bits) {
    const minifloat::binary16_bits raw{static_cast<std::uint16_t>(bits)};
    _Float16 native;
    std::memcpy(&native, &raw, sizeof native);
    ASSERT_EQ(T(native).bits(), T(raw).bits()) << bits;
    const T x = T::from_bits(static_cast<std::uint8_t>(bits & 0xFF));
    const auto widened = static_cast<_Float16>(x);
    std::uint16_t widened_bits;
    std::memcpy(&widened_bits, &widened, sizeof widened_bits);
    ASSERT_EQ(widened_bits, static_cast<minifloat::binary16_bits>(x).bits);
  }
}
#endif

// Every code of every 8-bit format into every other, in every mode: one rounding.
constexpr std::uint32_t cross_random_bits[] = {0u, 0x40000000u, 0x80000000u, 0xC0000000u,
                                               0xFFFFFFFFu};
// The reference's side, written once: got holds the library's codes in the order of the loops.
void compare_cross(const reference::format& from_fmt, const reference::format& to_fmt,
                   const std::vector<unsigned>& got, const char* name) {
  const reference::narrower to_ref(to_fmt);
  sweep::tally tally;
  std::size_t k = 0;
  for (unsigned code = 0; code < 256; ++code) {
    const double value = reference::decode(from_fmt, code);
    for (const auto& m : every_mode) {
      for (std::uint32_t r : cross_random_bits) {
        tally.check(got[k++], to_ref.round(value, m.mode, m.saturate, r), m.name, code);
      }
    }
  }
  tally.report(name);
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}
// The library's side, per pair of types (the comparison out of the template: a tenth of the code).
template <class From, class To>
void check_cross(const char* name) {
  std::vector<unsigned> got;
  got.reserve(256 * std::size(every_mode) * std::size(cross_random_bits));
  for (unsigned code = 0; code < 256; ++code) {
    const From x = From::from_bits(static_cast<std::uint8_t>(code));
    for (const auto& m : every_mode) {
      for (std::uint32_t r : cross_random_bits) {
        got.push_back(under_test::narrow<To>(m, x, r));
      }
    }
  }
  compare_cross(under_test::format_of<From>::get(), under_test::format_of<To>::get(), got, name);
}

template <class From, class... To>
void check_cross_from(::testing::Types<To...>) {
  (check_cross<From, To>(under_test::format_of<To>::get().name.c_str()), ...);
}
// All 256 x 256 code pairs of every pair of formats (the 8-bit formats are the sources too).
TYPED_TEST(Conversion, EveryCodeToEveryOtherFormat) {
  check_cross_from<TypeParam>(under_test::every_format{});
}

// The constructor of another format is nearest-even, non-saturating.
TEST(CrossFormat, ConstructorIsNearestEven) {
  for (unsigned code = 0; code < 256; ++code) {
    const auto x = minifloat::e5m2::from_bits(static_cast<std::uint8_t>(code));
    EXPECT_EQ(minifloat::e4m3(x).bits(), minifloat::convert<minifloat::e4m3>(x).bits());
    const auto y = minifloat::e4m3::from_bits(static_cast<std::uint8_t>(code));
    EXPECT_EQ(minifloat::e5m2(y).bits(), minifloat::convert<minifloat::e5m2>(y).bits());
  }
}

template <class T, class Integer>
void check_integers(const reference::narrower& ref, Integer first, Integer last) {
  sweep::tally tally;
  for (Integer i = first;; ++i) {
    // The reference works on doubles: an integer of more than 53 significant bits would reach
    // it already rounded. Those are checked by hand below (IntegersPastDoublePrecision).
    const auto value = static_cast<double>(i);
    if (std::fabs(value) >= 0x1p53 &&
        static_cast<long double>(value) != static_cast<long double>(i)) {
      if (i == last) {
        break;
      }
      continue;
    }
    for (const auto& m : every_mode) {
      const std::uint32_t r = sweep::mix(static_cast<std::uint64_t>(i));
      tally.check(under_test::narrow<T>(m, i, r),
                  ref.round(static_cast<double>(i), m.mode, m.saturate, r), m.name,
                  static_cast<std::uint64_t>(i));
    }
    if (i == last) {
      break;
    }
  }
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

TYPED_TEST(Conversion, Integers) {
  using T = TypeParam;
  check_integers<T, std::int16_t>(this->ref, std::numeric_limits<std::int16_t>::min(),
                                  std::numeric_limits<std::int16_t>::max());
  check_integers<T, std::uint16_t>(this->ref, 0, std::numeric_limits<std::uint16_t>::max());
  check_integers<T, signed char>(this->ref, -128, 127);
  check_integers<T, std::uint32_t>(this->ref, 65000, 70000); // around e5m2's overflow
  // The extremes of the widest types (every 8-bit format overflows there; no UB at INT64_MIN).
  check_integers<T, std::int64_t>(this->ref, std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::min() + 3);
  check_integers<T, std::int64_t>(this->ref, std::numeric_limits<std::int64_t>::max() - 3,
                                  std::numeric_limits<std::int64_t>::max());
  check_integers<T, std::uint64_t>(this->ref, std::numeric_limits<std::uint64_t>::max() - 3,
                                   std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(T(true).bits(), T(1).bits());
  EXPECT_EQ(T(0).bits(), 0u); // an integer zero is +0
}

// Integers wider than a double's significand round once, directly (no detour through double).
// e8m0 is the only format whose range reaches them; codes worked out by hand.
TEST(Conversion, IntegersPastDoublePrecision) {
  using minifloat::e8m0;
  using minifloat::rounding;
  const std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();    // 2^63 - 1
  const std::uint64_t uint64_max = std::numeric_limits<std::uint64_t>::max(); // 2^64 - 1
  EXPECT_EQ(e8m0(int64_max).bits(), 127 + 63);                                // nearest: 2^63
  EXPECT_EQ((minifloat::convert<e8m0, rounding::toward_zero>(int64_max).bits()), 127 + 62);
  EXPECT_EQ(e8m0(uint64_max).bits(), 127 + 64);
  EXPECT_EQ((minifloat::convert<e8m0, rounding::toward_zero>(uint64_max).bits()), 127 + 63);
  // 3 * 2^60 - 1 is just below the midpoint 1.5 * 2^61 between 2^61 (code 188) and 2^62 (189),
  // so it rounds to 2^61; as a double it is the midpoint itself, which rounds up to 2^62 (e8m0's
  // ties go up, docs/spec.md §7).
  const std::int64_t below_midpoint = (std::int64_t{3} << 60) - 1;
  EXPECT_EQ(e8m0(below_midpoint).bits(), 127 + 61);
  EXPECT_EQ(e8m0(static_cast<double>(below_midpoint)).bits(), 127 + 62);
  EXPECT_EQ(e8m0(std::numeric_limits<std::int64_t>::min()).bits(), 0xFF); // negative: NaN
  // The same for the wide targets: int64 -> double rounds once too.
  EXPECT_EQ(minifloat::convert<double>(int64_max), 0x1p63);
  EXPECT_EQ((minifloat::convert<double, rounding::toward_zero>(int64_max)), 0x1.fffffffffffffp62);
}

// Doubles at and around every midpoint: a sample here, 10^7 in the exhaustive label.
TYPED_TEST(Conversion, DoublesAroundMidpoints) {
  using T = TypeParam;
  const std::vector<double> inputs = double_sweep::inputs(this->ref, 200000);
  sweep::tally tally;
  for (double x : inputs) {
    for (const auto& m : every_mode) {
      const std::uint32_t r = sweep::mix(bits_of(x));
      tally.check(under_test::narrow<T>(m, x, r), this->ref.round(x, m.mode, m.saturate, r), m.name,
                  bits_of(x));
    }
  }
  tally.report(this->fmt.name.c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

// Doubles outside float's normal range or with bits below float's precision: those a conversion
// through float (converter.hpp: reads_through_float) must round as the double.
TYPED_TEST(Conversion, DoublesAtFloatsEdges) {
  using T = TypeParam;
  sweep::tally tally;
  for (double x : double_sweep::edge_doubles()) {
    for (const auto& m : every_mode) {
      const std::uint32_t r = sweep::mix(bits_of(x));
      tally.check(under_test::narrow<T>(m, x, r), this->ref.round(x, m.mode, m.saturate, r), m.name,
                  bits_of(x));
    }
  }
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

// The edge cases of docs/spec.md §2, with the codes the spec gives (not computed by any code).
TEST(SpecEdgeCases, E4M3) {
  using minifloat::e4m3;
  const float inf = ieee::positive_infinity<float>();
  const float nan = ieee::quiet_nan<float>();
  EXPECT_EQ(e4m3(448.0f).bits(), 0x7E);
  EXPECT_EQ(e4m3(464.0f).bits(), 0x7E);                      // tie between 448 and 480: even is 448
  EXPECT_EQ(e4m3(std::nextafter(464.0f, inf)).bits(), 0x7F); // above 464: NaN
  EXPECT_EQ(e4m3(465.0f).bits(), 0x7F);
  EXPECT_EQ(e4m3(-465.0f).bits(), 0xFF); // NaN keeps the sign
  EXPECT_EQ(minifloat::saturate_cast<e4m3>(465.0f).bits(), 0x7E);
  EXPECT_EQ(minifloat::saturate_cast<e4m3>(-1e30f).bits(), 0xFE);
  EXPECT_EQ(e4m3(inf).bits(), 0x7F);
  EXPECT_EQ(e4m3(-inf).bits(), 0xFF);
  EXPECT_EQ(minifloat::saturate_cast<e4m3>(inf).bits(), 0x7E);
  EXPECT_EQ(minifloat::saturate_cast<e4m3>(-inf).bits(), 0xFE);
  EXPECT_EQ(e4m3(nan).bits(), 0x7F);
  EXPECT_EQ(e4m3(-nan).bits(), 0xFF);
  EXPECT_EQ(minifloat::saturate_cast<e4m3>(-nan).bits(), 0xFF); // NaN stays NaN
  EXPECT_EQ(e4m3(0.0f).bits(), 0x00);
  EXPECT_EQ(e4m3(-0.0f).bits(), 0x80);
  EXPECT_EQ(e4m3(0x1p-10f).bits(), 0x00);  // half the min subnormal: tie to even (0)
  EXPECT_EQ(e4m3(-0x1p-10f).bits(), 0x80); // -0
  EXPECT_EQ(e4m3(std::nextafter(0x1p-10f, 1.0f)).bits(), 0x01);
  EXPECT_EQ(e4m3(0x3p-10f).bits(), 0x02);  // 1.5 min subnormal: tie to even (2)
  EXPECT_EQ(e4m3(0x1p-6f).bits(), 0x08);   // min normal
  EXPECT_EQ(e4m3(0x1.ep-7f).bits(), 0x08); // 15/16 of min normal: tie between 0x07 and 0x08
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(479.0f).bits()), 0x7E);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(1e30f).bits()), 0x7E);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(-1e30f).bits()), 0xFE);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(inf).bits()), 0x7F);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero, overflow::saturate>(inf).bits()),
            0x7E);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(1.1f).bits()), 0x38);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::toward_zero>(-1.2f).bits()), 0xB9);
  // The double-rounding trap: directly 1.125, through float 1.0.
  EXPECT_EQ(e4m3(1.0 + 0x1p-4 + 0x1p-30).bits(), 0x39);
  EXPECT_EQ(e4m3(static_cast<float>(1.0 + 0x1p-4 + 0x1p-30)).bits(), 0x38);
}

TEST(SpecEdgeCases, E5M2) {
  using minifloat::e5m2;
  const float inf = ieee::positive_infinity<float>();
  const float nan = ieee::quiet_nan<float>();
  EXPECT_EQ(e5m2(57344.0f).bits(), 0x7B);
  EXPECT_EQ(e5m2(61439.0f).bits(), 0x7B);
  EXPECT_EQ(e5m2(61440.0f).bits(), 0x7C); // tie between 57344 and 65536: even overflows
  EXPECT_EQ(e5m2(-61440.0f).bits(), 0xFC);
  EXPECT_EQ(minifloat::saturate_cast<e5m2>(61440.0f).bits(), 0x7B);
  EXPECT_EQ(e5m2(inf).bits(), 0x7C);
  EXPECT_EQ(e5m2(-inf).bits(), 0xFC);
  EXPECT_EQ(minifloat::saturate_cast<e5m2>(inf).bits(), 0x7B);
  EXPECT_EQ(minifloat::saturate_cast<e5m2>(-inf).bits(), 0xFB);
  EXPECT_EQ(e5m2(nan).bits(), 0x7F);
  EXPECT_EQ(e5m2(-nan).bits(), 0xFF);
  EXPECT_EQ(e5m2(0x1p-17f).bits(), 0x00); // half the min subnormal
  EXPECT_EQ(e5m2(0x1p-16f).bits(), 0x01);
  EXPECT_EQ(e5m2(0x1p-14f).bits(), 0x04);
  EXPECT_EQ((minifloat::convert<e5m2, rounding::toward_zero>(65535.0f).bits()), 0x7B);
  EXPECT_EQ((minifloat::convert<e5m2, rounding::toward_zero>(inf).bits()), 0x7C);
  EXPECT_EQ((minifloat::convert<e5m2, rounding::toward_zero, overflow::saturate>(-inf).bits()),
            0xFB);
}

// The format family (docs/spec.md §1, the fnuz and e8m0 rows): codes worked out from each format's
// table.
TEST(SpecEdgeCases, Fnuz) {
  using minifloat::e4m3b11fnuz;
  using minifloat::e4m3fnuz;
  using minifloat::e5m2fnuz;
  const float inf = ieee::positive_infinity<float>();
  const float nan = ieee::quiet_nan<float>();
  EXPECT_TRUE(minifloat::isnan(e4m3fnuz::from_bits(0x80))); // 0x80 is NaN, not -0
  EXPECT_TRUE(ieee::isnan(static_cast<float>(e5m2fnuz::from_bits(0x80))));
  EXPECT_EQ(e4m3fnuz(1.0f).bits(), 0b0'1000'000);
  EXPECT_EQ(e5m2fnuz(1.0f).bits(), 0b0'10000'00);
  EXPECT_EQ(e4m3b11fnuz(1.0f).bits(), 0b0'1011'000);
  EXPECT_EQ(e4m3fnuz(-0.0f).bits(), 0x00);     // no negative zero
  EXPECT_EQ(e4m3fnuz(-0x1p-12f).bits(), 0x00); // a negative underflow gives +0, never NaN
  EXPECT_EQ(e4m3fnuz(-0x1p-11f).bits(), 0x00); // tie at half the min subnormal: even is 0
  EXPECT_EQ(e4m3fnuz(-0x3p-12f).bits(), 0x81); // -0.75 min subnormal: -2^-10
  EXPECT_EQ(e4m3fnuz(240.0f).bits(), 0x7F);
  EXPECT_EQ(e4m3fnuz(std::nextafter(248.0f, 0.0f)).bits(), 0x7F);
  EXPECT_EQ(e4m3fnuz(248.0f).bits(), 0x80); // tie between 240 and 256: even overflows, NaN
  EXPECT_EQ(e4m3fnuz(-248.0f).bits(), 0x80);
  EXPECT_EQ(minifloat::saturate_cast<e4m3fnuz>(1e9f).bits(), 0x7F);
  EXPECT_EQ(minifloat::saturate_cast<e4m3fnuz>(-1e9f).bits(), 0xFF);
  EXPECT_EQ(e4m3fnuz(inf).bits(), 0x80);
  EXPECT_EQ(minifloat::saturate_cast<e4m3fnuz>(-inf).bits(), 0xFF);
  EXPECT_EQ(e4m3fnuz(nan).bits(), 0x80);
  EXPECT_EQ(e4m3fnuz(-nan).bits(), 0x80);
  EXPECT_EQ(e5m2fnuz(57344.0f).bits(), 0x7F);
  EXPECT_EQ(e5m2fnuz(61440.0f).bits(), 0x80);
  EXPECT_EQ(e5m2fnuz(0x1p-17f).bits(), 0x01);
  EXPECT_EQ(e4m3b11fnuz(30.0f).bits(), 0x7F);
  EXPECT_EQ(e4m3b11fnuz(30.9f).bits(), 0x7F);
  EXPECT_EQ(e4m3b11fnuz(31.0f).bits(), 0x80);
  EXPECT_EQ(e4m3b11fnuz(0x1p-13f).bits(), 0x01);
  // Between families: e4m3 (fn) 448 is past e4m3fnuz's 240; e4m3fnuz 240 is exact in e4m3.
  EXPECT_EQ(e4m3fnuz(minifloat::e4m3(448.0f)).bits(), 0x80);
  EXPECT_EQ(minifloat::e4m3(e4m3fnuz(240.0f)).bits(), 0x77);
  EXPECT_EQ(minifloat::e4m3(e4m3fnuz::from_bits(0x80)).bits(), 0x7F); // NaN stays NaN
}

// Upward (ceil): for e8m0 the "ceil" scale rule of docs/spec.md §5; for the signed formats IEEE's
// roundTowardPositive with the overflow rule applied to positive results.
TEST(SpecEdgeCases, Upward) {
  using minifloat::e4m3;
  using minifloat::e8m0;
  using minifloat::overflow;
  using minifloat::rounding;
  const float inf = ieee::positive_infinity<float>();
  EXPECT_EQ((minifloat::convert<e8m0, rounding::upward>(1.0001f).bits()), 128);   // 2
  EXPECT_EQ((minifloat::convert<e8m0, rounding::upward>(0.3f).bits()), 126);      // 0.5
  EXPECT_EQ((minifloat::convert<e8m0, rounding::toward_zero>(0.3f).bits()), 125); // 0.25
  EXPECT_EQ(e8m0(0.3f).bits(), 125);                                              // nearest
  EXPECT_EQ((minifloat::convert<e8m0, rounding::upward>(0x1p-127f).bits()), 0);   // exact
  EXPECT_EQ((minifloat::convert<e8m0, rounding::upward>(0x1.000002p127f).bits()), 0xFF);
  EXPECT_EQ(
      (minifloat::convert<e8m0, rounding::upward, overflow::saturate>(0x1.000002p127f).bits()),
      0xFE);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(1.01f).bits()), 0x39);  // 1.125
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(-1.01f).bits()), 0xB8); // -1
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(449.0f).bits()), 0x7F); // NaN
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward, overflow::saturate>(449.0f).bits()), 0x7E);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(-1e9f).bits()), 0xFE); // -448
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(-inf).bits()), 0xFF);  // NaN
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(1e-30f).bits()), 0x01);
  EXPECT_EQ((minifloat::convert<e4m3, rounding::upward>(-1e-30f).bits()), 0x80); // -0
}

TEST(SpecEdgeCases, IeeeE4M3) {
  using minifloat::e4m3_ieee;
  const float inf = ieee::positive_infinity<float>();
  EXPECT_EQ(e4m3_ieee(240.0f).bits(), 0x77);
  EXPECT_EQ(e4m3_ieee(248.0f).bits(), 0x78); // tie between 240 and 256: even is inf
  EXPECT_EQ(e4m3_ieee(-inf).bits(), 0xF8);
  EXPECT_EQ(minifloat::saturate_cast<e4m3_ieee>(inf).bits(), 0x77);
  EXPECT_TRUE(minifloat::isnan(e4m3_ieee::from_bits(0x79)));
  EXPECT_TRUE(minifloat::isinf(e4m3_ieee::from_bits(0xF8)));
}

} // namespace
