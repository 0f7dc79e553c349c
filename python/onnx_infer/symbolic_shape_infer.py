"""A drop-in for onnxruntime's symbolic shape inference (``onnxruntime.tools.symbolic_shape_infer``).

Callers switch by changing the import::

    # from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference
    from onnx_infer.symbolic_shape_infer import SymbolicShapeInference

    inferred = SymbolicShapeInference.infer_shapes(model, auto_merge=True)

and ``python3 -m onnx_infer.symbolic_shape_infer --input in.onnx --output out.onnx`` replaces
``python -m onnxruntime.tools.symbolic_shape_infer``. How the options map onto onnx-infer's
engine is in docs/python.md ("Switching from onnxruntime's tool").
"""

import argparse
import logging
import sys
from typing import Any, Optional

import onnx_infer

logger = logging.getLogger(__name__)


class SymbolicShapeInference:
    """The entry point onnxruntime's users call: :meth:`infer_shapes`."""

    @staticmethod
    def infer_shapes(in_mp: Any, int_max: int = 2**31 - 1, auto_merge: bool = False,
                     guess_output_rank: bool = False, verbose: int = 0) -> Optional[Any]:
        """Returns a new ``onnx.ModelProto``: ``in_mp`` with the type and symbolic shape of
        every value it determines (``value_info`` and graph outputs), or ``None`` when the
        model cannot be inferred to the end: inference found errors (the model contradicts
        its operators' definitions), which are logged. ``in_mp`` is not modified.

        ``int_max``: accepted; the engine needs no stand-in for "to the end" (Slice's ends of
        any size are exact). ``auto_merge``: accepted; onnx-infer never merges two different
        symbols on a guess. Where onnxruntime's tool would merge ``N`` and ``M`` at a
        broadcast, the engine keeps an exact expression (``Max(N, M)`` where either may be
        1) or, where the broadcast forces them equal, records ``N == M`` as a fact and uses
        one of them from there on, which is what merging means when it is right.
        ``guess_output_rank``: accepted; the engine never guesses: an operator it has no
        rule for leaves its outputs' shapes unknown. ``verbose``: 0 logs errors, 1 warnings
        too, 2 and more every diagnostic and a summary (logger
        ``onnx_infer.symbolic_shape_infer``).

        Raises ``ValueError`` for a model over 2 GiB in memory (use
        ``onnx_infer.infer_shapes_path`` on the saved model instead).
        """
        result = onnx_infer.infer(in_mp)
        levels = {"error": logging.ERROR, "warning": logging.WARNING, "note": logging.INFO}
        shown = {0: ("error",), 1: ("error", "warning")}.get(verbose, ("error", "warning", "note"))
        for d in result.diagnostics:
            if d.severity in shown:
                logger.log(levels[d.severity], "%s", d.render("model"))
        if verbose >= 2:
            s = result.stats
            logger.info("%d of %d values fully shaped, %d without a rule",
                        s["shaped"], s["values"], s["nodes_without_rule"])
        if result.errors:
            return None
        return result.model


def _parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Infers the symbolic shape of every value of an ONNX model "
                    "(onnx-infer, with the command line of onnxruntime's tool).")
    parser.add_argument("--input", required=True, help="the input model file")
    parser.add_argument("--output", help="the output model file")
    parser.add_argument("--auto_merge", action="store_true",
                        help="accepted; symbols are never merged on a guess")
    parser.add_argument("--int_max", type=int, default=2**31 - 1, help="accepted; not needed")
    parser.add_argument("--guess_output_rank", action="store_true",
                        help="accepted; ranks are never guessed")
    parser.add_argument("--verbose", type=int, default=0,
                        help="0: errors, 1: and warnings, 2: every diagnostic and a summary")
    parser.add_argument("--save_as_external_data", action="store_true",
                        help="save the weights as external data")
    parser.add_argument("--all_tensors_to_one_file", action="store_true",
                        help="with --save_as_external_data: one data file")
    parser.add_argument("--external_data_location", default="./",
                        help="with --save_as_external_data: the data file's name")
    parser.add_argument("--external_data_size_threshold", type=int, default=1024,
                        help="with --save_as_external_data: the least size to store outside")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    import onnx
    args = _parse_arguments(argv)
    logging.basicConfig(level=logging.INFO if args.verbose >= 2 else logging.WARNING,
                        format="%(message)s")
    model = onnx.load(args.input)
    out = SymbolicShapeInference.infer_shapes(model, args.int_max, args.auto_merge,
                                              args.guess_output_rank, args.verbose)
    if out is None:
        print("symbolic shape inference did not finish: see the errors above", file=sys.stderr)
        return 1
    if args.output:
        if args.save_as_external_data:
            onnx.save_model(out, args.output, save_as_external_data=True,
                            all_tensors_to_one_file=args.all_tensors_to_one_file,
                            location=args.external_data_location,
                            size_threshold=args.external_data_size_threshold)
        else:
            onnx.save_model(out, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
