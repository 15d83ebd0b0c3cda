// Issue 22's and issue 21's ratios by direct calls of the public functions: every operation and
// its baseline in one process, interleaved round by round, each at four placements of its buffers
// (the source 0, 16, 32 and 48 bytes past a 64-byte line, the codes 0, 16, 32 and 48 bytes past
// one), the best of the rounds for each operation and placement. A figure, never a check.
//
// Why beside convert_bench: on the project's 2-core VMs Google Benchmark's means moved 20-40 %
// from run to run (a VM's neighbours), and where a run's buffers lie moved some rows as much
// (docs/performance.md, stop 81); the best of interleaved rounds at fixed placements repeats to a
// few per cent; at 64 Mi the best and the median of fewer rounds. Usage: ratios [rounds] (default
// 200: 200 rounds at 4 Ki, 50 at 64 Ki, 8 at 64 Mi; about 3 seconds on the 2-core VMs).
#include <minifloat/minifloat.hpp>

#include "machine.hpp"
#include "memory_patterns.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::overflow;
using minifloat::simd_path;

constexpr std::size_t placements = 4;

// The buffers, with room past n for the farthest placement (placed) and a line's alignment.
struct buffers {
  explicit buffers(std::size_t n)
      : floats(n + 64), doubles(n + 64), halves(n + 64), bits(n + 64), codes(n + 256),
        decoded(n + 64), scales(n / 32 + 16), factors(n / 128 + 16) {
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 100.0f);
    for (std::size_t i = 0; i < floats.size(); ++i) {
      floats[i] = normal(rng);
      doubles[i] = floats[i];
      halves[i] = minifloat::convert<minifloat::binary16_bits>(floats[i]);
      bits[i] = minifloat::counter_generator{7, 0}(i);
    }
  }
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<minifloat::binary16_bits> halves;
  std::vector<std::uint32_t> bits;
  std::vector<std::uint8_t> codes;
  std::vector<float> decoded;
  std::vector<minifloat::e8m0> scales;
  std::vector<float> factors;
};

// Placement p of a buffer: p * bytes_apart bytes past its first 64-byte line.
template <class T>
T* placed(std::vector<T>& v, std::size_t p, std::size_t bytes_apart) {
  const auto address = reinterpret_cast<std::uintptr_t>(v.data());
  const std::size_t to_line = (64 - address % 64) % 64;
  return reinterpret_cast<T*>(reinterpret_cast<std::uint8_t*>(v.data()) + to_line +
                              p * bytes_apart);
}

struct operation {
  std::string name;
  simd_path path;
  std::string baseline; // the operation this one is divided by (empty: none)
  std::function<void(std::size_t)> call;
  double best[placements];
};

double nanoseconds_now() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void run(std::size_t n, int rounds) {
  buffers b(n);
  minifloat::conversion_report report;
  const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(b.floats.data(), n));
  const auto codes8 = [&](std::size_t p) {
    return reinterpret_cast<e4m3*>(placed(b.codes, p, 16));
  };
  const auto codes5 = [&](std::size_t p) {
    return reinterpret_cast<e5m2*>(placed(b.codes, p, 16));
  };
  const auto x = [&](std::size_t p) { return placed(b.floats, p, 16); };
  std::vector<operation> ops;
  const auto add = [&](std::string name, simd_path path, std::string baseline,
                       std::function<void(std::size_t)> call) {
    if (minifloat::path_supported(path)) {
      ops.push_back({std::move(name), path, std::move(baseline), std::move(call), {}});
    }
  };
  using rounding = minifloat::rounding;
  for (const simd_path path : {simd_path::avx512, simd_path::avx2, simd_path::neon}) {
    const std::string s = minifloat::to_string(path);
    // (The narrower paths' encode and decode divided by AVX-512's, issue 22's AVX2 targets.)
    const std::string widest = path == simd_path::avx512 ? "" : "avx512";
    add("e4m3 " + s, path, widest.empty() ? "" : "e4m3 " + widest,
        [&](std::size_t p) { minifloat::convert(x(p), n, codes8(p)); });
    add("e4m3 saturating " + s, path, "e4m3 " + s, [&](std::size_t p) {
      minifloat::convert<rounding::nearest_even, overflow::saturate>(x(p), n, codes8(p));
    });
    add("e5m2 " + s, path, "e4m3 " + s,
        [&](std::size_t p) { minifloat::convert(x(p), n, codes5(p)); });
    add("quantize " + s, path, "e4m3 saturating " + s,
        [&](std::size_t p) { minifloat::quantize(x(p), n, codes8(p), scale); });
    add("double -> e4m3 " + s, path, "e4m3 " + s,
        [&](std::size_t p) { minifloat::convert(placed(b.doubles, p, 16), n, codes8(p)); });
    add("binary16 -> e4m3 " + s, path, "e4m3 " + s,
        [&](std::size_t p) { minifloat::convert(placed(b.halves, p, 16), n, codes8(p)); });
    add("stochastic, caller's bits " + s, path, "", [&](std::size_t p) {
      minifloat::stochastic_convert<overflow::saturate>(x(p), n, placed(b.bits, p, 16), codes8(p));
    });
    add("stochastic, counter_generator " + s, path, "stochastic, caller's bits " + s,
        [&](std::size_t p) {
          minifloat::stochastic_convert<overflow::saturate>(x(p), n, codes8(p),
                                                            minifloat::counter_generator{7, 0});
        });
    add("e4m3 -> float " + s, path, widest.empty() ? "" : "e4m3 -> float " + widest,
        [&](std::size_t p) {
          minifloat::convert(reinterpret_cast<const e4m3*>(placed(b.codes, p, 16)), n,
                             placed(b.decoded, p, 16));
        });
    add("e4m3 with a report " + s, path, "e4m3 " + s,
        [&](std::size_t p) { minifloat::convert(x(p), n, codes8(p), report); });
    add("e5m2 with a report " + s, path, "e5m2 " + s,
        [&](std::size_t p) { minifloat::convert(x(p), n, codes5(p), report); });
    add("quantize with a report " + s, path, "quantize " + s,
        [&](std::size_t p) { minifloat::quantize(x(p), n, codes8(p), scale, report); });
  }
  add("e4m3 portable", simd_path::portable, "e4m3 avx512",
      [&](std::size_t p) { minifloat::convert(x(p), n, codes8(p)); });
  // The block quantizers on the active path (as the library picks it).
  const simd_path active = minifloat::active_path();
  const std::string sat = std::string("e4m3 saturating ") + minifloat::to_string(active);
  add("1 x 128 tiles", active, sat, [&](std::size_t p) {
    minifloat::quantize_blocks(x(p), n / 4096, 4096, minifloat::tile_1x128, codes8(p),
                               b.factors.data());
  });
  if (n >= 128 * 128) {
    add("128 x 128 blocks (128 rows)", active, sat, [&](std::size_t p) {
      minifloat::quantize_blocks(x(p), 128, n / 128, minifloat::block_128x128, codes8(p),
                                 b.factors.data());
    });
  }
  add("quantize_mx e4m3", active, sat,
      [&](std::size_t p) { minifloat::quantize_mx(x(p), n, codes8(p), b.scales.data()); });
  add("1 x 128 tiles with a report", active, "1 x 128 tiles", [&](std::size_t p) {
    minifloat::quantize_blocks(x(p), n / 4096, 4096, minifloat::tile_1x128, codes8(p),
                               b.factors.data(), report);
  });
  add("quantize_mx e4m3 with a report", active, "quantize_mx e4m3",
      [&](std::size_t p) { minifloat::quantize_mx(x(p), n, codes8(p), b.scales.data(), report); });

  const int calls = n <= 8192 ? 20 : 2;
  for (operation& op : ops) {
    std::fill(std::begin(op.best), std::end(op.best), 1e300);
  }
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t p = 0; p < placements; ++p) {
      for (operation& op : ops) {
        const minifloat::scoped_path on(op.path);
        op.call(p); // (warm: the buffers in the caches, the report's window as a call leaves it)
        const double start = nanoseconds_now();
        for (int c = 0; c < calls; ++c) {
          op.call(p);
        }
        op.best[p] = std::min(op.best[p], (nanoseconds_now() - start) / calls);
      }
    }
  }
  std::printf("\n%zu elements: el/ns, lowest and highest of the four placements (best of %d rounds "
              "each); x the baseline at the same placement\n",
              n, rounds);
  for (const operation& op : ops) {
    double low = 1e300, high = 0, ratio_low = 1e300, ratio_high = 0;
    const operation* base = nullptr;
    for (const operation& o : ops) {
      if (o.name == op.baseline) {
        base = &o;
      }
    }
    for (std::size_t p = 0; p < placements; ++p) {
      const double rate = static_cast<double>(n) / op.best[p];
      low = std::min(low, rate);
      high = std::max(high, rate);
      if (base != nullptr) {
        const double ratio = base->best[p] / op.best[p];
        ratio_low = std::min(ratio_low, ratio);
        ratio_high = std::max(ratio_high, ratio);
      }
    }
    std::printf("  %-36s %6.2f - %6.2f", op.name.c_str(), low, high);
    if (base != nullptr) {
      std::printf("   x %-28s %.2f - %.2f", op.baseline.c_str(), ratio_low, ratio_high);
    }
    std::printf("\n");
  }
}

// 64 Mi floats, from memory (the encoders' codes stream past MINIFLOAT_NON_TEMPORAL_THRESHOLD,
// with a report too), against the 4 -> 1 copy with streaming stores (memory_patterns.hpp) in the
// same rounds: issue 22's 0.95 (float -> e4m3 and e5m2, both overflow rules); and each call with a
// report against the same call without one, issue 21's 0.87. The best and the median of the
// rounds, since memory's speed moves from call to call.
void run_from_memory(int rounds) {
  const std::size_t n = std::size_t{64} << 20;
  std::vector<float> floats(n + 16);
  std::vector<std::uint8_t> codes(n + 64);
  float* const x = placed(floats, 0, 0);
  auto* const q = placed(codes, 0, 0);
  std::mt19937 rng(42);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = normal(rng);
  }
  std::vector<float> factors(n / 128);
  std::vector<minifloat::e8m0> scales(n / 32);
  minifloat::conversion_report report;
  const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(x, n));
  auto* const q8 = reinterpret_cast<e4m3*>(q);
  auto* const q5 = reinterpret_cast<e5m2*>(q);
  // (without_report: the name of the same call without a report, empty for none.)
  struct from_memory_operation {
    std::string name;
    std::function<void()> call;
    std::string without_report;
  };
  const bool avx2 =
      minifloat::active_path() != simd_path::avx2 && minifloat::path_supported(simd_path::avx2);
  std::vector<from_memory_operation> ops = {
      {"the 4 -> 1 copy",
       [&] {
         minifloat_bench::on_widest_vectors([&](auto patterns) {
           decltype(patterns)::template narrowing_copy<4, true>(
               reinterpret_cast<const std::uint8_t*>(x), q, n);
         });
#if defined(MINIFLOAT_BENCH_X86)
         _mm_sfence();
#endif
       },
       ""},
      {"e4m3", [&] { minifloat::convert(x, n, q8); }, ""},
      {"e4m3 saturating",
       [&] { minifloat::convert<minifloat::rounding::nearest_even, overflow::saturate>(x, n, q8); },
       ""},
      {"e5m2", [&] { minifloat::convert(x, n, q5); }, ""},
      {"e5m2 saturating",
       [&] { minifloat::convert<minifloat::rounding::nearest_even, overflow::saturate>(x, n, q5); },
       ""},
      {"quantize", [&] { minifloat::quantize(x, n, q8, scale); }, ""},
      {"1 x 128 tiles",
       [&] {
         minifloat::quantize_blocks(x, n / 4096, 4096, minifloat::tile_1x128, q8, factors.data());
       },
       ""},
      {"quantize_mx e4m3", [&] { minifloat::quantize_mx(x, n, q8, scales.data()); }, ""},
      {"e4m3 with a report", [&] { minifloat::convert(x, n, q8, report); }, "e4m3"},
      {"e4m3 saturating with a report",
       [&] {
         minifloat::convert<minifloat::rounding::nearest_even, overflow::saturate>(x, n, q8,
                                                                                   report);
       },
       "e4m3 saturating"},
      {"quantize with a report", [&] { minifloat::quantize(x, n, q8, scale, report); }, "quantize"},
      {"1 x 128 tiles with a report",
       [&] {
         minifloat::quantize_blocks(x, n / 4096, 4096, minifloat::tile_1x128, q8, factors.data(),
                                    report);
       },
       "1 x 128 tiles"},
      {"quantize_mx e4m3 with a report",
       [&] { minifloat::quantize_mx(x, n, q8, scales.data(), report); }, "quantize_mx e4m3"},
  };
  if (avx2) { // (the AVX2 path's own, where the active path is a wider one)
    ops.push_back({"e4m3 avx2",
                   [&] {
                     const minifloat::scoped_path on(simd_path::avx2);
                     minifloat::convert(x, n, q8);
                   },
                   ""});
    ops.push_back({"e4m3 with a report avx2",
                   [&] {
                     const minifloat::scoped_path on(simd_path::avx2);
                     minifloat::convert(x, n, q8, report);
                   },
                   "e4m3 avx2"});
  }
  // Between two timed calls, an untimed read of 64 MiB elsewhere: the block quantizers write
  // through the caches, and the next call timed would otherwise pay for writing their lines back
  // (a call with a report after quantize_mx read 0.80 x the same call without one, 1.0 in a
  // program of its own).
  std::vector<float> elsewhere(std::size_t{16} << 20, 1.0f);
  float sink = 0;
  std::vector<std::vector<double>> times(ops.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < ops.size(); ++k) {
      sink += minifloat::amax(elsewhere.data(), elsewhere.size());
      const double start = nanoseconds_now();
      ops[k].call();
      times[k].push_back(nanoseconds_now() - start);
    }
  }
  if (sink < 0) {
    std::printf("%g\n", static_cast<double>(sink)); // (never: keeps the reads)
  }
  for (auto& t : times) {
    std::sort(t.begin(), t.end());
  }
  const auto best = [&](std::size_t k) { return times[k].front(); };
  const auto median = [&](std::size_t k) { return times[k][times[k].size() / 2]; };
  std::printf("\n%zu elements (from memory): el/ns best / median of %d rounds; x the 4 -> 1 copy's "
              "best / median\n",
              n, rounds);
  for (std::size_t k = 0; k < ops.size(); ++k) {
    std::printf("  %-36s %6.2f / %6.2f", ops[k].name.c_str(), static_cast<double>(n) / best(k),
                static_cast<double>(n) / median(k));
    if (k != 0) {
      std::printf("   x %.2f / %.2f", best(0) / best(k), median(0) / median(k));
    }
    if (!ops[k].without_report.empty()) { // issue 21: x the same call without a report
      std::size_t plain = 0;
      while (ops[plain].name != ops[k].without_report) {
        ++plain;
      }
      std::printf("   x %s %.2f / %.2f", ops[plain].name.c_str(), best(plain) / best(k),
                  median(plain) / median(k));
    }
    std::printf("\n");
  }
}

} // namespace

// The build named in the first line (bench/CMakeLists.txt builds ratios_o2 at -O2).
#ifndef MINIFLOAT_BENCH_OPTIMIZATION
#define MINIFLOAT_BENCH_OPTIMIZATION "the build type's optimization"
#endif

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  std::printf("minifloat ratios by direct calls (%s) on %s; core clock by the probe %.2f GHz\n",
              MINIFLOAT_BENCH_OPTIMIZATION, minifloat_bench::cpu_model().c_str(),
              minifloat_bench::core_cycles_per_ns());
  run(4096, rounds);
  run(65536, rounds / 4 > 0 ? rounds / 4 : 1);
  run_from_memory(rounds / 25 > 2 ? rounds / 25 : 3);
  return 0;
}
