"""onnx_infer.Session: edits and update() give what a fresh infer_shapes of the edited model
gives (the annotated model and the diagnostics), through each edit kind, and the optimizer
loop of docs/python.md (fold, re-infer, repeat) runs.
"""

import os
import pathlib
import random

import pytest
from onnx import TensorProto, helper

import onnx_infer

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("ONNX_INFER_SHARED", ROOT.parent / "shared"))
REAL = SHARED / "models" / "real"
F = TensorProto.FLOAT


def small_model():
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"]),
         helper.make_node("Sigmoid", ["a"], ["b"]),
         helper.make_node("Softmax", ["b"], ["c"], axis=-1),
         helper.make_node("Reshape", ["c", "shape"], ["y"])],
        "g", [helper.make_tensor_value_info("x", F, ["N", 4])],
        [helper.make_tensor_value_info("y", F, ["N", 4])],
        initializer=[helper.make_tensor("shape", TensorProto.INT64, [2], [-1, 4])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def fresh(session):
    """The annotated bytes and rendered diagnostics of a fresh inference of the session's
    edited model (what the session's own results must equal)."""
    data, diagnostics = onnx_infer._core.infer_bytes(
        session.edited_model().SerializeToString(), onnx_infer._options(False), False)
    return data, [d.render("m") for d in diagnostics]


def check_same(session):
    want_model, want_diags = fresh(session)
    got = session.model()
    assert [d.render("m") for d in session.diagnostics] == want_diags
    import onnx
    want = onnx.ModelProto()
    want.ParseFromString(want_model)
    assert want == got


def test_type_of_and_model():
    s = onnx_infer.Session(small_model())
    assert str(s.type_of("c")) == "float[N, 4]"
    assert s.type_of("nope") is None
    assert not s.dirty
    names = [vi.name for vi in s.model().graph.value_info]
    assert names == ["a", "b", "c"]
    check_same(s)


def test_replace_node_keeping_types_is_incremental():
    s = onnx_infer.Session(small_model())
    s.replace_node(1, helper.make_node("Tanh", ["a"], ["b"]))
    assert s.dirty
    u = s.update()
    assert u.incremental and u.changed_values == []
    assert s.stats()["incremental_updates"] == 1
    assert s.model().graph.node[1].op_type == "Tanh"
    check_same(s)


def test_fold_by_remove_and_rename_is_incremental():
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Identity", ["a"], ["i"]),
         helper.make_node("Neg", ["i"], ["b"]), helper.make_node("Abs", ["b"], ["y"])],
        "g", [helper.make_tensor_value_info("x", f, ["N", 4])],
        [helper.make_tensor_value_info("y", f, ["N", 4])])
    s = onnx_infer.Session(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]))
    s.remove_node(1)
    s.rename_value("a", "i")
    u = s.update()
    assert u.incremental
    assert s.stats()["structural_updates"] == 1
    assert s.type_of("a") is None and str(s.type_of("i")) == "float[N, 4]"
    check_same(s)


def test_type_changing_edit_reports_what_changed():
    s = onnx_infer.Session(small_model())
    s.replace_node(1, helper.make_node("Cast", ["a"], ["b"], to=TensorProto.INT64))
    u = s.update()
    assert not u.incremental
    assert "b" in u.changed_values
    assert u.added_diagnostics  # Softmax does not take int64
    assert str(s.type_of("b")) == "int64[N, 4]"
    check_same(s)
    s.replace_node(1, helper.make_node("Sigmoid", ["a"], ["b"]))
    u = s.update()
    assert u.removed_diagnostics and not u.added_diagnostics


def test_every_edit_kind():
    s = onnx_infer.Session(small_model())
    s.set_node_attribute(2, helper.make_attribute("axis", 1))
    s.update()
    check_same(s)
    s.insert_node(1, helper.make_node("Transpose", ["a"], ["t"]))
    s.update()
    assert str(s.type_of("t")) == "float[4, N]"
    check_same(s)
    s.add_output("t")
    s.update()
    assert [o.name for o in s.model().graph.output] == ["y", "t"]
    check_same(s)
    s.remove_output("t")
    s.remove_node(1)
    s.update()
    assert s.type_of("t") is None
    check_same(s)
    s.set_initializer(helper.make_tensor("shape", TensorProto.INT64, [1], [-1]))
    s.update()
    assert str(s.type_of("y")) == "float[4*N]"
    check_same(s)
    s.set_input_type("x", helper.make_tensor_type_proto(F, [3, 4]))
    s.update()
    assert str(s.type_of("c")) == "float[3, 4]"
    check_same(s)
    s.rename_value("b", "b2")
    s.update()
    assert s.type_of("b") is None and str(s.type_of("b2")) == "float[3, 4]"
    check_same(s)


def test_bad_edits_raise_and_change_nothing():
    s = onnx_infer.Session(small_model())
    with pytest.raises(ValueError):
        s.remove_node(10)
    with pytest.raises(ValueError):
        s.rename_value("b", "c")
    with pytest.raises(ValueError):
        s.set_input_type("nope", helper.make_tensor_type_proto(F, [1]))
    with pytest.raises(TypeError):
        s.replace_node(0, 42)
    assert not s.dirty


def test_optimizer_loop_folds_identities():
    # The loop of docs/python.md: remove an Identity whose output type equals its input's,
    # its input taking its output's name, re-infer, repeat until nothing changes.
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"]),
         helper.make_node("Identity", ["a"], ["i1"]),
         helper.make_node("Identity", ["i1"], ["i2"]),
         helper.make_node("Neg", ["i2"], ["y"])],
        "g", [helper.make_tensor_value_info("x", F, ["N", 4])],
        [helper.make_tensor_value_info("y", F, None)])
    s = onnx_infer.Session(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]))
    while True:
        index = next((i for i in range(s.num_nodes) if s.node(i).op_type == "Identity"
                      and s.type_of(s.node(i).input[0]) == s.type_of(s.node(i).output[0])),
                     None)
        if index is None:
            break
        source, target = s.node(index).input[0], s.node(index).output[0]
        s.remove_node(index)
        s.rename_value(source, target)
        s.update()
        check_same(s)
    assert [n.op_type for n in s.model().graph.node] == ["Relu", "Neg"]
    assert str(s.type_of("y")) == "float[N, 4]"


def test_random_unary_swaps_on_a_real_model():
    path = REAL / "orti_mnist.onnx"
    if not path.exists():
        pytest.skip("the shared models are not there")
    s = onnx_infer.Session(str(path))
    rng = random.Random(7)
    unary = ["Relu", "Sigmoid", "Tanh", "Abs"]
    for _ in range(10):
        nodes = s.model().graph.node
        candidates = [i for i, n in enumerate(nodes) if n.op_type in unary]
        if not candidates:
            break
        i = rng.choice(candidates)
        node = helper.make_node(rng.choice(unary), list(nodes[i].input), list(nodes[i].output),
                                name=nodes[i].name)
        s.replace_node(i, node)
        s.update()
        check_same(s)
