#!/usr/bin/env bash
# Installs what tools/verify_runtime needs and prints where onnxruntime-node is (the directory
# to give verify.py as --node-modules, or in ONNX_INFER_ORT_NODE_MODULES):
#   - Node.js from Debian's packages when `node` is missing;
#   - onnxruntime-node 1.30.0 from the npm registry, with --ignore-scripts: the package bundles
#     the CPU libonnxruntime.so, and its install script would fetch GPU parts from a host these
#     machines cannot reach. It goes into a cache directory shared by every checkout
#     ($XDG_CACHE_HOME or ~/.cache, /onnx-infer/onnxruntime-node-1.30.0) and is reused.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version=1.30.0
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/onnx-infer/onnxruntime-node-$version"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  echo "verify_runtime: installing nodejs and npm from Debian" >&2
  $sudo apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >&2
fi
if [[ ! -f "$prefix/node_modules/onnxruntime-node/package.json" ]] ||
  ! (cd "$prefix" && NODE_PATH="$prefix/node_modules" node -e "require('onnxruntime-node')") \
    >/dev/null 2>&1; then
  echo "verify_runtime: installing onnxruntime-node@$version into $prefix" >&2
  mkdir -p "$prefix"
  cp "$here/package.json" "$prefix/package.json"
  (cd "$prefix" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi
echo "$prefix/node_modules"
