#!/usr/bin/env bash
# Compile time of a translation unit that includes minifloat, against an empty one and against
# NVIDIA's <cuda_fp8.h> (where the CUDA toolkit is installed), in one run: each unit converts
# one value and is compiled at -O2 in C++17 and C++20, best of 5 in CPU time, with the compiler given as
# CXX (default g++). Engines include such a header in hundreds of files, so this is a cost that
# every user pays.
#   bench/compile_time.sh            the table
#   CXX=clang++ bench/compile_time.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cxx=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/empty.cpp" <<'CPP'
float convert_one(float x) { return x; }
CPP
cat >"$work/core.cpp" <<'CPP'
#include <minifloat/convert.hpp>
#include <minifloat/fp8.hpp>
float convert_one(float x) { return static_cast<float>(minifloat::e4m3(x)); }
CPP
cat >"$work/umbrella.cpp" <<'CPP'
#include <minifloat/minifloat.hpp>
float convert_one(float x) { return static_cast<float>(minifloat::e4m3(x)); }
CPP
cat >"$work/cuda_fp8.cpp" <<'CPP'
#include <cuda_fp8.h>
float convert_one(float x) { return static_cast<float>(__nv_fp8_e4m3(x)); }
CPP

units=(empty core umbrella)
cuda_include=""
for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  if [ -n "$dir" ] && [ -f "$dir/include/cuda_fp8.h" ]; then
    cuda_include="$dir/include"
    units+=(cuda_fp8)
    break
  fi
done

# The best of five times of one compilation, in seconds of CPU time (user + system: on a shared
# virtual machine, wall-clock time also counts the time other guests take the core).
best_of_5() {
  local best=""
  for _ in 1 2 3 4 5; do
    local elapsed
    elapsed=$( { TIMEFORMAT='%U %S'; time "$cxx" "$@" -O2 -c -o /dev/null; } 2>&1 |
      awk 'END { print $1 + $2 }')
    if [ -z "$best" ] || awk -v e="$elapsed" -v b="$best" 'BEGIN { exit !(e < b) }'; then
      best=$elapsed
    fi
  done
  printf '%.2f' "$best"
}

printf 'compile time (CPU s), %s, -O2, best of 5 (%s)\n' "$("$cxx" --version | head -1)" \
  "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
printf '%-28s %10s %10s %16s %16s\n' "translation unit" "C++17 s" "C++20 s" "C++17 - empty" \
  "C++20 - empty"
declare -A seconds
for unit in "${units[@]}"; do
  for standard in 17 20; do
    flags=(-std=c++$standard -I"$root/include" "$work/$unit.cpp")
    [ "$unit" = cuda_fp8 ] && flags+=(-isystem "$cuda_include")
    seconds[$unit.$standard]=$(best_of_5 "${flags[@]}")
  done
done
describe() {
  case "$1" in
  empty) echo "empty" ;;
  core) echo "core (fp8.hpp + convert.hpp)" ;;
  umbrella) echo "umbrella (minifloat.hpp)" ;;
  cuda_fp8) echo "<cuda_fp8.h>" ;;
  esac
}
for unit in "${units[@]}"; do
  printf '%-28s %10s %10s %16.2f %16.2f\n' "$(describe "$unit")" "${seconds[$unit.17]}" \
    "${seconds[$unit.20]}" "$(awk -v a="${seconds[$unit.17]}" -v b="${seconds[empty.17]}" \
      'BEGIN { print a - b }')" "$(awk -v a="${seconds[$unit.20]}" -v b="${seconds[empty.20]}" \
      'BEGIN { print a - b }')"
done
