"""Runs ONNX's own shape inference over model files, in a process of its own.

Usage: python3 onnx_reference.py < paths   (one model path per line)

For each path it prints a line ``START <path>`` before touching the model, then one JSON line
``{"path": ..., "values": {...}}`` (or ``{"path": ..., "error": ...}``), flushed at once: the
caller restarts it after the last started model when it dies (ONNX 1.12 segfaults on some
models), so one crash costs one model. Only ``onnx`` is imported: this must not depend on
onnx_infer.
"""
import json
import sys

import onnx
from onnx import shape_inference

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from parity_util import main_graph_types  # noqa: E402


def main():
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        print("START " + path, flush=True)
        try:
            model = onnx.load(path, load_external_data=False)
            inferred = shape_inference.infer_shapes(model, data_prop=True)
            record = {"path": path, "values": main_graph_types(inferred)}
        except Exception as e:  # ONNX refuses the model: no reference for it
            record = {"path": path, "error": f"{type(e).__name__}: {e}"[:300]}
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
