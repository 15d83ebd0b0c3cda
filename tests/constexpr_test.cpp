// The constexpr surface, as a unit test would use it: every assertion here is checked by the
// compiler (this file has no runtime tests). The expected codes come from docs/spec.md §1-§2
// (encodings written out in binary).
#include <minifloat/minifloat.hpp>

namespace {

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::overflow;
using minifloat::rounding;

// +infinity and a quiet NaN from their bits: __builtin_nanf and NAN are errors under clang's
// -ffast-math with -Werror (-Wnan-infinity-disabled).
constexpr float infinity = minifloat::detail::bit_cast<float>(0x7F800000U);
constexpr float quiet_nan = minifloat::detail::bit_cast<float>(0x7FC00000U);

// Codes and bits.
static_assert(e4m3::from_bits(0x5A).bits() == 0x5A, "");
static_assert(e4m3(1.0f).bits() == 0b0'0111'000, "");
static_assert(e5m2(1.0f).bits() == 0b0'01111'00, "");
static_assert(e4m3(448.0f).bits() == 0b0'1111'110, "max normal 448");
static_assert(e4m3(0x1p-6f).bits() == 0b0'0001'000, "min normal 2^-6");
static_assert(e4m3(0x1p-9f).bits() == 0b0'0000'001, "min subnormal 2^-9");
static_assert(e5m2(57344.0f).bits() == 0b0'11110'11, "max normal 57344");
static_assert(e5m2(0x1p-16f).bits() == 0b0'00000'01, "min subnormal 2^-16");

// Decoding, via the conversion operators and the compile-time table.
static_assert(static_cast<float>(e4m3::from_bits(0b0'1111'110)) == 448.0f, "");
static_assert(static_cast<double>(e4m3::from_bits(0b1'0000'111)) == -0.875 * 0x1p-6, "");
static_assert(static_cast<float>(e5m2::from_bits(0b0'11111'00)) == infinity, "");
static_assert(minifloat::decode_table<e4m3>[0b0'0111'100] == 1.5f, "");
static_assert(minifloat::decode_table<e5m2>[0b1'10000'01] == -2.5f, "");
static_assert(minifloat::decode_table<e4m3>.size() == 256, "");
static_assert(static_cast<minifloat::binary16_bits>(e5m2::from_bits(0x3C)).bits == 0x3C00, "");
static_assert(static_cast<minifloat::bfloat16_bits>(e4m3(1.0f)).bits == 0x3F80, "");

// Narrowing from every source type.
static_assert(e4m3(1.0 + 0x1p-4 + 0x1p-30).bits() == 0x39, "double rounds once: 1.125");
static_assert(e4m3(minifloat::binary16_bits{0x3E00}).bits() == 0x3C, "binary16 1.5");
static_assert(e4m3(minifloat::bfloat16_bits{0x3FC0}).bits() == 0x3C, "bfloat16 1.5");
static_assert(e4m3(-3).bits() == 0b1'1000'100, "int -3");
static_assert(e5m2(e4m3(448.0f)).bits() == 0b0'10111'11, "448 = 1.75 * 2^8 in e5m2");
static_assert(e4m3(e5m2(57344.0f)).bits() == 0x7F, "57344 overflows e4m3: NaN");

// The overflow thresholds and modes of docs/spec.md §2.
static_assert(e4m3(464.0f).bits() == 0x7E && e4m3(465.0f).bits() == 0x7F, "");
static_assert(e5m2(61439.0f).bits() == 0x7B && e5m2(61440.0f).bits() == 0x7C, "");
static_assert(minifloat::saturate_cast<e4m3>(1e6f).bits() == 0x7E, "");
static_assert(minifloat::saturate_cast<e5m2>(-infinity).bits() == 0xFB, "");
static_assert(minifloat::convert<e4m3, rounding::toward_zero>(479.0f).bits() == 0x7E, "");
static_assert(minifloat::convert<e4m3, rounding::nearest_even, overflow::saturate>(500.0f).bits() ==
                  0x7E,
              "");
static_assert(minifloat::convert<float>(e4m3::from_bits(0x08)) == 0x1p-6f, "");
static_assert(minifloat::isnan(e4m3(quiet_nan)), "");

// Stochastic rounding: 1.0625 is halfway between 1.0 and 1.125 in e4m3 (frac = 1/2).
static_assert(minifloat::stochastic_cast<e4m3>(1.0625f, 0x7FFFFFFFu).bits() == 0x38, "");
static_assert(minifloat::stochastic_cast<e4m3>(1.0625f, 0x80000000u).bits() == 0x39, "");
static_assert(minifloat::stochastic_cast<e4m3>(1.0f, 0xFFFFFFFFu).bits() == 0x38, "exact stays");
static_assert(minifloat::stochastic_cast<e4m3>(460.0f, 0xFFFFFFFFu).bits() == 0x7F, "past max");
static_assert(minifloat::stochastic_cast<e4m3, overflow::saturate>(460.0f, 0xFFFFFFFFu).bits() ==
                  0x7E,
              "");

// Value-type behaviour.
static_assert((-e4m3(2.0f)).bits() == 0xC0, "");
static_assert(minifloat::abs(e5m2(-2.0f)).bits() == 0x40, "");
static_assert(e4m3(0.0f) == e4m3(-0.0f), "");
static_assert(!(e4m3::from_bits(0x7F) == e4m3::from_bits(0x7F)), "NaN is unequal to itself");
static_assert(e4m3(1.0f) < e5m2(1.5f), "");
static_assert(e4m3(1.5f) + e4m3(2.0f) == 3.5f, "");
static_assert(minifloat::fpclassify(e4m3::from_bits(0x01)) == FP_SUBNORMAL, "");

// numeric_limits and the format constants.
static_assert(static_cast<float>(std::numeric_limits<e4m3>::max()) == 448.0f, "");
static_assert(static_cast<float>(std::numeric_limits<e5m2>::denorm_min()) == 0x1p-16f, "");
static_assert(minifloat::format_info<minifloat::formats::e4m3>::dynamic_range_binades == 18, "");
static_assert(minifloat::format_info<minifloat::formats::e5m2>::dynamic_range_binades == 32, "");

} // namespace
