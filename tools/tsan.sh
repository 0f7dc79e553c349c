#!/usr/bin/env bash
# Runs the concurrency test, the symbolic/ tests, the registry's (deferred schemas made
# from several threads) and the types' (shapes carved from per-thread slabs) under
# ThreadSanitizer (--config=tsan in .bazelrc), in a separate Bazel output base so the normal
# build cache is left alone. Any data race report fails the test (halt_on_error).
# tools/test.sh runs it. Extra arguments go to `bazel test`, e.g. tools/tsan.sh //inference:all.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
targets=(//inference:concurrency_test //symbolic:all //schema:custom_schemas_test //schema:registry_test
  //schema:type_test)
extra=()
for arg in "$@"; do
  if [[ "$arg" == //* ]]; then targets+=("$arg"); else extra+=("$arg"); fi
done
bazel --output_base="${TMPDIR:-/tmp}/onnx-infer-tsan" test --config=tsan --symlink_prefix=/ \
  --nocache_test_results "${targets[@]}" "${extra[@]}"
