// Pad (ai.onnx, tensor); com.microsoft's Pad shares it through pad.h.
#include "onnx_infer/schema/defs/ai_onnx/tensor/pad.h"

#include <algorithm>
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

namespace onnx_infer {
namespace {

// Pad: each padded dim grows by its begin and end pads (negative pads crop). The pads are
// the `paddings` attribute in version 1, `pads` in 2, an input from 11; from 18 an `axes`
// input says which dims they refer to; 19 adds mode 'wrap'.
Status InferPad(InferenceContext& ctx) {
  const int64_t version = ctx.schema().since_version();
  return InferPadOf(ctx, PadForm{.pads_input = version >= 11,
                                 .wrap_mode = version >= 19,
                                 .axes_input = version >= 18});
}

}  // namespace

Status InferPadOf(InferenceContext& ctx, const PadForm& form) {
  ctx.PropagateElemType(0, 0);
  const int64_t version = ctx.schema().since_version();
  const Shape* in = ctx.InputShape(0);
  std::optional<std::vector<Dim>> pads;
  std::string pads_subject;
  Subject pads_about;
  if (!form.pads_input) {
    const char* name = version < 2 ? "paddings" : "pads";
    OI_ASSIGN_OR_RETURN(std::vector<int64_t> given, ctx.IntsAttr(name));
    pads.emplace();
    for (int64_t p : given) pads->push_back(Dim::Const(p));
    pads_subject = StrCat("attribute '", name, "'");
    pads_about = Subject::Attribute(name);
  } else {
    if (const std::vector<Dim>* v = IntValues(ctx, 1)) pads = *v;
    pads_subject = InputLabel(ctx, 1);
    pads_about = InputSubject(ctx, 1);
  }
  OI_ASSIGN_OR_RETURN(std::string mode, ctx.StringAttr("mode", "constant"));
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      !(mode == "wrap" && form.wrap_mode)) {
    return AttrError("mode", StrCat("expected constant, reflect, edge",
                                    form.wrap_mode ? " or wrap" : "", ", got '", mode, "'"));
  }
  const bool has_axes = form.axes_input && ctx.HasInput(3);
  if (!in) {
    // Without axes, the pads give the rank.
    const int64_t n = pads              ? static_cast<int64_t>(pads->size())
                      : form.pads_input ? KnownLength(ctx, 1)
                                        : -1;
    if (!has_axes && n > 0 && n % 2 == 0 && n / 2 <= kMaxRank) ctx.SetOutputShape(0, Shape(n / 2));
    return OkStatus();
  }
  const int64_t rank = static_cast<int64_t>(in->size());
  std::vector<int64_t> axes;
  if (has_axes) {
    auto given = ConstInts(ctx, 3);
    if (!given) {  // which dims change is not known
      ctx.SetOutputShape(0, Shape(rank));
      return OkStatus();
    }
    std::vector<bool> seen(rank, false);
    for (int64_t a : *given) {
      OI_ASSIGN_OR_RETURN(int64_t axis, ctx.NormalizeAxis(a, rank, InputSubject(ctx, 3)));
      if (seen[axis]) {
        return InputError(ctx, 3, DiagCode::kAxisRange, StrCat("axis ", a, " is repeated"));
      }
      seen[axis] = true;
      axes.push_back(axis);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  const size_t n = axes.size();
  if (!pads) {
    const int64_t length = KnownLength(ctx, 1);
    if (length >= 0 && length != static_cast<int64_t>(2 * n)) {
      return RuleError(
          DiagCode::kInputValue,
          StrCat(pads_subject, ": expected ", 2 * n, " values (twice ",
                 has_axes ? "the number of axes" : "the rank of data", "), got ", length),
          pads_about);
    }
    Shape out = *in;
    for (int64_t axis : axes) out[axis] = Dim();
    ctx.SetOutputShape(0, out);
    return OkStatus();
  }
  if (pads->size() != 2 * n) {
    return RuleError(
        DiagCode::kInputValue,
        StrCat(pads_subject, ": expected ", 2 * n, " values (twice ",
               has_axes ? "the number of axes" : "the rank of data", "), got ", pads->size()),
        pads_about);
  }
  Shape out = *in;
  for (size_t i = 0; i < n; ++i) {
    const int64_t axis = axes[i];
    // The pads summed first: a dim near the int64 limit padded by [1, -1] stays exact
    // rather than overflowing in between.
    out[axis] = (*in)[axis] + ((*pads)[i] + (*pads)[n + i]);
    if (auto c = out[axis].const_value(); c && *c < 0) {
      return RuleError(DiagCode::kInputDims,
                       StrCat(pads_subject, ": dim ", axis, " of data (", (*in)[axis],
                              ") is cropped by more than its size: ", (*pads)[i], " at the start, ",
                              (*pads)[n + i], " at the end"),
                       pads_about);
    }
  }
  ctx.SetOutputShape(0, out);
  return OkStatus();
}

Status RegisterAiOnnxPadRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "Pad", {1, 2, 11, 13, 18, 19, 21, 23, 24, 25}, InferPad));
  return OkStatus();
}

}  // namespace onnx_infer
