#include "onnx_infer/inference/graph_order.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <iterator>
#include <span>

namespace onnx_infer {

NodeOrder OrderNodes(const std::vector<std::vector<int>>& producers) {
  ProducerLists lists;
  lists.offsets.push_back(0);
  for (const auto& p : producers) {
    lists.nodes.insert(lists.nodes.end(), p.begin(), p.end());
    lists.offsets.push_back(static_cast<int>(lists.nodes.size()));
  }
  return OrderNodes(lists);
}

NodeOrder OrderNodes(const ProducerLists& producers) {
  const int n = producers.size();
  // Node i's producers.
  auto of = [&producers](int i) {
    return std::span<const int>(producers.begin(i), producers.end(i));
  };
  NodeOrder result;
  bool sorted = true;
  for (int i = 0; i < n && sorted; ++i) {
    for (int p : of(i)) sorted = sorted && p < i;
  }
  if (sorted) {
    result.order.resize(n);
    for (int i = 0; i < n; ++i) result.order[i] = i;
    return result;
  }

  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(n);
  std::vector<bool> self_loop(n, false);
  for (int i = 0; i < n; ++i) {
    for (int p : of(i)) {
      if (p == i) self_loop[i] = true;
      boost::add_edge(p, i, g);
    }
  }
  std::vector<int> component(n);
  const int num_components = boost::strong_components(g, component.data());
  std::vector<std::vector<int>> members(num_components);
  for (int i = 0; i < n; ++i) members[component[i]].push_back(i);
  std::vector<bool> cyclic(n, false);
  for (auto& m : members) {
    if (m.size() > 1 || self_loop[m[0]]) {
      for (int i : m) cyclic[i] = true;
      result.cycles.push_back(m);
    }
  }
  std::sort(result.cycles.begin(), result.cycles.end());

  // Without the cyclic nodes the graph is acyclic.
  Graph dag(n);
  for (int i = 0; i < n; ++i) {
    if (cyclic[i]) continue;
    for (int p : of(i)) {
      if (!cyclic[p]) boost::add_edge(p, i, dag);
    }
  }
  std::vector<int> reversed;
  boost::topological_sort(dag, std::back_inserter(reversed));
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
    if (!cyclic[*it]) result.order.push_back(*it);
  }
  return result;
}

}  // namespace onnx_infer
