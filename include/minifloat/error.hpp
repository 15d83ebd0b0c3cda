// minifloat: how the array and scaling APIs report a bad call (a size mismatch, a null pointer
// with a non-zero count, overlapping buffers, a bad scale). The check comes before any write,
// so a refused call leaves every output untouched.
//   - With exceptions enabled: throws minifloat::invalid_argument (a std::invalid_argument).
//   - Under -fno-exceptions: prints "minifloat: <message>" to stderr and calls std::abort().
//   - Either can be replaced by defining MINIFLOAT_ERROR_HANDLER(message) before including any
//     minifloat header; it receives a const char* and must not return.
#ifndef MINIFLOAT_ERROR_HPP
#define MINIFLOAT_ERROR_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define MINIFLOAT_HAS_EXCEPTIONS 1
#include <stdexcept>
#else
#define MINIFLOAT_HAS_EXCEPTIONS 0
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

// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte. Compared as
// integers: relational operators on pointers into different objects are unspecified.
inline bool overlaps(const void* a, std::size_t a_bytes, const void* b,
                     std::size_t b_bytes) noexcept {
  const auto a_begin = reinterpret_cast<std::uintptr_t>(a);
  const auto b_begin = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && a_begin < b_begin + b_bytes && b_begin < a_begin + a_bytes;
}

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_ERROR_HPP
