"""Hostile inputs to the Python API (issue 27): paths with an embedded NUL, model text that is
not UTF-8, and running out of memory. Models are encoded by hand (no onnx package), so they
can hold bytes no protobuf library would write; calls that could kill the interpreter run in a
subprocess."""
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import onnx_infer

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEMO = ROOT / "testdata" / "demo" / "attention_block.onnx"


# ---- Protobuf by hand (field numbers of onnx.proto).

def _varint(n):
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _ld(field, payload):  # a length-delimited field
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _int(field, value):
    return _varint(field << 3) + _varint(value)


def _node(op, inputs, outputs, name=b""):
    return (b"".join(_ld(1, i) for i in inputs) + b"".join(_ld(2, o) for o in outputs) +
            (_ld(3, name) if name else b"") + _ld(4, op))


def _tensor_value(name, dims):  # float tensor; dims: int or bytes (a dim_param)
    shape = b"".join(_ld(1, _int(1, d) if isinstance(d, int) else _ld(2, d)) for d in dims)
    return _ld(1, name) + _ld(2, _ld(1, _int(1, 1) + _ld(2, shape)))


def _model(nodes, inputs, outputs):
    graph = (b"".join(_ld(1, n) for n in nodes) + _ld(2, b"g") +
             b"".join(_ld(11, i) for i in inputs) + b"".join(_ld(12, o) for o in outputs))
    return _int(1, 8) + _ld(7, graph) + _ld(8, _int(2, 17))


# Names and dim_params that are not UTF-8: a MatMul of a[N\xff, K\xfe] and b[M, 3] (the fact
# K\xfe == M, the output y[N\xff, 3]), and an Add of an input nobody defines (an error that
# quotes its name).
NOT_UTF8 = _model(
    nodes=[_node(b"MatMul", [b"a\xff", b"b"], [b"y\xfe"], name=b"mm\xc3"),
           _node(b"Add", [b"y\xfe", b"missing\xff"], [b"z"])],
    inputs=[_tensor_value(b"a\xff", [b"N\xff", b"K\xfe"]), _tensor_value(b"b", [b"M", 3])],
    outputs=[_tensor_value(b"z", [])],
)


# ---- Paths with an embedded NUL: the C string would end there, naming another file.

@pytest.fixture
def model_dir(tmp_path):
    (tmp_path / "m.onnx").write_bytes(DEMO.read_bytes())
    (tmp_path / "victim").write_bytes(b"precious")
    return tmp_path


def test_nul_in_output_path_of_infer_shapes_path(model_dir):
    with pytest.raises(ValueError, match="embedded null byte"):
        onnx_infer.infer_shapes_path(str(model_dir / "m.onnx"), str(model_dir / "victim\0.onnx"))
    assert (model_dir / "victim").read_bytes() == b"precious"


def test_nul_in_model_path_of_infer_shapes_path(model_dir):
    # Without an output path the model path is also the output: cut at the NUL, it would
    # read and then overwrite `victim`.
    with pytest.raises(ValueError, match="embedded null byte"):
        onnx_infer.infer_shapes_path(str(model_dir / "victim\0.onnx"))
    assert (model_dir / "victim").read_bytes() == b"precious"


def test_nul_in_paths_of_infer(model_dir):
    with pytest.raises(ValueError, match="embedded null byte"):
        onnx_infer.infer(str(model_dir / "m.onnx"), output_path=str(model_dir / "victim\0.x"))
    with pytest.raises(ValueError, match="embedded null byte"):
        onnx_infer.infer(pathlib.Path(str(model_dir / "victim\0.onnx")))
    assert (model_dir / "victim").read_bytes() == b"precious"


def test_nul_in_schema_paths(model_dir):
    path = str(model_dir / "victim\0.json")
    with pytest.raises(ValueError, match="null byte"):
        onnx_infer.register_schemas(path)
    with pytest.raises(ValueError, match="null byte"):
        onnx_infer.infer(DEMO.read_bytes(), schemas=[path])
    with pytest.raises(ValueError, match="null byte"):
        onnx_infer.infer(DEMO.read_bytes(), schemas=[pathlib.Path(path)])


# ---- Model text that is not UTF-8 crosses as U+FFFD, as in the CLI's JSON report.

def test_names_not_utf8_are_replaced_in_results():
    result = onnx_infer.infer(NOT_UTF8)
    types = result.values["main"]
    assert "y\ufffd" in types, types
    assert "N\ufffd" in str(types["y\ufffd"])
    symbols = [s.name for s in result.symbols]
    assert "N\ufffd" in symbols and "K\ufffd" in symbols, symbols
    assert any("K\ufffd" in f for f in result.facts), result.facts
    messages = [d.message for d in result.errors]
    assert any("missing\ufffd" in m for m in messages), messages
    rendered = [d.render("m.onnx") for d in result.errors] + [str(d) for d in result.errors]
    assert all("\ufffd" in r for r in rendered), rendered
    assert [d.node_name for d in result.errors] and all(
        isinstance(d.graph, str) and isinstance(d.op, str) and isinstance(d.subject_name, str)
        for d in result.diagnostics)


def test_names_not_utf8_in_the_drop_in_raise_inference_error():
    with pytest.raises(onnx_infer.InferenceError) as raised:
        onnx_infer.infer_shapes(NOT_UTF8, strict_mode=True)
    assert "\ufffd" in str(raised.value)


def test_names_not_utf8_in_a_file_and_a_value_error(tmp_path):
    path = tmp_path / "m.onnx"
    path.write_bytes(NOT_UTF8)
    result = onnx_infer.infer(str(path), output_path=str(tmp_path / "out.onnx"))
    assert any("missing\ufffd" in d.message for d in result.errors)
    # A ValueError whose message quotes the model: a specialization option that does not fit.
    with pytest.raises(ValueError) as raised:
        onnx_infer.infer(NOT_UTF8, input_values={"b": [1, 2, 3, 4, 5, 6, 7]})
    assert isinstance(str(raised.value), str)


def test_names_not_utf8_reach_a_python_rule():
    seen = {}

    def rule(input_types, attributes):
        seen.update(attributes)
        return [input_types[0]]

    onnx_infer.register_op("my.ops", "Odd", rule)
    try:
        attribute = _ld(1, b"k\xff") + _ld(4, b"v\xfe") + _int(20, 3)  # STRING attribute
        node = _node(b"Odd", [b"x"], [b"y"]) + _ld(7, b"my.ops") + _ld(5, attribute)
        graph = (_ld(1, node) + _ld(2, b"g") + _ld(11, _tensor_value(b"x", [2])) +
                 _ld(12, _tensor_value(b"y", [2])))
        model = _int(1, 8) + _ld(7, graph) + _ld(8, _int(2, 17)) + _ld(8, _ld(1, b"my.ops") +
                                                                        _int(2, 1))
        result = onnx_infer.infer(model)
        assert not result.errors, [d.message for d in result.errors]
        assert "k\ufffd" in seen and seen["k\ufffd"] == b"v\xfe", seen
    finally:
        onnx_infer.reset_schemas()


# ---- Out of memory: MemoryError, not an abort; nothing written.

_OOM_SCRIPT = textwrap.dedent("""
    import resource, sys
    sys.path.insert(0, sys.argv[1])
    import onnx_infer
    from test_hostile_inputs import chain_model
    big = chain_model(1_000_000)
    out = sys.argv[2]
    with open(out + ".model", "wb") as f:
        f.write(big)
    limit = int(sys.argv[3])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for call in ("bytes", "path"):
        try:
            if call == "bytes":
                onnx_infer.infer(big)
            else:
                onnx_infer.infer_shapes_path(out + ".model", out)
            print(call, "no error")
        except MemoryError:
            print(call, "MemoryError")
""")


def chain_model(n):
    """Relu after Relu, n nodes: a small file that takes far more memory to infer."""
    names = [b"t%d" % i for i in range(n + 1)]
    relu = _ld(4, b"Relu")
    nodes = b"".join(_ld(1, _ld(1, names[i]) + _ld(2, names[i + 1]) + relu) for i in range(n))
    graph = (nodes + _ld(2, b"g") + _ld(11, _tensor_value(b"t0", [b"N"])) +
             _ld(12, _tensor_value(names[-1], [])))
    return _int(1, 8) + _ld(7, graph) + _ld(8, _int(2, 17))


def test_out_of_memory_is_memory_error(tmp_path):
    out = tmp_path / "out.onnx"
    out.write_bytes(b"old output")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(pathlib.Path(onnx_infer.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, "-c", _OOM_SCRIPT, str(pathlib.Path(__file__).parent), str(out),
         str(400 << 20)],
        capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, (run.returncode, run.stdout, run.stderr)
    assert "bytes MemoryError" in run.stdout, run.stdout
    assert "path MemoryError" in run.stdout, run.stdout
    assert "terminate" not in run.stderr
    assert out.read_bytes() == b"old output"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".infer-shapes-tmp")]
