// Conversion throughput (Google Benchmark), scalar and bulk, with baselines measured in the
// same run: a plain copy of the same bytes (the memory system's limit), a plain read for amax,
// the scalar one-value loop, and NVIDIA's host conversion from cuda_fp8.h when the CUDA toolkit
// is found. Each array function runs on every path this CPU supports (portable, avx2, avx512).
// Data: N(0, 1) * 100, so that values fall in every binade of e4m3 and past its range, from a
// fixed seed, never a short pattern repeated. Sizes: 4 Ki, 64 Ki, 256 Ki and 64 Mi elements.
// After the usual table, a summary prints elements/ns and the ratios to the copy and to the
// scalar loop of the same size (MXFP4 decoding: to a copy of its own bytes; quantizing: to the
// saturating e4m3 encode on the same path).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#if defined(MINIFLOAT_BENCH_NVIDIA)
#include <cuda_fp8.h>
#endif

namespace {

using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::overflow;
using minifloat::simd_path;
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

// Baselines.
void BM_copy_float_bytes(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<float> dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n * sizeof(float));
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// A plain read of the same bytes at the machine's limit: an OR of every word, in the widest
// vectors the CPU has (GCC/clang vector extensions with a target attribute, like the library's
// kernels), so that amax is measured against what the memory system can deliver.
// (GCC drops vector_size from a dependent alias, so the vector types are spelled out.)
typedef std::uint32_t words16 __attribute__((vector_size(16)));
typedef std::uint32_t words32 __attribute__((vector_size(32)));
typedef std::uint32_t words64 __attribute__((vector_size(64)));
template <class Vector>
struct or_reduction {
  using vector = Vector;
  static constexpr std::size_t lanes = sizeof(Vector) / 4;
  static std::uint32_t run(const std::uint32_t* words, std::size_t n) {
    vector acc[4] = {};
    std::size_t i = 0;
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
      for (std::size_t k = 0; k < 4; ++k) {
        vector v;
        std::memcpy(&v, words + i + k * lanes, sizeof v);
        acc[k] |= v;
      }
    }
    std::uint32_t result = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      for (std::size_t lane = 0; lane < lanes; ++lane) {
        result |= acc[k][lane];
      }
    }
    for (; i < n; ++i) {
      result |= words[i];
    }
    return result;
  }
};
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx512f"))) std::uint32_t read_avx512(const std::uint32_t* w,
                                                             std::size_t n) {
  return or_reduction<words64>::run(w, n);
}
__attribute__((target("avx2"))) std::uint32_t read_avx2(const std::uint32_t* w, std::size_t n) {
  return or_reduction<words32>::run(w, n);
}
#endif
std::uint32_t read_all_words(const std::uint32_t* words, std::size_t n) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if (__builtin_cpu_supports("avx512f")) {
    return read_avx512(words, n);
  }
  if (__builtin_cpu_supports("avx2")) {
    return read_avx2(words, n);
  }
#endif
  return or_reduction<words16>::run(words, n);
}
void BM_read_float_bytes(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(read_all_words(reinterpret_cast<const std::uint32_t*>(src.data()), n));
  }
  set_counters(state);
}
// The scalar casts in a loop (float, binary16 or bfloat16 sources).
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
// ggml's block_mxfp4 (the scale interleaved, split-half nibbles), both ways.
void BM_quantize_mxfp4_ggml(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<minifloat::block_mxfp4> blocks(n / 32);
  for (auto _ : state) {
    minifloat::quantize_mxfp4_ggml(src.data(), n, blocks.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_dequantize_mxfp4_ggml(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<minifloat::block_mxfp4> blocks(n / 32);
  minifloat::quantize_mxfp4_ggml(normal_floats(n).data(), n, blocks.data());
  std::vector<float> dst(n);
  for (auto _ : state) {
    minifloat::dequantize_mxfp4_ggml(blocks.data(), n, dst.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
// Quantizing: amax, scale, encode and pack per block; the baseline is encode_e4m3_saturate.
void BM_quantize_mxfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::e8m0> scales(n / 32);
  for (auto _ : state) {
    minifloat::quantize_mx_packed<minifloat::e2m1>(src.data(), n, packed.data(), scales.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_quantize_nvfp4(benchmark::State& state, simd_path path) {
  const minifloat::scoped_path on(path);
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& src = normal_floats(n);
  const auto scale = minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(src.data(), n));
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<minifloat::ue4m3> scales(n / 16);
  for (auto _ : state) {
    minifloat::quantize_nvfp4(src.data(), n, packed.data(), scales.data(), scale);
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
  add("copy_float_bytes", BM_copy_float_bytes);
  add("read_float_bytes", BM_read_float_bytes);
  add("scalar_encode_e4m3",
      BM_scalar_encode<float, e4m3, rule::nearest_even, overflow::non_saturating>);
  add("scalar_encode_binary16_e4m3",
      BM_scalar_encode<minifloat::binary16_bits, e4m3, rule::nearest_even,
                       overflow::non_saturating>);
  add("scalar_encode_bfloat16_e4m3",
      BM_scalar_encode<minifloat::bfloat16_bits, e4m3, rule::nearest_even,
                       overflow::non_saturating>);
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
  add("encode_e5m2", BM_encode<float, e5m2, rule::nearest_even, overflow::non_saturating>);
  add("encode_e5m2_saturate", BM_encode<float, e5m2, rule::nearest_even, overflow::saturate>);
  add("encode_e4m3_toward_zero",
      BM_encode<float, e4m3, rule::toward_zero, overflow::non_saturating>);
  add("encode_e4m3_upward", BM_encode<float, e4m3, rule::upward, overflow::non_saturating>);
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
  add("amax", BM_amax);
  add("quantize_e4m3", BM_quantize_e4m3);
  add("quantize_e4m3_report", BM_quantize_e4m3_report);
  add("quantize_tiles_1x128_e4m3", BM_quantize_tiles_1x128_e4m3);
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
  add("quantize_mxfp4", BM_quantize_mxfp4);
  add("quantize_mxfp4_ggml", BM_quantize_mxfp4_ggml);
  add("dequantize_mxfp4_ggml_float", BM_dequantize_mxfp4_ggml);
  add("quantize_nvfp4", BM_quantize_nvfp4);
  add("dequantize_nvfp4_float", BM_dequantize_nvfp4<float>);
  add("dequantize_nvfp4_bfloat16", BM_dequantize_nvfp4<minifloat::bfloat16_bits>);
}

// Prints the usual table, then elements/ns with the ratios to the copy (or read, for amax) and
// to the scalar loop of the same size.
class summary_reporter : public benchmark::ConsoleReporter {
public:
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
    std::printf("\n%-48s %9s %9s %9s %9s %9s\n", "benchmark (elements/ns)", "el/ns", "x copy",
                "x scalar", "x encode", "x plain");
    for (const auto& [name, rate] : rates_) {
      const std::string size = name.substr(name.rfind('/'));
      const bool reads = name.rfind("amax", 0) == 0;
      // MXFP4 decoding against the copy of its own bytes (ggml's blocks move the same ones).
      std::string copy_name = "copy_float_bytes";
      if (reads) {
        copy_name = "read_float_bytes";
      } else if (name.rfind("dequantize_mxfp4_bfloat16", 0) == 0) {
        copy_name = "copy_mxfp4_bfloat16_bytes";
      } else if (name.rfind("dequantize_mxfp4_float", 0) == 0 ||
                 name.rfind("dequantize_mxfp4_ggml_float", 0) == 0) {
        copy_name = "copy_mxfp4_float_bytes";
      }
      const double copy = by_name[copy_name + size];
      const double scalar = name.find("decode") != std::string::npos
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
      std::printf("%-48s %9.3f %9.2f %9.2f %9.2f %9.2f\n", name.c_str(), rate,
                  copy > 0 ? rate / copy : 0.0, scalar > 0 ? rate / scalar : 0.0,
                  encode > 0 ? rate / encode : 0.0, plain > 0 ? rate / plain : 0.0);
    }
  }

private:
  std::vector<std::pair<std::string, double>> rates_;
};

} // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  std::printf("minifloat bulk conversion; active path %s\n",
              minifloat::to_string(minifloat::active_path()));
  summary_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
