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

// An input type as SignatureMemo keys it: 0 when absent or not known, the element type with
// bit 32 set for a tensor, -1 for any other type (not remembered).
int64_t MemoInputKey(const std::vector<const Type*>& input_types, int i) {
  const Type* t = i < static_cast<int>(input_types.size()) ? input_types[i] : nullptr;
  if (!t || t->is_unknown()) return 0;
  if (!t->is_tensor()) return -1;
  return (int64_t{1} << 32) | static_cast<uint32_t>(t->elem_type());
}

// The entries a schema may have: kWays slots from one its registry order picks (an address
// would pick by the heap's layout: the schemas a model uses, made on first use, collided in
// one run and not in another).
size_t MemoSlot(const OpSchema& schema) { return schema.registry_order() % SignatureMemo::kSlots; }
constexpr size_t kWays = 4;

// The schema's entry, or null.
const SignatureMemo::Entry* FindEntry(const SignatureMemo& memo, const OpSchema& schema) {
  const size_t slot = MemoSlot(schema);
  if (memo.entries[slot].schema == &schema) return &memo.entries[slot];  // the usual case
  for (size_t w = 1; w < kWays; ++w) {
    const SignatureMemo::Entry& e = memo.entries[(slot + w) % SignatureMemo::kSlots];
    if (e.schema == &schema) return &e;
  }
  return nullptr;
}

// Where to remember an outcome for `schema`: its entry, else an empty one, else the first.
SignatureMemo::Entry& EntryFor(SignatureMemo& memo, const OpSchema& schema) {
  const size_t slot = MemoSlot(schema);
  for (size_t w = 0; w < kWays; ++w) {
    SignatureMemo::Entry& e = memo.entries[(slot + w) % SignatureMemo::kSlots];
    if (e.schema == &schema || e.schema == nullptr) return e;
  }
  return memo.entries[slot];
}

// Whether the node's names are all given (none omitted). Read through data(): begin(),
// end() and each name are calls into libprotobuf.
bool AllNamed(const google::protobuf::RepeatedPtrField<std::string>& names) {
  const std::string* const* p = names.data();
  for (int i = 0, n = names.size(); i < n; ++i) {
    if (p[i]->empty()) return false;
  }
  return true;
}

// Whether `node` agrees with the remembered `e` on all the check depends on.
bool MemoAgrees(const SignatureMemo::Entry& e, const onnx::NodeProto& node,
                const std::vector<const Type*>& input_types) {
  if (e.num_inputs != node.input_size() || e.num_outputs != node.output_size() ||
      e.num_attributes != node.attribute_size()) {
    return false;
  }
  // The names through data(): each name read alone is a call into libprotobuf.
  const std::string* const* inputs = node.input().data();
  for (int i = 0; i < e.num_inputs; ++i) {
    if (inputs[i]->empty() || MemoInputKey(input_types, i) != e.inputs[i]) return false;
  }
  const std::string* const* outputs = node.output().data();
  for (int i = 0; i < e.num_outputs; ++i) {
    if (outputs[i]->empty()) return false;
  }
  for (int k = 0; k < e.num_attributes; ++k) {
    const onnx::AttributeProto& a = node.attribute(k);
    const SignatureMemo::Attribute& m = e.attributes[k];
    if (ActualAttrType(a) != m.type || a.ref_attr_name().empty() == m.refers ||
        a.name() != m.name) {
      return false;
    }
  }
  return true;
}

}  // namespace

// Remembers the outcome of a check of `node` that found nothing, when it depends only on what
// SignatureMemo keys.
void SignatureMemo::Remember(const onnx::NodeProto& node, const OpSchema& schema,
                             const std::vector<const Type*>& input_types,
                             const SignatureCheck& check) {
  const int num_inputs = node.input_size(), num_attributes = node.attribute_size();
  if (num_inputs > SignatureMemo::kMaxInputs || num_attributes > SignatureMemo::kMaxAttributes ||
      !AllNamed(node.input()) || !AllNamed(node.output())) {
    return;
  }
  std::array<int64_t, kMaxInputs> inputs{};
  for (int i = 0; i < num_inputs; ++i) {
    inputs[i] = MemoInputKey(input_types, i);
    if (inputs[i] < 0) return;
  }
  SignatureMemo::Entry& e = EntryFor(*this, schema);
  e.schema = &schema;
  e.num_inputs = num_inputs;
  e.num_outputs = node.output_size();
  e.num_attributes = num_attributes;
  e.inputs = inputs;
  for (int k = 0; k < num_attributes; ++k) {
    const onnx::AttributeProto& a = node.attribute(k);
    e.attributes[k].name = a.name();
    e.attributes[k].type = ActualAttrType(a);
    e.attributes[k].refers = !a.ref_attr_name().empty();
  }
  e.bindings = check.bindings;
}

bool SignatureCheck::HasErrors() const {
  for (const auto& i : issues) {
    if (i.severity == Severity::kError) return true;
  }
  return false;
}

SignatureCheck CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                              const std::vector<const Type*>& input_types) {
  SignatureCheck check;
  CheckSignature(node, schema, input_types, check);
  return check;
}

void CheckSignature(const onnx::NodeProto& node, const OpSchema& schema,
                    const std::vector<const Type*>& input_types, SignatureCheck& check,
                    SignatureMemo* memo) {
  if (!memo) {
    CheckSignature(node, schema, input_types, check);
    return;
  }
  const SignatureMemo::Entry* found = FindEntry(*memo, schema);
  if (!found || !MemoAgrees(*found, node, input_types)) {
    CheckSignature(node, schema, input_types, check);
    if (check.issues.empty()) memo->Remember(node, schema, input_types, check);
    return;
  }
  const SignatureMemo::Entry& e = *found;
  // What the check would find: nothing, and the remembered bindings, set in the last check's
  // slots as the check sets them (a tensor's binding changes only its element type).
  check.issues.clear();
  check.arity_error = false;
  size_t num_bound = 0;
  for (const TypeBinding& b : e.bindings) {
    if (num_bound < check.bindings.size()) {
      TypeBinding& slot = check.bindings[num_bound];
      slot.param = b.param;
      slot.input = b.input;
      if (slot.type.is_tensor() && !slot.type.has_shape() && b.type.is_tensor()) {
        slot.type.set_elem_type(b.type.elem_type());
      } else {
        slot.type = b.type;
      }
    } else {
      check.bindings.push_back(b);
    }
    ++num_bound;
  }
  check.bindings.erase(check.bindings.begin() + num_bound, check.bindings.end());
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

}  // namespace onnx_infer
