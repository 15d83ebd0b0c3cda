// minifloat: what a narrowing array conversion did to its inputs, on request. Every narrowing
// array function (convert, stochastic_convert, quantize, quantize_blocks, quantize_mx and the
// microscaling quantizers) has an overload taking a conversion_report& after its arrays (before
// any optional argument), which it fills:
//
//   minifloat::conversion_report report;
//   minifloat::quantize(x.data(), n, q.data(), scale, report);
//   if (report.saturated > n / 1000) { ... }   // more than 0.1 % clipped
//
// The counts are of the values converted: x itself for convert and stochastic_convert, x * scale
// (as float computes it) for the scaling functions, x times its block's scale for the block
// quantizers (docs/spec.md §10). The overloads without a report are unchanged; with one, the
// kernels sort the lanes of each vector by lane masks and count from them (detail/lanes.inc,
// report_lanes), after a quick test of each group of vectors where rounding to nearest into an
// 8-bit format (before converting it: report_needs_look), which most groups pass unlooked at.
#ifndef MINIFLOAT_REPORT_HPP
#define MINIFLOAT_REPORT_HPP

#include <cstddef>
#include <cstdint>

#include "config.hpp"
#include "format.hpp"
#include "converter.hpp"
#include "tables.hpp"

namespace minifloat {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// One call's tally (docs/spec.md §10 defines each count on one element; a call fills the report
// afresh, its earlier contents are overwritten). "Finite" and "zero" read the bits, so fast-math
// flags change nothing.
struct conversion_report {
  std::size_t elements = 0;        // values converted
  std::size_t nan_inputs = 0;      // NaN values
  std::size_t infinite_inputs = 0; // +-infinity
  // Finite values of magnitude above the target's largest finite value: those whose result is
  // +-largest (clipped: saturation, or rounding down to it) and those whose result is infinite
  // or NaN (non-saturating overflow).
  std::size_t saturated = 0;
  std::size_t overflowed = 0;
  // Non-zero finite values that became +-0 (underflow; e8m0 has no zero, so never there).
  std::size_t flushed_to_zero = 0;
  // Results in the target's subnormal range (non-zero, exponent field 0).
  std::size_t subnormal = 0;
  // Negative non-zero finite values for an unsigned target (e8m0, ue4m3): NaN.
  std::size_t negative_for_unsigned = 0;
  // The largest |result - x| / |x| over non-zero finite x with a finite result (0 if none),
  // computed in double from the exact values: 1 for a flushed value, about 2^-(M+1) at most
  // for nearest-even in the normal range.
  double max_relative_error = 0;
};

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

namespace detail {

// The float bits of Format's smallest normal and largest finite values (the kernels' report
// test; variables, which device code may read, rather than the tables' host-only operator[]).
template <class Format>
inline constexpr std::uint32_t smallest_normal_float_bits =
    code_table_for<Format, formats::binary32>[format_info<Format>::min_normal_code];
template <class Format>
inline constexpr std::uint32_t largest_float_bits =
    code_table_for<Format, formats::binary32>[format_info<Format>::max_finite_code];

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The kernels' report argument when none was asked for: the array loops compile as without one.
struct no_tally {};

// The counts a block quantizer's one-pass kernel keeps (lanes.inc quantize_block_groups) for a
// report of FP4 elements whose largest relative error is already 1 (lanes.inc
// counts_after_flush): only these can still change, and the kernel adds them here.
struct block_group_counts {
  std::size_t flushed_to_zero = 0;
  std::size_t subnormal = 0;
  std::size_t saturated = 0;
};

// The values a report's quick test must let through (report_tally::nearest_window): those whose
// bits b have (b & mask) - low < width, unsigned; none where width is 0. The mask is the
// mantissa's (0x7FFFFF) but where the largest error is still 0 (every value so far exact): there
// it is the mantissa's low 23 - M bits, with low 1 and width the mask, since a value in the
// normal range whose bits there are 0 is exact and cannot raise it.
struct mantissa_window {
  std::uint32_t low;
  std::uint32_t width;
  std::uint32_t mask = 0x007FFFFFU;

  // Whether the window lies in the binade's first step: the largest error past the second step's
  // peak and below the normal range's (lanes.inc, first_step_extremes_apply).
  constexpr bool in_first_step() const noexcept {
    return mask == 0x007FFFFFU && width != 0 && width != ~std::uint32_t{0};
  }
  // Whether the window holds many values of any group: every inexact mantissa while the largest
  // error is 0, or more than 2^16 of the 2^23 mantissas (1 in 128). The block quantizers' one-pass
  // kernels leave such groups to the general steps (scaling.hpp quantize_block_groups_on_path).
  constexpr bool wide() const noexcept {
    return mask != 0x007FFFFFU || width > (std::uint32_t{1} << 16);
  }
};

class report_tally;

// What a block quantizer's one-pass kernel keeps for a report of 8-bit elements (lanes.inc
// quantize_block_groups, group_lane_tests): the report (for its window of mantissas that may
// raise the largest relative error, its filter, and the errors that raise it, which the kernel
// adds itself), and the counts of the blocks done: their clipped, flushed and subnormal values
// and their largest product (float bits), whose error 1 - largest / |x| is the clipped values'
// largest. A group with a small value (non-zero, below the target's smallest normal) whose error
// may raise the largest (the filter; with the largest 1, none) ends the kernel before it, for the
// general steps.
struct block_group_clips {
  report_tally* tally = nullptr;
  std::size_t saturated = 0;
  std::size_t flushed_to_zero = 0;
  std::size_t subnormal = 0;
  std::uint32_t largest_product = 0;
};

// A report being filled: the element-by-element definitions (add, add_float_bits), and the
// factor the kernels' vector test uses to skip lanes that cannot raise the largest relative
// error (lanes.inc, lanes_to_report).
class report_tally {
public:
  conversion_report report;

  // The factor the kernels' vector test compares rounding errors with (lanes_to_report): a
  // value whose error is at most filter() times itself cannot raise the largest relative error.
  // The largest so far, lowered by 2^-20 so that no rounding of float(max), of the product or
  // of the error in the kernels can make the bound too large.
  float filter() const noexcept { return filter_; }

  // The mantissas that may raise the largest relative error when rounding to nearest onto a
  // grid of 2^M steps per binade (lanes.inc, may_need_report), for values in the target's
  // normal range: there a value's error is e = min(d, 2^k - d) of its last places, k = 23 - M,
  // d its mantissa's low k bits, and its relative error e / (2^23 + mantissa). Once the largest
  // so far, m, is at least the peak of the second binade step's (d = 2^(k-1) with the step's
  // mantissa bits 1), only mantissas below 2^k can exceed m, those with d in
  // (m 2^23 / (1 - m), (2^k - m 2^23) / (1 + m)): the window is that interval widened by two
  // integers each side (for the double arithmetic), as (low, width): a mantissa needs a look
  // where mantissa - low < width, unsigned. Before that, every mantissa does (low 0, width all).
  template <int MantissaBits>
  mantissa_window nearest_window() noexcept {
    if (window_bits_ != MantissaBits || window_error_ != report.max_relative_error) {
      window_bits_ = MantissaBits;
      window_error_ = report.max_relative_error;
      window_ = window_for(MantissaBits, report.max_relative_error);
    }
    return window_;
  }
  // One value converted to `code` of Format (the definitions of conversion_report).
  template <class Format>
  void add(double value, std::uint32_t code) noexcept {
    using info = format_info<Format>;
    const auto bits = bit_cast<std::uint64_t>(value);
    const std::uint64_t magnitude_bits = bits & ~(std::uint64_t{1} << 63);
    if (magnitude_bits > 0x7FF0000000000000U) {
      ++report.nan_inputs;
      return;
    }
    if (magnitude_bits == 0x7FF0000000000000U) {
      ++report.infinite_inputs;
      return;
    }
    if (magnitude_bits == 0) {
      return;
    }
    const bool negative = (bits >> 63) != 0;
    if (!info::is_signed && negative) {
      ++report.negative_for_unsigned;
      return;
    }
    const std::uint32_t magnitude_code = code & info::magnitude_mask;
    const bool finite_result = !info::is_nan(static_cast<std::uint8_t>(code)) &&
                               !(info::has_infinity && magnitude_code == info::infinity_code);
    const double result = decode<Format>(code);
    const auto magnitude = bit_cast<double>(magnitude_bits);
    if (magnitude > largest<Format>()) {
      ++(finite_result ? report.saturated : report.overflowed);
    }
    if (!finite_result) {
      return;
    }
    double relative = 1; // |0 - x| / |x|
    if (info::has_zero && magnitude_code == 0) {
      ++report.flushed_to_zero;
    } else {
      if (info::has_subnormals && magnitude_code <= info::max_subnormal_code) {
        ++report.subnormal;
      }
      relative = (result > value ? result - value : value - result) / magnitude;
    }
    raise_relative_error(relative);
  }

  // A float, widened exactly: a normal one by the conversion, a subnormal (which
  // denormals-are-zero would read as 0) or zero by the converter.
  static double exact_double(std::uint32_t bits) noexcept {
    return (bits & 0x7F800000U) != 0
               ? static_cast<double>(bit_cast<float>(bits))
               : bit_cast<double>(
                     pack<formats::binary64, rounding_rule::nearest_even, overflow::non_saturating>(
                         unpack_code<formats::binary32>(bits)));
  }
  void raise_relative_error(double relative) noexcept {
    if (relative > report.max_relative_error) {
      report.max_relative_error = relative;
      // (1 exactly, which a flushed value sets, needs no margin: 1 * value is exact, and with
      // nearest rounding no error exceeds the value, so no lane is looked at again.)
      filter_ = relative >= 0x1p100 ? 0x1p100f
                : relative == 1     ? 1.0f
                                    : static_cast<float>(relative) * 0x0.fffffp0f;
    }
  }
  // The relative error of one non-zero finite float value (bits) whose result `code` is
  // finite: the kernels' lanes that may raise the largest (lanes.inc, tally_vector).
  template <class Format>
  void add_relative_error(std::uint32_t bits, std::uint32_t code) noexcept {
    const double value = exact_double(bits);
    const double magnitude = value < 0 ? -value : value;
    const double result = decode<Format>(code);
    const double relative =
        result == 0 ? 1 : (result > value ? result - value : value - result) / magnitude;
    raise_relative_error(relative);
  }
  // `count` float inputs, as bits, and their codes.
  template <class Format>
  void add_float_bits(const std::uint32_t* bits, const std::uint8_t* codes,
                      std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i) {
      add<Format>(exact_double(bits[i]), codes[i]);
    }
  }

  // The exact double value of a finite code, from the bits (so that denormals-are-zero cannot
  // flush e8m0's 2^-127).
  template <class Format>
  static double decode(std::uint32_t code) noexcept {
    return bit_cast<double>(code_table_for<Format, formats::binary64>[code & 0xFFU]);
  }
  template <class Format>
  static double largest() noexcept {
    return decode<Format>(format_info<Format>::max_finite_code);
  }

private:
  static mantissa_window window_for(int mantissa_bits, double m) noexcept {
    const int k = 23 - mantissa_bits;
    const auto step = static_cast<double>(std::uint32_t{1} << k);
    const double half = step / 2;
    const double one = 0x1p23;
    const mantissa_window every = {0, ~std::uint32_t{0}};
    if (!(m >= 0 && m < 1) || (mantissa_bits > 0 && m < half / (one + step + half))) {
      const std::uint32_t inexact = (std::uint32_t{1} << k) - 1;
      return m >= 1 ? mantissa_window{0, 0} : m == 0 ? mantissa_window{1, inexact, inexact} : every;
    }
    const double low = m * one / (1 - m) - 2;
    const double high = (step - m * one) / (1 + m) + 2;
    if (!(low < high)) {
      return {0, 0};
    }
    const auto first = static_cast<std::uint32_t>(low < 0 ? 0 : low);
    const auto last = static_cast<std::uint32_t>(high > step ? step : high) + 1;
    return {first, last - first};
  }

  float filter_ = 0;
  mantissa_window window_ = {0, ~std::uint32_t{0}};
  int window_bits_ = -1;
  double window_error_ = -1;
};

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_REPORT_HPP
