// Parses the ONNX textual syntax (docs/syntax.md) into protobuf messages. Errors are values
// and name the line and column: "model.onnxtxt:3:14: expected ')' after the inputs, got '='".
// Any input, truncated or garbage, gives a model or an error; nesting deeper than
// kMaxNestingDepth (graphs in attributes, types in types) is an error, not a stack overflow.
#ifndef ONNX_INFER_SYNTAX_PARSER_H_
#define ONNX_INFER_SYNTAX_PARSER_H_

#include <string_view>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer::syntax {

// The project's one nesting limit (base/limits.h), counted in graphs and types.
using onnx_infer::kMaxNestingDepth;

// `source` names the text in error messages (a file name, or "<text>").
StatusOr<onnx::ModelProto> ParseModelText(std::string_view text,
                                          std::string_view source = "<text>");
StatusOr<onnx::FunctionProto> ParseFunctionText(std::string_view text,
                                                std::string_view source = "<text>");
StatusOr<onnx::NodeProto> ParseNodeText(std::string_view text, std::string_view source = "<text>");
StatusOr<onnx::TypeProto> ParseTypeText(std::string_view text, std::string_view source = "<text>");

// Whether `bytes` looks like a model in the text syntax rather than binary protobuf: valid
// text whose first token opens a model header or names a graph. Cheap; reads a prefix only.
bool LooksLikeModelText(std::string_view bytes);

}  // namespace onnx_infer::syntax

#endif  // ONNX_INFER_SYNTAX_PARSER_H_
