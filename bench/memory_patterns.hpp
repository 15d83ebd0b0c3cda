// The memory-pattern limits the benchmarks divide by (convert_bench, ratios): copies that move
// exactly the bytes of a kind of conversion in the widest vectors this CPU has
// (memory_patterns.inc, compiled once per instruction set like the library's kernels).
#ifndef MINIFLOAT_BENCH_MEMORY_PATTERNS_HPP
#define MINIFLOAT_BENCH_MEMORY_PATTERNS_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace minifloat_bench {

// (GCC drops vector_size from a dependent alias, so the vector types are spelled out.)
typedef std::uint32_t words16 __attribute__((vector_size(16)));
typedef std::uint32_t words32 __attribute__((vector_size(32)));
typedef std::uint32_t words64 __attribute__((vector_size(64)));
#if defined(__GNUC__) && defined(__x86_64__)
#define MINIFLOAT_BENCH_X86 1
#endif
namespace patterns_base { // SSE2 on x86-64, else the compiler's choice for 16-byte vectors
using vector = words16;
#define MEMORY_PATTERN_FN
#if defined(MINIFLOAT_BENCH_X86)
inline void stream(std::uint8_t* p, vector v) {
  _mm_stream_si128(reinterpret_cast<__m128i*>(p), reinterpret_cast<__m128i>(v));
}
#else
inline void stream(std::uint8_t* p, vector v) { std::memcpy(p, &v, sizeof v); }
#endif
#include "memory_patterns.inc"
#undef MEMORY_PATTERN_FN
} // namespace patterns_base
#if defined(MINIFLOAT_BENCH_X86)
namespace patterns_avx2 {
using vector = words32;
#define MEMORY_PATTERN_FN __attribute__((target("avx2")))
MEMORY_PATTERN_FN inline void stream(std::uint8_t* p, vector v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), reinterpret_cast<__m256i>(v));
}
#include "memory_patterns.inc"
#undef MEMORY_PATTERN_FN
} // namespace patterns_avx2
namespace patterns_avx512 {
using vector = words64;
#define MEMORY_PATTERN_FN __attribute__((target("avx512f")))
MEMORY_PATTERN_FN inline void stream(std::uint8_t* p, vector v) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(p), reinterpret_cast<__m512i>(v));
}
#include "memory_patterns.inc"
#undef MEMORY_PATTERN_FN
} // namespace patterns_avx512
#endif

// Runs f(memory_patterns) with the patterns of the widest vectors this CPU has: 64, 32 or 16
// bytes (the one place that picks among them).
template <class Function>
decltype(auto) on_widest_vectors(Function&& f) {
#if defined(MINIFLOAT_BENCH_X86)
  if (__builtin_cpu_supports("avx512f")) {
    return f(patterns_avx512::memory_patterns{});
  }
  if (__builtin_cpu_supports("avx2")) {
    return f(patterns_avx2::memory_patterns{});
  }
#endif
  return f(patterns_base::memory_patterns{});
}
inline std::size_t vector_bytes() {
  return on_widest_vectors([](auto patterns) { return decltype(patterns)::vector_bytes; });
}

} // namespace minifloat_bench

#endif // MINIFLOAT_BENCH_MEMORY_PATTERNS_HPP
