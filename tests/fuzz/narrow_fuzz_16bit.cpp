// narrow_fuzz's binary16 and bfloat16 sources (a translation unit of their own, to compile in
// parallel with narrow_fuzz.cpp).
#include "narrow_checks.hpp"

void check_16bit_source(bool bfloat16, unsigned format_index, const std::uint8_t* bytes,
                        std::size_t size, minifloat::counter_generator generator) {
  if (bfloat16) {
    narrow_fuzz::check_source<minifloat::bfloat16_bits>(format_index, bytes, size, generator);
  } else {
    narrow_fuzz::check_source<minifloat::binary16_bits>(format_index, bytes, size, generator);
  }
}
