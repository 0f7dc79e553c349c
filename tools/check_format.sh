#!/usr/bin/env bash
# Checks that the repository's C++ files are what clang-format makes of them with the
# repository's .clang-format (tools/test.sh runs it as the part named `format`).
#   tools/check_format.sh            check every tracked .cc/.h file; exit 1 naming the others
#   tools/check_format.sh --fix      format them in place instead
#   tools/check_format.sh FILE...    only these files (with or without --fix)
# Generated sources are skipped (their generators decide their layout):
# schema/defs/*catalog_data.cc.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
if [[ "${1:-}" == "--fix" ]]; then
  fix=1
  shift
fi
if ! command -v clang-format > /dev/null; then
  echo "check_format: clang-format is not installed (Debian: apt-get install clang-format)" >&2
  exit 2
fi
if (($# > 0)); then
  files=("$@")
elif git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.cc' '*.h')
else
  mapfile -t files < <(find . -path ./build -prune -o -path './bazel-*' -prune -o \
    \( -name '*.cc' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi
generated='^schema/defs/(contrib_)?catalog_data\.cc$'
checked=0
bad=()
for f in "${files[@]}"; do
  [[ "$f" =~ $generated ]] && continue
  [[ -f "$f" ]] || continue
  checked=$((checked + 1))
  if ((fix)); then
    clang-format --style=file -i "$f"
  elif ! clang-format --style=file --dry-run -Werror "$f" > /dev/null 2>&1; then
    bad+=("$f")
  fi
done
if ((fix)); then
  echo "format: formatted $checked files"
  exit 0
fi
if ((${#bad[@]} > 0)); then
  printf '  %s\n' "${bad[@]}"
  echo "format: ${#bad[@]} of $checked files differ from clang-format (fix: tools/check_format.sh --fix FILE...)"
  exit 1
fi
echo "format: $checked files clean"
