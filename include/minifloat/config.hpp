// minifloat: configuration — version, compiler feature detection, constexpr bit casts and
// host/device annotations. Everything else in the library includes this header first.
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

// Functions callable from CUDA kernels when compiled by nvcc; plain functions otherwise.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define MINIFLOAT_HOST_DEVICE __host__ __device__
#else
#define MINIFLOAT_HOST_DEVICE
#endif

#ifdef __has_builtin
#define MINIFLOAT_HAS_BUILTIN(x) __has_builtin(x)
#else
#define MINIFLOAT_HAS_BUILTIN(x) 0
#endif

// A constexpr bit cast is what makes float <-> fp8 conversions usable in static_assert under
// C++17; std::bit_cast only arrived in C++20 and is a thin wrapper over the same builtin.
#if MINIFLOAT_HAS_BUILTIN(__builtin_bit_cast) || (defined(__GNUC__) && __GNUC__ >= 11)
#define MINIFLOAT_HAS_CONSTEXPR_BIT_CAST 1
#else
#define MINIFLOAT_HAS_CONSTEXPR_BIT_CAST 0
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

namespace minifloat {
namespace detail {

#if MINIFLOAT_HAS_CONSTEXPR_BIT_CAST
#define MINIFLOAT_BIT_CAST_CONSTEXPR constexpr
template <class To, class From>
MINIFLOAT_HOST_DEVICE constexpr To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
  return __builtin_bit_cast(To, from);
}
#else
#define MINIFLOAT_BIT_CAST_CONSTEXPR
template <class To, class From>
MINIFLOAT_HOST_DEVICE inline To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}
#endif

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
