// Compiled to PTX for sm_90 by the ptx_satfinite test: the float -> e4m3 / e5m2 conversions,
// saturating and not, must use the hardware instruction (cvt.rn.satfinite.e4m3x2.f32 / e5m2x2):
// check_ptx.cmake expects each instruction once per kernel below.
#include <minifloat/minifloat.hpp>

__global__ void narrow_saturating(const float* in, minifloat::e4m3* e4, minifloat::e5m2* e5) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  e4[i] = minifloat::saturate_cast<minifloat::e4m3>(in[i]);
  e5[i] = minifloat::saturate_cast<minifloat::e5m2>(in[i]);
}

__global__ void narrow_non_saturating(const float* in, minifloat::e4m3* e4, minifloat::e5m2* e5) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  e4[i] = minifloat::e4m3(in[i]);
  e5[i] = minifloat::e5m2(in[i]);
}
