"""ONNX's own shape inference for bench/run.py, one model per process.

    onnx_child.py IN.onnx OUT.onnx   infer_shapes_path(check_type, strict_mode, data_prop),
                                     timed inside the process: prints {"seconds": ...}
    onnx_child.py --check IN.onnx    onnx.checker.check_model on the file
    onnx_child.py                    imports onnx and prints its version (the baseline RSS
                                     of a Python process that has ONNX loaded)

A child of its own, so that ONNX crashing on a model (1.12 does on some) is one "n/a" and
its peak RSS is measured apart from ours.
"""
import json
import sys
import time

import onnx


def main(argv):
    if len(argv) == 1:
        print(json.dumps({"version": onnx.__version__}))
        return 0
    if argv[1] == "--check":
        onnx.checker.check_model(argv[2])
        print(json.dumps({"checked": True}))
        return 0
    src, dst = argv[1], argv[2]
    start = time.perf_counter()
    onnx.shape_inference.infer_shapes_path(
        src, dst, check_type=True, strict_mode=True, data_prop=True)
    print(json.dumps({"seconds": time.perf_counter() - start}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 - any failure of ONNX is an "n/a" for the runner
        print(json.dumps({"error": f"{type(e).__name__}: {str(e)[:300]}"}))
        sys.exit(1)
