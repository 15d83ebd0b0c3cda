// minifloat: the scalar casts' tables for float, binary16 and double -> a format of at most 5
// mantissa bits with subnormals, or e8m0, one for each rounding but stochastic and each overflow
// rule (convert_value): each float's code looked up by its top 13 bits (more past 3 mantissa
// bits) and whether the bits below them are all zero (a double's by the same index of its float
// rounded to odd, its sign and exponent part from a table of its own; a binary16's in a table of
// its own by its top 10 bits and whether the 6 below are), a load where the fixed-point lane
// kernel took 32 instructions.
#ifndef MINIFLOAT_DETAIL_NARROWING_TABLE_HPP
#define MINIFLOAT_DETAIL_NARROWING_TABLE_HPP

#include <cstdint>

#include "../converter.hpp"
#include "kernels_portable.hpp"

namespace minifloat {
namespace detail {

// Why 13 bits and a flag decide the code (docs/spec.md §2): with nearest rounding the code
// changes only at a midpoint between two neighbouring values of the format (the largest finite
// value's upper midpoint included, past which a value overflows), toward zero and upward only at
// a value of the format (upward: the largest finite one included), and with M <= 3 mantissa
// bits every midpoint, normal ((1 + (2j + 1) 2^-(M+1)) 2^e) or subnormal ((2k + 1)
// 2^(emin-M-1)), and every value has at most M + 1 <= 4 significant bits after its leading one:
// as a float, its 19 low bits are zero. So the floats that share their top 13 bits (sign,
// exponent, 4 mantissa bits: one binade, one run of 2^19 neighbours) round alike but for the
// first of them, which may be a midpoint (a tie) or a value of the format: the code of the run's
// first float, and the code of every other float of the run, are all a float's code needs. NaN and
// infinity are runs of their own (exponent 255: the infinity is the first float of the run whose 4
// mantissa bits are 0). With M = 4 or 5 the same holds for runs that share M + 1 mantissa bits
// (index_mantissa_bits). The all-floats sweeps compare every float's code with the independent
// reference. (Signed formats, and unsigned ones (ue4m3), whose negative values all give one code,
// NaN, but for -0; and e8m0, without subnormals, whose every value and midpoint has at most 2
// significant bits, some of them among float's subnormals.)
template <class Format>
constexpr bool
    narrows_floats_by_table = (Format::mantissa_bits >= 1 && Format::mantissa_bits <= 5 &&
                               Format::exponent_bits <= 5 && format_info<Format>::total_bits <= 8 &&
                               format_info<Format>::has_subnormals) ||
                              is_scale_lane_target<Format>;

// The mantissa bits K the index keeps: 4 for every format of at most 3 mantissa bits (one index,
// 16 KiB tables), M + 1 above (e3m4: 5, 32 KiB; e2m5: 6, 64 KiB).
template <class Format>
constexpr unsigned index_mantissa_bits = Format::mantissa_bits <= 3
                                             ? 4U
                                             : static_cast<unsigned>(Format::mantissa_bits) + 1U;

// The table's index for a float's bits: the top 9 + K bits, then whether the 23 - K below are not
// all 0 (K = 4: the top 13 bits and the 19 below).
template <unsigned K>
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t narrowing_index(std::uint32_t bits) noexcept {
  return (bits >> (23U - K)) << 1 |
         static_cast<std::uint32_t>((bits & ((1U << (23U - K)) - 1U)) != 0);
}

// The same index for a double's bits: the float table's entry of the double rounded to odd into
// float (whose code is the double's, convert_value), read without making that float: its sign and
// exponent from a table by the double's top 12 bits (double_exponent_index_table), the top K of
// the double's 52 mantissa bits and whether the other 52 - K are all zero. (A table, not the clamps
// computed: g++ 12 made the index 24 instructions and a branch, 5.8 cycles per cast on Zen 5; by
// the table it is 11 and no branch, docs/performance.md, stop 67.)
template <unsigned K>
struct double_exponent_indices {
  std::uint16_t entries[1U << 12];
};

// Entry s·2^11 + e: the sign's bit and the float exponent, in place (bits 9 + K and 1 + K to
// 8 + K): e rebiased from 1023 to 127; 0 for e = 0 (the zeros, and the subnormal doubles, which
// have a bit among the mantissa's); 1 for the other doubles below float's normals (every entry of
// exponent 1 is the result of a value too small for the format, as for the tiny float that rounding
// to odd makes); 254 from 2^128 on (every entry is the overflow's result, as for FLT_MAX); 255 for
// infinities and NaNs (e = 2047).
template <unsigned K>
constexpr double_exponent_indices<K> make_double_exponent_indices() noexcept {
  double_exponent_indices<K> table{};
  for (std::uint32_t top = 0; top < (1U << 12); ++top) {
    const std::uint32_t exponent = top & 0x7FFU;
    std::uint32_t rebiased = exponent <= 1023U - 127U ? 1U : exponent - (1023U - 127U);
    rebiased = exponent == 0 ? 0U : rebiased > 254U ? 254U : rebiased;
    rebiased = exponent == 0x7FFU ? 255U : rebiased;
    table.entries[top] = static_cast<std::uint16_t>((top >> 11) << (9U + K) | rebiased << (1U + K));
  }
  return table;
}

// (Made only in a unit that casts a double: 0.04 s of clang 14.)
template <unsigned K>
inline constexpr double_exponent_indices<K>
    double_exponent_index_table = make_double_exponent_indices<K>();

template <unsigned K>
constexpr std::uint32_t narrowing_index_of_double(std::uint64_t bits) noexcept {
  return double_exponent_index_table<K>.entries[bits >> 52] |
         static_cast<std::uint32_t>(bits >> (51U - K) & ((1U << K) - 1U) << 1) |
         static_cast<std::uint32_t>((bits & ((std::uint64_t{1} << (52U - K)) - 1U)) != 0);
}

template <class Format, rounding_rule Rule, overflow Overflow>
struct narrowing_codes {
  std::uint8_t codes[1U << (10U + index_mantissa_bits<Format>)];
};

// The magnitude code of the floats of one run (narrowing_index) whose exponent e lies between
// half the smallest subnormal and twice the largest finite value: the run's K mantissa bits give
// the significand 2^K + top, in units of 2^(e-K), then rounded by Rule on Format's grid at e
// (steps of 2^(max(e, emin) - M)), `sticky` for the run's floats but its first (which lie above
// it), `negative` for the runs of the negative sign (upward truncates their magnitudes). Past the
// largest finite code where the value overflows; 0 where it rounds to zero. (Without subnormals,
// e8m0, the code of 2^emin is 0, not 2^M; its ties go up, as docs/spec.md §7 says, since its
// steps are always 1, odd.)
template <class Format, rounding_rule Rule>
constexpr std::uint32_t run_magnitude_code(int e, std::uint32_t top, bool sticky,
                                           bool negative) noexcept {
  using info = format_info<Format>;
  constexpr int emin = info::min_normal_exponent;
  constexpr int bits = static_cast<int>(index_mantissa_bits<Format>);
  const int grid = e > emin ? e : emin;
  const auto shift = static_cast<std::uint32_t>(grid - e + bits - Format::mantissa_bits); // >= 1
  const std::uint32_t significand = (1U << bits) + top;
  std::uint32_t steps = significand >> shift;
  const std::uint32_t rest = significand & ((1U << shift) - 1U);
  const std::uint32_t half = 1U << (shift - 1U);
  const bool up = Rule == rounding_rule::nearest_even
                      ? rest > half || (rest == half && (sticky || (steps & 1U) != 0))
                  : Rule == rounding_rule::upward ? !negative && (rest != 0 || sticky)
                                                  : false; // toward_zero
  constexpr std::uint32_t first_normal = info::has_subnormals ? 0U : 1U << Format::mantissa_bits;
  return (static_cast<std::uint32_t>(grid - emin) << Format::mantissa_bits) + steps +
         (up ? 1U : 0U) - first_normal;
}

// The table: the runs of finite floats whose exponent lies between half the smallest subnormal
// and twice the largest finite value by run_magnitude_code, with the sign's bit; below that
// exponent every float but the zeros rounds as the smallest normal float does (to the zero of
// its sign, or upward from a positive one to the smallest subnormal; an unsigned format's every
// negative value but -0 gives its NaN, as that float does), above it (and where the
// rounded magnitude is past the largest finite code) to the overflow's result for its sign
// (toward zero, and upward from a negative value: the largest finite), and the zeros and the runs
// of exponent 255 (infinities, NaN) as the converter gives each (the lane kernel's fixed-point
// form, the scalar casts' step 2): 70 conversions, where converting every run's two floats, 1300
// of them for e4m3, took clang 14 half a second per table.
template <class Format, rounding_rule Rule, overflow Overflow>
constexpr narrowing_codes<Format, Rule, Overflow> make_narrowing_codes() noexcept {
  using info = format_info<Format>;
  constexpr int lowest = info::min_subnormal_exponent - 1 + 127;
  constexpr int highest = info::max_normal_exponent + 1 + 127;
  // The window's rows among float's normal exponents (e8m0's reaches both ends: its row 0, float's
  // subnormals, is converted run by run below).
  constexpr int first_row = lowest > 1 ? lowest : 1;
  constexpr int last_row = highest < 254 ? highest : 254;
  static_assert((lowest >= 2 && highest <= 253) || !info::has_subnormals,
                "a window of exponents inside float's");
  static_assert(Rule != rounding_rule::stochastic, "a code per run: not for stochastic rounding");
  constexpr step2_variant variant =
      is_scale_lane_target<Format> ? step2_variant::lane_exponent : step2_variant::lane_fixed_point;
  const auto code = [](std::uint32_t bits) {
    return static_cast<std::uint8_t>(
        portable::convert_float_lanes<Format, Rule, Overflow, variant>(bits, 0));
  };
  // (Runs of entries filled by plain loops, each assignment a step of the constant evaluation:
  // the index is sign << (9 + K) | exponent << (1 + K) | top << 1 | sticky.)
  constexpr std::uint32_t bits = index_mantissa_bits<Format>;
  constexpr std::uint32_t row = 1U << (1U + bits); // the entries of one exponent
  narrowing_codes<Format, Rule, Overflow> table{};
  for (std::uint32_t sign = 0; sign < 2; ++sign) {
    const std::uint32_t sign_bit = sign << 31;
    const std::uint32_t base = sign << (9U + bits);
    const std::uint8_t zero = code(sign_bit);
    const std::uint8_t tiny = code(sign_bit | 1U << 23); // the smallest normal float
    // (A value past the largest finite one: 2^(highest + 1), or FLT_MAX where that is no float.)
    const std::uint8_t overflowed = code(
        sign_bit | (highest < 254 ? static_cast<std::uint32_t>(highest + 1) << 23 : 0x7F7FFFFFU));
    for (std::uint32_t i = base; i < base + std::uint32_t{first_row} * row; ++i) {
      table.codes[i] = tiny;
    }
    table.codes[base] = zero;
    if constexpr (lowest < 1) {
      for (std::uint32_t run = 0; run < row; ++run) {
        table.codes[base + run] = code(sign_bit | run >> 1 << (23U - bits) | (run & 1U));
      }
    }
    for (std::uint32_t i = base + std::uint32_t{last_row + 1} * row; i < base + 255U * row; ++i) {
      table.codes[i] = overflowed;
    }
    for (std::uint32_t run = 0; run < row; ++run) {
      table.codes[base + 255U * row + run] =
          code(sign_bit | 255U << 23 | run >> 1 << (23U - bits) | (run & 1U));
    }
    for (int exponent = first_row; exponent <= last_row; ++exponent) {
      for (std::uint32_t run = 0; run < row; ++run) {
        const std::uint32_t magnitude =
            run_magnitude_code<Format, Rule>(exponent - 127, run >> 1, (run & 1U) != 0, sign != 0);
        table.codes[base + static_cast<std::uint32_t>(exponent) * row + run] =
            !info::is_signed && sign != 0       ? tiny // an unsigned format's NaN
            : magnitude > info::max_finite_code ? overflowed
            : magnitude == 0
                ? zero
                : static_cast<std::uint8_t>(magnitude | (sign != 0 ? info::sign_mask : 0U));
      }
    }
  }
  return table;
}

template <class Format, rounding_rule Rule, overflow Overflow>
inline constexpr narrowing_codes<Format, Rule, Overflow>
    narrowing_table = make_narrowing_codes<Format, Rule, Overflow>();

// binary16 sources: the same argument on binary16's bits, a table of 2 KiB read straight from
// the code, where widening to float first took 40 instructions (about 9 cycles per value in a
// loop left scalar, against 2 for float and bfloat16 sources; g++ 12, AMD Zen 5). A normal
// binary16's sign, exponent and 4 top mantissa bits, and whether its 6 low bits are zero, are
// exactly those of its float's run, so its float's entry serves its run. A subnormal one,
// m * 2^-24, lies in a run of 64 neighbours (m's top 4 bits), which rounds alike but for its
// first one wherever every midpoint (and so every value) of the format below 2^-14 is a multiple
// of 64 * 2^-24: where half the format's smallest subnormal is at least 2^-18 (all the named
// formats; a custom bias past that keeps the float table).
// (With K index bits: the top 6 + K bits, runs of 2^(10-K), half the smallest subnormal at least
// 2^(-14-K).)
template <class Format>
constexpr bool narrows_binary16_by_table = narrows_floats_by_table<Format> &&
                                           (format_info<Format>::min_subnormal_exponent - 1 >=
                                            -14 - static_cast<int>(index_mantissa_bits<Format>));

// The binary16 table's index: the top 6 + K bits, then whether the 10 - K below are not all 0
// (K = 4: the top 10 bits and the 6 below).
template <unsigned K>
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t
binary16_narrowing_index(std::uint32_t bits) noexcept {
  return (bits >> (10U - K)) << 1 |
         static_cast<std::uint32_t>((bits & ((1U << (10U - K)) - 1U)) != 0);
}

template <class Format, rounding_rule Rule, overflow Overflow>
struct binary16_narrowing_codes {
  std::uint8_t codes[1U << (7U + index_mantissa_bits<Format>)];
};

// Each run's entry from the float table: its first binary16 (index's last bit 0) or its last one
// (1), which rounds as every other one of the run.
template <class Format, rounding_rule Rule, overflow Overflow>
constexpr binary16_narrowing_codes<Format, Rule, Overflow>
make_binary16_narrowing_codes() noexcept {
  constexpr std::uint32_t bits = index_mantissa_bits<Format>;
  constexpr std::uint32_t low = (1U << (10U - bits)) - 1U; // a run's bits below the index
  binary16_narrowing_codes<Format, Rule, Overflow> table{};
  for (std::uint32_t index = 0; index < (1U << (7U + bits)); ++index) {
    const std::uint32_t half = (index >> 1) << (10U - bits) | ((index & 1U) != 0 ? low : 0U);
    table.codes[index] = narrowing_table<Format, Rule, Overflow>.codes[narrowing_index<bits>(
        portable::float_bits_of<formats::binary16>(half))];
  }
  return table;
}

template <class Format, rounding_rule Rule, overflow Overflow>
inline constexpr binary16_narrowing_codes<Format, Rule, Overflow>
    binary16_narrowing_table = make_binary16_narrowing_codes<Format, Rule, Overflow>();

// The code of the float `bits` (or of a double's, or a binary16's) where Format takes the table
// (host code: the tables live in host memory). (A class template whose other formats' member names
// no table: nvcc's front end instantiates the functions that a discarded branch names, and so made
// the tables of formats that take none.)
template <class Format, rounding_rule Rule, overflow Overflow,
          bool = narrows_floats_by_table<Format>&& Rule != rounding_rule::stochastic>
struct table_narrowing {
  static constexpr bool applies = false;
  static constexpr bool applies_to_binary16 = false;
  static constexpr std::uint8_t code(std::uint32_t /*bits*/) noexcept { return 0; }
  static constexpr std::uint8_t code_of_double(std::uint64_t /*bits*/) noexcept { return 0; }
  static constexpr std::uint8_t code_of_binary16(std::uint32_t /*bits*/) noexcept { return 0; }
};
template <class Format, rounding_rule Rule, overflow Overflow>
struct table_narrowing<Format, Rule, Overflow, true> {
  static constexpr unsigned bits_kept = index_mantissa_bits<Format>;
  static constexpr bool applies = true;
  static constexpr std::uint8_t code(std::uint32_t bits) noexcept {
    return narrowing_table<Format, Rule, Overflow>.codes[narrowing_index<bits_kept>(bits)];
  }
  static constexpr std::uint8_t code_of_double(std::uint64_t bits) noexcept {
    // (The index takes doubles below float's normals to its exponent 1: right where the format's
    // values and midpoints all lie above, all but e8m0, whose doubles take the generic steps.)
    static_assert(format_info<Format>::min_subnormal_exponent - 1 >= -126,
                  "values and midpoints among float's normals");
    return narrowing_table<Format, Rule, Overflow>.codes[narrowing_index_of_double<bits_kept>(
        bits)];
  }
  // (Only where narrows_binary16_by_table.)
  static constexpr bool applies_to_binary16 = narrows_binary16_by_table<Format>;
  static constexpr std::uint8_t code_of_binary16(std::uint32_t bits) noexcept {
    return binary16_narrowing_table<Format, Rule, Overflow>.codes
        [binary16_narrowing_index<bits_kept>(bits)];
  }
};

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_NARROWING_TABLE_HPP
