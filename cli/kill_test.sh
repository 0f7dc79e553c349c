#!/usr/bin/env bash
# Issue 17: `infer-shapes -o OUT` killed with SIGKILL in the middle of writing OUT leaves OUT
# byte-identical to what it was and no temporary file in its directory (docs/cli.md, "Output
# files"). The model is generated here: one uint8 initializer of SIZE bytes, so that the
# write takes a moment. The run is stopped (SIGSTOP) once it holds its unnamed temporary
# file open in OUT's directory, which is before the rename over OUT (close comes first), then
# killed (SIGKILL). A run that finished before it could be stopped is tried again, larger.
#   kill_test.sh INFER_SHAPES
set -uo pipefail

BIN="$1"
TMP="${TEST_TMPDIR:-$(mktemp -d)}/kill"
rm -rf "$TMP" && mkdir -p "$TMP/out"
TMP="$(cd "$TMP" && pwd -P)"  # /proc/PID/fd shows resolved paths

# Protobuf bytes, written by hand (no onnx package): a varint, then a length-delimited field.
varint() {
  local v=$1
  while ((v >= 128)); do
    printf "\\x$(printf %02x $(((v & 127) | 128)))"
    v=$((v >> 7))
  done
  printf "\\x$(printf %02x "$v")"
}
field() {  # field TAG_BYTE FILE: the tag, the file's length, the file's bytes
  printf "\\x$1"
  varint "$(stat -c %s "$2")"
  cat "$2"
}

make_model() {  # make_model SIZE FILE
  local size=$1 file=$2 d="$TMP/parts"
  mkdir -p "$d"
  # TensorProto: dims [SIZE], data_type UINT8 (2), name "w", raw_data SIZE zero bytes.
  { printf '\x08'; varint "$size"; printf '\x10\x02\x42\x01w'; } >"$d/tensor_head"
  {
    cat "$d/tensor_head"
    printf '\x4a'
    varint "$size"
    head -c "$size" /dev/zero
  } >"$d/tensor"
  printf '\x0a\x01w' >"$d/output"  # ValueInfoProto: name "w"
  # GraphProto: name "g", initializer (5), output (12).
  { printf '\x12\x01g'; field 2a "$d/tensor"; field 62 "$d/output"; } >"$d/graph"
  # ModelProto: ir_version 8, opset_import {version 17}, graph (7).
  { printf '\x08\x08\x42\x02\x10\x11'; field 3a "$d/graph"; } >"$file"
  rm -rf "$d"
}

# The unnamed temporary file (O_TMPFILE) PID holds open in the output directory, if any.
temp_fd() {
  local fd target
  for fd in /proc/"$1"/fd/*; do
    target="$(readlink "$fd" 2>/dev/null)" || continue
    [[ "$target" == "$TMP/out/"* && "$target" != "$TMP/out/old.onnx" ]] && {
      echo "$target"
      return 0
    }
  done
  return 1
}

old_bytes="this is the previous output; it must survive the kill byte for byte"
# First, unkilled: the generated model is valid and its run replaces the output.
make_model 1000 "$TMP/model.onnx"
printf '%s' "$old_bytes" >"$TMP/out/old.onnx"
if ! "$BIN" "$TMP/model.onnx" -o "$TMP/out/old.onnx" --values >"$TMP/stdout" 2>&1 ||
  ! grep -q 'w: uint8\[1000\]' "$TMP/stdout" || [[ "$(stat -c %s "$TMP/out/old.onnx")" -lt 1000 ]]; then
  echo "FAIL: the generated model does not run as expected:"
  cat "$TMP/stdout"
  exit 1
fi
caught=0
for size in 50000000 150000000 400000000; do
  make_model "$size" "$TMP/model.onnx"
  printf '%s' "$old_bytes" >"$TMP/out/old.onnx"
  cp "$TMP/out/old.onnx" "$TMP/old.copy"
  "$BIN" "$TMP/model.onnx" -o "$TMP/out/old.onnx" --quiet >"$TMP/stdout" 2>"$TMP/stderr" &
  pid=$!
  target=""
  while kill -0 "$pid" 2>/dev/null; do
    if target="$(temp_fd "$pid")"; then
      kill -STOP "$pid"
      # Still open once stopped: not yet closed, so not yet renamed over the target.
      target="$(temp_fd "$pid")" || target=""
      break
    fi
  done
  if [[ -n "$target" ]]; then
    echo "stopped while writing (${size} bytes): fd on $target"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    caught=1
    break
  fi
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  echo "the ${size}-byte run ended before it could be stopped; trying a larger one"
done
rm -f "$TMP/model.onnx"

failed=0
if ((!caught)); then
  echo "FAIL: no run could be stopped while writing"
  failed=1
else
  if ! cmp -s "$TMP/old.copy" "$TMP/out/old.onnx"; then
    echo "FAIL: the killed run changed the output file"
    failed=1
  fi
  left="$(ls -A "$TMP/out" | grep -vx old.onnx)"
  if [[ -n "$left" ]]; then
    echo "FAIL: the killed run left files in the output directory: $left"
    failed=1
  fi
  [[ "$target" == *"(deleted)" ]] || echo "note: the temporary file had a name ($target)"
fi
rm -rf "$TMP"
if ((failed)); then exit 1; fi
echo "kill: the output file is unchanged and no temporary file is left"
