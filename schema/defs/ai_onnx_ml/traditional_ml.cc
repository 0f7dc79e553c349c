// The classical machine-learning operators of ai.onnx.ml (Operators-ml.md): encoders,
// scalers, linear models, SVMs and tree ensembles. Their inputs are a batch [N, C] (or one
// example [C], which the spec treats as [1, C]); classifiers give one label per example
// ([N], of the type of their class labels) and one score per class ([N, E]).
#include <cstdint>
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

constexpr char kMl[] = "ai.onnx.ml";

// The number of values of a list attribute (ints, floats or strings), or nullopt when it is
// not given.
std::optional<int64_t> ListLength(const InferenceContext& ctx, std::string_view name) {
  const onnx::AttributeProto* a = ctx.Attr(name);
  if (!a) return std::nullopt;
  return a->ints_size() + a->floats_size() + a->strings_size();
}

// The element type of a tensor attribute (LabelEncoder's keys_tensor), or 0.
int32_t TensorAttrType(const InferenceContext& ctx, std::string_view name) {
  const onnx::AttributeProto* a = ctx.Attr(name);
  return a && a->has_t() ? a->t().data_type() : 0;
}

// The batch size of an input given as [N, C] or [C] (one example): N, or 1. Unknown for other
// ranks.
Dim BatchDim(const Shape& x) {
  if (x.size() == 1) return Dim::Const(1);
  if (x.size() == 2) return x[0];
  return Dim();
}

// Input 0 must be a tensor of one of `allowed` element types (when its type is known).
Status RequireElemType(const InferenceContext& ctx, const std::vector<int32_t>& allowed,
                       std::string_view why) {
  const Type& x = ctx.InputType(0);
  if (!x.is_tensor() || x.elem_type() == 0) return OkStatus();
  for (int32_t t : allowed) {
    if (x.elem_type() == t) return OkStatus();
  }
  std::vector<std::string> names;
  for (int32_t t : allowed) names.push_back(DataTypeName(t));
  return InputError(ctx, 0, DiagCode::kInputKind,
                    StrCat("expected element type ", StrJoin(names, " or "), " (", why, "), got ",
                           DataTypeName(x.elem_type())));
}

// The class labels of a classifier: their element type (string or int64) and their number.
// One and only one of the two attributes must be given.
struct ClassLabels {
  int32_t elem_type;
  int64_t count;
};
StatusOr<ClassLabels> ReadClassLabels(const InferenceContext& ctx, std::string_view ints_name) {
  const std::optional<int64_t> strings = ListLength(ctx, "classlabels_strings");
  const std::optional<int64_t> ints = ListLength(ctx, ints_name);
  const bool has_strings = strings && *strings > 0, has_ints = ints && *ints > 0;
  if (has_strings && has_ints) {
    return AttrError("classlabels_strings",
                     StrCat("expected one of classlabels_strings and ", ints_name, ", got both"),
                     DiagCode::kInputCombination);
  }
  if (!has_strings && !has_ints) {
    return AttrError("classlabels_strings",
                     StrCat("expected one of classlabels_strings and ", ints_name, ", got neither"),
                     DiagCode::kInputCombination);
  }
  return has_strings ? ClassLabels{kString, *strings} : ClassLabels{kInt64, *ints};
}

// Output 0: the labels [N]; output 1: float scores [N, scores] (a dim that may be unknown).
Status SetClassifierOutputs(InferenceContext& ctx, const ClassLabels& labels, Dim scores) {
  Type y = Type::Tensor(labels.elem_type);
  Type z = Type::Tensor(kFloat);
  if (const Shape* x = ctx.InputShape(0)) {
    const Dim n = BatchDim(*x);
    y.set_shape(Shape{n});
    z.set_shape(Shape{n, scores});
  }
  ctx.SetOutputType(0, std::move(y));
  ctx.SetOutputType(1, std::move(z));
  return OkStatus();
}

// Output 0: a tensor of `elem_type` with input 0's shape (an elementwise map).
Status SameShapeAs(InferenceContext& ctx, int32_t elem_type) {
  Type out = Type::Tensor(elem_type);
  if (const Shape* x = ctx.InputShape(0)) out.set_shape(*x);
  ctx.SetOutputType(0, std::move(out));
  return OkStatus();
}

const std::vector<int32_t> kNumeric = {kFloat, kDouble, kInt64, kInt32};

// ArrayFeatureExtractor: the indices select along the last axis: X's leading dims, then as
// many as there are indices. A 1-D X gives no shape (runtimes add a leading 1 that the spec
// does not state).
Status InferArrayFeatureExtractor(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  const Shape* x = ctx.InputShape(0);
  if (!x || x->size() < 2) return OkStatus();
  Shape out(x->begin(), x->end() - 1);
  const Shape* indices = ctx.InputShape(1);
  out.push_back(indices ? Product(*indices) : Dim());
  ctx.SetOutputShape(0, std::move(out));
  return OkStatus();
}

// Binarizer, Imputer: X's type and shape.
Status InferSameType(InferenceContext& ctx) {
  ctx.SetOutputType(0, ctx.InputType(0));
  return OkStatus();
}

// Normalizer, Scaler: float, X's shape.
Status InferFloatSameShape(InferenceContext& ctx) { return SameShapeAs(ctx, kFloat); }

// CastMap: a map(int64, string|float) to a tensor of `cast_to`. The spec calls the result 1-D
// in one place and runtimes give [1, C]: no shape is claimed.
Status InferCastMap(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(std::string to, ctx.StringAttr("cast_to", "TO_FLOAT"));
  int32_t elem = 0;
  if (to == "TO_FLOAT")
    elem = kFloat;
  else if (to == "TO_STRING")
    elem = kString;
  else if (to == "TO_INT64")
    elem = kInt64;
  else {
    return AttrError("cast_to", StrCat("expected TO_FLOAT, TO_STRING or TO_INT64, got '", to, "'"));
  }
  OI_ASSIGN_OR_RETURN(std::string form, ctx.StringAttr("map_form", "DENSE"));
  if (form != "DENSE" && form != "SPARSE") {
    return AttrError("map_form", StrCat("expected DENSE or SPARSE, got '", form, "'"));
  }
  ctx.SetOutputType(0, Type::Tensor(elem));
  return OkStatus();
}

// CategoryMapper: strings to int64 and int64 to strings, elementwise.
Status InferCategoryMapper(InferenceContext& ctx) {
  const Type& x = ctx.InputType(0);
  if (!x.is_tensor() || x.elem_type() == 0) return OkStatus();
  OI_RETURN_IF_ERROR(RequireElemType(ctx, {kString, kInt64}, "CategoryMapper maps between them"));
  return SameShapeAs(ctx, x.elem_type() == kString ? kInt64 : kString);
}

// DictVectorizer: a map to a tensor of its value type, one value per vocabulary entry. The
// vocabulary's kind must be the map's key type. The spec gives the shape as both 1-D and
// [1, C]: only the element type is claimed.
Status InferDictVectorizer(InferenceContext& ctx) {
  const std::optional<int64_t> strings = ListLength(ctx, "string_vocabulary");
  const std::optional<int64_t> ints = ListLength(ctx, "int64_vocabulary");
  const bool has_strings = strings && *strings > 0, has_ints = ints && *ints > 0;
  if (has_strings == has_ints) {
    return AttrError("string_vocabulary",
                     StrCat("expected one of string_vocabulary and int64_vocabulary, got ",
                            has_strings ? "both" : "neither"),
                     DiagCode::kInputCombination);
  }
  const Type& x = ctx.InputType(0);
  if (x.kind() != Type::Kind::kMap) return OkStatus();
  const int32_t key = has_strings ? kString : kInt64;
  if (x.map_key_type() != 0 && x.map_key_type() != key) {
    return InputError(ctx, 0, DiagCode::kInputKind,
                      StrCat("expected map keys of type ", DataTypeName(key),
                             " (the vocabulary's), got ", DataTypeName(x.map_key_type())));
  }
  if (x.element().is_tensor() && x.element().elem_type() != 0) {
    ctx.SetOutputType(0, Type::Tensor(x.element().elem_type()));
  }
  return OkStatus();
}

// FeatureVectorizer: the inputs side by side as float [N, sum of inputdimensions]; an input
// [C] counts as [1, C], one of higher rank gives its first dim as N.
Status InferFeatureVectorizer(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(auto dims, ctx.OptionalIntsAttr("inputdimensions"));
  Dim width;
  if (dims) {
    if (static_cast<int>(dims->size()) != ctx.NumInputs()) {
      return AttrError("inputdimensions", StrCat("expected ", ctx.NumInputs(),
                                                 " values (one per input), got ", dims->size()));
    }
    int64_t sum = 0;
    for (int64_t d : *dims) {
      if (d < 0) return AttrError("inputdimensions", StrCat("a size of ", d));
      sum += d;
    }
    width = Dim::Const(sum);
  }
  Dim n;
  if (const Shape* x = ctx.InputShape(0); x && !x->empty()) {
    n = x->size() == 1 ? Dim::Const(1) : (*x)[0];
  }
  ctx.SetOutputType(0, Type::Tensor(kFloat, Shape{n, width}));
  return OkStatus();
}

// LabelEncoder: an elementwise map from the keys' type to the values' type. Version 1 maps
// strings to int64 and back (classes_strings); from version 2 the keys_* and values_* lists
// say, and from version 4 also keys_tensor / values_tensor.
Status InferLabelEncoder(InferenceContext& ctx) {
  if (ctx.opset_version() < 2) {
    const Type& x = ctx.InputType(0);
    if (!x.is_tensor() || x.elem_type() == 0) return OkStatus();
    OI_RETURN_IF_ERROR(RequireElemType(ctx, {kString, kInt64}, "version 1 maps between them"));
    return SameShapeAs(ctx, x.elem_type() == kString ? kInt64 : kString);
  }
  // The element type of the one keys_* (or values_*) attribute that is given.
  auto pick = [&](std::string_view prefix) -> StatusOr<int32_t> {
    struct Option {
      std::string name;
      int32_t type;
    };
    std::vector<Option> options = {{StrCat(prefix, "_strings"), kString},
                                   {StrCat(prefix, "_int64s"), kInt64},
                                   {StrCat(prefix, "_floats"), kFloat}};
    int32_t found = 0;
    std::string found_name;
    auto consider = [&](const std::string& name, int32_t type) -> Status {
      if (found != 0) {
        return AttrError(name,
                         StrCat("expected only one of the ", prefix, "_* attributes, got also '",
                                found_name, "'"),
                         DiagCode::kInputCombination);
      }
      found = type;
      found_name = name;
      return OkStatus();
    };
    for (const Option& o : options) {
      if (auto n = ListLength(ctx, o.name); n && *n > 0)
        OI_RETURN_IF_ERROR(consider(o.name, o.type));
    }
    if (ctx.opset_version() >= 4) {
      const std::string name = StrCat(prefix, "_tensor");
      if (int32_t t = TensorAttrType(ctx, name); t != 0) OI_RETURN_IF_ERROR(consider(name, t));
    }
    if (found == 0) {
      return RuleError(DiagCode::kInputCombination,
                       StrCat("attribute '", prefix, "_*': expected one of the ", prefix,
                              "_* attributes, got none"),
                       Subject::Attribute(StrCat(prefix, "_*")));
    }
    return found;
  };
  OI_ASSIGN_OR_RETURN(int32_t key, pick("keys"));
  OI_ASSIGN_OR_RETURN(int32_t value, pick("values"));
  OI_RETURN_IF_ERROR(RequireElemType(ctx, {key}, "the keys' type"));
  return SameShapeAs(ctx, value);
}

// LinearClassifier: labels [N], scores [N, E] with E the number of class labels (a binary
// model with one set of coefficients still scores both classes).
Status InferLinearClassifier(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the classifier's inputs"));
  OI_ASSIGN_OR_RETURN(ClassLabels labels, ReadClassLabels(ctx, "classlabels_ints"));
  return SetClassifierOutputs(ctx, labels, Dim::Const(labels.count));
}

// LinearRegressor: float [N, targets].
Status InferLinearRegressor(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the regressor's inputs"));
  OI_ASSIGN_OR_RETURN(int64_t targets, ctx.IntAttr("targets", 1));
  if (targets < 1) {
    return AttrError("targets", StrCat("expected at least 1, got ", targets));
  }
  Type y = Type::Tensor(kFloat);
  if (const Shape* x = ctx.InputShape(0)) y.set_shape(Shape{BatchDim(*x), Dim::Const(targets)});
  ctx.SetOutputType(0, std::move(y));
  return OkStatus();
}

// OneHotEncoder: float, X's shape with one more axis of one slot per category.
Status InferOneHotEncoder(InferenceContext& ctx) {
  const std::optional<int64_t> strings = ListLength(ctx, "cats_strings");
  const std::optional<int64_t> ints = ListLength(ctx, "cats_int64s");
  const bool has_strings = strings && *strings > 0, has_ints = ints && *ints > 0;
  if (has_strings == has_ints) {
    return AttrError("cats_strings",
                     StrCat("expected one of cats_strings and cats_int64s, got ",
                            has_strings ? "both" : "neither"),
                     DiagCode::kInputCombination);
  }
  Type y = Type::Tensor(kFloat);
  if (const Shape* x = ctx.InputShape(0)) {
    Shape out = *x;
    out.push_back(Dim::Const(has_strings ? *strings : *ints));
    y.set_shape(std::move(out));
  }
  ctx.SetOutputType(0, std::move(y));
  return OkStatus();
}

// SVMClassifier: labels [N]; scores [N, E] when they are probabilities (prob_a given), else
// raw decision values whose number depends on the runtime's one-vs-one layout: unknown.
Status InferSVMClassifier(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the classifier's inputs"));
  OI_ASSIGN_OR_RETURN(ClassLabels labels, ReadClassLabels(ctx, "classlabels_ints"));
  const std::optional<int64_t> prob_a = ListLength(ctx, "prob_a");
  return SetClassifierOutputs(ctx, labels,
                              prob_a && *prob_a > 0 ? Dim::Const(labels.count) : Dim());
}

// SVMRegressor: one float score per example, [N, 1].
Status InferSVMRegressor(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the regressor's inputs"));
  Type y = Type::Tensor(kFloat);
  if (const Shape* x = ctx.InputShape(0)) y.set_shape(Shape{BatchDim(*x), Dim::Const(1)});
  ctx.SetOutputType(0, std::move(y));
  return OkStatus();
}

// TreeEnsemble (5): X's type, [N, n_targets] from an input [N, F].
Status InferTreeEnsemble(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, {kFloat, kDouble, kFloat16}, "the ensemble's inputs"));
  ctx.PropagateElemType(0, 0);
  OI_ASSIGN_OR_RETURN(int64_t targets, ctx.IntAttr("n_targets", -1));
  const Dim width = targets >= 0 ? Dim::Const(targets) : Dim();
  if (const Shape* x = ctx.InputShape(0)) {
    OI_RETURN_IF_ERROR(RequireRank(ctx, 0, *x, 2, "[N, F]"));
    ctx.SetOutputShape(0, Shape{(*x)[0], width});
  }
  return OkStatus();
}

// TreeEnsembleClassifier: labels [N], scores [N, E] with E the number of class labels.
Status InferTreeEnsembleClassifier(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the classifier's inputs"));
  OI_ASSIGN_OR_RETURN(ClassLabels labels, ReadClassLabels(ctx, "classlabels_int64s"));
  return SetClassifierOutputs(ctx, labels, Dim::Const(labels.count));
}

// TreeEnsembleRegressor: float [N, n_targets].
Status InferTreeEnsembleRegressor(InferenceContext& ctx) {
  OI_RETURN_IF_ERROR(RequireElemType(ctx, kNumeric, "the regressor's inputs"));
  OI_ASSIGN_OR_RETURN(int64_t targets, ctx.IntAttr("n_targets", -1));
  Type y = Type::Tensor(kFloat);
  if (const Shape* x = ctx.InputShape(0)) {
    y.set_shape(Shape{BatchDim(*x), targets >= 0 ? Dim::Const(targets) : Dim()});
  }
  ctx.SetOutputType(0, std::move(y));
  return OkStatus();
}

// ZipMap: each row of scores becomes a map from class label to score: seq(map(K, float)).
Status InferZipMap(InferenceContext& ctx) {
  OI_ASSIGN_OR_RETURN(ClassLabels labels, ReadClassLabels(ctx, "classlabels_int64s"));
  if (const Shape* x = ctx.InputShape(0); x && x->size() == 2) {
    if (auto c = (*x)[1].const_value(); c && *c != labels.count) {
      return InputError(
          ctx, 0, DiagCode::kInputDims,
          StrCat("expected ", labels.count, " scores per row (one per class label), got ", *c));
    }
  }
  ctx.SetOutputType(0, Type::Sequence(Type::Map(labels.elem_type, Type::Tensor(kFloat))));
  return OkStatus();
}

}  // namespace

Status RegisterAiOnnxMlRules(SchemaRegistry& r) {
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "ArrayFeatureExtractor", {1}, InferArrayFeatureExtractor));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "Binarizer", {1}, InferSameType));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "CastMap", {1}, InferCastMap));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "CategoryMapper", {1}, InferCategoryMapper));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "DictVectorizer", {1}, InferDictVectorizer));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "FeatureVectorizer", {1}, InferFeatureVectorizer));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "Imputer", {1}, InferSameType));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "LabelEncoder", {1, 2, 4}, InferLabelEncoder));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "LinearClassifier", {1}, InferLinearClassifier));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "LinearRegressor", {1}, InferLinearRegressor));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "Normalizer", {1}, InferFloatSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "OneHotEncoder", {1}, InferOneHotEncoder));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "SVMClassifier", {1}, InferSVMClassifier));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "SVMRegressor", {1}, InferSVMRegressor));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "Scaler", {1}, InferFloatSameShape));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "TreeEnsemble", {5}, InferTreeEnsemble));
  OI_RETURN_IF_ERROR(
      r.AttachRule(kMl, "TreeEnsembleClassifier", {1, 3, 5}, InferTreeEnsembleClassifier));
  OI_RETURN_IF_ERROR(
      r.AttachRule(kMl, "TreeEnsembleRegressor", {1, 3, 5}, InferTreeEnsembleRegressor));
  OI_RETURN_IF_ERROR(r.AttachRule(kMl, "ZipMap", {1}, InferZipMap));
  return OkStatus();
}

}  // namespace onnx_infer
