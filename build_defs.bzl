"""Rules every C++ target of onnx-infer is declared with.

They put three things on the targets themselves, so that they hold when onnx-infer is built
as an external repository (whose .bazelrc Bazel does not read):
- the C++ standard the sources need (C++20);
- headers reachable as "onnx_infer/<dir>/<file>.h", the path consumers include;
- visibility private to this repository unless a target says otherwise.
"""

ONNX_INFER_COPTS = ["-std=c++20"]

_INTERNAL = ["//:__subpackages__"]

def oi_cc_library(name, copts = [], visibility = None, **kwargs):
    native.cc_library(
        name = name,
        copts = ONNX_INFER_COPTS + copts,
        # Bazel strips the package path first: put it back under onnx_infer/.
        include_prefix = "onnx_infer/" + native.package_name() if native.package_name() else "onnx_infer",
        visibility = visibility or _INTERNAL,
        **kwargs
    )

def oi_cc_binary(name, copts = [], visibility = None, **kwargs):
    native.cc_binary(
        name = name,
        copts = ONNX_INFER_COPTS + copts,
        visibility = visibility or _INTERNAL,
        **kwargs
    )

def oi_cc_test(name, copts = [], **kwargs):
    native.cc_test(
        name = name,
        copts = ONNX_INFER_COPTS + copts,
        **kwargs
    )

def onnx_infer_external_proto(name, deps, header = "onnx/onnx-ml.pb.h", namespace = "onnx", **kwargs):
    """Compiles onnx-infer against a front end's own ONNX protobuf classes.

    `deps` is the cc_library of the front end's generated ONNX classes, `header` the path its
    sources include them by and `namespace` their C++ namespace (ONNX's package name). Select
    it with --@onnx_infer//proto:onnx_proto_impl=//your:target (docs/embedding.md).
    """
    native.cc_library(
        name = name,
        deps = deps,
        defines = [
            # Quoted: the header may be generated in the front end's own workspace, which only
            # quote includes search.
            'ONNX_INFER_ONNX_PROTO_HEADER=\\"%s\\"' % header,
            "ONNX_INFER_ONNX_NAMESPACE=%s" % namespace,
        ],
        **kwargs
    )
