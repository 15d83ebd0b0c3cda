// The portable path's encode loops, instantiated for tools/check_vectorized.py, which compiles
// this file with the compiler's vectorization remarks and checks that each loop was vectorized
// (the portable path has no intrinsics: its speed is the compiler's vectorizer). Never linked.
#include <cstddef>
#include <cstdint>

#include <minifloat/minifloat.hpp>

using minifloat::overflow;
using minifloat::detail::rounding_rule;
using minifloat::detail::step2_variant;

template <class Format, rounding_rule Rule, overflow Overflow, step2_variant Variant, class Source>
void encode(const Source* x, std::size_t n, std::uint8_t* q) {
  minifloat::detail::no_tally tally;
  minifloat::detail::portable::encode_array<Format, Rule, Overflow, Variant>(
      x, n, q, minifloat::detail::no_random_bits{}, tally);
}

// The addition (nearest-even where the environment rounds to nearest) and the fixed-point
// kernels, for both overflow rules and both OCP formats, and the addition from doubles;
// -DENCODER=k compiles the k-th alone (so that each one's remarks are its own).
#if !defined(ENCODER) || ENCODER == 0
template void
encode<minifloat::formats::e4m3, rounding_rule::nearest_even, overflow::non_saturating,
       step2_variant::lane_addition>(const float*, std::size_t, std::uint8_t*);
#endif
#if !defined(ENCODER) || ENCODER == 1
template void encode<minifloat::formats::e4m3, rounding_rule::nearest_even, overflow::saturate,
                     step2_variant::lane_addition>(const float*, std::size_t, std::uint8_t*);
#endif
#if !defined(ENCODER) || ENCODER == 2
template void
encode<minifloat::formats::e5m2, rounding_rule::nearest_even, overflow::non_saturating,
       step2_variant::lane_addition>(const float*, std::size_t, std::uint8_t*);
#endif
#if !defined(ENCODER) || ENCODER == 3
template void encode<minifloat::formats::e4m3, rounding_rule::nearest_even, overflow::saturate,
                     step2_variant::lane_fixed_point>(const float*, std::size_t, std::uint8_t*);
#endif
#if !defined(ENCODER) || ENCODER == 4
template void
encode<minifloat::formats::e4m3, rounding_rule::nearest_even, overflow::non_saturating,
       step2_variant::lane_addition>(const double*, std::size_t, std::uint8_t*);
#endif
