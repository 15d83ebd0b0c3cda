// Every header compiled with -fno-exceptions -fno-rtti and extra warnings (see CMakeLists.txt),
// then a few conversions checked at run time. Exits non-zero on a wrong result.
#include <minifloat/minifloat.hpp>

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
  std::printf("%d passed, %d failed\n", 9 - failures, failures);
  return failures == 0 ? 0 : 1;
}
