#!/usr/bin/env bash
# The code and JSON shown in docs/custom-ops.md are the files that are built and tested.
set -uo pipefail
doc="$1" example="$2" ops="$3"
failed=0
extract() {  # extract LANG: the first fenced block of that language
  awk -v lang="$1" '$0 == "```" lang {on = 1; next} on && $0 == "```" {exit} on {print}' "$doc"
}
if ! diff <(extract cpp) "$example" >/dev/null; then
  echo "FAIL: the C++ example in $doc differs from $example"; failed=$((failed + 1))
fi
if ! diff <(extract json) "$ops" >/dev/null; then
  echo "FAIL: the JSON example in $doc differs from $ops"; failed=$((failed + 1))
fi
echo "$((2 - failed)) passed, $failed failed"
[[ "$failed" == 0 ]]
