// The stable codes of diagnostics: one per kind of finding, never per place that reports it.
//
// Each code has a number (rendered "OI2101"), a kebab name ("signature") and a one-line
// summary; docs/diagnostics.md says for each what triggers it and what to do, with a model
// that triggers it (testdata/diagnostics/, checked by //testdata:diagnostics_doc_test).
// Numbers are grouped by range:
//   OI1xxx  the model: loading, opset imports, graph structure
//   OI2xxx  operators: schema lookup, signature, type constraints
//   OI3xxx  a rule rejects a node: input ranks, dims, broadcasting, kinds and element types,
//           input values, attribute values, axes, facts
//   OI4xxx  declared types
//   OI5xxx  the options (--bind, --input-shape, --set-input, --assume)
//   OI6xxx  subgraphs and functions
//   OI7xxx  limits
//   OI8xxx  custom schemas
// A code, once published, keeps its number and meaning; a retired one is not reused.
#ifndef ONNX_INFER_SCHEMA_DIAGNOSTIC_CODES_H_
#define ONNX_INFER_SCHEMA_DIAGNOSTIC_CODES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/status.h"

namespace onnx_infer {

// X(enumerator, number, name, severity, summary): the one table of codes.
#define ONNX_INFER_DIAGNOSTIC_CODES(X)                                                          \
  X(kModelUnreadable, 1001, "model-unreadable", "error",                                        \
    "the model file cannot be read or parsed")                                                  \
  X(kOpsetNewer, 1101, "opset-newer", "warning (error under --strict)",                         \
    "the model imports an opset newer than this build knows")                                   \
  X(kOpsetInvalid, 1102, "opset-invalid", "error",                                              \
    "the model imports an opset version that does not exist")                                   \
  X(kOpsetMissing, 1103, "opset-missing", "error (warning for onnxruntime's domains)",          \
    "a node's domain is not imported")                                                          \
  X(kUndefinedElemType, 1201, "undefined-elem-type", "error",                                   \
    "a graph input or initializer has element type UNDEFINED")                                  \
  X(kUndefinedValue, 1202, "undefined-value", "error",                                          \
    "a node input or graph output names no value")                                              \
  X(kDuplicateDefinition, 1203, "duplicate-definition", "error",                                \
    "a value is defined more than once")                                                        \
  X(kGraphCycle, 1204, "graph-cycle", "error", "nodes form a cycle")                            \
  X(kInitializerMismatch, 1205, "initializer-mismatch", "error",                                \
    "an initializer contradicts the graph input of its name")                                   \
  X(kDimParam, 1206, "dim-param", "warning", "a dim_param is kept as an opaque symbol")         \
  X(kExternalData, 1301, "external-data", "warning",                                            \
    "an initializer's external data cannot be read")                                            \
  X(kUnknownOperator, 2001, "unknown-operator", "error",                                        \
    "an operator of an ONNX domain does not exist in the imported opset")                       \
  X(kNoSchema, 2002, "no-schema", "warning (error under --strict)",                             \
    "no schema for an operator of a custom or known non-ONNX domain")                           \
  X(kDeprecatedOperator, 2003, "deprecated-operator", "warning",                                \
    "the operator is deprecated in the imported opset")                                         \
  X(kNoRule, 2004, "no-rule", "note (error under --strict)",                                    \
    "no inference rule for the operator: its outputs are left unknown")                         \
  X(kSignature, 2101, "signature", "error",                                                     \
    "the node does not match its operator's signature: input/output counts, attributes")        \
  X(kTypeConstraint, 2201, "type-constraint", "error (warning with --no-check-types)",          \
    "an input's type is not allowed by its type constraint")                                    \
  X(kInputRank, 3001, "input-rank", "error", "an input's rank is not one the operator accepts") \
  X(kInputDims, 3002, "input-dims", "error",                                                    \
    "an input's dims do not fit the operator or the other inputs")                              \
  X(kBroadcast, 3003, "broadcast", "error", "input shapes do not broadcast")                    \
  X(kInputKind, 3004, "input-kind", "error",                                                    \
    "an input's kind or element type is not one the operator's rule accepts")                   \
  X(kInputValue, 3005, "input-value", "error", "a constant input's value is invalid")           \
  X(kInputCombination, 3006, "input-combination", "error",                                      \
    "optional inputs, outputs or attributes are given in a combination the operator rejects")   \
  X(kAttributeValue, 3101, "attribute-value", "error", "an attribute's value is invalid")       \
  X(kAxisRange, 3102, "axis-range", "error", "an axis is out of range for the rank")            \
  X(kFactContradiction, 3201, "fact-contradiction", "error",                                    \
    "the node's dims contradict a fact learnt earlier about the symbols")                       \
  X(kRuleWarning, 3301, "rule-warning", "warning",                                              \
    "a rule accepts the node but finds something suspicious")                                   \
  X(kDeclaredContradiction, 4001, "declared-contradiction", "error (see --policy)",             \
    "an inferred type contradicts the type the model declares")                                 \
  X(kOptionContradiction, 5001, "option-contradiction", "error",                                \
    "what the options fix contradicts the model")                                               \
  X(kOptionInvalid, 5002, "option-invalid", "error",                                            \
    "an option is malformed or does not fit the model")                                         \
  X(kOptionUnused, 5003, "option-unused", "warning",                                            \
    "an option names a symbol the model does not have")                                         \
  X(kSubgraphMismatch, 6001, "subgraph-mismatch", "error",                                      \
    "a subgraph's inputs or outputs do not fit the node that holds it")                         \
  X(kFunctionRecursion, 6101, "function-recursion", "error", "a function calls itself")         \
  X(kFunctionArity, 6102, "function-arity", "error",                                            \
    "a function call gives more inputs or outputs than the function has")                       \
  X(kNestingLimit, 7001, "nesting-limit", "error",                                              \
    "subgraphs or function calls are nested too deeply")                                        \
  X(kExpansionLimit, 7002, "expansion-limit", "error",                                          \
    "function expansion exceeds its node budget")                                               \
  X(kExpressionCap, 7003, "expression-cap", "warning",                                          \
    "a dim expression grew past the size cap and became a fresh symbol")                        \
  X(kSchemasInvalid, 8001, "schemas-invalid", "error", "a custom schemas file cannot be read")  \
  X(kCustomRule, 8002, "custom-rule", "error",                                                  \
    "a custom operator's rule (schemas file, C++ or Python) rejects the node")

enum class DiagCode : uint16_t {
  // Never reported on purpose: a finding whose maker did not classify it. Tests fail on it
  // (//schema:diagnostic_codes_test over the rules' tests, //testdata:golden_test).
  kUnclassified = 0,
#define ONNX_INFER_DIAG_ENUM_(e, n, name, severity, summary) e = n,
  ONNX_INFER_DIAGNOSTIC_CODES(ONNX_INFER_DIAG_ENUM_)
#undef ONNX_INFER_DIAG_ENUM_
};

struct DiagCodeInfo {
  DiagCode code;
  std::string_view id;        // "OI2101"
  std::string_view name;      // "signature"
  std::string_view severity;  // the severity it is reported with, in words
  std::string_view summary;   // one line
};

// Every code but kUnclassified, in number order.
const std::vector<DiagCodeInfo>& AllDiagCodes();
// The code's row; kUnclassified has id "OI0000" and name "unclassified".
const DiagCodeInfo& InfoOf(DiagCode code);
inline std::string_view CodeId(DiagCode code) { return InfoOf(code).id; }
inline std::string_view CodeName(DiagCode code) { return InfoOf(code).name; }
// A code by its id ("OI2101") or its name ("signature"); nullopt when there is none.
std::optional<DiagCode> FindDiagCode(std::string_view id_or_name);

// `status` classified as `code` (Status::code), for the driver to report.
inline Status WithCode(Status status, DiagCode code) {
  return std::move(status).WithCode(static_cast<int>(code));
}
// A Status's code; kUnclassified when its maker gave none.
inline DiagCode CodeOf(const Status& status) { return static_cast<DiagCode>(status.code()); }

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DIAGNOSTIC_CODES_H_
