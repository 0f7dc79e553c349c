// Generator operators of ai.onnx: constants, ranges, identity-like matrices and random tensors.
#include "onnx_infer/schema/defs/ai_onnx/generator.h"

#include <algorithm>
#include <cmath>
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
#include "onnx_infer/schema/value_movement.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {
namespace {

// ConstantOfShape: the shape is the input's value; the element type is the `value`
// attribute's (float by default).
Status InferConstantOfShape(InferenceContext& ctx) {
  int32_t elem = kFloat;
  std::optional<ConstValue> fill = ConstValue{kFloat, {1}, {}, {0.0}};  // the default: 0.0f
  if (const onnx::AttributeProto* a = ctx.Attr("value"); a && a->has_t()) {
    elem = a->t().data_type();
    fill = ConstValueOfTensor(a->t(), 1);
  }
  Type out = Type::Tensor(elem);
  if (const std::vector<Dim>* dims = IntValues(ctx, 0)) {
    for (Dim d : *dims) {
      if (auto v = d.const_value(); v && *v < 0) {
        return RuleError(DiagCode::kInputValue, StrCat("input 0: a dim of ", *v));
      }
    }
    out.set_shape(Shape(dims->begin(), dims->end()));
  } else if (const Shape* s = ctx.InputShape(0);
             s && s->size() == 1 && s->at(0).is_const() && *s->at(0).const_value() <= kMaxRank) {
    out.set_shape(Shape(*s->at(0).const_value()));
  }
  ctx.SetOutputType(0, out);
  if (fill && out.has_shape() && IsStatic(out.shape())) {
    std::vector<int64_t> dims;
    for (Dim d : out.shape()) dims.push_back(*d.const_value());
    if (auto v = ExpandValue(*fill, dims, ctx.max_value_elements())) {
      v->dims = std::move(dims);  // a [1] fill broadcast to rank 0 stays a scalar
      ctx.SetOutputValue(0, std::move(*v));
    }
  }
  return OkStatus();
}

// EyeLike: a 2-D input's shape; element type `dtype`, else the input's.
Status InferEyeLike(InferenceContext& ctx) {
  int32_t elem = ctx.InputType(0).is_tensor() ? ctx.InputType(0).elem_type() : 0;
  if (ctx.HasAttr("dtype")) {
    OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype"));
    if (dtype <= 0 || dtype > kMaxDataType) {
      return AttrError("dtype", StrCat("unknown type ", dtype));
    }
    elem = static_cast<int32_t>(dtype);
  }
  const Shape* in = ctx.InputShape(0);
  if (in) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 2));
  ctx.SetOutputType(0, in ? Type::Tensor(elem, *in) : Type::Tensor(elem));
  return OkStatus();
}

// Constant: the type (and for small tensors the value) of whichever value attribute is given.
Status InferConstant(InferenceContext& ctx) {
  const onnx::AttributeProto* given = nullptr;
  for (const auto& a : ctx.node().attribute()) {
    if (a.name().rfind("value", 0) == 0 || a.name() == "sparse_value") {
      if (given) {
        return RuleError(DiagCode::kInputCombination,
                         StrCat("expected exactly one value attribute, got '", given->name(),
                                "' and '", a.name(), "'"));
      }
      given = &a;
    }
  }
  if (!given)
    return RuleError(DiagCode::kInputCombination, "expected one value attribute, got none");
  const std::string& name = given->name();
  // The attribute's name fixes its kind (value_float: FLOAT). When its `type` or its content
  // says otherwise, runtimes disagree on the output (onnx goes by the type, onnxruntime by the
  // stored value: a tensor stored as INT64 gives int64), so the output type stays unknown. A
  // wrong `type` is the signature check's error; a right one over other content is ours.
  const AttrType kind = name == "value"           ? onnx::AttributeProto::TENSOR
                        : name == "sparse_value"  ? onnx::AttributeProto::SPARSE_TENSOR
                        : name == "value_int"     ? onnx::AttributeProto::INT
                        : name == "value_ints"    ? onnx::AttributeProto::INTS
                        : name == "value_float"   ? onnx::AttributeProto::FLOAT
                        : name == "value_floats"  ? onnx::AttributeProto::FLOATS
                        : name == "value_string"  ? onnx::AttributeProto::STRING
                        : name == "value_strings" ? onnx::AttributeProto::STRINGS
                                                  : onnx::AttributeProto::UNDEFINED;
  const AttrType content = AttrContentType(*given);
  if (kind != onnx::AttributeProto::UNDEFINED && content != onnx::AttributeProto::UNDEFINED &&
      content != kind) {
    if (given->type() != kind) return OkStatus();
    return AttrError(name,
                     StrCat("declared ", AttributeTypeName(kind), " but holds a value of type ",
                            AttributeTypeName(content), "; the output type is left unknown"));
  }
  if (kind != onnx::AttributeProto::UNDEFINED && given->type() != onnx::AttributeProto::UNDEFINED &&
      given->type() != kind) {
    return OkStatus();  // the signature check reports the attribute's type
  }
  auto vector_of = [](int32_t elem, int64_t n) { return Type::Tensor(elem, Shape{Dim::Const(n)}); };
  if (name == "value") {
    if (!given->has_t()) return AttrError("value", "expected a tensor");
    ctx.SetOutputType(0, TypeOfTensor(given->t()));
    if (auto v = ConstValueOfTensor(given->t(), ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
    }
  } else if (name == "sparse_value") {
    ctx.SetOutputType(0, TypeOfSparseTensor(given->sparse_tensor()));
  } else if (name == "value_int") {
    ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{}));
    ctx.SetOutputValue(0, ConstValue{kInt64, {}, {Dim::Const(given->i())}, {}});
  } else if (name == "value_ints") {
    ctx.SetOutputType(0, vector_of(kInt64, given->ints_size()));
    if (given->ints_size() <= ctx.max_value_elements()) {
      ConstValue v{kInt64, {given->ints_size()}, {}, {}};
      for (int64_t x : given->ints()) v.ints.push_back(Dim::Const(x));
      ctx.SetOutputValue(0, std::move(v));
    }
  } else if (name == "value_float") {
    ctx.SetOutputType(0, Type::Tensor(kFloat, Shape{}));
    ctx.SetOutputValue(0, ConstValue{kFloat, {}, {}, {given->f()}});
  } else if (name == "value_floats") {
    ctx.SetOutputType(0, vector_of(kFloat, given->floats_size()));
  } else if (name == "value_string") {
    ctx.SetOutputType(0, Type::Tensor(kString, Shape{}));
  } else if (name == "value_strings") {
    ctx.SetOutputType(0, vector_of(kString, given->strings_size()));
  } else {
    return RuleError(DiagCode::kSignature,
                     StrCat("attribute '", name, "' is not a value attribute of Constant"));
  }
  return OkStatus();
}

// Bernoulli, RandomNormalLike, RandomUniformLike: the input's shape; the element type is
// `dtype` when given, else the input's.
Status InferRandomLike(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", 0));
  int32_t elem = InputElemType(ctx, 0);
  if (dtype != 0) {
    OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
    elem = static_cast<int32_t>(dtype);
  }
  Type out = Type::Tensor(elem);
  if (const Shape* in = ctx.InputShape(0)) out.set_shape(*in);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

// RandomNormal, RandomUniform: element type `dtype` (float by default), shape `shape`.
Status InferRandomFromAttrs(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kFloat));
  OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.IntsAttr("shape"));
  Shape shape;
  for (int64_t d : dims) {
    if (d < 0) {
      return AttrError("shape", StrCat("expected dims >= 0, got ", d));
    }
    shape.push_back(Dim::Const(d));
  }
  ctx.SetOutputType(0, Type::Tensor(static_cast<int32_t>(dtype), std::move(shape)));
  return OkStatus();
}

// Multinomial: input [batch_size, class_size]; output [batch_size, sample_size] of `dtype`
// (int32 by default).
Status InferMultinomial(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kInt32));
  OI_RETURN_IF_ERROR(CheckDataType(dtype, "dtype"));
  OI_ASSIGN_OR_RETURN(int64_t sample_size, ctx.IntAttr("sample_size", 1));
  if (sample_size < 0) {
    return AttrError("sample_size", StrCat("expected >= 0, got ", sample_size));
  }
  Dim batch;
  if (const Shape* in = ctx.InputShape(0)) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 2, "[batch_size, class_size]"));
    batch = (*in)[0];
  }
  ctx.SetOutputType(
      0, Type::Tensor(static_cast<int32_t>(dtype), Shape{batch, Dim::Const(sample_size)}));
  return OkStatus();
}

}  // namespace

// Range: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements. An absent delta
// (com.microsoft's Range makes it optional) is 1.
Status InferRange(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  auto start = ConstInts(ctx, 0), limit = ConstInts(ctx, 1), delta = ConstInts(ctx, 2);
  const ConstValue* fs = ctx.InputValue(0);
  const ConstValue* fl = ctx.InputValue(1);
  const ConstValue* fd = ctx.InputValue(2);
  const ConstValue one{kFloat, {}, {}, {1.0}};
  if (!ctx.HasInput(2)) {
    delta = std::vector<int64_t>{1};
    fd = &one;
  }
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 && delta->size() == 1) {
    const int64_t s = (*start)[0], l = (*limit)[0], d = (*delta)[0];
    if (d == 0)
      return RuleError(DiagCode::kInputValue, "input 2 'delta': 0", Subject::Input(2, "delta"));
    const int64_t n = std::max<int64_t>((l - s + d + (d > 0 ? -1 : 1)) / d, 0);
    ctx.SetOutputShape(0, Shape{Dim::Const(n)});
    if (n <= ctx.max_value_elements()) {
      std::vector<Dim> values;
      for (int64_t i = 0; i < n; ++i) values.push_back(Dim::Const(s + i * d));
      ctx.SetOutputValue(0, IntVector(fs->elem_type, std::move(values)));
    }
    return OkStatus();
  }
  // Symbolic bounds with a constant step: Range(0, N, 1) has N elements.
  const std::vector<Dim>* vs = IntValues(ctx, 0);
  const std::vector<Dim>* vl = IntValues(ctx, 1);
  if (vs && vl && delta && vs->size() == 1 && vl->size() == 1 && delta->size() == 1) {
    const int64_t d = (*delta)[0];
    if (d == 0)
      return RuleError(DiagCode::kInputValue, "input 2 'delta': 0", Subject::Input(2, "delta"));
    if (d == INT64_MIN) return OkStatus();
    Dim span = d > 0 ? (*vl)[0] - (*vs)[0] : (*vs)[0] - (*vl)[0];
    Dim n = Dim::Max(Dim::CeilDiv(span, Dim::Const(d > 0 ? d : -d)), Dim::Const(0));
    ctx.SetOutputShape(0, Shape{n});
    return OkStatus();
  }
  if (fs && fl && fd && fs->reals.size() == 1 && fl->reals.size() == 1 && fd->reals.size() == 1) {
    const double d = fd->reals[0];
    if (d == 0)
      return RuleError(DiagCode::kInputValue, "input 2 'delta': 0", Subject::Input(2, "delta"));
    const double n = std::max(std::ceil((fl->reals[0] - fs->reals[0]) / d), 0.0);
    if (n <= static_cast<double>(INT64_MAX / 2)) {
      ctx.SetOutputShape(0, Shape{Dim::Const(static_cast<int64_t>(n))});
      return OkStatus();
    }
  }
  // Float bounds holding sizes (Range(0.0, Cast(N), 1.0)): the count computed exactly, under
  // the conditions that the float arithmetic is exact there.
  if (fs && fl && fd && fs->NumElements() == 1 && fl->NumElements() == 1 &&
      fd->NumElements() == 1 && FloatPrecision(fs->elem_type) > 0) {
    const int32_t type = fs->elem_type;
    const ConstValue* span_args[] = {fl, fs};
    std::optional<ConstValue> count = ApplyValueOp(ValueOp::kSub, span_args, type, 1);
    if (count) {
      const ConstValue* div_args[] = {&*count, fd};
      count = ApplyValueOp(ValueOp::kDiv, div_args, type, 1);
    }
    if (count) {
      const ConstValue* ceil_args[] = {&*count};
      count = ApplyValueOp(ValueOp::kCeil, ceil_args, type, 1);
    }
    if (count) count = CastValue(*count, kInt64);
    if (count && count->ints.size() == 1 && !count->ints[0].is_unknown()) {
      for (const ExactnessCondition& c : count->conditions) ctx.RecordCondition(c.ToString());
      ctx.SetOutputShape(0, Shape{Dim::Max(count->ints[0], Dim::Const(0))});
      return OkStatus();
    }
  }
  ctx.SetOutputShape(0, Shape{Dim()});
  return OkStatus();
}

Status RegisterAiOnnxGeneratorRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "Constant", {1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, InferConstant));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "ConstantOfShape", {9, 20, 21, 23, 24, 25}, InferConstantOfShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Range", {11, 27}, InferRange));
  OI_RETURN_IF_ERROR(r.AttachRule("", "EyeLike", {9, 22}, InferEyeLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomNormal", {1, 22}, InferRandomFromAttrs));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomUniform", {1, 22}, InferRandomFromAttrs));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomNormalLike", {1, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RandomUniformLike", {1, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Bernoulli", {15, 22}, InferRandomLike));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Multinomial", {7, 22}, InferMultinomial));
  return OkStatus();
}

}  // namespace onnx_infer
