// InferenceContext: what an inference rule sees of one node, and where it puts its results.
// This is the API a custom-operator author writes against.
//
// A rule reads the types of the node's inputs (InputType, InputShape), the constant values of
// inputs where the driver knows them (InputValue: e.g. a Reshape's shape from an initializer),
// and attributes (the node's, or the schema's default). It sets each output's type
// (SetOutputType) and, for small integer results, may set the value too (SetOutputValue).
//
// What a rule cannot decide it leaves unknown. It returns an error Status only when the
// inputs contradict the operator ("input 1: expected rank 2, got rank 3"); the driver adds
// where (graph, node, op) and keeps going. Warn() records a finding that is not an error.
//
//   Status InferRelu(InferenceContext& ctx) {
//     ctx.SetOutputType(0, ctx.InputType(0));
//     return OkStatus();
//   }
#ifndef ONNX_INFER_SCHEMA_INFERENCE_CONTEXT_H_
#define ONNX_INFER_SCHEMA_INFERENCE_CONTEXT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/schema/diagnostic_codes.h"
#include "onnx_infer/schema/op_schema.h"
#include "onnx_infer/schema/type.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {

// Implemented by the driver: infers a graph held by one of the node's attributes (an If
// branch, a Loop or Scan body) as a subgraph that sees the enclosing scopes, annotates it,
// and returns the types of its outputs. Each call replaces the previous call's findings for
// the same attribute, so a rule can iterate (Loop's fixpoint).
class SubgraphInferencer {
 public:
  virtual ~SubgraphInferencer() = default;
  // `input_types[i]` is merged with what the subgraph declares for its input i.
  virtual StatusOr<std::vector<Type>> InferSubgraph(std::string_view attribute,
                                                    const std::vector<Type>& input_types) = 0;
  // The values of the graph's outputs that its last inference found (a shape computed in an
  // If branch), parallel to the types InferSubgraph returned; empty when there is none.
  virtual std::vector<std::optional<ConstValue>> SubgraphOutputValues(
      std::string_view attribute) const {
    (void)attribute;
    return {};
  }
  // The subgraph the last InferSubgraph of `attribute` inferred never runs (an If branch
  // that a known condition excludes): its errors and warnings become notes that start with
  // `reason`, since they cannot happen. Its types are still written into it.
  virtual void NotTaken(std::string_view attribute, std::string_view reason) {
    (void)attribute;
    (void)reason;
  }
};

// Implemented by the driver: the value of an input the driver has not read yet (an
// initializer's elements are decoded the first time a rule asks for them, not for every
// weight a rule never looks at).
class InputValueReader {
 public:
  virtual ~InputValueReader() = default;
  // Input i's value, or null when it has none.
  virtual const ConstValue* Read(int i) = 0;
};

class InferenceContext {
 public:
  // `input_types[i]` / `input_values[i]` may be null (input absent, or nothing known). The
  // context keeps references to both lists: they must outlive it.
  InferenceContext(const onnx::NodeProto& node, const OpSchema& schema, int64_t opset_version,
                   const std::vector<const Type*>& input_types,
                   const std::vector<const ConstValue*>& input_values);
  // The same, with the outputs' types and values set in the caller's lists rather than lists
  // of the context's own: sized to the node's outputs here (all unknown), their capacity kept,
  // so that a caller inferring node after node (the driver) allocates them once. The lists
  // must outlive the context.
  InferenceContext(const onnx::NodeProto& node, const OpSchema& schema, int64_t opset_version,
                   const std::vector<const Type*>& input_types,
                   const std::vector<const ConstValue*>& input_values,
                   std::vector<Type>* output_types,
                   std::vector<std::optional<ConstValue>>* output_values);
  // Makes `types` and `values` `n` unknown types and no values, their capacity kept: what
  // the constructor above does to the caller's lists.
  static void ResetOutputs(size_t n, std::vector<Type>& types,
                           std::vector<std::optional<ConstValue>>& values);
  // It refers to its lists (its own or the caller's): not copied.
  InferenceContext(const InferenceContext&) = delete;
  InferenceContext& operator=(const InferenceContext&) = delete;
  // Temporaries would dangle: refused at compile time.
  InferenceContext(const onnx::NodeProto&, const OpSchema&, int64_t, std::vector<const Type*>&&,
                   const std::vector<const ConstValue*>&) = delete;
  InferenceContext(const onnx::NodeProto&, const OpSchema&, int64_t,
                   const std::vector<const Type*>&, std::vector<const ConstValue*>&&) = delete;

  const onnx::NodeProto& node() const { return node_; }
  const OpSchema& schema() const { return schema_; }
  // The version of the node's domain the model imports (>= schema().since_version()).
  int64_t opset_version() const { return opset_version_; }

  // ---- Inputs. Index i is the node's i-th input; an omitted optional input has an empty
  // name and counts as absent.
  int NumInputs() const { return static_cast<int>(input_types_.size()); }
  bool HasInput(int i) const;
  // The input's type; the unknown type when absent or not known.
  const Type& InputType(int i) const;
  // The input's shape when it is a tensor of known rank; null otherwise.
  const Shape* InputShape(int i) const;
  // The input's value when the driver knows it; null otherwise.
  const ConstValue* InputValue(int i) const;

  // ---- Attributes: the node's, else the schema's default. Errors name the attribute.
  bool HasAttr(std::string_view name) const;  // given on the node or defaulted
  const onnx::AttributeProto* Attr(std::string_view name) const;
  StatusOr<int64_t> IntAttr(std::string_view name) const;
  StatusOr<int64_t> IntAttr(std::string_view name, int64_t fallback) const;
  StatusOr<float> FloatAttr(std::string_view name, float fallback) const;
  StatusOr<std::string> StringAttr(std::string_view name, std::string fallback) const;
  // `fallback` applies when the attribute is neither given nor defaulted.
  StatusOr<std::vector<int64_t>> IntsAttr(std::string_view name) const;
  StatusOr<std::optional<std::vector<int64_t>>> OptionalIntsAttr(std::string_view name) const;
  // The same for every other attribute type: the one-argument form is an error when the
  // attribute is absent (neither given nor defaulted), the Optional form is nullopt then.
  StatusOr<float> FloatAttr(std::string_view name) const;
  StatusOr<std::string> StringAttr(std::string_view name) const;
  StatusOr<std::vector<float>> FloatsAttr(std::string_view name) const;
  StatusOr<std::optional<std::vector<float>>> OptionalFloatsAttr(std::string_view name) const;
  StatusOr<std::vector<std::string>> StringsAttr(std::string_view name) const;
  StatusOr<std::optional<std::vector<std::string>>> OptionalStringsAttr(
      std::string_view name) const;
  // A graph attribute (a subgraph), or null when absent.
  StatusOr<const onnx::GraphProto*> GraphAttr(std::string_view name) const;
  // Whether `status` is an accessor's error that the signature check, run before every rule,
  // has reported already: "required but not given" for an attribute the schema marks
  // required, or "expected type ..." for one the node gives with another type than the
  // schema's.
  bool ReportedBySignature(const Status& status) const;

  // ---- Outputs. An omitted optional output has an empty name.
  int NumOutputs() const { return static_cast<int>(output_types_.size()); }
  bool HasOutput(int i) const;
  const Type& OutputType(int i) const { return output_types_.at(i); }
  void SetOutputType(int i, Type type);
  // A value of an integer or bool type made from symbolic floats records the conditions they
  // carry (ConstValue::conditions) here.
  void SetOutputValue(int i, ConstValue value);
  const std::optional<ConstValue>& OutputValue(int i) const { return output_values_.at(i); }
  // For the driver, once the rule has run: the outputs' types and values, moved out (the
  // context's own are left empty).
  std::vector<Type> TakeOutputTypes() { return std::move(output_types_); }
  std::vector<std::optional<ConstValue>> TakeOutputValues() { return std::move(output_values_); }

  // ---- Helpers for the common steps of a rule.
  // Output `out` becomes a tensor with input `in`'s element type (its shape is kept).
  void PropagateElemType(int in, int out);
  // Output `out` becomes a tensor of this shape (its element type is kept).
  void SetOutputShape(int out, Shape shape);
  // Maps a possibly negative axis into [0, rank); an error names the attribute.
  StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank, std::string_view what) const;
  // The same about an attribute or input, which the error carries (Status::subject).
  StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const Subject& what) const;

  // ---- Subgraphs (control-flow operators).
  void set_subgraph_inferencer(SubgraphInferencer* s) { subgraphs_ = s; }
  // Where InputValue reads a value the input lists leave null (null: nowhere).
  void set_input_value_reader(InputValueReader* r) { value_reader_ = r; }
  // Infers the graph in attribute `attribute`; an error when the driver offers no subgraph
  // inference or the attribute holds no graph.
  StatusOr<std::vector<Type>> InferSubgraph(std::string_view attribute,
                                            const std::vector<Type>& input_types);
  // The output values the last InferSubgraph of `attribute` found (parallel to its types;
  // empty when there is none or no subgraph inference). A rule that passes one subgraph's
  // outputs through (an If whose condition is known) passes these on with SetOutputValue.
  std::vector<std::optional<ConstValue>> SubgraphOutputValues(std::string_view attribute) const;
  // Says the subgraph in `attribute` never runs (SubgraphInferencer::NotTaken).
  void SubgraphNotTaken(std::string_view attribute, std::string_view reason);
  // A symbol for a dim that no expression describes (the merged dim of two If branches, a
  // Loop's trip count), named after where it comes from: symbolic::FreshSymbol(output name,
  // axis), e.g. "y__d0".
  Dim FreshDim(int output, int axis) const;
  // A value's element that the rule knows only to lie in [lo, hi] (an element of a constant
  // table read at an index that is not known): the constant when lo == hi, else a symbol
  // "<output name>__e<element>" (element: row-major) with those bounds recorded, `what` saying
  // where they come from ("an element of constant 'sizes' [3 values]"). Unknown when no
  // symbol can stand for it: lo < 0 (a symbol is a size, >= 0), the rule runs alone (no
  // unifier to hold the bounds), the driver keeps no values (values_kept), or the node is in
  // a subgraph or function body, which may run more than once with other values (one symbol
  // would say they are equal).
  Dim BoundedValueElement(int output, int64_t element, int64_t lo, int64_t hi,
                          std::string_view what);
  // Where the driver keeps the symbols rules introduce (FreshDim, and dims replaced for
  // being too large): name -> origin ("node 'if0' (If): output 0 'y' dim 0"). Null when a
  // rule runs alone.
  using SymbolLog = std::map<std::string, std::string>;
  void set_symbol_log(SymbolLog* log) { symbol_log_ = log; }

  // ---- Facts about symbols (docs/symbolic.md, "Unifier"). The driver gives every node of
  // one InferShapes run the same symbolic::Unifier, so that N == M learnt at one node holds
  // at the next; it is null when a rule runs alone (unit tests), and then nothing is
  // recorded. Output shapes set through SetOutputShape/SetOutputType are resolved through it
  // (N becomes 5 once N == 5 is known), and a dim larger than symbolic::kMaxExprSize
  // becomes a fresh symbol named after the output and axis, with a warning.
  void set_unifier(symbolic::Unifier* unifier) { unifier_ = unifier; }
  // The node is inside a subgraph or function body (depth > 0), which may not run (an If
  // branch not taken, a Loop of 0 iterations): a fact that holds only when the node runs (a
  // literal Reshape target's element count) must not be recorded as the whole model's.
  void set_nested(bool nested) { nested_ = nested; }
  bool nested() const { return nested_; }
  symbolic::Unifier* unifier() const { return unifier_; }
  // Records a == b; `what` says which dims ("contracted dims"). An error when it
  // contradicts an earlier fact (the message names both origins).
  Status RecordEqual(Dim a, Dim b, std::string_view what);
  // Records lo <= d <= hi (either may be absent), a range the model requires (TopK's k within
  // its axis); `what` says why. An error when it contradicts what is known.
  Status RecordRange(Dim d, std::optional<int64_t> lo, std::optional<int64_t> hi,
                     std::string_view what);
  // Records a condition the model must meet that is not an equation (a symbolic
  // broadcast's "N == M or N == 1 or M == 1").
  void RecordCondition(std::string_view condition);
  // Records that a result of the node holds only under the user's assumptions `used` ("N >=
  // 2"): `what` says which ("the value of output 0 'c' is false").
  void RecordAssumed(std::string_view used, std::string_view what);

  // Whether the driver keeps the values rules set (data propagation; without it only
  // constants carry values): when not, BoundedValueElement introduces no symbol, whose bounds
  // would be reported for a value nothing reads.
  bool values_kept() const { return values_kept_; }
  void set_values_kept(bool kept) { values_kept_ = kept; }

  // The largest tensor (in elements) whose value a rule should record with SetOutputValue.
  int64_t max_value_elements() const { return max_value_elements_; }
  void set_max_value_elements(int64_t n) { max_value_elements_ = n; }

  // A finding that is not an error (a lossy step, a suspicious value), of the kind `code`
  // says (docs/diagnostics.md). A warning about an input, output or attribute names it in
  // `subject` too (its message starts with it: "input 1 'b': ...").
  void Warn(std::string message, Subject subject = {}, DiagCode code = DiagCode::kRuleWarning) {
    Rare& rare = MakeRare();
    rare.warnings.push_back(std::move(message));
    rare.warning_subjects.push_back(std::move(subject));
    rare.warning_codes.push_back(code);
  }
  const std::vector<std::string>& warnings() const {
    return rare_ ? rare_->warnings : None().warnings;
  }
  const std::vector<Subject>& warning_subjects() const {
    return rare_ ? rare_->warning_subjects : None().warning_subjects;
  }
  const std::vector<DiagCode>& warning_codes() const {
    return rare_ ? rare_->warning_codes : None().warning_codes;
  }

 private:
  StatusOr<const onnx::AttributeProto*> TypedAttr(std::string_view name, AttrType type) const;
  // The error for a required attribute the node does not give (see ReportedBySignature).
  Status Absent(std::string_view name) const;
  // Resolves the shape of `type` (output `out`, which has a shape) through the unifier and
  // caps the size of its dims.
  void FinishShape(int out, Type& type);
  // "node 'mm' (MatMul)", or by its first output when the node has no name.
  std::string Origin() const;

  const onnx::NodeProto& node_;
  const OpSchema& schema_;
  int64_t opset_version_;
  // The caller's lists, not copies (the driver reuses its lists from node to node): they
  // outlive the context. input_values_ may be shorter than input_types_.
  const std::vector<const Type*>& input_types_;
  const std::vector<const ConstValue*>& input_values_;
  // What few contexts have, made when first needed, so that a context that has none of it
  // (most: a driver makes one per node) is made and freed without these lists.
  struct Rare {
    // The outputs, when the caller gives no lists of its own (see the constructors).
    std::vector<Type> output_types;
    std::vector<std::optional<ConstValue>> output_values;
    std::vector<std::string> warnings;
    std::vector<Subject> warning_subjects;  // parallel to warnings
    std::vector<DiagCode> warning_codes;    // parallel to warnings
    // The message of an accessor's error the signature check has reported already
    // (ReportedBySignature).
    std::string reported_by_signature;
  };
  mutable std::unique_ptr<Rare> rare_;
  Rare& MakeRare() const {
    if (!rare_) rare_ = std::make_unique<Rare>();
    return *rare_;
  }
  static const Rare& None();  // all empty
  // The outputs: in the context's own lists (Rare), or the caller's.
  std::vector<Type>& output_types_;
  std::vector<std::optional<ConstValue>>& output_values_;
  int64_t max_value_elements_ = 1024;
  SubgraphInferencer* subgraphs_ = nullptr;
  InputValueReader* value_reader_ = nullptr;
  symbolic::Unifier* unifier_ = nullptr;
  bool nested_ = false;
  bool values_kept_ = true;
  SymbolLog* symbol_log_ = nullptr;
  // Notes a symbol introduced for output `out`, axis `axis`.
  void LogSymbol(Dim symbol, int out, int64_t axis) const;
};

// "input 1 'B'" / "output 0 'Y'": names a node's value in a message.
std::string InputLabel(const InferenceContext& ctx, int i);
Subject InputSubject(const InferenceContext& ctx, int i);

// A rule's error of the kind `code` (schema/diagnostic_codes.h, docs/diagnostics.md), which
// the driver reports as Diagnostic::code: every error a rule returns states its kind.
Status RuleError(DiagCode code, std::string message, Subject subject = {});

// Errors about one input, output or attribute: the message starts with it ("input 1 'B':
// <detail>", "output 0 'Y': ...", "attribute 'axis': ...") and the Status carries it as its
// subject, which the driver reports (Diagnostic::subject), and `code`, the kind of finding
// (DiagCode::kInputRank, kInputDims, ...). An attribute's error is about its value unless
// said otherwise.
Status InputError(const InferenceContext& ctx, int i, DiagCode code, std::string_view detail);
Status OutputError(const InferenceContext& ctx, int i, DiagCode code, std::string_view detail);
Status AttrError(std::string_view name, std::string_view detail,
                 DiagCode code = DiagCode::kAttributeValue);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_INFERENCE_CONTEXT_H_
