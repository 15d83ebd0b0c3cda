// minifloat: stream output. An 8-bit value prints as its exact float value.
#ifndef MINIFLOAT_IOSTREAM_HPP
#define MINIFLOAT_IOSTREAM_HPP

#include <iosfwd> // the stream is a template argument: the caller has <ostream>

#include "fp8.hpp"

namespace minifloat {

template <class CharT, class Traits, class Format>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os,
                                              basic_fp8<Format> x) {
  return os << static_cast<float>(x);
}

} // namespace minifloat

#endif // MINIFLOAT_IOSTREAM_HPP
