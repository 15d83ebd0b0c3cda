// Device conversions against the host's over all 2^32 floats, and the device conversion
// throughput against a device copy of the same bytes. Needs a GPU: CMake registers the test
// (label "gpu") only when one is present; elsewhere the program is built and not run.
#include <cuda_runtime.h>

#include <minifloat/minifloat.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr int results_per_input = 4;

// Each float of [base, base + n) through the four narrowings SPEC §2 names for e4m3 and e5m2.
__global__ void narrow_all(std::uint32_t base, std::uint32_t n, std::uint8_t* out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const float x = __uint_as_float(base + i);
  out[results_per_input * i + 0] = minifloat::e4m3(x).bits();
  out[results_per_input * i + 1] = minifloat::saturate_cast<minifloat::e4m3>(x).bits();
  out[results_per_input * i + 2] = minifloat::e5m2(x).bits();
  out[results_per_input * i + 3] = minifloat::saturate_cast<minifloat::e5m2>(x).bits();
}

__global__ void narrow_saturating(const float* in, std::size_t n, minifloat::e4m3* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) {
    out[i] = minifloat::saturate_cast<minifloat::e4m3>(in[i]);
  }
}

bool check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(status));
    return false;
  }
  return true;
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU\n");
    return 0;
  }
  // 1. Every float, in chunks of 2^26, compared with the host on every core.
  constexpr std::uint32_t chunk = 1u << 26;
  std::uint8_t* d_out = nullptr;
  if (!check(cudaMalloc(&d_out, std::size_t{chunk} * results_per_input), "cudaMalloc")) {
    return 1;
  }
  std::vector<std::uint8_t> out(std::size_t{chunk} * results_per_input);
  std::atomic<std::uint64_t> mismatches{0};
  for (std::uint64_t base = 0; base < (std::uint64_t{1} << 32); base += chunk) {
    narrow_all<<<chunk / 256, 256>>>(static_cast<std::uint32_t>(base), chunk, d_out);
    if (!check(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost), "copy")) {
      return 1;
    }
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (std::uint32_t i = t; i < chunk; i += threads) {
          const auto bits = static_cast<std::uint32_t>(base + i);
          float x;
          std::memcpy(&x, &bits, sizeof x);
          const std::uint8_t host[results_per_input] = {
              minifloat::e4m3(x).bits(), minifloat::saturate_cast<minifloat::e4m3>(x).bits(),
              minifloat::e5m2(x).bits(), minifloat::saturate_cast<minifloat::e5m2>(x).bits()};
          for (int k = 0; k < results_per_input; ++k) {
            if (out[results_per_input * std::size_t{i} + k] != host[k] &&
                mismatches.fetch_add(1) < 10) {
              std::printf("mismatch: float 0x%08x result %d device 0x%02x host 0x%02x\n", bits, k,
                          out[results_per_input * std::size_t{i} + k], host[k]);
            }
          }
        }
      });
    }
    for (auto& thread : pool) {
      thread.join();
    }
  }
  std::printf("every float: %llu comparisons, %llu mismatches\n",
              static_cast<unsigned long long>(4ull << 32),
              static_cast<unsigned long long>(mismatches.load()));

  // 2. Throughput: 2^28 floats (1 GiB) -> e4m3, against a device-to-device copy of the input.
  const std::size_t n = std::size_t{1} << 28;
  float* d_in = nullptr;
  float* d_copy = nullptr;
  minifloat::e4m3* d_narrow = nullptr;
  if (!check(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&d_copy, n * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&d_narrow, n), "cudaMalloc")) {
    return 1;
  }
  cudaMemset(d_in, 0x3F, n * sizeof(float));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float convert_ms = 0, copy_ms = 0;
  for (int repeat = 0; repeat < 2; ++repeat) { // the first round warms up
    cudaEventRecord(start);
    narrow_saturating<<<static_cast<unsigned>(n / 256), 256>>>(d_in, n, d_narrow);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&convert_ms, start, stop);
    cudaEventRecord(start);
    cudaMemcpy(d_copy, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&copy_ms, start, stop);
  }
  std::printf("float -> e4m3 (saturating): %.1f elements/ns, %.0f GB/s moved (read 4 + write 1 "
              "bytes each)\n",
              n / (convert_ms * 1e6), n * 5.0 / (convert_ms * 1e6));
  std::printf("device copy of the same floats: %.1f elements/ns, %.0f GB/s moved\n",
              n / (copy_ms * 1e6), n * 8.0 / (copy_ms * 1e6));
  return mismatches.load() == 0 ? 0 : 1;
}
