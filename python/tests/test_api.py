"""onnx_infer's own API (infer, custom operators), infer_node_outputs, the onnxruntime-compatible
entry, and the limits of in-memory models."""
import json
import pathlib
import subprocess
import sys

import pytest

import onnx_infer
from onnx_infer.symbolic_shape_infer import SymbolicShapeInference

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEMO = ROOT / "testdata" / "demo" / "attention_block.onnx"
IMAGE_OPS = ROOT / "testdata" / "custom_ops" / "image_ops.json"
SHARED = ROOT.parent / "shared"

onnx = pytest.importorskip("onnx")
helper = onnx.helper
FLOAT, INT64 = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


@pytest.fixture(autouse=True)
def _fresh_registry():
    onnx_infer.reset_schemas()
    yield
    onnx_infer.reset_schemas()


def _model(nodes, inputs, outputs, initializer=(), opsets=(("", 17),)):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializer))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])


def _vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def _broadcast_model():
    """z = Add(x[N, 3], y[M, 3]); w = MatMul(z, k[3, 5])."""
    return _model(
        [helper.make_node("Add", ["x", "y"], ["z"], name="add"),
         helper.make_node("MatMul", ["z", "k"], ["w"], name="mm")],
        [_vi("x", FLOAT, ["N", 3]), _vi("y", FLOAT, ["M", 3]), _vi("k", FLOAT, [3, 5])],
        [_vi("w", FLOAT, None)])


def _flip_model(k=2):
    return _model(
        [helper.make_node("Flip", ["x"], ["y"], domain="com.example", k=k),
         helper.make_node("Relu", ["y"], ["z"])],
        [_vi("x", FLOAT, ["N", 3])], [_vi("z", FLOAT, None)],
        opsets=(("", 17), ("com.example", 1)))


# ---- infer()

def test_infer_returns_types_symbols_conditions_and_stats():
    model = _broadcast_model()
    result = onnx_infer.infer(model)
    assert isinstance(result.model, onnx.ModelProto)
    z = result.type_of("z")
    # Exact for every M and N, a 0 meeting a 1 included ([0] + [1] is [0]).
    broadcast = "Min(1, Min(M, N))*Max(M, N)"
    assert str(z) == f"float[{broadcast}, 3]"
    assert (z.kind, z.elem_type, z.elem_type_name) == ("tensor", FLOAT, "float")
    assert z.shape == (broadcast, 3) and z.rank == 2 and z.fully_shaped
    assert list(result.values["main"]) == ["x", "y", "k", "z", "w"]  # inputs, values, outputs
    assert [(s.name, s.declared) for s in result.symbols] == [("N", True), ("M", True)]
    assert result.symbols[0].origin == "input 'x' dim 0 of graph 'main'"
    assert any("N == M or N == 1 or M == 1" in c for c in result.conditions)
    assert result.stats["values"] == 2 and result.stats["shaped"] == 2
    assert result.diagnostics == [] and result.errors == []
    assert "2 values" in repr(result)


def test_infer_bytes_and_path(tmp_path):
    data = DEMO.read_bytes()
    from_bytes = onnx_infer.infer(data)
    assert isinstance(from_bytes.model, bytes)
    out = tmp_path / "out.onnx"
    from_path = onnx_infer.infer(DEMO, output_path=out)
    assert from_path.model is None and out.read_bytes() == from_bytes.model
    assert from_path.values == from_bytes.values
    assert from_path.stats == from_bytes.stats
    with pytest.raises(TypeError):
        onnx_infer.infer(data, output_path=out)
    with pytest.raises(TypeError):
        onnx_infer.infer(42)


def test_infer_facts_and_subgraph_paths():
    then_graph = helper.make_graph([helper.make_node("Identity", ["a"], ["t"])], "then", [],
                                   [_vi("t", FLOAT, None)])
    else_graph = helper.make_graph([helper.make_node("Neg", ["a"], ["e"])], "else", [],
                                   [_vi("e", FLOAT, None)])
    model = _model(
        [helper.make_node("MatMul", ["a", "b"], ["c"], name="mm"),
         helper.make_node("If", ["cond"], ["r"], name="if0", then_branch=then_graph,
                          else_branch=else_graph)],
        [_vi("a", FLOAT, ["N", "K"]), _vi("b", FLOAT, [4, 5]),
         helper.make_tensor_value_info("cond", onnx.TensorProto.BOOL, [])],
        [_vi("c", FLOAT, None), _vi("r", FLOAT, None)])
    result = onnx_infer.infer(model)
    assert str(result.type_of("c")) == "float[N, 5]"
    assert any(f.startswith("K == 4") for f in result.facts), result.facts
    branches = [p for p in result.values if p.startswith("main/")]
    assert sorted(branches) == ["main/If_1.else_branch", "main/If_1.then_branch"]
    assert str(result.type_of("e", "main/If_1.else_branch")) == "float[N, 4]"
    assert str(result.type_of("r")) == "float[N, 4]"


def test_infer_strict_reports_without_raising():
    model = _flip_model()  # no schema for Flip: a warning, an error when strict
    assert onnx_infer.infer(model).errors == []
    result = onnx_infer.infer(model, strict=True)
    assert [d.op for d in result.errors] == ["com.example::Flip"]
    with pytest.raises(onnx_infer.InferenceError):
        result.raise_for_errors()


def test_infer_without_data_propagation():
    model = _model(
        [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Reshape", ["x", "s"], ["y"])],
        [_vi("x", FLOAT, ["N", 3])], [_vi("y", FLOAT, None)])
    assert str(onnx_infer.infer(model).type_of("y")) == "float[N, 3]"
    assert str(onnx_infer.infer(model, data_prop=False).type_of("y")) == "float[?, ?]"


def _slice_model():
    """y = x[:, 1:-1] on x[N, S, 8]; r = Reshape back of x2[B, C] split in halves."""
    ints = lambda name, values: helper.make_tensor(name, INT64, [len(values)], values)
    return _model(
        [helper.make_node("Slice", ["x", "one", "minus_one", "axis"], ["y"], name="trim"),
         helper.make_node("Reshape", ["x2", "halves_shape"], ["halves"], name="split"),
         helper.make_node("Reshape", ["halves", "back_shape"], ["back"], name="merge")],
        [_vi("x", FLOAT, ["N", "S", 8]), _vi("x2", FLOAT, ["B", "C"])],
        [_vi("y", FLOAT, None), _vi("back", FLOAT, None)],
        initializer=[ints("one", [1]), ints("minus_one", [-1]), ints("axis", [1]),
                     ints("halves_shape", [0, 2, -1]), ints("back_shape", [0, -1])])


def test_infer_assumptions():
    model = _slice_model()
    plain = onnx_infer.infer(model)
    assert str(plain.type_of("y")) == "float[N, Max(0, S - 2), 8]"  # S may be 0, 1 or 2
    assert str(plain.type_of("back")) == "float[B, 2*floor(C/2)]"   # C is odd if B is 0
    assert not any("assumed" in c for c in plain.conditions)

    assumed = onnx_infer.infer(model, assume=["S >= 2"])
    assert str(assumed.type_of("y")) == "float[N, S - 2, 8]"
    assert assumed.conditions == [
        "S >= 2 (assumed for node 'trim' (Slice): output 'y' dim 1 is S - 2 instead of "
        "Max(0, S - 2))"]
    assert str(onnx_infer.infer(model, assume="S > 1").type_of("y")) == "float[N, S - 2, 8]"

    positive = onnx_infer.infer(model, assume_positive=True)
    assert str(positive.type_of("back")) == "float[B, C]"
    assert str(positive.type_of("y")) == "float[N, Max(0, S - 2), 8]"  # S may still be 1
    assert positive.conditions == [
        "B >= 1 (assumed for node 'merge' (Reshape): output 'back' dim 1 is C instead of "
        "2*floor(C/2))"]

    # Upper bounds and relations (issue 29): S <= 1 decides Max(0, S - 2) as 0.
    upper = onnx_infer.infer(model, assume=["S <= 1"])
    assert str(upper.type_of("y")) == "float[N, 0, 8]"
    assert upper.bounds == [{"symbol": "S", "min": 0, "max": 1, "assumed": ["max"],
                             "origins": ["S <= 1 (assumed)"]}]
    related = onnx_infer.infer(model, assume=["1 <= S", "N + S <= 10"])
    assert related.relations == ["N + S <= 10 (assumed)"]
    assert {b["symbol"]: b["max"] for b in related.bounds} == {"N": 9, "S": 10}
    with pytest.raises(ValueError, match="an equation fixes a value"):
        onnx_infer.infer(model, assume=["S == 4"])
    with pytest.raises(ValueError, match="expected a dim expression compared with integers"):
        onnx_infer.infer(model, assume=["S + N"])
    typo = onnx_infer.infer(model, assume=["SS >= 2"])
    assert [d.message for d in typo.diagnostics] == [
        "assumption 'SS >= 2': the model has no symbol 'SS'"]


# ---- Custom operators

def test_schemas_per_call_from_a_file_text_and_dict():
    doc = json.loads(IMAGE_OPS.read_text())
    model = _model([helper.make_node("Halve", ["x"], ["y"], domain=doc["domain"])],
                   [_vi("x", FLOAT, ["N", 3, "H", "W"])], [_vi("y", FLOAT, None)],
                   opsets=(("", 17), (doc["domain"], 1)))
    for schemas in ([IMAGE_OPS], [str(IMAGE_OPS)], [IMAGE_OPS.read_text()], [doc]):
        result = onnx_infer.infer(model, schemas=schemas)
        assert str(result.type_of("y")) == "float[N, 3, floor(H/2), floor(W/2)]", schemas
    assert onnx_infer.infer(model).type_of("y").shape is None  # only for that call
    with pytest.raises(ValueError, match=r"operators\[0\]"):
        onnx_infer.infer(model, schemas=[{"domain": "x.y", "operators": [{"nme": "A"}]}])


def test_register_schemas_for_every_later_call():
    doc = json.loads(IMAGE_OPS.read_text())
    model = _model([helper.make_node("Halve", ["x"], ["y"], domain=doc["domain"])],
                   [_vi("x", FLOAT, [1, 3, 8, 6])], [_vi("y", FLOAT, None)],
                   opsets=(("", 17), (doc["domain"], 1)))
    onnx_infer.register_schemas(IMAGE_OPS)
    (y,) = onnx_infer.infer_shapes(model).graph.output
    assert [d.dim_value for d in y.type.tensor_type.shape.dim] == [1, 3, 4, 3]
    onnx_infer.register_schemas(str(IMAGE_OPS))  # again (a notebook cell run twice): replaced
    assert onnx_infer.infer(model).type_of("y").shape == (1, 3, 4, 3)
    onnx_infer.reset_schemas()
    assert not onnx_infer.infer_shapes(model).graph.output[0].type.tensor_type.HasField("shape")


def test_python_rule():
    seen = []

    def flip(input_types, attributes):
        seen.append((input_types, attributes))
        (x,) = input_types
        return [onnx_infer.ValueType(x.elem_type, (x.shape[1], f"{x.shape[0]} * {attributes['k']}"))]

    onnx_infer.register_op("com.example", "Flip", flip, attributes=[{"name": "k", "type": "int"}])
    result = onnx_infer.infer(_flip_model(k=3))
    assert str(result.type_of("y")) == "float[3, 3*N]"
    assert str(result.type_of("z")) == "float[3, 3*N]"  # and on through Relu
    assert result.diagnostics == []
    (types, attributes), = seen
    assert [str(t) for t in types] == ["float[N, 3]"] and attributes == {"k": 3}
    (z,) = onnx_infer.infer_shapes(_flip_model(k=3)).graph.output
    assert [d.dim_value or d.dim_param for d in z.type.tensor_type.shape.dim] == [3, "3*N"]
    # Registered again with another rule: the new one replaces it.
    onnx_infer.register_op("com.example", "Flip", lambda t, a: [("int64", (1,))],
                           attributes=[{"name": "k", "type": "int"}])
    assert str(onnx_infer.infer(_flip_model()).type_of("y")) == "int64[1]"


def test_python_rule_return_forms_and_errors():
    results = {
        "pair": [("int64", ("N", None))],
        "proto": [helper.make_tensor_type_proto(INT64, ["N", 2])],
        "none": None,
    }
    for name, value in results.items():
        onnx_infer.register_op("com.example", "Op_" + name, lambda t, a, v=value: v)
    onnx_infer.register_op("com.example", "Raises", lambda t, a: 1 / 0)
    onnx_infer.register_op("com.example", "Wrong", lambda t, a: ["float[N]"])
    nodes = [helper.make_node("Op_" + n, ["x"], [n], domain="com.example") for n in results]
    nodes += [helper.make_node("Raises", ["x"], ["r"], domain="com.example", name="div"),
              helper.make_node("Wrong", ["x"], ["w"], domain="com.example")]
    model = _model(nodes, [_vi("x", FLOAT, ["N", 3])],
                   [helper.make_empty_tensor_value_info(n) for n in list(results) + ["r", "w"]],
                   opsets=(("", 17), ("com.example", 1)))
    result = onnx_infer.infer(model)
    assert str(result.type_of("pair")) == "int64[N, ?]"
    assert str(result.type_of("proto")) == "int64[N, 2]"
    assert result.type_of("none") is None
    messages = {d.node_name or d.op: d.message for d in result.errors}
    assert "the Python rule raised ZeroDivisionError: division by zero" in messages["div"]
    assert "Wrong" in " ".join(d.op for d in result.errors)


def test_python_rule_checked_signature():
    onnx_infer.register_op(
        "com.example", "Pair", lambda t, a: [t[0], t[0]],
        inputs=[{"name": "X", "type": "T"}],
        outputs=[{"name": "A", "type": "T"}, {"name": "B", "type": "T"}],
        type_constraints=[{"type_param": "T", "allowed": ["tensor(float)"]}])
    model = _model([helper.make_node("Pair", ["x"], ["a", "b"], domain="com.example")],
                   [_vi("x", INT64, ["N"])], [_vi("a", 0, None), _vi("b", 0, None)],
                   opsets=(("", 17), ("com.example", 1)))
    result = onnx_infer.infer(model)
    assert any("int64 is not allowed for T" in d.message for d in result.errors), \
        [d.message for d in result.diagnostics]


# ---- infer_node_outputs

def test_infer_node_outputs_like_onnx():
    node = helper.make_node("Reshape", ["x", "s"], ["y"])
    types = {"x": helper.make_tensor_type_proto(FLOAT, ["N", 6]),
             "s": helper.make_tensor_type_proto(INT64, [2])}
    shape = {"s": helper.make_tensor("s", INT64, [2], [-1, 2])}
    schema = onnx.defs.get_schema("Reshape", 14)
    out = onnx_infer.infer_node_outputs(schema, node, types, shape)
    assert list(out) == ["y"] and isinstance(out["y"], onnx.TypeProto)
    dims = out["y"].tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["3*N", 2]
    # By op_type, with explicit opsets as a list of OperatorSetIdProto or a dict.
    for opsets in ([helper.make_opsetid("", 5)], {"": 13}):
        out = onnx_infer.infer_node_outputs("Reshape", node, types, shape, opset_imports=opsets)
        assert [d.dim_param or d.dim_value for d in out["y"].tensor_type.shape.dim] == ["3*N", 2]
    # Without the value: only the rank.
    out = onnx_infer.infer_node_outputs(schema, node, types)
    assert len(out["y"].tensor_type.shape.dim) == 2


def test_infer_node_outputs_errors():
    node = helper.make_node("MatMul", ["a", "b"], ["c"])
    types = {"a": helper.make_tensor_type_proto(FLOAT, [2, 3]),
             "b": helper.make_tensor_type_proto(FLOAT, [4, 5])}
    with pytest.raises(onnx_infer.InferenceError) as info:
        onnx_infer.infer_node_outputs(onnx.defs.get_schema("MatMul", 13), node, types)
    assert info.value.diagnostics and "3" in str(info.value)
    with pytest.raises(ValueError, match="Relu"):
        onnx_infer.infer_node_outputs(onnx.defs.get_schema("Relu", 14), node, types)


# ---- onnxruntime's entry

def test_symbolic_shape_inference_contract():
    model = _broadcast_model()
    before = model.SerializeToString()
    out = SymbolicShapeInference.infer_shapes(model, auto_merge=True)
    assert isinstance(out, onnx.ModelProto) and model.SerializeToString() == before
    (w,) = out.graph.output
    assert [d.dim_param or d.dim_value for d in w.type.tensor_type.shape.dim] == ["Max(M, N)", 5]

def test_symbolic_shape_inference_returns_a_model_despite_errors(caplog):
    """onnxruntime's tool gives its best-effort model when a node contradicts its operator
    (the error is logged), never None for it."""
    bad = _model([helper.make_node("MatMul", ["a", "b"], ["c"])],
                 [_vi("a", FLOAT, [2, 3]), _vi("b", FLOAT, [4, 5])], [_vi("c", FLOAT, None)])
    with caplog.at_level("ERROR", logger="onnx_infer.symbolic_shape_infer"):
        out = SymbolicShapeInference.infer_shapes(bad)
    assert isinstance(out, onnx.ModelProto)
    assert any("MatMul" in r.getMessage() for r in caplog.records if r.levelname == "ERROR")


def test_symbolic_shape_inference_command(tmp_path):
    src, out = tmp_path / "in.onnx", tmp_path / "out.onnx"
    onnx.save(_broadcast_model(), str(src))
    run = subprocess.run([sys.executable, "-m", "onnx_infer.symbolic_shape_infer", "--input",
                          str(src), "--output", str(out), "--auto_merge"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert onnx.load(str(out)).graph.value_info[0].name == "z"


LLM_MODELS = ["genai_tiny_random_gpt2_fp32_past.onnx", "genai_tiny_random_gpt2_fp16_past.onnx",
              "genai_tiny_qwen35_decoder.onnx", "tract_gqa_decode_rope.onnx",
              "onnxdiag_attention_loopmha.onnx"]


@pytest.mark.parametrize("name", LLM_MODELS)
def test_symbolic_shape_inference_on_shared_llm_models(name):
    path = SHARED / "models" / "real" / name
    if not path.exists():
        pytest.skip(f"{path} is not present")
    model = onnx.load(str(path), load_external_data=False)
    out = SymbolicShapeInference.infer_shapes(model, auto_merge=True, guess_output_rank=True)
    assert out is not None
    typed = {vi.name for vi in list(out.graph.value_info) + list(out.graph.output)
             if vi.type.WhichOneof("value") not in (None, "tensor_type")
             or vi.type.tensor_type.elem_type}
    outputs = {o for n in out.graph.node for o in n.output if o}
    assert outputs <= typed, sorted(outputs - typed)[:10]
    if name.startswith("genai_"):  # onnxruntime-genai's decoders: every value fully shaped
        result = onnx_infer.infer(model)
        assert result.stats["shaped"] == result.stats["values"], result.stats
        assert not [s for s in result.symbols if not s.declared]  # no fresh symbol


# ---- Limits

def test_in_memory_model_over_2gib_names_infer_shapes_path():
    try:
        available = int(next(line.split()[1] for line in open("/proc/meminfo")
                             if line.startswith("MemAvailable")))
    except (OSError, StopIteration):
        available = 0
    if available < 8 * 1024 * 1024:  # kB: the model is built twice in memory
        pytest.skip("needs 8 GiB of free memory")
    big = onnx.TensorProto(name="w", data_type=onnx.TensorProto.UINT8, dims=[2**31 + 16])
    big.raw_data = bytes(2**31 + 16)
    model = _model([helper.make_node("Identity", ["w"], ["y"])], [], [_vi("y", 0, None)],
                   initializer=[big])
    for call in (onnx_infer.infer_shapes, onnx_infer.infer, SymbolicShapeInference.infer_shapes):
        with pytest.raises(ValueError, match="infer_shapes_path"):
            call(model)


_NESTED_CALLS = """\
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
main (float[N, 3] x) => (y) { y = local.F2(x) }
<domain: "local", opset_import: ["" : 17]>
F0 (x) => (y) { y = Relu(x) }
<domain: "local", opset_import: ["" : 17, "local" : 1]>
F1 (x) => (y) { a = local.F0(x)
 b = local.F0(a)
 y = Add(a, b) }
<domain: "local", opset_import: ["" : 17, "local" : 1]>
F2 (x) => (y) { a = local.F1(x)
 b = local.F1(a)
 y = Add(a, b) }
"""


def test_max_expanded_nodes(tmp_path):
    """The function call expansion budget (--max-expanded-nodes) from Python: F2 calls F1
    twice, which calls F0 twice: 13 nodes in function bodies in all."""
    path = tmp_path / "calls.onnxtxt"
    path.write_text(_NESTED_CALLS)
    limit = "function call expansion limit reached"

    full = onnx_infer.infer(path)
    assert not full.errors
    assert str(full.type_of("y")) == "float[N, 3]"
    for budget in (13, 1000):
        assert not onnx_infer.infer(path, max_expanded_nodes=budget).errors

    cut = onnx_infer.infer(path, max_expanded_nodes=5)
    assert [limit in d.message for d in cut.errors] == [True]
    assert "5 nodes" in cut.errors[0].message
    assert cut.type_of("y") is None or not cut.type_of("y").fully_shaped

    # The onnx.shape_inference-style functions take it as a keyword.
    binary = tmp_path / "calls.onnx"
    onnx_infer.infer_shapes_path(path, binary, max_expanded_nodes=1000)
    data = binary.read_bytes()
    out = tmp_path / "out.onnx"
    onnx_infer.infer_shapes_path(binary, out, strict_mode=True, max_expanded_nodes=1000)
    with pytest.raises(onnx_infer.InferenceError, match=limit):
        onnx_infer.infer_shapes_path(binary, out, strict_mode=True, max_expanded_nodes=5)
    with pytest.raises(onnx_infer.InferenceError, match=limit):
        onnx_infer.infer_shapes(data, strict_mode=True, max_expanded_nodes=5)
    assert onnx_infer.infer_shapes(data, strict_mode=True, max_expanded_nodes=13) == \
        onnx_infer.infer_shapes(data, strict_mode=True)
    model = onnx.load_from_string(data)
    with pytest.raises(onnx_infer.InferenceError, match=limit):
        onnx_infer.infer_shapes(model, strict_mode=True, max_expanded_nodes=0)

    with pytest.raises(ValueError, match="max_expanded_nodes"):
        onnx_infer.infer(path, max_expanded_nodes=-1)
    with pytest.raises(TypeError, match="max_expanded_nodes"):
        onnx_infer.infer(path, max_expanded_nodes="5")
    with pytest.raises(TypeError):
        onnx_infer.infer_shapes(data, False, False, False, 5)  # keyword only


# ---- The declared-type policy (docs/python.md): what a declaration that contradicts the
# inferred type becomes.

STALE = """<ir_version: 8, opset_import: ["" : 17]>
main (float[4] x) => (float[5] y, z)
{
  y = Relu(x)
  z = Neg(y)
}
"""


@pytest.mark.parametrize("policy,severity,written", [
    ("inferred", "error", "float[4]"),
    ("refine", "warning", "float[5]"),
    ("override", "note", "float[4]"),
    ("strict", "error", "float[4]"),
])
def test_declared_policy(tmp_path, policy, severity, written):
    path = tmp_path / "stale.onnxtxt"
    path.write_text(STALE)
    out = tmp_path / "out.onnx"
    result = onnx_infer.infer(str(path), policy=policy, output_path=str(out))
    [d] = result.diagnostics
    assert (d.code, d.kind, d.severity) == ("OI4001", "declared-contradiction", severity)
    assert str(result.type_of("y")) == written and str(result.type_of("z")) == written
    # strict writes nothing; the others write the type they use.
    assert out.exists() == (policy != "strict")
    if out.exists():
        assert str(onnx_infer.infer(str(out), policy=policy).type_of("y")) == written


def test_codes_and_value_report(tmp_path):
    """Every diagnostic has its stable code and the code's name; value_report compares each
    value's declared and inferred types (the --json-values section)."""
    path = tmp_path / "stale.onnxtxt"
    path.write_text(STALE)
    result = onnx_infer.infer(str(path))
    [d] = result.diagnostics
    assert d.code == "OI4001" and d.kind == "declared-contradiction"
    assert d.render("m.onnx").startswith("m.onnx: error[OI4001]: graph 'main' node #0")
    by_name = {v["name"]: v for v in result.value_report}
    y = by_name["y"]
    assert (y["graph"], y["role"], y["agreement"]) == ("main", "output", "contradiction")
    assert (str(y["declared"]), str(y["inferred"]), str(y["type"])) == \
        ("float[5]", "float[4]", "float[4]")
    assert y["contradiction"] == "dim 0: 5 vs 4"
    x = by_name["x"]
    assert (x["role"], x["agreement"], x["known"], x["symbols"]) == \
        ("input", "not_inferred", "static", [])
    assert by_name["z"]["agreement"] == "undeclared" and by_name["z"]["declared"] is None


def test_declared_policy_unknown():
    with pytest.raises(ValueError, match="policy must be"):
        onnx_infer.infer(STALE.encode(), policy="keep")
