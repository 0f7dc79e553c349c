#include "onnx_infer/inference/graph_order.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace onnx_infer {
namespace {

using Order = std::vector<int>;

bool ProducersFirst(const std::vector<std::vector<int>>& producers, const Order& order) {
  std::vector<int> position(producers.size(), -1);
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
  for (int node : order) {
    for (int p : producers[node]) {
      if (position[p] >= 0 && position[p] > position[node]) return false;
    }
  }
  return true;
}

TEST(GraphOrderTest, SortedListKeepsItsOrder) {
  NodeOrder o = OrderNodes({{}, {0}, {0, 1}, {}});
  EXPECT_EQ(o.order, (Order{0, 1, 2, 3}));
  EXPECT_TRUE(o.cycles.empty());
}

TEST(GraphOrderTest, OutOfOrderListIsSorted) {
  // 0 consumes 2, 2 consumes 1.
  std::vector<std::vector<int>> producers = {{2}, {}, {1}, {0}};
  NodeOrder o = OrderNodes(producers);
  ASSERT_EQ(o.order.size(), 4u);
  EXPECT_TRUE(ProducersFirst(producers, o.order));
  EXPECT_TRUE(o.cycles.empty());
}

TEST(GraphOrderTest, CyclesAreFoundAndLeftOut) {
  // 1 -> 2 -> 3 -> 1 is a cycle; 4 feeds on 3; 5 consumes itself; 0 is free.
  std::vector<std::vector<int>> producers = {{}, {3}, {1}, {2}, {3}, {5}};
  NodeOrder o = OrderNodes(producers);
  EXPECT_EQ(o.cycles, (std::vector<std::vector<int>>{{1, 2, 3}, {5}}));
  std::sort(o.order.begin(), o.order.end());
  EXPECT_EQ(o.order, (Order{0, 4}));
}

TEST(GraphOrderTest, FlatListsGiveTheSameOrder) {
  // The cycle test's graph, as the driver passes it: node i's producers are
  // nodes[offsets[i]] .. nodes[offsets[i + 1] - 1].
  ProducerLists lists;
  lists.offsets = {0, 0, 1, 2, 3, 4, 5};
  lists.nodes = {3, 1, 2, 3, 5};
  NodeOrder o = OrderNodes(lists);
  EXPECT_EQ(o.cycles, (std::vector<std::vector<int>>{{1, 2, 3}, {5}}));
  std::sort(o.order.begin(), o.order.end());
  EXPECT_EQ(o.order, (Order{0, 4}));

  // Already in order: kept.
  lists.offsets = {0, 0, 1, 3};
  lists.nodes = {0, 0, 1};
  EXPECT_EQ(OrderNodes(lists).order, (Order{0, 1, 2}));
}

TEST(GraphOrderTest, Empty) {
  NodeOrder o = OrderNodes(std::vector<std::vector<int>>{});
  EXPECT_TRUE(o.order.empty());
  EXPECT_TRUE(o.cycles.empty());
  NodeOrder flat = OrderNodes(ProducerLists{});
  EXPECT_TRUE(flat.order.empty());
  EXPECT_TRUE(flat.cycles.empty());
}

}  // namespace
}  // namespace onnx_infer
