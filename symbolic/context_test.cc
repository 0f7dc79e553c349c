// SymbolContext: which context a Dim is made in, how long it lives, and threads.
#include "onnx_infer/symbolic/context.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/expr.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer::symbolic {
namespace {

// A few nodes of every kind: symbols, sums, products, floor, ceiling, Mod, Min, Max.
Dim Workload(int i) {
  Dim n = Dim::Symbol("N"), m = Dim::Symbol("M" + std::to_string(i % 7));
  Dim e = (n + Dim::Const(i % 5)) * (m + Dim::Const(1));
  e = e + Dim::FloorDiv(n * m, Dim::Const(4)) + Dim::CeilDiv(n, m) + Dim::Mod(n + m, Dim::Const(3));
  // A product, remembered by the context (its memo is shared by threads sharing it).
  e = e + Dim::Product({n, m, Dim::Const(i % 3 + 1), m + Dim::Const(1)});
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

// Interning looks a node up by a key on the stack (expr.h, NodeKey): a hit returns the node
// already there and adds nothing, a miss adds exactly one node.
TEST(InternTest, AHitReturnsTheSameNodeAndAMissAddsOne) {
  SymbolContext context;
  SymbolContext::Scope scope(context);
  const DimNode* n = Dim::Symbol("N").node();
  const DimNode* m = Dim::Symbol("M").node();
  const std::vector<Term> terms = {{m, 3}, {n, 2}};  // sorted: M before N
  NodeKey sum{Kind::kSum};
  sum.value = 7;
  sum.terms = terms;
  sum.size = 1 + 2 + 2;
  const size_t before = context.node_count();
  const DimNode* first = Intern(sum);
  EXPECT_EQ(context.node_count(), before + 1);
  EXPECT_EQ(Intern(sum), first);
  EXPECT_EQ(context.node_count(), before + 1);
  // The node holds its own copy of the terms, not the key's.
  EXPECT_NE(first->terms.data(), terms.data());
  EXPECT_EQ(first->terms, terms);
  EXPECT_EQ(first->value, 7);
  EXPECT_EQ(first->size, 5);
  // What arithmetic builds is that node: 2*N + 3*M + 7.
  EXPECT_EQ(
      ((Dim::Const(2) * Dim::Symbol("N")) + (Dim::Const(3) * Dim::Symbol("M")) + Dim::Const(7))
          .node(),
      first);
  const size_t after_arithmetic = context.node_count();
  // Any field that differs is another node.
  NodeKey other = sum;
  other.value = 8;
  EXPECT_NE(Intern(other), first);
  const std::vector<Term> other_coeff = {{m, 3}, {n, 1}};
  other = sum;
  other.terms = other_coeff;
  EXPECT_NE(Intern(other), first);
  other = sum;
  other.terms = std::span<const Term>(terms).first(1);
  EXPECT_NE(Intern(other), first);
  other = sum;
  other.kind = Kind::kProduct;
  EXPECT_NE(Intern(other), first);
  EXPECT_EQ(context.node_count(), after_arithmetic + 4);
}

// The key views its terms wherever they are (a vector, a TermBuffer on the stack, one pair)
// and its name in any string: equal fields are the same node however they were stored.
TEST(InternTest, EqualKeysBuiltDifferentlyAreOneNode) {
  SymbolContext context;
  SymbolContext::Scope scope(context);
  const DimNode* n = Dim::Symbol("N").node();
  const DimNode* m = Dim::Symbol("M").node();
  NodeKey product{Kind::kProduct};
  product.size = 3;
  const std::vector<Term> in_vector = {{m, 1}, {n, 2}};
  product.terms = in_vector;
  const DimNode* from_vector = Intern(product);
  TermBuffer buffer;
  buffer.emplace_back(m, 1);
  buffer.emplace_back(n, 2);
  product.terms = TermsOf(buffer);
  EXPECT_EQ(Intern(product), from_vector);
  EXPECT_EQ((Dim::Symbol("N") * Dim::Symbol("M") * Dim::Symbol("N")).node(), from_vector);

  const Term single{n, 5};
  NodeKey scaled{Kind::kSum};
  scaled.terms = std::span<const Term>(&single, 1);
  scaled.size = 3;
  const DimNode* five_n = Intern(scaled);
  const std::vector<Term> single_in_vector = {{n, 5}};
  scaled.terms = single_in_vector;
  EXPECT_EQ(Intern(scaled), five_n);
  EXPECT_EQ((Dim::Const(5) * Dim::Symbol("N")).node(), five_n);

  const std::string name = "batch_size";
  NodeKey symbol{Kind::kSymbol};
  symbol.name = std::string_view(name).substr(0, 5);  // "batch", not NUL-terminated here
  EXPECT_EQ(Intern(symbol), Dim::Symbol("batch").node());
  EXPECT_NE(Intern(symbol), Dim::Symbol("batch_size").node());

  NodeKey floor{Kind::kFloorDiv};
  floor.lhs = n;
  floor.rhs = Const(4);
  floor.size = 3;
  EXPECT_EQ(Intern(floor), Dim::FloorDiv(Dim::Symbol("N"), Dim::Const(4)).node());
  NodeKey swapped = floor;
  swapped.kind = Kind::kMod;
  EXPECT_NE(Intern(swapped), Intern(floor));
}

// Many nodes share buckets of the table: each lookup still finds its own node, by every
// field, never a neighbour's. Sums of more terms than a TermBuffer keeps on the stack too.
TEST(InternTest, ManyNodesEachFoundAgain) {
  SymbolContext context;
  SymbolContext::Scope scope(context);
  std::vector<Dim> symbols;
  for (int i = 0; i < 40; ++i) symbols.push_back(Dim::Symbol("S" + std::to_string(i)));
  std::vector<Dim> made;
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 40; ++j) {
      made.push_back(symbols[i] * symbols[j] + Dim::Const(i - j));
      made.push_back(Dim::Const(j + 2) * symbols[i] - symbols[j]);
    }
  }
  Dim wide = Dim::Const(0);
  for (int i = 0; i < 40; ++i) wide = wide + Dim::Const(i + 1) * symbols[i];
  made.push_back(wide);
  const size_t count = context.node_count();
  size_t k = 0;
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 40; ++j) {
      EXPECT_EQ(symbols[i] * symbols[j] + Dim::Const(i - j), made[k++]);
      EXPECT_EQ(Dim::Const(j + 2) * symbols[i] - symbols[j], made[k++]);
    }
  }
  EXPECT_EQ(context.node_count(), count);  // every lookup above was a hit
  // The same wide sum added up in the other order (its partial sums are new nodes).
  Dim again = Dim::Const(0);
  for (int i = 39; i >= 0; --i) again = again + Dim::Const(i + 1) * symbols[i];
  EXPECT_EQ(again, made[k]);
  EXPECT_EQ(wide.node()->terms.size(), 40u);
  // Equal text if and only if the same node.
  std::map<std::string, Dim> by_text;
  for (Dim d : made) {
    auto [it, fresh] = by_text.emplace(d.ToString(), d);
    EXPECT_EQ(it->second, d) << d.ToString();
  }
  std::set<const DimNode*> distinct;
  for (Dim d : made) distinct.insert(d.node());
  EXPECT_EQ(distinct.size(), by_text.size());
}

}  // namespace
}  // namespace onnx_infer::symbolic
