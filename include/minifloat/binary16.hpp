// minifloat: raw-bit carriers for IEEE binary16 and bfloat16, so that conversions from and to
// them are available on every compiler (the native _Float16 / __bf16 are used where present).
#ifndef MINIFLOAT_BINARY16_HPP
#define MINIFLOAT_BINARY16_HPP

#include "config.hpp"

namespace minifloat {

// The bits of an IEEE 754 binary16 value (sign, 5 exponent bits, 10 mantissa bits).
struct binary16_bits {
  std::uint16_t bits;
};

// The bits of a bfloat16 value (sign, 8 exponent bits, 7 mantissa bits): the top half of a float.
struct bfloat16_bits {
  std::uint16_t bits;
};

MINIFLOAT_HOST_DEVICE constexpr bool operator==(binary16_bits a, binary16_bits b) noexcept {
  return a.bits == b.bits;
}
MINIFLOAT_HOST_DEVICE constexpr bool operator!=(binary16_bits a, binary16_bits b) noexcept {
  return a.bits != b.bits;
}
MINIFLOAT_HOST_DEVICE constexpr bool operator==(bfloat16_bits a, bfloat16_bits b) noexcept {
  return a.bits == b.bits;
}
MINIFLOAT_HOST_DEVICE constexpr bool operator!=(bfloat16_bits a, bfloat16_bits b) noexcept {
  return a.bits != b.bits;
}

} // namespace minifloat

#endif // MINIFLOAT_BINARY16_HPP
