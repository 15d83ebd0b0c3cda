// Reciprocal throughputs of the vector instructions the x86 array kernels are made of, in core
// cycles (at the clock probe's rate, machine.hpp), measured on the machine it runs on: each
// instruction in 12 independent dependency chains, so that its latency hides and only the
// execution ports it may issue on bound it (0.5: two ports; 1: one; 2: two cycles of one).
//
// Why: the kernels' speed is set by how many of their instructions share a port, and that
// differs by core. On the Intel Xeon of docs/performance.md (stop 77) VPERMT2B, the encoders'
// packing shuffle, takes two cycles of the one shuffle port where VPERMB takes one, and VRANGEPS
// issues on two ports where VPMAXUD issues on one; an AMD Zen 5 may differ. A kernel change that
// trades one instruction for another needs these figures from both vendors, and this prints them
// in under a second: `build/bench/instruction_costs`. tests/run_all.sh prints them beside the
// kernels' instruction counts (bench/loop_instructions.py). A figure, never a check.
//
// Pairs: two instructions, six chains each, interleaved. Where a pair costs what each costs alone,
// the two share their ports; at half that, they share none; between, some (two-port instructions
// that share one port of their two: two-thirds). On the AMD Zen 5 this tells the four vector
// pipes' groups apart (docs/performance.md, stop 83): which of an encoder's instructions compete.
#include <chrono>
#include <cstdint>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "machine.hpp"

#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define MINIFLOAT_PROBE_X86 1
#endif
// (GCC 12's intrinsics read an undefined vector as the masked-off lanes' source.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace {

#if defined(MINIFLOAT_PROBE_X86)

constexpr std::uint64_t rounds = 200000;

// One probe: `rounds` rounds of the instruction `step` (an expression of the chain's value a and
// two constants b and c) in each of 12 chains; the best of five runs, in ns per instruction.
// (Named variables, each in a register by an empty asm: in an array, the compiler kept the
// chains in memory.)
#define MINIFLOAT_PROBE(name, target, type, step)                                                  \
  MINIFLOAT_PROBE_ROUNDS(name, target, type, MINIFLOAT_PROBE_STEP, step, step, MINIFLOAT_NO_HIDING)
// A pair's probe: `step` and `second` (expressions of x and the constants b and c) six times
// each per round, interleaved, every one on its own source (12 sources, each put out of the
// compiler's sight at the round's start) and no two in a chain: their throughput alone, where
// chains of an instruction's own results could let its latency bound two-pipe pairs (VMULPS and
// VADDPS in 12 chains ran at 0.36 cycles per instruction on the Zen 5, 0.25 independent).
#define MINIFLOAT_PAIR_PROBE(name, target, type, step, second)                                     \
  MINIFLOAT_PROBE_ROUNDS(name, target, type, MINIFLOAT_PAIR_STEP, step, second,                    \
                         MINIFLOAT_HIDE_SOURCES)
// Both: STEP(a, step) and STEP(a, second) on a0 to a11 in turn, HIDE(a0, ..., a11) first in each
// round.
#define MINIFLOAT_PROBE_ROUNDS(name, target, type, STEP, step, second, HIDE)                       \
  target __attribute__((noinline)) double name(type b, [[maybe_unused]] type c) {                  \
    __asm__("" : "+v"(b), "+v"(c)); /* constants the compiler cannot see or fold */                \
    double best = 1e30;                                                                            \
    for (int run = 0; run < 5; ++run) {                                                            \
      type a0 = b, a1 = b, a2 = b, a3 = b, a4 = b, a5 = b, a6 = b, a7 = b, a8 = b, a9 = b,         \
           a10 = b, a11 = b;                                                                       \
      const auto start = std::chrono::steady_clock::now();                                         \
      for (std::uint64_t r = 0; r < rounds; ++r) {                                                 \
        HIDE(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);                                    \
        STEP(a0, step);                                                                            \
        STEP(a1, second);                                                                          \
        STEP(a2, step);                                                                            \
        STEP(a3, second);                                                                          \
        STEP(a4, step);                                                                            \
        STEP(a5, second);                                                                          \
        STEP(a6, step);                                                                            \
        STEP(a7, second);                                                                          \
        STEP(a8, step);                                                                            \
        STEP(a9, second);                                                                          \
        STEP(a10, step);                                                                           \
        STEP(a11, second);                                                                         \
      }                                                                                            \
      const double ns =                                                                            \
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)       \
              .count();                                                                            \
      __asm__ volatile(""                                                                          \
                       :                                                                           \
                       : "v"(a0), "v"(a1), "v"(a2), "v"(a3), "v"(a4), "v"(a5), "v"(a6), "v"(a7),   \
                         "v"(a8), "v"(a9), "v"(a10), "v"(a11));                                    \
      const double per_instruction = ns / static_cast<double>(12 * rounds);                        \
      best = per_instruction < best ? per_instruction : best;                                      \
    }                                                                                              \
    return best;                                                                                   \
  }
// A chain's step: its value a becomes step(a).
#define MINIFLOAT_PROBE_STEP(a, step)                                                              \
  do {                                                                                             \
    const auto x = a;                                                                              \
    a = step;                                                                                      \
    __asm__("" : "+v"(a));                                                                         \
  } while (false)
// A pair's step: step(a), used, a left as it is.
#define MINIFLOAT_PAIR_STEP(source, step)                                                          \
  do {                                                                                             \
    const auto x = source;                                                                         \
    const auto result = step;                                                                      \
    __asm__ volatile("" : : "v"(result));                                                          \
  } while (false)
#define MINIFLOAT_NO_HIDING(...)
#define MINIFLOAT_HIDE_SOURCES(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11)                   \
  __asm__(""                                                                                       \
          : "+v"(s0), "+v"(s1), "+v"(s2), "+v"(s3), "+v"(s4), "+v"(s5), "+v"(s6), "+v"(s7),        \
            "+v"(s8), "+v"(s9), "+v"(s10), "+v"(s11))

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi")))
#define AVX2 __attribute__((target("avx2,f16c")))
#define PS512(v) _mm512_castsi512_ps(v)
#define SI512(v) _mm512_castps_si512(v)
#define PS256(v) _mm256_castsi256_ps(v)
#define SI256(v) _mm256_castps_si256(v)

// AVX-512: the byte, word and dword permutes and shuffles (packing codes, table lookups), the
// integer shifts and maxima (exponents, amaxes), the float operations of the encoders (the clamp,
// the NaN fix-up, the rounding addition, the scale), and the logic.
MINIFLOAT_PROBE(vpermt2b_zmm, AVX512, __m512i, _mm512_permutex2var_epi8(b, x, c))
MINIFLOAT_PROBE(vpermt2w_zmm, AVX512, __m512i, _mm512_permutex2var_epi16(b, x, c))
MINIFLOAT_PROBE(vpermt2d_zmm, AVX512, __m512i, _mm512_permutex2var_epi32(b, x, c))
MINIFLOAT_PROBE(vpermb_zmm, AVX512, __m512i, _mm512_permutexvar_epi8(x, b))
MINIFLOAT_PROBE(vpermw_zmm, AVX512, __m512i, _mm512_permutexvar_epi16(x, b))
MINIFLOAT_PROBE(vpshufb_zmm, AVX512, __m512i, _mm512_shuffle_epi8(b, x))
MINIFLOAT_PROBE(vpunpcklbw_zmm, AVX512, __m512i, _mm512_unpacklo_epi8(x, b))
MINIFLOAT_PROBE(vshufi64x2_zmm, AVX512, __m512i, _mm512_shuffle_i64x2(x, b, 0x44))
MINIFLOAT_PROBE(vpmovzxbd_zmm, AVX512, __m512i, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)))
MINIFLOAT_PROBE(vpsrld_zmm, AVX512, __m512i, _mm512_srli_epi32(x, 1))
MINIFLOAT_PROBE(vpmaxud_zmm, AVX512, __m512i, _mm512_max_epu32(x, b))
MINIFLOAT_PROBE(vpmaxub_zmm, AVX512, __m512i, _mm512_max_epu8(x, b))
MINIFLOAT_PROBE(vpmaxuw_zmm, AVX512, __m512i, _mm512_max_epu16(x, b))
MINIFLOAT_PROBE(vrangeps_zmm, AVX512, __m512i, SI512(_mm512_range_ps(PS512(x), PS512(b), 0xA)))
MINIFLOAT_PROBE(vfixupimmps_zmm, AVX512, __m512i,
                SI512(_mm512_fixupimm_ps(PS512(x), PS512(b), c, 0)))
MINIFLOAT_PROBE(vaddps_zmm, AVX512, __m512i, SI512(_mm512_add_ps(PS512(x), PS512(b))))
MINIFLOAT_PROBE(vmulps_zmm, AVX512, __m512i, SI512(_mm512_mul_ps(PS512(x), PS512(b))))
MINIFLOAT_PROBE(vmaxps_zmm, AVX512, __m512i, SI512(_mm512_max_ps(PS512(x), PS512(b))))
MINIFLOAT_PROBE(vpternlogd_zmm, AVX512, __m512i, _mm512_ternarylogic_epi32(x, b, c, 0xF8))
MINIFLOAT_PROBE(vpandd_zmm, AVX512, __m512i, _mm512_and_si512(x, b))

// Pairs of the encoders' instructions (see the top): the float operations with each other, with
// the shift, the table lookup (VPERMT2D, the lookup's VPERMI2D with its operands the other way)
// and the fix-up; the packing shuffles with each other and with the shift; a maximum beside them.
#define MINIFLOAT_AVX512_PAIR(name, first, second)                                                 \
  MINIFLOAT_PAIR_PROBE(name, AVX512, __m512i, first, second)
#define MULPS SI512(_mm512_mul_ps(PS512(x), PS512(b)))
#define ADDPS SI512(_mm512_add_ps(PS512(x), PS512(b)))
#define RANGEPS SI512(_mm512_range_ps(PS512(x), PS512(b), 0xA))
#define SRLD _mm512_srli_epi32(x, 1)
#define FIXUPPS SI512(_mm512_fixupimm_ps(PS512(x), PS512(b), c, 0))
#define PERMT2D _mm512_permutex2var_epi32(b, x, c)
#define PERMT2B _mm512_permutex2var_epi8(b, x, c)
#define SHUFI64X2 _mm512_shuffle_i64x2(x, b, 0x44)
#define MAXUD _mm512_max_epu32(x, b)
MINIFLOAT_AVX512_PAIR(vmulps_vaddps, MULPS, ADDPS)
MINIFLOAT_AVX512_PAIR(vrangeps_vaddps, RANGEPS, ADDPS)
MINIFLOAT_AVX512_PAIR(vrangeps_vmulps, RANGEPS, MULPS)
MINIFLOAT_AVX512_PAIR(vpsrld_vaddps, SRLD, ADDPS)
MINIFLOAT_AVX512_PAIR(vpsrld_vmulps, SRLD, MULPS)
MINIFLOAT_AVX512_PAIR(vfixupimmps_vaddps, FIXUPPS, ADDPS)
MINIFLOAT_AVX512_PAIR(vfixupimmps_vmulps, FIXUPPS, MULPS)
MINIFLOAT_AVX512_PAIR(vpermt2d_vaddps, PERMT2D, ADDPS)
MINIFLOAT_AVX512_PAIR(vpermt2d_vmulps, PERMT2D, MULPS)
MINIFLOAT_AVX512_PAIR(vpermt2d_vrangeps, PERMT2D, RANGEPS)
MINIFLOAT_AVX512_PAIR(vpermt2b_vpermt2d, PERMT2B, PERMT2D)
MINIFLOAT_AVX512_PAIR(vpermt2b_vshufi64x2, PERMT2B, SHUFI64X2)
MINIFLOAT_AVX512_PAIR(vpermt2b_vpsrld, PERMT2B, SRLD)
MINIFLOAT_AVX512_PAIR(vpmaxud_vpermt2b, MAXUD, PERMT2B)
MINIFLOAT_AVX512_PAIR(vpmaxud_vmulps, MAXUD, MULPS)
MINIFLOAT_AVX512_PAIR(vpmaxud_vpsrld, MAXUD, SRLD)
#undef MULPS
#undef ADDPS
#undef RANGEPS
#undef SRLD
#undef FIXUPPS
#undef PERMT2D
#undef PERMT2B
#undef SHUFI64X2
#undef MAXUD

// AVX2: the lookups and blends of its encoders and decoders, F16C, shifts and maxima.
MINIFLOAT_PROBE(vpshufb_ymm, AVX2, __m256i, _mm256_shuffle_epi8(b, x))
MINIFLOAT_PROBE(vpermd_ymm, AVX2, __m256i, _mm256_permutevar8x32_epi32(b, x))
MINIFLOAT_PROBE(vpblendvb_ymm, AVX2, __m256i, _mm256_blendv_epi8(x, b, c))
MINIFLOAT_PROBE(vcvtph2ps_ymm, AVX2, __m256i, SI256(_mm256_cvtph_ps(_mm256_castsi256_si128(x))))
MINIFLOAT_PROBE(vpsrld_ymm, AVX2, __m256i, _mm256_srli_epi32(x, 1))
MINIFLOAT_PROBE(vpmaxud_ymm, AVX2, __m256i, _mm256_max_epu32(x, b))
MINIFLOAT_PROBE(vaddps_ymm, AVX2, __m256i, SI256(_mm256_add_ps(PS256(x), PS256(b))))
MINIFLOAT_PROBE(vpand_ymm, AVX2, __m256i, _mm256_and_si256(x, b))

// The instructions of one instruction set measured, each in ns, printed four to a line in
// cycles.
struct measured {
  const char* name;
  double ns;
};
struct measured_row {
  const char* title = nullptr;
  measured entries[20] = {};
  std::size_t count = 0;
};
void print_row(const measured_row& row, double cycles_per_ns) {
  int name_width = 12;
  for (std::size_t k = 0; k < row.count; ++k) {
    const int length = static_cast<int>(std::strlen(row.entries[k].name));
    name_width = length > name_width ? length : name_width;
  }
  std::printf("%s", row.title);
  for (std::size_t k = 0; k < row.count; ++k) {
    std::printf("%s %-*s %5.2f", k % 4 == 0 ? "\n " : "  ", name_width, row.entries[k].name,
                row.entries[k].ns * cycles_per_ns);
  }
  std::printf("\n");
}
template <std::size_t N>
measured_row row_of(const char* title, const measured (&entries)[N]) {
  static_assert(N <= 20, "measured_row holds 20");
  measured_row row;
  row.title = title;
  for (std::size_t k = 0; k < N; ++k) {
    row.entries[k] = entries[k];
  }
  row.count = N;
  return row;
}

// b: 1.0f in every lane (a float operand that keeps the chains' floats normal: x + 1 stops
// growing at 2^24, x * 1 and the maxima stay put); c: 5 in every byte (permute indices, the
// fix-up's table).
AVX512 measured_row measure_avx512() {
  const __m512i b = _mm512_set1_epi32(0x3F800000);
  const __m512i c = _mm512_set1_epi8(5);
  const measured entries[] = {
      {"vpermt2b", vpermt2b_zmm(b, c)},       {"vpermt2w", vpermt2w_zmm(b, c)},
      {"vpermt2d", vpermt2d_zmm(b, c)},       {"vpermb", vpermb_zmm(b, c)},
      {"vpermw", vpermw_zmm(b, c)},           {"vpshufb", vpshufb_zmm(b, c)},
      {"vpunpcklbw", vpunpcklbw_zmm(b, c)},   {"vshufi64x2", vshufi64x2_zmm(b, c)},
      {"vpmovzxbd", vpmovzxbd_zmm(b, c)},     {"vpsrld", vpsrld_zmm(b, c)},
      {"vpmaxud", vpmaxud_zmm(b, c)},         {"vpmaxub", vpmaxub_zmm(b, c)},
      {"vpmaxuw", vpmaxuw_zmm(b, c)},         {"vrangeps", vrangeps_zmm(b, c)},
      {"vfixupimmps", vfixupimmps_zmm(b, c)}, {"vaddps", vaddps_zmm(b, c)},
      {"vmulps", vmulps_zmm(b, c)},           {"vmaxps", vmaxps_zmm(b, c)},
      {"vpternlogd", vpternlogd_zmm(b, c)},   {"vpandd", vpandd_zmm(b, c)}};
  return row_of("avx512, zmm:", entries);
}
AVX512 measured_row measure_avx512_pairs() {
  const __m512i b = _mm512_set1_epi32(0x3F800000);
  const __m512i c = _mm512_set1_epi8(5);
  const measured entries[] = {{"vmulps+vaddps", vmulps_vaddps(b, c)},
                              {"vrangeps+vaddps", vrangeps_vaddps(b, c)},
                              {"vrangeps+vmulps", vrangeps_vmulps(b, c)},
                              {"vpsrld+vaddps", vpsrld_vaddps(b, c)},
                              {"vpsrld+vmulps", vpsrld_vmulps(b, c)},
                              {"vfixupimmps+vaddps", vfixupimmps_vaddps(b, c)},
                              {"vfixupimmps+vmulps", vfixupimmps_vmulps(b, c)},
                              {"vpermt2d+vaddps", vpermt2d_vaddps(b, c)},
                              {"vpermt2d+vmulps", vpermt2d_vmulps(b, c)},
                              {"vpermt2d+vrangeps", vpermt2d_vrangeps(b, c)},
                              {"vpermt2b+vpermt2d", vpermt2b_vpermt2d(b, c)},
                              {"vpermt2b+vshufi64x2", vpermt2b_vshufi64x2(b, c)},
                              {"vpermt2b+vpsrld", vpermt2b_vpsrld(b, c)},
                              {"vpmaxud+vpermt2b", vpmaxud_vpermt2b(b, c)},
                              {"vpmaxud+vmulps", vpmaxud_vmulps(b, c)},
                              {"vpmaxud+vpsrld", vpmaxud_vpsrld(b, c)}};
  return row_of("avx512 pairs, zmm (per instruction of the pair):", entries);
}
AVX2 measured_row measure_avx2() {
  const __m256i b = _mm256_set1_epi32(0x3F800000);
  const __m256i c = _mm256_set1_epi8(5);
  const measured entries[] = {
      {"vpshufb", vpshufb_ymm(b, c)},     {"vpermd", vpermd_ymm(b, c)},
      {"vpblendvb", vpblendvb_ymm(b, c)}, {"vcvtph2ps", vcvtph2ps_ymm(b, c)},
      {"vpsrld", vpsrld_ymm(b, c)},       {"vpmaxud", vpmaxud_ymm(b, c)},
      {"vaddps", vaddps_ymm(b, c)},       {"vpand", vpand_ymm(b, c)}};
  return row_of("avx2, ymm:", entries);
}

#endif

} // namespace

int main() {
  // (The clock probe before and after, the faster of the two: a core may wake up from a lower
  // clock, and a virtual machine's may dip for a while.)
  const double before = minifloat_bench::core_cycles_per_ns();
  measured_row rows[3];
  std::size_t count = 0;
#if defined(MINIFLOAT_PROBE_X86)
  if (__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
    rows[count++] = measure_avx512();
    rows[count++] = measure_avx512_pairs();
  }
  // (Clang 14 cannot ask __builtin_cpu_supports about F16C: CPUID leaf 1, ECX bit 29.)
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1U << 29)) != 0;
  if (__builtin_cpu_supports("avx2") && f16c) {
    rows[count++] = measure_avx2();
  }
#endif
  const double after = minifloat_bench::core_cycles_per_ns();
  const double cycles_per_ns = before > after ? before : after;
  std::printf("vector instruction costs on %s, core clock by the probe %.2f GHz:\n"
              "cycles per instruction, 12 independent chains (reciprocal throughput)\n",
              minifloat_bench::cpu_model().c_str(), cycles_per_ns);
  for (std::size_t k = 0; k < count; ++k) {
    print_row(rows[k], cycles_per_ns);
  }
  if (count == 0) {
    std::printf("(no probes for this architecture or CPU)\n");
  }
  return 0;
}
