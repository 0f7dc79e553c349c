#!/usr/bin/env bash
# The README's second command: installs what is missing, builds everything and runs the whole
# test suite. Tests over the shared corpus (../shared beside the checkout) run when it is there
# and skip cleanly when it is not. Ends with one line: "tests: N passed, N failed, N skipped".
#
# The parts, all run by default (ONNX_INFER_TEST_PARTS="bazel cmake frontend" picks some):
#   bazel     bazel test //... (result cache off); counts GoogleTest cases, a shell test once
#   format    tools/check_format.sh: every C++ file is what clang-format makes of it with the
#             repository's .clang-format (one test; the files that differ are listed)
#   tsan      the concurrency test under ThreadSanitizer (tools/tsan.sh), when it exists
#   asan      every test target under AddressSanitizer + UndefinedBehaviorSanitizer, the
#             shared corpus included (tools/sanitize.sh, --config=asan; counts once)
#   fuzz      each libFuzzer target of fuzz/ for ONNX_INFER_FUZZ_SECONDS (default 20) seconds
#             (tools/fuzz.sh, linked against the asan part's build; counts one per target)
#   cmake     the CMake build in build/ and ctest (counts ctest's tests)
#   frontend  examples/frontend/check.sh: the example front end built with Bazel and with
#             CMake, each in both protobuf modes, against infer-shapes (counts comparisons)
#   python    the Python package installed with docs/python.md's one command into a fresh venv
#             of Debian's python3 (CMake build reused in build-python/), then pytest
#             python/tests (counts pytest's tests; no tests collected is a failure)
#   peers     with ../shared: the peers' own shape-inference suites (onnx v1.12.0's and
#             onnxruntime's; ONNX_INFER_PEER_SUITES="onnx112 ort onnxmain" adds onnx main's,
#             about 15 minutes) run by ../shared/peer-suites/run.sh against the python part's
#             venv; tools/check_peers.py fails a suite when a test the peer passes fails with
#             us for a reason python/peer_classes/<suite>.tsv does not list (one test a suite)
#   runtime   tools/verify_runtime (docs/testing.md, "Runtime verification"): installs Node.js
#             and onnxruntime-node (cached in ~/.cache/onnx-infer), runs every main-graph value
#             of the demo and testdata's models (and with ../shared, of its real models and
#             backend suite) through onnxruntime at several bindings and compares it with what
#             we infer, then runs the differential fuzzer briefly (ONNX_INFER_RUNTIME_FUZZ_CASES,
#             default 5000). One test a model (a contradiction fails it, a model onnxruntime
#             cannot run skips it), one for contrib_probe.py (com.microsoft operators where
#             the contrib document and the kernels disagree), one for check_table_bounds.py
#             (constant tables' bounds at every index) and one for the fuzzer. Needs
#             the python part's venv
# Extra arguments go to `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
parts="${ONNX_INFER_TEST_PARTS:-format bazel tsan asan fuzz cmake frontend python peers runtime}"
want() { [[ " $parts " == *" $1 "* ]]; }
# Each part's wall time, printed on the last line (CI must stay under 45 minutes: this says
# which part to make cheaper).
times=()
current=""
started=0
begin() {  # part ("" ends the last one)
  [[ -n "$current" ]] && times+=("$current $((SECONDS - started))s")
  current="$1"
  started=$SECONDS
}

args=(--nocache_test_results)
if [[ -d ../shared ]]; then
  args+=("--test_env=SHARED_DIR=$(realpath ../shared)")
else
  echo "test: ../shared is absent; the corpus tests will skip" >&2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
passed=0
failed=0
skipped=0
add() {  # passed failed skipped
  passed=$((passed + $1))
  failed=$((failed + $2))
  skipped=$((skipped + $3))
}

if want format; then
  begin format
  if tools/check_format.sh; then add 1 0 0; else add 0 1 0; status=1; fi
fi

if want bazel; then
  begin bazel
  touch "$work/marker"
  bazel test //... "${args[@]}" "$@" || status=$?
  # Sum the <testsuite> elements of the XML reports this run wrote.
  read -r p f s < <(
    find -L bazel-testlogs/ -name test.xml -newer "$work/marker" -print0 2>/dev/null |
      xargs -0 -r grep -ho '<testsuite [^>]*' |
      awk '
        function attr(name,   m) {
          if (match($0, name "=\"[0-9]+\"")) return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 3) + 0
          return 0
        }
        { tests += attr("tests"); failed += attr("failures") + attr("errors")
          skipped += attr("skipped") + attr("disabled") }
        END { printf "%d %d %d\n", tests - failed - skipped, failed, skipped }')
  echo "bazel: $p passed, $f failed, $s skipped"
  add "$p" "$f" "$s"
fi

if want tsan && [[ -x tools/tsan.sh ]]; then
  begin tsan
  if tools/tsan.sh; then add 1 0 0; else add 0 1 0; status=1; fi
fi

if want asan; then
  begin asan
  # Every test target, the shared corpus included (docs/testing.md, "Sanitizers").
  if tools/sanitize.sh --noshow_progress; then
    add 1 0 0
  else
    add 0 1 0
    status=1
  fi
fi

if want fuzz; then
  begin fuzz
  tools/fuzz.sh --time "${ONNX_INFER_FUZZ_SECONDS:-20}" | tee "$work/fuzz.log" || status=1
  p="$(grep -c '^fuzz: .* ran clean' "$work/fuzz.log" || true)"
  f="$(grep -c '^fuzz: .* FOUND' "$work/fuzz.log" || true)"
  ((p + f > 0)) || { f=1; status=1; }  # it did not get as far as running
  add "$p" "$f" 0
fi

if want cmake; then
  begin cmake
  cmake_ok=1
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > "$work/cmake.log" 2>&1 &&
    cmake --build build -j "$(nproc)" >> "$work/cmake.log" 2>&1 || {
      cat "$work/cmake.log"
      cmake_ok=0
    }
  if ((cmake_ok)); then
    ctest --test-dir build -j "$(nproc)" --output-on-failure > "$work/ctest.log" 2>&1 || status=1
    grep -E "tests passed|FAIL|Failed|Not Run" "$work/ctest.log" || true
    total="$(sed -nE 's/.*tests failed out of ([0-9]+).*/\1/p' "$work/ctest.log" | tail -1)"
    bad="$(sed -nE 's/.* ([0-9]+) tests failed out of.*/\1/p' "$work/ctest.log" | tail -1)"
    if [[ -z "$total" ]]; then
      cat "$work/ctest.log"
      add 0 1 0
      status=1
    else
      echo "cmake: $((total - bad)) passed, $bad failed"
      add "$((total - bad))" "$bad" 0
    fi
  else
    add 0 1 0
    status=1
  fi
fi

if want frontend; then
  begin frontend
  bazel build //cli:infer-shapes
  frontend_args=(--bazel)
  if want cmake && [[ -f build/CMakeCache.txt ]]; then frontend_args+=(--cmake build); fi
  examples/frontend/check.sh bazel-bin/cli/infer-shapes "${frontend_args[@]}" | tee "$work/frontend.log" || status=1
  read -r p f < <(sed -nE 's/^frontend: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$work/frontend.log")
  add "${p:-0}" "${f:-1}" 0
fi

if want python; then
  begin python
  root="$PWD"
  # The extension module is built in the cmake part's build directory when there is one: the
  # library's objects are already there (same flags), so only the module itself is compiled
  # rather than the whole library a second time.
  py_build=()
  if want cmake && [[ -f build/CMakeCache.txt ]]; then
    py_build=(env "ONNX_INFER_CMAKE_BUILD_DIR=$root/build")
  fi
  if /usr/bin/python3 -m venv --system-site-packages "$work/venv" > "$work/python.log" 2>&1 &&
    "${py_build[@]}" "$work/venv/bin/pip" install --no-build-isolation --no-index . \
      >> "$work/python.log" 2>&1; then
    # From outside the checkout, so that `import onnx_infer` is the installed package.
    py_status=0
    (cd "$work" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests") \
      > "$work/pytest.log" 2>&1 || py_status=$?
    summary="$(tail -1 "$work/pytest.log")"
    count() { sed -nE "s/.*[^0-9]([0-9]+) $1.*/\1/p; s/^([0-9]+) $1.*/\1/p" <<< "$summary" | head -1; }
    p="$(count passed)" f="$(count failed)" e="$(count error)" s="$(count skipped)"
    f=$(( ${f:-0} + ${e:-0} ))
    if ((py_status != 0 && f == 0)); then  # 5: no tests collected; or pytest itself failed
      f=1
    fi
    ((py_status == 0)) || { cat "$work/pytest.log"; status=1; }
    echo "python: ${p:-0} passed, $f failed, ${s:-0} skipped"
    add "${p:-0}" "$f" "${s:-0}"
    python_venv="$work/venv"
  else
    cat "$work/python.log"
    add 0 1 0
    status=1
  fi
fi

if want peers; then
  begin peers
  peer_suites="${ONNX_INFER_PEER_SUITES:-onnx112 ort}"
  if [[ ! -d ../shared/peer-suites ]]; then
    echo "peers: ../shared/peer-suites is absent; skipped"
    add 0 0 1
  elif [[ -z "${python_venv:-}" ]]; then
    echo "peers: needs the python part's venv (ONNX_INFER_TEST_PARTS must include python)" >&2
    add 0 1 0
    status=1
  else
    # shellcheck disable=SC2086  # the suites are words
    ../shared/peer-suites/run.sh "$python_venv/bin/python" "$work/peers" $peer_suites \
      > "$work/peers.log" 2>&1 || true
    grep -v '^|' "$work/peers.log" || true
    for suite in $peer_suites; do
      case $suite in
        onnx112) peer=onnx112_onnx ours=onnx112_onnx_infer ;;
        onnxmain) peer=onnxmain_onnx ours=onnxmain_onnx_infer ;;
        ort) peer=ort_ort ours=ort_onnx_infer ;;
        *) echo "peers: unknown suite $suite" >&2; add 0 1 0; status=1; continue ;;
      esac
      if /usr/bin/python3 tools/check_peers.py "$suite" "$work/peers/runs/$peer.jsonl" \
          "$work/peers/runs/$ours.jsonl" "python/peer_classes/$suite.tsv"; then
        add 1 0 0
      else
        add 0 1 0
        status=1
      fi
    done
  fi
fi

if want runtime; then
  begin runtime
  if [[ -z "${python_venv:-}" ]]; then
    echo "runtime: needs the python part's venv (ONNX_INFER_TEST_PARTS must include python)" >&2
    add 0 1 0
    status=1
  elif ! node_modules="$(tools/verify_runtime/install.sh)"; then
    echo "runtime: Node.js or onnxruntime-node could not be installed" >&2
    add 0 1 0
    status=1
  else
    corpora=(testdata/demo testdata/cases testdata/cli testdata/custom_ops testdata/malformed)
    if [[ -d ../shared ]]; then
      corpora+=(../shared/models/real ../shared/conformance/onnx-backend)
    fi
    runtime_status=0
    "$python_venv/bin/python" tools/verify_runtime/verify.py --quiet --timeout 60 \
      --node-modules "$node_modules" --json "$work/runtime.json" "${corpora[@]}" \
      > "$work/runtime.log" 2>&1 || runtime_status=$?
    grep -v '^verify-models:' "$work/runtime.log" || true
    read -r p f s < <(sed -nE 's/^verify-models: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' \
      "$work/runtime.log")
    if [[ -z "${p:-}" ]] || ((runtime_status != 0 && ${f:-0} == 0)); then
      cat "$work/runtime.log"
      p=0 f=1 s=0
    fi
    ((runtime_status == 0)) || status=1
    echo "runtime: $p passed, $f failed, $s skipped (models)"
    add "$p" "$f" "$s"
    # Where onnxruntime's contrib document and kernels disagree: what the runtime follows.
    if "$python_venv/bin/python" tools/verify_runtime/contrib_probe.py \
        --node-modules "$node_modules" > "$work/contrib_probe.log" 2>&1; then
      tail -1 "$work/contrib_probe.log"
      add 1 0 0
    else
      cat "$work/contrib_probe.log"
      add 0 1 0
      status=1
    fi
    # The bounds of constant tables' elements, at every index of the two cases.
    if "$python_venv/bin/python" tools/verify_runtime/check_table_bounds.py \
        > "$work/table_bounds.log" 2>&1; then
      cat "$work/table_bounds.log"
      add 1 0 0
    else
      cat "$work/table_bounds.log"
      add 0 1 0
      status=1
    fi
    if [[ -f tools/verify_runtime/fuzz.py ]]; then
      if "$python_venv/bin/python" tools/verify_runtime/fuzz.py --seed 1 \
          --cases "${ONNX_INFER_RUNTIME_FUZZ_CASES:-5000}" --node-modules "$node_modules" \
          --out "$work/runtime-fuzz"; then
        add 1 0 0
      else
        add 0 1 0
        status=1
      fi
    fi
  fi
fi

begin ""
echo "times: ${times[*]:-none} (total ${SECONDS}s)"
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
