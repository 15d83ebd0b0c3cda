// Every header compiled with -fno-exceptions -fno-rtti and extra warnings (see CMakeLists.txt),
// then a few conversions checked at run time. Exits non-zero on a wrong result.
#include <minifloat/minifloat.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  int failures = 0;
  const auto expect = [&failures](bool ok, const char* what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };
  volatile float big = 465.0f; // volatile: computed at run time, not folded
  volatile double trap = 1.0 + 0x1p-4 + 0x1p-30;
  expect(minifloat::e4m3(big).bits() == 0x7F, "465 -> e4m3 NaN");
  expect(minifloat::saturate_cast<minifloat::e4m3>(big).bits() == 0x7E, "465 -> e4m3 448");
  expect(minifloat::e4m3(trap).bits() == 0x39, "double rounds once");
  expect(static_cast<float>(minifloat::e5m2::from_bits(0x7B)) == 57344.0f, "e5m2 max");
  expect(minifloat::stochastic_cast<minifloat::e4m3>(1.0625f, 0x80000000u).bits() == 0x39,
         "stochastic rounds up at the midpoint with 2^31");
  // The array functions, which report bad arguments without exceptions here (error.hpp).
  const float values[3] = {1.0f, -465.0f, 0.0f};
  minifloat::e4m3 codes[3];
  minifloat::convert(values, 3, codes);
  expect(codes[0].bits() == 0x38 && codes[1].bits() == 0xFF && codes[2].bits() == 0x00,
         "array narrowing");
  expect(minifloat::amax(values, 3) == 465.0f, "amax");
  // Scaling (scaling.hpp): 465 * (448 / 465) lands on 448 (or next to it), saturating.
  const float scale = minifloat::compute_scale<minifloat::e4m3>(minifloat::amax(values, 3));
  minifloat::quantize(values, 3, codes, scale);
  expect(codes[1].bits() == 0xFE && codes[2].bits() == 0x00, "quantize");
  minifloat::e8m0 mx_scale[1];
  float block[32] = {};
  block[5] = 100.0f; // floor(log2(100)) - 8 = -2
  minifloat::e4m3 block_codes[32];
  minifloat::quantize_mx(block, 32, block_codes, mx_scale);
  expect(mx_scale[0].bits() == 125 && block_codes[5].bits() == 0x7C,
         "quantize_mx: 400, halfway between 384 and 416, to even 384");
  // The MX headers (packed.hpp, microscaling.hpp): every function template instantiated here.
  using minifloat::e2m1;
  using minifloat::e3m2;
  float row[64];
  for (int i = 0; i < 64; ++i) {
    row[i] = static_cast<float>(i) * 0.25f - 8.0f;
  }
  minifloat::bfloat16_bits halves[64];
  for (int i = 0; i < 64; ++i) {
    halves[i] = minifloat::convert<minifloat::bfloat16_bits>(row[i]);
  }
  std::uint8_t packed[48];
  e2m1 fp4[64];
  minifloat::convert_to_packed<e2m1>(row, 64, packed);
  minifloat::unpack(packed, 64, fp4);
  minifloat::pack(fp4, 64, packed);
  minifloat::convert_to_packed<e3m2, minifloat::rounding::toward_zero>(halves, 64, packed);
  float back[64];
  minifloat::convert_from_packed<e3m2>(packed, 64, back);
  minifloat::convert_from_packed<e2m1>(packed, 64, halves);
  minifloat::e8m0 scales[2];
  minifloat::quantize_mx_packed<e2m1>(row, 64, packed, scales, minifloat::mx_scale_rule::even);
  minifloat::dequantize_mx_packed<e2m1>(packed, 64, scales, back);
  minifloat::dequantize_mx_packed<e2m1>(packed, 64, scales, halves);
  minifloat::quantize_mx_packed<e3m2>(row, 64, packed, scales);
  minifloat::dequantize_mx_packed<e3m2>(packed, 64, scales, back);
  minifloat::block_mxfp4 ggml[2];
  minifloat::quantize_mxfp4_ggml(row, 64, ggml);
  minifloat::dequantize_mxfp4_ggml(ggml, 64, back);
  minifloat::dequantize_mxfp4_ggml(ggml, 64, halves);
  expect(back[0] == -8.0f && back[63] == 6.0f, "MXFP4, floor: 7.75 clips to 6");
  minifloat::ue4m3 nv_scales[4];
  const auto tensor_scale = minifloat::nvfp4_tensor_scale::from_amax(8.0f);
  minifloat::quantize_nvfp4(row, 64, packed, nv_scales, tensor_scale);
  minifloat::dequantize_nvfp4(packed, 64, nv_scales, tensor_scale, back);
  minifloat::dequantize_nvfp4(packed, 64, nv_scales, tensor_scale, halves);
  expect(back[0] == -8.0f, "NVFP4: the block maximum round-trips");
  // Every overload with a report (report.hpp).
  minifloat::conversion_report report;
  minifloat::convert(values, 3, codes, report);
  expect(report.elements == 3 && report.overflowed == 1, "a report: -465 overflows to NaN");
  const std::uint32_t random_bits[3] = {0, 0, 0};
  minifloat::stochastic_convert(values, 3, random_bits, codes, report);
  minifloat::stochastic_convert(values, 3, codes, minifloat::counter_generator{1, 0}, report);
  minifloat::quantize(values, 3, codes, scale, report);
  float matrix[128] = {};
  minifloat::e4m3 matrix_codes[128];
  float scale_inv[1];
  minifloat::quantize_blocks(matrix, 1, 128, minifloat::tile_1x128, matrix_codes, scale_inv,
                             report);
  minifloat::quantize_mx(block, 32, block_codes, mx_scale, report);
  minifloat::quantize_mx_packed<e2m1>(row, 64, packed, scales, report);
  minifloat::quantize_mxfp4_ggml(row, 64, ggml, report);
  minifloat::quantize_nvfp4(row, 64, packed, nv_scales, tensor_scale, report);
  // (The block byte rounds to nearest, so a block maximum may land past 6 and clip.)
  expect(report.elements == 64 && report.nan_inputs == 0, "the NVFP4 report");
  std::printf("%d passed, %d failed\n", 13 - failures, failures);
  return failures == 0 ? 0 : 1;
}
