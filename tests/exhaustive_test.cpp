// The long sweeps (label: exhaustive): every one of the 2^32 floats narrowed to each 8-bit format
// in every mode, and 10^7 doubles at and around the midpoints, against the independent reference.
#include <gtest/gtest.h>

#include <cstring>

#include <minifloat/minifloat.hpp>

#include "double_sweep.hpp"
#include "formats_under_test.hpp"
#include "reference.hpp"
#include "sweep.hpp"

namespace {

using minifloat::overflow;
using minifloat::rounding;
using reference::mode;

// Fixed random-bit values for stochastic rounding: never up, and always up but for exact values;
// plus a per-input pseudo-random value. (The sweeps are CI's long pole: each check over 2^32
// floats costs about 30 s. Toward zero with saturation differs from without only on infinities,
// which the quick suite covers in every format.)
constexpr std::uint32_t fixed_random_bits[] = {0u, 0xFFFFFFFFu};

enum class checks { nearest_even_both_overflows, and_directed, every_mode };

template <class T>
void sweep_all_floats(const reference::format& fmt, checks which) {
  const reference::narrower ref(fmt);
  sweep::tally tally;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      const float x = sweep::float_from_bits(static_cast<std::uint32_t>(i));
      const auto where = ref.locate(x);
      local.check(minifloat::convert<T>(x).bits(), ref.round(where, mode::nearest_even, false),
                  "nearest_even", i);
      local.check(minifloat::saturate_cast<T>(x).bits(), ref.round(where, mode::nearest_even, true),
                  "saturate_cast", i);
      if (which == checks::nearest_even_both_overflows) {
        continue;
      }
      local.check(minifloat::convert<T, rounding::toward_zero>(x).bits(),
                  ref.round(where, mode::toward_zero, false), "toward_zero", i);
      local.check(minifloat::convert<T, rounding::upward>(x).bits(),
                  ref.round(where, mode::upward, false), "upward", i);
      if (which == checks::and_directed) {
        continue;
      }
      for (std::uint32_t r : fixed_random_bits) {
        local.check(minifloat::stochastic_cast<T>(x, r).bits(),
                    ref.round(where, mode::stochastic, false, r), "stochastic fixed", i);
      }
      const std::uint32_t r = sweep::mix(i);
      local.check(minifloat::stochastic_cast<T>(x, r).bits(),
                  ref.round(where, mode::stochastic, false, r), "stochastic", i);
      local.check(minifloat::stochastic_cast<T, overflow::saturate>(x, r).bits(),
                  ref.round(where, mode::stochastic, true, r), "stochastic saturate", i);
    }
  });
  tally.report(fmt.name.c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

TEST(ExhaustiveFloat, E4M3EveryMode) {
  sweep_all_floats<minifloat::e4m3>(reference::e4m3, checks::every_mode);
}
TEST(ExhaustiveFloat, E5M2EveryMode) {
  sweep_all_floats<minifloat::e5m2>(reference::e5m2, checks::every_mode);
}
TEST(ExhaustiveFloat, E3M4) {
  sweep_all_floats<minifloat::e3m4>(reference::e3m4, checks::nearest_even_both_overflows);
}
TEST(ExhaustiveFloat, E2M5) {
  sweep_all_floats<minifloat::e2m5>(reference::e2m5, checks::nearest_even_both_overflows);
}
// The format family: nearest-even, both overflow rules.
TEST(ExhaustiveFloat, E4M3Ieee) {
  sweep_all_floats<minifloat::e4m3_ieee>(reference::e4m3_ieee, checks::nearest_even_both_overflows);
}
TEST(ExhaustiveFloat, E4M3Fnuz) {
  sweep_all_floats<minifloat::e4m3fnuz>(reference::e4m3fnuz, checks::nearest_even_both_overflows);
}
TEST(ExhaustiveFloat, E5M2Fnuz) {
  sweep_all_floats<minifloat::e5m2fnuz>(reference::e5m2fnuz, checks::nearest_even_both_overflows);
}
// e8m0: the three scale rules of SPEC §5: nearest-even (both overflow rules), toward zero
// (floor, the OCP MX rule) and upward (ceil, as CUDA and DeepGEMM round).
TEST(ExhaustiveFloat, E8M0) {
  sweep_all_floats<minifloat::e8m0>(reference::e8m0, checks::and_directed);
}
TEST(ExhaustiveFloat, E4M3B11Fnuz) {
  sweep_all_floats<minifloat::e4m3b11fnuz>(reference::e4m3b11fnuz,
                                           checks::nearest_even_both_overflows);
}

} // namespace

namespace {

template <class T>
void sweep_doubles(std::size_t count) {
  const reference::narrower ref(under_test::format_of<T>::get());
  const std::vector<double> inputs = double_sweep::inputs(ref, count);
  sweep::tally tally;
  sweep::parallel_for(inputs.size(), [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      const double x = inputs[i];
      const std::uint32_t r = sweep::mix(i);
      for (const auto& m : under_test::every_mode) {
        local.check(under_test::narrow<T>(m, x, r), ref.round(x, m.mode, m.saturate, r), m.name, i);
      }
    }
  });
  tally.report((ref.fmt().name + " doubles").c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

// 10^7 doubles in all, shared among the four formats.
TEST(ExhaustiveDouble, E4M3) { sweep_doubles<minifloat::e4m3>(2500000); }
TEST(ExhaustiveDouble, E5M2) { sweep_doubles<minifloat::e5m2>(2500000); }
TEST(ExhaustiveDouble, E3M4) { sweep_doubles<minifloat::e3m4>(2500000); }
TEST(ExhaustiveDouble, E2M5) { sweep_doubles<minifloat::e2m5>(2500000); }

} // namespace

namespace {

// The library has two implementations of the same steps: the generic unpack + pack, which
// every source can take, and the direct narrowing that float takes. The sweeps above check the
// direct one against the reference; this checks the generic one against it, over all floats.
template <class Format, minifloat::detail::rounding_rule Rule, overflow O>
void generic_equals_direct(sweep::tally& tally, const char* name) {
  using namespace minifloat::detail;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto bits = static_cast<std::uint32_t>(i);
      const std::uint32_t r = sweep::mix(i);
      local.check(pack<Format, Rule, O>(unpack_code<minifloat::formats::binary32>(bits), r),
                  narrow_directly<minifloat::formats::binary32, Format, Rule, O>(bits, r), name, i);
    }
  });
}

TEST(ExhaustiveFloat, GenericPathEqualsDirectPath) {
  // One mode here: the generic path's other modes and formats are covered against the reference
  // by the doubles (which always take it), the cross-format and the integer tests.
  sweep::tally tally;
  generic_equals_direct<minifloat::formats::e4m3, minifloat::detail::rounding_rule::nearest_even,
                        overflow::non_saturating>(tally, "e4m3 nearest_even");
  tally.report("generic vs direct");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
