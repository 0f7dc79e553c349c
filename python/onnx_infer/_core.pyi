from typing import Any, Callable, Dict, List, Optional, Tuple

class Diagnostic:
    """One finding of inference: where it is and what was expected."""
    @property
    def severity(self) -> str: ...  # "error", "warning" or "note"
    @property
    def graph(self) -> str: ...  # "main", "main/If_3.then_branch"
    @property
    def node_index(self) -> int: ...  # -1 when not about a node
    @property
    def node_name(self) -> str: ...
    @property
    def op(self) -> str: ...  # "ai.onnx::Concat-13"
    @property
    def code(self) -> str: ...  # the stable code: "OI2101" (docs/diagnostics.md)
    @property
    def kind(self) -> str: ...  # the code's name: "signature", "type-constraint", ...
    @property
    def subject_kind(self) -> str: ...  # "input", "output", "attribute" or ""
    @property
    def subject_index(self) -> int: ...
    @property
    def subject_name(self) -> str: ...
    @property
    def message(self) -> str: ...
    def render(self, source: str = ...) -> str: ...

class CallOptions:
    strict: bool
    policy: str  # "inferred", "refine", "override" or "strict"
    data_propagation: bool
    max_value_elements: int
    max_expanded_nodes: int
    schemas: List[Tuple[str, str]]  # (JSON text, source name)
    assumptions: List[str]  # "S >= 2"
    assume_positive: bool
    check_types: bool
    overridable_initializers: bool
    raise_on_contradiction: bool
    bind: Dict[str, int]
    input_shapes: Dict[str, List[str]]  # dims as text: "1", "H", "N + 1", "?"
    # (name, integer elements, real elements, dims, fit_dims)
    input_values: List[Tuple[str, List[int], List[float], List[int], bool]]
    input_tensors: List[Tuple[str, bytes]]  # (name, serialized TensorProto)
    memory: bool
    cost: bool
    lint: bool
    def __init__(self) -> None: ...

class CostEstimate:
    def evaluate(self, binding: Dict[str, int]) -> Tuple[
        Optional[int], Optional[int], List[Tuple[Optional[int], Optional[int]]], List[str]]: ...

def parse_assumption(text: str) -> Tuple[str, Optional[int], Optional[int]]: ...

# Types cross as tuples: None, ("tensor" | "sparse_tensor", elem_type, dims | None, text),
# ("sequence" | "optional", element, text), ("map", key, value, text), ("opaque", d, n, text).
def infer_bytes(model: bytes, options: CallOptions, details: bool) -> Tuple[bytes, Any]: ...
def infer_file(model_path: str, output_path: str, options: CallOptions, details: bool) -> Any: ...
def infer_node(
    node: bytes, opsets: Dict[str, int], input_types: Dict[str, bytes],
    input_values: Dict[str, bytes], strict: bool, check_types: bool = ...
) -> Tuple[Dict[str, bytes], List[Diagnostic]]: ...
def register_schemas(text: str, source: str) -> None: ...
def register_rule(
    schema_json: str, domain: str, name: str, since_version: int,
    rule: Callable[[List[Any], Dict[str, Any], int], Optional[List[Any]]]
) -> None: ...
def reset_registry() -> None: ...
def newest_opset(domain: str) -> Optional[int]: ...
def data_type_name(data_type: int) -> str: ...
def data_type_from_name(name: str) -> Optional[int]: ...
