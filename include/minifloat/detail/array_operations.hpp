// minifloat: the array operations on the calling thread's path, as the public array and scaling
// functions (bulk.hpp, scaling.hpp) call them once their arguments are checked: each asks the
// converter's map whether a lane kernel serves it and hands the call to the path's kernel type
// (detail/dispatch.hpp's with_kernels).
#ifndef MINIFLOAT_DETAIL_ARRAY_OPERATIONS_HPP
#define MINIFLOAT_DETAIL_ARRAY_OPERATIONS_HPP

#include <cstddef>
#include <cstdint>
#include <utility>

#include "../error.hpp"
#include "../random.hpp"
#include "../report.hpp"
#include "convert_value.hpp"
#include "dispatch.hpp"

namespace minifloat {
namespace detail {

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

template <class T>
constexpr bool is_8bit_type = value_traits<T>::is_known && sizeof(T) == 1;

// Runs body(tally) with a report_tally and hands its report over: the array functions'
// overloads with a conversion_report.
// (`elements` is n; the tally counts the rest.)
template <class Body>
void filling(conversion_report& report, std::size_t n, Body&& body) {
  report_tally tally;
  body(tally);
  report = tally.report;
  report.elements = n;
}

// Narrowing n elements on the active path: the path's lane kernels where the map (converter.hpp)
// has a lane variant for this source and target, the scalar conversion element by element
// otherwise (double sources).
// With a report (Tally: report_tally), every value and its code are tallied too.
template <rounding_rule Rule, overflow Overflow, class From, class To, class Random,
          class Tally = no_tally>
void narrow_array(const From* src, std::size_t n, To* dst, const Random& random,
                  Tally&& tally = Tally{}) {
  using from_format = typename value_traits<From>::format;
  using to_format = typename value_traits<To>::format;
  if constexpr (format_info<to_format>::always_saturates && Overflow != overflow::saturate) {
    // A format that always saturates (the MX elements, docs/spec.md §7) converts alike under
    // both overflow rules: its saturating kernels serve both, and a program (or a test) that
    // uses both compiles them once.
    narrow_array<Rule, overflow::saturate>(src, n, dst, random, std::forward<Tally>(tally));
  } else if constexpr (step2_for<from_format, to_format, Rule>(portable_kernels::capabilities) !=
                       step2_variant::generic) {
    auto* codes = reinterpret_cast<std::uint8_t*>(dst);
    with_kernels(active_path(), [&](auto kernels) {
      if constexpr (std::is_same<Random, counter_generator>::value) {
        // The kernels take counters of one run of 2^32 (one key: lanes.inc's counter_stream):
        // a call whose counters cross a multiple of 2^32 is cut there.
        std::size_t done = 0;
        while (done != n) {
          const std::uint64_t counter = random.offset + done;
          const std::uint64_t left_in_run = (std::uint64_t{1} << 32) - low_half(counter);
          const auto piece = static_cast<std::size_t>(
              left_in_run < n - done ? left_in_run : std::uint64_t{n - done});
          decltype(kernels)::template encode<to_format, Rule, Overflow>(
              src + done, piece, codes + done, counter_generator{random.seed, counter}, tally);
          done += piece;
        }
      } else {
        decltype(kernels)::template encode<to_format, Rule, Overflow>(src, n, codes, random, tally,
                                                                      stores_for(n));
      }
    });
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits = 0;
      if constexpr (std::is_same<Random, random_bits_array>::value) {
        bits = random.bits[i];
      } else if constexpr (std::is_same<Random, counter_generator>::value) {
        bits = random(i);
      }
      dst[i] = convert_value<To, Rule, Overflow>(src[i], bits);
      if constexpr (!std::is_same<std::decay_t<Tally>, no_tally>::value) {
        tally.template add<to_format>(src[i], dst[i].bits());
      }
    }
  }
}

// Scaled floats (scaled_floats: x * scale; block_scaled_floats: x * its block's factor) narrowed
// to Target with saturation (quantization, docs/spec.md §5) on the active path, in one pass.
template <class Target, class Source, class Tally = no_tally>
void narrow_scaled(Source src, std::size_t n, Target* q, Tally&& tally = Tally{},
                   stores mode = stores::cached) {
  using format = typename value_traits<Target>::format;
  auto* codes = reinterpret_cast<std::uint8_t*>(q);
  with_kernels(active_path(), [&](auto kernels) {
    decltype(kernels)::template encode<format, rounding_rule::nearest_even, overflow::saturate>(
        src, n, codes, no_random_bits{}, tally, mode);
  });
}

// Widening n codes on the active path, exactly.
template <class From, class To>
void widen_array(const From* src, std::size_t n, To* dst) {
  const auto* codes = reinterpret_cast<const std::uint8_t*>(src);
  const stores mode = stores_for(n * sizeof(To));
  with_kernels(active_path(), [&](auto kernels) {
    decltype(kernels)::template decode<typename value_traits<From>::format>(codes, n, dst, mode);
  });
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

// amax on the active path.
inline float largest_magnitude(const float* src, std::size_t n) {
  return magnitude_as_amax(with_kernels(
      active_path(), [&](auto kernels) { return decltype(kernels)::max_magnitude_bits(src, n); }));
}

// The checks every array conversion makes. (dst is not a pointer to const: GCC's
// -Wmaybe-uninitialized takes one for a read of the caller's array, which is uninitialised
// before a conversion fills it: `e4m3 codes[3]; convert(values, 3, codes);` at -O1.)
template <class From, class To>
void check_conversion(const char* function, const From* src, std::size_t n, To* dst) {
  check_not_null(function, src == nullptr, n, "src");
  check_not_null(function, dst == nullptr, n, "dst");
  check_no_overlap(function, {dst, n * sizeof(To), "dst"}, {src, n * sizeof(From), "src"},
                   " (in-place conversion is not supported)");
}

// stochastic_convert's checks: the types, the arrays, and the caller's random bits if any.
template <class From, class To, class Random>
void check_stochastic(const From* src, std::size_t n, To* dst, const Random& random) {
  static_assert(is_8bit_type<To>, "stochastic_convert: the target is an 8-bit type");
  static_assert(value_traits<From>::is_known && !is_8bit_type<From>,
                "stochastic_convert: the source is float, double, binary16_bits or bfloat16_bits");
  check_conversion("stochastic_convert", src, n, dst);
  if constexpr (std::is_same<Random, random_bits_array>::value) {
    check_not_null("stochastic_convert", random.bits == nullptr, n, "random_bits");
    check_no_overlap("stochastic_convert", {dst, n, "dst"},
                     {random.bits, n * sizeof(std::uint32_t), "random_bits"});
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

} // namespace minifloat

#endif // MINIFLOAT_DETAIL_ARRAY_OPERATIONS_HPP
