// minifloat: configuration. Every switch a user may set, with its default and meaning; the
// detection of the compiler's and the target's features; constexpr bit casts and host/device
// annotations. Every other header of the library includes this one first.
#ifndef MINIFLOAT_CONFIG_HPP
#define MINIFLOAT_CONFIG_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

// The project version; CMake reads it from here so that there is one source of truth.
#define MINIFLOAT_VERSION_MAJOR 1
#define MINIFLOAT_VERSION_MINOR 0
#define MINIFLOAT_VERSION_PATCH 0
#define MINIFLOAT_VERSION                                                                          \
  (MINIFLOAT_VERSION_MAJOR * 10000 + MINIFLOAT_VERSION_MINOR * 100 + MINIFLOAT_VERSION_PATCH)

// ---------------------------------------------------------------------------------------------
// User switches. Define any of these before including a minifloat header. None changes a
// result; they choose code paths and how errors are reported. Translation units of one program
// may set them differently: the code they change lives in a namespace named after them (the
// settings namespace, below), so each unit gets what it asked for.
//
//   MINIFLOAT_SIMD_PATH               default: undefined (the best path this CPU supports)
//       portable, avx2, avx512 or neon: caps the array functions' instruction set. The path
//       named if the CPU has it, else avx2 under avx512, else portable. (docs/spec.md §8) The
//       paths above the cap are not compiled (so the unit compiles faster), and a scoped_path
//       cannot choose them.
//   MINIFLOAT_NO_SIMD                 default: undefined
//       Compile no SIMD code at all: no intrinsics headers, no target attributes, no CPUID. The
//       array functions take the portable loop.
//   MINIFLOAT_NON_TEMPORAL_THRESHOLD  default: (std::size_t{32} << 20), 32 MiB
//       Widening array conversions whose output has at least this many bytes are written with
//       non-temporal (streaming) stores on x86, and so are narrowings of floats (convert,
//       quantize) on the AVX-512 and AVX2 paths; 0 streams every output, SIZE_MAX none.
//   MINIFLOAT_ERROR_HANDLER(message)  default: undefined (throw, or print and abort)
//       Called with a const char* when an array or scaling function refuses its arguments; must
//       not return. Without it: throws minifloat::invalid_argument where exceptions are enabled,
//       else prints "minifloat: <message>" to stderr and calls std::abort() (error.hpp).
//   MINIFLOAT_SETTINGS_TAG            default: undefined
//       An identifier added to the settings namespace's name. Needed only by a program whose
//       units define different MINIFLOAT_ERROR_HANDLERs or different custom
//       MINIFLOAT_NON_TEMPORAL_THRESHOLDs (a name records only that one is set, not which):
//       give each such unit its own tag.
//
// Compiler flags are not switches: -m flags (-mavx2, -mno-avx512f) do not select the array
// path, which is chosen at run time from the CPU (docs/spec.md §8); -fno-exceptions is detected
// (MINIFLOAT_HAS_EXCEPTIONS below).
#ifndef MINIFLOAT_NON_TEMPORAL_THRESHOLD
#define MINIFLOAT_NON_TEMPORAL_THRESHOLD (std::size_t{32} << 20)
#define MINIFLOAT_SETTINGS_THRESHOLD_PART
#else
#define MINIFLOAT_SETTINGS_THRESHOLD_PART _threshold
#endif

// ---------------------------------------------------------------------------------------------
// Detection (set here, never by the user).

// Functions callable from CUDA kernels when compiled by nvcc; plain functions otherwise.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define MINIFLOAT_HOST_DEVICE __host__ __device__
#else
#define MINIFLOAT_HOST_DEVICE
#endif

// The small helpers outside the kernel headers that the array loops call per vector (the
// sources' operator+, a block's factor), forced inline where the compiler optimizes, as the
// kernels' own lane functions are (detail/lanes.inc): at -Os g++ 12 left scaled_floats::operator+
// a call in quantize's loop, every vector register reloaded around it, and quantize ran at 0.27 x
// its speed at -O2 (docs/performance.md, stop 82).
#if defined(__OPTIMIZE__) && (defined(__GNUC__) || defined(__clang__))
#define MINIFLOAT_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define MINIFLOAT_ALWAYS_INLINE inline
#endif

#ifdef __has_builtin
#define MINIFLOAT_HAS_BUILTIN(x) __has_builtin(x)
#else
#define MINIFLOAT_HAS_BUILTIN(x) 0
#endif

// A constexpr bit cast is what makes float <-> fp8 conversions usable in static_assert under
// C++17, and what the compile-time tables and lane constants are made with; std::bit_cast only
// arrived in C++20 and is a thin wrapper over the same builtin. g++ has it from 11, clang from 9
// (nvcc through its host compiler). Without it the headers cannot be compiled: one error here
// rather than hundreds further on.
#if !MINIFLOAT_HAS_BUILTIN(__builtin_bit_cast) && !(defined(__GNUC__) && __GNUC__ >= 11)
#error "minifloat needs a compiler with __builtin_bit_cast (g++ 11 or later, clang 9 or later)"
#endif

// Native 16-bit floating types, used only where the compiler has them. binary16 and bfloat16
// are always available as raw bits (binary16_bits, bfloat16_bits).
// (GCC before 13 defines __FLT16_MANT_DIG__ on AArch64 but has _Float16 only in C there.)
#if defined(__FLT16_MANT_DIG__) && !defined(__CUDACC__) &&                                         \
    (defined(__clang__) || !defined(__GNUC__) || __GNUC__ >= 13 || defined(__x86_64__) ||          \
     defined(__i386__))
#define MINIFLOAT_HAS_FLOAT16 1 // _Float16 (and std::float16_t, which is the same type)
#else
#define MINIFLOAT_HAS_FLOAT16 0
#endif
#if defined(__BFLT16_MANT_DIG__) && !defined(__CUDACC__)
#define MINIFLOAT_HAS_BFLOAT16 1 // __bf16 (and std::bfloat16_t, which is the same type)
#else
#define MINIFLOAT_HAS_BFLOAT16 0
#endif

// Exceptions: bad arguments throw where they are enabled (error.hpp).
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define MINIFLOAT_HAS_EXCEPTIONS 1
#else
#define MINIFLOAT_HAS_EXCEPTIONS 0
#endif

// The C++20 range overloads of the array and scaling functions (std::span, contiguous ranges).
#if __cplusplus >= 202002L && defined(__has_include)
#if __has_include(<span>) && __has_include(<ranges>)
#define MINIFLOAT_HAS_RANGES 1
#endif
#endif
#ifndef MINIFLOAT_HAS_RANGES
#define MINIFLOAT_HAS_RANGES 0
#endif

// The instruction sets whose array kernels are compiled in (detail/dispatch.hpp, the only place
// that tests these): AVX2 and AVX-512 on x86-64, NEON on AArch64, with GCC or Clang (target
// attributes and intrinsics), never under nvcc or hipcc (host code there takes the portable
// loop), none with MINIFLOAT_NO_SIMD, and none that MINIFLOAT_SIMD_PATH's cap rules out: a path
// no call of the unit can take is not compiled (an avx2 cap compiles no AVX-512 code, a portable
// one no SIMD code at all), since the kernels are most of a unit's compile time.
#define MINIFLOAT_CONCATENATE_TOKENS(a, b) a##b
#define MINIFLOAT_CONCATENATE(a, b) MINIFLOAT_CONCATENATE_TOKENS(a, b)
// The paths each cap allows, one bit each: 1 avx2, 2 avx512, 4 neon (avx512 falls back to avx2).
#define MINIFLOAT_PATHS_UNDER_CAP_portable 0
#define MINIFLOAT_PATHS_UNDER_CAP_avx2 1
#define MINIFLOAT_PATHS_UNDER_CAP_avx512 3
#define MINIFLOAT_PATHS_UNDER_CAP_neon 4
#if defined(MINIFLOAT_SIMD_PATH)
#define MINIFLOAT_PATHS_UNDER_CAP                                                                  \
  MINIFLOAT_CONCATENATE(MINIFLOAT_PATHS_UNDER_CAP_, MINIFLOAT_SIMD_PATH)
#else
#define MINIFLOAT_PATHS_UNDER_CAP 7
#endif
#if !defined(MINIFLOAT_NO_SIMD) && defined(__x86_64__) &&                                          \
    (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__) &&    \
    (MINIFLOAT_PATHS_UNDER_CAP & 1)
#define MINIFLOAT_X86_PATHS 1 // AVX2, at least
#else
#define MINIFLOAT_X86_PATHS 0
#endif
#if MINIFLOAT_X86_PATHS && (MINIFLOAT_PATHS_UNDER_CAP & 2)
#define MINIFLOAT_AVX512_PATH 1
#else
#define MINIFLOAT_AVX512_PATH 0
#endif
#if !defined(MINIFLOAT_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON) &&                  \
    (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__) &&    \
    (MINIFLOAT_PATHS_UNDER_CAP & 4)
#define MINIFLOAT_NEON_PATHS 1
#else
#define MINIFLOAT_NEON_PATHS 0
#endif

// ---------------------------------------------------------------------------------------------
// The settings namespace (docs/spec.md §9). The code that the switches above and -fno-exceptions
// change (the array and scaling functions, the dispatch point, error reporting) is declared in
// an inline namespace whose name spells the settings, minifloat::MINIFLOAT_SETTINGS_NAMESPACE and
// minifloat::detail::MINIFLOAT_SETTINGS_NAMESPACE, e.g. minifloat::best_exceptions::convert. Units
// built with different settings so call distinct functions, where one program-wide copy of each
// inline function would otherwise serve them all (the ODR). The value types, formats and scalar
// conversions do not depend on the settings and are shared. The name's parts:
//   path        best; cap_<MINIFLOAT_SIMD_PATH>; or portable_only (MINIFLOAT_NO_SIMD, nvcc,
//               hipcc, a target without SIMD kernels, or a cap that leaves none)
//   exceptions  _exceptions or _no_exceptions
//   then        _handler with a MINIFLOAT_ERROR_HANDLER, _threshold with a custom
//               MINIFLOAT_NON_TEMPORAL_THRESHOLD, _<MINIFLOAT_SETTINGS_TAG> with a tag
#if !MINIFLOAT_X86_PATHS && !MINIFLOAT_NEON_PATHS
#define MINIFLOAT_SETTINGS_PATH_PART portable_only
#elif defined(MINIFLOAT_SIMD_PATH)
#define MINIFLOAT_SETTINGS_PATH_PART MINIFLOAT_CONCATENATE(cap_, MINIFLOAT_SIMD_PATH)
#else
#define MINIFLOAT_SETTINGS_PATH_PART best
#endif
#if MINIFLOAT_HAS_EXCEPTIONS
#define MINIFLOAT_SETTINGS_EXCEPTIONS_PART _exceptions
#else
#define MINIFLOAT_SETTINGS_EXCEPTIONS_PART _no_exceptions
#endif
#if defined(MINIFLOAT_ERROR_HANDLER)
#define MINIFLOAT_SETTINGS_HANDLER_PART _handler
#else
#define MINIFLOAT_SETTINGS_HANDLER_PART
#endif
#if defined(MINIFLOAT_SETTINGS_TAG)
#define MINIFLOAT_SETTINGS_TAG_PART MINIFLOAT_CONCATENATE(_, MINIFLOAT_SETTINGS_TAG)
#else
#define MINIFLOAT_SETTINGS_TAG_PART
#endif
#define MINIFLOAT_SETTINGS_NAMESPACE                                                               \
  MINIFLOAT_CONCATENATE(                                                                           \
      MINIFLOAT_CONCATENATE(                                                                       \
          MINIFLOAT_CONCATENATE(MINIFLOAT_CONCATENATE(MINIFLOAT_SETTINGS_PATH_PART,                \
                                                      MINIFLOAT_SETTINGS_EXCEPTIONS_PART),         \
                                MINIFLOAT_SETTINGS_HANDLER_PART),                                  \
          MINIFLOAT_SETTINGS_THRESHOLD_PART),                                                      \
      MINIFLOAT_SETTINGS_TAG_PART)

namespace minifloat {
namespace detail {

template <class To, class From>
MINIFLOAT_HOST_DEVICE constexpr To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
  return __builtin_bit_cast(To, from);
}

// Index of the most significant set bit of a non-zero value (0 for 1, 63 for 2^63).
MINIFLOAT_HOST_DEVICE constexpr int most_significant_bit_by_loop(std::uint64_t x) noexcept {
  int position = 0;
  while (x >>= 1) {
    ++position;
  }
  return position;
}
MINIFLOAT_HOST_DEVICE constexpr int most_significant_bit(std::uint64_t x) noexcept {
#if defined(__CUDA_ARCH__)
  // __clzll is not constexpr, and nvcc's device pass constant-evaluates the host's tables too
  // (decode_table, the array functions' code tables): those take the loop.
  if (__builtin_is_constant_evaluated()) {
    return most_significant_bit_by_loop(x);
  }
  return 63 - __clzll(static_cast<long long>(x));
#elif defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(x);
#else
  return most_significant_bit_by_loop(x);
#endif
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_CONFIG_HPP
