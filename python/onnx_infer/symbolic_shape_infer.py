"""A drop-in for onnxruntime's symbolic shape inference (``onnxruntime.tools.symbolic_shape_infer``).

Callers switch by changing the import::

    # from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference
    from onnx_infer.symbolic_shape_infer import SymbolicShapeInference

    inferred = SymbolicShapeInference.infer_shapes(model, auto_merge=True)

and ``python3 -m onnx_infer.symbolic_shape_infer --input in.onnx --output out.onnx`` replaces
``python -m onnxruntime.tools.symbolic_shape_infer``. The module-level helpers onnxruntime's
callers import (``get_shape_from_value_info``, ``get_opset``, ``get_attribute``...) are here
too, and the class members a subclass such as onnxruntime's ``SymbolicShapeInferenceHelper``
calls (``_preprocess``, ``_infer_impl``, ``known_vi_``...). How onnxruntime's options and
outcomes map onto onnx-infer's engine, and what is not provided, is in docs/python.md
("Switching from onnxruntime's tool"). sympy is optional: without it symbols are plain str.
"""

import argparse
import logging
import re
import sys
from typing import Any, Dict, List, Optional

import onnx_infer

try:  # onnxruntime's callers get these names from ``from symbolic_shape_infer import *``
    import onnx
    from onnx import helper, numpy_helper
except ImportError:  # bytes-only users of onnx_infer: only infer_shapes needs onnx
    onnx = helper = numpy_helper = None
try:
    import numpy as np
except ImportError:
    np = None
try:
    import sympy
except ImportError:
    sympy = None

logger = logging.getLogger(__name__)

# ---- Module-level helpers with the contract of onnxruntime's (same names and results).


def get_attribute(node, attr_name, default_value=None):
    """The value of attribute ``attr_name`` of ``node`` (a NodeProto), else the default."""
    for attr in node.attribute:
        if attr.name == attr_name:
            return helper.get_attribute_value(attr)
    return default_value


def get_dim_from_proto(dim):
    """A TensorShapeProto.Dimension as ``int`` (dim_value), ``str`` (dim_param) or None."""
    which = dim.WhichOneof("value")
    return None if which is None else getattr(dim, which)


def is_sequence(type_proto):
    kind = type_proto.WhichOneof("value")
    assert kind in ("tensor_type", "sequence_type"), kind
    return kind == "sequence_type"


def get_shape_from_type_proto(type_proto):
    """The dims of a tensor TypeProto, or None when it has no shape (unknown rank)."""
    assert not is_sequence(type_proto)
    tensor = type_proto.tensor_type
    return [get_dim_from_proto(d) for d in tensor.shape.dim] if tensor.HasField("shape") else None


def get_elem_type_from_type_proto(type_proto):
    """The element type of a tensor, or of a sequence's tensors."""
    if is_sequence(type_proto):
        return type_proto.sequence_type.elem_type.tensor_type.elem_type
    return type_proto.tensor_type.elem_type


def get_shape_from_value_info(vi):
    """The dims of a ValueInfoProto's tensor (or a sequence's tensors), None when unknown."""
    if vi.type.WhichOneof("value") is None:
        return None
    if not is_sequence(vi.type):
        return get_shape_from_type_proto(vi.type)
    element = vi.type.sequence_type.elem_type
    return get_shape_from_type_proto(element) if element.WhichOneof("value") == "tensor_type" else None


def make_named_value_info(name):
    vi = onnx.ValueInfoProto()
    vi.name = name
    return vi


def is_literal(dim):
    """Whether a dim is a number (int, numpy int, or a sympy number) rather than a symbol."""
    if isinstance(dim, bool):
        return False
    if isinstance(dim, int) or (np is not None and isinstance(dim, (np.int32, np.int64))):
        return True
    return bool(getattr(dim, "is_number", False))


def get_shape_from_sympy_shape(sympy_shape):
    """Dims as onnxruntime writes them: ``int`` for numbers, ``str`` for expressions."""
    return [None if d is None else (int(d) if is_literal(d) else str(d)) for d in sympy_shape]


def handle_negative_axis(axis, rank):
    assert -rank <= axis < rank, f"axis {axis} out of range for rank {rank}"
    return axis + rank if axis < 0 else axis


def get_opset(mp, domain=None):
    """The version ``mp`` imports of ``domain`` (default ONNX's, under any of its spellings;
    a str or a list of str), or None when it imports none."""
    domains = domain or ["", "onnx", "ai.onnx"]
    if not isinstance(domains, list):
        domains = [domains]
    return next((o.version for o in mp.opset_import if o.domain in domains), None)


def as_scalar(x):
    if isinstance(x, list):
        assert len(x) == 1, f"expected one element, got {len(x)}"
        return x[0]
    if np is not None and isinstance(x, np.ndarray):
        return x.item()
    return x


def as_list(x, keep_none):
    if isinstance(x, list):
        return x
    if np is not None and isinstance(x, np.ndarray):
        return list(x)
    if keep_none and x is None:
        return None
    return [x]


def sympy_reduce_product(x):
    """The product of a list of dims (``x`` itself when not a list); a sympy Integer when sympy
    is there, else a Python int or whatever the dims' ``*`` gives."""
    if not isinstance(x, list):
        return x
    product = sympy.Integer(1) if sympy is not None else 1
    for v in x:
        product = product * v
    return product


# ---- The class.

_INCOMPLETE = "Incomplete symbolic shape inference"


def _elem_name(elem_type: int) -> str:
    return onnx.TensorProto.DataType.Name(elem_type)


def _tensor_of(type_proto):
    """The TensorTypeProto inside a tensor or sequence-of-tensor type, or None."""
    kind = type_proto.WhichOneof("value")
    if kind in ("tensor_type", "sparse_tensor_type"):
        return getattr(type_proto, kind)
    if kind == "sequence_type" and type_proto.sequence_type.elem_type.WhichOneof("value") == "tensor_type":
        return type_proto.sequence_type.elem_type.tensor_type
    return None


def _is_incomplete(type_proto) -> bool:
    """onnxruntime's test for a node output it could not finish: a tensor whose element type or
    rank is unknown (a type with nothing known counts; sequences, maps... do not)."""
    kind = type_proto.WhichOneof("value")
    if kind is None:
        return True
    if kind not in ("tensor_type", "sparse_tensor_type"):
        return False
    tensor = getattr(type_proto, kind)
    return tensor.elem_type == 0 or not tensor.HasField("shape")


def _elem_type_known(type_proto) -> bool:
    tensor = _tensor_of(type_proto)
    return type_proto.WhichOneof("value") is not None and (tensor is None or tensor.elem_type != 0)


def _merge_declared(inferred, declared):
    """``inferred`` (a TypeProto) with what it leaves unknown taken from ``declared``: the
    element type, the whole shape when the rank is unknown, a dim with neither value nor
    param. Known inferred dims win, as onnxruntime writes its own over the declared ones."""
    if declared.WhichOneof("value") is None:
        return inferred
    if inferred.WhichOneof("value") is None:
        return declared
    out = type(inferred)()
    out.CopyFrom(inferred)
    t, d = _tensor_of(out), _tensor_of(declared)
    if t is None or d is None:
        return out
    if t.elem_type == 0:
        t.elem_type = d.elem_type
    if not t.HasField("shape"):
        if d.HasField("shape"):
            t.shape.CopyFrom(d.shape)
    elif d.HasField("shape") and len(d.shape.dim) == len(t.shape.dim):
        for td, dd in zip(t.shape.dim, d.shape.dim):
            if td.WhichOneof("value") is None and dd.WhichOneof("value") is not None:
                td.CopyFrom(dd)
    return out


def _contradiction(inferred, declared) -> Optional[str]:
    """How a declared type contradicts the inferred one (element type, rank, a number), or
    None. Symbols never contradict: the declaration just names the dim differently."""
    t, d = _tensor_of(inferred), _tensor_of(declared)
    if t is None or d is None:
        return None
    if t.elem_type and d.elem_type and t.elem_type != d.elem_type:
        return f"element type {_elem_name(d.elem_type)} declared, {_elem_name(t.elem_type)} inferred"
    if t.HasField("shape") and d.HasField("shape"):
        if len(t.shape.dim) != len(d.shape.dim):
            return f"rank {len(d.shape.dim)} declared, {len(t.shape.dim)} inferred"
        for i, (td, dd) in enumerate(zip(t.shape.dim, d.shape.dim)):
            if td.HasField("dim_value") and dd.HasField("dim_value") and td.dim_value != dd.dim_value:
                return f"dim {i} is {dd.dim_value} declared, {td.dim_value} inferred"
    return None


class SymbolicShapeInference:
    """onnxruntime's ``SymbolicShapeInference`` over onnx-infer's engine.

    The entry point is :meth:`infer_shapes`. A subclass may drive the steps itself as
    onnxruntime's ``SymbolicShapeInferenceHelper`` does: ``__init__(int_max, auto_merge,
    guess_output_rank, verbose)``, ``_preprocess(model)`` (sets ``out_mp_``,
    ``initializers_``, ``known_vi_``), ``while self.run_: done = self._infer_impl()``, then
    ``known_vi_[name]`` (a ValueInfoProto) for every value and ``_update_output_from_vi()``.
    The engine infers the whole graph in one ``_infer_impl`` call; onnxruntime's per-operator
    ``_infer_<Op>`` methods and ``dispatcher_`` do not exist (register custom operators with
    ``onnx_infer.register_op`` or ``onnx_infer.register_schemas`` instead).
    """

    def __init__(self, int_max, auto_merge, guess_output_rank, verbose, prefix=""):
        self.int_max_ = int_max
        self.auto_merge_ = auto_merge
        self.guess_output_rank_ = guess_output_rank
        self.verbose_ = verbose
        self.prefix_ = prefix
        self.run_ = True
        self.subgraph_id_ = 0
        self.suggested_merge_: Dict[str, Any] = {}  # never filled: nothing is merged on a guess
        self.symbolic_dims_: Dict[str, Any] = {}
        self.input_symbols_ = set()
        self.sympy_data_: Dict[str, Any] = {}
        self.result_ = None  # the engine's onnx_infer.InferenceResult of the last _infer_impl
        self.guessed_: List[str] = []  # values whose rank guess_output_rank guessed

    # -- steps

    def _preprocess(self, in_mp):
        self.out_mp_ = onnx.ModelProto()
        self.out_mp_.CopyFrom(in_mp)
        self.graph_inputs_ = {i.name: i for i in self.out_mp_.graph.input}
        self.initializers_ = {i.name: i for i in self.out_mp_.graph.initializer}
        self.known_vi_ = {i.name: i for i in self.out_mp_.graph.input}
        for init in self.out_mp_.graph.initializer:
            self.known_vi_.setdefault(
                init.name, helper.make_tensor_value_info(init.name, init.data_type, list(init.dims)))

    def _infer_impl(self, start_sympy_data=None):
        """Infers ``out_mp_`` with the engine and writes the result into it: ``value_info``
        holds one entry per node output of the main graph (graph outputs included, as
        onnxruntime's tool writes them), anonymous graph-input dims get names, subgraphs
        are annotated, and ``known_vi_`` maps every value to its ValueInfoProto. Returns
        whether every node output of the main graph got an element type and a rank (what
        onnxruntime calls all shapes inferred). Sets ``run_`` to False: one pass is all.
        """
        self.sympy_data_ = dict(start_sympy_data or {})
        graph = self.out_mp_.graph
        declared = {vi.name: vi.type for vi in list(graph.value_info) + list(graph.output)
                    if vi.type.WhichOneof("value") is not None}
        # As onnxruntime's tool, infer without the declared value_info and output types; they
        # only fill in, afterwards or as a fallback, what inference leaves unknown.
        base = onnx.ModelProto()
        base.CopyFrom(self.out_mp_)
        base.graph.ClearField("value_info")
        for o in base.graph.output:
            o.ClearField("type")
        fallback: Dict[str, Any] = {}
        node_outputs = [(i, n, k, o) for i, n in enumerate(graph.node)
                        for k, o in enumerate(n.output) if o]
        self.guessed_ = []
        while True:
            del base.graph.value_info[:]
            for name, t in fallback.items():
                base.graph.value_info.add(name=name).type.CopyFrom(t)
            result = onnx_infer.infer(base, assume_positive=True)
            inferred = self._types_by_name(result.model.graph)
            added = False
            for index, node, k, name in node_outputs:
                t = inferred.get(name)
                if t is not None and not _is_incomplete(t) or name in fallback:
                    continue
                known = t if t is not None else onnx.TypeProto()
                if name in declared and _merge_declared(known, declared[name]) != known:
                    fallback[name] = declared[name]
                    added = True
                elif self.guess_output_rank_ and (t is None or t.WhichOneof("value") is None or (
                        _tensor_of(t) is not None and not _tensor_of(t).HasField("shape"))):
                    guess = self._guess_type(index, node, k, inferred)
                    if guess is not None:
                        fallback[name] = guess
                        self.guessed_.append(name)
                        added = True
            if not added:
                break
        self.result_ = result
        self._log(result)

        self._check_if_branches(result)
        if any("form a cycle" in d.message for d in result.errors):
            raise Exception("Invalid model with cyclic graph")

        annotated = result.model
        value_info = []
        complete = True
        for index, node, k, name in node_outputs:
            t = inferred.get(name, onnx.TypeProto())
            if name in declared:
                problem = _contradiction(t, declared[name])
                if problem:
                    logger.warning("%s: the declared type does not fit: %s", name, problem)
                t = _merge_declared(t, declared[name])
            t = self._name_unknown_dims(t, index, node, k)
            complete = complete and not _is_incomplete(t)
            vi = onnx.ValueInfoProto(name=name)
            vi.type.CopyFrom(t)
            value_info.append(vi)
        annotated.graph.ClearField("value_info")
        annotated.graph.value_info.extend(value_info)
        by_name = {vi.name: vi for vi in value_info}
        for o in annotated.graph.output:  # declared types back where the node does not set one
            if o.name not in by_name:
                original = declared.get(o.name)
                if original is not None:
                    o.type.CopyFrom(_merge_declared(o.type, original))
        self.out_mp_.CopyFrom(annotated)

        graph = self.out_mp_.graph
        self.graph_inputs_ = {i.name: i for i in graph.input}
        self.initializers_ = {i.name: i for i in graph.initializer}
        self.known_vi_ = {i.name: i for i in graph.input}
        for init in graph.initializer:
            self.known_vi_.setdefault(
                init.name, helper.make_tensor_value_info(init.name, init.data_type, list(init.dims)))
        self.known_vi_.update({vi.name: vi for vi in graph.value_info})
        self._collect_symbols()
        self.run_ = False
        return complete

    def _update_output_from_vi(self):
        """Writes each graph output's inferred type (``known_vi_``) over its declaration, as
        onnxruntime's tool does: inferred dims replace declared ones."""
        for output in self.out_mp_.graph.output:
            vi = self.known_vi_.get(output.name)
            if vi is not None and vi is not output:
                output.type.CopyFrom(vi.type)

    # -- what callers and subclasses read

    def _get_shape(self, node, idx):
        name = node.input[idx]
        if name in self.known_vi_:
            return get_shape_from_value_info(self.known_vi_[name])
        assert name in self.initializers_, f"{name!r} is not a known value"
        return list(self.initializers_[name].dims)

    def _try_get_shape(self, node, idx):
        if idx >= len(node.input) or not (node.input[idx] in self.known_vi_
                                           or node.input[idx] in self.initializers_):
            return None
        return self._get_shape(node, idx)

    def _get_shape_rank(self, node, idx):
        return len(self._get_shape(node, idx))

    def _get_sympy_shape(self, node, idx):
        if sympy is None:
            raise ImportError("_get_sympy_shape needs sympy (python3-sympy)")
        dims = []
        for d in self._get_shape(node, idx):
            if isinstance(d, str):
                dims.append(self.symbolic_dims_.get(d) or sympy.Symbol(d, integer=True, nonnegative=True))
            else:
                assert d is not None, f"input {idx} of {node.name or node.op_type} has an unknown dim"
                dims.append(d)
        return dims

    def _get_value(self, node, idx):
        """The value of a node input: start_sympy_data given to _infer_impl, or an initializer
        (as a numpy array). The engine's propagated values are not exposed."""
        name = node.input[idx]
        if name in self.sympy_data_:
            return self.sympy_data_[name]
        assert name in self.initializers_, f"the value of {name!r} is not known"
        return numpy_helper.to_array(self.initializers_[name])

    def _try_get_value(self, node, idx):
        if idx >= len(node.input):
            return None
        name = node.input[idx]
        if name in self.sympy_data_ or name in self.initializers_:
            return self._get_value(node, idx)
        return None

    def _new_symbolic_dim(self, prefix, dim):
        name = f"{prefix}_d{dim}"
        self.symbolic_dims_[name] = (sympy.Symbol(name, integer=True, nonnegative=True)
                                     if sympy is not None else name)
        return self.symbolic_dims_[name]

    def _new_symbolic_dim_from_output(self, node, out_idx=0, dim=0):
        index = list(self.out_mp_.graph.node).index(node)
        return self._new_symbolic_dim(f"{node.op_type}{self.prefix_}_{index}_o{out_idx}_", dim)

    def _new_symbolic_shape(self, rank, node, out_idx=0):
        return [self._new_symbolic_dim_from_output(node, out_idx, i) for i in range(rank)]

    # -- internals

    @staticmethod
    def _types_by_name(graph):
        types = {vi.name: vi.type for vi in graph.input}
        types.update({vi.name: vi.type for vi in graph.value_info})
        types.update({vi.name: vi.type for vi in graph.output
                      if vi.type.WhichOneof("value") is not None})
        return types

    def _fresh_dim_name(self, index, node, out_idx, dim):
        # onnxruntime's name for a dim it makes up for a node output.
        return f"{node.op_type}{self.prefix_}_{index}_o{out_idx}__d{dim}"

    def _guess_type(self, index, node, out_idx, inferred):
        """guess_output_rank, as onnxruntime: an output nothing is known of gets input 0's
        element type and rank, each dim a fresh symbol. A guess, logged as one."""
        if not node.input or node.input[0] not in inferred:
            return None
        source = _tensor_of(inferred[node.input[0]])
        if source is None or not source.HasField("shape"):
            return None
        rank = len(source.shape.dim)
        guess = helper.make_tensor_type_proto(
            source.elem_type, [self._fresh_dim_name(index, node, out_idx, d) for d in range(rank)])
        logger.warning("guess_output_rank: %s output %d '%s' of unknown type guessed as %s of "
                       "rank %d (its input 0's)", node.name or node.op_type, out_idx,
                       node.output[out_idx], _elem_name(source.elem_type), rank)
        return guess

    def _name_unknown_dims(self, type_proto, index, node, out_idx):
        """Each dim left unknown gets a fresh symbol of its own, named as onnxruntime names the
        dims it makes up (``NonZero_3_o0__d1``): every dim is then a number or a name, as
        onnxruntime's callers expect, and distinct names claim nothing."""
        tensor = _tensor_of(type_proto)
        if tensor is None or type_proto.WhichOneof("value") != "tensor_type" or not tensor.HasField("shape"):
            return type_proto
        if all(d.WhichOneof("value") is not None for d in tensor.shape.dim):
            return type_proto
        out = onnx.TypeProto()
        out.CopyFrom(type_proto)
        for i, d in enumerate(out.tensor_type.shape.dim):
            if d.WhichOneof("value") is None:
                d.dim_param = self._fresh_dim_name(index, node, out_idx, i)
        return out

    def _check_if_branches(self, result):
        """onnxruntime raises ValueError for an If whose branches give different element types
        (its message names the node and both types); an If the engine decided is not checked,
        as onnxruntime copies the taken branch over the other."""
        erring = {(d.node_index, d.graph) for d in result.errors if d.op.startswith("ai.onnx::If")}
        for index, node in enumerate(result.model.graph.node):
            if node.op_type != "If" or node.domain not in ("", "ai.onnx") or (index, "main") not in erring:
                continue
            branches = {a.name: a.g for a in node.attribute if a.name in ("then_branch", "else_branch")}
            if len(branches) != 2:
                continue
            for k, (a, b) in enumerate(zip(branches["then_branch"].output, branches["else_branch"].output)):
                ta, tb = _tensor_of(a.type), _tensor_of(b.type)
                if ta is not None and tb is not None and ta.elem_type and tb.elem_type and ta.elem_type != tb.elem_type:
                    raise ValueError(
                        f"For node {node.name or node.op_type}, output {k}: the then_branch gives "
                        f"{_elem_name(ta.elem_type)} but the else_branch "
                        f"{_elem_name(tb.elem_type)} (the spec of If: both branches produce "
                        "the same types)")

    def _collect_symbols(self):
        graph = self.out_mp_.graph
        self.input_symbols_ = {d.dim_param for i in graph.input if _tensor_of(i.type) is not None
                               for d in _tensor_of(i.type).shape.dim if d.dim_param}
        names = set(self.input_symbols_)
        for vi in graph.value_info:
            tensor = _tensor_of(vi.type)
            if tensor is not None:
                names.update(d.dim_param for d in tensor.shape.dim if d.dim_param)
        for name in sorted(names):
            if name not in self.symbolic_dims_:
                self.symbolic_dims_[name] = self._sympy_dim(name)

    def _sympy_dim(self, text):
        """A dim's text as onnxruntime keeps it: a sympy expression of integer symbols (graph
        input symbols positive, others nonnegative, as onnxruntime makes them), or the text
        itself without sympy or when sympy cannot read it."""
        if sympy is None:
            return text
        functions = {"floor": sympy.floor, "Max": sympy.Max, "Min": sympy.Min, "Mod": sympy.Mod,
                     "ceiling": sympy.ceiling}
        names = {n: (sympy.Symbol(n, integer=True, positive=True) if n in self.input_symbols_
                     else sympy.Symbol(n, integer=True, nonnegative=True))
                 for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text) if n not in functions}
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
            return names[text]
        try:
            return sympy.sympify(text, locals={**functions, **names})
        except (sympy.SympifyError, SyntaxError, TypeError, ValueError):
            return sympy.Symbol(text, integer=True, nonnegative=True)

    def _log(self, result):
        levels = {"error": logging.ERROR, "warning": logging.WARNING, "note": logging.INFO}
        shown = {0: ("error",), 1: ("error", "warning")}.get(self.verbose_, ("error", "warning", "note"))
        for d in result.diagnostics:
            if d.severity in shown:
                logger.log(levels[d.severity], "%s", d.render("model"))
        if self.verbose_ >= 1:
            for c in result.conditions:
                logger.info("condition: %s", c)
        if self.verbose_ >= 2:
            s = result.stats
            logger.info("%d of %d values fully shaped, %d without a rule",
                        s["shaped"], s["values"], s["nodes_without_rule"])

    # -- the entry point

    @staticmethod
    def infer_shapes(in_mp, int_max=2**31 - 1, auto_merge=False, guess_output_rank=False, verbose=0):
        """Returns a new ``onnx.ModelProto``: ``in_mp`` with the type and symbolic shape of
        every node output in ``value_info`` (graph outputs included) and each graph output's
        inferred type written over its declaration; ``in_mp`` is not modified. Dims are taken
        as at least 1, as onnxruntime's tool takes them (``assume_positive``; the results
        that needed it are logged with ``verbose >= 1``).

        As onnxruntime's tool: returns None (with a warning) when ``in_mp`` imports no ONNX
        operator set or one older than 7; raises ``ValueError`` for an If whose branches give
        different element types, ``Exception("Invalid model with cyclic graph")`` for a
        cycle, and ``Exception("Incomplete symbolic shape inference")`` when nothing is known
        of a node output (an operator without a schema, and ``guess_output_rank`` off or
        unable to guess). Other errors of the model (an operator's constraint broken) are
        logged and the best-effort model is returned; so is a model where an output has an
        element type but no rank (logged as a warning), where onnxruntime's tool may stop.

        ``int_max``: accepted; the engine needs no stand-in for "to the end". ``auto_merge``:
        accepted; the engine never merges symbols on a guess (docs/python.md).
        ``guess_output_rank``: an output the engine knows nothing of (an operator without a
        schema) gets input 0's element type and rank with fresh dims, logged as a guess.
        ``verbose``: 0 logs errors, 1 warnings and conditions too, 2 and more every
        diagnostic and a summary (logger ``onnx_infer.symbolic_shape_infer``).

        Raises ``ValueError`` for a model over 2 GiB in memory (use
        ``onnx_infer.infer_shapes_path`` on the saved model instead).
        """
        opset = get_opset(in_mp)
        if not opset or opset < 7:
            logger.warning("Only support models of onnx opset 7 and above.")
            return None
        inference = SymbolicShapeInference(int_max, auto_merge, guess_output_rank, verbose)
        inference._preprocess(in_mp)
        complete = False
        while inference.run_:
            complete = inference._infer_impl()
        inference._update_output_from_vi()
        if not complete:
            partial = [vi for vi in inference.out_mp_.graph.value_info if _is_incomplete(vi.type)]
            untyped = [vi.name for vi in partial if not _elem_type_known(vi.type)]
            if untyped:  # an operator nobody knows: onnxruntime stops there too
                logger.error("%s: nothing is known of %s", _INCOMPLETE, ", ".join(untyped[:10]))
                raise Exception(_INCOMPLETE)
            logger.warning("no rank for %s (element type only)",
                           ", ".join(vi.name for vi in partial[:10]))
        return inference.out_mp_


def _parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Infers the symbolic shape of every value of an ONNX model "
                    "(onnx-infer, with the command line of onnxruntime's tool).")
    parser.add_argument("--input", required=True, help="the input model file")
    parser.add_argument("--output", help="the output model file")
    parser.add_argument("--auto_merge", action="store_true",
                        help="accepted; symbols are never merged on a guess")
    parser.add_argument("--int_max", type=int, default=2**31 - 1, help="accepted; not needed")
    parser.add_argument("--guess_output_rank", action="store_true",
                        help="an output of an unknown operator takes input 0's type and rank")
    parser.add_argument("--verbose", type=int, default=0,
                        help="0: errors, 1: and warnings, 2: every diagnostic and a summary")
    parser.add_argument("--save_as_external_data", action="store_true",
                        help="save the weights as external data")
    parser.add_argument("--all_tensors_to_one_file", action="store_true",
                        help="with --save_as_external_data: one data file")
    parser.add_argument("--external_data_location", default="./",
                        help="with --save_as_external_data: the data file's name")
    parser.add_argument("--external_data_size_threshold", type=int, default=1024,
                        help="with --save_as_external_data: the least size to store outside")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = _parse_arguments(argv)
    logging.basicConfig(level=logging.INFO if args.verbose >= 2 else logging.WARNING,
                        format="%(message)s")
    model = onnx.load(args.input)
    out = SymbolicShapeInference.infer_shapes(model, args.int_max, args.auto_merge,
                                              args.guess_output_rank, args.verbose)
    if out is None:
        print("symbolic shape inference needs an ONNX operator set of version 7 or later",
              file=sys.stderr)
        return 1
    if args.output:
        if args.save_as_external_data:
            onnx.save_model(out, args.output, save_as_external_data=True,
                            all_tensors_to_one_file=args.all_tensors_to_one_file,
                            location=args.external_data_location,
                            size_threshold=args.external_data_size_threshold)
        else:
            onnx.save_model(out, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
