// The long sweeps (label: exhaustive): every one of the 2^32 floats narrowed to each 8-bit format
// in every mode, against the independent reference and through every SIMD path of the array
// functions; and 10^7 doubles at and around the midpoints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "double_sweep.hpp"
#include "formats_under_test.hpp"
#include "reference.hpp"
#include "supported_paths.hpp"
#include "sweep.hpp"

namespace {

using minifloat::overflow;
using minifloat::rounding;
using reference::mode;

// Stochastic rounding is swept with a fixed random-bit value, 2^32 - 1 (always up but for
// exact values), and with a per-input pseudo-random value. (r = 0, never up, is covered by the
// quick suite over every binary16 and bfloat16 input. Toward zero with saturation differs from
// without only on infinities, which the quick suite covers in every format.)
// The family formats (e3m4 .. e4m3b11fnuz) are swept in nearest-even alone: their saturating
// results differ only past the largest finite value, and the quick suite checks every mode of
// every format on all binary16 and bfloat16 inputs (bfloat16 spans float's exponents); e4m3,
// e5m2 and e8m0 also sweep the other modes over all floats. (The sweeps are CI's long pole:
// each mode over 2^32 floats costs about 40 s on its 2-core machines.)
// The MX elements (e2m1, e2m3, e3m2) always saturate, so their saturating and non-saturating
// conversions are one function (the quick suite checks both on every binary16 and bfloat16
// input): they sweep every rounding, each once.
enum class checks { nearest_even, and_directed, every_mode, every_rounding };

// The SIMD paths of the array functions (bulk.hpp) other than the portable one, which is the
// scalar function itself but for nearest-even (mode_check::run adds it there). Each sweep below
// also runs every chunk of floats through each of them and compares their codes with the scalar
// ones: all 2^32 floats through every kernel, for the price of the kernels alone.
std::vector<minifloat::simd_path> simd_paths() {
  std::vector<minifloat::simd_path> paths;
  for (auto path :
       {minifloat::simd_path::avx2, minifloat::simd_path::avx512, minifloat::simd_path::neon}) {
    if (minifloat::path_supported(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

// One chunk of consecutive floats, their pseudo-random bits, and where the reference puts each.
struct chunk {
  std::uint64_t begin = 0;
  std::vector<float> x;
  std::vector<std::uint32_t> mixed;
  std::vector<std::uint32_t> ones;
  // Runs of floats of one rounding class (reference.hpp): the reference rounds once per run in
  // the modes other than stochastic.
  std::vector<reference::narrower::run> runs;
  std::size_t size() const { return x.size(); }
};

// The scalar function's codes for one mode over a chunk, against the reference's codes and
// against every SIMD path's. Each is computed into an array and the arrays compared: tight loops
// that the compiler vectorises, so the sweep costs little more than the conversions themselves.
class mode_check {
public:
  mode_check(const chunk& c, const std::vector<minifloat::simd_path>& paths,
             sweep::local_tally& scalar_tally, sweep::local_tally& simd_tally)
      : chunk_(c), paths_(paths), scalar_tally_(scalar_tally), simd_tally_(simd_tally) {}

  // scalar(x, r): the public scalar function; expected(codes): writes the reference's codes.
  template <class T, minifloat::detail::rounding_rule Rule, overflow O, class Scalar,
            class Expected>
  void run(const char* name, const std::vector<std::uint32_t>& random_bits, Scalar scalar,
           Expected expected) {
    const std::size_t n = chunk_.size();
    // Plain pointers: through the thread_local vectors the compiler reloads every access.
    const float* x = chunk_.x.data();
    const std::uint32_t* r = random_bits.data();
    std::uint8_t* got = buffer(got_, n);
    std::uint8_t* reference_codes = buffer(expected_, n);
    for (std::size_t j = 0; j < n; ++j) {
      got[j] = static_cast<std::uint8_t>(scalar(x[j], r[j]).bits());
    }
    expected(reference_codes);
    compare(scalar_tally_, got, reference_codes, n, name);
    // A code's one byte is its bits: compared as the object representation.
    static_assert(sizeof(T) == 1 && std::is_trivially_copyable_v<T>, "");
    thread_local std::vector<T> path_codes;
    path_codes.resize(n);
    T* codes = path_codes.data();
    for (const minifloat::simd_path path : paths_) {
      narrow_on<Rule, O>(path, x, n, codes, random_bits_array{r});
      compare(simd_tally_, reinterpret_cast<const std::uint8_t*>(codes), got, n,
              minifloat::to_string(path));
    }
    // The portable path's arrays take another kernel than the scalar function where the map
    // gives them the addition (nearest-even, where the environment rounds to nearest): swept too.
    namespace detail = minifloat::detail;
    if constexpr (detail::step2_for<minifloat::formats::binary32, typename T::format, Rule>(
                      detail::portable_kernels::capabilities) ==
                  detail::step2_variant::lane_addition_if_nearest) {
      narrow_on<Rule, O>(minifloat::simd_path::portable, x, n, codes, random_bits_array{r});
      compare(simd_tally_, reinterpret_cast<const std::uint8_t*>(codes), got, n, "portable");
    }
  }

  // The block quantizers' one-pass kernel (lanes.inc quantize_block_groups, 1 x 128 tiles) on
  // every path that has it, with unit factors (its door for the sweeps), against saturate_cast's
  // codes, which the run just before left (so no second scalar pass): its saturating narrowing
  // without the NaN lanes' fix-up, which it takes for groups with no NaN. A group it leaves (one
  // with a NaN) keeps saturate_cast's codes, and the next call starts a tile later.
  template <class T>
  void run_block_groups_after_saturate_cast(const char* name) {
    const std::size_t n = chunk_.size();
    const float* x = chunk_.x.data();
    const std::uint8_t* scalar = buffer(got_, n);
    std::uint8_t* codes = buffer(expected_, n);
    const std::size_t tiles = n / 128;
    for (const minifloat::simd_path path : paths_) {
      std::memcpy(codes, scalar, n);
      minifloat::detail::with_kernels(path, [&](auto kernels) {
        using kernels_of_path = decltype(kernels);
        if constexpr (kernels_of_path::quantizes_block_groups) {
          for (std::size_t t = 0; t < tiles;) {
            const std::size_t done =
                kernels_of_path::template quantize_block_groups<typename T::format, 128>(
                    x + t * 128, tiles - t, codes + t * 128, minifloat::detail::unit_block_scales{},
                    nullptr);
            t += done == 0 ? 1 : done;
          }
        }
      });
      compare(simd_tally_, codes, scalar, n, name);
    }
  }

  // The tall blocks' kernel (lanes.inc quantize_block_rows_folding, 128 x 128 blocks) on every
  // path that has it, with factor 1, against saturate_cast's codes as above: the chunk read as
  // blocks of 8 rows of 128 floats (rows 128 floats apart), each narrowed while the next one's
  // amax is folded. The folded amax is checked against amax's rule (a NaN above everything)
  // written out, and a block with a NaN keeps saturate_cast's codes.
  template <class T>
  void run_block_rows_after_saturate_cast(const char* name) {
    constexpr std::size_t rows = 8;
    constexpr std::size_t block = rows * 128;
    const std::size_t n = chunk_.size();
    const float* x = chunk_.x.data();
    const std::uint8_t* scalar = buffer(got_, n);
    std::uint8_t* codes = buffer(expected_, n);
    const std::size_t blocks = n / block;
    std::vector<std::uint32_t> amaxes(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      std::uint32_t largest = 0;
      for (std::size_t j = 0; j < block; ++j) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, x + b * block + j, sizeof bits);
        largest = std::max(largest, bits & 0x7FFFFFFFU);
      }
      amaxes[b] = largest;
    }
    for (const minifloat::simd_path path : paths_) {
      std::memcpy(codes, scalar, n);
      minifloat::detail::with_kernels(path, [&](auto kernels) {
        using kernels_of_path = decltype(kernels);
        if constexpr (kernels_of_path::quantizes_block_groups) {
          for (std::size_t b = 0; b < blocks; ++b) {
            if (amaxes[b] > 0x7F800000U) {
              continue;
            }
            const float* next = b + 1 < blocks ? x + (b + 1) * block : nullptr;
            std::uint32_t folded = 0xFFFFFFFFU;
            if (!kernels_of_path::template quantize_block_rows<typename T::format, 128>(
                    x + b * block, rows, 128, 1.0f, codes + b * block, next, nullptr, &folded)) {
              continue; // (AVX2 under another rounding mode: saturate_cast's codes stay)
            }
            const std::uint32_t expected_amax = next == nullptr ? 0 : amaxes[b + 1];
            if ((folded > 0x7F800000U) != (expected_amax > 0x7F800000U) ||
                (expected_amax <= 0x7F800000U && folded != expected_amax)) {
              simd_tally_.record_mismatch("folded amax", chunk_.begin + (b + 1) * block,
                                          folded >> 24, expected_amax >> 24);
            }
          }
        }
      });
      compare(simd_tally_, codes, scalar, n, name);
    }
  }

  // The same kernel for FP4 (T: e2m1), which packs the codes two per byte as it goes, with
  // unit factors in NVFP4's blocks of 16, on every path that has it (quantizes_fp4_block_groups):
  // against the nearest-even run's scalar codes just before (e2m1 always saturates), packed by
  // the portable path. A group it leaves (one with a NaN) keeps those packed codes.
  template <class T>
  void run_fp4_block_groups_after_nearest_even(const char* name) {
    namespace detail = minifloat::detail;
    const std::size_t n = chunk_.size();
    const float* x = chunk_.x.data();
    const std::uint8_t* scalar = buffer(got_, n);
    std::uint8_t* expected = buffer(expected_, n);
    detail::portable_kernels::pack_nibble_pairs(scalar, n, expected);
    thread_local std::vector<std::uint8_t> packed_codes;
    std::uint8_t* packed = buffer(packed_codes, n / 2);
    const std::size_t blocks = n / 16;
    for (const minifloat::simd_path path : paths_) {
      std::memcpy(packed, expected, n / 2);
      detail::with_kernels(path, [&](auto kernels) {
        using kernels_of_path = decltype(kernels);
        if constexpr (kernels_of_path::quantizes_fp4_block_groups) {
          for (std::size_t b = 0; b < blocks;) {
            const std::size_t done =
                kernels_of_path::template quantize_block_groups<typename T::format, 16>(
                    x + b * 16, blocks - b, packed + b * 8, detail::unit_block_scales{}, nullptr);
            b += done == 0 ? 1 : done;
          }
        }
      });
      compare(simd_tally_, packed, expected, n / 2, name);
    }
  }

  // The same for ggml's MXFP4 blocks (block_mxfp4: a scale byte, then element j in the low
  // nibble of byte j and element j + 16 in its high one) with unit factors, on every path that
  // writes them (quantizes_ggml_block_groups): against the nearest-even run's scalar codes placed
  // by that definition here, and scale bytes of 127 (E8M0's 1), which the kernel writes over the
  // 0xA5 set before it. (A block the kernel leaves to the general loop is not checked here.)
  template <class T>
  void run_ggml_block_groups_after_nearest_even(const char* name) {
    namespace detail = minifloat::detail;
    const std::size_t blocks = chunk_.size() / 32;
    const float* x = chunk_.x.data();
    const std::uint8_t* scalar = buffer(got_, chunk_.size());
    thread_local std::vector<std::uint8_t> expected_blocks;
    thread_local std::vector<std::uint8_t> ggml_blocks;
    std::uint8_t* expected = buffer(expected_blocks, blocks * 17);
    std::uint8_t* written = buffer(ggml_blocks, blocks * 17);
    for (std::size_t b = 0; b < blocks; ++b) {
      expected[b * 17] = 127;
      for (std::size_t j = 0; j < 16; ++j) {
        expected[b * 17 + 1 + j] =
            static_cast<std::uint8_t>(scalar[b * 32 + j] | scalar[b * 32 + j + 16] << 4);
      }
    }
    for (const minifloat::simd_path path : paths_) {
      detail::with_kernels(path, [&](auto kernels) {
        using kernels_of_path = decltype(kernels);
        if constexpr (kernels_of_path::quantizes_ggml_block_groups) {
          std::memcpy(written, expected, blocks * 17);
          for (std::size_t b = 0; b < blocks; ++b) {
            written[b * 17] = 0xA5;
          }
          for (std::size_t b = 0; b < blocks;) {
            const std::size_t done = kernels_of_path::quantize_ggml_block_groups(
                x + b * 32, blocks - b, written + b * 17, detail::unit_block_scales{}, nullptr);
            if (done == 0) {
              written[b * 17] = expected[b * 17];
            }
            b += done == 0 ? 1 : done;
          }
          compare(simd_tally_, written, expected, blocks * 17, name);
        }
      });
    }
  }

private:
  static std::uint8_t* buffer(std::vector<std::uint8_t>& v, std::size_t n) {
    v.resize(n);
    return v.data();
  }
  void compare(sweep::local_tally& tally, const std::uint8_t* got, const std::uint8_t* expected,
               std::size_t n, const char* name) {
    tally.add_matches(n);
    if (std::memcmp(got, expected, n) == 0) {
      return;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (got[j] != expected[j]) {
        tally.record_mismatch(name, chunk_.begin + j, got[j], expected[j]);
      }
    }
  }

  const chunk& chunk_;
  const std::vector<minifloat::simd_path>& paths_;
  sweep::local_tally& scalar_tally_;
  sweep::local_tally& simd_tally_;
  // Per thread, reused from chunk to chunk: allocating per chunk costs more than the kernels.
  static thread_local std::vector<std::uint8_t> got_, expected_;
};
thread_local std::vector<std::uint8_t> mode_check::got_, mode_check::expected_;

template <class T>
void sweep_all_floats(const reference::format& fmt, checks which) {
  using minifloat::detail::rounding_rule;
  const reference::narrower ref(fmt);
  const auto paths = simd_paths();
  sweep::tally tally;
  sweep::tally simd_tally;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    sweep::local_tally simd(simd_tally);
    const std::size_t n = static_cast<std::size_t>(end - begin);
    thread_local chunk per_thread; // reused: allocating per chunk costs more than the kernels
    chunk& c = per_thread;
    c.begin = begin;
    c.x.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
      c.x[j] = sweep::float_from_bits(static_cast<std::uint32_t>(begin + j));
    }
    // The random bits, for the sweeps with stochastic rounding alone (the others ignore them,
    // and mixing costs as much as a conversion).
    const bool stochastic_modes = which == checks::every_mode || which == checks::every_rounding;
    c.mixed.resize(n);
    c.ones.assign(n, 0xFFFFFFFFu);
    if (stochastic_modes) {
      for (std::size_t j = 0; j < n; ++j) {
        c.mixed[j] = sweep::mix(begin + j);
      }
    }
    c.runs = ref.rounding_runs(c.x.data(), n);
    const auto deterministic = [&](mode m, bool saturate) {
      return [&ref, &c, m, saturate](std::uint8_t* codes) {
        for (const auto& run : c.runs) {
          std::memset(codes + run.begin, static_cast<int>(ref.round(run.first, m, saturate)),
                      run.end - run.begin);
        }
      };
    };
    // Stochastic rounding depends on the fraction, so it rounds every float between two grid
    // values; the run gives their neighbours and codes (round_stochastic_run).
    const auto stochastic = [&](bool saturate, const std::vector<std::uint32_t>& random_bits) {
      return [&ref, &c, saturate, &random_bits](std::uint8_t* codes) {
        for (const auto& run : c.runs) {
          ref.round_stochastic_run(run, c.x.data(), random_bits.data(), saturate, codes);
        }
      };
    };
    mode_check check(c, paths, local, simd);
    check.run<T, rounding_rule::nearest_even, overflow::non_saturating>(
        "nearest_even", c.mixed, [](float x, std::uint32_t) { return minifloat::convert<T>(x); },
        deterministic(mode::nearest_even, false));
    if constexpr (minifloat::format_info<typename T::format>::total_bits == 4) {
      check.run_fp4_block_groups_after_nearest_even<T>("one-pass block kernel, FP4 packed");
      check.run_ggml_block_groups_after_nearest_even<T>("one-pass block kernel, ggml's blocks");
    }
    if (which == checks::nearest_even) {
      return;
    }
    if (which != checks::every_rounding) {
      check.run<T, rounding_rule::nearest_even, overflow::saturate>(
          "saturate_cast", c.mixed,
          [](float x, std::uint32_t) { return minifloat::saturate_cast<T>(x); },
          deterministic(mode::nearest_even, true));
    }
    if constexpr (minifloat::format_info<typename T::format>::total_bits == 8 &&
                  minifloat::format_info<typename T::format>::is_signed) {
      if (which == checks::every_mode) {
        check.run_block_groups_after_saturate_cast<T>("one-pass block kernel");
        check.run_block_rows_after_saturate_cast<T>("tall blocks' kernel");
      }
    }
    check.run<T, rounding_rule::toward_zero, overflow::non_saturating>(
        "toward_zero", c.mixed,
        [](float x, std::uint32_t) { return minifloat::convert<T, rounding::toward_zero>(x); },
        deterministic(mode::toward_zero, false));
    check.run<T, rounding_rule::upward, overflow::non_saturating>(
        "upward", c.mixed,
        [](float x, std::uint32_t) { return minifloat::convert<T, rounding::upward>(x); },
        deterministic(mode::upward, false));
    if (which == checks::and_directed) {
      return;
    }
    const auto stochastic_cast = [](float x, std::uint32_t r) {
      return minifloat::stochastic_cast<T>(x, r);
    };
    check.run<T, rounding_rule::stochastic, overflow::non_saturating>(
        "stochastic fixed", c.ones, stochastic_cast, stochastic(false, c.ones));
    check.run<T, rounding_rule::stochastic, overflow::non_saturating>(
        "stochastic", c.mixed, stochastic_cast, stochastic(false, c.mixed));
    if (which == checks::every_rounding) {
      return;
    }
    check.run<T, rounding_rule::stochastic, overflow::saturate>(
        "stochastic saturate", c.mixed,
        [](float x, std::uint32_t r) {
          return minifloat::stochastic_cast<T, overflow::saturate>(x, r);
        },
        stochastic(true, c.mixed));
  });
  tally.report(fmt.name.c_str());
  simd_tally.report((fmt.name + " simd paths vs scalar").c_str());
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
  EXPECT_EQ(simd_tally.mismatches(), 0u) << simd_tally.first_mismatches();
  if (paths.empty()) {
    std::printf("[ sweep    ] no SIMD path on this CPU: only the scalar path\n");
  }
}

TEST(ExhaustiveFloat, E4M3EveryMode) {
  sweep_all_floats<minifloat::e4m3>(reference::e4m3, checks::every_mode);
}
TEST(ExhaustiveFloat, E5M2EveryMode) {
  sweep_all_floats<minifloat::e5m2>(reference::e5m2, checks::every_mode);
}
// The formats with infinities but e5m2 also toward zero and upward: without saturation their
// kernels clamp below the infinity code's value (lanes.inc directed_clamps_below_infinity).
TEST(ExhaustiveFloat, E3M4) {
  sweep_all_floats<minifloat::e3m4>(reference::e3m4, checks::and_directed);
}
TEST(ExhaustiveFloat, E2M5) {
  sweep_all_floats<minifloat::e2m5>(reference::e2m5, checks::and_directed);
}
TEST(ExhaustiveFloat, E4M3Ieee) {
  sweep_all_floats<minifloat::e4m3_ieee>(reference::e4m3_ieee, checks::and_directed);
}
// The fnuz formats, whose nearest-even kernels clamp the magnitude to 0x80 (the NaN code) or,
// saturating, to the largest (lanes.inc fnuz_clamps_magnitude): with saturation, toward zero and
// upward too.
TEST(ExhaustiveFloat, E4M3Fnuz) {
  sweep_all_floats<minifloat::e4m3fnuz>(reference::e4m3fnuz, checks::and_directed);
}
TEST(ExhaustiveFloat, E5M2Fnuz) {
  sweep_all_floats<minifloat::e5m2fnuz>(reference::e5m2fnuz, checks::and_directed);
}
// e8m0: the three scale rules of docs/spec.md §5: nearest-even (both overflow rules), toward zero
// (floor, the OCP MX rule) and upward (ceil, as CUDA and DeepGEMM round).
TEST(ExhaustiveFloat, E8M0) {
  sweep_all_floats<minifloat::e8m0>(reference::e8m0, checks::and_directed);
}
// The MX elements, every rounding (docs/spec.md §7), and the NVFP4 scale ue4m3 in nearest-even.
TEST(ExhaustiveFloat, E2M1EveryRounding) {
  sweep_all_floats<minifloat::e2m1>(reference::e2m1, checks::every_rounding);
}
TEST(ExhaustiveFloat, E2M3EveryRounding) {
  sweep_all_floats<minifloat::e2m3>(reference::e2m3, checks::every_rounding);
}
TEST(ExhaustiveFloat, E3M2EveryRounding) {
  sweep_all_floats<minifloat::e3m2>(reference::e3m2, checks::every_rounding);
}
TEST(ExhaustiveFloat, UE4M3) {
  sweep_all_floats<minifloat::ue4m3>(reference::ue4m3, checks::and_directed);
}
TEST(ExhaustiveFloat, E4M3B11Fnuz) {
  sweep_all_floats<minifloat::e4m3b11fnuz>(reference::e4m3b11fnuz, checks::and_directed);
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

// The library has several implementations of step 2 (converter.hpp's map): the generic unpack
// + pack, which every source can take; and the lane variants for float: lane_fixed_point (the
// scalar conversion and the portable loop, for float, binary16 and bfloat16 alike),
// lane_shifts (the SIMD paths' integer kernel) and lane_addition (AVX-512, and AVX2 and the
// portable arrays under the default rounding). The sweeps above check the scalar conversion against
// the reference, and the SIMD paths against it; this checks the generic path and lane_shifts (which
// AVX2 runs only for some rules here, and NEON for all) against the scalar conversion, over all
// floats.
template <class Format, minifloat::detail::rounding_rule Rule, overflow O>
void generic_equals_lanes(sweep::tally& tally) {
  using namespace minifloat::detail;
  sweep::parallel_for(std::uint64_t{1} << 32, [&](std::uint64_t begin, std::uint64_t end) {
    sweep::local_tally local(tally);
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto bits = static_cast<std::uint32_t>(i);
      // (Random bits only where the rule reads them: mixing costs as much as a conversion.)
      const std::uint32_t r = Rule == rounding_rule::stochastic ? sweep::mix(i) : 0;
      const std::uint32_t scalar =
          portable::convert_float_lanes<Format, Rule, O, step2_variant::lane_fixed_point>(bits, r);
      local.check(pack<Format, Rule, O>(unpack_code<minifloat::formats::binary32>(bits), r), scalar,
                  "generic path", i);
      local.check(portable::lanes_by_shifts<Format, Rule, O>(bits, r), scalar, "lane_shifts", i);
    }
  });
}

TEST(ExhaustiveFloat, GenericPathEqualsFloatPath) {
  // One mode here: the generic path's other modes and formats are covered against the reference
  // by the doubles (which always take it), the cross-format and the integer tests.
  sweep::tally tally;
  generic_equals_lanes<minifloat::formats::e4m3, minifloat::detail::rounding_rule::nearest_even,
                       overflow::non_saturating>(tally);
  tally.report("e4m3 nearest_even: generic path and lane_shifts vs scalar");
  EXPECT_EQ(tally.mismatches(), 0u) << tally.first_mismatches();
}

} // namespace
