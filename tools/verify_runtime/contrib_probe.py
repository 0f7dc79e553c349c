#!/usr/bin/env python3
"""Which one onnxruntime follows where its contrib documentation and its kernels disagree.

docs/contrib-ops.md lists, per com.microsoft operator family, the points where onnxruntime's
ContribOperators.md and its kernels disagree (or where the document is silent) and what our
rules follow. Each CASE below builds one small model that exercises exactly one such point
with concrete input shapes, runs it with onnxruntime (run.js, onnxruntime-node), infers it with
onnx_infer twice (inputs declared with the concrete shapes, and with one symbol a dim whose
result is evaluated under the binding), and prints one row an output:

  operator | case | output | the document says | our rule gives | the runtime gives | verdict

Verdicts: "follows doc" (the runtime gives what the document says), "follows our rule" (it
differs from the document and gives what we infer), "differs from both", "doc silent" (the
document states nothing for this output), "runtime refuses" (load or run error: the case is
not evidence either way). The "ours" column is marked CONTRADICTION when our inference (either
run) disagrees with an output of a run the runtime accepted, or when our inference reports an
error for such a model. Exit codes: 0 none, 1 some contradiction, 2 set-up error.

Usage: contrib_probe.py [--node-modules DIR] [--only OP] [--json FILE]
"""

import argparse
import base64
import json
import os
import re
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import onnx_infer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from verify import ORT_TYPES, Runtime, Verifier, evaluate  # noqa: E402

DEFAULT_NODE_MODULES = os.path.expanduser(
    "~/.cache/onnx-infer/onnxruntime-node-1.30.0/node_modules")

F, F16, I32, I64, U8, I8 = (np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8)
ELEM_NAME = {TensorProto.FLOAT: "float", TensorProto.FLOAT16: "float16",
             TensorProto.INT32: "int32", TensorProto.INT64: "int64", TensorProto.UINT8: "uint8",
             TensorProto.INT8: "int8", TensorProto.BOOL: "bool", TensorProto.UINT32: "uint32"}
ELEM_OF = {"float": TensorProto.FLOAT, "float16": TensorProto.FLOAT16,
           "int32": TensorProto.INT32, "int64": TensorProto.INT64, "uint8": TensorProto.UINT8,
           "int8": TensorProto.INT8}


class Case:
    """One model of one node.

    inputs: (name, array) in the node's order; name "" for an absent optional input. Arrays
    named in ``consts`` become initializers (their values known to the engine, as in an
    exported model); the others are graph inputs fed with that data.
    expect: output name -> (element type name or None, dims or None, the document's words);
    an output missing from expect is one the document gives no shape or type for.
    """

    def __init__(self, op: str, name: str, inputs: Sequence[Tuple[str, Any]],
                 outputs: Sequence[str], expect: Dict[str, Tuple[Optional[str], Any, str]],
                 attrs: Optional[Dict[str, Any]] = None, consts: Sequence[str] = (),
                 domain: str = "com.microsoft", opset: int = 17,
                 out_types: Optional[Dict[str, int]] = None):
        self.op, self.name, self.inputs, self.outputs = op, name, list(inputs), list(outputs)
        # Outputs declared with an element type: onnxruntime refuses a graph output whose type
        # its own inference cannot give (MultiHeadAttention's qk has its own type QK).
        self.out_types = out_types or {}
        self.expect, self.attrs, self.consts = expect, attrs or {}, set(consts)
        self.domain, self.opset = domain, opset

    def model(self, symbolic: bool) -> Tuple[onnx.ModelProto, Dict[str, int]]:
        """The model, and the binding of the symbols its inputs declare (symbolic run)."""
        graph_inputs, inits, env = [], [], {}
        for name, array in self.inputs:
            if not name:
                continue
            if name in self.consts:
                inits.append(numpy_helper.from_array(np.asarray(array), name))
                continue
            elem = helper.np_dtype_to_tensor_dtype(np.asarray(array).dtype) \
                if hasattr(helper, "np_dtype_to_tensor_dtype") else \
                onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.asarray(array).dtype]
            dims: List[Any] = list(np.asarray(array).shape)
            if symbolic:
                for axis, d in enumerate(dims):
                    sym = f"{name}_{axis}"
                    env[sym] = d
                    dims[axis] = sym
            graph_inputs.append(helper.make_tensor_value_info(name, elem, dims))
        node = helper.make_node(self.op, [n for n, _ in self.inputs], self.outputs,
                                domain=self.domain, **self.attrs)
        outs = []
        for o in self.outputs:
            if o in self.out_types:
                outs.append(helper.make_tensor_value_info(o, self.out_types[o], None))
            elif o:
                vi = onnx.ValueInfoProto()
                vi.name = o
                outs.append(vi)
        graph = helper.make_graph([node], "probe", graph_inputs, outs, initializer=inits)
        opsets = [helper.make_opsetid("", self.opset)]
        if self.domain:
            opsets.append(helper.make_opsetid(self.domain, 1))
        return helper.make_model(graph, opset_imports=opsets, ir_version=8), env

    def feeds(self) -> Dict[str, Any]:
        feeds = {}
        for name, array in self.inputs:
            if not name or name in self.consts:
                continue
            array = np.asarray(array)
            type_name = ORT_TYPES[onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype]]
            raw = array.view(np.uint16) if array.dtype == np.float16 else array
            feeds[name] = {"type": type_name, "dims": list(array.shape),
                           "b64": base64.b64encode(raw.astype(raw.dtype.newbyteorder("<"))
                                                   .tobytes()).decode()}
        return feeds


def z(*shape, dtype=F):
    return np.zeros(shape, dtype=dtype)


def o(*shape, dtype=F):
    return np.ones(shape, dtype=dtype)


def i32(*values):
    return np.array(values, dtype=I32)


def scalar_i32(v):
    return np.array(v, dtype=I32)


# ---- The cases, one family after another in docs/contrib-ops.md's order.

def gqa_cases() -> List[Case]:
    cases = []
    N, NKV, H = 2, 1, 8
    doc_present = ("present: past_sequence_length + kv_sequence_length, or max_sequence_length "
                   "when past and present share a buffer")

    def gqa(name, b, s, p, seqlens, total, doc_len, shared=False, consts=("seqlens_k",
            "total_sequence_length"), packed=False, qk=False, doc_qk=None, window=0):
        q_width = (N + 2 * NKV) * H if packed else N * H
        inputs = [("query", o(b, s, q_width)),
                  ("" if packed else "key", o(b, s, NKV * H)),
                  ("" if packed else "value", o(b, s, NKV * H))]
        if p is None:
            inputs += [("", None), ("", None)]
        else:
            inputs += [("past_key", o(b, NKV, p, H)), ("past_value", o(b, NKV, p, H))]
        inputs += [("seqlens_k", np.array(seqlens, dtype=I32)),
                   ("total_sequence_length", np.array([total], dtype=I32))]
        outputs = ["output", "present_key", "present_value"]
        attrs = {"num_heads": N, "kv_num_heads": NKV}
        if window:
            attrs.update(local_window_size=window, sliding_window_cache=1)
        expect = {"output": ("float", [b, s, N * H], "(batch, seq, hidden)"),
                  "present_key": ("float", [b, NKV, doc_len, H], doc_present),
                  "present_value": ("float", [b, NKV, doc_len, H], doc_present)}
        if qk:
            outputs.append("output_qk")
            attrs["qk_output"] = 1
        if doc_qk is not None:
            expect["output_qk"] = ("float", doc_qk, "no shape given")
        cases.append(Case("GroupQueryAttention", name, inputs, outputs, expect, attrs,
                          consts=consts))

    gqa("prompt, no past, B=1 S=3", 1, 3, None, [2], 3, 3)
    gqa("prompt, no past, B=2 S=3", 2, 3, None, [2, 2], 3, 3)
    gqa("prompt, no past, S=1", 1, 1, None, [0], 1, 1)
    gqa("separate past P=4, S=1, T=5", 1, 1, 4, [4], 5, 5)
    gqa("separate past P=4, B=2 S=1, T=5", 2, 1, 4, [4, 4], 5, 5)
    gqa("past P=0 (first step), S=3, T=3", 1, 3, 0, [2], 3, 3)
    gqa("shared buffer P=max=8, S=1, T=5", 1, 1, 8, [4], 5, 8, shared=True)
    gqa("shared buffer P=max=8, B=2, S=1, T=5", 2, 1, 8, [4, 2], 5, 8, shared=True)
    gqa("shared buffer P=max=8, S=3 prompt, T=3", 1, 3, 8, [2], 3, 8, shared=True)
    gqa("separate past, T unknown (graph input)", 1, 1, 4, [4], 5, 5,
        consts=())
    gqa("separate past, T unknown, seqlens_k const", 1, 1, 4, [4], 5, 5,
        consts=("seqlens_k",))
    gqa("packed QKV, no past, S=3", 1, 3, None, [2], 3, 3, packed=True)
    gqa("packed QKV, separate past P=4", 1, 1, 4, [4], 5, 5, packed=True)
    gqa("output_qk, separate past P=4", 1, 1, 4, [4], 5, 5, qk=True)
    gqa("output_qk, no past S=3", 1, 3, None, [2], 3, 3, qk=True)
    gqa("sliding_window_cache, capacity 4, T=6", 1, 1, 4, [5], 6, 4, window=4)
    # The document's P + L against the kernel's Max(T, P): a separate past of 4 rows of which
    # seqlens_k says only 2 are filled (a padded batch entry), so T = 3 < P + L = 5.
    gqa("separate past P=4 holding 2 tokens, S=1, T=3", 1, 1, 4, [2], 3, 5)
    gqa("separate past P=4, B=2, seqlens_k [4, 1], T=5", 2, 1, 4, [4, 1], 5, 5)
    gqa("no past, T unknown (graph inputs), S=3", 1, 3, None, [2], 3, 3, consts=())
    # T only from attention_bias's last dim (the document fixes it to total_sequence_length).
    inputs = [("query", o(1, 1, N * H)), ("key", o(1, 1, NKV * H)), ("value", o(1, 1, NKV * H)),
              ("past_key", o(1, NKV, 4, H)), ("past_value", o(1, NKV, 4, H)),
              ("seqlens_k", np.array([4], I32)), ("total_sequence_length", np.array([5], I32)),
              ("", None), ("", None), ("", None), ("attention_bias", z(1, 1, 1, 5))]
    cases.append(Case("GroupQueryAttention", "separate past P=4, T from attention_bias only",
                      inputs, ["output", "present_key", "present_value"],
                      {"present_key": ("float", [1, NKV, 5, H], doc_present),
                       "present_value": ("float", [1, NKV, 5, H], doc_present)},
                      {"num_heads": N, "kv_num_heads": NKV}))
    # A quantized (int8) cache: present keeps the cache's element type.
    inputs = [("query", o(1, 1, N * H)), ("key", o(1, 1, NKV * H)), ("value", o(1, 1, NKV * H)),
              ("past_key", z(1, NKV, 8, H, dtype=I8)), ("past_value", z(1, NKV, 8, H, dtype=I8)),
              ("seqlens_k", np.array([4], I32)), ("total_sequence_length", np.array([5], I32)),
              ("", None), ("", None), ("", None), ("", None), ("", None),
              ("k_scale", o(1)), ("v_scale", o(1))]
    cases.append(Case("GroupQueryAttention", "int8 cache, shared buffer 8, T=5",
                      inputs, ["output", "present_key", "present_value"],
                      {"present_key": ("int8", [1, NKV, 8, H], "T_CACHE, past's type"),
                       "present_value": ("int8", [1, NKV, 8, H], "T_CACHE, past's type")},
                      {"num_heads": N, "kv_num_heads": NKV, "k_quant_type": "PER_TENSOR",
                       "v_quant_type": "PER_TENSOR", "kv_cache_bit_width": 8},
                      consts=("seqlens_k", "total_sequence_length", "k_scale", "v_scale")))
    # SparseAttention: always a shared buffer of max_cache_sequence_length rows.
    for label, b, s_len, total in (("decode S=1, cache 32, T=5", 1, 1, 5),
                                   ("prompt S=4, cache 32, T=4, B=2", 2, 4, 4)):
        inputs = [("query", o(b, s_len, N * H)), ("key", o(b, s_len, NKV * H)),
                  ("value", o(b, s_len, NKV * H)), ("past_key", z(b, NKV, 32, H)),
                  ("past_value", z(b, NKV, 32, H)),
                  ("block_row_indices", np.array([[0, 1, 3]], I32)),
                  ("block_col_indices", np.array([[0, 0, 1]], I32)),
                  ("total_sequence_length", np.array([total], I32)),
                  ("key_total_sequence_lengths", np.full((b,), total, I32))]
        doc = "(B, kv_num_heads, max_cache_sequence_length, H)"
        cases.append(Case("SparseAttention", label, inputs,
                          ["output", "present_key", "present_value"],
                          {"output": ("float", [b, s_len, N * H], "(B, S, N * H)"),
                           "present_key": ("float", [b, NKV, 32, H], doc),
                           "present_value": ("float", [b, NKV, 32, H], doc)},
                          {"num_heads": N, "kv_num_heads": NKV, "sparse_block_size": 16},
                          consts=("block_row_indices", "block_col_indices",
                                  "total_sequence_length", "key_total_sequence_lengths")))
    return cases


def mha_cases() -> List[Case]:
    cases = []
    N, H = 2, 4
    D = N * H

    def mha(name, b, s, l, p, expect_len, pastlen=None, qk=False, cross4d=False, consts=(),
            qk_len=None):
        inputs = [("query", o(b, s, D))]
        if cross4d:
            inputs += [("key", o(b, N, l, H)), ("value", o(b, N, l, H))]
        else:
            inputs += [("key", o(b, l, D)), ("value", o(b, l, D))]
        inputs += [("", None), ("", None), ("", None)]
        if p is None:
            inputs += [("", None), ("", None)]
        else:
            inputs += [("past_key", o(b, N, p, H)), ("past_value", o(b, N, p, H))]
        if pastlen is not None:
            inputs.append(("past_sequence_length", np.array([pastlen], dtype=I32)))
        outputs = ["output", "present_key", "present_value"]
        doc = "present: (B, N, total_sequence_length, H), max_sequence_length with sharing"
        expect = {"output": ("float", [b, s, D], "(batch, seq, v_hidden)")}
        if expect_len is not None:
            expect["present_key"] = ("float", [b, N, expect_len, H], doc)
            expect["present_value"] = ("float", [b, N, expect_len, H], doc)
        if qk:
            outputs.append("qk")
            expect["qk"] = (None, [b, N, s, qk_len], "(batch, heads, seq, total_sequence_length)")
        cases.append(Case("MultiHeadAttention", name, inputs, outputs, expect,
                          {"num_heads": N}, consts=consts, out_types={"qk": TensorProto.FLOAT}))

    mha("self, no past, B=2 S=3", 2, 3, 3, None, 3)
    mha("self, no past, B=1 S=1", 1, 1, 1, None, 1)
    mha("separate past P=4, S=1", 1, 1, 1, 4, 5)
    mha("separate past P=4, B=2 S=2", 2, 2, 2, 4, 6)
    mha("past P=0, S=3", 1, 3, 3, 0, 3)
    mha("shared buffer P=max=8, past_sequence_length=4", 1, 1, 1, 8, 8, pastlen=4,
        consts=("past_sequence_length",))
    mha("cross attention, 4-D key/value L=5", 2, 3, 5, None, 5, cross4d=True)
    mha("qk, separate past P=4", 1, 1, 1, 4, 5, qk=True, qk_len=5)
    mha("qk, no past S=3", 2, 3, 3, None, 3, qk=True, qk_len=3)
    cases.append(Case("MultiHeadAttention", "packed QKV [B,S,N,3,H], B=2 S=3",
                      [("query", o(2, 3, N, 3, H))], ["output"],
                      {"output": ("float", [2, 3, D], "(batch, seq, v_hidden)")},
                      {"num_heads": N}))
    cases.append(Case("MultiHeadAttention", "packed KV [B,L,N,2,H], B=2 S=3 L=5",
                      [("query", o(2, 3, D)), ("key", o(2, 5, N, 2, H))],
                      ["output", "present_key", "present_value"],
                      {"output": ("float", [2, 3, D], "(batch, seq, v_hidden)")},
                      {"num_heads": N}))
    return cases


def attention_cases() -> List[Case]:
    cases = []
    N, H, DIN = 2, 4, 6
    D = N * H

    def att(name, b, s, p, doc_len, share=False, pastlen=None, mask=None, pastlen_shape=(1,)):
        inputs = [("input", o(b, s, DIN)), ("weights", o(DIN, 3 * D)), ("bias", o(3 * D)),
                  ("mask_index", mask) if mask is not None else ("", None)]
        inputs.append(("past", o(2, b, N, p, H)) if p is not None else ("", None))
        attrs = {"num_heads": N}
        if share:
            attrs["past_present_share_buffer"] = 1
            inputs += [("", None), ("past_sequence_length",
                                    np.full(pastlen_shape, pastlen, dtype=I32))]
        doc = ("present (2, B, N, total_sequence_length, H); (2, B, N, max_sequence_length, H) "
               "with past_present_share_buffer")
        expect = {"output": ("float", [b, s, D], "(batch, seq, v_hidden)"),
                  "present": ("float", [2, b, N, doc_len, H], doc)}
        cases.append(Case("Attention", name, inputs, ["output", "present"], expect, attrs,
                          consts=("weights", "bias", "past_sequence_length")))

    att("no past, B=2 S=3", 2, 3, None, 3)
    att("no past, B=1 S=1", 1, 1, None, 1)
    att("separate past P=4, S=1", 1, 1, 4, 5)
    att("separate past P=4, B=2 S=2", 2, 2, 4, 6)
    att("past P=0, S=3", 1, 3, 0, 3)
    att("shared buffer P=max=8, past_sequence_length=4", 1, 1, 8, 8, share=True, pastlen=4)
    att("shared buffer P=max=8, scalar past_sequence_length=4", 1, 1, 8, 8, share=True,
        pastlen=4, pastlen_shape=())
    att("shared buffer P=max=8, scalar past_sequence_length=0, S=3", 1, 3, 8, 8, share=True,
        pastlen=0, pastlen_shape=())
    return cases


def qattention_cases() -> List[Case]:
    cases = []
    N, H, DIN = 2, 4, 6
    D = N * H

    def qatt(name, b, s, p, doc_len, share=False):
        inputs = [("input", o(b, s, DIN, dtype=U8)), ("weight", o(DIN, 3 * D, dtype=U8)),
                  ("bias", o(3 * D)), ("input_scale", np.array(1.0, dtype=F)),
                  ("weight_scale", np.array(1.0, dtype=F)), ("", None),
                  ("input_zero_point", np.array(0, dtype=U8)),
                  ("weight_zero_point", np.array(0, dtype=U8)),
                  ("past", o(2, b, N, p, H)) if p is not None else ("", None)]
        attrs = {"num_heads": N}
        if share:
            attrs["past_present_share_buffer"] = 1
        doc = "present (2, B, N, past_sequence_length + sequence_length, H)"
        expect = {"output": ("float", [b, s, D], "(batch, seq, hidden)"),
                  "present": ("float", [2, b, N, doc_len, H], doc)}
        cases.append(Case("QAttention", name, inputs, ["output", "present"], expect, attrs,
                          consts=("weight", "bias", "input_scale", "weight_scale",
                                  "input_zero_point", "weight_zero_point")))

    qatt("no past, B=2 S=3", 2, 3, None, 3)
    qatt("separate past P=4, S=1", 1, 1, 4, 5)
    qatt("past P=0, S=2", 1, 2, 0, 2)
    qatt("past_present_share_buffer, P=8, S=1", 1, 1, 8, 8, share=True)
    return cases


def decoder_masked_cases() -> List[Case]:
    cases = []
    N, H = 2, 4
    D = N * H

    def dmmha(name, b, m, pastlen, beam=1, shared=True, qk=False):
        inputs = [("query", o(b, 1, D)), ("key", o(b, 1, D)), ("value", o(b, 1, D)),
                  ("", None), ("", None), ("past_key", o(b, N, m, H)),
                  ("past_value", o(b, N, m, H)),
                  ("past_sequence_length", np.array([pastlen], dtype=I32)),
                  ("beam_width", np.array([beam], dtype=I32)),
                  ("cache_indirection", z(b // beam, beam, m, dtype=I32))]
        attrs = {"num_heads": N, "past_present_share_buffer": 1 if shared else 0}
        outputs = ["output", "present_key", "present_value"]
        if shared:
            doc, doc_len = "present (B, N, max_sequence_length, H) with sharing", m
        else:
            doc, doc_len = "present (B, N, total_sequence_length, H)", m + 1
        expect = {"output": ("float", [b, 1, D], "(batch, 1, v_hidden)"),
                  "present_key": ("float", [b, N, doc_len, H], doc),
                  "present_value": ("float", [b, N, doc_len, H], doc)}
        if qk:
            attrs["output_qk"] = 1
            outputs.append("qk")
            expect["qk"] = (None, [b, N, 1, pastlen + 1], "(batch, heads, 1, total_seq)")
        cases.append(Case("DecoderMaskedMultiHeadAttention", name, inputs, outputs, expect,
                          attrs, consts=("past_sequence_length", "beam_width"),
                          out_types={"qk": TensorProto.FLOAT}))

    dmmha("shared buffer M=8, past 4, B=1", 1, 8, 4)
    dmmha("shared buffer M=8, past 0, B=2 beam 2", 2, 8, 0, beam=2)
    dmmha("shared buffer M=8, past 4, qk", 1, 8, 4, qk=True)
    dmmha("no buffer sharing, past 4 rows, past_sequence_length 4", 1, 4, 4, shared=False)
    # Cross attention: key/value are the 4-D caches; no past, no present.
    inputs = [("query", o(2, 1, D)), ("key", o(2, N, 5, H)), ("value", o(2, N, 5, H))]
    cases.append(Case("DecoderMaskedMultiHeadAttention", "cross attention L=5", inputs,
                      ["output"], {"output": ("float", [2, 1, D], "(batch, 1, v_hidden)")},
                      {"num_heads": N}))
    cases.append(Case("DecoderMaskedMultiHeadAttention", "cross attention L=5, present asked",
                      inputs, ["output", "present_key", "present_value"],
                      {"output": ("float", [2, 1, D], "(batch, 1, v_hidden)")},
                      {"num_heads": N}))
    cases.append(Case(
        "DecoderMaskedSelfAttention", "shared buffer M=8, past 4",
        [("input", o(1, 1, 6)), ("weights", o(6, 3 * D)), ("bias", o(3 * D)), ("", None),
         ("past", o(2, 1, N, 8, H)), ("", None),
         ("past_sequence_length", np.array([4], dtype=I32))],
        ["output", "present"],
        {"present": ("float", [2, 1, N, 8, H], "(2, B, N, max_sequence_length, H) shared")},
        {"num_heads": N, "past_present_share_buffer": 1},
        consts=("weights", "bias", "past_sequence_length")))
    return cases


def nn_cases() -> List[Case]:
    cases = []
    # SkipLayerNormalization / SkipSimplifiedLayerNormalization: the optional outputs.
    for op in ("SkipLayerNormalization", "SkipSimplifiedLayerNormalization"):
        for label, b, s, skip in (("skip [B,S,H] B=2 S=3", 2, 3, (2, 3, 8)),
                                  ("skip [1,S,H] B=2 S=3", 2, 3, (1, 3, 8)),
                                  ("skip [S,H] B=2 S=3", 2, 3, (3, 8)),
                                  ("B=1 S=1", 1, 1, (1, 1, 8)),
                                  ("S=0", 2, 0, (2, 0, 8)),
                                  ("2-D input [T,H] T=5", None, 5, (5, 8))):
            x = o(s, 8) if b is None else o(b, s, 8)
            bs = [s] if b is None else [b, s]
            inputs = [("input", x), ("skip", o(*skip)), ("gamma", o(8))]
            if op == "SkipLayerNormalization":
                inputs += [("beta", o(8)), ("bias", o(8))]
            else:
                inputs += [("bias", o(8))]
            expect = {"output": ("float", bs + [8], "(batch, seq, hidden)"),
                      "input_skip_bias_sum": ("float", bs + [8], "(batch, seq, hidden)"),
                      "mean": ("float", None, "U = float, no shape given"),
                      "inv_std_var": ("float", None, "U = float, no shape given")}
            cases.append(Case(op, label, inputs,
                              ["output", "mean", "inv_std_var", "input_skip_bias_sum"],
                              expect, {"epsilon": 1e-5}, consts=("gamma", "beta", "bias")))

    # EmbedLayerNormalization: output types; mask_index with and without a mask.
    for label, b, s, mask in (("with mask B=2 S=3", 2, 3, True), ("no mask B=2 S=3", 2, 3, False),
                              ("no mask B=1 S=1", 1, 1, False)):
        inputs = [("input_ids", z(b, s, dtype=I32)), ("segment_ids", z(b, s, dtype=I32)),
                  ("word_embedding", o(10, 8)), ("position_embedding", o(16, 8)),
                  ("segment_embedding", o(2, 8)), ("gamma", o(8)), ("beta", o(8))]
        if mask:
            inputs.append(("mask", o(b, s, dtype=I32)))
        expect = {"output": ("float", [b, s, 8], "(batch, seq, hidden)"),
                  "mask_index": ("int32", [b], "(batch) int32, optional"),
                  "embedding_sum": ("float", None, "type T, no shape given")}
        cases.append(Case("EmbedLayerNormalization", label, inputs,
                          ["output", "mask_index", "embedding_sum"], expect, {"epsilon": 1e-5},
                          consts=("word_embedding", "position_embedding", "segment_embedding",
                                  "gamma", "beta")))

    # SimplifiedLayerNormalization (default domain): inv_std_var for axis != -1.
    for axis, shape in ((-1, (2, 3, 4)), (1, (2, 3, 4)), (0, (2, 3, 4)), (-1, (2, 0, 4))):
        scale = o(*shape[axis:]) if axis >= 0 else o(shape[-1])
        inputs = [("X", o(*shape)), ("scale", scale)]
        cases.append(Case("SimplifiedLayerNormalization", f"axis={axis} X{list(shape)}", inputs,
                          ["Y", "inv_std_var"],
                          {"Y": ("float", list(shape), "X's shape")}, {"axis": axis},
                          consts=("scale",), domain="", opset=17))
        # LayerNormalization-1 (default domain, opset < 17): Mean and InvStdDev.
    for axis in (-1, 1):
        shape = (2, 3, 4)
        scale = o(*shape[axis:]) if axis >= 0 else o(shape[-1])
        cases.append(Case("LayerNormalization", f"opset 16 (ORT's v1), axis={axis}",
                          [("X", o(*shape)), ("Scale", scale), ("B", scale)],
                          ["Y", "Mean", "InvStdDev"], {"Y": ("float", list(shape), "X's shape")},
                          {"axis": axis}, consts=("Scale", "B"), domain="", opset=16))

    # FusedMatMul: transBatch and rank-1 transA.
    def fmm(label, a, b, attrs, doc):
        cases.append(Case("FusedMatMul", label, [("A", o(*a)), ("B", o(*b))], ["Y"],
                          {"Y": ("float", doc, "the matmul after the transposes")}, attrs))

    fmm("transBatchA [3,2,4]x[2,4,5]", (3, 2, 4), (2, 4, 5), {"transBatchA": 1}, [2, 3, 5])
    fmm("transBatchB [2,3,4]x[4,2,5]", (2, 3, 4), (4, 2, 5), {"transBatchB": 1}, [2, 3, 5])
    fmm("transBatchA+transA [4,2,3]x[2,4,5]", (4, 2, 3), (2, 4, 5),
        {"transBatchA": 1, "transA": 1}, [2, 3, 5])
    fmm("transBatchA rank 4 [3,2,5,4]x[2,5,4,6]", (3, 2, 5, 4), (2, 5, 4, 6),
        {"transBatchA": 1}, [2, 5, 3, 6])
    fmm("transA on rank-1 A [4]x[4,5]", (4,), (4, 5), {"transA": 1}, [5])
    fmm("transB on rank-1 B [3,4]x[4]", (3, 4), (4,), {"transB": 1}, [3])
    fmm("transBatchA on rank 2 [3,4]x[4,5]", (3, 4), (4, 5), {"transBatchA": 1}, None)
    fmm("transBatchB rank 3 B, rank 2 A", (3, 4), (4, 2, 5), {"transBatchB": 1}, None)

    # ConvTransposeWithDynamicPads: Pads under VALID and NOTSET.
    for pad_mode in ("NOTSET", "VALID"):
        cases.append(Case(
            "ConvTransposeWithDynamicPads", f"auto_pad={pad_mode}, Pads=[1,1,1,1]",
            [("X", o(1, 1, 3, 3)), ("W", o(1, 1, 3, 3)), ("Pads", np.array([1, 1, 1, 1], I64))],
            ["Y"], {"Y": ("float", None, "no shape given")},
            {"auto_pad": pad_mode, "kernel_shape": [3, 3]}, consts=("W", "Pads")))

    # QuickGelu, BiasSplitGelu, BitmaskDropout: shape of X / unknown.
    for shape in ((2, 3), (0, 3), (1,)):
        cases.append(Case("QuickGelu", f"X{list(shape)}", [("X", o(*shape))], ["Y"],
                          {"Y": ("float", list(shape), "shape of X implied")}, {"alpha": 1.702}))
    cases.append(Case("BiasSplitGelu", "X[2,3,8]", [("X", o(2, 3, 8)), ("bias", o(8))], ["Y"],
                      {"Y": ("float", [2, 3, 4], "(N, S, D/2)")}, consts=("bias",)))
    cases.append(Case("BitmaskDropout", "X[2,40]", [("data", o(2, 40))], ["output", "mask"],
                      {"output": ("float", [2, 40], "data's shape"),
                       "mask": ("uint32", None, "bit-packed")}))
    return cases


def quantization_cases() -> List[Case]:
    cases = []

    def qgemm(label, y_scale, y_zp, doc_type):
        inputs = [("A", o(2, 3, dtype=U8)), ("a_scale", np.array(1.0, F)),
                  ("a_zero_point", np.array(0, U8)), ("B", o(3, 4, dtype=U8)),
                  ("b_scale", np.array(1.0, F)), ("b_zero_point", np.array(0, U8)), ("", None),
                  ("y_scale", np.array(1.0, F)) if y_scale else ("", None),
                  ("y_zero_point", np.array(0, U8)) if y_zp else ("", None)]
        cases.append(Case("QGemm", label, inputs, ["Y"],
                          {"Y": (doc_type, [2, 4], "float32 if y_scale / y_zero_point not "
                                 "provided")},
                          consts=("a_scale", "a_zero_point", "B", "b_scale", "b_zero_point",
                                  "y_scale", "y_zero_point")))

    qgemm("no y_scale, no y_zero_point", False, False, "float")
    qgemm("y_scale and y_zero_point", True, True, "uint8")
    qgemm("y_scale only", True, False, None)

    def nbits(label, a, k, n, bits, block, scales_1d=False, zp=None, doc=None):
        kb = -(-k // block)
        blob = block * bits // 8
        inputs = [("A", o(*a)), ("B", z(n, kb, blob, dtype=U8)),
                  ("scales", o(n * kb) if scales_1d else o(n, kb))]
        if zp == "uint8":
            inputs.append(("zero_points", z(n, -(-kb * bits // 8), dtype=U8)))
        elif zp == "float":
            inputs.append(("zero_points", z(n, kb)))
        cases.append(Case("MatMulNBits", label, inputs, ["Y"],
                          {"Y": ("float", list(a[:-1]) + [n], "A's rank, last dim N")},
                          {"K": k, "N": n, "bits": bits, "block_size": block},
                          consts=("B", "scales", "zero_points")))

    nbits("4-bit, A[2,3,32], 2-D scales", (2, 3, 32), 32, 8, 4, 16)
    nbits("4-bit, 1-D scales", (2, 32), 32, 8, 4, 16, scales_1d=True)
    nbits("4-bit, K=20 not a block multiple", (1, 20), 20, 8, 4, 16)
    nbits("4-bit, uint8 zero points", (3, 64), 64, 8, 4, 16, zp="uint8")
    nbits("4-bit, float zero points", (3, 64), 64, 8, 4, 16, zp="float")
    nbits("8-bit, A[0,32]", (0, 32), 32, 8, 8, 16)
    nbits("2-bit, A[1,1,32]", (1, 1, 32), 32, 4, 2, 16)
    cases.append(Case("MatMulNBits", "4-bit, g_idx [K], bias [N]",
                      [("A", o(2, 32)), ("B", z(8, 2, 8, dtype=U8)), ("scales", o(8, 2)),
                       ("", None), ("g_idx", np.repeat(np.arange(2, dtype=I32), 16)),
                       ("bias", o(8))], ["Y"],
                      {"Y": ("float", [2, 8], "A's rank, last dim N")},
                      {"K": 32, "N": 8, "bits": 4, "block_size": 16},
                      consts=("B", "scales", "g_idx", "bias")))

    # MoE: the document's weight layout and onnxruntime's legacy one.
    for label, fc1, fc2 in (("document layout fc1 [E, inter, hidden]", (2, 16, 8), (2, 8, 16)),
                            ("legacy layout fc1 [E, hidden, inter]", (2, 8, 16), (2, 16, 8))):
        cases.append(Case("MoE", label,
                          [("input", o(3, 8)), ("router_probs", o(3, 2)),
                           ("fc1_experts_weights", z(*fc1)), ("", None),
                           ("fc2_experts_weights", z(*fc2))], ["output"],
                          {"output": ("float", [3, 8], "input's shape")},
                          {"k": 1, "activation_type": "relu"},
                          consts=("fc1_experts_weights", "fc2_experts_weights")))

    def gbq(label, data, indices, scales, attrs, doc_shape, zp=None):
        inputs = [("data", data), ("indices", indices), ("scales", scales)]
        if zp is not None:
            inputs.append(("zero_points", zp))
        cases.append(Case("GatherBlockQuantized", label, inputs, ["output"],
                          {"output": ("float", doc_shape, "rank q + r - 1; last dim packed or "
                                      "unpacked not stated")},
                          attrs, consts=("data", "scales", "zero_points")))

    gbq("uint8 bits=4, data[4,16] (32 values), indices[2]", z(4, 16, dtype=U8),
        np.array([0, 3], I64), o(4, 2), {"bits": 4, "block_size": 16, "quantize_axis": 1},
        None)
    gbq("uint8 bits=4, indices[2,3]", z(4, 16, dtype=U8), z(2, 3, dtype=I64), o(4, 2),
        {"bits": 4, "block_size": 16, "quantize_axis": 1}, None)
    gbq("uint8 bits=8, data[4,32]", z(4, 32, dtype=U8), np.array([1], I64), o(4, 2),
        {"bits": 8, "block_size": 16, "quantize_axis": 1}, [1, 32])
    gbq("uint8 bits=4, indices[0]", z(4, 16, dtype=U8), z(0, dtype=I64), o(4, 2),
        {"bits": 4, "block_size": 16, "quantize_axis": 1}, None)
    gbq("uint8 bits=4, gather_axis=1", z(4, 16, dtype=U8), np.array([0], I64), o(4, 2),
        {"bits": 4, "block_size": 16, "quantize_axis": 0, "gather_axis": 1}, None)

    # QLinearConv / QLinearAveragePool with channels_last.
    cases.append(Case(
        "QLinearConv", "channels_last, X[1,5,5,3], W[4,3,3,3]",
        [("x", o(1, 5, 5, 3, dtype=U8)), ("x_scale", np.array(1.0, F)),
         ("x_zero_point", np.array(0, U8)), ("w", o(4, 3, 3, 3, dtype=U8)),
         ("w_scale", np.array(1.0, F)), ("w_zero_point", np.array(0, U8)),
         ("y_scale", np.array(1.0, F)), ("y_zero_point", np.array(0, U8))],
        ["y"], {"y": ("uint8", None, "no shape text")}, {"channels_last": 1},
        consts=("x_scale", "x_zero_point", "w", "w_scale", "w_zero_point", "y_scale",
                "y_zero_point")))
    cases.append(Case(
        "QLinearAveragePool", "channels_last, X[1,5,5,3], kernel 2",
        [("X", o(1, 5, 5, 3, dtype=U8)), ("x_scale", np.array(1.0, F)),
         ("x_zero_point", np.array(0, U8)), ("y_scale", np.array(1.0, F)),
         ("y_zero_point", np.array(0, U8))],
        ["Y"], {"Y": ("uint8", None, "spatial dims from kernel, strides, pads")},
        {"channels_last": 1, "kernel_shape": [2, 2]},
        consts=("x_scale", "x_zero_point", "y_scale", "y_zero_point")))

    # com.microsoft QuantizeLinear / DequantizeLinear: a 1-D scale without axis.
    for label, scale in (("1-D scale [3] along axis 1", o(3)), ("scalar scale", np.array(1.0, F))):
        cases.append(Case("QuantizeLinear", label,
                          [("x", o(2, 3, 4)), ("y_scale", scale),
                           ("y_zero_point", np.zeros(scale.shape, U8))], ["y"],
                          {"y": ("uint8", [2, 3, 4], "x's shape")},
                          consts=("y_scale", "y_zero_point")))
        cases.append(Case("DequantizeLinear", label,
                          [("x", o(2, 3, 4, dtype=U8)), ("x_scale", scale),
                           ("x_zero_point", np.zeros(scale.shape, U8))], ["y"],
                          {"y": ("float", [2, 3, 4], "x's shape")},
                          consts=("x_scale", "x_zero_point")))

    # MatMulBnb4: B holds ceil(N * K / 2) bytes.
    cases.append(Case("MatMulBnb4", "A[2,32], N=8, block 16",
                      [("A", o(2, 32)), ("B", z(8 * 32 // 2, dtype=U8)), ("absmax", o(16))],
                      ["Y"], {"Y": ("float", [2, 8], "A's rank")},
                      {"K": 32, "N": 8, "block_size": 16, "quant_type": 1},
                      consts=("B", "absmax")))
    cases.append(Case("QOrderedMatMul", "A[2,3,4] B[4,5]",
                      [("A", o(2, 3, 4, dtype=I8)), ("scale_A", np.array(1.0, F)),
                       ("B", o(4, 5, dtype=I8)), ("scale_B", np.array(1.0, F)),
                       ("scale_Y", np.array(1.0, F))], ["Y"],
                      {"Y": ("int8", [2, 3, 5], "A * B")},
                      {"order_A": 1, "order_B": 1, "order_Y": 1},
                      consts=("scale_A", "B", "scale_B", "scale_Y")))
    return cases


def extra_cases() -> List[Case]:
    cases = []
    for axis, doc in ((2, [2, 3, 1]), (-1, [2, 3, 1]), (0, [1, 2, 3]), (-2, None),
                      (-3, None), (3, None), (-4, None)):
        cases.append(Case("ExpandDims", f"X[2,3], axis={axis}",
                          [("X", o(2, 3)), ("axis", np.array(axis, I32))], ["Y"],
                          {"Y": ("float", doc, "X with a dim inserted at axis")} if doc else {},
                          consts=("axis",)))
    cases.append(Case("CropAndResize", "X[1,3,8,8], 2 rois, crop 3x4",
                      [("X", o(1, 3, 8, 8)), ("rois", z(2, 4)), ("batch_indices", z(2, dtype=I32)),
                       ("crop_size", np.array([3, 4], I32))], ["Y"],
                      {"Y": ("float", [2, 3, 3, 4], "(num_rois, C, crop_height, crop_width)")},
                      consts=("crop_size",)))
    cases.append(Case("ImageScaler", "X[2,3,4,5]", [("input", o(2, 3, 4, 5))], ["output"],
                      {"output": ("float", [2, 3, 4, 5], "input's shape")},
                      {"scale": 1.0, "bias": [0.0, 0.0, 0.0]}, domain="", opset=9))
    cases.append(Case("MeanVarianceNormalization", "opset 8 (ORT's v1), X[2,3,4,5]",
                      [("input", o(2, 3, 4, 5))], ["output"],
                      {"output": ("float", [2, 3, 4, 5], "input's shape")}, domain="", opset=8))
    cases.append(Case("GRUUnit", "hidden_prev[2,4]",
                      [("hidden_prev", o(2, 4)), ("gates", o(2, 12)), ("seq_lengths", o(2)),
                       ("t", o(1))], ["hidden"], {"hidden": ("float", [2, 4], "hidden_prev's")}))
    cases.append(Case("Unique", "x[5] of ones", [("x", o(5))], ["y", "idx", "counts"],
                      {"idx": ("int64", [5], "x's shape")}))
    cases.append(Case("Irfft", "X[2,5,2] signal_ndim 1", [("X", o(2, 5, 2))], ["Y"],
                      {"Y": ("float", [2, 8], "n in the signal dim")}, {"signal_ndim": 1}))
    return cases


FAMILIES = (gqa_cases, mha_cases, attention_cases, qattention_cases, decoder_masked_cases,
            nn_cases, quantization_cases, extra_cases)


# ---- Running one case.

def _fmt(elem: Optional[int], dims: Optional[Sequence[Any]]) -> str:
    t = ELEM_NAME.get(elem, "?") if elem else "?"
    if dims is None:
        return f"{t}[?]"
    return t + "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _ours(case: Case, symbolic: bool):
    model, env = case.model(symbolic)
    try:
        result = onnx_infer.infer(model)
    except Exception as e:  # noqa: BLE001 - a refusal is a finding, not a crash
        return None, env, [f"onnx_infer raised: {e}"]
    errors = [str(d) for d in result.errors]
    return result.values.get("main", {}), env, errors


def run_case(case: Case, runtime: Runtime, work: str, index: int) -> List[Dict[str, Any]]:
    model, _ = case.model(symbolic=False)
    path = os.path.join(work, f"case{index}.onnx")
    onnx.save(model, path)
    answer = runtime.run(path, case.feeds())
    static, _, static_errors = _ours(case, symbolic=False)
    symbolic, env, symbolic_errors = _ours(case, symbolic=True)
    rows = []
    for out in case.outputs:
        if not out:
            continue
        row = {"op": case.op, "case": case.name, "output": out}
        doc = case.expect.get(out)
        if doc is None:
            row["doc"] = "(silent)"
        else:
            row["doc"] = (_fmt(ELEM_OF.get(doc[0]), doc[1]) if (doc[0] or doc[1] is not None)
                          else "?") + f"  ({doc[2]})"
        ours_static = (static or {}).get(out)
        ours_symbolic = (symbolic or {}).get(out)
        row["ours"] = _fmt(ours_static.elem_type if ours_static else 0,
                           ours_static.shape if ours_static else None)
        if ours_symbolic is not None and ours_symbolic.shape is not None:
            row["ours"] += " | sym " + _fmt(ours_symbolic.elem_type, ours_symbolic.shape)
        if not answer.get("ok"):
            error = re.sub(r"^Non-zero status code returned while running .*? Status Message: |"
                           r"^Load model from \S+ failed:|/onnxruntime_src/\S+ ", "",
                           answer.get("error", ""))
            error = re.sub(r"/onnxruntime_src/\S+ |onnxruntime::common::Status \S+ const "
                           r"\[with T = \w+\] ", "", error)
            row["runtime"] = f"refused ({answer.get('stage')}: {error[:200]})"
            row["verdict"] = "runtime refuses"
            row["ours_status"] = "error" if (static_errors or symbolic_errors) else "-"
            rows.append(row)
            continue
        actual = answer["outputs"].get(out, {})
        if actual.get("type") not in ELEM_OF and actual.get("type") != "float32":
            row["runtime"] = str(actual)
            row["verdict"] = "runtime refuses"
            row["ours_status"] = "-"
            rows.append(row)
            continue
        elem = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16}.get(
            actual["type"], ELEM_OF.get(actual["type"], 0))
        dims = actual["dims"]
        row["runtime"] = _fmt(elem, dims)
        # Our two runs, each classified as verify.py does.
        statuses = []
        for ours_t, bind, errors in ((ours_static, {}, static_errors),
                                     (ours_symbolic, dict(env), symbolic_errors)):
            if errors:
                statuses.append(("contradiction", "engine error: " + errors[0][:200]))
                continue
            statuses.append(Verifier.classify(ours_t, elem, dims, bind))
        worst = max(statuses, key=lambda s: ("exact", "less-precise", "unknown",
                                              "contradiction").index(s[0]))
        row["ours_status"] = worst[0] + (f" ({worst[1]})" if worst[1] else "")
        if doc is None:
            row["verdict"] = "doc silent"
        else:
            doc_type_ok = doc[0] is None or ELEM_OF.get(doc[0]) == elem
            doc_dims_ok = doc[1] is None or list(doc[1]) == list(dims)
            if doc[0] is None and doc[1] is None:
                row["verdict"] = "doc silent"
            elif doc_type_ok and doc_dims_ok:
                row["verdict"] = "follows doc" + (" (type; no shape given)" if doc[1] is None
                                                  else "")
            elif worst[0] == "exact":
                row["verdict"] = "follows our rule"
            else:
                row["verdict"] = "differs from both"
        rows.append(row)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--node-modules", default=os.environ.get("ONNX_INFER_NODE_MODULES",
                                                                 DEFAULT_NODE_MODULES))
    parser.add_argument("--only", help="run only this operator's cases")
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(args.node_modules, "onnxruntime-node")):
        print(f"contrib_probe: no onnxruntime-node under {args.node_modules} "
              "(tools/verify_runtime/install.sh installs it)", file=sys.stderr)
        return 2
    runtime = Runtime(args.node_modules)
    rows: List[Dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="contrib_probe.") as work:
            index = 0
            for family in FAMILIES:
                for case in family():
                    if args.only and case.op != args.only:
                        continue
                    index += 1
                    rows.extend(run_case(case, runtime, work, index))
    finally:
        runtime.close()

    header = ("operator", "case", "output", "document", "ours", "runtime", "verdict",
              "ours vs runtime")
    keys = ("op", "case", "output", "doc", "ours", "runtime", "verdict", "ours_status")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(r.get(k, "")).replace("|", "/") for k in keys) + " |")

    cases = {(r["op"], r["case"]) for r in rows}
    counts: Dict[str, int] = {}
    for r in rows:
        kind = r["verdict"].split(" (")[0]
        counts[kind] = counts.get(kind, 0) + 1
    contradictions = [r for r in rows if r.get("ours_status", "").startswith("contradiction")]
    ours: Dict[str, int] = {}
    for r in rows:
        if r["verdict"] != "runtime refuses":
            kind = r["ours_status"].split(" (")[0]
            ours[kind] = ours.get(kind, 0) + 1
    print(f"\n{len(cases)} cases, {len(rows)} outputs: " +
          ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          "; ours against the runtime's accepted runs: " +
          ", ".join(f"{v} {k}" for k, v in sorted(ours.items())) +
          f"; {len(contradictions)} where our inference contradicts the runtime")
    for r in contradictions:
        print(f"  CONTRADICTION {r['op']} / {r['case']} / {r['output']}: ours {r['ours']}, "
              f"runtime {r['runtime']}: {r['ours_status']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if contradictions else 0


if __name__ == "__main__":
    sys.exit(main())
