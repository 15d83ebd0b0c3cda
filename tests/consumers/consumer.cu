// minifloat in a CUDA translation unit, compiled by nvcc from the installed headers (or the
// single header): host code and a kernel. The kernel runs only when a GPU is present.
#if defined(MINIFLOAT_CONSUMER_SINGLE_HEADER)
#include <minifloat.hpp>
#else
#include <minifloat/minifloat.hpp>
#endif

#include <cuda_runtime.h>

#include <cstdio>

__global__ void encode(const float* x, minifloat::e4m3* q, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    q[i] = minifloat::e4m3(x[i]);
  }
}

int main() {
  constexpr int n = 256;
  float x[n];
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i - 128) * 3.7f;
  }
  int failures = minifloat::e4m3(0.3f).bits() == 0x2A ? 0 : 1;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer.cu: host %s; no GPU, the kernel was compiled, not run\n",
                failures == 0 ? "ok" : "FAILED");
    return failures;
  }
  float* device_x = nullptr;
  minifloat::e4m3* device_q = nullptr;
  minifloat::e4m3 q[n];
  cudaMalloc(&device_x, sizeof x);
  cudaMalloc(&device_q, sizeof q);
  cudaMemcpy(device_x, x, sizeof x, cudaMemcpyHostToDevice);
  encode<<<1, n>>>(device_x, device_q, n);
  cudaMemcpy(q, device_q, sizeof q, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    failures += q[i].bits() == minifloat::e4m3(x[i]).bits() ? 0 : 1;
  }
  std::printf("consumer.cu: host and device %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
