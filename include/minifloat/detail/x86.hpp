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

// Large outputs with non-temporal (streaming) stores: they write whole cache lines to memory
// without first reading them (a store through the caches does, so writing 4 bytes costs 8 of
// bandwidth) and without evicting what the caches hold. A decoder writes 2 or 4 bytes per byte
// it reads, so for outputs larger than the caches this about doubles its speed. Calls
// kernel(non_temporal, first, count), non_temporal a std::integral_constant<bool>: cached
// stores for the elements before dst's first 64-byte boundary, streaming ones from there on,
// where the kernel's block stores are aligned (its tail stores are cached ones). SFENCE then
// orders the streaming stores, which are weakly ordered, before every later store, so that a
// thread which sees a later release store also sees the results.
template <class Result, class Kernel>
void with_non_temporal_stores(Result* dst, std::size_t n, const Kernel& kernel) {
  const std::size_t to_boundary =
      (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64 / sizeof(Result);
  const std::size_t head = to_boundary < n ? to_boundary : n;
  kernel(std::false_type{}, std::size_t{0}, head);
  kernel(std::true_type{}, head, n - head);
  _mm_sfence();
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_X86_HPP
