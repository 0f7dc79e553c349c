// Tensor operators that split, scatter, select and rearrange data: Split, Trilu, the Scatter
// family (Scatter, ScatterElements, ScatterND, TensorScatter), GatherND, OneHot, Unique,
// Compress, NonZero, EyeLike, DepthToSpace, SpaceToDepth, ReverseSequence.
//
// Several of them have an output length that depends on the data (Unique, Compress, NonZero):
// it is exact only when the deciding value is known, else unknown, or one fresh symbol shared
// by the outputs that provably have that same length (Unique's Y, indices and counts).
#include "onnx_infer/schema/defs/ai_onnx/tensor/indexing.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"
#include "onnx_infer/schema/value_movement.h"
#include "onnx_infer/schema/value_ops.h"

namespace onnx_infer {
namespace {

using symbolic::Tri;

// The number of non-zero elements of a known value (integer, bool or real), or nothing when
// an element is not a known constant.
std::optional<int64_t> CountNonZero(const ConstValue& v) {
  const int64_t n = v.NumElements();
  if (static_cast<int64_t>(v.ints.size()) == n) {
    int64_t count = 0;
    for (Dim d : v.ints) {
      auto c = d.const_value();
      if (!c) return std::nullopt;
      count += *c != 0;
    }
    return count;
  }
  if (static_cast<int64_t>(v.reals.size()) == n) {
    int64_t count = 0;
    for (double r : v.reals) count += r != 0;
    return count;
  }
  return std::nullopt;
}

// d / k for a dim that must be a multiple of k > 0: nothing when it provably is not; else the
// quotient, with "Mod(d, k) == 0" recorded as a condition unless it is evident.
std::optional<Dim> ExactQuotient(InferenceContext& ctx, Dim d, int64_t k) {
  const Dim rest = Dim::Mod(d, Dim::Const(k));
  if (auto c = rest.const_value(); c && *c != 0) return std::nullopt;
  if (!rest.is_const() && !rest.is_unknown()) ctx.RecordCondition(StrCat(rest, " == 0"));
  return Dim::FloorDiv(d, Dim::Const(k));
}

// A string attribute that must be one of `allowed`.
StatusOr<std::string> OneOf(const InferenceContext& ctx, std::string_view name,
                            std::string fallback, const std::vector<std::string>& allowed) {
  OI_ASSIGN_OR_RETURN(std::string value, ctx.StringAttr(name, std::move(fallback)));
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    return AttrError(name,
                     StrCat("expected one of ", StrJoin(allowed, ", "), ", got '", value, "'"));
  }
  return value;
}

// ---- Split

// The split sizes of a Split node: from the `split` attribute (before 13) or input 1 (version
// 1 takes either; from 13 only the input). `given` says whether sizes were given at all;
// `sizes` is empty when they were given but are not known.
struct SplitSizes {
  bool given = false;
  std::optional<std::vector<Dim>> sizes;
  std::string subject;  // "attribute 'split'" or "input 1 's'"
  Subject about;
};

StatusOr<SplitSizes> GetSplitSizes(const InferenceContext& ctx) {
  SplitSizes s;
  const int64_t version = ctx.schema().since_version();
  if (version < 13) {
    OI_ASSIGN_OR_RETURN(auto attr, ctx.OptionalIntsAttr("split"));
    if (attr) {
      s.given = true;
      s.subject = "attribute 'split'";
      s.about = Subject::Attribute("split");
      std::vector<Dim> dims;
      for (int64_t v : *attr) dims.push_back(Dim::Const(v));
      s.sizes = std::move(dims);
      return s;
    }
  }
  if ((version == 1 || version >= 13) && ctx.HasInput(1)) {
    s.given = true;
    s.subject = InputLabel(ctx, 1);
    s.about = InputSubject(ctx, 1);
    if (const std::vector<Dim>* v = IntValues(ctx, 1)) s.sizes = *v;
  }
  return s;
}

}  // namespace

// Split: the outputs are the input cut along `axis`, by the given sizes, else in equal parts
// (one per output; from 18 `num_outputs` parts of ceil(dim / n), the last one smaller).
Status InferSplit(InferenceContext& ctx) {
  const int n = ctx.NumOutputs();
  for (int i = 0; i < n; ++i) ctx.PropagateElemType(0, i);
  OI_ASSIGN_OR_RETURN(SplitSizes split, GetSplitSizes(ctx));
  std::optional<int64_t> num_outputs;
  if (ctx.schema().since_version() >= 18 && ctx.HasAttr("num_outputs")) {
    OI_ASSIGN_OR_RETURN(num_outputs, ctx.IntAttr("num_outputs"));
    if (split.given) {
      return RuleError(DiagCode::kInputCombination,
                       "expected input 'split' or attribute 'num_outputs', got both");
    }
    if (*num_outputs != n) {
      return AttrError("num_outputs",
                       StrCat("expected ", n, " (the number of outputs), got ", *num_outputs));
    }
  }
  if (split.sizes) {
    if (static_cast<int64_t>(split.sizes->size()) != n) {
      return RuleError(DiagCode::kInputValue,
                       StrCat(split.subject, ": expected ", n, " sizes (one per output), got ",
                              split.sizes->size()),
                       split.about);
    }
    for (Dim d : *split.sizes) {
      if (auto c = d.const_value(); c && *c < 0) {
        return RuleError(DiagCode::kInputValue,
                         StrCat(split.subject, ": expected sizes >= 0, got ", *c), split.about);
      }
    }
  } else if (split.given) {
    const Shape* s = ctx.InputShape(1);
    if (s && s->size() == 1 && (*s)[0].is_const() && *(*s)[0].const_value() != n) {
      return RuleError(DiagCode::kInputValue,
                       StrCat(split.subject, ": expected ", n, " sizes (one per output), got ",
                              *(*s)[0].const_value()),
                       split.about);
    }
  } else if (ctx.schema().since_version() >= 18 && !num_outputs) {
    ctx.Warn(
        "neither input 'split' nor attribute 'num_outputs' is given: splitting into equal "
        "parts, one per output");
  }

  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, 1));
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  const Dim total = (*in)[axis];

  std::vector<Dim> sizes(n);
  if (split.sizes) {
    sizes = *split.sizes;
    Dim sum = Dim::Const(0);
    for (Dim d : sizes) sum = sum + d;
    if (!UnifyDim(total, sum).ok()) {
      return RuleError(
          DiagCode::kInputValue,
          StrCat(split.subject, ": expected sizes adding up to dim ", axis, " of ",
                 InputLabel(ctx, 0), " (", total, "), got ", StrJoin(sizes, " + "), " = ", sum),
          split.about);
    }
    OI_RETURN_IF_ERROR(ctx.RecordEqual(
        total, sum,
        StrCat("dim ", axis, " of ", InputLabel(ctx, 0), " and the sum of ", split.subject)));
  } else if (split.given) {
    // The sizes are not known: every output keeps the other dims.
  } else if (num_outputs) {
    const Dim chunk = Dim::CeilDiv(total, Dim::Const(n));
    const Dim last = total - chunk * Dim::Const(n - 1);
    if (symbolic::LessEqual(Dim::Const(0), last) == Tri::kFalse) {
      return AttrError("num_outputs", StrCat("dim ", axis, " (", total, ") cannot be cut into ", n,
                                             " parts of ", chunk, " with a smaller last one"));
    }
    std::fill(sizes.begin(), sizes.end(), chunk);
    sizes[n - 1] = last;
  } else if (n > 0) {
    const std::optional<Dim> part = ExactQuotient(ctx, total, n);
    if (!part) {
      return InputError(
          ctx, 0, DiagCode::kInputDims,
          StrCat("dim ", axis, " (", total, ") does not split into ", n, " equal parts"));
    }
    std::fill(sizes.begin(), sizes.end(), *part);
  }
  for (int i = 0; i < n; ++i) {
    Shape out = *in;
    out[axis] = sizes[i];
    ctx.SetOutputShape(i, std::move(out));
  }

  // Values of any rank, cut along the axis.
  const ConstValue* value = ctx.InputValue(0);
  if (!value || static_cast<int64_t>(value->dims.size()) != rank) return OkStatus();
  std::vector<int64_t> lengths;
  for (Dim d : sizes) {
    auto len = d.const_value();
    if (!len) return OkStatus();
    lengths.push_back(*len);
  }
  if (auto pieces = SplitValue(*value, axis, lengths)) {
    for (int i = 0; i < n; ++i) ctx.SetOutputValue(i, std::move((*pieces)[i]));
  }
  return OkStatus();
}

// ---- Trilu

// Trilu: the input's type; the last two dims form the matrices.
Status InferTrilu(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  if (const Shape* in = ctx.InputShape(0)) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, 2));
  // k is a scalar; a one-element tensor is tolerated, anything else is an error.
  if (const Shape* k = ctx.HasInput(1) ? ctx.InputShape(1) : nullptr;
      k && (k->size() > 1 || (k->size() == 1 && (*k)[0].is_const() && (*k)[0] != Dim::Const(1)))) {
    return InputError(ctx, 1, DiagCode::kInputRank,
                      StrCat("expected a scalar, got ", ShapeToString(*k)));
  }
  return OkStatus();
}

namespace {

// ---- The scatter family

// The `reduction` attribute of ScatterElements and ScatterND: from 16; max and min from 18.
Status CheckReduction(const InferenceContext& ctx) {
  const int64_t version = ctx.schema().since_version();
  if (version < 16) return OkStatus();
  std::vector<std::string> allowed = {"none", "add", "mul"};
  if (version >= 18) allowed.insert(allowed.end(), {"max", "min"});
  return OneOf(ctx, "reduction", "none", allowed).status();
}

// Scatter and ScatterElements: the output is data; indices and updates have one shape, and
// the rank of data.
Status InferScatterElements(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_RETURN_IF_ERROR(CheckReduction(ctx));
  const Shape* data = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  const Shape* updates = ctx.InputShape(2);
  if (data) {
    OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
    OI_RETURN_IF_ERROR(
        ctx.NormalizeAxis(axis, static_cast<int64_t>(data->size()), Subject::Attribute("axis"))
            .status());
    for (int i : {1, 2}) {
      const Shape* s = ctx.InputShape(i);
      if (s) OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, data->size(), "the rank of data"));
    }
  }
  if (indices && updates) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 2, *updates, indices->size(), "the rank of indices"));
    for (size_t i = 0; i < indices->size(); ++i) {
      OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*indices)[i], (*updates)[i],
                                          StrCat(InputLabel(ctx, 1), " dim ", i, " and ",
                                                 InputLabel(ctx, 2), " dim ", i),
                                          InputSubject(ctx, 1))
                             .status());
    }
  }
  if (data) ctx.SetOutputShape(0, *data);
  return OkStatus();
}

// ScatterND: the output is data [r dims]; indices [q dims] end in k <= r, and updates are
// indices[:-1] + data[k:].
Status InferScatterND(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_RETURN_IF_ERROR(CheckReduction(ctx));
  const Shape* data = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  const Shape* updates = ctx.InputShape(2);
  if (data) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
  if (indices) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 1, *indices, 1));
  if (data && indices) {
    const auto k = indices->back().const_value();
    if (k && (*k < 1 || *k > static_cast<int64_t>(data->size()))) {
      return InputError(
          ctx, 1, DiagCode::kInputDims,
          StrCat("expected a last dim in [1, ", data->size(), "] (the rank of data), got ", *k));
    }
    if (k && updates) {
      Shape expected(indices->begin(), indices->end() - 1);
      expected.insert(expected.end(), data->begin() + *k, data->end());
      OI_RETURN_IF_ERROR(
          RequireRank(ctx, 2, *updates, expected.size(), StrCat("indices[:-1] + data[", *k, ":]")));
      const int64_t lead = static_cast<int64_t>(indices->size()) - 1;
      for (int64_t i = 0; i < static_cast<int64_t>(expected.size()); ++i) {
        const bool from_indices = i < lead;
        OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*updates)[i], expected[i],
                                            StrCat(InputLabel(ctx, 2), " dim ", i, " and ",
                                                   InputLabel(ctx, from_indices ? 1 : 0), " dim ",
                                                   from_indices ? i : i - lead + *k),
                                            InputSubject(ctx, 2))
                               .status());
      }
    }
  }
  if (data) ctx.SetOutputShape(0, *data);
  return OkStatus();
}

// TensorScatter: present_cache has past_cache's shape; update differs only at `axis` (not the
// batch axis 0), where it is at most as long in linear mode; write_indices is [batch].
Status InferTensorScatter(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(std::string mode, OneOf(ctx, "mode", "linear", {"linear", "circular"}));
  const Shape* past = ctx.InputShape(0);
  const Shape* update = ctx.InputShape(1);
  const Shape* known = past ? past : update;
  if (!known) return OkStatus();
  const int known_input = past ? 0 : 1;
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, known_input, *known, 2));
  const int64_t rank = static_cast<int64_t>(known->size());
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -2));
  OI_ASSIGN_OR_RETURN(int64_t seq_axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  if (seq_axis == 0) {
    return AttrError("axis",
                     StrCat("expected a sequence axis other than the batch axis 0, got ", axis));
  }
  Shape out = *known;
  if (!past) out[seq_axis] = Dim();
  if (past && update) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *update, past->size(), "the rank of past_cache"));
    for (int64_t i = 0; i < rank; ++i) {
      if (i == seq_axis) continue;
      OI_ASSIGN_OR_RETURN(out[i], RequireEqualDims(ctx, out[i], (*update)[i],
                                                   StrCat(InputLabel(ctx, 0), " dim ", i, " and ",
                                                          InputLabel(ctx, 1), " dim ", i),
                                                   InputSubject(ctx, 0)));
    }
    if (mode == "linear" &&
        symbolic::LessEqual((*update)[seq_axis], (*past)[seq_axis]) == Tri::kFalse) {
      return InputError(ctx, 1, DiagCode::kInputDims,
                        StrCat("expected a sequence length (dim ", seq_axis, ") at most ",
                               (*past)[seq_axis], " (past_cache's), got ", (*update)[seq_axis]));
    }
  }
  if (const Shape* w = ctx.HasInput(2) ? ctx.InputShape(2) : nullptr) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 2, *w, 1, "[batch]"));
    OI_ASSIGN_OR_RETURN(
        out[0], RequireEqualDims(ctx, out[0], (*w)[0],
                                 StrCat("the batch dim and ", InputLabel(ctx, 2), " dim 0")));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

}  // namespace

// ---- GatherND

// GatherND: data [r dims], indices [q dims] ending in m, the first b = batch_dims dims shared:
// the output is indices[:-1] + data[b + m:]. Version 11 (and com.microsoft's GatherND, which is
// it) has no batch_dims: b = 0.
Status InferGatherND(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  int64_t b = 0;
  if (ctx.schema().since_version() >= 12) {
    OI_ASSIGN_OR_RETURN(b, ctx.IntAttr("batch_dims", 0));
    if (b < 0) return AttrError("batch_dims", StrCat("expected >= 0, got ", b));
  }
  const Shape* data = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  if (data) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
  if (indices) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 1, *indices, 1));
  if (!data || !indices) return OkStatus();
  const int64_t r = static_cast<int64_t>(data->size());
  const int64_t q = static_cast<int64_t>(indices->size());
  if (b >= std::min(q, r)) {
    return AttrError("batch_dims", StrCat("expected less than the ranks of data (", r,
                                          ") and indices (", q, "), got ", b));
  }
  Shape out(indices->begin(), indices->end() - 1);
  for (int64_t i = 0; i < b; ++i) {
    OI_ASSIGN_OR_RETURN(
        out[i], RequireEqualDims(ctx, (*data)[i], (*indices)[i],
                                 StrCat(InputLabel(ctx, 0), " dim ", i, " and ", InputLabel(ctx, 1),
                                        " dim ", i, " (a batch dim)"),
                                 InputSubject(ctx, 0)));
  }
  const auto m = indices->back().const_value();
  if (!m) return OkStatus();  // the output's rank depends on it
  if (*m < 1 || *m > r - b) {
    return InputError(
        ctx, 1, DiagCode::kInputDims,
        StrCat("expected a last dim in [1, ", r - b, "] (rank of data - batch_dims), got ", *m));
  }
  out.insert(out.end(), data->begin() + b + *m, data->end());
  ctx.SetOutputShape(0, std::move(out));
  const ConstValue* data_value = ctx.InputValue(0);
  const ConstValue* index_value = ctx.InputValue(1);
  if (data_value && index_value) {
    if (auto v = GatherNDValue(*data_value, *index_value, b, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
    }
  }
  return OkStatus();
}

namespace {

// ---- OneHot

// The single element of a known value (integer, or real truncated as OneHot casts a
// non-integer depth to int64); unknown otherwise.
Dim ScalarValue(const InferenceContext& ctx, int input) {
  const ConstValue* v = ctx.InputValue(input);
  if (!v || v->NumElements() != 1) return Dim();
  if (v->ints.size() == 1) return v->ints[0];
  if (v->reals.size() == 1 && std::isfinite(v->reals[0]) && std::fabs(v->reals[0]) < 1e18) {
    return Dim::Const(static_cast<int64_t>(v->reals[0]));
  }
  return Dim();
}

// OneHot: the indices' shape with a dim of `depth` inserted at `axis`; the element type of
// `values` (a pair [off, on]).
Status InferOneHot(InferenceContext& ctx) {
  ctx.PropagateElemType(2, 0);
  if (const Shape* d = ctx.InputShape(1);
      d && (d->size() > 1 || (d->size() == 1 && (*d)[0].is_const() && (*d)[0] != Dim::Const(1)))) {
    return InputError(ctx, 1, DiagCode::kInputRank,
                      StrCat("expected a scalar or one element, got ", ShapeToString(*d)));
  }
  if (const Shape* v = ctx.InputShape(2);
      v && (v->size() != 1 || ((*v)[0].is_const() && (*v)[0] != Dim::Const(2)))) {
    return InputError(ctx, 2, DiagCode::kInputDims,
                      StrCat("expected [2] ([off, on]), got ", ShapeToString(*v)));
  }
  const Dim depth = ScalarValue(ctx, 1);
  if (auto c = depth.const_value(); c && *c < 0) {
    return InputError(ctx, 1, DiagCode::kInputValue, StrCat("expected a depth >= 0, got ", *c));
  }
  const Shape* indices = ctx.InputShape(0);
  if (!indices) return OkStatus();
  const int64_t rank = static_cast<int64_t>(indices->size()) + 1;
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", -1));
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  Shape out = *indices;
  out.insert(out.begin() + axis, depth);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Data-dependent lengths: Unique, Compress, NonZero

// The number of distinct elements of a known value, or nothing.
std::optional<int64_t> CountDistinct(const ConstValue& v) {
  const int64_t n = v.NumElements();
  if (static_cast<int64_t>(v.ints.size()) == n) {
    std::set<int64_t> seen;
    for (Dim d : v.ints) {
      auto c = d.const_value();
      if (!c) return std::nullopt;
      seen.insert(*c);
    }
    return static_cast<int64_t>(seen.size());
  }
  if (static_cast<int64_t>(v.reals.size()) == n) {
    // NaNs are not equal to one another, so each is distinct.
    std::set<double> seen;
    int64_t nans = 0;
    for (double r : v.reals) {
      if (std::isnan(r)) {
        ++nans;
      } else {
        seen.insert(r);
      }
    }
    return static_cast<int64_t>(seen.size()) + nans;
  }
  return std::nullopt;
}

}  // namespace

Dim UniqueCount(InferenceContext& ctx, Dim length, bool flattened, int out, int64_t axis) {
  if (auto c = length.const_value(); c && *c <= 1) return length;
  if (const ConstValue* v = ctx.InputValue(0); v && flattened) {
    if (auto n = CountDistinct(*v)) return Dim::Const(*n);
  }
  return ctx.FreshDim(out, axis);
}

namespace {

// Unique: Y holds the U unique elements (flattened) or slices along `axis`; indices and
// counts have U elements; inverse_indices one per element (or slice) of X. U is data
// dependent: exact for a known X or a length of 0 or 1, else one fresh symbol that the three
// outputs share.
Status InferUnique(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  for (int i = 1; i < ctx.NumOutputs(); ++i) ctx.SetOutputType(i, Type::Tensor(kInt64));
  std::optional<int64_t> axis;
  if (ctx.HasAttr("axis")) {
    OI_ASSIGN_OR_RETURN(axis, ctx.IntAttr("axis"));
  }
  const Shape* x = ctx.InputShape(0);
  if (axis && x) {
    OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(*axis, static_cast<int64_t>(x->size()),
                                                Subject::Attribute("axis")));
  }
  // The length that is split into unique pieces: X's element count, or its dim at `axis`.
  Dim length;
  if (x) length = axis ? (*x)[*axis] : Product(*x);
  const Dim unique = UniqueCount(ctx, length, !axis, 0, axis.value_or(0));
  if (!axis) {
    ctx.SetOutputShape(0, Shape{unique});
  } else if (x) {
    Shape y = *x;
    y[*axis] = unique;
    ctx.SetOutputShape(0, std::move(y));
  }
  if (ctx.NumOutputs() > 1) ctx.SetOutputShape(1, Shape{unique});
  if (ctx.NumOutputs() > 2) ctx.SetOutputShape(2, Shape{length});
  if (ctx.NumOutputs() > 3) ctx.SetOutputShape(3, Shape{unique});
  return OkStatus();
}

// Compress: the slices along `axis` (or the elements of the flattened input) whose condition
// is true; a condition shorter than the input drops the rest. The length is known only with
// the condition's value.
Status InferCompress(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  if (const Shape* c = ctx.InputShape(1)) OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *c, 1));
  const Shape* in = ctx.InputShape(0);
  std::optional<int64_t> axis;
  if (ctx.HasAttr("axis")) {
    OI_ASSIGN_OR_RETURN(axis, ctx.IntAttr("axis"));
  }
  if (axis && !in) return OkStatus();
  if (axis) {
    OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(*axis, static_cast<int64_t>(in->size()),
                                                Subject::Attribute("axis")));
  }
  // How many slices are kept: the true entries among the first `length` of the condition.
  Dim kept;
  const Dim length = !in ? Dim() : axis ? (*in)[*axis] : Product(*in);
  const ConstValue* cond = ctx.InputValue(1);
  if (cond && static_cast<int64_t>(cond->ints.size()) == cond->NumElements()) {
    ConstValue head = *cond;
    if (auto l = length.const_value(); l && *l < static_cast<int64_t>(head.ints.size())) {
      head.ints.resize(*l);
      head.dims = {*l};
    }
    auto count = CountNonZero(head);
    // Without a constant length, the count is exact when the whole condition provably fits
    // in it, or when nothing is kept.
    if (count && (length.is_const() || *count == 0 ||
                  symbolic::LessEqual(Dim::Const(static_cast<int64_t>(head.ints.size())), length) ==
                      Tri::kTrue)) {
      kept = Dim::Const(*count);
    }
  }
  if (!axis) {
    ctx.SetOutputShape(0, Shape{kept});
    return OkStatus();
  }
  Shape out = *in;
  out[*axis] = kept;
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// NonZero: int64 [rank of X, number of non-zero elements]; the count is known only with X's
// value (or when X is empty).
Status InferNonZero(InferenceContext& ctx) {
  const Shape* in = ctx.InputShape(0);
  Dim count;
  if (const ConstValue* v = ctx.InputValue(0)) {
    if (auto n = CountNonZero(*v)) count = Dim::Const(*n);
  }
  if (in && Product(*in) == Dim::Const(0)) count = Dim::Const(0);
  const Dim rank = in ? Dim::Const(static_cast<int64_t>(in->size())) : Dim();
  ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{rank, count}));
  return OkStatus();
}

// ---- EyeLike

// ---- Moving data between depth and space

// The `blocksize` attribute; its square must fit in int64 (so it is below 2^31).
StatusOr<int64_t> BlockSize(const InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t b, ctx.IntAttr("blocksize"));
  if (b <= 0 || b > INT32_MAX) {
    return AttrError("blocksize", StrCat("expected a value in [1, ", INT32_MAX, "], got ", b));
  }
  return b;
}

// A dim that must be a multiple of `k`: dim / k, an error when provably not a multiple.
StatusOr<Dim> DivideExactly(InferenceContext& ctx, Dim d, int64_t k, const std::string& what) {
  const std::optional<Dim> q = ExactQuotient(ctx, d, k);
  if (!q)
    return RuleError(DiagCode::kInputDims,
                     StrCat(what, ": expected a multiple of ", k, ", got ", d));
  return *q;
}

// DepthToSpace: [N, C, H, W] -> [N, C / b², H·b, W·b] (either mode).
Status InferDepthToSpace(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  if (ctx.schema().since_version() >= 11) {
    OI_RETURN_IF_ERROR(OneOf(ctx, "mode", "DCR", {"DCR", "CRD"}).status());
  }
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 4));
  const Dim block = Dim::Const(b);
  OI_ASSIGN_OR_RETURN(
      Dim c, DivideExactly(ctx, (*in)[1], b * b, StrCat(InputLabel(ctx, 0), " dim 1 (channels)")));
  ctx.SetOutputShape(0, Shape{(*in)[0], c, (*in)[2] * block, (*in)[3] * block});
  return OkStatus();
}

// SpaceToDepth: [N, C, H, W] -> [N, C·b², H / b, W / b].
Status InferSpaceToDepth(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 4));
  OI_ASSIGN_OR_RETURN(Dim h, DivideExactly(ctx, (*in)[2], b, StrCat(InputLabel(ctx, 0), " dim 2")));
  OI_ASSIGN_OR_RETURN(Dim w, DivideExactly(ctx, (*in)[3], b, StrCat(InputLabel(ctx, 0), " dim 3")));
  ctx.SetOutputShape(0, Shape{(*in)[0], (*in)[1] * Dim::Const(b * b), h, w});
  return OkStatus();
}

// ---- ReverseSequence

// ReverseSequence: the input's type; batch_axis and time_axis are 0 and 1 in some order, and
// sequence_lens has one length per batch entry.
Status InferReverseSequence(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  OI_ASSIGN_OR_RETURN(int64_t batch_axis, ctx.IntAttr("batch_axis", 1));
  OI_ASSIGN_OR_RETURN(int64_t time_axis, ctx.IntAttr("time_axis", 0));
  for (auto [name, value] : {std::pair{"batch_axis", batch_axis}, {"time_axis", time_axis}}) {
    if (value != 0 && value != 1) {
      return AttrError(name, StrCat("expected 0 or 1, got ", value));
    }
  }
  if (batch_axis == time_axis) {
    return RuleError(DiagCode::kAxisRange,
                     StrCat("attributes 'batch_axis' and 'time_axis': expected different "
                            "axes, got ",
                            batch_axis, " for both"));
  }
  const Shape* in = ctx.InputShape(0);
  const Shape* lens = ctx.InputShape(1);
  if (in) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *in, 2));
  if (lens) OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *lens, 1));
  if (in && lens) {
    Shape out = *in;
    OI_ASSIGN_OR_RETURN(
        out[batch_axis],
        RequireEqualDims(ctx, (*in)[batch_axis], (*lens)[0],
                         StrCat(InputLabel(ctx, 0), " dim ", batch_axis, " (the batch axis) and ",
                                InputLabel(ctx, 1), " dim 0"),
                         InputSubject(ctx, 0)));
    ctx.SetOutputShape(0, std::move(out));
  }
  return OkStatus();
}

// Where: X's element type, the broadcast of all three shapes; known values are selected.
Status InferWhere(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  Shape out;
  for (int i = 0; i < 3; ++i) {
    const Shape* s = ctx.InputShape(i);
    if (!s) return OkStatus();
    if (i == 0) {
      out = *s;
    } else {
      OI_ASSIGN_OR_RETURN(out, BroadcastShapes(out, *s));
    }
  }
  ctx.SetOutputShape(0, out);
  // Values of any rank, broadcast: each element picked by a known condition element.
  const ConstValue* cond = ctx.InputValue(0);
  const ConstValue* x = ctx.InputValue(1);
  const ConstValue* y = ctx.InputValue(2);
  if (cond && x && y && x->elem_type == y->elem_type) {
    const ConstValue* args[] = {cond, x, y};
    auto v = MapValues(args, x->elem_type, ctx.max_value_elements(),
                       [](std::span<const ValueElement> e) -> std::optional<ValueElement> {
                         const Dim* d = std::get_if<Dim>(&e[0]);
                         auto c = d ? d->const_value() : std::nullopt;
                         if (!c) return std::nullopt;
                         return *c ? e[1] : e[2];
                       });
    if (v) ctx.SetOutputValue(0, std::move(*v));
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxIndexingRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Split", {1, 2, 11, 13, 18}, InferSplit));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Trilu", {14}, InferTrilu));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Scatter", {9, 11}, InferScatterElements));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ScatterElements", {11, 13, 16, 18}, InferScatterElements));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ScatterND", {11, 13, 16, 18}, InferScatterND));
  OI_RETURN_IF_ERROR(r.AttachRule("", "TensorScatter", {24}, InferTensorScatter));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GatherND", {11, 12, 13}, InferGatherND));
  OI_RETURN_IF_ERROR(r.AttachRule("", "OneHot", {9, 11}, InferOneHot));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Unique", {11}, InferUnique));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Compress", {9, 11}, InferCompress));
  OI_RETURN_IF_ERROR(r.AttachRule("", "NonZero", {9, 13}, InferNonZero));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DepthToSpace", {1, 11, 13}, InferDepthToSpace));
  OI_RETURN_IF_ERROR(r.AttachRule("", "SpaceToDepth", {1, 13}, InferSpaceToDepth));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ReverseSequence", {10}, InferReverseSequence));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Where", {9, 16}, InferWhere));
  return OkStatus();
}

}  // namespace onnx_infer
