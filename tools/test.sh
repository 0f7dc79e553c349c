#!/usr/bin/env bash
# The README's second command: installs what is missing, builds everything and runs the whole
# test suite (every test, none taken from Bazel's cache). Tests over the shared corpus
# (../shared beside the checkout) run when it is there and skip cleanly when it is not.
# Extra arguments go to `bazel test`. Ends with one line: "tests: N passed, N failed, N skipped",
# counting GoogleTest cases (a shell test counts once).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
args=(--nocache_test_results)
if [[ -d ../shared ]]; then
  args+=("--test_env=SHARED_DIR=$(realpath ../shared)")
else
  echo "test: ../shared is absent; the corpus tests will skip" >&2
fi
marker="$(mktemp)"
trap 'rm -f "$marker"' EXIT
status=0
bazel test //... "${args[@]}" "$@" || status=$?

# Sum the <testsuite> elements of the XML reports this run wrote.
find -L bazel-testlogs/ -name test.xml -newer "$marker" -print0 2>/dev/null |
  xargs -0 -r grep -ho '<testsuite [^>]*' |
  awk '
    function attr(name,   m) {
      if (match($0, name "=\"[0-9]+\"")) return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 3) + 0
      return 0
    }
    { tests += attr("tests"); failed += attr("failures") + attr("errors")
      skipped += attr("skipped") + attr("disabled") }
    END { printf "tests: %d passed, %d failed, %d skipped\n", tests - failed - skipped, failed, skipped }'
exit "$status"
