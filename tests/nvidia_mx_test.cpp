// NVIDIA's host conversions to the MX types (cuda_fp4.h, cuda_fp6.h, and cuda_fp8.h's e8m0) as a
// second oracle, over the sample of floats that nvidia_compare::float_sample describes (a quarter
// of all floats, spread over the whole range; all with MINIFLOAT_NVIDIA_ALL_FLOATS=1; label:
// exhaustive). CUDA offers nearest-even and toward zero
// for the elements, toward zero and upward for e8m0. Documented differences (docs/semantics.md),
// applied to NVIDIA's answer before comparing, and counted:
//   e8m0 from a negative value: CUDA takes |x|; minifloat gives NaN (0xFF), as for any unsigned
//       format (docs/spec.md §7).
// Everything else must agree bit for bit, NaN (+max in the elements) included.
#include <gtest/gtest.h>

#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <atomic>
#include <cstdio>
#include <string>

#include <minifloat/minifloat.hpp>

#include "ieee.hpp"
#include "nvidia_compare.hpp"
#include "sweep.hpp"

namespace {

using minifloat::rounding;

unsigned cuda_e2m1(float x, cudaRoundMode mode) {
  return __nv_cvt_float_to_fp4(x, __NV_E2M1, mode);
}
unsigned cuda_fp6(float x, __nv_fp6_interpretation_t format, cudaRoundMode mode) {
  return __nv_cvt_float_to_fp6(x, format, mode);
}

// CUDA's e8m0 code with the documented difference applied, counted in `differences` (one per
// thread's chunk: a shared atomic counter bounced between the cores made the sweep 2x slower).
unsigned cuda_e8m0(float x, __nv_saturation_t saturation, cudaRoundMode mode,
                   std::uint64_t& differences) {
  const unsigned code = __nv_cvt_float_to_e8m0(x, saturation, mode);
  if (ieee::signbit(x) && !ieee::isnan(x) && x != 0) {
    ++differences;
    return 0xFF;
  }
  return code;
}

TEST(NvidiaMx, QuarterOfAllFloats) {
  using minifloat::convert;
  using minifloat::e2m1;
  using minifloat::e2m3;
  using minifloat::e3m2;
  using minifloat::e8m0;
  using minifloat::overflow;
  const nvidia_compare::float_sample sample;
  sweep::tally tally;
  std::atomic<std::uint64_t> negative_e8m0{0};
  sweep::parallel_for(sample.count(), [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    std::uint64_t differences = 0;
    for (std::uint64_t j = begin; j < end; ++j) {
      const std::uint32_t i = sample.bits(j);
      const float x = sweep::float_from_bits(i);
      local.check(convert<e2m1>(x).bits(), cuda_e2m1(x, cudaRoundNearest), "e2m1 rn", i);
      local.check(convert<e2m1, rounding::toward_zero>(x).bits(), cuda_e2m1(x, cudaRoundZero),
                  "e2m1 rz", i);
      local.check(convert<e2m3>(x).bits(), cuda_fp6(x, __NV_E2M3, cudaRoundNearest), "e2m3 rn", i);
      local.check(convert<e2m3, rounding::toward_zero>(x).bits(),
                  cuda_fp6(x, __NV_E2M3, cudaRoundZero), "e2m3 rz", i);
      local.check(convert<e3m2>(x).bits(), cuda_fp6(x, __NV_E3M2, cudaRoundNearest), "e3m2 rn", i);
      local.check(convert<e3m2, rounding::toward_zero>(x).bits(),
                  cuda_fp6(x, __NV_E3M2, cudaRoundZero), "e3m2 rz", i);
      local.check(convert<e8m0, rounding::toward_zero>(x).bits(),
                  cuda_e8m0(x, __NV_NOSAT, cudaRoundZero, differences), "e8m0 rz", i);
      local.check(convert<e8m0, rounding::upward>(x).bits(),
                  cuda_e8m0(x, __NV_NOSAT, cudaRoundPosInf, differences), "e8m0 rp", i);
      local.check(convert<e8m0, rounding::upward, overflow::saturate>(x).bits(),
                  cuda_e8m0(x, __NV_SATFINITE, cudaRoundPosInf, differences), "e8m0 rp satfinite",
                  i);
    }
    negative_e8m0.fetch_add(differences, std::memory_order_relaxed);
  });
  tally.report(
      (std::string(sample.name()) + " vs cuda_fp4.h, cuda_fp6.h, cuda_fp8.h e8m0").c_str());
  std::printf("[ sweep    ] e8m0 conversions of negative values (CUDA: |x|; minifloat: NaN), three "
              "per input: %llu\n",
              static_cast<unsigned long long>(negative_e8m0.load()));
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
