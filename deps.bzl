"""The external repositories onnx-infer needs, for its own WORKSPACE and for consumers.

A consumer's WORKSPACE needs two statements besides the repository itself:

    local_repository(name = "onnx_infer", path = "/path/to/onnx-infer")
    load("@onnx_infer//:deps.bzl", "onnx_infer_dependencies")
    onnx_infer_dependencies()

Everything is offline: system libraries come from Debian's packages (tools/setup.sh), and
the three repositories Bazel 4's built-in tools would download (@rules_cc, @rules_java,
@remote_coverage_tools) get tiny local stand-ins. A repository the workspace already
declares is left alone.
"""

def _stand_in_impl(ctx):
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    for path, content in ctx.attr.files.items():
        ctx.file(path, content)

# A repository made of a few literal files.
_stand_in = repository_rule(
    implementation = _stand_in_impl,
    attrs = {"files": attr.string_dict()},
)

_RULES_CC_DEFS = """\
# Stand-in for rules_cc: re-exports the native rules of Bazel 4.
cc_binary = native.cc_binary
cc_import = native.cc_import
cc_library = native.cc_library
cc_proto_library = native.cc_proto_library
cc_test = native.cc_test
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
objc_library = native.objc_library
"""

_RULES_JAVA_DEFS = """\
# Stand-in for rules_java: re-exports the native rules of Bazel 4.
java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_runtime = native.java_runtime
java_toolchain = native.java_toolchain
"""

def _maybe(rule, name, **kwargs):
    if not native.existing_rule(name):
        rule(name = name, **kwargs)

def onnx_infer_dependencies():
    """Declares every repository onnx-infer's targets refer to."""
    _maybe(
        _stand_in,
        name = "rules_cc",
        files = {
            "BUILD": "",
            "cc/BUILD": 'package(default_visibility = ["//visibility:public"])\n' +
                        'alias(name = "toolchain_type", actual = "@bazel_tools//tools/cpp:toolchain_type")\n',
            "cc/defs.bzl": _RULES_CC_DEFS,
        },
    )
    _maybe(
        _stand_in,
        name = "rules_java",
        files = {"BUILD": "", "java/BUILD": "", "java/defs.bzl": _RULES_JAVA_DEFS},
    )
    _maybe(
        _stand_in,
        name = "remote_coverage_tools",
        files = {
            "BUILD": 'package(default_visibility = ["//visibility:public"])\n' +
                     'filegroup(name = "coverage_report_generator")\n' +
                     'filegroup(name = "lcov_merger")\n',
        },
    )

    # libprotobuf-dev, protobuf-compiler
    _maybe(
        native.new_local_repository,
        name = "onnx_infer_system_protobuf",
        path = "/usr",
        build_file_content = """
package(default_visibility = ["//visibility:public"])
cc_library(name = "protobuf", linkopts = ["-lprotobuf", "-lpthread"])
""",
    )

    # libgtest-dev, libgmock-dev (onnx-infer's own tests only)
    _maybe(
        native.new_local_repository,
        name = "onnx_infer_system_gtest",
        path = "/usr",
        build_file_content = """
package(default_visibility = ["//visibility:public"])
cc_library(name = "gtest", linkopts = ["-lgmock", "-lgtest", "-lpthread"])
cc_library(name = "gtest_main", linkopts = ["-lgmock", "-lgtest_main", "-lgtest", "-lpthread"])
""",
    )

    # libboost-graph-dev (header-only parts) and nlohmann-json3-dev (header-only)
    _maybe(
        native.new_local_repository,
        name = "onnx_infer_system_headers",
        path = "/usr",
        build_file_content = """
package(default_visibility = ["//visibility:public"])
cc_library(name = "boost_graph")
cc_library(name = "nlohmann_json")
""",
    )
