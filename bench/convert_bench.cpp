// Scalar conversion throughput (Google Benchmark). Baselines in the same run: a plain copy of
// the same bytes, and NVIDIA's host conversion from cuda_fp8.h when the CUDA toolkit is found.
// Data: N(0, 1) * 100 floats, so that values fall in every binade of e4m3 and past its range.
// Report: items_per_second is elements/s; divide by 1e9 for elements/ns.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include <minifloat/minifloat.hpp>

#if defined(MINIFLOAT_BENCH_NVIDIA)
#include <cuda_fp8.h>
#endif

namespace {

template <class T>
std::vector<T> normal_data(std::size_t n) {
  std::mt19937 rng(42);
  std::normal_distribution<T> normal(T(0), T(100));
  std::vector<T> data(n);
  for (T& x : data) {
    x = normal(rng);
  }
  return data;
}

void set_counters(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void BM_copy_float_bytes(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = normal_data<float>(n);
  std::vector<float> dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n * sizeof(float));
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

template <class T, minifloat::rounding R, minifloat::overflow O>
void BM_encode_float(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = normal_data<float>(n);
  std::vector<T> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = minifloat::convert<T, R, O>(src[i]);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

template <class T>
void BM_encode_double(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = normal_data<double>(n);
  std::vector<T> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = T(src[i]);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

template <class T>
void BM_stochastic_float(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = normal_data<float>(n);
  std::vector<std::uint32_t> random_bits(n);
  std::mt19937 rng(1);
  for (auto& r : random_bits) {
    r = static_cast<std::uint32_t>(rng());
  }
  std::vector<T> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = minifloat::stochastic_cast<T>(src[i], random_bits[i]);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

template <class T>
void BM_decode_float(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto values = normal_data<float>(n);
  std::vector<T> src(n);
  for (std::size_t i = 0; i < n; ++i) {
    src[i] = minifloat::saturate_cast<T>(values[i]);
  }
  std::vector<float> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = static_cast<float>(src[i]);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

#if defined(MINIFLOAT_BENCH_NVIDIA)
template <__nv_fp8_interpretation_t Format, __nv_saturation_t Saturation>
void BM_nvidia_encode_float(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = normal_data<float>(n);
  std::vector<__nv_fp8_storage_t> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = __nv_cvt_float_to_fp8(src[i], Saturation, Format);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
BENCHMARK(BM_nvidia_encode_float<__NV_E4M3, __NV_SATFINITE>)->Arg(65536);
BENCHMARK(BM_nvidia_encode_float<__NV_E5M2, __NV_NOSAT>)->Arg(65536);
#endif

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::overflow;
using minifloat::rounding;
BENCHMARK(BM_copy_float_bytes)->Arg(65536);
BENCHMARK(BM_encode_float<e4m3, rounding::nearest_even, overflow::non_saturating>)->Arg(65536);
BENCHMARK(BM_encode_float<e4m3, rounding::nearest_even, overflow::saturate>)->Arg(65536);
BENCHMARK(BM_encode_float<e4m3, rounding::toward_zero, overflow::non_saturating>)->Arg(65536);
BENCHMARK(BM_encode_float<e5m2, rounding::nearest_even, overflow::non_saturating>)->Arg(65536);
BENCHMARK(BM_encode_double<e4m3>)->Arg(65536);
BENCHMARK(BM_stochastic_float<e4m3>)->Arg(65536);
BENCHMARK(BM_decode_float<e4m3>)->Arg(65536);
BENCHMARK(BM_decode_float<e5m2>)->Arg(65536);

} // namespace

BENCHMARK_MAIN();
