// The 8-bit types under test, each paired with the reference's description of its format, and
// the library's narrowing in each mode of the reference.
#ifndef MINIFLOAT_TESTS_FORMATS_UNDER_TEST_HPP
#define MINIFLOAT_TESTS_FORMATS_UNDER_TEST_HPP

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "reference.hpp"

namespace under_test {

// Which reference format describes each library type (written out: the reference shares
// nothing with the library's traits).
template <class T>
struct format_of;
#define MINIFLOAT_TEST_FORMAT(type, reference_format)                                              \
  template <>                                                                                      \
  struct format_of<minifloat::type> {                                                              \
    static const reference::format& get() { return reference::reference_format; }                  \
  }
MINIFLOAT_TEST_FORMAT(e4m3, e4m3);
MINIFLOAT_TEST_FORMAT(e5m2, e5m2);
MINIFLOAT_TEST_FORMAT(e3m4, e3m4);
MINIFLOAT_TEST_FORMAT(e2m5, e2m5);
MINIFLOAT_TEST_FORMAT(e4m3_ieee, e4m3_ieee);
MINIFLOAT_TEST_FORMAT(e4m3fnuz, e4m3fnuz);
MINIFLOAT_TEST_FORMAT(e5m2fnuz, e5m2fnuz);
MINIFLOAT_TEST_FORMAT(e4m3b11fnuz, e4m3b11fnuz);
MINIFLOAT_TEST_FORMAT(e8m0, e8m0);
MINIFLOAT_TEST_FORMAT(e2m1, e2m1);
MINIFLOAT_TEST_FORMAT(e2m3, e2m3);
MINIFLOAT_TEST_FORMAT(e3m2, e3m2);
MINIFLOAT_TEST_FORMAT(ue4m3, ue4m3);
#undef MINIFLOAT_TEST_FORMAT

// The signed formats (the value-type tests assume a sign bit), and every one-byte format, e8m0
// and ue4m3 included (the conversion tests). MINIFLOAT_TEST_REPRESENTATIVE_FORMATS (CMake's
// MINIFLOAT_TEST_FORMATS=representative) keeps one format of each kind the library's code tells
// apart: OCP e4m3 (no infinity, one NaN per sign), e5m2 (IEEE specials), e4m3fnuz (fnuz), e2m1
// (finite only, four bits), e8m0 (no sign, no mantissa, no zero) and ue4m3 (unsigned); the other
// formats differ from one of these only in constants (widths and bias). The configurations that
// exist to try an environment (fast math, another toolchain or target) use it: the lane kernels,
// and with them compile time, are per format. Every format runs in the main configuration and in
// the exhaustive sweeps.
#if defined(MINIFLOAT_TEST_REPRESENTATIVE_FORMATS) && MINIFLOAT_TEST_REPRESENTATIVE_FORMATS
using all_formats =
    ::testing::Types<minifloat::e4m3, minifloat::e5m2, minifloat::e4m3fnuz, minifloat::e2m1>;
using every_format = ::testing::Types<minifloat::e4m3, minifloat::e5m2, minifloat::e4m3fnuz,
                                      minifloat::e8m0, minifloat::e2m1, minifloat::ue4m3>;
#else
using all_formats =
    ::testing::Types<minifloat::e4m3, minifloat::e5m2, minifloat::e3m4, minifloat::e2m5,
                     minifloat::e4m3_ieee, minifloat::e4m3fnuz, minifloat::e5m2fnuz,
                     minifloat::e4m3b11fnuz, minifloat::e2m1, minifloat::e2m3, minifloat::e3m2>;
using every_format =
    ::testing::Types<minifloat::e4m3, minifloat::e5m2, minifloat::e3m4, minifloat::e2m5,
                     minifloat::e4m3_ieee, minifloat::e4m3fnuz, minifloat::e5m2fnuz,
                     minifloat::e4m3b11fnuz, minifloat::e8m0, minifloat::e2m1, minifloat::e2m3,
                     minifloat::e3m2, minifloat::ue4m3>;
#endif

// The number of codes of T (16 for e2m1, 64 for the FP6 formats, 128 for ue4m3, else 256).
template <class T>
constexpr unsigned code_count = 1u << minifloat::format_info<typename T::format>::total_bits;

// Whether T is one of the fnuz formats (one zero, NaN 0x80).
template <class T>
constexpr bool is_fnuz = T::format::special_values == minifloat::specials::fnuz;

// Names typed tests by format (Conversion/e4m3.RoundTripsEveryCode).
struct format_names {
  template <class T>
  static std::string GetName(int) {
    return format_of<T>::get().name;
  }
};

// A typed-test fixture: the format under test and the reference for it.
template <class T>
class format_fixture : public ::testing::Test {
protected:
  const reference::format& fmt = format_of<T>::get();
  const reference::narrower ref{fmt};
};

struct mode_and_overflow {
  reference::mode mode;
  bool saturate;
  const char* name;
};
inline constexpr mode_and_overflow every_mode[] = {
    {reference::mode::nearest_even, false, "nearest_even"},
    {reference::mode::nearest_even, true, "nearest_even saturate"},
    {reference::mode::toward_zero, false, "toward_zero"},
    {reference::mode::toward_zero, true, "toward_zero saturate"},
    {reference::mode::upward, false, "upward"},
    {reference::mode::upward, true, "upward saturate"},
    {reference::mode::stochastic, false, "stochastic"},
    {reference::mode::stochastic, true, "stochastic saturate"},
};

// The library's answer for x in the given mode, as a code. Out of line, one copy per type pair:
// inlined, -O3 unrolled the callers' loops around it into several copies of all eight
// conversions (check_cross in convert_test was 44 % of that file's code).
template <class T, class From>
[[gnu::noinline]] unsigned narrow(const mode_and_overflow& m, From x,
                                  std::uint32_t random_bits = 0) {
  using minifloat::overflow;
  using minifloat::rounding;
  switch (m.mode) {
  case reference::mode::nearest_even:
    return m.saturate ? minifloat::saturate_cast<T>(x).bits() : minifloat::convert<T>(x).bits();
  case reference::mode::toward_zero:
    return m.saturate ? minifloat::convert<T, rounding::toward_zero, overflow::saturate>(x).bits()
                      : minifloat::convert<T, rounding::toward_zero>(x).bits();
  case reference::mode::upward:
    return m.saturate ? minifloat::convert<T, rounding::upward, overflow::saturate>(x).bits()
                      : minifloat::convert<T, rounding::upward>(x).bits();
  case reference::mode::stochastic:
    return m.saturate ? minifloat::stochastic_cast<T, overflow::saturate>(x, random_bits).bits()
                      : minifloat::stochastic_cast<T>(x, random_bits).bits();
  }
  return 0x100; // unreachable; never a valid code
}

} // namespace under_test

#endif // MINIFLOAT_TESTS_FORMATS_UNDER_TEST_HPP
