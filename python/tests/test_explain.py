"""onnx_infer.explain: why dims are unknown, and what binding inputs would gain (what-if runs
checked against infer(bind=...))."""
import pytest

import onnx_infer

onnx = pytest.importorskip("onnx")
helper = onnx.helper
FLOAT, INT64 = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


def _model(nodes, inputs, outputs):
    graph = helper.make_graph(nodes, "g", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _reshape_model():
    # y = Relu(Reshape(x, shape)) with shape a graph input: its dims wait for shape's value.
    # u = w + w is symbolic in M; nz = NonZero(w) has a data-dependent dim.
    return _model(
        [helper.make_node("Reshape", ["x", "shape"], ["r"]),
         helper.make_node("Relu", ["r"], ["y"]),
         helper.make_node("Add", ["w", "w"], ["u"]),
         helper.make_node("NonZero", ["w"], ["nz"])],
        [helper.make_tensor_value_info("x", FLOAT, ["N", 512]),
         helper.make_tensor_value_info("shape", INT64, [2]),
         helper.make_tensor_value_info("w", FLOAT, ["M"])],
        [helper.make_tensor_value_info("y", FLOAT, None),
         helper.make_tensor_value_info("u", FLOAT, None),
         helper.make_tensor_value_info("nz", INT64, None)])


def test_explain_one_dim_follows_the_shape_value_to_its_input():
    report = onnx_infer.explain(_reshape_model(), "y:1")
    assert len(report.explanations) == 1
    e = report.explanations[0]
    assert (e.value, e.axis, e.reason) == ("y", 1, "shape-value-unknown")
    assert e.input_value == "shape"
    assert [s["value"] for s in e.chain] == ["y", "r", "shape"]
    assert e.chain[-1]["of_value"] and e.chain[-1]["node"] == "graph input"
    assert "Reshape" in e.chain[1]["node"]
    assert "shape-value-unknown" in str(e)


def test_explain_a_symbolic_dim_and_a_data_dependent_one():
    report = onnx_infer.explain(_reshape_model(), ["u", ("nz", 1)])
    sym, nz = report.explanations
    assert sym.reason == "symbolic" and sym.what == "dim 0 is M"
    assert sym.symbols == [("M", True, "input 'w' dim 0 of graph 'main'", "symbolic")]
    assert nz.reason == "data-dependent"


def test_explain_all_summary_and_what_if_match_real_bind_runs():
    model = _reshape_model()
    report = onnx_infer.explain(model, "all", what_if={"N": 3})
    assert report.summary == {"shape-value-unknown": 4, "data-dependent": 1}
    assert all(e.reason != "rule-incomplete" for e in report.unknown)
    base = onnx_infer.infer(model).stats["static_shaped"]
    assert report.static_values == base
    runs = {w.label: w for w in report.what_if}
    assert set(runs) >= {"N=3", "M=2", "all together"}
    for label, bind in (("N=3", {"N": 3}), ("M=2", {"M": 2})):
        real = onnx_infer.infer(model, bind=bind).stats["static_shaped"]
        assert runs[label].static_values == real
        assert runs[label].gained == real - base
    assert runs["M=2"].gained == 1  # u
    assert report.introduced == []  # every symbol is declared


def test_introduced_symbols_have_reasons():
    # Unique's count is a fresh symbol: data-dependent.
    model = _model([helper.make_node("Unique", ["w"], ["y"])],
                   [helper.make_tensor_value_info("w", FLOAT, ["M"])],
                   [helper.make_tensor_value_info("y", FLOAT, None)])
    report = onnx_infer.explain(model, "all")
    assert [(name, reason) for name, _, reason in report.introduced] == [
        ("y__d0", "data-dependent")]
    assert "symbols introduced by inference" in report.text


def test_what_if_an_input_value():
    model = _reshape_model()
    report = onnx_infer.explain(model, "y", what_if={"shape": [4, 128]})
    runs = {w.label: w for w in report.what_if}
    run = runs["shape=4,128"]
    real = onnx_infer.infer(model, input_values={"shape": [4, 128]}).stats["static_shaped"]
    assert run.static_values == real and run.errors == 0


def test_explain_bytes_and_path(tmp_path):
    model = _reshape_model()
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    by_path = onnx_infer.explain(str(path), "y:0", what_if=False)
    by_bytes = onnx_infer.explain(model.SerializeToString(), "y:0", what_if=False)
    assert by_path.explanations[0].reason == by_bytes.explanations[0].reason
    assert by_path.what_if == []


def test_explain_errors():
    with pytest.raises(ValueError, match="no value 'nope'"):
        onnx_infer.explain(_reshape_model(), "nope")
    with pytest.raises(TypeError):
        onnx_infer.explain(_reshape_model(), [3])
    with pytest.raises(TypeError):
        onnx_infer.explain(42)
