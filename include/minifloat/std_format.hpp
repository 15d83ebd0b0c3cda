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
#include "detail/formatter.hpp"

namespace minifloat {
namespace detail {
inline namespace MINIFLOAT_SETTINGS_NAMESPACE {
// parse, which throws std::format_error or, under -fno-exceptions, aborts: in the settings
// namespace (config.hpp), so that units built with and without exceptions keep their own.
template <class Format>
struct std_formatter
    : formatter_body<Format, std::formatter<float, char>, std::formatter<unsigned, char>> {
  constexpr auto parse(std::format_parse_context& ctx) -> decltype(ctx.begin()) {
    return this->parse_spec(ctx, [](const char* message) {
#if MINIFLOAT_HAS_EXCEPTIONS
      throw std::format_error(message);
#else
      static_cast<void>(message);
      std::abort();
#endif
    });
  }
};
} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail
} // namespace minifloat

template <class Format>
struct std::formatter<minifloat::basic_fp8<Format>, char>
    : minifloat::detail::std_formatter<Format> {};

#endif // __cpp_lib_format
#endif // MINIFLOAT_STD_FORMAT_HPP
