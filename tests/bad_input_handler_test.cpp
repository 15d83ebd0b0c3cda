// The bad-input contract under -fno-exceptions with the caller's MINIFLOAT_ERROR_HANDLER: every
// call of bad_input_cases.hpp reaches the handler with its message before writing anything. The
// handler cannot return, so it checks the arrays itself and ends the (death-test) process with
// the verdict as its exit code.
#include <cstdio>
#include <cstdlib>

[[noreturn]] void on_minifloat_error(const char* message);
#define MINIFLOAT_ERROR_HANDLER(message) on_minifloat_error(message)

#include <gtest/gtest.h>

#include <string>

#include "bad_input_cases.hpp"

static_assert(!MINIFLOAT_HAS_EXCEPTIONS, "this test is built with -fno-exceptions");

namespace {
const bad_input::arrays* arrays_of_the_call = nullptr;
constexpr int written_something = 3;
} // namespace

void on_minifloat_error(const char* message) {
  std::fprintf(stderr, "handled <%s>\n", message);
  std::fflush(stderr);
  std::_Exit(arrays_of_the_call != nullptr && arrays_of_the_call->untouched() ? 0
                                                                              : written_something);
}

namespace {

TEST(BadInputWithHandler, EveryCaseReachesTheHandlerBeforeWriting) {
  for (const bad_input::bad_call& bad : bad_input::bad_calls()) {
    SCOPED_TRACE(bad.what);
    const std::string pattern =
        bad_input::literal_pattern("handled <" + std::string(bad.message) + ">");
    EXPECT_EXIT(
        {
          bad_input::arrays arrays;
          arrays_of_the_call = &arrays;
          bad.call(arrays);
        },
        ::testing::ExitedWithCode(0), pattern);
  }
}

} // namespace
