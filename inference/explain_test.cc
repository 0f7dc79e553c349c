// ExplainValue, ExplainAllUnknown and WhatIfBindings (inference/explain.h): one small model
// per reason class, the what-if counts against real --bind runs, and (with SHARED_DIR) every
// unknown dim of the shared real models and of ONNX's backend suite explained.
#include "onnx_infer/inference/explain.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/base/test_util.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

onnx::ModelProto Model(const std::string& graph, const std::string& opsets = "\"\" : 17") {
  auto m = syntax::ParseModelText("<ir_version: 8, opset_import: [" + opsets + "]>\n" + graph);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? *m : onnx::ModelProto();
}

InferenceResult Infer(onnx::ModelProto& model, InferenceOptions options = {}) {
  options.record_provenance = true;
  return InferShapes(model, BuiltinSchemas(), options);
}

// The explanation of `value` dim `axis` (-1: its rank or type) in the main graph.
DimExplanation Explain(const onnx::ModelProto& model, const InferenceResult& result,
                       const std::string& value, int axis, const std::string& graph = "main") {
  auto e = ExplainValue(model, result, graph, value, axis);
  EXPECT_TRUE(e.ok()) << e.status().message();
  if (!e.ok() || e->empty()) return {};
  return e->front();
}

// Every unknown is explained: a reason that is not "known" or "symbolic", a sentence, and a
// chain that starts at the value.
void ExpectExplained(const DimExplanation& e) {
  EXPECT_NE(e.reason, ExplainReason::kKnown) << FormatExplanation(e);
  EXPECT_NE(e.reason, ExplainReason::kSymbolic) << FormatExplanation(e);
  EXPECT_FALSE(e.detail.empty()) << FormatExplanation(e);
  ASSERT_FALSE(e.chain.empty()) << FormatExplanation(e);
  EXPECT_EQ(e.chain.front().value, e.value) << FormatExplanation(e);
}

TEST(Explain, DataDependent) {
  auto model = Model(R"(main (float[N] w) => (z) {
    nz = NonZero(w)
    z = Transpose(nz)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "z", 0);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kDataDependent) << FormatExplanation(e);
  ASSERT_EQ(e.chain.size(), 2u);
  EXPECT_EQ(e.chain[1].value, "nz");
  EXPECT_EQ(e.chain[1].axis, 1);
  EXPECT_NE(e.chain[1].node.find("NonZero"), std::string::npos);
}

TEST(Explain, ShapeValueFollowsTheValueToAGraphInput) {
  // Reshape's target is Concat(Shape(x)[0:1], s): the dim after it is unknown because the
  // graph input s has no known value; the chain goes through Concat to s.
  auto model = Model(R"(main (float[N, 512] x, int64[1] s) => (y) {
    sh = Shape(x)
    st = Constant <value = int64[1] {0}> ()
    en = Constant <value = int64[1] {1}> ()
    n = Slice(sh, st, en)
    target = Concat <axis = 0> (n, s)
    r = Reshape(x, target)
    y = Relu(r)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", 1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kShapeValueUnknown) << FormatExplanation(e);
  EXPECT_EQ(e.input_value, "s") << FormatExplanation(e);
  EXPECT_NE(e.detail.find("input 1 'target'"), std::string::npos) << e.detail;
  EXPECT_EQ(e.chain.back().value, "s");
  EXPECT_TRUE(e.chain.back().of_value);
  bool through_concat = false;
  for (const auto& step : e.chain) through_concat |= step.value == "target" && step.of_value;
  EXPECT_TRUE(through_concat) << FormatExplanation(e);
}

// STFT's frame count needs the value of frame_step (input 1); the window (input 2) counts
// only by its shape.
TEST(Explain, StftFrameStepIsAShapeValue) {
  auto model = Model(R"(main (float[1, 128, 1] signal, int64 step) => (y) {
    window = Constant <value = float[16] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> ()
    y = STFT (signal, step, window)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", 1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kShapeValueUnknown) << FormatExplanation(e);
  EXPECT_EQ(e.input_value, "step") << FormatExplanation(e);
}

TEST(Explain, ShapeValueOfAShapeWithAnUnknownDim) {
  // Expand to Shape(nz): the value's second element is NonZero's unknown count.
  auto model = Model(R"(main (float[N] w, float[1] one) => (y) {
    nz = NonZero(w)
    s = Shape(nz)
    y = Expand(one, s)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", 1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kShapeValueUnknown) << FormatExplanation(e);
  EXPECT_NE(e.detail.find("data-dependent"), std::string::npos) << e.detail;
  EXPECT_EQ(e.chain.back().value, "nz");
}

TEST(Explain, IntroducedSymbols) {
  // Unique's count is a fresh symbol; explain says why and where it comes from.
  auto model = Model(R"(main (float[N] w) => (y) {
    y = Unique(w)
  })");
  auto result = Infer(model);
  auto introduced = ExplainIntroducedSymbols(model, result);
  ASSERT_EQ(introduced.size(), 1u);
  EXPECT_EQ(introduced[0].first.name, "y__d0");
  EXPECT_EQ(introduced[0].second, ExplainReason::kDataDependent);
  EXPECT_NE(FormatIntroducedSymbols(introduced).find("data-dependent: 1"), std::string::npos);
  DimExplanation e = Explain(model, result, "y", 0);
  EXPECT_EQ(e.reason, ExplainReason::kSymbolic);
  ASSERT_EQ(e.symbol_reasons.size(), 1u);
  EXPECT_EQ(e.symbol_reasons[0], ExplainReason::kDataDependent);
}

TEST(Explain, NoRule) {
  auto model = Model(R"(main (float[N] x) => (y) {
    t = custom.Opaque(x)
    y = Relu(t)
  })",
                     "\"\" : 17, \"custom\" : 1");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", -1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kNoRule) << FormatExplanation(e);
  EXPECT_EQ(e.chain.back().value, "t");
}

TEST(Explain, SizeCapOfAFreshSymbol) {
  // A Concat of 70 values of distinct symbolic lengths: the sum outgrows the cap of 64 nodes
  // and becomes a fresh symbol, which explain traces to the cap.
  std::string inputs, names;
  for (int i = 0; i < 70; ++i) {
    inputs += StrCat(i ? ", " : "", "float[S", i, "] x", i);
    names += StrCat(i ? ", " : "", "x", i);
  }
  auto model =
      Model(StrCat("main (", inputs, ") => (y) {\n  y = Concat <axis = 0> (", names, ")\n}"));
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", 0);
  EXPECT_EQ(e.reason, ExplainReason::kSymbolic) << FormatExplanation(e);
  ASSERT_EQ(e.symbols.size(), 1u) << FormatExplanation(e);
  EXPECT_FALSE(e.symbols[0].declared);
  EXPECT_EQ(e.symbol_reasons[0], ExplainReason::kSizeCap) << FormatExplanation(e);
}

TEST(Explain, IfBranchesDisagree) {
  auto model = Model(R"(main (float[N, 512] x, bool c) => (y) {
    y = If (c) <then_branch = g1 () => (t) {
                   s3 = Constant <value = int64[3] {0, 2, 256}> ()
                   t = Reshape(x, s3)
                 },
                else_branch = g2 () => (e) {
                   s2 = Constant <value = int64[2] {0, 512}> ()
                   e = Reshape(x, s2)
                 }>
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", -1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kIfBranches) << FormatExplanation(e);
  EXPECT_NE(e.detail.find("float[N, 2, 256]"), std::string::npos) << e.detail;
}

TEST(Explain, LoopWidening) {
  // A carried value that grows by one row per iteration.
  auto model = Model(R"(main (int64[] m, float[2, 4] acc0) => (acc) {
    cond = Constant <value = bool {1}> ()
    acc = Loop (m, cond, acc0) <body = b (int64 i, bool c, float[?, 4] acc_in) => (bool co, float[?, 4] acc_out) {
      co = Identity(c)
      row = Constant <value = float[1, 4] {1, 2, 3, 4}> ()
      acc_out = Concat <axis = 0> (acc_in, row)
    }>
  })");
  auto result = Infer(model);
  // The widened dim is a fresh symbol, or unknown: either way its reason is the loop.
  auto expect_widened = [&](const std::string& graph, const std::string& value) {
    DimExplanation e = Explain(model, result, value, 0, graph);
    if (e.reason == ExplainReason::kSymbolic) {
      ASSERT_EQ(e.symbol_reasons.size(), 1u) << FormatExplanation(e);
      EXPECT_EQ(e.symbol_reasons[0], ExplainReason::kLoopWidening) << FormatExplanation(e);
    } else {
      ExpectExplained(e);
      EXPECT_EQ(e.reason, ExplainReason::kLoopWidening) << FormatExplanation(e);
    }
  };
  expect_widened("main", "acc");
  expect_widened("main/Loop_1.body", "acc_in");
  expect_widened("main/Loop_1.body", "acc_out");
}

TEST(Explain, ExternalData) {
  auto model = Model(R"(main (float[N, 512] x) => (y) {
    y = Reshape(x, shape)
  })");
  onnx::TensorProto* init = model.mutable_graph()->add_initializer();
  init->set_name("shape");
  init->set_data_type(7);  // int64
  init->add_dims(2);
  init->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = init->add_external_data();
  entry->set_key("location");
  entry->set_value("shape.bin");
  auto result = Infer(model);  // no model_dir: external data is never read
  DimExplanation e = Explain(model, result, "y", 0);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kExternalData) << FormatExplanation(e);
  EXPECT_EQ(e.chain.back().value, "shape");
  EXPECT_EQ(e.chain.back().node, "initializer");
}

TEST(Explain, Contradiction) {
  auto model = Model(R"(main (float[2, 3] a, float[2, 4] b) => (y) {
    c = Concat <axis = 0> (a, b)
    y = Relu(c)
  })");
  auto result = Infer(model);
  ASSERT_TRUE(result.HasErrors());
  DimExplanation e = Explain(model, result, "y", -1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kContradiction) << FormatExplanation(e);
  EXPECT_NE(e.detail.find("Concat"), std::string::npos) << e.detail;
}

TEST(Explain, DeclaredTypeKept) {
  auto model = Model(R"(main (float[3] x) => (y) <float[?, ?] t> {
    t = Relu(x)
    y = Relu(t)
  })");
  InferenceOptions options;
  options.declared_policy = DeclaredPolicy::kRefine;
  auto result = Infer(model, options);
  DimExplanation e = Explain(model, result, "y", 0);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kDeclaredTypeKept) << FormatExplanation(e);
  EXPECT_EQ(e.chain.back().value, "t");
}

TEST(Explain, UnknownGraphInput) {
  auto model = Model(R"(main (float x) => (y) {
    y = Relu(x)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", -1);
  ExpectExplained(e);
  EXPECT_EQ(e.reason, ExplainReason::kUnknownGraphInput) << FormatExplanation(e);
  EXPECT_EQ(e.what, "the rank is unknown");
  EXPECT_EQ(e.chain.back().node, "graph input");
}

TEST(Explain, NodeOnACycle) {
  auto model = Model(R"(main (float[2] x) => (y) {
    a = Add(x, b)
    b = Relu(a)
    y = Relu(b)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", -1);
  ExpectExplained(e);
  EXPECT_TRUE(e.reason == ExplainReason::kNotInferred || e.reason == ExplainReason::kContradiction)
      << FormatExplanation(e);
}

TEST(Explain, EmptySequence) {
  auto model = Model(R"(main (float[2] x) => (y) {
    s = SequenceEmpty <dtype = 1> ()
    y = SequenceInsert(s, x)
  })");
  auto result = Infer(model);
  auto all = ExplainAllUnknown(model, result);
  ASSERT_FALSE(all.empty()) << FormatExplainSummary(all);
  for (const auto& e : all) {
    ExpectExplained(e);
    EXPECT_EQ(e.reason, ExplainReason::kEmptySequence) << FormatExplanation(e);
  }
}

TEST(Explain, SymbolicDimNamesItsInputs) {
  auto model = Model(R"(main (float[B, S] x, float[B, T] z) => (y) {
    y = Concat <axis = 1> (x, z)
  })");
  auto result = Infer(model);
  DimExplanation e = Explain(model, result, "y", 1);
  EXPECT_EQ(e.reason, ExplainReason::kSymbolic);
  EXPECT_EQ(e.what, "dim 1 is S + T");
  ASSERT_EQ(e.symbols.size(), 2u);
  EXPECT_TRUE(e.symbols[0].declared);
  EXPECT_NE(e.symbols[0].origin.find("input 'x' dim 1"), std::string::npos);
  EXPECT_NE(e.symbols[1].origin.find("input 'z' dim 1"), std::string::npos);
  // Every dim of a value without an axis: both symbolic.
  auto both = ExplainValue(model, result, "main", "y", -1);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->size(), 2u);
}

TEST(Explain, Errors) {
  auto model = Model(R"(main (float[2] x) => (y) {
    y = Relu(x)
  })");
  auto result = Infer(model);
  EXPECT_FALSE(ExplainValue(model, result, "main", "nope", -1).ok());
  EXPECT_FALSE(ExplainValue(model, result, "other", "y", -1).ok());
  EXPECT_FALSE(ExplainValue(model, result, "main", "y", 3).ok());
  auto known = ExplainValue(model, result, "main", "y", -1);
  ASSERT_TRUE(known.ok());
  EXPECT_EQ(known->front().reason, ExplainReason::kKnown);
}

TEST(Explain, NothingRecordedInNormalRuns) {
  auto model = Model(R"(main (float[2] x) => (y) {
    y = Relu(x)
  })");
  auto result = InferShapes(model, BuiltinSchemas(), InferenceOptions{});
  EXPECT_EQ(result.provenance, nullptr);
}

// The what-if counts are those of real runs with the binding.
TEST(WhatIf, CountsMatchARealBind) {
  const std::string text = R"(main (float[N, 512] x, float[M] w) => (y, u, v) {
    y = Relu(x)
    u = Add(w, w)
    s = Shape(x)
    v = ConstantOfShape(s)
  })";
  auto model = Model(text);
  const onnx::ModelProto original = model;
  auto result = Infer(model);
  WhatIfRequest request;
  request.symbols["N"] = 7;
  auto what_if = WhatIfBindings(original, BuiltinSchemas(), InferenceOptions{}, result,
                                ExplainAllUnknown(model, result), request);
  std::map<std::string, const WhatIf*> by_label;
  for (const auto& w : what_if) by_label[w.label] = &w;
  ASSERT_TRUE(by_label.count("N=7")) << FormatWhatIf(what_if, 0, 0);
  ASSERT_TRUE(by_label.count("M=2")) << FormatWhatIf(what_if, 0, 0);
  ASSERT_TRUE(by_label.count("all together")) << FormatWhatIf(what_if, 0, 0);
  for (const auto& [label, bind] :
       std::vector<std::pair<std::string, std::map<std::string, int64_t, std::less<>>>>{
           {"N=7", {{"N", 7}}}, {"M=2", {{"M", 2}}}, {"all together", {{"N", 7}, {"M", 2}}}}) {
    onnx::ModelProto copy = original;
    InferenceOptions options;
    options.bind = bind;
    auto bound = InferShapes(copy, BuiltinSchemas(), options);
    EXPECT_EQ(by_label[label]->static_values, bound.stats.static_shaped) << label;
    EXPECT_EQ(by_label[label]->gained, bound.stats.static_shaped - result.stats.static_shaped);
  }
  EXPECT_EQ(by_label["N=7"]->gained, 2);  // y and v
  EXPECT_EQ(by_label["M=2"]->gained, 1);  // u
  EXPECT_EQ(by_label["all together"]->gained, 3);
}

// A dim the model leaves unnamed gets a name (`x_d0`) that the what-if binds like a declared
// symbol; the count is that of a real --bind of the name.
TEST(WhatIf, UnnamedInputDims) {
  auto model = Model(R"(main (float[?, 8] x) => (y) {
    y = Relu(x)
  })");
  const onnx::ModelProto original = model;
  auto result = Infer(model);
  auto what_if = WhatIfBindings(original, BuiltinSchemas(), InferenceOptions{}, result,
                                ExplainAllUnknown(model, result), {});
  ASSERT_EQ(what_if.size(), 1u) << FormatWhatIf(what_if, 0, 0);
  EXPECT_EQ(what_if[0].label, "x_d0=2");
  onnx::ModelProto copy = original;
  InferenceOptions options;
  options.bind["x_d0"] = 2;
  auto bound = InferShapes(copy, BuiltinSchemas(), options);
  EXPECT_EQ(what_if[0].static_values, bound.stats.static_shaped);
  EXPECT_EQ(what_if[0].gained, 1);
}

// Values that each agree with the model but not together: the "all together" run counts the
// errors and its line says the values together contradict the model.
TEST(WhatIf, ValuesThatContradictOnlyTogether) {
  auto model = Model(R"(main (float[A, 8] x, float[B, 8] w) => (y) {
    y = Add(x, w)
  })");
  const onnx::ModelProto original = model;
  auto result = Infer(model);
  WhatIfRequest request;
  request.symbols["A"] = 3;
  request.symbols["B"] = 5;
  auto what_if = WhatIfBindings(original, BuiltinSchemas(), InferenceOptions{}, result,
                                ExplainAllUnknown(model, result), request);
  ASSERT_EQ(what_if.size(), 3u) << FormatWhatIf(what_if, 0, 0);
  EXPECT_EQ(what_if[2].label, "all together");
  EXPECT_GT(what_if[2].errors, 0);
  EXPECT_NE(FormatWhatIf(what_if, 0, 1).find("these values together contradict the model"),
            std::string::npos)
      << FormatWhatIf(what_if, 0, 1);
}

TEST(WhatIf, InputValueThatReachesAShape) {
  auto model = Model(R"(main (float[N, 512] x, int64[] k) => (y, i) {
    zero = Constant <value = int64[1] {0}> ()
    kk = Unsqueeze(k, zero)
    y, i = TopK(x, kk)
  })");
  // TopK needs k as a 1-D tensor: Unsqueeze of the scalar input carries its value.
  const onnx::ModelProto original = model;
  auto result = Infer(model);
  auto all = ExplainAllUnknown(model, result);
  bool names_k = false;
  for (const auto& e : all) names_k |= e.input_value == "k";
  EXPECT_TRUE(names_k) << FormatExplainSummary(all);
  auto what_if = WhatIfBindings(original, BuiltinSchemas(), InferenceOptions{}, result, all, {});
  const WhatIf* k = nullptr;
  for (const auto& w : what_if) {
    if (w.label == "k=2") k = &w;
  }
  ASSERT_NE(k, nullptr) << FormatWhatIf(what_if, 0, 0);
  onnx::ModelProto copy = original;
  InferenceOptions options;
  options.input_values = k->input_values;
  auto given = InferShapes(copy, BuiltinSchemas(), options);
  EXPECT_EQ(k->static_values, given.stats.static_shaped);
  EXPECT_EQ(k->errors, 0);
}

// ---- The shared corpus (SHARED_DIR; skips without it): every unknown dim, rank and type of
// every model has a reason.

void ExpectEveryUnknownExplained(const std::string& sub) {
  const auto paths = testing::SharedModels(sub);
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no " << sub;
  std::map<ExplainReason, int64_t> counts;
  int64_t unexplained = 0, models = 0;
  for (const auto& path : paths) {
    auto loaded = LoadModel(path);
    if (!loaded.ok()) continue;  // a model the loader rejects has nothing to explain
    onnx::ModelProto model = std::move(*loaded);
    InferenceOptions options;
    options.model_dir = fs::path(path).parent_path().string();
    auto result = Infer(model, options);
    ++models;
    for (const auto& e : ExplainAllUnknown(model, result)) {
      counts[e.reason]++;
      const bool explained = e.reason != ExplainReason::kKnown &&
                             e.reason != ExplainReason::kSymbolic && !e.detail.empty() &&
                             !e.chain.empty() && e.chain.front().value == e.value;
      if (!explained) {
        if (++unexplained <= 5) ADD_FAILURE() << path << ":\n" << FormatExplanation(e);
      }
    }
  }
  std::string summary;
  for (const auto& [reason, n] : counts) summary += StrCat(" ", ExplainReasonName(reason), "=", n);
  std::cout << sub << ": " << models << " models; unknowns by reason:" << summary << "\n";
  EXPECT_EQ(unexplained, 0);
  EXPECT_GT(models, 0);
}

TEST(ExplainCorpus, RealModels) { ExpectEveryUnknownExplained("models/real"); }

TEST(ExplainCorpus, BackendSuite) { ExpectEveryUnknownExplained("conformance/onnx-backend"); }

}  // namespace
}  // namespace onnx_infer
