// minifloat: scaling (docs/spec.md §5). A tensor is stored as q = narrow(x * s), saturating, with
// s_inv = 1 / s beside it, and read back as x ~ widen(q) * s_inv:
//   compute_scale<T>(amax, margin)          s = max(T) / amax / 2^margin, every guard applied
//   quantize(x, n, q, s), dequantize(q, n, x, s_inv)   one pass each, on the array kernels
//   quantize_per_tensor<T>(x, n)            amax, scale and quantize: data and s_inv together
//   delayed_scaling<T>                      the scale from an amax history (Transformer Engine)
//   quantize_blocks / dequantize_blocks     a scale per row, column, 1 x 128 tile or 128 x 128
//                                           block of a row-major matrix (DeepSeek-V3)
//   quantize_mx / dequantize_mx             blocks of 32 sharing an e8m0 scale (OCP MX)
//   relative_noise_energy, snr_db           the error figures of docs/spec.md §6
// Bad arguments (null pointers with a non-zero count, overlapping arrays, a shape the block
// does not divide, a scale that is not positive and finite, a negative margin, an empty
// history) are reported through error.hpp before anything is written.
#ifndef MINIFLOAT_SCALING_HPP
#define MINIFLOAT_SCALING_HPP

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "bulk.hpp"
#include "limits.hpp"

namespace minifloat {

// How compute_scale rounds s: not at all, or down to a power of two (then x * s and q * s_inv
// are exact wherever they stay normal, docs/spec.md §5).
enum class scale_rounding { exact, power_of_two };

namespace detail {

template <class T>
constexpr bool is_element_type =
    is_8bit_type<T>&& format_info<typename value_traits<T>::format>::is_signed;

template <class T>
float max_value() noexcept {
  return static_cast<float>(std::numeric_limits<T>::max());
}

// Every decision on a float here reads its bits (docs/spec.md §8): -ffinite-math-only lets the
// compiler assume that no value is NaN or infinite, and denormals-are-zero makes a subnormal
// compare and divide as 0.
inline std::uint32_t float_bits(float x) noexcept { return bit_cast<std::uint32_t>(x); }
// a / b rounded once, also under -ffast-math, where GCC computes a vectorized loop's float
// divisions as a reciprocal estimate and one Newton step: not correctly rounded, and 1 / 0 gives
// a NaN. (A loop that holds an asm statement is not vectorized.)
inline float quotient_rounded_once(float a, float b) noexcept {
  float quotient = a / b;
#if defined(__GNUC__)
  __asm__("" : "+m"(quotient));
#endif
  return quotient;
}
constexpr std::uint32_t float_exponent_one = 0x00800000U; // 2^-126, the smallest normal float
constexpr std::uint32_t float_infinity_bits = 0x7F800000U;
constexpr std::uint32_t float_quiet_nan_bits = 0x7FC00000U;
// x > 0 and finite, subnormals included.
inline bool is_positive_finite(float x) noexcept {
  return float_bits(x) - 1U < float_infinity_bits - 1U; // +0 wraps round to the top
}

// std::min and std::max without <algorithm>: the first argument unless the second is smaller
// (larger).
template <class T>
constexpr T smaller(T a, T b) noexcept {
  return b < a ? b : a;
}
template <class T>
constexpr T larger(T a, T b) noexcept {
  return a < b ? b : a;
}

// The largest power of two <= s, for a normal positive s: its exponent alone.
inline float power_of_two_below(float s) noexcept {
  return bit_cast<float>(bit_cast<std::uint32_t>(s) & 0xFF800000U);
}

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The checks of a function that reads `read` and writes `written`, n elements each:
// "<function>: <names> is null but n is not 0", "<function>: <written> overlaps <read>".
inline void check_pair(const char* function, const array_argument& read,
                       const array_argument& written, std::size_t n, const char* names,
                       const char* when = "n is not 0") {
  check_not_null(function, read.data == nullptr || written.data == nullptr, n, names, when);
  check_no_overlap(function, written, read);
}

// x * scale narrowed to T with saturation, n elements: the fused kernel for runs worth a vector,
// the scalar product and conversion for short ones (the same results: see the tests).
// With a report (Tally: report_tally), every product and its code are tallied.
template <class T, class Tally = no_tally>
void quantize_unchecked(const float* x, std::size_t n, T* q, float scale, Tally&& tally = Tally{}) {
  if (n < 16) {
    for (std::size_t i = 0; i < n; ++i) {
      const float product = x[i] * scale;
      q[i] = saturate_cast<T>(product);
      if constexpr (!std::is_same<std::decay_t<Tally>, no_tally>::value) {
        const std::uint32_t bits = float_bits(product);
        const std::uint8_t code = q[i].bits();
        tally.template add_float_bits<typename T::format>(&bits, &code, 1);
      }
    }
    return;
  }
  narrow_scaled(scaled_floats{x, scale}, n, q, tally, stores_for(n));
}

// float(q[i]) * scale_inv, in pieces that stay in the first-level cache between the two steps.
template <class T>
void dequantize_unchecked(const T* q, std::size_t n, float* x, float scale_inv) {
  constexpr std::size_t piece = 2048;
  for (std::size_t i = 0; i < n; i += piece) {
    const std::size_t m = smaller(piece, n - i);
    widen_array(q + i, m, x + i);
    for (std::size_t j = 0; j < m; ++j) {
      x[i + j] *= scale_inv;
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// docs/spec.md §5: s = max(T) / amax / 2^margin, the scale that maps amax onto T's largest finite
// value (less `margin` binades of headroom). Guards: an amax that is 0, negative, NaN or infinite
// gives no usable scale and returns 1 (current scaling; delayed_scaling keeps its previous
// scale instead); a quotient past the largest float (a tiny amax) is clamped to FLT_MAX, one
// below FLT_MIN (a huge margin) to FLT_MIN, so that s and 1 / s are always finite and non-zero.
// With scale_rounding::power_of_two, s is then rounded down to a power of two. A negative
// margin is reported as an invalid argument.
template <class T>
float compute_scale(float amax, int margin = 0, scale_rounding rounding = scale_rounding::exact) {
  static_assert(detail::is_element_type<T>, "compute_scale: T is a signed 8-bit type");
  detail::check_not_negative("compute_scale", margin, "margin");
  using detail::float_bits;
  if (!detail::is_positive_finite(amax)) {
    return 1.0f;
  }
  // A subnormal amax gives a quotient past 2^128 (max(T) >= 2 for every T): FLT_MAX, decided
  // on the bits, since denormals-are-zero would divide by 0. Else one correctly rounded division.
  float s = float_bits(amax) < detail::float_exponent_one ? FLT_MAX : detail::max_value<T>() / amax;
  if (float_bits(s) >= detail::float_infinity_bits) {
    s = FLT_MAX;
  }
  // s / 2^margin, exact while it stays normal; FLT_MIN below that (a flushed quotient too).
  const auto exponent = static_cast<int>(float_bits(s) >> 23);
  s = float_bits(s) < detail::float_exponent_one || exponent - 1 < margin
          ? FLT_MIN
          : detail::bit_cast<float>(float_bits(s) - (static_cast<std::uint32_t>(margin) << 23));
  return rounding == scale_rounding::power_of_two ? detail::power_of_two_below(s) : s;
}

// Narrows x[i] * scale to T with saturation (docs/spec.md §5: values past the range land on +-max;
// NaN stays NaN): q[i] == saturate_cast<T>(x[i] * scale), the product rounded to float first,
// as Transformer Engine and PyTorch do (exact for a power-of-two scale). One pass over x.
// scale must be positive and finite.
template <class T>
void quantize(const float* x, std::size_t n, T* q, float scale) {
  static_assert(detail::is_element_type<T>, "quantize: the target is a signed 8-bit type");
  detail::check_pair("quantize", {x, n * sizeof(float), "x"}, {q, n, "q"}, n, "x or q");
  detail::check_positive_finite("quantize", scale, "scale");
  detail::quantize_unchecked(x, n, q, scale);
}
// The same, filling a report of the products' conversions (report.hpp).
template <class T>
void quantize(const float* x, std::size_t n, T* q, float scale, conversion_report& report) {
  static_assert(detail::is_element_type<T>, "quantize: the target is a signed 8-bit type");
  detail::check_pair("quantize", {x, n * sizeof(float), "x"}, {q, n, "q"}, n, "x or q");
  detail::check_positive_finite("quantize", scale, "scale");
  detail::filling(report, n,
                  [&](auto& tally) { detail::quantize_unchecked(x, n, q, scale, tally); });
}

// x[i] = float(q[i]) * scale_inv. scale_inv must be positive and finite.
template <class T>
void dequantize(const T* q, std::size_t n, float* x, float scale_inv) {
  static_assert(detail::is_element_type<T>, "dequantize: the source is a signed 8-bit type");
  detail::check_pair("dequantize", {q, n, "q"}, {x, n * sizeof(float), "x"}, n, "q or x");
  detail::check_positive_finite("dequantize", scale_inv, "scale_inv");
  detail::dequantize_unchecked(q, n, x, scale_inv);
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

// A tensor quantized with one scale: its codes and the factor that reads them back.
template <class T>
struct per_tensor_quantized {
  std::vector<T> data;
  float scale_inv = 1.0f;
};

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// amax, compute_scale and quantize in one call (two passes over x: amax, then quantize).
template <class T>
per_tensor_quantized<T> quantize_per_tensor(const float* x, std::size_t n, int margin = 0,
                                            scale_rounding rounding = scale_rounding::exact) {
  detail::check_not_null("quantize_per_tensor", x == nullptr, n, "x");
  const float scale = compute_scale<T>(amax(x, n), margin, rounding);
  per_tensor_quantized<T> result;
  result.data.resize(n);
  quantize(x, n, result.data.data(), scale);
  result.scale_inv = 1.0f / scale;
  return result;
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

// Which amax of the history sets the scale (Transformer Engine's amax_compute_algo).
enum class amax_rule { max, most_recent };

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Delayed scaling: the scale of step k comes from the amaxes of the steps before it, kept in a
// window of `history_length` steps. quantize() narrows with the current scale, records the
// tensor's amax, and then updates the scale from the history. A history whose max (or newest
// entry) is 0, NaN or infinite gives no usable scale: the previous one is kept (docs/spec.md §5),
// so a NaN freezes the scale until it leaves the window. The first scale is 1.
template <class T>
class delayed_scaling {
public:
  explicit delayed_scaling(std::size_t history_length = 1024, amax_rule rule = amax_rule::max,
                           int margin = 0, scale_rounding rounding = scale_rounding::exact)
      : rule_(rule), margin_(margin), rounding_(rounding) {
    static_assert(detail::is_element_type<T>, "delayed_scaling: T is a signed 8-bit type");
    if (history_length == 0) {
      detail::refuse("delayed_scaling", "the history length is 0");
    }
    detail::check_not_negative("delayed_scaling", margin, "margin");
    history_.assign(history_length, 0.0f);
  }

  float scale() const noexcept { return scale_; }
  float scale_inv() const noexcept { return 1.0f / scale_; }
  // The recorded amaxes, oldest first (at most history_length of them).
  std::vector<float> amax_history() const {
    std::vector<float> ordered;
    for (std::size_t k = 0; k < recorded_; ++k) {
      ordered.push_back(history_[(next_ + history_.size() - recorded_ + k) % history_.size()]);
    }
    return ordered;
  }

  // Records an amax computed elsewhere (e.g. reduced across devices) and updates the scale.
  void record(float amax_value) {
    history_[next_] = amax_value;
    next_ = (next_ + 1) % history_.size();
    recorded_ = detail::smaller(recorded_ + 1, history_.size());
    float reduced = history_[(next_ + history_.size() - 1) % history_.size()];
    if (rule_ == amax_rule::max) {
      std::uint32_t largest = 0;
      for (std::size_t k = 0; k < recorded_; ++k) {
        largest = detail::fold_magnitude(largest, history_[k]);
      }
      reduced = detail::magnitude_as_amax(largest);
    }
    if (detail::is_positive_finite(reduced)) {
      scale_ = compute_scale<T>(reduced, margin_, rounding_);
    }
  }

  // Quantizes x with the current scale and returns the scale_inv to keep with q; then records
  // amax(x). On bad arguments nothing is written or recorded.
  float quantize(const float* x, std::size_t n, T* q) {
    const float used = scale_;
    ::minifloat::quantize(x, n, q, used);
    record(amax(x, n));
    return 1.0f / used;
  }

private:
  std::vector<float> history_;
  std::size_t next_ = 0;
  std::size_t recorded_ = 0;
  amax_rule rule_;
  int margin_;
  scale_rounding rounding_;
  float scale_ = 1.0f;
};

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

// The block of a row-major rows x cols matrix that shares one scale.
struct block_shape {
  std::size_t rows;
  std::size_t cols;
};
// DeepSeek-V3's layouts: 1 x 128 tiles (activations) and 128 x 128 blocks (weights).
constexpr block_shape tile_1x128{1, 128};
constexpr block_shape block_128x128{128, 128};
// Axiswise: one scale per row, or per column, of a rows x cols matrix.
constexpr block_shape per_row(std::size_t cols) noexcept { return {1, cols}; }
constexpr block_shape per_column(std::size_t rows) noexcept { return {rows, 1}; }

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The shape checks of the matrix functions. rows * cols (in float bytes) must not wrap: a
// wrapped count would pass the other checks and send the loops, which step by `cols`, past the
// arrays (dimensions read from a corrupt model file, say).
inline void check_blocks(const char* function, std::size_t rows, std::size_t cols,
                         block_shape block) {
  constexpr auto largest_array_bytes =
      static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  if (cols != 0 && rows > largest_array_bytes / sizeof(float) / cols) {
    refuse(function, "rows * cols is too large");
  }
  if (block.rows == 0 || block.cols == 0 || rows % block.rows != 0 || cols % block.cols != 0) {
    refuse(function, "the block does not divide the matrix");
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// s where blocks of block_cols columns are 2^s >= 16 wide (block_scaled_floats), else 0.
inline unsigned scaled_block_shift(std::size_t block_cols) noexcept {
  for (unsigned shift = smallest_scaled_block_shift; shift < 8 * sizeof(std::size_t); ++shift) {
    if (block_cols == std::size_t{1} << shift) {
      return shift;
    }
  }
  return 0;
}

// How many elements ahead a block quantizer's narrowing prefetches its array of n floats
// (block_scaled_floats): `ahead`, the next piece's, unless the array is under 64 KiB, which the
// first-level cache may hold (as prefetch_block). On the AMD EPYC (Zen 3) of the CI, 64 Mi floats
// on the AVX2 path: quantize_mx 1.29 -> 1.91 el/ns with the next MX piece 8 KiB ahead.
constexpr std::size_t prefetch_ahead(std::size_t n, std::size_t ahead) noexcept {
  return n >= (std::size_t{64} << 10) / sizeof(float) ? ahead : 0;
}

// Whether a block quantizer's call may hand whole groups of blocks to the path's one-pass kernel
// (lanes.inc quantize_block_groups): 8-bit elements, with a report or without. (Decided before
// the dispatch, so that the other calls, MXFP4's pieces among them, do not pay for one.)
template <class T>
constexpr bool takes_block_groups = format_info<typename value_traits<T>::format>::total_bits == 8;
// Whether a report is asked for (Tally: report_tally, not no_tally).
template <class Tally>
constexpr bool reports = !std::is_same<std::decay_t<Tally>, no_tally>::value;

// The first blocks of Size floats among `count` at x, of a block quantizer: as many as the active
// path's one-pass kernel takes (lanes.inc quantize_block_groups: whole groups of blocks side by
// side, their scales by `rule`, whose outputs start at x's block); returns how many. The kernel
// prefetches up to prefetch_end (nullptr: not at all). With a report (8-bit elements, nearest
// rounding), none while the report's window of mantissas is wide; else the kernel tests the
// products as it narrows them (block_group_clips): it counts the clipped values (whose largest
// error is the largest product's, added here), adds the errors of the values in the window to
// the report as it finds them, counts the flushed and subnormal ones, and stops before a group
// with a small value whose error may raise the largest, which the caller's general steps take
// with the report's every test.
template <class T, std::size_t Size, class Rule, class Tally = no_tally>
std::size_t quantize_block_groups_on_path(const float* x, std::size_t count, T* q, const Rule& rule,
                                          const float* prefetch_end, Tally&& tally = Tally{}) {
  using format = typename value_traits<T>::format;
  std::size_t done = 0;
  with_kernels(active_path(), [&](auto kernels) {
    using path = decltype(kernels);
    if constexpr (path::quantizes_block_groups) {
      auto* codes = reinterpret_cast<std::uint8_t*>(q);
      if constexpr (reports<Tally>) {
        // (While the report's window of mantissas is wide, as at the start of a call, where
        // every value so far is exact, it holds many values of any group, which the general
        // steps take better. Where the path keeps the products' first-step extremes, its kernel
        // narrows the window by a group's first.)
        if (!blocks_keep_first_step_extremes_on<format>(path::capabilities) &&
            tally.template nearest_window<format::mantissa_bits>().wide()) {
          return;
        }
        block_group_clips clips;
        clips.tally = &tally;
        done = path::template quantize_block_groups<format, Size>(x, count, codes, rule,
                                                                  prefetch_end, &clips);
        tally.report.saturated += clips.saturated;
        tally.report.flushed_to_zero += clips.flushed_to_zero;
        tally.report.subnormal += clips.subnormal;
        if (clips.largest_product > largest_float_bits<format>) {
          tally.template add_relative_error<format>(clips.largest_product,
                                                    format_info<format>::max_finite_code);
        }
      } else {
        done =
            path::template quantize_block_groups<format, Size>(x, count, codes, rule, prefetch_end);
      }
    }
  });
  return done;
}

// The same for FP4 elements (T: e2m1), packed two per byte into `packed` (from x's first
// block's), where the active path's kernel packs them (quantizes_fp4_block_groups; elsewhere
// none: returns 0); counts: as fp4_block_groups hands them.
template <class T, std::size_t Size, class Rule, class Counts>
std::size_t quantize_fp4_block_groups_on_path(const float* x, std::size_t count,
                                              std::uint8_t* packed, const Rule& rule,
                                              const float* prefetch_end, Counts* counts) {
  static_assert(format_info<typename value_traits<T>::format>::total_bits == 4, "FP4 elements");
  std::size_t done = 0;
  with_kernels(active_path(), [&](auto kernels) {
    using path = decltype(kernels);
    if constexpr (path::quantizes_fp4_block_groups) {
      done = path::template quantize_block_groups<typename value_traits<T>::format, Size>(
          x, count, packed, rule, prefetch_end, counts);
    }
  });
  return done;
}

// The FP4 block quantizers' one-pass kernels (quantize_block_groups) where they may run:
// one_pass(counts) runs one and returns the blocks it did. Without a report, counts is a null
// no_tally*; with one, only once its largest relative error is 1 (lanes.inc counts_after_flush:
// with nearest rounding no FP4 error exceeds it, so only the flushed, subnormal and clipped counts
// can change), which the kernel counts in lanes into a block_group_counts, added to the report.
// Before that (every error so far under 1, as at the start of a call), none: returns 0, and the
// general steps take the blocks, with the report's every test. (MXFP4 with a report, 64 Ki
// floats on AVX-512: 0.35 x the plain call by the general steps alone, 0.66 so; g++ 12, AMD
// Zen 5.)
template <class Tally, class OnePass>
std::size_t fp4_block_groups(Tally& tally, OnePass one_pass) {
  if constexpr (std::is_same<std::decay_t<Tally>, no_tally>::value) {
    return one_pass(static_cast<no_tally*>(nullptr));
  } else {
    if (!(tally.report.max_relative_error >= 1)) {
      return 0;
    }
    block_group_counts counts;
    const std::size_t done = one_pass(&counts);
    tally.report.flushed_to_zero += counts.flushed_to_zero;
    tally.report.subnormal += counts.subnormal;
    tally.report.saturated += counts.saturated;
    return done;
  }
}
// The blocks the general steps take next where fp4_block_groups did not take them all, at most
// `most`: with a report whose largest relative error is still below 1, 16 (a group of blocks on
// AVX-512), so that the one-pass kernel takes over soon after the first flushed value. (With the
// pieces' 64 MX blocks, the first piece kept half of a call of 4 Ki floats from it.)
template <class Tally>
std::size_t general_piece_blocks(const Tally& tally, std::size_t most) {
  if constexpr (!std::is_same<std::decay_t<Tally>, no_tally>::value) {
    if (!(tally.report.max_relative_error >= 1)) {
      return smaller(most, std::size_t{16});
    }
  }
  return most;
}

// quantize_blocks for blocks of several rows of 128 columns (DeepSeek-V3's 128 x 128 weights),
// on a path with quantize_block_rows: one block at a time, in the order of their scales, each
// block's narrowing reading the next block's amax (lanes.inc quantize_block_rows_folding), so
// that the two passes over a block (its amax, then its narrowing) overlap. A block whose amax is
// infinite or NaN is narrowed by the general encode, its successor's amax read alone. Returns
// false, having done nothing, where the path has no quantize_block_rows.
template <class T>
bool quantize_tall_blocks(const float* x, std::size_t rows, std::size_t cols, block_shape block,
                          T* q, float* scale_inv, int margin, scale_rounding rounding) {
  constexpr std::size_t block_cols = 128;
  using format = typename value_traits<T>::format;
  bool done = false;
  with_kernels(active_path(), [&](auto kernels) {
    using path = decltype(kernels);
    if constexpr (path::quantizes_block_groups) {
      const std::size_t block_columns = cols / block_cols;
      const std::size_t blocks = rows / block.rows * block_columns;
      const auto offset = [&](std::size_t b) {
        return b / block_columns * block.rows * cols + b % block_columns * block_cols;
      };
      auto* codes = reinterpret_cast<std::uint8_t*>(q);
      // Past the second-level cache (4 MiB of floats, more than any core's L2 today), each
      // narrowing also prefetches the block after the next: 64 Mi floats in rows of 4096 on the
      // AMD EPYC (Zen 5), 0.2-2.0 -> 3.2-4.4 el/ns (the DRAM figures of this machine vary from run
      // to run); below, the prefetches only take load slots (64 Ki: 10.5-10.7 -> 9.9-10.0).
      const bool prefetches = rows * cols >= (std::size_t{1} << 20);
      // (Whole vectors: block_scales reads and writes the path's width of lanes.)
      std::uint32_t largest[16] = {};
      std::uint32_t scale_bits[16];
      std::uint32_t inverse_bits[16];
      path::block_max_magnitude_bits(x, 1, block_cols, largest, block.rows, cols);
      for (std::size_t b = 0; b < blocks; ++b) {
        path::block_scales(largest, 1, max_value<T>(), margin,
                           rounding == scale_rounding::power_of_two, scale_bits, inverse_bits);
        scale_inv[b] = bit_cast<float>(inverse_bits[0]);
        const auto scale = bit_cast<float>(scale_bits[0]);
        const std::size_t first = offset(b);
        const float* next = b + 1 < blocks ? x + offset(b + 1) : nullptr;
        const float* after_next = b + 2 < blocks && prefetches ? x + offset(b + 2) : nullptr;
        if (largest[0] < 0x7F800000U &&
            path::template quantize_block_rows<format, block_cols>(
                x + first, block.rows, cols, scale, codes + first, next, after_next, largest)) {
          continue;
        }
        for (std::size_t r = 0; r < block.rows; ++r) {
          path::template encode<format, rounding_rule::nearest_even, overflow::saturate>(
              scaled_floats{x + first + r * cols, scale}, block_cols, codes + first + r * cols,
              no_random_bits{});
        }
        if (next != nullptr) {
          path::block_max_magnitude_bits(next, 1, block_cols, largest, block.rows, cols);
        }
      }
      done = true;
    }
  });
  return done;
}

// quantize_blocks, with a report or without (Tally).
template <class T, class Tally>
void quantize_blocks_checked(const float* x, std::size_t rows, std::size_t cols, block_shape block,
                             T* q, float* scale_inv, int margin, scale_rounding rounding,
                             Tally&& tally) {
  static_assert(is_element_type<T>, "quantize_blocks: the target is a signed 8-bit type");
  check_blocks("quantize_blocks", rows, cols, block);
  const std::size_t n = rows * cols;
  const std::size_t block_columns = cols / block.cols;
  const std::size_t blocks = n == 0 ? 0 : (rows / block.rows) * block_columns;
  const array_argument x_read{x, n * sizeof(float), "x"};
  const array_argument scales_written{scale_inv, blocks * sizeof(float), "scale_inv"};
  check_pair("quantize_blocks", x_read, {q, n, "q"}, n, "x or q", "the matrix is not empty");
  check_pair("quantize_blocks", x_read, scales_written, blocks, "scale_inv", "");
  check_not_negative("quantize_blocks", margin, "margin");
  check_no_overlap("quantize_blocks", scales_written, {q, n, "q"});
  if constexpr (takes_block_groups<T> && !reports<Tally>) {
    if (block.rows > 1 && block.cols == 128 && n != 0 &&
        quantize_tall_blocks(x, rows, cols, block, q, scale_inv, margin, rounding)) {
      return;
    }
  }
  // Per row of blocks, a few blocks side by side at a time (at most 64, and at most 256 KiB of
  // floats, which the second-level cache keeps between the passes, or 8 KiB for one-row blocks,
  // below; no allocation): 1. their
  // amaxes, in one kernel call; 2. their scales; 3. every row's part narrowed, each element
  // times its block's scale as it is read: one kernel call per row where blocks are 2^s >= 16
  // columns wide (block_scaled_floats), else one per row segment.
  constexpr std::size_t most_blocks = 64;
  const std::size_t block_bytes = block.rows * block.cols * sizeof(float);
  // One-row blocks (1 x 128 tiles, per-row scales) go 8 KiB at a time, as quantize_mx does:
  // the narrowing of a part prefetches the whole next one (64 Mi floats in 1 x 128 tiles on the
  // AMD EPYC's AVX2 path: 2.0 el/ns, against 1.45 and 1.34 with parts of 16 and 32 KiB).
  const std::size_t piece_bytes = block.rows == 1 ? std::size_t{8} << 10 : std::size_t{256} << 10;
  const std::size_t side_by_side =
      larger(std::size_t{1}, smaller(most_blocks, piece_bytes / block_bytes));
  // One-row blocks follow each other in x as their scales do in scale_inv: the matrix is read as
  // one row of n floats.
  const bool one_row = block.rows == 1;
  const std::size_t row_length = one_row ? n : cols;
  const std::size_t blocks_per_row = row_length / block.cols;
  const std::size_t block_rows = n == 0 ? 0 : one_row ? 1 : rows;
  const unsigned shift = scaled_block_shift(block.cols);
  // (Zeros, or an earlier part's amaxes, past `count`: block_scales reads whole vectors. Not
  // cleared per part: GCC 12 cleared the array by a REP STOS, 15 % of this function's time; and
  // cleared only where a part comes to these steps: 1 x 128 tiles that quantize_block_groups
  // takes whole never read it, and the clearing was 4 % of a call's time at 4 Ki floats.)
  std::uint32_t largest[most_blocks];
  bool largest_cleared = false;
  std::uint32_t scale_bits[most_blocks];
  std::uint32_t inverse_bits[most_blocks];
  float scales[most_blocks];
  for (std::size_t first_row = 0; first_row < block_rows; first_row += block.rows) {
    for (std::size_t first_block = 0; first_block < blocks_per_row;) {
      if constexpr (takes_block_groups<T>) {
        if (one_row && block.cols == 128) {
          // 1 x 128 tiles (of 8-bit elements): whole groups of them side by side in one pass
          // where the path has the kernel (quantize_block_groups); a group with an infinite or
          // NaN block, one that a report must look at, and the last tiles, as below.
          const computed_block_scales rule{max_value<T>(), margin,
                                           rounding == scale_rounding::power_of_two,
                                           scale_inv + first_block};
          first_block += quantize_block_groups_on_path<T, 128>(
              x + first_block * 128, blocks_per_row - first_block, q + first_block * 128, rule,
              prefetch_ahead(n, 1) != 0 ? x + n : nullptr, tally);
          if (first_block == blocks_per_row) {
            break;
          }
        }
      }
      if (!largest_cleared) {
        std::fill(largest, largest + most_blocks, 0U);
        largest_cleared = true;
      }
      const std::size_t count = smaller(side_by_side, blocks_per_row - first_block);
      const std::size_t first_col = first_block * block.cols;
      const float* top_left = x + first_row * row_length + first_col;
      if (block.cols == 1) {
        std::fill(largest, largest + count, 0U);
        for (std::size_t r = 0; r < block.rows; ++r) {
          for (std::size_t j = 0; j < count; ++j) {
            largest[j] = fold_magnitude(largest[j], top_left[r * row_length + j]);
          }
        }
      } else {
        // Every row of the blocks in one call.
        with_kernels(active_path(), [&](auto kernels) {
          decltype(kernels)::block_max_magnitude_bits(top_left, count, block.cols, largest,
                                                      block.rows, row_length);
        });
      }
      float* part_scale_inv = scale_inv + first_row / block.rows * blocks_per_row + first_block;
      // compute_scale<T> and 1 / scale for every block, a vector of blocks at a time.
      with_kernels(active_path(), [&](auto kernels) {
        decltype(kernels)::block_scales(largest, count, max_value<T>(), margin,
                                        rounding == scale_rounding::power_of_two, scale_bits,
                                        inverse_bits);
      });
      std::memcpy(scales, scale_bits, sizeof scales);
      for (std::size_t j = 0; j < count; ++j) {
        part_scale_inv[j] = bit_cast<float>(inverse_bits[j]);
      }
      for (std::size_t r = first_row; r < first_row + block.rows; ++r) {
        const std::size_t first = r * row_length + first_col;
        if (shift != 0) {
          // The next part is prefetched while this one is narrowed: for one-row blocks 8 KiB
          // further on (the rows follow each other), for taller ones the same row's segment of
          // the next blocks side by side (whose amax pass comes next).
          const block_scaled_floats part{x + first,
                                         scales,
                                         shift,
                                         0,
                                         one_row ? x + n : x + r * cols + cols,
                                         prefetch_ahead(n, one_row ? 2048 : count * block.cols)};
          narrow_scaled(part, count * block.cols, q + first, tally);
          continue;
        }
        for (std::size_t j = 0; j < count; ++j) {
          quantize_unchecked(x + first + j * block.cols, block.cols, q + first + j * block.cols,
                             scales[j], tally);
        }
      }
      first_block += count;
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Quantizes a row-major rows x cols matrix with a scale per block: block (i, j) covers rows
// [i * block.rows, (i + 1) * block.rows) and columns [j * block.cols, (j + 1) * block.cols); its
// scale is compute_scale<T>(the block's amax, margin, rounding) and scale_inv[i * (cols /
// block.cols) + j] receives 1 / scale. The block must divide the matrix.
template <class T>
void quantize_blocks(const float* x, std::size_t rows, std::size_t cols, block_shape block, T* q,
                     float* scale_inv, int margin = 0,
                     scale_rounding rounding = scale_rounding::exact) {
  detail::quantize_blocks_checked(x, rows, cols, block, q, scale_inv, margin, rounding,
                                  detail::no_tally{});
}

// The same, filling a report of the scaled elements' conversions (report.hpp).
template <class T>
void quantize_blocks(const float* x, std::size_t rows, std::size_t cols, block_shape block, T* q,
                     float* scale_inv, conversion_report& report, int margin = 0,
                     scale_rounding rounding = scale_rounding::exact) {
  detail::filling(report, rows * cols, [&](auto& tally) {
    detail::quantize_blocks_checked(x, rows, cols, block, q, scale_inv, margin, rounding, tally);
  });
}

// The inverse: x = float(q) * scale_inv of the element's block.
template <class T>
void dequantize_blocks(const T* q, std::size_t rows, std::size_t cols, block_shape block,
                       const float* scale_inv, float* x) {
  static_assert(detail::is_element_type<T>, "dequantize_blocks: the source is a signed 8-bit type");
  detail::check_blocks("dequantize_blocks", rows, cols, block);
  const std::size_t n = rows * cols;
  const std::size_t block_columns = cols / block.cols;
  const std::size_t blocks = n == 0 ? 0 : (rows / block.rows) * block_columns;
  const detail::array_argument x_written{x, n * sizeof(float), "x"};
  detail::check_pair("dequantize_blocks", {q, n, "q"}, x_written, n, "q or x",
                     "the matrix is not empty");
  detail::check_pair("dequantize_blocks", {scale_inv, blocks * sizeof(float), "scale_inv"},
                     x_written, blocks, "scale_inv", "");
  for (std::size_t b = 0; b < blocks; ++b) {
    detail::check_positive_finite("dequantize_blocks", scale_inv[b], "a scale_inv");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row_scales = scale_inv + (r / block.rows) * block_columns;
    for (std::size_t j = 0; j < block_columns; ++j) {
      const std::size_t first = r * cols + j * block.cols;
      detail::dequantize_unchecked(q + first, block.cols, x + first, row_scales[j]);
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

// How an MX block's e8m0 scale X = 2^k is chosen from the block's amax (docs/spec.md §7;
// max(T) = m * 2^emax, 1 <= m < 2: e2m1 6 = 1.5 * 2^2, e2m3 7.5 = 1.875 * 2^2, e3m2 28 =
// 1.75 * 2^4, e4m3 448 = 1.75 * 2^8, e5m2 57344 = 1.75 * 2^15). Whether the block maximum can
// clip (saturate to max(T)), and by how much at worst:
enum class mx_scale_rule {
  // OCP MX §6.3: k = floor(log2(amax)) - emax. amax / X lies in [2^emax, 2^(emax + 1)): the
  // block max clips when amax's significand exceeds m, by up to 2 / m (e2m1: 8 -> 6, 25 %; e2m3
  // 6.25 %; the others 12.5 %). About 41 % of MXFP4 blocks clip under a log-uniform amax.
  floor,
  // cuBLAS, Transformer Engine, DeepGEMM ("RCEIL"): the smallest k with amax / 2^k <= max(T).
  // Never clips; up to one binade of range is left unused.
  ceil,
  // torchao's "even": amax rounded to T's mantissa width M (nearest, ties away from zero),
  // then floor. Clips significands in (m, 2 - 2^-(M+1)) only, by less than 1 - m / (2 -
  // 2^-(M+1)): e2m1 14.3 %, e2m3 3.2 %, e3m2 and e5m2 6.7 %, e4m3 9.7 %.
  even,
  // 2^k nearest to amax / max(T), halfway (1.5 * 2^j) rounding up: clips when it rounds down,
  // by less than a third (amax / 2^k below 1.5 * max(T)).
  nearest
};

namespace detail {

// A rule outside the enumeration (a cast integer) is refused.
inline void check_mx_scale_rule(const char* function, mx_scale_rule rule) {
  if (static_cast<unsigned>(rule) > static_cast<unsigned>(mx_scale_rule::nearest)) {
    refuse(function, "the scale rule is not one of mx_scale_rule's");
  }
}

// A positive finite float as significand * 2^(exponent - 23), the significand in [2^23, 2^24):
// exponent is floor(log2 x). From the bits, for subnormals too.
struct normalized_float {
  std::uint32_t significand;
  int exponent;
};
inline normalized_float normalize(float x) noexcept {
  const std::uint32_t bits = float_bits(x);
  if (bits >= float_exponent_one) {
    return {(bits & 0x007FFFFFU) | float_exponent_one, static_cast<int>(bits >> 23) - 127};
  }
  const int top = most_significant_bit(bits); // a subnormal: bits * 2^-149
  return {bits << (23 - top), top - 149};
}

} // namespace detail

// The e8m0 scale of an MX block with this amax. amax = 0 (an all-zero block) gives the
// smallest scale, 2^-127; NaN or infinity gives NaN (0xFF: the block cannot be represented);
// k is clamped to [-127, 127]. Computed on amax's bits, in integers.
template <class T>
e8m0 compute_mx_scale(float amax_value, mx_scale_rule rule = mx_scale_rule::floor) {
  static_assert(detail::is_element_type<T>, "compute_mx_scale: T is a signed 8-bit type");
  detail::check_mx_scale_rule("compute_mx_scale", rule);
  const std::uint32_t bits = detail::float_bits(amax_value);
  if ((bits & 0x7FFFFFFFU) == 0) {
    return e8m0::from_bits(0x00);
  }
  if (bits >= detail::float_infinity_bits) { // NaN, infinity or negative
    return e8m0::from_bits(0xFF);
  }
  // amax = A * 2^(ea - 23) and max(T) = M * 2^(emax - 23), A and M in [2^23, 2^24).
  const detail::normalized_float a = detail::normalize(amax_value);
  const detail::normalized_float max = detail::normalize(detail::max_value<T>());
  const int floor_k = a.exponent - max.exponent; // amax / 2^floor_k has max's exponent
  int k = floor_k;
  if (rule == mx_scale_rule::even) {
    // Round A to T's mantissa width M (M + 1 significant bits): add half a unit, truncate; a
    // carry into 2^24 is one binade up.
    constexpr int mantissa_bits =
        format_info<typename detail::value_traits<T>::format>::mantissa_bits;
    const std::uint32_t half_unit = std::uint32_t{1} << (22 - mantissa_bits);
    const std::uint32_t rounded = a.significand + half_unit;
    k = (a.exponent + (rounded >= (std::uint32_t{1} << 24) ? 1 : 0)) - max.exponent;
  } else if (rule != mx_scale_rule::floor) {
    // The smallest k with amax / 2^k <= max(T): floor_k if A <= M.
    k = a.significand <= max.significand ? floor_k : floor_k + 1;
    if (rule == mx_scale_rule::nearest) {
      // amax / max(T) lies in [2^j, 2^(j + 1)); it rounds up from the halfway point 1.5 * 2^j
      // on (e8m0's ties go up): amax / 2^j against 1.5 * max(T), i.e. 2 * A * 2^(floor_k - j)
      // against 3 * M.
      const int j = a.significand >= max.significand ? floor_k : floor_k - 1;
      const std::uint64_t twice = std::uint64_t{a.significand} << (1 + floor_k - j);
      const std::uint64_t three_max = 3 * std::uint64_t{max.significand};
      const bool up = twice >= three_max;
      k = up ? j + 1 : j;
    }
  }
  k = detail::larger(-127, detail::smaller(127, k));
  return e8m0::from_bits(static_cast<std::uint8_t>(k + 127));
}

namespace detail {

// compute_mx_scale's code from amax's bits, without branches (quantize_mx's, computed by the
// path's kernel lanes.inc mx_scale_codes with the same thresholds; the tests compare the three
// over every exponent and the significands around each rule's thresholds). For a positive normal
// amax = A * 2^(E - 150), A in [2^23, 2^24) and E the exponent field, and max(T) = M * 2^(E_max -
// 150), the code is k + 127 = E - E_max + 127 + step, step -1, 0 or +1 by the rule
// (compute_mx_scale's cases), clamped at 0; it never exceeds 254 since E <= 254 and E_max >= 128
// (max(T) >= 2). A zero or subnormal amax has E = 0 and gets 0, as its true binade does; NaN,
// infinity and negative values 0xFF (-0 gives 0).
//   The step as two thresholds on A (mx_scale_thresholds, the same for the array kernels'
// mx_scale_codes): step + 1 = [A > above_once] + [A > above_twice]; as A >= 2^23, 0 stands for
// "always" and 2^24 for "never". floor: 0, 2^24 (step 0); ceil: 0, M (A > M goes up);
// even: 0, 2^24 - half - 1 (the rounding of A to T's precision carries, half = half a unit of
// it); nearest: amax / max(T) rounded to a power of two, halfway up: 4A >= 3M in the binade
// below A's if A < M, 2A >= 3M in A's if A >= M, i.e. A >= ceil(3M / 4) and A >= ceil(3M / 2).
// And E + step + 127 - E_max = (E + step + 1) - low, low = E_max - 126.
struct mx_scale_thresholds {
  std::uint32_t low;
  std::uint32_t above_once;
  std::uint32_t above_twice;
};
template <class T>
constexpr mx_scale_thresholds mx_thresholds(mx_scale_rule rule) noexcept {
  using format = typename value_traits<T>::format;
  constexpr std::uint32_t max_bits = largest_float_bits<format>;
  constexpr std::uint32_t max_exponent = max_bits >> 23;
  constexpr std::uint32_t max_significand = (max_bits & 0x007FFFFFU) | 0x00800000U;
  static_assert(max_exponent >= 128, "max(T) >= 2");
  constexpr std::uint32_t low = max_exponent - 126;
  constexpr std::uint32_t never = 0x01000000U;
  switch (rule) {
  case mx_scale_rule::ceil:
    return {low, 0, max_significand};
  case mx_scale_rule::even:
    return {low, 0, never - (std::uint32_t{1} << (22 - format_info<format>::mantissa_bits)) - 1};
  case mx_scale_rule::nearest:
    return {low, (3 * max_significand + 3) / 4 - 1, (3 * max_significand + 1) / 2 - 1};
  case mx_scale_rule::floor:
  default:
    return {low, 0, never};
  }
}
template <class T, mx_scale_rule Rule>
constexpr std::uint8_t mx_scale_code(std::uint32_t amax_bits) noexcept {
  constexpr mx_scale_thresholds thresholds = mx_thresholds<T>(Rule);
  const std::uint32_t exponent = (amax_bits & 0x7FFFFFFFU) >> 23;
  const std::uint32_t significand = (amax_bits & 0x007FFFFFU) | 0x00800000U;
  const std::uint32_t shifted = exponent + (significand > thresholds.above_once ? 1U : 0U) +
                                (significand > thresholds.above_twice ? 1U : 0U);
  // Clamped at 0 as an unsigned max.
  const std::uint32_t code = (shifted > thresholds.low ? shifted : thresholds.low) - thresholds.low;
  const bool no_scale = amax_bits >= float_infinity_bits && amax_bits != 0x80000000U; // not -0
  return static_cast<std::uint8_t>(no_scale ? 0xFFU : code);
}

} // namespace detail

// The MX block size of the OCP MX formats.
constexpr std::size_t mx_block_size = 32;

namespace detail {

// x * 2^k for an exact float x, rounded once to To (float or bfloat16_bits), whatever the
// environment flushes: the converter's steps on the exact product.
template <class To>
To times_power_of_two_as(float x, int k) noexcept {
  unpacked value = unpack_value(x);
  value.exponent += k;
  using format = typename value_traits<To>::format;
  return value_traits<To>::from_code(
      pack<format, rounding_rule::nearest_even, overflow::non_saturating>(value));
}

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The amaxes of `count` consecutive blocks of `block_size` floats (amax's rule: NaN if any
// element is NaN), by the active path's kernel in one call per 128 blocks (quantize_nvfp4's
// pieces: one call each).
inline void block_amaxes(const float* x, std::size_t count, std::size_t block_size, float* amaxes) {
  constexpr std::size_t most = 128;
  std::uint32_t bits[most];
  for (std::size_t first = 0; first < count; first += most) {
    const std::size_t m = smaller(most, count - first);
    with_kernels(active_path(), [&](auto kernels) {
      decltype(kernels)::block_max_magnitude_bits(x + first * block_size, m, block_size, bits);
    });
    for (std::size_t b = 0; b < m; ++b) {
      amaxes[first + b] = magnitude_as_amax(bits[b]);
    }
  }
}

// The blocks per piece of quantize_mx: one call of the amax kernel and one of the narrowing
// kernel per piece, whose floats (8 KiB) stay in the first-level cache between the two.
constexpr std::size_t mx_quantize_piece_blocks = 64;

// quantize_mx's blocks, arguments already checked: per piece of up to 64 blocks, the amaxes and
// scales first, then one saturating narrowing of the piece on the active path, each element
// times its block's inverse scale 2^-k as it is read (the product quantize() forms). A block
// with a NaN scale is narrowed with factor 1 (its codes carry no meaning). 2^-k is a normal
// float but for k = 127 (e2m5 only): such a piece goes block by block, x times 2^-64 and then,
// in the kernel, 2^-63 (the same codes: the first product is exact for every x whose result is
// not far below T's smallest value; and no compiler can merge the two factors into a subnormal
// that flush-to-zero would read as 0).
// (array_end: the end of the caller's whole array, of which x may be one piece: prefetched up
// to there.)
template <class T, class Tally = no_tally>
void quantize_mx_unchecked(const float* x, std::size_t blocks, T* q, e8m0* scales,
                           mx_scale_rule rule, const float* array_end, Tally&& tally = Tally{}) {
  const mx_scale_thresholds thresholds = mx_thresholds<T>(rule);
  std::size_t count = 0;
  for (std::size_t first = 0; first < blocks; first += count) {
    // Whole groups of blocks side by side in one pass where the active path has the kernel
    // (quantize_block_groups); a group with a scale code of 254 or 0xFF, one that a report must
    // look at, and the last blocks, as below (with a report, 16 blocks: a group on AVX-512, so
    // that the kernel takes over again after it).
    if constexpr (takes_block_groups<T>) {
      static_assert(sizeof(e8m0) == 1 && std::is_trivially_copyable<e8m0>::value,
                    "e8m0 is its code");
      const mx_block_scales codes_rule{thresholds.low, thresholds.above_once,
                                       thresholds.above_twice,
                                       reinterpret_cast<std::uint8_t*>(scales + first)};
      first += quantize_block_groups_on_path<T, mx_block_size>(
          x + first * mx_block_size, blocks - first, q + first * mx_block_size, codes_rule,
          prefetch_ahead(static_cast<std::size_t>(array_end - x), 1) != 0 ? array_end : nullptr,
          tally);
      if (first == blocks) {
        break;
      }
    }
    count = smaller(takes_block_groups<T> && reports<Tally> ? std::size_t{16}
                                                            : mx_quantize_piece_blocks,
                    blocks - first);
    const float* piece = x + first * mx_block_size;
    alignas(64) std::uint32_t amax_bits[mx_quantize_piece_blocks];
    with_kernels(active_path(), [&](auto kernels) {
      decltype(kernels)::block_max_magnitude_bits(piece, count, mx_block_size, amax_bits);
    });
    // The scale codes and the factors their elements are multiplied by, 2^-k, in one kernel
    // call (a loop of mx_scale_code in generic code took 6 % of quantize_mx on AVX2). Past
    // `count` (the kernel reads whole vectors) amaxes of 0: code 0, never 254.
    std::fill(amax_bits + count, amax_bits + mx_quantize_piece_blocks, 0U);
    std::uint8_t codes[mx_quantize_piece_blocks];
    // (Zeroed: g++ 12 for AArch64 cannot see the kernel write them all, and warns.)
    alignas(64) std::uint32_t factor_bits[mx_quantize_piece_blocks] = {};
    bool subnormal_inverse = false;
    with_kernels(active_path(), [&](auto kernels) {
      subnormal_inverse =
          decltype(kernels)::mx_scale_codes(amax_bits, count, thresholds.low, thresholds.above_once,
                                            thresholds.above_twice, codes, factor_bits);
    });
    // (All of them, a fixed size: copied in vectors. Those past `count` are never read.)
    alignas(64) float factors[mx_quantize_piece_blocks];
    std::memcpy(factors, factor_bits, sizeof factors);
    static_assert(sizeof(e8m0) == 1 && std::is_trivially_copyable<e8m0>::value, "e8m0 is its code");
    std::memcpy(scales + first, codes, count);
    if (subnormal_inverse) {
      for (std::size_t b = 0; b < count; ++b) {
        const float* block = piece + b * mx_block_size;
        T* block_codes = q + (first + b) * mx_block_size;
        if (codes[b] == 254) {
          float scaled[mx_block_size];
          for (std::size_t j = 0; j < mx_block_size; ++j) {
            scaled[j] = block[j] * 0x1p-64f;
          }
          quantize_unchecked(scaled, mx_block_size, block_codes, 0x1p-63f, tally);
        } else {
          quantize_unchecked(block, mx_block_size, block_codes, factors[b], tally);
        }
      }
      continue;
    }
    static_assert(mx_block_size == std::size_t{1} << 5, "blocks of 2^5 elements");
    narrow_scaled(block_scaled_floats{piece, factors, 5, 0, array_end,
                                      prefetch_ahead(static_cast<std::size_t>(array_end - x),
                                                     mx_quantize_piece_blocks * mx_block_size)},
                  count * mx_block_size, q + first * mx_block_size, tally);
  }
}

// quantize_mx, with a report or without (Tally).
template <class T, class Tally>
void quantize_mx_checked(const float* x, std::size_t n, T* q, e8m0* scales, mx_scale_rule rule,
                         Tally&& tally) {
  static_assert(is_element_type<T>, "quantize_mx: the target is a signed 8-bit type");
  if (n % mx_block_size != 0) {
    refuse("quantize_mx", "n is not a multiple of 32");
  }
  const std::size_t blocks = n / mx_block_size;
  const array_argument x_read{x, n * sizeof(float), "x"};
  const array_argument scales_written{scales, blocks, "scales"};
  check_pair("quantize_mx", x_read, {q, n, "q"}, n, "x or q");
  check_pair("quantize_mx", x_read, scales_written, blocks, "scales", "");
  check_no_overlap("quantize_mx", scales_written, {q, n, "q"});
  check_mx_scale_rule("quantize_mx", rule);
  quantize_mx_unchecked(x, blocks, q, scales, rule, x + n, tally);
}

// dequantize_mx's blocks, arguments already checked: To is float or bfloat16_bits.
template <class T, class To>
void dequantize_mx_unchecked(const T* q, std::size_t blocks, const e8m0* scales, To* x) {
  // T's smallest positive value is 2^lowest, its largest below 2^(highest + 1).
  const int lowest = normalize(static_cast<float>(std::numeric_limits<T>::denorm_min())).exponent;
  const int highest = normalize(max_value<T>()).exponent;
  float values[mx_block_size];
  for (std::size_t b = 0; b < blocks; ++b) {
    const T* codes = q + b * mx_block_size;
    To* block = x + b * mx_block_size;
    const unsigned code = scales[b].bits();
    const int k = static_cast<int>(code) - 127;
    widen_array(codes, mx_block_size, values);
    if (code == 0xFF) {
      for (float& value : values) {
        value = bit_cast<float>(float_quiet_nan_bits);
      }
    } else if (k + lowest >= -126 && k + highest <= 127) {
      // Every product is a normal float (or zero): exact, one multiplication.
      const auto factor = bit_cast<float>(static_cast<std::uint32_t>(code) << 23);
      for (float& value : values) {
        value *= factor;
      }
    } else {
      for (std::size_t j = 0; j < mx_block_size; ++j) {
        block[j] = times_power_of_two_as<To>(values[j], k);
      }
      continue;
    }
    if constexpr (std::is_same<To, float>::value) {
      for (std::size_t j = 0; j < mx_block_size; ++j) {
        block[j] = values[j];
      }
    } else {
      // Normal floats of at most 8 significant bits, or zero or NaN: their top halves, exactly.
      for (std::size_t j = 0; j < mx_block_size; ++j) {
        block[j] = To{static_cast<std::uint16_t>(bit_cast<std::uint32_t>(values[j]) >> 16)};
      }
    }
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Quantizes n floats (n a multiple of 32) in blocks of 32 to any signed element type (e4m3,
// e5m2, e2m3, e3m2, e2m1, ...): scales[b] = compute_mx_scale<T>(the block's amax, rule) = 2^k and
// q[i] = saturate_cast<T>(x[i] * 2^-k), the quotient exact. 2^-k is a normal float but for
// k = 127 (e2m5 only), where x[i] * 2^-64 * 2^-63 takes its place: the same codes, as the first
// product is exact for every x[i] whose result is not far below T's smallest value. A block with
// a NaN scale (a NaN or infinite element) is narrowed with scale 1: its codes carry no meaning,
// and it decodes to NaN. One value per byte; microscaling.hpp packs FP4 and FP6.
template <class T>
void quantize_mx(const float* x, std::size_t n, T* q, e8m0* scales,
                 mx_scale_rule rule = mx_scale_rule::floor) {
  detail::quantize_mx_checked(x, n, q, scales, rule, detail::no_tally{});
}
// The same, filling a report of the scaled elements' conversions (report.hpp).
template <class T>
void quantize_mx(const float* x, std::size_t n, T* q, e8m0* scales, conversion_report& report,
                 mx_scale_rule rule = mx_scale_rule::floor) {
  detail::filling(report, n,
                  [&](auto& tally) { detail::quantize_mx_checked(x, n, q, scales, rule, tally); });
}

// The inverse: x[i] = q[i] * 2^k of its block, exactly, rounded once to the target (float or
// bfloat16_bits): +-inf past the largest; NaN for a block whose scale is NaN; results in the
// target's subnormal range do not depend on flush-to-zero. Where every product of T's values
// stays normal, one multiplication by 2^k, which is exact; else each product from the converter.
template <class T, class To>
void dequantize_mx(const T* q, std::size_t n, const e8m0* scales, To* x) {
  static_assert(detail::is_element_type<T>, "dequantize_mx: the source is a signed 8-bit type");
  static_assert(std::is_same<To, float>::value || std::is_same<To, bfloat16_bits>::value,
                "dequantize_mx: the target is float or bfloat16_bits");
  if (n % mx_block_size != 0) {
    detail::refuse("dequantize_mx", "n is not a multiple of 32");
  }
  const std::size_t blocks = n / mx_block_size;
  const detail::array_argument x_written{x, n * sizeof(To), "x"};
  detail::check_pair("dequantize_mx", {q, n, "q"}, x_written, n, "q or x");
  detail::check_pair("dequantize_mx", {scales, blocks, "scales"}, x_written, blocks, "scales", "");
  detail::dequantize_mx_unchecked(q, blocks, scales, x);
}

// docs/spec.md §6: the relative noise energy sum (y - x)^2 / sum x^2 of an approximation y of x,
// and the signal-to-noise ratio 10 log10(sum x^2 / sum (y - x)^2) in dB, accumulated in double.
// Equal arrays give 0 and +infinity; an all-zero x with any error gives +infinity and
// -infinity.
inline double relative_noise_energy(const float* x, const float* y, std::size_t n) {
  detail::check_not_null("relative_noise_energy", x == nullptr || y == nullptr, n, "x or y");
  double signal = 0;
  double noise = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(y[i]) - static_cast<double>(x[i]);
    signal += static_cast<double>(x[i]) * static_cast<double>(x[i]);
    noise += d * d;
  }
  if (noise == 0) {
    return 0;
  }
  // +infinity from its bits: HUGE_VAL is a warning under clang's -ffast-math.
  return signal == 0 ? detail::bit_cast<double>(std::uint64_t{0x7FF0000000000000U})
                     : noise / signal;
}
inline double snr_db(const float* x, const float* y, std::size_t n) {
  return -10 * std::log10(relative_noise_energy(x, y, n));
}

#if MINIFLOAT_HAS_RANGES
// The same functions over contiguous ranges (std::span, std::vector, ...): sizes must match.
template <contiguous_sized_range Source, contiguous_sized_range Target>
void quantize(Source&& x, Target&& q, float scale) {
  detail::check_same_size("quantize", std::ranges::size(x) == std::ranges::size(q), "x and q");
  quantize(std::ranges::data(x), std::ranges::size(x), std::ranges::data(q), scale);
}
template <contiguous_sized_range Source, contiguous_sized_range Target>
void dequantize(Source&& q, Target&& x, float scale_inv) {
  detail::check_same_size("dequantize", std::ranges::size(x) == std::ranges::size(q), "q and x");
  dequantize(std::ranges::data(q), std::ranges::size(q), std::ranges::data(x), scale_inv);
}
template <contiguous_sized_range Source, contiguous_sized_range Approximation>
double relative_noise_energy(Source&& x, Approximation&& y) {
  detail::check_same_size("relative_noise_energy", std::ranges::size(x) == std::ranges::size(y),
                          "x and y");
  return relative_noise_energy(std::ranges::data(x), std::ranges::data(y), std::ranges::size(x));
}
template <contiguous_sized_range Source, contiguous_sized_range Approximation>
double snr_db(Source&& x, Approximation&& y) {
  return -10 * std::log10(relative_noise_energy(x, y));
}
#endif

} // namespace MINIFLOAT_SETTINGS_NAMESPACE

} // namespace minifloat

#endif // MINIFLOAT_SCALING_HPP
