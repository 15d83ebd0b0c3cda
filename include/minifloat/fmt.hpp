// minifloat: {fmt} support, only for code that includes this header (the library itself needs
// nothing beyond the standard library). For every 8-bit type:
//   {} {:.3} {:e} {:>10g} ...  the exact value with the float presentations (as float prints)
//   {:x} {:#04X} ...           the code, as an unsigned integer ({:#x} of 1.5_e4m3 is 0x3c)
//   {:b}                       the fields, sign|exponent|mantissa: "0|0111|100"
//   {:?}                       the exact value, the class and the code: "1.5 (normal, 0x3C)"
//   {:s}                       the shortest text that reads back (to_string): "0.3" for 0.3125
// b, ? and s take [[fill]align][width] (aligned left by default, as strings are).
#ifndef MINIFLOAT_FMT_HPP
#define MINIFLOAT_FMT_HPP

#include <fmt/format.h>

#include "text.hpp"
#include "detail/formatter.hpp"

template <class Format>
struct fmt::formatter<minifloat::basic_fp8<Format>, char>
    : minifloat::detail::formatter_body<Format, fmt::formatter<float, char>,
                                        fmt::formatter<unsigned, char>> {
  constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) {
    return this->parse_spec(ctx,
                            [](const char* message) { FMT_THROW(fmt::format_error(message)); });
  }
};

#endif // MINIFLOAT_FMT_HPP
