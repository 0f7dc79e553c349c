#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (Bazel's --config=asan: Debian's clang, the whole
# library instrumented with AddressSanitizer, UndefinedBehaviorSanitizer and the fuzzer's
# coverage, in tools/sanitize.sh's output base, so a sanitizer run's build is reused) and
# runs them.
#
#   tools/fuzz.sh [--time SECONDS] [--build-only | --no-build] [target...]
#
# Targets: model_fuzzer (model bytes -> InferShapes), text_fuzzer (the text syntax parser),
# dim_fuzzer (the dim_param expression parser), schema_fuzzer (the custom-schema JSON reader);
# all four by default. Each runs for --time seconds (default 60), one after the other, seeded
# from testdata/ (and ../shared when it is there); its growing corpus is kept in
# build-fuzz/corpus/<target>/ and a crashing input goes to build-fuzz/findings/<target>/.
# Exits non-zero when a target finds a crash, a leak, a timeout (one input over 25 s; the
# margin is for a shared machine) or an input needing more than 2 GiB. Every finding becomes
# a regression case (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
time=60
build_only=0
no_build=0
targets=()
while (($#)); do
  case "$1" in
    --time) time="$2"; shift 2 ;;
    --time=*) time="${1#--time=}"; shift ;;
    --build-only) build_only=1; shift ;;
    --no-build) no_build=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(model_fuzzer text_fuzzer dim_fuzzer schema_fuzzer)
((${#targets[@]})) || targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: no target $t (${all[*]})" >&2; exit 2; }
done

# Corpora, findings and logs; the binaries are Bazel's.
build="${ONNX_INFER_FUZZ_BUILD:-build-fuzz}"
mkdir -p "$build"
asan_bazel=(bazel --output_base="${TMPDIR:-/tmp}/onnx-infer-sanitize")
if ((!no_build)); then
  "${asan_bazel[@]}" build --config=asan --symlink_prefix=/ --noshow_progress \
    "${targets[@]/#/\/\/fuzz:}"
fi
bin="$("${asan_bazel[@]}" info --config=asan bazel-bin 2>/dev/null)/fuzz"
((build_only)) && exit 0

# Seeds: the files of testdata/ (and ../shared) each target reads.
seed() {  # target dir
  local t="$1" dir="$2"
  mkdir -p "$dir"
  local -a roots=(testdata)
  [[ -d ../shared ]] && roots+=(../shared)
  case "$t" in
    model_fuzzer) find "${roots[@]}" -type f \( -name '*.onnx' -o -name '*.onnxtxt' \) -size -1024k ;;
    text_fuzzer) find "${roots[@]}" -type f -name '*.onnxtxt' -size -1024k ;;
    schema_fuzzer) find "${roots[@]}" -type f -name '*.json' -size -256k ;;
    dim_fuzzer)
      # Every dim_param of the text cases, one file each.
      grep -rhoE '"[^"]*[-+*/%()][^"]*"' testdata --include='*.onnxtxt' 2>/dev/null |
        tr -d '"' | sort -u | head -2000 | while IFS= read -r e; do
          printf '%s' "$e" > "$dir/seed_$(printf '%s' "$e" | md5sum | cut -c1-16)"
        done
      printf 'floor((H - 1)/2) + 1' > "$dir/seed_floor"
      printf 'Mod(N, 3) + Max(A, B)*ceiling(N/2) - Min(A, 2)' > "$dir/seed_mixed"
      printf 'N**2 // 3 %% 5' > "$dir/seed_python"
      ;;
  esac | while IFS= read -r f; do
    cp -n "$f" "$dir/seed_$(md5sum < "$f" | cut -c1-16)" 2>/dev/null || true
  done
  # Shapes testdata/ holds only as generators: nesting a few hundred levels deep, on both
  # sides of the nesting limit (fuzz/make_deep_seeds.py).
  if [[ -d "fuzz/seeds/$t" ]]; then cp -n fuzz/seeds/"$t"/* "$dir/" 2>/dev/null || true; fi
}

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$findings"
  seed "$t" "$corpus"
  echo "fuzz: $t for ${time}s ($(ls "$corpus" | wc -l) corpus files)"
  if "$bin/$t" -max_total_time="$time" -timeout=25 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" > "$build/$t.log" 2>&1; then
    echo "fuzz: $t ran clean for ${time}s ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$t.log" | grep -o '[0-9]*$') runs)"
  else
    status=1
    tail -60 "$build/$t.log"
    echo "fuzz: $t FOUND A PROBLEM: $(ls "$findings")"
  fi
done
exit "$status"
