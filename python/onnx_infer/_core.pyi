from typing import List, Tuple

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
    def subject_kind(self) -> str: ...  # "input", "output", "attribute" or ""
    @property
    def subject_index(self) -> int: ...
    @property
    def subject_name(self) -> str: ...
    @property
    def message(self) -> str: ...
    def render(self, source: str = ...) -> str: ...

def infer_shapes_bytes(
    model: bytes, strict: bool, data_propagation: bool
) -> Tuple[bytes, List[Diagnostic]]: ...
def infer_shapes_file(
    model_path: str, output_path: str, strict: bool, data_propagation: bool
) -> List[Diagnostic]: ...
