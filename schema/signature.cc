#include "onnx_infer/schema/signature.h"

#include <algorithm>
#include <climits>
#include <set>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/type_constraint.h"

namespace onnx_infer {
namespace {

using symbolic::Tri;

// The type an attribute carries: its `type` field, or for old models that leave it unset,
// the field that holds a value. UNDEFINED when nothing says.
AttrType ActualAttrType(const onnx::AttributeProto& a) {
  if (a.type() != onnx::AttributeProto::UNDEFINED) return a.type();
  return AttrContentType(a);
}

bool IsListType(AttrType t) {
  return t == onnx::AttributeProto::FLOATS || t == onnx::AttributeProto::INTS ||
         t == onnx::AttributeProto::STRINGS || t == onnx::AttributeProto::TENSORS ||
         t == onnx::AttributeProto::GRAPHS || t == onnx::AttributeProto::SPARSE_TENSORS ||
         t == onnx::AttributeProto::TYPE_PROTOS;
}

std::string ArityText(int lo, int hi) {
  if (lo == hi) return StrCat(lo);
  if (hi == INT_MAX) return StrCat("at least ", lo);
  return StrCat(lo, " to ", hi);
}

std::string AllowedList(const std::vector<Type>& types) {
  std::vector<std::string> names;
  for (size_t i = 0; i < types.size() && i < 8; ++i) names.push_back(types[i].ToString());
  std::string s = StrJoin(names, ", ");
  if (types.size() > 8) s += StrCat(", ... (", types.size(), " in all)");
  return s;
}

// Type parameter names are a few characters ("T", "T1", "Tind"): compared in line rather
// than by a call to memcmp.
bool SameParam(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

const Type* SignatureCheck::Bound(std::string_view param) const {
  for (const auto& b : bindings) {
    if (SameParam(b.param, param)) return &b.type;
  }
  return nullptr;
}

bool SignatureCheck::HasErrors() const {
  for (const auto& i : issues) {
    if (i.severity == Severity::kError) return true;
  }
  return false;
}

const FormalParameter* FormalFor(const std::vector<FormalParameter>& params, int index) {
  if (index < 0 || params.empty()) return nullptr;
  if (index < static_cast<int>(params.size())) return &params[index];
  if (params.back().option == ParamOption::kVariadic) return &params.back();
  return nullptr;
}

SignatureCheck CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                              const std::vector<const Type*>& input_types) {
  SignatureCheck check;
  CheckSignature(node, schema, input_types, check);
  return check;
}

void CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                    const std::vector<const Type*>& input_types, SignatureCheck& check) {
  check.issues.clear();
  check.arity_error = false;
  // The last check's bindings stay as slots to reuse, so that binding a tensor type does not
  // make a new one per node; the first `num_bound` are this check's, the rest are cut at the
  // end.
  size_t num_bound = 0;
  auto error = [&](std::string message, Subject subject = {}) {
    check.issues.push_back({Severity::kError, std::move(message), false, std::move(subject)});
  };

  // Counts.
  const int num_inputs = node.input_size(), num_outputs = node.output_size();
  if (num_inputs < schema.min_inputs() || num_inputs > schema.max_inputs()) {
    error(StrCat("expected ", ArityText(schema.min_inputs(), schema.max_inputs()), " inputs, got ",
                 num_inputs));
    check.arity_error = true;
  }
  if (num_outputs < schema.min_outputs() || num_outputs > schema.max_outputs()) {
    error(StrCat("expected ", ArityText(schema.min_outputs(), schema.max_outputs()),
                 " outputs, got ", num_outputs));
    check.arity_error = true;
  }

  // The names, read once: node.input(i) is a call into libprotobuf for every name.
  const std::string* const* inputs = node.input().data();
  const std::string* const* outputs = node.output().data();

  // Omitted values: only an optional parameter may be given as an empty name.
  // The name first: most are given, and then the formal parameter is not looked up.
  for (int i = 0; i < num_inputs; ++i) {
    if (!inputs[i]->empty()) continue;
    const FormalParameter* p = FormalFor(schema.inputs(), i);
    if (p && p->option == ParamOption::kSingle) {
      error(StrCat("input ", i, " ('", p->name, "') is required but omitted (empty name)"),
            Subject::Input(i));
    }
  }
  for (int i = 0; i < num_outputs; ++i) {
    if (!outputs[i]->empty()) continue;
    const FormalParameter* p = FormalFor(schema.outputs(), i);
    if (p && p->option == ParamOption::kSingle) {
      error(StrCat("output ", i, " ('", p->name, "') is required but omitted (empty name)"),
            Subject::Output(i));
    }
  }

  // Attributes.
  // A node has a few attributes: a linear search beats building a set of copied names.
  const auto& attributes = node.attribute();
  auto given_before = [&](int end, std::string_view name) {
    for (int j = 0; j < end; ++j) {
      if (attributes[j].name() == name) return true;
    }
    return false;
  };
  for (int k = 0; k < attributes.size(); ++k) {
    const auto& a = attributes[k];
    if (given_before(k, a.name())) {
      error(StrCat("attribute '", a.name(), "' is given more than once"),
            Subject::Attribute(a.name()));
      continue;
    }
    const AttributeSpec* spec = schema.FindAttribute(a.name());
    if (!spec) {
      check.issues.push_back({Severity::kWarning,
                              StrCat("attribute '", a.name(), "' is not an attribute of ",
                                     schema.name(), "-", schema.since_version()),
                              true, Subject::Attribute(a.name())});
      continue;
    }
    if (!a.ref_attr_name().empty()) continue;  // bound when a function is called
    AttrType actual = ActualAttrType(a);
    // An empty list carries no field to tell its type by.
    if (actual == onnx::AttributeProto::UNDEFINED && IsListType(spec->type)) continue;
    if (actual != spec->type) {
      error(StrCat("attribute '", a.name(), "': expected type ", AttributeTypeName(spec->type),
                   ", got ", AttributeTypeName(actual)),
            Subject::Attribute(a.name()));
    }
  }
  for (const auto& spec : schema.attributes()) {
    if (spec.required && !given_before(attributes.size(), spec.name)) {
      error(StrCat("attribute '", spec.name, "' is required but not given"),
            Subject::Attribute(spec.name));
    }
  }

  // Type constraints.
  // The message's subject, built only when there is something to report.
  auto label = [&](int i) { return StrCat("input ", i, " '", node.input(i), "'"); };
  for (int i = 0; i < num_inputs && i < static_cast<int>(input_types.size()); ++i) {
    const FormalParameter* p = FormalFor(schema.inputs(), i);
    const Type* t = input_types[i];
    if (!p || !t || t->is_unknown() || inputs[i]->empty()) continue;
    const AllowedTypeSet* allowed = schema.Allowed(*p);
    if (!allowed) continue;
    const Tri match = allowed->Matches(*t);
    if (match == Tri::kFalse) {
      error(StrCat(label(i), ": type ", StripShapes(*t).ToString(), " is not allowed for ", p->type,
                   " (allowed: ", AllowedList(allowed->types), ")"),
            Subject::Input(i, node.input(i)));
      check.issues.back().type_constraint = true;
      continue;
    }
    // Only a fully known type binds its parameter; heterogeneous variadic inputs bind nothing,
    // since each may differ.
    if (match != Tri::kTrue || !allowed->type_param ||
        (p->option == ParamOption::kVariadic && !p->homogeneous)) {
      continue;
    }
    TypeBinding* bound = nullptr;
    for (size_t b = 0; b < num_bound; ++b) {
      if (SameParam(check.bindings[b].param, p->type)) {
        bound = &check.bindings[b];
        break;
      }
    }
    if (!bound) {
      if (num_bound < check.bindings.size()) {
        TypeBinding& slot = check.bindings[num_bound];
        slot.param = p->type;
        slot.input = i;
        // A slot's type is StripShapes's: a tensor's is its element type alone (no shape, no
        // denotation), so a tensor binding only changes that.
        if (slot.type.is_tensor() && !slot.type.has_shape() && t->is_tensor()) {
          slot.type.set_elem_type(t->elem_type());
        } else {
          slot.type = StripShapes(*t);
        }
      } else {
        if (check.bindings.capacity() < schema.type_constraints().size()) {
          check.bindings.reserve(schema.type_constraints().size());
        }
        check.bindings.push_back({p->type, StripShapes(*t), i});
      }
      ++num_bound;
      continue;
    }
    // The usual case, a tensor of the bound element type, without making its shapeless
    // type (a bound tensor type is StripShapes's: no shape, no denotation).
    if (t->is_tensor() && bound->type.is_tensor() && bound->type.elem_type() == t->elem_type()) {
      continue;
    }
    Type shapeless = StripShapes(*t);
    if (bound->type != shapeless && !MergeTypes(bound->type, shapeless).ok()) {
      const int first = bound->input;
      error(StrCat(label(i), ": ", p->type, " is ", shapeless.ToString(), " here but ",
                   bound->type.ToString(), " for input ", first, " '", node.input(first), "'"),
            Subject::Input(i, node.input(i)));
      check.issues.back().type_constraint = true;
      check.issues.back().conflicting_param = p->type;
    }
  }
  check.bindings.erase(check.bindings.begin() + num_bound, check.bindings.end());
}

Type TypeFromSignature(const OpSchema& schema, const SignatureCheck& check, int index) {
  const Type* type = SignatureOutputType(schema, check, index);
  return type ? *type : Type();
}

const Type* SignatureOutputType(const OpSchema& schema, const SignatureCheck& check, int index) {
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
