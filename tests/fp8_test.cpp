// The value type (docs/spec.md §4): layout, comparisons, negation, abs, classification, arithmetic,
// numeric_limits, hash and stream output, for every code against the reference's values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>
#include <unordered_set>

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "reference.hpp"
#include "ieee.hpp"

// clang's -Wnan-infinity-disabled (-ffast-math) fires at a call of any function named infinity,
// numeric_limits<fp8>::infinity() included, though that returns a code fast-math does not touch.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wnan-infinity-disabled"
#endif

// has_denorm and std::denorm_* are deprecated in C++23 (limits.hpp keeps them): checked there
// without the deprecation warning, which -Werror would make an error.
#define MINIFLOAT_TEST_DENORM_CHECK(condition)                                                     \
  _Pragma("GCC diagnostic push")                                                                   \
      _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"") static_assert(condition,     \
                                                                                    "has_denorm"); \
  _Pragma("GCC diagnostic pop")

namespace {

template <class T>
class ValueType : public ::testing::Test {
protected:
  const reference::format& fmt = under_test::format_of<T>::get();
  double value(unsigned code) const { return reference::decode(fmt, code); }
  static T code(unsigned c) { return T::from_bits(static_cast<std::uint8_t>(c)); }
};
TYPED_TEST_SUITE(ValueType, under_test::all_formats, under_test::format_names);

TYPED_TEST(ValueType, IsOneTriviallyCopyableByte) {
  using T = TypeParam;
  static_assert(sizeof(T) == 1 && alignof(T) == 1, "one byte");
  static_assert(std::is_trivially_copyable<T>::value, "memcpy-able");
  static_assert(std::is_standard_layout<T>::value, "standard layout");
  static_assert(std::is_trivial<T>::value, "trivial, like float");
  static_assert(!std::is_convertible<float, T>::value, "narrowing is explicit");
  static_assert(!std::is_convertible<T, float>::value, "widening is explicit too");
  static_assert(std::is_constructible<T, float>::value && std::is_constructible<float, T>::value,
                "but both exist");
  // A format narrower than 8 bits keeps its code in the low bits and ignores the others
  // (docs/spec.md §7): from_bits drops them.
  const unsigned codes = under_test::code_count<T>;
  for (unsigned c = 0; c < 256; ++c) {
    EXPECT_EQ(this->code(c).bits(), c % codes);
  }
  EXPECT_EQ(T{}.bits(), 0u); // value-initialised: +0
}

TYPED_TEST(ValueType, ComparesLikeIeee) {
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      const auto x = this->code(a);
      const auto y = this->code(b);
      const double u = this->value(a);
      const double v = this->value(b);
      ASSERT_EQ(x == y, ieee::eq(u, v)) << a << " " << b;
      ASSERT_EQ(x != y, ieee::ne(u, v)) << a << " " << b;
      ASSERT_EQ(x < y, ieee::lt(u, v)) << a << " " << b;
      ASSERT_EQ(x <= y, ieee::le(u, v)) << a << " " << b;
      ASSERT_EQ(x > y, ieee::gt(u, v)) << a << " " << b;
      ASSERT_EQ(x >= y, ieee::ge(u, v)) << a << " " << b;
    }
    const auto x = this->code(a);
    const double u = this->value(a);
    EXPECT_EQ(x == 1.0f, ieee::eq(u, 1.0));
    EXPECT_EQ(2.0 < x, ieee::lt(2.0, u));
    EXPECT_EQ(x >= 0, ieee::ge(u, 0.0));
  }
}

TYPED_TEST(ValueType, NegationAndAbsAreExactBitOperations) {
  const unsigned sign = reference::sign_bit(this->fmt);
  for (unsigned c = 0; c < under_test::code_count<TypeParam>; ++c) {
    const auto x = this->code(c);
    if (under_test::is_fnuz<TypeParam> && (c & 0x7F) == 0) {
      // fnuz: 0x00 is the only zero and 0x80 the only NaN; neither has a negative.
      EXPECT_EQ((-x).bits(), c);
      EXPECT_EQ(minifloat::abs(x).bits(), c);
    } else {
      EXPECT_EQ((-x).bits(), c ^ sign);
      EXPECT_EQ(minifloat::abs(x).bits(), c & (sign - 1));
    }
    EXPECT_EQ((+x).bits(), c);
  }
}

TYPED_TEST(ValueType, Classification) {
  for (unsigned c = 0; c < 256; ++c) {
    const auto x = this->code(c);
    const double v = this->value(c);
    EXPECT_EQ(minifloat::isnan(x), ieee::isnan(v)) << c;
    EXPECT_EQ(minifloat::isinf(x), ieee::isinf(v)) << c;
    EXPECT_EQ(minifloat::isfinite(x), ieee::isfinite(v)) << c;
    EXPECT_EQ(minifloat::signbit(x), ieee::signbit(v)) << c; // fnuz's NaN 0x80 has no sign
    const double min_normal = std::ldexp(1.0, 1 - this->fmt.bias);
    const bool normal = ieee::isfinite(v) && std::fabs(v) >= min_normal;
    EXPECT_EQ(minifloat::isnormal(x), normal) << c;
    const int expected = ieee::isnan(v)   ? FP_NAN
                         : ieee::isinf(v) ? FP_INFINITE
                         : v == 0         ? FP_ZERO
                         : normal         ? FP_NORMAL
                                          : FP_SUBNORMAL;
    EXPECT_EQ(minifloat::fpclassify(x), expected) << c;
  }
}

TYPED_TEST(ValueType, ArithmeticComputesInFloat) {
  using T = TypeParam;
  static_assert(std::is_same<decltype(T() + T()), float>::value, "");
  static_assert(std::is_same<decltype(T() * minifloat::e5m2fnuz()), float>::value, "");
  static_assert(std::is_same<decltype(T() - 1), float>::value, "");
  static_assert(std::is_same<decltype(1.0f / T()), float>::value, "");
  static_assert(std::is_same<decltype(T() + 1.0), double>::value, "");
  static_assert(std::is_same<decltype(1.0L * T()), long double>::value, "");
  for (unsigned a = 0; a < 256; a += 3) {
    for (unsigned b = 0; b < 256; b += 5) {
      const auto x = this->code(a);
      const auto y = this->code(b);
      const auto u = static_cast<float>(this->value(a));
      const auto v = static_cast<float>(this->value(b));
      const float sums[] = {x + y, u + v, x * y, u * v, x - y, u - v, x / y, u / v};
      for (int i = 0; i < 8; i += 2) {
        if (ieee::isnan(sums[i + 1])) {
          EXPECT_TRUE(ieee::isnan(sums[i]));
        } else {
          EXPECT_EQ(sums[i], sums[i + 1]) << a << " " << b << " " << i;
        }
      }
    }
  }
}

TYPED_TEST(ValueType, HashAgreesWithEquality) {
  using T = TypeParam;
  const std::hash<T> hash;
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      if (this->code(a) == this->code(b)) {
        EXPECT_EQ(hash(this->code(a)), hash(this->code(b))) << a << " " << b;
      }
    }
  }
  // +0 and -0 are one key.
  std::unordered_set<T, std::hash<T>, std::equal_to<>> set{T(0.0f), T(-0.0f), T(1.0f)};
  EXPECT_EQ(set.size(), 2u);
}

TYPED_TEST(ValueType, StreamsItsValue) {
  using T = TypeParam;
  std::ostringstream out;
  out << T(1.5f) << ' ' << T(-0.5f);
  EXPECT_EQ(out.str(), "1.5 -0.5");
}

// numeric_limits against docs/spec.md §1 and §4, written from the spec's figures.
TEST(NumericLimits, E4M3) {
  using L = std::numeric_limits<minifloat::e4m3>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer && !L::is_exact, "");
  static_assert(!L::has_infinity && L::has_quiet_NaN, "");
  MINIFLOAT_TEST_DENORM_CHECK(L::has_denorm == std::denorm_present);
  static_assert(L::digits == 4 && L::max_exponent == 9 && L::min_exponent == -5, "");
  static_assert(L::radix == 2 && L::is_bounded && !L::is_iec559, "");
  static_assert(L::digits10 == 0 && L::max_digits10 == 3, "");
  static_assert(L::min_exponent10 == -1 && L::max_exponent10 == 2, "");
  EXPECT_EQ(static_cast<float>(L::max()), 448.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -448.0f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-6f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-9f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0.125f);
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_EQ(L::quiet_NaN().bits(), 0x7F);
  EXPECT_TRUE(minifloat::isnan(L::signaling_NaN()));
}

TEST(NumericLimits, E5M2) {
  using L = std::numeric_limits<minifloat::e5m2>;
  static_assert(L::has_infinity && L::has_quiet_NaN && L::is_iec559, "");
  static_assert(L::digits == 3 && L::max_exponent == 16 && L::min_exponent == -13, "");
  static_assert(L::min_exponent10 == -4 && L::max_exponent10 == 4, "");
  EXPECT_EQ(static_cast<float>(L::max()), 57344.0f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-14f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-16f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0.25f);
  EXPECT_EQ(L::infinity().bits(), 0x7C);
  EXPECT_EQ(L::quiet_NaN().bits(), 0x7F);
}

TEST(NumericLimits, IeeeStyleFormats) {
  // docs/spec.md §1, last row: max (2 - 2^-M) 2^(2^E - 2 - b), min normal 2^(1-b), min sub
  // 2^(1-b-M).
  using L34 = std::numeric_limits<minifloat::e3m4>;
  EXPECT_EQ(static_cast<float>(L34::max()), (2.0f - 0x1p-4f) * 0x1p3f); // 15.5
  EXPECT_EQ(static_cast<float>(L34::min()), 0x1p-2f);
  EXPECT_EQ(static_cast<float>(L34::denorm_min()), 0x1p-6f);
  EXPECT_EQ(static_cast<float>(L34::epsilon()), 0x1p-4f);
  using L25 = std::numeric_limits<minifloat::e2m5>;
  EXPECT_EQ(static_cast<float>(L25::max()), (2.0f - 0x1p-5f) * 0x1p1f); // 3.9375
  EXPECT_EQ(static_cast<float>(L25::min()), 1.0f);
  EXPECT_EQ(static_cast<float>(L25::denorm_min()), 0x1p-5f);
  EXPECT_EQ(static_cast<float>(L25::epsilon()), 0x1p-5f);
}

// e8m0 (docs/spec.md §1): unsigned, no zero, 0xFF NaN, value 2^(E - 127).
TEST(E8M0, ValueType) {
  using minifloat::e8m0;
  for (unsigned a = 0; a < 256; ++a) {
    const auto x = e8m0::from_bits(static_cast<std::uint8_t>(a));
    const double u = reference::decode(reference::e8m0, a);
    EXPECT_TRUE(minifloat::isnan(-x)) << a; // no negative values
    EXPECT_EQ(minifloat::abs(x).bits(), a);
    EXPECT_FALSE(minifloat::signbit(x));
    EXPECT_FALSE(minifloat::isinf(x));
    EXPECT_EQ(minifloat::isnan(x), a == 0xFF);
    EXPECT_EQ(minifloat::isnormal(x), a != 0xFF); // no zero, no subnormals
    EXPECT_EQ(minifloat::fpclassify(x), a == 0xFF ? FP_NAN : FP_NORMAL);
    for (unsigned b = 0; b < 256; ++b) {
      const auto y = e8m0::from_bits(static_cast<std::uint8_t>(b));
      const double v = reference::decode(reference::e8m0, b);
      ASSERT_EQ(x < y, ieee::lt(u, v));
      ASSERT_EQ(x == y, ieee::eq(u, v));
      if (x == y) {
        EXPECT_EQ(std::hash<e8m0>{}(x), std::hash<e8m0>{}(y));
      }
    }
  }
  using L = std::numeric_limits<e8m0>;
  static_assert(!L::is_signed && !L::has_infinity, "");
  MINIFLOAT_TEST_DENORM_CHECK(L::has_denorm == std::denorm_absent);
  static_assert(L::digits == 1 && L::max_exponent == 128 && L::min_exponent == -126, "");
  static_assert(L::min_exponent10 == -38 && L::max_exponent10 == 38, "");
  EXPECT_EQ(static_cast<float>(L::max()), 0x1p127f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-127f);
  EXPECT_EQ(static_cast<float>(L::lowest()), 0x1p-127f); // unsigned: lowest is min
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-127f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 1.0f); // 1 -> 2
  EXPECT_EQ(L::quiet_NaN().bits(), 0xFF);
}

TEST(NumericLimits, Fnuz) {
  // docs/spec.md §1: bias one larger than IEEE's, no infinities, NaN 0x80, all-ones exponent
  // finite.
  using L43 = std::numeric_limits<minifloat::e4m3fnuz>;
  static_assert(!L43::has_infinity && !L43::is_iec559 && L43::digits == 4, "");
  static_assert(L43::max_exponent == 8 && L43::min_exponent == -6, "");
  EXPECT_EQ(static_cast<float>(L43::max()), 240.0f);
  EXPECT_EQ(L43::max().bits(), 0x7F);
  EXPECT_EQ(L43::lowest().bits(), 0xFF);
  EXPECT_EQ(static_cast<float>(L43::min()), 0x1p-7f);
  EXPECT_EQ(static_cast<float>(L43::denorm_min()), 0x1p-10f);
  EXPECT_EQ(L43::quiet_NaN().bits(), 0x80);
  EXPECT_EQ(L43::infinity().bits(), 0x00); // no infinity: +0, as the standard types do
  using L52 = std::numeric_limits<minifloat::e5m2fnuz>;
  EXPECT_EQ(static_cast<float>(L52::max()), 57344.0f);
  EXPECT_EQ(static_cast<float>(L52::min()), 0x1p-15f);
  EXPECT_EQ(static_cast<float>(L52::denorm_min()), 0x1p-17f);
  using L11 = std::numeric_limits<minifloat::e4m3b11fnuz>;
  EXPECT_EQ(static_cast<float>(L11::max()), 30.0f);
  EXPECT_EQ(static_cast<float>(L11::min()), 0x1p-10f);
  EXPECT_EQ(static_cast<float>(L11::denorm_min()), 0x1p-13f);
  using LI = std::numeric_limits<minifloat::e4m3_ieee>;
  static_assert(LI::has_infinity && LI::is_iec559, "");
  EXPECT_EQ(static_cast<float>(LI::max()), 240.0f);
  EXPECT_EQ(LI::infinity().bits(), 0x78);
}

} // namespace
