// docs/spec.md §9: translation units built with different settings link into one program, and
// each gets what it asked for: its path cap, its error handler, its exceptions or the abort of
// -fno-exceptions. (Without the settings namespace, one unit's inline functions served all.)
#include <gtest/gtest.h>

#include <string>

#include "units.hpp"

namespace {

using minifloat::simd_path;

bool has_simd_path() {
  for (simd_path path : {simd_path::avx2, simd_path::avx512, simd_path::neon}) {
    if (minifloat::path_supported(path)) {
      return true;
    }
  }
  return false;
}

TEST(Settings, EachUnitTakesItsOwnPath) {
  const unit_report portable = portable_unit_with_handler();
  const unit_report plain = default_unit();
  const unit_report no_exceptions = unit_without_exceptions(false);
  EXPECT_EQ(portable.path, simd_path::portable);
  // This unit has no settings either: the best path, which a SIMD CPU makes differ from portable.
  EXPECT_EQ(plain.path, minifloat::active_path());
  EXPECT_EQ(no_exceptions.path, minifloat::active_path());
  if (has_simd_path()) {
    EXPECT_NE(plain.path, simd_path::portable);
  }
  EXPECT_NE(portable.settings, plain.settings);
  EXPECT_NE(plain.settings, no_exceptions.settings);
  std::printf("settings namespaces: %s, %s, %s\n", portable.settings.c_str(),
              plain.settings.c_str(), no_exceptions.settings.c_str());
}

TEST(Settings, EachUnitReportsBadCallsItsOwnWay) {
  EXPECT_EQ(portable_unit_with_handler().bad_call, "handler: convert: src is null but n is not 0");
  EXPECT_EQ(default_unit().bad_call, "invalid_argument: convert: src is null but n is not 0");
  EXPECT_DEATH(unit_without_exceptions(true), "minifloat: convert: src is null but n is not 0");
}

} // namespace
