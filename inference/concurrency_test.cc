// InferShapes from many threads at once, and the lifetime of the symbol contexts it runs in.
// Every thread's annotated output must be the one a single thread produces. Run under
// ThreadSanitizer by tools/tsan.sh.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/symbolic/context.h"
#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/syntax/parser.h"
#include "onnx_infer/syntax/printer.h"

namespace onnx_infer {
namespace {

using symbolic::SymbolContext;

// Models whose inference builds symbolic expressions of every kind: sums and products from
// Reshape/Concat/MatMul with dim_params, floor and ceiling from Conv and pooling, Min/Max
// from Slice, facts from MatMul's contracted dims, a subgraph, and an error.
constexpr const char* kModels[] = {
    // The exporters' multi-head Reshape, through Shape/Gather/Concat.
    R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[B, S, 768] x) => (y)
  <int64 zero = {0}, int64 one = {1}, int64[1] axes = {0}, int64[1] heads = {12},
   int64[1] head_dim = {64}>
{
  s = Shape(x)
  b = Gather(s, zero)
  t = Gather(s, one)
  b1 = Unsqueeze(b, axes)
  t1 = Unsqueeze(t, axes)
  shape = Concat <axis = 0> (b1, t1, heads, head_dim)
  h = Reshape(x, shape)
  y = Transpose <perm = [0, 2, 1, 3]> (h)
})",
    // Concat along symbolic axes, a flattening Reshape, MatMul contracting K with R (a fact).
    R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[N, K] a, float[M, K] b, float[K, P] w, float[Q, P] c, float[R, 2] r) => (mm, flat, wide, rm)
  <int64[2] flatten = {-1, 0}>
{
  cat = Concat <axis = 0> (a, b)
  mm = MatMul(cat, w)
  both = Concat <axis = 0> (mm, c)
  flat = Reshape(both, flatten)
  sq = Mul(cat, cat)
  wide = Concat <axis = 1> (sq, cat)
  rm = MatMul(cat, r)
})",
    // Conv and pooling: floor((H + 1)/2) and friends; a grouped Conv records C == 6.
    R"(<ir_version: 8, opset_import: ["" : 22]>
main (float[N, 3, H, W] x, float[16, 3, 3, 3] w, float[16] b, float[N, C, H, W] z, float[8, 3, 1, 1] wg) => (pooled, same, grouped)
{
  y = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w, b)
  pooled = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (y)
  same = Conv <auto_pad = "SAME_UPPER", strides = [2, 2]> (x, w)
  grouped = Conv <group = 2> (z, wg)
})",
    // Slice bounds computed from shapes: Min, Max and sums of symbols.
    R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[B, C, T] x, float[C, 1, K] w) => (state, last3, rest, grown)
  <int64[1] one = {1}, int64[1] two = {2}, int64[1] minus3 = {-3}, int64[1] big = {9223372036854775807},
   int64[1] five = {5}, int64[1] starts = {0}>
{
  k = Shape <start = 2> (w)
  km1 = Sub(k, one)
  b = Shape <start = 0, end = 1> (x)
  c = Shape <start = 1, end = 2> (x)
  pad_shape = Concat <axis = 0> (b, c, km1)
  pad = ConstantOfShape(pad_shape)
  padded = Concat <axis = 2> (pad, x)
  len = Shape <start = 2, end = 3> (padded)
  begin = Sub(len, km1)
  state = Slice(padded, begin, len, two)
  last3 = Slice(x, minus3, big, two)
  rest = Slice(x, one, big, two)
  bigger = Add(b, five)
  shape = Concat <axis = 0> (bigger, c)
  grown = ConstantOfShape(shape)
})",
    // If joins its branches into a fresh symbol; a contradiction is an error.
    R"(<ir_version: 8, opset_import: ["" : 17]>
main (bool[] c, float[N, 3] x, float[N, 4] u, float[5, 8] v) => (y, bad)
  <float[5, 3] k = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}>
{
  y = If (c) <then_branch = then_g () => (t) { t = Relu(x) },
              else_branch = else_g () => (e) { e = Identity(k) }>
  bad = MatMul(u, v)
})",
};

// A model and the text a run on it gives: the annotated model, the diagnostics, the symbols
// and the facts.
struct Workload {
  std::string name;
  onnx::ModelProto model;
};

std::vector<Workload> Workloads() {
  std::vector<Workload> out;
  for (size_t i = 0; i < std::size(kModels); ++i) {
    auto m = syntax::ParseModelText(kModels[i]);
    EXPECT_TRUE(m.ok()) << "model " << i << ": " << m.status().message();
    if (m.ok()) out.push_back({"model " + std::to_string(i), *std::move(m)});
  }
  auto demo = LoadModel("testdata/demo/attention_block.onnx");
  EXPECT_TRUE(demo.ok()) << demo.status().message();
  if (demo.ok()) out.push_back({"attention_block.onnx", *std::move(demo)});
  return out;
}

std::string Annotated(const Workload& w, std::shared_ptr<SymbolContext> symbols = nullptr) {
  onnx::ModelProto model = w.model;
  InferenceOptions options;
  options.symbol_context = std::move(symbols);
  InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
  std::string out = syntax::PrintModelText(model);
  for (const auto& d : result.diagnostics) out += d.Render(w.name) + "\n";
  for (const auto& s : result.symbols) out += "symbol " + s.name + ": " + s.origin + "\n";
  for (const auto& f : result.facts) out += "fact " + f + "\n";
  for (const auto& c : result.conditions) out += "condition " + c + "\n";
  return out;
}

class ConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    workloads_ = Workloads();
    ASSERT_EQ(workloads_.size(), std::size(kModels) + 1);
    for (const auto& w : workloads_) reference_.push_back(Annotated(w));
  }

  // Runs kThreads threads of kIterations runs each, thread t starting at model t so that
  // different models run at the same time; returns the number of runs whose output differs
  // from the reference, per thread.
  std::vector<int> RunThreads(std::shared_ptr<SymbolContext> shared) {
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kIterations; ++i) {
          const size_t k = (t + i) % workloads_.size();
          if (Annotated(workloads_[k], shared) != reference_[k]) ++mismatches[t];
        }
      });
    }
    for (auto& th : threads) th.join();
    return mismatches;
  }

  static constexpr int kThreads = 8;
  static constexpr int kIterations = 100;
  std::vector<Workload> workloads_;
  std::vector<std::string> reference_;
};

TEST_F(ConcurrencyTest, ReferenceOutputsAreInferred) {
  // The models infer to something worth comparing: symbolic dims, facts and an error.
  EXPECT_NE(reference_[0].find("float[B, 12, S, 64] y"), std::string::npos) << reference_[0];
  EXPECT_NE(reference_[1].find("float[\"M + N\", \"2*K\"] wide"), std::string::npos)
      << reference_[1];
  EXPECT_NE(reference_[1].find("fact K == R"), std::string::npos) << reference_[1];
  EXPECT_NE(reference_[2].find("floor("), std::string::npos) << reference_[2];
  EXPECT_NE(reference_[3].find("Min("), std::string::npos) << reference_[3];
  EXPECT_NE(reference_[4].find("error["), std::string::npos) << reference_[4];
  EXPECT_NE(reference_[5].find("float[batch, 3, seq, 4] y"), std::string::npos) << reference_[5];
}

TEST_F(ConcurrencyTest, ThreadsWithAContextPerRunMatchOneThread) {
  std::vector<int> mismatches = RunThreads(nullptr);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST_F(ConcurrencyTest, ThreadsSharingOneContextMatchOneThread) {
  auto shared = std::make_shared<SymbolContext>();
  std::vector<int> mismatches = RunThreads(shared);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
  EXPECT_GT(shared->node_count(), 0u);
}

TEST(SymbolContextLifetimeTest, EachRunHasItsOwnContextFreedWithTheResult) {
  std::vector<Workload> workloads = Workloads();
  ASSERT_FALSE(workloads.empty());
  const size_t default_before = SymbolContext::Default().node_count();
  const int64_t live_before = SymbolContext::LiveContexts();  // the default one included
  std::weak_ptr<SymbolContext> first_context;
  {
    onnx::ModelProto model = workloads[0].model;
    InferenceResult result = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
    ASSERT_NE(result.symbol_context, nullptr);
    EXPECT_GT(result.symbol_context->node_count(), 0u);
    EXPECT_EQ(result.symbol_context.use_count(), 1);  // nothing else keeps it
    EXPECT_EQ(SymbolContext::LiveContexts(), live_before + 1);
    first_context = result.symbol_context;

    onnx::ModelProto again = workloads[0].model;
    InferenceResult second = InferShapes(again, BuiltinSchemas(), InferenceOptions{});
    EXPECT_NE(second.symbol_context, result.symbol_context);
    EXPECT_EQ(SymbolContext::LiveContexts(), live_before + 2);
  }
  EXPECT_TRUE(first_context.expired());
  EXPECT_EQ(SymbolContext::LiveContexts(), live_before);
  // Many runs leave nothing behind: not a context, not a node of the default one.
  for (int i = 0; i < 20; ++i) {
    for (const auto& w : workloads) {
      onnx::ModelProto model = w.model;
      InferShapes(model, BuiltinSchemas(), InferenceOptions{});
    }
  }
  EXPECT_EQ(SymbolContext::LiveContexts(), live_before);
  EXPECT_EQ(SymbolContext::Default().node_count(), default_before);
  EXPECT_EQ(&SymbolContext::Current(), &SymbolContext::Default());  // the scope has ended
}

TEST(SymbolContextLifetimeTest, ACallersContextIsUsedAndKept) {
  std::vector<Workload> workloads = Workloads();
  ASSERT_FALSE(workloads.empty());
  const size_t default_before = SymbolContext::Default().node_count();
  auto mine = std::make_shared<SymbolContext>();
  InferenceOptions options;
  options.symbol_context = mine;
  onnx::ModelProto model = workloads[0].model;
  InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
  EXPECT_EQ(result.symbol_context, mine);
  const size_t after_one_run = mine->node_count();
  EXPECT_GT(after_one_run, 0u);
  // Inferring the same model again makes no new node: every expression is already interned.
  onnx::ModelProto again = workloads[0].model;
  InferShapes(again, BuiltinSchemas(), options);
  EXPECT_EQ(mine->node_count(), after_one_run);
  EXPECT_EQ(SymbolContext::Default().node_count(), default_before);

  // The result keeps the context alive after the caller lets go of it.
  std::weak_ptr<SymbolContext> weak = mine;
  mine.reset();
  options.symbol_context.reset();
  EXPECT_FALSE(weak.expired());
  result = InferenceResult();
  EXPECT_TRUE(weak.expired());
}

TEST(SymbolContextLifetimeTest, InferShapesLeavesTheCallersScopeInPlace) {
  std::vector<Workload> workloads = Workloads();
  ASSERT_FALSE(workloads.empty());
  SymbolContext outer;
  SymbolContext::Scope scope(outer);
  symbolic::Dim n = symbolic::Dim::Symbol("N");
  onnx::ModelProto model = workloads[1].model;
  InferShapes(model, BuiltinSchemas(), InferenceOptions{});  // in a context of its own
  EXPECT_EQ(&SymbolContext::Current(), &outer);
  EXPECT_EQ(outer.node_count(), 1u);
  EXPECT_EQ(symbolic::Dim::Symbol("N"), n);
}

}  // namespace
}  // namespace onnx_infer
