#!/usr/bin/env python3
"""Checks the bounds of constant tables' elements (docs/deploy.md, "Bounds from constant
tables") against onnxruntime: testdata/cases/bounds/table_gather_*.onnxtxt run at every index
of a grid (and every length of the inputs that index them), the runs onnxruntime refuses being
exactly those with an index out of range; in each run, every dim inference gives as a symbol
with bounds must lie within them, one symbol must have one value, and every dim expression
must evaluate to the runtime's dim.

    tools/verify_runtime/check_table_bounds.py    # with a Python that imports onnx_infer

Exits 1 on the first value out of its bounds. Needs onnxruntime-node (install.sh).
"""
import base64
import itertools
import os
import sys
import tempfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import verify  # noqa: E402
import onnx_infer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def feed(array):
    array = np.asarray(array)
    return {"type": str(array.dtype), "dims": list(array.shape),
            "b64": base64.b64encode(array.astype(array.dtype.newbyteorder("<")).tobytes())
            .decode()}


def check(path, grid):
    declared = onnx_infer.infer(path)
    bounds = {b["symbol"]: (b["min"], b.get("max")) for b in declared.bounds}
    main = declared.values["main"]
    model, _ = verify._load(path)
    outputs = {o.name for o in model.graph.output}
    for node in model.graph.node:
        for name in node.output:
            if name and name not in outputs:
                model.graph.output.add().name = name
                outputs.add(name)
    work = tempfile.mkdtemp()
    model_path = os.path.join(work, "model.onnx")
    onnx.save(model, model_path)
    runtime = verify.Runtime(verify.default_node_modules())
    ran = refused = checked = 0
    seen = {}
    try:
        for feeds, valid in grid:
            answer = runtime.run(model_path, {k: feed(v) for k, v in feeds.items()})
            if not answer.get("ok"):
                if valid:
                    sys.exit(f"{path}: onnxruntime refused a valid run {feeds}: {answer}")
                refused += 1
                continue
            if not valid:
                sys.exit(f"{path}: onnxruntime ran {feeds}, an index out of range")
            ran += 1
            env = {}
            for name, out in answer["outputs"].items():
                t = main.get(name)
                for d, actual in zip((t.shape or ()) if t is not None else (), out["dims"]):
                    if not (isinstance(d, str) and d.isidentifier()):
                        continue
                    if env.setdefault(d, actual) != actual:
                        sys.exit(f"{path}: {d} is {env[d]} and {actual} in one run {feeds}")
                    if d in bounds:
                        lo, hi = bounds[d]
                        if actual < lo or (hi is not None and actual > hi):
                            sys.exit(f"{path}: '{name}': {d} = {actual} outside [{lo}, {hi}] "
                                     f"at {feeds}")
                        seen.setdefault(d, set()).add(actual)
                        checked += 1
            for name, out in answer["outputs"].items():
                t = main.get(name)
                for d, actual in zip((t.shape or ()) if t is not None else (), out["dims"]):
                    if not isinstance(d, str):
                        continue
                    try:
                        value = verify.evaluate(d, env)
                    except (verify.Unbound, ZeroDivisionError, ValueError):
                        continue
                    if value != actual:
                        sys.exit(f"{path}: '{name}': {d} = {value}, runtime {actual} at {feeds}")
    finally:
        runtime.close()
    print(f"{os.path.relpath(path, ROOT)}: {ran} runs, {refused} refused (index out of range), "
          f"{checked} bounded dims within their bounds; values seen "
          f"{ {k: sorted(v) for k, v in sorted(seen.items())} }, bounds {bounds}")


def main():
    cases = os.path.join(ROOT, "testdata", "cases", "bounds")
    i64 = lambda v: np.array(v, dtype=np.int64)  # noqa: E731
    check(os.path.join(cases, "table_gather_range.onnxtxt"),
          [({"i": i64(i)}, -3 <= i <= 2) for i in range(-5, 5)])
    grid = []
    for i, k, b in itertools.product(range(-4, 4), range(0, 4), (1, 2)):
        grid.append(({"x": np.ones((b, 4096), np.float32), "i": i64(i),
                      "sel": np.ones((k,), np.float32), "w": np.ones((2,), np.float32)},
                     -3 <= i <= 2 and k <= 2))  # TopK needs k <= 2
    check(os.path.join(cases, "table_gather_reshape.onnxtxt"), grid)


if __name__ == "__main__":
    main()
