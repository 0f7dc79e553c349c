// The deployment contract (inference/contract.h) of small models: symbols shared by inputs,
// bounds with origins, values the facts fix, divisibility, inputs whose values reach
// shapes; profiles derived from ranges and checked against the facts.
#include "onnx_infer/inference/contract.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
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

// ---- The values of shape-tensor inputs (AddShapeInputValues).

Inferred InferWithValues(const std::string& text, InferenceOptions options = {}) {
  Inferred r;
  auto m = syntax::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (m.ok()) r.model = *m;
  onnx::ModelProto pristine = r.model;
  r.result = InferShapes(r.model, BuiltinSchemas(), options);
  r.contract = BuildContract(r.model, r.result);
  AddShapeInputValues(pristine, BuiltinSchemas(), options, r.result, &r.contract);
  return r;
}

std::vector<std::string> Values(const ContractInput& in) {
  std::vector<std::string> out;
  for (const auto& e : in.value_elements) out.push_back(e.name + "=" + e.value);
  return out;
}

// What the model forces: a Reshape target against the declared output ([batch, 8*total],
// with total == past + seq), a Range's limit against a declared length, a Concat's other
// axis; a target no declaration constrains stays free.
constexpr char kShapeInputs[] = R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[batch, past, 8] past_key, float[batch, seq, 8] key, int64[2] shape, int64[] n,
      int64[2] free_shape, int64[2] fill, float[2, S] x)
   => (float[batch, total, 8] present, float[batch, "8*total"] y, float[seq] r, z, c) {
  present = Concat <axis = 1> (past_key, key)
  y = Reshape (present, shape)
  zero = Constant <value = int64 {0}> ()
  one = Constant <value = int64 {1}> ()
  rr = Range (zero, n, one)
  r = Cast <to = 1> (rr)
  z = Reshape (present, free_shape)
  filled = ConstantOfShape (fill)
  c = Concat <axis = 0> (filled, x)
}
)";

TEST(Contract, ShapeInputValuesAreWhatTheModelForces) {
  Inferred r = InferWithValues(kShapeInputs);
  ASSERT_FALSE(r.result.HasErrors());
  const Contract& c = r.contract;
  EXPECT_FALSE(c.value_probe_failed);
  EXPECT_FALSE(Input(c, "past_key")->shape_tensor);
  ASSERT_TRUE(Input(c, "shape")->shape_tensor);
  EXPECT_EQ(Values(*Input(c, "shape")),
            (std::vector<std::string>{"shape[0]=batch", "shape[1]=8*past + 8*seq"}));
  const ContractValueElement& s0 = Input(c, "shape")->value_elements[0];
  ASSERT_EQ(s0.facts.size(), 1u);
  EXPECT_EQ(s0.facts[0], "batch == shape[0] (declared type of 'y' dim 0)");
  // A scalar's element is [0].
  EXPECT_EQ(Values(*Input(c, "n")), (std::vector<std::string>{"n[0]=seq"}));
  EXPECT_EQ(Values(*Input(c, "free_shape")),
            (std::vector<std::string>{"free_shape[0]=", "free_shape[1]="}));
  EXPECT_TRUE(Input(c, "free_shape")->value_elements[0].facts.empty());
  // ConstantOfShape's output meets x in a Concat on axis 0: its dim 1 must be S; its dim 0
  // is free.
  EXPECT_EQ(Values(*Input(c, "fill")), (std::vector<std::string>{"fill[0]=", "fill[1]=S"}));
}

// A broadcast does not force a value: ConstantOfShape(fill) + x[B, S] runs with fill = [1, 1]
// as well as [B, S].
TEST(Contract, ABroadcastLeavesTheValuesFree) {
  Inferred r = InferWithValues(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[B, S] x, int64[2] fill) => (y) {
  filled = ConstantOfShape (fill)
  y = Add (filled, x)
}
)");
  ASSERT_FALSE(r.result.HasErrors());
  EXPECT_EQ(Values(*Input(r.contract, "fill")), (std::vector<std::string>{"fill[0]=", "fill[1]="}));
}

// GroupQueryAttention without a past: present's length is total_sequence_length's value, and
// the declared present says T (an input's symbol: the attention mask's length).
TEST(Contract, GroupQueryAttentionsTotalLengthIsTheDeclaredOne) {
  Inferred r = InferWithValues(R"(<ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
main (float[B, S, 64] q, float[B, S, 32] k, float[B, S, 32] v, int32[B] seqlens_k,
      int32[] total_sequence_length, int64[B, T] attention_mask)
   => (float[B, S, 64] out, float[B, 2, T, 16] present_key, float[B, 2, T, 16] present_value) {
  out, present_key, present_value = com.microsoft.GroupQueryAttention <num_heads = 4,
      kv_num_heads = 2> (q, k, v, "", "", seqlens_k, total_sequence_length)
}
)");
  ASSERT_FALSE(r.result.HasErrors()) << r.result.diagnostics[0].message;
  const ContractInput* total = Input(r.contract, "total_sequence_length");
  ASSERT_TRUE(total->shape_tensor);
  EXPECT_EQ(Values(*total), (std::vector<std::string>{"total_sequence_length[0]=T"}));
  EXPECT_FALSE(Input(r.contract, "seqlens_k")->shape_tensor);
}

// A value given with --set-input is that constant; with a bound of the model's.
TEST(Contract, AGivenValueIsItsConstant) {
  InferenceOptions options;
  KnownInputValue v;
  v.name = "free_shape";
  v.value.ints = {Dim::Const(2), Dim::Const(-1)};
  v.value.dims = {2};
  options.input_values.push_back(v);
  Inferred r = InferWithValues(kShapeInputs, options);
  EXPECT_EQ(Values(*Input(r.contract, "free_shape")),
            (std::vector<std::string>{"free_shape[0]=2", "free_shape[1]=-1"}));
}

// Profiles: the values evaluated at each point; a free element needs a range (and has one);
// a given value that breaks the model's fact is a violation naming it; 0 is not checked.
TEST(Contract, ProfilesGiveTheValuesOfShapeInputs) {
  Inferred r = InferWithValues(kShapeInputs);
  std::vector<SymbolRange> ranges = {
      {"batch", 1, 2, 4}, {"past", 0, 8, 100}, {"seq", 1, 1, 16}, {"S", 3, 3, 3}};
  Profile p = MakeProfile(r.contract, r.result, ranges);
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_EQ(p.errors[0],
            "shape input 'free_shape': its value elements free_shape[0], free_shape[1] are not "
            "fixed by the model (TensorRT needs the values of a shape input in the profile): give "
            "--range 'free_shape[0]=MIN:OPT:MAX' --range 'free_shape[1]=MIN:OPT:MAX'");
  EXPECT_NE(p.errors[1].find("'fill': its value element fill[0] is not fixed"), std::string::npos);
  ranges.push_back({"free_shape[0]", 1, 2, 4});
  ranges.push_back({"free_shape[1]", 8, 8, 8});
  ranges.push_back({"fill[0]", 1, 1, 1});
  p = MakeProfile(r.contract, r.result, ranges);
  ASSERT_TRUE(p.errors.empty()) << p.errors[0];
  ASSERT_EQ(p.shape_values.size(), 4u);
  EXPECT_EQ(p.shape_values[0].input, "shape");
  EXPECT_EQ(p.shape_values[0].shapes[2], (std::vector<int64_t>{4, 8 * 116}));
  EXPECT_EQ(p.shape_values[1].input, "n");
  EXPECT_EQ(p.shape_values[1].shapes[0], (std::vector<int64_t>{1}));
  EXPECT_EQ(p.shape_values[2].shapes[1], (std::vector<int64_t>{2, 8}));
  EXPECT_EQ(p.shape_values[3].shapes[0], (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(CheckShapeInputValues(r.contract, p, r.result).empty());
  const std::string flags = TrtexecFlags(p);
  EXPECT_NE(flags.find("--maxShapes=past_key:4x100x8,key:4x16x8,x:2x3,shape:4x928,n:16,"
                       "free_shape:4x8,fill:1x3"),
            std::string::npos)
      << flags;
  EXPECT_NE(FormatProfile(p, ProfileFormat::kPolygraphy).find(" shape:[1,8] n:[1]"),
            std::string::npos);

  // Given back with a wrong value of n at opt, and 0 at max (not checked).
  std::string error;
  auto given = ParseProfileText(
      "--minShapes=past_key:1x0x8,key:1x1x8,x:2x3,shape:1x8,n:1,free_shape:1x8,fill:1x3 "
      "--optShapes=past_key:2x8x8,key:2x1x8,x:2x3,shape:2x72,n:2,free_shape:2x8,fill:1x3 "
      "--maxShapes=past_key:4x100x8,key:4x16x8,x:2x3,shape:4x928,n:0,free_shape:4x8,fill:1x3",
      &error);
  ASSERT_TRUE(given) << error;
  std::vector<ProfileViolation> violations;
  Profile back = ProfileFromShapes(r.contract, r.result, *given, &violations);
  ASSERT_TRUE(back.errors.empty()) << back.errors[0];
  for (auto& v : CheckShapeInputValues(r.contract, back, r.result)) violations.push_back(v);
  ASSERT_EQ(violations.size(), 2u);  // n's min <= opt <= max, and n == seq at opt
  EXPECT_EQ(violations[0].what, "min <= opt <= max (1, 2, 0)");
  EXPECT_EQ(violations[1].ToString(),
            "opt: seq == n[0] (1 != 2) fails at n[0] = 2, seq = 1 (declared type of 'r' dim 0)");
  // Without n's values: an error.
  given = ParseProfileText(
      "--minShapes=past_key:1x0x8 --optShapes=past_key:2x8x8 --maxShapes=past_key:4x100x8", &error);
  ASSERT_TRUE(given);
  back = ProfileFromShapes(r.contract, r.result, *given, &violations);
  EXPECT_NE(
      StrJoin(back.errors, "; ")
          .find("the profile has no values for shape input 'n' (TensorRT needs them: 1 value)"),
      std::string::npos);
}
}  // namespace
}  // namespace onnx_infer
