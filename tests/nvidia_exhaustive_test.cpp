// NVIDIA's host conversions against the library's over the sample of floats that
// nvidia_compare::float_sample describes (a quarter of all floats; all with
// MINIFLOAT_NVIDIA_ALL_FLOATS=1). Label: exhaustive.
#include <gtest/gtest.h>

#include <string>

#include "nvidia_compare.hpp"

namespace {

TEST(NvidiaExhaustive, QuarterOfAllFloats) {
  const nvidia_compare::float_sample sample;
  sweep::tally tally;
  sweep::parallel_for(sample.count(), [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t j = begin; j < end; ++j) {
      const std::uint32_t bits = sample.bits(j);
      nvidia_compare::compare(local, sweep::float_from_bits(bits), bits);
    }
  });
  tally.report((std::string(sample.name()) + " vs cuda_fp8.h").c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
