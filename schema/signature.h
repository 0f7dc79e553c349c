// Checks a node against its operator's signature: input and output counts, omitted optional
// values, attributes (unknown, missing, wrong type, repeated) and type constraints (each
// input's type is allowed; inputs that share a type parameter agree). Also works out what
// the signature alone says of the outputs' types.
#ifndef ONNX_INFER_SCHEMA_SIGNATURE_H_
#define ONNX_INFER_SCHEMA_SIGNATURE_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/op_schema.h"
#include "onnx_infer/schema/type.h"

namespace onnx_infer {

struct SignatureIssue {
  Severity severity;
  std::string message;  // "input 1 'B': T is int64 here but float for input 0 'A'"
  // A finding a lenient run reports as a warning, --strict as an error (unknown attributes).
  bool strict_only = false;
  Subject subject = {};  // the input, output or attribute the message starts with
  // An input's type is not allowed by its type constraint, or two inputs bound to one type
  // parameter differ: a warning for a caller that does not check types
  // (InferenceOptions::check_types off, onnx's check_type=False).
  bool type_constraint = false;
  // Two inputs bound to this type parameter differ: which of them an output of the
  // parameter has is not known (a view of the schema's own string; empty otherwise).
  std::string_view conflicting_param;
};

// A type parameter bound by an input: "T" -> float (shapes removed), first by input 0.
struct TypeBinding {
  std::string_view param;  // a view of the schema's own string
  Type type;
  int input = -1;
};

struct SignatureCheck {
  std::vector<SignatureIssue> issues;
  // Type parameters bound by the inputs, in the order bound: a schema has a few, so a flat
  // list (no allocation per binding, as a map by name would make).
  std::vector<TypeBinding> bindings;
  // The type `param` is bound to; null when no input binds it. (Type parameter names are a
  // few characters, "T", "T1", "Tind": compared in line rather than by a call to memcmp.)
  const Type* Bound(std::string_view param) const {
    for (const auto& b : bindings) {
      if (b.param.size() != param.size()) continue;
      size_t i = 0;
      while (i < param.size() && b.param[i] == param[i]) ++i;
      if (i == param.size()) return &b.type;
    }
    return nullptr;
  }
  // The counts are wrong, so inputs cannot be matched to formal parameters: do not run the
  // rule.
  bool arity_error = false;

  bool HasErrors() const;
};

// What checks that found nothing found, by schema, for the next node whose check would
// find the same. A check's outcome depends on the schema, the node's input and output counts,
// which of its names are empty, its attributes' names, types and whether they refer to a
// function's attribute, and each input type's kind and element type when every input is a
// tensor or not known (a tensor's shape and denotation change nothing: a type parameter
// binds its shapeless type). A node whose names are all given, with few inputs and
// attributes, all of them tensors or unknown, is remembered after a check that found nothing;
// the next node of the same schema that agrees on all of these gets the same bindings
// without the check.
struct SignatureMemo {
  static constexpr int kMaxInputs = 6;
  static constexpr int kMaxAttributes = 4;
  static constexpr size_t kSlots = 32;  // by schema, a few ways (signature.cc: MemoSlot)
  struct Attribute {
    std::string name;
    AttrType type = onnx::AttributeProto::UNDEFINED;  // as given or as its content says
    bool refers = false;                              // ref_attr_name is set
  };
  struct Entry {
    const OpSchema* schema = nullptr;  // null: empty
    int num_inputs = 0, num_outputs = 0, num_attributes = 0;
    // Per input: 0 when absent or not known, else the tensor's element type with bit 32 set.
    std::array<int64_t, kMaxInputs> inputs{};
    std::array<Attribute, kMaxAttributes> attributes;
    std::vector<TypeBinding> bindings;
  };
  std::array<Entry, kSlots> entries;

  // Remembers what a check of `node` that found nothing found, if it depends only on what
  // the memo keys. (Out of line: the check that reads the memo stays small.)
  void Remember(const onnx::NodeProto& node, const OpSchema& schema,
                const std::vector<const Type*>& input_types, const SignatureCheck& check);
};

// The formal parameter a node's i-th input (or output) corresponds to; null beyond them.
inline const FormalParameter* FormalFor(const std::vector<FormalParameter>& params, int index) {
  if (index < 0 || params.empty()) return nullptr;
  if (index < static_cast<int>(params.size())) return &params[index];
  if (params.back().option == ParamOption::kVariadic) return &params.back();
  return nullptr;
}

SignatureCheck CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                              const std::vector<const Type*>& input_types);
// The same into `check`, cleared first: a caller checking many nodes reuses one
// SignatureCheck, so that a check that finds nothing allocates nothing.
void CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                    const std::vector<const Type*>& input_types, SignatureCheck& check);
// The same, with what earlier checks found remembered in `memo` (SignatureMemo): the outcome
// is the same as without.
void CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                    const std::vector<const Type*>& input_types, SignatureCheck& check,
                    SignatureMemo* memo);

// The type the signature alone gives output `index`: its bound type parameter, or the only
// type its constraint allows. Unknown when the signature leaves a choice.
Type TypeFromSignature(const OpSchema& schema, const SignatureCheck& check, int index);
// The same without a copy: the type in `check` or `schema`, null when unknown. Inline: a
// driver asks it for every output of every node.
inline const Type* SignatureOutputType(const OpSchema& schema, const SignatureCheck& check,
                                       int index) {
  const FormalParameter* p = FormalFor(schema.outputs(), index);
  if (!p) return nullptr;
  const AllowedTypeSet* set = schema.Allowed(*p);
  const Type* only = set && set->types.size() == 1 ? &set->types[0] : nullptr;
  // Each output of a heterogeneous variadic may be a different instance of its parameter.
  if (p->option == ParamOption::kVariadic && !p->homogeneous) return only;
  if (const Type* bound = check.Bound(p->type)) return bound;
  return only;
}

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_SIGNATURE_H_
