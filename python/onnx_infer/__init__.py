"""onnx_infer: type and shape inference for ONNX models, with symbolic dimensions.

A drop-in for ``onnx.shape_inference``: the same names, parameters, defaults and return
kinds, over onnx-infer's C++ engine::

    import onnx_infer
    inferred = onnx_infer.infer_shapes(model)            # onnx.ModelProto in and out
    data = onnx_infer.infer_shapes(model_bytes)          # bytes in and out
    onnx_infer.infer_shapes_path("model.onnx", "inferred.onnx")

The ``onnx`` package is optional: bytes and paths work without it. How ``check_type``,
``strict_mode`` and ``data_prop`` map onto the engine is described in docs/python.md and in
each function's docstring.
"""

import os
from typing import Any, List, Sequence, Union

from onnx_infer._core import Diagnostic
from onnx_infer import _core

__all__ = ["Diagnostic", "InferenceError", "infer_shapes", "infer_shapes_path"]
__version__ = "0.1.0"


class InferenceError(Exception):
    """Raised in strict mode when inference finds errors.

    The message holds every error diagnostic rendered on its own line; ``diagnostics``
    holds them all (errors, warnings and notes) as :class:`Diagnostic` objects.
    """

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()):
        super().__init__(message)
        self.diagnostics: List[Diagnostic] = list(diagnostics)


def _raise_on_errors(diagnostics: Sequence[Diagnostic], source: str) -> None:
    errors = [d for d in diagnostics if d.severity == "error"]
    if not errors:
        return
    lines = "\n".join(d.render(source) for d in errors)
    count = f"{len(errors)} error" + ("" if len(errors) == 1 else "s")
    raise InferenceError(f"shape inference found {count}:\n{lines}", diagnostics)


def infer_shapes(
    model: Any,
    check_type: bool = False,
    strict_mode: bool = False,
    data_prop: bool = False,
) -> Any:
    """Infers the type and shape of every value of ``model``.

    ``model`` is an ``onnx.ModelProto`` (a new, annotated ``onnx.ModelProto`` is returned;
    the argument is left as it was) or the bytes of a binary model (annotated bytes are
    returned). Intermediate values get ``value_info`` entries; graph outputs that are
    undeclared or declared less precisely get their inferred types. Symbolic dimensions are
    kept and derived (``N``, ``N + 5``, ``2*seq``).

    ``check_type``: accepted for compatibility; the engine always checks node inputs against
    their operators' type constraints, so it changes nothing.
    ``strict_mode``: a missing schema or rule, or a declared type that contradicts the
    inferred one, is an error instead of a warning, and any error raises
    :class:`InferenceError`. Without it, errors never raise: what cannot be inferred is left
    unknown, as ONNX does.
    ``data_prop``: accepted for compatibility; the engine always propagates values computed
    from shapes (Shape, Gather, Concat, arithmetic...), so its results include those ONNX
    gets with ``data_prop=True`` either way.

    Raises ``TypeError`` for another kind of ``model``, ``ValueError`` when the bytes are not
    a model.
    """
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, diagnostics = _core.infer_shapes_bytes(bytes(model), bool(strict_mode), True)
        if strict_mode:
            _raise_on_errors(diagnostics, "<bytes>")
        return data
    try:
        import onnx  # optional: only a ModelProto needs it
    except ImportError:
        onnx = None
    if onnx is None or not isinstance(model, onnx.ModelProto):
        raise TypeError(
            "infer_shapes only accepts onnx.ModelProto or bytes, "
            f"you passed a {type(model).__name__}")
    data, diagnostics = _core.infer_shapes_bytes(
        model.SerializeToString(), bool(strict_mode), True)
    if strict_mode:
        _raise_on_errors(diagnostics, "<model>")
    inferred = onnx.ModelProto()
    inferred.ParseFromString(data)
    return inferred


def infer_shapes_path(
    model_path: Union[str, "os.PathLike[str]"],
    output_path: Union[str, "os.PathLike[str]"] = "",
    check_type: bool = False,
    strict_mode: bool = False,
    data_prop: bool = False,
) -> None:
    """Infers the model file at ``model_path`` and writes the annotated model.

    The model is written to ``output_path``, or back to ``model_path`` when that is empty, as
    ``onnx.shape_inference.infer_shapes_path`` does; the write is atomic (a temporary file
    renamed over the target). The file may be binary or the ONNX text syntax; the output is
    binary. External data is never loaded: only small integer initializers stored beside the
    model (inside its directory) are read, when a node needs their values. The parameters
    mean what they mean for :func:`infer_shapes`; in strict mode with errors nothing is
    written and :class:`InferenceError` is raised.

    Raises ``TypeError`` when given a ``ModelProto`` instead of a path, ``ValueError`` when
    the file cannot be read as a model or the output cannot be written.
    """
    if not isinstance(model_path, (str, os.PathLike)):
        raise TypeError(
            "infer_shapes_path only accepts a path (str or os.PathLike) as model_path, "
            f"you passed a {type(model_path).__name__}; use infer_shapes for a model")
    model_path = os.fspath(model_path)
    output_path = os.fspath(output_path) or model_path
    diagnostics = _core.infer_shapes_file(model_path, output_path, bool(strict_mode), True)
    if strict_mode:
        _raise_on_errors(diagnostics, model_path)
