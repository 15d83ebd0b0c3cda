#!/usr/bin/env bash
# Installs the Debian packages a fresh machine lacks for building minifloat's tests, examples
# and benchmarks (the library itself needs none). Does nothing when they are all present.
set -euo pipefail
# clang-19 and libc++ for the std::format consumer test; pkgconf and python3 for the consumer
# and single-header checks; clang-format and clang-tidy for the style step; valgrind and
# compiler-rt (libFuzzer, the sanitizers' runtimes) for the hardening steps; the AArch64, i686
# and s390x cross compilers, qemu-user and GoogleTest's sources (googletest) for the NEON path
# and the 32-bit and big-endian runs (tests/cross/run.sh); Eigen 3.4 (libeigen3-dev) for
# eigen_test and the Eigen consumer.
packages=(cmake g++ clang libgtest-dev libbenchmark-dev libfmt-dev libeigen3-dev clang-19
  libc++-19-dev libc++abi-19-dev pkgconf python3 clang-format clang-tidy git valgrind libclang-rt-14-dev
  g++-aarch64-linux-gnu g++-i686-linux-gnu g++-s390x-linux-gnu qemu-user googletest)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q "${missing[@]}"
fi
