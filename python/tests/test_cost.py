"""The cost model (docs/cost.md) against an independent count.

Each case builds a small model with onnx.helper and counts its FLOPs and MACs here, in plain
Python from the concrete shapes: the output shapes are derived from ONNX's definitions (not
read from inference), and the counts from docs/cost.md's definitions written out again. The
engine's counts must be the same, through `infer(..., cost=True)` evaluated under the
binding, and through `infer-shapes --cost --bind ... --json -` when the command is built
(bazel-bin/cli/infer-shapes, or $INFER_SHAPES). The shared real models are run too: nothing
crashes, and where the main graph is static the totals are numbers.
"""

import json
import math
import os
import pathlib
import subprocess

import onnx
import pytest
from onnx import TensorProto, helper

import onnx_infer

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("ONNX_INFER_SHARED", ROOT.parent / "shared"))
REAL = SHARED / "models" / "real"
CLI = pathlib.Path(os.environ.get("INFER_SHAPES", ROOT / "bazel-bin" / "cli" / "infer-shapes"))

F = TensorProto.FLOAT


def prod(xs):
    return math.prod(xs)


def model(nodes, inputs, outputs, opsets=(("", 17),), initializers=()):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, F, None) for n in outputs],
        initializer=list(initializers))
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets], ir_version=10)


def conv_out(size, k, pad_begin, pad_end, stride, dilation):
    return (size + pad_begin + pad_end - dilation * (k - 1) - 1) // stride + 1


# ---- The cases: (name, model, binding, expected FLOPs, expected MACs), counted here.

def case_matmul_broadcast():
    b, s, h, k, n = 2, 5, 3, 4, 6
    m = model([helper.make_node("MatMul", ["a", "w"], ["y"])],
              [("a", F, ["B", 1, "S", k]), ("w", F, [h, k, n])], ["y"])
    # y: [B, H, S, N]; each element a K-long dot product.
    macs = b * h * s * n * k
    return m, {"B": b, "S": s}, 2 * macs, macs


def case_gemm():
    mm, k, n = 7, 3, 5
    m = model([helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, alpha=0.5, beta=2.0)],
              [("a", F, ["M", k]), ("b", F, [n, k]), ("c", F, [n])], ["y"])
    out = mm * n
    macs = out * k
    # alpha scales each output, C is added with beta != 1 (a multiply and an add).
    return m, {"M": mm}, 2 * macs + out + 2 * out, macs


def case_conv():
    n, c, hw, mo, g, k = 2, 4, 11, 6, 2, 3
    pads, stride, dil = (1, 2, 1, 2), 2, 2
    m = model([helper.make_node("Conv", ["x", "w", "b"], ["y"], group=g, pads=list(pads),
                                strides=[stride, stride], dilations=[dil, dil])],
              [("x", F, ["N", c, hw, hw]), ("w", F, [mo, c // g, k, k]), ("b", F, [mo])], ["y"])
    oh = conv_out(hw, k, pads[0], pads[2], stride, dil)
    ow = conv_out(hw, k, pads[1], pads[3], stride, dil)
    outputs = n * mo * oh * ow
    macs = outputs * (c // g) * k * k
    return m, {"N": n}, 2 * macs + outputs, macs


def case_conv_transpose():
    n, c, hw, mo, k, stride = 1, 3, 5, 4, 3, 2
    m = model([helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                                strides=[stride, stride])],
              [("x", F, ["N", c, hw, hw]), ("w", F, [c, mo, k, k]), ("b", F, [mo])], ["y"])
    out_hw = stride * (hw - 1) + k
    macs = n * c * hw * hw * mo * k * k
    return m, {"N": n}, 2 * macs + n * mo * out_hw * out_hw, macs


def case_pools():
    n, c, hw = 3, 2, 9
    m = model([helper.make_node("MaxPool", ["x"], ["p"], kernel_shape=[3, 3], strides=[2, 2]),
               helper.make_node("AveragePool", ["x"], ["q"], kernel_shape=[2, 2], pads=[1, 1, 1, 1]),
               helper.make_node("GlobalAveragePool", ["x"], ["r"])],
              [("x", F, ["N", c, hw, hw])], ["p", "q", "r"])
    p = conv_out(hw, 3, 0, 0, 2, 1)
    q = conv_out(hw, 2, 1, 1, 1, 1)
    flops = n * c * p * p * (9 - 1) + n * c * q * q * 4 + n * c * hw * hw
    return m, {"N": n}, flops, 0


def case_norms_and_softmax():
    b, s, d = 2, 3, 8
    shape = ["B", "S", d]
    m = model([helper.make_node("LayerNormalization", ["x", "g", "be"], ["ln"], axis=-1),
               helper.make_node("Softmax", ["ln"], ["sm"]),
               helper.make_node("ReduceMean", ["sm"], ["rm"], axes=[2], keepdims=1),
               helper.make_node("Sigmoid", ["rm"], ["y"])],
              [("x", F, shape), ("g", F, [d]), ("be", F, [d])], ["y"])
    e = b * s * d
    reduced = b * s
    # LayerNorm 8 per element with a bias; Softmax 5; ReduceMean: E - O adds and O divides;
    # Sigmoid 4 per element.
    return m, {"B": b, "S": s}, 8 * e + 5 * e + e + 4 * reduced, 0


def case_einsum():
    b, i, j, k = 2, 3, 4, 5
    m = model([helper.make_node("Einsum", ["a", "c"], ["y"], equation="bij,bjk->bik")],
              [("a", F, ["B", i, j]), ("c", F, ["B", j, k])], ["y"], opsets=(("", 12),))
    terms = b * i * j * k
    return m, {"B": b}, 2 * terms, terms


def case_onnx_attention():
    b, h, sq, skv, d, dv = 2, 4, 3, 7, 8, 6
    m = model([helper.make_node("Attention", ["q", "k", "v"], ["y"], is_causal=1)],
              [("q", F, ["B", h, sq, d]), ("k", F, ["B", h, skv, d]), ("v", F, ["B", h, skv, dv])],
              ["y"], opsets=(("", 23),))
    scores = b * h * sq * skv
    macs = scores * d + scores * dv
    # per score: scale, softmax 5, causal mask.
    return m, {"B": b}, 2 * macs + scores * 7, macs


def case_contrib_attention():
    b, s, hidden, heads = 2, 5, 16, 4
    m = model([helper.make_node("Attention", ["x", "w", "bias"], ["y"], domain="com.microsoft",
                                num_heads=heads)],
              [("x", F, ["B", "S", hidden]), ("w", F, [hidden, 3 * hidden]),
               ("bias", F, [3 * hidden])], ["y"], opsets=(("", 17), ("com.microsoft", 1)))
    projection = b * s * hidden * 3 * hidden
    attention = b * heads * s * s * (hidden // heads) * 2
    scores = b * heads * s * s
    macs = projection + attention
    return m, {"B": b, "S": s}, 2 * macs + b * s * 3 * hidden + scores * 6, macs


def case_elementwise_and_movement():
    n = 6
    m = model([helper.make_node("Add", ["x", "c"], ["a"]),
               helper.make_node("Gelu", ["a"], ["g"]),
               helper.make_node("Transpose", ["g"], ["t"]),
               helper.make_node("Reshape", ["t", "shape"], ["y"])],
              [("x", F, ["N", 4]), ("c", F, [4])], ["y"], opsets=(("", 20),),
              initializers=[helper.make_tensor("shape", TensorProto.INT64, [1], [-1])])
    # Add 1 and Gelu 5 per element; Transpose and Reshape move data.
    return m, {"N": n}, n * 4 * (1 + 5), 0


def case_loop_with_known_trip_count():
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c2"]),
         helper.make_node("MatMul", ["v", "w"], ["v2"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v", F, ["N", 4])],
        [helper.make_tensor_value_info("c2", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v2", F, ["N", 4])])
    n, trips = 3, 5
    m = model([helper.make_node("Loop", ["m", "", "x"], ["y"], body=body)],
              [("x", F, ["N", 4]), ("w", F, [4, 4])], ["y"],
              initializers=[helper.make_tensor("m", TensorProto.INT64, [], [trips])])
    macs = trips * n * 4 * 4
    return m, {"N": n}, 2 * macs, macs


def case_lstm():
    seq, batch, inp, hidden = 6, 3, 5, 4
    m = model([helper.make_node("LSTM", ["x", "w", "r", "b"], ["y"], hidden_size=hidden)],
              [("x", F, ["T", "N", inp]), ("w", F, [1, 4 * hidden, inp]),
               ("r", F, [1, 4 * hidden, hidden]), ("b", F, [1, 8 * hidden])], ["y"])
    steps = seq * batch
    macs = steps * 4 * hidden * (inp + hidden)
    # Per step and hidden unit: 3 sigmoids (4 each), tanh, f*c + i*g (3), o*tanh(c) (2), and
    # the two biases of 4 gates (8).
    return m, {"T": seq, "N": batch}, 2 * macs + steps * hidden * (12 + 1 + 3 + 2 + 8), macs


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_api_matches_independent_count(name):
    m, binding, flops, macs = CASES[name]()
    result = onnx_infer.infer(m, cost=True)
    assert not result.errors, [d.message for d in result.errors]
    cost = result.cost
    assert not cost.lower_bound, [n for n in cost.nodes if n.flops is None]
    values = cost.evaluate(binding)
    assert values.unbound_symbols == []
    assert (values.total_flops, values.total_macs) == (flops, macs)
    # The bound inference gives the same numbers as the expressions evaluated.
    bound = onnx_infer.infer(m, cost=True, bind=binding).cost
    assert (bound.total_flops, bound.total_macs) == (flops, macs)


@pytest.mark.skipif(not CLI.is_file(), reason="bazel-bin/cli/infer-shapes is not built")
@pytest.mark.parametrize("name", sorted(CASES))
def test_cli_matches_independent_count(name, tmp_path):
    m, binding, flops, macs = CASES[name]()
    path = tmp_path / "m.onnx"
    onnx.save(m, str(path))
    bind = ",".join(f"{k}={v}" for k, v in binding.items())
    run = subprocess.run([str(CLI), str(path), "--cost", "--bind", bind, "--json", "-", "-q"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    totals = json.loads(run.stdout)["cost"]["totals"]
    assert (totals["flops_value"], totals["macs_value"]) == (flops, macs)
    assert isinstance(totals["flops"], str)  # the expression, evaluated under --bind


def test_evaluate_several_bindings_and_unbound():
    m, _, _, _ = case_matmul_broadcast()
    cost = onnx_infer.infer(m, cost=True).cost
    assert cost.total_flops == "144*B*S"
    assert cost.evaluate({"B": 1, "S": 1}).total_flops == 144
    assert cost.evaluate({"B": 2, "S": 10}).total_flops == 2880
    partial = cost.evaluate({"B": 2})
    assert partial.total_flops is None and partial.unbound_symbols == ["S"]
    assert partial.nodes == [(None, None)]


def test_no_formula_is_listed_not_guessed():
    m = model([helper.make_node("Relu", ["x"], ["r"]),
               helper.make_node("TopK", ["r", "k"], ["y", "i"])],
              [("x", F, [2, 8]), ("k", TensorProto.INT64, [1])], ["y"], opsets=(("", 17),))
    cost = onnx_infer.infer(m, cost=True).cost
    assert cost.total_flops == 16 and cost.lower_bound
    assert cost.ops_without_formula == {"TopK": 1}
    topk = cost.nodes[1]
    assert (topk.op, topk.kind, topk.flops, topk.macs) == ("TopK", "no formula", None, None)
    assert onnx_infer.infer(m).cost is None


REAL_MODELS = sorted(REAL.glob("*.onnx")) if REAL.is_dir() else []


def _static(graph_values):
    """Whether every value of the main graph has a static shape or is not a tensor."""
    for t in graph_values.values():
        if t is not None and t.kind != "tensor":
            continue
        if t is None or t.shape is None:
            return False
        if any(not isinstance(d, int) for d in t.shape):
            return False
    return True


@pytest.mark.skipif(not REAL_MODELS, reason="../shared/models/real is not present")
@pytest.mark.parametrize("path", REAL_MODELS[:60], ids=lambda p: p.name)
def test_real_models(path):
    if path.stat().st_size > 64 << 20:
        pytest.skip("large model")
    result = onnx_infer.infer(str(path), cost=True)
    cost = result.cost
    assert len(cost.nodes) >= len(onnx.load(str(path), load_external_data=False).graph.node)
    for n in cost.nodes:
        if n.flops is None:
            assert n.kind == "no formula" or n.note, n
            assert cost.lower_bound
        if isinstance(n.flops, int):
            assert n.flops >= 0 and n.macs >= 0 and n.flops >= 2 * n.macs, n
    if _static(result.values["main"]):
        assert isinstance(cost.total_flops, int) and cost.total_flops >= 0
    # Every symbol bound to 8: the totals evaluate, or name what is missing.
    symbols = {s.name for s in result.symbols}
    values = cost.evaluate({s: 8 for s in symbols})
    if cost.total_flops is not None:
        assert values.total_flops is not None or values.unbound_symbols, cost.total_flops
