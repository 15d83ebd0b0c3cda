// minifloat: every minifloat type as an Eigen scalar, only for code that includes this header
// (the library itself needs nothing beyond the standard library; this header needs Eigen 3.4).
//
//   Eigen::Matrix<minifloat::e4m3, Eigen::Dynamic, Eigen::Dynamic> w = x.cast<minifloat::e4m3>();
//   Eigen::MatrixXf y = w.cast<float>() * v;
//
// Storage: one byte per element (the value type is one byte, trivially copyable).
// Casts: `.cast<T>()` converts each element with the value type's explicit conversions, which
// are the library's: float, double, binary16 / bfloat16 and other minifloat types to a minifloat
// type round to nearest, ties to even, without saturation (docs/spec.md §3, §4), and a minifloat
// value widens to float or double exactly. For another rounding or overflow rule, convert the
// array itself: minifloat::convert<R, O>(m.data(), m.size(), out.data()).
// Arithmetic: as for the scalars (docs/spec.md §4), +, -, * and / of minifloat operands compute
// in float (in double with a double operand) and give that type, so a coefficient-wise
// expression of minifloat matrices is a float expression (`Eigen::MatrixXf s = a + b;`,
// `a.cwiseProduct(b)`, `a * 0.5f`). Nothing rounds back to 8 bits implicitly: narrowing is a
// `.cast<>()`. Matrix products and reductions (`sum`, `dot`) of minifloat matrices are not
// supported (Eigen's kernels accumulate in the scalar type): multiply `a.cast<float>()`.
// Comparisons, `maxCoeff` / `minCoeff`, `hasNaN` / `allFinite` work on the type itself.
#ifndef MINIFLOAT_EIGEN_HPP
#define MINIFLOAT_EIGEN_HPP

#include <Eigen/Core>

#include "fp8.hpp"
#include "iostream.hpp"
#include "limits.hpp"

namespace Eigen {

template <class Format>
struct NumTraits<::minifloat::basic_fp8<Format>>
    : GenericNumTraits<::minifloat::basic_fp8<Format>> {
  using Real = ::minifloat::basic_fp8<Format>;
  using NonInteger = Real;
  using Literal = Real;
  using Nested = Real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = ::minifloat::format_info<Format>::is_signed ? 1 : 0,
    RequireInitialization = 0, // trivially constructible: uninitialised storage is allowed
    ReadCost = 1,
    // Through float: a widening and an operation (Eigen's cost model only).
    AddCost = 3,
    MulCost = 3,
  };
  // The largest relative spacing, 2^-M (numeric_limits); Eigen's default tolerance for isApprox
  // and friends is the same (these formats cannot be compared more finely).
  static constexpr Real epsilon() noexcept { return std::numeric_limits<Real>::epsilon(); }
  static constexpr Real dummy_precision() noexcept { return epsilon(); }
  // What Eigen's FullPrecision prints: numeric_limits' max_digits10, enough for every value to
  // read back (digits10 is 0 for e4m3, which would print 1.5 as "2").
  static int digits10() noexcept { return std::numeric_limits<Real>::max_digits10; }
};

// The arithmetic operators of minifloat operands give float (or double, long double), not the
// operands' type (docs/spec.md §4); Eigen learns the result type of each operator here.
namespace internal {
template <class Operator>
struct is_minifloat_arithmetic : std::false_type {};
template <class A, class B>
struct is_minifloat_arithmetic<scalar_sum_op<A, B>> : std::true_type {};
template <class A, class B>
struct is_minifloat_arithmetic<scalar_difference_op<A, B>> : std::true_type {};
template <class A, class B>
struct is_minifloat_arithmetic<scalar_product_op<A, B>> : std::true_type {};
template <class A, class B>
struct is_minifloat_arithmetic<scalar_quotient_op<A, B>> : std::true_type {};
} // namespace internal

// One format: arithmetic gives float; the other operators (min, max, comparisons) keep the type.
template <class Format, class Operator>
struct ScalarBinaryOpTraits<::minifloat::basic_fp8<Format>, ::minifloat::basic_fp8<Format>,
                            Operator> {
  using ReturnType = std::conditional_t<internal::is_minifloat_arithmetic<Operator>::value, float,
                                        ::minifloat::basic_fp8<Format>>;
};
// Two formats: arithmetic and comparisons (whose result is bool whatever this says).
template <class F1, class F2, class Operator>
struct ScalarBinaryOpTraits<::minifloat::basic_fp8<F1>, ::minifloat::basic_fp8<F2>, Operator> {
  using ReturnType = float;
};
template <class Format, class Operator>
struct ScalarBinaryOpTraits<::minifloat::basic_fp8<Format>, float, Operator> {
  using ReturnType = float;
};
template <class Format, class Operator>
struct ScalarBinaryOpTraits<float, ::minifloat::basic_fp8<Format>, Operator> {
  using ReturnType = float;
};
template <class Format, class Operator>
struct ScalarBinaryOpTraits<::minifloat::basic_fp8<Format>, double, Operator> {
  using ReturnType = double;
};
template <class Format, class Operator>
struct ScalarBinaryOpTraits<double, ::minifloat::basic_fp8<Format>, Operator> {
  using ReturnType = double;
};

} // namespace Eigen

#endif // MINIFLOAT_EIGEN_HPP
