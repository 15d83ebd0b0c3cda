// NVIDIA's host conversions against the library's over a quarter of all floats, 2^30 of them
// spread over the whole range (bit patterns j * 0x9E3779B1 for j < 2^30: the multiplier is odd,
// so these are distinct, and they cover every exponent and every pattern of low bits). Set
// MINIFLOAT_NVIDIA_ALL_FLOATS=1 to compare all 2^32 (four times as long: CI takes the quarter
// to stay within its time; the library itself is swept over every float against the reference
// in exhaustive_test). Label: exhaustive.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "nvidia_compare.hpp"

namespace {

TEST(NvidiaExhaustive, QuarterOfAllFloats) {
  const char* all = std::getenv("MINIFLOAT_NVIDIA_ALL_FLOATS");
  const bool every_float = all != nullptr && std::strcmp(all, "1") == 0;
  const std::uint64_t count = std::uint64_t{1} << (every_float ? 32 : 30);
  sweep::tally tally;
  sweep::parallel_for(count, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t j = begin; j < end; ++j) {
      const auto bits =
          every_float ? static_cast<std::uint32_t>(j) : static_cast<std::uint32_t>(j * 0x9E3779B1U);
      nvidia_compare::compare(local, sweep::float_from_bits(bits), bits);
    }
  });
  tally.report(every_float ? "every float vs cuda_fp8.h" : "a quarter of the floats vs cuda_fp8.h");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
