// A program that uses minifloat the way an application does; built by run.sh through every way
// the library is consumed (installed package, add_subdirectory, FetchContent, pkg-config, the
// single header) and with every toolchain at hand. Exits non-zero on a wrong result.
#if defined(MINIFLOAT_CONSUMER_SINGLE_HEADER)
#include <minifloat.hpp>
#else
#include <minifloat/minifloat.hpp>
#include <minifloat/std_format.hpp>
#endif

#include <cstdio>
#include <string>
#include <vector>

namespace {
int failures = 0;
void check(bool ok, const char* what, int line) {
  if (!ok) {
    std::printf("consumer.cpp:%d: FAILED: %s\n", line, what);
    ++failures;
  }
}
#define CONSUMER_CHECK(condition) check((condition), #condition, __LINE__)
} // namespace

int main() {
  using minifloat::e4m3;
  using minifloat::e5m2;
  using namespace minifloat::literals;
  static_assert(e4m3(448.0f).bits() == 0x7E, "constexpr conversion");
  static_assert((1.5_e4m3).bits() == 0x3C, "constexpr literal");
  CONSUMER_CHECK(e4m3(0.3f).bits() == 0x2A);
  CONSUMER_CHECK(static_cast<float>(e5m2::from_bits(0x7B)) == 57344.0f);
  CONSUMER_CHECK(minifloat::to_string(e4m3(0.3125f)) == "0.3");

  // Arrays (the SIMD paths where the CPU has them) agree with the scalar conversion.
  std::vector<float> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i) * 0.37f - 100.0f;
  }
  std::vector<e4m3> q(x.size());
  minifloat::convert(x.data(), x.size(), q.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CONSUMER_CHECK(q[i].bits() == e4m3(x[i]).bits());
  }
  const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(x.data(), x.size()));
  minifloat::quantize(x.data(), x.size(), q.data(), scale);
  std::vector<float> back(x.size());
  minifloat::dequantize(q.data(), q.size(), back.data(), 1.0f / scale);
  CONSUMER_CHECK(minifloat::snr_db(x.data(), back.data(), x.size()) > 25.0);

#if defined(__cpp_lib_format) && !defined(MINIFLOAT_CONSUMER_SINGLE_HEADER)
  CONSUMER_CHECK(std::format("{}", 1.5_e4m3) == "1.5");
  CONSUMER_CHECK(std::format("{:b}", 1.5_e4m3) == "0|0111|100");
  CONSUMER_CHECK(std::format("{:#x}", 1.5_e4m3) == "0x3c");
  CONSUMER_CHECK(std::format("{:?}", 1.5_e4m3) == "1.5 (normal, 0x3C)");
  CONSUMER_CHECK(std::format("{:>5s}|", 0.3125_e4m3) == "  0.3|");
  CONSUMER_CHECK(std::format("{:.2e}", 448_e4m3) == "4.48e+02");
  const char* formatting = "std::format";
#else
  const char* formatting = "no std::format";
#endif
  std::printf("consumer: %s (C++%ld, %s)\n", failures == 0 ? "ok" : "FAILED",
              static_cast<long>(__cplusplus) / 100 % 100, formatting);
  return failures == 0 ? 0 : 1;
}
