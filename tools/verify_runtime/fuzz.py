#!/usr/bin/env python3
"""Differential fuzzing of onnx-infer against onnxruntime (issue 28).

Seeded random small graphs (chains and DAGs of 2-12 nodes, ai.onnx opsets 13-21) over the
operators onnxruntime implements, with inputs of symbolic and static dims. Each graph is
inferred by onnx_infer and run by onnxruntime-node (verify.py's Runtime and run.js) at 1-3
bindings of its symbols; every value is classified with verify.py's Verifier.classify, in the
symbolic mode (the inferred dims evaluated under the binding) and the bound mode (the graph
inferred again with the bound input shapes). A contradiction (element type, rank or a dim
differs) is a finding: the graph is shrunk while it fails the same way and written as a
minimal text-syntax model (.onnxtxt) with the binding and the runtime's dims.

Conditions where onnxruntime is known to deviate from the specification (DEVIATIONS) are
classified as such, not as findings.

Usage: fuzz.py [--seed S] (--cases K | --minutes N) [--out DIR] [--node-modules DIR]
CI: fuzz.py --seed 1 --cases 5000 (docs/testing.md, "Differential fuzzing against onnxruntime").
Exit codes: 0 no finding, 1 findings, 2 set-up error.
"""

import argparse
import json
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify import (ONNX_TYPES, Runtime, Unbound, Verifier,  # noqa: E402
                    default_node_modules, evaluate)

import onnx_infer  # noqa: E402

FLOAT, INT64, INT32, BOOL, DOUBLE, FLOAT16 = 1, 7, 6, 9, 11, 10
ELEM_NAMES = {1: "float", 2: "uint8", 3: "int8", 6: "int32", 7: "int64", 9: "bool",
              10: "float16", 11: "double"}
NP_TYPES = {1: np.float32, 6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16,
            11: np.float64}
ORT_FEED = {1: "float32", 6: "int32", 7: "int64", 9: "bool", 11: "float64"}
INT64_MAX = (1 << 63) - 1
SYMBOLS = ("N", "M", "K", "L", "P", "Q", "R", "T")
REDUCE_OPS = ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
              "ReduceL1", "ReduceL2", "ReduceLogSumExp", "ReduceSumSquare")
MAX_ELEMENTS = 1 << 16  # a value larger than this under the generating binding is avoided


# ---- The graph as the generator and the shrinker see it.

class Node:
    def __init__(self, op: str, inputs: List[str], outputs: List[str],
                 attrs: Optional[Dict[str, Any]] = None):
        self.op, self.inputs, self.outputs = op, list(inputs), list(outputs)
        self.attrs = dict(attrs or {})

    def copy(self) -> "Node":
        return Node(self.op, self.inputs, self.outputs,
                    {k: (list(v) if isinstance(v, list) else v) for k, v in self.attrs.items()})


class Graph:
    """Inputs (name, elem, dims of ints and symbol names), initializers, nodes, outputs."""

    def __init__(self, opset: int):
        self.opset = opset
        self.inputs: List[Tuple[str, int, List[Any]]] = []
        self.inits: Dict[str, np.ndarray] = {}
        self.nodes: List[Node] = []
        self.outputs: List[str] = []

    def copy(self) -> "Graph":
        g = Graph(self.opset)
        g.inputs = [(n, e, list(d)) for n, e, d in self.inputs]
        g.inits = dict(self.inits)
        g.nodes = [n.copy() for n in self.nodes]
        g.outputs = list(self.outputs)
        return g

    def symbols(self) -> List[str]:
        seen: List[str] = []
        for _, _, dims in self.inputs:
            for d in dims:
                if isinstance(d, str) and d.isidentifier() and d not in seen:
                    seen.append(d)
        return seen

    def producer(self) -> Dict[str, int]:
        return {o: i for i, n in enumerate(self.nodes) for o in n.outputs if o}

    def prune(self) -> None:
        """Keeps only what the outputs need."""
        needed = set(self.outputs)
        kept: List[Node] = []
        for n in reversed(self.nodes):
            if any(o in needed for o in n.outputs):
                kept.append(n)
                needed.update(i for i in n.inputs if i)
        self.nodes = list(reversed(kept))
        self.inits = {k: v for k, v in self.inits.items() if k in needed}
        self.inputs = [i for i in self.inputs if i[0] in needed]

    @staticmethod
    def from_model(model: onnx.ModelProto) -> "Graph":
        """The subset the generator makes, read back (a written finding, to check it again)."""
        opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
        g = Graph(opset)
        inits = {t.name for t in model.graph.initializer}
        for i in model.graph.input:
            if i.name in inits:
                continue
            t = i.type.tensor_type
            g.inputs.append((i.name, t.elem_type, [d.dim_param if d.HasField("dim_param")
                                                   else d.dim_value for d in t.shape.dim]))
        for t in model.graph.initializer:
            g.inits[t.name] = numpy_helper.to_array(t)
        for n in model.graph.node:
            attrs: Dict[str, Any] = {}
            for a in n.attribute:
                v = helper.get_attribute_value(a)
                if isinstance(v, bytes):
                    v = v.decode()
                elif isinstance(v, TensorProto):
                    v = numpy_helper.to_array(v)
                elif isinstance(v, list):
                    v = [x.decode() if isinstance(x, bytes) else x for x in v]
                attrs[a.name] = v
            g.nodes.append(Node(n.op_type, list(n.input), list(n.output), attrs))
        g.outputs = [o.name for o in model.graph.output]
        return g

    def ir_version(self) -> int:
        return 10 if self.opset >= 21 else (9 if self.opset >= 19 else 8)

    def to_model(self, all_outputs: bool = False) -> onnx.ModelProto:
        nodes = []
        for k, n in enumerate(self.nodes):
            attrs = {}
            for name, v in n.attrs.items():
                attrs[name] = numpy_helper.from_array(v) if isinstance(v, np.ndarray) else v
            nodes.append(helper.make_node(n.op, n.inputs, n.outputs, name=f"n{k}", **attrs))
        inputs = [helper.make_tensor_value_info(name, elem, dims)
                  for name, elem, dims in self.inputs]
        outputs = list(self.outputs)
        if all_outputs:
            for n in self.nodes:
                outputs += [o for o in n.outputs if o and o not in outputs]
        out_infos = [onnx.ValueInfoProto(name=o) for o in outputs]
        inits = [numpy_helper.from_array(v, k) for k, v in self.inits.items()]
        graph = helper.make_graph(nodes, "main", inputs, out_infos, inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)])
        model.ir_version = self.ir_version()
        return model


# ---- The text syntax printer (the subset the generator makes).

def _elem_of_array(a: np.ndarray) -> int:
    return {np.dtype(np.float32): 1, np.dtype(np.int64): 7, np.dtype(np.int32): 6,
            np.dtype(np.bool_): 9, np.dtype(np.float64): 11,
            np.dtype(np.float16): 10}[a.dtype]


def _num(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (float, np.floating)):
        r = repr(float(x))
        return r if ("e" in r or "." in r) else r + ".0"
    return str(int(x))


def _tensor_text(a: np.ndarray, name: str = "") -> str:
    dims = ", ".join(str(d) for d in a.shape)
    data = ", ".join(_num(x) for x in a.reshape(-1).tolist())
    head = f"{ELEM_NAMES[_elem_of_array(a)]}[{dims}]"
    return f"{head} {name} = {{{data}}}" if name else f"{head} {{{data}}}"


def _attr_text(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return _tensor_text(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_num(x) for x in v) + "]"
    return _num(v)


def _dim_text(d: Any) -> str:
    if isinstance(d, int):
        return str(d)
    return d if d.isidentifier() else '"' + d + '"'


def to_text(g: Graph, comments: Sequence[str] = ()) -> str:
    lines = ["# " + c for c in comments]
    lines.append(f'<ir_version: {g.ir_version()}, opset_import: ["" : {g.opset}]>')
    ins = ", ".join(f"{ELEM_NAMES[e]}[{', '.join(_dim_text(d) for d in dims)}] {n}"
                    for n, e, dims in g.inputs)
    lines.append(f"main ({ins}) => ({', '.join(g.outputs)})")
    if g.inits:
        lines.append("  <" + ", ".join(_tensor_text(v, k) for k, v in g.inits.items()) + ">")
    lines.append("{")
    for n in g.nodes:
        attrs = ""
        if n.attrs:
            attrs = " <" + ", ".join(f"{k} = {_attr_text(v)}" for k, v in n.attrs.items()) + ">"
        ins = ", ".join(i if i else '""' for i in n.inputs)
        outs = ", ".join(o if o else '""' for o in n.outputs)
        lines.append(f"  {outs} = {n.op}{attrs} ({ins})")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- The generator. Values carry their shape under the generating binding (and their data
# when it is known, for shape computations), so attributes fit.

class Val:
    def __init__(self, name: str, elem: int, shape: Tuple[int, ...],
                 syms: Optional[Tuple[Optional[str], ...]] = None,
                 data: Optional[np.ndarray] = None):
        self.name, self.elem, self.shape = name, elem, tuple(int(d) for d in shape)
        syms = tuple(syms or ())[:len(self.shape)]
        self.syms = syms + (None,) * (len(self.shape) - len(syms))
        self.data = data

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


class Generator:
    def __init__(self, rng: random.Random, opset: int):
        self.rng = rng
        self.g = Graph(opset)
        self.binding: Dict[str, int] = {}
        self.pool: List[Val] = []
        self.counter = 0
        self.budget = 0

    # -- small helpers
    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def sym_value(self) -> int:
        return self.rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7))

    def new_symbol(self, value: Optional[int] = None) -> str:
        for s in SYMBOLS:
            if s not in self.binding:
                self.binding[s] = self.sym_value() if value is None else value
                return s
        return ""

    def const(self, array: Any, dtype=np.int64, prefix: str = "c") -> Val:
        a = np.array(array, dtype=dtype)
        name = self.fresh(prefix)
        self.g.inits[name] = a
        return Val(name, _elem_of_array(a), a.shape, data=a)

    def add_input(self, elem: int, dims: List[Any]) -> Val:
        name = self.fresh("x")
        self.g.inputs.append((name, elem, dims))
        shape = tuple(d if isinstance(d, int) else self.binding[d] for d in dims)
        v = Val(name, elem, shape, tuple(d if isinstance(d, str) else None for d in dims))
        self.pool.append(v)
        return v

    def random_dims(self, rank: int) -> List[Any]:
        dims: List[Any] = []
        for _ in range(rank):
            r = self.rng.random()
            if r < 0.45:
                existing = list(self.binding)
                if existing and self.rng.random() < 0.5:
                    dims.append(self.rng.choice(existing))
                else:
                    s = self.new_symbol()
                    dims.append(s if s else self.rng.choice((1, 2, 3)))
            else:
                dims.append(self.rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, 6)) if r < 0.5 or
                            self.rng.random() < 0.9 else 0)
        # keep the element count small under the generating binding
        shape = [d if isinstance(d, int) else self.binding[d] for d in dims]
        while int(np.prod(shape, dtype=np.int64)) > 4096:
            k = max(range(rank), key=lambda i: shape[i])
            dims[k] = 2
            shape[k] = 2
        return dims

    def emit(self, op: str, inputs: List[Val], attrs: Optional[Dict[str, Any]] = None,
             n_out: int = 1) -> List[str]:
        outs = [self.fresh() for _ in range(n_out)]
        self.g.nodes.append(Node(op, [i.name if i is not None else "" for i in inputs], outs,
                                 attrs))
        self.budget -= 1
        return outs

    def out(self, name: str, elem: int, shape: Sequence[int], syms=None, data=None,
            pool: bool = True) -> Optional[Val]:
        v = Val(name, elem, tuple(shape), syms, data)
        if pool and v.size <= MAX_ELEMENTS and all(d >= 0 for d in v.shape):
            self.pool.append(v)
        return v

    def pick(self, pred: Callable[[Val], bool] = lambda v: True) -> Optional[Val]:
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        if self.rng.random() < 0.6:  # chains: prefer recent values
            return cands[-1] if self.rng.random() < 0.5 else self.rng.choice(cands[-3:])
        return self.rng.choice(cands)

    def is_float(self, v: Val) -> bool:
        return v.elem in (FLOAT, DOUBLE)

    def shape_value(self, v: Val) -> Val:
        """Shape(v), its data known."""
        (name,) = self.emit("Shape", [v])
        return self.out(name, INT64, (v.rank,), data=np.array(v.shape, np.int64), pool=False)

    def partner_dims(self, x: Val, broadcast: bool = True) -> Tuple[List[Any], Tuple[int, ...]]:
        """Dims of a new input broadcastable with x (or equal to it when not broadcast)."""
        dims: List[Any] = []
        start = self.rng.randint(0, x.rank) if broadcast and self.rng.random() < 0.4 else 0
        for k in range(start, x.rank):
            d, s = x.shape[k], x.syms[k]
            r = self.rng.random()
            if broadcast and r < 0.2:
                dims.append(1)
            elif s is not None and r < 0.75:
                dims.append(s)
            elif broadcast and r < 0.85 and d in (0, 1, 2, 3, 4, 5, 6, 7):
                # a symbol of its own with the same value: bindings vary it (1 broadcasts)
                ns = self.new_symbol(d)
                dims.append(ns if ns else d)
            else:
                dims.append(d)
        if broadcast and self.rng.random() < 0.15:
            dims = [1] + dims
        shape = tuple(d if isinstance(d, int) else self.binding[d] for d in dims)
        return dims, shape

    def partner(self, x: Val, broadcast: bool = True, elem: Optional[int] = None) -> Val:
        elem = x.elem if elem is None else elem
        same = [v for v in self.pool if v is not x and v.elem == elem and
                _broadcastable(v.shape, x.shape)]
        if same and self.rng.random() < 0.35:
            return self.rng.choice(same)
        dims, shape = self.partner_dims(x, broadcast)
        if self.rng.random() < 0.5 and all(isinstance(d, int) for d in dims):
            return self.const(np.ones(shape), NP_TYPES[elem])
        return self.add_input(elem, dims)

    # -- the operators; each returns False when it does not apply
    def op_unary(self) -> bool:
        x = self.pick(self.is_float)
        if x is None:
            return False
        op = self.rng.choice(("Relu", "Neg", "Abs", "Exp", "Sigmoid", "Tanh", "Sqrt", "Floor",
                              "Identity", "Softmax", "LeakyRelu", "Not", "IsNaN",
                              "LogSoftmax", "Erf", "Sign"))
        attrs: Dict[str, Any] = {}
        elem = x.elem
        if op in ("Softmax", "LogSoftmax"):
            if x.rank == 0:
                return False
            if self.rng.random() < 0.7:
                attrs["axis"] = self.rng.randint(-x.rank, x.rank - 1)
        if op == "LeakyRelu":
            attrs["alpha"] = 0.25
        if op == "Not":
            (b,) = self.emit("Greater", [x, self.const(0.5, np.float32)])
            x = self.out(b, BOOL, _bshape(x.shape, ()), x.syms, pool=False)
        if op in ("IsNaN",):
            elem = BOOL
        if op == "Not":
            elem = BOOL
        (name,) = self.emit(op, [x], attrs)
        self.out(name, elem, x.shape, x.syms)
        return True

    def op_cast(self) -> bool:
        x = self.pick()
        if x is None:
            return False
        to = self.rng.choice((FLOAT, FLOAT, INT64, INT32, BOOL, DOUBLE))
        (name,) = self.emit("Cast", [x], {"to": to})
        self.out(name, to, x.shape, x.syms, None if x.data is None else x.data.astype(NP_TYPES[to]))
        return True

    def op_binary(self) -> bool:
        x = self.pick(lambda v: v.elem in (FLOAT, DOUBLE, INT64, INT32))
        if x is None:
            return False
        ops = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Equal", "Less", "Greater", "Sum"]
        if self.is_float(x):
            ops += ["Pow", "Mean"]
        op = self.rng.choice(ops)
        y = self.partner(x)
        args = [x, y] if self.rng.random() < 0.5 else [y, x]
        if op in ("Max", "Min", "Sum", "Mean") and self.rng.random() < 0.3:
            args.append(self.partner(x))
        shape: Tuple[int, ...] = ()
        for a in args:
            if not _broadcastable(shape, a.shape):
                return False
            shape = _bshape(shape, a.shape)
        elem = BOOL if op in ("Equal", "Less", "Greater") else x.elem
        (name,) = self.emit(op, args)
        self.out(name, elem, shape, _bsyms(args, shape))
        return True

    def op_where(self) -> bool:
        x = self.pick(self.is_float)
        if x is None:
            return False
        c = self.partner(x, elem=FLOAT)
        (cond,) = self.emit("Greater", [c, self.const(0.0, np.float32)])
        cv = Val(cond, BOOL, c.shape, c.syms)
        y = self.partner(x)
        args = [cv, x, y]
        shape: Tuple[int, ...] = ()
        for a in args:
            if not _broadcastable(shape, a.shape):
                return False
            shape = _bshape(shape, a.shape)
        (name,) = self.emit("Where", self.rng.sample(args[:1], 1) + args[1:])
        self.out(name, x.elem, shape, _bsyms(args, shape))
        return True

    def op_matmul(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank >= 1)
        if x is None:
            return False
        k_dim: Any = x.syms[-1] if x.syms[-1] is not None and self.rng.random() < 0.7 \
            else x.shape[-1]
        n: Any = self.rng.choice((1, 2, 3, 4))
        if self.rng.random() < 0.3:
            n = self.new_symbol() or 2
        r = self.rng.random()
        if r < 0.2:
            dims = [k_dim]
        elif r < 0.8 or x.rank < 3:
            dims = [k_dim, n]
        else:
            bd, _ = self.partner_dims(Val("", x.elem, x.shape[:-2], x.syms[:-2]))
            dims = bd + [k_dim, n]
        shape = [d if isinstance(d, int) else self.binding[d] for d in dims]
        if all(isinstance(d, int) for d in dims) and self.rng.random() < 0.5:
            b = self.const(np.ones(shape), NP_TYPES[x.elem])
        else:
            b = self.add_input(x.elem, dims)
        if self.rng.random() < 0.3 and x.rank >= 1:
            a, b = b, x  # the new operand on the left: its last dim must be x's second-last
            if x.rank < 2:
                return False
            dims = dims[:-2] + [self.rng.choice((1, 2, 3)), x.syms[-2] or x.shape[-2]] \
                if len(dims) >= 2 else [x.syms[-2] or x.shape[-2]]
            a = self.add_input(x.elem, dims)
        else:
            a = x
        try:
            out = np.matmul(np.zeros(a.shape), np.zeros(b.shape)).shape
        except ValueError:
            return False
        (name,) = self.emit("MatMul", [a, b])
        self.out(name, x.elem, out)
        return True

    def op_gemm(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank == 2)
        if x is None:
            return False
        ta = self.rng.random() < 0.3
        tb = self.rng.random() < 0.3
        m, k = (x.shape[1], x.shape[0]) if ta else x.shape
        n = self.rng.choice((1, 2, 3, 5))
        b = self.const(np.ones((n, k) if tb else (k, n)), NP_TYPES[x.elem])
        attrs: Dict[str, Any] = {}
        if ta:
            attrs["transA"] = 1
        if tb:
            attrs["transB"] = 1
        if self.rng.random() < 0.3:
            attrs["alpha"] = 0.5
        args = [x, b]
        if self.rng.random() < 0.6:
            cshape = self.rng.choice(((n,), (1, n), (m, 1), (), (m, n), (1,)))
            args.append(self.const(np.ones(cshape), NP_TYPES[x.elem]))
        (name,) = self.emit("Gemm", args, attrs)
        self.out(name, x.elem, (m, n))
        return True

    def _spatial_attrs(self, x: Val, kernel: List[int], conv: bool, pool: str = "") \
            -> Optional[Tuple[Dict[str, Any], List[int]]]:
        """Attributes of a conv or pool on x's spatial dims and the output spatial dims."""
        rng = self.rng
        sp = list(x.shape[2:])
        nd = len(sp)
        strides = [rng.choice((1, 1, 2, 3)) for _ in range(nd)]
        dil_ok = conv or pool == "MaxPool" or (pool == "AveragePool" and self.g.opset >= 19)
        dil = [rng.choice((1, 1, 2)) if dil_ok else 1 for _ in range(nd)]
        attrs: Dict[str, Any] = {}
        auto = rng.choice(("NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"))
        ceil = pool and rng.random() < 0.3
        out = []
        if auto == "NOTSET":
            pads = [rng.choice((0, 0, 1, 2)) for _ in range(2 * nd)]
            for i in range(nd):
                ek = dil[i] * (kernel[i] - 1) + 1
                if pool:  # a pad is smaller than the kernel
                    pads[i] = min(pads[i], kernel[i] - 1)
                    pads[i + nd] = min(pads[i + nd], kernel[i] - 1)
                total = sp[i] + pads[i] + pads[i + nd] - ek
                if total < 0:
                    return None
                o = (-(-total // strides[i]) if ceil else total // strides[i]) + 1
                if ceil and (o - 1) * strides[i] >= sp[i] + pads[i]:
                    o -= 1
                out.append(o)
            if any(pads) or rng.random() < 0.3:
                attrs["pads"] = pads
        else:
            attrs["auto_pad"] = auto
            if conv and auto != "VALID":  # onnxruntime refuses SAME with dilations in Conv
                dil = [1] * nd
            for i in range(nd):
                ek = dil[i] * (kernel[i] - 1) + 1
                if auto == "VALID":
                    if sp[i] < ek:
                        return None
                    o = (sp[i] - ek) // strides[i] + 1
                else:
                    o = -(-sp[i] // strides[i])
                out.append(o)
        if any(s != 1 for s in strides) or rng.random() < 0.3:
            attrs["strides"] = strides
        if any(d != 1 for d in dil):
            attrs["dilations"] = dil
        if ceil:
            attrs["ceil_mode"] = 1
        return attrs, out

    def op_conv(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and 3 <= v.rank <= 5 and v.shape[1] >= 1
                      and all(d >= 1 for d in v.shape[2:]))
        if x is None:
            return False
        c = x.shape[1]
        group = self.rng.choice([g for g in (1, 1, 2, 3) if c % g == 0])
        m = group * self.rng.choice((1, 2))
        kernel = [self.rng.choice((1, 2, 3)) for _ in range(x.rank - 2)]
        r = self._spatial_attrs(x, kernel, conv=True)
        if r is None:
            return False
        attrs, sp = r
        if group > 1:
            attrs["group"] = group
        if self.rng.random() < 0.3:
            attrs["kernel_shape"] = kernel
        w = self.const(np.ones([m, c // group] + kernel), NP_TYPES[x.elem])
        args = [x, w]
        if self.rng.random() < 0.4:
            args.append(self.const(np.ones([m]), NP_TYPES[x.elem]))
        (name,) = self.emit("Conv", args, attrs)
        self.out(name, x.elem, [x.shape[0], m] + sp, (x.syms[0],) + (None,) * (1 + len(sp)))
        return True

    def op_conv_transpose(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and 3 <= v.rank <= 4 and v.shape[1] >= 1
                      and all(d >= 1 for d in v.shape[2:]))
        if x is None:
            return False
        rng = self.rng
        c = x.shape[1]
        group = rng.choice([g for g in (1, 1, 2) if c % g == 0])
        m = group * rng.choice((1, 2))
        nd = x.rank - 2
        kernel = [rng.choice((1, 2, 3)) for _ in range(nd)]
        strides = [rng.choice((1, 2, 3)) for _ in range(nd)]
        dil = [rng.choice((1, 1, 2)) for _ in range(nd)]
        attrs: Dict[str, Any] = {}
        sp = []
        mode = rng.choice(("pads", "pads", "output_shape", "same"))
        if mode == "pads":
            pads = [rng.choice((0, 0, 1)) for _ in range(2 * nd)]
            opad = [rng.randrange(0, max(strides[i], dil[i])) if rng.random() < 0.3 else 0
                    for i in range(nd)]
            for i in range(nd):
                o = strides[i] * (x.shape[2 + i] - 1) + opad[i] + (kernel[i] - 1) * dil[i] + 1 \
                    - pads[i] - pads[i + nd]
                if o < 1:
                    return False
                sp.append(o)
            if any(pads):
                attrs["pads"] = pads
            if any(opad):
                attrs["output_padding"] = opad
        elif mode == "output_shape":
            for i in range(nd):
                full = strides[i] * (x.shape[2 + i] - 1) + (kernel[i] - 1) * dil[i] + 1
                sp.append(max(1, full - rng.choice((0, 1))))
            attrs["output_shape"] = sp
        else:
            attrs["auto_pad"] = rng.choice(("SAME_UPPER", "SAME_LOWER"))
            sp = [x.shape[2 + i] * strides[i] for i in range(nd)]
        if any(s != 1 for s in strides):
            attrs["strides"] = strides
        if any(d != 1 for d in dil):
            attrs["dilations"] = dil
        if group > 1:
            attrs["group"] = group
        w = self.const(np.ones([c, m // group] + kernel), NP_TYPES[x.elem])
        (name,) = self.emit("ConvTranspose", [x, w], attrs)
        self.out(name, x.elem, [x.shape[0], m] + sp, (x.syms[0],) + (None,) * (1 + nd))
        return True

    def op_pool(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and 3 <= v.rank <= 5
                      and all(d >= 1 for d in v.shape[2:]))
        if x is None:
            return False
        op = self.rng.choice(("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
                              "MaxPool"))
        if op.startswith("Global"):
            if 0 in x.shape:
                return False
            (name,) = self.emit(op, [x])
            self.out(name, x.elem, list(x.shape[:2]) + [1] * (x.rank - 2), x.syms[:2])
            return True
        kernel = [self.rng.choice((1, 2, 3)) for _ in range(x.rank - 2)]
        r = self._spatial_attrs(x, kernel, conv=False, pool=op)
        if r is None:
            return False
        attrs, sp = r
        attrs = {"kernel_shape": kernel, **attrs}
        if op == "AveragePool" and self.rng.random() < 0.3:
            attrs["count_include_pad"] = 1
        n_out = 2 if op == "MaxPool" and self.rng.random() < 0.2 and "dilations" not in attrs \
            else 1
        names = self.emit(op, [x], attrs, n_out)
        shape = list(x.shape[:2]) + sp
        self.out(names[0], x.elem, shape, x.syms[:2])
        if n_out == 2:
            self.out(names[1], INT64, shape, x.syms[:2])
        return True

    def op_reshape(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        s = list(x.shape)
        total = x.size
        r = rng.random()
        target: List[int]
        if r < 0.15:
            target = [-1]
        elif r < 0.4 and x.rank >= 2:  # merge two neighbours
            k = rng.randrange(x.rank - 1)
            target = s[:k] + [s[k] * s[k + 1]] + s[k + 2:]
        elif r < 0.6:  # split a dim into factors
            k = rng.randrange(x.rank)
            f = [d for d in (2, 3) if s[k] % d == 0 and s[k] > 0]
            if not f:
                target = s + [1]
            else:
                target = s[:k] + [f[0], s[k] // f[0]] + s[k + 1:]
        else:
            target = list(s)
            rng.shuffle(target)
        # 0 copies the input dim at the same position; one -1 is inferred
        allowzero = self.g.opset >= 14 and rng.random() < 0.15
        out = list(target)
        spec = list(target)
        for i in range(len(spec)):
            if i < x.rank and spec[i] == s[i] and rng.random() < 0.3 and not allowzero:
                spec[i] = 0
        if -1 not in spec and rng.random() < 0.5 and total > 0:
            cands = [i for i in range(len(spec)) if spec[i] != 0]
            if cands:
                spec[rng.choice(cands)] = -1
        if -1 in spec and total == 0:
            others = [out[i] for i in range(len(out)) if spec[i] != -1]
            if 0 in others or not others:
                return False
        out = _reshape_out(x.shape, spec, allowzero)
        if out is None:
            return False
        attrs = {"allowzero": 1} if allowzero else {}
        if rng.random() < 0.4:
            shape_in = self.shape_pattern(x, spec)
            if shape_in is None:
                shape_in = self.const(spec)
        else:
            shape_in = self.const(spec)
        (name,) = self.emit("Reshape", [x, shape_in], attrs)
        self.out(name, x.elem, out)
        return True

    def shape_pattern(self, x: Val, spec: List[int]) -> Optional[Val]:
        """Builds spec from Shape(x): Gather the dims kept in place, Concat with constants."""
        sh = self.shape_value(x)
        parts: List[Val] = []
        for i, d in enumerate(spec):
            if i < x.rank and d == x.shape[i] and d != 0 and self.rng.random() < 0.7:
                (gname,) = self.emit("Gather", [sh, self.const([i])], {"axis": 0})
                parts.append(Val(gname, INT64, (1,), data=np.array([d], np.int64)))
            else:
                parts.append(self.const([d]))
        if len(parts) == 1:
            return parts[0]
        (cname,) = self.emit("Concat", parts, {"axis": 0})
        return Val(cname, INT64, (len(parts),), data=np.array(spec, np.int64))

    def op_shape_arith(self) -> bool:
        """Shape -> Gather -> Mul/Add/Div -> Concat -> Reshape/Expand/ConstantOfShape/Range."""
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        r = rng.random()
        if r < 0.3 and x.rank >= 2:  # merge the first two dims by a product of shape values
            sh = self.shape_value(x)
            (a,) = self.emit("Gather", [sh, self.const([0])], {"axis": 0})
            (b,) = self.emit("Gather", [sh, self.const([1])], {"axis": 0})
            (m,) = self.emit("Mul", [Val(a, INT64, (1,)), Val(b, INT64, (1,))])
            if self.g.opset >= 13 and rng.random() < 0.5:
                (rest,) = self.emit("Slice", [sh, self.const([2]), self.const([INT64_MAX])])
            else:
                (rest,) = self.emit("Shape", [x], {"start": 2}) if self.g.opset >= 15 else \
                    self.emit("Slice", [sh, self.const([2]), self.const([x.rank])])
            (cat,) = self.emit("Concat", [Val(m, INT64, (1,)), Val(rest, INT64, ())],
                               {"axis": 0})
            out = _reshape_out(x.shape, [x.shape[0] * x.shape[1]] + list(x.shape[2:]))
            if out is None:
                return False
            (name,) = self.emit("Reshape", [x, Val(cat, INT64, ())])
            self.out(name, x.elem, out)
            return True
        if r < 0.45:  # ConstantOfShape(Slice(Shape(x), a, b))
            a = rng.randint(-x.rank - 1, x.rank)
            b = rng.randint(-x.rank - 1, x.rank + 1)
            sub = list(x.shape)[slice(a, b)]
            sh = self.shape_value(x)
            if self.g.opset >= 15 and rng.random() < 0.5:
                (s_,) = self.emit("Shape", [x], {"start": a, "end": b})
            else:
                (s_,) = self.emit("Slice", [sh, self.const([a]), self.const([b])])
            attrs = {}
            elem = FLOAT
            if rng.random() < 0.5:
                elem = rng.choice((FLOAT, INT64, INT32))
                attrs["value"] = np.array([1], dtype=NP_TYPES[elem])
            (name,) = self.emit("ConstantOfShape", [Val(s_, INT64, ())], attrs)
            self.out(name, elem, sub)
            return True
        if r < 0.6:  # Range(0, dim, step) and Range on shape values
            k = rng.randrange(x.rank)
            sh = self.shape_value(x)
            (d,) = self.emit("Gather", [sh, self.const(k)], {"axis": 0})
            start = rng.choice((0, 0, 1, -1, 2))
            delta = rng.choice((1, 1, 2, -1, 3))
            if delta < 0:
                start, lim = x.shape[k], start
                args = [Val(d, INT64, ()), self.const(lim), self.const(delta)]
            else:
                lim = x.shape[k]
                args = [self.const(start), Val(d, INT64, ()), self.const(delta)]
            n = max(0, -(-(lim - start) // delta))
            (name,) = self.emit("Range", args)
            self.out(name, INT64, (n,))
            return True
        if r < 0.7:  # Size and arithmetic to a 1-D shape
            if x.size == 0:  # a 0 would copy the dim: allowzero, or nothing
                return False
            (sz,) = self.emit("Size", [x])
            (u,) = self.emit("Unsqueeze", [Val(sz, INT64, ()), self.const([0])]) \
                if self.g.opset >= 13 else self.emit("Unsqueeze", [Val(sz, INT64, ())],
                                                     {"axes": [0]})
            (name,) = self.emit("Reshape", [x, Val(u, INT64, (1,))])
            self.out(name, x.elem, (x.size,))
            return True
        if r < 0.85:  # Expand(y, Shape(x)) with y broadcastable
            y = self.partner(x)
            if not _broadcastable(y.shape, x.shape):
                return False
            sh = self.shape_value(x)
            (name,) = self.emit("Expand", [y, sh])
            self.out(name, y.elem, _bshape(y.shape, x.shape))
            return True
        # Div a dim of the shape by a divisor and split it into (d/f, f)
        k = rng.randrange(x.rank)
        f = 2 if x.shape[k] % 2 == 0 else 1
        sh = self.shape_value(x)
        parts = []
        if k > 0:
            (p,) = self.emit("Slice", [sh, self.const([0]), self.const([k])])
            parts.append(Val(p, INT64, ()))
        (g,) = self.emit("Gather", [sh, self.const([k])], {"axis": 0})
        (q,) = self.emit("Div", [Val(g, INT64, ()), self.const([f])])
        parts += [Val(q, INT64, ()), self.const([f])]
        if k + 1 < x.rank:
            (p,) = self.emit("Slice", [sh, self.const([k + 1]), self.const([INT64_MAX])])
            parts.append(Val(p, INT64, ()))
        (cat,) = self.emit("Concat", parts, {"axis": 0})
        out = _reshape_out(x.shape, list(x.shape[:k]) + [x.shape[k] // f, f] +
                           list(x.shape[k + 1:]))
        if out is None:
            return False
        (name,) = self.emit("Reshape", [x, Val(cat, INT64, ())])
        self.out(name, x.elem, out)
        return True

    def op_transpose(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        perm = list(range(x.rank))
        self.rng.shuffle(perm)
        attrs = {"perm": perm} if self.rng.random() < 0.85 else {}
        if not attrs:
            perm = list(reversed(range(x.rank)))
        (name,) = self.emit("Transpose", [x], attrs)
        self.out(name, x.elem, [x.shape[p] for p in perm], [x.syms[p] for p in perm])
        return True

    def op_concat(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = self.rng.randrange(x.rank)
        parts = [x]
        for _ in range(self.rng.choice((1, 1, 2))):
            if self.rng.random() < 0.4:
                parts.append(x)
                continue
            dims, shape = self.partner_dims(x, broadcast=False)
            d = self.rng.choice((0, 1, 2, 3))
            if self.rng.random() < 0.3:
                d = self.new_symbol() or d
            dims[axis] = d
            parts.append(self.add_input(x.elem, dims))
        out = list(x.shape)
        out[axis] = sum(p.shape[axis] for p in parts)
        ax = axis - x.rank if self.rng.random() < 0.3 else axis
        (name,) = self.emit("Concat", parts, {"axis": ax})
        self.out(name, x.elem, out)
        return True

    def op_split(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        axis = rng.randrange(x.rank)
        d = x.shape[axis]
        attrs: Dict[str, Any] = {}
        if axis or rng.random() < 0.5:
            attrs["axis"] = axis - x.rank if rng.random() < 0.3 else axis
        args = [x]
        r = rng.random()
        if r < 0.4 or d == 0:
            n = rng.choice((1, 2, 3))
            sizes = _cuts(rng, d, n)
            if self.g.opset >= 13:
                args.append(self.const(sizes))
            else:
                attrs["split"] = sizes
        elif r < 0.7 and self.g.opset >= 18:
            n = rng.choice((2, 3))
            if n > d:
                return False
            attrs["num_outputs"] = n
            chunk = -(-d // n)
            sizes = [chunk] * (n - 1) + [d - chunk * (n - 1)]
            if sizes[-1] < 0:
                return False
        else:
            divs = [k for k in (1, 2, 3) if d % k == 0]
            n = rng.choice(divs)
            if self.g.opset >= 18:
                attrs["num_outputs"] = n
            sizes = [d // n] * n
        names = self.emit("Split", args, attrs, len(sizes))
        for nm, sz in zip(names, sizes):
            shape = list(x.shape)
            shape[axis] = sz
            self.out(nm, x.elem, shape)
        return True

    def op_slice(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        axes = rng.sample(range(x.rank), rng.randint(1, x.rank))
        starts, ends, steps = [], [], []
        for a in axes:
            d = x.shape[a]
            step = rng.choice((1, 1, 1, 2, -1, -2, 3))
            st = rng.choice((0, 1, -1, d, -d - 2, d + 3, rng.randint(-d - 1, d + 1)))
            en = rng.choice((d, -1, INT64_MAX, -INT64_MAX - 1, 0, rng.randint(-d - 2, d + 2),
                             -d - 5))
            starts.append(st)
            ends.append(en)
            steps.append(step)
        args = [x, self.const(starts), self.const(ends)]
        use_axes = rng.random() < 0.7 or axes != list(range(len(axes)))
        if use_axes:
            args.append(self.const([a - x.rank if rng.random() < 0.3 else a for a in axes]))
        if any(s != 1 for s in steps) or rng.random() < 0.3:
            if not use_axes:
                args.append(self.const(axes))
            args.append(self.const(steps))
        out = list(x.shape)
        for a, st, en, sp in zip(axes, starts, ends, steps):
            out[a] = len(range(*slice(st, en, sp).indices(x.shape[a])))
        (name,) = self.emit("Slice", args)
        self.out(name, x.elem, out)
        return True

    def op_gather(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        axis = rng.randrange(x.rank)
        d = x.shape[axis]
        if rng.random() < 0.6:  # Gather
            ishape = tuple(rng.choice((0, 1, 2, 3)) for _ in range(rng.choice((0, 1, 1, 2))))
            if d == 0 and int(np.prod(ishape)) > 0:
                ishape = (0,)
            idx = np.array([rng.randint(-d, d - 1) for _ in range(int(np.prod(ishape)))]
                           if d else [], np.int64).reshape(ishape)
            attrs = {"axis": axis - x.rank if rng.random() < 0.3 else axis} \
                if axis or rng.random() < 0.5 else {}
            (name,) = self.emit("Gather", [x, self.const(idx)], attrs)
            self.out(name, x.elem, x.shape[:axis] + ishape + x.shape[axis + 1:])
            return True
        ishape = tuple(rng.randint(0, s) if i != axis else rng.choice((0, 1, 2, 3))
                       for i, s in enumerate(x.shape))
        if d == 0 and int(np.prod(ishape)) > 0:
            return False
        idx = np.array([rng.randint(-d, d - 1) for _ in range(int(np.prod(ishape)))]
                       if d else [], np.int64).reshape(ishape)
        (name,) = self.emit("GatherElements", [x, self.const(idx)], {"axis": axis})
        self.out(name, x.elem, ishape)
        return True

    def op_squeeze(self) -> bool:
        rng = self.rng
        if rng.random() < 0.5:
            x = self.pick(lambda v: 1 in v.shape)
            if x is None:
                return False
            ones = [i for i, d in enumerate(x.shape) if d == 1]
            axes = sorted(rng.sample(ones, rng.randint(1, len(ones))))
            args, attrs = [x], {}
            if rng.random() < 0.15:
                axes = ones
            else:
                spec = [a - x.rank if rng.random() < 0.3 else a for a in axes]
                if self.g.opset >= 13:
                    args.append(self.const(spec))
                else:
                    attrs["axes"] = spec
            (name,) = self.emit("Squeeze", args, attrs)
            self.out(name, x.elem, [d for i, d in enumerate(x.shape) if i not in axes])
            return True
        x = self.pick(lambda v: v.rank <= 4)
        if x is None:
            return False
        out_rank = x.rank + rng.choice((1, 1, 2))
        axes = sorted(rng.sample(range(out_rank), out_rank - x.rank))
        spec = [a - out_rank if rng.random() < 0.3 else a for a in axes]
        rng.shuffle(spec)
        (name,) = self.emit("Unsqueeze", [x, self.const(spec)]) if self.g.opset >= 13 else \
            self.emit("Unsqueeze", [x], {"axes": spec})
        it = iter(x.shape)
        self.out(name, x.elem, [1 if i in axes else next(it) for i in range(out_rank)])
        return True

    def op_reduce(self) -> bool:
        x = self.pick(lambda v: self.is_float(v))
        if x is None:
            return False
        rng = self.rng
        op = rng.choice(REDUCE_OPS)
        as_input = self.g.opset >= 18 or (op == "ReduceSum" and self.g.opset >= 13)
        r = rng.random()
        axes: Optional[List[int]] = None
        if x.rank and r < 0.75:
            axes = sorted(rng.sample(range(x.rank), rng.randint(1, x.rank)))
        keep = rng.random() < 0.5
        attrs: Dict[str, Any] = {} if keep and rng.random() < 0.5 else {"keepdims": int(keep)}
        args = [x]
        noop = False
        if as_input and axes is None and rng.random() < 0.3:
            noop = rng.random() < 0.5
            attrs["noop_with_empty_axes"] = int(noop)
            if rng.random() < 0.5:
                args.append(self.const(np.zeros((0,), np.int64)))
        if axes is not None:
            spec = [a - x.rank if rng.random() < 0.25 else a for a in axes]
            if as_input:
                args.append(self.const(spec))
            else:
                attrs["axes"] = spec
        red = set(range(x.rank)) if axes is None else set(axes)
        if noop:
            red = set()
        if any(x.shape[a] == 0 for a in red) and op in ("ReduceMax", "ReduceMin"):
            pass  # the runtime may refuse an empty reduction; then the graph is skipped
        out = [1 if i in red else d for i, d in enumerate(x.shape) if keep or i not in red]
        (name,) = self.emit(op, args, attrs)
        self.out(name, x.elem, out)
        return True

    def op_argmax(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        axis = rng.randrange(x.rank)
        if x.shape[axis] == 0:
            return False
        keep = rng.random() < 0.5
        attrs: Dict[str, Any] = {"axis": axis - x.rank if rng.random() < 0.3 else axis,
                                 "keepdims": int(keep)}
        if rng.random() < 0.3:
            attrs["select_last_index"] = 1
        (name,) = self.emit(rng.choice(("ArgMax", "ArgMin")), [x], attrs)
        self.out(name, INT64, [1 if i == axis else d for i, d in enumerate(x.shape)
                               if keep or i != axis])
        return True

    def op_expand_tile(self) -> bool:
        x = self.pick(lambda v: v.rank <= 4)
        if x is None:
            return False
        rng = self.rng
        if rng.random() < 0.5:
            target = [rng.choice((1, 2, 3)) for _ in range(rng.choice((0, 0, 1)))]
            for d in x.shape:
                target.append(rng.choice((1, 2, 3, 0)) if d == 1 else
                              (1 if rng.random() < 0.3 else d))
            if rng.random() < 0.1 and target:
                target = target[1:] if len(target) > x.rank else target
            try:
                out = _bshape(x.shape, tuple(target))
            except ValueError:
                return False
            if not _broadcastable(x.shape, tuple(target)):
                return False
            (name,) = self.emit("Expand", [x, self.const(target)])
            self.out(name, x.elem, out)
            return True
        if x.rank == 0:
            return False
        reps = [rng.choice((1, 1, 2, 3, 0)) for _ in range(x.rank)]
        (name,) = self.emit("Tile", [x, self.const(reps)])
        self.out(name, x.elem, [d * r for d, r in zip(x.shape, reps)])
        return True

    def op_pad(self) -> bool:
        x = self.pick(lambda v: v.rank >= 1 and v.elem in (FLOAT, DOUBLE, INT64, INT32))
        if x is None:
            return False
        rng = self.rng
        mode = rng.choice(("constant", "constant", "reflect", "edge"))
        use_axes = self.g.opset >= 18 and rng.random() < 0.4
        axes = sorted(rng.sample(range(x.rank), rng.randint(1, x.rank))) if use_axes \
            else list(range(x.rank))
        n = len(axes)
        pads = [0] * (2 * n)
        for i, a in enumerate(axes):
            d = x.shape[a]
            for j in (i, i + n):
                if mode == "reflect":
                    pads[j] = rng.randint(0, max(0, d - 1)) if d > 1 else 0
                elif mode == "edge":
                    pads[j] = rng.choice((0, 1, 2)) if d > 0 else 0
                else:
                    pads[j] = rng.choice((0, 1, 2, -1))
            if pads[i] + pads[i + n] + d < 0:
                pads[i] = pads[i + n] = 0
        args = [x, self.const(pads)]
        attrs = {"mode": mode} if mode != "constant" or rng.random() < 0.3 else {}
        if use_axes:
            args += [None, self.const([a - x.rank if rng.random() < 0.3 else a for a in axes])]
        elif mode == "constant" and rng.random() < 0.3:
            args.append(self.const(1, NP_TYPES[x.elem]))
        out = list(x.shape)
        for i, a in enumerate(axes):
            out[a] += pads[i] + pads[i + n]
        (name,) = self.emit("Pad", args, attrs)
        self.out(name, x.elem, out)
        return True

    def op_flatten(self) -> bool:
        x = self.pick()
        if x is None:
            return False
        axis = self.rng.randint(-x.rank, x.rank)
        a = axis + x.rank if axis < 0 else axis
        attrs = {"axis": axis} if axis != 1 or self.rng.random() < 0.5 else {}
        (name,) = self.emit("Flatten", [x], attrs)
        self.out(name, x.elem, (int(np.prod(x.shape[:a], dtype=np.int64)),
                                int(np.prod(x.shape[a:], dtype=np.int64))))
        return True

    def op_topk_cumsum(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank >= 1 and 0 not in v.shape)
        if x is None:
            return False
        rng = self.rng
        axis = rng.randrange(x.rank)
        if rng.random() < 0.5:
            d = x.shape[axis]
            k = rng.randint(0, d)
            if rng.random() < 0.3 and d > 0:  # K = the axis' dim, from the shape
                sh = self.shape_value(x)
                (kk,) = self.emit("Gather", [sh, self.const([axis])], {"axis": 0})
                kv = Val(kk, INT64, (1,))
                k = d
            else:
                kv = self.const([k])
            attrs: Dict[str, Any] = {}
            if axis != x.rank - 1 or rng.random() < 0.3:
                attrs["axis"] = axis - x.rank if rng.random() < 0.3 else axis
            if rng.random() < 0.3:
                attrs["largest"] = 0
            names = self.emit("TopK", [x, kv], attrs, 2)
            shape = list(x.shape)
            shape[axis] = k
            self.out(names[0], x.elem, shape)
            self.out(names[1], INT64, shape)
            return True
        attrs = {}
        if rng.random() < 0.3:
            attrs["exclusive"] = 1
        if rng.random() < 0.3:
            attrs["reverse"] = 1
        (name,) = self.emit("CumSum", [x, self.const(axis - x.rank if rng.random() < 0.3
                                                       else axis, rng.choice((np.int64,
                                                                              np.int32)))],
                            attrs)
        self.out(name, x.elem, x.shape, x.syms)
        return True

    def op_resize(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and 3 <= v.rank <= 4 and v.elem == FLOAT
                      and 0 not in v.shape)
        if x is None:
            return False
        rng = self.rng
        mode = rng.choice(("nearest", "nearest", "linear"))
        attrs: Dict[str, Any] = {"mode": mode}
        use_axes = self.g.opset >= 18 and rng.random() < 0.3
        axes = list(range(2, x.rank)) if use_axes else list(range(x.rank))
        if use_axes:
            attrs["axes"] = axes
        out = list(x.shape)
        if rng.random() < 0.5:
            scales = [1.0 if (a < 2) else rng.choice((0.5, 1.5, 2.0, 3.0, 0.3, 1.0))
                      for a in axes]
            for a, s in zip(axes, scales):
                out[a] = int(np.floor(x.shape[a] * np.float32(s)))
            args = [x, None, self.const(scales, np.float32)]
            if self.g.opset < 13 or rng.random() < 0.3:
                args[1] = self.const(np.zeros((0,), np.float32), np.float32)
        else:
            sizes = [x.shape[a] if a < 2 else rng.choice((1, 2, 3, 5, 7)) for a in axes]
            if self.g.opset >= 18 and rng.random() < 0.3:
                pol = rng.choice(("not_larger", "not_smaller"))
                attrs["keep_aspect_ratio_policy"] = pol
                sp = [a for a in axes if a >= 2]
                if any(x.shape[a] == 0 for a in sp) or any(a < 2 for a in axes):
                    return False
                ratios = [np.float32(sizes[axes.index(a)]) / np.float32(x.shape[a])
                          for a in sp]
                s = min(ratios) if pol == "not_larger" else max(ratios)
                for a in sp:
                    out[a] = int(np.floor(np.float32(x.shape[a]) * s + np.float32(0.5)))
            else:
                for a, s in zip(axes, sizes):
                    out[a] = s
            args = [x, None, None, self.const(sizes)]
            if self.g.opset < 13:  # roi and scales are required inputs before 13
                args[1] = self.const(np.zeros((0,), np.float32), np.float32)
                args[2] = self.const(np.zeros((0,), np.float32), np.float32)
        if mode == "linear" and any(out[a] != x.shape[a] for a in range(min(2, x.rank))):
            return False
        (name,) = self.emit("Resize", args, attrs)
        self.out(name, x.elem, out)
        return True

    def op_depth_space(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank == 4)
        if x is None:
            return False
        b = self.rng.choice((1, 2, 3))
        n, c, h, w = x.shape
        if self.rng.random() < 0.5:
            if c % (b * b):
                return False
            attrs: Dict[str, Any] = {"blocksize": b}
            if self.rng.random() < 0.5:
                attrs["mode"] = self.rng.choice(("DCR", "CRD"))
            (name,) = self.emit("DepthToSpace", [x], attrs)
            self.out(name, x.elem, (n, c // (b * b), h * b, w * b))
            return True
        if h % b or w % b:
            return False
        (name,) = self.emit("SpaceToDepth", [x], {"blocksize": b})
        self.out(name, x.elem, (n, c * b * b, h // b, w // b))
        return True

    def op_einsum(self) -> bool:
        # (onnxruntime crashes on some empty operands of Einsum, TopK, InstanceNormalization)
        x = self.pick(lambda v: self.is_float(v) and 1 <= v.rank <= 4 and v.elem == FLOAT
                      and 0 not in v.shape)
        if x is None or self.g.opset < 12:
            return False
        rng = self.rng
        letters = "abcdefgh"
        xl = list(letters[:x.rank])
        sizes = dict(zip(xl, x.shape))
        terms = ["".join(xl)]
        operands = [x]
        if rng.random() < 0.6:
            yl = rng.sample(xl, rng.randint(0, len(xl))) + \
                 list(letters[x.rank:x.rank + rng.choice((0, 1, 2))])
            rng.shuffle(yl)
            for ch in yl:
                sizes.setdefault(ch, rng.choice((1, 2, 3)))
            operands.append(self.const(np.ones([sizes[c] for c in yl]), np.float32))
            terms.append("".join(yl))
        used = sorted(set("".join(terms)))
        outl = rng.sample(used, rng.randint(0, len(used)))
        if rng.random() < 0.2:
            eq = ",".join(terms)  # implicit output: letters seen once, sorted
            counts = {c: "".join(terms).count(c) for c in used}
            outl = [c for c in used if counts[c] == 1]
        else:
            eq = ",".join(terms) + "->" + "".join(outl)
        (name,) = self.emit("Einsum", operands, {"equation": eq})
        self.out(name, FLOAT, [sizes[c] for c in outl])
        return True

    def op_trilu_misc(self) -> bool:
        x = self.pick(lambda v: self.is_float(v) and v.rank >= 2)
        if x is None:
            return False
        op = self.rng.choice(("Trilu", "LayerNormalization", "InstanceNormalization"))
        if op == "Trilu" and self.g.opset >= 14:
            (name,) = self.emit("Trilu", [x, self.const(self.rng.randint(-2, 2))],
                                {"upper": self.rng.randint(0, 1)})
            self.out(name, x.elem, x.shape, x.syms)
            return True
        if op == "InstanceNormalization" and x.rank >= 3 and 0 not in x.shape:
            c = x.shape[1]
            (name,) = self.emit(op, [x, self.const(np.ones(c), np.float32),
                                     self.const(np.zeros(c), np.float32)])
            self.out(name, x.elem, x.shape, x.syms)
            return True
        if self.g.opset < 17 or x.elem != FLOAT or 0 in x.shape:
            return False
        axis = self.rng.randint(-x.rank, x.rank - 1)
        a = axis % x.rank
        names = self.emit("LayerNormalization", [x, self.const(np.ones(x.shape[a:]),
                                                               np.float32)],
                          {"axis": axis}, self.rng.choice((1, 3)))
        self.out(names[0], x.elem, x.shape, x.syms)
        for nm in names[1:]:
            self.out(nm, FLOAT, x.shape[:a] + (1,) * (x.rank - a))
        return True

    def op_indexing(self) -> bool:
        """GatherND, ScatterND, ScatterElements, OneHot, Compress, NonZero, Clip, Mod."""
        x = self.pick(lambda v: v.rank >= 1 and v.elem in (FLOAT, DOUBLE))
        if x is None:
            return False
        rng = self.rng
        op = rng.choice(("GatherND", "ScatterND", "ScatterElements", "OneHot", "Compress",
                         "NonZero", "Clip", "Mod"))
        if op == "GatherND":
            b = rng.randint(0, min(1 if self.g.opset >= 12 else 0, x.rank - 1))
            if any(d == 0 for d in x.shape[:b]):
                return False
            last = rng.randint(1, x.rank - b)
            mid = tuple(rng.choice((1, 2)) for _ in range(rng.choice((0, 1))))
            ishape = x.shape[:b] + mid + (last,)
            n = int(np.prod(ishape[:-1], dtype=np.int64))
            if any(x.shape[b + j] == 0 for j in range(last)) and n:
                return False
            idx = np.array([[rng.randint(-x.shape[b + j], x.shape[b + j] - 1) for j in
                             range(last)] for _ in range(n)], np.int64).reshape(ishape)
            attrs = {"batch_dims": b} if b else {}
            (name,) = self.emit("GatherND", [x, self.const(idx)], attrs)
            self.out(name, x.elem, ishape[:-1] + x.shape[b + last:])
            return True
        if op == "ScatterND":
            last = rng.randint(1, x.rank)
            if any(d == 0 for d in x.shape[:last]):
                return False
            k = rng.choice((1, 2))
            idx = np.array([[rng.randint(0, x.shape[j] - 1) for j in range(last)]
                            for _ in range(k)], np.int64)
            if len({tuple(r) for r in idx.tolist()}) < k:
                idx = idx[:1]
            upd = self.const(np.ones((len(idx),) + x.shape[last:]), NP_TYPES[x.elem])
            (name,) = self.emit("ScatterND", [x, self.const(idx), upd])
            self.out(name, x.elem, x.shape, x.syms)
            return True
        if op == "ScatterElements":
            axis = rng.randrange(x.rank)
            ishape = tuple(rng.randint(0, d) for d in x.shape)
            if x.shape[axis] == 0 and int(np.prod(ishape)) > 0:
                return False
            idx = np.array([rng.randint(0, x.shape[axis] - 1) for _ in
                            range(int(np.prod(ishape)))] if x.shape[axis] else [],
                           np.int64).reshape(ishape)
            upd = self.const(np.ones(ishape), NP_TYPES[x.elem])
            (name,) = self.emit("ScatterElements", [x, self.const(idx), upd], {"axis": axis})
            self.out(name, x.elem, x.shape, x.syms)
            return True
        if op == "OneHot":
            depth = rng.choice((1, 2, 5))
            axis = rng.randint(-x.rank - 1, x.rank)
            (ind,) = self.emit("Cast", [x], {"to": INT64})
            (name,) = self.emit("OneHot", [Val(ind, INT64, x.shape),
                                           self.const(depth, rng.choice((np.int64, np.float32))),
                                           self.const([0.0, 1.0], np.float32)],
                                {"axis": axis})
            a = axis + x.rank + 1 if axis < 0 else axis
            self.out(name, FLOAT, x.shape[:a] + (depth,) + x.shape[a:])
            return True
        if op == "Compress":
            axis = rng.randrange(x.rank)
            d = x.shape[axis]
            cond = [rng.random() < 0.5 for _ in range(rng.randint(0, d))]
            attrs = {"axis": axis} if rng.random() < 0.8 else {}
            (name,) = self.emit("Compress", [x, self.const(cond, np.bool_)], attrs)
            if attrs:
                self.out(name, x.elem, x.shape[:axis] + (sum(cond),) + x.shape[axis + 1:])
            else:
                self.out(name, x.elem, (sum(cond),))
            return True
        if op == "NonZero":
            (name,) = self.emit("NonZero", [x])
            self.out(name, INT64, (x.rank, x.size))  # ones: every element is nonzero
            return True
        if op == "Clip":
            args = [x]
            if rng.random() < 0.5:
                args += [self.const(0.0, NP_TYPES[x.elem]), self.const(2.0, NP_TYPES[x.elem])]
            (name,) = self.emit("Clip", args)
            self.out(name, x.elem, x.shape, x.syms)
            return True
        y = self.partner(x)
        if not _broadcastable(x.shape, y.shape):
            return False
        (name,) = self.emit("Mod", [x, y], {"fmod": 1})
        self.out(name, x.elem, _bshape(x.shape, y.shape))
        return True

    def op_shape_values(self) -> bool:
        """Shape values through ReduceProd/ReduceSum, Squeeze to a scalar, Equal/Where and
        Max, into Reshape, Expand, Tile or ConstantOfShape."""
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        sh = self.shape_value(x)
        r = rng.random()
        if r < 0.35:  # flatten the dims from k on by ReduceProd of a Slice of the shape
            k = rng.randrange(x.rank)
            (tail,) = self.emit("Slice", [sh, self.const([k]), self.const([x.rank])])
            if self.g.opset >= 18:
                (prod,) = self.emit("ReduceProd", [Val(tail, INT64, ()), self.const([0])],
                                    {"keepdims": 1})
            else:
                (prod,) = self.emit("ReduceProd", [Val(tail, INT64, ())],
                                    {"axes": [0], "keepdims": 1})
            parts = []
            if k:
                (head,) = self.emit("Slice", [sh, self.const([0]), self.const([k])])
                parts.append(Val(head, INT64, ()))
            parts.append(Val(prod, INT64, ()))
            if len(parts) > 1:
                (cat,) = self.emit("Concat", parts, {"axis": 0})
            else:
                cat = prod
            out = _reshape_out(x.shape, list(x.shape[:k]) +
                               [int(np.prod(x.shape[k:], dtype=np.int64))])
            if out is None:
                return False
            (name,) = self.emit("Reshape", [x, Val(cat, INT64, ())])
            self.out(name, x.elem, out)
            return True
        if r < 0.55:  # Expand to Max(shape, ones) (numpy broadcast with a constant)
            other = [rng.choice((1, 2)) if d == 1 else 1 for d in x.shape]
            (mx,) = self.emit("Max", [sh, self.const(other)])
            target = [max(a, b) for a, b in zip(x.shape, other)]
            (name,) = self.emit("Expand", [x, Val(mx, INT64, ())])
            self.out(name, x.elem, target)
            return True
        if r < 0.75:  # Where(Equal(shape, 1), 2, shape) into Tile repeats of 1 or 2
            (eq,) = self.emit("Equal", [sh, self.const(1)])
            (reps,) = self.emit("Where", [Val(eq, BOOL, ()), self.const(2), sh])
            (rep1,) = self.emit("Div", [Val(reps, INT64, ()), Val(reps, INT64, ())]) \
                if 0 not in x.shape else (reps,)
            if 0 in x.shape:
                return False
            (name,) = self.emit("Tile", [x, Val(rep1, INT64, ())])
            self.out(name, x.elem, x.shape)
            return True
        # a scalar dim: Squeeze(Gather(shape, [k])) + 1, Unsqueeze, ConstantOfShape
        k = rng.randrange(x.rank)
        (g1,) = self.emit("Gather", [sh, self.const([k])], {"axis": 0})
        if self.g.opset >= 13:
            (sq,) = self.emit("Squeeze", [Val(g1, INT64, ()), self.const([0])])
        else:
            (sq,) = self.emit("Squeeze", [Val(g1, INT64, ())], {"axes": [0]})
        (plus,) = self.emit("Add", [Val(sq, INT64, ()), self.const(1)])
        if self.g.opset >= 13:
            (u,) = self.emit("Unsqueeze", [Val(plus, INT64, ()), self.const([0])])
        else:
            (u,) = self.emit("Unsqueeze", [Val(plus, INT64, ())], {"axes": [0]})
        (name,) = self.emit("ConstantOfShape", [Val(u, INT64, ())])
        self.out(name, FLOAT, (x.shape[k] + 1,))
        return True

    def op_slice_dynamic(self) -> bool:
        """Slice whose bounds are computed from dims: the symbolic slice lengths."""
        x = self.pick(lambda v: v.rank >= 1)
        if x is None:
            return False
        rng = self.rng
        a = rng.randrange(x.rank)
        # the bound's dim: x's own, or one of another value (another symbol)
        y = x if rng.random() < 0.6 else (self.pick(lambda v: v.rank >= 1) or x)
        j = a if y is x else rng.randrange(y.rank)
        d, e = x.shape[a], y.shape[j]
        (g,) = self.emit("Gather", [self.shape_value(y), self.const([j])], {"axis": 0})
        gv = Val(g, INT64, (1,))

        def sub(k: int) -> Val:
            (r,) = self.emit("Sub", [gv, self.const([k])])
            return Val(r, INT64, (1,))

        form = rng.randrange(7)
        k = rng.choice((0, 1, 2, 3))
        step = 1
        if form == 0:
            starts, ends, st, en = self.const([k]), gv, k, e
        elif form == 1:
            (n,) = self.emit("Neg", [gv])
            starts, ends, st, en = Val(n, INT64, (1,)), self.const([INT64_MAX]), -e, INT64_MAX
        elif form == 2:
            starts, ends, st, en = self.const([k]), sub(k + 1), k, e - k - 1
        elif form == 3:
            starts, ends, st, en = sub(k), gv, e - k, e
        elif form == 4:
            step = rng.choice((-1, -2))
            starts, ends, st, en = sub(1), self.const([-INT64_MAX - 1]), e - 1, -INT64_MAX - 1
        elif form == 5:
            (h,) = self.emit("Div", [gv, self.const([2])])
            starts, ends, st, en = Val(h, INT64, (1,)), self.const([INT64_MAX]), e // 2, INT64_MAX
        else:
            step = rng.choice((1, 2, 3))
            (n,) = self.emit("Neg", [gv])
            starts, ends, st, en = self.const([-k - 1]), Val(n, INT64, (1,)), -k - 1, -e
            if rng.random() < 0.5:
                step = -step
        args = [x, starts, ends, self.const([a - x.rank if rng.random() < 0.3 else a])]
        if step != 1 or rng.random() < 0.3:
            args.append(self.const([step]))
        out = list(x.shape)
        out[a] = len(range(*slice(st, en, step).indices(d)))
        (name,) = self.emit("Slice", args)
        self.out(name, x.elem, out)
        return True

    def op_dynamic_misc(self) -> bool:
        """Pad, Resize, Tile, Split and Expand whose shape inputs are computed from dims."""
        x = self.pick(lambda v: v.rank >= 1 and v.elem in (FLOAT, DOUBLE))
        if x is None:
            return False
        rng = self.rng
        sh = self.shape_value(x)
        a = rng.randrange(x.rank)
        (g,) = self.emit("Gather", [sh, self.const([a])], {"axis": 0})
        gv = Val(g, INT64, (1,))
        d = x.shape[a]
        op = rng.choice(("Pad", "Resize", "Tile", "Split", "Expand"))
        if op == "Pad":  # pad axis a by its own dim at the end: [.., 2*d, ..]
            zeros_before = self.const([0] * (x.rank + a))
            parts = [zeros_before, gv]
            if x.rank - a - 1:
                parts.append(self.const([0] * (x.rank - a - 1)))
            (pads,) = self.emit("Concat", parts, {"axis": 0})
            (name,) = self.emit("Pad", [x, Val(pads, INT64, ())])
            out = list(x.shape)
            out[a] = 2 * d
            self.out(name, x.elem, out)
            return True
        if op == "Resize":
            if x.rank < 3 or x.elem != FLOAT or 0 in x.shape:
                return False
            (head,) = self.emit("Slice", [sh, self.const([0]), self.const([2])])
            (dbl,) = self.emit("Mul", [Val(g, INT64, ()), self.const([2])]) if a >= 2 else \
                (None,)
            tail = [Val(dbl, INT64, ()) if a >= 2 and k == a else self.const([3])
                    for k in range(2, x.rank)]
            (sizes,) = self.emit("Concat", [Val(head, INT64, ())] + tail, {"axis": 0})
            args = [x, None, None, Val(sizes, INT64, ())]
            if self.g.opset < 13:
                args[1] = self.const(np.zeros((0,), np.float32), np.float32)
                args[2] = self.const(np.zeros((0,), np.float32), np.float32)
            (name,) = self.emit("Resize", args, {"mode": "nearest"})
            self.out(name, x.elem, list(x.shape[:2]) +
                     [2 * d if (a >= 2 and k == a) else 3 for k in range(2, x.rank)])
            return True
        if op == "Tile":  # repeat axis a by min(dim, 2) + 0: ones elsewhere
            (m,) = self.emit("Min", [gv, self.const([2])])
            parts = []
            if a:
                parts.append(self.const([1] * a))
            parts.append(Val(m, INT64, ()))
            if x.rank - a - 1:
                parts.append(self.const([1] * (x.rank - a - 1)))
            if len(parts) > 1:
                (reps,) = self.emit("Concat", parts, {"axis": 0})
            else:
                reps = m
            (name,) = self.emit("Tile", [x, Val(reps, INT64, ())])
            out = list(x.shape)
            out[a] = d * min(d, 2)
            self.out(name, x.elem, out)
            return True
        if op == "Split":  # [1, d - 1] along a
            if d < 1 or self.g.opset < 13:
                return False
            (rest,) = self.emit("Sub", [gv, self.const([1])])
            (sizes,) = self.emit("Concat", [self.const([1]), Val(rest, INT64, ())], {"axis": 0})
            names = self.emit("Split", [x, Val(sizes, INT64, ())], {"axis": a}, 2)
            for nm, sz in zip(names, (1, d - 1)):
                out = list(x.shape)
                out[a] = sz
                self.out(nm, x.elem, out)
            return True
        # Expand a [1]-padded slice of x to x's shape built back from its dims
        parts = [Val(self.emit("Gather", [sh, self.const([k])], {"axis": 0})[0], INT64, (1,))
                 for k in range(x.rank)]
        (target,) = self.emit("Concat", parts, {"axis": 0}) if len(parts) > 1 else \
            (parts[0].name,)
        y = self.const(np.ones([1] * x.rank), NP_TYPES[x.elem])
        (name,) = self.emit("Expand", [y, Val(target, INT64, ())])
        self.out(name, x.elem, x.shape, x.syms)
        return True

    def op_newer(self) -> bool:
        """Operators of the later opsets: CenterCropPad (18), GridSample (16; N-D 20),
        AffineGrid (20), Pad's wrap mode (19), GroupNormalization (18, 21), ReverseSequence."""
        rng = self.rng
        opset = self.g.opset
        op = rng.choice(("CenterCropPad", "GridSample", "AffineGrid", "PadWrap",
                         "GroupNormalization", "ReverseSequence"))
        if op == "CenterCropPad" and opset >= 18:
            x = self.pick(lambda v: v.rank >= 1)
            if x is None:
                return False
            axes = sorted(rng.sample(range(x.rank), rng.randint(1, min(2, x.rank))))
            sizes = [rng.choice((0, 1, 2, 3, 5)) for _ in axes]
            args = [x, self.const(sizes)]
            attrs = {}
            if axes != list(range(x.rank)) or rng.random() < 0.3:
                attrs["axes"] = [a - x.rank if rng.random() < 0.3 else a for a in axes]
            if len(axes) != x.rank and "axes" not in attrs:
                return False
            (name,) = self.emit("CenterCropPad", args, attrs)
            out = list(x.shape)
            for a, z in zip(axes, sizes):
                out[a] = z
            self.out(name, x.elem, out)
            return True
        if op == "GridSample" and opset >= 16:
            x = self.pick(lambda v: v.elem == FLOAT and (v.rank == 4 or (opset >= 20 and
                                                                          v.rank == 5))
                          and 0 not in v.shape)
            if x is None:
                return False
            out_sp = [rng.choice((1, 2, 3)) for _ in range(x.rank - 2)]
            grid = self.const(np.zeros([x.shape[0]] + out_sp + [x.rank - 2]), np.float32)
            (name,) = self.emit("GridSample", [x, grid])
            self.out(name, x.elem, list(x.shape[:2]) + out_sp)
            return True
        if op == "AffineGrid" and opset >= 20:
            n = rng.choice((1, 2))
            hw = [rng.choice((1, 2, 3)) for _ in range(rng.choice((2, 3)))]
            nd = len(hw)
            theta = self.const(np.zeros((n, nd, nd + 1)), np.float32)
            (name,) = self.emit("AffineGrid", [theta, self.const([n, 1] + hw)])
            self.out(name, FLOAT, [n] + hw + [nd])
            return True
        if op == "PadWrap" and opset >= 19:
            x = self.pick(lambda v: v.rank >= 1 and v.elem in (FLOAT, DOUBLE)
                          and 0 not in v.shape)
            if x is None:
                return False
            pads = [rng.randint(0, d) for d in x.shape] * 2
            (name,) = self.emit("Pad", [x, self.const(pads)], {"mode": "wrap"})
            self.out(name, x.elem, [d + pads[i] + pads[i + x.rank]
                                    for i, d in enumerate(x.shape)])
            return True
        if op == "GroupNormalization" and opset >= 18:
            x = self.pick(lambda v: v.elem == FLOAT and v.rank >= 3 and 0 not in v.shape)
            if x is None:
                return False
            c = x.shape[1]
            groups = rng.choice([g for g in (1, 2, 3) if c % g == 0])
            n = c if opset >= 21 else groups
            (name,) = self.emit("GroupNormalization",
                                [x, self.const(np.ones(n), np.float32),
                                 self.const(np.zeros(n), np.float32)], {"num_groups": groups})
            self.out(name, x.elem, x.shape, x.syms)
            return True
        if op == "ReverseSequence":
            x = self.pick(lambda v: v.rank >= 2 and v.elem in (FLOAT, DOUBLE))
            if x is None:
                return False
            batch, time_ = (1, 0) if rng.random() < 0.5 else (0, 1)
            lens = [rng.randint(0, x.shape[time_]) for _ in range(x.shape[batch])]
            attrs = {"batch_axis": batch, "time_axis": time_} if batch == 0 or \
                rng.random() < 0.5 else {}
            (name,) = self.emit("ReverseSequence", [x, self.const(lens)], attrs)
            self.out(name, x.elem, x.shape, x.syms)
            return True
        return False

    # (generator, weight); the order is part of what a seed means
    OPS = (("op_newer", 4), ("op_dynamic_misc", 4), ("op_slice_dynamic", 4),
           ("op_indexing", 4), ("op_shape_values", 4), ("op_unary", 6), ("op_cast", 2),
           ("op_binary", 8), ("op_where", 2),
           ("op_matmul", 4), ("op_gemm", 2), ("op_conv", 4), ("op_conv_transpose", 2),
           ("op_pool", 4), ("op_reshape", 5), ("op_shape_arith", 6), ("op_transpose", 3),
           ("op_concat", 3), ("op_split", 3), ("op_slice", 5), ("op_gather", 4),
           ("op_squeeze", 3), ("op_reduce", 5), ("op_argmax", 2), ("op_expand_tile", 3),
           ("op_pad", 3), ("op_flatten", 2), ("op_topk_cumsum", 3), ("op_resize", 3),
           ("op_depth_space", 2), ("op_einsum", 3), ("op_trilu_misc", 2))

    def generate(self) -> Tuple[Graph, Dict[str, int]]:
        rng = self.rng
        for _ in range(rng.choice((1, 1, 2, 3))):
            rank = rng.choice((0, 1, 2, 2, 3, 3, 4, 4, 4))
            elem = rng.choices((FLOAT, DOUBLE, INT32), (0.8, 0.15, 0.05))[0]
            self.add_input(elem, self.random_dims(rank))
        if rng.random() < 0.1:
            self.add_input(INT64, self.random_dims(rng.choice((1, 2))))
        self.budget = rng.randint(2, 12)
        names, weights = zip(*self.OPS)
        tries = 0
        while self.budget > 0 and tries < 200:
            tries += 1
            before = (len(self.g.nodes), len(self.pool), dict(self.g.inits),
                      list(self.g.inputs), dict(self.binding), self.counter)
            op = rng.choices(names, weights)[0]
            ok = getattr(self, op)()
            if not ok:  # undo what a refusing generator added
                n, p, inits, inputs, binding, _ = before
                del self.g.nodes[n:]
                del self.pool[p:]
                self.g.inits, self.g.inputs, self.binding = inits, inputs, binding
                self.budget = max(self.budget, 1)
        used = {i for n in self.g.nodes for i in n.inputs}
        self.g.outputs = [o for n in self.g.nodes for o in n.outputs if o not in used]
        if not self.g.outputs and self.g.nodes:
            self.g.outputs = [self.g.nodes[-1].outputs[0]]
        self.g.prune()
        return self.g, {s: v for s, v in self.binding.items() if s in self.g.symbols()}


def _reshape_out(shape: Sequence[int], target: Sequence[int], allowzero: bool = False) \
        -> Optional[Tuple[int, ...]]:
    """Reshape's output for a target value (0 copies the input's dim unless allowzero, -1 is
    inferred), or None where the runtime refuses it."""
    out = list(target)
    for i, t in enumerate(target):
        if t == 0 and not allowzero:
            if i >= len(shape):
                return None
            out[i] = shape[i]
    total = int(np.prod(shape, dtype=np.int64))
    if out.count(-1) > 1 or any(d < -1 for d in out):
        return None
    if -1 in out:
        rest = int(np.prod([d for d in out if d != -1], dtype=np.int64))
        if rest == 0 or total % rest:
            return None
        out[out.index(-1)] = total // rest
    if int(np.prod(out, dtype=np.int64)) != total:
        return None
    return tuple(out)


def _broadcastable(a: Sequence[int], b: Sequence[int]) -> bool:
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def _bshape(a: Sequence[int], b: Sequence[int]) -> Tuple[int, ...]:
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError("not broadcastable")
        out.append(y if x == 1 else x)
    return tuple(out)


def _bsyms(args: Sequence[Val], shape: Sequence[int]) -> Tuple[Optional[str], ...]:
    syms: List[Optional[str]] = [None] * len(shape)
    for a in args:
        off = len(shape) - a.rank
        for i, s in enumerate(a.syms):
            if s is not None and a.shape[i] == shape[off + i] and syms[off + i] is None:
                syms[off + i] = s
    return tuple(syms)


def _cuts(rng: random.Random, d: int, n: int) -> List[int]:
    points = sorted(rng.randint(0, d) for _ in range(n - 1))
    return [b - a for a, b in zip([0] + points, points + [d])]


# ---- Documented onnxruntime deviations: exact conditions, checked on the node's inputs at
# the run's binding. A contradiction on a value downstream of a node where one holds is
# classified "deviation", not counted as a finding (docs/testing.md lists them).

def _const_ints(g: Graph, name: str) -> Optional[List[int]]:
    a = g.inits.get(name)
    return None if a is None else [int(v) for v in a.reshape(-1).tolist()]


def _reduce_negative_axis_empty(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Reduce* with a negative axis on an input that has a 0 dim: onnxruntime returns the
    input's shape (it ignores the axes)."""
    if node.op not in REDUCE_OPS:
        return False
    x = shapes.get(node.inputs[0])
    if x is None or 0 not in x:
        return False
    axes = node.attrs.get("axes")
    if axes is None and len(node.inputs) > 1 and node.inputs[1]:
        axes = _const_ints(g, node.inputs[1])
    return bool(axes) and any(a < 0 for a in axes)


def _slice_negative_step_int64_max_end(g: Graph, node: Node, shapes) -> bool:
    """Slice with a negative step whose end is INT64_MAX: onnxruntime slices to the start of
    the axis (as INT64_MIN would); the spec clamps the end to dims - 1, which selects
    nothing (docs/testing.md)."""
    if node.op != "Slice" or len(node.inputs) < 5 or not node.inputs[4]:
        return False
    ends, steps = _const_ints(g, node.inputs[2]), _const_ints(g, node.inputs[4])
    if ends is None or steps is None:
        return False
    return any(st < 0 and en == INT64_MAX for en, st in zip(ends, steps))


def _kernel(g: Graph, node: Node, shapes) -> Optional[List[int]]:
    if "kernel_shape" in node.attrs:
        return list(node.attrs["kernel_shape"])
    w = None
    if len(node.inputs) > 1:
        w = list(g.inits[node.inputs[1]].shape) if node.inputs[1] in g.inits \
            else shapes.get(node.inputs[1])
    return None if w is None else list(w[2:])


def _pool_same_with_dilation(g: Graph, node: Node, shapes) -> bool:
    """MaxPool/AveragePool with auto_pad SAME_UPPER or SAME_LOWER and a dilation > 1:
    onnxruntime pads for the undilated kernel, so the output is smaller than the spec's
    ceil(input / stride)."""
    return (node.op in ("MaxPool", "AveragePool", "LpPool")
            and node.attrs.get("auto_pad") in ("SAME_UPPER", "SAME_LOWER")
            and any(d > 1 for d in node.attrs.get("dilations", [])))


def _conv_transpose_same_negative_padding(g: Graph, node: Node, shapes) -> bool:
    """ConvTranspose with auto_pad SAME_UPPER or SAME_LOWER where the spec's total_padding is
    negative ((kernel - 1) * dilation + 1 + output_padding < stride on an axis): onnxruntime
    pads by 0 instead, so the output is smaller than the spec's input * stride."""
    if node.op != "ConvTranspose" or node.attrs.get("auto_pad") not in ("SAME_UPPER",
                                                                        "SAME_LOWER"):
        return False
    kernel = _kernel(g, node, shapes)
    if kernel is None:
        return False
    n = len(kernel)
    strides = node.attrs.get("strides", [1] * n)
    dil = node.attrs.get("dilations", [1] * n)
    opad = node.attrs.get("output_padding", [0] * n)
    return any((k - 1) * d + 1 + p < s for k, d, p, s in zip(kernel, dil, opad, strides))


def _argmax_negative_axis_empty(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """ArgMax/ArgMin with a negative axis on an input that has a 0 dim: onnxruntime returns
    the input's shape (as for Reduce*)."""
    x = shapes.get(node.inputs[0]) if node.inputs else None
    return (node.op in ("ArgMax", "ArgMin") and x is not None and 0 in x
            and node.attrs.get("axis", 0) < 0)


def _concat_empty_input_mismatch(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Concat where an input with 0 elements differs from another input in its rank or a dim
    other than the axis: onnxruntime skips empty inputs when it checks the shapes (the spec:
    "All input tensors must have the same shape, except for the dimension size of the axis
    to concatenate on")."""
    if node.op != "Concat":
        return False
    ins = [shapes.get(i) for i in node.inputs]
    if any(s is None for s in ins) or not ins or not ins[0]:
        return False
    for a in ins:
        for b in ins:
            if 0 not in a or not a:
                continue
            if len(a) != len(b):
                return True  # an empty input of another rank is skipped as well
            axis = node.attrs.get("axis", 0) % len(a)
            if any(x != y for k, (x, y) in enumerate(zip(a, b)) if k != axis):
                return True
    return False


def _einsum_broadcast_label(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Einsum where a letter stands for a dim of 1 in one place and another size elsewhere:
    onnxruntime broadcasts it; the spec broadcasts only through an ellipsis ("The equation
    may contain ellipsis ("...") to enable broadcasting")."""
    if node.op != "Einsum":
        return False
    terms = node.attrs.get("equation", "").split("->")[0].split(",")
    sizes: Dict[str, set] = {}
    for term, name in zip(terms, node.inputs):
        dims = shapes.get(name)
        if dims is None:
            dims = list(g.inits[name].shape) if name in g.inits else None
        if dims is None or "..." in term or len(term) != len(dims):
            return False
        for ch, d in zip(term, dims):
            sizes.setdefault(ch, set()).add(d)
    return any(len(v) > 1 and 1 in v for v in sizes.values())


BROADCASTING_OPS = ("Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Equal",
                    "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor",
                    "Where", "Mod", "PRelu", "BitShift")


def _broadcast_zero(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Multidirectional broadcasting (elementwise operators, Where, MatMul's batch dims) of a
    0 against a dim > 1: onnxruntime gives 0; the spec (Broadcasting.md) allows only equal
    dims or a 1. MatMul with an empty operand and batch dims that differ: onnxruntime neither
    checks nor broadcasts them ([1, 0, 2, 0] x [0, 1, 0, 0] gives [1, 0, 2, 0], numpy's
    matmul [0, 0, 2, 0])."""
    if node.op not in BROADCASTING_OPS and node.op != "MatMul":
        return False
    ins = []
    for name in node.inputs:
        d = shapes.get(name)
        if d is None and name in g.inits:
            d = list(g.inits[name].shape)
        if d is None:
            return False
        ins.append(list(d))
    if node.op == "MatMul":
        if len(ins) != 2 or len(ins[0]) < 2 or len(ins[1]) < 2:
            return False
        empty = 0 in ins[0] or 0 in ins[1]
        ins = [ins[0][:-2], ins[1][:-2]]
        n = max(len(ins[0]), len(ins[1]))
        a, b = ([1] * (n - len(d)) + d for d in ins)
        if empty and a != b:
            return True  # an empty operand: onnxruntime does not broadcast the batch dims
    n = max(len(d) for d in ins)
    for k in range(1, n + 1):
        col = {d[-k] for d in ins if len(d) >= k}
        if 0 in col and any(x > 1 for x in col):
            return True
    return False


def _pool_valid_ceil(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """MaxPool/AveragePool with auto_pad VALID and ceil_mode 1 where a last window would
    start inside the input but end past it: onnxruntime counts it, ceil((in - k_eff)/s) + 1;
    the spec gives ceil((in - k_eff + 1)/s) ("VALID: output_spatial_shape[i] = ...")."""
    if node.op not in ("MaxPool", "AveragePool") or node.attrs.get("auto_pad") != "VALID" \
            or not node.attrs.get("ceil_mode"):
        return False
    x = shapes.get(node.inputs[0])
    kernel = node.attrs.get("kernel_shape")
    if x is None or kernel is None:
        return False
    n = len(kernel)
    strides = node.attrs.get("strides", [1] * n)
    dil = node.attrs.get("dilations", [1] * n)
    for i, (k, s, d) in enumerate(zip(kernel, strides, dil)):
        span = x[2 + i] - ((k - 1) * d + 1)
        if span >= 0 and -(-span // s) + 1 != -(-(span + 1) // s):
            return True
    return False


def _pool_kernel_past_input(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """MaxPool/AveragePool whose kernel reaches past the padded input (span = in + pads -
    k_eff < 0) by a span that is not a multiple of the stride: onnxruntime divides by the
    stride truncating toward zero (trunc(span/s) + 1, 1 for span -1 and stride 2), the spec
    floors: "floor((input_spatial_shape[i] + pad_shape[i] - dilation[i] * (kernel_shape[i] -
    1) - 1) / strides_spatial_shape[i] + 1)" (0)."""
    if node.op not in ("MaxPool", "AveragePool") or node.attrs.get("auto_pad", "NOTSET") \
            not in ("NOTSET", "VALID"):
        return False
    x = shapes.get(node.inputs[0])
    kernel = node.attrs.get("kernel_shape")
    if x is None or kernel is None:
        return False
    n = len(kernel)
    strides = node.attrs.get("strides", [1] * n)
    dil = node.attrs.get("dilations", [1] * n)
    pads = node.attrs.get("pads", [0] * (2 * n)) if node.attrs.get("auto_pad", "NOTSET") \
        == "NOTSET" else [0] * (2 * n)
    for i, (k, st, d) in enumerate(zip(kernel, strides, dil)):
        span = x[2 + i] + pads[i] + pads[i + n] - ((k - 1) * d + 1)
        if span < 0 and span % st != 0:
            return True
    return False


def _gather_nd_batch_mismatch(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """GatherND whose data and indices differ in a batch dim: onnxruntime runs it; the spec:
    "The first b dimensions of the shape of indices tensor and data tensor must be equal"."""
    if node.op != "GatherND":
        return False
    b = node.attrs.get("batch_dims", 0)
    data = shapes.get(node.inputs[0])
    idx = list(g.inits[node.inputs[1]].shape) if node.inputs[1] in g.inits \
        else shapes.get(node.inputs[1])
    return data is not None and idx is not None and data[:b] != idx[:b]


def _reduce_axis_out_of_range(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Reduce* with a constant axis outside [-r, r-1] (a scalar input, or an empty one):
    onnxruntime runs it; the spec: "Accepted range is [-r, r-1] where r = rank(data)"."""
    if node.op not in REDUCE_OPS:
        return False
    x = shapes.get(node.inputs[0])
    axes = node.attrs.get("axes")
    if axes is None and len(node.inputs) > 1 and node.inputs[1]:
        axes = _const_ints(g, node.inputs[1])
    return x is not None and bool(axes) and any(not -len(x) <= a < len(x) for a in axes)


def _pad_repeated_axes(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """Pad (18+) whose axes name one axis twice: "Behavior is undefined if an axis is
    repeated"; the engine calls it an error, onnxruntime applies both pads."""
    if node.op != "Pad" or len(node.inputs) < 4 or not node.inputs[3]:
        return False
    x = shapes.get(node.inputs[0])
    axes = _const_ints(g, node.inputs[3])
    if x is None or axes is None:
        return False
    norm = [a + len(x) if a < 0 else a for a in axes]
    return len(set(norm)) < len(norm)


def _group_norm_broadcast_scale(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """GroupNormalization whose scale or bias has one element where the spec wants C (21+:
    "scale: Scale tensor of shape (C)") or num_groups (18) elements: onnxruntime runs its
    function body, whose Mul and Add broadcast the one element."""
    if node.op != "GroupNormalization" or len(node.inputs) < 3:
        return False
    x = shapes.get(node.inputs[0])
    if x is None or len(x) < 2:
        return False
    want = x[1] if g.opset >= 21 else node.attrs.get("num_groups", 0)
    for name in node.inputs[1:3]:
        d = list(g.inits[name].shape) if name in g.inits else shapes.get(name)
        if d is not None and d == [1] and want != 1:
            return True
    return False


def _group_norm_zero_channels(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """GroupNormalization on an input with 0 channels: "Y: The output tensor of the same
    shape as X"; onnxruntime runs the function body, whose Reshape back to Shape(X) copies
    the reshaped [N, num_groups, -1]'s dims for the 0s ([5, 0, 0, 2] gives [5, 1, 0, 2])."""
    x = shapes.get(node.inputs[0]) if node.inputs else None
    return node.op == "GroupNormalization" and x is not None and len(x) >= 2 and x[1] == 0


def _group_norm_groups_not_dividing(g: Graph, node: Node, shapes) -> bool:
    """GroupNormalization whose channels are not a multiple of num_groups (the spec: "The
    number of groups `num_groups` should be divisible by the number of channels so that
    there are an equal number of channels per group", meaning the converse): onnxruntime's
    function body runs whenever [N, num_groups, -1] divides the element count (an empty X)."""
    x = shapes.get(node.inputs[0]) if node.inputs else None
    groups = node.attrs.get("num_groups", 0)
    return (node.op == "GroupNormalization" and x is not None and len(x) >= 2 and groups > 0
            and x[1] % groups != 0)


def _argmax_axis_out_of_range(g: Graph, node: Node, shapes: Dict[str, List[int]]) -> bool:
    """ArgMax/ArgMin whose axis is outside [-r, r-1] (a scalar input): onnxruntime runs it
    (a scalar gives a scalar); the spec: "Accepted range is [-r, r-1] where r = rank(data)"."""
    x = shapes.get(node.inputs[0]) if node.inputs else None
    axis = node.attrs.get("axis", 0)
    return node.op in ("ArgMax", "ArgMin") and x is not None and not -len(x) <= axis < len(x)


def _resize_empty_input_wrong_length(g: Graph, node: Node, shapes) -> bool:
    """Resize (no axes) of an empty input whose sizes or scales do not have one value per
    dim: onnxruntime runs it; the spec (Resize-13): "The number of elements of 'sizes'
    should be the same as the rank of input 'X'" (scales likewise)."""
    if node.op != "Resize" or "axes" in node.attrs:
        return False
    x = shapes.get(node.inputs[0])
    if x is None or 0 not in x:
        return False
    for name in node.inputs[2:4]:
        v = g.inits.get(name) if name else None
        if v is not None and v.size and v.size != len(x):
            return True
    return False


DEVIATIONS: Dict[str, Callable[[Graph, Node, Dict[str, List[int]]], bool]] = {
    "ort-resize-empty-input-unchecked-length": _resize_empty_input_wrong_length,
    "ort-group-norm-zero-channels": _group_norm_zero_channels,
    "ort-group-norm-groups-not-dividing-channels": _group_norm_groups_not_dividing,
    "ort-argmax-axis-out-of-range-accepted": _argmax_axis_out_of_range,
    "ort-group-norm-broadcasts-scale": _group_norm_broadcast_scale,
    "spec-undefined-pad-repeated-axes": _pad_repeated_axes,
    "ort-reduce-axis-out-of-range-accepted": _reduce_axis_out_of_range,
    "ort-pool-kernel-past-input-truncating-division": _pool_kernel_past_input,
    "ort-gather-nd-unchecked-batch-dims": _gather_nd_batch_mismatch,
    "ort-broadcasts-zero-against-any-dim": _broadcast_zero,
    "ort-pool-valid-ceil-mode-counts-partial-window": _pool_valid_ceil,
    "ort-concat-skips-empty-inputs": _concat_empty_input_mismatch,
    "ort-einsum-broadcasts-size-1-labels": _einsum_broadcast_label,
    "ort-reduce-negative-axis-empty-input": _reduce_negative_axis_empty,
    "ort-argmax-negative-axis-empty-input": _argmax_negative_axis_empty,
    "ort-slice-negative-step-int64-max-end": _slice_negative_step_int64_max_end,
    "ort-pool-same-padding-ignores-dilation": _pool_same_with_dilation,
    "ort-conv-transpose-same-negative-padding": _conv_transpose_same_negative_padding,
}


# Deviations seen only through the engine's own error, where the condition needs a value the
# runtime does not report: (operator, the error's words, deviation).
DISPUTE_DEVIATIONS = (
    # Reshape-14+: "If the attribute 'allowzero' is set, it is invalid for the specified shape
    # to contain both a zero value and -1"; onnxruntime runs it (the -1 from the other dims).
    ("Reshape", "-1 and 0 together with allowzero=1", "ort-reshape-allowzero-zero-and-minus-one"),
)


def deviating_values(g: Graph, shapes: Dict[str, List[int]]) -> Dict[str, str]:
    """value -> deviation name, for every value at or downstream of a deviating node."""
    tainted: Dict[str, str] = {}
    for node in g.nodes:
        why = next((tainted[i] for i in node.inputs if i in tainted), None)
        if why is None:
            why = next((name for name, cond in DEVIATIONS.items() if cond(g, node, shapes)),
                       None)
        if why is not None:
            for o in node.outputs:
                tainted[o] = why
    return tainted


# ---- Running one graph.

class Outcome:
    def __init__(self):
        self.runs: List[Dict[str, Any]] = []   # binding, runtime dims
        self.refused: List[str] = []
        self.values: Dict[str, str] = {}       # value -> worst class
        self.contradictions: List[Dict[str, Any]] = []
        self.deviations: List[Dict[str, Any]] = []
        self.engine_error: Optional[str] = None
        self.elems: Dict[str, int] = {}        # value -> the runtime's element type
        self.inferred: Dict[str, List[Any]] = {}  # value -> the engine's dims (symbolic mode)


def why_kind(why: str) -> str:
    return "dim" if why.startswith("dim") else why.split(",")[0]


class Fuzzer:
    def __init__(self, runtime: Runtime, work: str):
        self.runtime = runtime
        self.work = work
        self.count = 0

    def feeds(self, g: Graph, binding: Dict[str, int]) -> Optional[Dict[str, Any]]:
        feeds = {}
        for name, elem, dims in g.inputs:
            try:
                shape = [d if isinstance(d, int) else evaluate(d, binding) for d in dims]
            except (Unbound, ZeroDivisionError, ValueError):
                return None
            if any(d < 0 for d in shape) or int(np.prod(shape, dtype=np.int64)) > (1 << 20):
                return None
            feeds[name] = {"type": ORT_FEED[elem], "dims": shape, "fill": "ones"}
        return feeds

    @staticmethod
    def broken_facts(g: Graph, facts: Sequence[str], binding: Dict[str, int]) \
            -> List[Tuple[str, str, int, str]]:
        """The engine's facts ("N == 7 (node of output 'v10' (Concat): ...)") the binding
        breaks, as disputes (mode, kind, node index, the fact)."""
        producer = g.producer()
        broken = []
        for fact in facts:
            equation, _, origin = fact.partition(" (")
            if " == " not in equation:
                continue
            lhs, rhs = equation.split(" == ", 1)
            try:
                if evaluate(lhs, binding) == evaluate(rhs, binding):
                    continue
            except (Unbound, ZeroDivisionError, ValueError, SyntaxError):
                continue
            k = -1
            m = re.search(r"node 'n(\d+)'", origin)
            if m and int(m.group(1)) < len(g.nodes):
                k = int(m.group(1))
            else:
                m = re.search(r"output '([^']+)'", origin)
                k = producer.get(m.group(1), -1) if m else -1
            broken.append(("symbolic", "fact", k, fact))
        return broken

    def check(self, g: Graph, bindings: List[Dict[str, int]]) -> Outcome:
        """Infers g, runs it at each binding, classifies every value."""
        oc = Outcome()
        model = g.to_model()
        try:
            declared = onnx_infer.infer(model)
        except (ValueError, MemoryError) as e:
            oc.engine_error = f"refused: {e}"
            return oc
        main = declared.values.get("main", {})
        for name, t in main.items():
            if t is not None and t.kind == "tensor" and t.shape is not None:
                oc.inferred[name] = list(t.shape)
        runnable = g.to_model(all_outputs=True)
        self.count += 1
        path = os.path.join(self.work, f"m{self.count}.onnx")
        onnx.save(runnable, path)
        try:
            self._runs(g, bindings, oc, model, main, declared, path)
        finally:
            os.unlink(path)  # the runtime keeps its session; a long run keeps no files
        return oc

    def _runs(self, g: Graph, bindings: List[Dict[str, int]], oc: Outcome, model, main,
              declared, path: str) -> None:
        producer = g.producer()
        for binding in bindings:
            feeds = self.feeds(g, binding)
            if feeds is None:
                oc.refused.append("feed")
                continue
            answer = self.runtime.run(path, feeds)
            if not answer.get("ok"):
                oc.refused.append(f"{answer.get('stage')}: {answer.get('error', '')[:200]}")
                if answer.get("stage") == "load":
                    break
                continue
            outputs = answer["outputs"]
            for k, v in outputs.items():
                if v.get("type") in ONNX_TYPES:
                    oc.elems[k] = ONNX_TYPES[v["type"]]
            oc.runs.append({"binding": binding,
                            "dims": {k: v.get("dims") for k, v in outputs.items()}})
            shapes = {k: v["dims"] for k, v in outputs.items() if "dims" in v}
            for k, v in feeds.items():
                shapes[k] = v["dims"]
            tainted = deviating_values(g, shapes)
            checks = [("symbolic", main)]
            # Disputes: the engine says the model is invalid at this binding (a fact of the
            # symbolic inference the binding breaks, an error of the bound inference) yet the
            # runtime ran it. Either the engine's rule is wrong or the runtime accepts what the
            # spec forbids; the dispute is the finding, and the run's contradictions follow it.
            disputes = self.broken_facts(g, declared.facts, binding)
            for e in declared.errors:  # an error of the symbolic inference itself
                k = e.node_index if e.graph in ("main", "") and e.node_index is not None \
                    and 0 <= e.node_index < len(g.nodes) else -1
                disputes.append(("symbolic", "error", k, e.message))
            try:
                bound = onnx_infer.infer(model, input_shapes={k: feeds[k]["dims"]
                                                              for k in feeds})
                checks.append(("bound", bound.values.get("main", {})))
                for e in bound.errors:
                    k = e.node_index if e.graph in ("main", "") and e.node_index is not None \
                        and 0 <= e.node_index < len(g.nodes) else -1
                    disputes.append(("bound", "error", k, e.message))
            except ValueError as e:
                disputes.append(("bound", "refused", -1, str(e)))
            # deviations seen through the engine's errors taint their node and what follows
            # it first, so a fact broken further down (either mode) is classified with them
            for mode, kind, k, message in disputes:
                known = next((name for op, words, name in DISPUTE_DEVIATIONS
                              if k >= 0 and g.nodes[k].op == op and words in message), None)
                if known is not None:
                    tainted = dict(tainted)
                    for k2 in range(k, len(g.nodes)):  # this node and what follows it
                        if k2 == k or any(i in tainted for i in g.nodes[k2].inputs):
                            for o in g.nodes[k2].outputs:
                                tainted.setdefault(o, known)
            deviating_run = ""
            for mode, kind, k, message in disputes:
                node_out = g.nodes[k].outputs[0] if k >= 0 else ""
                record = {"value": node_out, "mode": mode, "kind": kind,
                          "op": g.nodes[k].op if k >= 0 else "", "binding": binding,
                          "why": message, "inferred": "", "runtime": "", "root": True}
                # a contradiction between facts names the nodes that stated them
                named = [g.nodes[int(m)].outputs[0] for m in re.findall(r"node 'n(\d+)'",
                                                                         message)
                         if int(m) < len(g.nodes) and g.nodes[int(m)].outputs]
                origin = next((o for o in [node_out] + named if o in tainted), None)
                if origin is not None:
                    record["deviation"] = tainted[origin]
                    oc.deviations.append(record)
                    deviating_run = deviating_run or tainted[origin]
                else:
                    oc.contradictions.append(record)
                    deviating_run = "-"  # a dispute that is a finding: the rest follows it
            if deviating_run == "-":
                deviating_run = ""
            else:
                disputes = []
            for mode, values in checks:
                env = dict(binding)
                wrong: set = set()  # values that contradict in this run and mode
                for name in sorted(outputs, key=lambda n: producer.get(n, -1)):
                    out = outputs[name]
                    if out.get("type") not in ONNX_TYPES or name not in producer:
                        continue
                    cls, why = Verifier.classify(values.get(name), ONNX_TYPES[out["type"]],
                                                 out["dims"], env)
                    op = g.nodes[producer[name]].op
                    record = {"value": name, "mode": mode, "op": op, "kind": why_kind(why),
                              "binding": binding, "why": why,
                              "inferred": str(values.get(name)),
                              "runtime": f"{out['type']}{out['dims']}"}
                    if cls == "contradiction" and (name in tainted or deviating_run):
                        record["deviation"] = tainted.get(name, deviating_run)
                        oc.deviations.append(record)
                        cls = "deviation"
                    elif cls == "contradiction":
                        # a root: no input of its node contradicts (else it only follows)
                        record["root"] = not disputes and not any(
                            i in wrong for i in g.nodes[producer[name]].inputs)
                        wrong.add(name)
                        oc.contradictions.append(record)
                    if mode == "symbolic" or cls == "contradiction":
                        prev = oc.values.get(name)
                        if prev is None or _worse(cls, prev):
                            oc.values[name] = cls


ORDER = ("exact", "less-precise", "unknown", "deviation", "contradiction")


def _worse(a: str, b: str) -> bool:
    return ORDER.index(a) > ORDER.index(b)


def signature(c: Dict[str, Any]) -> Tuple[str, str, str]:
    return (c["op"], c["mode"], c["kind"])


# ---- Shrinking.

class Shrinker:
    def __init__(self, fuzzer: Fuzzer, sig: Tuple[str, str, str], budget: int = 250,
                 seconds: float = 60.0):
        self.fuzzer = fuzzer
        self.sig = sig
        self.budget = budget  # candidates checked at most
        self.deadline = time.monotonic() + seconds  # and for at most this long

    def fails(self, g: Graph, binding: Dict[str, int]) -> Optional[Outcome]:
        if self.budget <= 0 or time.monotonic() > self.deadline:
            self.budget = 0
            return None
        self.budget -= 1
        syms = g.symbols()
        b = {s: v for s, v in binding.items() if s in syms}
        try:
            oc = self.fuzzer.check(g, [b])
        except Exception:  # noqa: BLE001 - a candidate the tools cannot build is not kept
            return None
        if any(signature(c) == self.sig and c["root"] for c in oc.contradictions):
            return oc
        return None

    def shrink(self, g: Graph, binding: Dict[str, int], oc: Outcome) -> Tuple[Graph, Dict, Outcome]:
        target = next(c for c in oc.contradictions if signature(c) == self.sig and c["root"])
        # 1. only what the failing value needs
        cand = g.copy()
        cand.outputs = [target["value"]]
        cand.prune()
        r = self.fails(cand, binding)
        if r is not None:
            g, oc = cand, r
        progress = True
        while progress and self.budget > 0:
            progress = False
            # 2. cut a node: its outputs become graph inputs of the runtime's dims
            run = oc.runs[-1]["dims"] if oc.runs else {}
            for k in range(len(g.nodes)):
                if k >= len(g.nodes):
                    break
                node = g.nodes[k]
                if any(o in g.outputs for o in node.outputs):
                    continue
                for symbolic in (False, True):
                    cand = self.cut(g, k, run, symbolic, oc)
                    if cand is None:
                        continue
                    r = self.fails(cand, binding)
                    if r is not None:
                        g, oc, progress = cand, r, True
                        break
            # 3. drop optional attributes
            for k in range(len(g.nodes)):
                for name in list(g.nodes[k].attrs):
                    cand = g.copy()
                    del cand.nodes[k].attrs[name]
                    r = self.fails(cand, binding)
                    if r is not None:
                        g, oc, progress = cand, r, True
            # 4. a symbol becomes its value; a value becomes smaller
            for i, (name, elem, dims) in enumerate(list(g.inputs)):
                for j, d in enumerate(dims):
                    if isinstance(d, str) and d.isidentifier() and d in binding:
                        cand = g.copy()
                        cand.inputs[i][2][j] = binding[d]
                        r = self.fails(cand, binding)
                        if r is not None:
                            g, oc, progress = cand, r, True
                            break
            for s in g.symbols():
                for v in sorted({0, 1, 2, binding.get(s, 1) - 1}):
                    if 0 <= v < binding.get(s, 0):
                        nb = dict(binding, **{s: v})
                        r = self.fails(g, nb)
                        if r is not None:
                            binding, oc, progress = nb, r, True
                            break
        return g, binding, oc

    @staticmethod
    def cut(g: Graph, k: int, run: Dict[str, Any], symbolic: bool, oc: Outcome) \
            -> Optional[Graph]:
        """g without node k: its outputs become graph inputs, of the runtime's dims or (symbolic)
        of the dims the engine inferred for them."""
        cand = g.copy()
        node = cand.nodes.pop(k)
        for o in node.outputs:
            if not o:
                continue
            dims = oc.inferred.get(o) if symbolic else run.get(o)
            if dims is None or any(d is None for d in dims):
                return None
            if symbolic and all(isinstance(d, int) for d in dims):
                return None  # the same as the static cut
            elem = oc.elems.get(o)
            if elem is None or elem not in ORT_FEED:
                return None
            cand.inputs.append((o, elem, list(dims)))
        cand.prune()
        return cand


# ---- The driver.

def choose_bindings(rng: random.Random, gen: Dict[str, int]) -> List[Dict[str, int]]:
    """The generating binding (the graph was made valid for it), then up to two more: one that
    keeps which symbols are equal, one with every symbol on its own; 0 and 1 are frequent."""
    bindings = [dict(gen)]
    if not gen:
        return bindings
    want = rng.choice((1, 2, 2, 3))
    if want >= 2:
        remap = {v: rng.choice((0, 1, 1, 2, 3, 4, 5, 8)) for v in sorted(set(gen.values()))}
        bindings.append({s: remap[v] for s, v in gen.items()})
    if want >= 3:
        bindings.append({s: rng.choice((0, 1, 2, 3, 5, v)) for s, v in gen.items()})
    unique = []
    for b in bindings:
        if b not in unique:
            unique.append(b)
    return unique


def write_finding(out_dir: str, tag: str, g: Graph, binding: Dict[str, int], oc: Outcome,
                  contradiction: Dict[str, Any], original: Graph, seed: int,
                  case: int) -> str:
    d = os.path.join(out_dir, tag)
    os.makedirs(d, exist_ok=True)
    dims = oc.runs[-1]["dims"] if oc.runs else {}
    c = contradiction
    comments = [f"fuzz.py --seed {seed}: case {case}, shrunk",
                f"binding: {json.dumps(binding, sort_keys=True)}",
                f"{c['mode']} mode, value {c['value']} ({c['op']}): inferred {c['inferred']}, "
                f"onnxruntime {c['runtime']}: {c['why']}",
                "runtime dims: " + json.dumps({k: v for k, v in dims.items()})]
    path = os.path.join(d, "model.onnxtxt")
    with open(path, "w") as f:
        f.write(to_text(g, comments))
    with open(os.path.join(d, "original.onnxtxt"), "w") as f:
        f.write(to_text(original, [f"fuzz.py --seed {seed}: case {case}, as generated"]))
    info = {"seed": seed, "case": case, "binding": binding, "contradiction": c,
            "runtime_dims": dims, "runs": oc.runs}
    try:
        onnx_infer.infer(path)
    except Exception as e:  # noqa: BLE001 - the printer's output must parse; say so if not
        info["text_parse_error"] = str(e)
    with open(os.path.join(d, "finding.json"), "w") as f:
        json.dump(info, f, indent=1, default=str)
    return d


def recheck(root: str, node_modules: str) -> int:
    """Runs each written finding again: 'fails' (a finding still), 'deviation' (now a known
    runtime deviation) or 'passes'."""
    failing = 0
    runtime = Runtime(node_modules, timeout=5.0)
    with tempfile.TemporaryDirectory() as work:
        fuzzer = Fuzzer(runtime, work)
        try:
            for d in sorted(os.listdir(root)):
                path = os.path.join(root, d, "model.onnxtxt")
                if not os.path.isfile(path):
                    continue
                with open(os.path.join(root, d, "finding.json")) as f:
                    binding = json.load(f)["binding"]
                with tempfile.NamedTemporaryFile(suffix=".onnx") as tmp:
                    onnx_infer.infer(path, output_path=tmp.name)
                    model = onnx.load(tmp.name)
                del model.graph.value_info[:]
                oc = fuzzer.check(Graph.from_model(model), [binding])
                roots = [c for c in oc.contradictions if c["root"]]
                state = "fails" if roots else "deviation" if oc.deviations else \
                    "passes" if oc.runs else "not run: " + "; ".join(oc.refused[:1])
                failing += bool(roots)
                detail = roots[0]["why"] if roots else \
                    oc.deviations[0].get("deviation", "") if oc.deviations else ""
                print(f"{d}: {state} {detail}")
        finally:
            runtime.close()
    return 1 if failing else 0


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, help="this many graphs")
    ap.add_argument("--minutes", type=float, help="generate graphs for this long")
    ap.add_argument("--out", help="where minimal failing models go (default: a temp dir)")
    ap.add_argument("--node-modules", default=os.environ.get("ONNX_INFER_ORT_NODE_MODULES")
                    or default_node_modules(),
                    help="where onnxruntime-node is installed (install.sh prints it)")
    ap.add_argument("--opsets", default="13-21", help="ai.onnx opsets to pick from, as A-B")
    ap.add_argument("--max-shrinks", type=int, default=2,
                    help="shrink and write at most this many findings of one signature")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--recheck", metavar="DIR",
                    help="check every finding written under DIR again (model.onnxtxt at its "
                         "binding) and say whether it still fails, then exit")
    args = ap.parse_args(argv)
    if args.cases is None and args.minutes is None:
        args.cases = 200
    if not os.path.isdir(os.path.join(args.node_modules, "onnxruntime-node")):
        print(f"fuzz: onnxruntime-node is not in {args.node_modules} "
              "(run tools/verify_runtime/install.sh)", file=sys.stderr)
        return 2
    if args.recheck:
        return recheck(args.recheck, args.node_modules)
    lo, hi = (int(x) for x in args.opsets.split("-"))
    out_dir = args.out or tempfile.mkdtemp(prefix="onnx-infer-fuzz-")
    os.makedirs(out_dir, exist_ok=True)
    deadline = time.monotonic() + 60 * args.minutes if args.minutes is not None else None
    totals = {"generated": 0, "run": 0, "skipped": 0, "checked": 0, "exact": 0,
              "less-precise": 0, "unknown": 0, "deviation": 0, "contradiction": 0,
              "findings": 0, "roots": 0, "downstream": 0}
    shrunk: Dict[Tuple[str, str, str], int] = {}
    signatures: Dict[Tuple[str, str, str], int] = {}
    imprecise: Dict[Tuple[str, str], int] = {}  # (op, class) -> values
    deviations: Dict[str, int] = {}  # deviation -> graphs where it showed
    # onnxruntime crashes on some empty tensors; a core dump of node would take seconds
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    runtime = Runtime(args.node_modules, timeout=5.0)  # tiny models: a hang, not work
    stop = []  # set by SIGTERM or SIGINT: finish the graph at hand, then the summary

    def on_signal(signum, frame):  # noqa: ARG001
        stop.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with tempfile.TemporaryDirectory() as work:
        fuzzer = Fuzzer(runtime, work)
        case = 0
        try:
            while not stop:
                if args.cases is not None and case >= args.cases:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    break
                rng = random.Random(f"{args.seed}:{case}")
                opset = rng.randint(lo, hi)
                g, gen = Generator(rng, opset).generate()
                case += 1
                if not g.nodes:
                    continue
                totals["generated"] += 1
                bindings = choose_bindings(rng, gen)
                oc = fuzzer.check(g, bindings)
                if oc.engine_error is not None or not oc.runs:
                    totals["skipped"] += 1
                    if args.verbose:
                        print(f"case {case - 1}: skipped: {oc.engine_error or oc.refused[:1]}")
                    continue
                totals["run"] += 1
                producer = g.producer()
                for name, cls in oc.values.items():
                    totals["checked"] += 1
                    totals[cls] += 1
                    if cls in ("less-precise", "unknown"):
                        key = (g.nodes[producer[name]].op, cls)
                        imprecise[key] = imprecise.get(key, 0) + 1
                for name in {d.get("deviation", "") for d in oc.deviations}:
                    deviations[name] = deviations.get(name, 0) + 1
                for c in oc.contradictions:
                    if not c["root"]:
                        totals["downstream"] += 1
                        continue
                    totals["roots"] += 1
                    sig = signature(c)
                    signatures[sig] = signatures.get(sig, 0) + 1
                    print(f"case {case - 1} (opset {opset}): CONTRADICTION {c['value']} "
                          f"({c['op']}, {c['mode']}, binding {c['binding']}): inferred "
                          f"{c['inferred']}, runtime {c['runtime']}: {c['why']}", flush=True)
                    if shrunk.get(sig, 0) >= args.max_shrinks or c["kind"] == "refused":
                        continue
                    shrunk[sig] = shrunk.get(sig, 0) + 1
                    shrinker = Shrinker(fuzzer, sig)
                    small, binding, soc = shrinker.shrink(g, c["binding"],
                                                          fuzzer.check(g, [c["binding"]]))
                    sc = next((x for x in soc.contradictions
                               if signature(x) == sig and x["root"]), c)
                    tag = f"s{args.seed}-c{case - 1}-{sig[0]}-{sig[1]}-{sig[2]}"
                    d = write_finding(out_dir, tag.replace(" ", "_"), small, binding, soc, sc,
                                      g, args.seed, case - 1)
                    totals["findings"] += 1
                    print(f"  minimal model ({len(small.nodes)} nodes): {d}/model.onnxtxt",
                          flush=True)
        finally:
            runtime.close()
    print("fuzz: seed {seed}: {generated} graphs generated, {run} run, {skipped} skipped "
          "(runtime refused), {checked} values checked: {exact} exact, {less-precise} less "
          "precise, {unknown} unknown, {deviation} known runtime deviations, {contradiction} "
          "contradictions ({roots} at their source, {downstream} following one; {findings} "
          "findings written to {out})".format(
              seed=args.seed, out=out_dir, **totals))
    for sig, n in sorted(signatures.items()):
        print(f"  {n} x {sig[0]} ({sig[1]} mode, {sig[2]})")
    if deviations:
        print("  deviations (graphs): " + ", ".join(
            f"{name} {n}" for name, n in sorted(deviations.items(), key=lambda kv: -kv[1])))
    if imprecise:
        top = sorted(imprecise.items(), key=lambda kv: -kv[1])[:10]
        print("  not exact: " + ", ".join(f"{op} {cls} {n}" for (op, cls), n in top))
    return 1 if totals["roots"] else 0


if __name__ == "__main__":
    sys.exit(main())
