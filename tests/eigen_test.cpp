// minifloat/eigen.hpp: every format as an Eigen scalar. Storage is one byte per element; casts
// into a format agree with the independent reference (nearest, ties to even, no saturation) for
// every binary16 value as a float, and casts out of it with the reference's value of every code;
// arithmetic of minifloat matrices is float arithmetic; comparisons, NaN tests, maxCoeff and
// printing work on the type itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <minifloat/eigen.hpp>
#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "ieee.hpp"
#include "reference.hpp"

namespace {

template <class T>
using matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

template <class T>
class EigenScalar : public under_test::format_fixture<T> {};
TYPED_TEST_SUITE(EigenScalar, under_test::every_format, under_test::format_names);

TYPED_TEST(EigenScalar, StoresOneBytePerElementInColumnMajorOrder) {
  using T = TypeParam;
  static_assert(sizeof(Eigen::Matrix<T, 4, 4>) == 16, "a fixed 4 x 4 matrix is 16 bytes");
  matrix<T> m(3, 5);
  for (Eigen::Index j = 0; j < 5; ++j) {
    for (Eigen::Index i = 0; i < 3; ++i) {
      m(i, j) = T::from_bits(static_cast<std::uint8_t>((i + 3 * j) % under_test::code_count<T>));
    }
  }
  std::uint8_t bytes[15];
  std::memcpy(bytes, m.data(), sizeof bytes);
  for (unsigned k = 0; k < 15; ++k) {
    EXPECT_EQ(bytes[k], k % under_test::code_count<T>) << k;
  }
  // A Map over bytes someone else owns reads them in place.
  const Eigen::Map<const matrix<T>> view(reinterpret_cast<const T*>(bytes), 3, 5);
  EXPECT_EQ(view(2, 4).bits(), 14 % under_test::code_count<T>);
}

// Every binary16 value (as a float: exact) cast into T, against the reference.
TYPED_TEST(EigenScalar, CastIntoTheFormatRoundsToNearestEven) {
  using T = TypeParam;
  Eigen::VectorXf x(65536);
  for (unsigned bits = 0; bits < 65536; ++bits) {
    x[bits] = static_cast<float>(reference::decode_binary16(static_cast<std::uint16_t>(bits)));
  }
  const Eigen::Matrix<T, Eigen::Dynamic, 1> narrowed = x.cast<T>();
  const Eigen::Matrix<T, Eigen::Dynamic, 1> from_double = x.cast<double>().cast<T>();
  unsigned mismatches = 0;
  for (unsigned i = 0; i < 65536; ++i) {
    const unsigned expected = this->ref.round(x[i], reference::mode::nearest_even, false);
    mismatches += narrowed[i].bits() != expected;
    mismatches += from_double[i].bits() != expected;
    if (narrowed[i].bits() != expected && mismatches < 5) {
      ADD_FAILURE() << "binary16 0x" << std::hex << i << ": got 0x" << unsigned{narrowed[i].bits()}
                    << ", expected 0x" << expected;
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

// Every code cast out to float and double: the reference's value (NaN for NaN codes).
TYPED_TEST(EigenScalar, CastOutOfTheFormatIsExact) {
  using T = TypeParam;
  const unsigned n = under_test::code_count<T>;
  Eigen::Matrix<T, Eigen::Dynamic, 1> codes(n);
  for (unsigned c = 0; c < n; ++c) {
    codes[c] = T::from_bits(static_cast<std::uint8_t>(c));
  }
  const Eigen::VectorXf as_float = codes.template cast<float>();
  const Eigen::VectorXd as_double = codes.template cast<double>();
  for (unsigned c = 0; c < n; ++c) {
    const double expected = reference::decode(this->fmt, c);
    if (ieee::isnan(expected)) {
      EXPECT_TRUE(ieee::isnan(as_float[c]) && ieee::isnan(as_double[c])) << c;
    } else {
      EXPECT_EQ(ieee::to_bits(as_double[c]), ieee::to_bits(expected)) << c;
      EXPECT_EQ(ieee::to_bits(ieee::to_double(as_float[c])), ieee::to_bits(expected)) << c;
    }
  }
  // Between formats: the type's own conversion (e5m2 <- T), nearest-even from the exact value.
  const Eigen::Matrix<minifloat::e5m2, Eigen::Dynamic, 1> other =
      codes.template cast<minifloat::e5m2>();
  const reference::narrower e5m2_reference(reference::e5m2);
  for (unsigned c = 0; c < n; ++c) {
    const double value = reference::decode(this->fmt, c);
    if (ieee::isnan(value)) { // (a NaN's payload is the type's business: docs/spec.md §3)
      EXPECT_TRUE(minifloat::isnan(other[c])) << c;
    } else {
      EXPECT_EQ(other[c].bits(), e5m2_reference.round(value, reference::mode::nearest_even, false))
          << c;
    }
  }
}

TYPED_TEST(EigenScalar, NumTraitsDescribeTheFormat) {
  using T = TypeParam;
  using traits = Eigen::NumTraits<T>;
  static_assert(!traits::IsComplex && !traits::IsInteger && !traits::RequireInitialization, "");
  EXPECT_EQ(static_cast<bool>(traits::IsSigned), this->fmt.has_sign);
  EXPECT_EQ(static_cast<double>(traits::epsilon()), std::ldexp(1.0, -this->fmt.mantissa_bits));
  EXPECT_EQ(static_cast<double>(traits::highest()), this->ref.max_value());
  EXPECT_EQ(traits::digits10(), std::numeric_limits<T>::max_digits10);
}

using minifloat::e4m3;
using minifloat::e5m2;

// Coefficient-wise + - * / of minifloat matrices compute in float, as the scalar operators do.
TEST(EigenArithmetic, IsFloatArithmetic) {
  matrix<e4m3> a(3, 4);
  matrix<e5m2> b(3, 4);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      a(i, j) = e4m3(static_cast<float>(i - j) * 1.5f);
      b(i, j) = e5m2(std::ldexp(1.0f, i + j - 2));
    }
  }
  const Eigen::MatrixXf sum = a + a;
  const Eigen::MatrixXf mixed = a.cwiseProduct(b);
  const Eigen::MatrixXf quotient = a.array() / b.array();
  const Eigen::MatrixXf scaled = a * 0.5f;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      const float x = static_cast<float>(i - j) * 1.5f;
      const float y = std::ldexp(1.0f, i + j - 2); // a power of two: every result exact
      EXPECT_EQ(sum(i, j), x + x);
      EXPECT_EQ(mixed(i, j), x * y);
      // (A float division the compiler may turn into a reciprocal product under -ffast-math:
      // one rounding more.)
      EXPECT_NEAR(quotient(i, j), ieee::quotient(x, y), std::fabs(x / y) * 0x1p-22f);
      EXPECT_EQ(scaled(i, j), x * 0.5f);
    }
  }
}

TEST(EigenArithmetic, ComparisonsNaNAndExtremaUseTheType) {
  matrix<e4m3> a(1, 4);
  a << e4m3(1.0f), e4m3(-448.0f), e4m3(0.5f), e4m3(-0.0f);
  EXPECT_EQ(a.maxCoeff().bits(), e4m3(1.0f).bits());
  EXPECT_EQ(a.minCoeff().bits(), e4m3(-448.0f).bits());
  EXPECT_EQ((a.array() > e4m3(0.0f)).count(), 2);
  EXPECT_EQ((a.array() == e4m3(0.0f)).count(), 1); // -0 == +0
  EXPECT_FALSE(a.hasNaN());
  a(0, 2) = e4m3::from_bits(0x7F); // NaN: unequal to itself
  EXPECT_TRUE(a.hasNaN());
  EXPECT_FALSE(a.allFinite());
}

// Printing: the stream's precision by default; with Eigen's FullPrecision (NumTraits::digits10),
// enough digits that every value reads back to its own code.
TEST(EigenArithmetic, PrintsValuesThatReadBack) {
  matrix<e4m3> a(2, 2);
  a << e4m3(1.5f), e4m3(-0.25f), e4m3(448.0f), e4m3(0.0f);
  std::ostringstream text;
  text << a;
  EXPECT_EQ(text.str(), "  1.5 -0.25\n  448     0");
  for (const reference::format* fmt : {&reference::e4m3, &reference::e5m2, &reference::e2m1}) {
    const reference::narrower ref(*fmt);
    std::vector<unsigned> codes;
    const int bits = fmt->exponent_bits + fmt->mantissa_bits + (fmt->has_sign ? 1 : 0);
    for (unsigned c = 0; c < (1u << bits); ++c) {
      if (ieee::isfinite(reference::decode(*fmt, c))) {
        codes.push_back(c);
      }
    }
    std::ostringstream full;
    const auto print = [&](auto type) {
      using T = decltype(type);
      Eigen::Matrix<T, 1, Eigen::Dynamic> row(static_cast<Eigen::Index>(codes.size()));
      for (std::size_t i = 0; i < codes.size(); ++i) {
        row[static_cast<Eigen::Index>(i)] = T::from_bits(static_cast<std::uint8_t>(codes[i]));
      }
      full << row.format(Eigen::IOFormat(Eigen::FullPrecision));
    };
    if (fmt == &reference::e4m3) {
      print(e4m3{});
    } else if (fmt == &reference::e5m2) {
      print(e5m2{});
    } else {
      print(minifloat::e2m1{});
    }
    std::istringstream words(full.str());
    std::string word;
    std::size_t i = 0;
    for (; words >> word; ++i) {
      ASSERT_LT(i, codes.size());
      EXPECT_EQ(ref.round(std::strtod(word.c_str(), nullptr), reference::mode::nearest_even, false),
                codes[i])
          << fmt->name << " printed " << word;
    }
    EXPECT_EQ(i, codes.size());
  }
}

} // namespace
