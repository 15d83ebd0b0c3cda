// The long sweeps (label: exhaustive): every one of the 2^32 floats narrowed to each 8-bit format
// in every mode, against the independent reference and through every SIMD path of the array
// functions; and 10^7 doubles at and around the midpoints.
#include <gtest/gtest.h>

#include <cstring>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "double_sweep.hpp"
#include "formats_under_test.hpp"
#include "reference.hpp"
#include "sweep.hpp"

namespace {

using minifloat::overflow;
using minifloat::rounding;
using reference::mode;

// A fixed random-bit value for stochastic rounding, always up but for exact values, plus a
// per-input pseudo-random value. (r = 0, never up, is covered by the quick suite over every
// binary16 and bfloat16 input.) (The sweeps are CI's long pole: each check over 2^32
// floats costs about 30 s. Toward zero with saturation differs from without only on infinities,
// which the quick suite covers in every format.)
constexpr std::uint32_t fixed_random_bits[] = {0xFFFFFFFFu};

enum class checks { nearest_even_both_overflows, and_directed, every_mode };

// The SIMD paths of the array functions (bulk.hpp) other than the portable one, which is the
// scalar function itself. Each sweep below also runs every chunk of floats through each of them
// and compares their codes with the scalar ones: all 2^32 floats through every kernel, for the
// price of the kernels alone.
std::vector<minifloat::simd_path> simd_paths() {
  std::vector<minifloat::simd_path> paths;
  for (auto path : {minifloat::simd_path::avx2, minifloat::simd_path::avx512}) {
    if (minifloat::path_supported(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

// One mode's codes for a chunk from every SIMD path: codes[path][j] for float j of the chunk.
template <class T, minifloat::detail::rounding_rule Rule, overflow O>
struct chunk_codes {
  std::vector<std::vector<T>> codes;
  void compute(const std::vector<minifloat::simd_path>& paths, const std::vector<float>& x,
               const std::vector<std::uint32_t>& random_bits) {
    codes.resize(paths.size());
    for (std::size_t p = 0; p < paths.size(); ++p) {
      codes[p].resize(x.size());
      minifloat::detail::narrow_array<Rule, O>(
          paths[p], x.data(), x.size(), codes[p].data(),
          minifloat::detail::random_bits_array{random_bits.data()});
    }
  }
  // The scalar code `expected` for float j against every path's.
  void check(sweep::local_tally& local, std::size_t j, unsigned expected, const char* what,
             std::uint64_t input) const {
    for (const auto& path_codes : codes) {
      local.check(path_codes[j].bits(), expected, what, input);
    }
  }
};

template <class T>
void sweep_all_floats(const reference::format& fmt, checks which) {
  using minifloat::detail::rounding_rule;
  const reference::narrower ref(fmt);
  // e8m0 has no SIMD kernel: its array functions call the scalar converter, so there is
  // nothing to compare (and it would double the sweep's cost).
  const auto paths =
      minifloat::detail::is_lane_target<T> ? simd_paths() : std::vector<minifloat::simd_path>{};
  sweep::tally tally;
  sweep::tally simd_tally;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    sweep::local_tally simd(simd_tally);
    const std::size_t n = static_cast<std::size_t>(end - begin);
    // Buffers kept per thread: allocating them per chunk costs more system time than the kernels.
    thread_local std::vector<float> x;
    thread_local std::vector<std::uint32_t> mixed;
    thread_local std::vector<std::uint32_t> ones;
    x.resize(n);
    mixed.resize(n);
    ones.assign(n, 0xFFFFFFFFu);
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = sweep::float_from_bits(static_cast<std::uint32_t>(begin + j));
      mixed[j] = sweep::mix(begin + j);
    }
    thread_local chunk_codes<T, rounding_rule::nearest_even, overflow::non_saturating> nearest;
    thread_local chunk_codes<T, rounding_rule::nearest_even, overflow::saturate> saturated;
    thread_local chunk_codes<T, rounding_rule::toward_zero, overflow::non_saturating> toward_zero;
    thread_local chunk_codes<T, rounding_rule::upward, overflow::non_saturating> upward;
    thread_local chunk_codes<T, rounding_rule::stochastic, overflow::non_saturating> stochastic[2];
    thread_local chunk_codes<T, rounding_rule::stochastic, overflow::saturate> stochastic_saturated;
    nearest.compute(paths, x, mixed);
    saturated.compute(paths, x, mixed);
    if (which != checks::nearest_even_both_overflows) {
      toward_zero.compute(paths, x, mixed);
      upward.compute(paths, x, mixed);
    }
    if (which == checks::every_mode) {
      stochastic[0].compute(paths, x, ones);
      stochastic[1].compute(paths, x, mixed);
      stochastic_saturated.compute(paths, x, mixed);
    }
    auto where = ref.locate(x[0]);
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t i = begin + j;
      where = ref.locate_after(x[j], where);
      const unsigned rne = minifloat::convert<T>(x[j]).bits();
      local.check(rne, ref.round(where, mode::nearest_even, false), "nearest_even", i);
      nearest.check(simd, j, rne, "simd nearest_even", i);
      const unsigned sat = minifloat::saturate_cast<T>(x[j]).bits();
      local.check(sat, ref.round(where, mode::nearest_even, true), "saturate_cast", i);
      saturated.check(simd, j, sat, "simd saturate_cast", i);
      if (which == checks::nearest_even_both_overflows) {
        continue;
      }
      const unsigned tz = minifloat::convert<T, rounding::toward_zero>(x[j]).bits();
      local.check(tz, ref.round(where, mode::toward_zero, false), "toward_zero", i);
      toward_zero.check(simd, j, tz, "simd toward_zero", i);
      const unsigned up = minifloat::convert<T, rounding::upward>(x[j]).bits();
      local.check(up, ref.round(where, mode::upward, false), "upward", i);
      upward.check(simd, j, up, "simd upward", i);
      if (which == checks::and_directed) {
        continue;
      }
      for (const std::uint32_t r : fixed_random_bits) {
        const unsigned code = minifloat::stochastic_cast<T>(x[j], r).bits();
        local.check(code, ref.round(where, mode::stochastic, false, r), "stochastic fixed", i);
        stochastic[0].check(simd, j, code, "simd stochastic fixed", i);
      }
      const std::uint32_t r = mixed[j];
      const unsigned code = minifloat::stochastic_cast<T>(x[j], r).bits();
      local.check(code, ref.round(where, mode::stochastic, false, r), "stochastic", i);
      stochastic[1].check(simd, j, code, "simd stochastic", i);
      const unsigned code_sat = minifloat::stochastic_cast<T, overflow::saturate>(x[j], r).bits();
      local.check(code_sat, ref.round(where, mode::stochastic, true, r), "stochastic saturate", i);
      stochastic_saturated.check(simd, j, code_sat, "simd stochastic saturate", i);
    }
  });
  tally.report(fmt.name.c_str());
  simd_tally.report((fmt.name + " simd paths vs scalar").c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
  EXPECT_EQ(simd_tally.mismatches(), 0u) << simd_tally.first_mismatches();
  if (paths.empty()) {
    std::printf("[ sweep    ] no SIMD path for this format or CPU: only the scalar path\n");
  }
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

// The library has three implementations of the same steps: the generic unpack + pack, which
// every source can take, the direct narrowing that binary16 and bfloat16 take (the quick suite
// checks it on all their inputs), and the lane kernel that float takes. The sweeps above check
// the lane kernel against the reference; this checks the generic path against the lane kernel,
// over all floats.
template <class Format, minifloat::detail::rounding_rule Rule, overflow O>
void generic_equals_lanes(sweep::tally& tally, const char* name) {
  using namespace minifloat::detail;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto bits = static_cast<std::uint32_t>(i);
      const std::uint32_t r = sweep::mix(i);
      local.check(pack<Format, Rule, O>(unpack_code<minifloat::formats::binary32>(bits), r),
                  portable::encode_float_lanes<Format, Rule, O>(bits, r), name, i);
    }
  });
}

TEST(ExhaustiveFloat, GenericPathEqualsFloatPath) {
  // One mode here: the generic path's other modes and formats are covered against the reference
  // by the doubles (which always take it), the cross-format and the integer tests.
  sweep::tally tally;
  generic_equals_lanes<minifloat::formats::e4m3, minifloat::detail::rounding_rule::nearest_even,
                       overflow::non_saturating>(tally, "e4m3 nearest_even");
  tally.report("generic vs lane kernel");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
