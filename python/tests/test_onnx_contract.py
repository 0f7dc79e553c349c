"""onnx.shape_inference's contract, kept by the drop-in (issue 26): the exception types, the
check_type and default-mode behaviour, initializers that are also graph inputs, and a lazy
import of onnx."""

import os
import subprocess
import sys

import pytest

import onnx_infer

onnx = pytest.importorskip("onnx")
helper = onnx.helper
TP = onnx.TensorProto


def _dims(value_info):
    return [d.dim_param if d.HasField("dim_param") else d.dim_value
            for d in value_info.type.tensor_type.shape.dim]


def _model(nodes, inputs, outputs, initializer=(), value_info=(), opset=17, ir_version=8):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializer),
                              value_info=list(value_info))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=ir_version)


def _reshape_with_initializer_input():
    """x: float[6]; shape: int64[2] listed as a graph input with the initializer {2, 3}."""
    return _model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="r")],
        [helper.make_tensor_value_info("x", TP.FLOAT, [6]),
         helper.make_tensor_value_info("shape", TP.INT64, [2])],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)],
        initializer=[helper.make_tensor("shape", TP.INT64, [2], [2, 3])])


def test_inference_error_is_onnxs():
    assert issubclass(onnx_infer.InferenceError, onnx.shape_inference.InferenceError)
    assert onnx_infer.InferenceError is onnx_infer.InferenceError  # made once
    model = _model([helper.make_node("MatMul", ["a", "b"], ["c"], name="mm")],
                   [helper.make_tensor_value_info("a", TP.FLOAT, [2, 3]),
                    helper.make_tensor_value_info("b", TP.FLOAT, [4, 5])],
                   [helper.make_tensor_value_info("c", TP.FLOAT, None)])
    with pytest.raises(onnx.shape_inference.InferenceError) as info:
        onnx_infer.infer_shapes(model, strict_mode=True)
    assert any(d.node_name == "mm" for d in info.value.diagnostics)


def test_import_does_not_import_onnx(tmp_path):
    code = "import sys, onnx_infer; print('onnx' in sys.modules)"
    # From where the tests import onnx_infer (the installed package, or PYTHONPATH).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(onnx_infer.__file__))] +
        [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tmp_path, env=env)
    assert out.stdout.strip() == "False"


def test_bytes_in_modelproto_out_with_the_same_annotations():
    model = _reshape_with_initializer_input()
    from_bytes = onnx_infer.infer_shapes(model.SerializeToString())
    assert isinstance(from_bytes, onnx.ModelProto)
    assert from_bytes == onnx_infer.infer_shapes(model)


def test_an_initializer_that_is_an_input_is_used_by_default():
    """onnx and onnxruntime use the initializer's value; so do we, and say so."""
    model = _reshape_with_initializer_input()
    (y,) = onnx_infer.infer_shapes(model).graph.output
    assert _dims(y) == [2, 3]
    result = onnx_infer.infer(model)
    conditions = [c for c in result.conditions if "'shape'" in c]
    assert len(conditions) == 1
    assert "keeps its initializer's value" in conditions[0]
    assert "node 'r' (Reshape)" in conditions[0]


def test_overridable_initializers_take_the_strict_reading():
    model = _reshape_with_initializer_input()
    (y,) = onnx_infer.infer_shapes(model, overridable_initializers=True).graph.output
    dims = y.type.tensor_type.shape.dim
    assert len(dims) == 2  # the rank, from the shape's length
    assert not any(d.HasField("dim_value") for d in dims)
    result = onnx_infer.infer(model, overridable_initializers=True)
    assert not [c for c in result.conditions if "initializer" in c]


def test_a_value_given_for_the_input_wins_over_its_initializer():
    model = _reshape_with_initializer_input()
    result = onnx_infer.infer(model, input_values={"shape": [3, 2]})
    assert result.type_of("y").shape == (3, 2)
    assert not [c for c in result.conditions if "initializer" in c]


def _greater_of_bools():
    return _model([helper.make_node("Greater", ["a", "b"], ["c"], name="gt")],
                  [helper.make_tensor_value_info("a", TP.BOOL, [2, 3]),
                   helper.make_tensor_value_info("b", TP.BOOL, [2, 3])],
                  [helper.make_tensor_value_info("c", TP.BOOL, None)])


def test_check_type_false_does_not_reject_a_type_constraint_violation():
    """Greater-13's T is numeric: bool inputs violate it. onnx checks that only with
    check_type=True; so do we (our own infer() still reports it, as a warning here)."""
    model = _greater_of_bools()
    (c,) = onnx_infer.infer_shapes(model, strict_mode=True).graph.output  # no raise
    assert _dims(c) == [2, 3]
    with pytest.raises(onnx.shape_inference.InferenceError, match="not allowed for T"):
        onnx_infer.infer_shapes(model, check_type=True, strict_mode=True)
    unchecked = onnx_infer.infer(model, check_types=False)
    # Both inputs are bool: one finding each.
    assert [d.severity for d in unchecked.diagnostics if d.kind == "type-constraint"] == \
        ["warning", "warning"]
    checked = onnx_infer.infer(model)
    assert [d.severity for d in checked.diagnostics if d.kind == "type-constraint"] == \
        ["error", "error"]


def _relu_declared(dims):
    return _model([helper.make_node("Relu", ["x"], ["t"], name="relu")],
                  [helper.make_tensor_value_info("x", TP.FLOAT, ["N", 8])],
                  [helper.make_tensor_value_info("t", TP.FLOAT, dims)])


def test_the_default_mode_raises_on_a_contradicted_declaration(tmp_path):
    """onnx raises in every mode when an inferred type contradicts the declared one."""
    model = _relu_declared(["N", 30])
    with pytest.raises(onnx.shape_inference.InferenceError, match="contradicts the declared"):
        onnx_infer.infer_shapes(model)
    # Nothing is written by infer_shapes_path when it raises.
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    before = path.read_bytes()
    with pytest.raises(onnx.shape_inference.InferenceError):
        onnx_infer.infer_shapes_path(str(path))
    assert path.read_bytes() == before
    out = tmp_path / "out.onnx"
    with pytest.raises(onnx.shape_inference.InferenceError):
        onnx_infer.infer_shapes_path(str(path), str(out))
    assert not out.exists()
    # A declaration that agrees, or is less precise, raises nothing.
    onnx_infer.infer_shapes(_relu_declared(["N", 8]))
    onnx_infer.infer_shapes(_relu_declared([None, 8]))


def test_infer_node_outputs_raises_onnxs_exception_types():
    from onnx.checker import ValidationError
    schema = onnx.defs.get_schema("Add", 14)

    def types(**dims):
        return {k: helper.make_tensor_type_proto(e, s) for k, (e, s) in dims.items()}

    node = helper.make_node("Add", ["A", "B"], ["C"])
    out = onnx_infer.infer_node_outputs(schema, node, types(A=(TP.FLOAT, (3, 4)),
                                                            B=(TP.FLOAT, (1, 4))))
    assert out["C"] == helper.make_tensor_type_proto(TP.FLOAT, (3, 4))
    with pytest.raises(ValidationError):  # one input of two
        onnx_infer.infer_node_outputs(schema, helper.make_node("Add", ["A"], ["C"]),
                                      types(A=(TP.FLOAT, (3, 4))))
    with pytest.raises(ValidationError):  # T bound to float and uint8
        onnx_infer.infer_node_outputs(schema, node, types(A=(TP.FLOAT, (3, 4)),
                                                          B=(TP.UINT8, (3, 4))))
    with pytest.raises(onnx.shape_inference.InferenceError):  # 2 and 3 do not broadcast
        onnx_infer.infer_node_outputs(schema, node, types(A=(TP.FLOAT, (2, 4)),
                                                          B=(TP.FLOAT, (3, 4))))
    with pytest.raises(KeyError):  # B has no type
        onnx_infer.infer_node_outputs(schema, node, types(A=(TP.FLOAT, (3, 4))))
    # An omitted optional input needs no entry.
    clip = helper.make_node("Clip", ["X", "", "max"], ["Y"])
    out = onnx_infer.infer_node_outputs(onnx.defs.get_schema("Clip", 13), clip,
                                        types(X=(TP.FLOAT, (3, 4)), max=(TP.FLOAT, ())))
    assert out["Y"] == helper.make_tensor_type_proto(TP.FLOAT, (3, 4))


def test_contrib_operators_without_their_domain_import():
    """onnxruntime runs com.microsoft operators the model does not import; so do we, with a
    warning."""
    graph = helper.make_graph(
        [helper.make_node("FastGelu", ["x"], ["y"], domain="com.microsoft", name="g")], "g",
        [helper.make_tensor_value_info("x", TP.FLOAT, ["B", 8])],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    result = onnx_infer.infer(model)
    assert not result.errors
    assert result.type_of("y").shape == ("B", 8)
    assert [d for d in result.diagnostics if d.severity == "warning"
            and "com.microsoft" in d.message and "onnxruntime" in d.message]


def test_a_model_too_large_for_one_message_names_the_way_out():
    """Past 2 GiB, protobuf cannot serialize a message: the error says to save the weights as
    external data and call infer_shapes_path (a stand-in model: 2 GiB would not fit a test)."""
    class Huge:
        def SerializeToString(self):
            raise ValueError("Message onnx.ModelProto exceeds maximum protobuf size of 2GB")

        def ByteSize(self):
            return 3 * 2**30

    with pytest.raises(ValueError, match="infer_shapes_path"):
        onnx_infer._serialize_model(Huge())

    class Broken(Huge):
        def ByteSize(self):
            return 100

    with pytest.raises(ValueError, match="exceeds"):  # another failure is not renamed
        onnx_infer._serialize_model(Broken())


def _add_one_function():
    """local.addone<alpha>(x, y) => (z = x + y + 1, w = Cast<to = @alpha>(x))."""
    nodes = [helper.make_node("Constant", [], ["one"], value_float=1.0),
             helper.make_node("Add", ["x", "y"], ["s"]),
             helper.make_node("Add", ["s", "one"], ["z"])]
    cast = helper.make_node("Cast", ["x"], ["w"])
    cast.attribute.append(onnx.AttributeProto(name="to", ref_attr_name="alpha",
                                              type=onnx.AttributeProto.INT))
    nodes.append(cast)
    return helper.make_function("local", "addone", ["x", "y"], ["z", "w"], nodes,
                                [helper.make_opsetid("", 17)], attributes=["alpha"])


def test_infer_function_output_types():
    f = _add_one_function()
    alpha = [helper.make_attribute("alpha", TP.INT64)]
    z, w = onnx_infer.infer_function_output_types(
        f, [helper.make_tensor_type_proto(TP.FLOAT, ["N", 3]),
            helper.make_tensor_type_proto(TP.FLOAT, [1, 3])], alpha)
    assert z == helper.make_tensor_type_proto(TP.FLOAT, ["N", 3])
    assert w == helper.make_tensor_type_proto(TP.INT64, ["N", 3])  # the attribute bound
    # An unknown input type: what depends on it is unknown, the rest is inferred.
    z, w = onnx_infer.infer_function_output_types(
        f, [helper.make_tensor_type_proto(TP.FLOAT, ["N", 3]), onnx.TypeProto()], alpha)
    assert not z.tensor_type.HasField("shape")
    assert w == helper.make_tensor_type_proto(TP.INT64, ["N", 3])
    with pytest.raises(onnx.shape_inference.InferenceError, match="do not broadcast"):
        onnx_infer.infer_function_output_types(
            f, [helper.make_tensor_type_proto(TP.FLOAT, [2, 3]),
                helper.make_tensor_type_proto(TP.FLOAT, [4, 3])], alpha)
