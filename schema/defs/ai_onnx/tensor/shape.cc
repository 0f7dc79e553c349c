// Operators that compute and rearrange shape tensors (Shape, Size, Gather, GatherElements,
// Slice, Unsqueeze, Squeeze, Tile, Flatten, Identity, Expand): their type rules,
// and the propagation of their values. Values are Dims, so an exporter's
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain carries the symbols of the input
// ([B, S]) through to the Reshape, instead of unknowns.
#include "onnx_infer/schema/defs/ai_onnx/tensor/shape.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
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

// Shape: the input's dims, from `start` to `end` (from version 15), as an int64 vector.
Status InferShape(InferenceContext& ctx) {
  const Shape* in = ctx.InputShape(0);
  if (!in) {
    ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{Dim()}));
    return OkStatus();
  }
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(int64_t start, ctx.IntAttr("start", 0));
  OI_ASSIGN_OR_RETURN(int64_t end, ctx.IntAttr("end", rank));
  auto clamp = [rank](int64_t a) { return std::clamp(a < 0 ? a + rank : a, int64_t{0}, rank); };
  start = clamp(start);
  end = clamp(end);
  std::vector<Dim> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back((*in)[i]);
  ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{Dim::Const(static_cast<int64_t>(dims.size()))}));
  ctx.SetOutputValue(0, IntVector(kInt64, std::move(dims)));
  return OkStatus();
}

// Size: the number of elements, an int64 scalar.
Status InferSize(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kInt64, Shape{}));
  if (const Shape* in = ctx.InputShape(0)) {
    Dim n = Product(*in);
    if (!n.is_unknown()) ctx.SetOutputValue(0, ConstValue{kInt64, {}, {n}, {}});
  }
  return OkStatus();
}

// The most elements of a table read at unknown indices that get a symbol each: enough for
// the sizes a model picks from a table (a length, a shape of a few dims).
constexpr int64_t kMaxTableReads = 16;

// The indices an index value `index` can be within [-n, n - 1], under what the model states
// about its symbols (not the user's assumptions): [lo, hi], either absent when not known.
std::pair<std::optional<int64_t>, std::optional<int64_t>> IndexReach(const InferenceContext& ctx,
                                                                     Dim index, int64_t n) {
  if (index.is_unknown() || !ctx.unifier()) return {};
  std::vector<std::string> used;
  Dim without;
  Dim d = ctx.unifier()->Resolve(index, &used, &without);
  if (!used.empty()) d = without;
  if (d.is_unknown()) return {};
  const symbolic::Assumptions* model = &ctx.unifier()->assumptions();
  auto proven = [&](Dim a, Dim b) {
    return symbolic::LessEqual(a, b, model) == symbolic::Tri::kTrue;
  };
  // The largest k in [-n, n - 1] proven <= d and the smallest proven >= d, by bisection:
  // each k found is proven, whatever the prover's limits.
  std::optional<int64_t> lo, hi;
  for (int64_t a = -n, b = n - 1; a <= b;) {
    const int64_t k = a + (b - a) / 2;
    if (proven(Dim::Const(k), d)) {
      lo = k;
      a = k + 1;
    } else {
      b = k - 1;
    }
  }
  for (int64_t a = -n, b = n - 1; a <= b;) {
    const int64_t k = a + (b - a) / 2;
    if (proven(d, Dim::Const(k))) {
      hi = k;
      b = k - 1;
    } else {
      a = k + 1;
    }
  }
  return {lo, hi};
}

// The value of a Gather of a constant integer `table` (input 0) along `axis` by indices
// (input 1, of shape `indices`) some of which are not known (GatherElements of a 1-D table
// reads it alike): a known index reads its element, and the element at an index that is not
// known is within the least and greatest of the elements the index can reach along `axis`
// (the other positions fixed), a symbol with those bounds (BoundedValueElement) whose origin
// names the node and the table. A length picked from a table of sizes (Range(0,
// Gather(sizes, i), 1)) is then a dim with the table's range. Nullopt when the value is not
// of that kind or nothing of it is known.
StatusOr<std::optional<ConstValue>> TableRead(InferenceContext& ctx, const ConstValue& table,
                                              int64_t axis, const ConstValue* index_value,
                                              const Shape& indices) {
  const int64_t rank = static_cast<int64_t>(table.dims.size());
  if (axis < 0 || axis >= rank || (table.elem_type != kInt64 && table.elem_type != kInt32)) {
    return std::optional<ConstValue>();
  }
  auto elements = table.ConstInts();
  if (!elements || static_cast<int64_t>(elements->size()) != table.NumElements() ||
      !IsStatic(indices)) {
    return std::optional<ConstValue>();
  }
  const int64_t n = table.dims[axis];
  int64_t inner = 1;  // the elements of one position along `axis`
  for (int64_t i = axis + 1; i < rank; ++i) inner *= table.dims[i];
  ConstValue out{table.elem_type, {}, {}, {}};
  out.dims.assign(table.dims.begin(), table.dims.begin() + axis);
  for (Dim d : indices) out.dims.push_back(*d.const_value());
  out.dims.insert(out.dims.end(), table.dims.begin() + axis + 1, table.dims.end());
  const int64_t count = out.NumElements();  // -1 when it overflows
  if (count <= 0 || count > kMaxTableReads || n <= 0) return std::optional<ConstValue>();
  int64_t index_count = 1;  // at most `count`, which is small
  for (Dim d : indices) index_count *= *d.const_value();
  if (index_value && index_value->ints.size() != static_cast<size_t>(index_count)) {
    index_value = nullptr;
  }
  std::string what = StrCat("an element of constant '", ctx.node().input(0), "' [");
  for (int64_t i = 0; i < rank; ++i) what += StrCat(i ? "x" : "", table.dims[i]);
  what += rank == 1 ? " values]" : StrCat(" values] along axis ", axis);
  bool any = false;
  for (int64_t e = 0; e < count; ++e) {
    // Output element e is table[o, index k, q].
    const int64_t q = e % inner, k = e / inner % index_count, o = e / inner / index_count;
    const int64_t first = o * n * inner + q;  // table[o, 0, q]; the next is `inner` further
    const Dim index = index_value ? index_value->ints[k] : Dim();
    if (auto i = index.const_value()) {
      if (*i < -n || *i >= n) {
        return RuleError(
            DiagCode::kInputValue,
            StrCat("input 1 'indices': index ", *i, " is out of range for ", n, " elements"),
            Subject::Input(1, "indices"));
      }
      out.ints.push_back(Dim::Const((*elements)[first + (*i < 0 ? *i + n : *i) * inner]));
      any = true;
      continue;
    }
    ConstValue column{table.elem_type, {n}, {}, {}};
    for (int64_t p = 0; p < n; ++p) column.ints.push_back(table.ints[first + p * inner]);
    const auto [lo, hi] = IndexReach(ctx, index, n);
    const auto range = TableElementRange(column, lo, hi);
    if (!range) {
      out.ints.push_back(Dim());
      continue;
    }
    const std::string reach = range->count < n
                                  ? StrCat(" at index ", index.ToString(), " within [",
                                           lo.value_or(-n), ", ", hi.value_or(n - 1), "]")
                                  : "";
    out.ints.push_back(ctx.BoundedValueElement(0, e, range->min, range->max, what + reach));
    any = any || !out.ints.back().is_unknown();
  }
  if (!any) return std::optional<ConstValue>();
  return std::optional<ConstValue>(std::move(out));
}

// Gather: data's dims before `axis`, then the indices' dims, then data's dims after `axis`.
// GatherElements (11, 13): the output has the indices' shape and the data's element type.
// Data and indices must have the same rank (an index dim may exceed the data's, so dims are
// not compared).
Status InferGatherElements(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* data = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  if (data) {
    const int64_t rank = static_cast<int64_t>(data->size());
    OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
    OI_RETURN_IF_ERROR(ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")).status());
    if (indices) {
      OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *indices, data->size(), "the rank of data"));
    }
  }
  if (indices) ctx.SetOutputShape(0, *indices);
  const ConstValue* data_value = ctx.InputValue(0);
  const ConstValue* index_value = ctx.InputValue(1);
  if (data && data_value && index_value && data_value->dims.size() == data->size()) {
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
    OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, static_cast<int64_t>(data->size()),
                                                Subject::Attribute("axis")));
    if (auto v = GatherElementsValue(*data_value, *index_value, axis, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
      return OkStatus();
    }
  }
  // A 1-D table read at indices not all known: GatherElements reads it as Gather does.
  if (data_value && indices && indices->size() == 1 && data_value->dims.size() == 1 &&
      (!data || data->size() == 1)) {
    OI_ASSIGN_OR_RETURN(auto v, TableRead(ctx, *data_value, 0, index_value, *indices));
    if (v) ctx.SetOutputValue(0, std::move(*v));
  }
  return OkStatus();
}

Status InferGather(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* data = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  if (!data || !indices) return OkStatus();
  const int64_t rank = static_cast<int64_t>(data->size());
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *data, 1));
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 0));
  OI_ASSIGN_OR_RETURN(axis, ctx.NormalizeAxis(axis, rank, Subject::Attribute("axis")));
  Shape out(data->begin(), data->begin() + axis);
  out.insert(out.end(), indices->begin(), indices->end());
  out.insert(out.end(), data->begin() + axis + 1, data->end());
  ctx.SetOutputShape(0, out);

  // Values: data of any rank gathered by known indices.
  const ConstValue* data_value = ctx.InputValue(0);
  const ConstValue* index_value = ctx.InputValue(1);
  if (!data_value || static_cast<int64_t>(data_value->dims.size()) != rank) return OkStatus();
  if (!index_value || !index_value->ConstInts()) {
    // A table of sizes read at an index that is not known.
    OI_ASSIGN_OR_RETURN(auto v, TableRead(ctx, *data_value, axis, index_value, *indices));
    if (v) ctx.SetOutputValue(0, std::move(*v));
    return OkStatus();
  }
  if (auto index_ints = index_value->ConstInts()) {
    const int64_t n = data_value->dims[axis];
    for (int64_t i : *index_ints) {
      if (i < -n || i >= n) {
        return RuleError(
            DiagCode::kInputValue,
            StrCat("input 1 'indices': index ", i, " is out of range for ", n, " elements"),
            Subject::Input(1, "indices"));
      }
    }
    if (auto v = GatherValue(*data_value, *index_value, axis, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
    }
  }
  return OkStatus();
}

// The `axes` of Unsqueeze/Squeeze: an attribute before version 13, an input from 13.
StatusOr<std::optional<std::vector<int64_t>>> Axes(InferenceContext& ctx, bool* known) {
  *known = true;
  if (ctx.opset_version() < 13) return ctx.OptionalIntsAttr("axes");
  if (!ctx.HasInput(1)) return std::optional<std::vector<int64_t>>();
  auto v = ConstInts(ctx, 1);
  if (!v) *known = false;
  return v;
}

// How many axes an `axes` input of unknown value holds, from its shape: its length, or one
// for a scalar (which runtimes read as a single axis).
std::optional<int64_t> AxesCount(const InferenceContext& ctx) {
  const Shape* s = ctx.InputShape(1);
  if (!s || s->size() > 1) return std::nullopt;
  if (s->empty()) return 1;
  auto n = s->at(0).const_value();
  if (!n || *n < 0 || *n > kMaxRank) return std::nullopt;
  return n;
}

// Unsqueeze: inserts dims of 1 at `axes` (of the output's rank).
Status InferUnsqueeze(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  bool known;
  OI_ASSIGN_OR_RETURN(auto axes, Axes(ctx, &known));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (!known || !axes) {
    if (known && !axes) return RuleError(DiagCode::kInputCombination, "expected axes, got none");
    // Which axes are new is not known, but how many may be. Output dim j is a new 1 or input
    // dim j - m, m of the k new dims being before it (0 <= m <= k, and j - m < rank): it is
    // 1 when every such input dim is 1 (a scalar's Unsqueeze gives [1, ..., 1]).
    auto count = AxesCount(ctx);
    if (!count) return OkStatus();
    const int64_t rank = static_cast<int64_t>(in->size());
    const Dim one = Dim::Const(1);
    Shape out(rank + *count);
    for (int64_t j = 0; j < rank + *count; ++j) {
      bool all_one = true;
      for (int64_t i = std::max<int64_t>(0, j - *count); i <= std::min(j, rank - 1); ++i) {
        all_one = all_one && (*in)[i] == one;
      }
      if (all_one) out[j] = one;
    }
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  return UnsqueezeAt(ctx, *in, *axes);
}

}  // namespace

Status UnsqueezeAt(InferenceContext& ctx, const Shape& in, const std::vector<int64_t>& axes) {
  const int64_t rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> inserted(rank, false);
  for (int64_t a : axes) {
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, "axes"));
    if (inserted[axis])
      return RuleError(DiagCode::kAxisRange, StrCat("axes: axis ", a, " is repeated"));
    inserted[axis] = true;
  }
  Shape out(rank);
  size_t next = 0;
  const Dim one = Dim::Const(1);
  for (int64_t i = 0; i < rank; ++i) out[i] = inserted[i] ? one : in[next++];
  if (const ConstValue* v = ctx.InputValue(0)) {
    ConstValue reshaped = *v;
    reshaped.dims.resize(rank);
    for (int64_t i = 0; i < rank; ++i) reshaped.dims[i] = out[i].const_value().value_or(0);
    ctx.SetOutputShape(0, std::move(out));
    ctx.SetOutputValue(0, std::move(reshaped));
    return OkStatus();
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

namespace {

// Squeeze: removes the dims at `axes` (each must be 1), or every dim of 1 when no axes are
// given (which needs every dim known).
Status InferSqueeze(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  bool known;
  OI_ASSIGN_OR_RETURN(auto axes, Axes(ctx, &known));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  if (!known) {
    // Which dims go is not known, but how many may be. Output dim j is input dim j + m, m of
    // the k removed dims being before it (0 <= m <= k): known when those input dims are all
    // the same dim.
    auto count = AxesCount(ctx);
    if (!count || *count > rank) return OkStatus();
    Shape out(rank - *count);
    for (int64_t j = 0; j < rank - *count; ++j) {
      bool same = true;
      for (int64_t i = j + 1; i <= j + *count; ++i) same = same && (*in)[i] == (*in)[j];
      if (same) out[j] = (*in)[j];
    }
    ctx.SetOutputShape(0, std::move(out));
    return OkStatus();
  }
  std::vector<bool> removed(rank, false);
  if (axes) {
    for (int64_t a : *axes) {
      OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, "axes"));
      auto v = (*in)[axis].const_value();
      if (v && *v != 1) {
        return RuleError(DiagCode::kInputDims, StrCat("axes: dim ", axis, " is ", *v, ", not 1"));
      }
      removed[axis] = true;
    }
  } else {
    for (int64_t i = 0; i < rank; ++i) {
      auto v = (*in)[i].const_value();
      if (!v) return OkStatus();  // whether it is 1 decides the rank
      removed[i] = *v == 1;
    }
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    if (!removed[i]) out.push_back((*in)[i]);
  }
  ctx.SetOutputShape(0, out);
  if (const ConstValue* v = ctx.InputValue(0)) {
    ConstValue reshaped = *v;
    reshaped.dims.clear();
    for (Dim d : out) reshaped.dims.push_back(d.const_value().value_or(0));
    ctx.SetOutputValue(0, std::move(reshaped));
  }
  return OkStatus();
}

// Bounds this far out mean "from the start" / "to the end" (exporters write INT64_MAX,
// INT32_MAX or their negatives); as for the constant case, no dim is assumed larger.
constexpr int64_t kSliceToEnd = INT32_MAX;

// The length of one axis sliced by a constant step where the dim, start or end is symbolic
// (a start computed from a Shape). Each bound is clamped as ONNX clamps it, with Min/Max where
// the order is not provable, so that the result holds for every value of the symbols. A
// symbolic bound counted from the end (x[:, -S:], -S provably <= 0) is exact too: -k is
// position Max(dim - k, 0) for k >= 1 but 0 for k = 0 (x[:, -0:] is all of x), which is
// Max(dim - k, 0)*Min(1, k) when k may be 0. A bound of unknown sign leaves the length
// unknown. The common "to the end" slices get the short forms Max(dim - start, 0),
// Min(-start, dim), and dim + (Min(k, dim) - dim)*Min(1, k) for a start of -k. The step is
// `forward` or backward by `stride`, which is >= 1 (a constant, or a symbol proved so).
Dim SymbolicSliceLength(Dim dim, Dim start, Dim end, bool forward, Dim stride,
                        const InferenceContext& ctx) {
  const symbolic::Assumptions* assumptions =
      ctx.unifier() ? &ctx.unifier()->assumptions() : nullptr;
  auto proven = [&](Dim a, Dim b) {  // a <= b for every value of the symbols
    return symbolic::LessEqual(a, b, assumptions) == symbolic::Tri::kTrue;
  };
  const Dim zero = Dim::Const(0), one = Dim::Const(1);
  // A symbolic bound is usable when it cannot be negative: provably, or being the dim.
  auto non_negative = [&](Dim x) { return x == dim || proven(zero, x); };
  auto min = [&](Dim a, Dim b) { return proven(a, b) ? a : proven(b, a) ? b : Dim::Min(a, b); };
  auto max = [&](Dim a, Dim b) { return proven(a, b) ? b : proven(b, a) ? a : Dim::Max(a, b); };
  // The position of a bound -k counted from the end (k >= 0), for a positive step.
  auto from_end = [&](Dim k) -> Dim {
    const Dim back = proven(k, dim) ? dim - k : Dim::Max(dim - k, zero);  // Max(dim - k, 0)
    return proven(one, k) ? back : back * min(one, k);
  };
  // Clamps a bound into [lo, hi], where lo is 0 or -1 and hi is dim or dim - 1.
  auto clamp = [&](Dim x, int64_t lo, Dim hi) -> Dim {
    if (auto c = x.const_value()) {
      if (*c >= kSliceToEnd) return hi;
      if (*c <= -kSliceToEnd) return Dim::Const(lo);
      if (*c < 0) return max(dim + x, Dim::Const(lo));  // below hi
      return min(x, hi);
    }
    if (non_negative(x)) return min(x, hi);
    if (lo == 0 && proven(x, zero)) return from_end(zero - x);
    // dim - 1 or dim - 2 (Shape(x)[i] - 1), of unknown sign only where dim < 2: a negative
    // bound counts from the end, dim + x = 2*dim - k, which is <= 0 there for k <= 2, so the
    // position is Max(0, dim - k) for every dim. (From k = 3 on, dim = 2 would give 1.)
    if (auto k = (dim - x).const_value(); lo == 0 && k && (*k == 1 || *k == 2)) {
      return max(x, zero);
    }
    return Dim();
  };
  auto length = [&](Dim span) {  // ceil(span / stride) for a span that may be negative
    return Dim::CeilDiv(proven(zero, span) ? span : Dim::Max(span, zero), stride);
  };
  if (forward) {
    auto e = end.const_value();
    if ((e && *e >= kSliceToEnd) || end == dim) {
      auto s = start.const_value();
      if (s && *s >= kSliceToEnd) return zero;
      if (s && *s <= -kSliceToEnd) return Dim::CeilDiv(dim, stride);
      if (s && *s < 0) return Dim::CeilDiv(min(Dim::Const(-*s), dim), stride);
      if (s || non_negative(start)) return length(dim - start);
      if (proven(start, zero)) {
        // The last k, but all of dim when k is 0: Min(k, dim) + (dim - Min(k, dim))*[k == 0],
        // written so that it reads Min(k, dim) once k >= 1 is known or assumed.
        const Dim k = zero - start;
        const Dim last_k = min(k, dim);
        const Dim taken = proven(one, k) ? last_k : dim + (last_k - dim) * min(one, k);
        return Dim::CeilDiv(taken, stride);
      }
      return Dim();
    }
    return length(clamp(end, 0, dim) - clamp(start, 0, dim));
  }
  const Dim top = dim - one;
  auto s = start.const_value(), e = end.const_value();
  if ((s && (*s >= kSliceToEnd || *s == -1)) && e && *e <= -kSliceToEnd) {
    return Dim::CeilDiv(dim, stride);  // the whole axis, backwards
  }
  // On an empty dim the clamped start (0) passes the clamped end (-1); nothing is taken.
  return min(length(clamp(start, 0, top) - clamp(end, -1, top)), dim);
}

// Slice: starts/ends/axes/steps as attributes (version 1) or inputs (from 10).
Status InferSlice(InferenceContext& ctx) {
  return InferSliceOf(ctx, /*from_inputs=*/ctx.opset_version() >= 10);
}

}  // namespace

Status InferSliceOf(InferenceContext& ctx, bool from_inputs) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  const Dim zero = Dim::Const(0), one = Dim::Const(1);
  // An axis sliced by what is not known: an empty one stays empty, any other is unknown.
  auto unknown_slice = [&](int64_t axis) { return (*in)[axis] == zero ? zero : Dim(); };
  std::optional<std::vector<int64_t>> starts, ends, axes;
  std::vector<Dim> start_dims, end_dims;
  bool bounds_known = false;
  // The steps: absent (all 1), or the input's values, symbolic ones included.
  bool steps_given = false;
  const std::vector<Dim>* step_dims = nullptr;
  if (!from_inputs) {
    OI_ASSIGN_OR_RETURN(starts, ctx.OptionalIntsAttr("starts"));
    OI_ASSIGN_OR_RETURN(ends, ctx.OptionalIntsAttr("ends"));
    OI_ASSIGN_OR_RETURN(axes, ctx.OptionalIntsAttr("axes"));
  } else {
    starts = ConstInts(ctx, 1);
    ends = ConstInts(ctx, 2);
    // Symbolic starts and ends (Shape arithmetic) are Dims; constants are read as such too.
    const std::vector<Dim>* start_values = IntValues(ctx, 1);
    const std::vector<Dim>* end_values = IntValues(ctx, 2);
    if (start_values && end_values) {
      start_dims = *start_values;
      end_dims = *end_values;
      bounds_known = true;
    }
    if (ctx.HasInput(3)) {
      axes = ConstInts(ctx, 3);
      if (!axes) {  // which axes are sliced is not known
        Shape out(rank);
        for (int64_t i = 0; i < rank; ++i) out[i] = unknown_slice(i);
        ctx.SetOutputShape(0, std::move(out));
        return OkStatus();
      }
    }
    if (ctx.HasInput(4)) {
      steps_given = true;
      step_dims = IntValues(ctx, 4);
    }
  }
  if (starts && ends) {
    start_dims.clear();
    end_dims.clear();
    for (int64_t v : *starts) start_dims.push_back(Dim::Const(v));
    for (int64_t v : *ends) end_dims.push_back(Dim::Const(v));
    bounds_known = true;
  }
  if (!bounds_known) {
    // The sliced axes keep their place; their lengths are not known.
    Shape out = *in;
    if (axes) {
      for (int64_t a : *axes) {
        OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, "axes"));
        out[axis] = unknown_slice(axis);
      }
    } else {
      for (int64_t i = 0; i < rank; ++i) out[i] = unknown_slice(i);
    }
    ctx.SetOutputShape(0, out);
    return OkStatus();
  }
  if (start_dims.size() != end_dims.size()) {
    return RuleError(DiagCode::kInputValue, StrCat("starts has ", start_dims.size(),
                                                   " values but ends has ", end_dims.size()));
  }
  if (step_dims && step_dims->size() != start_dims.size()) {
    return RuleError(DiagCode::kInputValue, StrCat("steps has ", step_dims->size(),
                                                   " values but starts has ", start_dims.size()));
  }
  std::vector<int64_t> axis_list;
  if (axes) {
    axis_list = *axes;
  } else {
    for (size_t i = 0; i < start_dims.size(); ++i) axis_list.push_back(static_cast<int64_t>(i));
  }
  if (axis_list.size() != start_dims.size()) {
    return RuleError(DiagCode::kInputValue, StrCat("axes has ", axis_list.size(),
                                                   " values but starts has ", start_dims.size()));
  }
  const symbolic::Assumptions* assumptions =
      ctx.unifier() ? &ctx.unifier()->assumptions() : nullptr;
  auto proven = [&](Dim a, Dim b) {  // a <= b for every value of the symbols
    return symbolic::LessEqual(a, b, assumptions) == symbolic::Tri::kTrue;
  };
  Shape out = *in;
  std::vector<bool> sliced(rank, false);
  std::vector<int64_t> axis_of(axis_list.size()), step_of(axis_list.size(), 1);
  bool steps_constant = true;
  for (size_t i = 0; i < axis_list.size(); ++i) {
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(axis_list[i], rank, "axes"));
    if (sliced[axis])
      return RuleError(DiagCode::kAxisRange, StrCat("axes: axis ", axis_list[i], " is repeated"));
    sliced[axis] = true;
    axis_of[i] = axis;
    const Dim step = !steps_given ? one : step_dims ? (*step_dims)[i] : Dim();
    const std::optional<int64_t> step_value = step.const_value();
    if (step_value == 0) return RuleError(DiagCode::kInputValue, "steps: a step of 0");
    steps_constant = steps_constant && step_value;
    step_of[i] = step_value.value_or(1);
    const Dim dim = (*in)[axis];
    auto d = dim.const_value();
    auto s = start_dims[i].const_value(), e = end_dims[i].const_value();
    if (dim == zero || step.is_unknown()) {
      out[axis] = unknown_slice(axis);
    } else if (d && s && e && step_value) {
      out[axis] = Dim::Const(ResolveSliceAxis(*d, *s, *e, *step_value).count);
    } else if (proven(zero, step)) {  // a step is never 0, so this one is >= 1
      out[axis] = SymbolicSliceLength(dim, start_dims[i], end_dims[i], true, step, ctx);
    } else if (proven(step, zero)) {  // and this one <= -1
      out[axis] = SymbolicSliceLength(dim, start_dims[i], end_dims[i], false, zero - step, ctx);
    } else {
      out[axis] = Dim();  // a symbolic step of either sign
    }
  }
  ctx.SetOutputShape(0, out);
  // Values of any rank, with constant bounds and steps (F.pad's pads reversed by step -1).
  const ConstValue* value = ctx.InputValue(0);
  if (!value || !steps_constant || static_cast<int64_t>(value->dims.size()) != rank) {
    return OkStatus();
  }
  std::vector<SliceAxis> slice_axes;
  for (int64_t d : value->dims) slice_axes.push_back(SliceAxis{0, 1, d});
  for (size_t i = 0; i < axis_list.size(); ++i) {
    auto s = start_dims[i].const_value(), e = end_dims[i].const_value();
    if (!s || !e) return OkStatus();
    slice_axes[axis_of[i]] = ResolveSliceAxis(value->dims[axis_of[i]], *s, *e, step_of[i]);
  }
  if (auto v = SliceValue(*value, slice_axes, ctx.max_value_elements())) {
    ctx.SetOutputValue(0, std::move(*v));
  }
  return OkStatus();
}

namespace {}  // namespace

namespace {

// Tile (from version 6): each dim times its repeat count.
Status InferTile(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (ctx.opset_version() < 6) {  // version 1 repeats one axis: the rank stays
    ctx.SetOutputShape(0, Shape(in->size()));
    return OkStatus();
  }
  const std::vector<Dim>* repeats = IntValues(ctx, 1);
  if (!repeats) {
    ctx.SetOutputShape(0, Shape(in->size()));
    return OkStatus();
  }
  if (repeats->size() != in->size()) {
    return InputError(ctx, 1, DiagCode::kInputValue,
                      StrCat("expected ", in->size(), " values, got ", repeats->size()));
  }
  Shape out(in->size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = (*in)[i] * (*repeats)[i];
  ctx.SetOutputShape(0, out);

  // The value, for constant repeats: element (i0, i1, ...) of the output is element
  // (i0 mod d0, i1 mod d1, ...) of the input.
  const ConstValue* x = ctx.InputValue(0);
  auto counts = ConstInts(ctx, 1);
  if (x && counts) {
    if (auto v = TileValue(*x, *counts, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
    }
  }
  return OkStatus();
}

// Flatten: [product of dims before axis, product of dims from axis on].
Status InferFlatten(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(int64_t axis, ctx.IntAttr("axis", 1));
  if (axis < -rank || axis > rank) {
    return AttrError("axis", StrCat("expected an axis in [", -rank, ", ", rank, "], got ", axis),
                     DiagCode::kAxisRange);
  }
  if (axis < 0) axis += rank;
  ctx.SetOutputShape(0, Shape{Product(Shape(in->begin(), in->begin() + axis)),
                              Product(Shape(in->begin() + axis, in->end()))});
  if (const ConstValue* v = ctx.InputValue(0); v && v->dims.size() == in->size()) {
    ConstValue flat = *v;
    flat.dims = {1, 1};
    for (int64_t i = 0; i < rank; ++i) flat.dims[i < axis ? 0 : 1] *= v->dims[i];
    ctx.SetOutputValue(0, std::move(flat));
  }
  return OkStatus();
}

// Identity: the input's type and value.
Status InferIdentity(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  if (const ConstValue* v = ctx.InputValue(0)) ctx.SetOutputValue(0, *v);
  return OkStatus();
}

// Expand: the input broadcast with the `shape` input's value. When that value is unknown, its
// length still gives the output's rank.
Status InferExpand(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  Shape target;
  if (const ConstValue* v = ctx.InputValue(1)) {
    if (v->dims.size() != 1) {
      return InputError(ctx, 1, DiagCode::kInputRank,
                        StrCat("expected a 1-D shape, got rank ", v->dims.size()));
    }
    if (static_cast<int64_t>(v->ints.size()) != v->NumElements()) return OkStatus();
    for (size_t i = 0; i < v->ints.size(); ++i) {
      auto c = v->ints[i].const_value();
      if (c && *c < 0) {
        return InputError(ctx, 1, DiagCode::kInputValue,
                          StrCat("expected dims >= 0, got ", *c, " at index ", i));
      }
    }
    target.assign(v->ints.begin(), v->ints.end());
  } else {
    const Shape* s = ctx.InputShape(1);
    if (!s) return OkStatus();
    if (s->size() != 1) {
      return InputError(ctx, 1, DiagCode::kInputRank,
                        StrCat("expected a 1-D shape, got rank ", s->size()));
    }
    auto n = s->at(0).const_value();
    if (!n) return OkStatus();
    if (*n < 0 || *n > kMaxRank) {
      return InputError(ctx, 1, DiagCode::kInputValue, StrCat("a shape of ", *n, " dims"));
    }
    target = Shape(*n);
  }
  if (!in) return OkStatus();
  OI_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(*in, target, &ctx));
  ctx.SetOutputShape(0, out);
  // The value: the input's elements repeated along the broadcast axes.
  const ConstValue* x = ctx.InputValue(0);
  if (x && IsStatic(out)) {
    std::vector<int64_t> dims;
    for (Dim d : out) dims.push_back(*d.const_value());
    if (auto v = ExpandValue(*x, dims, ctx.max_value_elements())) {
      ctx.SetOutputValue(0, std::move(*v));
    }
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxShapeRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Shape", {1, 13, 15, 19, 21, 23, 24, 25}, InferShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Size", {1, 13, 19, 21, 23, 24, 25}, InferSize));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Gather", {1, 11, 13}, InferGather));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GatherElements", {11, 13}, InferGatherElements));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Unsqueeze", {1, 11, 13, 21, 23, 24, 25}, InferUnsqueeze));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Squeeze", {1, 11, 13, 21, 23, 24, 25}, InferSqueeze));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Slice", {1, 10, 11, 13}, InferSlice));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Tile", {1, 6, 13}, InferTile));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Flatten", {1, 9, 11, 13, 21, 23, 24, 25}, InferFlatten));
  OI_RETURN_IF_ERROR(
      r.AttachRule("", "Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25}, InferIdentity));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Expand", {8, 13}, InferExpand));
  return OkStatus();
}

}  // namespace onnx_infer
