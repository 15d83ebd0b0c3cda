// minifloat: how the array and scaling APIs check their arguments and report a bad call (a size
// mismatch, a null pointer with a non-zero count, overlapping buffers, a bad scale). Every check
// comes before any write, so a refused call leaves every output untouched. The message names the
// function the caller called: "<function>: <what is wrong>".
//   - With exceptions enabled: throws minifloat::invalid_argument (a std::invalid_argument).
//   - Under -fno-exceptions: prints "minifloat: <message>" to stderr and calls std::abort().
//   - Either can be replaced by defining MINIFLOAT_ERROR_HANDLER(message) before including any
//     minifloat header (config.hpp); it receives a const char* and must not return.
#ifndef MINIFLOAT_ERROR_HPP
#define MINIFLOAT_ERROR_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "config.hpp"

#if MINIFLOAT_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace minifloat {

#if MINIFLOAT_HAS_EXCEPTIONS
// The error every refused call throws; what() names the function and the problem.
class invalid_argument : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};
#endif

namespace detail {

inline namespace MINIFLOAT_SETTINGS_NAMESPACE {

[[noreturn]] inline void report_invalid_argument(const char* message) {
#if defined(MINIFLOAT_ERROR_HANDLER)
  MINIFLOAT_ERROR_HANDLER(message);
  std::abort(); // a handler that returns would let the call go on with bad arguments
#elif MINIFLOAT_HAS_EXCEPTIONS
  throw minifloat::invalid_argument(message);
#else
  std::fprintf(stderr, "minifloat: %s\n", message);
  std::abort();
#endif
}

// The argument checks, one family for the array (bulk.hpp) and scaling (scaling.hpp) functions.
// Each takes the name of the function the caller called and the names of the arguments, and
// refuses the call with a message made of them.

// Refuses the call: "<function>: <part><part>...".
[[noreturn]] inline void refuse(const char* function, const char* problem, const char* more = "",
                                const char* rest = "", const char* last = "") {
  char message[256];
  std::size_t length = 0;
  for (const char* part : {function, ": ", problem, more, rest, last}) {
    for (; *part != '\0' && length + 1 < sizeof message; ++part) {
      message[length++] = *part;
    }
  }
  message[length] = '\0';
  report_invalid_argument(message);
}

// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte. Compared as
// integers: relational operators on pointers into different objects are unspecified.
inline bool overlaps(const void* a, std::size_t a_bytes, const void* b,
                     std::size_t b_bytes) noexcept {
  const auto a_begin = reinterpret_cast<std::uintptr_t>(a);
  const auto b_begin = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && a_begin < b_begin + b_bytes && b_begin < a_begin + a_bytes;
}

// An array argument: where it is, how many bytes a call touches there, and its name.
struct array_argument {
  const void* data;
  std::size_t bytes;
  const char* name;
};

// "<function>: <names> is null but <when>" if `null` while the call has elements to touch
// (`when` says which: "n is not 0", "the matrix is not empty"; empty: "<names> is null").
inline void check_not_null(const char* function, bool null, std::size_t elements, const char* names,
                           const char* when = "n is not 0") {
  if (null && elements != 0) {
    if (*when == '\0') {
      refuse(function, names, " is null");
    }
    refuse(function, names, " is null but ", when);
  }
}
// "<function>: <written> overlaps <read><note>" if the two arrays share a byte.
inline void check_no_overlap(const char* function, const array_argument& written,
                             const array_argument& read, const char* note = "") {
  if (overlaps(written.data, written.bytes, read.data, read.bytes)) {
    refuse(function, written.name, " overlaps ", read.name, note);
  }
}
// "<function>: <names> differ in size" unless the sizes agree.
inline void check_same_size(const char* function, bool same, const char* names) {
  if (!same) {
    refuse(function, names, " differ in size");
  }
}
// "<function>: <name> is not positive and finite" unless 0 < x <= FLT_MAX. Compared as bits, so
// that no floating-point setting can change the answer.
inline void check_positive_finite(const char* function, float x, const char* name) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  if (bits == 0 || bits >= 0x7F800000U) { // +0, negative (sign bit set), +inf and NaN
    refuse(function, name, " is not positive and finite");
  }
}
// "<function>: <name> is negative".
inline void check_not_negative(const char* function, int x, const char* name) {
  if (x < 0) {
    refuse(function, name, " is negative");
  }
}

} // namespace MINIFLOAT_SETTINGS_NAMESPACE
} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_ERROR_HPP
