#include "onnx_infer/schema/op_schema.h"

#include <cctype>
#include <climits>
#include <memory>
#include <string>
#include <utility>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/type_constraint.h"

namespace onnx_infer {

AttrType AttrContentType(const onnx::AttributeProto& a) {
  if (a.has_f()) return onnx::AttributeProto::FLOAT;
  if (a.has_i()) return onnx::AttributeProto::INT;
  if (a.has_s()) return onnx::AttributeProto::STRING;
  if (a.has_t()) return onnx::AttributeProto::TENSOR;
  if (a.has_g()) return onnx::AttributeProto::GRAPH;
  if (a.has_sparse_tensor()) return onnx::AttributeProto::SPARSE_TENSOR;
  if (a.has_tp()) return onnx::AttributeProto::TYPE_PROTO;
  if (a.floats_size()) return onnx::AttributeProto::FLOATS;
  if (a.ints_size()) return onnx::AttributeProto::INTS;
  if (a.strings_size()) return onnx::AttributeProto::STRINGS;
  if (a.tensors_size()) return onnx::AttributeProto::TENSORS;
  if (a.graphs_size()) return onnx::AttributeProto::GRAPHS;
  if (a.sparse_tensors_size()) return onnx::AttributeProto::SPARSE_TENSORS;
  if (a.type_protos_size()) return onnx::AttributeProto::TYPE_PROTOS;
  return onnx::AttributeProto::UNDEFINED;
}

std::string AttributeTypeName(AttrType type) {
  if (!onnx::AttributeProto::AttributeType_IsValid(type)) return "unknown";
  std::string name = onnx::AttributeProto::AttributeType_Name(type);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::optional<AttrType> AttributeTypeFromName(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) {
    if (std::isupper(static_cast<unsigned char>(c))) return std::nullopt;
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  AttrType type;
  if (!onnx::AttributeProto::AttributeType_Parse(upper, &type)) return std::nullopt;
  if (type == onnx::AttributeProto::UNDEFINED) return std::nullopt;
  return type;
}

std::string_view CanonicalDomain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

std::string_view DisplayDomain(std::string_view domain) {
  return domain.empty() ? std::string_view("ai.onnx") : domain;
}

OpSchema::OpSchema(std::string domain, std::string name, int since_version)
    : domain_(CanonicalDomain(domain)), name_(std::move(name)), since_version_(since_version) {}

OpSchema& OpSchema::Reserve(int inputs, int outputs, int attributes, int type_constraints) {
  inputs_.reserve(inputs);
  outputs_.reserve(outputs);
  attributes_.reserve(attributes);
  type_constraints_.reserve(type_constraints);
  return *this;
}

OpSchema& OpSchema::Input(std::string name, std::string type, ParamOption option, bool homogeneous,
                          int min_arity) {
  inputs_.push_back({std::move(name), std::move(type), option, homogeneous, min_arity});
  return *this;
}

OpSchema& OpSchema::Output(std::string name, std::string type, ParamOption option, bool homogeneous,
                           int min_arity) {
  outputs_.push_back({std::move(name), std::move(type), option, homogeneous, min_arity});
  return *this;
}

OpSchema& OpSchema::Attr(std::string name, AttrType type, bool required) {
  attributes_.push_back({std::move(name), type, required, std::nullopt});
  return *this;
}

OpSchema& OpSchema::AttrDefault(onnx::AttributeProto value) {
  AttributeSpec& spec = attributes_.emplace_back();  // built in place: one move of the value
  spec.name = value.name();
  spec.type = value.type();
  spec.default_value.emplace(std::move(value));
  return *this;
}

OpSchema& OpSchema::AttrDefault(std::string name, int64_t value) {
  onnx::AttributeProto a;
  a.set_name(std::move(name));
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(value);
  return AttrDefault(std::move(a));
}

OpSchema& OpSchema::AttrDefault(std::string name, float value) {
  onnx::AttributeProto a;
  a.set_name(std::move(name));
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(value);
  return AttrDefault(std::move(a));
}

OpSchema& OpSchema::AttrDefault(std::string name, std::string value) {
  onnx::AttributeProto a;
  a.set_name(std::move(name));
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(std::move(value));
  return AttrDefault(std::move(a));
}

OpSchema& OpSchema::AttrDefault(std::string name, std::vector<int64_t> value) {
  onnx::AttributeProto a;
  a.set_name(std::move(name));
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : value) a.add_ints(v);
  return AttrDefault(std::move(a));
}

OpSchema& OpSchema::AttrDefault(std::string name, std::vector<float> value) {
  onnx::AttributeProto a;
  a.set_name(std::move(name));
  a.set_type(onnx::AttributeProto::FLOATS);
  for (float v : value) a.add_floats(v);
  return AttrDefault(std::move(a));
}

OpSchema& OpSchema::TypeConstraint(std::string param, std::vector<std::string> allowed) {
  type_constraints_.push_back({std::move(param), std::move(allowed)});
  return *this;
}

OpSchema& OpSchema::Rule(InferenceRule rule) {
  rule_ = std::move(rule);
  return *this;
}

OpSchema& OpSchema::Deprecated(bool deprecated) {
  deprecated_ = deprecated;
  return *this;
}

const AttributeSpec* OpSchema::FindAttribute(std::string_view name) const {
  for (const auto& a : attributes_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

namespace {

int MinArity(const std::vector<FormalParameter>& params) {
  // Every parameter up to the last required one must be given (optional ones by an empty
  // name); a trailing variadic needs its min_arity.
  int last_required = -1;
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    if (params[i].option != ParamOption::kOptional) last_required = i;
  }
  if (last_required < 0) return 0;
  const auto& last = params[last_required];
  return last_required + (last.option == ParamOption::kVariadic ? last.min_arity : 1);
}

int MaxArity(const std::vector<FormalParameter>& params) {
  if (!params.empty() && params.back().option == ParamOption::kVariadic) return INT_MAX;
  return static_cast<int>(params.size());
}

}  // namespace

OpSchema& OpSchema::Function(int opset, std::string text) {
  function_bodies_.push_back({opset, std::move(text)});
  return *this;
}

OpSchema& OpSchema::ContextDependentFunction(bool value) {
  context_dependent_function_ = value;
  return *this;
}

OpSchema& OpSchema::Arity(int min_inputs, int max_inputs, int min_outputs, int max_outputs) {
  arity_[0] = min_inputs;
  arity_[1] = max_inputs;
  arity_[2] = min_outputs;
  arity_[3] = max_outputs;
  return *this;
}

int OpSchema::min_inputs() const { return arity_[0] >= 0 ? arity_[0] : MinArity(inputs_); }
int OpSchema::max_inputs() const { return arity_[1] >= 0 ? arity_[1] : MaxArity(inputs_); }
int OpSchema::min_outputs() const { return arity_[2] >= 0 ? arity_[2] : MinArity(outputs_); }
int OpSchema::max_outputs() const { return arity_[3] >= 0 ? arity_[3] : MaxArity(outputs_); }

std::string OpSchema::Id() const {
  return StrCat(DisplayDomain(domain_), "::", name_, "-", since_version_);
}

}  // namespace onnx_infer

namespace onnx_infer {

StatusOr<std::shared_ptr<const AllowedTypeSet>> AllowedTypeSetPool::Get(const std::string* texts,
                                                                        size_t count,
                                                                        bool type_param) {
  const std::string* const end = texts + count;
  // The key spells each text after its length: no two lists share one.
  key_.assign(1, type_param ? 'P' : 'L');
  for (const std::string* text_it = texts; text_it != end; ++text_it) {
    const std::string& text = *text_it;
    const auto size = static_cast<uint32_t>(text.size());
    key_.append(reinterpret_cast<const char*>(&size), sizeof size);
    key_ += text;
  }
  if (auto it = sets_.find(key_); it != sets_.end()) return it->second;
  auto set = std::make_shared<AllowedTypeSet>();
  set->type_param = type_param;
  set->types.reserve(count);
  for (const std::string* text_it = texts; text_it != end; ++text_it) {
    const std::string& text = *text_it;
    auto parsed = types_.find(text);
    if (parsed == types_.end()) {
      OI_ASSIGN_OR_RETURN(Type t, ParseTypeString(text));
      parsed = types_.emplace(text, std::move(t)).first;
    }
    const Type& t = parsed->second;
    if (t.is_tensor()) {
      if (t.elem_type() > 0 && t.elem_type() < 64) {
        set->tensor_elem_types |= uint64_t{1} << t.elem_type();
      } else {
        set->tensor_bits_exact = false;
      }
    }
    set->types.push_back(t);
  }
  std::shared_ptr<const AllowedTypeSet> shared = std::move(set);
  sets_.emplace(key_, shared);
  return shared;
}

int OpSchema::ConstraintIndex(std::string_view param) const {
  // The last constraint of a name wins, as it always has.
  for (int i = static_cast<int>(type_constraints_.size()) - 1; i >= 0; --i) {
    if (type_constraints_[i].param == param) return i;
  }
  return -1;
}

Status OpSchema::Finalize(AllowedTypeSetPool* pool) {
  AllowedTypeSetPool own;
  if (!pool) pool = &own;
  // Set i is constraint i's; then one per distinct literal type of the formal parameters.
  allowed_sets_.clear();
  for (const auto& c : type_constraints_) {
    auto set = pool->Get(c.allowed.data(), c.allowed.size(), /*type_param=*/true);
    if (!set.ok()) {
      return Status::Error(
          StrCat(Id(), ": type constraint ", c.param, ": ", set.status().message()));
    }
    allowed_sets_.push_back(std::move(*set));
  }
  std::vector<const FormalParameter*> literals;  // the first parameter of each literal type
  for (auto* params : {&inputs_, &outputs_}) {
    for (auto& p : *params) {
      p.allowed_index = ConstraintIndex(p.type);
      if (p.allowed_index >= 0) continue;
      for (const FormalParameter* seen : literals) {
        if (seen->type == p.type) p.allowed_index = seen->allowed_index;
      }
      if (p.allowed_index >= 0) continue;
      auto set = pool->Get(&p.type, 1, /*type_param=*/false);
      if (!set.ok()) {
        // The type string's own error says why when it is too deep to be a type; a hostile
        // one can be megabytes long, so only its start is quoted.
        if (set.status().message().find("nested too deeply") != std::string::npos) {
          return Status::Error(StrCat(Id(), ": '", p.name, "': ", set.status().message()));
        }
        return Status::Error(StrCat(Id(), ": '", p.name, "' has type '", p.type,
                                    "', which is neither a constrained type parameter nor a type"));
      }
      p.allowed_index = static_cast<int>(allowed_sets_.size());
      allowed_sets_.push_back(std::move(*set));
      literals.push_back(&p);
    }
  }
  return OkStatus();
}

const std::vector<Type>* OpSchema::AllowedTypes(std::string_view formal_type) const {
  if (allowed_sets_.empty()) return nullptr;  // not finalized
  int index = ConstraintIndex(formal_type);
  for (auto* params : {&inputs_, &outputs_}) {
    for (const auto& p : *params) {
      if (index < 0 && p.type == formal_type) index = p.allowed_index;
    }
  }
  if (index < 0 || index >= static_cast<int>(allowed_sets_.size())) return nullptr;
  return &allowed_sets_[index]->types;
}

symbolic::Tri AllowedTypeSet::Matches(const Type& type) const {
  using symbolic::Tri;
  // A tensor of a known element type, the usual input: a bit says it. A pattern of another
  // kind could not match it either.
  if (tensor_bits_exact && type.is_tensor() && type.elem_type() > 0 && type.elem_type() < 64) {
    return (tensor_elem_types >> type.elem_type()) & 1 ? Tri::kTrue : Tri::kFalse;
  }
  bool any_unknown = false;
  for (const auto& pattern : types) {
    Tri m = MatchesPattern(type, pattern);
    if (m == Tri::kTrue) return Tri::kTrue;  // one match decides
    any_unknown |= m == Tri::kUnknown;
  }
  return any_unknown ? Tri::kUnknown : Tri::kFalse;
}

}  // namespace onnx_infer
