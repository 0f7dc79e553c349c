// Elementwise math operators of ai.onnx: the unary family, the broadcasting binary and
// variadic family (with the generators both families use), and the elementwise operators with
// rules of their own (Clip, PRelu, SwiGLU, Expand).
#include <algorithm>
#include <limits>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/ai_onnx/elementwise_family.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/value_movement.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {
namespace {

// Every input's dims unified (and the equalities recorded): for versions whose inputs must
// all have the same shape.
Status InferEqualShapes(InferenceContext& ctx) {
  std::optional<Shape> out;
  int first = -1;
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const Shape* s = ctx.InputShape(i);
    if (!s) continue;
    if (!out) {
      out = *s;
      first = i;
      continue;
    }
    if (s->size() != out->size()) {
      return RuleError(
          DiagCode::kBroadcast,
          StrCat("expected equal shapes (no broadcasting in opset ", ctx.opset_version(), "), got ",
                 InputLabel(ctx, first), " ", ShapeToString(*out), " and ", InputLabel(ctx, i), " ",
                 ShapeToString(*s)));
    }
    for (size_t d = 0; d < s->size(); ++d) {
      auto u = UnifyDim((*out)[d], (*s)[d]);
      if (!u.ok()) {
        return RuleError(
            DiagCode::kBroadcast,
            StrCat("expected equal shapes (no broadcasting in opset ", ctx.opset_version(), "), ",
                   InputLabel(ctx, i), " dim ", d, ": ", u.status().message()));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual((*out)[d], (*s)[d],
                                         StrCat("equal shapes, ", InputLabel(ctx, i), " dim ", d)));
      (*out)[d] = *u;
    }
  }
  if (out) ctx.SetOutputShape(0, std::move(*out));
  return OkStatus();
}

bool HasNonOneConst(const Shape& s) {
  return std::any_of(s.begin(), s.end(), [](Dim d) { return d.is_const() && d != Dim::Const(1); });
}

// Legacy broadcasting (broadcast=1 before opset 7): B is broadcast to A, so the result has A's
// shape. B has one element, or its dims match a contiguous run of A's starting at `axis`
// (without `axis`, ending at A's last dim). A dim of 1 in B matches any dim of A: the spec's
// examples only show equal dims, but PyTorch's exporters emit B = [2, 1] against A = [2, 3]
// (backend cases test_operator_add_size1_*broadcast), which the runtimes of that era accepted
// and ONNX infers as A's shape.
Status InferLegacyBroadcast(InferenceContext& ctx) {
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a) return OkStatus();
  Shape out = *a;
  // Only a B with a constant dim other than 1 is known not to be a single element.
  if (b && HasNonOneConst(*b)) {
    const int64_t rank_a = static_cast<int64_t>(a->size());
    const int64_t rank_b = static_cast<int64_t>(b->size());
    int64_t start = rank_a - rank_b;
    if (ctx.HasAttr("axis")) {
      OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis"));
      OI_ASSIGN_OR_RETURN(start, ctx.NormalizeAxis(axis, rank_a, Subject::Attribute("axis")));
    }
    if (start < 0 || start + rank_b > rank_a) {
      return RuleError(DiagCode::kBroadcast, StrCat("B ", ShapeToString(*b), " does not fit in A ",
                                                    ShapeToString(*a), " from axis ", start));
    }
    for (int64_t i = 0; i < rank_b; ++i) {
      if ((*b)[i].is_const() && *(*b)[i].const_value() == 1) continue;
      auto u = UnifyDim(out[start + i], (*b)[i]);
      if (!u.ok()) {
        return RuleError(DiagCode::kBroadcast,
                         StrCat("B ", ShapeToString(*b), " does not match A ", ShapeToString(*a),
                                " from axis ", start, ": ", u.status().message()));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual(out[start + i], (*b)[i],
                                         StrCat("B's dim ", i, " and A's dim ", start + i)));
      out[start + i] = *u;
    }
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// numpy broadcasting of every input; an equality the broadcast forces (N + 1 against M + 1,
// neither of which can be 1) is recorded.
Status InferMultidirectional(InferenceContext& ctx) {
  Shape out;
  const Shape* first = nullptr;  // input 0's shape, copied only when it is the only input
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const Shape* s = ctx.InputShape(i);
    if (!s) return OkStatus();  // rank unknown: so is the output's
    if (i == 0) {
      first = s;
      continue;
    }
    OI_ASSIGN_OR_RETURN(out, BroadcastShapes(i == 1 ? *first : out, *s, &ctx));
  }
  if (ctx.NumInputs() == 1) out = *first;
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// Sets output 0's value when every input's is known.
void PropagateValue(InferenceContext& ctx, ValueOp op, int32_t out_type) {
  if (op == ValueOp::kNone || out_type == 0) return;
  std::vector<const ConstValue*> values;
  for (int i = 0; i < ctx.NumInputs(); ++i) {
    const ConstValue* v = ctx.InputValue(i);
    if (!v) return;
    values.push_back(v);
  }
  const symbolic::Unifier* unifier = ctx.unifier();
  const symbolic::Assumptions* assumptions = unifier ? &unifier->assumptions() : nullptr;
  std::optional<ConstValue> v =
      ApplyValueOp(op, values, out_type, ctx.max_value_elements(), assumptions);
  auto unknowns = [](const std::optional<ConstValue>& c) {
    if (!c) return std::numeric_limits<size_t>::max();
    return static_cast<size_t>(
        std::count_if(c->ints.begin(), c->ints.end(), [](Dim d) { return d.is_unknown(); }));
  };
  // What the model leaves open the user's assumptions may decide (Equal(N, 1) under N >= 2,
  // which then decides an If): the value holds under them, and the conditions say so.
  if (unifier && unifier->has_user_assumptions() && unknowns(v) > 0) {
    std::optional<ConstValue> assumed =
        ApplyValueOp(op, values, out_type, ctx.max_value_elements(), &unifier->full_assumptions());
    if (unknowns(assumed) < unknowns(v)) {
      std::vector<Dim> dims;
      for (const ConstValue* in : values) dims.insert(dims.end(), in->ints.begin(), in->ints.end());
      ctx.RecordAssumed(
          StrJoin(unifier->UserAssumptionsOf(dims), ", "),
          StrCat("the value of output 0 '", ctx.node().output_size() ? ctx.node().output(0) : "",
                 "' is ", assumed->ToString(), " instead of ",
                 v ? v->ToString() : std::string("unknown")));
      v = std::move(assumed);
    }
  }
  if (v) ctx.SetOutputValue(0, std::move(*v));
}

Status InferUnary(const UnaryOpSpec& op, InferenceContext& ctx) {
  if (op.check) OI_RETURN_IF_ERROR(op.check(ctx));
  OI_RETURN_IF_ERROR(InferSameAsInput(ctx));
  PropagateValue(ctx, op.value, InputElemType(ctx, 0));
  return OkStatus();
}

Status InferBroadcast(const BroadcastOpSpec& op, InferenceContext& ctx) {
  if (op.check) OI_RETURN_IF_ERROR(op.check(ctx));
  ctx.PropagateElemType(0, 0);
  const bool legacy = ctx.opset_version() < op.broadcast_since;
  if (!legacy) {
    OI_RETURN_IF_ERROR(InferMultidirectional(ctx));
  } else if (ctx.schema().FindAttribute("broadcast")) {
    OI_ASSIGN_OR_RETURN(int64_t broadcast, ctx.IntAttr("broadcast", 0));
    OI_RETURN_IF_ERROR(broadcast ? InferLegacyBroadcast(ctx) : InferEqualShapes(ctx));
  } else {
    OI_RETURN_IF_ERROR(InferEqualShapes(ctx));
  }
  if (op.outputs_bool) {
    Type t = ctx.OutputType(0);
    t.set_elem_type(kBool);
    ctx.SetOutputType(0, std::move(t));
  }
  // Legacy broadcasting aligns B at `axis`, not numpy-style: no values there.
  if (!legacy || !ctx.schema().FindAttribute("broadcast")) {
    ValueOp value = op.value;
    if (value == ValueOp::kMod) {
      OI_ASSIGN_OR_RETURN(int64_t fmod, ctx.IntAttr("fmod", 0));
      if (fmod) value = ValueOp::kFmod;
    }
    PropagateValue(ctx, value, op.outputs_bool ? kBool : InputElemType(ctx, 0));
  }
  return OkStatus();
}

// ---- Attribute checks.

Status CheckGelu(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string approximate, ctx.StringAttr("approximate", "none"));
  if (approximate != "none" && approximate != "tanh") {
    return AttrError("approximate",
                     StrCat("expected \"none\" or \"tanh\", got \"", approximate, "\""));
  }
  return OkStatus();
}

Status CheckMod(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t fmod, ctx.IntAttr("fmod", 0));
  const int32_t t = InputElemType(ctx, 0);
  if (fmod == 0 && IsFloatDataType(t)) {
    return AttrError("fmod", StrCat("expected 1 for ", DataTypeName(t), " inputs, got 0"));
  }
  return OkStatus();
}

// ---- Operators with rules of their own.

// Clip: the input's type. From version 11, `min` and `max` are optional inputs that must be
// scalars.
Status InferClip(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(InferSameAsInput(ctx));
  if (ctx.opset_version() < 11) return OkStatus();
  for (int i = 1; i < ctx.NumInputs() && i <= 2; ++i) {
    const Shape* s = ctx.InputShape(i);
    if (!s || s->empty()) continue;
    Dim n = Product(*s);
    if (n.is_const() && n != Dim::Const(1)) {
      return InputError(ctx, i, DiagCode::kInputRank,
                        StrCat("expected a scalar, got ", ShapeToString(*s)));
    }
    if (n.is_const()) {
      ctx.Warn(StrCat(InputLabel(ctx, i), ": expected a scalar, got one element of shape ",
                      ShapeToString(*s)),
               InputSubject(ctx, i));
    }
  }
  return OkStatus();
}

// PRelu: the output has X's shape. From version 7 the slope broadcasts to X in one
// direction: each of its dims (aligned at the right) is 1 or X's. Before, the slope was only
// described as "of size 1, or shared across channels", which fixes nothing to check.
Status InferPRelu(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  const Shape* slope = ctx.InputShape(1);
  if (!x) return OkStatus();
  Shape out = *x;
  if (ctx.opset_version() >= 7 && slope) {
    if (slope->size() > x->size()) {
      return RuleError(DiagCode::kBroadcast,
                       StrCat("slope ", ShapeToString(*slope), " does not broadcast to X ",
                              ShapeToString(*x), ": its rank is larger"));
    }
    const size_t offset = x->size() - slope->size();
    for (size_t i = 0; i < slope->size(); ++i) {
      Dim s = (*slope)[i];
      if (s == Dim::Const(1)) continue;
      Dim& d = out[offset + i];
      if (!s.is_const()) continue;  // a symbol is 1 or X's dim: nothing follows
      auto u = UnifyDim(d, s);
      if (!u.ok()) {
        return RuleError(
            DiagCode::kBroadcast,
            StrCat("slope ", ShapeToString(*slope), " does not broadcast to X ", ShapeToString(*x),
                   " at X's dim ", offset + i, ": ", u.status().message()));
      }
      OI_RETURN_IF_ERROR(
          ctx.RecordEqual(d, s, StrCat("slope dim ", i, " and X's dim ", offset + i)));
      d = *u;
    }
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// SwiGLU: Swish(A) * B with no broadcasting: A and B have the same shape, which is Y's.
Status InferSwiGLU(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  return InferEqualShapes(ctx);
}

// Every since_version of each member is listed; docs/op-coverage.md shows any missing.
const std::vector<UnaryOpSpec>& UnaryMathOps() {
  static const auto* ops = new std::vector<UnaryOpSpec>{
      {"Abs", {1, 6, 13}, ValueOp::kAbs},
      {"Acos", {7, 22}},
      {"Acosh", {9, 22}},
      {"Asin", {7, 22}},
      {"Asinh", {9, 22}},
      {"Atan", {7, 22}},
      {"Atanh", {9, 22}},
      {"Ceil", {1, 6, 13}, ValueOp::kCeil},
      {"Celu", {12, 28}},
      {"Cos", {7, 22}},
      {"Cosh", {9, 22}},
      {"Elu", {1, 6, 22}},
      {"Erf", {9, 13}},
      {"Exp", {1, 6, 13}},
      {"Floor", {1, 6, 13}, ValueOp::kFloor},
      {"Gelu", {20}, ValueOp::kNone, CheckGelu},
      {"HardSigmoid", {1, 6, 22}},
      {"HardSwish", {14, 22}},
      {"LeakyRelu", {1, 6, 16}},
      {"Log", {1, 6, 13}},
      {"Mish", {18, 22}},
      {"Neg", {1, 6, 13}, ValueOp::kNeg},
      {"Reciprocal", {1, 6, 13}},
      {"Relu", {1, 6, 13, 14}},
      {"Round", {11, 22}},
      {"Selu", {1, 6, 22}},
      {"Sigmoid", {1, 6, 13}},
      {"Sign", {9, 13}},
      {"Sin", {7, 22}},
      {"Sinh", {9, 22}},
      {"Softplus", {1, 22}},
      {"Softsign", {1, 22}},
      {"Sqrt", {1, 6, 13}},
      {"Swish", {24}},
      {"Tan", {7, 22}},
      {"Tanh", {1, 6, 13}},
      {"ThresholdedRelu", {10, 22}},
  };
  return *ops;
}

const std::vector<BroadcastOpSpec>& BroadcastMathOps() {
  static const auto* ops = new std::vector<BroadcastOpSpec>{
      {"Add", {1, 6, 7, 13, 14}, ValueOp::kAdd},
      {"Sub", {1, 6, 7, 13, 14}, ValueOp::kSub},
      {"Mul", {1, 6, 7, 13, 14}, ValueOp::kMul},
      {"Div", {1, 6, 7, 13, 14}, ValueOp::kDiv},
      {"Pow", {1, 7, 12, 13, 15}},
      {"Mod", {10, 13}, ValueOp::kMod, false, 7, CheckMod},
      // Variadic: all inputs have one shape before version 8.
      {"Max", {1, 6, 8, 12, 13}, ValueOp::kMax, false, 8},
      {"Min", {1, 6, 8, 12, 13}, ValueOp::kMin, false, 8},
      {"Mean", {1, 6, 8, 13}, ValueOp::kNone, false, 8},
      {"Sum", {1, 6, 8, 13}, ValueOp::kAdd, false, 8},
  };
  return *ops;
}

}  // namespace

Status AttachUnaryFamily(SchemaRegistry& r, std::span<const UnaryOpSpec> ops) {
  for (const UnaryOpSpec& op : ops) {
    for (int v : op.versions) {
      OI_RETURN_IF_ERROR(r.AttachRule(
          "", op.name, {v}, [&op](InferenceContext& ctx) { return InferUnary(op, ctx); }));
    }
  }
  return OkStatus();
}

Status AttachBroadcastFamily(SchemaRegistry& r, std::span<const BroadcastOpSpec> ops) {
  for (const BroadcastOpSpec& op : ops) {
    for (int v : op.versions) {
      OI_RETURN_IF_ERROR(r.AttachRule(
          "", op.name, {v}, [&op](InferenceContext& ctx) { return InferBroadcast(op, ctx); }));
    }
  }
  return OkStatus();
}

Status RegisterAiOnnxElementwiseRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(AttachUnaryFamily(r, UnaryMathOps()));
  OI_RETURN_IF_ERROR(AttachBroadcastFamily(r, BroadcastMathOps()));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Clip", {1, 6, 11, 12, 13}, InferClip));
  OI_RETURN_IF_ERROR(r.AttachRule("", "PRelu", {1, 6, 7, 9, 16}, InferPRelu));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SwiGLU", {28}, InferSwiGLU));
  return OkStatus();
}

}  // namespace onnx_infer
