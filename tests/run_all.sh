#!/usr/bin/env bash
# Builds and runs every test: formatting and clang-tidy on the headers; g++ and clang, C++17 and
# C++20, warnings as errors; the quick suite in every configuration; the consumer projects
# (tests/consumers/run.sh); and the exhaustive sweeps (all 2^32 floats) in one configuration.
#   tests/run_all.sh            everything (what CI runs)
#   QUICK=1 tests/run_all.sh    skip the exhaustive sweeps
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tests/install_deps.sh"
jobs=$(nproc)
build_root=${BUILD_ROOT:-$root/build-all}

# name compiler standard build-type [extra compiler flags | -D cache settings]
configurations=(
  "gcc-cxx17 g++ 17 Debug"
  "gcc-cxx20 g++ 20 Release -DMINIFLOAT_CUDA_TESTS=ON"
  "clang-cxx17 clang++ 17 Release"
  "clang-cxx20 clang++ 20 Debug"
  # No undefined behaviour for any input: the quick suite under ASan + UBSan, any finding fatal.
  "clang-sanitize clang++ 17 RelWithDebInfo -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
)
exhaustive_in=gcc-cxx20

echo "=== style: clang-format, clang-tidy on the headers, single header current, API page complete"
cd "$root"
git ls-files -- '*.hpp' '*.cpp' '*.cu' '*.inc' ':!single_include' | xargs clang-format --dry-run --Werror
for standard in 17 20; do
  # .clang-tidy: any finding in include/minifloat/ is an error.
  clang-tidy --quiet tests/tidy/all_headers.cpp -- -std=c++$standard -Iinclude 2>/dev/null
done
python3 tools/amalgamate.py --check
python3 tools/check_api_docs.py

for configuration in "${configurations[@]}"; do
  read -r name compiler standard build_type extra <<<"$configuration"
  echo "=== $name: $compiler, C++$standard, $build_type ${extra:-}"
  flags=""
  settings=()
  case "${extra:-}" in
  -D*) settings=($extra) ;;
  *) flags="${extra:-}" ;;
  esac
  dir="$build_root/$name"
  # Only the configuration that runs the sweeps builds them.
  exhaustive=OFF
  if [ "$name" = "$exhaustive_in" ]; then exhaustive=ON; fi
  cmake -S "$root" -B "$dir" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_CXX_STANDARD="$standard" \
    -DCMAKE_CXX_STANDARD_REQUIRED=ON -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_CXX_FLAGS="$flags" -DMINIFLOAT_WERROR=ON -DMINIFLOAT_EXHAUSTIVE_TESTS="$exhaustive" \
    "${settings[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" -L quick -j "$jobs" --output-on-failure
done

echo "=== consumers: installed package, add_subdirectory, FetchContent, pkg-config, single header"
"$root/tests/consumers/run.sh" "$build_root/consumers"

if [ "${QUICK:-0}" != 1 ]; then
  echo "=== exhaustive sweeps ($exhaustive_in)"
  log="$build_root/exhaustive.log"
  start=$(date +%s)
  status=0
  ctest --test-dir "$build_root/$exhaustive_in" -L exhaustive --output-on-failure -V >"$log" 2>&1 ||
    status=$?
  echo "exhaustive sweeps took $(($(date +%s) - start)) s (log: $log)"
  grep -E "\[ sweep|Failure|FAILED|tests passed|tests failed|Total Test time" "$log" || true
  exit "$status"
fi
