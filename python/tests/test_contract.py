"""onnx_infer.contract (docs/deploy.md): the deployment contract and profiles from Python.

The models are built here with onnx.helper: a KV-cache step whose Concat makes
total == past + seq (the declared output says total), and a position table of 4096 rows that
caps seq. The expected numbers are written out from the shapes, not read from inference.
"""

import base64
import json
import pathlib
import struct

import pytest
from onnx import TensorProto, helper

import onnx_infer

F = TensorProto.FLOAT
I64 = TensorProto.INT64
SCHEMA = pathlib.Path(__file__).resolve().parents[2] / "docs" / "contract.schema.json"


def kv_cache():
    nodes = [
        helper.make_node("Concat", ["past_key", "key"], ["present"], axis=1),
        helper.make_node("Constant", [], ["axes"],
                         value=helper.make_tensor("a", I64, [1], [2])),
        helper.make_node("Unsqueeze", ["mask", "axes"], ["m"]),
        helper.make_node("Mul", ["present", "m"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "kv",
        [helper.make_tensor_value_info("past_key", F, ["batch", "past", 8]),
         helper.make_tensor_value_info("key", F, ["batch", "seq", 8]),
         helper.make_tensor_value_info("mask", F, ["batch", "total"])],
        [helper.make_tensor_value_info("present", F, ["batch", "total", 8]),
         helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def position_table():
    def const(name, values):
        return helper.make_node("Constant", [], [name],
                                value=helper.make_tensor(name, I64, [len(values)], values))
    nodes = [
        const("tshape", [1, 4096, 8]),
        helper.make_node("ConstantOfShape", ["tshape"], ["table"],
                         value=helper.make_tensor("v", F, [1], [1.0])),
        helper.make_node("Shape", ["x"], ["s"]),
        const("one", [1]), const("two", [2]), const("zero", [0]),
        helper.make_node("Slice", ["s", "one", "two"], ["seq_len"]),
        helper.make_node("Slice", ["table", "zero", "seq_len", "one"], ["pos"]),
        helper.make_node("Add", ["x", "pos"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "pos", [helper.make_tensor_value_info("x", F, ["batch", "seq", 8])],
        [helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def reshape_to_declared():
    # x: [B, 2*H] reshaped by a shape-tensor input `target`, the output declared [B, 2, H]:
    # the model forces target == [B, 2, H].
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "target"], ["y"])], "declared",
        [helper.make_tensor_value_info("x", F, ["B", "2*H"]),
         helper.make_tensor_value_info("target", I64, [3])],
        [helper.make_tensor_value_info("y", F, ["B", 2, "H"])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def range_to_length():
    # A scalar limit n of Range(0, n), the result declared [S] and added to x [S]: n == S.
    def const(name, value):
        return helper.make_node("Constant", [], [name],
                                value=helper.make_tensor(name, I64, [], [value]))
    nodes = [const("zero", 0), const("one", 1),
             helper.make_node("Range", ["zero", "n", "one"], ["r"]),
             helper.make_node("Cast", ["r"], ["rf"], to=F),
             helper.make_node("Add", ["x", "rf"], ["y"])]
    graph = helper.make_graph(
        nodes, "range", [helper.make_tensor_value_info("x", F, ["S"]),
                         helper.make_tensor_value_info("n", I64, [])],
        [helper.make_tensor_value_info("y", F, ["S"]),
         helper.make_tensor_value_info("rf", F, ["S"])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def free_target():
    # A Reshape target nothing constrains: its values need ranges.
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "target"], ["y"])], "free",
        [helper.make_tensor_value_info("x", F, ["N", 8]),
         helper.make_tensor_value_info("target", I64, [2])],
        [helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def symbol(c, name):
    return next(s for s in c["symbols"] if s["name"] == name)


def test_contract_states_the_derived_symbol_and_the_shared_dims():
    c = onnx_infer.contract(kv_cache())
    assert c["contract_version"] == 1
    assert [i["name"] for i in c["inputs"]] == ["past_key", "key", "mask"]
    assert symbol(c, "total")["value"] == "past + seq"
    assert {(u["input"], u["axis"]) for u in symbol(c, "batch")["uses"]} == {
        ("past_key", 0), ("key", 0), ("mask", 0)}
    assert "profiles" not in c


def test_profile_in_every_format():
    c = onnx_infer.contract(kv_cache(), ranges={"batch": (1, 1, 4), "past": "0:64:1000",
                                                "seq": (1, 1, 24)})
    p = c["profiles"][0]
    assert p["errors"] == []
    # total = past + seq at each point.
    assert [p[k]["symbols"]["total"] for k in ("min", "opt", "max")] == [1, 65, 1024]
    assert p["max"]["shapes"]["mask"] == [4, 1024]
    assert p["ort_trt"] == {
        "trt_profile_min_shapes": "past_key:1x0x8,key:1x1x8,mask:1x1",
        "trt_profile_opt_shapes": "past_key:1x64x8,key:1x1x8,mask:1x65",
        "trt_profile_max_shapes": "past_key:4x1000x8,key:4x24x8,mask:4x1024",
    }
    assert p["trtexec"] == ("--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1 "
                            "--optShapes=past_key:1x64x8,key:1x1x8,mask:1x65 "
                            "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024")
    assert p["polygraphy"].startswith("--trt-min-shapes past_key:[1,0,8] key:[1,1,8] mask:[1,1]")
    # Each text given back is checked and holds.
    ort = " ".join(f"{k}={v}" for k, v in p["ort_trt"].items())
    for text in (p["trtexec"], p["polygraphy"], ort):
        back = onnx_infer.contract(kv_cache(), profile=text)["profiles"][0]
        assert back["violations"] == [], text
        assert back["max"]["symbols"]["total"] == 1024


def test_a_profile_breaking_total_is_rejected_with_its_origin():
    c = onnx_infer.contract(
        kv_cache(),
        profile="--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1 "
                "--optShapes=past_key:1x64x8,key:1x1x8,mask:1x65 "
                "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1000")
    v = c["profiles"][0]["violations"]
    assert len(v) == 1, v
    assert v[0]["point"] == "max"
    assert v[0]["what"] == "total == past + seq (1000 != 1024)"
    assert "'present'" in v[0]["origin"]


def test_profile_from_the_models_bound():
    c = onnx_infer.contract(position_table(), ranges={"batch": 2}, check=True)
    assert symbol(c, "seq")["max"] == 4096
    p = c["profiles"][0]
    assert [p[k]["symbols"]["seq"] for k in ("min", "opt", "max")] == [1, 4096, 4096]
    assert p["max"]["shapes"]["x"] == [2, 4096, 8]
    assert len(p["from_bounds"]) == 1 and "(Add)" in p["from_bounds"][0]
    assert p["violations"] == []
    # A max past the bound is kept (the user's) and reported by the check.
    c = onnx_infer.contract(position_table(), ranges={"batch": 2, "seq": (1, 128, 5000)},
                            check=True)
    v = c["profiles"][0]["violations"]
    assert [(x["point"], x["what"]) for x in v] == [("max", "seq <= 4096")]
    # Without a bound for batch, no profile can be made from the bounds alone.
    c = onnx_infer.contract(position_table(), ranges={})
    assert c["profiles"][0]["errors"]
    c = onnx_infer.contract(position_table(), ranges={}, assume=["1 <= batch <= 16"])
    assert c["profiles"][0]["max"]["shapes"]["x"] == [16, 4096, 8]


def test_memory_and_cost_at_the_points():
    c = onnx_infer.contract(kv_cache(), ranges={"batch": (1, 1, 4), "past": (0, 64, 1000),
                                                "seq": (1, 1, 24)}, memory=True, cost=True)
    p = c["profiles"][0]
    # At max the Concat holds past_key, key, present and the mask still to be read.
    assert p["memory"]["max"]["peak_bytes"] == 4 * (4 * 1000 * 8 + 4 * 24 * 8 + 4 * 1024 * 8
                                                    + 4 * 1024)
    assert p["memory"]["max"]["peak_node"] == "node #0 (Concat)"
    # The Mul of present [4, 1024, 8] by the mask: one FLOP per element.
    assert p["cost"]["max"]["flops"] == 4 * 1024 * 8
    assert p["cost"]["min"]["flops"] == 1 * 1 * 8
    assert p["cost"]["max"]["top_node"] == "node #3 (Mul)"


def test_a_partial_binding_is_completed():
    # --bind seq=1: the Concat's fact derives total from past; batch and past stay free.
    c = onnx_infer.contract(kv_cache(), bind={"seq": 1})
    b = c["binding"]
    assert b["bound"] == {"seq": 1}
    assert [(d["symbol"], d["value"]) for d in b["derived"]] == [("total", "past + 1")]
    assert b["free"] == ["batch", "past"]
    assert "binding" not in onnx_infer.contract(kv_cache())


def test_the_contracts_keys_are_the_schemas():
    # The full validation is the C++ test's (cli/contract_checks.cc); here the keys of the
    # contract and of its profile against docs/contract.schema.json: every required one
    # there, none it does not know.
    schema = json.loads(SCHEMA.read_text())
    c = onnx_infer.contract(kv_cache(), ranges={"batch": 1, "past": (0, 64, 1000),
                                                "seq": (1, 1, 24)}, check=True, memory=True,
                            cost=True)
    for obj, sch in ((c, schema), (c["profiles"][0], schema["$defs"]["profile"])):
        assert set(sch["required"]) <= set(obj), set(sch["required"]) - set(obj)
        assert set(obj) <= set(sch["properties"]), set(obj) - set(sch["properties"])
    for point in ("min", "opt", "max"):
        assert set(c["profiles"][0]["memory"][point]) == {
            "peak_bytes", "peak_node", "peak_node_index", "steps_not_evaluated",
            "steps_with_unknown_sizes"}


def test_shape_tensor_inputs_values():
    c = onnx_infer.contract(reshape_to_declared(), ranges={"B": (1, 2, 4), "H": (1, 3, 5)},
                            check=True)
    target = next(i for i in c["inputs"] if i["name"] == "target")
    assert target["shape_tensor"] is True
    assert [(e["name"], e["value"]) for e in target["values"]] == [
        ("target[0]", "B"), ("target[1]", "2"), ("target[2]", "H")]
    p = c["profiles"][0]
    assert p["errors"] == [] and p["violations"] == []
    assert [p[k]["values"]["target"] for k in ("min", "opt", "max")] == [
        [1, 2, 1], [2, 2, 3], [4, 2, 5]]
    assert p["trtexec"] == ("--minShapes=x:1x2,target:1x2x1 --optShapes=x:2x6,target:2x2x3 "
                            "--maxShapes=x:4x10,target:4x2x5")
    assert p["ort_trt"]["trt_profile_max_shapes"] == "x:4x10,target:4x2x5"
    assert p["polygraphy"].endswith("--trt-max-shapes x:[4,10] target:[4,2,5]")
    # A given profile whose values break the declared output.
    c = onnx_infer.contract(
        reshape_to_declared(),
        profile="--minShapes=x:1x2,target:1x2x1 --optShapes=x:2x6,target:2x2x2 "
                "--maxShapes=x:4x10,target:4x3x5")
    v = c["profiles"][0]["violations"]
    assert [(x["point"], x["what"]) for x in v] == [
        ("opt", "H == target[2] (3 != 2)"), ("max", "target[1] == 2 (3 != 2)")], v
    # A free element: an error naming the range to give, then the range.
    c = onnx_infer.contract(free_target(), ranges={"N": (1, 2, 4)})
    assert "--range 'target[0]=MIN:OPT:MAX'" in c["profiles"][0]["errors"][0]
    c = onnx_infer.contract(free_target(), ranges={"N": (1, 2, 4), "target[0]": (1, 2, 4),
                                                   "target[1]": 8})
    assert c["profiles"][0]["max"]["values"]["target"] == [4, 8]
    # A value given with input_values: its constants.
    c = onnx_infer.contract(free_target(), input_values={"target": [-1, 8]})
    target = next(i for i in c["inputs"] if i["name"] == "target")
    assert [e["value"] for e in target["values"]] == ["-1", "8"]


@pytest.mark.parametrize("kwargs", [
    {"profile": "--minShapes=key:1xx8 --optShapes=key:1x1x8 --maxShapes=key:1x1x8"},
    {"profile": "--trt-min-shapes key:[1,1,8]"},
    {"profile": "hello"},
    {"ranges": {"seq": (4, 2, 1)}},
    {"ranges": {"seq": 1}, "profile": "--minShapes=key:1x1x8"},
])
def test_bad_ranges_and_profiles_raise(kwargs):
    with pytest.raises(ValueError):
        onnx_infer.contract(kv_cache(), **kwargs)


# ---- The profile run by onnxruntime (tools/verify_runtime, onnxruntime-node; skipped when it
# is not installed): at min, opt and max of the generated profile the model runs, and every
# output's dims are the ones inference predicts under that point's symbol values.

def _runtime():
    import importlib.util
    import os
    import shutil
    root = pathlib.Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "verify", root / "tools" / "verify_runtime" / "verify.py")
    verify = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(verify)
    path = os.environ.get("ONNX_INFER_ORT_NODE_MODULES") or verify.default_node_modules()
    if not shutil.which("node") or not os.path.isdir(os.path.join(path, "onnxruntime-node")):
        pytest.skip("onnxruntime-node is not installed (tools/verify_runtime/install.sh)")
    return verify.Runtime(path, timeout=60)


def reshape_pairs():
    # x: [B, 2*H] reshaped to [B, 2, H] by a shape computed from Shape(x): the profile gives
    # B and H, the input's dim 1 is 2*H at each point.
    def const(name, values):
        return helper.make_node("Constant", [], [name],
                                value=helper.make_tensor(name, I64, [len(values)], values))
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        const("zero", [0]), const("one", [1]),
        helper.make_node("Slice", ["s", "zero", "one"], ["b"]),
        const("rest", [2, -1]),
        helper.make_node("Concat", ["b", "rest"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "pairs", [helper.make_tensor_value_info("x", F, ["B", "2*H"])],
        [helper.make_tensor_value_info("y", F, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


ORT_TYPES = {"float": "float32", "int64": "int64", "int32": "int32", "float16": "float16"}


def shared_gpt2():
    import os
    root = pathlib.Path(__file__).resolve().parents[2]
    shared = pathlib.Path(os.environ.get("ONNX_INFER_SHARED", root.parent / "shared"))
    path = shared / "models" / "real" / "genai_tiny_random_gpt2_fp32_past.onnx"
    if not path.exists():
        pytest.skip("no shared models")
    import onnx
    return onnx.load(str(path))


@pytest.mark.parametrize("build,ranges", [
    # A real KV-cache decoder: total_seq_len is derived as past_seq_len + seq_len.
    (shared_gpt2, {"batch_size": (1, 1, 2), "past_seq_len": (0, 8, 30), "seq_len": (1, 1, 4)}),
    (kv_cache, {"batch": (1, 2, 3), "past": (0, 7, 40), "seq": (1, 1, 5)}),
    (position_table, {"batch": (1, 1, 2)}),
    (reshape_pairs, {"B": (1, 3, 4), "H": (1, 5, 9)}),
    # Shape-tensor inputs: their values at each point are fed as the profile gives them.
    (reshape_to_declared, {"B": (1, 2, 4), "H": (1, 3, 5)}),
    (range_to_length, {"S": (1, 7, 30)}),
    (free_target, {"N": (1, 2, 4), "target[0]": (1, 2, 4), "target[1]": 8}),
])
def test_the_profile_runs_at_each_point(build, ranges, tmp_path):
    runtime = _runtime()
    model = build()
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    c = onnx_infer.contract(model, ranges=ranges, check=True)
    p = c["profiles"][0]
    assert p["errors"] == [] and p["violations"] == []
    types = {i["name"]: i["elem_type"] for i in c["inputs"]}
    ranks = {i["name"]: len(i["shape"]) for i in c["inputs"] if i["shape"] is not None}
    shape_tensors = [i["name"] for i in c["inputs"] if i["shape_tensor"]]
    assert sorted(p["min"]["values"]) == sorted(shape_tensors)
    try:
        for point in ("min", "opt", "max"):
            feeds = {name: {"type": ORT_TYPES[types[name]], "dims": dims, "fill": "ones"}
                     for name, dims in p[point]["shapes"].items()}
            for name, values in p[point]["values"].items():
                fmt = "<%dq" if types[name] == "int64" else "<%di"
                feeds[name] = {"type": ORT_TYPES[types[name]],
                               "dims": [len(values)] if ranks[name] else [],
                               "b64": base64.b64encode(
                                   struct.pack(fmt % len(values), *values)).decode()}
            answer = runtime.run(str(path), feeds)
            assert answer["ok"], (point, answer)
            given = {name: (values if ranks[name] else values[0])
                     for name, values in p[point]["values"].items()}
            predicted = onnx_infer.infer(model, bind=p[point]["symbols"], input_values=given)
            for name, out in answer["outputs"].items():
                t = predicted.type_of(name)
                assert t is not None and t.shape is not None, (point, name)
                assert list(t.shape) == out["dims"], (point, name, t.shape, out["dims"])
    finally:
        runtime.close()
