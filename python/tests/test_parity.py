"""Parity with ONNX's own shape inference (Debian's python3-onnx) over the shared corpus.

For every value ONNX types (``onnx.shape_inference.infer_shapes(model, data_prop=True)``),
ours has the same element type, the same rank and the same known dims, or knows more; and we
fully shape at least as many values. ONNX runs in a child process (onnx_reference.py): it
segfaults on some models, and a crash must cost one model, not the test run. Models ONNX
refuses or crashes on have no reference and are not compared (counted in the message).

The corpus is ../shared (models/real and the backend suites); the tests skip without it.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import onnx_infer
from parity_util import compare, fully_shaped, main_graph_types

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHARED = pathlib.Path(os.environ.get("ONNX_INFER_SHARED", ROOT.parent / "shared"))
REAL = SHARED / "models" / "real"
BACKEND = SHARED / "conformance" / "onnx-backend"
SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator", "light"]

onnx = pytest.importorskip("onnx")


def run_reference(paths):
    """ONNX's types for each path (None where ONNX refused the model or crashed)."""
    results = {}
    todo = [str(p) for p in paths]
    while todo:
        proc = subprocess.run(
            [sys.executable, str(HERE / "onnx_reference.py")], input="\n".join(todo) + "\n",
            capture_output=True, text=True, check=False)
        started = None
        for line in proc.stdout.splitlines():
            if line.startswith("START "):
                started = line[6:]
            elif line.startswith("{"):
                record = json.loads(line)
                results[record["path"]] = record.get("values")
                started = None
        if started is not None:  # the child died on this model
            results[started] = None
        done = set(results)
        remaining = [p for p in todo if p not in done]
        if len(remaining) == len(todo):  # no progress: the child cannot run at all
            raise RuntimeError(f"onnx_reference.py failed: {proc.stderr[-2000:]}")
        todo = remaining
    return results


def our_types(path):
    # infer(), not infer_shapes(): a model whose declarations contradict inference makes
    # infer_shapes raise (as onnx's does), and the parity is about the types.
    data = onnx_infer.infer(pathlib.Path(path).read_bytes()).model
    model = onnx.ModelProto()
    model.ParseFromString(data)
    return main_graph_types(model)


def check_models(paths):
    """(problems by model, ONNX's fully shaped count, ours, models without a reference).
    Values ONNX fully shapes and we do not are listed among the problems only when we fully
    shape fewer values in all (knowing more elsewhere may make up for them)."""
    reference = run_reference(paths)
    problems, theirs_full, ours_full, no_reference, weaker = {}, 0, 0, [], {}
    for path in paths:
        ref = reference.get(str(path))
        if ref is None:
            no_reference.append(pathlib.Path(path).name)
            continue
        mine = our_types(path)
        found = compare(ref, mine)
        if found:
            problems[str(path)] = found
        theirs_full += sum(1 for e in ref.values() if fully_shaped(e))
        ours_full += sum(1 for name, e in mine.items() if name in ref and fully_shaped(e))
        less = [f"{name}: ONNX fully shapes it ({e[2]}), we give {mine.get(name)}"
                for name, e in ref.items() if fully_shaped(e) and not fully_shaped(mine.get(name))]
        if less:
            weaker[str(path)] = less
    if ours_full < theirs_full:
        for path, less in weaker.items():
            problems.setdefault(path, []).extend(less)
    return problems, theirs_full, ours_full, no_reference


def _report(problems):
    lines = []
    for path, found in sorted(problems.items()):
        lines.append(f"{path}:")
        lines += [f"  {p}" for p in found[:5]]
        if len(found) > 5:
            lines.append(f"  ... and {len(found) - 5} more")
    return "\n".join(lines)


def _real_models():
    return sorted(REAL.glob("*.onnx")) if REAL.is_dir() else []


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/models/real is not present")
def test_real_models_match_onnx():
    problems, theirs, ours, no_reference = check_models(_real_models())
    assert not problems, _report(problems)
    assert ours >= theirs, f"ONNX fully shapes {theirs} values, we {ours}"
    # Most real models must have a reference, or the test says little.
    assert len(no_reference) <= 10, f"no ONNX reference for {no_reference}"


@pytest.mark.parametrize("suite", SUITES)
def test_backend_suite_matches_onnx(suite):
    folder = BACKEND / suite
    if not folder.is_dir():
        pytest.skip(f"{folder} is not present")
    paths = sorted(folder.glob("*/model.onnx")) + sorted(folder.glob("*.onnx"))
    assert paths, f"no models under {folder}"
    problems, theirs, ours, _ = check_models(paths)
    assert not problems, f"{len(problems)} of {len(paths)} models differ:\n" + _report(problems)
    assert ours >= theirs, f"ONNX fully shapes {theirs} values, we {ours}"
