#!/usr/bin/env bash
# Encodes protobuf text-format models (*.textproto) into binary .onnx files beside them:
#   tools/encode_textproto.sh testdata/demo/attention_block.textproto
# The binary files are committed; rerun this after editing a .textproto.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
for src in "$@"; do
  out="${src%.textproto}.onnx"
  grep -v '^#' "$src" | protoc --proto_path="$root" --encode=onnx.ModelProto proto/onnx.proto > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "wrote $out"
done
