#!/bin/bash
# Fails when the generated catalog sources are stale: runs schema/gen_catalog.py --check over
# the repository (or the runfiles tree, which holds the same paths). Usage:
#   catalog_current_test.sh PATH/TO/schema/gen_catalog.py
set -euo pipefail
gen="${1:-$(dirname "$0")/gen_catalog.py}"
root="$(cd "$(dirname "$gen")/.." && pwd)"
exec python3 "$gen" --check --root "$root"
