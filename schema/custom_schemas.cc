#include "onnx_infer/schema/custom_schemas.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/strings.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/custom_shape_rule.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/rule_helpers.h"

namespace onnx_infer {
namespace {

using nlohmann::json;

// ---- The document.

// Reads fields of one JSON object, naming its path in errors and rejecting unknown keys
// (a misspelt key would otherwise be silently ignored).
class Fields {
 public:
  Fields(const json& j, std::string path, std::string_view source)
      : j_(j), path_(std::move(path)), source_(source) {}

  Status Error(std::string_view key, std::string_view what) const {
    const char* dot = path_.empty() || key.empty() ? "" : ".";
    return Status::Error(StrCat(source_, ": ", path_, dot, key, ": ", what));
  }
  Status CheckObject(std::initializer_list<std::string_view> allowed) const {
    if (!j_.is_object()) return Error("", StrCat("expected an object, got ", j_.type_name()));
    for (const auto& [key, value] : j_.items()) {
      bool known = false;
      for (auto a : allowed) known |= key == a;
      if (!known)
        return Error(key, StrCat("unknown key (expected one of: ", StrJoin(allowed, ", "), ")"));
    }
    return OkStatus();
  }
  bool Has(std::string_view key) const { return j_.contains(key); }
  const json& Get(std::string_view key) const { return j_.at(std::string(key)); }
  std::string Path(std::string_view key) const {
    return path_.empty() ? std::string(key) : StrCat(path_, ".", key);
  }
  std::string_view source() const { return source_; }

  StatusOr<std::string> String(std::string_view key,
                               std::optional<std::string> fallback = {}) const {
    if (!Has(key)) {
      if (fallback) return *fallback;
      return Error(key, "required");
    }
    if (!Get(key).is_string()) return Error(key, "expected a string");
    return Get(key).get<std::string>();
  }
  StatusOr<int64_t> Int(std::string_view key, std::optional<int64_t> fallback = {}) const {
    if (!Has(key)) {
      if (fallback) return *fallback;
      return Error(key, "required");
    }
    if (!Get(key).is_number_integer()) return Error(key, "expected an integer");
    return Get(key).get<int64_t>();
  }
  StatusOr<bool> Bool(std::string_view key, bool fallback) const {
    if (!Has(key)) return fallback;
    if (!Get(key).is_boolean()) return Error(key, "expected true or false");
    return Get(key).get<bool>();
  }
  StatusOr<const json*> Array(std::string_view key, bool required) const {
    if (!Has(key)) {
      if (required) return Error(key, "required");
      return static_cast<const json*>(nullptr);
    }
    if (!Get(key).is_array()) return Error(key, "expected a list");
    return &Get(key);
  }

 private:
  const json& j_;
  std::string path_;
  std::string_view source_;
};

StatusOr<AttrType> AttrTypeFromName(std::string_view name) {
  if (auto type = AttributeTypeFromName(name)) return *type;
  return Status::Error(StrCat("unknown attribute type '", name, "'"));
}
StatusOr<onnx::AttributeProto> DefaultValue(const std::string& name, AttrType type, const json& v,
                                            const Fields& f) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(type);
  auto bad = [&] { return f.Error("default", "does not match the attribute's type"); };
  switch (type) {
    case onnx::AttributeProto::INT:
      if (!v.is_number_integer()) return bad();
      a.set_i(v.get<int64_t>());
      return a;
    case onnx::AttributeProto::FLOAT:
      if (!v.is_number()) return bad();
      a.set_f(v.get<float>());
      return a;
    case onnx::AttributeProto::STRING:
      if (!v.is_string()) return bad();
      a.set_s(v.get<std::string>());
      return a;
    case onnx::AttributeProto::INTS:
    case onnx::AttributeProto::FLOATS:
    case onnx::AttributeProto::STRINGS:
      if (!v.is_array()) return bad();
      for (const auto& item : v) {
        if (type == onnx::AttributeProto::INTS && item.is_number_integer()) {
          a.add_ints(item.get<int64_t>());
        } else if (type == onnx::AttributeProto::FLOATS && item.is_number()) {
          a.add_floats(item.get<float>());
        } else if (type == onnx::AttributeProto::STRINGS && item.is_string()) {
          a.add_strings(item.get<std::string>());
        } else {
          return bad();
        }
      }
      return a;
    default:
      return f.Error("default", "only int, float, string and their lists can have defaults");
  }
}

StatusOr<ParamOption> OptionFromName(const std::string& name) {
  if (name == "single") return ParamOption::kSingle;
  if (name == "optional") return ParamOption::kOptional;
  if (name == "variadic") return ParamOption::kVariadic;
  return Status::Error(StrCat("expected single, optional or variadic, got '", name, "'"));
}

StatusOr<int32_t> ElemTypeFromName(const std::string& name, const Fields& f, std::string_view key) {
  auto t = DataTypeFromName(name);
  if (!t) return f.Error(key, StrCat("unknown element type '", name, "'"));
  return *t;
}

// "ranks": {"0": 4, "1": {"min": 2}, "2": {"min": 1, "max": 3}}: the ranks the rule accepts
// for some of the operator's inputs, by input number.
StatusOr<InputRanks> StatedRanks(const Fields& f, const OpSchema& schema) {
  constexpr int64_t kMaxRank = 1000;
  InputRanks ranks;
  if (!f.Has("ranks")) return ranks;
  const json& j = f.Get("ranks");
  if (!j.is_object()) {
    return f.Error("ranks", "expected an object from input numbers to ranks, like {\"0\": 4}");
  }
  for (const auto& [key, value] : j.items()) {
    const std::string place = StrCat("ranks.", key);
    const bool number =
        !key.empty() && key.size() <= 4 && std::all_of(key.begin(), key.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        });
    if (!number) return f.Error(place, "expected an input number (\"0\", \"1\", ...) as the key");
    const int input = std::stoi(key);
    if (input >= schema.max_inputs()) {
      return f.Error(place, StrCat("there is no input ", input, " (the operator has ",
                                   schema.max_inputs(), ")"));
    }
    RankRange range;
    if (value.is_number_integer()) {
      range.min = value.get<int64_t>();
      range.max = range.min;
    } else if (value.is_object()) {
      Fields r(value, f.Path(place), f.source());
      OI_RETURN_IF_ERROR(r.CheckObject({"min", "max"}));
      if (!r.Has("min") && !r.Has("max")) return r.Error("", "give min, max or both");
      OI_ASSIGN_OR_RETURN(range.min, r.Int("min", 0));
      if (r.Has("max")) {
        OI_ASSIGN_OR_RETURN(int64_t max, r.Int("max"));
        if (max < range.min) return r.Error("max", StrCat("is below min (", range.min, ")"));
        range.max = max;
      }
    } else {
      return f.Error(place, "expected a rank (an integer) or {\"min\": ..., \"max\": ...}");
    }
    if (range.min < 0 || range.min > kMaxRank || (range.max && *range.max > kMaxRank)) {
      return f.Error(place, StrCat("expected ranks from 0 to ", kMaxRank));
    }
    ranks[input] = range;
  }
  return ranks;
}

// Builds the rule for one output from its JSON description.
StatusOr<InferenceRule> OutputRule(const json& j, const std::string& path, std::string_view source,
                                   const OpSchema& schema, int* output) {
  Fields f(j, path, source);
  OI_RETURN_IF_ERROR(
      f.CheckObject({"output", "kind", "input", "inputs", "elem_type", "dims", "ranks"}));
  OI_ASSIGN_OR_RETURN(int64_t out, f.Int("output", 0));
  if (out < 0 || out > 1000) return f.Error("output", "out of range");
  *output = static_cast<int>(out);
  OI_ASSIGN_OR_RETURN(std::string kind, f.String("kind"));
  std::optional<int32_t> elem;
  if (f.Has("elem_type")) {
    OI_ASSIGN_OR_RETURN(std::string name, f.String("elem_type"));
    OI_ASSIGN_OR_RETURN(elem, ElemTypeFromName(name, f, "elem_type"));
  }
  OI_ASSIGN_OR_RETURN(InputRanks ranks, StatedRanks(f, schema));
  const int o = *output;
  InferenceRule rule;
  if (kind == "same_as_input") {
    OI_ASSIGN_OR_RETURN(int64_t in, f.Int("input", 0));
    rule = [o, in = static_cast<int>(in)](InferenceContext& ctx) {
      ctx.SetOutputType(o, ctx.InputType(in));
      return OkStatus();
    };
  } else if (kind == "elementwise") {
    OI_ASSIGN_OR_RETURN(int64_t in, f.Int("input", 0));
    rule = [o, in = static_cast<int>(in), elem](InferenceContext& ctx) {
      if (elem) ctx.SetOutputType(o, Type::Tensor(*elem));
      if (const Shape* s = ctx.InputShape(in)) ctx.SetOutputShape(o, *s);
      return OkStatus();
    };
  } else if (kind == "broadcast") {
    std::vector<int> inputs;
    OI_ASSIGN_OR_RETURN(const json* list, f.Array("inputs", false));
    if (list) {
      for (const auto& item : *list) {
        if (!item.is_number_integer()) return f.Error("inputs", "expected input indices");
        inputs.push_back(item.get<int>());
      }
    }
    rule = [o, inputs, elem](InferenceContext& ctx) -> Status {
      std::vector<int> which = inputs;
      if (which.empty()) {
        for (int i = 0; i < ctx.NumInputs(); ++i) {
          if (ctx.HasInput(i)) which.push_back(i);
        }
      }
      if (which.empty()) return OkStatus();
      if (elem) {
        ctx.SetOutputType(o, Type::Tensor(*elem));
      } else {
        ctx.PropagateElemType(which[0], o);
      }
      Shape out;
      for (size_t k = 0; k < which.size(); ++k) {
        const Shape* s = ctx.InputShape(which[k]);
        if (!s) return OkStatus();
        if (k == 0) {
          out = *s;
        } else {
          OI_ASSIGN_OR_RETURN(out, BroadcastShapes(out, *s));
        }
      }
      ctx.SetOutputShape(o, std::move(out));
      return OkStatus();
    };
  } else if (kind == "shape") {
    OI_ASSIGN_OR_RETURN(const json* list, f.Array("dims", true));
    std::vector<DimsItem> items;
    for (size_t i = 0; i < list->size(); ++i) {
      const json& item = (*list)[i];
      if (item.is_number_integer()) {
        items.emplace_back(item.get<int64_t>());
      } else if (item.is_string()) {
        items.emplace_back(item.get<std::string>());
      } else {
        return f.Error(StrCat("dims[", i, "]"), "expected a string or integer");
      }
    }
    const ErrorAt error = [&f](std::string_view key, std::string_view what) {
      return f.Error(key, what);
    };
    OI_ASSIGN_OR_RETURN(ShapeFormula formula, ShapeFormula::Build(items, ranks, schema, error));
    ranks = formula.ranks();  // with those inferred from slices
    OI_ASSIGN_OR_RETURN(int64_t elem_of, f.Int("input", -1));
    rule = [o, formula = std::move(formula), elem,
            elem_of = static_cast<int>(elem_of)](InferenceContext& ctx) -> Status {
      if (elem) {
        ctx.SetOutputType(o, Type::Tensor(*elem));
      } else if (elem_of >= 0) {
        ctx.PropagateElemType(elem_of, o);
      }
      OI_ASSIGN_OR_RETURN(std::optional<Shape> shape, formula.Evaluate(ctx, o));
      if (shape) ctx.SetOutputShape(o, std::move(*shape));
      return OkStatus();
    };
  } else {
    return f.Error("kind", StrCat("expected one of same_as_input, broadcast, elementwise, "
                                  "shape; got '",
                                  kind, "'"));
  }
  if (ranks.empty()) return rule;
  // A rule applied to an input of a rank it does not accept is an error, never a shape.
  return InferenceRule([ranks, rule](InferenceContext& ctx) -> Status {
    OI_RETURN_IF_ERROR(CheckInputRanks(ctx, ranks));
    return rule(ctx);
  });
}

StatusOr<std::vector<FormalParameter>> Params(const Fields& op, std::string_view key) {
  std::vector<FormalParameter> params;
  OI_ASSIGN_OR_RETURN(const json* list, op.Array(key, false));
  if (!list) return params;
  for (size_t i = 0; i < list->size(); ++i) {
    Fields f((*list)[i], StrCat(op.Path(key), "[", i, "]"), op.source());
    OI_RETURN_IF_ERROR(f.CheckObject({"name", "type", "option", "homogeneous", "min_arity"}));
    FormalParameter p;
    OI_ASSIGN_OR_RETURN(p.name, f.String("name"));
    OI_ASSIGN_OR_RETURN(p.type, f.String("type"));
    OI_ASSIGN_OR_RETURN(std::string option, f.String("option", "single"));
    auto parsed = OptionFromName(option);
    if (!parsed.ok()) return f.Error("option", parsed.status().message());
    p.option = *parsed;
    OI_ASSIGN_OR_RETURN(p.homogeneous, f.Bool("homogeneous", true));
    OI_ASSIGN_OR_RETURN(int64_t min_arity, f.Int("min_arity", 1));
    p.min_arity = static_cast<int>(min_arity);
    params.push_back(std::move(p));
  }
  return params;
}

Status LoadOperator(const json& j, const std::string& path, std::string_view source,
                    const std::string& domain, SchemaRegistry& registry) {
  Fields f(j, path, source);
  OI_RETURN_IF_ERROR(f.CheckObject({"name", "since_version", "doc", "inputs", "outputs",
                                    "attributes", "type_constraints", "rule", "rules"}));
  OI_ASSIGN_OR_RETURN(std::string name, f.String("name"));
  OI_ASSIGN_OR_RETURN(int64_t since, f.Int("since_version", 1));
  if (since < 1 || since > 100000) return f.Error("since_version", "expected 1 or more");
  OpSchema schema(domain, name, static_cast<int>(since));
  OI_ASSIGN_OR_RETURN(auto inputs, Params(f, "inputs"));
  for (auto& p : inputs) schema.Input(p.name, p.type, p.option, p.homogeneous, p.min_arity);
  OI_ASSIGN_OR_RETURN(auto outputs, Params(f, "outputs"));
  for (auto& p : outputs) schema.Output(p.name, p.type, p.option, p.homogeneous, p.min_arity);

  OI_ASSIGN_OR_RETURN(const json* attrs, f.Array("attributes", false));
  for (size_t i = 0; attrs && i < attrs->size(); ++i) {
    Fields a((*attrs)[i], StrCat(path, ".attributes[", i, "]"), source);
    OI_RETURN_IF_ERROR(a.CheckObject({"name", "type", "required", "default"}));
    OI_ASSIGN_OR_RETURN(std::string attr_name, a.String("name"));
    OI_ASSIGN_OR_RETURN(std::string type_name, a.String("type"));
    auto type = AttrTypeFromName(type_name);
    if (!type.ok()) return a.Error("type", type.status().message());
    OI_ASSIGN_OR_RETURN(bool required, a.Bool("required", false));
    if (a.Has("default")) {
      if (required) return a.Error("default", "a required attribute cannot have a default");
      OI_ASSIGN_OR_RETURN(onnx::AttributeProto value,
                          DefaultValue(attr_name, *type, a.Get("default"), a));
      schema.AttrDefault(std::move(value));
    } else {
      schema.Attr(attr_name, *type, required);
    }
  }
  OI_ASSIGN_OR_RETURN(const json* constraints, f.Array("type_constraints", false));
  for (size_t i = 0; constraints && i < constraints->size(); ++i) {
    Fields c((*constraints)[i], StrCat(path, ".type_constraints[", i, "]"), source);
    OI_RETURN_IF_ERROR(c.CheckObject({"type_param", "allowed"}));
    OI_ASSIGN_OR_RETURN(std::string param, c.String("type_param"));
    OI_ASSIGN_OR_RETURN(const json* allowed, c.Array("allowed", true));
    std::vector<std::string> types;
    for (const auto& t : *allowed) {
      if (!t.is_string()) return c.Error("allowed", "expected type strings");
      types.push_back(t.get<std::string>());
    }
    schema.TypeConstraint(param, std::move(types));
  }

  std::vector<std::pair<int, InferenceRule>> rules;
  if (f.Has("rule") && f.Has("rules")) return f.Error("rule", "give either 'rule' or 'rules'");
  if (f.Has("rule")) {
    int out = 0;
    OI_ASSIGN_OR_RETURN(InferenceRule r,
                        OutputRule(f.Get("rule"), path + ".rule", source, schema, &out));
    rules.emplace_back(out, std::move(r));
  }
  OI_ASSIGN_OR_RETURN(const json* rule_list, f.Array("rules", false));
  for (size_t i = 0; rule_list && i < rule_list->size(); ++i) {
    int out = 0;
    OI_ASSIGN_OR_RETURN(
        InferenceRule r,
        OutputRule((*rule_list)[i], StrCat(path, ".rules[", i, "]"), source, schema, &out));
    rules.emplace_back(out, std::move(r));
  }
  for (const auto& [out, rule] : rules) {
    if (out >= schema.max_outputs()) {
      return f.Error("rule", StrCat("output ", out, " does not exist"));
    }
  }
  if (!rules.empty()) {
    schema.Rule([rules](InferenceContext& ctx) -> Status {
      for (const auto& [out, rule] : rules) {
        if (out < ctx.NumOutputs()) OI_RETURN_IF_ERROR(rule(ctx));
      }
      return OkStatus();
    });
  }
  Status st = registry.Register(std::move(schema));
  if (!st.ok()) return Status::Error(StrCat(source, ": ", path, ": ", st.message()));
  return OkStatus();
}

Status LoadDomain(const json& j, const std::string& path, std::string_view source,
                  SchemaRegistry& registry) {
  Fields f(j, path, source);
  OI_RETURN_IF_ERROR(f.CheckObject({"domain", "operators"}));
  OI_ASSIGN_OR_RETURN(std::string domain, f.String("domain"));
  if (CanonicalDomain(domain).empty()) {
    return f.Error("domain", "custom operators need a domain of their own, not ai.onnx");
  }
  OI_ASSIGN_OR_RETURN(const json* ops, f.Array("operators", true));
  for (size_t i = 0; i < ops->size(); ++i) {
    OI_RETURN_IF_ERROR(LoadOperator((*ops)[i], StrCat(f.Path("operators"), "[", i, "]"), source,
                                    domain, registry));
  }
  return OkStatus();
}

// nlohmann's parser keeps its own stack, but much that reads a document afterwards recurses
// (dump(), our readers): a document whose arrays and objects nest deeper than the nesting
// limit is refused before it is parsed. Brackets inside strings do not count.
Status CheckJsonDepth(std::string_view text, std::string_view source) {
  int depth = 0;
  int line = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '\n') {
      ++line;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNestingDepth) {
        return Status::Error(StrCat(source, ":", line, ": arrays and objects nested deeper than ",
                                    kMaxNestingDepth,
                                    " levels (the nesting limit, docs/limits.md)"));
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return OkStatus();
}

}  // namespace

Status LoadCustomSchemas(std::string_view json_text, std::string_view source,
                         SchemaRegistry& registry) {
  OI_RETURN_IF_ERROR(CheckJsonDepth(json_text, source));
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::exception& e) {  // nlohmann reports errors by exception; stop them here
    return Status::Error(StrCat(source, ": not valid JSON: ", e.what()));
  }
  if (doc.is_array()) {
    for (size_t i = 0; i < doc.size(); ++i) {
      OI_RETURN_IF_ERROR(LoadDomain(doc[i], StrCat("[", i, "]"), source, registry));
    }
    return OkStatus();
  }
  return LoadDomain(doc, "", source, registry);
}

Status LoadCustomSchemasFile(const std::string& path, SchemaRegistry& registry) {
  // Bounded, and devices refused unread: `--schemas /dev/zero` is an error, not bad_alloc.
  ReadLimits limits;
  limits.max_bytes = kMaxCustomSchemasBytes;
  limits.max_text = "64 MiB, the limit of a custom schemas file";
  limits.check_head = [&path](std::string_view head) {
    size_t i = head.find_first_not_of(" \t\r\n");
    if (i == std::string_view::npos || head[i] == '{' || head[i] == '[') return OkStatus();
    return Status::Error(StrCat(path, ": not valid JSON: it does not start with '{' or '['"));
  };
  OI_ASSIGN_OR_RETURN(std::string text, ReadFile(path, limits));
  return LoadCustomSchemas(text, path, registry);
}

}  // namespace onnx_infer
