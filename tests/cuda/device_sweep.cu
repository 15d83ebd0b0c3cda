// Device conversions against the host's over all 2^32 floats, and the device conversion
// throughput against a device copy of the same bytes. Needs a GPU: CMake registers the test
// (label "gpu") only when one is present; elsewhere the program is built and not run.
#include <cuda_runtime.h>

#include <minifloat/minifloat.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

constexpr int results_per_input = 12;

// Each float of [base, base + n) through the four narrowings docs/spec.md §2 names for e4m3 and
// e5m2, two directed roundings, two stochastic ones, and four to the MX types (on sm_89 and later
// the four nearest-even e4m3 / e5m2 narrowings take the hardware conversion; the others take the
// same code as the host, in the device's float arithmetic).
__host__ __device__ void narrow_one(float x, std::uint8_t* out) {
  using minifloat::rounding;
  out[0] = minifloat::e4m3(x).bits();
  out[1] = minifloat::saturate_cast<minifloat::e4m3>(x).bits();
  out[2] = minifloat::e5m2(x).bits();
  out[3] = minifloat::saturate_cast<minifloat::e5m2>(x).bits();
  out[4] = minifloat::convert<minifloat::e4m3, rounding::toward_zero>(x).bits();
  out[5] = minifloat::convert<minifloat::e5m2, rounding::upward>(x).bits();
  // Stochastic rounding with random bits derived from the input's bits.
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const std::uint32_t random_bits = (bits ^ (bits >> 15)) * 0x2C1B3C6DU;
  out[6] = minifloat::stochastic_cast<minifloat::e4m3>(x, random_bits).bits();
  out[7] =
      minifloat::stochastic_cast<minifloat::e5m2, minifloat::overflow::saturate>(x, ~random_bits)
          .bits();
  // The MX elements and the NVFP4 scale (docs/spec.md §7).
  out[8] = minifloat::e2m1(x).bits();
  out[9] = minifloat::convert<minifloat::e2m3, rounding::toward_zero>(x).bits();
  out[10] = minifloat::stochastic_cast<minifloat::e3m2>(x, random_bits).bits();
  out[11] = minifloat::ue4m3(x).bits();
}

__global__ void narrow_all(std::uint32_t base, std::uint32_t n, std::uint8_t* out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  narrow_one(__uint_as_float(base + i), out + results_per_input * std::size_t{i});
}

// float -> e4m3 over an array: saturating (the hardware conversion from sm_89 on) or not (the
// library's own code, as on the host).
template <bool Saturate>
__global__ void narrow_array(const float* in, std::size_t n, minifloat::e4m3* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) {
    out[i] = Saturate ? minifloat::saturate_cast<minifloat::e4m3>(in[i]) : minifloat::e4m3(in[i]);
  }
}

// The same with four floats per thread: one 16-byte load and one 4-byte store, so that the
// memory system sees full-width accesses and the timing shows what the conversion itself costs.
template <bool Saturate>
__global__ void narrow_array_by_four(const float4* in, std::size_t quads, std::uint32_t* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < quads) {
    const float4 v = in[i];
    const float lanes[4] = {v.x, v.y, v.z, v.w};
    std::uint32_t word = 0;
    for (int k = 0; k < 4; ++k) {
      const minifloat::e4m3 code = Saturate ? minifloat::saturate_cast<minifloat::e4m3>(lanes[k])
                                            : minifloat::e4m3(lanes[k]);
      word |= std::uint32_t{code.bits()} << (8 * k); // element k at byte k (little-endian)
    }
    out[i] = word;
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
  const auto sweep_start = std::chrono::steady_clock::now();
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
          std::uint8_t host[results_per_input];
          narrow_one(x, host);
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
  std::printf("every float: %llu comparisons, %llu mismatches (%.1f s, %u host threads)\n",
              static_cast<unsigned long long>(std::uint64_t{results_per_input} << 32),
              static_cast<unsigned long long>(mismatches.load()),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count(),
              std::max(1u, std::thread::hardware_concurrency()));

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
  // Varied values, normal and subnormal in e4m3, both signs (a constant would let every thread
  // of a warp take the same select).
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<float>(static_cast<int>(i * 2654435761u % 2001u) - 1000) * 0.0137f;
  }
  cudaMemcpy(d_in, values.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const auto time_ms = [&](auto&& work) {
    float ms = 0;
    for (int repeat = 0; repeat < 2; ++repeat) { // the first round warms up
      cudaEventRecord(start);
      work();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      cudaEventElapsedTime(&ms, start, stop);
    }
    return ms;
  };
  const unsigned blocks = static_cast<unsigned>(n / 256);
  const unsigned quad_blocks = static_cast<unsigned>(n / 4 / 256);
  const auto* d_quads = reinterpret_cast<const float4*>(d_in); // cudaMalloc aligns to 256 bytes
  auto* d_words = reinterpret_cast<std::uint32_t*>(d_copy);
  std::vector<std::uint8_t> by_one(n);
  std::vector<std::uint8_t> by_four(n);
  std::uint64_t layout_mismatches = 0;
  const auto narrowing = [&](auto saturate, const char* what) {
    constexpr bool Saturate = decltype(saturate)::value;
    const float one_ms =
        time_ms([&] { narrow_array<Saturate><<<blocks, 256>>>(d_in, n, d_narrow); });
    const float four_ms = time_ms(
        [&] { narrow_array_by_four<Saturate><<<quad_blocks, 256>>>(d_quads, n / 4, d_words); });
    // The two kernels must store the same bytes.
    cudaMemcpy(by_one.data(), d_narrow, n, cudaMemcpyDeviceToHost);
    cudaMemcpy(by_four.data(), d_words, n, cudaMemcpyDeviceToHost);
    if (by_one != by_four) {
      ++layout_mismatches;
      std::printf("float -> e4m3 (%s): the four-per-thread kernel stored other bytes\n", what);
    }
    for (const auto& [threads, ms] : {std::pair<const char*, float>{"one per thread", one_ms},
                                      std::pair<const char*, float>{"four per thread", four_ms}}) {
      std::printf("float -> e4m3 (%s, %s): %.1f elements/ns, %.0f GB/s moved (read 4 + write 1 "
                  "bytes each)\n",
                  what, threads, n / (ms * 1e6), n * 5.0 / (ms * 1e6));
    }
  };
  narrowing(std::true_type{}, "saturating");
  narrowing(std::false_type{}, "non-saturating");
  const float copy_ms =
      time_ms([&] { cudaMemcpy(d_copy, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice); });
  std::printf("device copy of the same floats: %.1f elements/ns, %.0f GB/s moved\n",
              n / (copy_ms * 1e6), n * 8.0 / (copy_ms * 1e6));
  return mismatches.load() == 0 && layout_mismatches == 0 ? 0 : 1;
}
