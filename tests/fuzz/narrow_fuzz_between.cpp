// narrow_fuzz's sources that no array function takes: the bytes as codes of each of the nine
// 8-bit formats, and as 32- and 64-bit integers, through the scalar conversions (convert in
// every rounding and overflow mode, stochastic_cast, the constructor) to the input's format,
// against the reference rounding of the exact value. A translation unit of its own, compiled in
// parallel with the others.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "narrow_checks.hpp"
#include "../ieee.hpp"

namespace {

using minifloat::overflow;
using minifloat::rounding;

// The random bits for element i: four input bytes from i on, wrapping around.
std::uint32_t word_at(const std::uint8_t* bytes, std::size_t size, std::size_t i) {
  std::uint32_t word = 0;
  for (std::size_t b = 0; b < 4; ++b) {
    word = (word << 8U) | bytes[(i + b) % size];
  }
  return word;
}

// convert, stochastic_cast and the constructor of x against the reference rounding of `value`,
// which must be x's exact value.
template <class To, class From>
void check_scalar(From x, double value, const reference::narrower& ref, std::uint32_t bits,
                  std::size_t i) {
  const auto compare = [&](const char* what, unsigned got, reference::mode mode, bool saturate) {
    const unsigned expected = ref.round(value, mode, saturate, bits);
    if (got != expected) {
      narrow_fuzz::fail(what, "scalar", i, got, expected);
    }
  };
  using reference::mode;
  compare("convert nearest", minifloat::convert<To>(x).bits(), mode::nearest_even, false);
  if constexpr (std::is_same<To, From>::value) {
    // The copy constructor: the same bits, a NaN's payload included (convert makes it canonical).
    if (To(x).bits() != x.bits()) {
      narrow_fuzz::fail("copy", "scalar", i, To(x).bits(), x.bits());
    }
  } else {
    compare("constructor", To(x).bits(), mode::nearest_even, false);
  }
  compare("saturate_cast", minifloat::saturate_cast<To>(x).bits(), mode::nearest_even, true);
  compare("convert toward_zero", minifloat::convert<To, rounding::toward_zero>(x).bits(),
          mode::toward_zero, false);
  compare("convert toward_zero saturate",
          minifloat::convert<To, rounding::toward_zero, overflow::saturate>(x).bits(),
          mode::toward_zero, true);
  compare("convert upward", minifloat::convert<To, rounding::upward>(x).bits(), mode::upward,
          false);
  compare("convert upward saturate",
          minifloat::convert<To, rounding::upward, overflow::saturate>(x).bits(), mode::upward,
          true);
  compare("stochastic_cast", minifloat::stochastic_cast<To>(x, bits).bits(), mode::stochastic,
          false);
  compare("stochastic_cast saturate",
          minifloat::stochastic_cast<To, overflow::saturate>(x, bits).bits(), mode::stochastic,
          true);
}

// An integer's exact value need not be a double; where it is not, the reference's answer is
// still certain if the double and its two neighbours round alike (the rounding is monotonic).
template <class To, class Int>
void check_integer(Int x, const reference::narrower& ref, std::uint32_t bits, std::size_t i) {
  const auto d = static_cast<double>(x);
  if (static_cast<long double>(d) != static_cast<long double>(x)) {
    for (reference::mode mode : {reference::mode::nearest_even, reference::mode::toward_zero,
                                 reference::mode::upward, reference::mode::stochastic}) {
      const unsigned at = ref.round(d, mode, false, bits);
      if (ref.round(std::nextafter(d, -ieee::positive_infinity<float>()), mode, false, bits) !=
              at ||
          ref.round(std::nextafter(d, ieee::positive_infinity<float>()), mode, false, bits) != at) {
        return; // too close to a boundary to judge through a double
      }
    }
  }
  check_scalar<To>(x, d, ref, bits, i);
}

} // namespace

void check_between_formats(unsigned format_index, const std::uint8_t* bytes, std::size_t size) {
  fuzz::with_format(format_index, [&](auto target, const reference::format& to_format) {
    using To = decltype(target);
    const reference::narrower ref(to_format);
    // The first 32 bytes: there are only 256 codes (the quick suite converts every one between
    // every pair of formats), and this runs 169 conversions a byte.
    const std::size_t count = size < 32 ? size : 32;
    for (unsigned from_index = 0; from_index < fuzz::format_count; ++from_index) {
      fuzz::with_format(from_index, [&](auto source, const reference::format& from_format) {
        using From = decltype(source);
        for (std::size_t i = 0; i < count; ++i) {
          const From x = From::from_bits(bytes[i]);
          check_scalar<To>(x, reference::decode(from_format, bytes[i]), ref,
                           word_at(bytes, size, i + 1), i);
        }
      });
    }
    for (std::size_t i = 0; i + 8 <= count; i += 8) {
      std::int64_t wide = 0;
      std::memcpy(&wide, bytes + i, sizeof wide);
      check_integer<To>(wide, ref, word_at(bytes, size, i), i);
      check_integer<To>(static_cast<std::int32_t>(wide), ref, word_at(bytes, size, i + 3), i);
      // Small integers, where the formats' values are.
      check_integer<To>(static_cast<std::int16_t>(wide >> 16) % 1024, ref,
                        word_at(bytes, size, i + 5), i);
    }
  });
}
