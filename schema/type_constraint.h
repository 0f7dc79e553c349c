// Type strings of operator signatures: "tensor(float)", "seq(tensor(int64))",
// "optional(seq(tensor(uint8)))", "map(string, float)", "sparse_tensor(float)".
#ifndef ONNX_INFER_SCHEMA_TYPE_CONSTRAINT_H_
#define ONNX_INFER_SCHEMA_TYPE_CONSTRAINT_H_

#include <string_view>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

// Reads a type string into a Type without shapes. In a map's value position a bare element
// type ("float") means a tensor of it, as ONNX's catalog writes it.
StatusOr<Type> ParseTypeString(std::string_view text);

// Whether `type` is an instance of `pattern` (shapes are ignored): kTrue, kFalse, or
// kUnknown when the parts of `type` that decide it are not known.
symbolic::Tri MatchesPattern(const Type& type, const Type& pattern);

// `type` with every shape removed (nested ones too): what a type parameter binds.
Type StripShapes(const Type& type);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_TYPE_CONSTRAINT_H_
