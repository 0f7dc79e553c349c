// Control-flow operators of ai.onnx: If, Loop, Scan, SequenceMap. Their bodies are inferred
// as subgraphs through InferenceContext::InferSubgraph; the driver annotates them.
#include <algorithm>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer {
namespace {

// Two types one value may have on different paths (If branches, a loop-carried value before
// and after an iteration): what both allow. Equal dims stay; two different known dims become
// a fresh symbol named after output `output` (with `fresh`), or unknown; a dim unknown on
// either path is unknown; a rank that differs leaves the shape unknown. Different kinds or
// element types are an error. `changed` (if given) marks the top-level axes that differed.
StatusOr<Type> Join(const Type& a, const Type& b, const InferenceContext& ctx, int output,
                    std::string_view what, bool fresh = true,
                    std::vector<bool>* changed = nullptr) {
  if (a.is_unknown() || b.is_unknown()) return Type();
  if (a.kind() != b.kind()) {
    return RuleError(DiagCode::kSubgraphMismatch,
                     StrCat(what, ": ", a.ToString(), " vs ", b.ToString()));
  }
  switch (a.kind()) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: {
      if (a.elem_type() && b.elem_type() && a.elem_type() != b.elem_type()) {
        return RuleError(DiagCode::kSubgraphMismatch,
                         StrCat(what, ": element type ", DataTypeName(a.elem_type()), " vs ",
                                DataTypeName(b.elem_type())));
      }
      Type out = a;
      out.set_elem_type(a.elem_type() ? a.elem_type() : b.elem_type());
      if (!a.has_shape() || !b.has_shape() || a.rank() != b.rank()) {
        out.set_shape(std::nullopt);
        return out;
      }
      Shape s(a.shape().size());
      if (changed) changed->resize(s.size(), false);
      for (size_t i = 0; i < s.size(); ++i) {
        Dim da = a.shape()[i], db = b.shape()[i];
        if (da == db) {
          s[i] = da;
          continue;
        }
        if (changed) (*changed)[i] = true;
        if (fresh && !da.is_unknown() && !db.is_unknown()) {
          s[i] = ctx.FreshDim(output, static_cast<int>(i));
        }
      }
      out.set_shape(std::move(s));
      return out;
    }
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: {
      OI_ASSIGN_OR_RETURN(Type e, Join(a.element(), b.element(), ctx, output, what, fresh));
      return a.kind() == Type::Kind::kSequence ? Type::Sequence(std::move(e))
                                               : Type::Optional(std::move(e));
    }
    case Type::Kind::kMap: {
      OI_ASSIGN_OR_RETURN(Type v, Join(a.element(), b.element(), ctx, output, what, fresh));
      return Type::Map(a.map_key_type(), std::move(v));
    }
    case Type::Kind::kOpaque:
    case Type::Kind::kUnknown:
      return a;
  }
  return a;
}

std::optional<int64_t> ScalarValue(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v || v->NumElements() != 1 || v->ints.size() != 1) return std::nullopt;
  return v->ints[0].const_value();
}

// If: both branches are inferred (and annotated), so both are checked; a known condition (a
// constant, a given input value, a comparison the facts decide) picks its branch's types and
// values, and turns the other branch's errors and warnings into notes, otherwise the outputs
// are what both branches allow.
Status InferIf(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(auto then_types, ctx.InferSubgraph("then_branch", {}));
  OI_ASSIGN_OR_RETURN(auto else_types, ctx.InferSubgraph("else_branch", {}));
  const size_t n = static_cast<size_t>(ctx.NumOutputs());
  if (then_types.size() != n || else_types.size() != n) {
    return RuleError(DiagCode::kSubgraphMismatch,
                     StrCat("expected branches with ", n, " outputs, got ", then_types.size(),
                            " (then) and ", else_types.size(), " (else)"));
  }
  const std::optional<int64_t> cond = ScalarValue(ctx, 0);
  std::vector<std::optional<ConstValue>> taken_values;
  if (cond) {
    taken_values = ctx.SubgraphOutputValues(*cond ? "then_branch" : "else_branch");
    // The other branch never runs: what is wrong in it cannot happen (silero's 8 kHz branch
    // once the sample rate is given), so its errors and warnings become notes.
    ctx.SubgraphNotTaken(*cond ? "else_branch" : "then_branch",
                         StrCat("in the branch not taken (", InputLabel(ctx, 0), " is known to be ",
                                *cond ? "true" : "false", ")"));
  }
  for (size_t o = 0; o < n; ++o) {
    if (cond) {
      ctx.SetOutputType(static_cast<int>(o), *cond ? then_types[o] : else_types[o]);
      if (o < taken_values.size() && taken_values[o]) {
        ctx.SetOutputValue(static_cast<int>(o), std::move(*taken_values[o]));
      }
      continue;
    }
    OI_ASSIGN_OR_RETURN(Type joined, Join(then_types[o], else_types[o], ctx, static_cast<int>(o),
                                          StrCat("output ", o, " differs between the branches")));
    ctx.SetOutputType(static_cast<int>(o), std::move(joined));
  }
  return OkStatus();
}

// Adds a leading dim to a scan output's per-iteration type.
Type Stacked(const Type& element, Dim count, int64_t axis) {
  if (element.kind() != Type::Kind::kTensor) return Type();
  Type out = Type::Tensor(element.elem_type());
  if (element.has_shape()) {
    Shape s = element.shape();
    const int64_t rank = static_cast<int64_t>(s.size()) + 1;
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return out;
    s.insert(s.begin() + axis, count);
    out.set_shape(std::move(s));
  }
  return out;
}

// The shape of a Loop body's iteration number: [1] when the body declares rank 1, else a
// scalar.
Shape IterationNumberShape(const InferenceContext& ctx) {
  const onnx::AttributeProto* attr = ctx.Attr("body");
  if (attr && attr->has_g() && attr->g().input_size() > 0) {
    const onnx::TypeProto& declared = attr->g().input(0).type();
    if (declared.has_tensor_type() && declared.tensor_type().has_shape() &&
        declared.tensor_type().shape().dim_size() == 1) {
      return Shape{Dim::Const(1)};
    }
  }
  return Shape{};
}

// Whether a Loop's body passes its condition on unchanged: the condition output is the
// condition input itself, through Identity nodes, or a Constant true. A loop whose condition
// starts true then runs its full trip count.
bool BodyKeepsCondition(const InferenceContext& ctx) {
  const onnx::AttributeProto* attr = ctx.Attr("body");
  if (!attr || !attr->has_g()) return false;
  const onnx::GraphProto& body = attr->g();
  if (body.input_size() < 2 || body.output_size() < 1) return false;
  const std::string& cond_in = body.input(1).name();
  std::string name = body.output(0).name();
  for (int steps = 0; steps <= body.node_size(); ++steps) {
    if (name == cond_in) return true;
    const onnx::NodeProto* producer = nullptr;
    for (const auto& node : body.node()) {
      for (const auto& out : node.output()) {
        if (out == name) producer = &node;
      }
    }
    if (!producer || !producer->domain().empty()) return false;
    if (producer->op_type() == "Identity" && producer->input_size() == 1) {
      name = producer->input(0);
      continue;
    }
    if (producer->op_type() == "Constant") {
      for (const auto& a : producer->attribute()) {
        if (a.name() == "value" && a.has_t()) {
          auto v = ConstValueOfTensor(a.t(), 1);
          return v && v->ints.size() == 1 && v->ints[0].const_value() == 1;
        }
      }
    }
    return false;
  }
  return false;
}

// The number of iterations of a Loop, when known: the trip count M (a constant, or a size
// such as Shape(x)[0]) when no condition can end the loop before it, i.e. there is no
// condition input, or it is known true and the body passes it on unchanged.
Dim TripCount(const InferenceContext& ctx) {
  const ConstValue* m = ctx.HasInput(0) ? ctx.InputValue(0) : nullptr;
  if (!m || m->NumElements() != 1 || m->ints.size() != 1 || m->ints[0].is_unknown()) {
    return Dim();
  }
  if (ctx.HasInput(1)) {
    const ConstValue* cond = ctx.InputValue(1);
    if (!cond || cond->ints.size() != 1 || cond->ints[0].const_value() != 1 ||
        !BodyKeepsCondition(ctx)) {
      return Dim();
    }
  }
  return Dim::Max(m->ints[0], Dim::Const(0));  // a negative count runs no iteration
}

// Loop: carried values reach a fixpoint: the body is inferred again while their types change,
// and a dim that changes between iterations is unknown inside the body (symbols are global,
// so no one symbol can name a dim that varies). The loop's final value of such a dim is one
// value, so the output gets a fresh symbol for it. Scan outputs get the trip count as leading
// dim when it is known (TripCount), else a fresh symbol.
Status InferLoop(InferenceContext& ctx) {
  const int num_carried = std::max(ctx.NumInputs() - 2, 0);
  const int num_scan = ctx.NumOutputs() - num_carried;
  if (num_scan < 0) {
    return RuleError(DiagCode::kSubgraphMismatch, StrCat("expected at least ", num_carried,
                                                         " outputs (one per carried "
                                                         "value), got ",
                                                         ctx.NumOutputs()));
  }
  std::vector<Type> carried;
  for (int i = 0; i < num_carried; ++i) carried.push_back(ctx.InputType(2 + i));
  std::vector<std::vector<bool>> widened(num_carried);
  std::vector<bool> present(num_carried, false);  // optional before the loop, not after
  std::vector<Type> body_out;
  // The iteration number is one element. The spec does not give its rank, and onnxruntime
  // hands the body the rank it declares, a scalar or [1] (checked with onnxruntime 1.30; a
  // condition declared bool[1] it refuses at load, so the condition stays a scalar).
  const Shape iteration_shape = IterationNumberShape(ctx);
  constexpr int kMaxPasses = 4;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    std::vector<Type> body_in = {Type::Tensor(kInt64, iteration_shape),
                                 Type::Tensor(kBool, Shape{})};
    body_in.insert(body_in.end(), carried.begin(), carried.end());
    OI_ASSIGN_OR_RETURN(body_out, ctx.InferSubgraph("body", body_in));
    if (static_cast<int>(body_out.size()) != 1 + num_carried + num_scan) {
      return AttrError(
          "body", StrCat("expected ", 1 + num_carried + num_scan, " outputs (condition, ",
                         num_carried, " carried, ", num_scan, " scan), got ", body_out.size()));
    }
    bool changed = false;
    for (int i = 0; i < num_carried; ++i) {
      if (carried[i].is_unknown() && pass == 0) {
        // Nothing known before the loop: the body's type is all there is to go on, but the
        // body must be inferred again with it.
        changed |= !body_out[1 + i].is_unknown();
        carried[i] = body_out[1 + i];
        continue;
      }
      // From version 16 a carried value may start optional while the body gives the value
      // itself (an optional sequence that the first iteration fills): the body sees the
      // optional, the loop's output is what the body gives.
      const Type& next = body_out[1 + i];
      const bool unwraps = carried[i].kind() == Type::Kind::kOptional && !next.is_unknown() &&
                           next.kind() != Type::Kind::kOptional;
      present[i] = present[i] || unwraps;
      std::vector<bool> axes;
      OI_ASSIGN_OR_RETURN(Type joined,
                          Join(unwraps ? carried[i].element() : carried[i], next, ctx, i,
                               StrCat("loop-carried value ", i, " changes type in the body"),
                               /*fresh=*/false, &axes));
      if (unwraps) joined = Type::Optional(std::move(joined));
      widened[i].resize(std::max(widened[i].size(), axes.size()), false);
      for (size_t a = 0; a < axes.size(); ++a) widened[i][a] = widened[i][a] || axes[a];
      changed |= !(joined == carried[i]);
      carried[i] = std::move(joined);
    }
    if (!changed) break;
    if (pass == kMaxPasses - 1) {
      for (int i = 0; i < num_carried; ++i) {  // no fixpoint: what still changes is unknown
        const Type next = present[i] ? Type::Optional(body_out[1 + i]) : body_out[1 + i];
        if (!(carried[i] == next)) carried[i] = Type();
      }
    }
  }
  for (int i = 0; i < num_carried; ++i) {
    Type final_type = carried[i];
    if (present[i] && final_type.kind() == Type::Kind::kOptional) {
      final_type = carried[i].element();
      // The pattern is a sequence the loop accumulates, one element per iteration, and its
      // elements' shapes are then those of every iteration: the body's (often only
      // declared) element shape is not claimed for all of them (loop16_seq_none inserts
      // [1], [2], ... after a scalar into a sequence declared seq(float[])).
      if (final_type.kind() == Type::Kind::kSequence && final_type.element().is_tensor()) {
        final_type = Type::Sequence(Type::Tensor(final_type.element().elem_type()));
      }
    }
    if (final_type.kind() == Type::Kind::kTensor && final_type.has_shape()) {
      Shape s = final_type.shape();
      for (size_t a = 0; a < s.size() && a < widened[i].size(); ++a) {
        if (widened[i][a] && s[a].is_unknown()) s[a] = ctx.FreshDim(i, static_cast<int>(a));
      }
      final_type.set_shape(std::move(s));
    }
    ctx.SetOutputType(i, std::move(final_type));
  }
  const Dim trip = TripCount(ctx);
  for (int k = 0; k < num_scan; ++k) {
    const int o = num_carried + k;
    const Dim count = !trip.is_unknown() ? trip : ctx.FreshDim(o, 0);
    ctx.SetOutputType(o, Stacked(body_out[1 + num_carried + k], count, 0));
  }
  return OkStatus();
}

// A tensor type without the dim at `axis`.
StatusOr<Type> Sliced(const Type& t, int64_t axis, std::string_view what) {
  if (t.kind() != Type::Kind::kTensor) return Type();
  Type out = Type::Tensor(t.elem_type());
  if (!t.has_shape()) return out;
  const int64_t rank = t.rank();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    return RuleError(DiagCode::kAxisRange,
                     StrCat(what, ": axis ", axis, " is out of range for rank ", rank));
  }
  Shape s = t.shape();
  s.erase(s.begin() + axis);
  out.set_shape(std::move(s));
  return out;
}

// Scan (version 9 on): N state variables and M scan inputs sliced along their scan axes; the
// body's K extra outputs are stacked along the scan output axes.
Status InferScan(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t m, ctx.IntAttr("num_scan_inputs"));
  const int num_inputs = ctx.NumInputs();
  if (m < 1 || m > num_inputs) {
    return AttrError("num_scan_inputs", StrCat("expected 1 to ", num_inputs, ", got ", m));
  }
  const int n = num_inputs - static_cast<int>(m);
  const int k = ctx.NumOutputs() - n;
  if (k < 0)
    return RuleError(DiagCode::kSubgraphMismatch,
                     StrCat("expected at least ", n, " outputs, got ", ctx.NumOutputs()));
  OI_ASSIGN_OR_RETURN(auto in_axes, ctx.OptionalIntsAttr("scan_input_axes"));
  OI_ASSIGN_OR_RETURN(auto out_axes, ctx.OptionalIntsAttr("scan_output_axes"));
  std::vector<Type> body_in;
  for (int i = 0; i < n; ++i) body_in.push_back(ctx.InputType(i));
  Dim length;
  bool first = true;
  for (int j = 0; j < m; ++j) {
    const int64_t axis = in_axes && j < static_cast<int>(in_axes->size()) ? (*in_axes)[j] : 0;
    const Type& t = ctx.InputType(n + j);
    OI_ASSIGN_OR_RETURN(Type slice, Sliced(t, axis, StrCat("scan input ", j)));
    body_in.push_back(std::move(slice));
    if (const Shape* s = ctx.InputShape(n + j)) {
      const int64_t a = axis < 0 ? axis + static_cast<int64_t>(s->size()) : axis;
      Dim d = (*s)[a];
      if (first) {
        length = d;
      } else {
        auto u = UnifyDim(length, d);
        if (!u.ok())
          return RuleError(DiagCode::kInputDims,
                           StrCat("scan inputs differ in length: ", u.status().message()));
        length = *u;
      }
    } else if (first) {
      length = Dim();
    }
    first = false;
  }
  OI_ASSIGN_OR_RETURN(auto body_out, ctx.InferSubgraph("body", body_in));
  if (static_cast<int>(body_out.size()) != n + k) {
    return AttrError("body", StrCat("expected ", n + k, " outputs, got ", body_out.size()));
  }
  for (int i = 0; i < n; ++i) {
    OI_ASSIGN_OR_RETURN(Type joined, Join(ctx.InputType(i), body_out[i], ctx, i,
                                          StrCat("state ", i, " changes type in the body")));
    if (ctx.InputType(i).is_unknown()) joined = body_out[i];
    ctx.SetOutputType(i, std::move(joined));
  }
  for (int j = 0; j < k; ++j) {
    const int64_t axis = out_axes && j < static_cast<int>(out_axes->size()) ? (*out_axes)[j] : 0;
    const Dim count = length.is_unknown() ? ctx.FreshDim(n + j, 0) : length;
    ctx.SetOutputType(n + j, Stacked(body_out[n + j], count, axis));
  }
  return OkStatus();
}

// Scan version 8: a leading batch axis on states and scan inputs, the scan axis is 1, and an
// optional sequence_lens first input.
Status InferScan8(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t m, ctx.IntAttr("num_scan_inputs"));
  const int values = ctx.NumInputs() - 1;  // after sequence_lens
  if (m < 1 || m > values) {
    return AttrError("num_scan_inputs", StrCat("expected 1 to ", values, ", got ", m));
  }
  const int n = values - static_cast<int>(m);
  const int k = ctx.NumOutputs() - n;
  if (k < 0)
    return RuleError(DiagCode::kSubgraphMismatch,
                     StrCat("expected at least ", n, " outputs, got ", ctx.NumOutputs()));
  std::vector<Type> body_in;
  Dim batch, length;
  for (int i = 0; i < values; ++i) {
    const Type& t = ctx.InputType(1 + i);
    OI_ASSIGN_OR_RETURN(Type no_batch, Sliced(t, 0, StrCat("input ", 1 + i)));
    if (i >= n) {
      OI_ASSIGN_OR_RETURN(no_batch, Sliced(no_batch, 0, StrCat("scan input ", i - n)));
      if (const Shape* s = ctx.InputShape(1 + i); s && s->size() >= 2) length = (*s)[1];
    }
    if (const Shape* s = ctx.InputShape(1 + i); s && !s->empty() && batch.is_unknown()) {
      batch = (*s)[0];
    }
    body_in.push_back(std::move(no_batch));
  }
  OI_ASSIGN_OR_RETURN(auto body_out, ctx.InferSubgraph("body", body_in));
  if (static_cast<int>(body_out.size()) != n + k) {
    return AttrError("body", StrCat("expected ", n + k, " outputs, got ", body_out.size()));
  }
  for (int i = 0; i < n; ++i) ctx.SetOutputType(i, Stacked(body_out[i], batch, 0));
  for (int j = 0; j < k; ++j) {
    Type per_batch =
        Stacked(body_out[n + j], length.is_unknown() ? ctx.FreshDim(n + j, 1) : length, 0);
    ctx.SetOutputType(n + j, Stacked(per_batch, batch, 0));
  }
  return OkStatus();
}

// SequenceMap: the body maps one element of each sequence input (or the whole of each
// tensor input) to one element of each output sequence.
Status InferSequenceMap(InferenceContext& ctx) {
  std::vector<Type> body_in;
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const Type& t = ctx.InputType(i);
    body_in.push_back(t.kind() == Type::Kind::kSequence ? t.element() : t);
  }
  OI_ASSIGN_OR_RETURN(auto body_out, ctx.InferSubgraph("body", body_in));
  if (static_cast<int>(body_out.size()) != ctx.NumOutputs()) {
    return AttrError("body",
                     StrCat("expected ", ctx.NumOutputs(), " outputs, got ", body_out.size()));
  }
  for (int o = 0; o < ctx.NumOutputs(); ++o) ctx.SetOutputType(o, Type::Sequence(body_out[o]));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxControlFlowRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "If", {1, 11, 13, 16, 19, 21, 23, 24, 25}, InferIf));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Loop", {1, 11, 13, 16, 19, 21, 23, 24, 25}, InferLoop));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Scan", {8}, InferScan8));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Scan", {9, 11, 16, 19, 21, 23, 24, 25}, InferScan));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SequenceMap", {17}, InferSequenceMap));
  return OkStatus();
}

}  // namespace onnx_infer
