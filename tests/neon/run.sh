#!/usr/bin/env bash
# The NEON path, on an x86-64 machine: builds the array tests for AArch64 with Debian's cross
# compiler (g++-aarch64-linux-gnu), runs them under qemu-aarch64 (qemu-user), where the active
# path is NEON, and sends all 2^32 floats through the NEON kernel (path_sweep.cpp: its digests
# must equal the native ones). GoogleTest is compiled from Debian's sources (/usr/src/googletest).
#   tests/neon/run.sh BUILD_DIR [MODE...]   (path_sweep's modes; default e4m3-nearest-even)
#   NEON_SWEEP=0 tests/neon/run.sh BUILD_DIR   the tests only, no sweep (about 1 minute less)
# The tests build at -O1 (a third of -O2's compile time; they run in seconds under qemu), the
# sweep at -O2.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: run.sh BUILD_DIR [MODE...]}
shift
modes=("${@:-e4m3-nearest-even}")
cross=${NEON_CXX:-aarch64-linux-gnu-g++}
sysroot=${NEON_SYSROOT:-/usr/aarch64-linux-gnu}
gtest=${GTEST_SOURCE:-/usr/src/googletest/googletest}
mkdir -p "$out"
flags=(-std=c++17 -Wall -Wextra -Wpedantic -Wconversion -Werror -I"$root/include"
  -I"$gtest/include")
tests=(bulk_test bulk_streaming_test scaling_test concurrency_test report_test microscaling_test)
# Everything compiles in parallel, the native sweep alongside.
pids=()
"$cross" -std=c++17 -O2 -I"$gtest/include" -I"$gtest" -c "$gtest/src/gtest-all.cc" \
  -o "$out/gtest-all.o" &
pids+=($!)
for test in "${tests[@]}"; do
  "$cross" "${flags[@]}" -O1 -c "$root/tests/$test.cpp" -o "$out/$test.o" &
  pids+=($!)
done
"$cross" "${flags[@]}" -O2 -pthread "$root/tests/neon/path_sweep.cpp" -o "$out/path_sweep_aarch64" &
pids+=($!)
${CXX:-g++} "${flags[@]}" -O2 -pthread "$root/tests/neon/path_sweep.cpp" -o "$out/path_sweep_native" &
pids+=($!)
for pid in "${pids[@]}"; do wait "$pid"; done
"$cross" -std=c++17 -O2 -I"$gtest/include" -c "$gtest/src/gtest_main.cc" -o "$out/gtest_main.o"
qemu=(qemu-aarch64 -L "$sysroot")
status=0
# The tests run side by side (each single-threaded); their reports follow in order.
for test in "${tests[@]}"; do
  "$cross" "$out/$test.o" "$out/gtest-all.o" "$out/gtest_main.o" -pthread -o "$out/$test"
  (
    code=0
    "${qemu[@]}" "$out/$test" --gtest_brief=1 >"$out/$test.log" 2>&1 || code=$?
    echo "$code" >"$out/$test.status"
  ) &
done
wait
for test in "${tests[@]}"; do
  echo "== $test (aarch64, qemu)"
  cat "$out/$test.log"
  [ "$(cat "$out/$test.status")" = 0 ] || status=1
done
# The active path under qemu must be NEON, or the sweep below would test something else.
dispatch=$("${qemu[@]}" "$out/bulk_test" --gtest_filter='Dispatch.ActivePath*')
if ! grep -q 'active: neon' <<<"$dispatch"; then
  echo "the active path under qemu is not neon"
  status=1
fi
if [ "${NEON_SWEEP:-1}" = 0 ]; then
  exit $status
fi
echo "== all 2^32 floats through the NEON kernel: ${modes[*]}"
"$out/path_sweep_native" best "${modes[@]}" >"$out/expected.txt"
start=$(date +%s)
"${qemu[@]}" "$out/path_sweep_aarch64" neon "${modes[@]}" >"$out/neon.txt" || status=1
if cmp -s "$out/expected.txt" "$out/neon.txt"; then
  echo "identical ($(wc -l <"$out/neon.txt") digests of 2^26 floats, $(($(date +%s) - start)) s)"
else
  echo "NEON differs from the native path:"
  diff "$out/expected.txt" "$out/neon.txt" | head -20
  status=1
fi
exit $status
