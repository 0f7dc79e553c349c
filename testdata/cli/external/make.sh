#!/usr/bin/env bash
# Writes the binary files of this test model: model.onnx from model.textproto, and
# model.data, whose bytes 16..47 are the int64 values 0, -1, 2, 4 (little-endian) after 16
# bytes of padding. The outputs are committed; rerun this after editing either.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
(cd "$here/../../.." && tools/encode_textproto.sh testdata/cli/external/model.textproto)
{
  printf 'padding:16 bytes'                    # 16 bytes the model does not reference
  printf '\x00\x00\x00\x00\x00\x00\x00\x00'    # 0: copy the input's dim
  printf '\xff\xff\xff\xff\xff\xff\xff\xff'    # -1: inferred
  printf '\x02\x00\x00\x00\x00\x00\x00\x00'    # 2
  printf '\x04\x00\x00\x00\x00\x00\x00\x00'    # 4
} >"$here/model.data"
echo "wrote $here/model.data"
