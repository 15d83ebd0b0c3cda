// A unit with no settings: the best path, minifloat::invalid_argument.
#include <string>

#include "units.hpp"
#include "unit_body.inc"

unit_report default_unit() {
  unit_report report = run_unit();
  try {
    bad_call();
  } catch (const minifloat::invalid_argument& e) {
    report.bad_call = std::string("invalid_argument: ") + e.what();
  }
  return report;
}
