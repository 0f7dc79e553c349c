// Convolution, pooling and normalization operators of ai.onnx: Conv, ConvInteger, QLinearConv,
// ConvTranspose, DeformConv; AveragePool, MaxPool, LpPool, their Global forms, MaxUnpool,
// MaxRoiPool, RoiAlign; LRN, LpNormalization, BatchNormalization, InstanceNormalization,
// Dropout.
//
// The sliding-window operators share one computation of an output spatial dim from the input
// dim, the (dilated) kernel, the stride and the pads or auto_pad; dims stay symbolic:
// x[N, 3, H, W] through a 3x3 stride-2 Conv with pads 1 gives [N, M, floor((H - 1)/2) + 1, ...].
#include "onnx_infer/schema/defs/ai_onnx/nn/conv_pool.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

using symbolic::Tri;

// An INTS attribute's values, one per spatial axis, read where they are (the node's attribute
// or the schema's default, which outlive the rule's call), or else one value for every axis:
// a window reads three such attributes per node, and copying each into a vector was a good
// part of a Conv's rule.
class SpatialValues {
 public:
  explicit SpatialValues(int64_t fill = 0) : fill_(fill) {}
  SpatialValues(SpatialValues&&) = default;  // a vector's buffer moves with it
  SpatialValues& operator=(SpatialValues&&) = default;
  SpatialValues(const SpatialValues&) = delete;  // `data_` may point into `owned_`
  SpatialValues& operator=(const SpatialValues&) = delete;

  int64_t operator[](size_t i) const { return data_ ? data_[i] : fill_; }
  void View(const int64_t* data) { data_ = data; }
  void Own(std::vector<int64_t> values) {
    owned_ = std::move(values);
    data_ = owned_.data();
  }

 private:
  const int64_t* data_ = nullptr;
  int64_t fill_;
  std::vector<int64_t> owned_;
};

// An INTS attribute with one value per spatial axis (`count` values), `fill` when absent or
// when the operator's version does not define it (AveragePool has dilations only from 19; a
// node giving them earlier gets a warning from the signature check, and the runtime ignores
// them). Values must be >= `min`.
StatusOr<SpatialValues> SpatialInts(const InferenceContext& ctx, const char* name, size_t count,
                                    int64_t fill, int64_t min) {
  SpatialValues out(fill);
  if (!ctx.schema().FindAttribute(name)) return out;
  // An attribute of the right type is read in place; any other goes through the accessor,
  // for its errors and its reading of an untyped attribute.
  std::optional<std::vector<int64_t>> copied;
  std::span<const int64_t> v;
  const onnx::AttributeProto* a = ctx.Attr(name);
  if (a && a->type() == onnx::AttributeProto::INTS) {
    v = {a->ints().data(), static_cast<size_t>(a->ints_size())};
  } else {
    OI_ASSIGN_OR_RETURN(copied, ctx.OptionalIntsAttr(name));
    if (copied) v = *copied;
  }
  if (v.empty()) return out;
  if (v.size() != count) {
    return AttrError(name, StrCat("expected ", count, " values, got ", v.size()));
  }
  for (int64_t x : v) {
    if (x < min) {
      return AttrError(name, StrCat("expected values >= ", min, ", got ", StrJoin(v, ", ")));
    }
  }
  if (copied) {
    out.Own(std::move(*copied));
  } else {
    out.View(v.data());
  }
  return out;
}

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

StatusOr<AutoPad> ReadAutoPad(const InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string s, ctx.StringAttr("auto_pad", "NOTSET"));
  if (s == "NOTSET" || s.empty()) return AutoPad::kNotSet;
  if (s == "SAME_UPPER") return AutoPad::kSameUpper;
  if (s == "SAME_LOWER") return AutoPad::kSameLower;
  if (s == "VALID") return AutoPad::kValid;
  return AttrError("auto_pad",
                   StrCat("expected NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '", s, "'"));
}

// The window of a convolution or pooling: per spatial axis the kernel extent (symbolic for a
// Conv whose weight has symbolic dims), stride, dilation, and begin/end pads.
struct Window {
  std::vector<Dim> kernel;
  SpatialValues strides, dilations, pads;
  AutoPad auto_pad = AutoPad::kNotSet;
  bool ceil_mode = false;
  // A pool takes the spec's formula for a kernel past the padded input: 0 windows (or one
  // partial window with ceil_mode) while the formula is >= 0. A convolution refuses it.
  bool pool = false;
};

// The least pad a window operator takes. ai.onnx's convolutions and pools say pads "can take
// any value greater than or equal to 0"; onnxruntime's contrib forms (com.microsoft) run
// negative pads as cropping, so they are not refused there.
int64_t LeastPad(const InferenceContext& ctx) {
  return CanonicalDomain(ctx.schema().domain()).empty() ? 0 : INT64_MIN;
}

// ai.onnx: "pads ... cannot be used simultaneously with auto_pad" (any auto_pad but NOTSET).
Status CheckPadsWithoutAutoPad(const InferenceContext& ctx, AutoPad auto_pad) {
  if (auto_pad == AutoPad::kNotSet || !CanonicalDomain(ctx.schema().domain()).empty()) {
    return OkStatus();
  }
  OI_ASSIGN_OR_RETURN(auto pads, ctx.OptionalIntsAttr("pads"));
  if (!pads || pads->empty()) return OkStatus();
  OI_ASSIGN_OR_RETURN(std::string s, ctx.StringAttr("auto_pad", "NOTSET"));
  return AttrError(
      "pads",
      StrCat("given together with auto_pad = ", s, "; the two cannot be used simultaneously"),
      DiagCode::kInputCombination);
}

// Reads strides, dilations, pads, auto_pad and ceil_mode for `count` spatial axes (the
// kernel is filled in by the caller). Attributes a version does not define are absent, so
// their defaults apply.
StatusOr<Window> ReadWindow(const InferenceContext& ctx, size_t count) {
  Window w;
  OI_ASSIGN_OR_RETURN(w.strides, SpatialInts(ctx, "strides", count, 1, 1));
  OI_ASSIGN_OR_RETURN(w.dilations, SpatialInts(ctx, "dilations", count, 1, 1));
  OI_ASSIGN_OR_RETURN(w.pads, SpatialInts(ctx, "pads", 2 * count, 0, LeastPad(ctx)));
  OI_ASSIGN_OR_RETURN(w.auto_pad, ReadAutoPad(ctx));
  OI_RETURN_IF_ERROR(CheckPadsWithoutAutoPad(ctx, w.auto_pad));
  if (ctx.schema().FindAttribute("ceil_mode")) {
    OI_ASSIGN_OR_RETURN(int64_t ceil_mode, ctx.IntAttr("ceil_mode", 0));
    w.ceil_mode = ceil_mode != 0;
  }
  return w;
}

// One output spatial dim of a sliding window over input dim `in` (axis `i` of `count`).
// Explicit pads: floor((in + pads - ek)/s) + 1 with ek = d*(k - 1) + 1, or with ceil_mode
// ceil(...) + 1, less one when that last window would start in the end padding (its start
// (out - 1)*s is at or past in + pad_begin). SAME_*: ceil(in/s). VALID: floor((in - ek)/s) + 1
// (the ceil_mode form ceil((in - ek + 1)/s) is the same number). A kernel past the padded
// input is an error, except in a pool while the formula is >= 0 (MaxPool kernel 3 over 2: 0).
StatusOr<Dim> SlidingDim(const Window& w, size_t i, size_t count, Dim in) {
  const Dim s = Dim::Const(w.strides[i]);
  // ek is d*(k - 1) + 1: worked out in integers for a constant kernel (the usual case, and
  // the same constant the Dims give), in Dims otherwise or where the integers overflow, as
  // the Dims then do (unknown).
  Dim ek;
  const std::optional<int64_t> k = w.kernel[i].const_value();
  int64_t extent;
  if (k && !__builtin_sub_overflow(*k, 1, &extent) &&
      !__builtin_mul_overflow(w.dilations[i], extent, &extent) &&
      !__builtin_add_overflow(extent, 1, &extent)) {
    ek = Dim::Const(extent);
  } else {
    ek = Dim::Const(w.dilations[i]) * (w.kernel[i] - Dim::Const(1)) + Dim::Const(1);
  }
  if (w.auto_pad == AutoPad::kSameUpper || w.auto_pad == AutoPad::kSameLower) {
    return Dim::CeilDiv(in, s);
  }
  const bool valid = w.auto_pad == AutoPad::kValid;
  const int64_t pad_begin = valid ? 0 : w.pads[i], pad_end = valid ? 0 : w.pads[i + count];
  const Dim pb = Dim::Const(pad_begin);
  const Dim pe = Dim::Const(pad_end);
  // in + pb + pe - ek, one node instead of three when the kernel extent is a constant.
  const std::optional<int64_t> ek_value = ek.const_value();
  const Dim span = ek_value && *ek_value != INT64_MIN
                       ? Dim::AddConstants(in, {pad_begin, pad_end, -*ek_value})
                       : in + pb + pe - ek;
  const bool ceil = w.ceil_mode && !valid;
  if (span.is_const() && *span.const_value() < 0 &&
      (!w.pool || (ceil ? Dim::CeilDiv(span, s) : Dim::FloorDiv(span, s)).const_value() < -1)) {
    return RuleError(DiagCode::kInputDims,
                     StrCat("spatial axis ", i, ": the padded input (", in + pb + pe,
                            ") is smaller than the dilated kernel (", ek, ")"));
  }
  if (!ceil) return Dim::FloorDiv(span, s) + Dim::Const(1);
  const Dim out = Dim::CeilDiv(span, s) + Dim::Const(1);
  // Does the last window start in the end padding? Impossible when pe + s <= ek, since
  // (out - 1)*s < span + s = in + pb + (pe + s - ek).
  if (symbolic::LessEqual(pe + s, ek) == Tri::kTrue) return out;
  // Windows start at j*s for j >= 0, and ceil((in + pb)/s) of them start before the end
  // padding. When pe < ek, out exceeds that count by at most one, so dropping a last window
  // that starts in the padding is the minimum of the two; symbolic, it stays a Min.
  if (symbolic::LessEqual(pe + Dim::Const(1), ek) == Tri::kTrue) {
    return Dim::Min(out, Dim::CeilDiv(in + pb, s));
  }
  switch (symbolic::LessEqual(in + pb, (out - Dim::Const(1)) * s)) {
    case Tri::kTrue:
      return out - Dim::Const(1);
    case Tri::kFalse:
      return out;
    case Tri::kUnknown:
      break;
  }
  return Dim();
}

// The spatial dims of a sliding window over x's dims 2.., appended to `out`.
Status AppendSlidingDims(const Window& w, const Shape& x, Shape& out) {
  const size_t count = x.size() - 2;
  for (size_t i = 0; i < count; ++i) {
    OI_ASSIGN_OR_RETURN(Dim d, SlidingDim(w, i, count, x[2 + i]));
    out.push_back(d);
  }
  return OkStatus();
}

// ---- Convolutions.

// Conv, ConvInteger, QLinearConv, DeformConv: X [N, C, D1, ...], W [M, C/group, k1, ...]
// give [N, M, out1, ...]. The kernel is the kernel_shape attribute or W's dims 2.. (both:
// they must agree). C == (W's dim 1) * group, and a bias B is [M].
// `x` is X's shape in channels-first order (null: unknown); `x_index` names it in messages.
Status ConvShape(InferenceContext& ctx, const Shape* x, int x_index, int w_index, int b_index,
                 Shape* result, std::vector<Dim>* kernel = nullptr) {
  const Shape* w = ctx.InputShape(w_index);
  const Shape* b = b_index >= 0 && ctx.HasInput(b_index) ? ctx.InputShape(b_index) : nullptr;
  OI_ASSIGN_OR_RETURN(int64_t group, ctx.IntAttr("group", 1));
  if (group < 1) return AttrError("group", StrCat("expected >= 1, got ", group));
  OI_ASSIGN_OR_RETURN(auto kernel_attr, ctx.OptionalIntsAttr("kernel_shape"));
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, x_index, *x, 2));
  if (w) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, w_index, *w, 2));
  if (x && w) OI_RETURN_IF_ERROR(RequireRank(ctx, w_index, *w, x->size()));
  if (b) OI_RETURN_IF_ERROR(RequireRank(ctx, b_index, *b, 1));
  Dim m = w ? (*w)[0] : Dim();
  if (b) {
    OI_ASSIGN_OR_RETURN(
        m, RequireEqualDims(
               ctx, m, (*b)[0],
               [&] { return StrCat(InputLabel(ctx, b_index), " dim 0 and W's dim 0"); },
               [&] { return InputSubject(ctx, b_index); }));
  }
  if (x && w) {
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*x)[1], (*w)[1] * Dim::Const(group), [&] {
                         return StrCat("X's channels and W's dim 1 * group (", group, ")");
                       }).status());
  }
  if (!x) return OkStatus();
  const size_t count = x->size() - 2;
  OI_ASSIGN_OR_RETURN(Window win, ReadWindow(ctx, count));
  win.kernel.reserve(count);
  if (kernel_attr && !kernel_attr->empty()) {
    if (kernel_attr->size() != count) {
      return AttrError("kernel_shape",
                       StrCat("expected ", count, " values (the input's spatial rank), got ",
                              kernel_attr->size()));
    }
    for (size_t i = 0; i < count; ++i) {
      Dim k = Dim::Const((*kernel_attr)[i]);
      if (w) {
        OI_ASSIGN_OR_RETURN(k, RequireEqualDims(ctx, (*w)[2 + i], k, [&] {
                              return StrCat("attribute 'kernel_shape' value ", i, " and W's dim ",
                                            2 + i);
                            }));
      }
      win.kernel.push_back(k);
    }
  } else {
    for (size_t i = 0; i < count; ++i) win.kernel.push_back(w ? (*w)[2 + i] : Dim());
  }
  Shape out = {(*x)[0], m};
  OI_RETURN_IF_ERROR(AppendSlidingDims(win, *x, out));
  *result = std::move(out);
  if (kernel) *kernel = win.kernel;
  return OkStatus();
}

Status InferConvWith(InferenceContext& ctx, int x_index, int w_index, int b_index, int32_t elem) {
  ctx.SetOutputType(0, Type::Tensor(elem));
  Shape out;
  OI_RETURN_IF_ERROR(ConvShape(ctx, ctx.InputShape(x_index), x_index, w_index, b_index, &out));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// Conv (1, 11, 22): X, W, optional B; Y has X's element type.
Status InferConv(InferenceContext& ctx) {
  return InferConvWith(ctx, 0, 1, 2, InputElemType(ctx, 0));
}

// ConvInteger (10): x, w, x_zero_point, w_zero_point; y is int32.
Status InferConvInteger(InferenceContext& ctx) { return InferConvWith(ctx, 0, 1, -1, kInt32); }

// QLinearConv (10): x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
// y_zero_point, B; y has y_zero_point's element type.
Status InferQLinearConv(InferenceContext& ctx) {
  return InferConvWith(ctx, 0, 3, 8, InputElemType(ctx, 7));
}

// DeformConv (19, 22): X, W, offset, optional B and mask; the output is Conv's. The offset
// is [N, offset_group*2*k1*k2..., out1, ...] and the mask [N, offset_group*k1*k2..., out1, ...]
// (an offset per kernel position and axis, a mask value per kernel position).
Status InferDeformConv(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t offset_group, ctx.IntAttr("offset_group", 1));
  if (offset_group < 1) {
    return AttrError("offset_group", StrCat("expected >= 1, got ", offset_group));
  }
  Shape out;
  std::vector<Dim> kernel;
  OI_RETURN_IF_ERROR(ConvShape(ctx, ctx.InputShape(0), 0, 1, 3, &out, &kernel));
  if (out.empty()) return OkStatus();
  const Dim positions = Dim::Const(offset_group) * Product(kernel);
  for (auto [input, per_position] : {std::pair{2, 2}, std::pair{4, 1}}) {
    const Shape* s = ctx.HasInput(input) ? ctx.InputShape(input) : nullptr;
    if (!s) continue;
    const std::string name = input == 2 ? "offset" : "mask";
    OI_RETURN_IF_ERROR(RequireRank(ctx, input, *s, out.size()));
    OI_ASSIGN_OR_RETURN(
        out[0], RequireEqualDims(ctx, out[0], (*s)[0], StrCat("X's and ", name, "'s dim 0")));
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*s)[1], positions * Dim::Const(per_position),
                                        StrCat(InputLabel(ctx, input), " dim 1 (offset_group * ",
                                               per_position == 2 ? "2 * " : "", "kernel size)"),
                                        InputSubject(ctx, input))
                           .status());
    for (size_t i = 2; i < out.size(); ++i) {
      OI_ASSIGN_OR_RETURN(out[i],
                          RequireEqualDims(ctx, out[i], (*s)[i],
                                           StrCat("output dim ", i, " and ", name, "'s dim ", i)));
    }
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ConvTranspose (1, 11, 22): X [N, C, D1, ...], W [C, M/group, k1, ...] give
// [N, (W's dim 1) * group, out1, ...] with out_i = output_shape[i] when given, in_i * s_i for
// SAME_*, else s*(in - 1) + output_padding + d*(k - 1) + 1 - pad_begin - pad_end. The bias is
// input `b_index`; the pads are the attribute's (none under VALID), or `dynamic_pads` when it
// is not null (its nullopt: pads not known).
StatusOr<Shape> ConvTransposeShape(InferenceContext& ctx, int b_index,
                                   const std::optional<std::vector<int64_t>>* dynamic_pads) {
  const Shape* x = ctx.InputShape(0);
  const Shape* w = ctx.InputShape(1);
  const Shape* b = ctx.HasInput(b_index) ? ctx.InputShape(b_index) : nullptr;
  OI_ASSIGN_OR_RETURN(int64_t group, ctx.IntAttr("group", 1));
  if (group < 1) return AttrError("group", StrCat("expected >= 1, got ", group));
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 2));
  if (w) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 1, *w, 2));
  if (x && w) OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *w, x->size()));
  if (b) OI_RETURN_IF_ERROR(RequireRank(ctx, b_index, *b, 1));
  Dim m = w ? (*w)[1] * Dim::Const(group) : Dim();
  if (b) {
    OI_ASSIGN_OR_RETURN(
        m, RequireEqualDims(ctx, m, (*b)[0],
                            StrCat(InputLabel(ctx, b_index), " dim 0 and W's dim 1 * group"),
                            InputSubject(ctx, b_index)));
  }
  if (x && w)
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*x)[1], (*w)[0], "X's dim 1 and W's dim 0").status());
  if (!x) return Shape();
  const size_t count = x->size() - 2;
  OI_ASSIGN_OR_RETURN(Window win, ReadWindow(ctx, count));
  if (dynamic_pads && *dynamic_pads) {
    if ((*dynamic_pads)->size() != 2 * count) {
      return RuleError(DiagCode::kInputValue,
                       StrCat("pads: expected ", 2 * count, " values (2 per spatial axis), got ",
                              (*dynamic_pads)->size()));
    }
    win.pads.Own(**dynamic_pads);
  }
  const bool pads_unknown = dynamic_pads && !*dynamic_pads;
  OI_ASSIGN_OR_RETURN(auto kernel_attr, ctx.OptionalIntsAttr("kernel_shape"));
  if (kernel_attr && !kernel_attr->empty() && kernel_attr->size() != count) {
    return AttrError("kernel_shape",
                     StrCat("expected ", count, " values, got ", kernel_attr->size()));
  }
  for (size_t i = 0; i < count; ++i) {
    Dim k = w ? (*w)[2 + i] : Dim();
    if (kernel_attr && !kernel_attr->empty()) {
      OI_ASSIGN_OR_RETURN(k, RequireEqualDims(ctx, k, Dim::Const((*kernel_attr)[i]),
                                              StrCat("attribute 'kernel_shape' value ", i,
                                                     " and W's dim ", 2 + i)));
    }
    win.kernel.push_back(k);
  }
  OI_ASSIGN_OR_RETURN(auto output_padding, SpatialInts(ctx, "output_padding", count, 0, 0));
  OI_ASSIGN_OR_RETURN(auto output_shape, ctx.OptionalIntsAttr("output_shape"));
  Shape out = {(*x)[0], m};
  for (size_t i = 0; i < count; ++i) {
    const Dim in = (*x)[2 + i];
    const Dim s = Dim::Const(win.strides[i]);
    if (output_shape && !output_shape->empty()) {
      if (output_shape->size() != count) {
        return AttrError("output_shape",
                         StrCat("expected ", count, " values (the input's spatial rank), got ",
                                output_shape->size()));
      }
      out.push_back(Dim::Const((*output_shape)[i]));
    } else if (win.auto_pad == AutoPad::kSameUpper || win.auto_pad == AutoPad::kSameLower) {
      out.push_back(in * s);
    } else if (pads_unknown) {
      out.push_back(Dim());
    } else {
      const bool valid = win.auto_pad == AutoPad::kValid && !dynamic_pads;
      const Dim ek = Dim::Const(win.dilations[i]) * (win.kernel[i] - Dim::Const(1)) + Dim::Const(1);
      const Dim pads = Dim::Const(valid ? 0 : win.pads[i] + win.pads[i + count]);
      out.push_back(s * (in - Dim::Const(1)) + Dim::Const(output_padding[i]) + ek - pads);
    }
  }
  return out;
}

Status InferConvTranspose(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(Shape out, ConvTransposeShape(ctx, 2, nullptr));
  if (!out.empty()) ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// ---- Pooling.

// AveragePool, MaxPool, LpPool: X [N, C, D1, ...] gives [N, C, out1, ...] over the required
// kernel_shape. MaxPool's optional Indices (from 8) are int64 of the same shape.
// The pooled shape [N, C, out1, ...] of X [N, C, D1, ...] (`x`, channels first; input `x_index`).
StatusOr<Shape> PoolShape(InferenceContext& ctx, const Shape* x, int x_index) {
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ctx.IntsAttr("kernel_shape"));
  if (!x) return Shape();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, x_index, *x, 2));
  const size_t count = x->size() - 2;
  if (kernel.size() != count) {
    return AttrError(
        "kernel_shape",
        StrCat("expected ", count, " values (the input's spatial rank), got ", kernel.size()));
  }
  OI_ASSIGN_OR_RETURN(Window win, ReadWindow(ctx, count));
  win.pool = true;
  for (int64_t k : kernel) {
    if (k < 1) {
      return AttrError("kernel_shape", StrCat("expected values >= 1, got ", StrJoin(kernel, ", ")));
    }
    win.kernel.push_back(Dim::Const(k));
  }
  Shape out = {(*x)[0], (*x)[1]};
  OI_RETURN_IF_ERROR(AppendSlidingDims(win, *x, out));
  return out;
}

Status InferPool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  if (ctx.NumOutputs() > 1) ctx.SetOutputType(1, Type::Tensor(kInt64));
  OI_ASSIGN_OR_RETURN(Shape out, PoolShape(ctx, ctx.InputShape(0), 0));
  if (out.empty()) return OkStatus();
  if (ctx.NumOutputs() > 1) ctx.SetOutputShape(1, out);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: [N, C, D1, ...] gives [N, C, 1, ...].
Status InferGlobalPool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  if (!x) return OkStatus();
  OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 2));
  Shape out = *x;
  for (size_t i = 2; i < out.size(); ++i) out[i] = Dim::Const(1);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// MaxUnpool (9, 11, 22): X [N, C, D1, ...] and its pooling's indices I (same shape) give the
// known value of the optional output_shape input, else [N, C, out1, ...] with
// out_i = (in_i - 1)*s + k - pad_begin - pad_end.
Status InferMaxUnpool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ctx.IntsAttr("kernel_shape"));
  const Shape* x = ctx.InputShape(0);
  const Shape* indices = ctx.InputShape(1);
  if (x) OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, 0, *x, 2));
  if (x && indices) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *indices, x->size()));
    for (size_t i = 0; i < x->size(); ++i) {
      OI_RETURN_IF_ERROR(
          RequireEqualDims(ctx, (*x)[i], (*indices)[i], StrCat("X's and I's dim ", i)).status());
    }
  }
  if (ctx.HasInput(2)) {
    const ConstValue* v = ctx.InputValue(2);
    if (const Shape* s = ctx.InputShape(2)) OI_RETURN_IF_ERROR(RequireRank(ctx, 2, *s, 1));
    if (v && static_cast<int64_t>(v->ints.size()) == v->NumElements()) {
      if (x && v->ints.size() != x->size()) {
        return InputError(
            ctx, 2, DiagCode::kInputValue,
            StrCat("expected ", x->size(), " values (X's rank), got ", v->ints.size()));
      }
      ctx.SetOutputShape(0, v->ints);
    } else if (x) {
      Shape out(x->size());
      out[0] = (*x)[0];
      out[1] = (*x)[1];
      ctx.SetOutputShape(0, std::move(out));
    } else if (const Shape* s = ctx.InputShape(2); s && (*s)[0].is_const()) {
      // Only the rank is known: the length of output_shape.
      const int64_t rank = *(*s)[0].const_value();
      if (rank >= 0 && rank <= kMaxRank) ctx.SetOutputShape(0, Shape(rank));
    }
    return OkStatus();
  }
  if (!x) return OkStatus();
  const size_t count = x->size() - 2;
  if (kernel.size() != count) {
    return AttrError(
        "kernel_shape",
        StrCat("expected ", count, " values (the input's spatial rank), got ", kernel.size()));
  }
  OI_ASSIGN_OR_RETURN(auto strides, SpatialInts(ctx, "strides", count, 1, 1));
  OI_ASSIGN_OR_RETURN(auto pads, SpatialInts(ctx, "pads", 2 * count, 0, LeastPad(ctx)));
  Shape out = {(*x)[0], (*x)[1]};
  for (size_t i = 0; i < count; ++i) {
    out.push_back(((*x)[2 + i] - Dim::Const(1)) * Dim::Const(strides[i]) +
                  Dim::Const(kernel[i] - pads[i] - pads[i + count]));
  }
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// MaxRoiPool (1, 22): X [N, C, H, W], rois [num_rois, 5] give [num_rois, C, ph, pw] with
// pooled_shape = [ph, pw].
Status InferMaxRoiPool(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> pooled, ctx.IntsAttr("pooled_shape"));
  if (pooled.size() != 2) {
    return AttrError("pooled_shape", StrCat("expected 2 values, got ", pooled.size()));
  }
  const Shape* x = ctx.InputShape(0);
  const Shape* rois = ctx.InputShape(1);
  if (x) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *x, 4));
  if (rois) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *rois, 2));
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*rois)[1], Dim::Const(5),
                                        StrCat(InputLabel(ctx, 1), " dim 1 (batch index and box)"),
                                        InputSubject(ctx, 1))
                           .status());
  }
  ctx.SetOutputShape(0, {rois ? (*rois)[0] : Dim(), x ? (*x)[1] : Dim(), Dim::Const(pooled[0]),
                         Dim::Const(pooled[1])});
  return OkStatus();
}

// ---- Normalization.

// [N, D1, ..., C] as [N, C, D1, ...], and back.
Shape ChannelsFirst(const Shape& s) {
  Shape out = {s[0], s.back()};
  out.insert(out.end(), s.begin() + 1, s.end() - 1);
  return out;
}
Shape ChannelsLast(const Shape& s) {
  Shape out = {s[0]};
  out.insert(out.end(), s.begin() + 2, s.end());
  out.push_back(s[1]);
  return out;
}

// X at input x_index as a channels-first shape (a channels-last X of rank < 2 is passed on
// as it is, for the rank check to report).
std::optional<Shape> ChannelsFirstInput(const InferenceContext& ctx, int x_index,
                                        bool channels_last) {
  const Shape* x = ctx.InputShape(x_index);
  if (!x) return std::nullopt;
  if (channels_last && x->size() >= 2) return ChannelsFirst(*x);
  return *x;
}

}  // namespace

StatusOr<Shape> ConvOutputShape(InferenceContext& ctx, int x_index, int w_index, int b_index,
                                bool channels_last) {
  const std::optional<Shape> x = ChannelsFirstInput(ctx, x_index, channels_last);
  Shape out;
  OI_RETURN_IF_ERROR(ConvShape(ctx, x ? &*x : nullptr, x_index, w_index, b_index, &out));
  if (channels_last && !out.empty()) out = ChannelsLast(out);
  return out;
}

StatusOr<Shape> PoolOutputShape(InferenceContext& ctx, int x_index, bool channels_last) {
  const std::optional<Shape> x = ChannelsFirstInput(ctx, x_index, channels_last);
  OI_ASSIGN_OR_RETURN(Shape out, PoolShape(ctx, x ? &*x : nullptr, x_index));
  if (channels_last && !out.empty()) out = ChannelsLast(out);
  return out;
}

StatusOr<Shape> ConvTransposeOutputShape(InferenceContext& ctx, int b_index,
                                         const std::optional<std::vector<int64_t>>& pads) {
  return ConvTransposeShape(ctx, b_index, &pads);
}

Status RegisterAiOnnxConvPoolRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Conv", {1, 11, 22}, InferConv));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ConvInteger", {10}, InferConvInteger));
  OI_RETURN_IF_ERROR(r.AttachRule("", "QLinearConv", {10}, InferQLinearConv));
  OI_RETURN_IF_ERROR(r.AttachRule("", "DeformConv", {19, 22}, InferDeformConv));
  OI_RETURN_IF_ERROR(r.AttachRule("", "ConvTranspose", {1, 11, 22}, InferConvTranspose));
  OI_RETURN_IF_ERROR(r.AttachRule("", "AveragePool", {1, 7, 10, 11, 19, 22}, InferPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MaxPool", {1, 8, 10, 11, 12, 22}, InferPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "LpPool", {1, 2, 11, 18, 22}, InferPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GlobalAveragePool", {1, 22}, InferGlobalPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GlobalMaxPool", {1, 22}, InferGlobalPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GlobalLpPool", {1, 2, 22}, InferGlobalPool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MaxUnpool", {9, 11, 22}, InferMaxUnpool));
  OI_RETURN_IF_ERROR(r.AttachRule("", "MaxRoiPool", {1, 22}, InferMaxRoiPool));
  return OkStatus();
}

}  // namespace onnx_infer
