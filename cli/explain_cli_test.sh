#!/usr/bin/env bash
# End-to-end tests of infer-shapes --explain and --what-if: the reasons printed, the what-if
# counts against real --bind / --set-input runs, usage errors.
set -uo pipefail

BIN="$1"
TMP="${TEST_TMPDIR:-$(mktemp -d)}/explain"
rm -rf "$TMP" && mkdir -p "$TMP"
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  sed 's/^/  out: /' "$TMP/out"
  sed 's/^/  err: /' "$TMP/err"
}
run() {  # run NAME EXPECTED_EXIT ARGS...
  local name="$1" want="$2"
  shift 2
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [[ "$got" == "$want" ]]; then pass; else fail "$name: exit $got, expected $want"; fi
}
expect_out() {  # expect_out NAME TEXT
  if grep -qF -- "$2" "$TMP/out"; then pass; else fail "$1: '$2' not printed"; fi
}
expect_err() {
  if grep -qF -- "$2" "$TMP/err"; then pass; else fail "$1: '$2' not in stderr"; fi
}

# y's dims wait for the value of graph input 'shape'; u is symbolic in M; nz is data-dependent;
# onnx::Reshape_0 has a ':' in its name.
cat >"$TMP/m.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float[N, 512] x, int64[2] shape, float[M] w) => (y, u, nz, z) {
  r = Reshape(x, shape)
  y = Relu(r)
  u = Add(w, w)
  nz = NonZero(w)
  "onnx::Reshape_0" = Relu(r)
  z = Relu(x)
}
MODEL
m="$TMP/m.onnxtxt"

run "explain one dim" 0 "$m" --explain y:1
expect_out "explain one dim" "'y': float[?, ?]: dim 1 is unknown: shape-value-unknown"
expect_out "explain one dim" "'r' dim 1 <- node #0 (Reshape): needs the value of input 1 'shape'"
expect_out "explain one dim" "'shape' value <- graph input"
expect_out "explain one dim" "giving input 'shape' a value (--set-input) would decide it"

run "explain symbolic" 0 "$m" --explain u --explain nz:1
expect_out "explain symbolic" "'u': float[M]: dim 0 is M: symbolic"
expect_out "explain symbolic" "symbol M: input 'w' dim 0 of graph 'main'"
expect_out "explain symbolic" "'nz': int64[1, ?]: dim 1 is unknown: data-dependent"

run "a name with a colon" 0 "$m" --explain onnx::Reshape_0:0
expect_out "a name with a colon" "'onnx::Reshape_0': float[?, ?]: dim 0 is unknown: shape-value-unknown"

run "explain all" 0 "$m" --explain all --quiet
expect_out "explain all" "unknown dims, ranks and types by reason (7 in all):"
expect_out "explain all" "  shape-value-unknown: 6"
expect_out "explain all" "  data-dependent: 1"
expect_out "explain all" "what-if (node outputs fully static"
expect_out "explain all" "  all together:"

# Each what-if count is that of a real run with the binding alone.
static_of() {  # static_of ARGS...: the static count of the summary line
  "$BIN" "$m" "$@" 2>&1 | sed -n 's/.* fully shaped (\([0-9]*\) static.*/\1/p'
}
what_if_of() {  # what_if_of LABEL ARGS...: the count a what-if line reports
  local label="$1"
  shift
  "$BIN" "$m" --quiet "$@" 2>&1 | sed -n "s/^  $label: [-+0-9]* fully static (\([0-9]*\)).*/\1/p"
}
for case in "N=3|--bind N=3|--what-if N=3" "M=2|--bind M=2|--explain all" \
  "shape=4,128|--set-input shape=4,128|--what-if shape=4,128"; do
  IFS='|' read -r label real predicted <<<"$case"
  want=$(static_of $real)
  got=$(what_if_of "$label" $predicted)
  if [[ -n "$want" && "$want" == "$got" ]]; then
    pass
  else
    failed=$((failed + 1))
    echo "FAIL what-if $label: predicted '$got', a real '$real' run has '$want'"
  fi
done

run "no such value" 2 "$m" --explain nope
expect_err "no such value" "--explain: the model has no value 'nope'"
run "axis past the rank" 2 "$m" --explain y:5
expect_err "axis past the rank" "'y' has rank 2: no axis 5"
run "what-if syntax" 2 "$m" --what-if N
expect_err "what-if syntax" "--what-if 'N': expected NAME=VALUE"
run "explain needs a value" 2 "$m" --explain

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
