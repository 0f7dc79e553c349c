// Logical, bitwise and comparison operators of ai.onnx: members of the unary and broadcasting
// elementwise families (elementwise_family.h). Comparisons and the logical ops output bool.
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/defs/ai_onnx/elementwise_family.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"

namespace onnx_infer {
namespace {

Status CheckBitShift(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string direction, ctx.StringAttr("direction", ""));
  if (direction != "LEFT" && direction != "RIGHT") {
    return AttrError("direction",
                     StrCat("expected \"LEFT\" or \"RIGHT\", got \"", direction, "\""));
  }
  return OkStatus();
}

// Every since_version of each member is listed; docs/op-coverage.md shows any missing.
const std::vector<UnaryOpSpec>& UnaryLogicalOps() {
  static const auto* ops = new std::vector<UnaryOpSpec>{
      {"Not", {1}, ValueOp::kNot},
      {"BitwiseNot", {18}},
  };
  return *ops;
}

const std::vector<BroadcastOpSpec>& BroadcastLogicalOps() {
  constexpr bool kBool = true;
  static const auto* ops = new std::vector<BroadcastOpSpec>{
      {"And", {1, 7}, ValueOp::kAnd, kBool},
      {"Or", {1, 7}, ValueOp::kOr, kBool},
      {"Xor", {1, 7}, ValueOp::kXor, kBool},
      {"Equal", {1, 7, 11, 13, 19}, ValueOp::kEqual, kBool},
      {"Greater", {1, 7, 9, 13}, ValueOp::kGreater, kBool},
      {"GreaterOrEqual", {12, 16}, ValueOp::kGreaterOrEqual, kBool},
      {"Less", {1, 7, 9, 13}, ValueOp::kLess, kBool},
      {"LessOrEqual", {12, 16}, ValueOp::kLessOrEqual, kBool},
      {"BitwiseAnd", {18}},
      {"BitwiseOr", {18}},
      {"BitwiseXor", {18}},
      {"BitShift", {11}, ValueOp::kNone, false, 7, CheckBitShift},
  };
  return *ops;
}

}  // namespace

Status RegisterAiOnnxLogicalRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(AttachUnaryFamily(r, UnaryLogicalOps()));
  OI_RETURN_IF_ERROR(AttachBroadcastFamily(r, BroadcastLogicalOps()));
  return OkStatus();
}

}  // namespace onnx_infer
