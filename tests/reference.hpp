// The tests' independent reference for narrowing to an 8-bit format. It shares no code with the
// library and uses none of its techniques: it lists every value of the format from the formula
// of docs/spec.md §1, sorts them, and for an input finds the two neighbouring values by binary
// search; then nearest (ties to the even code), toward zero, or stochastic, then the overflow rule
// of docs/spec.md §2 on the rounded result. All arithmetic is exact in double: every 8-bit value,
// every midpoint between two of them, and every float, binary16 and bfloat16 input is a double.
#ifndef MINIFLOAT_TESTS_REFERENCE_HPP
#define MINIFLOAT_TESTS_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ieee.hpp"

namespace reference {

// Where a format keeps its NaN: IEEE (all-ones exponent: inf and NaNs), OCP E4M3's "fn" (only
// S.1111.111 is NaN, the rest are normal values), "fnuz" (the code 0x80 alone is NaN; no
// infinities, no negative zero), or nowhere (the MX elements: every code is a number; NaN
// converts to +max and every overflow saturates, docs/spec.md §7).
enum class nan_rule { ieee, fn, fnuz, none };

struct format {
  std::string name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  nan_rule rule;
  bool has_sign = true;
  // false: the all-zeros exponent is a binade of normal values; there is no zero (e8m0).
  bool has_subnormals = true;
};

inline const format e4m3{"e4m3", 4, 3, 7, nan_rule::fn};
inline const format e5m2{"e5m2", 5, 2, 15, nan_rule::ieee};
inline const format e3m4{"e3m4", 3, 4, 3, nan_rule::ieee};
inline const format e2m5{"e2m5", 2, 5, 1, nan_rule::ieee};
inline const format e4m3_ieee{"e4m3_ieee", 4, 3, 7, nan_rule::ieee};
inline const format e4m3fnuz{"e4m3fnuz", 4, 3, 8, nan_rule::fnuz};
inline const format e5m2fnuz{"e5m2fnuz", 5, 2, 16, nan_rule::fnuz};
inline const format e4m3b11fnuz{"e4m3b11fnuz", 4, 3, 11, nan_rule::fnuz};
// The MX scale: unsigned, no zero, NaN 0xFF. Negative inputs give NaN; +-0 and everything below
// the smallest value 2^-127 give 0x00 (minifloat's documented rule for a format without zero).
// Without mantissa bits, a tie rounds up (docs/spec.md §7).
inline const format e8m0{"e8m0", 8, 0, 127, nan_rule::fn, false, false};
// The MX elements (4 and 6 bits, the sign the top bit) and the NVFP4 scale (7 bits, no sign).
inline const format e2m1{"e2m1", 2, 1, 1, nan_rule::none};
inline const format e2m3{"e2m3", 2, 3, 1, nan_rule::none};
inline const format e3m2{"e3m2", 3, 2, 3, nan_rule::none};
inline const format ue4m3{"ue4m3", 4, 3, 7, nan_rule::fn, false};

// The sign bit of a code (formats narrower than 8 bits keep theirs at bit E + M).
inline unsigned sign_bit(const format& f) { return 1u << (f.exponent_bits + f.mantissa_bits); }

// docs/spec.md §1: the value of a code, NaN and infinities included.
inline double decode(const format& f, unsigned code) {
  if (f.rule == nan_rule::fnuz && code == 0x80) {
    return ieee::quiet_nan<double>(); // fnuz's NaN has no sign
  }
  const bool negative = f.has_sign && (code & sign_bit(f)) != 0;
  const unsigned e = (code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
  const unsigned m = code & ((1u << f.mantissa_bits) - 1);
  const unsigned e_all_ones = (1u << f.exponent_bits) - 1;
  const unsigned m_all_ones = (1u << f.mantissa_bits) - 1;
  double magnitude;
  if (f.rule == nan_rule::ieee && e == e_all_ones) {
    magnitude = m == 0 ? ieee::positive_infinity<double>() : ieee::quiet_nan<double>();
  } else if (f.rule == nan_rule::fn && e == e_all_ones && m == m_all_ones) {
    magnitude = ieee::quiet_nan<double>();
  } else if (e == 0 && f.has_subnormals) {
    magnitude = std::ldexp(static_cast<double>(m), 1 - f.bias - f.mantissa_bits);
  } else {
    magnitude = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -f.mantissa_bits),
                           static_cast<int>(e) - f.bias);
  }
  return ieee::with_sign(magnitude, negative);
}

enum class mode { nearest_even, toward_zero, upward, stochastic };

class narrower {
public:
  explicit narrower(const format& f) : format_(f) {
    const unsigned codes = sign_bit(f); // the non-negative codes
    for (unsigned code = 0; code < codes; ++code) {
      const double v = decode(f, code);
      if (ieee::isfinite(v)) {
        grid_.push_back({v, code});
      }
    }
    std::sort(grid_.begin(), grid_.end(),
              [](const point& a, const point& b) { return a.value < b.value; });
    max_ = grid_.back();
    // The next value past the largest finite one, as if the exponent range went on: one unit
    // in the last place of max further, and the next code in encoding order (which decides
    // "even" for the tie halfway: e4m3 464 -> 448, e5m2 61440 -> 65536, i.e. overflow).
    const double step = std::ldexp(1.0, std::ilogb(max_.value) - f.mantissa_bits);
    grid_.push_back({max_.value + step, max_.code + 1});
    for (unsigned code = 0; code < codes; ++code) {
      if (ieee::isinf(decode(f, code))) {
        infinity_code_ = code;
        has_infinity_ = true;
      }
    }
  }

  const format& fmt() const { return format_; }
  double max_value() const { return max_.value; }
  // Every finite non-negative value, ascending, and the virtual one past the largest.
  std::vector<double> grid_values() const {
    std::vector<double> values;
    for (const point& p : grid_) {
      values.push_back(p.value);
    }
    return values;
  }

  // Where |x| falls: the index i of the largest grid value <= |x|. Computed once, used for
  // every rounding mode.
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  struct located {
    double x;
    std::size_t below; // index into the grid; grid_.size() - 1 or more means |x| >= virtual;
                       // npos: |x| is below the smallest grid value
  };
  located locate(double x) const {
    x = normal_stand_in(x); // (see below: a double subnormal reads as 0 under DAZ)
    const double ax = std::fabs(x);
    auto it = std::upper_bound(grid_.begin(), grid_.end(), ax,
                               [](double v, const point& p) { return v < p.value; });
    return {x, static_cast<std::size_t>(it - grid_.begin()) - 1};
  }

  // round(where, m, ...) reads x only through its sign, whether it is NaN, infinite or zero,
  // `below`, and for the modes other than stochastic, how |x| compares with the grid value below it
  // and the midpoint above it. This key captures all of that: two inputs with the same key round
  // alike in those modes. The sweeps over all floats, which come in long runs sharing a key,
  // round once per run (the quick suite checks the claim against round for whole chunks).
  std::uint64_t rounding_class(const located& where) const {
    const double x = where.x;
    const std::uint64_t sign = ieee::signbit(x) ? 1 : 0;
    std::uint64_t side = 0; // |x| is the grid value below it
    if (ieee::isnan(x)) {
      side = 4;
    } else if (ieee::isinf(x)) {
      side = 5;
    } else if (x == 0) {
      side = 6; // -0 is not negative for the sign test of a format without a sign
    } else if (where.below != npos && where.below + 1 < grid_.size()) {
      const double ax = std::fabs(x);
      const double mid = (grid_[where.below].value + grid_[where.below + 1].value) / 2;
      side = ax == grid_[where.below].value ? 0 : ax < mid ? 1 : ax == mid ? 2 : 3;
    }
    const std::uint64_t below = where.below == npos ? 0 : where.below + 1;
    return (below << 4) | (side << 1) | sign;
  }

  // A block of consecutive floats of one sign, as the sweeps enumerate them, cut into runs of
  // one rounding class. Each class is one interval of |x| (zero; the grid value; the open
  // interval up to the midpoint; the midpoint; the rest up to the next grid value; infinity;
  // NaN), and |x| grows with the bit pattern, so a class is one run. Its end is found by steps
  // that double and then bisection: a few dozen locates per run instead of one per float. (Each
  // float read exactly, ieee::to_double, also where denormals-are-zero would read it as 0.)
  struct run {
    std::size_t begin;
    std::size_t end;
    located first; // where x[begin] falls: `below` holds for the whole run
    std::uint64_t rounding_class;
  };
  std::vector<run> rounding_runs(const float* x, std::size_t n) const {
    std::vector<run> runs;
    const auto class_at = [&](std::size_t j) {
      return rounding_class(locate(ieee::to_double(x[j])));
    };
    for (std::size_t begin = 0; begin < n;) {
      const located first = locate(ieee::to_double(x[begin]));
      const std::uint64_t this_class = rounding_class(first);
      std::size_t inside = begin; // the last index known to be in the class
      std::size_t step = 1;
      while (inside + step < n && class_at(inside + step) == this_class) {
        inside += step;
        step *= 2;
      }
      std::size_t outside = std::min(inside + step, n); // the first known outside, or n
      while (outside - inside > 1) {
        const std::size_t middle = inside + (outside - inside) / 2;
        (class_at(middle) == this_class ? inside : outside) = middle;
      }
      runs.push_back({begin, outside, first, this_class});
      begin = outside;
    }
    return runs;
  }

  unsigned round(const located& where, mode m, bool saturate, std::uint32_t random_bits = 0) const {
    const double x = where.x;
    const bool fnuz = format_.rule == nan_rule::fnuz;
    const bool finite_only = format_.rule == nan_rule::none;
    const unsigned sign = ieee::signbit(x) && format_.has_sign ? sign_bit(format_) : 0u;
    // NaN: NaN with the input's sign and the all-ones magnitude (docs/spec.md §2); fnuz has one
    // NaN; the unsigned formats' has no sign; a format without NaN gives +max (§7).
    const unsigned all_ones = sign_bit(format_) - 1;
    const unsigned nan = finite_only        ? max_.code
                         : fnuz             ? 0x80u
                         : format_.has_sign ? sign | all_ones
                                            : all_ones;
    if (ieee::isnan(x)) {
      return nan;
    }
    if (!format_.has_sign && x < 0) {
      return nan; // no negative values
    }
    if (where.below == npos) {
      return grid_[0].code; // below the smallest value of a format without zero (or x = 0)
    }
    const unsigned overflowed = saturate || finite_only ? sign | max_.code
                                : has_infinity_         ? sign | infinity_code_
                                                        : nan;
    if (ieee::isinf(x)) {
      return overflowed;
    }
    const std::size_t virtual_index = grid_.size() - 1;
    // Toward zero, and upward for a negative value, drop the extra digits of |x|.
    const bool truncates = m == mode::toward_zero || (m == mode::upward && x < 0);
    if (where.below >= virtual_index) { // |x| >= max + step: every rounding lands past max
      return truncates ? sign | max_.code : overflowed;
    }
    const double ax = std::fabs(x);
    const point lo = grid_[where.below];
    const point hi = grid_[where.below + 1];
    point pick = lo;
    if (ax != lo.value) {
      switch (m) {
      case mode::nearest_even: {
        const double mid = (lo.value + hi.value) / 2; // exact: few significant bits
        // A tie goes to the even code; without mantissa bits (e8m0), up (docs/spec.md §7).
        const bool tie_up = format_.mantissa_bits == 0 || lo.code % 2 != 0;
        pick = ax < mid ? lo : ax > mid ? hi : (tie_up ? hi : lo);
        break;
      }
      case mode::toward_zero:
        pick = lo;
        break;
      case mode::upward:
        pick = truncates ? lo : hi;
        break;
      case mode::stochastic: {
        // frac = (|x| - lo) / (hi - lo); the subtraction is exact (Sterbenz, or lo = 0) and
        // hi - lo is a power of two, so floor(frac * 2^32) is exact too.
        const double fraction32 =
            std::floor((ax - lo.value) * 4294967296.0 / (hi.value - lo.value));
        pick = fraction32 + static_cast<double>(random_bits) >= 4294967296.0 ? hi : lo;
        break;
      }
      }
    }
    return finish(pick, sign, overflowed);
  }

  // Stochastic rounding of a run of floats (rounding_runs), x[run.begin, run.end) with
  // random_bits[j] each, into codes[j]: round(located{x[j], run.first.below}, mode::stochastic,
  // saturate, random_bits[j]) for each (the quick suite compares the two), with the per-run
  // part done once. round reads the random bits only for an x strictly between two grid values
  // below the virtual one (classes 1 to 3 of rounding_class), where the code is lo's or hi's by
  // the same comparison as round's: per element, only the fraction. Every other run rounds as
  // its first float does, whatever the bits (as the other modes do).
  void round_stochastic_run(const run& r, const float* x, const std::uint32_t* random_bits,
                            bool saturate, std::uint8_t* codes) const {
    const std::size_t below = r.first.below;
    const std::uint64_t side = (r.rounding_class >> 1) & 7;
    const bool between = (side >= 1 && side <= 3) && below != npos && below + 1 < grid_.size() &&
                         (format_.has_sign || !ieee::signbit(r.first.x));
    if (!between) {
      std::memset(
          codes + r.begin,
          static_cast<int>(round(r.first, mode::stochastic, saturate, random_bits[r.begin])),
          r.end - r.begin);
      return;
    }
    // lo's code is round's with bits that never round up (0); hi's goes through round's ending
    // (finish) with the run's sign and what round gives past every value (an infinity).
    const unsigned lo_code = round(r.first, mode::stochastic, saturate, 0);
    const unsigned sign = ieee::signbit(r.first.x) && format_.has_sign ? sign_bit(format_) : 0u;
    const unsigned overflowed =
        round(ieee::with_sign(ieee::positive_infinity<double>(), ieee::signbit(r.first.x)),
              mode::stochastic, saturate);
    const unsigned hi_code = finish(grid_[below + 1], sign, overflowed);
    const double lo = grid_[below].value;
    const double step = grid_[below + 1].value - lo;
    // round's quotient (|x| - lo) * 2^32 / step, by one multiplication where step is a power of
    // two (a binary format's grid steps are), which then gives the same double exactly.
    int exponent = 0;
    if (std::frexp(step, &exponent) != 0.5) {
      for (std::size_t j = r.begin; j < r.end; ++j) {
        codes[j] = static_cast<std::uint8_t>(round(located{ieee::to_double(x[j]), below},
                                                   mode::stochastic, saturate, random_bits[j]));
      }
      return;
    }
    const double scale = 4294967296.0 / step;
    for (std::size_t j = r.begin; j < r.end; ++j) {
      const double ax = std::fabs(ieee::to_double(x[j]));
      // round's floor of the quotient, by truncation (the quotient is >= 0), and its comparison.
      const auto fraction32 = static_cast<std::uint64_t>((ax - lo) * scale);
      codes[j] = static_cast<std::uint8_t>(
          fraction32 + random_bits[j] >= (std::uint64_t{1} << 32) ? hi_code : lo_code);
    }
  }

  unsigned round(double x, mode m, bool saturate, std::uint32_t random_bits = 0) const {
    return round(locate(normal_stand_in(x)), m, saturate, random_bits);
  }
  // A float input, converted exactly even where the environment flushes subnormals.
  unsigned round(float x, mode m, bool saturate, std::uint32_t random_bits = 0) const {
    return round(locate(ieee::to_double(x)), m, saturate, random_bits);
  }

  // A double subnormal (below 2^-1022) rounds in every mode as +-2^-1000 does: both lie between
  // 0 and the smallest value of every format (2^-127 at least), below half of it, and their
  // stochastic fraction truncates to 0 at 32 bits. The stand-in is normal, so that a program
  // with denormals-are-zero (-ffast-math) still compares it with the grid correctly.
  static double normal_stand_in(double x) {
    // (Through a volatile: clang's -Ofast turns such bit tests into a floating-point class test,
    // which it then evaluates with comparisons that denormals-are-zero changes.)
    const volatile std::uint64_t bits = ieee::to_bits(x);
    const bool subnormal = (bits & 0x7FF0000000000000U) == 0 && (bits << 1) != 0;
    return subnormal ? ieee::with_sign(0x1p-1000, ieee::signbit(x)) : x;
  }

private:
  struct point {
    double value;
    unsigned code;
  };
  // The code of the grid point round picked, for an input of sign bit `sign`: past the largest
  // value, the overflow; a negative value that rounds to zero in fnuz gives +0 (0x80 is NaN).
  unsigned finish(point pick, unsigned sign, unsigned overflowed) const {
    if (pick.code > max_.code) {
      return overflowed;
    }
    if (format_.rule == nan_rule::fnuz && pick.code == 0) {
      return 0;
    }
    return sign | pick.code;
  }
  format format_;
  std::vector<point> grid_;
  point max_{};
  unsigned infinity_code_ = 0;
  bool has_infinity_ = false;
};

// IEEE binary16 and bfloat16 values from their bits, by the same formula (docs/spec.md §1 with E, M
// of the wide format), independent of the library's decoder.
inline double decode_wide(unsigned bits, int exponent_bits, int mantissa_bits) {
  const int total = 1 + exponent_bits + mantissa_bits;
  const bool negative = ((bits >> (total - 1)) & 1u) != 0;
  const unsigned e = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const unsigned m = bits & ((1u << mantissa_bits) - 1);
  const int bias = (1 << (exponent_bits - 1)) - 1;
  double magnitude;
  if (e == (1u << exponent_bits) - 1) {
    magnitude = m == 0 ? ieee::positive_infinity<double>() : ieee::quiet_nan<double>();
  } else if (e == 0) {
    magnitude = std::ldexp(static_cast<double>(m), 1 - bias - mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(m + (1u << mantissa_bits)),
                           static_cast<int>(e) - bias - mantissa_bits);
  }
  return ieee::with_sign(magnitude, negative);
}
inline double decode_binary16(std::uint16_t bits) { return decode_wide(bits, 5, 10); }
inline double decode_bfloat16(std::uint16_t bits) { return decode_wide(bits, 8, 7); }

} // namespace reference

#endif // MINIFLOAT_TESTS_REFERENCE_HPP
