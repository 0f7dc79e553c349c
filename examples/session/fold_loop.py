#!/usr/bin/env python3
"""The optimizer loop of docs/python.md on an onnx_infer.Session (issue 31): fold what shape
inference proves constant, re-infer, repeat until nothing folds.

- ``Shape(x)`` of a value whose shape the session knows statically becomes an initializer
  holding that shape;
- ``Identity(x)`` whose output type is its input's is removed, its readers reading x.

After every update it checks that the session's annotated model is what a fresh
``onnx_infer.infer`` of the edited model (the same, default, options) gives. Run it with a model path, or without one
to fold a small built-in model::

    python3 examples/session/fold_loop.py [MODEL.onnx]

Exits 0 when the loop ends with the guarantee held, 1 otherwise.
"""

import sys

import onnx
from onnx import TensorProto, helper

import onnx_infer


def builtin_model():
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Identity", ["x"], ["i"]),
        helper.make_node("Shape", ["i"], ["s"]),
        helper.make_node("Constant", [], ["start"],
                         value=helper.make_tensor("v0", TensorProto.INT64, [1], [0])),
        helper.make_node("Constant", [], ["end"],
                         value=helper.make_tensor("v1", TensorProto.INT64, [1], [1])),
        helper.make_node("Slice", ["s", "start", "end"], ["batch"]),
        helper.make_node("Constant", [], ["flat"],
                         value=helper.make_tensor("v2", TensorProto.INT64, [1], [-1])),
        helper.make_node("Concat", ["batch", "flat"], ["target"], axis=0),
        helper.make_node("Reshape", ["i", "target"], ["r"]),
        helper.make_node("Identity", ["r"], ["j"]),
        helper.make_node("Add", ["j", "w"], ["y"]),
        helper.make_node("Shape", ["w"], ["sw"]),
        helper.make_node("Reshape", ["y", "sw"], ["z"]),
    ]
    graph = helper.make_graph(
        nodes, "fold", [helper.make_tensor_value_info("x", f, [2, 3, 8]),
                        helper.make_tensor_value_info("w", f, [2, 24])],
        [helper.make_tensor_value_info("y", f, None), helper.make_tensor_value_info("z", f, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def fold_once(session):
    """Queues one fold's edits and returns a line saying what, or None when nothing folds."""
    graph = session.edited_model().graph
    inputs = {i.name for i in graph.input}
    outputs = {o.name for o in graph.output}
    for index, node in enumerate(graph.node):
        if node.domain not in ("", "ai.onnx"):
            continue
        if node.op_type == "Shape" and not node.attribute and len(node.input) == 1:
            t = session.type_of(node.input[0])
            if t is None or t.shape is None or not all(isinstance(d, int) for d in t.shape):
                continue
            shape = helper.make_tensor(node.output[0], TensorProto.INT64, [len(t.shape)],
                                       list(t.shape))
            session.remove_node(index)
            session.set_initializer(shape)
            return f"Shape({node.input[0]}) -> initializer '{node.output[0]}' {list(t.shape)}"
        if node.op_type == "Identity" and len(node.input) == 1 and len(node.output) == 1:
            source, target = node.input[0], node.output[0]
            if source in inputs or target in outputs:
                continue  # graph inputs and outputs keep their names
            if session.type_of(source) != session.type_of(target):
                continue
            session.remove_node(index)
            session.rename_value(source, target)
            return f"Identity({source}) -> '{target}' reads {source}"
    return None


def main(argv):
    model = onnx.load(argv[1]) if len(argv) > 1 else builtin_model()
    session = onnx_infer.Session(model)
    folds = 0
    while True:
        what = fold_once(session)
        if what is None:
            break
        update = session.update()
        folds += 1
        fresh = onnx_infer.infer(session.edited_model()).model
        if fresh != session.model():
            print(f"fold_loop: after fold {folds} the session differs from a fresh inference",
                  file=sys.stderr)
            return 1
        kind = "incremental" if update.incremental else "full"
        print(f"fold: {what}\n  update: {kind}, {len(update.changed_values)} values changed, "
              f"{session.num_nodes} nodes left")
    for out in session.model().graph.output:
        print(f"output {out.name}: {session.type_of(out.name)}")
    stats = session.stats()
    print(f"{folds} folds; {stats['incremental_updates']} incremental and "
          f"{stats['full_updates']} full updates")
    for reason, n in sorted(stats["full_reasons"].items()):
        print(f"  full ({reason}): {n}")
    return 1 if any(d.severity == "error" for d in session.diagnostics) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
