// minifloat: orders and keys for containers of 8-bit values that may hold NaN (docs/spec.md §4).
// The comparison operators are IEEE's: NaN is unordered and equals nothing. So `<` is no strict
// weak order on a range that holds a NaN (std::sort may misorder it; a hardened standard library
// aborts), and a hash container keyed by == never finds a NaN again. For those:
//   total_order   IEEE 754 totalOrder as a comparator ("a before b"): -NaN < -inf < ... < -0
//                 < +0 < ... < +inf < +NaN, NaNs by payload; fnuz's unsigned NaN (0x80) last
//   code_equal    equality of codes: a NaN equals itself, -0 and +0 are different keys
//   code_hash     the code; agrees with code_equal
//     std::sort(v.begin(), v.end(), minifloat::total_order{});
//     std::set<e4m3, minifloat::total_order> ordered;
//     std::unordered_set<e4m3, minifloat::code_hash, minifloat::code_equal> seen;
// (std::hash<basic_fp8> in limits.hpp agrees with ==: +0 and -0 hash alike.)
#ifndef MINIFLOAT_ORDER_HPP
#define MINIFLOAT_ORDER_HPP

#include <cstddef>

#include "fp8.hpp"

namespace minifloat {

namespace detail {
// The position of x in IEEE 754's total order of Format's codes: 0 .. 256.
template <class F>
MINIFLOAT_HOST_DEVICE constexpr unsigned total_order_rank(basic_fp8<F> x) noexcept {
  using info = format_info<F>;
  const unsigned code = x.bits();
  if (!info::is_signed) {
    return code; // e8m0: the codes ascend with the values, NaN (0xFF) last
  }
  if (info::special_values == specials::fnuz && code == info::nan_code) {
    return 0x100; // fnuz's NaN carries no sign: after every value
  }
  // Sign and magnitude: the magnitude codes ascend with the values (NaN's the largest), so the
  // negative codes go first in descending order of magnitude.
  const unsigned magnitude = code & info::magnitude_mask;
  return (code & info::sign_mask) != 0 ? info::magnitude_mask - magnitude
                                       : info::magnitude_mask + 1 + magnitude;
}
} // namespace detail

// IEEE 754 totalOrder of two values of one format, as a strict comparator: true when a comes
// before b (and a's code differs from b's).
struct total_order {
  template <class F>
  MINIFLOAT_HOST_DEVICE constexpr bool operator()(basic_fp8<F> a, basic_fp8<F> b) const noexcept {
    return detail::total_order_rank(a) < detail::total_order_rank(b);
  }
};

// Keys by code, for hash containers that may hold NaN.
struct code_equal {
  template <class F>
  MINIFLOAT_HOST_DEVICE constexpr bool operator()(basic_fp8<F> a, basic_fp8<F> b) const noexcept {
    return a.bits() == b.bits();
  }
};
struct code_hash {
  template <class F>
  MINIFLOAT_HOST_DEVICE constexpr std::size_t operator()(basic_fp8<F> x) const noexcept {
    return x.bits();
  }
};

} // namespace minifloat

#endif // MINIFLOAT_ORDER_HPP
