// minifloat: the scalar casts' tables for float, binary16 and double -> a format of at most 5
// mantissa bits with subnormals, or e8m0, one for each rounding but stochastic and each overflow
// rule (convert_value): each float's code looked up by its top 9 bits (the row: sign, exponent),
// its next 4 (more past 3 mantissa bits) and whether the bits below them are all zero (the
// column); a double's by the same row and column of its float rounded to odd, its row from a
// table of its own; a binary16's in a table of its own by its top 6 bits, its next 4 and whether
// the 6 below are zero. A load where the fixed-point lane kernel took 32 instructions.
#ifndef MINIFLOAT_DETAIL_NARROWING_TABLE_HPP
#define MINIFLOAT_DETAIL_NARROWING_TABLE_HPP

#include <cstddef>
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

// The mantissa bits K a run keeps: 4 for every format of at most 3 mantissa bits (one layout,
// 16 KiB tables), M + 1 above (e3m4: 5, 32 KiB; e2m5: 6, 64 KiB).
template <class Format>
constexpr unsigned index_mantissa_bits = Format::mantissa_bits <= 3
                                             ? 4U
                                             : static_cast<unsigned>(Format::mantissa_bits) + 1U;

// A table is made as rows of 2^(K + 1) codes, one row per sign and exponent (a float's top 9
// bits, a binary16's top 6), one column per run of the row: its K top mantissa bits, then
// whether the bits below them are not all 0. (Rows because a constant evaluation copies a row in
// one step where it assigns a code per step: the rows of tiny and of overflowing floats, most of
// a table, cost 500 steps, not 30,000.)
template <class Format>
struct narrowing_row {
  std::uint8_t codes[1U << (1U + index_mantissa_bits<Format>)];
};

// The casts read a table as one flat array of its bytes, by the index row * 2^(K + 1) + column,
// which a load takes in one instruction (rows[row].codes[column] took 3 more: 0.60 -> 0.77 ns
// per float in a loop left scalar with g++ 12, 0.51 -> 0.65 with clang 14, on Zen 5), bit-cast
// from the rows at compile time (the compiler copies the bytes: about 7 ms of g++ 12 or clang 14
// per 16 KiB, where assigning the codes one at a time took clang 25 ms; docs/performance.md,
// stop 68; a constexpr bit cast, as the lane kernels' constants need already).
template <std::size_t Size>
struct flat_codes {
  std::uint8_t codes[Size];
};

template <class Rows>
constexpr flat_codes<sizeof(Rows)> read_layout(const Rows& rows) noexcept {
  return bit_cast<flat_codes<sizeof(Rows)>>(rows);
}

// The column of a source's run, from the source's bits (its mantissa the lowest MantissaBits):
// the mantissa's top K bits, then whether the MantissaBits - K below are not all 0 (K = 4, float:
// bits 19 to 22, then bits 0 to 18).
template <unsigned K, unsigned MantissaBits, class Bits>
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t narrowing_column(Bits bits) noexcept {
  constexpr unsigned below = MantissaBits - K;
  return (static_cast<std::uint32_t>(bits >> (below - 1U)) & (((1U << K) - 1U) << 1)) |
         static_cast<std::uint32_t>((bits & ((Bits{1} << below) - 1U)) != 0);
}

// The index row * 2^(K + 1) + column of a float's bits (a binary16's: MantissaBits = 10), whose
// bits above the mantissa are its row: all its bits but the MantissaBits - K lowest, then whether
// those are not all 0. (Written so, not as the row shifted or-ed with narrowing_column: g++ 12
// leaves that 4 instructions longer, 0.60 -> 0.81 ns per float in a loop left scalar on Zen 5.)
template <unsigned K, unsigned MantissaBits>
MINIFLOAT_HOST_DEVICE constexpr std::uint32_t narrowing_index(std::uint32_t bits) noexcept {
  constexpr unsigned below = MantissaBits - K;
  return (bits >> below) << 1 | static_cast<std::uint32_t>((bits & ((1U << below) - 1U)) != 0);
}

// A double's row: the float table's row of the double rounded to odd into float (whose code is the
// double's, convert_value), read without making that float, by the double's top 12 bits, in
// place in the index (times 2^(K + 1)); its column takes the top K of its 52 mantissa bits. (A
// table, not the clamps computed: g++ 12 made the index 24 instructions and a branch, 5.8 cycles
// per cast on Zen 5; by the table it is 11 and no branch, docs/performance.md, stop 67.)
template <unsigned K>
struct double_float_rows {
  std::uint16_t offsets[1U << 12];
};

// Entry s·2^11 + e: (s·2^8 + the float exponent) · 2^(K + 1), e rebiased from 1023 to 127; 0
// for e = 0 (the zeros, and the subnormal doubles, which have a bit among the mantissa's); 1 for
// the other doubles below float's normals (every entry of exponent 1 is the result of a value too
// small for the format, as for the tiny float that rounding to odd makes); 254 from 2^128 on
// (every entry is the overflow's result, as for FLT_MAX); 255 for infinities and NaNs (e = 2047).
template <unsigned K>
constexpr double_float_rows<K> make_double_float_rows() noexcept {
  double_float_rows<K> table{};
  for (std::uint32_t top = 0; top < (1U << 12); ++top) {
    const std::uint32_t exponent = top & 0x7FFU;
    std::uint32_t rebiased = exponent <= 1023U - 127U ? 1U : exponent - (1023U - 127U);
    rebiased = exponent == 0 ? 0U : rebiased > 254U ? 254U : rebiased;
    rebiased = exponent == 0x7FFU ? 255U : rebiased;
    table.offsets[top] = static_cast<std::uint16_t>(((top >> 11) << 8 | rebiased) << (1U + K));
  }
  return table;
}

// (Made only in a unit that casts a double: 0.04 s of clang 14.)
template <unsigned K>
inline constexpr double_float_rows<K> double_float_row_table = make_double_float_rows<K>();

// The magnitude code of the floats of one run whose exponent e lies between half the smallest
// subnormal and twice the largest finite value: the run's K mantissa bits give the significand
// 2^K + top, in units of 2^(e-K), then rounded by Rule on Format's grid at e (steps of
// 2^(max(e, emin) - M)), `sticky` for the run's floats but its first (which lie above it); Rule
// rounds the magnitude (upward: away from zero, the positive values' rounding; the negative ones
// truncate). Past the largest finite code where the value overflows; 0 where it rounds to zero.
// (Without subnormals, e8m0, the code of 2^emin is 0, not 2^M; its ties go up, as docs/spec.md §7
// says, since its steps are always 1, odd.)
template <class Format, rounding_rule Rule>
constexpr std::uint32_t run_magnitude_code(int e, std::uint32_t top, bool sticky) noexcept {
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
                  : Rule == rounding_rule::upward ? rest != 0 || sticky
                                                  : false; // toward_zero
  constexpr std::uint32_t first_normal = info::has_subnormals ? 0U : 1U << Format::mantissa_bits;
  return (static_cast<std::uint32_t>(grid - emin) << Format::mantissa_bits) + steps +
         (up ? 1U : 0U) - first_normal;
}

// The float exponents (biased) of the window: from half the smallest subnormal to twice the
// largest finite value, among float's normal exponents (e8m0's reaches both ends: its row 0,
// float's subnormals, is converted run by run).
template <class Format>
struct narrowing_window {
  static constexpr int lowest = format_info<Format>::min_subnormal_exponent - 1 + 127;
  static constexpr int highest = format_info<Format>::max_normal_exponent + 1 + 127;
  static constexpr int first_row = lowest > 1 ? lowest : 1;
  static constexpr int last_row = highest < 254 ? highest : 254;
};

// The window's magnitude codes, by rows, the largest finite code + 1 for every one past it: one
// set for each rounding of the magnitude, shared by the tables of both overflow rules and signs
// (so made at most three times per format, where each table made its own twice).
template <class Format, rounding_rule Rule>
struct window_magnitudes {
  narrowing_row<Format>
      rows[narrowing_window<Format>::last_row - narrowing_window<Format>::first_row + 1];
};

template <class Format, rounding_rule Rule>
constexpr window_magnitudes<Format, Rule> make_window_magnitudes() noexcept {
  using window = narrowing_window<Format>;
  constexpr std::uint32_t past_largest = format_info<Format>::max_finite_code + 1U;
  constexpr std::uint32_t columns = 1U << (1U + index_mantissa_bits<Format>);
  window_magnitudes<Format, Rule> table{};
  for (int exponent = window::first_row; exponent <= window::last_row; ++exponent) {
    for (std::uint32_t column = 0; column < columns; ++column) {
      const std::uint32_t magnitude =
          run_magnitude_code<Format, Rule>(exponent - 127, column >> 1, (column & 1U) != 0);
      table.rows[exponent - window::first_row].codes[column] =
          static_cast<std::uint8_t>(magnitude < past_largest ? magnitude : past_largest);
    }
  }
  return table;
}

template <class Format, rounding_rule Rule>
inline constexpr window_magnitudes<Format, Rule>
    window_magnitude_table = make_window_magnitudes<Format, Rule>();

template <class Format, rounding_rule Rule, overflow Overflow>
struct narrowing_codes {
  narrowing_row<Format> rows[512]; // by a float's sign and exponent
};

// The table: the window's rows from its magnitudes, with the sign's bit; below the window every
// float but the zeros rounds as the smallest normal float does (to the zero of its sign, or upward
// from a positive one to the smallest subnormal; an unsigned format's every negative value but -0
// gives its NaN, as that float does), above it (and where the rounded magnitude is past the
// largest finite code) to the overflow's result for its sign (toward zero, and upward from a
// negative value: the largest finite), and the zeros and the rows of exponent 255 (infinities,
// NaN) as the converter gives each (the lane kernel's fixed-point form, the scalar casts' step 2):
// 70 conversions, where converting every run's two floats, 1300 of them for e4m3, took clang 14
// half a second per table.
template <class Format, rounding_rule Rule, overflow Overflow>
constexpr narrowing_codes<Format, Rule, Overflow> make_narrowing_codes() noexcept {
  using info = format_info<Format>;
  using window = narrowing_window<Format>;
  static_assert((window::lowest >= 2 && window::highest <= 253) || !info::has_subnormals,
                "a window of exponents inside float's");
  static_assert(Rule != rounding_rule::stochastic, "a code per run: not for stochastic rounding");
  constexpr step2_variant variant =
      is_scale_lane_target<Format> ? step2_variant::lane_exponent : step2_variant::lane_fixed_point;
  const auto code = [](std::uint32_t bits) {
    return static_cast<std::uint8_t>(
        portable::convert_float_lanes<Format, Rule, Overflow, variant>(bits, 0));
  };
  constexpr std::uint32_t bits = index_mantissa_bits<Format>;
  constexpr std::uint32_t columns = 1U << (1U + bits);
  // A run's first float and its last, by the column.
  const auto run_float = [](std::uint32_t sign_and_exponent, std::uint32_t column) {
    return sign_and_exponent << 23 | (column >> 1) << (23U - bits) |
           ((column & 1U) != 0 ? (1U << (23U - bits)) - 1U : 0U);
  };
  narrowing_codes<Format, Rule, Overflow> table{};
  for (std::uint32_t sign = 0; sign < 2; ++sign) {
    const std::uint32_t sign_bit = sign << 31;
    const std::uint32_t first = sign << 8; // the sign's first row
    const std::uint8_t zero = code(sign_bit);
    const std::uint8_t tiny = code(sign_bit | 1U << 23); // the smallest normal float
    // (A value past the largest finite one: 2^(highest + 1), or FLT_MAX where that is no float.)
    const std::uint8_t overflowed = code(
        sign_bit | (window::highest < 254 ? static_cast<std::uint32_t>(window::highest + 1) << 23
                                          : 0x7F7FFFFFU));
    narrowing_row<Format> tiny_row{};
    narrowing_row<Format> overflowed_row{};
    for (std::uint32_t column = 0; column < columns; ++column) {
      tiny_row.codes[column] = tiny;
      overflowed_row.codes[column] = overflowed;
    }
    for (int row = 0; row < window::first_row; ++row) {
      table.rows[first + static_cast<std::uint32_t>(row)] = tiny_row;
    }
    table.rows[first].codes[0] = zero;
    if constexpr (window::lowest < 1) {
      for (std::uint32_t column = 1; column < columns; ++column) {
        table.rows[first].codes[column] = code(run_float(first, column));
      }
    }
    // (Upward takes a negative magnitude toward zero.)
    constexpr rounding_rule negative_rule =
        Rule == rounding_rule::upward ? rounding_rule::toward_zero : Rule;
    const auto& magnitudes = sign == 0 ? window_magnitude_table<Format, Rule>.rows
                                       : window_magnitude_table<Format, negative_rule>.rows;
    for (int row = window::first_row; row <= window::last_row; ++row) {
      narrowing_row<Format>& codes = table.rows[first + static_cast<std::uint32_t>(row)];
      if (!info::is_signed && sign != 0) {
        codes = tiny_row; // an unsigned format's NaN
        continue;
      }
      const narrowing_row<Format>& magnitude = magnitudes[row - window::first_row];
      for (std::uint32_t column = 0; column < columns; ++column) {
        const std::uint32_t m = magnitude.codes[column];
        codes.codes[column] =
            m > info::max_finite_code ? overflowed
            : m == 0                  ? zero
                     : static_cast<std::uint8_t>(m | (sign != 0 ? info::sign_mask : 0U));
      }
    }
    for (int row = window::last_row + 1; row < 255; ++row) {
      table.rows[first + static_cast<std::uint32_t>(row)] = overflowed_row;
    }
    for (std::uint32_t column = 0; column < columns; ++column) {
      table.rows[first + 255U].codes[column] = code(run_float(first + 255U, column));
    }
  }
  return table;
}

template <class Format, rounding_rule Rule, overflow Overflow>
inline constexpr narrowing_codes<Format, Rule, Overflow>
    narrowing_rows = make_narrowing_codes<Format, Rule, Overflow>();

template <class Format, rounding_rule Rule, overflow Overflow>
inline constexpr auto narrowing_table = read_layout(narrowing_rows<Format, Rule, Overflow>);

// binary16 sources: the same argument on binary16's bits, a table of 2 KiB read straight from
// the code, where widening to float first took 40 instructions (about 9 cycles per value in a
// loop left scalar, against 2 for float and bfloat16 sources; g++ 12, AMD Zen 5). A normal
// binary16's sign, exponent and K top mantissa bits, and whether its 10 - K low bits are zero,
// are exactly those of its float's run: its row is its float's (exponent + 112), and a NaN's or
// an infinity's the float row 255. A subnormal one, m * 2^-24, lies in a run of 2^(10-K)
// neighbours (m's top K bits), which rounds alike but for its first one wherever every midpoint
// (and so every value) of the format below 2^-14 is a multiple of 2^(10-K) * 2^-24: where half
// the format's smallest subnormal is at least 2^(-14-K) (K = 4: 2^-18; all the named formats; a
// custom bias past that keeps the float table).
template <class Format>
constexpr bool narrows_binary16_by_table = narrows_floats_by_table<Format> &&
                                           (format_info<Format>::min_subnormal_exponent - 1 >=
                                            -14 - static_cast<int>(index_mantissa_bits<Format>));

template <class Format, rounding_rule Rule, overflow Overflow>
struct binary16_narrowing_codes {
  narrowing_row<Format> rows[64]; // by a binary16's sign and exponent
};

template <class Format, rounding_rule Rule, overflow Overflow>
constexpr binary16_narrowing_codes<Format, Rule, Overflow>
make_binary16_narrowing_codes() noexcept {
  constexpr std::uint32_t bits = index_mantissa_bits<Format>;
  constexpr std::uint32_t columns = 1U << (1U + bits);
  const auto& floats = narrowing_rows<Format, Rule, Overflow>.rows;
  binary16_narrowing_codes<Format, Rule, Overflow> table{};
  for (std::uint32_t sign = 0; sign < 2; ++sign) {
    for (std::uint32_t exponent = 1; exponent < 32; ++exponent) {
      table.rows[sign << 5 | exponent] =
          floats[sign << 8 | (exponent == 31 ? 255U : exponent + 112U)];
    }
    // The subnormals' row: each run's entry from its float's, by its first binary16 (column's
    // last bit 0) or its last one (1), which rounds as every other one of the run.
    for (std::uint32_t column = 0; column < columns; ++column) {
      const std::uint32_t m =
          (column >> 1) << (10U - bits) | ((column & 1U) != 0 ? (1U << (10U - bits)) - 1U : 0U);
      const std::uint32_t float_bits = portable::float_bits_of<formats::binary16>(sign << 15 | m);
      table.rows[sign << 5].codes[column] =
          floats[float_bits >> 23].codes[narrowing_column<bits, 23>(float_bits)];
    }
  }
  return table;
}

template <class Format, rounding_rule Rule, overflow Overflow>
inline constexpr auto
    binary16_narrowing_table = read_layout(make_binary16_narrowing_codes<Format, Rule, Overflow>());

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
    return narrowing_table<Format, Rule, Overflow>.codes[narrowing_index<bits_kept, 23>(bits)];
  }
  static constexpr std::uint8_t code_of_double(std::uint64_t bits) noexcept {
    // (The row takes doubles below float's normals to its exponent 1: right where the format's
    // values and midpoints all lie above, all but e8m0, whose doubles take the generic steps.)
    static_assert(format_info<Format>::min_subnormal_exponent - 1 >= -126,
                  "values and midpoints among float's normals");
    return narrowing_table<Format, Rule, Overflow>.codes
        [double_float_row_table<bits_kept>.offsets[bits >> 52] |
         narrowing_column<bits_kept, 52>(bits)];
  }
  // (Only where narrows_binary16_by_table.)
  static constexpr bool applies_to_binary16 = narrows_binary16_by_table<Format>;
  static constexpr std::uint8_t code_of_binary16(std::uint32_t bits) noexcept {
    return binary16_narrowing_table<Format, Rule, Overflow>.codes[narrowing_index<bits_kept, 10>(
        bits)];
  }
};

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_NARROWING_TABLE_HPP
