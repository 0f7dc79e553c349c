#!/usr/bin/env bash
# bench/onnx_cxx (the benchmark's "ONNX <version> C++" column) still builds against the ONNX C++
# library of the machine and measures what it says: configured and built with CMake against the
# ONNX CMake package under /usr (or $ONNX_CXX_PREFIX), run on a small model with the options
# bench/run.py passes; its timing line has the fields run.py reads, and the model it wrote
# parses and carries value_info. An optional dependency of the benchmark (Debian: libonnx-dev;
# CI does not install it): without cmake or the package, the test says so and passes.
#   onnx_cxx_test.sh CMAKELISTS MODEL
set -uo pipefail

SRC="$(dirname "$1")"
MODEL="$2"
PREFIX="${ONNX_CXX_PREFIX:-/usr}"
TMP="${TEST_TMPDIR:-$(mktemp -d)}/onnx_cxx"
rm -rf "$TMP" && mkdir -p "$TMP"

config="$(ls "$PREFIX"/lib/cmake/ONNX/ONNXConfig.cmake "$PREFIX"/lib*/cmake/ONNX/ONNXConfig.cmake \
  "$PREFIX"/lib/*/cmake/ONNX/ONNXConfig.cmake 2> /dev/null | head -1)"
if ! command -v cmake > /dev/null || [[ -z "$config" ]]; then
  echo "skipped: no cmake or no ONNX CMake package under $PREFIX (the benchmark's optional" \
    "ONNX C++ column; Debian: apt-get install libonnx-dev)"
  exit 0
fi

fail() {
  echo "FAIL: $*"
  exit 1
}

# Configured and built as bench/run.py does, the package's folder given as ONNX_DIR.
if ! cmake -S "$SRC" -B "$TMP/build" -DCMAKE_BUILD_TYPE=Release \
  -DONNX_DIR="$(dirname "$config")" > "$TMP/configure.log" 2>&1; then
  cat "$TMP/configure.log"
  fail "cmake could not configure bench/onnx_cxx against $config"
fi
if ! cmake --build "$TMP/build" > "$TMP/build.log" 2>&1; then
  cat "$TMP/build.log"
  fail "bench/onnx_cxx does not build against $config"
fi
BIN="$TMP/build/onnx-cxx-infer"
version="$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$(dirname "$config")/ONNXConfigVersion.cmake")"

"$BIN" --version > "$TMP/version" || fail "--version exited $?"
grep -qxF "{\"version\": \"$version\"}" "$TMP/version" ||
  fail "--version printed $(cat "$TMP/version"), the package is $version"

"$BIN" "$MODEL" "$TMP/out.onnx" --check-type --strict --data-prop > "$TMP/line" ||
  fail "onnx-cxx-infer exited $? on $MODEL: $(cat "$TMP/line")"
"$BIN" --count "$TMP/out.onnx" > "$TMP/count" || fail "--count exited $?"

# The timing line as bench/run.py reads it, and the written model read back by ONNX's Python
# package when it is installed (Debian: python3-onnx), else by the program's own --count.
/usr/bin/python3 - "$TMP/line" "$TMP/count" "$TMP/out.onnx" "$MODEL" "$version" << 'EOF' || exit 1
import json
import sys

line_file, count_file, out, model, version = sys.argv[1:]
lines = open(line_file).read().splitlines()
if len(lines) != 1:
    sys.exit(f"FAIL: {len(lines)} lines printed, one expected: {lines}")
row = json.loads(lines[0])
for key in ("seconds", "registry", "load", "infer", "save"):
    if not isinstance(row.get(key), float) or not 0 <= row[key] < 60:
        sys.exit(f"FAIL: {key} is {row.get(key)!r}, a time in seconds expected: {row}")
parts = row["registry"] + row["load"] + row["infer"] + row["save"]
if abs(row["seconds"] - parts) > 1e-5:
    sys.exit(f"FAIL: seconds {row['seconds']} is not registry + load + infer + save {parts}")
if row.get("version") != version:
    sys.exit(f"FAIL: version {row.get('version')!r}, the package is {version}")
counts = json.loads(open(count_file).read())
if row.get("value_info", 0) < 1 or counts["value_info"] != row["value_info"]:
    sys.exit(f"FAIL: value_info {row.get('value_info')} printed, {counts['value_info']} read back")
try:
    import onnx
except ImportError:
    onnx = None
if onnx is not None:
    written = onnx.load(out)
    source = onnx.load(model)
    if len(written.graph.node) != len(source.graph.node) or len(written.graph.node) != row["nodes"]:
        sys.exit(f"FAIL: {len(written.graph.node)} nodes written, {len(source.graph.node)} read")
    if len(written.graph.value_info) != row["value_info"]:
        sys.exit(f"FAIL: onnx reads {len(written.graph.value_info)} value_info, "
                 f"{row['value_info']} printed")
    for value in written.graph.value_info:
        if not value.type.tensor_type.HasField("shape"):
            sys.exit(f"FAIL: {value.name} written without a shape")
print(f"ok: ONNX {version} C++: {row['nodes']} nodes, {row['value_info']} value_info written "
      f"(read back by {'onnx ' + onnx.__version__ if onnx else '--count'})")
EOF

# What ONNX rejects, or a file that is no model, is one JSON error line and exit 1 (run.py's n/a).
printf '\x0a\x7f' > "$TMP/truncated.onnx"  # a 127-byte field with no bytes after it
"$BIN" "$TMP/truncated.onnx" "$TMP/bad.onnx" > "$TMP/bad" && fail "a truncated model was accepted"
grep -q '^{"error": ".*does not parse' "$TMP/bad" || fail "no error line: $(cat "$TMP/bad")"
"$BIN" "$MODEL" > /dev/null 2>&1
[[ $? == 2 ]] || fail "a missing OUT is not a usage error (exit 2)"
echo "PASS"
