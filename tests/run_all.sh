#!/usr/bin/env bash
# Builds and runs every test: formatting and clang-tidy on the headers; g++ and clang, C++17 and
# C++20, warnings as errors; the quick suite with g++ in C++17 (under ASan + UBSan) and C++20,
# clang 14's two checking every source with -fsyntax-only, and in the builds engines use: g++ -O3
# -ffast-math, clang-19 -Ofast with libc++ (hardened) in C++23, 32-bit x86 and big-endian s390x
# under qemu (tests/cross/run.sh); the concurrency test under TSan; the fuzzers, clang under ASan
# + UBSan (tests/fuzz/run.sh); valgrind on the examples; the consumer projects
# (tests/consumers/run.sh); the NEON path, cross-compiled and run under qemu (tests/neon/run.sh);
# and the exhaustive sweeps (all 2^32 floats) in one configuration.
#   tests/run_all.sh            everything (what CI runs)
#   QUICK=1 tests/run_all.sh    skip the exhaustive sweeps (the NEON one too)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tests/install_deps.sh"
jobs=$(nproc)
# One compiler process more than cores: a core no longer idles while one file finishes or links.
build_jobs=$((jobs + 1))
# Each step's header says how long the run has taken so far (CI must stay under 45 min).
step() { printf '=== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
build_root=${BUILD_ROOT:-$root/build-all}

# name compiler standard build-type [extra compiler flags and -D cache settings]
# g++'s C++17 configuration runs the whole quick suite under AddressSanitizer +
# UndefinedBehaviorSanitizer, any finding fatal: no undefined behaviour for any input. (At -O0:
# its sanitized -O2 build of the suite takes 7 minutes on 2 cores, against 3 at -O0.) Clang's
# sanitizers run the fuzz harnesses (below), which send random inputs through every narrowing
# API on every runnable path and through the scaling API.
# CI time (45 minutes on 2 cores at most): the benchmark is built in gcc-cxx20 alone; the
# examples are not built here (valgrind runs them, and every API they call is in the suite); the
# sanitized build has line tables rather than full debug information ("None" adds no flags of
# its own; g++'s -g1), enough for the sanitizers' reports; the three sources whose tests compute
# the most build at -O1 (tests/CMakeLists.txt: 6 times quicker under ASan, 3 of the suite's
# minutes of CPU); and clang 14 compiles both standards
# with -fsyntax-only (its sanitized run of the suite, which g++'s and the fuzzers' cover, took 7
# of CI's minutes).
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# CI time: the configurations that exist to run the code (under the sanitizers, fast math,
# clang-19, the fuzzers) compile only the paths this CPU can run: MINIFLOAT_SIMD_PATH compiles no
# path above its cap (config.hpp), and the AVX-512 kernels are a quarter of a test file's compile
# time. Every path's code is compiled with g++ in gcc-cxx20 and with clang in clang-cxx17 and
# clang-cxx20 on every machine, and runs under the sanitizers on machines that have AVX-512.
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true) "
has_flags() {
  local flag
  for flag in "$@"; do [[ "$cpu_flags" == *" $flag "* ]] || return 1; done
}
runnable_cap=""
if ! has_flags avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi; then
  runnable_cap=-DMINIFLOAT_SIMD_PATH=portable
  if has_flags avx2 f16c fma bmi2; then runnable_cap=-DMINIFLOAT_SIMD_PATH=avx2; fi
fi
if [ "$(uname -m)" != x86_64 ]; then runnable_cap=""; fi
echo "paths compiled where the code runs: ${runnable_cap:-every path (this CPU runs them all)}"
# CI time: the configurations that try an environment (the sanitizers, fast math, clang-19 and
# libc++, the cross targets) instantiate the typed tests for one format of each kind the code
# tells apart (tests/formats_under_test.hpp), which halves their compile time: the lane kernels
# are per format, and the other formats differ from these only in constants. gcc-cxx20 (every
# path's code, every test), the clang 14 syntax checks, the NEON run, the fuzzers (every format
# under ASan + UBSan) and the exhaustive sweeps take every format.
representative=-DMINIFLOAT_TEST_FORMATS=representative
configurations=(
  "gcc-cxx17 g++ 17 None -O0 -g1 $sanitizers $runnable_cap -DMINIFLOAT_BUILD_BENCHMARKS=OFF
   -DMINIFLOAT_BUILD_EXAMPLES=OFF -DMINIFLOAT_LONG_TESTS_OPTIONS=-O1 $representative"
  "gcc-cxx20 g++ 20 Release -DMINIFLOAT_CUDA_TESTS=ON"
  # Clang 14 in C++17 and C++20: every source through the front end alone
  # (tools/check_syntax.py), where clang instantiates every template and gives nearly all its
  # warnings; the suite itself runs under clang-19 below and in the fuzzers. (A full -O0 build
  # and run took 5 of CI's minutes; this takes about 1.)
  "clang-cxx17 clang++ 17 None -syntax-only"
  "clang-cxx20 clang++ 20 None -syntax-only"
  # Fast math (docs/spec.md §8): -ffast-math also links crtfastmath.o, so every test runs with
  # flush-to-zero and denormals-are-zero set. At -O2, the other level engines build at (-O3 is
  # gcc-cxx20's and clang-19's): a third quicker to compile than -O3, whose vectorized copies of
  # the portable kernels double the code of a file that instantiates many.
  "gcc-fast-math g++ 17 None -O2 -DNDEBUG -ffast-math $runnable_cap -DMINIFLOAT_BUILD_BENCHMARKS=OFF
   $representative"
  # A new toolchain: clang-19, libc++ with its debug hardening (which checks the comparators
  # given to std::sort), C++23. GoogleTest from source and {fmt} header-only: Debian's are built
  # for libstdc++. -Ofast but for its -ffinite-math-only: with that, clang 17+ marks every float
  # argument and result nofpclass(nan inf), which makes the suite's NaN-valued doubles (the
  # reference's NaN codes) undefined; the headers compile under the whole of -Ofast in the style
  # step, and g++'s -ffast-math configuration runs the suite with finite-math-only. The paths
  # this CPU runs (clang 14 compiles every path's code in both standards above).
  "clang19-libcxx-cxx23-ofast clang++-19 23 None -Ofast -fno-finite-math-only -Wno-deprecated-ofast $runnable_cap -stdlib=libc++
   -D_LIBCPP_HARDENING_MODE=_LIBCPP_HARDENING_MODE_DEBUG -DMINIFLOAT_BUILD_EXAMPLES=OFF
   -DMINIFLOAT_BUILD_BENCHMARKS=OFF -DMINIFLOAT_GTEST_SOURCE_DIR=/usr/src/googletest
   -DMINIFLOAT_FMT_HEADER_ONLY=ON $representative"
)
exhaustive_in=gcc-cxx20

step "style: clang-format, clang-tidy on the headers, single header current, API page complete"
cd "$root"
# The checks run side by side (each is one process; the first failure's status ends the run).
checks=()
git ls-files -- '*.hpp' '*.cpp' '*.cu' '*.inc' ':!single_include' |
  xargs -P "$jobs" -n 40 clang-format --dry-run --Werror &
checks+=($!)
for standard in 17 20; do
  # .clang-tidy: any finding in include/minifloat/ is an error.
  clang-tidy --quiet tests/tidy/all_headers.cpp -- -std=c++$standard -Iinclude \
    -isystem /usr/include/eigen3 2>/dev/null &
  checks+=($!)
done
# Every header, and the single header alone, under clang-19's whole -Ofast, libc++, C++23: no
# -Wnan-infinity-disabled, no C++23 deprecation (docs/spec.md §8).
for include in '<minifloat/minifloat.hpp>' '<minifloat/std_format.hpp>' '<minifloat/eigen.hpp>' \
  '"minifloat.hpp"'; do
  echo "#include $include" | clang++-19 -x c++ -std=c++23 -stdlib=libc++ -Ofast \
    -Wno-deprecated-ofast -Wall -Wextra -Wpedantic -Wconversion -Werror -Iinclude \
    -Isingle_include -isystem /usr/include/eigen3 -fsyntax-only - &
  checks+=($!)
done
python3 tools/amalgamate.py --check
python3 tools/check_api_docs.py
for check in "${checks[@]}"; do wait "$check"; done

for configuration in "${configurations[@]}"; do
  read -r name compiler standard build_type extra <<<"${configuration//$'\n'/ }"
  step "$name: $compiler, C++$standard, $build_type ${extra:-}"
  flags=""
  settings=()
  syntax_only=false
  for word in ${extra:-}; do
    case "$word" in
    -DMINIFLOAT_SIMD_PATH=*) flags+="${flags:+ }$word" ;; # a compiler flag, not a setting
    -DMINIFLOAT_* | -DCMAKE_*) settings+=("$word") ;;
    -syntax-only) syntax_only=true ;;
    *) flags+="${flags:+ }$word" ;;
    esac
  done
  dir="$build_root/$name"
  # Only the configuration that runs the sweeps builds them.
  exhaustive=OFF
  if [ "$name" = "$exhaustive_in" ]; then exhaustive=ON; fi
  cmake -S "$root" -B "$dir" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_CXX_STANDARD="$standard" \
    -DCMAKE_CXX_STANDARD_REQUIRED=ON -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_CXX_FLAGS="$flags" -DMINIFLOAT_WERROR=ON -DMINIFLOAT_EXHAUSTIVE_TESTS="$exhaustive" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${settings[@]}" >/dev/null
  if $syntax_only; then
    python3 "$root/tools/check_syntax.py" "$dir" "$build_jobs"
    continue
  fi
  cmake --build "$dir" -j "$build_jobs"
  ctest --test-dir "$dir" -L quick -j "$jobs" --output-on-failure
  if [ -x "$dir/bench/convert_bench" ] && [ "$compiler" = g++ ]; then
    # A figure, not a check (issue 22's target: at most 40 per 64 elements on AVX-512).
    echo "instructions in the array kernels' main loops ($name):"
    python3 "$root/bench/loop_instructions.py" "$dir/bench/convert_bench"
    # And what those instructions cost on this machine's core (under a second; a figure too).
    "$dir/bench/instruction_costs"
    # And issue 22's and 21's ratios by interleaved direct calls (about a second; a figure too),
    # from this build and from one at -O2, the level many builds use (bench/CMakeLists.txt).
    "$dir/bench/ratios"
    "$dir/bench/ratios_o2"
  fi
done

for target in i686-linux-gnu s390x-linux-gnu; do
  step "$target: the quick suite cross-compiled (s390x under qemu-user; tests/cross/run.sh)"
  TEST_FORMATS=representative "$root/tests/cross/run.sh" "$target" "$build_root/$target"
done

step "ThreadSanitizer: concurrency_test (clang++, C++20), each test in a process of its own"
dir="$build_root/clang-tsan"
cmake -S "$root" -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_CXX_STANDARD_REQUIRED=ON -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DMINIFLOAT_WERROR=ON -DMINIFLOAT_EXHAUSTIVE_TESTS=OFF \
  -DMINIFLOAT_BUILD_EXAMPLES=OFF -DMINIFLOAT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$dir" -j "$jobs" --target concurrency_test
for test in $("$dir/tests/concurrency_test" --gtest_list_tests |
  awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }'); do
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    "$dir/tests/concurrency_test" --gtest_filter="$test" --gtest_brief=1
done

step "fuzzing: libFuzzer harnesses from the committed seed corpus (tests/fuzz/run.sh)"
FUZZ_FLAGS="$runnable_cap" "$root/tests/fuzz/run.sh" "$build_root/fuzz"

step "valgrind memcheck: the examples, and the array and scaling tests (gcc-cxx20 build)"
dir="$build_root/gcc-cxx20"
memcheck=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
# The examples with smaller workloads (memcheck runs some 50 times slower).
"${memcheck[@]}" "$dir/examples/tour" >/dev/null
"${memcheck[@]}" "$dir/examples/dot_product_snr" 10 >/dev/null
"${memcheck[@]}" "$dir/examples/quantization_error" "$dir/memcheck.svg" 50000 >/dev/null
"${memcheck[@]}" "$dir/examples/accumulation_snr" "$dir/memcheck_accumulation.svg" 20 >/dev/null
# Under valgrind the CPU looks AVX2-only: this checks the AVX2 and portable kernels for reads of
# uninitialised or unowned bytes at every length and offset.
# (Three formats of the thirteen: the kernels differ between formats only in constants.)
"${memcheck[@]}" "$dir/tests/bulk_test" --gtest_brief=1 \
  --gtest_filter='*/e4m3.*:*/e5m2.*:*/e8m0.*:BulkApi.*:Amax.*:CounterGenerator.*:Dispatch.*'
"${memcheck[@]}" "$dir/tests/bulk_streaming_test" --gtest_brief=1 \
  --gtest_filter='*/e4m3.*:*/e5m2.*:*/e8m0.*'
"${memcheck[@]}" "$dir/tests/scaling_test" --gtest_brief=1
echo "memcheck: clean"

step "consumers: installed package, add_subdirectory, FetchContent, pkg-config, single header"
"$root/tests/consumers/run.sh" "$build_root/consumers"

step "NEON: the array tests for AArch64 under qemu; all 2^32 floats through the NEON kernel"
NEON_SWEEP=$([ "${QUICK:-0}" = 1 ] && echo 0 || echo 1) "$root/tests/neon/run.sh" "$build_root/neon"

if [ "${QUICK:-0}" != 1 ]; then
  step "exhaustive sweeps ($exhaustive_in)"
  log="$build_root/exhaustive.log"
  start=$(date +%s)
  status=0
  ctest --test-dir "$build_root/$exhaustive_in" -L exhaustive --output-on-failure -V >"$log" 2>&1 ||
    status=$?
  step "exhaustive sweeps took $(($(date +%s) - start)) s (log: $log)"
  grep -E "\[ sweep|Failure|FAILED|tests passed|tests failed|Total Test time" "$log" || true
  step "done (exit status $status)"
  exit "$status"
fi
step "done"
