"""What the parity tests compare: the types of a model's main-graph values, as plain data.

``main_graph_types(model)`` maps each graph input, value_info entry and graph output of the
main graph to ``[kind, elem_type, dims]``: kind is "tensor" (or "sparse_tensor",
"sequence", "map", "optional" with elem_type and dims None), elem_type the TensorProto data
type (0 when unknown), dims None for an unknown rank, else a list whose items are an int
(dim_value), a str (dim_param) or None (neither). Used by the child that runs ONNX and by the
test that reads our output, so both sides are read the same way.
"""
import re



def _tensor_entry(kind, tensor_type):
    dims = None
    if tensor_type.HasField("shape"):
        dims = []
        for d in tensor_type.shape.dim:
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            elif d.HasField("dim_param") and d.dim_param:
                dims.append(d.dim_param)
            else:
                dims.append(None)
    return [kind, int(tensor_type.elem_type), dims]


def type_entry(type_proto):
    which = type_proto.WhichOneof("value")
    if which == "tensor_type":
        return _tensor_entry("tensor", type_proto.tensor_type)
    if which == "sparse_tensor_type":
        return _tensor_entry("sparse_tensor", type_proto.sparse_tensor_type)
    if which is None:
        return None
    return [which.replace("_type", ""), None, None]


def main_graph_types(model):
    out = {}
    g = model.graph
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        if vi.HasField("type"):
            entry = type_entry(vi.type)
            if entry is not None:
                out[vi.name] = entry
    return out


def known_dim(d):
    """A number that is not negative, or a symbol other than the fresh `unk__N` names ONNX
    gives dims it does not know (a name for "unknown", not knowledge)."""
    if isinstance(d, int):
        return d >= 0
    return isinstance(d, str) and not re.fullmatch(r"unk__\d+", d)


def fully_shaped(entry):
    """Every dim known (see known_dim)."""
    return (entry is not None and entry[0] == "tensor" and entry[1] != 0 and
            entry[2] is not None and all(known_dim(d) for d in entry[2]))


def compare(reference, ours):
    """Problems of `ours` against ONNX's `reference` (both main_graph_types results): for every
    value ONNX types, ours must have the same kind and element type, the same rank where ONNX
    knows it, and the same number wherever ONNX's dim is a number (not negative: ONNX copies
    a model's `dim_value: -1` through as if it were one). Symbols may differ in name
    (each tool names its own) and ours may know more."""
    problems = []
    for name, ref in reference.items():
        if ref[0] != "tensor" or ref[1] == 0:
            if ref[0] != "tensor" and ref[0] is not None:
                mine = ours.get(name)
                if mine is None or mine[0] != ref[0]:
                    problems.append(f"{name}: ONNX infers a {ref[0]}, we give {mine}")
            continue
        mine = ours.get(name)
        if mine is None or mine[0] != "tensor" or mine[1] == 0:
            problems.append(f"{name}: ONNX infers {ref}, we give {mine}")
            continue
        if mine[1] != ref[1]:
            problems.append(f"{name}: element type {mine[1]}, ONNX says {ref[1]}")
            continue
        if ref[2] is None:
            continue
        if mine[2] is None or len(mine[2]) != len(ref[2]):
            problems.append(f"{name}: shape {mine[2]}, ONNX says {ref[2]}")
            continue
        for i, (r, m) in enumerate(zip(ref[2], mine[2])):
            # A negative dim_value (a model's `-1` for "any") is no dim ONNX knows.
            if isinstance(r, int) and r >= 0 and m != r:
                problems.append(f"{name}: dim {i} is {m!r}, ONNX says {r}")
                break
    return problems
