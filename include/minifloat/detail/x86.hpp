// minifloat: what the x86 kernel headers (kernels_avx2.hpp, kernels_avx512.hpp) share: the
// intrinsics headers and the non-temporal store policy. Included only by detail/dispatch.hpp,
// and only where MINIFLOAT_X86_PATHS (config.hpp): x86-64 with GCC or Clang, outside nvcc. Each
// path is the lane kernels of lanes.inc compiled with a target attribute, so that a program
// built without -m flags still runs them on a CPU that has the instructions (dispatch.hpp checks
// the CPU before calling one).
#ifndef MINIFLOAT_DETAIL_X86_HPP
#define MINIFLOAT_DETAIL_X86_HPP

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels_portable.hpp"

namespace minifloat {
namespace detail {

// The decoders' stores on whole cache lines: calls kernel(non_temporal, first, count),
// non_temporal a std::integral_constant<bool>, for the elements before dst's first 64-byte
// boundary (the kernel's partial path) and then for the rest, whose block stores are aligned.
// A 64-byte store that straddles two lines costs both: std::vector's large buffers, from mmap,
// start 16 bytes past a page, so that every such store into one straddles, and e4m3 -> float on
// AVX-512 with the outputs in the second-level cache ran at 8.0 el/ns into such a buffer and
// 11.7 into an aligned one (Xeon, family 6 model 167; bfloat16 results 15.8 and 20.1). Fewer
// than 256 elements with cached stores go in one call (splitting costs a second partial pass).
// With `mode` non_temporal the rest goes with streaming stores: they write whole cache lines to
// memory without first reading them (a store through the caches does, so writing 4 bytes costs
// 8 of bandwidth) and without evicting what the caches hold; a decoder writes 2 or 4 bytes per
// byte it reads, so for outputs larger than the caches this about doubles its speed. SFENCE then
// orders the streaming stores, which are weakly ordered, before every later store, so that a
// thread which sees a later release store also sees the results.
template <class Result, class Kernel>
void with_aligned_stores(Result* dst, std::size_t n, stores mode, const Kernel& kernel) {
  if (mode == stores::cached && n < 256) {
    kernel(std::false_type{}, std::size_t{0}, n);
    return;
  }
  const std::size_t to_boundary = elements_to_line(dst);
  const std::size_t head = to_boundary < n ? to_boundary : n;
  kernel(std::false_type{}, std::size_t{0}, head);
  if (mode == stores::non_temporal) {
    kernel(std::true_type{}, head, n - head);
    _mm_sfence();
  } else {
    kernel(std::false_type{}, head, n - head);
  }
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_X86_HPP
