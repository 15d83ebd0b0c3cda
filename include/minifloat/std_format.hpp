// minifloat: std::format support (C++20 with <format>), only for code that includes this
// header. The same presentations as fmt.hpp:
//   {} {:.3} {:e} ...  the exact value with the float presentations
//   {:x} {:#04X} ...   the code as an unsigned integer
//   {:b}               the fields, "0|0111|100"
//   {:?}               "1.5 (normal, 0x3C)"
//   {:s}               the shortest text that reads back (to_string)
#ifndef MINIFLOAT_STD_FORMAT_HPP
#define MINIFLOAT_STD_FORMAT_HPP

#if __has_include(<version>)
#include <version>
#endif

#if defined(__cpp_lib_format)
#include <cstdlib>
#include <format>

#include "text.hpp"

template <class Format>
struct std::formatter<minifloat::basic_fp8<Format>, char> {
  constexpr auto parse(std::format_parse_context& ctx) -> decltype(ctx.begin()) {
    spec_ = minifloat::detail::parse_text_spec(ctx.begin(),
                                               minifloat::detail::spec_end(ctx.begin(), ctx.end()));
    switch (spec_.kind) {
    case minifloat::detail::presentation::value:
      return value_.parse(ctx);
    case minifloat::detail::presentation::code:
      return code_.parse(ctx);
    default:
      if (!spec_.valid) {
#if defined(__cpp_exceptions)
        throw std::format_error("minifloat: b, ? and s take only [[fill]align][width]");
#else
        std::abort();
#endif
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
  std::formatter<float, char> value_{};
  std::formatter<unsigned, char> code_{};
};

#endif // __cpp_lib_format
#endif // MINIFLOAT_STD_FORMAT_HPP
