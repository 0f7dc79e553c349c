import os
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional,
                    Sequence, Tuple, Union, overload)

from onnx_infer._core import Diagnostic as Diagnostic

__all__ = [
    "CostEstimate", "CostNode", "CostValues",
    "Diagnostic", "InferenceError", "InferenceResult", "MemoryEstimate", "MemoryStep", "Symbol",
    "ValueType", "infer",
    "infer_node_outputs", "infer_shapes", "infer_shapes_path", "register_op",
    "register_schemas", "reset_schemas",
]
__version__: str

_PathLike = Union[str, os.PathLike[str]]
_Dim = Union[int, str, None]

# A subclass of onnx.shape_inference.InferenceError when onnx is installed (made on first use).
class InferenceError(Exception):
    diagnostics: List[Diagnostic]
    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ...) -> None: ...

class ValueType:
    kind: str  # "tensor", "sparse_tensor", "sequence", "optional", "map", "opaque"
    elem_type: int  # onnx.TensorProto data type; 0 when unknown
    shape: Optional[Tuple[_Dim, ...]]  # None: rank unknown
    element: Optional[ValueType]  # a sequence's or optional's element, a map's value
    key_type: int  # a map's key data type
    def __init__(self, elem_type: Union[int, str] = ..., shape: Optional[Sequence[_Dim]] = ...,
                 *, kind: str = ..., element: Optional[ValueType] = ...,
                 key_type: Union[int, str] = ...) -> None: ...
    @property
    def elem_type_name(self) -> str: ...
    @property
    def rank(self) -> Optional[int]: ...
    @property
    def fully_shaped(self) -> bool: ...
    def to_onnx(self) -> Any: ...  # onnx.TypeProto

class Symbol(NamedTuple):
    name: str
    declared: bool
    origin: str

_Bytes = Union[int, str, None]  # a number, an expression of symbols, or unknown

class MemoryStep(NamedTuple):
    node_index: int
    node_name: str
    op_type: str
    live_bytes: _Bytes
    unknown_values: int

class MemoryEstimate:
    values: Dict[str, Dict[str, _Bytes]]
    weight_bytes: _Bytes
    weights: int
    weights_of_unknown_size: int
    steps: List[MemoryStep]
    peak_bytes: _Bytes
    peak_decided: bool
    peak_nodes: List[int]
    activations_of_unknown_size: int

class CostNode(NamedTuple):
    graph: str
    node_index: int
    node_name: str
    op: str
    kind: str  # "formula", "data movement" or "no formula"
    flops: _Bytes
    macs: _Bytes
    lower_bound: bool
    per_iteration: bool
    note: str

class CostValues(NamedTuple):
    total_flops: Optional[int]
    total_macs: Optional[int]
    nodes: List[Tuple[Optional[int], Optional[int]]]
    unbound_symbols: List[str]

class CostEstimate:
    nodes: List[CostNode]
    total_flops: _Bytes
    total_macs: _Bytes
    ops_without_formula: Dict[str, int]
    nodes_without_formula: int
    nodes_unknown_shape: int
    lower_bound: bool
    per_iteration_loops: int
    def evaluate(self, binding: Mapping[str, int]) -> CostValues: ...

class InferenceResult:
    values: Dict[str, Dict[str, Optional[ValueType]]]
    symbols: List[Symbol]
    facts: List[str]
    conditions: List[str]
    diagnostics: List[Diagnostic]
    stats: Dict[str, int]
    model: Any  # onnx.ModelProto, bytes, or None for a path
    memory: Optional[MemoryEstimate]  # with infer(..., memory=True)
    cost: Optional[CostEstimate]  # with infer(..., cost=True)
    findings: Optional[List[Dict[str, Any]]]  # with infer(..., lint=True)
    value_report: List[Dict[str, Any]]  # the --json-values report's "values"
    @property
    def errors(self) -> List[Diagnostic]: ...
    def type_of(self, name: str, graph: str = ...) -> Optional[ValueType]: ...
    def raise_for_errors(self, source: str = ...) -> None: ...

def infer_shapes(
    model: Any,  # onnx.ModelProto or bytes; a new onnx.ModelProto (bytes without onnx)
    check_type: bool = ...,
    strict_mode: bool = ...,
    data_prop: bool = ...,
    *,
    max_expanded_nodes: Optional[int] = ...,
    overridable_initializers: bool = ...,
) -> Any: ...
def infer_shapes_path(
    model_path: _PathLike,
    output_path: _PathLike = ...,
    check_type: bool = ...,
    strict_mode: bool = ...,
    data_prop: bool = ...,
    *,
    max_expanded_nodes: Optional[int] = ...,
    overridable_initializers: bool = ...,
) -> None: ...
def infer_node_outputs(
    schema: Any,  # onnx.defs.OpSchema or the op_type
    node: Any,  # onnx.NodeProto
    input_types: Mapping[str, Any],  # onnx.TypeProto by input name
    input_data: Optional[Mapping[str, Any]] = ...,  # onnx.TensorProto by input name
    input_sparse_data: Optional[Mapping[str, Any]] = ...,
    opset_imports: Optional[Any] = ...,  # OperatorSetIdProto list or {domain: version}
    ir_version: Optional[int] = ...,
) -> Dict[str, Any]: ...  # onnx.TypeProto by output name
def infer(
    model: Any,  # onnx.ModelProto, bytes or a path
    *,
    data_prop: bool = ...,
    strict: bool = ...,
    schemas: Iterable[Any] = ...,  # paths, JSON text or dicts
    max_value_elements: int = ...,
    output_path: Optional[_PathLike] = ...,
    assume: Iterable[str] = ...,  # lower bounds: "S >= 2"
    assume_positive: bool = ...,
    bind: Optional[Mapping[str, int]] = ...,  # {"B": 1, "S": 128}
    input_shapes: Optional[Mapping[str, Sequence[_Dim]]] = ...,  # {"x": (1, 3, "H", "W")}
    input_values: Optional[Mapping[str, Any]] = ...,  # {"sr": 16000, "pads": [0, 1, 0, 1]}
    memory: bool = ...,
    cost: bool = ...,
    lint: bool = ...,
    max_expanded_nodes: Optional[int] = ...,
    check_types: bool = ...,
    overridable_initializers: bool = ...,
    policy: str = ...,  # "inferred", "refine", "override" or "strict"
) -> InferenceResult: ...
def register_schemas(path_or_text: Any) -> None: ...
def register_op(
    domain: str,
    op_type: str,
    rule: Callable[[List[Optional[ValueType]], Dict[str, Any]], Optional[Sequence[Any]]],
    *,
    since_version: int = ...,
    inputs: Optional[Sequence[Mapping[str, Any]]] = ...,
    outputs: Optional[Sequence[Mapping[str, Any]]] = ...,
    attributes: Sequence[Mapping[str, Any]] = ...,
    type_constraints: Optional[Sequence[Mapping[str, Any]]] = ...,
) -> None: ...
def reset_schemas() -> None: ...
def infer_function_output_types(
    function: Any,  # onnx.FunctionProto
    input_types: Sequence[Any],  # onnx.TypeProto per function input
    attributes: Sequence[Any],  # onnx.AttributeProto
) -> List[Any]: ...  # onnx.TypeProto per function output
