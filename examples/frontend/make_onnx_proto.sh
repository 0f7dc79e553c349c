#!/usr/bin/env bash
# Regenerates onnx/onnx-ml.proto (this example's stand-in for ONNX's own proto, in package
# onnx) from onnx-infer's proto/onnx.proto; or writes it to OUT (check.sh compares the two,
# so the copy cannot fall behind).   usage: make_onnx_proto.sh [OUT]
set -euo pipefail
out="$(realpath -m "${1:-$(dirname "$0")/onnx/onnx-ml.proto}")"
cd "$(dirname "$0")"
{
  cat <<'HEADER'
// Stands in for ONNX's own onnx-ml.proto, which a front end gets with its ONNX library: the
// same messages in package `onnx`, so its generated classes are ::onnx::ModelProto & co., as
// ONNX's are. Made from onnx-infer's proto/onnx.proto (our own, generated from the wire facts)
// by examples/frontend/make_onnx_proto.sh; do not edit by hand.
HEADER
  sed -e '1,5d' -e 's/^package onnx_infer\.onnx;/package onnx;/' -e 's/\.onnx_infer\.onnx\./.onnx./g' \
      -e '/^\/\/ The package is onnx-infer/,/clashing/d' ../../proto/onnx.proto
} > "$out"
