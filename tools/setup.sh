#!/usr/bin/env bash
# Installs what building onnx-infer needs on Debian 12, if it is not there yet:
# Bazel (bazel-bootstrap 4.2.3), CMake, a C++ compiler, protobuf, Boost.Graph, GoogleTest,
# nlohmann/json, clang-format, and for the Python package Debian's Python with pybind11, pytest
# and onnx; valgrind for the benchmark's instruction counts; clang for the sanitizer
# and fuzz builds (tools/sanitize.sh, tools/fuzz.sh).
# Installing needs root (or sudo); a machine that has everything installs nothing.
set -euo pipefail

packages=(
  bazel-bootstrap
  g++
  protobuf-compiler
  libprotobuf-dev
  libboost-graph-dev
  nlohmann-json3-dev
  libgtest-dev
  libgmock-dev
  cmake
  pkg-config
  # tools/check_format.sh (tools/test.sh's `format` part).
  clang-format
  # The Python package (python/, docs/python.md) and its tests.
  python3-dev
  python3-venv
  python3-pip
  python3-setuptools
  python3-wheel
  pybind11-dev
  python3-pytest
  python3-onnx
  python3-numpy
  # tools/test.sh's `peers` part: ../shared/peer-suites/run.sh runs every test in a forked
  # child (pytest-forked); onnxruntime's own tool, the baseline, needs sympy and packaging.
  python3-pytest-forked
  python3-sympy
  python3-packaging
  # bench/run.sh --callgrind: instruction counts (docs/performance.md).
  valgrind
  # tools/sanitize.sh and tools/fuzz.sh (--config=asan): libFuzzer and the sanitizer runtimes
  # come with Debian's clang.
  clang
  libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [[ "$(id -u)" == 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "setup: these packages are missing and installing them needs root: ${missing[*]}" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
