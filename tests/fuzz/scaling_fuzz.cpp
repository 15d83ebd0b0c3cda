// libFuzzer harness 2: random shapes, block sizes, scales, margins and lengths through the
// scaling and array APIs. Each call either is refused (minifloat::invalid_argument, and then
// every output is untouched) or gives what the definitions of docs/spec.md §5 give, written out
// here as plain loops over the scalar casts; the round trips dequantize -> quantize with
// power-of-two scales give back the codes; amax agrees on every path. Arrays are allocated to their
// exact size, so AddressSanitizer sees any access past them.
//
// Input: byte 0 picks the format (bits 0-2; with bit 7 an MX element type), the MX scale rule
// (bits 3-4), power-of-two scales (bit 5) and the delayed-scaling amax rule (bit 6); bytes 1-2 the
// matrix (rows 0..16, cols 0..96); bytes 3-4 the block (0..8 x 0..32); byte 5 the margin (signed);
// bytes 6-9 a scale's float bits; byte 10 a history length (0..7); the rest are the floats (cycled
// to fill).
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "../supported_paths.hpp"
#include "formats.hpp"
#include "../ieee.hpp"

namespace {

using minifloat::block_shape;
using minifloat::simd_path;

[[noreturn]] void fail(const char* what, std::size_t i) {
  std::fprintf(stderr, "scaling_fuzz: %s (element %zu)\n", what, i);
  std::abort();
}
void expect(bool ok, const char* what, std::size_t i = 0) {
  if (!ok) {
    fail(what, i);
  }
}

// An exactly sized array filled with a guard pattern, and whether it still holds it.
template <class T>
struct guarded {
  explicit guarded(std::size_t size) : n(size), data(new T[size]) {
    std::memset(static_cast<void*>(data.get()), 0xA5, n * sizeof(T));
  }
  bool untouched() const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.get());
    for (std::size_t i = 0; i < n * sizeof(T); ++i) {
      if (bytes[i] != 0xA5) {
        return false;
      }
    }
    return true;
  }
  T& operator[](std::size_t i) { return data[i]; }
  T* get() { return data.get(); }
  std::size_t n;
  std::unique_ptr<T[]> data;
};

// Runs call(); true if it was refused. A refusal must leave `outputs` untouched.
template <class Call, class Untouched>
bool refused(Call call, Untouched untouched) {
  try {
    call();
  } catch (const minifloat::invalid_argument&) {
    expect(untouched(), "a refused call wrote to an output");
    return true;
  }
  return false;
}

bool same_float(float a, float b) {
  return (ieee::isnan(a) && ieee::isnan(b)) || std::memcmp(&a, &b, sizeof(float)) == 0;
}
bool positive_finite(float s) { return s > 0 && ieee::isfinite(s); }

float naive_amax(const float* x, std::size_t n) {
  float largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (ieee::isnan(x[i])) {
      return ieee::quiet_nan<float>();
    }
    largest = std::fabs(x[i]) > largest ? std::fabs(x[i]) : largest;
  }
  return largest;
}

struct parameters {
  std::size_t rows, cols;
  block_shape block;
  int margin;
  float scale;
  std::size_t history;
  minifloat::mx_scale_rule mx_rule;
  minifloat::scale_rounding rounding;
  minifloat::amax_rule amax_rule;
};

template <class T>
void check_per_tensor(const std::vector<float>& input, const parameters& p) {
  const std::size_t n = input.size();
  guarded<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = input[i];
  }
  // amax on every path.
  const float amax = minifloat::amax(x.get(), n);
  expect(same_float(amax, naive_amax(x.get(), n)), "amax");
  for (simd_path path : supported_paths()) {
    expect(same_float(amax_with_path(path, x.get(), n), amax), "amax on a path");
  }
  // quantize with the input's scale: refused unless positive and finite.
  guarded<T> q(n);
  if (refused([&] { minifloat::quantize(x.get(), n, q.get(), p.scale); },
              [&] { return q.untouched(); })) {
    expect(!positive_finite(p.scale), "quantize refused a good scale");
  } else {
    expect(positive_finite(p.scale), "quantize accepted a bad scale");
    for (std::size_t i = 0; i < n; ++i) {
      expect(q[i].bits() == minifloat::saturate_cast<T>(x[i] * p.scale).bits(), "quantize", i);
    }
    guarded<T> on_path(n);
    for (simd_path path : supported_paths()) {
      const minifloat::scoped_path on(path);
      minifloat::quantize(x.get(), n, on_path.get(), p.scale);
      expect(std::memcmp(on_path.get(), q.get(), n) == 0, "quantize on a path");
    }
  }
  // dequantize with the same number as scale_inv.
  guarded<float> y(n);
  if (refused([&] { minifloat::dequantize(q.get(), n, y.get(), p.scale); },
              [&] { return y.untouched(); })) {
    expect(!positive_finite(p.scale), "dequantize refused a good scale_inv");
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      expect(same_float(y[i], static_cast<float>(q[i]) * p.scale), "dequantize", i);
    }
  }
  // The per-tensor round trip with a power-of-two scale: the codes come back.
  if (refused(
          [&] {
            const auto quantized = minifloat::quantize_per_tensor<T>(
                x.get(), n, p.margin, minifloat::scale_rounding::power_of_two);
            const float scale = 1.0f / quantized.scale_inv;
            guarded<float> back(n);
            minifloat::dequantize(quantized.data.data(), n, back.get(), quantized.scale_inv);
            guarded<T> again(n);
            minifloat::quantize(back.get(), n, again.get(), scale);
            for (std::size_t i = 0; i < n; ++i) {
              if (!minifloat::isnan(quantized.data[i]) && ieee::isfinite(back[i])) {
                expect(again[i].bits() == quantized.data[i].bits(), "per-tensor round trip", i);
              }
            }
          },
          [] { return true; })) {
    expect(p.margin < 0, "quantize_per_tensor refused a good margin");
  }
  // Delayed scaling over three steps of the data.
  if (refused(
          [&] {
            minifloat::delayed_scaling<T> scaling(p.history, p.amax_rule, p.margin, p.rounding);
            float expected_scale = 1.0f;
            std::vector<float> history;
            for (int step = 0; step < 3; ++step) {
              guarded<T> codes(n);
              const float scale_inv = scaling.quantize(x.get(), n, codes.get());
              expect(same_float(scale_inv, 1.0f / expected_scale), "delayed scale_inv");
              for (std::size_t i = 0; i < n; ++i) {
                expect(codes[i].bits() == minifloat::saturate_cast<T>(x[i] * expected_scale).bits(),
                       "delayed quantize", i);
              }
              history.push_back(amax);
              if (history.size() > p.history) {
                history.erase(history.begin());
              }
              float reduced = history.back();
              if (p.amax_rule == minifloat::amax_rule::max) {
                reduced = naive_amax(history.data(), history.size());
              }
              if (positive_finite(reduced)) {
                expected_scale = minifloat::compute_scale<T>(reduced, p.margin, p.rounding);
              }
              expect(same_float(scaling.scale(), expected_scale), "delayed scale");
            }
          },
          [] { return true; })) {
    expect(p.history == 0 || p.margin < 0, "delayed_scaling refused good arguments");
  }
}

// A block quantizer's report against the element-by-element definitions (report_tally's add,
// docs/spec.md §10) on the values it converted, x times its block's scale as float computes it.
template <class T>
void expect_report(const minifloat::conversion_report& report, const std::vector<double>& values,
                   const T* codes, const char* what) {
  minifloat::detail::report_tally recount;
  for (std::size_t i = 0; i < values.size(); ++i) {
    recount.add<typename minifloat::detail::value_traits<T>::format>(values[i], codes[i].bits());
  }
  recount.report.elements = values.size();
  const minifloat::conversion_report& r = recount.report;
  expect(report.elements == r.elements && report.nan_inputs == r.nan_inputs &&
             report.infinite_inputs == r.infinite_inputs && report.saturated == r.saturated &&
             report.overflowed == r.overflowed && report.flushed_to_zero == r.flushed_to_zero &&
             report.subnormal == r.subnormal &&
             report.negative_for_unsigned == r.negative_for_unsigned &&
             report.max_relative_error == r.max_relative_error,
         what);
}

template <class T>
void check_blocks(const std::vector<float>& input, const parameters& p) {
  const std::size_t n = p.rows * p.cols;
  guarded<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = input.empty() ? 0.0f : input[i % input.size()];
  }
  const bool divides = p.block.rows != 0 && p.block.cols != 0 && p.rows % p.block.rows == 0 &&
                       p.cols % p.block.cols == 0;
  const std::size_t block_columns = divides ? p.cols / p.block.cols : 0;
  const std::size_t blocks = divides && n != 0 ? (p.rows / p.block.rows) * block_columns : 0;
  guarded<T> q(n);
  guarded<float> scale_inv(blocks);
  const bool refused_quantize = refused(
      [&] {
        minifloat::quantize_blocks(x.get(), p.rows, p.cols, p.block, q.get(), scale_inv.get(),
                                   p.margin, p.rounding);
      },
      [&] { return q.untouched() && scale_inv.untouched(); });
  expect(refused_quantize == (!divides || p.margin < 0), "quantize_blocks refusal");
  if (refused_quantize) {
    return;
  }
  const auto block_of = [&](std::size_t i) {
    return (i / p.cols / p.block.rows) * block_columns + (i % p.cols) / p.block.cols;
  };
  std::vector<float> block_amax(blocks, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    float& a = block_amax[block_of(i)];
    a = ieee::isnan(a) || ieee::isnan(x[i]) ? ieee::quiet_nan<float>()
        : std::fabs(x[i]) > a               ? std::fabs(x[i])
                                            : a;
  }
  for (std::size_t b = 0; b < blocks; ++b) {
    const float scale = minifloat::compute_scale<T>(block_amax[b], p.margin, p.rounding);
    expect(same_float(scale_inv[b], 1.0f / scale), "quantize_blocks scale_inv", b);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const float scale = minifloat::compute_scale<T>(block_amax[block_of(i)], p.margin, p.rounding);
    expect(q[i].bits() == minifloat::saturate_cast<T>(x[i] * scale).bits(), "quantize_blocks", i);
  }
  // With a report: the same codes and scales, and the definitions' counts.
  {
    guarded<T> reported(n);
    guarded<float> reported_inv(blocks);
    minifloat::conversion_report report;
    minifloat::quantize_blocks(x.get(), p.rows, p.cols, p.block, reported.get(), reported_inv.get(),
                               report, p.margin, p.rounding);
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) {
      expect(reported[i].bits() == q[i].bits(), "quantize_blocks with a report", i);
      const float scale =
          minifloat::compute_scale<T>(block_amax[block_of(i)], p.margin, p.rounding);
      values[i] = static_cast<double>(x[i] * scale);
    }
    for (std::size_t b = 0; b < blocks; ++b) {
      expect(same_float(reported_inv[b], scale_inv[b]), "quantize_blocks with a report, scale", b);
    }
    expect_report(report, values, reported.get(), "quantize_blocks report");
  }
  guarded<float> y(n);
  minifloat::dequantize_blocks(q.get(), p.rows, p.cols, p.block, scale_inv.get(), y.get());
  for (std::size_t i = 0; i < n; ++i) {
    expect(same_float(y[i], static_cast<float>(q[i]) * scale_inv[block_of(i)]), "dequantize_blocks",
           i);
  }
}

template <class T>
void check_mx(const std::vector<float>& input, const parameters& p) {
  const std::size_t n = p.rows * p.cols;
  guarded<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = input.empty() ? 1.0f : input[(i * 7) % input.size()];
  }
  const std::size_t blocks = n / minifloat::mx_block_size;
  guarded<T> q(n);
  guarded<minifloat::e8m0> scales(blocks);
  const bool refused_quantize =
      refused([&] { minifloat::quantize_mx(x.get(), n, q.get(), scales.get(), p.mx_rule); },
              [&] { return q.untouched() && scales.untouched(); });
  expect(refused_quantize == (n % minifloat::mx_block_size != 0), "quantize_mx refusal");
  if (refused_quantize) {
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t b = i / minifloat::mx_block_size;
    const minifloat::e8m0 scale = minifloat::compute_mx_scale<T>(
        naive_amax(x.get() + b * minifloat::mx_block_size, minifloat::mx_block_size), p.mx_rule);
    expect(scales[b].bits() == scale.bits(), "quantize_mx scale", b);
    const float inverse =
        minifloat::isnan(scale) ? 1.0f : std::ldexp(1.0f, 127 - static_cast<int>(scale.bits()));
    expect(q[i].bits() == minifloat::saturate_cast<T>(x[i] * inverse).bits(), "quantize_mx", i);
  }
  // With a report: the same codes, and the definitions' counts where every block's factor 2^-k
  // is one float multiplication (scale codes below 254; 254 takes two, and NaN scales none).
  {
    guarded<T> reported(n);
    guarded<minifloat::e8m0> reported_scales(blocks);
    minifloat::conversion_report report;
    minifloat::quantize_mx(x.get(), n, reported.get(), reported_scales.get(), report, p.mx_rule);
    bool one_multiplication = true;
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) {
      expect(reported[i].bits() == q[i].bits(), "quantize_mx with a report", i);
      const unsigned code = scales[i / minifloat::mx_block_size].bits();
      one_multiplication = one_multiplication && code < 254;
      values[i] = static_cast<double>(x[i] * std::ldexp(1.0f, 127 - static_cast<int>(code)));
    }
    if (one_multiplication) {
      expect_report(report, values, reported.get(), "quantize_mx report");
    }
  }
  guarded<float> y(n);
  minifloat::dequantize_mx(q.get(), n, scales.get(), y.get());
  for (std::size_t i = 0; i < n; ++i) {
    const minifloat::e8m0 scale = scales[i / minifloat::mx_block_size];
    const double exact = static_cast<double>(static_cast<float>(q[i])) *
                         std::ldexp(1.0, static_cast<int>(scale.bits()) - 127);
    const float expected =
        minifloat::isnan(scale) ? ieee::quiet_nan<float>() : static_cast<float>(exact);
    expect(same_float(y[i], expected), "dequantize_mx", i);
  }
}

// packed.hpp and microscaling.hpp: refused exactly when the count does not fill bytes or
// blocks (or the NVFP4 tensor scale is not positive and finite), else the definitions: packed
// MX is quantize_mx + pack, its decoding dequantize_mx's, ggml's blocks the same codes in split
// halves, NVFP4 Transformer Engine's steps (docs/spec.md §7).
void check_microscaling(const std::vector<float>& input, const parameters& p) {
  using minifloat::e2m1;
  const std::size_t n = p.rows * p.cols;
  guarded<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = input.empty() ? 1.0f : input[(i * 5) % input.size()];
  }
  // FP4 packing of the plain conversions.
  guarded<std::uint8_t> packed(n / 2);
  const bool refused_pack =
      refused([&] { minifloat::convert_to_packed<e2m1>(x.get(), n, packed.get()); },
              [&] { return packed.untouched(); });
  expect(refused_pack == (n % 2 != 0), "convert_to_packed refusal");
  if (!refused_pack) {
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned code = (packed[i / 2] >> (4 * (i % 2))) & 0xFU;
      expect(code == minifloat::convert<e2m1>(x[i]).bits(), "convert_to_packed", i);
    }
  }
  // Packed MXFP4 and ggml blocks against quantize_mx<e2m1>.
  const std::size_t blocks = n / 32;
  guarded<minifloat::e8m0> scales(blocks);
  guarded<std::uint8_t> mx(n / 2);
  const bool refused_mx = refused(
      [&] { minifloat::quantize_mx_packed<e2m1>(x.get(), n, mx.get(), scales.get(), p.mx_rule); },
      [&] { return mx.untouched() && scales.untouched(); });
  expect(refused_mx == (n % 32 != 0), "quantize_mx_packed refusal");
  if (!refused_mx && n != 0) {
    std::vector<e2m1> q(n);
    std::vector<minifloat::e8m0> expected_scales(blocks);
    minifloat::quantize_mx(x.get(), n, q.data(), expected_scales.data(), p.mx_rule);
    std::vector<minifloat::block_mxfp4> ggml(blocks);
    minifloat::quantize_mxfp4_ggml(x.get(), n, ggml.data(), p.mx_rule);
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned code = (mx[i / 2] >> (4 * (i % 2))) & 0xFU;
      expect(code == q[i].bits(), "quantize_mx_packed", i);
      const std::size_t j = i % 32;
      const unsigned ggml_byte = ggml[i / 32].elements[j % 16];
      expect((j < 16 ? ggml_byte & 0xFU : ggml_byte >> 4) == q[i].bits(), "ggml element", i);
    }
    for (std::size_t b = 0; b < blocks; ++b) {
      expect(scales[b].bits() == expected_scales[b].bits(), "quantize_mx_packed scale", b);
      expect(ggml[b].scale == expected_scales[b].bits(), "ggml scale", b);
    }
    std::vector<float> expected(n);
    minifloat::dequantize_mx(q.data(), n, expected_scales.data(), expected.data());
    for (simd_path path : supported_paths()) {
      const minifloat::scoped_path on(path);
      guarded<float> y(n);
      minifloat::dequantize_mx_packed<e2m1>(mx.get(), n, scales.get(), y.get());
      guarded<float> from_ggml(n);
      minifloat::dequantize_mxfp4_ggml(ggml.data(), n, from_ggml.get());
      for (std::size_t i = 0; i < n; ++i) {
        expect(same_float(y[i], expected[i]), "dequantize_mx_packed", i);
        expect(same_float(from_ggml[i], expected[i]), "dequantize_mxfp4_ggml", i);
      }
    }
  }
  // NVFP4 with p.scale as the stored encode scale (compressed-tensors' convention).
  const auto tensor_scale = minifloat::nvfp4_tensor_scale::from_encode_scale(p.scale);
  guarded<std::uint8_t> nv(n / 2);
  guarded<minifloat::ue4m3> bytes(n / 16);
  const bool refused_nv =
      refused([&] { minifloat::quantize_nvfp4(x.get(), n, nv.get(), bytes.get(), tensor_scale); },
              [&] { return nv.untouched() && bytes.untouched(); });
  expect(refused_nv == (n % 16 != 0 || !positive_finite(tensor_scale.encode) ||
                        !positive_finite(tensor_scale.decode)),
         "quantize_nvfp4 refusal");
  // Read back (whatever the codes and bytes hold) with p.scale as the stored decode scale
  // (ModelOpt's convention): refused unless n fills blocks and p.scale is positive and finite;
  // else element * byte * decode, in that order.
  const auto stored_decode = minifloat::nvfp4_tensor_scale::from_decode_scale(p.scale);
  guarded<float> back(n);
  const bool refused_back = refused(
      [&] { minifloat::dequantize_nvfp4(nv.get(), n, bytes.get(), stored_decode, back.get()); },
      [&] { return back.untouched(); });
  expect(refused_back == (n % 16 != 0 || !positive_finite(p.scale)), "dequantize_nvfp4 refusal");
  for (std::size_t i = 0; !refused_back && i < n; ++i) {
    const unsigned code = (nv[i / 2] >> (4 * (i % 2))) & 0xFU;
    const float element = static_cast<float>(e2m1::from_bits(static_cast<std::uint8_t>(code)));
    const float byte = static_cast<float>(bytes[i / 16]);
    const float product = element * byte;
    expect(same_float(back[i], product * p.scale), "dequantize_nvfp4", i);
  }
  // The same on every path, into float and into bfloat16 (that float rounded once more,
  // nearest-even; a NaN as any NaN): whatever the block count, odd or even (the AVX-512
  // bfloat16 kernel takes blocks in pairs).
  for (simd_path path : supported_paths()) {
    if (refused_back) {
      break;
    }
    const minifloat::scoped_path on(path);
    guarded<float> on_path(n);
    guarded<minifloat::bfloat16_bits> halves(n);
    minifloat::dequantize_nvfp4(nv.get(), n, bytes.get(), stored_decode, on_path.get());
    minifloat::dequantize_nvfp4(nv.get(), n, bytes.get(), stored_decode, halves.get());
    for (std::size_t i = 0; i < n; ++i) {
      expect(same_float(on_path[i], back[i]), "dequantize_nvfp4 on a path", i);
      const std::uint16_t expected = minifloat::convert<minifloat::bfloat16_bits>(back[i]).bits;
      const bool both_nan = (expected & 0x7FFFU) > 0x7F80U && (halves[i].bits & 0x7FFFU) > 0x7F80U;
      expect(both_nan || halves[i].bits == expected, "dequantize_nvfp4 into bfloat16", i);
    }
  }
  if (refused_nv) {
    return;
  }
  const float byte_factor = tensor_scale.encode * (1.0f / 6.0f);
  for (std::size_t b = 0; b < n / 16; ++b) {
    const float amax_b = naive_amax(x.get() + 16 * b, 16);
    const minifloat::ue4m3 byte = minifloat::saturate_cast<minifloat::ue4m3>(amax_b * byte_factor);
    expect(bytes[b].bits() == byte.bits(), "quantize_nvfp4 scale byte", b);
    const float quotient = 1.0f / (static_cast<float>(byte) * tensor_scale.decode);
    const float factor = ieee::isinf(quotient) ? FLT_MAX : quotient;
    for (std::size_t i = 16 * b; i < 16 * b + 16; ++i) {
      const unsigned code = (nv[i / 2] >> (4 * (i % 2))) & 0xFU;
      expect(code == minifloat::saturate_cast<e2m1>(x[i] * factor).bits(), "quantize_nvfp4", i);
    }
  }
}

template <class T>
void check_format(const std::vector<float>& input, const parameters& p) {
  check_per_tensor<T>(input, p);
  check_blocks<T>(input, p);
  check_mx<T>(input, p);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 11) {
    return 0;
  }
  parameters p{};
  p.rows = data[1] % 17U;
  p.cols = data[2] % 97U;
  p.block = block_shape{data[3] % 9U, data[4] % 33U};
  p.margin = static_cast<std::int8_t>(data[5]);
  std::uint32_t scale_bits = 0;
  std::memcpy(&scale_bits, data + 6, sizeof(scale_bits));
  std::memcpy(&p.scale, &scale_bits, sizeof(p.scale));
  p.history = data[10] % 8U;
  p.mx_rule = static_cast<minifloat::mx_scale_rule>((data[0] >> 3U) % 4U);
  p.rounding = (data[0] & 0x20U) != 0 ? minifloat::scale_rounding::power_of_two
                                      : minifloat::scale_rounding::exact;
  p.amax_rule =
      (data[0] & 0x40U) != 0 ? minifloat::amax_rule::most_recent : minifloat::amax_rule::max;
  std::vector<float> input((size - 11) / sizeof(float));
  if (!input.empty()) {
    std::memcpy(input.data(), data + 11, input.size() * sizeof(float));
  }
  // The eight signed 8-bit formats (0..7), or with bit 7 the MX elements (9..11); e8m0 and
  // ue4m3 are scale types, not element types.
  const unsigned format = (data[0] & 0x80U) != 0 ? 9U + (data[0] & 7U) % 3U : data[0] & 7U;
  fuzz::with_format(format, [&](auto type, const reference::format& /*format*/) {
    using T = decltype(type);
    if constexpr (minifloat::detail::is_element_type<T>) {
      check_format<T>(input, p);
    }
  });
  check_microscaling(input, p);
  return 0;
}
