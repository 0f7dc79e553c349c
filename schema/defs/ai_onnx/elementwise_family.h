// The generators of the elementwise families: every member of a family gets its rule from
// one row of a table, so members cannot drift apart. Used by elementwise.cc and logical.cc.
#ifndef ONNX_INFER_SCHEMA_DEFS_AI_ONNX_ELEMENTWISE_FAMILY_H_
#define ONNX_INFER_SCHEMA_DEFS_AI_ONNX_ELEMENTWISE_FAMILY_H_

#include <span>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {

// Checks an operator's attributes beyond their types (an enum-like string's value).
using AttrCheck = Status (*)(InferenceContext& ctx);

// A unary elementwise operator: output 0 is input 0's type; its value is computed by `value`
// when input 0's is known.
struct UnaryOpSpec {
  std::string_view name;
  std::vector<int> versions;  // every since_version in the catalog
  ValueOp value = ValueOp::kNone;
  AttrCheck check = nullptr;
};

// A broadcasting elementwise operator, binary or variadic. From `broadcast_since` inputs
// broadcast multidirectionally (numpy). Before it, versions with a `broadcast` attribute
// broadcast B to A (output: A's shape) when it is set, and otherwise every input has the same
// shape. Comparisons output bool.
struct BroadcastOpSpec {
  std::string_view name;
  std::vector<int> versions;
  ValueOp value = ValueOp::kNone;
  bool outputs_bool = false;
  int broadcast_since = 7;
  AttrCheck check = nullptr;
};

Status AttachUnaryFamily(SchemaRegistry& registry, std::span<const UnaryOpSpec> ops);
Status AttachBroadcastFamily(SchemaRegistry& registry, std::span<const BroadcastOpSpec> ops);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_AI_ONNX_ELEMENTWISE_FAMILY_H_
