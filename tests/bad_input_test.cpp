// The bad-input contract with exceptions: every call of bad_input_cases.hpp throws
// minifloat::invalid_argument with its message and writes nothing; the README's "Bad input"
// section names every message; and the calls next to the refused ones (n == 0 with null
// pointers, adjacent but not overlapping arrays) are accepted.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bad_input_cases.hpp"

namespace {

static_assert(std::is_base_of<std::invalid_argument, minifloat::invalid_argument>::value,
              "callers may catch std::invalid_argument");

TEST(BadInput, EveryCaseThrowsItsMessageAndWritesNothing) {
  for (const bad_input::bad_call& bad : bad_input::bad_calls()) {
    SCOPED_TRACE(bad.what);
    bad_input::arrays arrays;
    try {
      bad.call(arrays);
      ADD_FAILURE() << "accepted";
    } catch (const minifloat::invalid_argument& error) {
      EXPECT_STREQ(error.what(), bad.message);
    }
    EXPECT_TRUE(arrays.untouched());
  }
}

TEST(BadInput, TheReadmeNamesEveryMessage) {
  std::ifstream file(MINIFLOAT_README);
  ASSERT_TRUE(file) << MINIFLOAT_README;
  std::stringstream text;
  text << file.rdbuf();
  const std::string readme = text.str();
  const std::size_t section = readme.find("\n## Bad input\n");
  ASSERT_NE(section, std::string::npos) << "README.md has no \"## Bad input\" section";
  const std::string contract = readme.substr(section, readme.find("\n## ", section + 1) - section);
  for (const bad_input::bad_call& bad : bad_input::bad_calls()) {
    // Built by appending: GCC 12 warns falsely (-Wrestrict, PR 105329) on "literal" + string.
    std::string quoted(1, '`');
    quoted.append(bad.message).append(1, '`');
    EXPECT_NE(contract.find(quoted), std::string::npos)
        << "README.md's Bad input section lacks `" << bad.message << "`";
  }
}

// The limits of the checks: what sits next to a refused call is accepted.
TEST(BadInput, NullWithZeroCountAndTouchingArraysAreAccepted) {
  bad_input::arrays a;
  minifloat::convert(bad_input::no_floats, 0, bad_input::no_code_output);
  minifloat::convert(bad_input::no_codes, 0, bad_input::no_float_output);
  minifloat::stochastic_convert(bad_input::no_floats, 0, nullptr, bad_input::no_code_output);
  minifloat::stochastic_convert(bad_input::no_floats, 0, bad_input::no_code_output,
                                minifloat::counter_generator{});
  EXPECT_EQ(minifloat::amax(nullptr, 0), 0.0f);
  minifloat::quantize(bad_input::no_floats, 0, bad_input::no_code_output, 1.0f);
  minifloat::dequantize(bad_input::no_codes, 0, bad_input::no_float_output, 1.0f);
  EXPECT_TRUE(
      minifloat::quantize_per_tensor<bad_input::e4m3>(bad_input::no_floats, 0).data.empty());
  minifloat::quantize_blocks(bad_input::no_floats, 0, 16, minifloat::block_shape{1, 16},
                             bad_input::no_code_output, bad_input::no_float_output);
  minifloat::quantize_mx(bad_input::no_floats, 0, bad_input::no_code_output,
                         static_cast<minifloat::e8m0*>(nullptr));
  EXPECT_EQ(minifloat::relative_noise_energy(nullptr, nullptr, 0), 0.0);
  EXPECT_TRUE(a.untouched());
  // Arrays that touch without sharing a byte: 4 codes written into the 4 bytes right before
  // the 4 floats read, and right after them.
  float buffer[9] = {0.0f, 0.3f, -17.0f, 1e9f, 0.0f, 500.0f, -0.01f, 2.5f, 0.0f};
  auto* buffer_bytes = reinterpret_cast<bad_input::e4m3*>(buffer);
  minifloat::convert(buffer + 1, 3, buffer_bytes + 1);
  minifloat::convert(buffer + 5, 3, buffer_bytes + 8 * sizeof(float));
  const float read_before[3] = {0.3f, -17.0f, 1e9f};
  const float read_after[3] = {500.0f, -0.01f, 2.5f};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(buffer_bytes[1 + i].bits(), bad_input::e4m3(read_before[i]).bits());
    EXPECT_EQ(buffer_bytes[8 * sizeof(float) + i].bits(), bad_input::e4m3(read_after[i]).bits());
  }
  // A tiny positive scale and the largest finite one are accepted.
  minifloat::quantize(a.x.data(), 16, a.q.data(), 1e-45f);
  minifloat::quantize(a.x.data(), 16, a.q.data(), std::numeric_limits<float>::max());
  minifloat::delayed_scaling<bad_input::e4m3> one_step(1);
  EXPECT_EQ(one_step.quantize(a.x.data() + 16, 16, a.q.data()), 1.0f);
}

} // namespace
