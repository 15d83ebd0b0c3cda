// minifloat: what the {fmt} and std::format formatters share (fmt.hpp, std_format.hpp): the
// presentations, the parsing of a replacement field's spec, and the formatter's body, which
// each of the two headers instantiates with its library's float and integer formatters.
#ifndef MINIFLOAT_DETAIL_FORMATTER_HPP
#define MINIFLOAT_DETAIL_FORMATTER_HPP

#include <cstdint>

#include "decimal_text.hpp"

namespace minifloat {
namespace detail {

// The presentations.
enum class presentation : std::uint8_t {
  value, // a float presentation (none, e, f, g, a, ...): the exact float value, formatted as float
  code,  // x or X: the code as an unsigned integer, with the integer options (#x: 0x7e)
  bits,  // b: the fields, "0|0111|100"
  debug, // ?: "1.5 (normal, 0x3C)"
  shortest, // s: the shortest text that reads back (to_string)
};
// For bits, debug and shortest: [[fill]align][width], fill one ASCII character, text aligned
// left unless asked otherwise, as strings are.
struct text_spec {
  presentation kind = presentation::value;
  char fill = ' ';
  char align = '<';
  int width = 0;
  bool valid = true;
};

// The spec's end: the '}' that closes it (nested replacement fields skipped), or last.
template <class It>
constexpr It spec_end(It first, It last) noexcept {
  int depth = 0;
  for (; first != last; ++first) {
    if (*first == '{') {
      ++depth;
    } else if (*first == '}' && depth-- == 0) {
      break;
    }
  }
  return first;
}

template <class It>
constexpr text_spec parse_text_spec(It first, It close) noexcept {
  text_spec spec{};
  if (first == close) {
    return spec;
  }
  It type = close;
  --type;
  const char last = *type;
  spec.kind = last == 'x' || last == 'X' ? presentation::code
              : last == 'b'              ? presentation::bits
              : last == '?'              ? presentation::debug
              : last == 's'              ? presentation::shortest
                                         : presentation::value;
  if (spec.kind == presentation::value || spec.kind == presentation::code) {
    return spec; // the float or integer formatter parses these
  }
  const auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
  It p = first;
  It next = p;
  if (p != type && ++next != type && is_align(*next)) {
    spec.fill = *p;
    spec.align = *next;
    p = ++next;
  } else if (p != type && is_align(*p)) {
    spec.align = *p;
    ++p;
  }
  if (p != type && *p == '{') {
    spec.valid = false; // dynamic widths only with the float presentations
  }
  for (; p != type && is_digit(*p) && spec.width < 100000; ++p) {
    spec.width = spec.width * 10 + (*p - '0');
  }
  spec.valid = spec.valid && p == type && static_cast<unsigned char>(spec.fill) < 0x80 &&
               spec.fill != '{' && spec.fill != '}';
  return spec;
}

// The text of one of the text presentations.
template <class Format>
constexpr text_buffer presentation_text(presentation kind, std::uint8_t code) noexcept {
  return kind == presentation::bits    ? bits_text<Format>(code)
         : kind == presentation::debug ? debug_text<Format>(code)
                                       : shortest_text<Format>(code);
}

// Writes the text padded to spec.width with spec.fill.
template <class Out>
Out write_padded(Out out, const text_buffer& text, const text_spec& spec) {
  const int padding = spec.width > text.length ? spec.width - text.length : 0;
  const int before = spec.align == '>' ? padding : spec.align == '^' ? padding / 2 : 0;
  for (int i = 0; i < before; ++i) {
    *out++ = spec.fill;
  }
  for (int i = 0; i < text.length; ++i) {
    *out++ = text.text[i];
  }
  for (int i = before; i < padding; ++i) {
    *out++ = spec.fill;
  }
  return out;
}

// The body of formatter<basic_fp8<Format>>: the float presentations go to a float formatter
// (ValueFormatter), x and X to an unsigned one (CodeFormatter), b, ? and s to the text
// presentations above. A formatter derives from it and gives parse() its library's context and
// its error for a bad spec: parse_spec(ctx, on_bad_spec).
template <class Format, class ValueFormatter, class CodeFormatter>
class formatter_body {
public:
  template <class FormatContext>
  auto format(basic_fp8<Format> x, FormatContext& ctx) const -> decltype(ctx.out()) {
    switch (spec_.kind) {
    case presentation::value:
      return value_.format(static_cast<float>(x), ctx);
    case presentation::code:
      return code_.format(static_cast<unsigned>(x.bits()), ctx);
    default:
      return write_padded(ctx.out(), presentation_text<Format>(spec_.kind, x.bits()), spec_);
    }
  }

protected:
  template <class ParseContext, class OnBadSpec>
  constexpr auto parse_spec(ParseContext& ctx, OnBadSpec on_bad_spec) -> decltype(ctx.begin()) {
    spec_ = parse_text_spec(ctx.begin(), spec_end(ctx.begin(), ctx.end()));
    switch (spec_.kind) {
    case presentation::value:
      return value_.parse(ctx);
    case presentation::code:
      return code_.parse(ctx);
    default:
      if (!spec_.valid) {
        on_bad_spec("minifloat: b, ? and s take only [[fill]align][width]");
      }
      return spec_end(ctx.begin(), ctx.end());
    }
  }

private:
  text_spec spec_{};
  ValueFormatter value_{};
  CodeFormatter code_{};
};

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_FORMATTER_HPP
