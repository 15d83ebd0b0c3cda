// A unit that caps the path at portable and reports bad calls through its own handler.
#include <stdexcept>
#include <string>

struct unit_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] inline void throw_unit_error(const char* message) {
  throw unit_error(std::string("handler: ") + message);
}
#undef MINIFLOAT_SIMD_PATH // (a build may set a cap for every unit: tests/run_all.sh)
#define MINIFLOAT_SIMD_PATH portable
#define MINIFLOAT_ERROR_HANDLER(message) throw_unit_error(message)

#include "units.hpp"
#include "unit_body.inc"

unit_report portable_unit_with_handler() {
  unit_report report = run_unit();
  try {
    bad_call();
  } catch (const unit_error& e) {
    report.bad_call = e.what();
  } catch (const minifloat::invalid_argument& e) {
    report.bad_call = std::string("invalid_argument: ") + e.what();
  }
  return report;
}
