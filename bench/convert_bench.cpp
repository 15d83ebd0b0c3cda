// Conversion throughput (Google Benchmark), scalar and bulk, with baselines measured in the
// same run: the memory-pattern limits (copies that move exactly the bytes of each kind of
// conversion in the widest vectors, and a read for amax), the scalar one-value loop, and
// NVIDIA's host conversion from cuda_fp8.h when the CUDA toolkit is found. Each array function
// runs on every path this CPU supports (portable, avx2, avx512, neon).
// Data: N(0, 1) * 100, so that values fall in every binade of e4m3 and past its range, from a
// fixed seed, never a short pattern repeated. Sizes: 4 Ki, 64 Ki, 256 Ki and 64 Mi elements;
// each size converts the same buffer repeatedly (in cache up to 256 Ki).
// It first prints the CPU model and the core clock from a probe; after the usual table, a
// summary prints elements/ns, cycles per element and the ratios to the memory pattern's limit
// (limit_for), to the scalar loop of the same size, to the saturating e4m3 encode on the same
// path (quantizing) and to the same call without a report.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "machine.hpp"
#include "memory_patterns.hpp"

#if defined(MINIFLOAT_BENCH_NVIDIA)
#include <cuda_fp8.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::overflow;
using minifloat::simd_path;
using minifloat_bench::core_cycles_per_ns;
using minifloat_bench::cpu_model;
using rule = minifloat::rounding;

const std::vector<float>& normal_floats(std::size_t n) {
  static std::map<std::size_t, std::vector<float>> cache;
  auto& data = cache[n];
  if (data.empty()) {
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 100.0f);
    data.resize(n);
    for (float& x : data) {
      x = normal(rng);
    }
  }
  return data;
}

template <class T>
std::vector<T> converted(std::size_t n) {
  const auto& floats = normal_floats(n);
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] =
        minifloat::convert<T, minifloat::rounding::nearest_even, overflow::saturate>(floats[i]);
  }
  return out;
}

void set_counters(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

// Baselines: the memory-pattern limits (memory_patterns.hpp). Each reads and writes exactly the
// bytes of the conversions it stands for (4 bytes in and 1 out per element for float -> 8 bits,
// 8 -> 1 for doubles, 2 -> 1 for 16-bit sources, 1 -> 4 and 1 -> 2 for decoding, a read of 4 for
// amax), with streaming stores where the output reaches the library's threshold for them
// (MINIFLOAT_NON_TEMPORAL_THRESHOLD, as the decoders do). The summary divides each conversion's
// rate by its pattern's ("x limit").
using minifloat_bench::on_widest_vectors;
using minifloat_bench::vector_bytes;

// Buffers aligned to 64 bytes (streaming stores need their vector's alignment), filled.
struct aligned_bytes {
  explicit aligned_bytes(std::size_t size) : storage(size + 64, std::uint8_t{0x5A}) {}
  std::uint8_t* data() {
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    return storage.data() + (64 - address % 64) % 64;
  }
  std::vector<std::uint8_t> storage;
};
bool streams(std::size_t out_bytes) { return out_bytes >= MINIFLOAT_NON_TEMPORAL_THRESHOLD; }

template <std::size_t Ratio, bool Stream>
void narrowing_copy(const std::uint8_t* src, std::uint8_t* dst, std::size_t out_bytes) {
  on_widest_vectors([&](auto patterns) {
    decltype(patterns)::template narrowing_copy<Ratio, Stream>(src, dst, out_bytes);
  });
}
template <std::size_t Ratio, bool Stream>
void widening_copy(const std::uint8_t* src, std::uint8_t* dst, std::size_t in_bytes) {
  on_widest_vectors([&](auto patterns) {
    decltype(patterns)::template widening_copy<Ratio, Stream>(src, dst, in_bytes);
  });
}
std::uint32_t read_all(const std::uint8_t* src, std::size_t bytes) {
  return on_widest_vectors([&](auto patterns) { return decltype(patterns)::read_all(src, bytes); });
}

// n elements of InBytes each into n of OutBytes each.
template <std::size_t InBytes, std::size_t OutBytes>
void BM_limit_copy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  aligned_bytes src(n * InBytes);
  aligned_bytes dst(n * OutBytes);
  const bool stream = streams(n * OutBytes);
  for (auto _ : state) {
    if constexpr (InBytes >= OutBytes) {
      stream ? narrowing_copy<InBytes / OutBytes, true>(src.data(), dst.data(), n * OutBytes)
             : narrowing_copy<InBytes / OutBytes, false>(src.data(), dst.data(), n * OutBytes);
    } else {
      stream ? widening_copy<OutBytes / InBytes, true>(src.data(), dst.data(), n * InBytes)
             : widening_copy<OutBytes / InBytes, false>(src.data(), dst.data(), n * InBytes);
    }
    if (stream) {
#if defined(MINIFLOAT_BENCH_X86)
      _mm_sfence();
#endif
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// A read of n floats' bytes (amax's pattern).
void BM_limit_read(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  aligned_bytes src(n * sizeof(float));
  for (auto _ : state) {
    benchmark::DoNotOptimize(read_all(src.data(), n * sizeof(float)));
  }
  set_counters(state);
}

// The scalar casts in a loop (float, binary16, bfloat16 or double sources).
template <class Source, class T, minifloat::rounding R, overflow O>
void BM_scalar_encode(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& floats = normal_floats(n);
  std::vector<Source> src(n);
  for (std::size_t i = 0; i < n; ++i) {
    src[i] = minifloat::convert<Source>(floats[i]);
  }
  std::vector<T> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = minifloat::convert<T, R, O>(src[i]);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_scalar_decode_e4m3(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = converted<e4m3>(n);
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
  const auto& src = normal_floats(n);
  std::vector<__nv_fp8_storage_t> dst(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = __nv_cvt_float_to_fp8(src[i], Saturation, Format);
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
#endif

// The public array functions on one path (chosen through minifloat::scoped_path).
template <class Source, class T, minifloat::rounding R, overflow O>
void BM_encode(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& floats = normal_floats(n);
  std::vector<Source> src(n);
  for (std::size_t i = 0; i < n; ++i) {
    src[i] = minifloat::convert<Source>(floats[i]);
  }
  std::vector<T> dst(n);
  for (auto _ : state) {
    minifloat::convert<R, O>(src.data(), n, dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// The same with a conversion report (report.hpp); the summary's "x plain" column divides its
// rate by the plain call's.
template <class T, minifloat::rounding R, overflow O>
void BM_encode_report(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<T> dst(n);
  minifloat::conversion_report report;
  for (auto _ : state) {
    minifloat::convert<R, O>(src.data(), n, dst.data(), report);
    benchmark::DoNotOptimize(report);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// Activations after a ReLU, N(0, 1) with the negative half 0, into e4m3: every group holds zero
// codes and about a third of them a subnormal result (the reports' hard case: docs/performance.md,
// stop 48), with a report or without.
const std::vector<float>& relu_floats(std::size_t n) {
  static std::map<std::size_t, std::vector<float>> cache;
  auto& data = cache[n];
  if (data.empty()) {
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    data.resize(n);
    for (float& x : data) {
      const float v = normal(rng);
      x = v > 0 ? v : 0.0f;
    }
  }
  return data;
}
template <class T, bool Report>
void BM_encode_relu(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = relu_floats(n);
  std::vector<T> dst(n);
  minifloat::conversion_report report;
  for (auto _ : state) {
    if constexpr (Report) {
      minifloat::convert(src.data(), n, dst.data(), report);
      benchmark::DoNotOptimize(report);
    } else {
      minifloat::convert(src.data(), n, dst.data());
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
template <class T>
void BM_stochastic_array_bits(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<std::uint32_t> bits(n);
  const minifloat::counter_generator generator{7, 0};
  for (std::size_t i = 0; i < n; ++i) {
    bits[i] = generator(i);
  }
  std::vector<T> dst(n);
  for (auto _ : state) {
    minifloat::stochastic_convert<overflow::saturate>(src.data(), n, bits.data(), dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
template <class T>
void BM_stochastic_generator(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<T> dst(n);
  for (auto _ : state) {
    minifloat::stochastic_convert<overflow::saturate>(src.data(), n, dst.data(),
                                                      minifloat::counter_generator{7, 0});
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
template <class T, class To>
void BM_decode(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto src = converted<T>(n);
  std::vector<To> dst(n);
  for (auto _ : state) {
    // (Non-temporal stores for large outputs, as MINIFLOAT_NON_TEMPORAL_THRESHOLD says.)
    minifloat::convert(src.data(), n, dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_amax(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(minifloat::amax(src.data(), n));
  }
  set_counters(state);
}

// Scaling (scaling.hpp): quantize with a per-tensor scale, fused into the encode kernel; its
// baseline is encode_e4m3_saturate on the same path.
void BM_quantize_e4m3(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(src.data(), n));
  std::vector<e4m3> dst(n);
  for (auto _ : state) {
    minifloat::quantize(src.data(), n, dst.data(), scale);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_quantize_e4m3_report(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(src.data(), n));
  std::vector<e4m3> dst(n);
  minifloat::conversion_report report;
  for (auto _ : state) {
    minifloat::quantize(src.data(), n, dst.data(), scale, report);
    benchmark::DoNotOptimize(report);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// The public block and MX functions on the active path (rows of 4096 floats).
void BM_quantize_tiles_1x128_e4m3(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<e4m3> q(n);
  std::vector<float> scale_inv(n / 128);
  for (auto _ : state) {
    minifloat::quantize_blocks(src.data(), n / 4096, 4096, minifloat::tile_1x128, q.data(),
                               scale_inv.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// 128 x 128 blocks (DeepSeek-V3's weights): 128 rows of n / 128 floats up to 512 Ki elements,
// then rows of 4096 (a 4 Ki array holds no such block: sizes from 64 Ki).
void BM_quantize_blocks_128x128_e4m3(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const std::size_t rows = n <= (std::size_t{512} << 10) ? 128 : n / 4096;
  std::vector<e4m3> q(n);
  std::vector<float> scale_inv(n / (128 * 128));
  for (auto _ : state) {
    minifloat::quantize_blocks(src.data(), rows, n / rows, minifloat::block_128x128, q.data(),
                               scale_inv.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_quantize_mx_e4m3(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<e4m3> q(n);
  std::vector<minifloat::e8m0> scales(n / 32);
  for (auto _ : state) {
    minifloat::quantize_mx(src.data(), n, q.data(), scales.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_quantize_mx_e4m3_report(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<e4m3> q(n);
  std::vector<minifloat::e8m0> scales(n / 32);
  minifloat::conversion_report report;
  for (auto _ : state) {
    minifloat::quantize_mx(src.data(), n, q.data(), scales.data(), report);
    benchmark::DoNotOptimize(report);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// The same for 1 x 128 tiles (block-scaled, as quantize_mx's blocks).
void BM_quantize_tiles_1x128_e4m3_report(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<e4m3> q(n);
  std::vector<float> scale_inv(n / 128);
  minifloat::conversion_report report;
  for (auto _ : state) {
    minifloat::quantize_blocks(src.data(), n / 4096, 4096, minifloat::tile_1x128, q.data(),
                               scale_inv.data(), report);
    benchmark::DoNotOptimize(report);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

// Microscaling (microscaling.hpp). MXFP4 decoding moves 0.53 bytes in (a nibble and 1/32 of a
// scale byte) and 2 or 4 out per element; its baseline is a copy of exactly those bytes: each
// 16-byte block written OutBytes / 0.5 times over, in the widest moves the compiler emits.
template <std::size_t OutBytes>
void BM_copy_mxfp4_bytes(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::uint8_t> src(n / 2 + n / 32, 0x5A);
  std::vector<std::uint8_t> dst(n * OutBytes);
  constexpr std::size_t copies = OutBytes * 2; // output bytes per input byte
  for (auto _ : state) {
    for (std::size_t b = 0; b < n / 32; ++b) {
      std::uint8_t block[16];
      std::memcpy(block, src.data() + 16 * b, 16);
      block[0] = static_cast<std::uint8_t>(block[0] ^ src[n / 2 + b]); // the scale byte, read
      for (std::size_t k = 0; k < copies; ++k) {
        std::memcpy(dst.data() + 16 * (copies * b + k), block, 16);
      }
    }
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
struct mxfp4_tensor {
  std::vector<std::uint8_t> packed;
  std::vector<minifloat::e8m0> scales;
};
const mxfp4_tensor& mxfp4_of_normal_floats(std::size_t n) {
  static std::map<std::size_t, mxfp4_tensor> cache;
  auto& t = cache[n];
  if (t.packed.empty()) {
    t.packed.resize(n / 2);
    t.scales.resize(n / 32);
    minifloat::quantize_mx_packed<minifloat::e2m1>(normal_floats(n).data(), n, t.packed.data(),
                                                   t.scales.data());
  }
  return t;
}
template <class To>
void BM_dequantize_mxfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const mxfp4_tensor& t = mxfp4_of_normal_floats(n);
  std::vector<To> dst(n);
  for (auto _ : state) {
    minifloat::dequantize_mx_packed<minifloat::e2m1>(t.packed.data(), n, t.scales.data(),
                                                     dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// ggml's block_mxfp4 (the scale interleaved, split-half nibbles) decoded; quantized below.
template <class To>
void BM_dequantize_mxfp4_ggml(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<minifloat::block_mxfp4> blocks(n / 32);
  minifloat::quantize_mxfp4_ggml(normal_floats(n).data(), n, blocks.data());
  std::vector<To> dst(n);
  for (auto _ : state) {
    minifloat::dequantize_mxfp4_ggml(blocks.data(), n, dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// Quantizing: amax, scale, encode and pack per block; the baseline is encode_e4m3_saturate (with
// a report: the same call without one). with_report_if calls `call` with a report where
// WithReport, else with no argument.
template <bool WithReport, class Call>
void with_report_if(const Call& call) {
  if constexpr (WithReport) {
    minifloat::conversion_report report;
    call(report);
    benchmark::DoNotOptimize(report);
  } else {
    call();
  }
}
template <bool WithReport>
void BM_quantize_mxfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::e8m0> scales(n / 32);
  for (auto _ : state) {
    with_report_if<WithReport>([&](auto&... report) {
      minifloat::quantize_mx_packed<minifloat::e2m1>(src.data(), n, packed.data(), scales.data(),
                                                     report...);
    });
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// ggml's block_mxfp4 (the scale interleaved, split-half nibbles), with a report or without.
template <bool WithReport>
void BM_quantize_mxfp4_ggml(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<minifloat::block_mxfp4> blocks(n / 32);
  for (auto _ : state) {
    with_report_if<WithReport>([&](auto&... report) {
      minifloat::quantize_mxfp4_ggml(src.data(), n, blocks.data(), report...);
    });
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
template <bool WithReport>
void BM_quantize_nvfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const auto scale = minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(src.data(), n));
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::ue4m3> scales(n / 16);
  for (auto _ : state) {
    with_report_if<WithReport>([&](auto&... report) {
      minifloat::quantize_nvfp4(src.data(), n, packed.data(), scales.data(), scale, report...);
    });
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
template <class To>
void BM_dequantize_nvfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const auto scale = minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(src.data(), n));
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::ue4m3> scales(n / 16);
  minifloat::quantize_nvfp4(src.data(), n, packed.data(), scales.data(), scale);
  std::vector<To> dst(n);
  for (auto _ : state) {
    minifloat::dequantize_nvfp4(packed.data(), n, scales.data(), scale, dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}

constexpr std::int64_t sizes[] = {4 << 10, 64 << 10, 256 << 10, 64 << 20};

void add(const std::string& name, void (*function)(benchmark::State&)) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), function);
  for (std::int64_t n : sizes) {
    b->Arg(n);
  }
}
void add(const std::string& name, void (*function)(benchmark::State&, simd_path)) {
  for (simd_path path :
       {simd_path::portable, simd_path::avx2, simd_path::avx512, simd_path::neon}) {
    if (!minifloat::path_supported(path)) {
      continue;
    }
    auto* b = benchmark::RegisterBenchmark((name + "/" + minifloat::to_string(path)).c_str(),
                                           function, path);
    for (std::int64_t n : sizes) {
      b->Arg(n);
    }
  }
}

void register_all() {
  add("limit_copy_4B_to_1B", BM_limit_copy<4, 1>);
  add("limit_copy_8B_to_1B", BM_limit_copy<8, 1>);
  add("limit_copy_2B_to_1B", BM_limit_copy<2, 1>);
  add("limit_copy_1B_to_4B", BM_limit_copy<1, 4>);
  add("limit_copy_1B_to_2B", BM_limit_copy<1, 2>);
  add("limit_read_4B", BM_limit_read);
  add("scalar_encode_e4m3",
      BM_scalar_encode<float, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("scalar_encode_binary16_e4m3",
      BM_scalar_encode<minifloat::binary16_bits, e4m3, rule::nearest_even,
                       overflow::non_saturating>);
  add("scalar_encode_bfloat16_e4m3",
      BM_scalar_encode<minifloat::bfloat16_bits, e4m3, rule::nearest_even,
                       overflow::non_saturating>);
  add("scalar_encode_double_e4m3",
      BM_scalar_encode<double, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("scalar_encode_e4m3_toward_zero",
      BM_scalar_encode<float, e4m3, rule::toward_zero, overflow::non_saturating>);
  add("scalar_encode_e4m3_upward",
      BM_scalar_encode<float, e4m3, rule::upward, overflow::non_saturating>);
  add("scalar_decode_e4m3", BM_scalar_decode_e4m3);
#if defined(MINIFLOAT_BENCH_NVIDIA)
  add("nvidia_encode_e4m3_satfinite", BM_nvidia_encode_float<__NV_E4M3, __NV_SATFINITE>);
  add("nvidia_encode_e5m2", BM_nvidia_encode_float<__NV_E5M2, __NV_NOSAT>);
#endif
  add("encode_e4m3", BM_encode<float, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("encode_e4m3_saturate", BM_encode<float, e4m3, rule::nearest_even, overflow::saturate>);
  add("encode_e4m3_report", BM_encode_report<e4m3, rule::nearest_even, overflow::non_saturating>);
  add("encode_e4m3_saturate_report",
      BM_encode_report<e4m3, rule::nearest_even, overflow::saturate>);
  add("encode_e4m3_relu", BM_encode_relu<e4m3, false>);
  add("encode_e4m3_relu_report", BM_encode_relu<e4m3, true>);
  add("encode_e5m2", BM_encode<float, e5m2, rule::nearest_even, overflow::non_saturating>);
  add("encode_e5m2_report", BM_encode_report<e5m2, rule::nearest_even, overflow::non_saturating>);
  add("encode_e5m2_saturate", BM_encode<float, e5m2, rule::nearest_even, overflow::saturate>);
  add("encode_e4m3_toward_zero",
      BM_encode<float, e4m3, rule::toward_zero, overflow::non_saturating>);
  add("encode_e4m3_upward", BM_encode<float, e4m3, rule::upward, overflow::non_saturating>);
  add("encode_e4m3_upward_saturate", BM_encode<float, e4m3, rule::upward, overflow::saturate>);
  add("encode_e5m2_toward_zero",
      BM_encode<float, e5m2, rule::toward_zero, overflow::non_saturating>);
  add("encode_e5m2_upward", BM_encode<float, e5m2, rule::upward, overflow::non_saturating>);
  add("encode_e4m3fnuz",
      BM_encode<float, minifloat::e4m3fnuz, rule::nearest_even, overflow::non_saturating>);
  add("encode_e5m2fnuz",
      BM_encode<float, minifloat::e5m2fnuz, rule::nearest_even, overflow::non_saturating>);
  add("encode_double_e4m3", BM_encode<double, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("encode_binary16_e4m3",
      BM_encode<minifloat::binary16_bits, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("encode_bfloat16_e4m3",
      BM_encode<minifloat::bfloat16_bits, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("stochastic_e4m3_array_bits", BM_stochastic_array_bits<e4m3>);
  add("stochastic_e4m3_generator", BM_stochastic_generator<e4m3>);
  add("decode_e4m3_float", BM_decode<e4m3, float>);
  add("decode_e5m2_float", BM_decode<e5m2, float>);
  add("decode_e4m3_binary16", BM_decode<e4m3, minifloat::binary16_bits>);
  add("decode_e4m3_bfloat16", BM_decode<e4m3, minifloat::bfloat16_bits>);
  add("decode_e5m2_bfloat16", BM_decode<e5m2, minifloat::bfloat16_bits>);
  add("decode_e4m3fnuz_bfloat16", BM_decode<minifloat::e4m3fnuz, minifloat::bfloat16_bits>);
  add("amax", BM_amax);
  add("quantize_e4m3", BM_quantize_e4m3);
  add("quantize_e4m3_report", BM_quantize_e4m3_report);
  add("quantize_tiles_1x128_e4m3", BM_quantize_tiles_1x128_e4m3);
  add("quantize_tiles_1x128_e4m3_report", BM_quantize_tiles_1x128_e4m3_report);
  {
    auto* b = benchmark::RegisterBenchmark("quantize_blocks_128x128_e4m3",
                                           BM_quantize_blocks_128x128_e4m3);
    for (std::int64_t n : sizes) {
      if (n >= 128 * 128) {
        b->Arg(n);
      }
    }
  }
  add("quantize_mx_e4m3", BM_quantize_mx_e4m3);
  add("quantize_mx_e4m3_report", BM_quantize_mx_e4m3_report);
  add("copy_mxfp4_bfloat16_bytes", BM_copy_mxfp4_bytes<2>);
  add("copy_mxfp4_float_bytes", BM_copy_mxfp4_bytes<4>);
  add("dequantize_mxfp4_bfloat16", BM_dequantize_mxfp4<minifloat::bfloat16_bits>);
  add("dequantize_mxfp4_float", BM_dequantize_mxfp4<float>);
  add("quantize_mxfp4", BM_quantize_mxfp4<false>);
  add("quantize_mxfp4_report", BM_quantize_mxfp4<true>);
  add("quantize_mxfp4_ggml", BM_quantize_mxfp4_ggml<false>);
  add("quantize_mxfp4_ggml_report", BM_quantize_mxfp4_ggml<true>);
  add("dequantize_mxfp4_ggml_float", BM_dequantize_mxfp4_ggml<float>);
  add("dequantize_mxfp4_ggml_bfloat16", BM_dequantize_mxfp4_ggml<minifloat::bfloat16_bits>);
  add("quantize_nvfp4", BM_quantize_nvfp4<false>);
  add("quantize_nvfp4_report", BM_quantize_nvfp4<true>);
  add("dequantize_nvfp4_float", BM_dequantize_nvfp4<float>);
  add("dequantize_nvfp4_bfloat16", BM_dequantize_nvfp4<minifloat::bfloat16_bits>);
}

// The memory pattern a benchmark's rate is divided by (without the size): its own for the
// limits; for the MXFP4 and NVFP4 decoders a copy of their own bytes (NVFP4's 16-element blocks
// carry twice MXFP4's scale bytes, 1/16 of a byte per element more: close enough); else by
// source and result width.
std::string limit_for(const std::string& name) {
  const auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  const auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
  if (starts("limit_") || starts("copy_")) {
    return name.substr(0, name.rfind('/'));
  }
  if (starts("amax")) {
    return "limit_read_4B";
  }
  if (starts("dequantize_") && has("bfloat16")) {
    return "copy_mxfp4_bfloat16_bytes";
  }
  if (starts("dequantize_")) {
    return "copy_mxfp4_float_bytes";
  }
  if (has("decode")) {
    return has("binary16") || has("bfloat16") ? "limit_copy_1B_to_2B" : "limit_copy_1B_to_4B";
  }
  if (has("double")) {
    return "limit_copy_8B_to_1B";
  }
  if (has("binary16") || has("bfloat16")) {
    return "limit_copy_2B_to_1B";
  }
  return "limit_copy_4B_to_1B";
}

// Prints the usual table, then elements/ns, cycles per element (at the clock probe's rate) and
// the ratios to the memory pattern's limit, to the scalar loop of the same size, to the plain
// encode (quantizing) and to the call without a report.
class summary_reporter : public benchmark::ConsoleReporter {
public:
  explicit summary_reporter(double cycles_per_ns) : cycles_per_ns_(cycles_per_ns) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const auto it = run.counters.find("items_per_second");
      if (it != run.counters.end()) {
        rates_.push_back({run.benchmark_name(), it->second.value / 1e9});
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::map<std::string, double> by_name(rates_.begin(), rates_.end());
    std::printf("\n%-48s %9s %9s %9s %9s %9s %9s\n", "benchmark (elements/ns)", "el/ns", "cyc/el",
                "x limit", "x scalar", "x encode", "x plain");
    for (const auto& [name, rate] : rates_) {
      const std::string size = name.substr(name.rfind('/'));
      const double limit = by_name[limit_for(name) + size];
      const bool baseline = name.rfind("limit_", 0) == 0 || name.rfind("copy_", 0) == 0;
      const double scalar = baseline ? 0.0
                            : name.find("decode") != std::string::npos
                                ? by_name["scalar_decode_e4m3" + size]
                                : by_name["scalar_encode_e4m3" + size];
      // quantize against the plain saturating encode on the same path (or the active one).
      double encode = 0;
      if (name.rfind("quantize", 0) == 0) {
        const std::size_t path_end = name.rfind('/');
        const std::size_t path_start = name.rfind('/', path_end - 1);
        const bool on_a_path =
            name.rfind("quantize_e4m3/", 0) == 0 || name.rfind("quantize_e4m3_report/", 0) == 0 ||
            name.rfind("quantize_mxfp4/", 0) == 0 || name.rfind("quantize_nvfp4/", 0) == 0 ||
            name.rfind("quantize_mxfp4_ggml/", 0) == 0;
        const std::string path =
            on_a_path ? name.substr(path_start, path_end - path_start)
                      : std::string("/") + minifloat::to_string(minifloat::active_path());
        encode = by_name["encode_e4m3_saturate" + path + size];
      }
      // A call with a report against the same call without one.
      const std::size_t report_at = name.find("_report");
      const double plain = report_at == std::string::npos
                               ? 0.0
                               : by_name[name.substr(0, report_at) + name.substr(report_at + 7)];
      std::printf("%-48s %9.3f %9.2f %9.2f %9.2f %9.2f %9.2f\n", name.c_str(), rate,
                  rate > 0 ? cycles_per_ns_ / rate : 0.0, limit > 0 ? rate / limit : 0.0,
                  scalar > 0 ? rate / scalar : 0.0, encode > 0 ? rate / encode : 0.0,
                  plain > 0 ? rate / plain : 0.0);
    }
  }

private:
  double cycles_per_ns_;
  std::vector<std::pair<std::string, double>> rates_;
};

} // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  const double cycles_per_ns = core_cycles_per_ns();
  std::printf("minifloat bulk conversion on %s; active path %s; widest vectors %zu bytes;\n"
              "core clock by the probe (a dependent addition chain): %.2f GHz\n",
              cpu_model().c_str(), minifloat::to_string(minifloat::active_path()), vector_bytes(),
              cycles_per_ns);
  summary_reporter reporter(cycles_per_ns);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
