// Classification and the special values of float and double, from their bits, for the tests and
// fuzzers: they must stay right when built with -ffast-math or -Ofast, under which compilers fold
// std::isnan / std::isinf / std::isfinite to constants and clang warns at INFINITY and NAN
// (-Wnan-infinity-disabled, which also fires at a call of any function named `infinity`). gtest's
// floating-point assertions already read bits.
#ifndef MINIFLOAT_TESTS_IEEE_HPP
#define MINIFLOAT_TESTS_IEEE_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ieee {

template <class T>
using bits_of = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
bits_of<T> to_bits(T x) {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "float or double");
  bits_of<T> bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
template <class T>
T from_bits(bits_of<T> bits) {
  T x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The exponent field all ones, as a mask in T's bits.
template <class T>
bits_of<T> exponent_mask() {
  return static_cast<bits_of<T>>(sizeof(T) == 4 ? 0x7F800000U : 0x7FF0000000000000U);
}
template <class T>
bits_of<T> magnitude(T x) {
  return to_bits(x) & ~(bits_of<T>{1} << (8 * sizeof(T) - 1));
}

template <class T>
bool isnan(T x) {
  return magnitude(x) > exponent_mask<T>();
}
template <class T>
bool isinf(T x) {
  return magnitude(x) == exponent_mask<T>();
}
template <class T>
bool isfinite(T x) {
  return magnitude(x) < exponent_mask<T>();
}

template <class T>
bool signbit(T x) {
  return (to_bits(x) >> (8 * sizeof(T) - 1)) != 0;
}
// |magnitude| with the sign bit set as asked (-ffast-math may fold -0.0 to 0.0, or x ? -y : y).
template <class T>
T with_sign(T magnitude, bool negative) {
  const bits_of<T> sign = bits_of<T>{negative} << (8 * sizeof(T) - 1);
  return from_bits<T>(to_bits(magnitude) | sign);
}

// IEEE comparisons with NaN decided on the bits: a NaN operand is unordered (== and the
// orderings false, != true). Where neither is NaN, the comparison instructions are right even
// under -ffinite-math-only.
template <class T>
bool unordered(T a, T b) {
  return isnan(a) || isnan(b);
}
template <class T>
bool eq(T a, T b) {
  return !unordered(a, b) && a == b;
}
template <class T>
bool ne(T a, T b) {
  return unordered(a, b) || a != b;
}
template <class T>
bool lt(T a, T b) {
  return !unordered(a, b) && a < b;
}
template <class T>
bool le(T a, T b) {
  return !unordered(a, b) && a <= b;
}
template <class T>
bool gt(T a, T b) {
  return !unordered(a, b) && a > b;
}
template <class T>
bool ge(T a, T b) {
  return !unordered(a, b) && a >= b;
}

// float -> double and back for values that are both, without the conversion instructions that
// denormals-are-zero and flush-to-zero change (a -ffast-math program sets both from its start):
// a float subnormal is m * 2^-149, a normal double.
inline double to_double(float x) {
  const volatile std::uint32_t bits = to_bits(x); // (volatile: see reference.hpp's stand-in)
  if ((bits & 0x7F800000U) != 0 || (bits & 0x007FFFFFU) == 0) {
    return static_cast<double>(x); // normal, zero, infinite or NaN: not flushed
  }
  return with_sign(static_cast<double>(bits & 0x007FFFFFU) * 0x1p-149, signbit(x));
}
inline float to_float(double exact) {
  if (!(magnitude(exact) < to_bits(0x1p-126)) || magnitude(exact) == 0) {
    return static_cast<float>(exact); // normal, zero, infinite or NaN
  }
  const auto units = static_cast<std::uint32_t>(from_bits<double>(magnitude(exact)) * 0x1p149);
  return with_sign(from_bits<float>(units), signbit(exact));
}

// a * b and a / b rounded to float, also where the compiler keeps excess precision (32-bit x86
// without SSE computes in x87's 80 bits; the library rounds, so the expectations must too).
inline float product(float a, float b) {
  const volatile float rounded = a * b;
  return rounded;
}
inline float quotient(float a, float b) {
  const volatile float rounded = a / b;
  return rounded;
}

template <class T>
T positive_infinity() {
  return from_bits<T>(exponent_mask<T>());
}
// The default quiet NaN (the top mantissa bit set), positive.
template <class T>
T quiet_nan() {
  const bits_of<T> lowest_exponent_bit = exponent_mask<T>() & ~(exponent_mask<T>() << 1);
  return from_bits<T>(exponent_mask<T>() | lowest_exponent_bit >> 1);
}

} // namespace ieee

#endif // MINIFLOAT_TESTS_IEEE_HPP
