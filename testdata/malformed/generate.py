#!/usr/bin/env python3
"""Writes the binary cases of the malformed-model corpus (docs/testing.md).

The bytes are encoded by hand, without the onnx package, so that they can be anything a
hostile file may hold: truncations, bad wire types, names that are not UTF-8, nesting past
the parser's limit. Run from anywhere; it rewrites the .onnx files it owns and nothing else:
    testdata/malformed/generate.py
The .expect files beside them are written by hand.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def vint(field, n):  # a varint field
    return key(field, 0) + varint(n)


def ld(field, payload):  # a length-delimited field (bytes, string, message)
    if isinstance(payload, str):
        payload = payload.encode()
    return key(field, 2) + varint(len(payload)) + payload


# onnx.proto field numbers used here.
MODEL_IR_VERSION, MODEL_GRAPH, MODEL_OPSET = 1, 7, 8
OPSET_DOMAIN, OPSET_VERSION = 1, 2
GRAPH_NODE, GRAPH_NAME, GRAPH_INPUT, GRAPH_OUTPUT = 1, 2, 11, 12
NODE_INPUT, NODE_OUTPUT, NODE_NAME, NODE_OP_TYPE, NODE_ATTRIBUTE = 1, 2, 3, 4, 5
ATTR_NAME, ATTR_G, ATTR_TYPE = 1, 6, 20
VALUE_NAME, VALUE_TYPE = 1, 2
TYPE_TENSOR = 1
TENSOR_ELEM_TYPE, TENSOR_SHAPE = 1, 2
SHAPE_DIM = 1
DIM_VALUE, DIM_PARAM = 1, 2


def opset(version, domain=b""):
    return ld(MODEL_OPSET, ld(OPSET_DOMAIN, domain) + vint(OPSET_VERSION, version))


def tensor_value(name, elem_type, dims):
    shape = b"".join(
        ld(SHAPE_DIM, vint(DIM_VALUE, d) if isinstance(d, int) else ld(DIM_PARAM, d))
        for d in dims)
    tensor = vint(TENSOR_ELEM_TYPE, elem_type) + ld(TENSOR_SHAPE, shape)
    return ld(VALUE_NAME, name) + ld(VALUE_TYPE, ld(TYPE_TENSOR, tensor))


def node(op_type, inputs, outputs, name=None, attrs=b""):
    out = b"".join(ld(NODE_INPUT, i) for i in inputs)
    out += b"".join(ld(NODE_OUTPUT, o) for o in outputs)
    if name is not None:
        out += ld(NODE_NAME, name)
    return out + ld(NODE_OP_TYPE, op_type) + attrs


def model(graph, opsets=(17,), ir_version=8):
    return (vint(MODEL_IR_VERSION, ir_version) + b"".join(opset(v) for v in opsets) +
            ld(MODEL_GRAPH, graph))


def relu_graph(x=b"x", y=b"y", dim=b"N", node_name=None, op=b"Relu"):
    return (ld(GRAPH_NODE, node(op, [x], [y], node_name)) + ld(GRAPH_NAME, b"g") +
            ld(GRAPH_INPUT, tensor_value(x, 1, [dim, 2])) + ld(GRAPH_OUTPUT, ld(VALUE_NAME, y)))


def nested_ifs(depth):
    """A graph whose node holds a graph attribute, `depth` levels down."""
    graph = b""
    for _ in range(depth):
        attr = ld(ATTR_NAME, b"then_branch") + vint(ATTR_TYPE, 5) + ld(ATTR_G, graph)
        graph = ld(GRAPH_NODE, node(b"If", [b"c"], [b"o"], attrs=ld(NODE_ATTRIBUTE, attr)))
    return graph


GOOD = model(relu_graph())

CASES = {
    "bytes/empty": b"",
    "bytes/garbage": b"\xff\xff\xff\xff\xff\xff\x0f\x01",
    "bytes/truncated": GOOD[:len(GOOD) - 5],
    "bytes/truncated_varint": b"\x08\xff\xff",
    "bytes/length_past_end": ld(MODEL_GRAPH, b"x" * 40)[:20],
    "bytes/length_over_2gib": key(MODEL_GRAPH, 2) + varint(3 << 30) + b"abc",
    "bytes/group_wire_type": b"\x0b\x0c",
    "bytes/zero_tag": b"\x00\x00\x00\x00",
    "bytes/no_graph": vint(MODEL_IR_VERSION, 8) + opset(17),
    "bytes/nested_too_deep": model(nested_ifs(1000)),
    "bytes/names_not_utf8": model(relu_graph(x=b"x\xff", y=b"y\xfe\xc3", dim=b"N\x80")),
    "bytes/names_with_escapes": model(
        ld(GRAPH_NODE, node(b"Relu", [b"\x1b[31mmissing\x9b"], [b"y"], b"\x1b[2Jnode")) +
        ld(GRAPH_OUTPUT, ld(VALUE_NAME, b"y"))),
    "bytes/nul_in_names": model(
        ld(GRAPH_NODE, node(b"Relu", [b"a\x00b"], [b"y"])) +
        ld(GRAPH_OUTPUT, ld(VALUE_NAME, b"y"))),
    "types/dim_param_not_utf8": model(relu_graph(dim=b"\xff\xfe")),
    "types/elem_type_unknown": model(
        ld(GRAPH_NODE, node(b"Relu", [b"x"], [b"y"])) +
        ld(GRAPH_INPUT, tensor_value(b"x", 999, [2])) + ld(GRAPH_OUTPUT, ld(VALUE_NAME, b"y"))),
    "operators/op_type_not_utf8": model(relu_graph(op=b"Re\xfflu")),
    "operators/op_type_empty": model(relu_graph(op=b"")),
    "opsets/ir_version_huge": model(relu_graph(), ir_version=(1 << 63) - 1),
}

if __name__ == "__main__":
    for name, data in CASES.items():
        path = os.path.join(HERE, name + ".onnx")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        print("wrote", os.path.relpath(path))
