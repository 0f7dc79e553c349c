// Prints ONNX models, graphs, functions, nodes and types in the ONNX textual syntax
// (docs/syntax.md). Printing is lossless: ParseModelText(PrintModelText(m)) equals m, field
// presence included; what the syntax has no notation for is written as protobuf text under a
// `textproto` key, so nothing is ever dropped.
#ifndef ONNX_INFER_SYNTAX_PRINTER_H_
#define ONNX_INFER_SYNTAX_PRINTER_H_

#include <string>
#include <string_view>

#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer::syntax {

std::string PrintModelText(const onnx::ModelProto& model);
std::string PrintNodeText(const onnx::NodeProto& node);
// `float[N, 3, ?]`, `seq(float[N])`... A type the syntax cannot spell (a denotation, an
// unknown element type) is printed as `textproto "..."`.
std::string PrintTypeText(const onnx::TypeProto& type);

// A quoted string literal: `"` and `\` escaped, control bytes and (in text that is not valid
// UTF-8) bytes from 0x80 as \xHH.
std::string QuoteString(std::string_view s);
// `s` as is when it is an identifier and not a keyword of the syntax, else quoted.
std::string QuoteIfNeeded(std::string_view s);

}  // namespace onnx_infer::syntax

#endif  // ONNX_INFER_SYNTAX_PRINTER_H_
