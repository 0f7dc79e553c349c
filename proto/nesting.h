// The nesting limit (base/limits.h) for messages that never went through a parser: a model,
// node or type a C++ caller builds in memory can nest types and graphs as deep as memory
// allows, and every walker of the project recurses through them. Checked once, iteratively, at
// each entry point that takes such a message, before anything recurses.
#ifndef ONNX_INFER_PROTO_NESTING_H_
#define ONNX_INFER_PROTO_NESTING_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// An error naming kMaxProtobufDepth when types nest in types, or graphs in node attributes,
// deeper than protobuf's parsers accept (kMaxProtobufDepth messages, about 199 levels of
// types or 133 of subgraphs) anywhere in the message (graphs, functions, value infos, type
// attributes); OK otherwise, so that any model a parser accepted passes. Iterative: uses no
// stack however deep the message.
Status CheckNesting(const onnx::ModelProto& model);
Status CheckNesting(const onnx::NodeProto& node);
Status CheckNesting(const onnx::TypeProto& type);

}  // namespace onnx_infer

#endif  // ONNX_INFER_PROTO_NESTING_H_
