// Operators that resample or re-frame a tensor's spatial dims: Resize, Upsample, Pad,
// CenterCropPad, GridSample, AffineGrid, Col2Im.
//
// Scales are floats, so a resized dim is floor(in * scale) computed on a float. A dim is
// given only when that value does not depend on how the float product is rounded: a
// constant input dim whose exact product and float32 product floor to the same integer, or
// a symbolic dim and a scale m / 2^e with a small denominator (floor(H * 2) = 2*H,
// floor(H * 0.5) = floor(H/2)). Anything else stays unknown.
#include "onnx_infer/schema/defs/ai_onnx/tensor/resize.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/defs/register.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

// floor(d * scale), where it does not depend on rounding (see the file comment).
Dim ScaledDim(Dim d, double scale) {
  if (!(scale > 0) || !std::isfinite(scale)) return Dim();
  if (auto v = d.const_value()) {
    // Exact in double: a float32 scale has 24 significant bits and v < 2^29.
    if (*v >= (int64_t{1} << 29)) return Dim();
    const double exact = std::floor(static_cast<double>(*v) * scale);
    const float rounded = std::floor(static_cast<float>(*v) * static_cast<float>(scale));
    if (exact != static_cast<double>(rounded)) return Dim();
    return Dim::Const(static_cast<int64_t>(exact));
  }
  if (d.is_unknown()) return Dim();
  // scale = m / 2^e exactly.
  int exp;
  double frac = std::frexp(scale, &exp);
  int64_t m = static_cast<int64_t>(std::ldexp(frac, 53));
  int64_t e = 53 - exp;
  if (static_cast<double>(m) != std::ldexp(frac, 53)) return Dim();
  while (e > 0 && m % 2 == 0) {
    m /= 2;
    --e;
  }
  if (e > 10 || e < -40 || m > (int64_t{1} << 20)) return Dim();  // m << -e fits int64
  if (e <= 0) return d * Dim::Const(m << -e);
  return Dim::FloorDiv(d * Dim::Const(m), Dim::Const(int64_t{1} << e));
}

// The output shape from per-axis scales: `axes` (normalized) pick the dims that are scaled.
Shape ScaleShape(const Shape& in, const std::vector<int64_t>& axes,
                 const std::vector<double>& scales) {
  Shape out = in;
  for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = ScaledDim(in[axes[i]], scales[i]);
  return out;
}

Status CheckScales(const InferenceContext& ctx, int input, const std::vector<double>& scales,
                   size_t expected, const char* of_what) {
  const std::string subject = input < 0 ? "attribute 'scales'" : InputLabel(ctx, input);
  const Subject about = input < 0 ? Subject::Attribute("scales") : InputSubject(ctx, input);
  if (scales.size() != expected) {
    return RuleError(
        DiagCode::kInputValue,
        StrCat(subject, ": expected ", expected, " values (", of_what, "), got ", scales.size()),
        about);
  }
  for (double s : scales) {
    if (!(s > 0))
      return RuleError(DiagCode::kInputValue, StrCat(subject, ": expected scales > 0, got ", s),
                       about);
  }
  return OkStatus();
}

// The `axes` attribute of Resize (from 18) and CenterCropPad, normalized; 0..rank-1 when it
// is not given.
StatusOr<std::vector<int64_t>> AxesAttr(const InferenceContext& ctx, int64_t rank) {
  OI_ASSIGN_OR_RETURN(auto given, ctx.OptionalIntsAttr("axes"));
  std::vector<int64_t> axes;
  if (!given) {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
    return axes;
  }
  std::vector<bool> seen(rank, false);
  for (int64_t a : *given) {
    OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, Subject::Attribute("axes")));
    if (seen[axis])
      return AttrError("axes", StrCat("axis ", a, " is repeated"), DiagCode::kAxisRange);
    seen[axis] = true;
    axes.push_back(axis);
  }
  return axes;
}

// What is known of an optional 1-D input that may be given empty (Resize's scales/sizes).
enum class Presence { kAbsent, kEmpty, kNonEmpty, kUnknown };

Presence PresenceOf(const InferenceContext& ctx, int input) {
  if (input >= ctx.NumInputs() || !ctx.HasInput(input)) return Presence::kAbsent;
  const int64_t n = KnownLength(ctx, input);
  if (n < 0) return Presence::kUnknown;
  return n == 0 ? Presence::kEmpty : Presence::kNonEmpty;
}

// Resize's `sizes` under keep_aspect_ratio_policy not_larger / not_smaller: one scale for
// every resized axis, the min (or max) of sizes[i] / in[axis], and out = round-half-up of
// scale * in. Done on exact rationals, so a half (1.5) rounds up as the spec says.
void KeepAspectRatio(const Shape& in, const std::vector<int64_t>& axes,
                     const std::vector<Dim>& sizes, bool not_larger, Shape& out) {
  if (axes.size() == 1) {  // the one axis gets its size exactly
    out[axes[0]] = sizes[0];
    return;
  }
  constexpr int64_t kLimit = int64_t{1} << 30;  // keeps the products below in int64
  int64_t num = 0, den = 0;                     // the chosen scale, num / den
  for (size_t i = 0; i < axes.size(); ++i) {
    auto size = sizes[i].const_value();
    auto dim = in[axes[i]].const_value();
    if (!size || !dim || *dim <= 0 || *dim >= kLimit || *size >= kLimit) return;  // unknown
    const bool better =
        den == 0 || (not_larger ? *size * den < num * *dim : *size * den > num * *dim);
    if (better) {
      num = *size;
      den = *dim;
    }
  }
  for (int64_t axis : axes) {
    const int64_t d = *in[axis].const_value();
    out[axis] = Dim::Const((2 * num * d + den) / (2 * den));
  }
}

// Resize: 10 takes (X, scales); 11 (X, roi, scales, sizes) with exactly one of scales and
// sizes non-empty; from 13 roi and scales are optional; from 18 `axes` picks the dims that
// scales/sizes refer to, and `keep_aspect_ratio_policy` reinterprets sizes.
Status InferResize(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const int64_t version = ctx.schema().since_version();
  const int scales_input = version < 11 ? 1 : 2;
  const int sizes_input = version < 11 ? -1 : 3;
  OI_ASSIGN_OR_RETURN(std::string transform,
                      ctx.StringAttr("coordinate_transformation_mode", "half_pixel"));
  OI_ASSIGN_OR_RETURN(std::string policy, ctx.StringAttr("keep_aspect_ratio_policy", "stretch"));
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller") {
    return AttrError("keep_aspect_ratio_policy",
                     StrCat("expected stretch, not_larger or not_smaller, got '", policy, "'"));
  }
  const Presence scales = PresenceOf(ctx, scales_input);
  const Presence sizes = sizes_input < 0 ? Presence::kAbsent : PresenceOf(ctx, sizes_input);
  if (scales == Presence::kNonEmpty && sizes == Presence::kNonEmpty) {
    return InputError(ctx, sizes_input, DiagCode::kInputCombination,
                      "expected no sizes when scales are given, got both");
  }
  if (version >= 11 && (scales == Presence::kAbsent || scales == Presence::kEmpty) &&
      (sizes == Presence::kAbsent || sizes == Presence::kEmpty)) {
    return RuleError(DiagCode::kInputCombination,
                     "inputs 'scales' and 'sizes': expected one of them, got neither");
  }
  const bool use_sizes = sizes == Presence::kNonEmpty ||
                         (sizes == Presence::kUnknown && scales != Presence::kNonEmpty);
  const bool use_scales = scales == Presence::kNonEmpty ||
                          (scales == Presence::kUnknown && sizes != Presence::kNonEmpty);

  const Shape* in = ctx.InputShape(0);
  if (!in) {
    // Without axes, sizes (or the number of scales) give the rank.
    if (ctx.HasAttr("axes")) return OkStatus();
    if (use_sizes && !use_scales && policy == "stretch") {
      if (const std::vector<Dim>* v = IntValues(ctx, sizes_input)) {
        ctx.SetOutputShape(0, Shape(v->begin(), v->end()));
        return OkStatus();
      }
    }
    const int64_t n = use_sizes && !use_scales   ? KnownLength(ctx, sizes_input)
                      : use_scales && !use_sizes ? KnownLength(ctx, scales_input)
                                                 : -1;
    if (n > 0 && n <= kMaxRank) ctx.SetOutputShape(0, Shape(n));
    return OkStatus();
  }
  const int64_t rank = static_cast<int64_t>(in->size());
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesAttr(ctx, rank));
  const char* of_what = ctx.HasAttr("axes") ? "the length of axes" : "the rank of X";
  Shape out = *in;
  for (int64_t axis : axes) out[axis] = Dim();

  if (use_sizes && !use_scales) {
    const std::vector<Dim>* v = IntValues(ctx, sizes_input);
    if (v) {
      if (v->size() != axes.size()) {
        return InputError(
            ctx, sizes_input, DiagCode::kInputValue,
            StrCat("expected ", axes.size(), " values (", of_what, "), got ", v->size()));
      }
      for (Dim d : *v) {
        if (auto c = d.const_value(); c && *c < 0) {
          return InputError(ctx, sizes_input, DiagCode::kInputValue,
                            StrCat("expected sizes >= 0, got ", *c));
        }
      }
      if (policy == "stretch") {
        for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = (*v)[i];
      } else {
        KeepAspectRatio(*in, axes, *v, policy == "not_larger", out);
      }
    } else if (const int64_t n = KnownLength(ctx, sizes_input);
               n > 0 && n != static_cast<int64_t>(axes.size())) {
      return InputError(ctx, sizes_input, DiagCode::kInputValue,
                        StrCat("expected ", axes.size(), " values (", of_what, "), got ", n));
    }
  } else if (use_scales && !use_sizes) {
    const std::vector<double>* v = RealValues(ctx, scales_input);
    if (v) {
      OI_RETURN_IF_ERROR(CheckScales(ctx, scales_input, *v, axes.size(), of_what));
      // tf_crop_and_resize scales the region of interest, not the whole dim: only a roi of
      // the whole input ([0, ..., 1, ...]) leaves floor(in * scale).
      bool whole = transform != "tf_crop_and_resize";
      if (!whole) {
        const std::vector<double>* roi = RealValues(ctx, 1);
        whole = roi && roi->size() == 2 * axes.size();
        for (size_t i = 0; whole && i < axes.size(); ++i) {
          whole = (*roi)[i] == 0 && (*roi)[axes.size() + i] == 1;
        }
      }
      if (whole) out = ScaleShape(*in, axes, *v);
    } else if (const int64_t n = KnownLength(ctx, scales_input);
               n > 0 && n != static_cast<int64_t>(axes.size())) {
      return InputError(ctx, scales_input, DiagCode::kInputValue,
                        StrCat("expected ", axes.size(), " values (", of_what, "), got ", n));
    }
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

// Upsample: version 1 scales H and W of a 4-D input by `height_scale`/`width_scale`; 7 takes
// a `scales` attribute, 9 and 10 a `scales` input, one scale per dim.
Status InferUpsample(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const int64_t version = ctx.schema().since_version();
  const Shape* in = ctx.InputShape(0);
  std::vector<double> scales;
  bool known = true;
  if (version < 7) {
    OI_ASSIGN_OR_RETURN(float h, ctx.FloatAttr("height_scale", 0));
    OI_ASSIGN_OR_RETURN(float w, ctx.FloatAttr("width_scale", 0));
    if (in) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 4, "[N, C, H, W]"));
    scales = {1, 1, h, w};
    for (const char* name : {"height_scale", "width_scale"}) {
      if (!ctx.HasAttr(name)) {
        return AttrError(name, "required but not given");
      }
    }
    if (!(h > 0) || !(w > 0)) {
      return AttrError(h > 0 ? "width_scale" : "height_scale",
                       StrCat("expected a scale > 0, got ", h > 0 ? w : h));
    }
  } else if (version < 9) {
    OI_ASSIGN_OR_RETURN(std::vector<float> given, ctx.FloatsAttr("scales"));
    scales.assign(given.begin(), given.end());
    if (in) OI_RETURN_IF_ERROR(CheckScales(ctx, -1, scales, in->size(), "the rank of X"));
  } else if (const std::vector<double>* v = RealValues(ctx, 1)) {
    scales = *v;
    if (in) OI_RETURN_IF_ERROR(CheckScales(ctx, 1, scales, in->size(), "the rank of X"));
  } else {
    known = false;
  }
  if (!in) {
    const int64_t n = known ? static_cast<int64_t>(scales.size()) : KnownLength(ctx, 1);
    if (n > 0 && n <= kMaxRank) ctx.SetOutputShape(0, Shape(n));
    return OkStatus();
  }
  if (!known) {
    ctx.SetOutputShape(0, Shape(in->size()));
    return OkStatus();
  }
  std::vector<int64_t> axes;
  for (size_t i = 0; i < in->size(); ++i) axes.push_back(static_cast<int64_t>(i));
  ctx.SetOutputShape(0, ScaleShape(*in, axes, scales));
  return OkStatus();
}

}  // namespace

namespace {

// CenterCropPad: the dims at `axes` (all by default) become the `shape` input's values.
Status InferCenterCropPad(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  const std::vector<Dim>* shape = IntValues(ctx, 1);
  if (!in) {
    if (ctx.HasAttr("axes")) return OkStatus();
    if (shape) {
      ctx.SetOutputShape(0, Shape(shape->begin(), shape->end()));
    } else if (const int64_t n = KnownLength(ctx, 1); n >= 0 && n <= kMaxRank) {
      ctx.SetOutputShape(0, Shape(n));
    }
    return OkStatus();
  }
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesAttr(ctx, static_cast<int64_t>(in->size())));
  const int64_t length = shape ? static_cast<int64_t>(shape->size()) : KnownLength(ctx, 1);
  if (length >= 0 && length != static_cast<int64_t>(axes.size())) {
    return InputError(ctx, 1, DiagCode::kInputValue,
                      StrCat("expected ", axes.size(), " values (",
                             ctx.HasAttr("axes") ? "the length of axes" : "the rank of input",
                             "), got ", length));
  }
  Shape out = *in;
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = shape ? (*shape)[i] : Dim();
    if (auto c = out[axes[i]].const_value(); c && *c < 0) {
      return InputError(ctx, 1, DiagCode::kInputValue, StrCat("expected sizes >= 0, got ", *c));
    }
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

}  // namespace

// GridSample: X is [N, C, D1..Dr], grid [N, D1_out..Dr_out, r]; Y is [N, C, D1_out..Dr_out].
// Version 16 (and com.microsoft's GridSample, which is it) is 2-D only (r = 2).
Status InferGridSample(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  const Shape* grid = ctx.InputShape(1);
  const bool only_2d = ctx.schema().since_version() < 20;
  for (int i : {0, 1}) {
    const Shape* s = i == 0 ? x : grid;
    if (!s) continue;
    if (only_2d) OI_RETURN_IF_ERROR(RequireRank(ctx, i, *s, 4));
    OI_RETURN_IF_ERROR(RequireRankAtLeast(ctx, i, *s, 3));
  }
  if (x && grid) OI_RETURN_IF_ERROR(RequireRank(ctx, 1, *grid, x->size(), "the rank of X"));
  if (!x && !grid) return OkStatus();
  const size_t rank = x ? x->size() : grid->size();
  const int64_t spatial = static_cast<int64_t>(rank) - 2;
  Shape out(rank);
  if (x) {
    out[0] = (*x)[0];
    out[1] = (*x)[1];
  }
  if (grid) {
    if (auto c = grid->back().const_value(); c && *c != spatial) {
      return InputError(
          ctx, 1, DiagCode::kInputDims,
          StrCat("expected last dim ", spatial, " (the number of spatial dims), got ", *c));
    }
    OI_RETURN_IF_ERROR(ctx.RecordEqual(grid->back(), Dim::Const(spatial),
                                       "grid's last dim and the number of spatial dims"));
    for (size_t i = 1; i + 1 < rank; ++i) out[i + 1] = (*grid)[i];
    auto n = UnifyDim(out[0], (*grid)[0]);
    if (!n.ok()) {
      return InputError(ctx, 1, DiagCode::kInputDims,
                        StrCat("expected batch dim ", out[0], " (X's), got ", (*grid)[0]));
    }
    if (x) OI_RETURN_IF_ERROR(ctx.RecordEqual((*x)[0], (*grid)[0], "batch dims of X and grid"));
    out[0] = *n;
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

namespace {

// AffineGrid: theta [N, 2, 3] with size [N, C, H, W] gives [N, H, W, 2]; theta [N, 3, 4]
// with size [N, C, D, H, W] gives [N, D, H, W, 3].
Status InferAffineGrid(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* theta = ctx.InputShape(0);
  if (theta) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *theta, 3));
  const std::vector<Dim>* size = IntValues(ctx, 1);
  int64_t spatial = -1;  // 2 or 3, when known
  if (size) {
    if (size->size() != 4 && size->size() != 5) {
      return InputError(ctx, 1, DiagCode::kInputValue,
                        StrCat("expected 4 or 5 values, got ", size->size()));
    }
    spatial = static_cast<int64_t>(size->size()) - 2;
  } else if (const int64_t n = KnownLength(ctx, 1); n >= 0) {
    if (n != 4 && n != 5) {
      return InputError(ctx, 1, DiagCode::kInputValue, StrCat("expected 4 or 5 values, got ", n));
    }
    spatial = n - 2;
  } else if (theta && (*theta)[1].is_const()) {
    spatial = *(*theta)[1].const_value();
    if (spatial != 2 && spatial != 3) spatial = -1;  // checked below
  }
  if (theta && spatial > 0) {
    for (int i : {1, 2}) {
      const int64_t want = spatial + (i - 1);
      if (auto c = (*theta)[i].const_value(); c && *c != want) {
        return InputError(
            ctx, 0, DiagCode::kInputDims,
            StrCat("expected [N, ", spatial, ", ", spatial + 1, "], got ", ShapeToString(*theta)));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual((*theta)[i], Dim::Const(want), "theta's matrix dims"));
    }
  }
  if (spatial < 0) return OkStatus();
  Shape out(spatial + 2);
  out.back() = Dim::Const(spatial);
  if (theta) out[0] = (*theta)[0];
  if (size) {
    auto n = UnifyDim(out[0], (*size)[0]);
    if (!n.ok()) {
      return InputError(ctx, 1, DiagCode::kInputDims,
                        StrCat("expected batch size ", out[0], " (theta's), got ", (*size)[0]));
    }
    if (theta)
      OI_RETURN_IF_ERROR(ctx.RecordEqual((*theta)[0], (*size)[0], "batch of theta and size"));
    out[0] = *n;
    for (int64_t i = 0; i < spatial; ++i) out[1 + i] = (*size)[2 + i];
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

// Col2Im: input [N, C * prod(block_shape), L] becomes [N, C, image_shape...]; L must be the
// number of blocks that fit the padded image.
Status InferCol2Im(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* in = ctx.InputShape(0);
  if (in) OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *in, 3));
  const std::vector<Dim>* image = IntValues(ctx, 1);
  const std::vector<Dim>* block = IntValues(ctx, 2);
  int64_t spatial = image ? static_cast<int64_t>(image->size()) : KnownLength(ctx, 1);
  const int64_t block_length = block ? static_cast<int64_t>(block->size()) : KnownLength(ctx, 2);
  if (spatial >= 0 && block_length >= 0 && spatial != block_length) {
    return InputError(
        ctx, 2, DiagCode::kInputValue,
        StrCat("expected ", spatial, " values (as many as image_shape), got ", block_length));
  }
  if (spatial < 0) spatial = block_length;
  if (spatial < 0 || spatial > kMaxRank) return OkStatus();
  OI_ASSIGN_OR_RETURN(auto dilations, ctx.OptionalIntsAttr("dilations"));
  OI_ASSIGN_OR_RETURN(auto pads, ctx.OptionalIntsAttr("pads"));
  OI_ASSIGN_OR_RETURN(auto strides, ctx.OptionalIntsAttr("strides"));
  const std::pair<const char*, std::optional<std::vector<int64_t>>*> lists[] = {
      {"dilations", &dilations}, {"pads", &pads}, {"strides", &strides}};
  for (const auto& [name, list] : lists) {
    const size_t want = static_cast<size_t>(spatial) * (list == &pads ? 2 : 1);
    if (*list && (*list)->size() != want) {
      return AttrError(name, StrCat("expected ", want, " values, got ", (*list)->size()));
    }
  }
  if (pads) {
    for (int64_t p : *pads) {
      if (p < 0) {
        return AttrError("pads", StrCat("expected values >= 0, got ", StrJoin(*pads, ", ")));
      }
    }
  }
  Shape out(spatial + 2);
  if (in) out[0] = (*in)[0];
  if (image) {
    for (int64_t i = 0; i < spatial; ++i) out[2 + i] = (*image)[i];
  }
  if (in && block) {
    const Dim per_channel = Product(*block);
    if (auto c = per_channel.const_value(); c && *c == 0) {
      return InputError(ctx, 2, DiagCode::kInputValue, "a block of 0 elements");
    }
    auto channels = (*in)[1].const_value();
    if (channels && per_channel.is_const() && *channels % *per_channel.const_value() != 0) {
      return InputError(
          ctx, 0, DiagCode::kInputDims,
          StrCat("dim 1 (", *channels, ") is not a multiple of the block size ", per_channel));
    }
    out[1] = Dim::FloorDiv((*in)[1], per_channel);
    if (image) {
      // The number of block positions along each axis, as a convolution's output size.
      Dim blocks = Dim::Const(1);
      for (int64_t i = 0; i < spatial; ++i) {
        const int64_t d = dilations ? (*dilations)[i] : 1;
        const int64_t s = strides ? (*strides)[i] : 1;
        if (s <= 0 || d <= 0) {
          return AttrError(s <= 0 ? "strides" : "dilations",
                           StrCat("expected values > 0, got ", s <= 0 ? s : d));
        }
        const Dim padded = (*image)[i] + Dim::Const(pads ? (*pads)[i] + (*pads)[spatial + i] : 0);
        const Dim span = Dim::Const(d) * ((*block)[i] - Dim::Const(1)) + Dim::Const(1);
        blocks = blocks * (Dim::FloorDiv(padded - span, Dim::Const(s)) + Dim::Const(1));
      }
      auto l = UnifyDim((*in)[2], blocks);
      if (!l.ok()) {
        return InputError(ctx, 0, DiagCode::kInputDims,
                          StrCat("expected ", blocks,
                                 " blocks in dim 2 (from image_shape, block_shape, pads, "
                                 "strides and dilations), got ",
                                 (*in)[2]));
      }
      OI_RETURN_IF_ERROR(ctx.RecordEqual((*in)[2], blocks, "the number of blocks"));
    }
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxResizeRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Resize", {10, 11, 13, 18, 19}, InferResize));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Upsample", {1, 7, 9, 10}, InferUpsample));
  OI_RETURN_IF_ERROR(r.AttachRule("", "CenterCropPad", {18}, InferCenterCropPad));
  OI_RETURN_IF_ERROR(r.AttachRule("", "GridSample", {16, 20, 22}, InferGridSample));
  OI_RETURN_IF_ERROR(r.AttachRule("", "AffineGrid", {20}, InferAffineGrid));
  OI_RETURN_IF_ERROR(r.AttachRule("", "Col2Im", {18}, InferCol2Im));
  return OkStatus();
}

}  // namespace onnx_infer
