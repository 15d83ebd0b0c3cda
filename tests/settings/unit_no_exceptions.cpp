// A unit built with -fno-exceptions: a bad call prints its message and aborts.
#include "units.hpp"
#include "unit_body.inc"

static_assert(!MINIFLOAT_HAS_EXCEPTIONS, "this unit is built with -fno-exceptions");

unit_report unit_without_exceptions(bool make_a_bad_call) {
  unit_report report = run_unit();
  if (make_a_bad_call) {
    bad_call();
  }
  return report;
}
