#!/usr/bin/env bash
# Builds and runs consumer.cpp (and consumer.cu) through every way minifloat is consumed, each
# a project of its own: find_package after install (C++17, C++20, -fno-exceptions -fno-rtti),
# add_subdirectory, FetchContent, pkg-config, the single header alone (checked up to date),
# clang-19 with libc++ (std::format) when installed, and nvcc (host code and a kernel) when the
# CUDA toolkit is on PATH; and an Eigen application (minifloat/eigen.hpp, Debian's Eigen 3.4).
# Warnings are errors throughout.
#   tests/consumers/run.sh [WORK_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-$root/build-all/consumers}
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
warnings=(-Wall -Wextra -Wpedantic -Wconversion -Werror)

step() { echo "--- consumer: $*"; }
configure_build_run() { # name source-dir cmake-args...
  local name=$1 source=$2
  shift 2
  cmake -S "$source" -B "$work/$name" "$@" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log"
    return 1
  }
  cmake --build "$work/$name" -j "$(nproc)" >>"$work/$name.log" 2>&1 || {
    cat "$work/$name.log"
    return 1
  }
  "$work/$name/consumer"
}

step "install, then find_package(minifloat 1.0 CONFIG REQUIRED)"
cmake -S "$root" -B "$work/library" --preset install -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --install "$work/library" >/dev/null
test -f "$prefix/share/cmake/minifloat/minifloatConfigVersion.cmake"
for standard in 17 20; do
  configure_build_run "find_package_cxx$standard" "$here/find_package" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_STANDARD="$standard"
done
configure_build_run find_package_no_exceptions "$here/find_package" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="-fno-exceptions -fno-rtti"
# A version the package does not satisfy is refused (SameMajorVersion).
if cmake -S "$here/find_package" -B "$work/find_package_v2" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMINIFLOAT_REQUIRED_VERSION=2.0 >"$work/find_package_v2.log" 2>&1; then
  echo "find_package(minifloat 2.0) accepted the 1.x package" && exit 1
fi
grep -q "compatible with requested version \"2.0\"" "$work/find_package_v2.log"

step "Eigen 3.4 (libeigen3-dev) and minifloat/eigen.hpp, both through find_package"
configure_build_run eigen "$here/eigen" -DCMAKE_PREFIX_PATH="$prefix"

step "add_subdirectory"
configure_build_run add_subdirectory "$here/add_subdirectory" -DMINIFLOAT_SOURCE_DIR="$root"

step "FetchContent"
fetch_args=(-DMINIFLOAT_SOURCE_DIR="$root")
if git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1 && [ -z "$(git -C "$root" status --porcelain)" ]; then
  # A clean checkout (CI): fetch the committed tree through git, as a real FetchContent does.
  fetch_args=(-DMINIFLOAT_GIT_REPOSITORY="$root" -DMINIFLOAT_GIT_TAG="$(git -C "$root" rev-parse HEAD)")
fi
configure_build_run fetch_content "$here/fetch_content" "${fetch_args[@]}"

step "pkg-config"
cflags=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags minifloat)
test "$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --modversion minifloat)" = \
  "$(sed -n 's/^#define MINIFLOAT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
    "$root/include/minifloat/config.hpp" | paste -sd.)"
# shellcheck disable=SC2086
g++ -std=c++17 "${warnings[@]}" $cflags "$here/consumer.cpp" -o "$work/pkg_config_consumer"
"$work/pkg_config_consumer"

step "single header: up to date, and alone (g++, clang++; C++17, C++20; no exceptions, no RTTI)"
python3 "$root/tools/amalgamate.py" --check
for compiler in g++ clang++; do
  for standard in 17 20; do
    "$compiler" -std=c++$standard "${warnings[@]}" -fno-exceptions -fno-rtti \
      -DMINIFLOAT_CONSUMER_SINGLE_HEADER -I "$root/single_include" "$here/consumer.cpp" \
      -o "$work/single_header_consumer"
    "$work/single_header_consumer"
  done
done

if command -v clang++-19 >/dev/null && [ -d /usr/lib/llvm-19/include/c++/v1 ]; then
  step "clang-19 with libc++ (std::format in C++20)"
  for standard in 17 20; do
    clang++-19 -std=c++$standard -stdlib=libc++ "${warnings[@]}" -I "$prefix/include" \
      "$here/consumer.cpp" -o "$work/libcxx_consumer"
    "$work/libcxx_consumer"
  done
else
  step "clang-19 or libc++-19-dev not installed: skipped"
fi

if command -v nvcc >/dev/null; then
  step "nvcc: host code and a kernel, installed headers and the single header"
  nvcc -std=c++17 -Werror all-warnings -I "$prefix/include" "$here/consumer.cu" -o "$work/cuda_consumer"
  "$work/cuda_consumer"
  nvcc -std=c++17 -Werror all-warnings -DMINIFLOAT_CONSUMER_SINGLE_HEADER -I "$root/single_include" \
    "$here/consumer.cu" -o "$work/cuda_single_header_consumer"
  "$work/cuda_single_header_consumer"
else
  step "nvcc not on PATH: skipped"
fi
echo "--- consumers: all ok"
