// NVIDIA's host conversions (cuda_fp8.h) as a second, independent oracle: a strided sample of
// the floats and the doubles around every midpoint. A quarter of all floats (or all, on request):
// nvidia_exhaustive_test.
#include <gtest/gtest.h>

#include <cstring>

#include "double_sweep.hpp"
#include "nvidia_compare.hpp"
#include "reference.hpp"

namespace {

TEST(Nvidia, FloatSample) {
  sweep::tally tally;
  {
    sweep::local_tally local(tally);
    // Every 997th bit pattern: all exponents, both signs, NaNs and infinities included.
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += 997) {
      nvidia_compare::compare(local, sweep::float_from_bits(static_cast<std::uint32_t>(i)), i);
    }
  }
  tally.report("float sample");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

TEST(Nvidia, DoublesAroundMidpoints) {
  sweep::tally tally;
  {
    sweep::local_tally local(tally);
    for (const reference::format* fmt : {&reference::e4m3, &reference::e5m2}) {
      for (double x : double_sweep::inputs(reference::narrower(*fmt), 200000)) {
        std::uint64_t id;
        std::memcpy(&id, &x, sizeof id);
        nvidia_compare::compare(local, x, id);
      }
    }
  }
  tally.report("doubles");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
