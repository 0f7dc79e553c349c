"""Re-exports Bazel's native Java rules under @rules_java//java:defs.bzl."""

java_import = native.java_import
java_runtime = native.java_runtime
java_toolchain = native.java_toolchain
java_library = native.java_library
java_binary = native.java_binary
