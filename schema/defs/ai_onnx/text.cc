// Text operators of ai.onnx: StringConcat, StringSplit, RegexFullMatch, StringNormalizer,
// TfIdfVectorizer.
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

// StringConcat: the broadcast of both shapes.
Status InferStringConcat(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kString));
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  OI_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(*a, *b, &ctx));
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// StringNormalizer: X is [C] or [1, C]. Without stopwords nothing is removed, but an empty
// result is one empty string, so the last dim is max(C, 1); stopwords leave it unknown.
Status InferStringNormalizer(InferenceContext& ctx) {
  ctx.SetOutputType(0, Type::Tensor(kString));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() != 1 && in->size() != 2) {
    return InputError(ctx, 0, DiagCode::kInputRank,
                      StrCat("expected [C] or [1, C], got rank ", in->size()));
  }
  if (in->size() == 2) {
    OI_RETURN_IF_ERROR(RequireEqualDims(ctx, (*in)[0], Dim::Const(1),
                                        StrCat(InputLabel(ctx, 0), " dim 0 of [1, C]"),
                                        InputSubject(ctx, 0))
                           .status());
  }
  OI_ASSIGN_OR_RETURN(auto stopwords, ctx.OptionalStringsAttr("stopwords"));
  const bool removes = stopwords && !stopwords->empty();
  const Dim c = in->back();
  Shape out = *in;
  out.back() = removes || c.is_unknown() ? Dim() : Dim::Max(c, Dim::Const(1));
  if (in->size() == 2) out[0] = Dim::Const(1);
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// StringSplit: the substrings have X's shape plus one dim (the most substrings of any
// element, unknown); their counts (int64) have X's shape.
Status InferStringSplit(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(int64_t maxsplit, ctx.IntAttr("maxsplit", 0));
  if (ctx.HasAttr("maxsplit") && maxsplit < 0) {
    return AttrError("maxsplit", StrCat("expected >= 0, got ", maxsplit));
  }
  ctx.SetOutputType(0, Type::Tensor(kString));
  ctx.SetOutputType(1, Type::Tensor(kInt64));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  Shape substrings = *in;
  substrings.push_back(Dim());
  ctx.SetOutputShape(0, std::move(substrings));
  ctx.SetOutputShape(1, *in);
  return OkStatus();
}

// TfIdfVectorizer: X is [C] or [N, C]; Y is float [max(ngram_indexes) + 1] or [N, that].
Status InferTfIdfVectorizer(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::vector<int64_t> indexes, ctx.IntsAttr("ngram_indexes"));
  Dim width;
  if (!indexes.empty()) {
    const int64_t low = *std::min_element(indexes.begin(), indexes.end());
    if (low < 0) {
      return AttrError("ngram_indexes", StrCat("expected indexes >= 0, got ", low));
    }
    width = Dim::Const(*std::max_element(indexes.begin(), indexes.end()) + 1);
  }
  ctx.SetOutputType(0, Type::Tensor(kFloat));
  const Shape* in = ctx.InputShape(0);
  if (!in) return OkStatus();
  if (in->size() == 1) {
    ctx.SetOutputShape(0, Shape{width});
  } else if (in->size() == 2) {
    ctx.SetOutputShape(0, Shape{(*in)[0], width});
  } else {
    return InputError(ctx, 0, DiagCode::kInputRank,
                      StrCat("expected [C] or [N, C], got rank ", in->size()));
  }
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxTextRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringConcat", {20}, InferStringConcat));
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringSplit", {20}, InferStringSplit));
  OI_RETURN_IF_ERROR(r.AttachRule("", "RegexFullMatch", {20}, InferBoolOfSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule("", "StringNormalizer", {10}, InferStringNormalizer));
  OI_RETURN_IF_ERROR(r.AttachRule("", "TfIdfVectorizer", {9}, InferTfIdfVectorizer));
  return OkStatus();
}

}  // namespace onnx_infer
