// Compute cost (`infer-shapes --cost`; every operator's formula is in docs/cost.md): the
// FLOPs and MACs of every node and of the model, as expressions of the model's symbols,
// computed from the inferred types and the nodes' attributes.
//
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
//   CostEstimate cost = EstimateCost(model, result);         // `model` as annotated
//   std::cout << cost.total_flops << " FLOPs\n";              // "1536*B*S + 8192*B"
//   CostValues at = EvaluateCost(cost, {{"B", 1}, {"S", 128}});
//   if (at.total_flops) std::cout << *at.total_flops << "\n";  // any binding, any number of times
//
// A FLOP is one arithmetic operation on one element (an add, a multiply, a compare, a divide,
// an exp...); a multiply-add is 2 FLOPs and 1 MAC. MACs count only the multiply-adds of
// products (MatMul, Gemm, Conv, attention's products, Einsum), so FLOPs = 2 x MACs + the
// other operations. Data movement (Reshape, Transpose, Gather, Concat, Slice...) is 0 FLOPs.
// An operator without a formula is listed as such, never guessed: the totals then leave it
// out and are lower bounds (`CostEstimate::lower_bound`).
#ifndef ONNX_INFER_INFERENCE_COST_H_
#define ONNX_INFER_INFERENCE_COST_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

// How a node's cost was found.
enum class CostKind {
  kFormula,       // computed by the operator's formula (flops may still be unknown: `note`)
  kDataMovement,  // moves or reinterprets data only: 0 FLOPs, 0 MACs
  kNoFormula,     // no formula for the operator: flops and macs unknown
};

// "formula", "data movement", "no formula".
const char* CostKindName(CostKind kind);

struct NodeCost {
  std::string graph;  // "main", "main/If_3.then_branch" (InferenceResult::value_types' paths)
  int node_index = -1;
  std::string node_name;
  std::string domain;  // "" for ai.onnx
  std::string op_type;
  CostKind kind = CostKind::kFormula;
  // The node's FLOPs and MACs; unknown for kNoFormula, or when a shape the formula needs is
  // not known (then `note` says which). For If, Loop, Scan and function calls they include
  // the nodes of the subgraphs or body (listed on their own as well, under their path).
  symbolic::Dim flops;
  symbolic::Dim macs;
  // Some node inside this node's subgraphs or function body has no known cost: flops and
  // macs are lower bounds.
  bool lower_bound = false;
  // A Loop whose trip count is not known: flops and macs are those of one iteration.
  bool per_iteration = false;
  std::string note;  // why unknown, or how a control-flow node was counted
};

struct CostEstimate {
  // Every node of every graph, by graph path (main first, each subgraph or function body
  // after the node that holds it), in the model's order.
  std::vector<NodeCost> nodes;
  // The sums over the main graph's nodes of the known flops and macs.
  symbolic::Dim total_flops;
  symbolic::Dim total_macs;
  // Nodes (at any depth) whose cost is not known, by op ("com.microsoft::Foo" outside ai.onnx)
  // with how many of each: without a formula, and with a formula but unknown shapes.
  std::map<std::string, int64_t> ops_without_formula;
  int64_t nodes_without_formula = 0;
  int64_t nodes_unknown_shape = 0;
  // The totals leave out some node's cost (one of the two counts above, at any depth, or a
  // control-flow node of unknown cost): they are lower bounds.
  bool lower_bound = false;
  // Loops (at any depth) counted for one iteration since their trip count is not known: the
  // totals are then per iteration of those loops (neither a lower nor an upper bound).
  int64_t per_iteration_loops = 0;
  // The context of the Dims above (the result's), kept alive with them.
  std::shared_ptr<symbolic::SymbolContext> symbol_context;
};

// Estimates the cost of `model`, annotated by the inference that gave `result` (which must
// have recorded the value types: InferenceOptions::record_value_types).
CostEstimate EstimateCost(const onnx::ModelProto& model, const InferenceResult& result);

// A binding of symbols to values (`--bind B=1,S=128`).
using CostBinding = std::map<std::string, int64_t, std::less<>>;

// The numbers of a CostEstimate under one binding: nullopt where the expression is unknown,
// uses a symbol the binding does not give, or overflows int64.
struct CostValues {
  struct Node {
    std::optional<int64_t> flops;
    std::optional<int64_t> macs;
  };
  std::vector<Node> nodes;  // parallel to CostEstimate::nodes
  std::optional<int64_t> total_flops;
  std::optional<int64_t> total_macs;
  std::vector<std::string> unbound_symbols;  // used by the totals, absent from the binding
};

// Evaluates `cost` under `binding`; the estimate is left as it is, so it can be evaluated
// under any number of bindings.
CostValues EvaluateCost(const CostEstimate& cost, const CostBinding& binding);

// A count for people: "1536*B*S + 8192*B", or for a constant "180355072 (180.4 M)"; "?" when
// unknown.
std::string FormatCount(const symbolic::Dim& count);
std::string FormatCount(int64_t count);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_COST_H_
