// minifloat: conversions of whole arrays. Every element is converted exactly as the scalar
// functions of convert.hpp convert it, bit for bit, whichever path runs: AVX-512, AVX2 or the
// portable loop on x86-64, NEON or the portable loop on AArch64, chosen once at run time from
// the CPU (simd_path below).
//
//   convert<R, O>(src, n, dst) / convert<R, O>(src_range, dst_range)
//       float, double, binary16_bits, bfloat16_bits -> any 8-bit type (rounding R, overflow O)
//       any 8-bit type -> float, binary16_bits, bfloat16_bits (exact except e8m0 -> binary16)
//   stochastic_convert<O>(src, n, random_bits, dst)   caller's 32 random bits per element
//   stochastic_convert<O>(src, n, dst, counter_generator{seed, offset})
//   amax(src, n)   max |x| of a float array
//
// Arguments are checked before anything is written (error.hpp): a null pointer with n != 0,
// ranges of different sizes, and a destination that overlaps a source are refused (in-place
// conversion is not supported: the elements have different sizes). n == 0 does nothing.
// Every function is safe to call from many threads at once on different arrays.
#ifndef MINIFLOAT_BULK_HPP
#define MINIFLOAT_BULK_HPP

#include <cstddef>

#include "convert.hpp"
#include "error.hpp"
#include "random.hpp"
#include "tables.hpp"
#include "detail/lanes_portable.hpp"
#include "detail/simd_neon.hpp"
#include "detail/simd_x86.hpp"

#if __cplusplus >= 202002L && __has_include(<span>)
#include <iterator>
#include <ranges>
#include <span>
#define MINIFLOAT_HAS_RANGES 1
#else
#define MINIFLOAT_HAS_RANGES 0
#endif

// Widening writes 2 or 4 bytes for every byte it reads. An output of at least this many bytes,
// too large to stay in the caches, is written with non-temporal stores on the x86 paths, which
// skip reading each line before it is written (and leave the caches' contents alone): on this
// project's CI machine, 64 Mi codes to float went from 1.3 to about 3.1 elements/ns (AVX-512)
// and from 1.3 to about 2.4 (AVX2). Define it (in bytes) before including the library to move
// the threshold: 0 streams every output, SIZE_MAX none.
#ifndef MINIFLOAT_NON_TEMPORAL_THRESHOLD
#define MINIFLOAT_NON_TEMPORAL_THRESHOLD (std::size_t{32} << 20)
#endif

namespace minifloat {

// The instruction sets the array functions have kernels for.
enum class simd_path {
  portable, // plain C++, one element per iteration (compilers may vectorize it)
  avx2,     // x86-64 AVX2 + F16C + FMA + BMI2
  avx512,   // x86-64 AVX-512 F, BW, VL, DQ, CD, VBMI (+ BMI2)
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

// Whether this program can run `path` on this CPU: compiled in, and the CPU (and OS) support it.
inline bool path_supported(simd_path path) noexcept {
#if MINIFLOAT_X86_PATHS
  __builtin_cpu_init();
  // (Clang 14 cannot ask __builtin_cpu_supports about F16C: CPUID leaf 1, ECX bit 29.)
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1U << 29)) != 0;
  const bool avx2 = __builtin_cpu_supports("avx2") && f16c && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi2");
  switch (path) {
  case simd_path::avx512:
    return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vbmi");
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

namespace detail {
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
} // namespace detail

// The path the array functions take: the best one the CPU supports, decided on the first call
// (a function-local static: initialised once, race-free). Define MINIFLOAT_SIMD_PATH to
// portable, avx2, avx512 or neon to cap it (that path if the CPU has it, avx2 under avx512, or
// else portable), or define MINIFLOAT_NO_SIMD to compile no SIMD code at all.
inline simd_path active_path() noexcept {
#if defined(MINIFLOAT_SIMD_PATH)
  static const simd_path path = detail::best_path(simd_path::MINIFLOAT_SIMD_PATH);
#else
  static const simd_path path = detail::best_path();
#endif
  return path;
}

namespace detail {

template <class T>
constexpr bool is_8bit_type = value_traits<T>::is_known && sizeof(T) == 1;
// Sources the SIMD kernels read (as float bits).
template <class T>
constexpr bool is_lane_source =
    std::is_same<T, float>::value || std::is_same<T, binary16_bits>::value ||
    std::is_same<T, bfloat16_bits>::value;
// Targets the lane kernels encode (every 8-bit format of the library).
template <class T>
constexpr bool is_lane_target = has_float_lane_kernel<typename value_traits<T>::format>;

// The lane kernels on a given path: n floats (or 16-bit values, or scaled_floats) from src into
// codes of Target.
template <class Target, rounding_rule Rule, overflow Overflow, class Source, class Random>
void encode_on(simd_path path, Source src, std::size_t n, std::uint8_t* codes,
               const Random& random) {
#if MINIFLOAT_X86_PATHS
  // The addition kernel is for the formats with a mantissa (e8m0 has none to round).
  constexpr bool addition_rounds =
      (Rule == rounding_rule::nearest_even || Rule == rounding_rule::toward_zero) &&
      format_info<Target>::is_signed;
  if (path == simd_path::avx512) {
    return avx512::encode_array<Target, Rule, Overflow, addition_rounds>(src, n, codes, random);
  }
  if (path == simd_path::avx2) {
    // AVX2 has no embedded rounding: the addition kernel only when MXCSR rounds to nearest.
    if constexpr (Rule == rounding_rule::nearest_even && format_info<Target>::is_signed) {
      if (avx2::rounds_to_nearest()) {
        return avx2::encode_array<Target, Rule, Overflow, true>(src, n, codes, random);
      }
    }
    return avx2::encode_array<Target, Rule, Overflow, false>(src, n, codes, random);
  }
#endif
#if MINIFLOAT_NEON_PATHS
  if (path == simd_path::neon) {
    return neon::encode_array<Target, Rule, Overflow, false>(src, n, codes, random);
  }
#endif
  static_cast<void>(path);
  return portable::encode_array<Target, Rule, Overflow, false>(src, n, codes, random);
}

// Narrowing on a given path (tests call each path the CPU supports through this).
template <rounding_rule Rule, overflow Overflow, class From, class To, class Random>
void narrow_array(simd_path path, const From* src, std::size_t n, To* dst, const Random& random) {
  if constexpr (is_lane_source<From> && is_lane_target<To>) {
    encode_on<typename value_traits<To>::format, Rule, Overflow>(
        path, src, n, reinterpret_cast<std::uint8_t*>(dst), random);
  } else {
    // double sources: the scalar converter, element by element.
    static_cast<void>(path);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits = 0;
      if constexpr (std::is_same<Random, random_bits_array>::value) {
        bits = random.bits[i];
      } else if constexpr (std::is_same<Random, counter_generator>::value) {
        bits = random(i);
      }
      dst[i] = convert_value<To, Rule, Overflow>(src[i], bits);
    }
  }
}

// How widening writes its results: through the caches, or with non-temporal stores where the
// path has them (x86), for outputs larger than the caches (simd_x86.hpp).
enum class stores { cached, non_temporal };

// The stores for an output of `bytes` (MINIFLOAT_NON_TEMPORAL_THRESHOLD).
constexpr stores stores_for(std::size_t bytes) noexcept {
  return bytes >= std::size_t{MINIFLOAT_NON_TEMPORAL_THRESHOLD} ? stores::non_temporal
                                                                : stores::cached;
}

#if MINIFLOAT_X86_PATHS
// Runs kernel(non_temporal, first, count) over [0, n) with the stores `mode` asks for;
// non_temporal is a std::integral_constant<bool>.
template <class Result, class Kernel>
void decode_with_stores(stores mode, Result* dst, std::size_t n, const Kernel& kernel) {
  if (mode == stores::non_temporal) {
    return with_non_temporal_stores(dst, n, kernel);
  }
  kernel(std::false_type{}, std::size_t{0}, n);
}
#endif

// Widening on a given path.
template <class From, class To>
void widen_array(simd_path path, const From* src, std::size_t n, To* dst,
                 stores mode = stores::cached) {
  using source = typename value_traits<From>::format;
  using target = typename value_traits<To>::format;
  const auto* codes = reinterpret_cast<const std::uint8_t*>(src);
  static_cast<void>(path);
#if MINIFLOAT_X86_PATHS || MINIFLOAT_NEON_PATHS
  // The byte-lookup kernels give 16-bit results; every 8-bit format's values are bfloat16
  // values, so a float is its bfloat16 pattern << 16.
  constexpr bool to_float = std::is_same<To, float>::value;
  using looked_up = typename std::conditional<to_float, formats::bfloat16, target>::type;
  constexpr const byte_plane_table& planes = byte_planes_for<source, looked_up>;
  using result_bits = typename std::conditional<to_float, std::uint32_t, std::uint16_t>::type;
  auto* results = reinterpret_cast<result_bits*>(dst);
#endif
#if MINIFLOAT_X86_PATHS
  if (path == simd_path::avx512) {
    return decode_with_stores(
        mode, results, n, [&](auto non_temporal, std::size_t first, std::size_t count) {
          avx512::decode_array<planes.sign_symmetric, decltype(non_temporal)::value>(
              planes, codes + first, count, results + first);
        });
  }
  if constexpr (std::is_same<To, float>::value) {
    if (path == simd_path::avx2) {
      return decode_with_stores(mode, results, n,
                                [&](auto non_temporal, std::size_t first, std::size_t count) {
                                  avx2::decode_array<decltype(non_temporal)::value>(
                                      code_table_for<source, formats::binary32>.data(),
                                      codes + first, count, results + first);
                                });
    }
  }
#endif
  static_cast<void>(mode);
#if MINIFLOAT_NEON_PATHS
  if (path == simd_path::neon) {
    return neon::decode_array<planes.sign_symmetric>(planes, codes, n, results);
  }
#endif
  const auto& table = code_table_for<source, target>;
  for (std::size_t i = 0; i < n; ++i) {
    dst[i] = value_traits<To>::from_code(table[codes[i]]);
  }
}

// amax's rule, for the loops here and in scaling.hpp: |x| folded into `largest` as bit patterns
// compared as integers (so a NaN beats everything), and the result read back as a float, any
// NaN as the canonical quiet NaN.
inline std::uint32_t fold_magnitude(std::uint32_t largest, float x) noexcept {
  const std::uint32_t magnitude = bit_cast<std::uint32_t>(x) & 0x7FFFFFFFU;
  return select(magnitude > largest, magnitude, largest);
}
inline float magnitude_as_amax(std::uint32_t largest) noexcept {
  return bit_cast<float>(select(largest > 0x7F800000U, 0x7FC00000U, largest));
}

inline float amax_on(simd_path path, const float* src, std::size_t n) noexcept {
  static_cast<void>(path);
#if MINIFLOAT_X86_PATHS
  if (path == simd_path::avx512) {
    return magnitude_as_amax(avx512::max_magnitude_bits(src, n));
  }
  if (path == simd_path::avx2) {
    return magnitude_as_amax(avx2::max_magnitude_bits(src, n));
  }
#endif
#if MINIFLOAT_NEON_PATHS
  if (path == simd_path::neon) {
    return magnitude_as_amax(neon::max_magnitude_bits(src, n));
  }
#endif
  return magnitude_as_amax(portable::max_magnitude_bits(src, n));
}

// The messages of the argument checks, naming the function the caller called.
struct array_messages {
  const char* null_src;
  const char* null_dst;
  const char* overlap;
};
constexpr array_messages convert_messages{
    "convert: src is null but n is not 0", "convert: dst is null but n is not 0",
    "convert: dst overlaps src (in-place conversion is not supported)"};
constexpr array_messages stochastic_convert_messages{
    "stochastic_convert: src is null but n is not 0",
    "stochastic_convert: dst is null but n is not 0",
    "stochastic_convert: dst overlaps src (in-place conversion is not supported)"};

template <class From, class To>
void check_convert_arguments(const From* src, std::size_t n, To* dst,
                             const array_messages& messages) {
  if (n != 0 && src == nullptr) {
    report_invalid_argument(messages.null_src);
  }
  if (n != 0 && dst == nullptr) {
    report_invalid_argument(messages.null_dst);
  }
  if (overlaps(src, n * sizeof(From), dst, n * sizeof(To))) {
    report_invalid_argument(messages.overlap);
  }
}

} // namespace detail

// Converts n elements of src into dst: narrowing (float, double, binary16_bits, bfloat16_bits
// -> an 8-bit type) with rounding R and overflow rule O, or widening (an 8-bit type -> float,
// binary16_bits, bfloat16_bits), exact. Element i equals convert<To, R, O>(src[i]).
template <rounding R = rounding::nearest_even, overflow O = overflow::non_saturating, class From,
          class To>
void convert(const From* src, std::size_t n, To* dst) {
  static_assert(detail::value_traits<From>::is_known && detail::value_traits<To>::is_known,
                "convert: arrays of fp8 types, float, double, binary16_bits or bfloat16_bits");
  static_assert(detail::is_8bit_type<From> != detail::is_8bit_type<To>,
                "convert: one side of an array conversion is an 8-bit type");
  detail::check_convert_arguments(src, n, dst, detail::convert_messages);
  if constexpr (detail::is_8bit_type<To>) {
    detail::narrow_array<detail::rule_of(R), O>(active_path(), src, n, dst,
                                                detail::no_random_bits{});
  } else {
    static_assert(!std::is_same<From, double>::value && !std::is_same<To, double>::value,
                  "convert: widening arrays go to float, binary16_bits or bfloat16_bits");
    detail::widen_array(active_path(), src, n, dst, detail::stores_for(n * sizeof(To)));
  }
}

// Stochastic rounding of n floats with the caller's random bits: element i equals
// stochastic_cast<To, O>(src[i], random_bits[i]).
template <overflow O = overflow::non_saturating, class To>
void stochastic_convert(const float* src, std::size_t n, const std::uint32_t* random_bits,
                        To* dst) {
  static_assert(detail::is_8bit_type<To>, "stochastic_convert: the target is an 8-bit type");
  detail::check_convert_arguments(src, n, dst, detail::stochastic_convert_messages);
  if (n != 0 && random_bits == nullptr) {
    detail::report_invalid_argument("stochastic_convert: random_bits is null but n is not 0");
  }
  if (detail::overlaps(random_bits, n * sizeof(std::uint32_t), dst, n)) {
    detail::report_invalid_argument("stochastic_convert: dst overlaps random_bits");
  }
  detail::narrow_array<detail::rounding_rule::stochastic, O>(
      active_path(), src, n, dst, detail::random_bits_array{random_bits});
}

// Stochastic rounding of n floats with counter_generator's bits: element i equals
// stochastic_cast<To, O>(src[i], generator(i)), on every path and however the array is split
// (convert elements [k, n) with counter_generator{seed, offset + k}).
template <overflow O = overflow::non_saturating, class To>
void stochastic_convert(const float* src, std::size_t n, To* dst, counter_generator generator) {
  static_assert(detail::is_8bit_type<To>, "stochastic_convert: the target is an 8-bit type");
  detail::check_convert_arguments(src, n, dst, detail::stochastic_convert_messages);
  detail::narrow_array<detail::rounding_rule::stochastic, O>(active_path(), src, n, dst, generator);
}

// The largest magnitude max |src[i]| of n floats, for scaling (SPEC §5): 0 for n == 0;
// +infinity if an element is infinite and none is NaN; a quiet NaN if any element is NaN (so
// that a poisoned tensor cannot pass for a finite one). -0 counts as 0. Exact, whatever the path.
inline float amax(const float* src, std::size_t n) {
  if (n != 0 && src == nullptr) {
    detail::report_invalid_argument("amax: src is null but n is not 0");
  }
  return detail::amax_on(active_path(), src, n);
}

#if MINIFLOAT_HAS_RANGES
// The same functions over contiguous ranges (std::span, std::vector, std::array, C arrays):
// the sizes must match.
template <class Range>
concept contiguous_sized_range =
    std::ranges::contiguous_range<Range> && std::ranges::sized_range<Range>;

template <rounding R = rounding::nearest_even, overflow O = overflow::non_saturating,
          contiguous_sized_range Source, contiguous_sized_range Target>
void convert(Source&& src, Target&& dst) {
  if (std::ranges::size(src) != std::ranges::size(dst)) {
    detail::report_invalid_argument("convert: src and dst differ in size");
  }
  convert<R, O>(std::ranges::data(src), std::ranges::size(src), std::ranges::data(dst));
}

template <overflow O = overflow::non_saturating, contiguous_sized_range Source,
          contiguous_sized_range Random, contiguous_sized_range Target>
void stochastic_convert(Source&& src, Random&& random_bits, Target&& dst) {
  if (std::ranges::size(src) != std::ranges::size(dst) ||
      std::ranges::size(src) != std::ranges::size(random_bits)) {
    detail::report_invalid_argument("stochastic_convert: src, random_bits and dst differ in size");
  }
  stochastic_convert<O>(std::ranges::data(src), std::ranges::size(src),
                        std::ranges::data(random_bits), std::ranges::data(dst));
}

template <overflow O = overflow::non_saturating, contiguous_sized_range Source,
          contiguous_sized_range Target>
void stochastic_convert(Source&& src, Target&& dst, counter_generator generator) {
  if (std::ranges::size(src) != std::ranges::size(dst)) {
    detail::report_invalid_argument("stochastic_convert: src and dst differ in size");
  }
  stochastic_convert<O>(std::ranges::data(src), std::ranges::size(src), std::ranges::data(dst),
                        generator);
}

inline float amax(std::span<const float> src) { return amax(src.data(), src.size()); }
#endif

} // namespace minifloat

#endif // MINIFLOAT_BULK_HPP
