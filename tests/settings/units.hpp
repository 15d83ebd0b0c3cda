// The settings test's units (tests/settings/): three translation units of one program, each
// built with different settings (config.hpp), each calling the same array functions with the same
// template arguments. What each unit saw is returned as text.
#ifndef MINIFLOAT_TESTS_SETTINGS_UNITS_HPP
#define MINIFLOAT_TESTS_SETTINGS_UNITS_HPP

#include <string>

#include <minifloat/bulk.hpp>

// What one unit did: the path its array functions took, how its bad call was reported (it
// returns only where that is by an exception), and its settings namespace's name.
struct unit_report {
  minifloat::simd_path path;
  std::string bad_call;
  std::string settings;
};

// MINIFLOAT_SIMD_PATH portable and a MINIFLOAT_ERROR_HANDLER that throws unit_error.
unit_report portable_unit_with_handler();
// Nothing set: the best path, minifloat::invalid_argument.
unit_report default_unit();
// -fno-exceptions: the best path; a bad call prints and aborts (`bad_call` is empty).
unit_report unit_without_exceptions(bool make_a_bad_call);

#endif // MINIFLOAT_TESTS_SETTINGS_UNITS_HPP
