#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with leak checks) and UndefinedBehavior-
# Sanitizer (--config=asan in .bazelrc: Debian's clang), the shared corpus included, in a
# separate Bazel output base so the normal build cache is left alone; tools/fuzz.sh links the
# fuzz targets in the same one. Any sanitizer report fails its test. tools/test.sh runs it as
# its `asan` part (docs/testing.md has the time it takes). Extra arguments go to `bazel test`:
# targets (//symbolic:all) replace the default //..., anything else is passed on.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
targets=()
extra=()
for arg in "$@"; do
  if [[ "$arg" == //* || "$arg" == -//* ]]; then targets+=("$arg"); else extra+=("$arg"); fi
done
if ((${#targets[@]} == 0)); then
  # //... but not the bazel-* links of the normal output base, which this one cannot read.
  targets=(//:all)
  for dir in */; do
    dir="${dir%/}"
    [[ "$dir" == bazel-* || "$dir" == build* ]] && continue
    [[ -n "$(find "$dir" -name BUILD -print -quit)" ]] || continue
    targets+=("//$dir/...")
  done
fi
# ONNX_INFER_SANITIZE_CORPUS=0 leaves the shared corpus out (tools/test.sh does, for CI's time).
if [[ -d ../shared && "${ONNX_INFER_SANITIZE_CORPUS:-1}" != 0 ]]; then
  extra+=("--test_env=SHARED_DIR=$(realpath ../shared)")
fi
bazel --output_base="${TMPDIR:-/tmp}/onnx-infer-sanitize" test --config=asan --symlink_prefix=/ \
  --nocache_test_results "${extra[@]}" -- "${targets[@]}"
