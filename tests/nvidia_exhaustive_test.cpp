// All 2^32 floats through NVIDIA's host conversions and the library's. Label: exhaustive.
#include <gtest/gtest.h>

#include <cstring>

#include "nvidia_compare.hpp"

namespace {

TEST(NvidiaExhaustive, EveryFloat) {
  sweep::tally tally;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      nvidia_compare::compare(local, sweep::float_from_bits(static_cast<std::uint32_t>(i)), i);
    }
  });
  tally.report("every float vs cuda_fp8.h");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
