#include "onnx_infer/schema/inference_context.h"

#include <algorithm>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"

namespace onnx_infer {
namespace {

const Type& UnknownType() {
  static const Type* t = new Type();
  return *t;
}

}  // namespace

const InferenceContext::Rare& InferenceContext::None() {
  static const Rare* const none = new Rare();  // never freed: contexts may outlive statics
  return *none;
}

InferenceContext::InferenceContext(const onnx::NodeProto& node, const OpSchema& schema,
                                   int64_t opset_version,
                                   const std::vector<const Type*>& input_types,
                                   const std::vector<const ConstValue*>& input_values)
    : node_(node),
      schema_(schema),
      opset_version_(opset_version),
      input_types_(input_types),
      input_values_(input_values),
      rare_(std::make_unique<Rare>()),
      output_types_(rare_->output_types),
      output_values_(rare_->output_values) {
  output_types_.resize(node.output_size());
  output_values_.resize(node.output_size());
}

InferenceContext::InferenceContext(const onnx::NodeProto& node, const OpSchema& schema,
                                   int64_t opset_version,
                                   const std::vector<const Type*>& input_types,
                                   const std::vector<const ConstValue*>& input_values,
                                   std::vector<Type>* output_types,
                                   std::vector<std::optional<ConstValue>>* output_values)
    : node_(node),
      schema_(schema),
      opset_version_(opset_version),
      input_types_(input_types),
      input_values_(input_values),
      output_types_(*output_types),
      output_values_(*output_values) {
  // ResetOutputs, written out here: a driver makes a context per node, and the call costs as
  // much as the loops for a node's few outputs.
  const size_t n = node.output_size();
  if (output_types_.size() != n) output_types_.resize(n);
  for (Type& t : output_types_) t = Type();
  if (output_values_.size() != n) output_values_.resize(n);
  for (std::optional<ConstValue>& v : output_values_) v.reset();
}

void InferenceContext::ResetOutputs(size_t n, std::vector<Type>& types,
                                    std::vector<std::optional<ConstValue>>& values) {
  // The elements are made unknown in place (what the previous node left, moved from or
  // not): only a change of size reaches resize (out of line).
  if (types.size() != n) types.resize(n);
  for (Type& t : types) t = Type();
  if (values.size() != n) values.resize(n);
  for (std::optional<ConstValue>& v : values) v.reset();
}

bool InferenceContext::HasInput(int i) const {
  // input().data(): node.input(i) is a call into libprotobuf.
  return i >= 0 && i < node_.input_size() && !node_.input().data()[i]->empty();
}

const Type& InferenceContext::InputType(int i) const {
  if (i < 0 || i >= NumInputs() || !input_types_[i]) return UnknownType();
  return *input_types_[i];
}

const Shape* InferenceContext::InputShape(int i) const {
  const Type& t = InputType(i);
  if ((t.kind() != Type::Kind::kTensor && t.kind() != Type::Kind::kSparseTensor) ||
      !t.has_shape()) {
    return nullptr;
  }
  return &t.shape();
}

const ConstValue* InferenceContext::InputValue(int i) const {
  const ConstValue* v =
      i >= 0 && i < static_cast<int>(input_values_.size()) ? input_values_[i] : nullptr;
  if (!v && value_reader_ && i >= 0 && i < NumInputs()) v = value_reader_->Read(i);
  return v;
}

const onnx::AttributeProto* InferenceContext::Attr(std::string_view name) const {
  for (const auto& a : node_.attribute()) {
    if (a.name() == name) return &a;
  }
  const AttributeSpec* spec = schema_.FindAttribute(name);
  if (spec && spec->default_value) return &*spec->default_value;
  return nullptr;
}

bool InferenceContext::HasAttr(std::string_view name) const { return Attr(name) != nullptr; }

StatusOr<const onnx::AttributeProto*> InferenceContext::TypedAttr(std::string_view name,
                                                                  AttrType type) const {
  const onnx::AttributeProto* a = Attr(name);
  if (!a) return static_cast<const onnx::AttributeProto*>(nullptr);
  // Old models may leave `type` unset; then the field that is present decides.
  AttrType actual = a->type();
  if (actual == onnx::AttributeProto::UNDEFINED) {
    if (a->has_i())
      actual = onnx::AttributeProto::INT;
    else if (a->has_f())
      actual = onnx::AttributeProto::FLOAT;
    else if (a->has_s())
      actual = onnx::AttributeProto::STRING;
    else if (a->has_t())
      actual = onnx::AttributeProto::TENSOR;
    else if (a->has_g())
      actual = onnx::AttributeProto::GRAPH;
    else if (a->ints_size())
      actual = onnx::AttributeProto::INTS;
    else if (a->floats_size())
      actual = onnx::AttributeProto::FLOATS;
    else if (a->strings_size())
      actual = onnx::AttributeProto::STRINGS;
    else if (type == onnx::AttributeProto::INTS || type == onnx::AttributeProto::FLOATS ||
             type == onnx::AttributeProto::STRINGS)
      actual = type;  // an empty list carries no field to tell its type by
  }
  if (actual != type) {
    Status status = AttrError(
        name,
        StrCat("expected type ", AttributeTypeName(type), ", got ", AttributeTypeName(actual)),
        DiagCode::kSignature);
    // The signature check, run before every rule, has said the same of an attribute given on
    // the node with a type other than the schema's.
    const AttributeSpec* spec = schema_.FindAttribute(name);
    if (spec && spec->type == type && a->ref_attr_name().empty()) {
      MakeRare().reported_by_signature = status.message();
    }
    return status;
  }
  return a;
}

Status InferenceContext::Absent(std::string_view name) const {
  Status status = AttrError(name, "required but not given", DiagCode::kSignature);
  const AttributeSpec* spec = schema_.FindAttribute(name);
  if (spec && spec->required) MakeRare().reported_by_signature = status.message();
  return status;
}

bool InferenceContext::ReportedBySignature(const Status& status) const {
  return !status.ok() && rare_ && !rare_->reported_by_signature.empty() &&
         status.message() == rare_->reported_by_signature;
}

StatusOr<int64_t> InferenceContext::IntAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::INT));
  if (!a) return Absent(name);
  return a->i();
}

StatusOr<int64_t> InferenceContext::IntAttr(std::string_view name, int64_t fallback) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::INT));
  return a ? a->i() : fallback;
}

StatusOr<float> InferenceContext::FloatAttr(std::string_view name, float fallback) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::FLOAT));
  return a ? a->f() : fallback;
}

StatusOr<std::string> InferenceContext::StringAttr(std::string_view name,
                                                   std::string fallback) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::STRING));
  return a ? a->s() : fallback;
}

StatusOr<std::vector<int64_t>> InferenceContext::IntsAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(auto v, OptionalIntsAttr(name));
  if (!v) return Absent(name);
  return *v;
}

StatusOr<std::optional<std::vector<int64_t>>> InferenceContext::OptionalIntsAttr(
    std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::INTS));
  if (!a) return std::optional<std::vector<int64_t>>();
  return std::optional<std::vector<int64_t>>(
      std::vector<int64_t>(a->ints().begin(), a->ints().end()));
}

StatusOr<float> InferenceContext::FloatAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::FLOAT));
  if (!a) return Absent(name);
  return a->f();
}

StatusOr<std::string> InferenceContext::StringAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::STRING));
  if (!a) return Absent(name);
  return a->s();
}

StatusOr<std::optional<std::vector<float>>> InferenceContext::OptionalFloatsAttr(
    std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::FLOATS));
  if (!a) return std::optional<std::vector<float>>();
  return std::optional<std::vector<float>>(
      std::vector<float>(a->floats().begin(), a->floats().end()));
}

StatusOr<std::vector<float>> InferenceContext::FloatsAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(auto v, OptionalFloatsAttr(name));
  if (!v) return Absent(name);
  return *v;
}

StatusOr<std::optional<std::vector<std::string>>> InferenceContext::OptionalStringsAttr(
    std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a,
                      TypedAttr(name, onnx::AttributeProto::STRINGS));
  if (!a) return std::optional<std::vector<std::string>>();
  return std::optional<std::vector<std::string>>(
      std::vector<std::string>(a->strings().begin(), a->strings().end()));
}

StatusOr<std::vector<std::string>> InferenceContext::StringsAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(auto v, OptionalStringsAttr(name));
  if (!v) return Absent(name);
  return *v;
}

StatusOr<const onnx::GraphProto*> InferenceContext::GraphAttr(std::string_view name) const {
  OI_ASSIGN_OR_RETURN(const onnx::AttributeProto* a, TypedAttr(name, onnx::AttributeProto::GRAPH));
  if (!a) return static_cast<const onnx::GraphProto*>(nullptr);
  return &a->g();
}

bool InferenceContext::HasOutput(int i) const {
  return i >= 0 && i < node_.output_size() && !node_.output(i).empty();
}

void InferenceContext::SetOutputType(int i, Type type) {
  if (i < 0 || i >= NumOutputs()) return;
  if ((type.kind() == Type::Kind::kTensor || type.kind() == Type::Kind::kSparseTensor) &&
      type.has_shape()) {
    FinishShape(i, type);  // in place: no copy of the shape
  }
  output_types_[i] = std::move(type);
}

void InferenceContext::FinishShape(int out, Type& type) {
  // The output's name, for what is rare: a message, a fresh symbol.
  auto output_name = [&]() -> std::string {
    return out < node_.output_size() ? node_.output(out) : StrCat("output", out);
  };
  // The shape is read through the type and changed only where a dim changes: most often no
  // dim does, and the type keeps the shape it shares (with the rule's input, say) uncopied.
  const size_t rank = type.shape().size();
  for (size_t axis = 0; axis < rank; ++axis) {
    const Dim old = type.shape()[axis];
    if (old.is_unknown() || old.is_const()) continue;
    Dim d = old;
    if (unifier_ && unifier_->has_user_assumptions()) {
      // A dim that holds only under the user's assumptions says so among the conditions.
      std::vector<std::string> used;
      Dim without;
      d = unifier_->Resolve(d, &used, &without);
      if (!used.empty()) {
        unifier_->AddCondition(
            StrJoin(used, ", "),
            StrCat("assumed for ", Origin(), ": output '", output_name(), "' dim ", axis, " is ",
                   d.ToString(), " instead of ", without.ToString()));
      }
    } else if (unifier_) {
      d = unifier_->Resolve(d);
    }
    if (d.size() > symbolic::kMaxExprSize) {  // what CapSize keeps
      std::string note;
      d = symbolic::CapSize(d, output_name(), static_cast<int64_t>(axis), &note);
      if (!note.empty()) {
        Warn(note, {}, DiagCode::kExpressionCap);
        LogSymbol(d, out, static_cast<int64_t>(axis));
      }
    }
    if (!(d == old)) (*type.mutable_shape())[axis] = d;
  }
}

std::string InferenceContext::Origin() const {
  if (!node_.name().empty()) return StrCat("node '", node_.name(), "' (", node_.op_type(), ")");
  if (node_.output_size() > 0) {
    return StrCat("node of output '", node_.output(0), "' (", node_.op_type(), ")");
  }
  return StrCat("node (", node_.op_type(), ")");
}

Status InferenceContext::RecordEqual(Dim a, Dim b, std::string_view what) {
  if (!unifier_ || a.is_unknown() || b.is_unknown()) return OkStatus();
  // Already known equal: Unify would record nothing, so the origin's text is not built.
  if (a == b || unifier_->Equal(a, b) == symbolic::Tri::kTrue) return OkStatus();
  return WithCode(unifier_->Unify(a, b, StrCat(Origin(), ": ", what)),
                  DiagCode::kFactContradiction);
}

Status InferenceContext::RecordRange(Dim d, std::optional<int64_t> lo, std::optional<int64_t> hi,
                                     std::string_view what) {
  if (!unifier_ || d.is_unknown() || d.is_const()) return OkStatus();
  return WithCode(unifier_->AssumeRelation(d, lo, hi, StrCat(Origin(), ": ", what), /*user=*/false),
                  DiagCode::kFactContradiction);
}

void InferenceContext::RecordCondition(std::string_view condition) {
  if (unifier_) unifier_->AddCondition(std::string(condition), Origin());
}

void InferenceContext::RecordAssumed(std::string_view used, std::string_view what) {
  if (unifier_)
    unifier_->AddCondition(std::string(used), StrCat("assumed for ", Origin(), ": ", what));
}

void InferenceContext::SetOutputValue(int i, ConstValue value) {
  if (i < 0 || i >= NumOutputs()) return;
  if (!value.conditions.empty() && value.elem_type != kFloat && value.elem_type != kDouble) {
    // Only a result that tells something relies on them.
    const bool known =
        std::any_of(value.ints.begin(), value.ints.end(), [](Dim d) { return !d.is_unknown(); });
    if (known) {
      for (const ExactnessCondition& c : value.conditions) RecordCondition(c.ToString());
    }
    value.conditions.clear();
  }
  output_values_[i] = std::move(value);
}

void InferenceContext::PropagateElemType(int in, int out) {
  if (out < 0 || out >= NumOutputs()) return;
  const Type& t = InputType(in);
  Type& o = output_types_[out];
  if (o.kind() != Type::Kind::kTensor) o = Type::Tensor(0);
  if (t.kind() == Type::Kind::kTensor || t.kind() == Type::Kind::kSparseTensor) {
    o.set_elem_type(t.elem_type());
  }
}

void InferenceContext::SetOutputShape(int out, Shape shape) {
  if (out < 0 || out >= NumOutputs()) return;
  Type& o = output_types_[out];
  if (o.kind() != Type::Kind::kTensor) o = Type::Tensor(0);
  o.set_shape(std::move(shape));
  FinishShape(out, o);
}

StatusOr<int64_t> InferenceContext::NormalizeAxis(int64_t axis, int64_t rank,
                                                  std::string_view what) const {
  if (axis < -rank || axis >= rank) {
    return RuleError(DiagCode::kAxisRange, StrCat(what, ": expected an axis in [", -rank, ", ",
                                                  rank - 1, "] for rank ", rank, ", got ", axis));
  }
  return axis < 0 ? axis + rank : axis;
}

StatusOr<int64_t> InferenceContext::NormalizeAxis(int64_t axis, int64_t rank,
                                                  const Subject& what) const {
  if (axis < -rank || axis >= rank) {
    return RuleError(DiagCode::kAxisRange,
                     StrCat(what.ToString(), ": expected an axis in [", -rank, ", ", rank - 1,
                            "] for rank ", rank, ", got ", axis),
                     what);
  }
  return axis < 0 ? axis + rank : axis;
}

StatusOr<std::vector<Type>> InferenceContext::InferSubgraph(std::string_view attribute,
                                                            const std::vector<Type>& input_types) {
  if (!subgraphs_) {
    return RuleError(DiagCode::kSubgraphMismatch, "subgraphs are not inferred in this context");
  }
  const onnx::AttributeProto* a = Attr(attribute);
  if (!a || !a->has_g()) {
    return AttrError(attribute, "expected a graph");
  }
  return subgraphs_->InferSubgraph(attribute, input_types);
}

std::vector<std::optional<ConstValue>> InferenceContext::SubgraphOutputValues(
    std::string_view attribute) const {
  if (!subgraphs_) return {};
  return subgraphs_->SubgraphOutputValues(attribute);
}

void InferenceContext::SubgraphNotTaken(std::string_view attribute, std::string_view reason) {
  if (subgraphs_) subgraphs_->NotTaken(attribute, reason);
}

Dim InferenceContext::FreshDim(int output, int axis) const {
  std::string base = output < node_.output_size() && !node_.output(output).empty()
                         ? node_.output(output)
                         : StrCat(node_.op_type(), "_output", output);
  Dim d = symbolic::FreshSymbol(base, axis);
  LogSymbol(d, output, axis);
  return d;
}

Dim InferenceContext::BoundedValueElement(int output, int64_t element, int64_t lo, int64_t hi,
                                          std::string_view what) {
  if (lo > hi) return Dim();
  if (lo == hi) return Dim::Const(lo);
  if (lo < 0 || !unifier_ || nested_ || !values_kept_) return Dim();
  const std::string base = output < node_.output_size() && !node_.output(output).empty()
                               ? node_.output(output)
                               : StrCat(node_.op_type(), "_output", output);
  // FreshSymbol's name for the value (letters, digits and '_'), with "__e" and the element
  // in place of its "__d" and axis.
  std::string name(symbolic::FreshSymbol(base, 0).symbol_name());
  name.resize(name.size() - 4);  // "__d0"
  const Dim d = Dim::Symbol(StrCat(name, "__e", element));
  // A symbol met before (the rule run again for the same node) has these bounds already, and
  // they are not stated twice; one they contradict is not used.
  // (What the model says, not the user's assumptions: those do not replace its bounds.)
  std::vector<std::string> used;
  Dim without;
  Dim resolved = unifier_->Resolve(d, &used, &without);
  if (!used.empty()) resolved = without;
  const symbolic::Assumptions* model = &unifier_->assumptions();
  const bool known = !resolved.is_unknown() &&
                     symbolic::LessEqual(Dim::Const(lo), resolved, model) == symbolic::Tri::kTrue &&
                     symbolic::LessEqual(resolved, Dim::Const(hi), model) == symbolic::Tri::kTrue;
  if (!known &&
      !RecordRange(d, lo > 0 ? std::optional<int64_t>(lo) : std::nullopt, hi, what).ok()) {
    return Dim();
  }
  if (symbol_log_) {
    std::string value = StrCat("output ", output);
    if (output < node_.output_size() && !node_.output(output).empty()) {
      value += StrCat(" '", node_.output(output), "'");
    }
    symbol_log_->try_emplace(d.ToString(),
                             StrCat(Origin(), ": ", value, " element ", element, ", ", what));
  }
  return d;
}

void InferenceContext::LogSymbol(Dim symbol, int out, int64_t axis) const {
  if (!symbol_log_ || !symbol.is_symbol()) return;
  std::string value = StrCat("output ", out);
  if (out < node_.output_size() && !node_.output(out).empty()) {
    value += StrCat(" '", node_.output(out), "'");
  }
  symbol_log_->try_emplace(symbol.ToString(), StrCat(Origin(), ": ", value, " dim ", axis));
}

std::string InputLabel(const InferenceContext& ctx, int i) {
  std::string label = StrCat("input ", i);
  if (i < ctx.node().input_size()) label += StrCat(" '", ctx.node().input(i), "'");
  return label;
}

Subject InputSubject(const InferenceContext& ctx, int i) {
  return Subject::Input(i, i < ctx.node().input_size() ? ctx.node().input(i) : "");
}

Status RuleError(DiagCode code, std::string message, Subject subject) {
  return WithCode(Status::Error(std::move(message), std::move(subject)), code);
}

Status InputError(const InferenceContext& ctx, int i, DiagCode code, std::string_view detail) {
  return RuleError(code, StrCat(InputLabel(ctx, i), ": ", detail), InputSubject(ctx, i));
}

Status OutputError(const InferenceContext& ctx, int i, DiagCode code, std::string_view detail) {
  std::string label = StrCat("output ", i);
  if (i < ctx.node().output_size()) label += StrCat(" '", ctx.node().output(i), "'");
  return RuleError(code, StrCat(label, ": ", detail),
                   Subject::Output(i, i < ctx.node().output_size() ? ctx.node().output(i) : ""));
}

Status AttrError(std::string_view name, std::string_view detail, DiagCode code) {
  return RuleError(code, StrCat("attribute '", name, "': ", detail),
                   Subject::Attribute(std::string(name)));
}

}  // namespace onnx_infer
