// The array functions called the way C code calls them: into uninitialised arrays on the stack,
// built at -O1 with warnings as errors (CMakeLists.txt). At -O1, GCC 12 does not inline the
// argument checks, and -Wmaybe-uninitialized takes an output passed to a pointer-to-const
// parameter for a read of it: `e4m3 codes[4]; convert(values, 4, codes);` failed to compile.
// Then each output is checked against the scalar conversions. Exits non-zero on a wrong result.
#include <minifloat/minifloat.hpp>

#include <cstdint>
#include <cstdio>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
} // namespace

int main() {
  using minifloat::e2m1;
  using minifloat::e4m3;
  float values[32];
  for (int i = 0; i < 32; ++i) {
    values[i] = static_cast<float>(i - 16) * 0.375f;
  }
  e4m3 codes[32];
  minifloat::convert(values, 32, codes);
  bool same = true;
  for (int i = 0; i < 32; ++i) {
    same = same && codes[i].bits() == e4m3(values[i]).bits();
  }
  expect(same, "convert");
  float widened[32];
  minifloat::convert(codes, 32, widened);
  same = true;
  for (int i = 0; i < 32; ++i) {
    same = same && widened[i] == static_cast<float>(codes[i]);
  }
  expect(same, "convert, widening");
  std::uint32_t random_bits[32];
  for (std::uint32_t i = 0; i < 32; ++i) {
    random_bits[i] = i * 0x9E3779B9U;
  }
  e4m3 stochastic[32];
  minifloat::stochastic_convert(values, 32, random_bits, stochastic);
  same = true;
  for (int i = 0; i < 32; ++i) {
    same = same && stochastic[i].bits() ==
                       minifloat::stochastic_cast<e4m3>(values[i], random_bits[i]).bits();
  }
  expect(same, "stochastic_convert");
  e4m3 counted[32];
  minifloat::stochastic_convert(values, 32, counted, minifloat::counter_generator{7, 0});
  e4m3 quantized[32];
  minifloat::quantize(values, 32, quantized, 2.0f);
  same = true;
  for (int i = 0; i < 32; ++i) {
    same = same && quantized[i].bits() == minifloat::saturate_cast<e4m3>(values[i] * 2.0f).bits();
  }
  expect(same, "quantize");
  float restored[32];
  minifloat::dequantize(quantized, 32, restored, 0.5f);
  expect(restored[0] == static_cast<float>(quantized[0]) * 0.5f, "dequantize");
  e4m3 mx[32];
  minifloat::e8m0 mx_scale[1];
  minifloat::quantize_mx(values, 32, mx, mx_scale);
  float mx_restored[32];
  minifloat::dequantize_mx(mx, 32, mx_scale, mx_restored);
  expect(mx_restored[31] == static_cast<float>(mx[31]) * static_cast<float>(mx_scale[0]),
         "quantize_mx, dequantize_mx");
  std::uint8_t packed[16];
  minifloat::convert_to_packed<e2m1>(values, 32, packed);
  float unpacked[32];
  minifloat::convert_from_packed<e2m1>(packed, 32, unpacked);
  expect(unpacked[1] == static_cast<float>(e2m1(values[1])), "convert_to_packed, _from_packed");
  std::uint8_t fp4[16];
  minifloat::e8m0 fp4_scale[1];
  minifloat::quantize_mx_packed<e2m1>(values, 32, fp4, fp4_scale);
  float fp4_restored[32];
  minifloat::dequantize_mx_packed<e2m1>(fp4, 32, fp4_scale, fp4_restored);
  expect(fp4_restored[0] ==
             static_cast<float>(e2m1::from_bits(fp4[0] & 0xFU)) * static_cast<float>(fp4_scale[0]),
         "quantize_mx_packed, dequantize_mx_packed");
  std::uint8_t nv[16];
  minifloat::ue4m3 nv_scales[2];
  const auto tensor_scale = minifloat::nvfp4_tensor_scale::from_amax(6.0f);
  minifloat::quantize_nvfp4(values, 32, nv, nv_scales, tensor_scale);
  float nv_restored[32];
  minifloat::dequantize_nvfp4(nv, 32, nv_scales, tensor_scale, nv_restored);
  expect(nv_restored[16] == 0.0f, "quantize_nvfp4, dequantize_nvfp4 (element 16 is 0)");
  std::printf("%s\n", failures == 0 ? "ok" : "failed");
  return failures == 0 ? 0 : 1;
}
