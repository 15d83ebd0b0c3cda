#!/usr/bin/env bash
# The CUDA tests on a machine with an NVIDIA GPU, built there with its own nvcc (no CMake or
# GoogleTest needed): the host test (its kernel part runs only with a GPU), the device sweep over
# every float with its throughput figures, and the Blackwell instruction sweep (exits 77, skipped,
# on any GPU but compute capability 10.0). Usage: bash tests/cuda/run_device_tests.sh [build dir]
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-/tmp/minifloat_cuda}
mkdir -p "$build"
nvidia-smi -L
nvcc --version | tail -1
echo "host: $(nproc) threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
flags=(-std=c++17 -O2 -Iinclude -Xcompiler -Wall,-Wextra -Werror all-warnings)
start=$SECONDS
nvcc "${flags[@]}" -arch=sm_90 tests/cuda/cuda_host_test.cu -o "$build/cuda_host_test" &
nvcc "${flags[@]}" -arch=sm_90 tests/cuda/device_sweep.cu -o "$build/device_sweep" &
nvcc "${flags[@]}" -gencode=arch=compute_100a,code=sm_100a tests/cuda/blackwell_ptx_sweep.cu \
  -o "$build/blackwell_ptx_sweep" &
failed=0
for job in $(jobs -p); do wait "$job" || failed=1; done
echo "built in $((SECONDS - start)) s"
[ "$failed" = 0 ] || { echo "build failed"; exit 1; }
status=0
for test in cuda_host_test device_sweep blackwell_ptx_sweep; do
  start=$SECONDS
  "$build/$test"
  rc=$?
  echo "$test: exit $rc ($((SECONDS - start)) s)"
  if [ "$rc" != 0 ] && ! { [ "$test" = blackwell_ptx_sweep ] && [ "$rc" = 77 ]; }; then
    status=1
  fi
done
exit "$status"
