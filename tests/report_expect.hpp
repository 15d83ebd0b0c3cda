// The tests' comparison of two conversion reports' counts, field by field (report_test,
// bulk_streaming_test). The largest relative error is the caller's to compare: exactly, or to a few
// units in the last place against a reference computed apart.
#ifndef MINIFLOAT_TESTS_REPORT_EXPECT_HPP
#define MINIFLOAT_TESTS_REPORT_EXPECT_HPP

#include <gtest/gtest.h>

#include <string>

#include <minifloat/report.hpp>

inline void expect_equal_counts(const minifloat::conversion_report& got,
                                const minifloat::conversion_report& expected,
                                const std::string& where) {
  EXPECT_EQ(got.elements, expected.elements) << where;
  EXPECT_EQ(got.nan_inputs, expected.nan_inputs) << where;
  EXPECT_EQ(got.infinite_inputs, expected.infinite_inputs) << where;
  EXPECT_EQ(got.saturated, expected.saturated) << where;
  EXPECT_EQ(got.overflowed, expected.overflowed) << where;
  EXPECT_EQ(got.flushed_to_zero, expected.flushed_to_zero) << where;
  EXPECT_EQ(got.subnormal, expected.subnormal) << where;
  EXPECT_EQ(got.negative_for_unsigned, expected.negative_for_unsigned) << where;
}

#endif // MINIFLOAT_TESTS_REPORT_EXPECT_HPP
