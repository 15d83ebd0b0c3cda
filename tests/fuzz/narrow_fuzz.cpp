// libFuzzer harness 1: bytes -> float, double, binary16 or bfloat16 inputs -> every public
// narrowing API and every SIMD path this CPU runs, in every rounding and overflow mode, compared
// bit for bit with the scalar converter and with the tests' independent reference
// (tests/reference.hpp); and the same bytes as codes through every widening path.
//
// Input: byte 0 picks the source type (bits 0-1) and the 8-bit format (bits 2-7, mod 9); bytes
// 1-8 are the counter generator's seed; the rest are the elements (a partial one is dropped).
// Every array is allocated to its exact size, so that AddressSanitizer sees any access past it.
// The checks are in narrow_checks.hpp; binary16 and bfloat16 sources in narrow_fuzz_16bit.cpp;
// conversions from the other 8-bit formats and from integers in narrow_fuzz_between.cpp.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "narrow_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 9) {
    return 0;
  }
  std::uint64_t seed = 0;
  std::memcpy(&seed, data + 1, sizeof(seed));
  const minifloat::counter_generator generator{seed, seed >> 7U};
  const unsigned source = data[0] & 3U;
  const unsigned format = data[0] >> 2U;
  const std::uint8_t* elements = data + 9;
  const std::size_t bytes = size - 9;
  if (bytes == 0) {
    return 0;
  }
  check_between_formats(format, elements, bytes);
  switch (source) {
  case 0:
    narrow_fuzz::check_source<float>(format, elements, bytes, generator);
    break;
  case 1:
    narrow_fuzz::check_source<double>(format, elements, bytes, generator);
    break;
  default:
    check_16bit_source(source == 3, format, elements, bytes, generator);
    break;
  }
  return 0;
}
