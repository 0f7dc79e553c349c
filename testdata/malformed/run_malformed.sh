#!/usr/bin/env bash
# The malformed-model corpus: runs infer-shapes on every case of testdata/malformed and checks
# its exit code and diagnostics (format in docs/testing.md, "Malformed models").
#   run_malformed.sh INFER_SHAPES [CORPUS_DIR] [CASE_FILTER]
# A case is <category>/<case>.expect, with the model beside it as <case>.onnx or
# <case>.onnxtxt (or none, when its args name what to read). Every case also checks that
# nothing printed holds a raw control byte (an escape sequence from the model) and that it
# ends within its time limit (10 s): a crash, hang or raw escape fails it whatever it expects.
set -uo pipefail

BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
DIR="${2:-$(dirname "$0")}"
FILTER="${3:-}"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/malformed"
rm -rf "$WORK" && mkdir -p "$WORK"
passed=0
failed=0
cases=0

while IFS= read -r expect; do
  rel="${expect#"$DIR"/}"
  name="${rel%.expect}"
  [[ -n "$FILTER" && "$name" != *"$FILTER"* ]] && continue
  cases=$((cases + 1))
  tmp="$WORK/${name//\//_}"
  mkdir -p "$tmp"
  model=""
  for ext in onnx onnxtxt; do
    if [[ -f "${expect%.expect}.$ext" ]]; then
      model="$tmp/$(basename "$name").$ext"
      cp -L "${expect%.expect}.$ext" "$model"  # Bazel's runfiles are symbolic links
    fi
  done
  args="" want_exit="" stdin="" setup=()
  stderr_wants=() stdout_wants=() stderr_unwanted=()
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line//\{tmp\}/$tmp}"
    line="${line//\{model\}/$model}"
    case "$line" in
      "#"* | "") ;;
      args:*) args="${line#args:}" ;;
      exit:*) want_exit="${line#exit: }" ;;
      stdin:*) stdin="${line#stdin: }" ;;
      setup:*) setup+=("${line#setup: }") ;;
      stderr:*) stderr_wants+=("${line#stderr: }") ;;
      no-stderr:*) stderr_unwanted+=("${line#no-stderr: }") ;;
      stdout:*) stdout_wants+=("${line#stdout: }") ;;
      *) echo "FAIL $name: unknown line in the .expect file: $line"; failed=$((failed + 1)); continue 2 ;;
    esac
  done <"$expect"
  if [[ -z "$want_exit" || $((${#stderr_wants[@]} + ${#stdout_wants[@]})) == 0 ]]; then
    echo "FAIL $name: the .expect file needs 'exit:' and at least one 'stderr:' or 'stdout:' line"
    failed=$((failed + 1))
    continue
  fi
  for command in "${setup[@]}"; do
    (cd "$tmp" && bash -c "$command") || { echo "FAIL $name: setup failed: $command"; failed=$((failed + 1)); continue 2; }
  done
  # The model comes first unless the args place it ({model}) or standard input is given.
  eval "set -- $args"
  if [[ -n "$model" && -z "$stdin" && "$args" != *"$model"* ]]; then set -- "$model" "$@"; fi
  (cd "$tmp" && if [[ -n "$stdin" ]]; then
    timeout 10 "$BIN" "$@" <"$stdin"
  else
    timeout 10 "$BIN" "$@" </dev/null
  fi) >"$tmp/stdout" 2>"$tmp/stderr"
  got=$?
  problems=()
  [[ "$got" == 124 ]] && problems+=("timed out")
  [[ "$got" != "$want_exit" ]] && problems+=("exit $got, expected $want_exit")
  for want in "${stderr_wants[@]}"; do
    grep -qF -- "$want" "$tmp/stderr" || problems+=("stderr lacks: $want")
  done
  for unwanted in "${stderr_unwanted[@]}"; do
    grep -qF -- "$unwanted" "$tmp/stderr" && problems+=("stderr holds: $unwanted")
  done
  for want in "${stdout_wants[@]}"; do
    grep -qF -- "$want" "$tmp/stdout" || problems+=("stdout lacks: $want")
  done
  if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/stderr"; then
    problems+=("a raw control byte reached stderr")
  fi
  if ((${#problems[@]} == 0)); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name:"
    printf '  %s\n' "${problems[@]}"
    sed 's/^/  stderr: /' "$tmp/stderr" | head -20
  fi
done < <(find -L "$DIR" -name '*.expect' | sort)

echo "malformed: $cases cases, $passed passed, $failed failed"
[[ "$failed" == 0 ]] && rm -rf "$WORK"  # kept for a look when a case failed
((cases >= 60 || ${#FILTER} > 0)) || { echo "FAIL: fewer than 60 cases found in $DIR"; exit 1; }
[[ "$failed" == 0 ]]
