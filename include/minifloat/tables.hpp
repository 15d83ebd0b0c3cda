// minifloat: compile-time tables, generated from the converter (never typed in by hand).
#ifndef MINIFLOAT_TABLES_HPP
#define MINIFLOAT_TABLES_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "detail/value_traits.hpp"

namespace minifloat {
namespace detail {

template <class Format>
constexpr std::array<float, 256> make_decode_table() noexcept {
  std::array<float, 256> table{};
  for (std::size_t code = 0; code < table.size(); ++code) {
    // Widening is exact (docs/spec.md §3), so the rounding and overflow rules never act here.
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

// code_table_for's 16-bit results split into bytes, for the kernels that look bytes up in
// registers (AVX-512 VBMI, NEON TBL): result c is low[c] | high[c] << 8.
struct byte_plane_table {
  alignas(64) std::array<std::uint8_t, 256> low;
  alignas(64) std::array<std::uint8_t, 256> high;
  // Whether code c | 0x80 gives code c's result with the top bit set, for every c < 0x80: the
  // sign bit of every signed format but the fnuz ones (their 0x80 is NaN, not -0). Then a
  // lookup of the low 7 bits and an OR of the sign give every result.
  bool sign_symmetric;
};
template <class Format, class To>
constexpr byte_plane_table make_byte_plane_table() noexcept {
  static_assert(sizeof(typename format_info<To>::storage_type) == 2, "16-bit results");
  constexpr auto& results = code_table_for<Format, To>;
  byte_plane_table planes{};
  planes.sign_symmetric = true;
  for (std::size_t code = 0; code < 256; ++code) {
    planes.low[code] = static_cast<std::uint8_t>(results[code] & 0xFFU);
    planes.high[code] = static_cast<std::uint8_t>(results[code] >> 8);
    if (code >= 0x80 && results[code] != (results[code - 0x80] | 0x8000U)) {
      planes.sign_symmetric = false;
    }
  }
  return planes;
}
template <class Format, class To>
inline constexpr byte_plane_table byte_planes_for = make_byte_plane_table<Format, To>();

// What the byte-lookup decoders (AVX-512 VBMI, NEON TBL) look up for results of type To
// (float, binary16_bits, bfloat16_bits): every 8-bit format's values are bfloat16 values, so a
// float result is its bfloat16 pattern << 16, from the bfloat16 planes; 16-bit results come from
// their own. result_bits is what a result is written as.
template <class Format, class To>
struct byte_lookup_for {
  static constexpr bool to_float = std::is_same<To, float>::value;
  using result_bits = std::conditional_t<to_float, std::uint32_t, std::uint16_t>;
  using looked_up =
      std::conditional_t<to_float, formats::bfloat16, typename value_traits<To>::format>;
  static constexpr const byte_plane_table& planes = byte_planes_for<Format, looked_up>;
};

} // namespace detail

// The float value of every code of the 8-bit type T, built at compile time:
// decode_table<e4m3>[0x7E] == 448.0f. NaN codes hold a quiet NaN with the code's sign.
template <class T>
inline constexpr const std::array<float, 256>& decode_table =
    detail::decode_table_for<typename T::format>;

} // namespace minifloat

#endif // MINIFLOAT_TABLES_HPP
