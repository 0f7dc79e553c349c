#!/usr/bin/env python3
"""Writes fuzz/seeds/<target>/seed_deep_*: small inputs nested a few hundred levels, on both
sides of the nesting limit (docs/limits.md, issue 27), for the fuzzers to mutate from:
testdata/ holds the deep cases only as setup lines that make them. tools/fuzz.sh copies
fuzz/seeds/<target>/ into each target's corpus. Run it again after changing it; commit the
files."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = '<ir_version: 8, opset_import: ["" : 17]>\n'


def nest(open_, inner, close, depth):
    return open_ * depth + inner + close * depth


def textproto_type(levels):
    return ("type { " + "sequence_type { elem_type { " * levels + "tensor_type { elem_type: 1 }" +
            " } }" * levels + " }")


def text_model_value_info(levels):
    return (HEADER + 'main (float[N] x) => (y <textproto: "' + textproto_type(levels) +
            '">) {\n  y = Identity (x)\n}\n')


def text_model_seq_input(levels):
    return HEADER + "main (" + nest("seq(", "float", ")", levels) + " x) => (y) {\n  y = Identity (x)\n}\n"


def text_model_graphs(levels):
    body = "g () => (o) { o = Constant <value_float = 1.0> () }"
    for _ in range(levels):
        body = "g () => (o) { o = If <then_branch = " + body + ", else_branch = " + \
            "e () => (o) { o = Constant <value_float = 1.0> () }> (c) }"
    return HEADER + "main (bool c) => (o) {\n  o = If <then_branch = " + body[body.index("g"):] + \
        ", else_branch = e () => (o) { o = Constant <value_float = 1.0> () }> (c)\n}\n"


def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if not n:
            return out + bytes([byte])
        out += bytes([byte | 0x80])


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def binary_model_seq_input(levels):
    t = field(1, varint(1 << 3) + varint(1))
    for _ in range(levels):
        t = field(4, field(1, t))
    graph = (field(1, field(1, b"x") + field(2, b"y") + field(4, b"Identity")) + field(2, b"main") +
             field(11, field(1, b"x") + field(2, t)) + field(12, field(1, b"y")))
    return varint(1 << 3) + varint(8) + field(8, varint(2 << 3) + varint(17)) + field(7, graph)


def schema(input_type, allowed):
    return ('{"domain": "deep.ops", "operators": [{"name": "Deep", "since_version": 1, '
            '"inputs": [{"name": "X", "type": "' + input_type + '"}], '
            '"outputs": [{"name": "Y", "type": "T"}], '
            '"type_constraints": [{"type_param": "T", "allowed": ["' + allowed + '"]}]}]}\n')


TEXT = {
    "seed_deep_textproto_100.onnxtxt": text_model_value_info(100),  # accepted
    "seed_deep_textproto_300.onnxtxt": text_model_value_info(300),  # past 400 messages
    "seed_deep_seq_100.onnxtxt": text_model_seq_input(100),
    "seed_deep_seq_200.onnxtxt": text_model_seq_input(200),
    "seed_deep_graphs_40.onnxtxt": text_model_graphs(40),
    "seed_deep_graphs_150.onnxtxt": text_model_graphs(150),
}
SEEDS = {
    "text_fuzzer": TEXT,
    "model_fuzzer": dict(TEXT, **{
        "seed_deep_binary_seq_150.onnx": binary_model_seq_input(150),  # accepted
        "seed_deep_binary_seq_300.onnx": binary_model_seq_input(300),  # past 400 messages
    }),
    "schema_fuzzer": {
        "seed_deep_seq_100.json": schema("T", nest("seq(", "tensor(float)", ")", 100)),
        "seed_deep_seq_300.json": schema("T", nest("seq(", "tensor(float)", ")", 300)),
        "seed_deep_map_300.json": schema("T", nest("map(int64, ", "float", ")", 300)),
        "seed_deep_optional_300.json": schema(nest("optional(", "tensor(float)", ")", 300),
                                              "tensor(float)"),
        "seed_deep_arrays_300.json": '{"domain": "deep.ops", "operators": [{"name": "Deep", '
                                     '"inputs": ' + nest("[", "", "]", 300) + "}]}\n",
    },
    "dim_fuzzer": {
        "seed_deep_parens_300": nest("(", "N", ")", 300),
        "seed_deep_floor_120": nest("floor(", "N", "/2)", 120),
        "seed_deep_mod_300": nest("Mod(", "N", ", 3)", 300),
    },
}

for target, files in SEEDS.items():
    folder = os.path.join(HERE, "seeds", target)
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(os.path.join(folder, name), mode) as f:
            f.write(data)
