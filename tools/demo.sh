#!/usr/bin/env bash
# The README's first command: installs what is missing, builds infer-shapes, annotates the
# demo model in testdata/demo/ and prints every value's inferred type. The annotated model is
# written to demo-output/attention_block.annotated.onnx; the shipped file is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
bazel build --noshow_progress --ui_event_filters=-info --show_result=0 //cli:infer-shapes
mkdir -p demo-output
out=demo-output/attention_block.annotated.onnx
bazel-bin/cli/infer-shapes testdata/demo/attention_block.onnx -o "$out" --values
