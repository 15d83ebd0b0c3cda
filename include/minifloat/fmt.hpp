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

template <class Format>
struct fmt::formatter<minifloat::basic_fp8<Format>, char> {
  constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) {
    spec_ = minifloat::detail::parse_text_spec(ctx.begin(),
                                               minifloat::detail::spec_end(ctx.begin(), ctx.end()));
    switch (spec_.kind) {
    case minifloat::detail::presentation::value:
      return value_.parse(ctx);
    case minifloat::detail::presentation::code:
      return code_.parse(ctx);
    default:
      if (!spec_.valid) {
        FMT_THROW(fmt::format_error("minifloat: b, ? and s take only [[fill]align][width]"));
      }
      return minifloat::detail::spec_end(ctx.begin(), ctx.end());
    }
  }

  template <class FormatContext>
  auto format(minifloat::basic_fp8<Format> x, FormatContext& ctx) const -> decltype(ctx.out()) {
    switch (spec_.kind) {
    case minifloat::detail::presentation::value:
      return value_.format(static_cast<float>(x), ctx);
    case minifloat::detail::presentation::code:
      return code_.format(static_cast<unsigned>(x.bits()), ctx);
    default:
      return minifloat::detail::write_padded(
          ctx.out(), minifloat::detail::presentation_text<Format>(spec_.kind, x.bits()), spec_);
    }
  }

private:
  minifloat::detail::text_spec spec_{};
  fmt::formatter<float, char> value_{};
  fmt::formatter<unsigned, char> code_{};
};

#endif // MINIFLOAT_FMT_HPP
