// The deployment contract (inference/contract.h) of small models: symbols shared by inputs,
// bounds with origins, values the facts fix, divisibility, inputs whose values reach
// shapes; profiles derived from ranges and checked against the facts.
#include "onnx_infer/inference/contract.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

struct Inferred {
  onnx::ModelProto model;
  InferenceResult result;
  Contract contract;
};

Inferred Infer(const std::string& text, std::vector<std::string> assumptions = {}) {
  Inferred r;
  auto m = syntax::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (m.ok()) r.model = *m;
  InferenceOptions options;
  options.assumptions = std::move(assumptions);
  r.result = InferShapes(r.model, BuiltinSchemas(), options);
  r.contract = BuildContract(r.model, r.result);
  return r;
}

const ContractSymbol* Symbol(const Contract& c, const std::string& name) {
  for (const auto& s : c.symbols) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const ContractInput* Input(const Contract& c, const std::string& name) {
  for (const auto& in : c.inputs) {
    if (in.name == name) return &in;
  }
  return nullptr;
}

// total == past + seq, forced by a Concat against the declared output.
constexpr char kKvCache[] = R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[batch, past, 8] past_key, float[batch, seq, 8] key, float[batch, total] mask,
      int64[2] shape) => (float[batch, total, 8] present, y) {
  present = Concat <axis = 1> (past_key, key)
  axes = Constant <value = int64[1] {2}> ()
  m = Unsqueeze (mask, axes)
  scores = Mul (present, m)
  two = Constant <value = int64[1] {2}> ()
  s2 = Mul (shape, two)
  y = Reshape (scores, s2)
}
)";

TEST(Contract, KvCacheStatesTheDerivedLengthAndTheSharedSymbols) {
  Inferred r = Infer(kKvCache);
  ASSERT_FALSE(r.result.HasErrors());
  const Contract& c = r.contract;
  ASSERT_EQ(c.inputs.size(), 4u);
  EXPECT_EQ(c.inputs[0].name, "past_key");
  EXPECT_EQ(c.inputs[0].elem_type, "float");
  ASSERT_TRUE(c.inputs[0].shape);
  EXPECT_EQ(*c.inputs[0].shape, (std::vector<std::string>{"batch", "past", "8"}));

  const ContractSymbol* batch = Symbol(c, "batch");
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->uses,
            (std::vector<std::pair<std::string, int>>{{"past_key", 0}, {"key", 0}, {"mask", 0}}));
  EXPECT_EQ(batch->value, "");

  // total is fixed by the facts: past + seq, with the declared output as origin.
  const ContractSymbol* total = Symbol(c, "total");
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->value, "past + seq");
  EXPECT_EQ(total->uses, (std::vector<std::pair<std::string, int>>{{"mask", 1}}));
  ASSERT_EQ(total->facts.size(), 1u);
  EXPECT_NE(total->facts[0].find("total == past + seq"), std::string::npos) << total->facts[0];
  EXPECT_NE(total->facts[0].find("'present'"), std::string::npos) << total->facts[0];
  EXPECT_EQ(Symbol(c, "past")->value, "");

  // Only `shape`'s value reaches a shape (through the Mul, into the Reshape).
  EXPECT_EQ(Input(c, "shape")->shape_consumers,
            (std::vector<std::string>{"node of output 'y' (Reshape) input 1"}));
  EXPECT_TRUE(Input(c, "mask")->shape_consumers.empty());
  EXPECT_TRUE(Input(c, "past_key")->shape_consumers.empty());
}

// A partial --bind on the decoder: the facts derive what the binding fixes, and the rest is
// named as still free.
TEST(Contract, APartialBindingIsCompleted) {
  auto complete = [](std::map<std::string, int64_t, std::less<>> bind) {
    auto m = syntax::ParseModelText(kKvCache);
    EXPECT_TRUE(m.ok());
    InferenceOptions options;
    options.bind = bind;
    InferenceResult result = InferShapes(*m, BuiltinSchemas(), options);
    EXPECT_FALSE(result.HasErrors());
    return CompleteBinding(BuildContract(*m, result), result, bind);
  };
  BindingCompletion c = complete({{"seq", 1}});
  ASSERT_EQ(c.derived.size(), 1u);
  EXPECT_EQ(c.derived[0].symbol, "total");
  EXPECT_EQ(c.derived[0].value, "past + 1");
  ASSERT_EQ(c.derived[0].from.size(), 1u);
  EXPECT_NE(c.derived[0].from[0].find("total == past + 1 (declared type of 'present' dim 1)"),
            std::string::npos)
      << c.derived[0].from[0];
  EXPECT_EQ(c.free, (std::vector<std::string>{"batch", "past"}));
  EXPECT_NE(c.derived[0].ToString().find("total = past + 1 (from total == past + 1"),
            std::string::npos);
  // Both lengths bound: total is a number.
  c = complete({{"past", 3}, {"seq", 1}});
  ASSERT_EQ(c.derived.size(), 1u);
  EXPECT_EQ(c.derived[0].value, "4");
  EXPECT_EQ(c.free, (std::vector<std::string>{"batch"}));
  // The total and the new length bound: the past length is what remains, 10 - 2.
  c = complete({{"seq", 2}, {"total", 10}});
  ASSERT_EQ(c.derived.size(), 1u);
  EXPECT_EQ(c.derived[0].symbol, "past");
  EXPECT_EQ(c.derived[0].value, "8");
  EXPECT_EQ(c.free, (std::vector<std::string>{"batch"}));
  // Nothing bound that the facts use: nothing derived but what the model fixes itself.
  c = complete({{"batch", 1}});
  ASSERT_EQ(c.derived.size(), 1u);
  EXPECT_EQ(c.derived[0].value, "past + seq");
  EXPECT_EQ(c.free, (std::vector<std::string>{"past", "seq"}));
}

TEST(Contract, BoundsCarryTheirOrigins) {
  // A position table of 4096 rows: seq <= 4096, from the Add's broadcast.
  Inferred r = Infer(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[batch, seq, 8] x) => (y) {
  table = ConstantOfShape <value = float {1.0}> (tshape)
  tshape = Constant <value = int64[3] {1, 4096, 8}> ()
  s = Shape (x)
  seq_len = Slice (s, one, two)
  one = Constant <value = int64[1] {1}> ()
  two = Constant <value = int64[1] {2}> ()
  zero = Constant <value = int64[1] {0}> ()
  pos = Slice (table, zero, seq_len, one)
  y = Add (x, pos)
}
)",
                     {"batch >= 1"});
  const ContractSymbol* seq = Symbol(r.contract, "seq");
  ASSERT_NE(seq, nullptr);
  ASSERT_TRUE(seq->max);
  EXPECT_EQ(*seq->max, 4096);
  EXPECT_FALSE(seq->max_assumed);
  ASSERT_FALSE(seq->bound_origins.empty());
  EXPECT_NE(seq->bound_origins[0].find("(Add)"), std::string::npos) << seq->bound_origins[0];
  // The user's bound is marked as such; the Shape reads only x's shape, not its value.
  const ContractSymbol* batch = Symbol(r.contract, "batch");
  EXPECT_EQ(batch->min, 1);
  EXPECT_TRUE(batch->min_assumed);
  EXPECT_TRUE(Input(r.contract, "x")->shape_consumers.empty());
}

constexpr char kChannels[] = R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[C] x) => (float[2, H] y) {
  s = Constant <value = int64[2] {2, -1}> ()
  y = Reshape (x, s)
}
)";

// Resize's scales were input 1 in Resize-10; from Resize-11 input 1 is roi, which decides
// no shape: the opset the model imports picks the positions.
TEST(Contract, ShapeInputsFollowTheImportedVersion) {
  constexpr char kResize[] = R"(<ir_version: 8, opset_import: ["" : OPSET]>
main (float[1, 3, 8, 8] x, float[K] a, float[4] b) => (y) {
  y = Resize <mode = "nearest"> (x, a, b)
})";
  auto text = [&](const char* opset) {
    std::string t = kResize;
    t.replace(t.find("OPSET"), 5, opset);
    if (std::string(opset) == "10") t.replace(t.find(", b)"), 4, ")");  // Resize-10: X, scales
    return t;
  };
  Inferred v10 = Infer(text("10"));
  ASSERT_NE(Input(v10.contract, "a"), nullptr);
  EXPECT_EQ(Input(v10.contract, "a")->shape_consumers.size(), 1u);
  Inferred v13 = Infer(text("13"));
  ASSERT_NE(Input(v13.contract, "a"), nullptr);
  EXPECT_TRUE(Input(v13.contract, "a")->shape_consumers.empty());  // roi
  ASSERT_NE(Input(v13.contract, "b"), nullptr);
  EXPECT_EQ(Input(v13.contract, "b")->shape_consumers.size(), 1u);  // scales
}

TEST(Contract, DivisibilityIsStated) {
  Inferred r = Infer(kChannels);
  EXPECT_EQ(r.contract.divisibility, (std::vector<std::string>{"Mod(C, 2) == 0"}));
}

TEST(Profile, DerivesTheLengthTheFactsFixAndPrintsTrtexecFlags) {
  Inferred r = Infer(kKvCache);
  Profile p = MakeProfile(r.contract, r.result,
                          {{"batch", 1, 1, 4}, {"past", 0, 64, 1000}, {"seq", 1, 1, 24}});
  ASSERT_TRUE(p.errors.empty()) << p.errors[0];
  EXPECT_EQ(p.values[0].at("total"), 1);
  EXPECT_EQ(p.values[1].at("total"), 65);
  EXPECT_EQ(p.values[2].at("total"), 1024);
  EXPECT_EQ(TrtexecFlags(p),
            "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1 "
            "--optShapes=past_key:1x64x8,key:1x1x8,mask:1x65 "
            "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024");
  EXPECT_TRUE(CheckProfile(p, r.result).empty());
}

TEST(Profile, TheLengthMayBeGivenAndAnotherDerived) {
  Inferred r = Infer(kKvCache);
  Profile p = MakeProfile(r.contract, r.result,
                          {{"batch", 1, 1, 1}, {"total", 1, 65, 1024}, {"seq", 1, 1, 24}});
  ASSERT_TRUE(p.errors.empty()) << p.errors[0];
  EXPECT_EQ(p.values[0].at("past"), 0);
  EXPECT_EQ(p.values[1].at("past"), 64);
  EXPECT_EQ(p.values[2].at("past"), 1000);
  EXPECT_TRUE(CheckProfile(p, r.result).empty());
}

TEST(Profile, ASymbolWithoutRangeIsNamed) {
  Inferred r = Infer(kKvCache);
  Profile p = MakeProfile(r.contract, r.result, {{"batch", 1, 1, 1}, {"seq", 1, 1, 1}});
  ASSERT_FALSE(p.errors.empty());
  EXPECT_NE(p.errors[0].find("'past'"), std::string::npos) << p.errors[0];
}

TEST(Profile, AViolatedFactIsReportedWithItsOrigin) {
  Inferred r = Infer(kKvCache);
  Profile p = MakeProfile(
      r.contract, r.result,
      {{"batch", 1, 1, 1}, {"past", 0, 64, 1000}, {"seq", 1, 1, 24}, {"total", 1, 65, 1000}});
  std::vector<ProfileViolation> v = CheckProfile(p, r.result);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].point, "max");
  EXPECT_NE(v[0].what.find("total == past + seq"), std::string::npos) << v[0].what;
  EXPECT_NE(v[0].origin.find("'present'"), std::string::npos) << v[0].origin;
}

TEST(Profile, BoundsAndDivisibilityAreChecked) {
  Inferred r = Infer(kChannels);
  Profile p = MakeProfile(r.contract, r.result, {{"C", 2, 63, 512}});
  ASSERT_TRUE(p.errors.empty());
  std::vector<ProfileViolation> v = CheckProfile(p, r.result);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].point, "opt");
  EXPECT_NE(v[0].what.find("Mod(C, 2)"), std::string::npos) << v[0].what;
}

TEST(Profile, RangesParse) {
  std::string error;
  auto r = ParseSymbolRange("seq=1:128:4096", &error);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->symbol, "seq");
  EXPECT_EQ(r->min, 1);
  EXPECT_EQ(r->opt, 128);
  EXPECT_EQ(r->max, 4096);
  r = ParseSymbolRange("B=2", &error);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->min, 2);
  EXPECT_EQ(r->max, 2);
  EXPECT_FALSE(ParseSymbolRange("seq=4:2:8", &error));
  EXPECT_NE(error.find("MIN <= OPT <= MAX"), std::string::npos);
  EXPECT_FALSE(ParseSymbolRange("seq=1:2", &error));
  EXPECT_FALSE(ParseSymbolRange("seq", &error));
  EXPECT_FALSE(ParseSymbolRange("seq=-1", &error));
  EXPECT_FALSE(ParseSymbolRange("seq=x", &error));
}

}  // namespace
}  // namespace onnx_infer
