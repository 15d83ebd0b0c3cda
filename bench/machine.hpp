// What the benchmarks print about the machine with every figure: the CPU's model and the core
// clock from a probe (convert_bench, instruction_costs).
#ifndef MINIFLOAT_BENCH_MACHINE_HPP
#define MINIFLOAT_BENCH_MACHINE_HPP

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#endif

namespace minifloat_bench {

// The CPU's model, as the operating system names it (Linux: /proc/cpuinfo), with x86's family
// and model numbers, which the name does not always give.
inline std::string cpu_model() {
  std::string model = "unknown CPU";
  if (std::FILE* f = std::fopen("/proc/cpuinfo", "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, f) != nullptr) {
      const std::string text(line);
      if (text.rfind("model name", 0) == 0 || text.rfind("Model", 0) == 0) {
        const std::size_t colon = text.find(':');
        if (colon != std::string::npos) {
          model = text.substr(colon + 2, text.size() - colon - 3);
          break;
        }
      }
    }
    std::fclose(f);
  }
#if defined(__GNUC__) && defined(__x86_64__)
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) {
    const unsigned base_family = (eax >> 8) & 0xF;
    const unsigned family = base_family == 0xF ? base_family + ((eax >> 20) & 0xFF) : base_family;
    const unsigned model_number = base_family == 0x6 || base_family == 0xF
                                      ? (((eax >> 16) & 0xF) << 4) | ((eax >> 4) & 0xF)
                                      : (eax >> 4) & 0xF;
    model += " (family " + std::to_string(family) + " model " + std::to_string(model_number) + ")";
  }
#endif
  return model;
}

// Cycles per nanosecond, from a clock probe: a chain of dependent register-to-register integer
// additions (one cycle each on every x86-64 and AArch64 core), the best of five 20-million-addition
// runs. 0 where the probe is not written (other architectures, other compilers). Not additions of
// an immediate: Intel's cores since Golden Cove (Sapphire and Emerald Rapids among them) fold
// those at renaming, several per cycle, and the probe read 10 GHz on an Emerald Rapids Xeon.
inline double core_cycles_per_ns() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
  constexpr std::uint64_t rounds = 1250000; // 16 additions per round
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    std::uint64_t x = 0;
    std::uint64_t one = 1;
    __asm__ volatile("" : "+r"(one)); // a register the compiler cannot see the value of
    const auto start = std::chrono::steady_clock::now();
    // (The 16 additions in one asm statement: as 16 statements in a loop, g++ -O2 moved x
    // between registers around each, and the probe read half the clock.)
    for (std::uint64_t r = 0; r < rounds; ++r) {
#if defined(__x86_64__)
#define MINIFLOAT_BENCH_ADD4 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
#else
#define MINIFLOAT_BENCH_ADD4                                                                       \
  "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
#endif
      __asm__ volatile(
          MINIFLOAT_BENCH_ADD4 MINIFLOAT_BENCH_ADD4 MINIFLOAT_BENCH_ADD4 MINIFLOAT_BENCH_ADD4
          : "+r"(x)
          : "r"(one));
#undef MINIFLOAT_BENCH_ADD4
    }
    const auto ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    __asm__ volatile("" : : "r"(x));
    const double rate = static_cast<double>(16 * rounds) / ns;
    best = rate > best ? rate : best;
  }
  return best;
#else
  return 0;
#endif
}

} // namespace minifloat_bench

#endif // MINIFLOAT_BENCH_MACHINE_HPP
