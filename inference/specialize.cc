#include "onnx_infer/inference/specialize.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> ParseReal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const std::string text(s);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// Splits at commas outside parentheses ("Max(A, B),3" is two parts).
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(Trim(s.substr(start)));
  return parts;
}

// Strips one pair of enclosing brackets; `*had` says whether there were.
std::string_view Unbracket(std::string_view s, bool* had) {
  s = Trim(s);
  *had = s.size() >= 2 && s.front() == '[' && s.back() == ']';
  return *had ? Trim(s.substr(1, s.size() - 2)) : s;
}

// The dims of an input shape's text: a number, "?" (unknown), or a dim_param expression.
StatusOr<Shape> DimsOfText(const std::vector<std::string>& dims) {
  Shape shape;
  for (const auto& text : dims) {
    std::string_view t = Trim(text);
    if (t.empty() || t == "?") {
      shape.push_back(Dim());
      continue;
    }
    if (auto v = ParseInt(t)) {
      if (*v < 0) return Status::Error(StrCat("dim '", t, "' is negative"));
      shape.push_back(Dim::Const(*v));
      continue;
    }
    std::string error;
    if (symbolic::IsIdentifier(t)) {
      shape.push_back(Dim::Symbol(t));
    } else if (auto d = symbolic::ParseDim(t, &error)) {
      if (d->is_const() && *d->const_value() < 0) {
        return Status::Error(StrCat("dim '", t, "' is negative"));
      }
      shape.push_back(*d);
    } else {
      return Status::Error(StrCat("dim '", t,
                                  "' is neither a number, '?', a symbol nor an "
                                  "expression (",
                                  error, ")"));
    }
  }
  return shape;
}

// ---- Declared types, everywhere in a model.

// Calls `visit(dim)` for every dim of `type`, nested element types included.
template <typename Visit>
void VisitDims(onnx::TypeProto* type, Visit&& visit) {
  onnx::TensorShapeProto* shape = nullptr;
  if (type->has_tensor_type() && type->tensor_type().has_shape()) {
    shape = type->mutable_tensor_type()->mutable_shape();
  } else if (type->has_sparse_tensor_type() && type->sparse_tensor_type().has_shape()) {
    shape = type->mutable_sparse_tensor_type()->mutable_shape();
  } else if (type->has_sequence_type() && type->sequence_type().has_elem_type()) {
    VisitDims(type->mutable_sequence_type()->mutable_elem_type(), visit);
  } else if (type->has_optional_type() && type->optional_type().has_elem_type()) {
    VisitDims(type->mutable_optional_type()->mutable_elem_type(), visit);
  } else if (type->has_map_type() && type->map_type().has_value_type()) {
    VisitDims(type->mutable_map_type()->mutable_value_type(), visit);
  }
  if (shape) {
    for (auto& d : *shape->mutable_dim()) visit(d);
  }
}

template <typename Visit>
void VisitGraphDims(onnx::GraphProto* graph, Visit& visit);

template <typename Visit>
void VisitNodeDims(onnx::NodeProto* node, Visit& visit) {
  for (auto& a : *node->mutable_attribute()) {
    if (a.has_g()) VisitGraphDims(a.mutable_g(), visit);
    for (auto& g : *a.mutable_graphs()) VisitGraphDims(&g, visit);
  }
}

template <typename Visit>
void VisitGraphDims(onnx::GraphProto* graph, Visit& visit) {
  for (auto* list :
       {graph->mutable_input(), graph->mutable_output(), graph->mutable_value_info()}) {
    for (auto& vi : *list) {
      if (vi.has_type()) VisitDims(vi.mutable_type(), visit);
    }
  }
  for (auto& node : *graph->mutable_node()) VisitNodeDims(&node, visit);
}

// Every declared dim of the model: graphs, subgraphs, training graphs, functions.
template <typename Visit>
void VisitModelDims(onnx::ModelProto* model, Visit visit) {
  VisitGraphDims(model->mutable_graph(), visit);
  for (auto& info : *model->mutable_training_info()) {
    VisitGraphDims(info.mutable_initialization(), visit);
    VisitGraphDims(info.mutable_algorithm(), visit);
  }
  for (auto& f : *model->mutable_functions()) {
    for (auto& vi : *f.mutable_value_info()) {
      if (vi.has_type()) VisitDims(vi.mutable_type(), visit);
    }
    for (auto& node : *f.mutable_node()) VisitNodeDims(&node, visit);
  }
}

void SetDim(onnx::TensorShapeProto::Dimension& d, Dim value) {
  if (auto v = value.const_value()) {
    d.set_dim_value(*v);
  } else if (value.is_symbol()) {
    d.set_dim_param(std::string(value.symbol_name()));
  } else if (!value.is_unknown()) {
    d.set_dim_param(value.ToString());
  } else {
    d.clear_dim_value();
    d.clear_dim_param();
  }
}

bool IsAnonymous(const onnx::TensorShapeProto::Dimension& d) {
  if (d.has_dim_value()) return d.dim_value() < 0;
  return !d.has_dim_param() || d.dim_param().empty();
}

// The shape proto of a tensor (or sparse tensor) input; null for other kinds.
onnx::TensorShapeProto* ShapeOf(onnx::TypeProto* type, bool create) {
  if (type->has_sparse_tensor_type()) {
    if (!create && !type->sparse_tensor_type().has_shape()) return nullptr;
    return type->mutable_sparse_tensor_type()->mutable_shape();
  }
  if (type->has_tensor_type() || (create && type->value_case() == onnx::TypeProto::VALUE_NOT_SET)) {
    if (!create && !type->tensor_type().has_shape()) return nullptr;
    return type->mutable_tensor_type()->mutable_shape();
  }
  return nullptr;
}

// ---- Values.

// The range of an integer element type.
std::pair<int64_t, int64_t> IntRange(int32_t t) {
  switch (t) {
    case kBool:
      return {0, 1};
    case kInt8:
      return {-128, 127};
    case kUint8:
      return {0, 255};
    case kInt16:
      return {-32768, 32767};
    case kUint16:
      return {0, 65535};
    case kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case kUint32:
      return {0, std::numeric_limits<uint32_t>::max()};
    case kInt4:
      return {-8, 7};
    case kUint4:
      return {0, 15};
    case kInt2:
      return {-2, 1};
    case kUint2:
      return {0, 3};
    case kUint64:
      return {0, std::numeric_limits<int64_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

// `given` converted to element type `type` (0: int64 for integers, float for reals), with
// its Dims made in the current context.
StatusOr<ConstValue> ConvertElements(const ConstValue& given, int32_t type) {
  ConstValue out;
  const bool integral = given.reals.empty();
  if (type == 0) type = integral ? kInt64 : kFloat;
  out.elem_type = type;
  if (IsIntegerDataType(type) || type == kBool) {
    // Not a structured binding: clang before 16 cannot capture one (fuzz/ builds with clang).
    const std::pair<int64_t, int64_t> range = IntRange(type);
    const int64_t lo = range.first, hi = range.second;
    auto check = [&](int64_t v) -> Status {
      if (v < lo || v > hi) {
        return Status::Error(StrCat(v, " does not fit ", DataTypeName(type)));
      }
      return OkStatus();
    };
    for (Dim d : given.ints) {
      if (auto v = d.const_value()) {
        OI_RETURN_IF_ERROR(check(*v));
        out.ints.push_back(Dim::Const(*v));
      } else if (d.is_unknown()) {
        out.ints.push_back(Dim());
      } else {
        // A symbolic element is a dimension's size: read back in this context.
        out.ints.push_back(DimFromParam(d.ToString()));
      }
    }
    for (double r : given.reals) {
      if (!std::isfinite(r) || r != std::floor(r) || std::fabs(r) > 9.0e18) {
        return Status::Error(
            StrCat(r, " is not an integer, but the input is ", DataTypeName(type)));
      }
      const int64_t v = static_cast<int64_t>(r);
      OI_RETURN_IF_ERROR(check(v));
      out.ints.push_back(Dim::Const(v));
    }
    return out;
  }
  if (IsFloatDataType(type)) {
    for (Dim d : given.ints) {
      auto v = d.const_value();
      if (!v) {
        return Status::Error(StrCat("element ", d.ToString(), " is not a number, but the input is ",
                                    DataTypeName(type)));
      }
      out.reals.push_back(static_cast<double>(*v));
    }
    for (double r : given.reals) out.reals.push_back(r);
    return out;
  }
  return Status::Error(StrCat("values of element type ", DataTypeName(type), " cannot be given"));
}

// The value's dims: as given, or fitted to the declared shape (KnownInputValue::fit_dims).
StatusOr<std::vector<int64_t>> ValueDims(const KnownInputValue& given, int64_t count,
                                         const Type& declared_type) {
  const std::optional<Shape> declared =
      declared_type.is_unknown() ? std::nullopt : declared_type.maybe_shape();
  if (!given.fit_dims) {
    int64_t n = 1;
    for (int64_t d : given.value.dims) {
      if (d < 0) return Status::Error(StrCat("the value's dim ", d, " is negative"));
      n *= d;
    }
    if (n != count) {
      return Status::Error(StrCat("the value has dims [", StrJoin(given.value.dims, ", "), "] but ",
                                  count, " elements"));
    }
    return given.value.dims;
  }
  if (!declared) {
    if (count == 1) return std::vector<int64_t>{};
    return std::vector<int64_t>{count};
  }
  std::vector<int64_t> dims;
  bool all_const = true;
  int64_t n = 1;
  for (Dim d : *declared) {
    auto v = d.const_value();
    if (!v) {
      all_const = false;
      break;
    }
    dims.push_back(*v);
    n *= *v;
  }
  if (all_const && n == count) return dims;
  if (declared->size() == 1) return std::vector<int64_t>{count};
  if (declared->empty()) {
    if (count == 1) return std::vector<int64_t>{};
    return Status::Error(StrCat("the input is a scalar but ", count, " elements are given"));
  }
  if (all_const) {
    return Status::Error(
        StrCat("the input's ", n, " elements are declared but ", count, " are given"));
  }
  return Status::Error(StrCat("the input is declared ", declared_type.ToString(), ", of rank ",
                              declared->size(),
                              " with dims not known: state its shape with "
                              "an input shape (--input-shape)"));
}

// One entry's name in messages.
std::string Label(const KnownInputValue& v) {
  return v.name.empty() ? StrCat("input #", v.index) : StrCat("'", v.name, "'");
}

// Makes `name` a symbol name: characters other than letters, digits and '_' become '_'.
std::string SymbolStem(std::string_view name) {
  std::string stem;
  for (char ch : name) {
    const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
    stem += word ? ch : '_';
  }
  if (stem.empty() || (stem[0] >= '0' && stem[0] <= '9')) stem.insert(0, "v");
  return stem;
}

}  // namespace

StatusOr<std::map<std::string, int64_t, std::less<>>> ParseBindings(std::string_view text) {
  std::map<std::string, int64_t, std::less<>> out;
  for (std::string_view part : SplitTopLevel(text)) {
    const size_t eq = part.rfind('=');
    if (eq == std::string_view::npos) {
      return Status::Error(StrCat("'", part, "' is not symbol=value"));
    }
    const std::string name(Trim(part.substr(0, eq)));
    const std::string_view value_text = Trim(part.substr(eq + 1));
    if (name.empty()) return Status::Error(StrCat("'", part, "' names no symbol"));
    auto value = ParseInt(value_text);
    if (!value || *value < 0) {
      return Status::Error(
          StrCat("the value of ", name, " must be a non-negative integer, got '", value_text, "'"));
    }
    auto [it, inserted] = out.emplace(name, *value);
    if (!inserted && it->second != *value) {
      return Status::Error(StrCat(name, " is bound twice: to ", it->second, " and to ", *value));
    }
  }
  return out;
}

StatusOr<std::pair<std::string, std::vector<std::string>>> ParseInputShape(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return Status::Error(StrCat("'", text, "' is not input:dims (e.g. x:1,3,H,W)"));
  }
  std::string name(Trim(text.substr(0, colon)));
  if (name.empty()) return Status::Error(StrCat("'", text, "' names no input"));
  bool bracketed = false;
  std::string_view dims_text = Unbracket(text.substr(colon + 1), &bracketed);
  std::vector<std::string> dims;
  if (!dims_text.empty()) {
    for (std::string_view d : SplitTopLevel(dims_text)) {
      if (d.empty()) return Status::Error(StrCat("'", text, "' has an empty dim"));
      dims.emplace_back(d);
    }
  }
  OI_RETURN_IF_ERROR(DimsOfText(dims).status());
  return std::pair{std::move(name), std::move(dims)};
}

StatusOr<KnownInputValue> ParseInputValue(std::string_view text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string_view::npos) {
    return Status::Error(StrCat("'", text, "' is not input=value (e.g. sr=16000)"));
  }
  KnownInputValue out;
  out.name = std::string(Trim(text.substr(0, eq)));
  if (out.name.empty()) return Status::Error(StrCat("'", text, "' names no input"));
  bool bracketed = false;
  std::string_view values = Unbracket(text.substr(eq + 1), &bracketed);
  std::vector<std::string_view> parts;
  if (!values.empty()) parts = SplitTopLevel(values);
  if (parts.empty() && !bracketed) {
    return Status::Error(StrCat("'", text, "' gives no value"));
  }
  // Integers stay integers unless one element is not: then every element is a real.
  std::vector<int64_t> ints;
  std::vector<double> reals;
  for (std::string_view p : parts) {
    std::optional<int64_t> i;
    if (p == "true" || p == "True") {
      i = 1;
    } else if (p == "false" || p == "False") {
      i = 0;
    } else {
      i = ParseInt(p);
    }
    if (i) {
      ints.push_back(*i);
      reals.push_back(static_cast<double>(*i));
    } else if (auto r = ParseReal(p)) {
      reals.push_back(*r);
    } else {
      return Status::Error(StrCat("'", p, "' in '", text, "' is not a number"));
    }
  }
  if (ints.size() == reals.size()) {
    for (int64_t v : ints) out.value.ints.push_back(Dim::Const(v));
  } else {
    out.value.reals = std::move(reals);
  }
  out.fit_dims = !bracketed;
  out.value.dims = {static_cast<int64_t>(parts.size())};
  return out;
}

Specialization Specialize(onnx::ModelProto& model, const InferenceOptions& options) {
  Specialization out;
  onnx::GraphProto* graph = model.mutable_graph();
  auto find_input = [&](const std::string& name) -> onnx::ValueInfoProto* {
    for (auto& vi : *graph->mutable_input()) {
      if (vi.name() == name) return &vi;
    }
    return nullptr;
  };

  // 1. Input shapes replace the declared ones.
  for (const auto& [name, dims] : options.input_shapes) {
    const std::string where = StrCat("input shape for '", name, "': ");
    onnx::ValueInfoProto* vi = find_input(name);
    if (!vi) {
      out.errors.push_back(StrCat(where, "the model has no graph input '", name, "'"));
      continue;
    }
    auto shape = DimsOfText(dims);
    if (!shape.ok()) {
      out.errors.push_back(where + shape.status().message());
      continue;
    }
    onnx::TensorShapeProto* proto = ShapeOf(vi->mutable_type(), /*create=*/true);
    if (!proto) {
      out.errors.push_back(
          StrCat(where, "the input is a ", TypeFromProto(vi->type()).ToString(), ", not a tensor"));
      continue;
    }
    // A declared symbol meeting a given number is a fact (N == 5), as for a given value, so
    // an input shape that contradicts what the model says of N elsewhere is reported.
    const Type declared = TypeFromProto(vi->type());
    if (declared.has_shape() && declared.shape().size() == shape->size()) {
      for (size_t axis = 0; axis < shape->size(); ++axis) {
        Dim d = declared.shape()[axis];
        if (d.is_unknown() || d.is_const() || !(*shape)[axis].is_const()) continue;
        out.facts.push_back({d, (*shape)[axis], StrCat("input shape for '", name, "' dim ", axis)});
      }
    }
    proto->clear_dim();
    for (Dim d : *shape) SetDim(*proto->add_dim(), d);
  }

  // 2. Declared dims evaluated under the bindings; each binding is a fact.
  if (!options.bind.empty()) {
    std::map<std::string, Dim, std::less<>> values;
    for (const auto& [name, value] : options.bind) {
      if (name.empty() || value < 0) {
        out.errors.push_back(StrCat("bind ", name, "=", value,
                                    ": a dim is a non-negative integer "
                                    "bound to a symbol"));
        continue;
      }
      values[name] = Dim::Const(value);
      out.facts.push_back({Dim::Symbol(name), Dim::Const(value), "bind"});
    }
    std::set<std::string> used;
    VisitModelDims(&model, [&](onnx::TensorShapeProto::Dimension& d) {
      if (!d.has_dim_param() || d.dim_param().empty()) return;
      Dim dim = DimFromParam(d.dim_param());
      bool bound = false;
      for (const auto& s : dim.Symbols()) {
        if (values.count(s)) {
          bound = true;
          used.insert(s);
        }
      }
      if (bound) SetDim(d, symbolic::Substitute(dim, values));
    });
    out.bound_and_declared.assign(used.begin(), used.end());
  }

  // 3. Given values, fitted to their inputs.
  std::set<std::string> given;
  for (const KnownInputValue& v : options.input_values) {
    std::string where = StrCat("input value for ", Label(v), ": ");
    onnx::ValueInfoProto* vi = nullptr;
    if (!v.name.empty()) {
      vi = find_input(v.name);
      if (!vi) {
        out.errors.push_back(StrCat(where, "the model has no graph input '", v.name, "'"));
        continue;
      }
    } else if (v.index >= 0 && v.index < graph->input_size()) {
      vi = graph->mutable_input(v.index);
      where = StrCat("input value for input #", v.index, " '", vi->name(), "': ");
    } else {
      out.errors.push_back(
          StrCat(where, "the model's main graph has ", graph->input_size(), " inputs"));
      continue;
    }
    if (given.count(vi->name())) {
      out.errors.push_back(StrCat(where, "a value is given twice"));
      continue;
    }
    const Type declared = TypeFromProto(vi->type());
    if (!declared.is_unknown() && declared.kind() != Type::Kind::kTensor) {
      out.errors.push_back(StrCat(where, "the input is a ", declared.ToString(), ", not a tensor"));
      continue;
    }
    const int32_t declared_elem = declared.is_unknown() ? 0 : declared.elem_type();
    if (v.value.elem_type && declared_elem && v.value.elem_type != declared_elem) {
      out.errors.push_back(StrCat(where, "the value is ", DataTypeName(v.value.elem_type),
                                  ", the input ", DataTypeName(declared_elem)));
      continue;
    }
    auto value = ConvertElements(v.value, v.value.elem_type ? v.value.elem_type : declared_elem);
    if (!value.ok()) {
      out.errors.push_back(where + value.status().message());
      continue;
    }
    const int64_t count = static_cast<int64_t>(value->ints.size() + value->reals.size());
    if (count > options.max_value_elements) {
      out.errors.push_back(StrCat(where, "the value has ", count, " elements, more than the ",
                                  options.max_value_elements, " whose values are tracked"));
      continue;
    }
    const std::optional<Shape> declared_shape =
        declared.is_unknown() ? std::nullopt : declared.maybe_shape();
    auto dims = ValueDims(v, count, declared);
    if (!dims.ok()) {
      out.errors.push_back(where + dims.status().message());
      continue;
    }
    value->dims = *dims;
    // The value against the declaration: rank and constant dims agree; a declared symbol is
    // bound to the value's extent; an unknown dim takes it.
    std::vector<Specialization::Equality> facts;
    std::string mismatch;
    if (declared_shape) {
      if (declared_shape->size() != dims->size()) {
        mismatch = StrCat("the value has rank ", dims->size(), ", the input is declared ",
                          declared.ToString());
      } else {
        for (size_t axis = 0; axis < dims->size() && mismatch.empty(); ++axis) {
          Dim d = (*declared_shape)[axis];
          const int64_t extent = (*dims)[axis];
          if (auto c = d.const_value()) {
            if (*c != extent) {
              mismatch = StrCat("the value's dim ", axis, " is ", extent,
                                ", the input is declared ", declared.ToString());
            }
          } else if (!d.is_unknown()) {
            facts.push_back({d, Dim::Const(extent),
                             StrCat("value given for input '", vi->name(), "' dim ", axis)});
          }
        }
      }
    }
    if (!mismatch.empty()) {
      out.errors.push_back(where + mismatch);
      continue;
    }
    for (auto& f : facts) out.facts.push_back(std::move(f));
    // The declaration takes the value's element type and fills its unknown dims.
    onnx::TypeProto* type = vi->mutable_type();
    type->mutable_tensor_type()->set_elem_type(value->elem_type);
    onnx::TensorShapeProto* proto = type->mutable_tensor_type()->mutable_shape();
    if (proto->dim_size() != static_cast<int>(dims->size())) {
      proto->clear_dim();
      for (size_t axis = 0; axis < dims->size(); ++axis) proto->add_dim();
    }
    for (size_t axis = 0; axis < dims->size(); ++axis) {
      auto* d = proto->mutable_dim(static_cast<int>(axis));
      if (IsAnonymous(*d)) d->set_dim_value((*dims)[axis]);
    }
    given.insert(vi->name());
    out.input_values[vi->name()] = std::move(*value);
  }

  // 4. Anonymous dims of inputs get stable names that collide with no symbol of the model.
  // The inputs with an anonymous dim are found first: most models have none, and then
  // neither the initializers' names (a set of thousands of strings in a CNN) nor the model's
  // symbols are gathered.
  std::vector<onnx::ValueInfoProto*> anonymous;
  if (options.name_anonymous_dims) {
    for (auto& vi : *graph->mutable_input()) {
      if (!vi.has_type()) continue;
      const onnx::TensorShapeProto* proto = ShapeOf(vi.mutable_type(), /*create=*/false);
      if (proto && std::any_of(proto->dim().begin(), proto->dim().end(), IsAnonymous)) {
        anonymous.push_back(&vi);
      }
    }
  }
  if (!anonymous.empty()) {
    // An initialized input is a constant's default, not a dim to name.
    std::unordered_set<std::string_view> initialized;
    {
      std::unordered_set<std::string_view> candidates;
      for (const onnx::ValueInfoProto* vi : anonymous) candidates.insert(vi->name());
      for (const auto& init : graph->initializer()) {
        if (candidates.count(init.name())) initialized.insert(init.name());
      }
    }
    std::set<std::string> taken;
    VisitModelDims(&model, [&](onnx::TensorShapeProto::Dimension& d) {
      if (!d.has_dim_param() || d.dim_param().empty()) return;
      for (const auto& s : DimFromParam(d.dim_param()).Symbols()) taken.insert(s);
    });
    for (onnx::ValueInfoProto* input : anonymous) {
      onnx::ValueInfoProto& vi = *input;
      if (initialized.count(vi.name())) continue;
      onnx::TensorShapeProto* proto = ShapeOf(vi.mutable_type(), /*create=*/false);
      for (int axis = 0; axis < proto->dim_size(); ++axis) {
        auto* d = proto->mutable_dim(axis);
        if (!IsAnonymous(*d)) continue;
        const bool minus_one = d->has_dim_value();
        std::string name = StrCat(SymbolStem(vi.name()), "_d", axis);
        for (int k = 2; taken.count(name); ++k) {
          name = StrCat(SymbolStem(vi.name()), "_d", axis, "_", k);
        }
        taken.insert(name);
        d->set_dim_param(name);
        out.named_dims[name] =
            StrCat("input '", vi.name(), "' dim ", axis, " of graph 'main', which the model ",
                   minus_one ? "declares as -1" : "leaves unnamed");
      }
    }
  }
  return out;
}

Status CheckSpecialization(const onnx::ModelProto& model, const InferenceOptions& options) {
  if (options.input_shapes.empty() && options.bind.empty() && options.input_values.empty()) {
    return OkStatus();  // nothing to check (most calls: no context, no copy of the inputs)
  }
  // The Dims of the check live and die with it, not in the caller's context.
  symbolic::SymbolContext scratch;
  symbolic::SymbolContext::Scope scope(scratch);
  // The checks need only the main graph's inputs: specialize a copy of them.
  onnx::ModelProto skeleton;
  *skeleton.mutable_graph()->mutable_input() = model.graph().input();
  InferenceOptions checked = options;
  checked.name_anonymous_dims = false;
  Specialization s = Specialize(skeleton, checked);
  if (!s.errors.empty()) return Status::Error(s.errors.front());
  // The facts the options state must agree with each other (N == 3 from a value, N == 4
  // bound).
  symbolic::Unifier facts;
  for (const auto& f : s.facts) OI_RETURN_IF_ERROR(facts.Unify(f.lhs, f.rhs, f.origin));
  return OkStatus();
}

}  // namespace onnx_infer
