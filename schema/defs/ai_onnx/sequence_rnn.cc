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
#include "onnx_infer/schema/defs/ai_onnx/sequence_rnn.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

std::string_view KindName(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kUnknown:
      return "an unknown type";
    case Type::Kind::kTensor:
      return "a tensor";
    case Type::Kind::kSparseTensor:
      return "a sparse tensor";
    case Type::Kind::kSequence:
      return "a sequence";
    case Type::Kind::kMap:
      return "a map";
    case Type::Kind::kOptional:
      return "an optional";
    case Type::Kind::kOpaque:
      return "an opaque value";
  }
  return "?";
}

// Input i, when its kind is known, is one of `kinds`; `expected` says which ("a sequence").
Status RequireKind(const InferenceContext& ctx, int i, std::initializer_list<Type::Kind> kinds,
                   std::string_view expected) {
  const Type& t = ctx.InputType(i);
  if (t.is_unknown()) return OkStatus();
  for (Type::Kind k : kinds) {
    if (t.kind() == k) return OkStatus();
  }
  return Status::Error(StrCat(InputLabel(ctx, i), ": expected ", expected, ", got ",
                              KindName(t.kind()), " (", t.ToString(), ")"));
}

// An input that must be a scalar (a sequence position) has rank 0 when its rank is known.
Status RequireScalar(const InferenceContext& ctx, int i) {
  if (!ctx.HasInput(i)) return OkStatus();
  if (const Shape* s = ctx.InputShape(i); s && !s->empty()) {
    return Status::Error(StrCat(InputLabel(ctx, i), ": expected a scalar, got rank ", s->size(),
                                " ", ShapeToString(*s)));
  }
  return OkStatus();
}

// Input i, when its rank is known, has rank `rank`.
Status RequireRank(const InferenceContext& ctx, int i, size_t rank) {
  if (!ctx.HasInput(i)) return OkStatus();
  if (const Shape* s = ctx.InputShape(i); s && s->size() != rank) {
    return Status::Error(StrCat(InputLabel(ctx, i), ": expected rank ", rank, ", got rank ",
                                s->size(), " ", ShapeToString(*s)));
  }
  return OkStatus();
}

// The element of a sequence that holds tensors of type `a` and also one of type `b`: the
// element types must agree; dims both have stay, dims that differ become unknown, and ranks
// that differ leave the shape unknown. Nothing known of `a` (or `b`) means its tensors may
// have any shape, so only the element type survives. `subject` names `b` in an error.
StatusOr<Type> JoinElements(const Type& a, const Type& b, std::string_view subject) {
  if (a.is_unknown() && b.is_unknown()) return Type();
  for (const Type* t : {&a, &b}) {
    if (!t->is_unknown() && !t->is_tensor()) {
      return Status::Error(StrCat(subject, ": expected a tensor element, got ", KindName(t->kind()),
                                  " (", t->ToString(), ")"));
    }
  }
  if (a.is_unknown() || b.is_unknown()) {
    return Type::Tensor(a.is_unknown() ? b.elem_type() : a.elem_type());
  }
  if (a.elem_type() && b.elem_type() && a.elem_type() != b.elem_type()) {
    return Status::Error(StrCat(subject, ": expected element type ", DataTypeName(a.elem_type()),
                                " (as the sequence's other tensors), got ",
                                DataTypeName(b.elem_type())));
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
    OI_ASSIGN_OR_RETURN(element, JoinElements(element, ctx.InputType(i), InputLabel(ctx, i)));
  }
  ctx.SetOutputType(0, Type::Sequence(std::move(element)));
  return OkStatus();
}

// SequenceEmpty: an empty sequence of `dtype` tensors (float by default). Having no tensors,
// it says nothing of their shape.
Status InferSequenceEmpty(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dtype, ctx.IntAttr("dtype", kFloat));
  if (dtype <= kUndefined || dtype > kMaxDataType) {
    return Status::Error(StrCat("attribute 'dtype': expected a tensor data type, got ", dtype));
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
                   JoinElements(SequenceElement(ctx, 0), ctx.InputType(1), InputLabel(ctx, 1)));
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
    return Status::Error(StrCat(InputLabel(ctx, 1), ": expected a scalar or a 1-D tensor, got ",
                                "rank ", split_shape->size(), " ", ShapeToString(*split_shape)));
  }
  const ConstValue* v = ctx.InputValue(1);
  if (!v || static_cast<int64_t>(v->ints.size()) != v->NumElements()) return Dim();
  for (Dim d : v->ints) {
    if (auto c = d.const_value(); c && *c < 0) {
      return Status::Error(StrCat(InputLabel(ctx, 1), ": expected lengths >= 0, got ", *c));
    }
  }
  if (v->dims.empty()) {  // a scalar: chunks of this size
    const Dim s = v->ints.at(0);
    if (s.const_value() == 0) {
      return Status::Error(StrCat(InputLabel(ctx, 1), ": expected a chunk size > 0, got 0"));
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
      return Status::Error(StrCat(InputLabel(ctx, 1), ": expected lengths adding up to ", dim,
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
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(axis_attr, static_cast<int64_t>(shape->size()),
                                                     "attribute 'axis'"));
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
    return Status::Error(StrCat("attribute 'new_axis': expected 0 or 1, got ", new_axis));
  }
  const Type element = SequenceElement(ctx, 0);
  Type out = Type::Tensor(element.is_tensor() ? element.elem_type() : 0);
  if (element.is_tensor() && element.has_shape()) {
    Shape s = element.shape();
    const int64_t rank = static_cast<int64_t>(s.size()) + new_axis;
    OI_ASSIGN_OR_RETURN(int64_t a, ctx.NormalizeAxis(axis, rank, "attribute 'axis'"));
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

// Optional: an optional holding the input's type, or, with no input, the `type` attribute's
// (an empty optional). Given both, they must agree.
Status InferOptional(InferenceContext& ctx) {
  const onnx::AttributeProto* attr = ctx.Attr("type");
  std::optional<Type> declared;
  if (attr) {
    if (!attr->has_tp()) {
      return Status::Error("attribute 'type': expected a type (TYPE_PROTO)");
    }
    declared = TypeFromProto(attr->tp());
  }
  if (!ctx.HasInput(0)) {
    if (!declared) {
      return Status::Error("attribute 'type': required when input 0 is omitted");
    }
    ctx.SetOutputType(0, Type::Optional(*declared));
    return OkStatus();
  }
  Type element = ctx.InputType(0);
  if (declared) {
    auto merged = MergeTypes(element, *declared);
    if (!merged.ok()) {
      return Status::Error(StrCat(InputLabel(ctx, 0), ": expected the type of attribute 'type' (",
                                  declared->ToString(), "), got ", element.ToString(), ": ",
                                  merged.status().message()));
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
    OI_RETURN_IF_ERROR(RequireKind(ctx, 0,
                                {Type::Kind::kOptional, Type::Kind::kTensor, Type::Kind::kSequence},
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
    OI_RETURN_IF_ERROR(RequireKind(ctx, 0,
                                {Type::Kind::kOptional, Type::Kind::kTensor, Type::Kind::kSequence},
                                "an optional, a tensor or a sequence"));
  }
  ctx.SetOutputType(0, Type::Tensor(kBool, Shape{}));
  return OkStatus();
}

// ---- Recurrent operators.

// Input i's dim `axis` is the dim `known` stands for (`meaning`, e.g. "hidden_size"): the two
// unify into `known`, and the equality is recorded. Provably different dims are an error.
Status Agree(InferenceContext& ctx, Dim& known, int i, size_t axis, std::string_view meaning) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size()) return OkStatus();
  const Dim d = (*s)[axis];
  if (d.is_unknown()) return OkStatus();
  if (known.is_unknown()) {
    known = d;
    return OkStatus();
  }
  auto unified = UnifyDim(known, d);
  if (!unified.ok()) {
    return Status::Error(StrCat(InputLabel(ctx, i), " dim ", axis, ": expected ", known, " (",
                                meaning, "), got ", d));
  }
  OI_RETURN_IF_ERROR(
      ctx.RecordEqual(known, d, StrCat(InputLabel(ctx, i), " dim ", axis, " and ", meaning)));
  known = *unified;
  return OkStatus();
}

// Input i's dim `axis` is `factor` * hidden_size (W, R, B and P stack their gates).
Status AgreeMultiple(InferenceContext& ctx, Dim hidden, int64_t factor, int i, size_t axis) {
  if (hidden.is_unknown()) return OkStatus();
  Dim expected = Dim::Const(factor) * hidden;
  return Agree(ctx, expected, i, axis, StrCat(factor, " * hidden_size"));
}

// hidden_size from input i's dim `axis`, which is `factor` * hidden_size, when the division
// is exact; an error when it provably is not.
StatusOr<Dim> HiddenFromMultiple(const InferenceContext& ctx, int i, size_t axis, int64_t factor) {
  const Shape* s = ctx.HasInput(i) ? ctx.InputShape(i) : nullptr;
  if (!s || axis >= s->size() || (*s)[axis].is_unknown()) return Dim();
  const Dim d = (*s)[axis];
  const Dim f = Dim::Const(factor);
  const std::optional<int64_t> rest = Dim::Mod(d, f).const_value();
  if (rest == 0) return Dim::FloorDiv(d, f);
  if (rest) {
    return Status::Error(StrCat(InputLabel(ctx, i), " dim ", axis, ": expected a multiple of ",
                                factor, " (", factor, " * hidden_size), got ", d));
  }
  return Dim();
}

// Inputs of RNN, GRU and LSTM.
enum RecurrentInput {
  kX = 0,
  kW = 1,
  kR = 2,
  kB = 3,
  kSeqLens = 4,
  kInitialH = 5,
  kInitialC = 6,
  kP = 7
};

}  // namespace

// RNN (gates = 1), GRU (3) and LSTM (4). With num_directions = 2 for a bidirectional
// direction, else 1:
//   X [seq_length, batch_size, input_size]   W [num_directions, gates*hidden, input_size]
//   R [num_directions, gates*hidden, hidden]  B [num_directions, 2*gates*hidden]
//   sequence_lens [batch_size]   initial_h, initial_c [num_directions, batch_size, hidden]
//   P [num_directions, 3*hidden]
//   Y [seq_length, num_directions, batch_size, hidden]
//   Y_h, Y_c [num_directions, batch_size, hidden]
// From version 14, layout = 1 puts batch_size first in X, initial_h/c, Y and Y_h/c:
// X [batch, seq, input], Y [batch, seq, num_directions, hidden], Y_h [batch, num_directions,
// hidden]. hidden_size is the attribute's, else what R, initial_h/c or (divided) W, B and P
// say. Dims that must agree are unified and recorded.
Status InferRecurrent(InferenceContext& ctx, int64_t gates, bool w_spans_input) {
  const bool lstm = gates == 4;
  int64_t layout = 0;
  if (ctx.schema().since_version() >= 14) {
    OI_ASSIGN_OR_RETURN(layout, ctx.IntAttr("layout", 0));
    if (layout != 0 && layout != 1) {
      return Status::Error(StrCat("attribute 'layout': expected 0 or 1, got ", layout));
    }
  }
  OI_ASSIGN_OR_RETURN(std::string direction, ctx.StringAttr("direction", "forward"));
  int64_t num_directions = 0;
  // GRU-1's schema spells its default "foward".
  if (direction == "forward" || direction == "reverse" || direction == "foward") {
    num_directions = 1;
  } else if (direction == "bidirectional") {
    num_directions = 2;
  } else {
    return Status::Error(
        StrCat("attribute 'direction': expected forward, reverse or "
               "bidirectional, got '",
               direction, "'"));
  }
  const std::vector<std::pair<int, size_t>> ranks = {
      {kX, 3}, {kW, 3}, {kR, 3}, {kB, 2}, {kSeqLens, 1}, {kInitialH, 3}, {kInitialC, 3}, {kP, 2}};
  for (auto [input, rank] : ranks) {
    if (input >= ctx.NumInputs() || (!lstm && input >= kInitialC)) continue;
    OI_RETURN_IF_ERROR(RequireRank(ctx, input, rank));
  }
  const size_t seq_axis = layout ? 1 : 0, batch_axis = layout ? 0 : 1;
  // initial_h and initial_c: [num_directions, batch] or [batch, num_directions].
  const size_t state_dir_axis = layout ? 1 : 0, state_batch_axis = layout ? 0 : 1;
  std::vector<int> states = {kInitialH};
  if (lstm) states.push_back(kInitialC);

  Dim seq_length, batch, input_size, hidden;
  Dim dirs = Dim::Const(num_directions);
  if (const Shape* x = ctx.InputShape(kX)) {
    seq_length = (*x)[seq_axis];
    batch = (*x)[batch_axis];
    input_size = (*x)[2];
  }
  if (ctx.HasAttr("hidden_size")) {
    OI_ASSIGN_OR_RETURN(int64_t h, ctx.IntAttr("hidden_size"));
    if (h <= 0) {
      return Status::Error(StrCat("attribute 'hidden_size': expected a positive number, got ", h));
    }
    hidden = Dim::Const(h);
  }
  OI_RETURN_IF_ERROR(Agree(ctx, hidden, kR, 2, "hidden_size"));
  for (int s : states) OI_RETURN_IF_ERROR(Agree(ctx, hidden, s, 2, "hidden_size"));
  const std::vector<std::pair<int, int64_t>> multiples = {
      {kW, gates}, {kR, gates}, {kB, 2 * gates}, {kP, 3}};
  for (auto [input, factor] : multiples) {
    if (!hidden.is_unknown()) break;
    if (input == kP && !lstm) continue;
    OI_ASSIGN_OR_RETURN(hidden, HiddenFromMultiple(ctx, input, 1, factor));
  }
  for (auto [input, factor] : multiples) {
    if (input == kP && !lstm) continue;
    OI_RETURN_IF_ERROR(AgreeMultiple(ctx, hidden, factor, input, 1));
  }
  for (int input : {kW, kR, kB}) OI_RETURN_IF_ERROR(Agree(ctx, dirs, input, 0, "num_directions"));
  if (lstm) OI_RETURN_IF_ERROR(Agree(ctx, dirs, kP, 0, "num_directions"));
  for (int s : states) {
    OI_RETURN_IF_ERROR(Agree(ctx, dirs, s, state_dir_axis, "num_directions"));
    OI_RETURN_IF_ERROR(Agree(ctx, batch, s, state_batch_axis, "batch_size"));
  }
  OI_RETURN_IF_ERROR(Agree(ctx, batch, kSeqLens, 0, "batch_size"));
  if (w_spans_input) OI_RETURN_IF_ERROR(Agree(ctx, input_size, kW, 2, "input_size"));

  const Shape y =
      layout ? Shape{batch, seq_length, dirs, hidden} : Shape{seq_length, dirs, batch, hidden};
  const Shape state = layout ? Shape{batch, dirs, hidden} : Shape{dirs, batch, hidden};
  const int num_outputs = lstm ? 3 : 2;
  for (int o = 0; o < num_outputs && o < ctx.NumOutputs(); ++o) {
    if (!ctx.HasOutput(o)) continue;
    ctx.PropagateElemType(kX, o);
    ctx.SetOutputShape(o, o == 0 ? y : state);
  }
  return OkStatus();
}

namespace {

Status InferRNN(InferenceContext& ctx) { return InferRecurrent(ctx, 1); }
Status InferGRU(InferenceContext& ctx) { return InferRecurrent(ctx, 3); }
Status InferLSTM(InferenceContext& ctx) { return InferRecurrent(ctx, 4); }

// ---- ai.onnx.preview.training.

// The optimizers take R and T, then `in_groups` groups of n inputs (the tensors X, their
// gradients G, and their state: H for Adagrad, V for Momentum, V and H for Adam), and return
// groups of n outputs, each the new value of one input group (`out_groups`: the input
// group each output group updates). A new value has the type of the value it replaces.
Status InferOptimizer(InferenceContext& ctx, int in_groups, std::vector<int> out_groups,
                      std::string_view layout) {
  const int tensors = ctx.NumInputs() - 2;
  if (tensors < in_groups || tensors % in_groups != 0) {
    return Status::Error(StrCat("expected 2 + ", in_groups, "n inputs (R, T, then ", layout,
                                " for each of n tensors), got ", ctx.NumInputs()));
  }
  const int n = tensors / in_groups;
  const int max_outputs = n * static_cast<int>(out_groups.size());
  if (ctx.NumOutputs() > max_outputs) {
    return Status::Error(StrCat("expected at most ", max_outputs, " outputs for ", n,
                                " optimized tensors, got ", ctx.NumOutputs()));
  }
  for (int o = 0; o < ctx.NumOutputs(); ++o) {
    const int in = 2 + out_groups[o / n] * n + o % n;
    OI_RETURN_IF_ERROR(RequireKind(ctx, in, {Type::Kind::kTensor}, "a tensor"));
    if (ctx.HasOutput(o)) ctx.SetOutputType(o, ctx.InputType(in));
  }
  return OkStatus();
}

// Adagrad: X, G, H -> X_new, H_new.
Status InferAdagrad(InferenceContext& ctx) { return InferOptimizer(ctx, 3, {0, 2}, "X, G and H"); }
// Momentum: X, G, V -> X_new, V_new.
Status InferMomentum(InferenceContext& ctx) { return InferOptimizer(ctx, 3, {0, 2}, "X, G and V"); }
// Adam: X, G, V, H -> X_new, V_new, H_new.
Status InferAdam(InferenceContext& ctx) {
  return InferOptimizer(ctx, 4, {0, 2, 3}, "X, G, V and H");
}

// Gradient: the inputs are values for the names in `xs` then `zs`; output i is the gradient
// of `y` with respect to xs[i], which has that input's type.
Status InferGradient(InferenceContext& ctx) {
  const onnx::AttributeProto* xs = ctx.Attr("xs");
  if (!xs) return Status::Error("attribute 'xs': required");
  const onnx::AttributeProto* zs = ctx.Attr("zs");
  const int num_xs = xs->strings_size();
  const int num_zs = zs ? zs->strings_size() : 0;
  if (ctx.NumInputs() != num_xs + num_zs) {
    return Status::Error(StrCat("expected ", num_xs + num_zs,
                                " inputs (one per name in 'xs' "
                                "and 'zs'), got ",
                                ctx.NumInputs()));
  }
  if (ctx.NumOutputs() > num_xs) {
    return Status::Error(StrCat("expected at most ", num_xs,
                                " outputs (one per name in 'xs'), "
                                "got ",
                                ctx.NumOutputs()));
  }
  for (int o = 0; o < ctx.NumOutputs(); ++o) {
    const Type& x = ctx.InputType(o);
    if (ctx.HasOutput(o) && x.is_tensor()) ctx.SetOutputType(o, x);
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxSequenceRnnRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceConstruct", {11}, InferSequenceConstruct));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceEmpty", {11}, InferSequenceEmpty));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceAt", {11}, InferSequenceAt));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceInsert", {11}, InferSequenceInsert));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceErase", {11}, InferSequenceErase));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceLength", {11}, InferSequenceLength));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SplitToSequence", {11, 24}, InferSplitToSequence));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ConcatFromSequence", {11}, InferConcatFromSequence));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Optional", {15}, InferOptional));
  OI_RETURN_IF_ERROR(r.AttachRule("", "OptionalGetElement", {15, 18}, InferOptionalGetElement));
  OI_RETURN_IF_ERROR(r.AttachRule("", "OptionalHasElement", {15, 18}, InferOptionalHasElement));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RNN", {1, 7, 14, 22}, InferRNN));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GRU", {1, 3, 7, 14, 22}, InferGRU));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LSTM", {1, 7, 14, 22}, InferLSTM));
  constexpr std::string_view kTraining = "ai.onnx.preview.training";
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Adagrad", {1}, InferAdagrad));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Adam", {1}, InferAdam));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Momentum", {1}, InferMomentum));
  OI_RETURN_IF_ERROR(r.AttachRule(kTraining, "Gradient", {1}, InferGradient));
  return OkStatus();
}

}  // namespace onnx_infer
