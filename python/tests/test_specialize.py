"""infer()'s specialization (bind, input_shapes, input_values), stable names for anonymous
input dims, and memory estimates (result.memory)."""
import pathlib

import pytest

import onnx_infer

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = ROOT / "testdata" / "cli" / "specialize.onnxtxt"  # x[B, S, 64], sr, z[?, 4] -> If, Relu

onnx = pytest.importorskip("onnx")
helper = onnx.helper
FLOAT, INT64 = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


def _str(t):
    return None if t is None else str(t)


def test_an_input_value_decides_the_if():
    # The branches differ in rank: without sr's value y's rank is unknown.
    assert onnx_infer.infer(str(SPEC)).type_of("y").shape is None
    taken = onnx_infer.infer(str(SPEC), input_values={"sr": 16000})
    assert taken.type_of("y").shape == ("B", "S", 8, 8)
    other = onnx_infer.infer(str(SPEC), input_values={"sr": 8000})
    assert other.type_of("y").shape == ("B", "S", 64)


def test_bind_and_input_shapes_make_dims_concrete():
    result = onnx_infer.infer(str(SPEC), input_values={"sr": 16000}, bind={"B": 2, "S": 16},
                              input_shapes={"z": (3, 4)})
    assert result.type_of("y").shape == (2, 16, 8, 8)
    assert result.type_of("r").shape == (3, 4)
    assert result.type_of("x").shape == (2, 16, 64)
    assert "B == 2 (bind)" in result.facts
    # None is an unknown dim, which is then named after the input and axis.
    named = onnx_infer.infer(str(SPEC), input_shapes={"z": ("N", None)})
    assert named.type_of("r").shape == ("N", "z_d1")


def test_input_values_of_every_form():
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"]),
             helper.make_node("Pad", ["x", "pads"], ["p"]),
             helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)]
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x", FLOAT, ["B", 12]),
         helper.make_tensor_value_info("shape", INT64, [3]),
         helper.make_tensor_value_info("pads", INT64, [4]),
         helper.make_tensor_value_info("k", INT64, [1])],
        [helper.make_tensor_value_info(n, FLOAT, None) for n in ("y", "p", "v")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    np = pytest.importorskip("numpy")
    result = onnx_infer.infer(model, input_values={
        "shape": [0, 3, -1],                                     # a list: fitted to int64[3]
        "pads": np.array([0, 1, 0, 2], dtype=np.int64),          # an array brings its shape
        "k": helper.make_tensor("k", INT64, [1], [5]),           # an onnx.TensorProto too
    })
    assert not result.errors, result.diagnostics
    assert result.type_of("y").shape == ("B", 3, 4)
    assert result.type_of("p").shape == ("B", 15)
    assert result.type_of("v").shape == ("B", 5)
    # The annotated model keeps the specialized declarations.
    assert result.model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "B"


def test_options_that_do_not_fit_raise_value_error():
    with pytest.raises(ValueError, match="input value for 'q': the model has no graph input 'q'"):
        onnx_infer.infer(str(SPEC), input_values={"q": 1})
    with pytest.raises(ValueError, match="the input is a scalar but 2 elements are given"):
        onnx_infer.infer(str(SPEC), input_values={"sr": [1, 2]})
    with pytest.raises(ValueError, match="input shape for 'w': the model has no graph input"):
        onnx_infer.infer(str(SPEC), input_shapes={"w": (1,)})
    with pytest.raises(TypeError):
        onnx_infer.infer(str(SPEC), input_values={"sr": "16000"})
    with pytest.raises(TypeError):
        onnx_infer.infer(str(SPEC), input_shapes={"z": (1.5, 4)})
    # A binding of a symbol the model does not have is only a warning.
    result = onnx_infer.infer(str(SPEC), bind={"Q": 1})
    assert [d.message for d in result.diagnostics] == [
        "bind Q=1: the model has no symbol 'Q'"]


def test_anonymous_input_dims_are_named_with_their_origin():
    result = onnx_infer.infer(str(SPEC))
    assert result.type_of("r").shape == ("z_d0", 4)
    symbol = next(s for s in result.symbols if s.name == "z_d0")
    assert not symbol.declared
    assert symbol.origin == "input 'z' dim 0 of graph 'main', which the model leaves unnamed"


def test_memory_estimate():
    assert onnx_infer.infer(str(SPEC)).memory is None
    result = onnx_infer.infer(str(SPEC), memory=True, input_values={"sr": 16000})
    memory = result.memory
    assert memory.values["main"]["x"] == "256*B*S"
    assert memory.values["main/If_2.then_branch"]["t"] == "256*B*S"
    assert memory.weight_bytes == 40 and memory.weights == 2
    assert [s.op_type for s in memory.steps] == ["Constant", "Equal", "If", "Relu"]
    # Any of B, S and z_d0 may be 0, so which step is largest is not decided.
    assert not memory.peak_decided
    assert memory.peak_nodes == [1, 2, 3]
    assert memory.peak_bytes.startswith("Max(")
    bound = onnx_infer.infer(str(SPEC), memory=True, input_values={"sr": 16000},
                             bind={"B": 2, "S": 16}, input_shapes={"z": (3, 4)}).memory
    assert bound.peak_decided
    assert bound.peak_bytes == 16433
    assert bound.peak_nodes == [2]
    assert bound.steps[2].live_bytes == 16433
    assert bound.activations_of_unknown_size == 0


def test_options_contradicting_the_model_write_nothing(tmp_path):
    # The model forces total_sequence_length == past + seq == 7; binding it to 9 is the
    # options' contradiction: an error, and output_path is not written (as the command).
    model = tmp_path / "kv.onnxtxt"
    model.write_text(
        '<ir_version: 8, opset_import: ["" : 17]>\n'
        "main (float[1, 4, past, 8] past_key, float[1, 4, seq, 8] key)"
        " => (float[1, 4, total_sequence_length, 8] present) {\n"
        "  present = Concat <axis = 2> (past_key, key)\n}\n")
    out = tmp_path / "out.onnx"
    result = onnx_infer.infer(str(model), bind={"past": 3, "seq": 4, "total_sequence_length": 9},
                              output_path=str(out))
    assert [d.kind for d in result.errors] == ["option-contradiction"]
    assert not out.exists()
    fine = onnx_infer.infer(str(model), bind={"past": 3, "seq": 4}, output_path=str(out))
    assert not fine.errors and out.exists()
