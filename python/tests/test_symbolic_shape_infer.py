"""onnx_infer.symbolic_shape_infer against the contract of onnxruntime's SymbolicShapeInference:
what it returns, raises and writes (value_info, graph outputs), its options, the module-level
helpers and the members a subclass drives. Self-contained: every model is built here."""
import logging
import subprocess
import sys

import pytest

onnx = pytest.importorskip("onnx")

import onnx_infer  # noqa: E402
from onnx_infer import symbolic_shape_infer as ssi  # noqa: E402
from onnx_infer.symbolic_shape_infer import SymbolicShapeInference  # noqa: E402

helper = onnx.helper
FLOAT, DOUBLE, INT64, BOOL = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE,
                              onnx.TensorProto.INT64, onnx.TensorProto.BOOL)


@pytest.fixture(autouse=True)
def _fresh_registry():
    onnx_infer.reset_schemas()
    yield
    onnx_infer.reset_schemas()


def _model(nodes, inputs, outputs, initializer=(), opsets=(("", 17),), value_info=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializer),
                              value_info=list(value_info))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])


def _vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def _dims(vi):
    return [d.dim_param if d.HasField("dim_param") else
            (d.dim_value if d.HasField("dim_value") else None)
            for d in vi.type.tensor_type.shape.dim]


def _by_name(vis):
    return {vi.name: vi for vi in vis}


def _i64(name, values):
    return helper.make_tensor(name, INT64, [len(values)], values)


# ---- what is written: value_info and graph outputs

def test_value_info_holds_every_node_output_graph_outputs_included():
    model = _model([helper.make_node("Unsqueeze", ["x", "axes"], ["t"]),
                    helper.make_node("Identity", ["t"], ["y"])],
                   [_vi("x", FLOAT, ["b", "s"])], [_vi("y", FLOAT, None)],
                   initializer=[_i64("axes", [-1])])
    out = SymbolicShapeInference.infer_shapes(model, auto_merge=True)
    vis = _by_name(out.graph.value_info)
    assert list(vis) == ["t", "y"]  # node order; no graph input, no initializer
    assert _dims(vis["t"]) == ["b", "s", 1] and _dims(vis["y"]) == ["b", "s", 1]
    assert vis["y"].type.tensor_type.elem_type == FLOAT
    assert out.graph.output[0].type == vis["y"].type


def test_inferred_dims_overwrite_the_declared_output_dims():
    # Concat(x[B, M], y[B, N]) is [B, M + N]; the declaration names both dims differently.
    model = _model([helper.make_node("Concat", ["x", "y"], ["z"], axis=1)],
                   [_vi("x", FLOAT, ["B", "M"]), _vi("y", FLOAT, ["B", "N"])],
                   [_vi("z", FLOAT, ["d1", "d2"])])
    out = SymbolicShapeInference.infer_shapes(model)
    assert _dims(out.graph.output[0]) == ["B", "M + N"]
    assert _dims(_by_name(out.graph.value_info)["z"]) == ["B", "M + N"]
    assert _dims(model.graph.output[0]) == ["d1", "d2"]  # the argument is left as it was


def test_declared_value_info_is_replaced_by_the_inferred_type():
    model = _model([helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])],
                   [_vi("x", FLOAT, ["N", 4])], [_vi("y", FLOAT, None)],
                   value_info=[_vi("r", FLOAT, ["R", 4])])
    out = SymbolicShapeInference.infer_shapes(model)
    assert _dims(_by_name(out.graph.value_info)["r"]) == ["N", 4]


def test_a_declared_dim_fills_what_inference_leaves_unknown():
    def rule(input_types, attributes):  # the first dim cannot be known from the inputs
        return [("float", (None, input_types[0].shape[1]))]
    onnx_infer.register_op("com.example", "Pick", rule)
    nodes = [helper.make_node("Pick", ["x"], ["p"], domain="com.example")]
    opsets = (("", 17), ("com.example", 1))
    declared = _model(nodes, [_vi("x", FLOAT, ["N", 3])], [_vi("p", FLOAT, ["K", 3])], opsets=opsets)
    out = SymbolicShapeInference.infer_shapes(declared)
    assert _dims(out.graph.output[0]) == ["K", 3]
    # Undeclared, the unknown dim gets a fresh name of its own, as onnxruntime names the dims
    # it makes up: every dim is a number or a name.
    bare = _model(nodes, [_vi("x", FLOAT, ["N", 3])], [_vi("p", FLOAT, None)], opsets=opsets)
    out = SymbolicShapeInference.infer_shapes(bare)
    assert _dims(out.graph.output[0]) == ["Pick_0_o0__d0", 3]


def test_anonymous_input_dims_are_named_after_the_input():
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", FLOAT, [None, 3])],
                   [_vi("y", FLOAT, None)])
    out = SymbolicShapeInference.infer_shapes(model)
    assert _dims(out.graph.input[0]) == ["x_d0", 3]
    assert _dims(out.graph.output[0]) == ["x_d0", 3]


def test_dims_are_taken_as_positive_and_the_assumption_is_logged(caplog):
    # Slice(x, 1, INT_MAX) on an axis of S: Max(0, S - 1) in general, S - 1 when S >= 1.
    model = _model([helper.make_node("Slice", ["x", "one", "big", "one"], ["y"])],
                   [_vi("x", FLOAT, ["B", "S"])], [_vi("y", FLOAT, None)],
                   initializer=[_i64("one", [1]), _i64("big", [2**62])])
    assert onnx_infer.infer(model).type_of("y").shape == ("B", "Max(0, S - 1)")
    with caplog.at_level(logging.INFO, logger="onnx_infer.symbolic_shape_infer"):
        out = SymbolicShapeInference.infer_shapes(model, verbose=1)
    assert _dims(out.graph.output[0]) == ["B", "S - 1"]
    assert any("S" in r.getMessage() and "condition" in r.getMessage() for r in caplog.records)


# ---- what is returned and raised

def test_none_without_an_onnx_opset_of_7_or_later(caplog):
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", FLOAT, [2])],
                   [_vi("y", FLOAT, None)], opsets=(("", 6),))
    with caplog.at_level(logging.WARNING, logger="onnx_infer.symbolic_shape_infer"):
        assert SymbolicShapeInference.infer_shapes(model) is None
    assert "opset 7" in caplog.text
    del model.opset_import[:]
    assert SymbolicShapeInference.infer_shapes(model) is None


def _if_model(then_type, else_type):
    def branch(name, elem):
        value = helper.make_tensor(name + "_value", elem, [], [1])
        return helper.make_graph([helper.make_node("Constant", [], [name], value=value)], name, [],
                                 [_vi(name, elem, [])])
    node = helper.make_node("If", ["c"], ["out"], name="if_node",
                            then_branch=branch("a", then_type), else_branch=branch("b", else_type))
    return _model([node], [_vi("c", BOOL, [])], [_vi("out", FLOAT, [])])


def test_if_branches_of_different_types_raise_value_error_naming_node_and_types():
    with pytest.raises(ValueError, match=r"if_node.*FLOAT.*DOUBLE"):
        SymbolicShapeInference.infer_shapes(_if_model(FLOAT, DOUBLE), auto_merge=True)
    out = SymbolicShapeInference.infer_shapes(_if_model(FLOAT, FLOAT))
    assert out.graph.output[0].type.tensor_type.elem_type == FLOAT


def test_an_operator_without_schema_is_incomplete_unless_its_rank_is_guessed():
    model = _model([helper.make_node("Mystery", ["x"], ["m"], domain="com.example"),
                    helper.make_node("Relu", ["m"], ["y"])],
                   [_vi("x", FLOAT, ["N", 3])], [_vi("y", FLOAT, None)],
                   opsets=(("", 17), ("com.example", 1)))
    with pytest.raises(Exception, match="^Incomplete symbolic shape inference$"):
        SymbolicShapeInference.infer_shapes(model)
    out = SymbolicShapeInference.infer_shapes(model, guess_output_rank=True)
    vis = _by_name(out.graph.value_info)
    guessed = ["Mystery_0_o0__d0", "Mystery_0_o0__d1"]
    assert _dims(vis["m"]) == guessed and vis["m"].type.tensor_type.elem_type == FLOAT
    assert _dims(out.graph.output[0]) == guessed  # the guess flows on through Relu


def test_an_error_elsewhere_still_returns_the_best_effort_model(caplog):
    # The declared output contradicts the inference (3, not 7): logged, the inferred type wins.
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", FLOAT, [3])],
                   [_vi("y", FLOAT, [7])])
    with caplog.at_level(logging.WARNING, logger="onnx_infer.symbolic_shape_infer"):
        out = SymbolicShapeInference.infer_shapes(model)
    assert out is not None and _dims(out.graph.output[0]) == [3]
    assert "declared" in caplog.text


def test_contrib_operator_without_its_domain_imported_is_inferred():
    # onnxruntime's own tests use com.microsoft operators without importing the domain.
    node = helper.make_node("QuantizeLinear", ["x", "scale"], ["q"], domain="com.microsoft")
    model = _model([node], [_vi("x", FLOAT, ["b", 2])], [_vi("q", 0, None)],
                   initializer=[helper.make_tensor("scale", FLOAT, [], [1.0])])
    out = SymbolicShapeInference.infer_shapes(model, auto_merge=True)
    q = _by_name(out.graph.value_info)["q"]
    assert q.type.tensor_type.elem_type == onnx.TensorProto.UINT8 and _dims(q) == ["b", 2]



# ---- the members a subclass drives (onnxruntime's SymbolicShapeInferenceHelper)

class _Helper(SymbolicShapeInference):
    """As onnxruntime.transformers.shape_infer_helper: its own _preprocess, no copy."""

    def __init__(self, model):
        super().__init__(2**31 - 1, True, False, 0)
        self.model_ = model

    def _preprocess(self, in_mp):
        self.out_mp_ = in_mp
        self.initializers_ = {i.name: i for i in in_mp.graph.initializer}
        self.known_vi_ = {i.name: i for i in in_mp.graph.input}

    def infer(self):
        self._preprocess(self.model_)
        done = False
        while self.run_:
            done = self._infer_impl()
        return done


def test_a_subclass_drives_preprocess_infer_impl_and_reads_known_vi():
    model = _model([helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
                    helper.make_node("Relu", ["h"], ["y"])],
                   [_vi("x", FLOAT, ["B", 4])], [_vi("y", FLOAT, None)],
                   initializer=[helper.make_tensor("w", FLOAT, [4, 6], [0.0] * 24)])
    inference = _Helper(model)
    assert inference.infer() is True and inference.run_ is False
    assert ssi.get_shape_from_type_proto(inference.known_vi_["h"].type) == ["B", 6]
    assert inference._get_shape(model.graph.node[1], 0) == ["B", 6]
    assert inference._get_shape(model.graph.node[0], 1) == [4, 6]  # an initializer
    assert inference._try_get_shape(model.graph.node[0], 5) is None
    assert inference._get_value(model.graph.node[0], 1).shape == (4, 6)
    assert "B" in inference.input_symbols_ and "B" in inference.symbolic_dims_
    assert inference.out_mp_ is model  # annotated in place, as the helper expects
    inference._update_output_from_vi()
    assert _dims(model.graph.output[0]) == ["B", 6]
    assert inference._new_symbolic_shape(2, model.graph.node[0]) is not None
    assert "MatMul_0_o0__d1" in inference.symbolic_dims_


# ---- module-level helpers

def test_module_level_helpers_have_onnxruntimes_results():
    node = helper.make_node("Concat", ["a"], ["b"], axis=-1)
    assert ssi.get_attribute(node, "axis") == -1 and ssi.get_attribute(node, "x", 7) == 7
    model = _model([], [], [], opsets=(("", 13), ("com.microsoft", 1)))
    assert ssi.get_opset(model) == 13 and ssi.get_opset(model, "com.microsoft") == 1
    assert ssi.get_opset(model, ["ai.onnx.ml"]) is None
    t = _vi("t", FLOAT, ["N", 3, None])
    assert ssi.get_shape_from_value_info(t) == ["N", 3, None]
    assert ssi.get_shape_from_value_info(_vi("u", FLOAT, None)) is None
    assert ssi.get_elem_type_from_type_proto(t.type) == FLOAT
    seq = helper.make_value_info("s", helper.make_sequence_type_proto(t.type))
    assert ssi.get_shape_from_value_info(seq) == ["N", 3, None]
    assert ssi.get_elem_type_from_type_proto(seq.type) == FLOAT
    assert ssi.handle_negative_axis(-1, 3) == 2 and ssi.handle_negative_axis(1, 3) == 1
    with pytest.raises(AssertionError):
        ssi.handle_negative_axis(3, 3)
    assert ssi.as_scalar([5]) == 5 and ssi.as_list(4, keep_none=False) == [4]
    assert ssi.as_list(None, keep_none=True) is None
    assert ssi.is_literal(3) and not ssi.is_literal("N") and not ssi.is_literal(True)
    assert ssi.get_shape_from_sympy_shape([2, "N", None]) == [2, "N", None]
    assert ssi.sympy_reduce_product([2, 3, 4]) == 24 and ssi.sympy_reduce_product(5) == 5
    np = pytest.importorskip("numpy")
    assert ssi.is_literal(np.int64(3)) and ssi.as_scalar(np.array([7])) == 7


def test_works_without_sympy():
    code = (
        "import sys; sys.modules['sympy'] = None\n"
        "import onnx\nfrom onnx import helper, TensorProto as T\n"
        "from onnx_infer import symbolic_shape_infer as ssi\n"
        "assert ssi.sympy is None\n"
        "assert ssi.sympy_reduce_product([2, 3]) == 6\n"
        "g = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g',\n"
        "    [helper.make_tensor_value_info('x', T.FLOAT, ['N'])],\n"
        "    [helper.make_tensor_value_info('y', T.FLOAT, None)])\n"
        "out = ssi.SymbolicShapeInference.infer_shapes(helper.make_model(g))\n"
        "assert out.graph.value_info[0].type.tensor_type.shape.dim[0].dim_param == 'N'\n"
        "print('ok')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_an_output_of_unknown_rank_is_returned_with_its_element_type(caplog):
    # Reshape to a shape of unknown length: float of unknown rank, not an unknown operator.
    model = _model([helper.make_node("Reshape", ["x", "s"], ["y"])],
                   [_vi("x", FLOAT, ["N", 4]), _vi("s", INT64, None)], [_vi("y", FLOAT, None)])
    with caplog.at_level(logging.WARNING, logger="onnx_infer.symbolic_shape_infer"):
        out = SymbolicShapeInference.infer_shapes(model)
    y = _by_name(out.graph.value_info)["y"]
    assert y.type.tensor_type.elem_type == FLOAT and not y.type.tensor_type.HasField("shape")
    assert "no rank for y" in caplog.text
    inference = SymbolicShapeInference(2**31 - 1, False, False, 0)
    inference._preprocess(model)
    assert inference._infer_impl() is False  # not all shapes inferred, in onnxruntime's sense


def test_symbolic_dims_are_sympy_expressions_of_the_models_symbols():
    sympy = pytest.importorskip("sympy")
    model = _model([helper.make_node("Concat", ["x", "y"], ["z"], axis=0)],
                   [_vi("x", FLOAT, ["N", 3]), _vi("y", FLOAT, ["M", 3])], [_vi("z", FLOAT, None)])
    inference = SymbolicShapeInference(2**31 - 1, False, False, 0)
    inference._preprocess(model)
    assert inference._infer_impl() is True
    n, m = inference.symbolic_dims_["N"], inference.symbolic_dims_["M"]
    assert isinstance(n, sympy.Symbol) and n.is_positive  # graph input symbols: positive
    assert inference.symbolic_dims_["M + N"] == m + n  # not sympy's N() function


def test_a_cycle_raises_as_onnxruntime_does():
    model = _model([helper.make_node("Add", ["x", "b"], ["a"]), helper.make_node("Relu", ["a"], ["b"])],
                   [_vi("x", FLOAT, ["N"])], [_vi("b", FLOAT, None)])
    with pytest.raises(Exception, match="^Invalid model with cyclic graph$"):
        SymbolicShapeInference.infer_shapes(model)


def test_command_line_writes_the_annotated_model(tmp_path):
    src, dst = tmp_path / "in.onnx", tmp_path / "out.onnx"
    onnx.save(_model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", FLOAT, ["N", 2])],
                     [_vi("y", FLOAT, None)]), str(src))
    assert ssi.main(["--input", str(src), "--output", str(dst), "--auto_merge"]) == 0
    out = onnx.load(str(dst))
    assert _dims(out.graph.value_info[0]) == ["N", 2] and _dims(out.graph.output[0]) == ["N", 2]
    old = tmp_path / "old.onnx"
    onnx.save(_model([], [_vi("x", FLOAT, [1])], [_vi("x", FLOAT, [1])], opsets=(("", 6),)), str(old))
    assert ssi.main(["--input", str(old)]) == 1
