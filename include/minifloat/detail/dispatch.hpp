// minifloat: the one dispatch point of the array functions. Which instruction sets this build
// has kernels for, which of them this CPU can run (CPU detection), which one a call takes
// (active_path, or the path a test or benchmark chose with scoped_path), and with_kernels,
// which hands a call the kernel type of that path. This file holds the library's only
// instruction-set #if's (the detection macros themselves are in config.hpp); each path's
// kernels are one type in a header of its own (detail/kernels_*.hpp), all with the same
// interface (kernels_portable.hpp), and which step-2 implementation each runs for a given
// source, target and rounding is converter.hpp's map.
#ifndef MINIFLOAT_DETAIL_DISPATCH_HPP
#define MINIFLOAT_DETAIL_DISPATCH_HPP

#include <cstddef>

#include "../config.hpp"
#include "../error.hpp"
#include "kernels_portable.hpp"

#if MINIFLOAT_X86_PATHS
#include <cpuid.h>

#include "kernels_avx2.hpp"
#if MINIFLOAT_AVX512_PATH
#include "kernels_avx512.hpp"
#endif
#endif
#if MINIFLOAT_NEON_PATHS
#include "kernels_neon.hpp"
#endif

namespace minifloat {

// The instruction sets the array functions have kernels for.
enum class simd_path {
  portable, // plain C++, one element per iteration (compilers may vectorize it)
  avx2,     // x86-64 AVX2 + F16C + FMA + BMI2 + POPCNT
  avx512,   // x86-64 AVX-512 F, BW, VL, DQ, CD, VBMI (+ BMI2, POPCNT)
  neon,     // AArch64 Advanced SIMD (part of the base architecture)
};

inline const char* to_string(simd_path path) noexcept {
  switch (path) {
  case simd_path::avx512:
    return "avx512";
  case simd_path::avx2:
    return "avx2";
  case simd_path::neon:
    return "neon";
  case simd_path::portable:
    break;
  }
  return "portable";
}

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Whether this program can run `path` on this CPU: compiled in, and the CPU (and OS) support it.
// Asks the CPU (CPUID, which a virtual machine may trap: microseconds).
inline bool cpu_runs(simd_path path) noexcept {
#if MINIFLOAT_X86_PATHS
  __builtin_cpu_init();
  // (Clang 14 cannot ask __builtin_cpu_supports about F16C: CPUID leaf 1, ECX bit 29.)
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1U << 29)) != 0;
  const bool avx2 = __builtin_cpu_supports("avx2") && f16c && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  switch (path) {
  case simd_path::avx512:
    return MINIFLOAT_AVX512_PATH && avx2 && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512vbmi");
  case simd_path::avx2:
    return avx2;
  case simd_path::portable:
    return true;
  case simd_path::neon:
    return false;
  }
  return false;
#else
  return path == simd_path::portable || (MINIFLOAT_NEON_PATHS && path == simd_path::neon);
#endif
}

// The paths cpu_runs allows, one bit per simd_path, asked once (a function-local static:
// initialised once, race-free).
inline unsigned supported_path_bits() noexcept {
  static const unsigned bits = [] {
    unsigned all = 0;
    for (simd_path path :
         {simd_path::portable, simd_path::avx2, simd_path::avx512, simd_path::neon}) {
      all |= cpu_runs(path) ? 1U << static_cast<unsigned>(path) : 0U;
    }
    return all;
  }();
  return bits;
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {
// Whether this program can run `path` on this CPU: compiled in, and the CPU (and OS) support it.
inline bool path_supported(simd_path path) noexcept {
  const auto index = static_cast<unsigned>(path);
  return index < 32 && (detail::supported_path_bits() >> index & 1U) != 0;
}
} // namespace MINIFLOAT_SETTINGS_NAMESPACE

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Runs f(kernels) with the kernel type of `path` (portable_kernels, avx2_kernels,
// avx512_kernels or neon_kernels): the only place that names them. A path this build has no
// kernels for runs the portable ones (callers pass only supported paths).
template <class Function>
decltype(auto) with_kernels(simd_path path, Function&& f) {
#if MINIFLOAT_AVX512_PATH
  if (path == simd_path::avx512) {
    return f(avx512_kernels{});
  }
#endif
#if MINIFLOAT_X86_PATHS
  if (path == simd_path::avx2) {
    return f(avx2_kernels{});
  }
#endif
#if MINIFLOAT_NEON_PATHS
  if (path == simd_path::neon) {
    return f(neon_kernels{});
  }
#endif
  static_cast<void>(path);
  return f(portable_kernels{});
}

// Whether a cap of `ceiling` allows `path`: a path allows itself and the portable one, and
// avx512 allows avx2 as well.
constexpr bool path_within(simd_path path, simd_path ceiling) noexcept {
  return path == ceiling || path == simd_path::portable ||
         (ceiling == simd_path::avx512 && path == simd_path::avx2);
}
// The best supported path within a cap.
inline simd_path best_path(simd_path ceiling) noexcept {
  for (simd_path path : {simd_path::avx512, simd_path::avx2, simd_path::neon}) {
    if (path_within(path, ceiling) && path_supported(path)) {
      return path;
    }
  }
  return simd_path::portable;
}
// The best supported path: NEON on AArch64; on x86-64 avx512 caps nothing.
inline simd_path best_path() noexcept {
  return path_supported(simd_path::neon) ? simd_path::neon : best_path(simd_path::avx512);
}
// The path of the program: the best one the CPU supports under MINIFLOAT_SIMD_PATH's cap,
// decided on the first call (a function-local static: initialised once, race-free).
inline simd_path program_path() noexcept {
#if defined(MINIFLOAT_SIMD_PATH)
  static const simd_path path = best_path(simd_path::MINIFLOAT_SIMD_PATH);
#else
  static const simd_path path = best_path();
#endif
  return path;
}

// What a scoped_path chose for the calling thread, if one is alive.
struct path_choice {
  bool chosen = false;
  simd_path path = simd_path::portable;
  std::size_t non_temporal_threshold = MINIFLOAT_NON_TEMPORAL_THRESHOLD;
};
inline path_choice& thread_path_choice() noexcept {
  static thread_local path_choice choice;
  return choice;
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The path the array functions take in this thread: the one a live scoped_path chose, else the
// program's (detail::program_path: the best this CPU supports, capped by MINIFLOAT_SIMD_PATH).
inline simd_path active_path() noexcept {
  const detail::path_choice& choice = detail::thread_path_choice();
  return choice.chosen ? choice.path : detail::program_path();
}

// The door for tests and benchmarks: while a scoped_path lives, the array and scaling functions
// called from its thread run on `path` (which this CPU must support: a path it cannot run is
// refused as an invalid argument), and widening (and, on x86, narrowing floats) writes
// outputs of at least non_temporal_threshold bytes with streaming stores
// (MINIFLOAT_NON_TEMPORAL_THRESHOLD; 0: every output). Other threads are not affected. Nested
// scopes restore the previous choice.
//   for (simd_path path : {simd_path::portable, simd_path::avx2, simd_path::avx512})
//     if (path_supported(path)) { scoped_path on(path); convert(src, n, dst); ... }
class scoped_path {
public:
  explicit scoped_path(simd_path path,
                       std::size_t non_temporal_threshold = MINIFLOAT_NON_TEMPORAL_THRESHOLD)
      : previous_(detail::thread_path_choice()) {
    if (!path_supported(path)) {
      detail::refuse("scoped_path", "this build or CPU cannot run the path asked for");
    }
    detail::thread_path_choice() = {true, path, non_temporal_threshold};
  }
  ~scoped_path() { detail::thread_path_choice() = previous_; }
  scoped_path(const scoped_path&) = delete;
  scoped_path& operator=(const scoped_path&) = delete;
  scoped_path(scoped_path&&) = delete;
  scoped_path& operator=(scoped_path&&) = delete;

private:
  detail::path_choice previous_;
};

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The stores an array conversion's output of `bytes` takes in this thread
// (MINIFLOAT_NON_TEMPORAL_THRESHOLD, or a scoped_path's threshold).
inline stores stores_for(std::size_t bytes) noexcept {
  return bytes >= thread_path_choice().non_temporal_threshold ? stores::non_temporal
                                                              : stores::cached;
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_DISPATCH_HPP
