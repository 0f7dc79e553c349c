"""tools/verify_runtime/verify.py: the evaluator of dim expressions, the classification of a
value against the runtime's dims, the lifting of subgraph values, and (when onnxruntime-node is
installed, tools/verify_runtime/install.sh) a whole model checked against the runtime."""

import importlib.util
import os
import shutil
import tempfile

import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

import onnx_infer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location(
    "verify", os.path.join(ROOT, "tools", "verify_runtime", "verify.py"))
verify = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify)


@pytest.mark.parametrize("text,env,value", [
    ("N + 5", {"N": 3}, 8),
    ("floor((H - 1)/2) + 1", {"H": 7}, 4),
    ("floor((H - 4)/3)", {"H": 2}, -1),       # floor, not truncation, below 0
    ("ceiling(N/4)", {"N": 9}, 3),
    ("Mod(N, 3)", {"N": -1}, 2),              # the sign of the divisor, as sympy's Mod
    ("Max(0, S - 2)*Min(1, S)", {"S": 1}, 0),
    ("2*N**2 - N", {"N": 3}, 15),
    ("12", {}, 12),
])
def test_evaluate(text, env, value):
    assert verify.evaluate(text, env) == value


def test_evaluate_refuses_what_it_cannot_decide():
    with pytest.raises(verify.Unbound):
        verify.evaluate("N + M", {"N": 1})
    with pytest.raises(ZeroDivisionError):
        verify.evaluate("floor(N/M)", {"N": 1, "M": 0})
    for hostile in ("N +", "__import__('os')", "(" * 500 + "N" + ")" * 500, "N\ufffd"):
        with pytest.raises((ValueError, verify.Unbound)):
            verify.evaluate(hostile, {"N": 1})


def test_classify():
    T = onnx_infer.ValueType
    env = {"N": 2}
    assert verify.Verifier.classify(T("float", ("N", 3)), 1, [2, 3], env)[0] == "exact"
    assert verify.Verifier.classify(T("float", ("N", None)), 1, [2, 3], env)[0] == "less-precise"
    assert verify.Verifier.classify(T("float", None), 1, [2, 3], env)[0] == "unknown"
    assert verify.Verifier.classify(None, 1, [2, 3], env)[0] == "unknown"
    assert verify.Verifier.classify(T("float", ("N", 4)), 1, [2, 3], env)[0] == "contradiction"
    assert verify.Verifier.classify(T("float", ("N",)), 1, [2, 3], env)[0] == "contradiction"
    assert verify.Verifier.classify(T("int64", ("N", 3)), 1, [2, 3], env)[0] == "contradiction"
    # A symbol of the engine's own (a NonZero count) is learnt once, then must hold.
    assert verify.Verifier.classify(T("int64", (2, "nz")), 7, [2, 5], env)[0] == "exact"
    assert env["nz"] == 5
    assert verify.Verifier.classify(T("int64", ("nz",)), 7, [4], env)[0] == "contradiction"


def _if_in_loop_model():
    # A Loop whose body computes a value and runs an If on the iteration's condition.
    then_g = helper.make_graph(
        [helper.make_node("Relu", ["v_in"], ["r"]),
         helper.make_node("Neg", ["r"], ["t"])],
        "then_g", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, None)])
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["v_in"], ["e"])],
        "else_g", [], [helper.make_tensor_value_info("e", TensorProto.FLOAT, None)])
    body = helper.make_graph(
        [helper.make_node("Sigmoid", ["v_in"], ["s"]),
         helper.make_node("If", ["c_in"], ["b"], then_branch=then_g, else_branch=else_g),
         helper.make_node("Add", ["s", "b"], ["v_out"]),
         helper.make_node("Identity", ["c_in"], ["c_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, ["N", 3])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "c", "x"], ["y"], body=body)],
        "main",
        [helper.make_tensor_value_info("m", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_lift_subgraph_values():
    model = _if_in_loop_model()
    values = onnx_infer.infer(model).values
    lifted = verify.lift_subgraph_values(model.graph, "main", values, [0])
    carried = {(l.path, l.value): [w[0] for w in l.wrappers] for l in lifted.values()}
    assert carried == {
        ("main/Loop_0.body", "s"): ["loop"],
        ("main/Loop_0.body", "b"): ["loop"],
        ("main/Loop_0.body/If_1.then_branch", "r"): ["loop", "if"],
    }
    # Every lifted value is an output of the Loop, and the If's marker reaches it too.
    loop = model.graph.node[0]
    assert set(lifted) <= set(loop.output)
    marker = next(w[2] for l in lifted.values() for w in l.wrappers if w[0] == "if")
    assert marker in loop.output


def test_unwrap():
    lifted = verify.Lifted("p", "v", (("loop", "", ""), ("if", "then_branch", "m")))
    outputs = {"m": {"dims": [3, 1]}}
    assert verify.Verifier._unwrap(lifted, [3, 2, 5], outputs) == [2, 5]
    assert verify.Verifier._unwrap(lifted, [0, 2, 5], outputs) is None
    assert verify.Verifier._unwrap(lifted, [3, 0], {"m": {"dims": [3, 2]}}) is None


def _node_modules():
    path = os.environ.get("ONNX_INFER_ORT_NODE_MODULES") or verify.default_node_modules()
    if not shutil.which("node") or not os.path.isdir(os.path.join(path, "onnxruntime-node")):
        pytest.skip("onnxruntime-node is not installed (tools/verify_runtime/install.sh)")
    return path


def test_whole_model_against_the_runtime():
    runtime = verify.Runtime(_node_modules(), timeout=60)
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "loop.onnx")
        onnx.save(_if_in_loop_model(), path)
        try:
            report = verify.Verifier(runtime, os.path.join(work)).verify(path)
        finally:
            runtime.close()
    assert "not_run" not in report, report.get("failed_attempts")
    assert report["contradictions"] == []
    assert report["values"]["main/Loop_0.body:s"] == "exact"
    assert report["values"]["y"] == "exact"
    assert len(report["runs"]) >= 3
