"""The drop-in API of onnx_infer: the names and behaviour of onnx.shape_inference."""

import os
import pathlib
import shutil

import pytest

import onnx_infer

DEMO = pathlib.Path(__file__).resolve().parents[2] / "testdata" / "demo" / "attention_block.onnx"


def _onnx():
    return pytest.importorskip("onnx")


def _concat_reshape_model(onnx):
    """x: float[N, 3, 4]; y = Concat(x, x, axis=0); z = Reshape(y, [0, -1])."""
    helper = onnx.helper
    shape = helper.make_tensor("shape", onnx.TensorProto.INT64, [2], [0, -1])
    graph = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["y"], axis=0, name="cat"),
         helper.make_node("Reshape", ["y", "shape"], ["z"], name="reshape")],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 3, 4])],
        [helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, None)],
        initializer=[shape])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _dims(value_info):
    return [d.dim_param if d.HasField("dim_param") else d.dim_value
            for d in value_info.type.tensor_type.shape.dim]


def _serialized(model):
    """infer_shapes' result as bytes: a ModelProto when onnx is installed, else bytes."""
    return model if isinstance(model, bytes) else model.SerializeToString()


def _same_model(data, inferred):
    """The file's bytes `data` hold the model infer_shapes returned (compared as messages:
    Python's protobuf need not serialize a message to the bytes the engine wrote)."""
    if isinstance(inferred, bytes):
        return data == inferred
    parsed = type(inferred)()
    parsed.ParseFromString(data)
    return parsed == inferred


def test_bytes_in_modelproto_out():
    """As onnx.shape_inference.infer_shapes: bytes in, a ModelProto out (bytes without onnx)."""
    data = DEMO.read_bytes()
    out = onnx_infer.infer_shapes(data)
    try:
        import onnx
    except ImportError:
        assert isinstance(out, bytes)
    else:
        assert isinstance(out, onnx.ModelProto)
        assert out.graph.value_info  # value_info was added
    assert len(_serialized(out)) > len(data)
    assert _serialized(onnx_infer.infer_shapes(bytearray(data))) == _serialized(out)


def test_modelproto_in_modelproto_out():
    onnx = _onnx()
    model = _concat_reshape_model(onnx)
    before = model.SerializeToString()
    inferred = onnx_infer.infer_shapes(model)
    assert isinstance(inferred, onnx.ModelProto)
    assert model.SerializeToString() == before  # the argument is not modified
    infos = {vi.name: vi for vi in inferred.graph.value_info}
    assert infos["y"].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    assert _dims(infos["y"]) == ["2*N", 3, 4]
    (z,) = inferred.graph.output
    assert _dims(z) == ["2*N", 12]


def test_data_propagation_is_on_even_with_data_prop_false():
    onnx = _onnx()
    helper = onnx.helper
    const = lambda name, vals: helper.make_tensor(name, onnx.TensorProto.INT64, [len(vals)], vals)
    graph = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("Slice", ["s", "zero", "one"], ["n"]),
         helper.make_node("Concat", ["n", "minus_one"], ["shape"], axis=0),
         helper.make_node("Reshape", ["x", "shape"], ["z"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 3, 4])],
        [helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, None)],
        initializer=[const("zero", [0]), const("one", [1]), const("minus_one", [-1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    for data_prop in (False, True):
        (z,) = onnx_infer.infer_shapes(model, data_prop=data_prop).graph.output
        assert _dims(z) == ["N", 12]


def test_matches_onnx_where_onnx_knows():
    onnx = _onnx()
    model = _concat_reshape_model(onnx)
    ours = onnx_infer.infer_shapes(model)
    theirs = onnx.shape_inference.infer_shapes(model)
    ours_types = {vi.name: vi.type.tensor_type for vi in list(ours.graph.value_info) + list(ours.graph.output)}
    for vi in list(theirs.graph.value_info) + list(theirs.graph.output):
        mine = ours_types[vi.name]
        assert mine.elem_type == vi.type.tensor_type.elem_type
        for a, b in zip(mine.shape.dim, vi.type.tensor_type.shape.dim):
            if b.HasField("dim_value"):
                assert a.dim_value == b.dim_value


def test_strict_mode_raises_with_diagnostics():
    onnx = _onnx()
    helper = onnx.helper
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["c"], name="mm")],
        "g",
        [helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, [4, 5])],
        [helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])

    onnx_infer.infer_shapes(model)  # not strict: no exception
    with pytest.raises(onnx_infer.InferenceError) as info:
        onnx_infer.infer_shapes(model, strict_mode=True)
    assert isinstance(info.value, Exception)
    errors = [d for d in info.value.diagnostics if d.severity == "error"]
    assert errors
    d = errors[0]
    assert (d.graph, d.node_index, d.node_name) == ("main", 0, "mm")
    assert d.op.startswith("ai.onnx::MatMul-")
    assert d.message and d.message in str(info.value)
    with pytest.raises(onnx_infer.InferenceError):
        onnx_infer.infer_shapes(model.SerializeToString(), strict_mode=True)


def test_infer_shapes_path(tmp_path):
    out = tmp_path / "inferred.onnx"
    assert onnx_infer.infer_shapes_path(str(DEMO), str(out)) is None
    data = out.read_bytes()
    assert _same_model(data, onnx_infer.infer_shapes(DEMO.read_bytes()))
    try:
        import onnx
    except ImportError:
        return
    model = onnx.load(str(out))
    assert model.graph.value_info


def test_infer_shapes_path_in_place(tmp_path):
    copy = tmp_path / "model.onnx"
    shutil.copyfile(DEMO, copy)
    onnx_infer.infer_shapes_path(copy)  # os.PathLike, no output_path: written back
    assert _same_model(copy.read_bytes(), onnx_infer.infer_shapes(DEMO.read_bytes()))
    assert [p.name for p in tmp_path.iterdir()] == ["model.onnx"]  # no temporary left


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError):
        onnx_infer.infer_shapes("model.onnx")
    with pytest.raises(ValueError):
        onnx_infer.infer_shapes(b"\xff\xff not a model")
    with pytest.raises(ValueError):
        onnx_infer.infer_shapes_path(str(tmp_path / "missing.onnx"))
    onnx = _onnx()
    with pytest.raises(TypeError):
        onnx_infer.infer_shapes_path(onnx.ModelProto())


def test_same_signature_as_onnx():
    onnx = _onnx()
    import inspect
    # ONNX's parameters, in order, with ONNX's defaults; our extensions (max_expanded_nodes)
    # only after them and keyword only, so every call ONNX accepts means the same here.
    for name in ("infer_shapes", "infer_shapes_path"):
        ours = list(inspect.signature(getattr(onnx_infer, name)).parameters.values())
        theirs = list(inspect.signature(getattr(onnx.shape_inference, name)).parameters.values())
        assert [(p.name, p.default) for p in ours[:len(theirs)]] == \
               [(p.name, p.default) for p in theirs]
        extra = ours[len(theirs):]
        assert [p.name for p in extra] == ["max_expanded_nodes", "overridable_initializers"]
        assert all(p.kind == inspect.Parameter.KEYWORD_ONLY for p in extra)
    assert issubclass(onnx_infer.InferenceError, Exception)


def test_the_gil_is_released_while_inferring():
    """Another Python thread runs while a large model is inferred: it wakes every 5 ms, which
    it could not do if inference held the GIL (it would wake once or twice in all)."""
    import threading
    import time
    onnx = _onnx()
    helper = onnx.helper
    n = 100000  # about 0.2 s of inference
    graph = helper.make_graph(
        [helper.make_node("Relu", [f"v{i}"], [f"v{i + 1}"]) for i in range(n)], "chain",
        [helper.make_tensor_value_info("v0", onnx.TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info(f"v{n}", onnx.TensorProto.FLOAT, None)])
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    results = []
    worker = threading.Thread(target=lambda: results.append(onnx_infer.infer_shapes(data)))
    ticks = 0
    worker.start()
    while worker.is_alive():
        time.sleep(0.005)
        ticks += 1
    worker.join()
    assert results and len(_serialized(results[0])) > len(data)
    assert ticks >= 10, f"the main thread woke only {ticks} times during inference"


def test_infer_shapes_path_never_reads_external_weights(tmp_path):
    """A model whose float weights (3 GiB, a sparse file) are external data: annotated without
    reading them, so the run is quick and small whatever the weights' size."""
    onnx = _onnx()
    helper = onnx.helper
    weights = tmp_path / "weights.bin"
    with open(weights, "wb") as f:
        f.truncate(3 * 2**30)  # sparse: takes no disk space
    w = onnx.TensorProto(name="w", data_type=onnx.TensorProto.FLOAT, dims=[3 * 2**28])
    w.data_location = onnx.TensorProto.EXTERNAL
    for key, value in (("location", "weights.bin"), ("offset", "0"),
                       ("length", str(3 * 2**30))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["w", "shape"], ["r"]),
         helper.make_node("MatMul", ["x", "r"], ["y"])],
        "g", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 2**14])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        initializer=[w, helper.make_tensor("shape", onnx.TensorProto.INT64, [2], [2**14, -1])])
    model_path = tmp_path / "model.onnx"
    model_path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    out = tmp_path / "inferred.onnx"
    onnx_infer.infer_shapes_path(model_path, out, strict_mode=True)
    inferred = onnx.load(str(out), load_external_data=False)
    (y,) = inferred.graph.output
    assert _dims(y) == ["N", 3 * 2**14]
    assert inferred.graph.initializer[0].data_location == onnx.TensorProto.EXTERNAL
