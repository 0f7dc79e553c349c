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

// The nodes whose outputs each node consumes, in one flat list: node i's are
// nodes[offsets[i]] to nodes[offsets[i + 1] - 1] (offsets has one entry per node, plus one).
struct ProducerLists {
  std::vector<int> offsets;
  std::vector<int> nodes;
  int size() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
  const int* begin(int i) const { return nodes.data() + offsets[i]; }
  const int* end(int i) const { return nodes.data() + offsets[i + 1]; }
};

// A list already in order keeps its order; otherwise Boost.Graph finds the cycles and sorts
// the rest topologically.
NodeOrder OrderNodes(const ProducerLists& producers);
// The same, `producers[i]` listing the nodes whose outputs node i consumes.
NodeOrder OrderNodes(const std::vector<std::vector<int>>& producers);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_GRAPH_ORDER_H_
