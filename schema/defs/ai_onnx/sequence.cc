// Sequence and optional operators of ai.onnx (SequenceConstruct, SequenceEmpty, SequenceAt,
// SequenceInsert, SequenceErase, SequenceLength, SplitToSequence, ConcatFromSequence,
// Optional, OptionalGetElement, OptionalHasElement), the recurrent operators (RNN, GRU,
// LSTM), and the optimizers and Gradient of ai.onnx.preview.training.
//
// A sequence's type has one element type for all of its tensors, and the type does not say
// how many there are. Where the tensors may differ in a dim (SequenceConstruct of [2, 3] and
// [4, 3]), the element's dim is unknown ([?, 3]): no one symbol could name it.
#include <cstdint>
#include <initializer_list>
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

// An input that must be a scalar (a sequence position) has rank 0 when its rank is known.
Status RequireScalar(const InferenceContext& ctx, int i) {
  if (!ctx.HasInput(i)) return OkStatus();
  if (const Shape* s = ctx.InputShape(i); s && !s->empty()) {
    return InputError(ctx, i, DiagCode::kInputRank,
                      StrCat("expected a scalar, got rank ", s->size(), " ", ShapeToString(*s)));
  }
  return OkStatus();
}

// The element of a sequence that holds tensors of type `a` and also one of type `b`: the
// element types must agree; dims both have stay, dims that differ become unknown, and ranks
// that differ leave the shape unknown. Nothing known of `a` (or `b`) means its tensors may
// have any shape, so only the element type survives. `b` is input `input` of the node.
StatusOr<Type> JoinElements(const Type& a, const Type& b, const InferenceContext& ctx, int input) {
  if (a.is_unknown() && b.is_unknown()) return Type();
  for (const Type* t : {&a, &b}) {
    if (!t->is_unknown() && !t->is_tensor()) {
      return InputError(
          ctx, input, DiagCode::kInputKind,
          StrCat("expected a tensor element, got ", KindName(t->kind()), " (", t->ToString(), ")"));
    }
  }
  if (a.is_unknown() || b.is_unknown()) {
    return Type::Tensor(a.is_unknown() ? b.elem_type() : a.elem_type());
  }
  if (a.elem_type() && b.elem_type() && a.elem_type() != b.elem_type()) {
    return InputError(
        ctx, input, DiagCode::kInputKind,
        StrCat("expected element type ", DataTypeName(a.elem_type()),
               " (as the sequence's other tensors), got ", DataTypeName(b.elem_type())));
  }
  Type out = Type::Tensor(a.elem_type() ? a.elem_type() : b.elem_type());
  if (!a.has_shape() || !b.has_shape() || a.rank() != b.rank()) return out;
  Shape s(a.shape().size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (a.shape()[i] == b.shape()[i]) s[i] = a.shape()[i];
  }
  out.set_shape(std::move(s));
  return out;
}

// The element type of input i when it is a sequence; unknown otherwise.
Type SequenceElement(const InferenceContext& ctx, int i) {
  const Type& t = ctx.InputType(i);
  return t.kind() == Type::Kind::kSequence ? t.element() : Type();
}

// SequenceConstruct: a sequence of the inputs, which share an element type.
Status InferSequenceConstruct(InferenceContext& ctx) {
  Type element;
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    OI_RETURN_IF_ERROR(RequireKind(ctx, i, {Type::Kind::kTensor}, "a tensor"));
    if (i == 0) {
      element = ctx.InputType(0);
      continue;
    }
    OI_ASSIGN_OR_RETURN(element, JoinElements(element, ctx.InputType(i), ctx, i));
  }
  ctx.SetOutputType(0, Type::Sequence(std::move(element)));
  return OkStatus();
}

// SequenceEmpty: an empty sequence of `dtype` tensors (float by default). Having no tensors,
// it says nothing of their shape.
Status InferSequenceEmpty(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kFloat));
  if (dtype <= kUndefined || dtype > kMaxDataType) {
    return AttrError("dtype", StrCat("expected a tensor data type, got ", dtype));
  }
  ctx.SetOutputType(0, Type::Sequence(Type::Tensor(static_cast<int32_t>(dtype))));
  return OkStatus();
}

// SequenceAt: one tensor of the sequence, at a scalar position.
Status InferSequenceAt(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kSequence}, "a sequence"));
  OI_RETURN_IF_ERROR(RequireScalar(ctx, 1));
  ctx.SetOutputType(0, SequenceElement(ctx, 0));
  return OkStatus();
}

// SequenceInsert: the sequence with one more tensor, which must have the element type; the
// element's shape is what the old tensors and the new one share.
Status InferSequenceInsert(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kSequence}, "a sequence"));
  OI_RETURN_IF_ERROR(RequireKind(ctx, 1, {Type::Kind::kTensor}, "a tensor"));
  OI_RETURN_IF_ERROR(RequireScalar(ctx, 2));
  OI_ASSIGN_OR_RETURN(Type element,
                      JoinElements(SequenceElement(ctx, 0), ctx.InputType(1), ctx, 1));
  ctx.SetOutputType(0, Type::Sequence(std::move(element)));
  return OkStatus();
}

// SequenceErase: the sequence less one tensor; the rest keep their type.
Status InferSequenceErase(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kSequence}, "a sequence"));
  OI_RETURN_IF_ERROR(RequireScalar(ctx, 1));
  if (ctx.InputType(0).kind() == Type::Kind::kSequence) ctx.SetOutputType(0, ctx.InputType(0));
  return OkStatus();
}

// SequenceLength: an int64 scalar.
Status InferSequenceLength(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kSequence}, "a sequence"));
  ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{}));
  return OkStatus();
}

// The extent of SplitToSequence's chunks along the axis, when every chunk has the same one.
// `dim` is the input's extent. No split input: chunks of 1. A scalar split s: chunks of s and
// a shorter last one unless s divides the extent (a single chunk when the extent is below
// s). A 1-D split: its entries, which must add up to the extent.
StatusOr<Dim> SplitChunkDim(InferenceContext& ctx, Dim dim) {
  if (!ctx.HasInput(1)) return Dim::Const(1);
  const Shape* split_shape = ctx.InputShape(1);
  if (split_shape && split_shape->size() > 1) {
    return InputError(ctx, 1, DiagCode::kInputRank,
                      StrCat("expected a scalar or a 1-D tensor, got ", "rank ",
                             split_shape->size(), " ", ShapeToString(*split_shape)));
  }
  const ConstValue* v = ctx.InputValue(1);
  if (!v || static_cast<int64_t>(v->ints.size()) != v->NumElements()) return Dim();
  for (Dim d : v->ints) {
    if (auto c = d.const_value(); c && *c < 0) {
      return InputError(ctx, 1, DiagCode::kInputValue, StrCat("expected lengths >= 0, got ", *c));
    }
  }
  if (v->dims.empty()) {  // a scalar: chunks of this size
    const Dim s = v->ints.at(0);
    if (s.const_value() == 0) {
      return InputError(ctx, 1, DiagCode::kInputValue, "expected a chunk size > 0, got 0");
    }
    if (s.is_unknown() || dim.is_unknown()) return Dim();
    if (s.const_value() == 1) return s;
    if (Dim::Mod(dim, s).const_value() == 0) return s;
    if (auto d = dim.const_value(), c = s.const_value(); d && c && *d < *c) return dim;
    return Dim();
  }
  Dim sum = Dim::Const(0);
  for (Dim d : v->ints) sum = sum + d;
  if (!dim.is_unknown() && !sum.is_unknown()) {
    if (!UnifyDim(dim, sum).ok()) {
      return InputError(ctx, 1, DiagCode::kInputValue,
                        StrCat("expected lengths adding up to ", dim,
                               " (the input's extent on the axis), got ", sum));
    }
    OI_RETURN_IF_ERROR(ctx.RecordEqual(dim, sum, "the split lengths' sum and the input's extent"));
  }
  if (v->ints.empty()) return Dim();  // no chunks: nothing to describe
  for (Dim d : v->ints) {
    if (d != v->ints[0]) return Dim();
  }
  return v->ints[0];
}

// SplitToSequence: the chunks of the input along `axis`. Without a split input, `keepdims`
// = 0 drops the axis (each chunk has extent 1 there); with one, it is ignored.
Status InferSplitToSequence(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kTensor}, "a tensor"));
  const Type& in = ctx.InputType(0);
  Type element = Type::Tensor(in.is_tensor() ? in.elem_type() : 0);
  const Shape* shape = ctx.InputShape(0);
  OI_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.IntAttr("axis", 0));
  OI_ASSIGN_OR_RETURN(int64_t keepdims, ctx.IntAttr("keepdims", 1));
  if (shape) {
    OI_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.NormalizeAxis(axis_attr, static_cast<int64_t>(shape->size()),
                                          Subject::Attribute("axis")));
    Shape s = *shape;
    OI_ASSIGN_OR_RETURN(Dim chunk, SplitChunkDim(ctx, s[axis]));
    if (!ctx.HasInput(1) && keepdims == 0) {
      s.erase(s.begin() + axis);
    } else {
      s[axis] = chunk;
    }
    element.set_shape(std::move(s));
  } else {
    // Still check the split input.
    OI_RETURN_IF_ERROR(SplitChunkDim(ctx, Dim()).status());
  }
  ctx.SetOutputType(0, Type::Sequence(std::move(element)));
  return OkStatus();
}

// ConcatFromSequence: the tensors joined along `axis`, or stacked on a new axis at `axis`
// (new_axis = 1). How many there are is not known, so neither is that axis' extent.
Status InferConcatFromSequence(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireKind(ctx, 0, {Type::Kind::kSequence}, "a sequence"));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis"));
  OI_ASSIGN_OR_RETURN(int64_t new_axis, ctx.IntAttr("new_axis", 0));
  if (new_axis != 0 && new_axis != 1) {
    return AttrError("new_axis", StrCat("expected 0 or 1, got ", new_axis));
  }
  const Type element = SequenceElement(ctx, 0);
  Type out = Type::Tensor(element.is_tensor() ? element.elem_type() : 0);
  if (element.is_tensor() && element.has_shape()) {
    Shape s = element.shape();
    const int64_t rank = static_cast<int64_t>(s.size()) + new_axis;
    OI_ASSIGN_OR_RETURN(int64_t a, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
    if (new_axis) {
      s.insert(s.begin() + a, Dim());
    } else {
      s[a] = Dim();
    }
    out.set_shape(std::move(s));
  }
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxSequenceRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceConstruct", {11}, InferSequenceConstruct));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceEmpty", {11}, InferSequenceEmpty));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceAt", {11}, InferSequenceAt));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceInsert", {11}, InferSequenceInsert));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceErase", {11}, InferSequenceErase));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceLength", {11}, InferSequenceLength));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SplitToSequence", {11, 24}, InferSplitToSequence));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ConcatFromSequence", {11}, InferConcatFromSequence));
  return OkStatus();
}

}  // namespace onnx_infer
