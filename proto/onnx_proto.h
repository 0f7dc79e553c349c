// The ONNX protobuf classes the engine works on, as `onnx_infer::onnx::ModelProto` & co.
//
// By default they are onnx-infer's own, generated from proto/onnx.proto in package
// onnx_infer.onnx: wire-compatible with ONNX's, but distinct C++ types, so a program that also
// links ONNX's own classes (package onnx) keeps both apart.
//
// Built with ONNX_INFER_ONNX_PROTO_HEADER defined (Bazel: onnx_infer_external_proto(); CMake:
// -DONNX_INFER_ONNX_PROTO_TARGET=...), the engine is compiled against a front end's own ONNX
// classes instead, and onnx_infer::onnx names their namespace (ONNX_INFER_ONNX_NAMESPACE,
// default onnx), so the front end passes its own onnx::ModelProto without a copy.
// docs/embedding.md says more.
#ifndef ONNX_INFER_PROTO_ONNX_PROTO_H_
#define ONNX_INFER_PROTO_ONNX_PROTO_H_

// CMake writes the choice made at configure time into this header; Bazel passes defines.
#if __has_include("onnx_infer/proto/onnx_proto_config.h")
#include "onnx_infer/proto/onnx_proto_config.h"
#endif

#ifdef ONNX_INFER_ONNX_PROTO_HEADER
#include ONNX_INFER_ONNX_PROTO_HEADER
#ifndef ONNX_INFER_ONNX_NAMESPACE
#define ONNX_INFER_ONNX_NAMESPACE onnx
#endif
namespace onnx_infer {
namespace onnx = ::ONNX_INFER_ONNX_NAMESPACE;
}  // namespace onnx_infer
#define ONNX_INFER_EXTERNAL_ONNX_PROTO 1
#else
#include "onnx_infer/proto/onnx.pb.h"
#define ONNX_INFER_EXTERNAL_ONNX_PROTO 0
#endif

#endif  // ONNX_INFER_PROTO_ONNX_PROTO_H_
