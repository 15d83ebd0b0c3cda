// minifloat: compile-time tables, generated from the converter (never typed in by hand).
#ifndef MINIFLOAT_TABLES_HPP
#define MINIFLOAT_TABLES_HPP

#include <array>
#include <cstddef>

#include "detail/value_traits.hpp"

namespace minifloat {
namespace detail {

template <class Format>
MINIFLOAT_BIT_CAST_CONSTEXPR std::array<float, 256> make_decode_table() noexcept {
  std::array<float, 256> table{};
  for (std::size_t code = 0; code < table.size(); ++code) {
    // Widening is exact (SPEC §3), so the rounding and overflow rules never act here.
    table[code] = value_traits<float>::from_code(
        pack<formats::binary32, rounding_rule::nearest_even, overflow::non_saturating>(
            unpack_code<Format>(static_cast<std::uint8_t>(code))));
  }
  return table;
}

template <class Format>
inline constexpr std::array<float, 256> decode_table_for = make_decode_table<Format>();

// The code of every 8-bit code of Format converted to the wider format To (binary16,
// bfloat16, binary32), for the array kernels.
template <class Format, class To>
constexpr std::array<typename format_info<To>::storage_type, 256> make_code_table() noexcept {
  std::array<typename format_info<To>::storage_type, 256> table{};
  for (std::size_t code = 0; code < table.size(); ++code) {
    table[code] = pack<To, rounding_rule::nearest_even, overflow::non_saturating>(
        unpack_code<Format>(static_cast<std::uint8_t>(code)));
  }
  return table;
}
template <class Format, class To>
inline constexpr std::array<typename format_info<To>::storage_type, 256>
    code_table_for = make_code_table<Format, To>();

} // namespace detail

// The float value of every code of the 8-bit type T, built at compile time:
// decode_table<e4m3>[0x7E] == 448.0f. NaN codes hold a quiet NaN with the code's sign.
template <class T>
inline constexpr const std::array<float, 256>& decode_table =
    detail::decode_table_for<typename T::format>;

} // namespace minifloat

#endif // MINIFLOAT_TABLES_HPP
