#!/usr/bin/env bash
# Builds the example front end as an outside project would, with Bazel and with CMake, each
# with onnx-infer's own protobuf classes and against the front end's own, and checks that it
# prints what `infer-shapes MODEL --values --quiet` prints, on the demo model and on every
# shared real model (../shared, when it is there), and the expected types on a model using its
# custom operator. Run by tools/test.sh; ends with "frontend: N passed, N failed".
#
# usage: examples/frontend/check.sh INFER_SHAPES [--bazel] [--cmake ENGINE_CMAKE_BUILD_DIR]
#   INFER_SHAPES   the reference command
#   --bazel        build the example with Bazel (its own workspace, both proto modes)
#   --cmake DIR    install the engine from the configured CMake build DIR (own classes), build
#                  and install it against the stand-in ONNX library, and build the example
#                  against each with find_package (and against the first with pkg-config)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cli="$(realpath "$1")"
shift
bazel=0
cmake_build=""
while (($#)); do
  case "$1" in
    --bazel) bazel=1 ;;
    --cmake) cmake_build="$(realpath "$2")"; shift ;;
    *) echo "check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

# The check is about how the front end builds, links and what it prints, not its speed: the
# builds it makes itself are unoptimised (about half the compile time of -O2), unless
# ONNX_INFER_FRONTEND_OPTIMIZE=1 asks for the documented optimised ones.
if [[ "${ONNX_INFER_FRONTEND_OPTIMIZE:-0}" == 1 ]]; then
  opt_bazel=()
  opt_cmake=(-DCMAKE_BUILD_TYPE=Release)
  opt_gcc=-O2
else
  opt_bazel=(--compilation_mode=fastbuild)
  opt_cmake=(-DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0)
  opt_gcc=-O0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binaries=()  # "name=path"

quiet() { "$@" > "$work/log" 2>&1 || { cat "$work/log"; return 1; }; }

if ((bazel)); then
  (
    cd "$here"
    quiet bazel build --noshow_progress "${opt_bazel[@]}" //:frontend
    cp bazel-bin/frontend "$work/frontend-bazel-own"
    quiet bazel build --noshow_progress "${opt_bazel[@]}" --config=onnx_proto //:frontend
    cp bazel-bin/frontend "$work/frontend-bazel-onnx"
  )
  binaries+=("bazel-own-proto=$work/frontend-bazel-own" "bazel-onnx-proto=$work/frontend-bazel-onnx")
fi

if [[ -n "$cmake_build" ]]; then
  jobs="$(nproc)"
  # The front end's ONNX library (its classes, package onnx), installed as ONNX would be.
  quiet cmake -S "$here/onnx_library" -B "$work/onnx-build" "${opt_cmake[@]}"
  quiet cmake --build "$work/onnx-build" -j "$jobs"
  quiet cmake --install "$work/onnx-build" --prefix "$work/onnx"
  # onnx-infer with its own classes: the build the test suite already made.
  quiet cmake --build "$cmake_build" -j "$jobs"
  quiet cmake --install "$cmake_build" --prefix "$work/engine-own"
  # onnx-infer compiled against the front end's classes.
  quiet cmake -S "$root" -B "$work/engine-onnx-build" "${opt_cmake[@]}" \
    -DONNX_INFER_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$work/onnx" \
    -DONNX_INFER_ONNX_PROTO_PACKAGE=ONNX -DONNX_INFER_ONNX_PROTO_TARGET=ONNX::onnx_proto
  quiet cmake --build "$work/engine-onnx-build" -j "$jobs"
  quiet cmake --install "$work/engine-onnx-build" --prefix "$work/engine-onnx"
  for mode in own onnx; do
    quiet cmake -S "$here" -B "$work/frontend-$mode" "${opt_cmake[@]}" \
      -DCMAKE_PREFIX_PATH="$work/engine-$mode;$work/onnx"
    quiet cmake --build "$work/frontend-$mode" -j "$jobs"
    binaries+=("cmake-$mode-proto=$work/frontend-$mode/frontend")
  done
  # Without CMake: pkg-config on the installed engine (its own classes).
  pc_dir="$(dirname "$(find "$work/engine-own" -name onnx_infer.pc | head -1)")"
  onnx_lib="$(find "$work/onnx" -name 'libonnx_proto.a' | head -1)"
  read -r -a pc_flags < <(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs onnx_infer)
  quiet g++ -std=c++17 "$opt_gcc" "$here/frontend.cc" -I"$work/onnx/include" "$onnx_lib" "${pc_flags[@]}" \
    -o "$work/frontend-pkgconfig"
  binaries+=("pkgconfig-own-proto=$work/frontend-pkgconfig")
fi

models=("$root/testdata/demo/attention_block.onnx")
if [[ -d "$root/../shared/models/real" ]]; then
  models+=("$root"/../shared/models/real/*.onnx)
else
  echo "frontend: ../shared is absent; checking the demo model only" >&2
fi

passed=0
failed=0
# The front end's stand-in ONNX proto is our proto/onnx.proto in package onnx, regenerated.
"$here/make_onnx_proto.sh" "$work/onnx-ml.proto"
if cmp -s "$work/onnx-ml.proto" "$here/onnx/onnx-ml.proto"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL onnx/onnx-ml.proto is stale: rerun examples/frontend/make_onnx_proto.sh"
fi
for entry in "${binaries[@]}"; do
  name="${entry%%=*}"
  bin="${entry#*=}"
  for model in "${models[@]}"; do
    "$cli" "$model" --values --quiet > "$work/expected" 2> /dev/null || true
    "$bin" "$model" > "$work/actual" 2> /dev/null || true
    if cmp -s "$work/expected" "$work/actual"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL $name: $(basename "$model") differs from infer-shapes --values:"
      diff "$work/expected" "$work/actual" | head -10
    fi
  done
  # The custom operator only the front end knows.
  "$bin" "$here/merge_heads.onnxtxt" > "$work/actual" 2> "$work/stderr" || true
  if cmp -s "$here/merge_heads.expected" "$work/actual"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: merge_heads.onnxtxt:"
    diff "$here/merge_heads.expected" "$work/actual" | head -10
    head -5 "$work/stderr"
  fi
done
echo "frontend: $passed passed, $failed failed"
((failed == 0))
