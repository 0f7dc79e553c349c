// Orders a graph's nodes so that every node comes after the producers of its inputs.
#ifndef ONNX_INFER_INFERENCE_GRAPH_ORDER_H_
#define ONNX_INFER_INFERENCE_GRAPH_ORDER_H_

#include <vector>

namespace onnx_infer {

struct NodeOrder {
  // Node indices in an order where producers come first. Nodes on a cycle are left out.
  std::vector<int> order;
  // Each cycle's nodes (a strongly connected component of more than one node, or a node that
  // consumes its own output), by ascending index.
  std::vector<std::vector<int>> cycles;
};

// `producers[i]` lists the nodes whose outputs node i consumes. A list already in order keeps
// its order; otherwise Boost.Graph finds the cycles and sorts the rest topologically.
NodeOrder OrderNodes(const std::vector<std::vector<int>>& producers);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_GRAPH_ORDER_H_
