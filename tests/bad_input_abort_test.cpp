// The bad-input contract under -fno-exceptions with the default handler (error.hpp): every call
// of bad_input_cases.hpp prints "minifloat: <message>" to stderr and aborts.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "bad_input_cases.hpp"

static_assert(!MINIFLOAT_HAS_EXCEPTIONS, "this test is built with -fno-exceptions");

namespace {

TEST(BadInputWithoutExceptions, EveryCasePrintsItsMessageAndAborts) {
  for (const bad_input::bad_call& bad : bad_input::bad_calls()) {
    SCOPED_TRACE(bad.what);
    EXPECT_EXIT(
        {
          bad_input::arrays arrays;
          bad.call(arrays);
        },
        ::testing::KilledBySignal(SIGABRT),
        bad_input::literal_pattern("minifloat: " + std::string(bad.message)));
  }
}

} // namespace
