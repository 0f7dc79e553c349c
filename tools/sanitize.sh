#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with leak checks) and UndefinedBehavior-
# Sanitizer, in a separate Bazel output base so the normal build cache is left alone. Slower
# than tools/test.sh (about 2 minutes on 2 cores); not part of CI. Extra arguments go to
# `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
args=()
[[ -d ../shared ]] && args+=("--test_env=SHARED_DIR=$(realpath ../shared)")
bazel --output_base="${TMPDIR:-/tmp}/onnx-infer-sanitize" test //... --symlink_prefix=/ \
  --nocache_test_results -c dbg \
  --copt=-fsanitize=address,undefined --copt=-fno-omit-frame-pointer \
  --linkopt=-fsanitize=address,undefined \
  --test_env=ASAN_OPTIONS=detect_leaks=1 \
  --test_env=UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "${args[@]}" "$@"
