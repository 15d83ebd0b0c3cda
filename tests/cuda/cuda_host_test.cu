// minifloat compiled by nvcc: host code and a kernel. The host part always runs; the kernel runs
// only when a GPU is present (the device sweep, device_sweep.cu, compares every float).
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <minifloat/cuda.hpp>
#include <minifloat/minifloat.hpp>

#include <cstdio>

namespace {

constexpr unsigned slots = 12;

__global__ void convert_kernel(const float* in, const double* in_double, std::uint8_t* out) {
  const unsigned i = threadIdx.x;
  // Every path the device can take: direct narrowing, the generic converter (double, integer,
  // another 8-bit format), saturation, stochastic rounding, widening, the format family.
  out[slots * i + 0] = minifloat::e4m3(in[i]).bits();
  out[slots * i + 1] = minifloat::saturate_cast<minifloat::e5m2>(in[i]).bits();
  out[slots * i + 2] = minifloat::e4m3(in_double[i]).bits();
  out[slots * i + 3] = minifloat::e5m2(static_cast<int>(i) - 16).bits();
  out[slots * i + 4] = minifloat::e4m3fnuz(minifloat::e5m2(in[i])).bits();
  out[slots * i + 5] = minifloat::stochastic_cast<minifloat::e4m3>(in[i], 0x9E3779B9u * i).bits();
  out[slots * i + 6] = minifloat::e8m0(static_cast<float>(minifloat::e4m3(in[i]))).bits();
  out[slots * i + 7] = minifloat::from_cuda(minifloat::to_cuda(minifloat::e4m3(in[i]))).bits();
  out[slots * i + 8] = minifloat::convert<minifloat::e4m3, minifloat::rounding::toward_zero,
                                          minifloat::overflow::saturate>(in[i])
                           .bits();
  // The MX elements and the NVFP4 scale (docs/spec.md §7).
  out[slots * i + 9] = minifloat::e2m1(in[i] / 32.0f).bits();
  out[slots * i + 10] =
      minifloat::convert<minifloat::e3m2, minifloat::rounding::toward_zero>(in[i] / 8.0f).bits();
  out[slots * i + 11] = minifloat::ue4m3(in[i]).bits();
}

std::uint8_t expected(unsigned slot, float x, double d, unsigned i) {
  switch (slot) {
  case 0:
    return minifloat::e4m3(x).bits();
  case 1:
    return minifloat::saturate_cast<minifloat::e5m2>(x).bits();
  case 2:
    return minifloat::e4m3(d).bits();
  case 3:
    return minifloat::e5m2(static_cast<int>(i) - 16).bits();
  case 4:
    return minifloat::e4m3fnuz(minifloat::e5m2(x)).bits();
  case 5:
    return minifloat::stochastic_cast<minifloat::e4m3>(x, 0x9E3779B9u * i).bits();
  case 6:
    return minifloat::e8m0(static_cast<float>(minifloat::e4m3(x))).bits();
  case 8:
    return minifloat::convert<minifloat::e4m3, minifloat::rounding::toward_zero,
                              minifloat::overflow::saturate>(x)
        .bits();
  case 9:
    return minifloat::e2m1(x / 32.0f).bits();
  case 10:
    return minifloat::convert<minifloat::e3m2, minifloat::rounding::toward_zero>(x / 8.0f).bits();
  case 11:
    return minifloat::ue4m3(x).bits();
  default:
    return minifloat::e4m3(x).bits();
  }
}

} // namespace

int main() {
  int failures = 0;
  // Host code compiled through nvcc: the same constexpr answers as with g++ and clang.
  static_assert(minifloat::e4m3(464.0f).bits() == 0x7E, "");
  static_assert(minifloat::saturate_cast<minifloat::e5m2>(1e9f).bits() == 0x7B, "");
  static_assert(minifloat::e2m1(5.0f).bits() == 0x6, "the tie 5 goes to the even 4");
  // The packed and block-scaled MXFP4 functions in nvcc-compiled host code.
  {
    float row[64];
    for (unsigned i = 0; i < 64; ++i) {
      row[i] = static_cast<float>(i) * 0.25f - 8.0f;
    }
    std::uint8_t packed[32];
    minifloat::e8m0 scales[2];
    minifloat::quantize_mx_packed<minifloat::e2m1>(row, 64, packed, scales);
    float back[64];
    minifloat::dequantize_mx_packed<minifloat::e2m1>(packed, 64, scales, back);
    failures += back[0] == -8.0f && back[63] == 6.0f ? 0 : 1; // floor: 7.75 clips to 6
  }
  const minifloat::e4m3 x(1.5f);
  const __nv_fp8_e4m3 nv = minifloat::to_cuda(x);
  failures += static_cast<float>(nv) == 1.5f ? 0 : 1;             // NVIDIA reads our byte
  failures += minifloat::from_cuda(__nv_fp8_e5m2(3.0f)).bits() == // and we read theirs
                      minifloat::e5m2(3.0f).bits()
                  ? 0
                  : 1;
  // The tables and the array functions in nvcc-compiled host code: nvcc's device pass
  // constant-evaluates the host's tables as well, which once failed to compile (a device-only
  // intrinsic in the converter's constant path).
  static_assert(minifloat::decode_table<minifloat::e4m3>[0x7E] == 448.0f, "");
  {
    constexpr unsigned count = 100;
    float values[count];
    minifloat::e4m3 codes[count];
    float back[count];
    float largest = 0.0f;
    for (unsigned i = 0; i < count; ++i) {
      values[i] = static_cast<float>(i) * 7.3f - 300.0f;
      largest = values[i] > largest ? values[i] : -values[i] > largest ? -values[i] : largest;
    }
    minifloat::convert(values, count, codes);
    minifloat::convert(codes, count, back);
    for (unsigned i = 0; i < count; ++i) {
      failures += codes[i].bits() == minifloat::e4m3(values[i]).bits() ? 0 : 1;
      failures += back[i] == static_cast<float>(codes[i]) ? 0 : 1;
    }
    failures += minifloat::amax(values, count) == largest ? 0 : 1;
  }

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: device part skipped\n");
  } else {
    constexpr unsigned n = 64;
    float in[n];
    double in_double[n];
    for (unsigned i = 0; i < n; ++i) {
      in[i] = static_cast<float>(i) * 7.3f - 200.0f;
      in_double[i] = 1.0 + 0x1p-4 + 0x1p-30 * i;
    }
    float* d_in;
    double* d_in_double;
    std::uint8_t* d_out;
    std::uint8_t out[slots * n];
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_in_double, sizeof in_double);
    cudaMalloc(&d_out, sizeof out);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    cudaMemcpy(d_in_double, in_double, sizeof in_double, cudaMemcpyHostToDevice);
    convert_kernel<<<1, n>>>(d_in, d_in_double, d_out);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < n; ++i) {
      for (unsigned slot = 0; slot < slots; ++slot) {
        if (out[slots * i + slot] != expected(slot, in[i], in_double[i], i)) {
          std::printf("device differs: slot %u input %u\n", slot, i);
          ++failures;
        }
      }
    }
    cudaFree(d_in);
    cudaFree(d_in_double);
    cudaFree(d_out);
  }
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
