// minifloat: literals, read from their decimal text at compile time, correctly rounded (never
// through a double): using namespace minifloat::literals; e4m3 x = 0.3_e4m3; e8m0 s = 0.25_e8m0.
#ifndef MINIFLOAT_LITERALS_HPP
#define MINIFLOAT_LITERALS_HPP

#include <system_error> // std::errc

#include "fp8.hpp"
#include "detail/decimal.hpp"

namespace minifloat {
namespace detail {

template <class T, char... Chars>
struct literal_text {
  static constexpr char text[] = {Chars...};
};
template <class T, char... Chars>
constexpr T parse_literal() noexcept {
  using literal = literal_text<T, Chars...>;
  constexpr decimal_reading reading =
      read_decimal<typename T::format>(literal::text, literal::text + sizeof...(Chars), true);
  static_assert(reading.length == sizeof...(Chars),
                "a minifloat literal is a decimal number, e.g. 1.5_e4m3 or 2e-3_e5m2");
  static_assert(reading.error == std::errc{}, "the literal is past the format's largest value");
  return T::from_bits(reading.code);
}

} // namespace detail

// Literals, read from their decimal text at compile time, correctly rounded (never through a
// double): using namespace minifloat::literals; e4m3 x = 0.3_e4m3; e8m0 s = 0.25_e8m0;
// -1.5_e4m3 is -(1.5_e4m3). A literal that does not fit (1000_e4m3) or is not decimal
// (0x1p3_e4m3) does not compile.
namespace literals {
// NOLINTBEGIN(bugprone-macro-parentheses): name is a type name
#define MINIFLOAT_DEFINE_LITERAL(name)                                                             \
  template <char... Chars>                                                                         \
  constexpr name operator""_##name() noexcept {                                                    \
    return minifloat::detail::parse_literal<name, Chars...>();                                     \
  }
// NOLINTEND(bugprone-macro-parentheses)
MINIFLOAT_DEFINE_LITERAL(e4m3)
MINIFLOAT_DEFINE_LITERAL(e5m2)
MINIFLOAT_DEFINE_LITERAL(e3m4)
MINIFLOAT_DEFINE_LITERAL(e2m5)
MINIFLOAT_DEFINE_LITERAL(e4m3_ieee)
MINIFLOAT_DEFINE_LITERAL(e4m3fnuz)
MINIFLOAT_DEFINE_LITERAL(e5m2fnuz)
MINIFLOAT_DEFINE_LITERAL(e4m3b11fnuz)
MINIFLOAT_DEFINE_LITERAL(e8m0)
MINIFLOAT_DEFINE_LITERAL(e2m1)
MINIFLOAT_DEFINE_LITERAL(e2m3)
MINIFLOAT_DEFINE_LITERAL(e3m2)
MINIFLOAT_DEFINE_LITERAL(ue4m3)
#undef MINIFLOAT_DEFINE_LITERAL
} // namespace literals

} // namespace minifloat

#endif // MINIFLOAT_LITERALS_HPP
