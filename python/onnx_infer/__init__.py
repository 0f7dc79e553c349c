"""onnx_infer: type and shape inference for ONNX models, with symbolic dimensions.

Three ways in, over onnx-infer's C++ engine (docs/python.md):

- a drop-in for ``onnx.shape_inference``: the same names, parameters, defaults and return
  kinds::

      import onnx_infer
      inferred = onnx_infer.infer_shapes(model)            # onnx.ModelProto in and out
      inferred = onnx_infer.infer_shapes(model_bytes)      # bytes in: a ModelProto, as onnx
      onnx_infer.infer_shapes_path("model.onnx", "inferred.onnx")
      types = onnx_infer.infer_node_outputs(schema, node, input_types)

- a drop-in for onnxruntime's symbolic shape inference:
  ``from onnx_infer.symbolic_shape_infer import SymbolicShapeInference``;

- the engine's own API, :func:`infer`, which returns every value's type by graph path, the
  symbols with their origins, the facts and the diagnostics, specializes a model (symbol
  values, input shapes, known input values) and estimates its memory; and custom operators
  from JSON (:func:`register_schemas`) or from a Python function (:func:`register_op`).

The ``onnx`` package is optional: bytes and paths work without it.
"""

import json
import os
import sys
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional,
                    Sequence, Tuple, Union)

from onnx_infer import _core
from onnx_infer._core import Diagnostic
from onnx_infer._types import ValueType, from_onnx, from_tuple, to_rule_tuple

__all__ = [
    "CostEstimate", "CostNode", "CostValues",
    "Diagnostic", "Explanation", "ExplainReport", "InferenceError", "InferenceResult",
    "MemoryEstimate", "MemoryStep", "Symbol", "ValueType", "WhatIf", "contract", "explain",
    "infer",
    "infer_function_output_types", "infer_node_outputs", "infer_shapes", "infer_shapes_path",
    "register_op",
    "register_schemas", "reset_schemas", "Session", "SessionUpdate",
]
__version__ = "0.1.0"

# The largest message protobuf can serialize: an in-memory model above it cannot cross.
_MAX_MESSAGE_BYTES = 2**31 - 1

PathLike = Union[str, "os.PathLike[str]"]


def _onnx_ir_version() -> int:
    """infer_node_outputs' default, as ONNX's: the IR version of the installed onnx package."""
    onnx = _onnx_or_none()
    return int(onnx.IR_VERSION) if onnx is not None else 10


def _make_inference_error() -> type:
    """onnx_infer.InferenceError: a subclass of ``onnx.shape_inference.InferenceError`` when
    onnx is installed (so ``except onnx.shape_inference.InferenceError`` catches it), of
    ``Exception`` otherwise. Made on first use, so that ``import onnx_infer`` does not import
    onnx."""
    base: type = Exception
    onnx = _onnx_or_none()
    if onnx is not None:
        try:
            from onnx.shape_inference import InferenceError as base  # type: ignore
        except ImportError:  # an onnx without it
            base = Exception

    class InferenceError(base):  # type: ignore[valid-type,misc]
        """Raised when inference finds errors (strict mode, or a declared type that
        contradicts the inferred one, as onnx raises).

        The message holds every error diagnostic rendered on its own line; ``diagnostics``
        holds them all (errors, warnings and notes) as :class:`Diagnostic` objects.
        """

        def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()):
            super().__init__(message)
            self.diagnostics: List[Diagnostic] = list(diagnostics)

    InferenceError.__module__ = __name__
    InferenceError.__qualname__ = "InferenceError"
    return InferenceError


_lazy: Dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    # PEP 562: InferenceError is made when first asked for (it may subclass onnx's).
    if name == "InferenceError":
        if name not in _lazy:
            _lazy[name] = _make_inference_error()
        return _lazy[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _render_errors(errors: Sequence[Diagnostic], source: str) -> str:
    lines = "\n".join(d.render(source) for d in errors)
    count = f"{len(errors)} error" + ("" if len(errors) == 1 else "s")
    return f"shape inference found {count}:\n{lines}"


def _raise_on_errors(diagnostics: Sequence[Diagnostic], source: str) -> None:
    errors = [d for d in diagnostics if d.severity == "error"]
    if not errors:
        return
    raise __getattr__("InferenceError")(_render_errors(errors, source), diagnostics)


def _raise_like_onnx(diagnostics: Sequence[Diagnostic], strict_mode: bool, source: str) -> None:
    """What onnx.shape_inference raises on: in strict mode any error; in its default mode an
    inferred type that contradicts the declared one (onnx merges the two outside its per-node
    error handling, so that raises in every mode)."""
    if strict_mode:
        _raise_on_errors(diagnostics, source)
        return
    contradictions = [d for d in diagnostics if d.kind == "declared-contradiction"]
    if contradictions:
        raise __getattr__("InferenceError")(_render_errors(contradictions, source), diagnostics)


def _onnx_or_none():
    try:
        import onnx  # optional: only ModelProtos need it
    except ImportError:
        return None
    return onnx


def _is_model_proto(model: Any) -> bool:
    # A ModelProto exists only once onnx is imported: no import here.
    onnx = sys.modules.get("onnx")
    return onnx is not None and isinstance(model, onnx.ModelProto)


def _serialize_model(model: Any) -> bytes:
    """The bytes of an in-memory ModelProto, or a ValueError naming infer_shapes_path when it
    is too large for one protobuf message (weights stored inline past 2 GiB)."""
    try:
        return model.SerializeToString()
    except Exception:  # protobuf's own error for a message past 2 GiB
        size = model.ByteSize()
        if size <= _MAX_MESSAGE_BYTES:
            raise
        raise ValueError(
            f"the model is {size:,} bytes in memory, more than the 2 GiB a protobuf message "
            "can hold, so it cannot be passed to shape inference in memory. Save it with its "
            "weights as external data (onnx.save_model(model, path, "
            "save_as_external_data=True)) and call onnx_infer.infer_shapes_path(path), which "
            "never loads the external data.") from None


def _options(strict: bool, data_prop: bool = True, max_value_elements: int = 1024,
             schemas: Iterable[Any] = (), assume: Iterable[str] = (),
             assume_positive: bool = False,
             max_expanded_nodes: Optional[int] = None, check_types: bool = True,
             overridable_initializers: bool = False,
             policy: str = "inferred") -> "_core.CallOptions":
    options = _core.CallOptions()
    options.strict = bool(strict)
    if policy not in ("inferred", "refine", "override", "strict"):
        raise ValueError(f"policy must be 'inferred', 'refine', 'override' or 'strict', "
                         f"not {policy!r}")
    options.policy = policy
    options.check_types = bool(check_types)
    options.overridable_initializers = bool(overridable_initializers)
    options.data_propagation = bool(data_prop)
    options.max_value_elements = int(max_value_elements)
    if max_expanded_nodes is not None:
        if isinstance(max_expanded_nodes, bool) or not isinstance(max_expanded_nodes, int):
            raise TypeError("max_expanded_nodes is an int, not "
                            f"{type(max_expanded_nodes).__name__}")
        if max_expanded_nodes < 0:
            raise ValueError(f"max_expanded_nodes must be >= 0, not {max_expanded_nodes}")
        options.max_expanded_nodes = max_expanded_nodes
    options.schemas = [_schema_text(s) for s in schemas]
    if isinstance(assume, str):
        assume = [assume]
    assumptions = [str(a) for a in assume]
    for a in assumptions:
        _core.parse_assumption(a)  # ValueError for anything but a comparison with integers
    options.assumptions = assumptions
    options.assume_positive = bool(assume_positive)
    return options


_dropin_options_cache: Dict[Any, "_core.CallOptions"] = {}


def _dropin_options(strict: bool, check_types: bool, overridable_initializers: bool,
                    max_expanded_nodes: Optional[int],
                    raise_on_contradiction: bool = False) -> "_core.CallOptions":
    """The options of a drop-in call, made once per distinct set (a drop-in call on a small
    model costs a few microseconds, and making the options is one of them). The objects are
    never changed after they are made."""
    key = (bool(strict), bool(check_types), bool(overridable_initializers), max_expanded_nodes,
           type(max_expanded_nodes), bool(raise_on_contradiction))
    options = _dropin_options_cache.get(key)
    if options is None:
        options = _options(strict, max_expanded_nodes=max_expanded_nodes,
                           check_types=check_types,
                           overridable_initializers=overridable_initializers)
        options.raise_on_contradiction = bool(raise_on_contradiction)
        if len(_dropin_options_cache) < 64:
            _dropin_options_cache[key] = options
    return options


def _dim_text(dim: Any) -> str:
    if dim is None:
        return "?"
    if isinstance(dim, bool) or not isinstance(dim, (int, str)):
        raise TypeError(f"a dim is an int, a str or None, not {type(dim).__name__}")
    return str(dim)


def _flat(values: Any) -> List[Any]:
    if isinstance(values, (list, tuple)):
        return [e for v in values for e in _flat(v)]
    return [values]


def _set_input_values(options: "_core.CallOptions", input_values: Mapping[str, Any]) -> None:
    """Fills options.input_values / input_tensors from {name: value}: a number or bool, a flat
    list of them (fitted to the declared shape), an array with a ``shape`` (numpy), or an
    ``onnx.TensorProto``."""
    plain, tensors = [], []
    for name, value in input_values.items():
        if hasattr(value, "SerializeToString") and hasattr(value, "data_type"):
            tensors.append((name, value.SerializeToString()))
            continue
        fit = True
        dims: List[int] = []
        if hasattr(value, "shape") and hasattr(value, "tolist"):  # numpy arrays and alike
            dims = [int(d) for d in value.shape]
            value, fit = value.tolist(), False
        elements = _flat(value)
        for e in elements:
            if not isinstance(e, (int, float)):
                raise TypeError(f"input value for {name!r}: {e!r} is not a number or bool")
        if not fit and len(dims) == 0 and len(elements) != 1:
            raise ValueError(f"input value for {name!r}: a scalar array holds one element")
        if all(isinstance(e, int) for e in elements):  # bool is an int
            plain.append((name, [int(e) for e in elements], [], dims, fit))
        else:
            plain.append((name, [], [float(e) for e in elements], dims, fit))
    options.input_values = plain
    options.input_tensors = tensors


# ---- onnx.shape_inference's API.

def _specialize(options: "_core.CallOptions", bind: Optional[Mapping[str, int]],
                input_shapes: Optional[Mapping[str, Sequence[Union[int, str, None]]]],
                input_values: Optional[Mapping[str, Any]]) -> None:
    """The specialization keywords of infer, explain and contract, into ``options``."""
    options.bind = {str(k): int(v) for k, v in (bind or {}).items()}
    options.input_shapes = {str(name): [_dim_text(d) for d in dims]
                            for name, dims in (input_shapes or {}).items()}
    _set_input_values(options, input_values or {})


def _model_source(model: Any, function: str) -> Tuple[Optional[bytes], str]:
    """(bytes, "") for a model given as an ``onnx.ModelProto`` or bytes, (None, path) for a
    path: how the core's explain and contract take a model."""
    if isinstance(model, (str, os.PathLike)):
        return None, os.fspath(model)
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), ""
    if _is_model_proto(model):
        return _serialize_model(model), ""
    raise TypeError(f"{function} takes an onnx.ModelProto, bytes or a path, "
                    f"not a {type(model).__name__}")


def infer_shapes(
    model: Any,
    check_type: bool = False,
    strict_mode: bool = False,
    data_prop: bool = False,
    *,
    max_expanded_nodes: Optional[int] = None,
    overridable_initializers: bool = False,
) -> Any:
    """Infers the type and shape of every value of ``model``, as
    ``onnx.shape_inference.infer_shapes`` does.

    ``model`` is an ``onnx.ModelProto`` or the bytes of a binary model; a new, annotated
    ``onnx.ModelProto`` is returned (the argument is left as it was). Without the onnx
    package, bytes in give annotated bytes out. Intermediate values get ``value_info``
    entries; graph outputs that are undeclared or declared less precisely get their inferred
    types. Symbolic dimensions are kept and derived (``N``, ``N + 5``, ``2*seq``). Custom
    operators registered with :func:`register_schemas` or :func:`register_op` are known.

    ``check_type``: check each node's inputs against its operator's type constraints (a
    violation is an error). Off by default, as in onnx: a violation is then a warning.
    ``strict_mode``: a missing schema or rule, or an unknown attribute, is an error instead
    of a warning, and any error raises :class:`InferenceError`. In either mode an inferred
    type that contradicts the model's declared type raises :class:`InferenceError`, as onnx
    does. Other errors do not raise without ``strict_mode``: what cannot be inferred is left
    unknown.
    ``data_prop``: accepted for compatibility; the engine always propagates values computed
    from shapes (Shape, Gather, Concat, arithmetic...), so its results include those ONNX
    gets with ``data_prop=True`` either way.
    ``max_expanded_nodes`` (keyword only, an onnx-infer extension): at most this many nodes
    are inferred inside function bodies and subgraphs in all (default 200,000; the CLI's
    ``--max-expanded-nodes``, docs/limits.md); past it, the calls left out give unknown
    outputs and one error names the limit.
    ``overridable_initializers`` (keyword only): an initializer that is also a graph input
    is a default the caller may override (IR.md), so its value is not used. By default it is
    used, as onnx does (:func:`infer` lists each node that read one in ``conditions``).

    :class:`InferenceError` is a subclass of ``onnx.shape_inference.InferenceError`` when
    onnx is installed. Raises ``TypeError`` for another kind of ``model``, ``ValueError``
    when the bytes are not a model or a ModelProto is too large to serialize (over 2 GiB
    with its weights inline: use :func:`infer_shapes_path`).
    """
    options = _dropin_options(strict_mode, check_type, overridable_initializers,
                              max_expanded_nodes)
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, diagnostics = _core.infer_bytes(bytes(model), options, False)
        _raise_like_onnx(diagnostics, strict_mode, "<bytes>")
        onnx = _onnx_or_none()
        if onnx is None:
            return data
        inferred = onnx.ModelProto()
    elif _is_model_proto(model):
        data, diagnostics = _core.infer_bytes(_serialize_model(model), options, False)
        _raise_like_onnx(diagnostics, strict_mode, "<model>")
        inferred = type(model)()
    else:
        raise TypeError(
            "infer_shapes only accepts onnx.ModelProto or bytes, "
            f"you passed a {type(model).__name__}")
    inferred.ParseFromString(data)
    return inferred


def infer_shapes_path(
    model_path: PathLike,
    output_path: PathLike = "",
    check_type: bool = False,
    strict_mode: bool = False,
    data_prop: bool = False,
    *,
    max_expanded_nodes: Optional[int] = None,
    overridable_initializers: bool = False,
) -> None:
    """Infers the model file at ``model_path`` and writes the annotated model.

    The model is written to ``output_path``, or back to ``model_path`` when that is empty, as
    ``onnx.shape_inference.infer_shapes_path`` does; the write is atomic (a temporary file
    renamed over the target). The file may be binary or the ONNX text syntax; the output is
    binary. External data is never loaded: only small integer initializers stored beside the
    model (inside its directory) are read, when a node needs their values; so models whose
    weights exceed 2 GiB work. The parameters mean what they mean for :func:`infer_shapes`:
    when it raises :class:`InferenceError` (strict mode with errors; a declared type that
    contradicts the inferred one), nothing is written.

    Raises ``TypeError`` when given a ``ModelProto`` instead of a path, ``ValueError`` when
    the file cannot be read as a model or the output cannot be written.
    """
    if not isinstance(model_path, (str, os.PathLike)):
        raise TypeError(
            "infer_shapes_path only accepts a path (str or os.PathLike) as model_path, "
            f"you passed a {type(model_path).__name__}; use infer_shapes for a model")
    model_path = os.fspath(model_path)
    output_path = os.fspath(output_path) or model_path
    options = _dropin_options(strict_mode, check_type, overridable_initializers,
                              max_expanded_nodes, raise_on_contradiction=True)
    diagnostics = _core.infer_file(model_path, output_path, options, False)
    _raise_like_onnx(diagnostics, strict_mode, model_path)


def infer_node_outputs(
    schema: Any,
    node: Any,
    input_types: Mapping[str, Any],
    input_data: Optional[Mapping[str, Any]] = None,
    input_sparse_data: Optional[Mapping[str, Any]] = None,
    opset_imports: Optional[Any] = None,
    ir_version: Optional[int] = None,
) -> Dict[str, Any]:
    """Infers the output types of one node, as ``onnx.shape_inference.infer_node_outputs``.

    ``schema`` is an ``onnx.defs.OpSchema`` (as ONNX takes it) or the node's op_type as a
    string; the node resolves against ``opset_imports`` (a list of ``OperatorSetIdProto`` or
    a ``{domain: version}`` dict), by default the schema's own version of its domain (for a
    string: the newest version onnx-infer knows of the node's domain). ``input_types`` maps
    input names to ``onnx.TypeProto``; ``input_data`` maps input names to
    ``onnx.TensorProto`` values (a Reshape's shape, say). ``input_sparse_data`` and
    ``ir_version`` (default: the installed onnx's) are accepted for compatibility; sparse
    values are not read.

    Returns ``{output name: onnx.TypeProto}`` for the outputs whose type is at least partly
    known. Raises as onnx does: ``KeyError`` when an input of the node (not an omitted one)
    has no entry in ``input_types``; ``onnx.checker.ValidationError`` when the node does not
    fit its operator's signature (input or output count, attributes, type constraints);
    :class:`InferenceError` when inference finds the node invalid otherwise (its
    diagnostics attached to either).
    """
    onnx = _onnx_or_none()
    if onnx is None:
        raise ImportError("infer_node_outputs takes onnx messages: install python3-onnx")
    if isinstance(schema, str):
        op_type, domain, since = schema, node.domain, None
    else:
        op_type, domain, since = schema.name, schema.domain, schema.since_version
    if op_type != node.op_type:
        raise ValueError(f"the schema is {op_type!r} but the node is a {node.op_type!r}")
    if opset_imports is None:
        if since is None:
            since = _core.newest_opset(domain)
            if since is None:
                raise ValueError(f"no operator set {domain!r} is known; pass opset_imports")
        opsets = {domain: since}
    elif isinstance(opset_imports, Mapping):
        opsets = dict(opset_imports)
    else:
        opsets = {o.domain: o.version for o in opset_imports}
    for name in node.input:
        if name and name not in input_types:
            raise KeyError(name)
    types = {name: t.SerializeToString() for name, t in input_types.items()}
    values = {name: t.SerializeToString() for name, t in (input_data or {}).items()}
    outputs, diagnostics = _core.infer_node(node.SerializeToString(), opsets, types, values,
                                            False, True)
    source = f"node {node.name or node.op_type!r}"
    invalid = [d for d in diagnostics if d.severity == "error"
               and d.kind in ("signature", "type-constraint")]
    if invalid:
        import onnx.checker
        error = onnx.checker.ValidationError(_render_errors(invalid, source))
        error.diagnostics = list(diagnostics)
        raise error
    _raise_on_errors(diagnostics, source)
    result = {}
    for name, data in outputs.items():
        proto = onnx.TypeProto()
        proto.ParseFromString(data)
        result[name] = proto
    return result


def infer_function_output_types(
    function: Any,
    input_types: Sequence[Any],
    attributes: Sequence[Any],
) -> List[Any]:
    """The types of a function's outputs for given input types and attribute values, as
    onnx main's ``onnx.shape_inference.infer_function_output_types``.

    ``function`` is an ``onnx.FunctionProto``, ``input_types`` one ``onnx.TypeProto`` per
    function input (an empty ``TypeProto`` for an unknown one), ``attributes`` the
    ``onnx.AttributeProto`` values of the call (the function's own defaults apply to the
    others). Returns one ``onnx.TypeProto`` per function output, empty where nothing is known.
    The body is inferred as at a call in a model (symbolic dims kept: ``N + 1``). Raises
    :class:`InferenceError` when the body does not infer (its diagnostics attached), and
    ``ValueError`` when there are more input types than the function has inputs.
    """
    onnx = _onnx_or_none()
    if onnx is None:
        raise ImportError("infer_function_output_types takes onnx messages: install python3-onnx")
    helper = onnx.helper
    if len(input_types) > len(function.input):
        raise ValueError(f"{len(input_types)} input types for a function of "
                         f"{len(function.input)} inputs")
    # A model that calls the function once: the call's inputs are graph inputs of the given
    # types, its outputs the graph's outputs. The function goes under a domain of its own, so
    # that it cannot be taken for a standard operator of the same name.
    callee = onnx.FunctionProto()
    callee.CopyFrom(function)
    callee.domain = "onnx_infer.function_call"
    inputs = []
    for i, t in enumerate(input_types):
        vi = onnx.ValueInfoProto(name=f"input_{i}")
        vi.type.CopyFrom(t)
        inputs.append(vi)
    outputs = [f"output_{i}" for i in range(len(function.output))]
    node = helper.make_node(function.name, [vi.name for vi in inputs], outputs,
                            domain=callee.domain)
    node.attribute.extend(attributes)
    graph = helper.make_graph([node], "call", inputs,
                              [onnx.ValueInfoProto(name=o) for o in outputs])
    opsets = {o.domain: o.version for o in function.opset_import}
    opsets[callee.domain] = 1
    model = helper.make_model(graph, functions=[callee], ir_version=max(8, _onnx_ir_version()),
                              opset_imports=[helper.make_opsetid(d, v)
                                             for d, v in opsets.items()])
    result = infer(model)
    result.raise_for_errors("<function>")
    by_name = {vi.name: vi.type for vi in result.model.graph.output}
    return [by_name.get(o, onnx.TypeProto()) for o in outputs]


# ---- The engine's own API.

class Symbol(NamedTuple):
    """A dimension symbol of the annotated model and where it comes from."""
    name: str
    declared: bool  # the model declares it; else inference introduced it
    origin: str     # "input 'x' dim 0 of graph 'main'", or the node and output it was made for


class MemoryStep(NamedTuple):
    """One node of the main graph as it runs, with the bytes of the activations live then."""
    node_index: int   # in the graph's node list
    node_name: str
    op_type: str
    live_bytes: Union[int, str, None]  # a number, an expression ("512*B*S"), None: unknown
    unknown_values: int  # live activations of unknown size, not counted in live_bytes


class MemoryEstimate:
    """The memory of a model (docs/memory.md), from :func:`infer` with ``memory=True``.

    Byte counts are an ``int``, an expression of the model's symbols as a ``str``
    (``"602112*N"``), or None when the types do not say. ``values``: ``{graph path: {value
    name: bytes}}`` for every graph input, node output and graph output. ``weight_bytes``:
    the initializers (external ones by their dims), sparse initializers and Constant nodes of
    every graph, ``weights`` of them (``weights_of_unknown_size`` strings not counted).
    ``steps``: :class:`MemoryStep` per node of the main graph, in the order they run.
    ``peak_bytes``: the largest step; ``peak_decided`` False when which step is largest
    depends on the symbols' values (``peak_bytes`` is then their ``Max(...)``),
    ``peak_nodes`` the node indices that are or may be the peak.
    ``activations_of_unknown_size``: values left out of every total (a lower bound then).
    """

    def __init__(self, d: Dict[str, Any]):
        self.values: Dict[str, Dict[str, Union[int, str, None]]] = {
            path: dict(graph) for path, graph in d["values"].items()}
        self.weight_bytes: Union[int, str, None] = d["weight_bytes"]
        self.weights: int = d["weights"]
        self.weights_of_unknown_size: int = d["weights_of_unknown_size"]
        self.steps: List[MemoryStep] = [MemoryStep(*s) for s in d["steps"]]
        self.peak_bytes: Union[int, str, None] = d["peak_bytes"]
        self.peak_decided: bool = d["peak_decided"]
        self.peak_nodes: List[int] = list(d["peak_nodes"])
        self.activations_of_unknown_size: int = d["activations_of_unknown_size"]

    def __repr__(self) -> str:
        return (f"<onnx_infer.MemoryEstimate weights {self.weight_bytes} bytes, "
                f"peak activations {self.peak_bytes} bytes>")


_Count = Union[int, str, None]  # a number, an expression of symbols, or unknown


class CostNode(NamedTuple):
    """One node's FLOPs and MACs (docs/cost.md), at any depth."""
    graph: str       # "main", "main/If_3.then_branch", "main/Proj_2.local::Proj"
    node_index: int  # in its graph's node list
    node_name: str
    op: str          # "MatMul", "com.microsoft::Attention"
    kind: str        # "formula", "data movement" (0 FLOPs) or "no formula"
    flops: _Count    # None: no formula, or a shape the formula needs is not known (note)
    macs: _Count
    lower_bound: bool    # a node inside its subgraphs or body has no known cost
    per_iteration: bool  # a Loop of unknown trip count: one iteration
    note: str


class CostValues(NamedTuple):
    """A :class:`CostEstimate` under one binding: None where a count is unknown, uses an
    unbound symbol or overflows int64."""
    total_flops: Optional[int]
    total_macs: Optional[int]
    nodes: List[Tuple[Optional[int], Optional[int]]]  # (flops, macs), parallel to nodes
    unbound_symbols: List[str]  # used by the totals, absent from the binding


class CostEstimate:
    """The compute cost of a model (docs/cost.md), from :func:`infer` with ``cost=True``.

    A FLOP is one arithmetic operation on one element; a multiply-add is 2 FLOPs and 1 MAC.
    Counts are an ``int``, an expression of the model's symbols as a ``str``
    (``"17024*B*S + 156*B*S**2"``), or None when unknown. ``nodes``: :class:`CostNode` for
    every node of every graph (main first, each subgraph or function body after its node).
    ``total_flops``, ``total_macs``: the sums over the main graph (a control-flow node or a
    function call includes its bodies). ``lower_bound``: some node's cost is not known
    (``ops_without_formula``: ``{op: count}``; ``nodes_without_formula``,
    ``nodes_unknown_shape``), so the totals leave it out. ``per_iteration_loops``: Loops of
    unknown trip count, each counted for one iteration. :meth:`evaluate` gives the numbers
    under a binding, as often as wanted.
    """

    def __init__(self, d: Dict[str, Any]):
        self.nodes: List[CostNode] = [CostNode(*n) for n in d["nodes"]]
        self.total_flops: _Count = d["total_flops"]
        self.total_macs: _Count = d["total_macs"]
        self.ops_without_formula: Dict[str, int] = dict(d["ops_without_formula"])
        self.nodes_without_formula: int = d["nodes_without_formula"]
        self.nodes_unknown_shape: int = d["nodes_unknown_shape"]
        self.lower_bound: bool = d["lower_bound"]
        self.per_iteration_loops: int = d["per_iteration_loops"]
        self._estimate = d["estimate"]  # _core.CostEstimate, evaluated in C++

    def evaluate(self, binding: Mapping[str, int]) -> CostValues:
        """The counts under ``binding`` (``{"B": 1, "S": 128}``)."""
        values = {str(k): int(v) for k, v in binding.items()}
        flops, macs, nodes, unbound = self._estimate.evaluate(values)
        return CostValues(flops, macs, [tuple(n) for n in nodes], list(unbound))

    def __repr__(self) -> str:
        bound = " (lower bound)" if self.lower_bound else ""
        return f"<onnx_infer.CostEstimate {self.total_flops} FLOPs{bound}>"


class InferenceResult:
    """What :func:`infer` found.

    ``values``: ``{graph path: {value name: ValueType or None}}`` for every graph inference
    visited: ``"main"``, an If branch ``"main/If_3.then_branch"``, a Loop body, a
    model-local function at one call; the graph's inputs, node outputs and outputs, in the
    model's order (None: nothing known). ``symbols``: :class:`Symbol` list, declared first.
    ``facts``: what inference learnt about symbols (``"N == M (node 'mm' (MatMul): ...)"``).
    ``conditions``: what the model requires that is not an equation (a symbolic
    broadcast), and each assumption (``assume``, ``assume_positive``) a result needed.
    ``bounds``: each symbol's range beyond ``>= 0`` as a dict (``symbol``, ``min``, ``max`` or
    None, ``assumed``: which bounds rest on ``assume``, ``origins``); ``relations``: the
    relations over several symbols (``"P + S <= 4096 (assumed)"``).
    ``diagnostics``: every finding, in order; ``errors`` those of severity
    error. ``stats``: counts of values by how well they are known (``values``, ``shaped``,
    ``static_shaped``, ``symbolic``, ``partial``, ``type_only``, ``unknown``, ...).
    ``model``: the annotated model (an ``onnx.ModelProto`` when one was passed, bytes when
    bytes were; None for a path: pass ``output_path`` to have it written). ``memory``: a
    :class:`MemoryEstimate` when :func:`infer` was called with ``memory=True``, else None;
    ``cost``: likewise a :class:`CostEstimate` with ``cost=True``. ``findings``: with
    ``lint=True``, the lint findings (docs/lint.md) as dicts (``id`` "L001".., ``severity``,
    ``graph``, ``node_index`` (None: no node), ``node_name``, ``op``, ``subject``,
    ``message``, ``pattern``, ``fix``), else None.
    ``value_report``: every value of every graph as the ``--json-values`` report lists it (a
    list of dicts: ``graph``, ``name``, ``role``, ``type``, ``known``, ``symbols``,
    ``declared`` and ``inferred`` (ValueType or None), ``agreement``, ``contradiction``;
    docs/cli.md, "The JSON report").
    """

    def __init__(self, details: Dict[str, Any], model: Any):
        self.values: Dict[str, Dict[str, Optional[ValueType]]] = {
            path: {name: from_tuple(t) for name, t in graph.items()}
            for path, graph in details["values"].items()}
        self.symbols: List[Symbol] = [Symbol(*s) for s in details["symbols"]]
        self.facts: List[str] = list(details["facts"])
        self.conditions: List[str] = list(details["conditions"])
        self.bounds: List[Dict[str, Any]] = list(details["bounds"])
        self.relations: List[str] = list(details["relations"])
        self.diagnostics: List[Diagnostic] = list(details["diagnostics"])
        self.stats: Dict[str, int] = dict(details["stats"])
        self.value_report: List[Dict[str, Any]] = [
            dict(v, type=from_tuple(v["type"]), declared=from_tuple(v["declared"]),
                 inferred=from_tuple(v["inferred"]))
            for v in details["value_report"]]
        self.model = model
        memory = details.get("memory")
        self.memory: Optional[MemoryEstimate] = (
            MemoryEstimate(memory) if memory is not None else None)
        cost = details.get("cost")
        self.cost: Optional[CostEstimate] = CostEstimate(cost) if cost is not None else None
        findings = details.get("findings")
        self.findings: Optional[List[Dict[str, Any]]] = (
            [dict(f) for f in findings] if findings is not None else None)

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def type_of(self, name: str, graph: str = "main") -> Optional[ValueType]:
        """The type of value ``name`` in ``graph`` (None when unknown or not a value there)."""
        return self.values.get(graph, {}).get(name)

    def raise_for_errors(self, source: str = "model") -> None:
        """Raises :class:`InferenceError` when there are error diagnostics."""
        _raise_on_errors(self.diagnostics, source)

    def __repr__(self) -> str:
        s = self.stats
        return (f"<onnx_infer.InferenceResult {s.get('values', 0)} values, "
                f"{s.get('shaped', 0)} fully shaped, {len(self.errors)} errors>")


def infer(
    model: Any,
    *,
    data_prop: bool = True,
    strict: bool = False,
    schemas: Iterable[Any] = (),
    max_value_elements: int = 1024,
    output_path: Optional[PathLike] = None,
    assume: Iterable[str] = (),
    assume_positive: bool = False,
    bind: Optional[Mapping[str, int]] = None,
    input_shapes: Optional[Mapping[str, Sequence[Union[int, str, None]]]] = None,
    input_values: Optional[Mapping[str, Any]] = None,
    memory: bool = False,
    cost: bool = False,
    lint: bool = False,
    max_expanded_nodes: Optional[int] = None,
    check_types: bool = True,
    overridable_initializers: bool = False,
    policy: str = "inferred",
) -> InferenceResult:
    """Infers ``model`` and returns everything the engine found (:class:`InferenceResult`).

    ``model``: an ``onnx.ModelProto``, the bytes of a binary model, or a path (binary or text
    syntax; external data is never loaded, small integer initializers beside the model are
    read when needed). ``data_prop=False`` tracks only the values of constants, not of
    Shape, Gather, arithmetic... ``strict``: a missing schema or rule, or a declared type
    that contradicts the inferred one, is an error rather than a warning (nothing raises:
    see ``result.errors`` and ``result.raise_for_errors()``). ``schemas``: custom operators
    for this call only, each a JSON file path, JSON text or a dict (docs/custom-ops.md).
    ``max_value_elements``: the largest tensor whose value is tracked.
    ``max_expanded_nodes``: at most this many nodes are inferred inside function bodies and
    subgraphs in all (None: the engine's default, 200,000; the CLI's ``--max-expanded-nodes``);
    past it, the calls left out give unknown outputs and one error names the limit.
    ``output_path``: with a path, where to write the annotated model (atomically).
    ``check_types``: a node input whose type its operator's type constraint does not allow
    is an error (False: a warning). ``overridable_initializers``: an initializer that is also
    a graph input is a default the caller may override (IR.md), so its value is not used; by
    default it is used, as onnx and onnxruntime do, and each node that read one is listed in
    ``result.conditions`` ("input 'shape' keeps its initializer's value (read by node 'r'
    (Reshape); ...)"). ``policy``: what a declared type (value_info, a graph output) that
    contradicts the inferred one becomes: ``"inferred"`` (an error diagnostic, and the
    annotated model carries the inferred type), ``"refine"`` (a warning, the declaration is
    kept and used downstream), ``"override"`` (a note, the inferred type replaces it),
    ``"strict"`` (an error, and nothing is written to ``output_path``).

    ``assume``: lower bounds of dim symbols the model does not state, such as ``"S >= 2"``
    (also ``"S > 1"``, ``"2 <= S"``); ``assume_positive``: every dim symbol is at least 1, as
    onnxruntime's symbolic shape inference assumes. By default nothing is assumed (a dim may
    be 0). Dims simplify under them (``Slice(x, 1, -1)`` on an axis of ``S``:
    ``Max(0, S - 2)`` becomes ``S - 2``), and each result that needed one is listed with it
    in ``result.conditions``; a fact of the model that contradicts one is an error.

    Specialization (the CLI's ``--bind``, ``--input-shape`` and ``--set-input``; applied in
    this order, and written into the annotated model): ``bind`` gives symbols values
    (``{"B": 1, "S": 128}``) so every dim is evaluated under them; ``input_shapes`` replaces
    graph inputs' declared shapes (``{"x": (1, 3, "H", "W")}``, None for an unknown dim);
    ``input_values`` gives graph inputs known values (``{"sr": 16000, "pads": [0, 1, 0, 1]}``;
    a number or flat list takes its shape from the declaration, a numpy array or
    ``onnx.TensorProto`` brings its own), so shape computations fold and an ``If`` they decide
    takes its branch. ``memory=True`` adds :class:`MemoryEstimate` as ``result.memory``;
    ``cost=True`` adds :class:`CostEstimate` as ``result.cost`` (with ``bind``, its counts are
    those of the specialized model: infer without ``bind`` and call ``result.cost.evaluate``
    to keep the expressions and evaluate them under several bindings). ``lint=True`` adds
    the lint findings as ``result.findings`` (docs/lint.md: declared dynamic axes an exporter
    pinned to constants or made equal, outputs declared dynamic inferred constant, Shape
    results no shape uses).

    Raises ``ValueError`` when the model cannot be read, a schema does not load, an
    assumption is not a lower bound of one symbol, or a specialization option does not fit
    the model (an input it does not have, a value of the wrong length).
    """
    options = _options(strict, data_prop, max_value_elements, schemas, assume, assume_positive,
                       max_expanded_nodes, check_types, overridable_initializers, policy)
    _specialize(options, bind, input_shapes, input_values)
    options.memory = bool(memory)
    options.cost = bool(cost)
    options.lint = bool(lint)
    if isinstance(model, (str, os.PathLike)):
        out = os.fspath(output_path) if output_path is not None else ""
        details = _core.infer_file(os.fspath(model), out, options, True)
        return InferenceResult(details, None)
    if output_path is not None:
        raise TypeError("output_path is for a model given as a path")
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, details = _core.infer_bytes(bytes(model), options, True)
        return InferenceResult(details, data)
    if not _is_model_proto(model):
        raise TypeError(f"infer takes an onnx.ModelProto, bytes or a path, "
                        f"not a {type(model).__name__}")
    data, details = _core.infer_bytes(_serialize_model(model), options, True)
    inferred = type(model)()
    inferred.ParseFromString(data)
    return InferenceResult(details, inferred)


# ---- Why a dim is unknown (infer-shapes --explain; docs/python.md, "Explaining unknown dims").

class Explanation:
    """Why one dim (``axis`` >= 0) or the rank or type (``axis`` -1) of a value is not known,
    or, for a symbolic dim, which symbols it depends on.

    ``graph``, ``value``, ``axis``, ``type`` (the value's type as text), ``what`` ("dim 1 is
    unknown"), ``reason`` (a reason class: ``"data-dependent"``, ``"shape-value-unknown"``,
    ``"no-rule"``, ``"size-cap"``, ``"if-branches-disagree"``, ``"loop-widening"``,
    ``"external-data"``, ``"contradiction"``, ``"declared-type-kept"``,
    ``"unknown-graph-input"``, ``"not-inferred"``, ``"empty-sequence"``,
    ``"rule-incomplete"``; ``"symbolic"`` or ``"known"`` when nothing is missing),
    ``detail`` (one sentence), ``chain`` (dicts ``graph``, ``value``, ``axis``, ``of_value``,
    ``node_index``, ``node``, ``note``, from the value back to where it was lost),
    ``symbols`` (``(name, declared, origin, reason)`` for a symbolic dim) and ``input_value``
    (a graph input whose value, given with ``input_values``, would decide it; or None).
    ``str()`` is what ``infer-shapes --explain`` prints.
    """

    def __init__(self, d: Dict[str, Any]):
        self.graph: str = d["graph"]
        self.value: str = d["value"]
        self.axis: int = d["axis"]
        self.type: str = d["type"]
        self.what: str = d["what"]
        self.reason: str = d["reason"]
        self.detail: str = d["detail"]
        self.chain: List[Dict[str, Any]] = list(d["chain"])
        self.symbols: List[tuple] = [tuple(s) for s in d["symbols"]]
        self.input_value: Optional[str] = d["input_value"]
        self._text: str = d["text"]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return (f"<onnx_infer.Explanation {self.value!r} axis {self.axis}: {self.reason}>")


class WhatIf(NamedTuple):
    """One what-if run: ``label`` ("S=2", "sr=2", "all together"), the symbols it binds, the
    graph inputs it gives values, the node outputs fully static in that run, how many more
    than without it (``gained``), and its error count (a value that contradicts the model)."""
    label: str
    bind: Dict[str, int]
    inputs: List[str]
    static_values: int
    gained: int
    errors: int


class ExplainReport:
    """What :func:`explain` found: ``explanations`` (one :class:`Explanation` per dim of the
    values asked for), ``unknown`` (with ``"all"`` or ``what_if``: every unknown dim, rank
    and type of every graph), ``summary`` (``{reason: count}`` over ``unknown``),
    ``introduced`` (with ``"all"``: ``(name, origin, reason)`` for each symbol inference
    introduced, with why its node could not give an expression),
    ``what_if`` (:class:`WhatIf` runs), ``static_values`` and ``values`` (node outputs fully
    static, and all of them, without any binding), and ``text``: what ``infer-shapes
    --explain`` prints."""

    def __init__(self, d: Dict[str, Any]):
        self.explanations: List[Explanation] = [Explanation(e) for e in d["explanations"]]
        self.unknown: List[Explanation] = [Explanation(e) for e in d["unknown"]]
        self.summary: Dict[str, int] = dict(d["summary"])
        self.introduced: List[tuple] = [tuple(s) for s in d["introduced"]]
        self.what_if: List[WhatIf] = [
            WhatIf(w["label"], dict(w["bind"]), list(w["inputs"]), w["static_values"],
                   w["gained"], w["errors"]) for w in d["what_if"]]
        self.static_values: int = d["static_values"]
        self.values: int = d["values"]
        self.text: str = d["text"]

    def __str__(self) -> str:
        return self.text


def explain(
    model: Any,
    value: Union[str, Sequence[Any]] = "all",
    *,
    what_if: Union[bool, Mapping[str, Any], None] = None,
    strict: bool = False,
    data_prop: bool = True,
    schemas: Iterable[Any] = (),
    max_value_elements: int = 1024,
    assume: Iterable[str] = (),
    assume_positive: bool = False,
    bind: Optional[Mapping[str, int]] = None,
    input_shapes: Optional[Mapping[str, Sequence[Union[int, str, None]]]] = None,
    input_values: Optional[Mapping[str, Any]] = None,
    policy: str = "inferred",
) -> ExplainReport:
    """Infers ``model`` (an ``onnx.ModelProto``, bytes or a path) and explains why dims are
    unknown: ``value`` is ``"all"`` (every unknown dim, rank and type, summed up by reason,
    and the what-if runs), a value name, ``"name:axis"``, a ``(name, axis)`` pair, or a list
    of them. The other keywords are :func:`infer`'s.

    ``what_if``: True runs the what-if inferences (the default with ``"all"``): each
    declared input symbol bound to 2, and each graph input whose value the explanations show
    would decide a dim given 2 for every element (scalars and constant shapes of at most 16
    elements), one at a time and then all together; a mapping gives the values instead
    (``{"S": 128, "sr": 16000, "pads": [0, 1, 0, 1]}``: a symbol or a graph input by name).
    Each count is a real inference run, not an estimate. Raises ``ValueError`` for a value
    the model does not have, or what :func:`infer` raises for.
    """
    options = _options(strict, data_prop, max_value_elements, schemas, assume, assume_positive,
                       None, True, False, policy)
    _specialize(options, bind, input_shapes, input_values)
    targets: List[str] = []
    items = [value] if isinstance(value, (str, tuple)) else list(value)
    for item in items:
        if isinstance(item, tuple):
            name, axis = item
            targets.append(f"{name}:{int(axis)}")
        elif isinstance(item, str):
            targets.append(item)
        else:
            raise TypeError(f"a value to explain is a name or (name, axis), not {item!r}")
    run_what_if = bool(what_if) if what_if is not None else "all" in targets
    what_if_options = _core.CallOptions()
    if isinstance(what_if, Mapping):
        symbols = {str(k): int(v) for k, v in what_if.items() if isinstance(v, int)}
        what_if_options.bind = symbols
        _set_input_values(what_if_options,
                          {k: v for k, v in what_if.items() if not isinstance(v, int)})
    data, path = _model_source(model, "explain")
    details = _core.explain(data, path, options, targets, what_if_options, run_what_if)
    return ExplainReport(details)


# ---- The deployment contract and profiles (infer-shapes --contract; docs/deploy.md).

def _range_text(symbol: str, r: Any) -> str:
    if isinstance(r, str):
        return f"{symbol}={r}"
    if isinstance(r, int):
        return f"{symbol}={int(r)}"
    values = list(r)
    if len(values) != 3:
        raise ValueError(f"range of {symbol!r}: expected (min, opt, max) or one value, "
                         f"not {r!r}")
    return f"{symbol}={int(values[0])}:{int(values[1])}:{int(values[2])}"


def contract(
    model: Any,
    *,
    ranges: Optional[Mapping[str, Any]] = None,
    profile: Optional[str] = None,
    check: bool = False,
    memory: bool = False,
    cost: bool = False,
    strict: bool = False,
    data_prop: bool = True,
    schemas: Iterable[Any] = (),
    max_value_elements: int = 1024,
    assume: Iterable[str] = (),
    assume_positive: bool = False,
    bind: Optional[Mapping[str, int]] = None,
    input_shapes: Optional[Mapping[str, Sequence[Union[int, str, None]]]] = None,
    input_values: Optional[Mapping[str, Any]] = None,
    policy: str = "inferred",
) -> Dict[str, Any]:
    """Infers ``model`` (an ``onnx.ModelProto``, bytes or a path) and returns its deployment
    contract: the dict ``infer-shapes --contract`` writes (docs/deploy.md,
    docs/contract.schema.json): ``inputs``, ``symbols`` (uses, bounds with their origins,
    values the facts fix), ``divisibility``, ``facts``, ``relations``, ``conditions``.

    A profile (``"profiles"``, one entry) is made when ``ranges`` is given: a mapping of a
    symbol to ``(min, opt, max)``, one value, or the text ``"1:128:4096"``; symbols the facts
    fix are derived, and symbols without a range take the model's finite bounds (so
    ``ranges={}`` makes a profile from the bounds alone). Its shapes are there as trtexec
    flags (``"trtexec"``), onnxruntime TensorRT provider options (``"ort_trt"``, a dict to
    pass as provider options) and Polygraphy flags (``"polygraphy"``), with the values of
    shape-tensor inputs (each input's ``"values"``: what the model forces each element to;
    a free one takes a range by its name, ``{"shape[1]": (1, 8, 64)}``) after the shapes and
    in each point's ``"values"``; its ``"errors"`` say what kept it from being complete. ``profile``: a profile to check instead, in any of the
    three text formats. ``check``: check the made profile against the model's facts, bounds,
    relations and divisibility (a given ``profile`` is always checked); the profile's
    ``"violations"`` list what fails, each with its point, values and origin. ``memory`` and
    ``cost``: the peak of live activations and the FLOPs at min, opt and max, with the node
    that holds each (the profile's ``"memory"`` and ``"cost"``). The other keywords are
    :func:`infer`'s. Raises ``ValueError`` for a model that cannot be read, a range or
    profile whose syntax is wrong, and both ``ranges`` and ``profile``.
    """
    options = _options(strict, data_prop, max_value_elements, schemas, assume, assume_positive,
                       None, True, False, policy)
    _specialize(options, bind, input_shapes, input_values)
    range_texts = [_range_text(str(k), v) for k, v in (ranges or {}).items()]
    # A profile from the bounds alone: the command's --profile-format without --range.
    profile_format = "trtexec" if ranges is not None and not range_texts else ""
    args = (options, range_texts, profile or "", profile_format, bool(check), bool(memory),
            bool(cost))
    out = _core.contract(*_model_source(model, "contract"), *args)
    result = json.loads(out["contract"])
    if result is None:  # a given profile that does not parse: no contract was made
        raise ValueError(out["error"])
    return result


# ---- Custom operators.

def _schema_text(schema: Any):
    """(JSON text, source name) for a path, JSON text, or a dict / list."""
    if isinstance(schema, (dict, list)):
        return json.dumps(schema), "<dict>"
    if isinstance(schema, os.PathLike) or (
            isinstance(schema, str) and not schema.lstrip().startswith(("{", "["))):
        path = os.fspath(schema)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    if isinstance(schema, str):
        return schema, "<text>"
    raise TypeError(f"a schema is a path, JSON text or a dict, not {type(schema).__name__}")


def register_schemas(path_or_text: Any) -> None:
    """Adds the custom operators of a JSON schema document (docs/custom-ops.md) to every later
    inference in this process: a file path, the JSON text, or the document as a dict.

    An operator version registered before is replaced (a notebook cell run twice);
    :func:`reset_schemas` forgets every registration. Raises ``ValueError`` naming the place
    of a mistake (``ops.json: operators[0].rule.kind: ...``); nothing is registered then.
    """
    _core.register_schemas(*_schema_text(path_or_text))


def _all_tensor_types() -> List[str]:
    names = []
    for number in range(1, 64):
        name = _core.data_type_name(number)
        if _core.data_type_from_name(name) == number:  # a known type, not "dtype<27>"
            names.append(f"tensor({name})")
    return names


def _attribute_value(value: Any) -> Any:
    """An attribute value from _core for a Python rule: messages become onnx objects when the
    onnx package is there."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes):
        onnx = _onnx_or_none()
        kind, data = value
        cls = None if onnx is None else {
            "tensor": onnx.TensorProto, "sparse_tensor": onnx.SparseTensorProto,
            "graph": onnx.GraphProto, "type_proto": onnx.TypeProto}.get(kind)
        if cls is None:
            return value
        message = cls()
        message.ParseFromString(data)
        return message
    if isinstance(value, list):
        return [_attribute_value(v) for v in value]
    return value


def register_op(
    domain: str,
    op_type: str,
    rule: Callable[[List[Optional[ValueType]], Dict[str, Any]], Sequence[Any]],
    *,
    since_version: int = 1,
    inputs: Optional[Sequence[Mapping[str, Any]]] = None,
    outputs: Optional[Sequence[Mapping[str, Any]]] = None,
    attributes: Sequence[Mapping[str, Any]] = (),
    type_constraints: Optional[Sequence[Mapping[str, Any]]] = None,
) -> None:
    """Registers custom operator ``domain::op_type`` whose outputs a Python function infers,
    for every later inference in this process.

    ``rule(input_types, attributes)`` receives a list with one :class:`ValueType` (or None:
    unknown or omitted) per input of the node and a dict of the node's attributes (int,
    float, str, lists of them; tensors and graphs as onnx messages); it returns one entry per
    output (a shorter list leaves the rest unknown): a :class:`ValueType`, an
    ``onnx.TypeProto``, an ``(elem_type, shape)`` pair such as ``("float", ("N", 2*k))``, or
    None. Dims may be expressions of the input's symbols as strings: ``f"{d} * 2"`` of
    ``"N"`` gives ``2*N``. An exception raised by ``rule`` becomes an error diagnostic on
    the node. The rule runs under the GIL, called from the inferring thread.

    The signature defaults to any number of inputs and outputs of any tensor type; give
    ``inputs``, ``outputs``, ``attributes`` and ``type_constraints`` in the JSON form of
    docs/custom-ops.md to have nodes checked against it (an attribute the schema does not
    declare is a warning). Registering the same version again replaces it.
    """
    if not callable(rule):
        raise TypeError("rule must be callable")
    if inputs is None and outputs is None and type_constraints is None:
        inputs = [{"name": "inputs", "type": "T", "option": "variadic",
                   "homogeneous": False, "min_arity": 0}]
        outputs = [{"name": "outputs", "type": "T", "option": "variadic",
                    "homogeneous": False, "min_arity": 1}]
        type_constraints = [{"type_param": "T", "allowed": _all_tensor_types()}]
    document = {"domain": domain, "operators": [{
        "name": op_type, "since_version": since_version, "inputs": list(inputs or []),
        "outputs": list(outputs or []), "attributes": list(attributes),
        "type_constraints": list(type_constraints or [])}]}

    def adapter(input_types, attrs, num_outputs):
        types = [from_tuple(t) for t in input_types]
        values = {name: _attribute_value(v) for name, v in attrs.items()}
        result = rule(types, values)
        if result is None:
            return None
        return [to_rule_tuple(r) for r in result]

    _core.register_rule(json.dumps(document), domain, op_type, since_version, adapter)


def reset_schemas() -> None:
    """Forgets every operator registered with :func:`register_schemas` and :func:`register_op`."""
    _core.reset_registry()


class SessionUpdate(NamedTuple):
    """What one :meth:`Session.update` changed: the main-graph values whose type changed
    (sorted names), the diagnostics added and removed, and whether only the edited nodes
    were re-inferred (``incremental``) rather than the whole model."""
    changed_values: List[str]
    added_diagnostics: List[Diagnostic]
    removed_diagnostics: List[Diagnostic]
    incremental: bool


def _message_bytes(message: Any, what: str) -> bytes:
    if isinstance(message, (bytes, bytearray, memoryview)):
        return bytes(message)
    serialize = getattr(message, "SerializeToString", None)
    if serialize is None:
        raise TypeError(f"expected an onnx {what} or its bytes, not {type(message).__name__}")
    return serialize()


class Session:
    """A model held for editing: inferred once, then re-inferred after each batch of edits
    by :meth:`update`, which re-infers only the edited nodes when that provably changes
    nothing else, and the whole model otherwise. After every update the results are exactly
    those of a fresh :func:`infer_shapes` of the edited model (types written, diagnostics,
    facts); ``stats()`` counts the incremental and the full updates (docs/python.md).

    ``model``: an ``onnx.ModelProto``, the bytes of one, or a path. Edits address the main
    graph (node indices are positions in its node list) and take onnx messages (or their
    bytes): a ``NodeProto``, ``AttributeProto``, ``TensorProto``, ``TypeProto``,
    ``ValueInfoProto``. An edit that cannot apply raises ``ValueError`` and changes nothing.
    One session per thread.
    """

    def __init__(self, model: Any, *, strict: bool = False, check_types: bool = True,
                 policy: str = "inferred", data_prop: bool = True,
                 max_value_elements: int = 1024) -> None:
        if isinstance(model, (str, os.PathLike)):
            with open(model, "rb") as f:
                data = f.read()
        elif isinstance(model, (bytes, bytearray, memoryview)):
            data = bytes(model)
        elif _is_model_proto(model):
            data = _serialize_model(model)
        else:
            raise TypeError("Session takes an onnx.ModelProto, its bytes or a path, "
                            f"not {type(model).__name__}")
        options = _options(strict, data_prop, max_value_elements, check_types=check_types,
                           policy=policy)
        self._core = _core.Session(data, options)

    def replace_node(self, index: int, node: Any) -> None:
        self._core.replace_node(index, _message_bytes(node, "NodeProto"))

    def insert_node(self, index: int, node: Any) -> None:
        """Inserts ``node`` before node ``index`` (the node count appends)."""
        self._core.insert_node(index, _message_bytes(node, "NodeProto"))

    def remove_node(self, index: int) -> None:
        self._core.remove_node(index)

    def set_node_attribute(self, index: int, attribute: Any) -> None:
        """Adds or replaces (by name) one attribute of node ``index``."""
        self._core.set_node_attribute(index, _message_bytes(attribute, "AttributeProto"))

    def set_initializer(self, tensor: Any) -> None:
        """Replaces the initializer of ``tensor.name``, or adds it."""
        self._core.set_initializer(_message_bytes(tensor, "TensorProto"))

    def set_input_type(self, name: str, type_proto: Any) -> None:
        self._core.set_input_type(name, _message_bytes(type_proto, "TypeProto"))

    def add_output(self, output: Any) -> None:
        """Adds a graph output: a ``ValueInfoProto`` (its type may be unset) or a name."""
        if isinstance(output, str):
            onnx = _onnx_or_none()
            if onnx is None:
                raise TypeError("add_output(name) needs the onnx package; pass bytes")
            output = onnx.ValueInfoProto(name=output)
        self._core.add_output(_message_bytes(output, "ValueInfoProto"))

    def remove_output(self, name: str) -> None:
        self._core.remove_output(name)

    def rename_value(self, old: str, new: str) -> None:
        """Renames a value everywhere in the main graph (and where its subgraphs read it)."""
        self._core.rename_value(old, new)

    def update(self) -> SessionUpdate:
        """Infers the pending edits; returns what changed."""
        u = self._core.update()
        return SessionUpdate(u["changed_values"], u["added_diagnostics"],
                             u["removed_diagnostics"], u["incremental"])

    @property
    def dirty(self) -> bool:
        """Whether edits are pending (``update()`` not called since)."""
        return self._core.dirty()

    def type_of(self, name: str) -> Optional[ValueType]:
        """The type of a main-graph input, node output or output as of the last update;
        None when the value does not exist or nothing is known of it."""
        t = self._core.type_of(name)
        return None if t is None else from_tuple(t)

    @property
    def num_nodes(self) -> int:
        """The number of nodes of the edited model's main graph."""
        return self._core.num_nodes()

    def node(self, index: int) -> Any:
        """Node ``index`` of the edited main graph, as an ``onnx.NodeProto`` (bytes without
        the onnx package): one node crosses, not the model."""
        data = self._core.node(index)
        onnx = _onnx_or_none()
        if onnx is None:
            return data
        node = onnx.NodeProto()
        node.ParseFromString(data)
        return node

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return self._core.diagnostics()

    @property
    def facts(self) -> List[str]:
        return self._core.facts()

    def stats(self) -> Dict[str, Any]:
        """``incremental_updates``, ``full_updates``, ``empty_updates``, ``nodes_inferred``,
        and ``full_reasons``: ``{reason: count}``, why each full update was not incremental
        (``"structural edit"``, ``"model"``, ``"node with findings"``, ...)."""
        return self._core.stats()

    def model(self) -> Any:
        """The edited model with the annotations of the last update, as a new
        ``onnx.ModelProto`` (bytes without the onnx package)."""
        data = self._core.model()
        onnx = _onnx_or_none()
        if onnx is None:
            return data
        model = onnx.ModelProto()
        model.ParseFromString(data)
        return model

    def edited_model(self) -> Any:
        """The edited model as edited, without inference's annotations (as :meth:`model`)."""
        data = self._core.edited_model()
        onnx = _onnx_or_none()
        if onnx is None:
            return data
        model = onnx.ModelProto()
        model.ParseFromString(data)
        return model
