// The soundness property of the symbolic results (issue 27): for every case of ONNX's backend
// suite (SHARED_DIR; skips without it), every graph input dim becomes a symbol (as the
// harness's symbolic mode does), inference gives each output a symbolic type, and that type,
// evaluated at other bindings of the symbols (0 and 1 always among them, then small values
// and the case's own shifted by one), must equal what inference gives on the model with
// those concrete shapes. A binding that breaks a fact or a relation inference recorded, or on
// whose concrete shapes inference reports an error (a model those shapes make invalid), is
// not compared. A dim unknown or left symbolic on either side is not compared.
//
// This is how a rule's Max(a, b) for a broadcast of a and b shows up as wrong: at a = 0,
// b = 1 the concrete broadcast gives 0.
//
//   bazel test //conformance:binding_property_test --test_env=SHARED_DIR=/work/shared
//   (ONNX_INFER_PROPERTY_SEED and ONNX_INFER_PROPERTY_TRIALS, passed with --test_env, change
//   the seed and the number of bindings per case: 8 by default)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/conformance/harness.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/context.h"

namespace onnx_infer::conformance {
namespace {

using symbolic::Dim;

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoll(v, nullptr, 10) : fallback;
}

// Bindings to try for `own` (the case's real values): all 0, all 1, then random picks among
// 0, 1, 2, 3, the real value and the real value + 1, per symbol.
std::vector<Bindings> TrialBindings(const Bindings& own, int trials, std::mt19937_64& rng) {
  std::vector<Bindings> out;
  for (int64_t v : {0, 1}) {
    Bindings b;
    for (const auto& [name, real] : own) b[name] = v;
    out.push_back(std::move(b));
  }
  for (int t = 2; t < trials; ++t) {
    Bindings b;
    for (const auto& [name, real] : own) {
      const int64_t picks[] = {0, 1, 2, 3, real, real + 1};
      b[name] = picks[rng() % 6];
    }
    out.push_back(std::move(b));
  }
  return out;
}

// Makes `b` agree with the facts that fix a symbol (N == M + 1 sets N from M), then says
// whether every fact and relation holds under it.
bool FitFacts(const InferenceResult& result, Bindings& b) {
  for (int round = 0; round < 4; ++round) {
    for (const auto& f : result.fact_dims) {
      for (auto [sym, other] : {std::pair{f.lhs, f.rhs}, std::pair{f.rhs, f.lhs}}) {
        if (!sym.is_symbol()) continue;
        auto it = b.find(sym.ToString());
        if (it == b.end()) continue;
        if (auto v = symbolic::Evaluate(other, b)) it->second = *v;
      }
    }
  }
  for (const auto& f : result.fact_dims) {
    auto l = symbolic::Evaluate(f.lhs, b), r = symbolic::Evaluate(f.rhs, b);
    if (!l || !r || *l != *r) return false;
  }
  for (const auto& rel : result.relation_dims) {
    auto v = symbolic::Evaluate(rel.expr, b);
    if (!v || (rel.lo && *v < *rel.lo) || (rel.hi && *v > *rel.hi)) return false;
  }
  return true;
}

// The model with every symbol of its graph inputs replaced by its value in `b`.
onnx::ModelProto Concrete(onnx::ModelProto model, const Bindings& b) {
  for (auto& vi : *model.mutable_graph()->mutable_input()) {
    if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) continue;
    for (auto& d : *vi.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      auto it = d.has_dim_param() ? b.find(d.dim_param()) : b.end();
      if (it != b.end()) d.set_dim_value(it->second);
    }
  }
  return model;
}

// Where the symbolic type evaluated at `b` and the concrete one are both known and disagree:
// "" if they agree.
std::string Disagreement(const Type& symbolic_type, const Type& concrete, const Bindings& b) {
  if (!symbolic_type.is_tensor() || !concrete.is_tensor()) return "";
  if (symbolic_type.elem_type() != 0 && concrete.elem_type() != 0 &&
      symbolic_type.elem_type() != concrete.elem_type()) {
    return "element types differ";
  }
  if (!symbolic_type.has_shape() || !concrete.has_shape()) return "";
  const Shape& s = symbolic_type.shape();
  const Shape& c = concrete.shape();
  if (s.size() != c.size()) return StrCat("ranks differ: ", s.size(), " vs ", c.size());
  for (size_t i = 0; i < s.size(); ++i) {
    auto sv = symbolic::Evaluate(s[i], b);
    auto cv = c[i].const_value();
    if (!sv || !cv) continue;
    if (*sv != *cv) {
      return StrCat("dim ", i, ": ", s[i].ToString(), " = ", *sv, " vs ", *cv);
    }
  }
  return "";
}

std::string BindingText(const Bindings& b) {
  std::vector<std::string> parts;
  for (const auto& [name, v] : b) parts.push_back(StrCat(name, "=", v));
  return StrJoin(parts, ",");
}

TEST(BindingProperty, SymbolicResultsAgreeWithConcreteShapes) {
  const char* shared = std::getenv("SHARED_DIR");
  const std::vector<Case> cases = shared ? FindCases(shared) : std::vector<Case>{};
  if (cases.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no conformance cases";
  const int trials = static_cast<int>(EnvInt("ONNX_INFER_PROPERTY_TRIALS", 8));
  std::mt19937_64 rng(static_cast<uint64_t>(EnvInt("ONNX_INFER_PROPERTY_SEED", 1)));
  int64_t compared = 0, skipped_facts = 0, skipped_invalid = 0, cases_run = 0;
  std::vector<std::string> wrong;
  for (const Case& c : cases) {
    auto loaded = LoadBinaryModel(c.model);
    if (!loaded.ok()) continue;
    onnx::ModelProto model = std::move(*loaded);
    for (auto& out : *model.mutable_graph()->mutable_output()) out.clear_type();
    const Bindings own = SymbolizeInputs(c, model.mutable_graph());
    if (own.empty()) continue;
    onnx::ModelProto symbolic_model = model;
    InferenceResult result = InferShapes(symbolic_model, BuiltinSchemas(), InferenceOptions{});
    if (result.HasErrors()) continue;
    ++cases_run;
    symbolic::SymbolContext::Scope scope(*result.symbol_context);
    std::vector<Type> symbolic_outputs;
    for (const auto& out : symbolic_model.graph().output()) {
      symbolic_outputs.push_back(TypeFromProto(out.type()));
    }
    for (Bindings b : TrialBindings(own, trials, rng)) {
      if (!FitFacts(result, b)) {
        ++skipped_facts;
        continue;
      }
      onnx::ModelProto concrete = Concrete(model, b);
      InferenceResult concrete_result = InferShapes(concrete, BuiltinSchemas(), InferenceOptions{});
      if (concrete_result.HasErrors()) {
        ++skipped_invalid;
        continue;
      }
      for (int i = 0; i < concrete.graph().output_size(); ++i) {
        const Type concrete_type = TypeFromProto(concrete.graph().output(i).type());
        ++compared;
        std::string why = Disagreement(symbolic_outputs[i], concrete_type, b);
        if (!why.empty()) {
          wrong.push_back(StrCat(c.name, " output '", concrete.graph().output(i).name(), "' at ",
                                 BindingText(b), ": symbolic ", symbolic_outputs[i].ToString(),
                                 ", concrete ", concrete_type.ToString(), ": ", why));
        }
      }
    }
  }
  std::cout << cases_run << " cases, " << trials << " bindings each: " << compared
            << " outputs compared; bindings not compared: " << skipped_facts
            << " break a fact or relation, " << skipped_invalid
            << " make the model invalid; wrong: " << wrong.size() << "\n";
  EXPECT_GT(compared, 1000);
  for (size_t i = 0; i < wrong.size() && i < 30; ++i) ADD_FAILURE() << wrong[i];
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " symbolic results disagree with the concrete ones";
}

}  // namespace
}  // namespace onnx_infer::conformance
