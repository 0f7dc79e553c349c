#!/usr/bin/env python3
"""Checks the types and shapes onnx-infer infers against what onnxruntime actually produces.

For each model: every value of the main graph is made a graph output (and every value of an
If branch or Loop body reaches one through an output added to its node), the model is run by
onnxruntime (run.js, onnxruntime-node) at several bindings of its input dims, and each value's
inferred type is compared with the runtime's output:

- symbolic check: the type inferred for the model as declared (dims such as ``N + 5`` or
  ``floor((H - 1)/2) + 1``) is evaluated under the binding;
- bound check: the model is inferred again with the bound input shapes (static rules).

Each value is classified: ``exact`` (element type and every dim agree), ``less-precise`` (rank
right, some dims unknown or not evaluable), ``unknown`` (no rank, or no type at all) or
``contradiction`` (element type, rank or a dim differs). A value takes its worst class over
the runs. Exit codes: 0 no contradiction, 1 contradictions, 2 usage or set-up error.

Usage: verify.py [--json REPORT] [--node-modules DIR] [--jobs N] PATH...
A PATH is a model (.onnx binary, or .onnxtxt text syntax), a backend-suite case directory
(model.onnx + test_data_set_0/input_*.pb: that data is fed), or a directory searched for both.
docs/testing.md ("Runtime verification") tells how to install the runtime and run it.
"""

import argparse
import ast
import base64
import json
import multiprocessing
import multiprocessing.util
import os
import select
import subprocess
import sys
import tempfile
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple

import numpy as np
import onnx
from onnx import numpy_helper

import onnx_infer

HERE = os.path.dirname(os.path.abspath(__file__))

# ONNX data type number <-> onnxruntime-node's tensor type name.
ORT_TYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
             7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64", 12: "uint32",
             13: "uint64"}
ONNX_TYPES = {v: k for k, v in ORT_TYPES.items()}

MAX_FEED_ELEMENTS = 1 << 21  # a binding that needs a larger input is skipped
MAX_STATIC_FEED_ELEMENTS = 1 << 28

# The classes of a value, worst last. "declared-kept": the runtime disagrees with a declared
# type the engine kept although its own inference contradicted it (it said so: under
# --policy refine, docs/cli.md), or with a value computed from one. "runtime-deviation":
# the runtime disagrees where it departs from the specification (DEVIATIONS below), or
# downstream of such a node.
CLASSES = ("exact", "less-precise", "unknown", "runtime-deviation", "declared-kept",
           "contradiction")
RANK = {c: i for i, c in enumerate(CLASSES)}

# Binding strategies, in the order they are tried: each gives the i-th input symbol a value.
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53)
STRATEGIES = (
    ("distinct-small", lambda i: PRIMES[i % len(PRIMES)]),
    ("ones", lambda i: 1),
    ("distinct-large", lambda i: 64 + 3 * i),
    ("equal-4", lambda i: 4),
    ("equal-32", lambda i: 32),
    ("equal-512", lambda i: 512),
    ("zeros", lambda i: 0),
)


# ---- Where onnxruntime 1.30 departs from the specification (docs/conformance.md lists each
# with the specification's words). Each entry: (name, test(node, input dims, constants)).

REDUCE_OPS = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
              "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}


def _reduce_negative_axes_on_empty(node, in_dims, out_dims, constants) -> List[str]:
    """Reduce* with a negative axis on an input that has a 0 dim: onnxruntime ignores the
    negative axes (ReduceSum([2, 3, 0], axes=[-1]) gives [2, 3, 0]; the spec: [2, 3, 1] with
    keepdims=1, [2, 3] with 0)."""
    if node.op_type not in REDUCE_OPS or node.domain not in ("", "ai.onnx"):
        return []
    if not in_dims or in_dims[0] is None or 0 not in in_dims[0]:
        return []
    axes = None
    for a in node.attribute:
        if a.name == "axes":
            axes = list(a.ints)
    if axes is None and len(node.input) > 1 and node.input[1] in constants:
        axes = [int(v) for v in numpy_helper.to_array(constants[node.input[1]]).reshape(-1)]
    return list(node.output) if axes is not None and any(v < 0 for v in axes) else []


def _loop_scan_outputs_of_no_iteration(node, in_dims, out_dims, constants) -> List[str]:
    """A Loop that ran no iteration: the spec makes a scan output by "concatenating the value
    of the specified output value at the end of each iteration", so with none only its leading
    0 is defined; onnxruntime makes the other dims 0 where the body does not declare them."""
    if node.op_type != "Loop" or node.domain not in ("", "ai.onnx"):
        return []
    carried = max(len(node.input) - 2, 0)
    return [o for o, d in zip(node.output[carried:], out_dims[carried:])
            if o and d and d[0] == 0]


DEVIATIONS = (
    ("reduce-negative-axes-empty-input", _reduce_negative_axes_on_empty),
    ("loop-no-iteration-scan-output", _loop_scan_outputs_of_no_iteration),
)


def _constants(graph) -> Dict[str, onnx.TensorProto]:
    constants: Dict[str, onnx.TensorProto] = {t.name: t for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            constants[node.output[0]] = node.attribute[0].t
    return constants


def _downstream(graph, seeds: Dict[str, str]) -> Dict[str, str]:
    """seeds (value -> reason) and every main-graph value computed from one, with its reason."""
    tainted = dict(seeds)
    for node in graph.node:  # a valid graph lists its nodes in topological order
        reason = next((tainted[i] for i in node.input if i in tainted), None)
        if reason is not None:
            for o in node.output:
                if o:
                    tainted.setdefault(o, reason)
    return tainted


# ---- Evaluating the engine's dim expressions (docs/symbolic.md's syntax) exactly.

class Unbound(Exception):
    """The expression names a symbol the binding does not give."""


def _floor_div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError
    return a // b


def evaluate(text: str, env: Dict[str, int]) -> int:
    """The value of dim expression ``text`` under ``env``, in exact integer arithmetic.

    ``floor(a/b)``, ``ceiling(a/b)``, ``Mod(a, b)`` (the sign of b), ``Min``, ``Max``, ``**``.
    Raises Unbound for a symbol env lacks, ZeroDivisionError, ValueError for other syntax."""

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in env:
                raise Unbound(n.id)
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Pow) and b >= 0:
                return a ** b
            if isinstance(n.op, ast.FloorDiv):
                return _floor_div(a, b)
            if isinstance(n.op, ast.Mod):
                if b == 0:
                    raise ZeroDivisionError
                return a % b
            raise ValueError(f"operator {type(n.op).__name__} in {text!r}")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            name, args = n.func.id, n.args
            if name in ("floor", "ceiling", "ceil") and len(args) == 1:
                arg = args[0]
                if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
                    a, b = ev(arg.left), ev(arg.right)
                    return _floor_div(a, b) if name == "floor" else -_floor_div(-a, b)
                return ev(arg)
            values = [ev(a) for a in args]
            if name in ("Min", "min") and values:
                return min(values)
            if name in ("Max", "max") and values:
                return max(values)
            if name == "Mod" and len(values) == 2:
                if values[1] == 0:
                    raise ZeroDivisionError
                return values[0] % values[1]
        raise ValueError(f"cannot evaluate {text!r}")

    try:
        tree = ast.parse(text, mode="eval")
        return ev(tree)
    except (SyntaxError, MemoryError, RecursionError) as e:  # a hostile model's dim_param
        raise ValueError(f"cannot evaluate {text[:60]!r}: {type(e).__name__}") from None


# ---- The runtime process.

class Runtime:
    """One `node run.js` process; restarted when it dies or does not answer in time."""

    def __init__(self, node_modules: str, timeout: float = 30.0):
        self.node_modules = node_modules
        self.timeout = timeout
        self.proc: Optional[subprocess.Popen] = None
        self.next_id = 0

    def _start(self) -> None:
        env = dict(os.environ, NODE_PATH=self.node_modules)
        self.proc = subprocess.Popen(["node", os.path.join(HERE, "run.js")], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, model_path: str, feeds: Dict[str, Any]) -> Dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.next_id += 1
        request = {"id": self.next_id, "model": model_path, "feeds": feeds}
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
            line = self.proc.stdout.readline() if ready else ""
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            timed_out = self.proc.poll() is None
            self.close()
            if timed_out:
                return {"ok": False, "stage": "timeout",
                        "error": "no answer in %gs" % self.timeout}
            return {"ok": False, "stage": "crash", "error": "onnxruntime ended the process"}
        return json.loads(line)


# ---- Models.

def _tensor_b64(tensor: onnx.TensorProto) -> Dict[str, Any]:
    name = ORT_TYPES.get(tensor.data_type)
    if name is None:
        raise ValueError(f"data type {tensor.data_type} cannot be fed from node")
    array = numpy_helper.to_array(tensor)
    if name == "string":
        return {"type": name, "dims": list(array.shape),
                "strings": [s.decode() if isinstance(s, bytes) else str(s)
                            for s in array.reshape(-1)]}
    if name == "float16":
        array = array.view("uint16")
    return {"type": name, "dims": list(array.shape),
            "b64": base64.b64encode(array.astype(array.dtype.newbyteorder("<")).tobytes())
            .decode()}


def _load(path: str) -> Tuple[onnx.ModelProto, str]:
    """(the model as declared, what to infer: the path itself, so text models read as text)."""
    if path.endswith((".onnxtxt", ".txt", ".textproto")):
        # The engine reads the text syntax; the runtime needs the binary model: the engine's
        # output with its annotations removed, so onnxruntime sees what the text declares.
        with tempfile.NamedTemporaryFile(suffix=".onnx", delete=False) as tmp:
            out = tmp.name
        try:
            onnx_infer.infer(path, output_path=out)
            model = onnx.load(out, load_external_data=False)
        finally:
            os.unlink(out)
        del model.graph.value_info[:]
        return model, path
    try:
        return onnx.load(path), path
    except FileNotFoundError:  # external data that is not there: the runtime will say so
        return onnx.load(path, load_external_data=False), path


# ---- Values inside subgraphs, made visible through their node's outputs.

class Lifted(NamedTuple):
    path: str      # the graph the value belongs to ("main/Loop_3.body")
    value: str     # its name there
    # From the outermost node in: ("loop", "") strips a leading iteration axis; ("if", branch)
    # keeps the value only when the marker output's last dim says that branch ran.
    wrappers: Tuple[Tuple[str, str, str], ...]  # (kind, branch, marker output in main)


def _zero_size_constant(graph, name: str, elem: int) -> None:
    t = onnx.TensorProto(name=name + "_value", data_type=elem, dims=[0])
    graph.node.add().CopyFrom(onnx.helper.make_node("Constant", [], [name], value=t))


def _marker(graph, name: str, length: int) -> None:
    t = onnx.helper.make_tensor(name + "_value", onnx.TensorProto.INT64, [length], [0] * length)
    graph.node.add().CopyFrom(onnx.helper.make_node("Constant", [], [name], value=t))


def lift_subgraph_values(graph, path: str, values: Dict[str, Dict[str, Any]],
                         counter: List[int]) -> Dict[str, Lifted]:
    """Adds to every If and Loop node of graph (ai.onnx) outputs that carry the values computed
    inside its subgraphs (recursively), and returns {new output: what it carries}: a branch's
    value becomes an If output (the other branch gives an empty tensor of its element type, and
    a marker output [1] or [2] says which branch ran); a Loop body's value becomes a scan output
    (stacked over the iterations). Values of unknown element type, and non-tensors, are left out."""
    lifted: Dict[str, Lifted] = {}

    def fresh(stem: str) -> str:
        counter[0] += 1
        return f"__verify_{stem}{counter[0]}"

    def candidates(sub, sub_path):
        """(name in sub, element type, what it carries or None for a marker) of sub's values."""
        inner = lift_subgraph_values(sub, sub_path, values, counter)
        declared = {o.name for o in sub.output}
        for n in list(sub.node):
            for name in n.output:
                if not name or name in declared:
                    continue
                if name.startswith("__verify_branch"):  # a nested If's marker
                    yield name, onnx.TensorProto.INT64, None
                    continue
                origin = inner.get(name, Lifted(sub_path, name, ()))
                t = values.get(origin.path, {}).get(origin.value)
                if t is not None and t.kind == "tensor" and t.elem_type:
                    yield name, t.elem_type, origin

    for index, node in enumerate(list(graph.node)):
        if node.domain not in ("", "ai.onnx") or node.op_type not in ("If", "Loop"):
            continue
        prefix = f"{path}/{node.op_type}_{index}"
        subs = {a.name: a.g for a in node.attribute if a.type == onnx.AttributeProto.GRAPH}
        renamed: Dict[str, str] = {}  # a nested marker -> the output that carries it here
        mine: Dict[str, Lifted] = {}
        if node.op_type == "If":
            if set(subs) != {"then_branch", "else_branch"}:
                continue
            marker = fresh("branch")
            for branch, length in (("then_branch", 1), ("else_branch", 2)):
                _marker(subs[branch], f"{marker}_{length}", length)
                subs[branch].output.add().name = f"{marker}_{length}"
            node.output.append(marker)
            for branch, other in (("then_branch", "else_branch"), ("else_branch", "then_branch")):
                sub = subs[branch]
                for name, elem, origin in list(candidates(sub, f"{prefix}.{branch}")):
                    out = fresh("branch" if origin is None else "v")
                    sub.output.add().CopyFrom(
                        onnx.helper.make_tensor_value_info(name, elem, None))
                    _zero_size_constant(subs[other], out + "_none", elem)
                    subs[other].output.add().CopyFrom(
                        onnx.helper.make_tensor_value_info(out + "_none", elem, None))
                    node.output.append(out)
                    if origin is None:
                        renamed[name] = out
                    else:
                        mine[out] = origin._replace(
                            wrappers=(("if", branch, marker),) + origin.wrappers)
        elif "body" in subs:
            body = subs["body"]
            for name, elem, origin in list(candidates(body, f"{prefix}.body")):
                out = fresh("branch" if origin is None else "v")
                body.output.add().CopyFrom(onnx.helper.make_tensor_value_info(name, elem, None))
                node.output.append(out)
                if origin is None:
                    renamed[name] = out
                else:
                    mine[out] = origin._replace(wrappers=(("loop", "", ""),) + origin.wrappers)
        for out, l in mine.items():
            lifted[out] = l._replace(wrappers=tuple(
                (k, b, renamed.get(m, m)) for k, b, m in l.wrappers))
    return lifted


class Verifier:
    def __init__(self, runtime: Runtime, work: str, max_runs: int = 6):
        self.runtime = runtime
        self.work = work
        self.max_runs = max_runs
        self.count = 0

    # Compares one value; env maps symbols to values and learns the engine's own symbols
    # (a data-dependent count) the first time one appears alone as a dim.
    @staticmethod
    def classify(ours: Optional[onnx_infer.ValueType], elem: int, dims: List[int],
                 env: Dict[str, int]) -> Tuple[str, str]:
        if ours is None or ours.kind != "tensor" or ours.elem_type == 0:
            if ours is not None and ours.kind != "tensor":
                return "contradiction", f"inferred a {ours.kind}, the runtime gave a tensor"
            return "unknown", ""
        if ours.elem_type != elem:
            return "contradiction", "element type"
        if ours.shape is None:
            return "unknown", ""
        if len(ours.shape) != len(dims):
            return "contradiction", "rank"
        worst = "exact"
        for axis, (d, actual) in enumerate(zip(ours.shape, dims)):
            if d is None:
                worst = "less-precise"
                continue
            if isinstance(d, int):
                if d != actual:
                    return "contradiction", f"dim {axis}: inferred {d}, runtime {actual}"
                continue
            if d.isidentifier() and d not in env:
                env[d] = actual  # a symbol of the engine's own: it must keep this value
                continue
            try:
                value = evaluate(d, env)
            except (Unbound, ZeroDivisionError, ValueError):
                worst = "less-precise"
                continue
            if value != actual:
                return "contradiction", f"dim {axis}: inferred {d} = {value}, runtime {actual}"
        return worst, ""

    def verify(self, path: str, data_dir: Optional[str] = None) -> Dict[str, Any]:
        report: Dict[str, Any] = {"model": path, "runs": [], "values": {}, "contradictions": [],
                                  "declared-kept": [], "runtime-deviation": []}
        try:
            model, infer_source = _load(path)
        except Exception as e:  # noqa: BLE001 - any unreadable model is reported, not fatal
            report["not_run"] = f"cannot load: {e}"
            return report
        try:
            declared = onnx_infer.infer(infer_source)
        except (ValueError, MemoryError) as e:
            report["not_run"] = f"onnx-infer refused it: {e}"
            return report
        main = declared.values.get("main", {})
        self.declared_diagnostics = declared.diagnostics

        initializers = {t.name for t in model.graph.initializer}
        inputs = [i for i in model.graph.input if i.name not in initializers]
        # Two runnable copies: with the subgraphs' values lifted to the main graph (tried
        # first), and without, for a model where lifting makes the runtime refuse a run (a
        # value whose shape changes between iterations cannot be a scan output).
        copies: List[Tuple[str, Dict[str, Lifted]]] = []
        for lift in (True, False):
            runnable = onnx.ModelProto()
            runnable.CopyFrom(model)
            lifted = (lift_subgraph_values(runnable.graph, "main", declared.values, [0])
                      if lift else {})
            if lift and not lifted:
                continue
            outputs = {o.name for o in runnable.graph.output}
            for node in runnable.graph.node:
                for name in node.output:
                    t = main.get(name)
                    if name and name not in outputs and not (t is not None and t.kind != "tensor"):
                        runnable.graph.output.add().name = name
                        outputs.add(name)
            self.count += 1  # a fresh name: run.js keeps the session of the last path
            model_path = os.path.join(self.work, f"model{self.count}.onnx")
            try:
                onnx.save(runnable, model_path)
            except ValueError as e:  # larger than protobuf's 2 GiB
                report["not_run"] = f"cannot write the runnable copy: {e}"
                return report
            copies.append((model_path, lifted))

        # The symbols of the inputs, as the engine names them (anonymous dims included).
        symbols: List[str] = []
        for i in inputs:
            t = main.get(i.name)
            for d in (t.shape or ()) if t is not None else ():
                if isinstance(d, str) and d not in symbols and d.isidentifier():
                    symbols.append(d)

        if data_dir is not None:
            attempts = [("data", None)]
        elif symbols:
            attempts = [(name, {s: f(k) for k, s in enumerate(symbols)})
                        for name, f in STRATEGIES]
        else:
            attempts = [("static", {})]

        errors: List[str] = []
        ran = 0
        fills = ["ones", "zeros"] if data_dir is None else ["data"]
        timeouts: Dict[str, int] = {}
        for strategy, binding in attempts:
            if ran >= self.max_runs:
                break
            if binding is not None:
                binding = self._apply_facts(binding, declared.facts)
            for fill in list(fills):
                feeds, binding_used, why = self._feeds(inputs, main, binding, fill, data_dir,
                                                      model.graph)
                if feeds is None:
                    errors.append(why)
                    break
                answer = self.runtime.run(copies[0][0], feeds)
                if not answer.get("ok") and len(copies) > 1:
                    plain = self.runtime.run(copies[1][0], feeds)
                    if plain.get("ok"):  # the lifting was at fault, not the binding
                        errors.append(f"{strategy}/{fill}: with subgraph values lifted: "
                                      f"{answer.get('stage')}: {answer.get('error', '')[:300]}")
                        copies.pop(0)
                        answer = plain
                if not answer.get("ok"):
                    errors.append(f"{strategy}/{fill}: {answer.get('stage')}: "
                                  f"{answer.get('error', '')[:300]}")
                    if answer.get("stage") == "load":
                        report["not_run"] = errors[-1]
                        return report
                    if answer.get("stage") == "timeout":
                        # A Loop whose condition input stays true never ends: after two
                        # timeouts that fill is not tried again.
                        timeouts[fill] = timeouts.get(fill, 0) + 1
                        if timeouts[fill] >= 2:
                            fills.remove(fill)
                    continue
                ran += 1
                self._compare(report, strategy, fill, binding_used, model, main, inputs,
                              answer["outputs"], infer_source, feeds, copies[0][1],
                              declared.values)
                break
        if ran == 0:
            report["not_run"] = "; ".join(errors[-3:]) or "no binding ran"
        report["failed_attempts"] = errors
        return report

    @staticmethod
    def _unwrap(lifted: Lifted, dims: List[int], outputs) -> Optional[List[int]]:
        """A lifted value's own dims from its outer output's, or None when it was not computed."""
        for kind, branch, marker in lifted.wrappers:
            if kind == "loop":
                if not dims or dims[0] == 0:
                    return None
                dims = dims[1:]
            else:
                m = outputs.get(marker, {}).get("dims")
                taken = {1: "then_branch", 2: "else_branch"}.get(m[-1] if m else None)
                if taken != branch:
                    return None
        return dims

    @staticmethod
    def _apply_facts(binding: Dict[str, int], facts: Iterable[str]) -> Dict[str, int]:
        """Facts such as ``T == P + S`` the model states: the left symbol takes the right's value."""
        binding = dict(binding)
        for _ in range(3):
            for fact in facts:
                equation = fact.split(" (", 1)[0]
                if " == " not in equation:
                    continue
                lhs, rhs = (s.strip() for s in equation.split(" == ", 1))
                for a, b in ((lhs, rhs), (rhs, lhs)):
                    if a.isidentifier() and a in binding:
                        try:
                            binding[a] = evaluate(b, binding)
                        except (Unbound, ZeroDivisionError, ValueError, SyntaxError):
                            continue
                        break
        return binding

    @staticmethod
    def _consistent_values(graph, main, env) -> Dict[str, Any]:
        """Values for graph inputs that must agree with the shapes: a GroupQueryAttention's
        total_sequence_length (input 6) is past length + new length, its seqlens_k (input 5)
        that total - 1 for each batch entry, as a decoding step feeds them."""
        values: Dict[str, Any] = {}

        def dim(name, axis):
            t = main.get(name)
            if t is None or t.shape is None or axis >= len(t.shape):
                return None
            d = t.shape[axis]
            try:
                return d if isinstance(d, int) else evaluate(d, env)
            except (Unbound, ZeroDivisionError, ValueError):
                return None

        # An integer scalar the graph compares with Equal to a constant (silero's sample
        # rate: Equal(sr, 16000) picks a branch): that constant, the value the model expects.
        constants = _constants(graph)
        for node in graph.node:
            if node.op_type == "Equal" and node.domain in ("", "ai.onnx") and len(node.input) == 2:
                for a, b in (node.input, reversed(node.input)):
                    if b in constants and a not in constants:
                        c = numpy_helper.to_array(constants[b])
                        if c.size == 1 and c.dtype.kind in "iu":
                            values.setdefault(a, int(c.reshape(-1)[0]))
        for node in graph.node:
            if node.op_type != "GroupQueryAttention" or node.domain != "com.microsoft":
                continue
            ins = list(node.input) + [""] * 7
            new = dim(ins[1], 1) if ins[1] else dim(ins[0], 1)
            past = dim(ins[3], 2) if ins[3] else 0
            if new is None or past is None:
                continue
            total = past + new
            batch = dim(ins[0], 0)
            if ins[6]:
                values[ins[6]] = total
            if ins[5] and batch is not None:
                values[ins[5]] = [total - 1] * batch
        return values

    def _feeds(self, inputs, main, binding, fill, data_dir, graph=None):
        feeds: Dict[str, Any] = {}
        used: Dict[str, int] = dict(binding or {})
        fixed = self._consistent_values(graph, main, used) if graph is not None else {}
        for k, i in enumerate(inputs):
            if data_dir is not None:
                pb = os.path.join(data_dir, f"input_{k}.pb")
                if not os.path.exists(pb):
                    continue  # an optional input the case leaves out
                tensor = onnx.TensorProto()
                with open(pb, "rb") as f:
                    tensor.ParseFromString(f.read())
                try:
                    feeds[i.name] = _tensor_b64(tensor)
                except ValueError as e:
                    return None, used, f"input {i.name!r}: {e}"
                t = main.get(i.name)
                for d, actual in zip((t.shape or ()) if t is not None else (), tensor.dims):
                    if isinstance(d, str) and d.isidentifier():
                        used[d] = int(actual)
                continue
            if not i.type.HasField("tensor_type"):
                return None, used, f"input {i.name!r} is not a tensor"
            elem = i.type.tensor_type.elem_type
            name = ORT_TYPES.get(elem)
            if name is None:
                return None, used, f"input {i.name!r} has data type {elem}, not fed from node"
            t = main.get(i.name)
            if t is None or t.shape is None:
                return None, used, f"input {i.name!r} has no rank"
            dims = []
            for d in t.shape:
                if isinstance(d, int):
                    dims.append(d)
                else:
                    try:
                        dims.append(evaluate(d, used))
                    except (Unbound, ZeroDivisionError, ValueError):
                        return None, used, f"input {i.name!r}: dim {d} not bound"
            count = 1
            for d in dims:
                count *= max(d, 0)
            # A binding that makes an input this large is skipped for a smaller one; a static
            # input is fed as the model declares it (up to a gigabyte of floats).
            symbolic = any(not isinstance(d, int) for d in t.shape)
            if count > (MAX_FEED_ELEMENTS if symbolic else MAX_STATIC_FEED_ELEMENTS):
                return None, used, f"input {i.name!r}: {dims} is more than this tool feeds"
            feeds[i.name] = {"type": name, "dims": dims, "fill": fill}
            if i.name in fixed and name in ("int32", "int64"):
                # The value repeated to fill the input's shape.
                array = np.resize(np.asarray(fixed[i.name], dtype=name), dims)
                feeds[i.name] = {"type": name, "dims": dims, "b64": base64.b64encode(
                    array.astype(array.dtype.newbyteorder("<")).tobytes()).decode()}
        return feeds, used, ""

    def _compare(self, report, strategy, fill, binding, model, main, inputs, outputs, source,
                 feeds, lifted, all_values):
        run = {"binding": strategy, "fill": fill, "values": binding, "checked": 0}
        report["runs"].append(run)
        checks = [("symbolic", main, dict(binding))]
        bound_values: Dict[str, Any] = {}
        self.diagnostics = {"symbolic": self.declared_diagnostics, "bound": []}
        if binding:  # the same dims given as static input shapes: the static rules
            shapes = {}
            for i in inputs:
                t = main.get(i.name)
                if t is not None and t.shape is not None:
                    try:
                        shapes[i.name] = [d if isinstance(d, int) else evaluate(d, binding)
                                          for d in t.shape]
                    except (Unbound, ZeroDivisionError, ValueError):
                        pass
            try:
                bound = onnx_infer.infer(source, input_shapes=shapes)
                checks.append(("bound", bound.values.get("main", {}), dict(binding)))
                self.diagnostics["bound"] = bound.diagnostics
                bound_values = bound.values
            except ValueError as e:
                report.setdefault("notes", []).append(f"bound inference refused: {e}")
        # Values whose runtime type may differ for a reason that is not a rule's.
        input_names = {i.name for i in inputs}
        dims_of = {name: out.get("dims") for name, out in outputs.items()}
        for name, feed in feeds.items():
            dims_of[name] = feed.get("dims")
        constants = _constants(model.graph)
        deviating: Dict[str, str] = {}
        for node in model.graph.node:
            in_dims = [dims_of.get(x) for x in node.input]
            out_dims = [dims_of.get(x) for x in node.output]
            for dev_name, test in DEVIATIONS:
                for o in test(node, in_dims, out_dims, constants):
                    deviating[o] = dev_name
        deviating = _downstream(model.graph, deviating)
        for mode, values, env in checks:
            kept = _downstream(model.graph, {
                d.subject_name: "declared type kept" for d in self.diagnostics[mode]
                if d.kind == "declared-contradiction" and d.graph == "main" and d.subject_name
                and d.message.endswith("keeping the declared type")})
            graphs = all_values if mode == "symbolic" else bound_values
            for name, out in outputs.items():
                if out.get("type") not in ONNX_TYPES or name in input_names:
                    continue
                elem = ONNX_TYPES[out["type"]]
                ours = values.get(name)
                dims = out["dims"]
                if name in lifted:
                    dims = self._unwrap(lifted[name], dims, outputs)
                    if dims is None:
                        continue  # its branch did not run, or its Loop ran no iteration
                    ours = graphs.get(lifted[name].path, {}).get(lifted[name].value)
                    name = f"{lifted[name].path}:{lifted[name].value}"
                elif name.startswith("__verify_"):
                    continue
                cls, why = self.classify(ours, elem, dims, env)
                if cls == "contradiction" and name in kept:
                    cls = "declared-kept"
                elif cls == "contradiction" and name in deviating:
                    cls, why = "runtime-deviation", deviating[name]
                if mode == "symbolic":
                    run["checked"] += 1
                previous = report["values"].get(name)
                if mode == "symbolic" or RANK[cls] >= RANK["runtime-deviation"]:
                    if previous is None or RANK[cls] > RANK[previous]:
                        report["values"][name] = cls
                if RANK[cls] >= RANK["runtime-deviation"]:
                    report["contradictions" if cls == "contradiction" else cls].append({
                        "value": name, "mode": mode, "binding": strategy, "values": binding,
                        "inferred": str(ours), "runtime": f"{out['type']}{dims}",
                        "why": why})


def _cases(paths: Iterable[str]) -> List[Tuple[str, Optional[str]]]:
    """(model path, test data directory or None) for every model under the paths."""
    found: List[Tuple[str, Optional[str]]] = []
    for p in paths:
        if os.path.isfile(p):
            found.append((p, None))
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            if "model.onnx" in files and "test_data_set_0" in dirs:
                found.append((os.path.join(root, "model.onnx"),
                              os.path.join(root, "test_data_set_0")))
                dirs[:] = []
                continue
            for f in sorted(files):
                if f.endswith(".onnx") or f.endswith(".onnxtxt"):
                    found.append((os.path.join(root, f), None))
    return found


def summarize(reports: List[Dict[str, Any]]) -> Dict[str, int]:
    total = {"models": len(reports), "run": 0, "not_run": 0, "checked": 0,
             **{c: 0 for c in CLASSES}}
    for r in reports:
        total["contradiction"] += sum(1 for c in r["contradictions"] if c["value"] == "-")
        if "not_run" in r:
            total["not_run"] += 1
            continue
        total["run"] += 1
        total["checked"] += len(r["values"])
        for cls in r["values"].values():
            total[cls] += 1
    return total


def markdown(corpora: List[Tuple[str, List[Dict[str, Any]]]], per_model_limit: int = 100) -> str:
    """The tables docs/conformance.md shows: a row per corpus, then a row per model of each
    corpus of at most per_model_limit models."""
    head = ("| {} | {} | not runnable | values checked | exact | less precise | unknown "
            "| declared kept | runtime deviations | contradictions | exact share |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")

    def row(name, reports, runs=None):
        t = summarize(reports)
        if runs is not None:
            t["run"] = runs
        share = f"{100.0 * t['exact'] / t['checked']:.1f}%" if t["checked"] else "-"
        return (f"| {name} | {t['run']} | {t['not_run']} | {t['checked']} | {t['exact']} | "
                f"{t['less-precise']} | {t['unknown']} | {t['declared-kept']} | "
                f"{t['runtime-deviation']} | {t['contradiction']} | {share} |\n")

    out = head.format("corpus", "models run")
    everything = []
    for name, reports in corpora:
        out += row(name, reports)
        everything += reports
    out += row("**total**", everything)
    for name, reports in corpora:
        if len(reports) > per_model_limit:
            continue
        out += "\n" + head.format(f"`{name}`", "runs")
        for r in reports:
            label = os.path.basename(r["model"])
            if "not_run" in r:
                why = r["not_run"].replace("|", "\\|").replace("\n", " ")
                why = why if len(why) <= 140 else why[:137] + "..."
                out += f"| {label} | not run: {why} |||||||||||\n"
            else:
                out += row(label, [r], len(r["runs"]))
    return out


GENERATED_END = "<!-- END OF THE GENERATED PART: what follows is tools/verify_runtime/verify.py's -->"

DOCS_INTRO = """
## Runtime verification

Every value of each model's main graph, and of its If branches and Loop bodies, checked
against what onnxruntime 1.30 (onnxruntime-node) actually produces, by `tools/verify_runtime/verify.py` (docs/testing.md, "Runtime
verification"): each model runs at several bindings of its input dims (distinct small primes,
all 1, distinct larger values, all 4, 32 and 512, all 0; a backend case runs on its own test
data), and each value is classified by its worst run. *exact*: element type and every dim
agree, symbolic dims evaluated under the binding (and again after inferring with the bound
input shapes); *less precise*: right rank, some dim unknown or not evaluable; *unknown*: no
rank; *declared kept*: the runtime contradicts a declared type that the engine kept although it
reported that its inference contradicts it (only under `--policy refine`; the default writes
the inferred type, docs/cli.md, "Declared types"), or a value computed from one; *runtime deviation*: where onnxruntime departs from the specification (listed below),
or downstream of it; *contradiction*: element type, rank or a dim differs. A model is not
runnable when onnxruntime refuses it at every binding (an operator it lacks, an invalid test
model, a data type onnxruntime-node cannot feed); the reason of each is in the JSON report.

Written by `tools/verify_runtime/verify.py --timeout 60 --write-docs docs/conformance.md testdata/demo
testdata/cases testdata/cli testdata/custom_ops testdata/malformed ../shared/models/real
../shared/conformance/onnx-backend` (3 minutes); `tools/test.sh`'s runtime part runs the same
and fails on any contradiction.

### onnxruntime's departures from the specification

- **Reduce\\* with a negative axis on an input with a 0 dim**: onnxruntime ignores the negative
  axes and returns the input's shape (`ReduceSum([2, 3, 0], axes=[-1])` gives `[2, 3, 0]`).
  The spec: "Computes the sum of the input tensor's elements along the provided axes. The
  resulting tensor has the same rank as the input if keepdims equals 1. If keepdims equals 0,
  then the resulting tensor has the reduced dimension pruned", so `[2, 3, 1]` or `[2, 3]`,
  which is what we infer. A positive axis works.
- **A Loop that runs no iteration**: its scan outputs are "created by concatenating the value
  of the specified output value at the end of each iteration" (Loop's `body`), so with no
  iteration only the leading 0 is defined; onnxruntime makes the other dims 0 where the body
  does not declare them (`[0, 0, 3]` where we infer `[0, N, 3]`). Not a contradiction of the
  spec, but not a check of ours either.

"""


def write_docs(path: str, tables: str) -> None:
    with open(path) as f:
        text = f.read()
    at = text.find(GENERATED_END)
    if at < 0:
        raise SystemExit(f"verify: {path} has no line {GENERATED_END!r}")
    head = text[:text.index("\n", at) + 1]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(head + DOCS_INTRO + tables)
    os.replace(tmp, path)


def default_node_modules() -> str:
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(cache, "onnx-infer", "onnxruntime-node-1.30.0", "node_modules")


def _verify_case(verifier: "Verifier", model: str, data) -> Dict[str, Any]:
    try:
        return verifier.verify(model, data)
    except Exception as e:  # noqa: BLE001 - a verifier bug on one model is a failure
        return {"model": model, "runs": [], "values": {}, "declared-kept": [],
                "runtime-deviation": [], "not_run": f"verifier error: {e!r}",
                "contradictions": [{"value": "-", "mode": "-", "binding": "-",
                                    "values": {}, "inferred": "-", "runtime": "-",
                                    "why": f"the verifier failed: {e!r}"}]}


# A worker process of --jobs: its own runtime process and scratch directory.
_WORKER: Optional["Verifier"] = None


def _start_worker(node_modules: str, timeout: float, work: str, runs: int) -> None:
    global _WORKER
    runtime = Runtime(node_modules, timeout)
    # Pool workers leave through os._exit: a finalizer, not atexit, stops the runtime.
    multiprocessing.util.Finalize(runtime, runtime.close, exitpriority=10)
    _WORKER = Verifier(runtime, tempfile.mkdtemp(dir=work), runs)


def _worker_verify(case) -> Dict[str, Any]:
    model, data, _ = case
    return _verify_case(_WORKER, model, data)


def _verify_all(cases, args, work: str):
    """The reports of cases, in order; --jobs processes (each with its own runtime) share
    them. Every model is verified alone, so the result does not depend on the job count."""
    jobs = max(1, min(args.jobs, len(cases)))
    if jobs == 1:
        runtime = Runtime(args.node_modules, args.timeout)
        try:
            verifier = Verifier(runtime, work, args.runs)
            for model, data, _ in cases:
                yield _verify_case(verifier, model, data)
        finally:
            runtime.close()
        return
    with multiprocessing.get_context("fork").Pool(
            jobs, _start_worker, (args.node_modules, args.timeout, work, args.runs)) as pool:
        yield from pool.imap(_worker_verify, cases, chunksize=4)
        pool.close()
        pool.join()


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--json", help="write the full report (every model, run and value) here")
    ap.add_argument("--node-modules", default=os.environ.get("ONNX_INFER_ORT_NODE_MODULES")
                    or default_node_modules(),
                    help="where onnxruntime-node is installed (install.sh prints it)")
    ap.add_argument("--runs", type=int, default=6, help="at most this many runs a model")
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds a run may take before the runtime is restarted")
    ap.add_argument("--markdown", help="write docs/conformance.md's tables here (a row per "
                    "path given, and per model of a path of at most 100 models)")
    ap.add_argument("--write-docs", metavar="CONFORMANCE_MD",
                    help="replace what follows the generated part of docs/conformance.md "
                    "with these tables")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="verify this many models at a time, each process with its own "
                    "runtime (default: the number of CPUs)")
    ap.add_argument("--quiet", action="store_true", help="print only contradictions and totals")
    args = ap.parse_args(argv)
    if not os.path.isdir(os.path.join(args.node_modules, "onnxruntime-node")):
        print(f"verify: onnxruntime-node is not in {args.node_modules} "
              "(run tools/verify_runtime/install.sh)", file=sys.stderr)
        return 2
    cases = [(model, data, root) for root in args.paths for model, data in _cases([root])]
    if not cases:
        print("verify: no models under " + " ".join(args.paths), file=sys.stderr)
        return 2
    reports = []
    with tempfile.TemporaryDirectory() as work:
        for r in _verify_all(cases, args, work):
            reports.append(r)
            model = r["model"]
            counts = {c: 0 for c in CLASSES}
            for cls in r["values"].values():
                counts[cls] += 1
            if "not_run" in r:
                line = f"not run: {r['not_run']}"
            else:
                line = (f"{len(r['runs'])} runs, {len(r['values'])} values: "
                        + ", ".join(f"{counts[c]} {c}" for c in CLASSES))
            if not args.quiet or r["contradictions"]:
                print(f"{model}: {line}", flush=True)
            shown = (("contradictions", "CONTRADICTION"),) if args.quiet else (
                ("contradictions", "CONTRADICTION"), ("declared-kept", "declared kept"),
                ("runtime-deviation", "runtime deviation"))
            for key, label in shown:
                for c in r[key]:
                    print(f"  {label} {c['value']} ({c['mode']}, {c['binding']} "
                          f"{c['values']}): inferred {c['inferred']}, runtime "
                          f"{c['runtime']}: {c['why']}", flush=True)
    total = summarize(reports)
    print("verify: {models} models ({run} run, {not_run} not runnable), {checked} values "
          "checked: {exact} exact, {less-precise} less precise, {unknown} unknown, "
          "{declared-kept} declared types kept, {runtime-deviation} runtime deviations, "
          "{contradiction} contradictions".format(**total))
    # One test a model, for tools/test.sh: a contradiction fails it, a model the runtime
    # cannot run skips it.
    failed = sum(1 for r in reports if r["contradictions"])
    skipped = sum(1 for r in reports if "not_run" in r and not r["contradictions"])
    print(f"verify-models: {len(reports) - failed - skipped} passed, {failed} failed, "
          f"{skipped} skipped")
    if args.markdown or args.write_docs:
        corpora = [(root, [r for r, (_, _, rt) in zip(reports, cases) if rt == root])
                   for root in args.paths]
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(markdown(corpora))
        if args.write_docs:
            write_docs(args.write_docs, markdown(corpora))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"total": total, "models": reports}, f, indent=1)
    return 1 if total["contradiction"] else 0


if __name__ == "__main__":
    sys.exit(main())
