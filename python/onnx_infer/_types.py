"""ValueType: the type of a value as onnx_infer reports it and Python rules receive it."""

from typing import Any, Optional, Tuple, Union

from onnx_infer import _core

Dim = Union[int, str, None]


class ValueType:
    """The type of one value: a tensor's element type and shape, or a sequence, optional or map
    of such types.

    ``kind`` is ``"tensor"``, ``"sparse_tensor"``, ``"sequence"``, ``"optional"``, ``"map"`` or
    ``"opaque"``. For tensors, ``elem_type`` is the ONNX data type (``onnx.TensorProto.FLOAT``
    is 1; 0 when unknown) and ``shape`` a tuple of dims or ``None`` when the rank is unknown; a
    dim is an ``int``, a ``str`` (a symbol or an expression of symbols such as ``"N + 5"`` or
    ``"floor(H/2)"``, docs/symbolic.md) or ``None`` (unknown). ``element`` is a sequence's or
    optional's element type and a map's value type; ``key_type`` a map's key data type.

    ``ValueType("float", ("N", 3))`` makes a tensor type; the element type may be given by
    name or number. ``str()`` gives the engine's notation: ``float[N, 3]``.
    """

    __slots__ = ("kind", "elem_type", "shape", "element", "key_type", "_text")

    def __init__(self, elem_type: Union[int, str] = 0, shape: Optional[Tuple[Dim, ...]] = None,
                 *, kind: str = "tensor", element: Optional["ValueType"] = None,
                 key_type: Union[int, str] = 0):
        if isinstance(elem_type, str):
            number = _core.data_type_from_name(elem_type)
            if number is None:
                raise ValueError(f"unknown element type {elem_type!r}")
            elem_type = number
        if isinstance(key_type, str):
            number = _core.data_type_from_name(key_type)
            if number is None:
                raise ValueError(f"unknown key type {key_type!r}")
            key_type = number
        if kind not in ("tensor", "sparse_tensor", "sequence", "optional", "map", "opaque"):
            raise ValueError(f"unknown kind {kind!r}")
        self.kind = kind
        self.elem_type = int(elem_type)
        self.shape = tuple(shape) if shape is not None else None
        self.element = element
        self.key_type = int(key_type)
        self._text = None

    @property
    def elem_type_name(self) -> str:
        """The element type's name: ``"float"``, ``"int64"`` (``"?"`` when unknown)."""
        return _core.data_type_name(self.elem_type) if self.elem_type else "?"

    @property
    def rank(self) -> Optional[int]:
        return None if self.shape is None else len(self.shape)

    @property
    def fully_shaped(self) -> bool:
        """A tensor whose element type and every dim are known (numbers or symbols)."""
        return (self.kind == "tensor" and self.elem_type != 0 and self.shape is not None and
                all(d is not None for d in self.shape))

    def to_tuple(self) -> Any:
        if self.kind in ("tensor", "sparse_tensor"):
            return (self.kind, self.elem_type, self.shape)
        if self.kind in ("sequence", "optional"):
            return (self.kind, _to_tuple(self.element))
        if self.kind == "map":
            return ("map", self.key_type, _to_tuple(self.element))
        raise ValueError("an opaque type cannot be returned by a rule")

    def to_onnx(self) -> Any:
        """The type as an ``onnx.TypeProto`` (needs the ``onnx`` package)."""
        import onnx
        proto = onnx.TypeProto()
        _fill_type_proto(self, proto)
        return proto

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValueType):
            return NotImplemented
        return (self.kind, self.elem_type, self.shape, self.element, self.key_type) == (
            other.kind, other.elem_type, other.shape, other.element, other.key_type)

    def __hash__(self) -> int:
        return hash((self.kind, self.elem_type, self.shape, self.key_type))

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        if self.kind in ("tensor", "sparse_tensor"):
            text = self.elem_type_name if self.elem_type else "?"
            if self.shape is not None:
                text += "[" + ", ".join("?" if d is None else str(d) for d in self.shape) + "]"
            return text if self.kind == "tensor" else f"sparse_tensor({text})"
        if self.kind in ("sequence", "optional"):
            inner = str(self.element) if self.element is not None else "?"
            return f"{'seq' if self.kind == 'sequence' else 'optional'}({inner})"
        if self.kind == "map":
            return f"map({_core.data_type_name(self.key_type)}, {self.element})"
        return "opaque"

    def __repr__(self) -> str:
        return f"<onnx_infer.ValueType {self}>"


def _to_tuple(t: Optional[ValueType]) -> Any:
    return None if t is None else t.to_tuple()


def from_tuple(t: Any) -> Optional[ValueType]:
    """A ValueType from _core's tuple form (None for unknown)."""
    if t is None:
        return None
    kind = t[0]
    if kind in ("tensor", "sparse_tensor"):
        v = ValueType(t[1], t[2], kind=kind)
    elif kind in ("sequence", "optional"):
        v = ValueType(kind=kind, element=from_tuple(t[1]))
    elif kind == "map":
        v = ValueType(kind="map", key_type=t[1], element=from_tuple(t[2]))
    else:
        v = ValueType(kind="opaque")
    v._text = t[-1]
    return v


def from_onnx(proto: Any) -> Optional[ValueType]:
    """A ValueType from an ``onnx.TypeProto`` (None when it says nothing)."""
    which = proto.WhichOneof("value")
    if which in ("tensor_type", "sparse_tensor_type"):
        tt = getattr(proto, which)
        shape = None
        if tt.HasField("shape"):
            shape = tuple(d.dim_value if d.HasField("dim_value") else
                          (d.dim_param or None) for d in tt.shape.dim)
        return ValueType(tt.elem_type, shape, kind=which[:-5])
    if which == "sequence_type":
        return ValueType(kind="sequence", element=from_onnx(proto.sequence_type.elem_type))
    if which == "optional_type":
        return ValueType(kind="optional", element=from_onnx(proto.optional_type.elem_type))
    if which == "map_type":
        return ValueType(kind="map", key_type=proto.map_type.key_type,
                         element=from_onnx(proto.map_type.value_type))
    return None


def _fill_type_proto(t: ValueType, proto: Any) -> None:
    if t.kind in ("tensor", "sparse_tensor"):
        tt = proto.tensor_type if t.kind == "tensor" else proto.sparse_tensor_type
        tt.elem_type = t.elem_type
        if t.shape is not None:
            shape = tt.shape
            shape.SetInParent()
            for d in t.shape:
                dim = shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                elif isinstance(d, str):
                    dim.dim_param = d
    elif t.kind in ("sequence", "optional"):
        inner = proto.sequence_type if t.kind == "sequence" else proto.optional_type
        inner.SetInParent()
        if t.element is not None:
            _fill_type_proto(t.element, inner.elem_type)
    elif t.kind == "map":
        proto.map_type.key_type = t.key_type
        if t.element is not None:
            _fill_type_proto(t.element, proto.map_type.value_type)


def to_rule_tuple(value: Any) -> Any:
    """What a Python rule may return for one output, as _core's tuple: a ValueType, an
    ``onnx.TypeProto``, a ``(elem_type, shape)`` pair, or None."""
    if value is None:
        return None
    if isinstance(value, ValueType):
        return value.to_tuple()
    if isinstance(value, tuple) and len(value) == 2:
        return ValueType(value[0], value[1]).to_tuple()
    if hasattr(value, "WhichOneof"):  # an onnx.TypeProto
        t = from_onnx(value)
        return None if t is None else t.to_tuple()
    raise TypeError(f"a rule returns ValueType, onnx.TypeProto, (elem_type, shape) or None "
                    f"for each output, not {type(value).__name__}")
