#!/usr/bin/env bash
# Compiles each public header on its own as C++17, and all of them as C++20, so that a consumer
# needs neither our standard nor an include order. Run by ctest (CMakeLists.txt).
# usage: check_public_headers.sh CXX INCLUDE_DIR GENERATED_DIR HEADER...
set -euo pipefail
cxx="$1" inc="$2" gen="$3"
shift 3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # std, file to compile, what it is
  if ! "$cxx" -std="$1" -fsyntax-only -I"$inc" -I"$gen" "$2" 2> "$tmp/err"; then
    echo "FAIL: $3 does not compile as $1:"
    head -5 "$tmp/err"
    failed=1
  fi
}
for h in "$@"; do
  printf '#include "onnx_infer/%s"\n' "$h" > "$tmp/one.cc"
  check c++17 "$tmp/one.cc" "onnx_infer/$h alone"
done
printf '#include "onnx_infer/%s"\n' "$@" > "$tmp/all.cc"
check c++20 "$tmp/all.cc" "the public headers together"
echo "public headers: $# compile alone as c++17, and together as c++20"
exit "$failed"
