#!/usr/bin/env python3
"""The drop-in's cost per call, beside onnx's own, in one process (docs/performance.md,
"Python drop-in"). Prints figures; it is not a test.

usage: python_dropin.py [MODEL.onnx | DIR]... [--runs N] [--min-time SECONDS]

For each model (default: ../shared/models/real/*.onnx beside the checkout, and the demo), both
`onnx.shape_inference.infer_shapes(model)` and `onnx_infer.infer_shapes(model)` are called on
the same in-memory ModelProto, interleaved, each call timed on its own; the row gives each
one's median per call and the ratio ours / onnx. A model either side rejects (a raise) is
listed as such and left out of the totals. Also prints what `import onnx_infer` costs in a new
process (without importing onnx).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def time_calls(fn, model, runs, min_time):
    """Per-call times of fn(model): at least `runs` calls and at least `min_time` seconds."""
    times = []
    start = time.perf_counter()
    while len(times) < runs or time.perf_counter() - start < min_time:
        t = time.perf_counter()
        fn(model)
        times.append(time.perf_counter() - t)
        if len(times) >= 50 * runs:
            break
    return times


def import_cost(runs=7):
    code = ("import time; t = time.perf_counter(); import onnx_infer; "
            "print(time.perf_counter() - t, 'onnx' in __import__('sys').modules)")
    out = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd="/")
        seconds, onnx_loaded = r.stdout.split()
        out.append((float(seconds), onnx_loaded == "True"))
    return statistics.median(s for s, _ in out), any(o for _, o in out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()
    import onnx
    import onnx.shape_inference
    import onnx_infer

    paths = []
    for m in args.models or [ROOT.parent / "shared" / "models" / "real",
                             ROOT / "testdata" / "demo" / "attention_block.onnx"]:
        m = pathlib.Path(m)
        paths += sorted(m.glob("*.onnx")) if m.is_dir() else [m] if m.exists() else []
    if not paths:
        sys.exit("no models (give paths, or put ../shared beside the checkout)")

    seconds, onnx_loaded = import_cost()
    print(f"import onnx_infer: {seconds * 1e3:.1f} ms (median of 7 new processes); "
          f"imports onnx: {'yes' if onnx_loaded else 'no'}")
    print(f"onnx {onnx.__version__}; per call, median; ratio = ours / onnx's")
    print(f"{'model':48} {'KB':>7} {'onnx ms':>9} {'ours ms':>9} {'ratio':>6}")
    ours_total = theirs_total = 0.0
    ratios = []
    for path in paths:
        model = onnx.load(str(path), load_external_data=False)
        size = path.stat().st_size / 1024
        try:
            onnx.shape_inference.infer_shapes(model)
            onnx_infer.infer_shapes(model)
        except Exception as e:  # noqa: BLE001: listed, not timed
            print(f"{path.name[:48]:48} {size:7.0f}   raises: {type(e).__name__}: "
                  f"{str(e).splitlines()[0][:60]}")
            continue
        theirs, ours = [], []
        for _ in range(3):  # interleaved rounds: load on the machine falls on both alike
            theirs += time_calls(onnx.shape_inference.infer_shapes, model, args.runs,
                                 args.min_time / 3)
            ours += time_calls(onnx_infer.infer_shapes, model, args.runs, args.min_time / 3)
        t, o = statistics.median(theirs), statistics.median(ours)
        theirs_total += t
        ours_total += o
        ratios.append(o / t)
        print(f"{path.name[:48]:48} {size:7.0f} {t * 1e3:9.3f} {o * 1e3:9.3f} {o / t:6.2f}")
    if ratios:
        print(f"{len(ratios)} models: sum of medians onnx {theirs_total * 1e3:.1f} ms, ours "
              f"{ours_total * 1e3:.1f} ms, ratio {ours_total / theirs_total:.2f}; per-model "
              f"ratio median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
