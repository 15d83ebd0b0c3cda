// minifloat: packed storage of the 4- and 6-bit MX elements (docs/spec.md §7). The value types
// e2m1, e2m3 and e3m2 take a byte each; stored tensors hold them tighter, in one of these
// layouts, each a named convention of the ecosystem:
//   e2m1 (FP4), two per byte: element 2i in bits 0-3, element 2i + 1 in bits 4-7 (PyTorch
//       float4_e2m1fn_x2, ONNX, CUDA __nv_fp4x2, gpt-oss).  {1.0, -6.0} is 0b1111'0010 = 0xF2.
//   e2m3, e3m2 (FP6), four per three bytes: element i in bits [6i, 6i + 6) of a little-endian
//       bit stream (ONNX).
//   ggml / GGUF block_mxfp4 (microscaling.hpp): split halves, element j and j + 16 in one byte.
//
//   pack(values, n, packed) / unpack(packed, n, values)        the layout alone
//   convert_to_packed<T, R>(src, n, packed)                    float, binary16_bits,
//                                                              bfloat16_bits -> packed T
//   convert_from_packed<T>(packed, n, dst)                     packed T -> float, binary16_bits,
//                                                              bfloat16_bits, exact
// n counts elements and must fill whole bytes (FP4: even; FP6: a multiple of 4); packed holds
// packed_bytes<T>(n) bytes. The conversions take bulk.hpp's array paths, in pieces that stay in
// the first-level cache, so they give the scalar conversions' codes bit for bit.
#ifndef MINIFLOAT_PACKED_HPP
#define MINIFLOAT_PACKED_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bulk.hpp"

namespace minifloat {

namespace detail {
template <class T>
constexpr int element_bits = format_info<typename value_traits<T>::format>::total_bits;
} // namespace detail

// The types packed storage holds: the 4- and 6-bit formats.
template <class T>
constexpr bool is_packable = detail::is_8bit_type<T> &&
                             (detail::element_bits<T> == 4 || detail::element_bits<T> == 6);

// Elements per group of whole bytes, and the group's bytes: FP4 2 in 1, FP6 4 in 3.
template <class T>
constexpr std::size_t packed_group_elements = detail::element_bits<T> == 4 ? 2 : 4;
template <class T>
constexpr std::size_t packed_group_bytes = detail::element_bits<T> == 4 ? 1 : 3;

// The bytes n elements take packed (n a multiple of packed_group_elements<T>).
template <class T>
constexpr std::size_t packed_bytes(std::size_t n) noexcept {
  static_assert(is_packable<T>, "packed_bytes: e2m1, e2m3 or e3m2");
  return n / packed_group_elements<T> * packed_group_bytes<T>;
}

namespace detail {

// One group: codes (each below 2^bits) into bytes, and back.
template <class T>
constexpr void pack_group(const std::uint8_t* codes, std::uint8_t* bytes) noexcept {
  if constexpr (element_bits<T> == 4) {
    bytes[0] = static_cast<std::uint8_t>(codes[0] | codes[1] << 4);
  } else {
    const std::uint32_t stream = std::uint32_t{codes[0]} | std::uint32_t{codes[1]} << 6 |
                                 std::uint32_t{codes[2]} << 12 | std::uint32_t{codes[3]} << 18;
    bytes[0] = static_cast<std::uint8_t>(stream);
    bytes[1] = static_cast<std::uint8_t>(stream >> 8);
    bytes[2] = static_cast<std::uint8_t>(stream >> 16);
  }
}
template <class T>
constexpr void unpack_group(const std::uint8_t* bytes, std::uint8_t* codes) noexcept {
  if constexpr (element_bits<T> == 4) {
    codes[0] = static_cast<std::uint8_t>(bytes[0] & 0x0FU);
    codes[1] = static_cast<std::uint8_t>(bytes[0] >> 4);
  } else {
    const std::uint32_t stream =
        std::uint32_t{bytes[0]} | std::uint32_t{bytes[1]} << 8 | std::uint32_t{bytes[2]} << 16;
    for (int i = 0; i < 4; ++i) {
      codes[i] = static_cast<std::uint8_t>((stream >> (6 * i)) & 0x3FU);
    }
  }
}

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {
// FP4 codes two per byte on the active path's kernel (pack_nibble_pairs); FP6 four per three
// bytes, group by group.
template <class T>
void pack_unchecked(const T* values, std::size_t n, std::uint8_t* packed) noexcept {
  static_assert(sizeof(T) == 1, "a value is its code");
  if constexpr (element_bits<T> == 4) {
    const auto* codes = reinterpret_cast<const std::uint8_t*>(values);
    with_kernels(active_path(),
                 [&](auto kernels) { decltype(kernels)::pack_nibble_pairs(codes, n, packed); });
  } else {
    constexpr std::size_t group = packed_group_elements<T>;
    for (std::size_t i = 0; i < n; i += group) {
      std::uint8_t codes[4] = {};
      for (std::size_t j = 0; j < group; ++j) {
        codes[j] = values[i + j].bits();
      }
      pack_group<T>(codes, packed + i / group * packed_group_bytes<T>);
    }
  }
}
} // namespace MINIFLOAT_SETTINGS_NAMESPACE

template <class T>
void unpack_unchecked(const std::uint8_t* packed, std::size_t n, T* values) noexcept {
  constexpr std::size_t group = packed_group_elements<T>;
  for (std::size_t i = 0; i < n; i += group) {
    std::uint8_t codes[4] = {};
    unpack_group<T>(packed + i / group * packed_group_bytes<T>, codes);
    for (std::size_t j = 0; j < group; ++j) {
      values[i + j] = T::from_bits(codes[j]);
    }
  }
}

// Elements converted per piece: the codes stay in the first-level cache between the steps.
constexpr std::size_t packed_piece = 1024;

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// The checks of a packed call: n fills whole bytes, no null pointer with elements to touch, and
// the written array does not overlap the read one.
template <class T>
void check_packed(const char* function, std::size_t n, const array_argument& read,
                  const array_argument& written) {
  if (n % packed_group_elements<T> != 0) {
    refuse(function, element_bits<T> == 4 ? "n is odd (two FP4 elements fill a byte)"
                                          : "n is not a multiple of 4 (four FP6 elements fill "
                                            "three bytes)");
  }
  check_not_null(function, read.data == nullptr, n, read.name);
  check_not_null(function, written.data == nullptr, n, written.name);
  check_no_overlap(function, written, read);
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

// Stores n values of T in packed_bytes<T>(n) bytes in T's layout (above).
template <class T>
void pack(const T* values, std::size_t n, std::uint8_t* packed) {
  static_assert(is_packable<T>, "pack: e2m1, e2m3 or e3m2 values");
  detail::check_packed<T>("pack", n, {values, n, "values"}, {packed, packed_bytes<T>(n), "packed"});
  detail::pack_unchecked(values, n, packed);
}

// Reads n values of T from packed_bytes<T>(n) bytes in T's layout.
template <class T>
void unpack(const std::uint8_t* packed, std::size_t n, T* values) {
  static_assert(is_packable<T>, "unpack: e2m1, e2m3 or e3m2 values");
  detail::check_packed<T>("unpack", n, {packed, packed_bytes<T>(n), "packed"},
                          {values, n, "values"});
  detail::unpack_unchecked(packed, n, values);
}

// Narrows n values (float, binary16_bits, bfloat16_bits) to T with rounding R, packed: byte for
// byte pack() of convert<R>(src[i]) (the MX elements always saturate; NaN gives +max).
template <class T, rounding R = rounding::nearest_even, class From>
void convert_to_packed(const From* src, std::size_t n, std::uint8_t* packed) {
  static_assert(is_packable<T>, "convert_to_packed: the target is e2m1, e2m3 or e3m2");
  static_assert(detail::value_traits<From>::is_known && !detail::is_8bit_type<From>,
                "convert_to_packed: the source is float, double, binary16_bits or bfloat16_bits");
  detail::check_packed<T>("convert_to_packed", n, {src, n * sizeof(From), "src"},
                          {packed, packed_bytes<T>(n), "packed"});
  T codes[detail::packed_piece];
  for (std::size_t i = 0; i < n; i += detail::packed_piece) {
    const std::size_t m = n - i < detail::packed_piece ? n - i : detail::packed_piece;
    detail::narrow_array<detail::rule_of(R), overflow::saturate>(src + i, m, codes,
                                                                 detail::no_random_bits{});
    detail::pack_unchecked(codes, m, packed + packed_bytes<T>(i));
  }
}

// Widens n packed values of T to float, binary16_bits or bfloat16_bits, exactly.
template <class T, class To>
void convert_from_packed(const std::uint8_t* packed, std::size_t n, To* dst) {
  static_assert(is_packable<T>, "convert_from_packed: the source is e2m1, e2m3 or e3m2");
  static_assert(detail::value_traits<To>::is_known && !detail::is_8bit_type<To> &&
                    !std::is_same<To, double>::value,
                "convert_from_packed: the target is float, binary16_bits or bfloat16_bits");
  detail::check_packed<T>("convert_from_packed", n, {packed, packed_bytes<T>(n), "packed"},
                          {dst, n * sizeof(To), "dst"});
  T codes[detail::packed_piece];
  for (std::size_t i = 0; i < n; i += detail::packed_piece) {
    const std::size_t m = n - i < detail::packed_piece ? n - i : detail::packed_piece;
    detail::unpack_unchecked(packed + packed_bytes<T>(i), m, codes);
    detail::widen_array(codes, m, dst + i);
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace minifloat

#endif // MINIFLOAT_PACKED_HPP
