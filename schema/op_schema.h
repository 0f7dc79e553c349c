// OpSchema: the signature of one version of one operator, and the rule that infers its
// outputs' types. A schema is built with chained setters:
//
//   OpSchema("", "Relu", 14)
//       .Input("X", "T")
//       .Output("Y", "T")
//       .TypeConstraint("T", {"tensor(float)", "tensor(double)"})
//       .Rule(InferRelu);
//
// The domain "" is the default ONNX domain (also spelled "ai.onnx").
#ifndef ONNX_INFER_SCHEMA_OP_SCHEMA_H_
#define ONNX_INFER_SCHEMA_OP_SCHEMA_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

class InferenceContext;

// A rule reads the node's inputs and attributes from the context and sets its outputs.
// What it cannot decide it leaves unknown; it returns an error only for a contradiction.
using InferenceRule = std::function<Status(InferenceContext&)>;

enum class ParamOption { kSingle, kOptional, kVariadic };

struct FormalParameter {
  std::string name;
  std::string type;  // a type parameter ("T") or a type ("tensor(int64)")
  ParamOption option = ParamOption::kSingle;
  bool homogeneous = true;  // variadic: all of one type
  int min_arity = 1;        // variadic: at least this many
  // Set by OpSchema::Finalize(): where its allowed types are (OpSchema::Allowed).
  int allowed_index = -1;
};

using AttrType = onnx::AttributeProto::AttributeType;

// An attribute type as messages and JSON spell it: protobuf's enum name in lower case
// ("int", "floats", "sparse_tensor", "undefined"); "unknown" for a value out of the enum.
std::string AttributeTypeName(AttrType type);

// The kind of value an attribute holds, by the field that holds it, whatever its `type` field
// says (FLOAT for `f`, TENSOR for `t`, ...); UNDEFINED when it holds none.
AttrType AttrContentType(const onnx::AttributeProto& a);
// The inverse, for a real type only: nullopt for "undefined", upper case or any other text.
std::optional<AttrType> AttributeTypeFromName(std::string_view name);

struct AttributeSpec {
  std::string name;
  AttrType type = onnx::AttributeProto::UNDEFINED;
  bool required = false;
  std::optional<onnx::AttributeProto> default_value;  // named `name`, of type `type`
};

// An operator defined as a function: its body in ONNX text syntax, written against `opset`.
struct FunctionBody {
  int opset = 0;
  std::string text;
};

// The types a formal parameter may take, resolved once by OpSchema::Finalize() so that
// checking a node's input against them is a bit test for a tensor (the usual case): no
// allocation and no lookup by name.
struct AllowedTypeSet {
  std::vector<Type> types;  // shapeless
  // Bit e is set when tensor(e) is among `types`; exact when every tensor among them has an
  // element type below 64 (all of ONNX's do), else Matches() compares them one by one.
  uint64_t tensor_elem_types = 0;
  bool tensor_bits_exact = true;
  bool type_param = false;  // a constrained type parameter ("T"), not a literal type

  // Whether `type` (shapes ignored) is an instance of one of `types`: kTrue when one matches,
  // kUnknown when none does but the unknown parts of `type` could make one, else kFalse.
  symbolic::Tri Matches(const Type& type) const;
};

// The allowed type sets of many schemas, each built once. The catalog's constraints repeat
// (the same list of float types under "T" in hundreds of schemas), so the schemas a pool
// finalizes share one set per distinct list, parsed once. SchemaRegistry keeps one for the
// schemas it registers. Not thread-safe: used while schemas are being registered.
class AllowedTypeSetPool {
 public:
  // The set of the types `texts[0..count)` name: a type parameter's allowed types
  // (`type_param`), or a literal type alone. An error is ParseTypeString's for the first text
  // that does not parse (no set is kept then). (A pointer and a count, not a std::span: this
  // header is public and compiles as C++17.)
  StatusOr<std::shared_ptr<const AllowedTypeSet>> Get(const std::string* texts, size_t count,
                                                      bool type_param);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, std::shared_ptr<const AllowedTypeSet>, Hash, std::equal_to<>>
      sets_;
  // Each distinct type string, parsed: the distinct lists share most of them.
  std::unordered_map<std::string, Type, Hash, std::equal_to<>> types_;
  std::string key_;  // reused for each lookup
};

struct TypeConstraint {
  std::string param;                 // "T"
  std::vector<std::string> allowed;  // "tensor(float)", "seq(tensor(int64))", ...
};

// "ai.onnx" and "" are the same domain; everything else is itself.
std::string_view CanonicalDomain(std::string_view domain);
// The domain as written in diagnostics: "ai.onnx" for the default one.
std::string_view DisplayDomain(std::string_view domain);

class OpSchema {
 public:
  OpSchema(std::string domain, std::string name, int since_version);

  // Room for the signature's parts, when their numbers are known (the catalog's rows).
  OpSchema& Reserve(int inputs, int outputs, int attributes, int type_constraints);
  OpSchema& Input(std::string name, std::string type, ParamOption option = ParamOption::kSingle,
                  bool homogeneous = true, int min_arity = 1);
  OpSchema& Output(std::string name, std::string type, ParamOption option = ParamOption::kSingle,
                   bool homogeneous = true, int min_arity = 1);
  // An attribute without a default; `required` says whether a node must give it.
  OpSchema& Attr(std::string name, AttrType type, bool required = false);
  // An optional attribute with a default value.
  OpSchema& AttrDefault(std::string name, int64_t value);
  OpSchema& AttrDefault(std::string name, float value);
  OpSchema& AttrDefault(std::string name, std::string value);
  OpSchema& AttrDefault(std::string name, std::vector<int64_t> value);
  OpSchema& AttrDefault(std::string name, std::vector<float> value);
  OpSchema& AttrDefault(onnx::AttributeProto value);
  OpSchema& TypeConstraint(std::string param, std::vector<std::string> allowed);
  OpSchema& Rule(InferenceRule rule);
  OpSchema& Deprecated(bool deprecated = true);
  OpSchema& Function(int opset, std::string text);
  // ONNX builds this op's function body per node; the catalog cannot hold it.
  OpSchema& ContextDependentFunction(bool value = true);
  // Overrides the arity implied by the formal parameters (the catalog states it exactly).
  OpSchema& Arity(int min_inputs, int max_inputs, int min_outputs, int max_outputs);

  const std::string& domain() const { return domain_; }
  const std::string& name() const { return name_; }
  int since_version() const { return since_version_; }
  const std::vector<FormalParameter>& inputs() const { return inputs_; }
  const std::vector<FormalParameter>& outputs() const { return outputs_; }
  const std::vector<AttributeSpec>& attributes() const { return attributes_; }
  const std::vector<onnx_infer::TypeConstraint>& type_constraints() const {
    return type_constraints_;
  }
  const AttributeSpec* FindAttribute(std::string_view name) const;
  const InferenceRule& rule() const { return rule_; }
  bool has_rule() const { return static_cast<bool>(rule_); }
  bool deprecated() const { return deprecated_; }
  const std::vector<FunctionBody>& function_bodies() const { return function_bodies_; }
  bool context_dependent_function() const { return context_dependent_function_; }

  // Arity implied by the formal parameters.
  int min_inputs() const;
  int max_inputs() const;  // INT32_MAX when the last input is variadic
  int min_outputs() const;
  int max_outputs() const;

  // "ai.onnx::Concat-13"
  std::string Id() const;

  // The order in which its registry registered or made it (0 for a schema of none): a small
  // dense number that per-schema caches key on (SignatureMemo), so that the first schemas a
  // model uses take distinct slots whatever their addresses.
  uint32_t registry_order() const { return registry_order_; }
  void set_registry_order(uint32_t order) { registry_order_ = order; }

  // Parses the type strings of the signature; SchemaRegistry::Register calls it. An error
  // names the string that does not parse or a type parameter without a constraint. With a
  // pool, the allowed type sets are shared with the other schemas the pool finalized.
  Status Finalize(AllowedTypeSetPool* pool = nullptr);
  // The types a formal parameter's type may take: the constraint's allowed types for a type
  // parameter ("T"), the type itself for a literal ("tensor(int64)"). Shapeless. Null before
  // Finalize() or for an unknown name.
  const std::vector<Type>* AllowedTypes(std::string_view formal_type) const;
  // The same for one of this schema's own formal parameters, without a lookup. Null before
  // Finalize().
  const AllowedTypeSet* Allowed(const FormalParameter& param) const {
    return param.allowed_index < 0 ? nullptr : allowed_sets_[param.allowed_index].get();
  }

 private:
  std::string domain_, name_;
  int since_version_;
  std::vector<FormalParameter> inputs_, outputs_;
  std::vector<AttributeSpec> attributes_;
  std::vector<onnx_infer::TypeConstraint> type_constraints_;
  InferenceRule rule_;
  bool deprecated_ = false;
  std::vector<FunctionBody> function_bodies_;
  bool context_dependent_function_ = false;
  int arity_[4] = {-1, -1, -1, -1};  // min/max inputs, min/max outputs; -1: implied
  uint32_t registry_order_ = 0;
  // The index of the type constraint on `param`, or -1.
  int ConstraintIndex(std::string_view param) const;

  // Filled by Finalize(): the allowed types of each type constraint (in their order), then of
  // each distinct literal type of the formal parameters (FormalParameter::allowed_index);
  // shared with other schemas, immutable.
  std::vector<std::shared_ptr<const AllowedTypeSet>> allowed_sets_;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_OP_SCHEMA_H_
