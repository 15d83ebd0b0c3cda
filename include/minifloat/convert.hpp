// minifloat: the public casts. Each is a single correctly rounded conversion between any two of
// the types minifloat knows: the 8-bit types, float, double, binary16_bits, bfloat16_bits (and
// _Float16 / __bf16 where the compiler has them); integers as sources.
#ifndef MINIFLOAT_CONVERT_HPP
#define MINIFLOAT_CONVERT_HPP

#include "fp8.hpp"

namespace minifloat {

// x rounded to To with rounding R, then the overflow rule O applied to the rounded result
// (docs/spec.md §2). convert<e4m3>(465.0f) is NaN; convert<e4m3, rounding::nearest_even,
// overflow::saturate>(465.0f) is 448; convert<e4m3, rounding::toward_zero>(479.0f) is 448.
template <class To, rounding R = rounding::nearest_even, overflow O = overflow::non_saturating,
          class From>
MINIFLOAT_HOST_DEVICE constexpr To convert(From x) noexcept {
  return detail::convert_value<To, detail::rule_of(R), O>(x, 0);
}

// Nearest-even with saturation: anything beyond the largest finite value, infinities
// included, becomes +-max; NaN stays NaN. The semantics of NVIDIA's __NV_SATFINITE.
template <class To, class From>
MINIFLOAT_HOST_DEVICE constexpr To saturate_cast(From x) noexcept {
  return detail::convert_value<To, detail::rounding_rule::nearest_even, overflow::saturate>(x, 0);
}

// Stochastic rounding with caller-supplied random bits (docs/spec.md §2). Let lo <= |x| <= hi be
// the neighbouring values of To's grid (extended past the largest finite value as if the exponent
// range were unbounded), and frac = (|x| - lo) / (hi - lo). The magnitude rounds up to hi iff
//     floor(frac * 2^32) + random_bits >= 2^32,
// that is, with probability floor(frac * 2^32) / 2^32 for uniform random_bits: all 32 bits are
// used, and the result is unbiased up to 2^-32 of a unit in the last place. Equivalently: the
// 32 random bits are added just below the last kept bit of the magnitude and the sum truncated.
// Values exactly on the grid never change. A result past the largest finite value then follows
// the overflow rule O (non-saturating by default: e4m3 gives NaN, e5m2 infinity).
template <class To, overflow O = overflow::non_saturating, class From>
MINIFLOAT_HOST_DEVICE constexpr To stochastic_cast(From x, std::uint32_t random_bits) noexcept {
  return detail::convert_value<To, detail::rounding_rule::stochastic, O>(x, random_bits);
}

} // namespace minifloat

#endif // MINIFLOAT_CONVERT_HPP
