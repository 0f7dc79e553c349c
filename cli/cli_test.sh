#!/usr/bin/env bash
# End-to-end tests of the infer-shapes command: flags, exit codes, output files, reports.
set -uo pipefail

BIN="$1"
TESTDATA="$(dirname "$2")/.."  # $2 is testdata/demo/attention_block.onnx
EXAMPLE_BIN="$3"               # infer-shapes built with examples/custom_ops
DATA="$TESTDATA/demo"
CLI_DATA="$TESTDATA/cli"
TMP="${TEST_TMPDIR:-$(mktemp -d)}/cli"
rm -rf "$TMP" && mkdir -p "$TMP"
passed=0
failed=0

check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" want="$2"
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [[ "$got" == "$want" ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $got, expected $want"
    sed 's/^/  stdout: /' "$TMP/out"
    sed 's/^/  stderr: /' "$TMP/err"
  fi
}

expect_in() {  # expect_in NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1: '$3' not in $2:"
    sed 's/^/  /' "$2"
  fi
}

expect_not_in() {  # expect_not_in NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then
    failed=$((failed + 1))
    echo "FAIL $1: '$3' is in $2:"
    sed 's/^/  /' "$2"
  else
    passed=$((passed + 1))
  fi
}

demo="$DATA/attention_block.onnx"

check help 0 "$BIN" --help
expect_in help-text "$TMP/out" "exit codes:"
check no-args 2 "$BIN"
expect_in no-args-msg "$TMP/err" "infer-shapes: no model given"
check unknown-flag 2 "$BIN" "$demo" --frobnicate
expect_in unknown-flag-msg "$TMP/err" "unknown option --frobnicate"
check two-models 2 "$BIN" "$demo" "$demo"
check in-place-and-o 2 "$BIN" "$demo" --in-place -o "$TMP/x.onnx"
check missing-file 2 "$BIN" "$TMP/nope.onnx"
expect_in missing-file-msg "$TMP/err" "cannot open: No such file or directory"
printf 'garbage\xff\xff\xff' >"$TMP/garbage.onnx"
check garbage 2 "$BIN" "$TMP/garbage.onnx"
expect_in garbage-msg "$TMP/err" "not a valid ONNX model"
: >"$TMP/empty.onnx"
check empty 2 "$BIN" "$TMP/empty.onnx"
expect_in empty-msg "$TMP/err" "the file is empty"
head -c 300 "$demo" >"$TMP/truncated.onnx"
check truncated 2 "$BIN" "$TMP/truncated.onnx"

# The demo: check only, values printed.
check demo 0 "$BIN" "$demo" --values
expect_in demo-h4 "$TMP/out" "h4: float[batch, seq, 2, 4]"
expect_in demo-y "$TMP/out" "y: float[batch, 3, seq, 4]"
expect_in demo-summary "$TMP/out" "6 nodes, 6 values: 6 typed, 6 fully shaped (0 static, 6 symbolic), 0 unknown; 0 errors"

# Constants still reach Reshape without data propagation.
check no-data-prop 0 "$BIN" "$demo" --values --no-data-prop
expect_in no-data-prop-h4 "$TMP/out" "h4: float[batch, seq, 2, 4]"

# -o writes an annotated copy; inferring the copy again finds the same types.
check write 0 "$BIN" "$demo" -o "$TMP/annotated.onnx"
expect_in write-msg "$TMP/out" "wrote $TMP/annotated.onnx"
check reread 0 "$BIN" "$TMP/annotated.onnx" --values
expect_in reread-values "$TMP/out" "ht: float[batch, 2, seq, 4]"
if cmp -s "$demo" "$TMP/annotated.onnx"; then
  failed=$((failed + 1)); echo "FAIL write: the copy is not annotated"
else
  passed=$((passed + 1))
fi

# --in-place rewrites the given file.
cp "$demo" "$TMP/inplace.onnx"
check in-place 0 "$BIN" "$TMP/inplace.onnx" --in-place --quiet
check in-place-reread 0 "$BIN" "$TMP/inplace.onnx" --values
expect_in in-place-values "$TMP/out" "xb: float[batch, seq, 8]"

# The JSON report.
check json 0 "$BIN" "$demo" --json "$TMP/report.json" --quiet
expect_in json-typed "$TMP/report.json" '"typed": 6'
expect_in json-diags "$TMP/report.json" '"diagnostics": []'

# The report's summary, symbols with their origin, facts, and each diagnostic's subject.
check json-report 1 "$BIN" "$CLI_DATA/report.onnxtxt" --json "$TMP/full.json" -o "$TMP/full.onnx"
expect_in json-symbolic "$TMP/full.json" '"symbolic": 2'
expect_in json-unknown "$TMP/full.json" '"unknown": 0'
expect_in json-declared "$TMP/full.json" '"origin": "input '"'"'a'"'"' dim 0 of graph '"'"'main'"'"'"'
expect_in json-introduced "$TMP/full.json" '"name": "z__d0"'
expect_in json-introduced-count "$TMP/full.json" '"symbols_introduced": 1'
expect_in json-fact "$TMP/full.json" '"K == M (node of output '"'"'y'"'"' (MatMul): contracted dims)"'
expect_in json-subject-kind "$TMP/full.json" '"kind": "input"'
expect_in json-subject-name "$TMP/full.json" '"name": "c"'
expect_in text-summary "$TMP/out" "3 values: 3 typed"

# Errors: a cycle is exit 1; with --strict nothing is written and the original is untouched.
cp "$CLI_DATA/cycle.onnx" "$TMP/cycle.onnx"
check cycle 1 "$BIN" "$TMP/cycle.onnx" --json "$TMP/cycle.json"
expect_in cycle-msg "$TMP/err" "form a cycle"
expect_in cycle-json "$TMP/cycle.json" '"severity": "error"'
# Every diagnostic carries its stable code and the code's name (docs/diagnostics.md).
expect_in cycle-json-code "$TMP/cycle.json" '"code": "OI1204"'
expect_in cycle-json-kind "$TMP/cycle.json" '"kind": "graph-cycle"'
check cycle-strict 1 "$BIN" "$TMP/cycle.onnx" --strict --in-place
expect_in cycle-strict-msg "$TMP/err" "not written: inference found errors (--strict)"
if cmp -s "$CLI_DATA/cycle.onnx" "$TMP/cycle.onnx"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL cycle-strict: the model was modified"
fi

# A custom op without a schema: a warning, or an error with --strict.
check custom 0 "$BIN" "$CLI_DATA/custom_op.onnx" --values
expect_in custom-warning "$TMP/err" "warning[OI2002]: graph 'main' node #0 (my.ops::Fancy): no schema"
expect_in custom-rest "$TMP/out" "y: float[N]"
check custom-strict 1 "$BIN" "$CLI_DATA/custom_op.onnx" --strict
check custom-quiet 0 "$BIN" "$CLI_DATA/custom_op.onnx" --quiet
if [[ -s "$TMP/err" || -s "$TMP/out" ]]; then
  failed=$((failed + 1)); echo "FAIL custom-quiet: printed something"
else
  passed=$((passed + 1))
fi

# Custom operators from a JSON schema file.
OPS="$TESTDATA/custom_ops"
check schemas 0 "$BIN" "$OPS/split_heads.onnx" --schemas "$OPS/my_ops.json" --values
expect_in schemas-shape-rule "$TMP/out" "h: float[B, 12, S, 64]"
expect_in schemas-broadcast-rule "$TMP/out" "s: float[B, S, 768]"
expect_in schemas-elementwise-rule "$TMP/out" "mask: bool[B, S, 768]"
check schemas-missing 0 "$BIN" "$OPS/split_heads.onnx"
expect_in schemas-missing-msg "$TMP/err" "no schema for custom operator my.ops::SplitHeads"
# A schema without a rule: the signature types the output, a note says so (--strict: error).
check schemas-no-rule 0 "$BIN" "$CLI_DATA/pending.onnxtxt" --schemas "$OPS/pending_ops.json" --values
expect_in schemas-no-rule-note "$TMP/err" "(my.ops::Pending-1): no inference rule for this operator yet"
expect_in schemas-no-rule-type "$TMP/out" "y: float"
check schemas-no-rule-strict 1 "$BIN" "$CLI_DATA/pending.onnxtxt" --schemas "$OPS/pending_ops.json" --strict
expect_in schemas-no-rule-error "$TMP/err" "error[OI2004]: graph 'main' node #0 (my.ops::Pending-1): no inference rule"
check schemas-bad 2 "$BIN" "$OPS/split_heads.onnx" --schemas "$OPS/bad_ops.json"
expect_in schemas-bad-msg "$TMP/err" "bad_ops.json: operators[0].rule.kind: expected one of"
check schemas-absent 2 "$BIN" "$OPS/split_heads.onnx" --schemas "$TMP/none.json"
expect_in schemas-absent-msg "$TMP/err" "none.json: cannot open"
# A shape rule applies only to the ranks it states or its slices imply: a rank it was not
# written for is an error naming the op and input, never a shape; a rule that indexes an
# input without saying its rank does not load.
check schemas-ranks 1 "$BIN" "$CLI_DATA/image_ops.onnxtxt" --schemas "$OPS/image_ops.json" --values
expect_in schemas-ranks-fit "$TMP/out" "a: float[N, 3, floor(H/2), floor(W/2)]"
expect_in schemas-ranks-error "$TMP/err" "error[OI8002]: graph 'main' node #1 (img.ops::Halve-1): input 0 'chw': the rule expects rank 4, got rank 3"
if grep -qx "  b: float" "$TMP/out"; then  # typed, but no shape
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL schemas-ranks-no-shape: 'b' has a shape:"; sed 's/^/  /' "$TMP/out"
fi
expect_in schemas-slice-rank4 "$TMP/out" "c: float[N, 3, floor((H + 1)/2) - 1, floor((W + 1)/2) - 1]"
expect_in schemas-slice-rank3 "$TMP/out" "d: float[3, H - 2, W - 2]"
check schemas-unranked 2 "$BIN" "$CLI_DATA/image_ops.onnxtxt" --schemas "$OPS/unranked_ops.json"
expect_in schemas-unranked-msg "$TMP/err" "unranked_ops.json: operators[0].rule.dims[0]: in0[0]: the rule does not state the rank of input 0"

# Custom operators in C++: an infer-shapes built with examples/custom_ops.
check cpp-custom-op 0 "$EXAMPLE_BIN" "$OPS/patch_embed.onnx" --values
expect_in cpp-custom-op-shape "$TMP/out" "tokens: float[2, 140, 768]"
check cpp-custom-op-unknown-to-builtin 0 "$BIN" "$OPS/patch_embed.onnx"
expect_in cpp-custom-op-unknown-msg "$TMP/err" "no schema for custom operator com.example::PatchEmbed"

# --print writes the annotated model as text (value_info included); the summary goes to stderr.
check print 0 "$BIN" "$demo" --print
expect_in print-header "$TMP/out" 'opset_import: ["" : 17]'
expect_in print-value-info "$TMP/out" "float[batch, seq, 2, 4] h4"
expect_in print-node "$TMP/out" "ht = Transpose <perm = [0, 2, 1, 3]> (h4)"
expect_in print-summary "$TMP/err" "6 nodes, 6 values"
cp "$TMP/out" "$TMP/demo.onnxtxt"

# A text model is read by its extension, and by content when it is not binary protobuf.
check text-input 0 "$BIN" "$TMP/demo.onnxtxt" --values
expect_in text-input-values "$TMP/out" "y: float[batch, 3, seq, 4]"
cp "$TMP/demo.onnxtxt" "$TMP/demo.txt"
check text-sniffed 0 "$BIN" "$TMP/demo.txt" --values
expect_in text-sniffed-values "$TMP/out" "h4: float[batch, seq, 2, 4]"
# Text in, binary out: the written model reads back with the same types.
check text-to-binary 0 "$BIN" "$TMP/demo.onnxtxt" -o "$TMP/from_text.onnx"
check text-to-binary-reread 0 "$BIN" "$TMP/from_text.onnx" --values
expect_in text-to-binary-values "$TMP/out" "ht: float[batch, 2, seq, 4]"
# Printing the printed model gives the same text.
"$BIN" "$TMP/demo.onnxtxt" --print >"$TMP/again.onnxtxt" 2>/dev/null
if cmp -s "$TMP/demo.onnxtxt" "$TMP/again.onnxtxt"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL print-idempotent:"; diff "$TMP/demo.onnxtxt" "$TMP/again.onnxtxt"
fi
# A text model with a syntax error: exit 2, with the line and column.
printf '<ir_version: 8>\nmain (float x = ) => (y) {}\n' >"$TMP/bad.onnxtxt"
check text-error 2 "$BIN" "$TMP/bad.onnxtxt"
expect_in text-error-msg "$TMP/err" "bad.onnxtxt:2:17: expected '{' to open the tensor values"
printf 'main (float x = ) => (y) {}\n' >"$TMP/bad.onnx"
check text-sniffed-error 2 "$BIN" "$TMP/bad.onnx"
expect_in text-sniffed-error-msg "$TMP/err" "read as ONNX text: $TMP/bad.onnx:1:17"

# External data is read from the model's directory only. Bazel's runfiles are symbolic links,
# which the reader refuses, so the model and its data file are copied first.
EXT="$TMP/external"
mkdir -p "$EXT" && cp -L "$CLI_DATA/external/model.onnx" "$CLI_DATA/external/model.data" "$EXT/"
check external 0 "$BIN" "$EXT/model.onnx" --values
expect_in external-shape "$TMP/out" "y: float[B, 6, 2, 4]"
# No warning: the float bias, whose file does not exist, was never opened.
if [[ -s "$TMP/err" ]]; then
  failed=$((failed + 1)); echo "FAIL external-silent:"; sed 's/^/  /' "$TMP/err"
else
  passed=$((passed + 1))
fi
# A relative model path: its directory is taken relative to the working directory.
ABS_BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
check external-relative 0 bash -c "cd '$TMP' && '$ABS_BIN' external/model.onnx --values"
expect_in external-relative-shape "$TMP/out" "y: float[B, 6, 2, 4]"
# The data file replaced by a link to a file elsewhere: a warning naming the initializer and
# the reason; the shape stays unknown and inference goes on (exit 0).
mkdir -p "$TMP/elsewhere" && mv "$EXT/model.data" "$TMP/elsewhere/model.data"
ln -s "$TMP/elsewhere/model.data" "$EXT/model.data"
check external-symlink 0 "$BIN" "$EXT/model.onnx" --values
expect_in external-symlink-msg "$TMP/err" "warning[OI1301]: graph 'main' node #1 'reshape' (ai.onnx::Reshape): tensor 'shape': external data 'model.data': the file is a symbolic link; its value is left unknown"
expect_in external-symlink-shape "$TMP/out" "y: float[?, ?, ?, ?]"

# Assumptions: Slice(x, 1, -1) on an axis of S is Max(0, S - 2) for every model, S - 2 once
# S >= 2 is assumed; the JSON report lists the assumption with the result that needed it.
cat >"$TMP/slice.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 18]>
main (float[N, S, 8] x) => (y)
  <int64[1] one = {1}, int64[1] minus_one = {-1}, int64[1] axis = {1}>
{
  y = Slice(x, one, minus_one, axis)
}
MODEL
check assume-none 0 "$BIN" "$TMP/slice.onnxtxt" --values
expect_in assume-none-shape "$TMP/out" "y: float[N, Max(0, S - 2), 8]"
check assume 0 "$BIN" "$TMP/slice.onnxtxt" --values --assume 'S >= 2' --json "$TMP/assume.json"
expect_in assume-shape "$TMP/out" "y: float[N, S - 2, 8]"
expect_in assume-json "$TMP/assume.json" '"S >= 2 (assumed for node of output '"'y'"' (Slice): output '"'y'"' dim 1 is S - 2 instead of Max(0, S - 2))"'
expect_in assume-json-list "$TMP/assume.json" '"assumptions": ['
check assume-strict-bound 0 "$BIN" "$TMP/slice.onnxtxt" --values --assume='S > 2'
expect_in assume-strict-bound-shape "$TMP/out" "y: float[N, S - 2, 8]"
check assume-positive 0 "$BIN" "$TMP/slice.onnxtxt" --values --assume-positive --json "$TMP/positive.json"
expect_in assume-positive-shape "$TMP/out" "y: float[N, Max(0, S - 2), 8]"  # S may be 1
expect_in assume-positive-json "$TMP/positive.json" '"assume_positive": true'
# An initializer that is also a graph input: used by default (a condition in the report),
# not used with --overridable-initializers.
cat > "$TMP/default_input.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float[6] x, int64[2] shape) => (y) <int64[2] shape = {2, 3}> {
  y = Reshape(x, shape)
}
MODEL
check default-input 0 "$BIN" "$TMP/default_input.onnxtxt" --values --json "$TMP/default.json"
expect_in default-input-shape "$TMP/out" "y: float[2, 3]"
expect_in default-input-json "$TMP/default.json" "input 'shape' keeps its initializer's value"
expect_in default-input-flag "$TMP/default.json" '"overridable_initializers": false'
check overridable 0 "$BIN" "$TMP/default_input.onnxtxt" --values --overridable-initializers \
  --json "$TMP/overridable.json"
expect_in overridable-shape "$TMP/out" "y: float[?, ?]"
expect_in overridable-flag "$TMP/overridable.json" '"overridable_initializers": true'
# --no-check-types: a type-constraint violation is a warning (exit 0), an error without it.
cat > "$TMP/bool_greater.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (bool[2] a, bool[2] b) => (c) {
  c = Greater(a, b)
}
MODEL
check type-checked 1 "$BIN" "$TMP/bool_greater.onnxtxt"
check type-unchecked 0 "$BIN" "$TMP/bool_greater.onnxtxt" --no-check-types
expect_in type-unchecked-warning "$TMP/err" "warning[OI2201]: graph 'main' node #0 (ai.onnx::Greater-13): input 0 'a': type bool is not allowed for T"
check assume-bad 2 "$BIN" "$TMP/slice.onnxtxt" --assume 'S == 4'
expect_in assume-bad-msg "$TMP/err" "--assume 'S == 4': expected a dim expression compared with integers"
check assume-bad-two-sides 2 "$BIN" "$TMP/slice.onnxtxt" --assume 'S <= T'
expect_in assume-bad-two-sides-msg "$TMP/err" "(one side must be an integer)"
check assume-missing 2 "$BIN" "$TMP/slice.onnxtxt" --assume
check assume-typo 0 "$BIN" "$TMP/slice.onnxtxt" --assume 'SS >= 2'
expect_in assume-typo-msg "$TMP/err" "assumption 'SS >= 2': the model has no symbol 'SS'"
# An assumption the model contradicts is an inference error (exit 1).
cat >"$TMP/fixed.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 18]>
main (float[N, S] x, float[1, 4] w) => (y)
{
  y = MatMul(x, w)
}
MODEL
check assume-contradicted 1 "$BIN" "$TMP/fixed.onnxtxt" --assume 'S >= 2'
expect_in assume-contradicted-msg "$TMP/err" "S == 1 (node of output 'y' (MatMul): contracted dims) contradicts S >= 2 (assumed)"
# Specialization: --set-input decides an If whose branches differ in rank, --bind makes every
# dim concrete, --input-shape replaces a declared shape; an anonymous input dim gets a name.
SPEC="$CLI_DATA/specialize.onnxtxt"
check specialize-none 0 "$BIN" "$SPEC" --values
expect_in specialize-none-y "$TMP/out" "  y: float"
expect_in specialize-anonymous "$TMP/out" "r: float[z_d0, 4]"
check set-input 0 "$BIN" "$SPEC" --values --set-input sr=16000
expect_in set-input-y "$TMP/out" "y: float[B, S, 8, 8]"
check set-input-else 0 "$BIN" "$SPEC" --values --set-input=sr=8000
expect_in set-input-else-y "$TMP/out" "y: float[B, S, 64]"
check bind 0 "$BIN" "$SPEC" --values --set-input sr=16000 --bind B=2,S=16 --input-shape z:3,4 \
  -o "$TMP/specialized.onnx"
expect_in bind-y "$TMP/out" "y: float[2, 16, 8, 8]"
expect_in input-shape-r "$TMP/out" "r: float[3, 4]"
check bind-reread 0 "$BIN" "$TMP/specialized.onnx" --values
expect_in bind-reread-x "$TMP/out" "x: float[2, 16, 64]"
expect_in bind-reread-z "$TMP/out" "z: float[3, 4]"
check bind-unused 0 "$BIN" "$SPEC" --bind Q=3
expect_in bind-unused-msg "$TMP/err" "warning[OI5003]: graph 'main': bind Q=3: the model has no symbol 'Q'"
# A binding that contradicts what the model computes (issue 27): the model forces
# total_sequence_length to past + seq = 7, so binding it to 9 is an error (exit 1) naming
# both facts, and the model is not written with 9 over the inferred 7.
cat >"$TMP/kv.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float[1, 4, past, 8] past_key, float[1, 4, seq, 8] key) => (float[1, 4, total_sequence_length, 8] present)
{
  present = Concat <axis = 2> (past_key, key)
}
MODEL
rm -f "$TMP/kv_out.onnx"
check bind-contradicted 1 "$BIN" "$TMP/kv.onnxtxt" --bind past=3,seq=4,total_sequence_length=9 \
  -o "$TMP/kv_out.onnx" --json "$TMP/kv.json"
expect_in bind-contradicted-msg "$TMP/err" "error[OI5001]: graph 'main' node #0 (ai.onnx::Concat-13): output 0 'present': total_sequence_length == 7 (declared type of 'present' dim 2) contradicts total_sequence_length == 9 (bind)"
expect_in bind-contradicted-not-written "$TMP/err" "kv_out.onnx: not written: the options contradict the model"
expect_in bind-contradicted-json "$TMP/kv.json" '"written": false'
if [[ -e "$TMP/kv_out.onnx" ]]; then
  failed=$((failed + 1)); echo "FAIL bind-contradicted-file: $TMP/kv_out.onnx was written"
else
  passed=$((passed + 1))
fi
# The same inside an If branch: the branch output's declaration mentions the bound symbol,
# so the contradiction is the options' (nothing written), not a stale declaration.
cat >"$TMP/kv_if.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (bool c, float[1, 4, past, 8] past_key, float[1, 4, seq, 8] key) => (present)
{
  present = If (c) <then_branch = g1 () => (float[1, 4, total_sequence_length, 8] t) {
                      t = Concat <axis = 2> (past_key, key) },
                    else_branch = g2 () => (float[1, 4, total_sequence_length, 8] e) {
                      e = Concat <axis = 2> (key, past_key) }>
}
MODEL
rm -f "$TMP/kv_if_out.onnx"
check bind-contradicted-subgraph 1 "$BIN" "$TMP/kv_if.onnxtxt" \
  --bind past=3,seq=4,total_sequence_length=9 -o "$TMP/kv_if_out.onnx"
expect_in bind-contradicted-subgraph-msg "$TMP/err" "contradicts total_sequence_length == 9 (bind)"
expect_in bind-contradicted-subgraph-not-written "$TMP/err" "kv_if_out.onnx: not written: the options contradict the model"
if [[ -e "$TMP/kv_if_out.onnx" ]]; then
  failed=$((failed + 1)); echo "FAIL bind-contradicted-subgraph-file: $TMP/kv_if_out.onnx was written"
else
  passed=$((passed + 1))
fi
# A stale declaration (issue 30's policy): by default an error, and the model is written with
# the inferred type over it; --policy refine keeps it with a warning (exit 0); --policy strict
# writes nothing; an unknown policy is a usage error.
cat >"$TMP/stale.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float[4] x) => (float[5] y)
{
  y = Relu(x)
}
MODEL
check policy-default 1 "$BIN" "$TMP/stale.onnxtxt" -o "$TMP/stale_out.onnx"
expect_in policy-default-msg "$TMP/err" "the inferred type replaces it"
check policy-default-written 0 "$BIN" "$TMP/stale_out.onnx" --values
expect_in policy-default-y "$TMP/out" "y: float[4]"
check policy-refine 0 "$BIN" "$TMP/stale.onnxtxt" --policy refine --values
expect_in policy-refine-y "$TMP/out" "y: float[5]"
rm -f "$TMP/stale_strict.onnx"
check policy-strict 1 "$BIN" "$TMP/stale.onnxtxt" --policy=strict -o "$TMP/stale_strict.onnx"
expect_in policy-strict-msg "$TMP/err" "not written: a declared type contradicts inference (--policy strict)"
if [[ -e "$TMP/stale_strict.onnx" ]]; then
  failed=$((failed + 1)); echo "FAIL policy-strict-file: $TMP/stale_strict.onnx was written"
else
  passed=$((passed + 1))
fi
check policy-unknown 2 "$BIN" "$TMP/stale.onnxtxt" --policy keep
expect_in policy-unknown-msg "$TMP/err" "--policy 'keep': expected inferred, refine, override or strict"
check input-shape-contradicted 1 "$BIN" "$TMP/kv.onnxtxt" --bind total_sequence_length=9 \
  --input-shape past_key:1,4,3,8 --input-shape key:1,4,4,8
expect_in input-shape-contradicted-msg "$TMP/err" "total_sequence_length == 7 (declared type of 'present' dim 2) contradicts total_sequence_length == 9 (bind)"
check bind-agrees 0 "$BIN" "$TMP/kv.onnxtxt" --bind past=3,seq=4,total_sequence_length=7 --values
expect_in bind-agrees-present "$TMP/out" "present: float[1, 4, 7, 8]"
# Input shapes that contradict each other through a declared symbol (N == 5 and N == 6).
cat >"$TMP/two_n.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float[N, 3] x, float[N, 3] y) => (z)
{
  z = Add(x, y)
}
MODEL
check input-shapes-contradict 2 "$BIN" "$TMP/two_n.onnxtxt" --input-shape x:5,3 --input-shape y:6,3
expect_in input-shapes-contradict-msg "$TMP/err" "N == 6 (input shape for 'y' dim 0) contradicts N == 5 (input shape for 'x' dim 0)"
# Mistakes in these flags are usage errors (exit 2), found before inference.
check bind-syntax 2 "$BIN" "$SPEC" --bind B
expect_in bind-syntax-msg "$TMP/err" "infer-shapes: --bind: 'B' is not symbol=value"
check bind-twice 2 "$BIN" "$SPEC" --bind B=1 --bind B=2
expect_in bind-twice-msg "$TMP/err" "--bind: B is bound twice: to 1 and to 2"
check input-shape-syntax 2 "$BIN" "$SPEC" --input-shape 'z:a b'
expect_in input-shape-syntax-msg "$TMP/err" "--input-shape: dim 'a b' is neither a number"
check set-input-no-input 2 "$BIN" "$SPEC" --set-input q=1
expect_in set-input-no-input-msg "$TMP/err" "specialize.onnxtxt: input value for 'q': the model has no graph input 'q'"
check set-input-misfit 2 "$BIN" "$SPEC" --set-input sr=1,2
expect_in set-input-misfit-msg "$TMP/err" "input value for 'sr': the input is a scalar but 2 elements are given"
check set-input-not-number 2 "$BIN" "$SPEC" --set-input sr=abc
expect_in set-input-not-number-msg "$TMP/err" "--set-input: 'abc' in 'sr=abc' is not a number"

# --memory: each value's bytes, the weights, the peak of live activations; in the JSON report
# with --json; on standard error with --print.
check memory 0 "$BIN" "$SPEC" --memory --set-input sr=16000
expect_in memory-value "$TMP/out" "  x: float[B, S, 64] = 256*B*S"
expect_in memory-branch "$TMP/out" "graph main/If_2.then_branch:"
expect_in memory-weights "$TMP/out" "weights: 40 in 2 tensors"
# Symbolic sizes: which step is largest depends on B, S and z_d0 (any may be 0).
expect_in memory-peak "$TMP/out" "activations: peak Max(Max(256*B*S + 16*z_d0 + 9, 512*B*S + 16*z_d0 + 1), 256*B*S + 32*z_d0), at whichever of node #1 (Equal), node #2 (If), node #3 (Relu) is largest"
check memory-bound 0 "$BIN" "$SPEC" --memory --set-input sr=16000 --bind B=2,S=16 \
  --input-shape z:3,4 --json "$TMP/memory.json"
expect_in memory-bound-peak "$TMP/out" "activations: peak 16433 (16.0 KiB) at node #2 (If)"
expect_in memory-json-peak "$TMP/memory.json" '"peak_bytes": 16433'
expect_in memory-json-decided "$TMP/memory.json" '"peak_decided": true'
expect_in memory-json-weights "$TMP/memory.json" '"weight_bytes": 40'
expect_in memory-json-value "$TMP/memory.json" '"name": "t"'
check memory-symbolic-json 0 "$BIN" "$SPEC" --memory --json "$TMP/memory2.json" --quiet
expect_in memory-json-expression "$TMP/memory2.json" '"bytes": "256*B*S"'
check memory-print 0 "$BIN" "$SPEC" --memory --print
expect_in memory-print-stderr "$TMP/err" "memory in bytes (docs/memory.md):"
if grep -q "memory in bytes" "$TMP/out"; then
  failed=$((failed + 1)); echo "FAIL memory-print: the estimate went to standard output"
else
  passed=$((passed + 1))
fi
check no-memory-json 0 "$BIN" "$SPEC" --json "$TMP/plain.json"
if grep -q '"memory"' "$TMP/plain.json"; then
  failed=$((failed + 1)); echo "FAIL no-memory-json: the report has a memory section"
else
  passed=$((passed + 1))
fi

# An output that cannot be written is exit 2, and leaves nothing behind.
check unwritable 2 "$BIN" "$demo" -o "$TMP/no/such/dir/out.onnx"
expect_in unwritable-msg "$TMP/err" "cannot write"

# ---- Issue 17: hostile input, special files, output targets, reports, pipes.
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
not_in() {  # not_in NAME FILE TEXT: the file must not contain TEXT
  if grep -qF -- "$3" "$2"; then fail "$1: '$3' is in $2"; else pass; fi
}
cat >"$TMP/hostile.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
main (float["N\xff", 2] "a\xfe") => ("y\xfe\x1b[31m") {
  "y\xfe\x1b[31m" = Relu("b\x1b]0;pwned\x07\xc2\x9b")
}
MODEL
# Class 2: names, dim_params and file names that are not UTF-8 never abort --json; each
# invalid byte is U+FFFD in the report.
check json-invalid-utf8 1 "$BIN" "$TMP/hostile.onnxtxt" --json "$TMP/hostile.json"
expect_in json-invalid-utf8-dim "$TMP/hostile.json" "$(printf '"name": "N\xef\xbf\xbd"')"
expect_in json-invalid-utf8-exit "$TMP/hostile.json" '"exit_code": 1'
cp "$demo" "$TMP/$(printf 'm\xff.onnx')"
check json-invalid-utf8-file 0 "$BIN" "$TMP/$(printf 'm\xff.onnx')" --json "$TMP/file.json"
expect_in json-invalid-utf8-file-name "$TMP/file.json" "$(printf 'm\xef\xbf\xbd.onnx"')"
# Class 7: no byte of the model reaches the terminal raw: ESC, BEL and C1 controls escaped.
check escapes 1 "$BIN" "$TMP/hostile.onnxtxt" --values
expect_in escapes-diagnostic "$TMP/err" "input 0 'b\x1b]0;pwned\x07\xc2\x9b' is not defined"
expect_in escapes-values "$TMP/out" 'y\xfe\x1b[31m: ?'
if LC_ALL=C grep -q "$(printf '[\033\007]')" "$TMP/err" "$TMP/out"; then
  fail "escapes-raw: a control byte reached the output"
else
  pass
fi
# Class 4: special and huge files are refused at once, never read whole or waited on.
check dev-zero 2 timeout 5 "$BIN" /dev/zero
expect_in dev-zero-msg "$TMP/err" "/dev/zero: is a character device, not a file"
mkfifo "$TMP/fifo"
check fifo-no-writer 2 timeout 5 "$BIN" "$TMP/fifo"
expect_in fifo-no-writer-msg "$TMP/err" "read nothing: a FIFO or pipe without a writer"
# A writer already waiting on the FIFO: the model is read from it whole (a regular file's
# loader must not open it first and let the writer write into a reader that goes away).
mkfifo "$TMP/fifo-with-writer"
(cat "$demo" >"$TMP/fifo-with-writer" &)
sleep 0.2
check fifo-with-writer 0 timeout 10 "$BIN" "$TMP/fifo-with-writer" --quiet
truncate -s 3G "$TMP/huge.onnx"
check huge 2 timeout 5 "$BIN" "$TMP/huge.onnx"
expect_in huge-msg "$TMP/err" "the file is 3221225472 bytes, over the limit of 2147483647 bytes (2 GiB, the most protobuf can parse; store large tensors as external data); nothing was read"
check zeros-on-stdin 2 timeout 5 bash -c "head -c 100000000 /dev/zero | '$BIN' -"
expect_in zeros-on-stdin-msg "$TMP/err" "<stdin>: not an ONNX model: its first bytes start neither binary protobuf nor ONNX text"
check schemas-dev-zero 2 timeout 5 "$BIN" "$demo" --schemas /dev/zero
expect_in schemas-dev-zero-msg "$TMP/err" "/dev/zero: is a character device"
truncate -s 100M "$TMP/huge.json"
check schemas-huge 2 timeout 5 "$BIN" "$demo" --schemas "$TMP/huge.json"
expect_in schemas-huge-msg "$TMP/err" "over the limit of 67108864 bytes (64 MiB, the limit of a custom schemas file)"
# Class 5: outputs. A character device or FIFO is written directly, never replaced.
null_was_device=0; [[ -c /dev/null ]] && null_was_device=1
check out-dev-null 0 "$BIN" "$demo" -o /dev/null --json /dev/null
if ((null_was_device)) && [[ ! -c /dev/null ]]; then fail "out-dev-null: /dev/null was replaced"; else pass; fi
check out-fifo-no-reader 2 timeout 5 "$BIN" "$demo" -o "$TMP/fifo"
expect_in out-fifo-no-reader-msg "$TMP/err" "fifo: is a FIFO with no reader; not written"
cat "$TMP/fifo" >"$TMP/from_fifo.onnx" &
reader=$!
sleep 0.2
check out-fifo 0 timeout 5 "$BIN" "$demo" -o "$TMP/fifo" --quiet
wait "$reader"
if [[ -p "$TMP/fifo" ]]; then pass; else fail "out-fifo: the FIFO was replaced"; fi
check out-fifo-reread 0 "$BIN" "$TMP/from_fifo.onnx" --values
expect_in out-fifo-reread-values "$TMP/out" "ht: float[batch, 2, seq, 4]"
# A read-only target is refused and untouched (for root too).
printf 'keep' >"$TMP/ro.onnx" && chmod 444 "$TMP/ro.onnx"
check out-read-only 2 "$BIN" "$demo" -o "$TMP/ro.onnx"
expect_in out-read-only-msg "$TMP/err" "ro.onnx: the file is read-only; not replaced"
expect_in out-read-only-kept "$TMP/ro.onnx" "keep"
# A 250-character name is valid; the temporary file adds nothing to it and is gone after.
mkdir -p "$TMP/long"
long="$TMP/long/$(printf 'n%.0s' $(seq 1 245)).onnx"
check out-long-name 0 "$BIN" "$demo" -o "$long" --quiet
if [[ "$(ls -A "$TMP/long")" == "$(basename "$long")" ]]; then pass; else fail "out-long-name: $(ls -A "$TMP/long")"; fi
# Class 6: the report is written whenever asked, also on failure; the model is not.
check strict-json 1 "$BIN" "$CLI_DATA/cycle.onnx" --strict --json "$TMP/strict.json" -o "$TMP/strict.onnx"
expect_in strict-json-error "$TMP/strict.json" '"severity": "error"'
expect_in strict-json-exit "$TMP/strict.json" '"exit_code": 1'
expect_in strict-json-not-written "$TMP/strict.json" '"written": false'
if [[ -e "$TMP/strict.onnx" ]]; then fail "strict-json: the model was written"; else pass; fi
check failed-output-json 2 "$BIN" "$demo" -o "$TMP/no/such/dir/out.onnx" --json "$TMP/failed.json"
expect_in failed-output-json-error "$TMP/failed.json" '"error": "'"$TMP"'/no/such/dir/out.onnx: cannot write'
expect_in failed-output-json-exit "$TMP/failed.json" '"exit_code": 2'
check unreadable-json 2 "$BIN" "$TMP/nope.onnx" --json "$TMP/unreadable.json"
expect_in unreadable-json-error "$TMP/unreadable.json" 'nope.onnx: cannot open: No such file or directory'
# Class 9: standard output carries only what was asked for; '-' is stdin and stdout.
check print-and-write 0 "$BIN" "$demo" --print -o "$TMP/printed.onnx"
not_in print-and-write-stdout "$TMP/out" "wrote"
expect_in print-and-write-stderr "$TMP/err" "wrote $TMP/printed.onnx"
check pipe-binary 0 bash -c "'$BIN' - -o - <'$demo' >'$TMP/piped.onnx'"
check pipe-binary-reread 0 "$BIN" "$TMP/piped.onnx" --values
expect_in pipe-binary-values "$TMP/out" "ht: float[batch, 2, seq, 4]"
check pipe-text 0 bash -c "'$BIN' - -o - <'$TMP/demo.onnxtxt' >'$TMP/piped2.onnx'"
if cmp -s "$TMP/piped.onnx" "$TMP/piped2.onnx"; then pass; else fail "pipe-text: differs from the binary pipe"; fi
check pipe-print 0 bash -c "cat '$demo' | '$BIN' - --print"
expect_in pipe-print-model "$TMP/out" "ht = Transpose"
not_in pipe-print-no-summary "$TMP/out" "6 nodes"
check json-stdout 0 "$BIN" "$demo" --json - --values
expect_in json-stdout-report "$TMP/out" '"typed": 6'
not_in json-stdout-no-values "$TMP/out" "h4: float"
expect_in json-stdout-values-on-stderr "$TMP/err" "h4: float[batch, seq, 2, 4]"
if [[ -e ./- || -e "$TMP/-" ]]; then fail "dash: a file named '-' was created"; else pass; fi
# /dev/stdout and /dev/fd/N are written through the descriptor: '>>' appends, and the summary
# stays out of the data.
printf 'head' >"$TMP/appended"
check dev-stdout-append 0 bash -c "'$BIN' '$demo' -o /dev/stdout >>'$TMP/appended'"
expect_in dev-stdout-append-kept "$TMP/appended" "head"
expect_in dev-stdout-summary "$TMP/err" "6 nodes"
check dev-stdout-file 0 "$BIN" "$demo" -o "$TMP/direct.onnx" --quiet
if tail -c +5 "$TMP/appended" | cmp -s - "$TMP/direct.onnx"; then pass; else fail "dev-stdout-append: not the model's bytes after 'head'"; fi
check dev-fd 0 bash -c "'$BIN' '$demo' -o /dev/fd/3 --quiet 3>'$TMP/fd3.onnx'"
check dev-fd-reread 0 "$BIN" "$TMP/fd3.onnx" --values
expect_in dev-fd-values "$TMP/out" "ht: float[batch, 2, seq, 4]"
check two-stdouts 2 "$BIN" "$demo" --print -o -
check in-place-stdin 2 "$BIN" - --in-place
check version 0 "$BIN" --version
expect_in version-text "$TMP/out" "infer-shapes (onnx-infer) 0.1.0"
expect_in version-json "$TMP/report.json" '"version": "0.1.0"'
check usage-one-line 2 "$BIN" "$demo" --frobnicate
if [[ "$(wc -l <"$TMP/err")" == 2 ]]; then pass; else fail "usage-one-line: $(cat "$TMP/err")"; fi
expect_in usage-hint "$TMP/err" "Try 'infer-shapes --help'"
check dash-dash 0 "$BIN" -- "$demo"

# Writing a model file, the new value_info entries go out as bytes (the streamed write-back);
# with --memory, which reads the annotated model, they are messages. The same bytes either
# way, to a file or to standard output, from a file (on an arena) or from standard input;
# except that a binary model read from its file has its nodes and initializers copied from
# it, in the file's own encoding: the demo's floats are unpacked where protobuf packs them, so
# its outputs are compared as models (the same text printed from each).
# (report.onnxtxt has inference errors: exit 1, the model written all the same.)
same_model() {
  cmp -s "$1" "$2" && return 0
  [[ "$3" == *.onnx ]] || return 1
  "$BIN" "$1" --print --quiet >"$TMP/model1.txt" 2>/dev/null
  "$BIN" "$2" --print --quiet >"$TMP/model2.txt" 2>/dev/null
  [[ -s "$TMP/model1.txt" ]] && cmp -s "$TMP/model1.txt" "$TMP/model2.txt"
}
for model in "$CLI_DATA/report.onnxtxt" "$CLI_DATA/image_ops.onnxtxt" \
  "$CLI_DATA/specialize.onnxtxt" "$demo"; do
  base="$(basename "$model")"
  want=0
  [[ "$base" == report.onnxtxt ]] && want=1
  check "stream-$base" "$want" "$BIN" "$model" -o "$TMP/streamed.onnx" --quiet
  check "messages-$base" "$want" "$BIN" "$model" -o "$TMP/messages.onnx" --quiet --memory
  if same_model "$TMP/streamed.onnx" "$TMP/messages.onnx" "$base"; then pass; else
    fail "stream-$base: the streamed write differs from the message path's"
  fi
  check "stream-stdout-$base" "$want" bash -c "'$BIN' '$model' -o - --quiet >'$TMP/streamed2.onnx'"
  if cmp -s "$TMP/streamed.onnx" "$TMP/streamed2.onnx"; then pass; else
    fail "stream-stdout-$base: '-o -' differs from the file"
  fi
  check "stream-stdin-$base" "$want" bash -c "'$BIN' - -o '$TMP/streamed3.onnx' --quiet <'$model'"
  if same_model "$TMP/streamed.onnx" "$TMP/streamed3.onnx" "$base"; then pass; else
    fail "stream-stdin-$base: reading standard input differs from reading the file"
  fi
done
check stream-reread 0 "$BIN" "$TMP/streamed.onnx" --values --quiet

# Two outputs on one file are a usage error, however the file is spelt (issue 27): the report,
# written last, would otherwise replace the model. Nothing is written, the model is kept.
mkdir -p "$TMP/same" && cp "$demo" "$TMP/same/m.onnx"
ABS_BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
ABS_DEMO="$(cd "$(dirname "$demo")" && pwd)/$(basename "$demo")"
cmp_kept() {  # cmp_kept NAME: same/m.onnx is still the demo
  if cmp -s "$demo" "$TMP/same/m.onnx"; then pass; else fail "$1: the model was replaced"; fi
}
check same-in-place-json 2 "$BIN" "$TMP/same/m.onnx" --in-place --json "$TMP/same/m.onnx"
expect_in same-in-place-json-msg "$TMP/err" "are the same file: the report would replace the model"
expect_in same-in-place-json-hint "$TMP/err" "Try 'infer-shapes --help'"
cmp_kept same-in-place-json
check same-dot-slash 2 bash -c "cd '$TMP/same' && '$ABS_BIN' m.onnx --in-place --json ./m.onnx"
cmp_kept same-dot-slash
check same-absolute 2 bash -c "cd '$TMP/same' && '$ABS_BIN' m.onnx --in-place --json '$TMP/same/m.onnx'"
cmp_kept same-absolute
check same-json-is-model 2 "$BIN" "$TMP/same/m.onnx" --json "$TMP/same/../same/m.onnx"
cmp_kept same-json-is-model
ln -sf m.onnx "$TMP/same/alias.onnx"
check same-through-link 2 "$BIN" "$demo" -o "$TMP/same/alias.onnx" --json "$TMP/same/m.onnx"
cmp_kept same-through-link
# A name that does not exist yet compares by its directory and name.
check same-new-name 2 bash -c "cd '$TMP/same' && '$ABS_BIN' '$ABS_DEMO' -o new.onnx --json '$TMP/same/../same/new.onnx'"
if [[ ! -e "$TMP/same/new.onnx" ]]; then pass; else fail "same-new-name: something was written"; fi
check same-dangling-link 2 bash -c "cd '$TMP/same' && ln -sf later.onnx dangling && '$ABS_BIN' '$ABS_DEMO' -o dangling --json later.onnx"
check different-names 0 "$BIN" "$demo" -o "$TMP/same/a.onnx" --json "$TMP/same/a.json" --quiet
check dev-null-twice 0 "$BIN" "$demo" -o /dev/null --json /dev/null --quiet

# -o keeps the replaced file's owner, group and mode (root may set them), and replaces only
# the name it is given: another hard link of the old file keeps the old contents.
if [[ "$(id -u)" == 0 ]]; then
  cp "$demo" "$TMP/same/owned.onnx" && chown 4321:4322 "$TMP/same/owned.onnx" && chmod 0640 "$TMP/same/owned.onnx"
  check keep-owner 0 "$BIN" "$demo" -o "$TMP/same/owned.onnx" --quiet
  got="$(stat -c '%u:%g %a' "$TMP/same/owned.onnx")"
  if [[ "$got" == "4321:4322 640" ]]; then pass; else fail "keep-owner: $got"; fi
fi
cp "$demo" "$TMP/same/h1.onnx" && ln -f "$TMP/same/h1.onnx" "$TMP/same/h2.onnx"
check hard-link 0 "$BIN" "$demo" -o "$TMP/same/h1.onnx" --quiet
if cmp -s "$demo" "$TMP/same/h2.onnx" && ! cmp -s "$demo" "$TMP/same/h1.onnx"; then pass; else
  fail "hard-link: expected h1 annotated and h2 the old file"
fi

# A symbolic link another user planted in a sticky world-writable directory (/tmp) is not
# followed, as the kernel's fs.protected_symlinks refuses it: root would otherwise replace
# whatever file it points at. A link of the caller's own is followed.
if [[ "$(id -u)" == 0 ]]; then
  mkdir -p "$TMP/sticky" && chmod 1777 "$TMP/sticky"
  echo precious >"$TMP/victim"
  ln -sf "$TMP/victim" "$TMP/sticky/out.onnx" && chown -h 4321:4321 "$TMP/sticky/out.onnx"
  check planted-link 2 "$BIN" "$demo" -o "$TMP/sticky/out.onnx" --json "$TMP/sticky/r.json"
  expect_in planted-link-msg "$TMP/err" "a symbolic link in a world-writable sticky directory that belongs to another user (uid 4321); not followed"
  expect_in planted-link-victim "$TMP/victim" "precious"
  expect_in planted-link-report "$TMP/sticky/r.json" '"written": false'
  ln -sf "$TMP/victim" "$TMP/sticky/mine.onnx"
  check own-link 0 "$BIN" "$demo" -o "$TMP/sticky/mine.onnx" --quiet
  if [[ -L "$TMP/sticky/mine.onnx" ]] && ! grep -q precious "$TMP/victim"; then pass; else
    fail "own-link: the caller's own link was not followed"
  fi
fi

# Out of memory is exit 2 with a message, not an abort (issue 27.3): a chain of 1,000,000 Relu
# nodes (25 MB of text, about 700 MB to infer) under a 400 MB address space. Nothing is
# written: the old output stays, no report, no temporary file. (Not under the sanitizers,
# whose shadow memory needs far more address space than the limit.)
if [[ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ]]; then
  mkdir -p "$TMP/oom"
  awk 'BEGIN { n = 1000000; print "<ir_version: 8, opset_import: [\"\" : 17]>"
               printf "main (float[N] t0) => (t%d)\n{\n", n
               for (i = 0; i < n; i++) printf "  t%d = Relu(t%d)\n", i + 1, i; print "}" }' \
    >"$TMP/oom/chain.onnxtxt"
  echo old >"$TMP/oom/out.onnx"
  check out-of-memory 2 bash -c "ulimit -v 400000; exec '$BIN' '$TMP/oom/chain.onnxtxt' -o '$TMP/oom/out.onnx' --json '$TMP/oom/r.json'"
  expect_in out-of-memory-msg "$TMP/err" "infer-shapes: out of memory: the model needs more memory than this process may use"
  expect_in out-of-memory-kept "$TMP/oom/out.onnx" "old"
  if [[ ! -e "$TMP/oom/r.json" && -z "$(ls -A "$TMP/oom" | grep infer-shapes-tmp)" ]]; then pass; else
    fail "out-of-memory: a report or a temporary file was written"
  fi
  if grep -q terminate "$TMP/err"; then fail "out-of-memory: aborted"; else pass; fi
fi

# Deployment profiles (docs/deploy.md): each printed format, a given profile checked in each.
kv="$TESTDATA/contract/kv_cache.onnxtxt"
kv_ranges=(--range batch=1:1:4 --range past=0:64:1000 --range seq=1:1:24 --quiet)
check profile-trtexec 0 "$BIN" "$kv" "${kv_ranges[@]}"
expect_in profile-trtexec-max "$TMP/out" "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024,shape:4x1024"
check profile-ort-trt 0 "$BIN" "$kv" "${kv_ranges[@]}" --profile-format ort-trt
expect_in profile-ort-trt-min "$TMP/out" "trt_profile_min_shapes=past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1"
expect_in profile-ort-trt-max "$TMP/out" "trt_profile_max_shapes=past_key:4x1000x8,key:4x24x8,mask:4x1024,shape:4x1024"
grep trt_profile_ "$TMP/out" >"$TMP/ort_profile.txt"
check profile-polygraphy 0 "$BIN" "$kv" "${kv_ranges[@]}" --profile-format polygraphy
expect_in profile-polygraphy-text "$TMP/out" "--trt-opt-shapes past_key:[1,64,8] key:[1,1,8] mask:[1,65] shape:[1,65] --trt-max-shapes"
grep -- --trt-min-shapes "$TMP/out" >"$TMP/polygraphy_profile.txt"
check profile-json 0 "$BIN" "$kv" "${kv_ranges[@]}" --profile-format json
expect_in profile-json-ort "$TMP/out" '"trt_profile_opt_shapes":"past_key:1x64x8,key:1x1x8,mask:1x65,shape:1x65"'
check profile-bad-format 2 "$BIN" "$kv" "${kv_ranges[@]}" --profile-format tensorrt
expect_in profile-bad-format-msg "$TMP/err" "--profile-format 'tensorrt': expected trtexec, ort-trt, polygraphy or json"
# A partial --bind is completed: what the facts derive, and what is still free.
check bind-completed 0 "$BIN" "$kv" --bind seq=1 -o "$TMP/bound.onnx"
expect_in bind-completed-derived "$TMP/out" "bind: derived total = past + 1 (from total == past + 1 (declared type of 'present' dim 1))"
expect_in bind-completed-free "$TMP/out" "bind: still free: batch, past"
# --quiet prints only errors: no bind: lines.
check bind-completed-quiet 0 "$BIN" "$kv" --bind seq=1 --quiet -o "$TMP/bound.onnx"
expect_not_in bind-completed-quiet-out "$TMP/out" "bind:"
check bind-completed-profile 0 "$BIN" "$kv" --bind seq=1 --range batch=1:1:4 --range past=0:64:1000 --quiet
expect_in bind-completed-profile-max "$TMP/out" "--maxShapes=past_key:4x1000x8,key:4x1x8,mask:4x1001,shape:4x1001"
check profile-given-ort 0 "$BIN" "$kv" --quiet --profile "@$TMP/ort_profile.txt"
expect_in profile-given-ort-holds "$TMP/out" "profile: every fact, bound, relation and divisibility holds"
check profile-given-polygraphy 0 "$BIN" "$kv" --quiet --profile "$(cat "$TMP/polygraphy_profile.txt")"
check profile-given-broken 1 "$BIN" "$kv" --quiet --profile \
    "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1 --optShapes=past_key:1x64x8,key:1x1x8,mask:1x65,shape:1x65 --maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1000,shape:4x1000"
expect_in profile-given-broken-msg "$TMP/err" "profile violation: max: total == past + seq (1000 != 1024) fails at past = 1000, seq = 24, total = 1000 (declared type of 'present' dim 1)"
check profile-given-bad-syntax 2 "$BIN" "$kv" --quiet --profile "--trt-min-shapes key:1x1x8"
expect_in profile-given-bad-syntax-msg "$TMP/err" "--profile: --trt-min-shapes: 'key:1x1x8' is not NAME:[D0,D1,...]"
check profile-and-range 2 "$BIN" "$kv" "${kv_ranges[@]}" --profile "@$TMP/ort_profile.txt"
check profile-memory-cost 0 "$BIN" "$kv" "${kv_ranges[@]}" --memory --cost
expect_in profile-memory-max "$TMP/out" "memory at max: peak 294928 bytes at node #3 (Mul)"
expect_in profile-cost-max "$TMP/out" "cost at max: 32768 FLOPs, 0 MACs; costliest node #3 (Mul) with 32768 FLOPs"
# A shape-tensor input's values (docs/deploy.md#shape-tensor-inputs): given in the profile,
# checked against what the model forces (shape == [batch, total]); missing, an error.
check profile-given-shape-values 1 "$BIN" "$kv" --quiet --profile \
    "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1 --optShapes=past_key:1x64x8,key:1x1x8,mask:1x65,shape:1x64 --maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024,shape:4x1024"
expect_in profile-given-shape-values-msg "$TMP/err" "profile violation: opt: total == shape[1] (65 != 64) fails at shape[1] = 64, total = 65 (declared type of 'y' dim 1)"
check profile-given-no-shape-values 2 "$BIN" "$kv" --quiet --profile \
    "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1 --optShapes=past_key:1x64x8,key:1x1x8,mask:1x65 --maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024"
expect_in profile-given-no-shape-values-msg "$TMP/err" "infer-shapes: --profile: the profile has no values for shape input 'shape' (TensorRT needs them: 2 values)"
cat >"$TMP/free_shape.onnxtxt" <<'EOF'
<ir_version: 8, opset_import: ["" : 17]>
main (float[N, 8] x, int64[2] target) => (y) {
  y = Reshape (x, target)
}
EOF
check profile-free-shape-values 2 "$BIN" "$TMP/free_shape.onnxtxt" --quiet --range N=1:2:4
expect_in profile-free-shape-values-msg "$TMP/err" "infer-shapes: --range: shape input 'target': its value elements target[0], target[1] are not fixed by the model (TensorRT needs the values of a shape input in the profile): give --range 'target[0]=MIN:OPT:MAX' --range 'target[1]=MIN:OPT:MAX'"
check profile-free-shape-ranges 0 "$BIN" "$TMP/free_shape.onnxtxt" --quiet --range N=1:2:4 --range 'target[0]=1:2:4' --range 'target[1]=8'
expect_in profile-free-shape-ranges-out "$TMP/out" "--minShapes=x:1x8,target:1x8 --optShapes=x:2x8,target:2x8 --maxShapes=x:4x8,target:4x8"

# Initializer data of 16 KiB or more is left in the model file at the read (docs/cli.md). A
# model written whole (nothing to append: the binary, written by infer-shapes, already holds
# every value's type) reads it back; --print, which reads the model as loaded, shows it. (The
# copy from the file: RawDataInFileTest in testdata/value_info_stream_test.cc.)
weights="$(seq 1 6000 | head -c 24000 | base64 -w0)"  # float[6000]: 24,000 bytes
cat >"$TMP/large.onnxtxt" <<EOF
<ir_version: 8, opset_import: ["" : 18]>
main (float[N, 6000] x) => (float[N, 6000] y) <float[6000] w = raw "$weights"> {
  t = Add (x, w)
  y = Relu (t)
}
EOF
check large-data-binary 0 "$BIN" "$TMP/large.onnxtxt" -o "$TMP/large.onnx" --quiet
check large-data-print 0 "$BIN" "$TMP/large.onnx" --print --quiet
expect_in large-data-print-shown "$TMP/out" "raw \"$weights\""
check large-data-write 0 "$BIN" "$TMP/large.onnx" -o "$TMP/large-out.onnx" --quiet
check large-data-written-print 0 "$BIN" "$TMP/large-out.onnx" --print --quiet
expect_in large-data-written-kept "$TMP/out" "raw \"$weights\""

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
