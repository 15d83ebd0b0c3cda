// minifloat: interop with NVIDIA's cuda_fp8.h types. Include cuda_fp8.h first; these helpers
// move the byte across and never convert (the codes of e4m3 / e5m2 and __nv_fp8_e4m3 /
// __nv_fp8_e5m2 are the same OCP encodings).
//   __nv_fp8_e4m3 n = minifloat::to_cuda(minifloat::e4m3(1.5f));
//   minifloat::e4m3 m = minifloat::from_cuda(n);
#ifndef MINIFLOAT_CUDA_HPP
#define MINIFLOAT_CUDA_HPP

#include "fp8.hpp"

#if defined(__CUDA_FP8_TYPES_EXIST__)

namespace minifloat {

MINIFLOAT_HOST_DEVICE inline __nv_fp8_e4m3 to_cuda(e4m3 x) noexcept {
  __nv_fp8_e4m3 result;
  result.__x = x.bits();
  return result;
}
MINIFLOAT_HOST_DEVICE inline __nv_fp8_e5m2 to_cuda(e5m2 x) noexcept {
  __nv_fp8_e5m2 result;
  result.__x = x.bits();
  return result;
}
MINIFLOAT_HOST_DEVICE inline e4m3 from_cuda(__nv_fp8_e4m3 x) noexcept {
  return e4m3::from_bits(x.__x);
}
MINIFLOAT_HOST_DEVICE inline e5m2 from_cuda(__nv_fp8_e5m2 x) noexcept {
  return e5m2::from_bits(x.__x);
}

} // namespace minifloat

#endif // __CUDA_FP8_TYPES_EXIST__
#endif // MINIFLOAT_CUDA_HPP
