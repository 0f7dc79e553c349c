// Pieces the parser and the printer share: keywords, element type names, the tensor data
// field each element type uses, base64, and protobuf-text escapes.
#ifndef ONNX_INFER_SYNTAX_TEXT_UTIL_H_
#define ONNX_INFER_SYNTAX_TEXT_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer::syntax {

// Words with a meaning where a name could stand: element types, type constructors and the
// extension keywords. The printer quotes names spelled like one.
bool IsKeyword(std::string_view s);

// Element types 1..26 by their syntax name ("float", "int64", "float8e4m3fn"...).
std::optional<int32_t> ElemTypeFromName(std::string_view name);
// Empty for codes without a name (0 and unknown codes).
std::string ElemTypeName(int32_t elem_type);

// The repeated TensorProto field that holds the values of a tensor of `data_type` when they
// are not in raw_data (IR.md: float16, bool, int8... live in int32_data).
enum class ValueField { kFloat, kInt32, kString, kInt64, kDouble, kUint64 };
ValueField ValueFieldOf(int32_t data_type);

// The AttributeType spelled as in an attribute annotation (`ints`, `type_proto`); empty for
// UNDEFINED and unknown values.
std::string AttributeTypeName(onnx::AttributeProto::AttributeType type);
std::optional<onnx::AttributeProto::AttributeType> AttributeTypeFromName(std::string_view name);

std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);

// One-line protobuf text format of `message`, the escape for what the syntax cannot spell.
std::string ToProtoText(const google::protobuf::Message& message);
// Merges protobuf text into `message`; returns the parser's first error, or "" when fine.
std::string MergeProtoText(std::string_view text, google::protobuf::Message* message);

}  // namespace onnx_infer::syntax

#endif  // ONNX_INFER_SYNTAX_TEXT_UTIL_H_
