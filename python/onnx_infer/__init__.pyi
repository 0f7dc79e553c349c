import os
from typing import Any, List, Sequence, Union, overload

from onnx_infer._core import Diagnostic as Diagnostic

__all__ = ["Diagnostic", "InferenceError", "infer_shapes", "infer_shapes_path"]
__version__: str

class InferenceError(Exception):
    diagnostics: List[Diagnostic]
    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ...) -> None: ...

@overload
def infer_shapes(
    model: bytes,
    check_type: bool = ...,
    strict_mode: bool = ...,
    data_prop: bool = ...,
) -> bytes: ...
@overload
def infer_shapes(
    model: Any,  # onnx.ModelProto, returned as a new onnx.ModelProto
    check_type: bool = ...,
    strict_mode: bool = ...,
    data_prop: bool = ...,
) -> Any: ...
def infer_shapes_path(
    model_path: Union[str, os.PathLike[str]],
    output_path: Union[str, os.PathLike[str]] = ...,
    check_type: bool = ...,
    strict_mode: bool = ...,
    data_prop: bool = ...,
) -> None: ...
