// Helpers for tests of rules and types (testonly).
#ifndef ONNX_INFER_SCHEMA_TEST_UTIL_H_
#define ONNX_INFER_SCHEMA_TEST_UTIL_H_

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "schema/const_value.h"
#include "schema/registry.h"
#include "schema/type.h"
#include "symbolic/unifier.h"

namespace onnx_infer::testing {

// Reads a tensor type written as Type::ToString writes it: "float[N, 3, ?]", "int64[]",
// "float" (rank unknown), "?" (unknown). Aborts the test on anything else.
Type T(const std::string& text);

// An int64 vector value, e.g. a Reshape's shape input.
ConstValue Int64s(const std::vector<int64_t>& values);

struct RuleRun {
  Status status;
  std::vector<Type> outputs;
  std::vector<std::optional<ConstValue>> values;
  std::vector<std::string> warnings;
  // The facts the rule recorded ("K == 64 (node of output 'y' (Gemm): contracted dims)"),
  // when RunRule was given a unifier.
  std::vector<std::string> facts;
  // "float[N, 5]" for one output, "float[2]; int64[]" for several, or "error: <message>".
  std::string Summary() const;
};

// Runs the rule of the schema that `node_text` (a NodeProto in protobuf text format) resolves
// to in `opset` of its domain, on inputs of the given types and values. With a unifier the
// rule records its facts there, as under the driver, and output shapes are resolved by them.
RuleRun RunRule(const SchemaRegistry& registry, const std::string& node_text, int64_t opset,
                const std::vector<Type>& inputs,
                const std::vector<std::optional<ConstValue>>& values = {},
                symbolic::Unifier* unifier = nullptr);

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_SCHEMA_TEST_UTIL_H_
