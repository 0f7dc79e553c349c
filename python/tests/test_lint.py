"""infer(..., lint=True): the lint findings (docs/lint.md) through the Python API.

Small models built with onnx.helper for each check, and the shared real models (skipped when
../shared is absent): every finding has its fields, and the ids are the documented ones.
"""

import os
import pathlib

import pytest
from onnx import TensorProto, helper

import onnx_infer

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("ONNX_INFER_SHARED", ROOT.parent / "shared"))
REAL = SHARED / "models" / "real"
F = TensorProto.FLOAT
KEYS = {"id", "severity", "graph", "node_index", "node_name", "op", "subject", "message",
        "pattern", "fix"}


def model(nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, F, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, F, s) for n, s in outputs],
        initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def reshape_head(target, out_shape=None):
    shape = helper.make_tensor("shape", TensorProto.INT64, [len(target)], target)
    return model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="r")],
                 [("x", ["batch", 255, 52, 52])], [("y", out_shape)], [shape])


def test_reshape_to_a_literal_target_pins_the_batch():
    result = onnx_infer.infer(reshape_head([1, 3, 85, 52, 52]), lint=True)
    assert "689520*batch == 689520" in result.facts[0]
    [f] = result.findings
    assert set(f) == KEYS
    assert (f["id"], f["severity"], f["graph"], f["node_index"], f["node_name"], f["op"],
            f["subject"]) == ("L001", "warning", "main", 0, "r", "Reshape", "batch")
    assert "-1" in f["fix"] and "Reshape" in f["pattern"]
    assert str(result.type_of("y")) == "float[1, 3, 85, 52, 52]"


def test_the_fixed_export_has_no_finding():
    result = onnx_infer.infer(reshape_head([-1, 3, 85, 52, 52]), lint=True)
    assert result.findings == []
    assert str(result.type_of("y")) == "float[batch, 3, 85, 52, 52]"


def test_an_output_declared_dynamic_made_constant():
    result = onnx_infer.infer(reshape_head([1, 3, 85, 52, 52], ["batch", 3, 85, 52, 52]),
                              lint=True)
    assert [f["id"] for f in result.findings] == ["L001", "L003"]
    assert result.findings[1]["subject"] == "output 'y' dim 0"


def test_two_axes_of_one_input_forced_equal():
    m = model([helper.make_node("MatMul", ["x", "x"], ["y"])], [("x", ["N", 3, "H", "W"])],
              [("y", None)])
    [f] = onnx_infer.infer(m, lint=True).findings
    assert (f["id"], f["severity"], f["subject"]) == ("L002", "warning", "H == W")


def test_a_dead_shape():
    m = model([helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Relu", ["x"], ["y"])],
              [("x", ["N", 8])], [("y", None)])
    [f] = onnx_infer.infer(m, lint=True).findings
    assert (f["id"], f["severity"], f["op"]) == ("L004", "note", "Shape")


def test_without_lint_there_are_no_findings():
    assert onnx_infer.infer(reshape_head([1, 3, 85, 52, 52])).findings is None


@pytest.mark.skipif(not REAL.is_dir(), reason="no shared real models (../shared)")
def test_the_shared_real_models():
    ids = []
    for path in sorted(REAL.glob("*.onnx")):
        result = onnx_infer.infer(str(path), lint=True)
        for f in result.findings:
            assert set(f) == KEYS and f["message"] and f["pattern"] and f["fix"], path
            ids.append(f["id"])
    assert set(ids) <= {"L001", "L002", "L003", "L004"}
    # docs/lint.md's table: 7 findings, each read by hand.
    assert len(ids) == 7
