// SymbolContext: which context a Dim is made in, how long it lives, and threads.
#include "onnx_infer/symbolic/context.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer::symbolic {
namespace {

// A few nodes of every kind: symbols, sums, products, floor, ceiling, Mod, Min, Max.
Dim Workload(int i) {
  Dim n = Dim::Symbol("N"), m = Dim::Symbol("M" + std::to_string(i % 7));
  Dim e = (n + Dim::Const(i % 5)) * (m + Dim::Const(1));
  e = e + Dim::FloorDiv(n * m, Dim::Const(4)) + Dim::CeilDiv(n, m) + Dim::Mod(n + m, Dim::Const(3));
  return Dim::Max(Dim::Min(e, n), m + Dim::Const(2)) + e;
}

TEST(SymbolContextTest, WithoutAScopeDimsAreMadeInTheDefaultContext) {
  EXPECT_EQ(&SymbolContext::Current(), &SymbolContext::Default());
  const size_t before = SymbolContext::Default().node_count();
  Dim::Symbol("only_in_the_default_context");
  EXPECT_EQ(SymbolContext::Default().node_count(), before + 1);
}

TEST(SymbolContextTest, ScopesNestAndRestoreThePreviousContext) {
  SymbolContext outer, inner;
  {
    SymbolContext::Scope a(outer);
    EXPECT_EQ(&SymbolContext::Current(), &outer);
    {
      SymbolContext::Scope b(inner);
      EXPECT_EQ(&SymbolContext::Current(), &inner);
      Dim::Symbol("X");
    }
    EXPECT_EQ(&SymbolContext::Current(), &outer);
  }
  EXPECT_EQ(&SymbolContext::Current(), &SymbolContext::Default());
  EXPECT_EQ(inner.node_count(), 1u);
  EXPECT_EQ(outer.node_count(), 0u);
}

TEST(SymbolContextTest, DimsAreInternedPerContext) {
  const size_t default_before = SymbolContext::Default().node_count();
  SymbolContext first, second;
  Dim a, a_again, b;
  {
    SymbolContext::Scope scope(first);
    a = Workload(3);
    a_again = Workload(3);
  }
  {
    SymbolContext::Scope scope(second);
    b = Workload(3);
  }
  EXPECT_EQ(a, a_again);  // one context: the same expression is the same node
  EXPECT_NE(a, b);        // two contexts: two nodes of the same expression
  EXPECT_EQ(a.ToString(), b.ToString());
  EXPECT_EQ(first.node_count(), second.node_count());
  EXPECT_GT(first.node_count(), 10u);
  EXPECT_EQ(SymbolContext::Default().node_count(), default_before);
}

TEST(SymbolContextTest, DestroyingAContextReleasesItsNodes) {
  const size_t default_before = SymbolContext::Default().node_count();
  const int64_t live_before = SymbolContext::LiveContexts();  // the default one included
  auto context = std::make_unique<SymbolContext>();
  EXPECT_EQ(SymbolContext::LiveContexts(), live_before + 1);
  std::string printed;
  {
    SymbolContext::Scope scope(*context);
    for (int i = 0; i < 100; ++i) printed = Workload(i).ToString();
    EXPECT_EQ(ParseDim(printed)->ToString(), printed);
  }
  EXPECT_GT(context->node_count(), 100u);
  context.reset();
  EXPECT_EQ(SymbolContext::LiveContexts(), live_before);
  EXPECT_EQ(SymbolContext::Default().node_count(), default_before);
}

TEST(SymbolContextDeathTest, CombiningDimsOfTwoContextsAbortsInDebugBuilds) {
  SymbolContext first, second;
  Dim n;
  {
    SymbolContext::Scope scope(first);
    n = Dim::Symbol("N");
  }
  SymbolContext::Scope scope(second);
  EXPECT_DEBUG_DEATH((void)(n + Dim::Const(1)), "another SymbolContext");
}

TEST(SymbolContextTest, AScopeIsPerThread) {
  SymbolContext mine;
  SymbolContext::Scope scope(mine);
  const SymbolContext* seen_by_other_thread = nullptr;
  std::thread other([&] { seen_by_other_thread = &SymbolContext::Current(); });
  other.join();
  EXPECT_EQ(seen_by_other_thread, &SymbolContext::Default());
  EXPECT_EQ(&SymbolContext::Current(), &mine);
}

// Threads with contexts of their own never share a node, and agree on what they compute.
TEST(SymbolContextTest, ThreadsWithTheirOwnContexts) {
  std::vector<std::string> expected;
  for (int i = 0; i < 50; ++i) expected.push_back(Workload(i).ToString());
  constexpr int kThreads = 8;
  std::vector<std::unique_ptr<SymbolContext>> contexts;
  for (int t = 0; t < kThreads; ++t) contexts.push_back(std::make_unique<SymbolContext>());
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SymbolContext::Scope scope(*contexts[t]);
      for (int round = 0; round < 4; ++round) {
        for (int i = 0; i < 50; ++i) mismatches[t] += Workload(i).ToString() != expected[i];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
    EXPECT_EQ(contexts[t]->node_count(), contexts[0]->node_count());
  }
}

// Threads sharing one context get the very same nodes.
TEST(SymbolContextTest, ThreadsSharingOneContext) {
  SymbolContext shared;
  constexpr int kThreads = 8;
  std::vector<std::vector<Dim>> made(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SymbolContext::Scope scope(shared);
      for (int i = 0; i < 50; ++i) made[t].push_back(Workload((i + 7 * t) % 50));
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ(made[t][i], made[0][(i + 7 * t) % 50]) << "thread " << t << " item " << i;
    }
  }
  SymbolContext::Scope scope(shared);
  EXPECT_EQ(Workload(11), made[0][11]);
}

}  // namespace
}  // namespace onnx_infer::symbolic
