// Optional operators of ai.onnx: Optional, OptionalHasElement, OptionalGetElement.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

// Optional: an optional holding the input's type, or, with no input, the `type` attribute's
// (an empty optional). Given both, they must agree.
Status InferOptional(InferenceContext& ctx) {
  const onnx::AttributeProto* attr = ctx.Attr("type");
  std::optional<Type> declared;
  if (attr) {
    if (!attr->has_tp()) {
      return AttrError("type", "expected a type (TYPE_PROTO)");
    }
    declared = TypeFromProto(attr->tp());
  }
  if (!ctx.HasInput(0)) {
    if (!declared) {
      return AttrError("type", "required when input 0 is omitted", DiagCode::kInputCombination);
    }
    ctx.SetOutputType(0, Type::Optional(*declared));
    return OkStatus();
  }
  Type element = ctx.InputType(0);
  if (declared) {
    auto merged = MergeTypes(element, *declared);
    if (!merged.ok()) {
      return InputError(ctx, 0, DiagCode::kInputKind,
                        StrCat("expected the type of attribute 'type' (", declared->ToString(),
                               "), got ", element.ToString(), ": ", merged.status().message()));
    }
    element = *merged;
  }
  ctx.SetOutputType(0, Type::Optional(std::move(element)));
  return OkStatus();
}

// OptionalGetElement: the value an optional holds. From version 18 a tensor or sequence
// input stands for itself.
Status InferOptionalGetElement(InferenceContext& ctx) {
  const Type& in = ctx.InputType(0);
  if (ctx.schema().since_version() < 18) {
    OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kOptional}, "an optional"));
  } else {
    OI_RETURN_IF_ERROR(
        RequireKind(ctx, 0, {Type::Kind::kOptional, Type::Kind::kTensor, Type::Kind::kSequence},
                    "an optional, a tensor or a sequence"));
  }
  ctx.SetOutputType(0, in.kind() == Type::Kind::kOptional ? in.element() : in);
  return OkStatus();
}

// OptionalHasElement: a bool scalar. From version 18 the input may be a tensor or a
// sequence, or omitted.
Status InferOptionalHasElement(InferenceContext& ctx) {
  if (ctx.schema().since_version() < 18) {
    OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kOptional}, "an optional"));
  } else {
    OI_RETURN_IF_ERROR(
        RequireKind(ctx, 0, {Type::Kind::kOptional, Type::Kind::kTensor, Type::Kind::kSequence},
                    "an optional, a tensor or a sequence"));
  }
  ctx.SetOutputType(0, Type::Tensor(kBool, Shape{}));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxOptionalRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Optional", {15}, InferOptional));
  OI_RETURN_IF_ERROR(r.AttachRule("", "OptionalGetElement", {15, 18}, InferOptionalGetElement));
  OI_RETURN_IF_ERROR(r.AttachRule("", "OptionalHasElement", {15, 18}, InferOptionalHasElement));
  return OkStatus();
}

}  // namespace onnx_infer
