// Math operators of ai.onnx that are not elementwise: softmax family, Gemm and the integer
// matmuls, Einsum, TopK, cumulative ops, Det, spectral ops and windows, losses.
#include "onnx_infer/schema/defs/ai_onnx/math/math.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// Output 0 keeps input 0's type; an `axis` attribute must name one of its dims. Before
// opset 13 Softmax, LogSoftmax and Hardmax coerce the input to 2-D at the axis, which
// changes what is normalized but not the shape; version 1 states no range, and coercing at
// axis = rank is well defined there, so only >= 11 is checked against [-r, r-1].
Status InferSoftmaxFamily(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis"));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  if (ctx.schema().since_version() >= 11) {
    OI_RETURN_IF_ERROR(ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")).status());
  } else if (axis < -rank || axis > rank) {
    return AttrError(
        "axis",
        StrCat("expected an axis in [", -rank, ", ", rank, "] for rank ", rank, ", got ", axis),
        DiagCode::kAxisRange);
  }
  return OkStatus();
}

// MatMulInteger (int32) and QLinearMatMul (y_zero_point's type): matmul of inputs a_index
// and b_index.
Status InferQuantizedMatMul(InferenceContext& ctx, int a_index, int b_index, int32_t elem) {
  ctx.SetOutputType(0, Type::Tensor(elem));
  const Shape* a = ctx.InputShape(a_index);
  const Shape* b = ctx.InputShape(b_index);
  if (!a || !b) return OkStatus();
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

Status InferMatMulInteger(InferenceContext& ctx) { return InferQuantizedMatMul(ctx, 0, 1, kInt32); }

Status InferQLinearMatMul(InferenceContext& ctx) {
  const Type& zero_point = ctx.InputType(7);
  return InferQuantizedMatMul(ctx, 0, 3, zero_point.is_tensor() ? zero_point.elem_type() : 0);
}

// Gemm: Y[M, N] = alpha * A' B' + beta * C with A' = transA ? A^T : A (likewise B). C is
// broadcast to [M, N] (unidirectionally from 7; before, with the `broadcast` attribute, and
// without it C is [M, N]); a C dim other than 1 therefore fixes the output dim. Dims that
// must be equal (the contracted pair, a C dim and the output dim it fixes) are recorded as
// facts, so N == 64 learnt here holds at the next node.
Status InferGemm(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  bool exact_c = false;
  if (ctx.schema().since_version() < 7 && ctx.HasInput(2)) {
    OI_ASSIGN_OR_RETURN(int64_t broadcast, ctx.IntAttr("broadcast", 0));
    exact_c = broadcast == 0;
  }
  OI_ASSIGN_OR_RETURN(Shape out, GemmOutputShape(ctx, 0, 1, 2, exact_c));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// One operand of an Einsum equation: its labels, and where `...` stands (-1: nowhere).
// "ab,bc" -> {"ab", "bc"}.
std::vector<std::string> SplitTerms(const std::string& text) {
  std::vector<std::string> parts(1);
  for (char ch : text) {
    if (ch == ',') {
      parts.emplace_back();
    } else {
      parts.back() += ch;
    }
  }
  return parts;
}

struct EinsumTerm {
  std::string labels;
  int ellipsis_at = -1;
};

StatusOr<EinsumTerm> ParseEinsumTerm(const std::string& text) {
  EinsumTerm t;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '.') {
      if (text.compare(i, 3, "...") != 0 || t.ellipsis_at >= 0) {
        return RuleError(DiagCode::kInputValue,
                         StrCat("equation term '", text, "': expected at most one '...'"));
      }
      t.ellipsis_at = static_cast<int>(t.labels.size());
      i += 2;
    } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      t.labels += ch;
    } else {
      return RuleError(DiagCode::kInputValue,
                       StrCat("equation term '", text, "': unexpected character '", ch, "'"));
    }
  }
  return t;
}

// Einsum: each label's dim unifies over every operand that has it; `...` dims broadcast.
// The output is the explicit right-hand side, else `...` then the labels seen once, sorted.
Status InferEinsum(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(std::string equation, ctx.StringAttr("equation", ""));
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  const size_t arrow = equation.find("->");
  const std::string lhs = equation.substr(0, arrow);
  std::vector<EinsumTerm> terms;
  for (const std::string& part : SplitTerms(lhs)) {
    OI_ASSIGN_OR_RETURN(EinsumTerm t, ParseEinsumTerm(part));
    terms.push_back(std::move(t));
  }
  if (static_cast<int>(terms.size()) != ctx.NumInputs()) {
    return RuleError(DiagCode::kSignature, StrCat("equation '", equation, "': expected ",
                                                  terms.size(), " inputs, got ", ctx.NumInputs()));
  }
  std::map<char, Dim> dims;
  std::map<char, int> count;
  Shape ellipsis;
  bool any_ellipsis = false, ellipsis_known = true;
  for (size_t i = 0; i < terms.size(); ++i) {
    const EinsumTerm& t = terms[i];
    for (char ch : t.labels) {
      ++count[ch];
      dims.try_emplace(ch, Dim());
    }
    any_ellipsis |= t.ellipsis_at >= 0;
    const Shape* s = ctx.InputShape(static_cast<int>(i));
    if (!s) {
      if (t.ellipsis_at >= 0) ellipsis_known = false;
      continue;
    }
    const int64_t n = static_cast<int64_t>(t.labels.size());
    const int64_t rank = static_cast<int64_t>(s->size());
    if (t.ellipsis_at < 0 ? rank != n : rank < n) {
      return InputError(ctx, static_cast<int>(i), DiagCode::kInputRank,
                        StrCat("term '", SplitTerms(lhs)[i], "' expects rank ",
                               t.ellipsis_at < 0 ? "" : ">= ", n, ", got rank ", rank));
    }
    const int64_t extra = rank - n;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t d = (t.ellipsis_at >= 0 && j >= t.ellipsis_at) ? j + extra : j;
      const char ch = t.labels[j];
      auto u = UnifyDim(dims[ch], (*s)[d]);
      if (!u.ok()) {
        return RuleError(DiagCode::kInputDims,
                         StrCat("label '", ch, "': dims differ: ", u.status().message()));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual(dims[ch], (*s)[d], StrCat("label '", ch, "'")));
      dims[ch] = *u;
    }
    if (t.ellipsis_at >= 0) {
      Shape part(s->begin() + t.ellipsis_at, s->begin() + t.ellipsis_at + extra);
      auto b = BroadcastShapes(ellipsis, part);
      if (!b.ok())
        return RuleError(DiagCode::kInputDims, StrCat("'...' dims: ", b.status().message()));
      ellipsis = *b;
    }
  }
  EinsumTerm out_term;
  if (arrow != std::string::npos) {
    OI_ASSIGN_OR_RETURN(out_term, ParseEinsumTerm(equation.substr(arrow + 2)));
    for (char ch : out_term.labels) {
      if (!count.count(ch)) {
        return RuleError(DiagCode::kInputValue, StrCat("output label '", ch, "' is on no input"));
      }
    }
  } else {
    if (any_ellipsis) out_term.ellipsis_at = 0;
    for (const auto& [ch, n] : count) {
      if (n == 1) out_term.labels += ch;
    }
  }
  if (out_term.ellipsis_at >= 0 && !ellipsis_known) return OkStatus();
  Shape out;
  for (size_t j = 0; j <= out_term.labels.size(); ++j) {
    if (static_cast<int>(j) == out_term.ellipsis_at) {
      out.insert(out.end(), ellipsis.begin(), ellipsis.end());
    }
    if (j < out_term.labels.size()) out.push_back(dims[out_term.labels[j]]);
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// TopK: the `axis` dim becomes k (the attribute before 10, input 1's value from 10);
// values keep X's type, indices are int64.
Status InferTopK(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.SetOutputType(1, Type::Tensor(kInt64));
  Dim k;
  if (ctx.schema().since_version() < 10) {
    OI_ASSIGN_OR_RETURN(int64_t k_attr, ctx.IntAttr("k"));
    k = Dim::Const(k_attr);
  } else {
    k = ScalarInputDim(ctx, 1);
  }
  if (k.const_value() && *k.const_value() < 0) {
    return RuleError(DiagCode::kInputValue, StrCat("k: expected >= 0, got ", *k.const_value()));
  }
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  auto n = (*in)[axis].const_value();
  if (n && k.const_value() && *k.const_value() > *n) {
    return RuleError(DiagCode::kInputValue,
                     StrCat("k: expected at most the axis dim ", *n, ", got ", *k.const_value()));
  }
  // k is at most the axis dim: a bound of whichever side is symbolic.
  if (n && !k.const_value()) {
    OI_RETURN_IF_ERROR(ctx.RecordRange(k, std::nullopt, *n, "k is at most the axis dim"));
  } else if (!n && k.const_value()) {
    OI_RETURN_IF_ERROR(
        ctx.RecordRange((*in)[axis], *k.const_value(), std::nullopt, "the axis dim is at least k"));
  }
  Shape out = *in;
  out[axis] = k;
  ctx.SetOutputShape(0, out);
  ctx.SetOutputShape(1, std::move(out));
  return OkStatus();
}

// CumSum/CumProd: same type; a known axis must name a dim.
Status InferCumulative(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  const Shape* in = ctx.InputShape(0);
  auto axis = ScalarInputDim(ctx, 1).const_value();
  if (in && axis) {
    OI_RETURN_IF_ERROR(ctx.NormalizeAxis(*axis, static_cast<int64_t>(in->size()), "axis").status());
  }
  return OkStatus();
}

}  // namespace

StatusOr<Dim> SquareMatrixDim(InferenceContext& ctx, int input, const Shape& in) {
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, input, in, 2));
  auto m = UnifyDim(in[in.size() - 2], in.back());
  if (!m.ok()) {
    return InputError(ctx, input, DiagCode::kInputDims,
                      StrCat("expected square matrices, got ", ShapeToString(in)));
  }
  OI_RETURN_IF_ERROR(ctx.RecordEqual(in[in.size() - 2], in.back(), "square matrices"));
  return *m;
}

Dim OnesidedBins(Dim n) { return Dim::FloorDiv(n, Dim::Const(2)) + Dim::Const(1); }

namespace {

// Det: [*, M, M] -> [*].
Status InferDet(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_RETURN_IF_ERROR(SquareMatrixDim(ctx, 0, *in).status());
  ctx.SetOutputShape(0, Shape(in->begin(), in->end() - 2));
  return OkStatus();
}

// DFT: the last dim (1 real, 2 complex) becomes 2, or 1 for the inverse one-sided transform;
// the axis dim becomes dft_length (default: its own length, or 2 * (len - 1) for IRFFT),
// halved plus one for the forward one-sided transform. The axis is an attribute (default 1)
// in 17 and input 2 (default -2) from 20; it never names the last dim.
Status InferDFT(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t onesided, ctx.IntAttr("onesided", 0));
  OI_ASSIGN_OR_RETURN(int64_t inverse, ctx.IntAttr("inverse", 0));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, 2));
  auto last = in->back().const_value();
  if (last && *last != 1 && *last != 2) {
    return InputError(ctx, 0, DiagCode::kInputDims,
                      StrCat("expected a last dim of 1 (real) or 2 ", "(complex), got ", *last));
  }
  // The one-sided transforms take one kind of input: RFFT a real one, IRFFT a complex one.
  if (onesided && last && *last != (inverse ? 2 : 1)) {
    return InputError(ctx, 0, DiagCode::kInputDims,
                      inverse ? "the one-sided inverse transform (IRFFT) takes a complex input "
                                "(last dim 2), got a real one (last dim 1)"
                              : "the one-sided transform (RFFT) takes a real input (last dim 1), "
                                "got a complex one (last dim 2)");
  }
  std::optional<int64_t> axis;
  if (ctx.schema().since_version() < 20) {
    OI_ASSIGN_OR_RETURN(axis, ctx.IntAttr("axis", 1));
  } else if (!ctx.HasInput(2)) {
    axis = -2;
  } else {
    axis = ScalarInputDim(ctx, 2).const_value();
  }
  Shape out = *in;
  out.back() = Dim::Const(onesided && inverse ? 1 : 2);
  const bool has_length = ctx.HasInput(1);
  const Dim length = has_length ? ScalarInputDim(ctx, 1) : Dim();
  if (!axis) {
    // Without the axis only a transform that keeps every length is known.
    if (onesided || has_length) {
      for (int64_t d = 0; d + 1 < rank; ++d) out[d] = Dim();
    }
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  if (*axis < -rank || *axis > rank - 2 || *axis == -1) {
    return RuleError(DiagCode::kAxisRange,
                     StrCat("axis: expected an axis in [", -rank, ", -2] or [0, ", rank - 2,
                            "] for rank ", rank, ", got ", *axis));
  }
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  Dim n = length;
  if (!has_length) {
    n = onesided && inverse ? Dim::Const(2) * ((*in)[a] - Dim::Const(1)) : (*in)[a];
  }
  out[a] = onesided && !inverse ? OnesidedBins(n) : n;
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// STFT: signal [batch, length, 1|2] -> [batch, frames, bins, 2] with
// frames = floor((length - n) / step) + 1, n the frame length (input 3, else the window's
// length) and bins = onesided ? floor(n / 2) + 1 : n.
Status InferSTFT(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t onesided, ctx.IntAttr("onesided", 1));
  const Shape* signal = ctx.InputShape(0);
  if (signal) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *signal, 3));
    // "if the input or window tensors are complex, then onesided output is not possible"
    auto last = (*signal)[2].const_value();
    if (last && *last != 1 && *last != 2) {
      return InputError(ctx, 0, DiagCode::kInputDims,
                        StrCat("expected a last dim of 1 (real) or 2 (complex), got ", *last));
    }
    if (onesided && last == 2) {
      return InputError(ctx, 0, DiagCode::kInputDims,
                        "a complex signal (last dim 2) has no one-sided transform; "
                        "onesided must be 0");
    }
  }
  Dim n = ctx.HasInput(3) ? ScalarInputDim(ctx, 3) : Dim();
  if (ctx.HasInput(2)) {
    if (const Shape* w = ctx.InputShape(2)) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, 2, *w, 1));
      auto u = UnifyDim(n, (*w)[0]);
      if (!u.ok()) {
        return RuleError(
            DiagCode::kInputDims,
            StrCat("frame_length and the window's length differ: ", u.status().message()));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual(n, (*w)[0], "frame_length and the window's length"));
      n = *u;
    }
  }
  const Dim step = ScalarInputDim(ctx, 1);
  Dim frames, batch;
  if (signal) {
    batch = (*signal)[0];
    frames = Dim::FloorDiv((*signal)[1] - n, step) + Dim::Const(1);
  }
  ctx.SetOutputShape(0, {batch, frames, onesided ? OnesidedBins(n) : n, Dim::Const(2)});
  return OkStatus();
}

// The element type an `output_datatype` attribute names.
StatusOr<int32_t> OutputDatatype(const InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t dt, ctx.IntAttr("output_datatype", kFloat));
  return static_cast<int32_t>(dt);
}

// BlackmanWindow, HammingWindow, HannWindow: [size] of output_datatype.
Status InferWindow(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int32_t elem, OutputDatatype(ctx));
  ctx.SetOutputType(0, Type::Tensor(elem, Shape{ScalarInputDim(ctx, 0)}));
  return OkStatus();
}

// MelWeightMatrix: [floor(dft_length / 2) + 1, num_mel_bins] of output_datatype.
Status InferMelWeightMatrix(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int32_t elem, OutputDatatype(ctx));
  ctx.SetOutputType(
      0, Type::Tensor(elem, Shape{OnesidedBins(ScalarInputDim(ctx, 1)), ScalarInputDim(ctx, 0)}));
  return OkStatus();
}

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: input [N, C, d...], target
// [N, d...]; the loss is per element ([N, d...]) with reduction "none", else a scalar.
// SoftmaxCrossEntropyLoss's optional output 1 (log_prob) has the input's type.
Status InferLoss(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(std::string reduction, ctx.StringAttr("reduction", "mean"));
  if (ctx.NumOutputs() > 1) ctx.SetOutputType(1, ctx.InputType(0));
  const Shape* in = ctx.InputShape(0);
  const Shape* target = ctx.InputShape(1);
  if (in) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, 2));
  std::optional<Shape> per_element;
  if (in) {
    per_element = Shape{(*in)[0]};
    per_element->insert(per_element->end(), in->begin() + 2, in->end());
  }
  if (target) {
    if (per_element) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *target, per_element->size(),
                                     StrCat("for input ", ShapeToString(*in))));
    }
    if (!per_element) {
      per_element = *target;
    } else {
      for (size_t i = 0; i < target->size(); ++i) {
        auto u = UnifyDim((*per_element)[i], (*target)[i]);
        if (!u.ok()) {
          return InputError(
              ctx, 1, DiagCode::kInputDims,
              StrCat(ShapeToString(*target), " does not match input ", ShapeToString(*in)));
        }
        OI_RETURN_IF_ERROR(ctx.RecordEqual((*per_element)[i], (*target)[i],
                                           StrCat(InputLabel(ctx, 1), " dim ", i)));
        (*per_element)[i] = *u;
      }
    }
  }
  if (reduction != "none") {
    ctx.SetOutputShape(0, Shape{});
  } else if (per_element) {
    ctx.SetOutputShape(0, std::move(*per_element));
  }
  return OkStatus();
}

// MatMul: numpy semantics (MatMulShape), recording that the contracted dims are equal.
Status InferMatMul(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *a, 1));
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 1, *b, 1));
  OI_ASSIGN_OR_RETURN(Shape out, MatMulShape(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

StatusOr<Shape> GemmOutputShape(InferenceContext& ctx, int a_index, int b_index, int c_index,
                                bool exact_c) {
  OI_ASSIGN_OR_RETURN(int64_t trans_a, ctx.IntAttr("transA", 0));
  OI_ASSIGN_OR_RETURN(int64_t trans_b, ctx.IntAttr("transB", 0));
  const Shape* a = ctx.InputShape(a_index);
  const Shape* b = ctx.InputShape(b_index);
  for (int i : {a_index, b_index}) {
    const Shape* s = i == a_index ? a : b;
    if (s) OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, 2));
  }
  Shape out = {a ? (*a)[trans_a ? 1 : 0] : Dim(), b ? (*b)[trans_b ? 0 : 1] : Dim()};
  if (a && b) {
    const Dim ka = (*a)[trans_a ? 0 : 1], kb = (*b)[trans_b ? 1 : 0];
    auto k = UnifyDim(ka, kb);
    if (!k.ok()) {
      return RuleError(
          DiagCode::kInputDims,
          StrCat("contracted dims differ: A ", ShapeToString(*a), " (transA=", trans_a, ") vs B ",
                 ShapeToString(*b), " (transB=", trans_b, "): ", k.status().message()));
    }
    OI_RETURN_IF_ERROR(ctx.RecordEqual(ka, kb, "contracted dims"));
  }
  const Shape* c = c_index >= 0 && ctx.HasInput(c_index) ? ctx.InputShape(c_index) : nullptr;
  if (c) {
    if (c->size() > 2 || (exact_c && c->size() != 2)) {
      return InputError(ctx, c_index, DiagCode::kBroadcast,
                        StrCat("expected ", exact_c ? "rank 2" : "rank <= 2",
                               " to broadcast to [M, N], ", "got ", ShapeToString(*c)));
    }
    for (size_t i = 0; i < c->size(); ++i) {
      Dim cd = (*c)[c->size() - 1 - i];
      Dim& od = out[1 - i];
      if (!exact_c && !(cd.is_const() && cd.const_value() != 1)) continue;
      auto u = UnifyDim(od, cd);
      if (!u.ok()) {
        return InputError(
            ctx, c_index, DiagCode::kBroadcast,
            StrCat(ShapeToString(*c), " does not broadcast to [", StrJoin(out, ", "), "]"));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual(
          od, cd,
          StrCat(InputLabel(ctx, c_index), " dim ", c->size() - 1 - i, " and Y's dim ", 1 - i)));
      od = *u;
    }
  }
  return out;
}

Status RegisterAiOnnxMathRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Softmax", {1, 11, 13}, InferSoftmaxFamily));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LogSoftmax", {1, 11, 13}, InferSoftmaxFamily));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Hardmax", {1, 11, 13}, InferSoftmaxFamily));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Gemm", {1, 6, 7, 9, 11, 13}, InferGemm));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MatMulInteger", {10}, InferMatMulInteger));
  OI_RETURN_IF_ERROR(r.AttachRule("", "QLinearMatMul", {10, 21}, InferQLinearMatMul));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Einsum", {12}, InferEinsum));
  OI_RETURN_IF_ERROR(r.AttachRule("", "TopK", {1, 10, 11, 24}, InferTopK));
  OI_RETURN_IF_ERROR(r.AttachRule("", "CumSum", {11, 14}, InferCumulative));
  OI_RETURN_IF_ERROR(r.AttachRule("", "CumProd", {26}, InferCumulative));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Det", {11, 22}, InferDet));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DFT", {17, 20}, InferDFT));
  OI_RETURN_IF_ERROR(r.AttachRule("", "STFT", {17}, InferSTFT));
  OI_RETURN_IF_ERROR(r.AttachRule("", "BlackmanWindow", {17}, InferWindow));
  OI_RETURN_IF_ERROR(r.AttachRule("", "HammingWindow", {17}, InferWindow));
  OI_RETURN_IF_ERROR(r.AttachRule("", "HannWindow", {17}, InferWindow));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MelWeightMatrix", {17}, InferMelWeightMatrix));
  OI_RETURN_IF_ERROR(r.AttachRule("", "NegativeLogLikelihoodLoss", {12, 13, 22}, InferLoss));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SoftmaxCrossEntropyLoss", {12, 13}, InferLoss));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MatMul", {1, 9, 13}, InferMatMul));
  return OkStatus();
}

}  // namespace onnx_infer
