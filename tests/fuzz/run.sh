#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (-fsanitize=fuzzer plus ASan and UBSan, any finding
# fatal) and runs each a fixed number of times from the committed seed corpus
# (tests/fuzz/corpus/, written by make_corpus.py). Same seed, same runs: a CI failure reproduces
# with the command it prints. About three and a half minutes on a 2-core machine.
#   tests/fuzz/run.sh BUILD_DIR [RUN_SCALE]   (RUN_SCALE multiplies the runs; default 1)
#   FUZZ_FLAGS="-DMINIFLOAT_SIMD_PATH=avx2" tests/fuzz/run.sh ...   (more compiler flags)
# To fuzz for longer: BUILD_DIR/narrow_fuzz -max_total_time=600 NEW_DIR tests/fuzz/corpus/narrow
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: run.sh BUILD_DIR [RUN_SCALE]}
scale=${2:-1}
compiler=${FUZZ_CXX:-clang++}
mkdir -p "$out"
# -O0: narrow_checks.hpp instantiates every format, mode and path, and clang's -O1 with the
# sanitizers took 4.6 minutes per narrow source (1.2 at -O0); the runs take 3 times as long at -O0
# (2 minutes rather than 40 s), and the step 3.6 minutes rather than 6.3 (stop 80).
flags=(-std=c++20 -O0 -gline-tables-only -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
  -fno-omit-frame-pointer -Wall -Wextra -Wpedantic -Wconversion -Werror -I"$root/include"
  ${FUZZ_FLAGS:-})
# name, runs, max_len, sources: each run checks every mode and path, so runs are not cheap.
harnesses=("narrow 3500 2048 narrow_fuzz.cpp narrow_fuzz_16bit.cpp narrow_fuzz_between.cpp"
  "scaling 18000 4096 scaling_fuzz.cpp"
  "text 200000 256 text_fuzz.cpp")
# Every source compiles in parallel (narrow's three parts are the slow ones), then each links.
pids=()
for harness in "${harnesses[@]}"; do
  read -r _ _ _ sources <<<"$harness"
  for source in $sources; do
    "$compiler" "${flags[@]}" -c "$root/tests/fuzz/$source" -o "$out/${source%.cpp}.o" &
    pids+=($!)
  done
done
for pid in "${pids[@]}"; do wait "$pid"; done
for harness in "${harnesses[@]}"; do
  read -r name _ _ sources <<<"$harness"
  objects=()
  for source in $sources; do objects+=("$out/${source%.cpp}.o"); done
  "$compiler" "${flags[@]}" "${objects[@]}" -o "$out/${name}_fuzz"
done
# The three run at once (each is single-threaded); their reports follow in order.
for harness in "${harnesses[@]}"; do
  read -r name runs max_len _ <<<"$harness"
  work="$out/$name-corpus"
  rm -rf "$work" && mkdir -p "$work"
  command="$out/${name}_fuzz -seed=1 -runs=$((runs * scale)) -max_len=$max_len"
  command+=" -print_final_stats=1 -artifact_prefix=$out/$name- $work $root/tests/fuzz/corpus/$name"
  echo "$command" >"$out/$name.command"
  (
    start=$(date +%s)
    status=0
    $command >"$out/$name.log" 2>&1 || status=$?
    echo "$status $(($(date +%s) - start))" >"$out/$name.status"
  ) &
done
wait
status=0
for harness in "${harnesses[@]}"; do
  read -r name runs _ _ <<<"$harness"
  read -r code seconds <"$out/$name.status"
  if [ "$code" = 0 ]; then
    echo "$name: $((runs * scale)) runs in $seconds s, ok ($(grep -o 'cov: [0-9]*' "$out/$name.log" | tail -1), $(ls "$out/$name-corpus" | wc -l) new inputs)"
  else
    status=1
    echo "$name: FAILED (log $out/$name.log); reproduce: $(cat "$out/$name.command")"
    grep -E "_fuzz:|ERROR|SUMMARY|runtime error" "$out/$name.log" | head -20 || true
  fi
done
exit "$status"
