// order.hpp: total_order, code_equal and code_hash, for containers that may hold NaN. The
// expected order comes from the reference's values (tests/reference.hpp), not from the codes'
// layout that total_order reads: numbers by value, -0 before +0, NaNs by sign (and fnuz's
// unsigned NaN last), equal-signed NaNs by payload (IEEE 754 §5.10).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <unordered_set>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "ieee.hpp"
#include "reference.hpp"

namespace {

template <class T>
class TotalOrder : public under_test::format_fixture<T> {};
TYPED_TEST_SUITE(TotalOrder, under_test::every_format, under_test::format_names);

// Whether code a comes before code b in IEEE 754's total order, from the reference's values.
bool before(const reference::format& f, unsigned a, unsigned b) {
  const double x = reference::decode(f, a);
  const double y = reference::decode(f, b);
  const unsigned sign = reference::sign_bit(f);
  const bool a_negative = f.has_sign && (a & sign) != 0 && f.rule != reference::nan_rule::fnuz;
  const bool b_negative = f.has_sign && (b & sign) != 0 && f.rule != reference::nan_rule::fnuz;
  // -NaN first, +NaN (and fnuz's NaN) last, numbers between.
  auto rank = [](double v, bool negative) { return ieee::isnan(v) ? (negative ? 0 : 2) : 1; };
  if (rank(x, a_negative) != rank(y, b_negative)) {
    return rank(x, a_negative) < rank(y, b_negative);
  }
  if (ieee::isnan(x)) { // same sign: by payload, away from the numbers
    return a_negative ? (a & (sign - 1)) > (b & (sign - 1)) : (a & (sign - 1)) < (b & (sign - 1));
  }
  if (x != y) {
    return x < y;
  }
  return a_negative && !b_negative; // -0 before +0
}

TYPED_TEST(TotalOrder, SortsEveryCodeShuffled) {
  std::vector<TypeParam> values;
  for (unsigned code = 0; code < under_test::code_count<TypeParam>; ++code) {
    values.push_back(TypeParam::from_bits(static_cast<std::uint8_t>(code)));
  }
  std::mt19937 generator(7);
  std::shuffle(values.begin(), values.end(), generator);
  std::sort(values.begin(), values.end(), minifloat::total_order{});
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    ASSERT_TRUE(before(this->fmt, values[i].bits(), values[i + 1].bits()))
        << std::hex << unsigned{values[i].bits()} << " before " << unsigned{values[i + 1].bits()};
  }
}

TYPED_TEST(TotalOrder, IsAStrictOrderOnEveryPair) {
  const minifloat::total_order order;
  const unsigned codes = under_test::code_count<TypeParam>;
  for (unsigned a = 0; a < codes; ++a) {
    for (unsigned b = 0; b < codes; ++b) {
      const auto x = TypeParam::from_bits(static_cast<std::uint8_t>(a));
      const auto y = TypeParam::from_bits(static_cast<std::uint8_t>(b));
      ASSERT_EQ(order(x, y), a != b && before(this->fmt, a, b)) << a << " " << b;
    }
  }
}

TYPED_TEST(TotalOrder, ContainersFindNan) {
  std::set<TypeParam, minifloat::total_order> ordered;
  std::unordered_set<TypeParam, minifloat::code_hash, minifloat::code_equal> hashed;
  const unsigned codes = under_test::code_count<TypeParam>;
  for (int round = 0; round < 2; ++round) {
    for (unsigned code = 0; code < codes; ++code) {
      ordered.insert(TypeParam::from_bits(static_cast<std::uint8_t>(code)));
      hashed.insert(TypeParam::from_bits(static_cast<std::uint8_t>(code)));
    }
  }
  EXPECT_EQ(ordered.size(), codes);
  EXPECT_EQ(hashed.size(), codes);
  if (std::numeric_limits<TypeParam>::has_quiet_NaN) {
    const auto nan = std::numeric_limits<TypeParam>::quiet_NaN();
    EXPECT_EQ(ordered.count(nan), 1U);
    EXPECT_EQ(hashed.count(nan), 1U);
  }
  // The first is -NaN, or -max where there is no NaN: the all-ones code; unsigned: 0x00.
  EXPECT_EQ(ordered.begin()->bits(), TypeParam::format::is_signed ? codes - 1 : 0x00);
}

// Usable at compile time.
static_assert(minifloat::total_order{}(minifloat::e4m3::from_bits(0x80),
                                       minifloat::e4m3::from_bits(0x00)),
              "-0 before +0");
static_assert(minifloat::total_order{}(minifloat::e4m3::from_bits(0xFF),
                                       minifloat::e4m3::from_bits(0xFE)),
              "-NaN before -448");
static_assert(!minifloat::code_equal{}(minifloat::e4m3::from_bits(0x80),
                                       minifloat::e4m3::from_bits(0x00)),
              "-0 and +0 are different keys");

} // namespace
