#!/usr/bin/env bash
# The quick suite on another Linux target: cross-compiled with Debian's cross compiler (CMake
# toolchain files in cmake/toolchains/) and run test by test, as ctest does natively, through the
# toolchain's CMAKE_CROSSCOMPILING_EMULATOR: qemu-s390x for s390x; for i686 the target's own
# dynamic loader, the x86-64 kernel running 32-bit code itself. GoogleTest is built from Debian's
# sources and {fmt} is used header-only, as the installed libraries are x86-64 ones.
#   tests/cross/run.sh TARGET BUILD_DIR     TARGET: i686-linux-gnu (32-bit, x87) or
#                                           s390x-linux-gnu (big-endian)
# The tests build at -O1 (quicker to compile; they run in minutes under qemu), warnings as errors.
#   TEST_FORMATS=representative tests/cross/run.sh ...   one format of each kind in the typed
#                                           tests (tests/formats_under_test.hpp; CI's choice)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:?usage: run.sh TARGET BUILD_DIR}
out=${2:?usage: run.sh TARGET BUILD_DIR}
jobs=$(nproc)
runs=1
if [ "$target" = i686-linux-gnu ]; then
  # The i686 tests run on this machine's kernel (cmake/toolchains/i686-linux-gnu.cmake). A kernel
  # built without IA-32 emulation (some VMs) cannot run them, and qemu-i386 7.2 hangs when a
  # program starts a thread: there the suite is built (warnings as errors) and not run, and the
  # step says so.
  probe="$out/probe"
  mkdir -p "$out"
  printf 'int main() { return sizeof(void*) == 4 ? 0 : 1; }\n' | i686-linux-gnu-g++ -x c++ - -o "$probe"
  if ! /usr/i686-linux-gnu/lib/ld-linux.so.2 --library-path /usr/i686-linux-gnu/lib "$probe" \
    2>/dev/null; then
    runs=0
  fi
fi
# (Not run: the tests are listed at test time, not by running each program after its link.)
discovery=()
[ "$runs" = 1 ] || discovery=(-DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST)
cmake -S "$root" -B "$out" "${discovery[@]}" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$target.cmake" \
  -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_STANDARD_REQUIRED=ON -DCMAKE_CXX_EXTENSIONS=OFF \
  -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -DMINIFLOAT_WERROR=ON \
  -DMINIFLOAT_EXHAUSTIVE_TESTS=OFF -DMINIFLOAT_BUILD_EXAMPLES=OFF \
  -DMINIFLOAT_BUILD_BENCHMARKS=OFF -DMINIFLOAT_GTEST_SOURCE_DIR=/usr/src/googletest \
  -DMINIFLOAT_FMT_HEADER_ONLY=ON -DMINIFLOAT_CUDA_FP8_INCLUDE_DIR=NOTFOUND \
  -DMINIFLOAT_TEST_FORMATS="${TEST_FORMATS:-every}" >/dev/null
cmake --build "$out" -j "$((jobs + 1))" # one job more than cores: no core idles at a link
if [ "$runs" = 0 ]; then
  echo "NOT RUN: this kernel cannot run 32-bit x86 programs (no IA-32 emulation); the i686 quick"
  echo "suite was built with warnings as errors, and its tests were not run on this machine"
  exit 0
fi
ctest --test-dir "$out" -L quick -j "$jobs" --output-on-failure --timeout 600
