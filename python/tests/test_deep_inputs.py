"""Issue 27: input nested without bound (text models' textproto escapes, custom-schema type
strings and JSON, binary models' types) gives the documented ValueError, never a crash of
the Python process. Each dangerous call runs in a child process: before the nesting limit
(docs/limits.md) it died of SIGSEGV, which would take pytest with it."""

import os
import subprocess
import sys
import textwrap

import pytest

import onnx_infer

# Where the tests import onnx_infer from (the installed package, or PYTHONPATH): the children
# import the same one, not the checkout's sources, which have no built _core.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(onnx_infer.__file__)))

LIMIT = "(the nesting limit, docs/limits.md)"


def run_child(code: str, tmp_path) -> str:
    """Runs `code` in a fresh interpreter with onnx_infer importable; returns its stdout after
    checking that it exited normally."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (
        f"the child exited with {proc.returncode} (a negative code is a signal)\n"
        f"{proc.stderr[-2000:]}")
    return proc.stdout


def nest(open_: str, inner: str, close: str, depth: int) -> str:
    return open_ * depth + inner + close * depth


def deep_type_text(levels: int) -> str:
    return ("type { " + "sequence_type { elem_type { " * levels + "tensor_type { elem_type: 1 }" +
            " } }" * levels + " }")


def expect_value_error(call: str, tmp_path) -> str:
    """The message of the ValueError `call` raises in a child process."""
    out = run_child(f"""
        import onnx_infer
        try:
            {call}
        except ValueError as e:
            print("ValueError:", str(e)[:500])
        else:
            print("no error")
        """, tmp_path)
    assert out.startswith("ValueError:"), out
    return out


HEADER = '<ir_version: 8, opset_import: ["" : 17]>\n'
RELU = HEADER + "main (float[N] x) => (y) {\n  y = Relu(x)\n}\n"


def test_text_model_with_deep_value_info_textproto(tmp_path):
    (tmp_path / "deep.onnxtxt").write_text(
        HEADER + 'main (float[N] x) => (y <textproto: "' + deep_type_text(20000) +
        '">) {\n  y = Identity (x)\n}\n')
    out = expect_value_error("onnx_infer.infer('deep.onnxtxt')", tmp_path)
    assert "protobuf text nested deeper than 400 messages " + LIMIT in out


def test_text_model_with_deep_graphs_in_model_textproto(tmp_path):
    graphs = 'node { op_type: \\"If\\" attribute { name: \\"b\\" type: GRAPH g { ' * 5000
    (tmp_path / "deep.onnxtxt").write_text(
        '<ir_version: 8, textproto: "graph { ' + graphs + '">\nmain () => () {}\n')
    out = expect_value_error("onnx_infer.infer('deep.onnxtxt')", tmp_path)
    assert "protobuf text nested deeper than 400 messages " + LIMIT in out


def test_text_model_with_deep_syntax_types(tmp_path):
    (tmp_path / "deep.onnxtxt").write_text(
        HEADER + "main (" + nest("seq(", "float", ")", 20000) + " x) => (y) {\n"
        "  y = Identity (x)\n}\n")
    out = expect_value_error("onnx_infer.infer('deep.onnxtxt')", tmp_path)
    assert "nesting deeper than 128 levels" in out


def schema_document(input_type: str, allowed: str) -> str:
    return ('{"domain": "deep.ops", "operators": [{"name": "Deep", "since_version": 1, '
            '"inputs": [{"name": "X", "type": "' + input_type + '"}], '
            '"outputs": [{"name": "Y", "type": "T"}], '
            '"type_constraints": [{"type_param": "T", "allowed": ["' + allowed + '"]}]}]}')


TOO_DEEP = "nested too deeply: more than 128 levels " + LIMIT


@pytest.mark.parametrize("open_,inner", [("seq(", "tensor(float)"), ("map(int64, ", "float")])
def test_register_schemas_with_deep_allowed_type(tmp_path, open_, inner):
    (tmp_path / "deep.json").write_text(schema_document("T", nest(open_, inner, ")", 20000)))
    out = expect_value_error("onnx_infer.register_schemas('deep.json')", tmp_path)
    assert TOO_DEEP in out


def test_infer_with_schemas_with_deep_input_type(tmp_path):
    (tmp_path / "deep.json").write_text(
        schema_document(nest("optional(", "tensor(float)", ")", 20000), "tensor(float)"))
    (tmp_path / "relu.onnxtxt").write_text(RELU)
    out = expect_value_error("onnx_infer.infer('relu.onnxtxt', schemas=['deep.json'])", tmp_path)
    assert TOO_DEEP in out


def test_register_op_with_deep_type_constraint(tmp_path):
    deep = nest("seq(", "tensor(float)", ")", 20000)
    out = expect_value_error(
        "onnx_infer.register_op('deep.ops', 'Deep', lambda types, attrs: [], "
        "inputs=[{'name': 'X', 'type': 'T'}], outputs=[{'name': 'Y', 'type': 'T'}], "
        f"type_constraints=[{{'type_param': 'T', 'allowed': ['{deep}']}}])", tmp_path)
    assert TOO_DEEP in out


def test_register_schemas_with_deep_json(tmp_path):
    text = ('{"domain": "deep.ops", "operators": [{"name": "Deep", "inputs": ' +
            nest("[", "", "]", 100000) + "}]}")
    (tmp_path / "deep.json").write_text(text)
    out = expect_value_error("onnx_infer.register_schemas(open('deep.json').read())", tmp_path)
    assert "arrays and objects nested deeper than 128 levels " + LIMIT in out


# A binary model encoded by hand (no onnx package needed): main (x: seq^levels(float)) => (y),
# y = Identity(x).
def varint(n: int) -> bytes:
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def field(number: int, payload: bytes) -> bytes:
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def deep_binary_model(levels: int) -> bytes:
    t = field(1, varint(1 << 3) + varint(1))  # TypeProto.tensor_type { elem_type: FLOAT }
    for _ in range(levels):
        t = field(4, field(1, t))  # TypeProto.sequence_type { elem_type: t }
    graph = (field(1, field(1, b"x") + field(2, b"y") + field(4, b"Identity")) +
             field(2, b"main") + field(11, field(1, b"x") + field(2, t)) + field(12, field(1, b"y")))
    opset = varint(2 << 3) + varint(17)
    return varint(1 << 3) + varint(8) + field(8, opset) + field(7, graph)


def test_binary_model_with_types_just_inside_the_protobuf_limit(tmp_path):
    # 190 levels: 384 messages deep, inside protobuf's limit of 400; every walker over the
    # type (conversion, inference, printing, the result's ValueType) gets through it.
    (tmp_path / "deep.onnx").write_bytes(deep_binary_model(190))
    out = run_child("""
        import onnx_infer
        r = onnx_infer.infer('deep.onnx')
        t, depth = r.values['main']['x'], 0
        while t.kind == 'sequence':
            t, depth = t.element, depth + 1
        # Identity takes no sequence of sequences: the error prints the whole type.
        print(depth, t.kind, t.elem_type_name, any('seq(' * 190 + 'float' in d.message for d in r.errors))
        """, tmp_path)
    assert out.split() == ["190", "tensor", "float", "True"]


def test_binary_model_with_deep_types(tmp_path):
    (tmp_path / "deep.onnx").write_bytes(deep_binary_model(20000))
    out = expect_value_error("onnx_infer.infer('deep.onnx')", tmp_path)
    assert "nested too deeply" in out
