// Table tests of the split, scatter, gather and rearranging rules
// (schema/defs/ai_onnx/tensor_ops2.cc).
#include <gtest/gtest.h>

#include "base/strings.h"
#include "schema/builtin.h"
#include "schema/data_type.h"
#include "schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::Int64s;
using testing::RunRule;
using testing::T;

struct Case {
  const char* name;
  std::string node;  // NodeProto text
  int64_t opset;
  std::vector<const char*> inputs;  // types, "" for an absent input
  std::vector<std::optional<ConstValue>> values;
  std::string expected;  // RuleRun::Summary(), or "error: <part of the message>"
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class TensorOps2RuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(TensorOps2RuleTest, Infers) {
  const Case& c = GetParam();
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, inputs, c.values);
  if (c.expected.rfind("error: ", 0) == 0) {
    ASSERT_FALSE(run.status.ok()) << run.Summary();
    EXPECT_NE(run.status.message().find(c.expected.substr(7)), std::string::npos)
        << run.status.message();
  } else {
    EXPECT_EQ(run.Summary(), c.expected);
  }
}

// A scalar int64 value, possibly symbolic.
ConstValue Scalar(Dim d) {
  ConstValue v;
  v.elem_type = kInt64;
  v.ints = {d};
  return v;
}
ConstValue Scalar(int64_t i) { return Scalar(Dim::Const(i)); }

// A 1-D value of symbols and constants: Dims({"B", "3"}).
ConstValue Dims(const std::vector<std::string>& items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    v.ints.push_back(std::isdigit(static_cast<unsigned char>(i[0])) || i[0] == '-'
                         ? Dim::Const(std::stoll(i))
                         : Dim::Symbol(i));
  }
  return v;
}

ConstValue Floats(const std::vector<double>& values) {
  ConstValue v;
  v.elem_type = kFloat;
  v.dims = {static_cast<int64_t>(values.size())};
  v.reals = values;
  return v;
}

std::string Node(const char* op, std::vector<const char*> inputs, std::vector<const char*> outputs,
                 const std::string& attrs = "") {
  std::string s = std::string(R"(op_type: ")") + op + R"(")";
  for (const char* i : inputs) s += std::string(R"( input: ")") + i + R"(")";
  for (const char* o : outputs) s += std::string(R"( output: ")") + o + R"(")";
  return s + attrs;
}

std::string IntAttr(const char* name, int64_t i) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: INT i: )" + std::to_string(i) +
         " }";
}

std::string IntsAttr(const char* name, const std::vector<int64_t>& values) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: INTS)";
  for (int64_t v : values) s += " ints: " + std::to_string(v);
  return s + " }";
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

INSTANTIATE_TEST_SUITE_P(
    Split, TensorOps2RuleTest,
    ::testing::Values(
        Case{"split_1_equal_parts_default_axis",
             Node("Split", {"x"}, {"a", "b"}),
             1,
             {"float[6, 3]"},
             {},
             "float[3, 3]; float[3, 3]"},
        Case{"split_1_sizes_from_input",
             Node("Split", {"x", "s"}, {"a", "b"}, IntAttr("axis", 1)),
             1,
             {"float[2, 6]", "float[2]"},
             {std::nullopt, Int64s({2, 4})},
             "float[2, 2]; float[2, 4]"},
        Case{"split_1_sizes_from_attribute",
             Node("Split", {"x"}, {"a", "b"}, IntsAttr("split", {1, 5})),
             1,
             {"float[6]"},
             {},
             "float[1]; float[5]"},
        Case{"split_2_attribute_negative_axis",
             Node("Split", {"x"}, {"a", "b"}, IntAttr("axis", -1) + IntsAttr("split", {2, 4})),
             2,
             {"float[N, 6]"},
             {},
             "float[N, 2]; float[N, 4]"},
        Case{"split_11_symbolic_equal_parts",
             Node("Split", {"x"}, {"a", "b", "c"}),
             11,
             {"float[3*N, 4]"},
             {},
             "float[N, 4]; float[N, 4]; float[N, 4]"},
        Case{"split_11_symbolic_floor",
             Node("Split", {"x"}, {"a", "b"}),
             11,
             {"float[N]"},
             {},
             "float[floor(N/2)]; float[floor(N/2)]"},
        Case{"split_11_symbolic_not_divisible",
             Node("Split", {"x"}, {"a", "b"}),
             11,
             {"float[2*N + 1]"},
             {},
             "error: input 0 'x': dim 0 (2*N + 1) does not split into 2 equal parts"},
        Case{"split_11_not_divisible",
             Node("Split", {"x"}, {"a", "b"}),
             11,
             {"float[5]"},
             {},
             "error: input 0 'x': dim 0 (5) does not split into 2 equal parts"},
        Case{"split_11_sum_mismatch",
             Node("Split", {"x"}, {"a", "b"}, IntsAttr("split", {2, 2})),
             11,
             {"float[5]"},
             {},
             "error: attribute 'split': expected sizes adding up to dim 0 of input 0 'x' (5), got "
             "2 + 2 = 4"},
        Case{"split_11_sizes_count",
             Node("Split", {"x"}, {"a", "b"}, IntsAttr("split", {1, 2, 2})),
             11,
             {"float[5]"},
             {},
             "error: attribute 'split': expected 2 sizes (one per output), got 3"},
        Case{"split_11_negative_size",
             Node("Split", {"x"}, {"a", "b"}, IntsAttr("split", {-1, 6})),
             11,
             {"float[5]"},
             {},
             "error: attribute 'split': expected sizes >= 0, got -1"},
        Case{"split_11_axis_out_of_range",
             Node("Split", {"x"}, {"a"}, IntAttr("axis", 2)),
             11,
             {"float[5, 2]"},
             {},
             "error: attribute 'axis'"},
        Case{"split_11_scalar",
             Node("Split", {"x"}, {"a"}),
             11,
             {"float[]"},
             {},
             "error: input 0 'x': expected rank >= 1, got rank 0"},
        Case{"split_13_input_sizes_symbolic",
             Node("Split", {"x", "s"}, {"a", "b"}),
             13,
             {"float[N, 4]", "int64[2]"},
             {std::nullopt, Dims({"N", "0"})},
             "float[N, 4]; float[0, 4]"},
        Case{"split_13_input_sizes_unknown",
             Node("Split", {"x", "s"}, {"a", "b"}, IntAttr("axis", 1)),
             13,
             {"float[N, 4]", "int64[2]"},
             {},
             "float[N, ?]; float[N, ?]"},
        Case{"split_13_input_length_mismatch",
             Node("Split", {"x", "s"}, {"a", "b"}),
             13,
             {"float[N, 4]", "int64[3]"},
             {},
             "error: input 1 's': expected 2 sizes (one per output), got 3"},
        Case{"split_13_equal_parts",
             Node("Split", {"x"}, {"a", "b"}),
             13,
             {"float[4]"},
             {},
             "float[2]; float[2]"},
        Case{"split_13_zero_sizes",
             Node("Split", {"x", "s"}, {"a", "b", "c"}),
             13,
             {"float[0]", "int64[3]"},
             {std::nullopt, Int64s({0, 0, 0})},
             "float[0]; float[0]; float[0]"},
        Case{"split_18_num_outputs_uneven",
             Node("Split", {"x"}, {"a", "b", "c", "d"}, IntAttr("num_outputs", 4)),
             18,
             {"float[7]"},
             {},
             "float[2]; float[2]; float[2]; float[1]"},
        Case{"split_18_num_outputs_even",
             Node("Split", {"x"}, {"a", "b"}, IntAttr("axis", 1) + IntAttr("num_outputs", 2)),
             18,
             {"float[2, 6]"},
             {},
             "float[2, 3]; float[2, 3]"},
        Case{"split_18_num_outputs_symbolic",
             Node("Split", {"x"}, {"a", "b"}, IntAttr("num_outputs", 2)),
             18,
             {"float[N]"},
             {},
             "float[floor((N + 1)/2)]; float[N - floor((N + 1)/2)]"},
        Case{"split_18_num_outputs_too_many",
             Node("Split", {"x"}, {"a", "b", "c", "d"}, IntAttr("num_outputs", 4)),
             18,
             {"float[5]"},
             {},
             "error: attribute 'num_outputs': dim 0 (5) cannot be cut into 4"},
        Case{"split_18_num_outputs_mismatch",
             Node("Split", {"x"}, {"a", "b"}, IntAttr("num_outputs", 3)),
             18,
             {"float[6]"},
             {},
             "error: attribute 'num_outputs': expected 2 (the number of outputs), got 3"},
        Case{"split_18_both_given",
             Node("Split", {"x", "s"}, {"a", "b"}, IntAttr("num_outputs", 2)),
             18,
             {"float[6]", "int64[2]"},
             {},
             "error: expected input 'split' or attribute 'num_outputs', got both"},
        Case{"split_18_sizes",
             Node("Split", {"x", "s"}, {"a", "b"}),
             18,
             {"float[6]", "int64[2]"},
             {std::nullopt, Int64s({2, 4})},
             "float[2]; float[4]"},
        Case{"split_rank_unknown",
             Node("Split", {"x"}, {"a", "b"}),
             13,
             {"float"},
             {},
             "float; float"}));

TEST(TensorOps2ValuesTest, SplitOfAShapeCarriesItsPieces) {
  auto run = RunRule(BuiltinSchemas(), Node("Split", {"x", "s"}, {"a", "b"}), 13,
                     {T("int64[3]"), T("int64[2]")}, {Dims({"B", "S", "768"}), Int64s({1, 2})});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.Summary(), "int64[1]; int64[2]");
  ASSERT_TRUE(run.values[0] && run.values[1]);
  EXPECT_EQ(StrJoin(run.values[0]->ints, ", "), "B");
  EXPECT_EQ(StrJoin(run.values[1]->ints, ", "), "S, 768");
}

TEST(TensorOps2ValuesTest, Split18WithoutCountWarns) {
  auto run = RunRule(BuiltinSchemas(), Node("Split", {"x"}, {"a", "b"}), 18, {T("float[4]")});
  EXPECT_EQ(run.Summary(), "float[2]; float[2]");
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_NE(run.warnings[0].find("neither input 'split' nor attribute 'num_outputs'"),
            std::string::npos);
}

// Dims a rule unifies are recorded as facts, so that the next node sees them.
TEST(TensorOps2FactsTest, EqualDimsAreRecorded) {
  symbolic::Unifier u;
  auto split = RunRule(BuiltinSchemas(), Node("Split", {"x", "s"}, {"a", "b"}), 13,
                       {T("float[N]"), T("int64[2]")}, {std::nullopt, Int64s({2, 3})}, &u);
  EXPECT_EQ(split.Summary(), "float[2]; float[3]");
  EXPECT_EQ(split.facts, (std::vector<std::string>{
                             "N == 5 (node of output 'a' (Split): dim 0 of input 0 'x' and the "
                             "sum of input 1 's')"}));

  symbolic::Unifier u2;
  auto scatter = RunRule(BuiltinSchemas(), Node("ScatterElements", {"d", "i", "u"}, {"y"}), 13,
                         {T("float[N, 5]"), T("int64[K, 2]"), T("float[3, 2]")}, {}, &u2);
  EXPECT_EQ(scatter.Summary(), "float[N, 5]");
  EXPECT_EQ(scatter.facts,
            (std::vector<std::string>{
                "K == 3 (node of output 'y' (ScatterElements): input 1 'i' dim 0 and input 2 'u' "
                "dim 0)"}));

  symbolic::Unifier u3;
  auto gnd =
      RunRule(BuiltinSchemas(), Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 1)), 13,
              {T("float[B, 4, 5]"), T("int64[2, 1]")}, {}, &u3);
  EXPECT_EQ(gnd.Summary(), "float[2, 5]");
  EXPECT_EQ(gnd.facts, (std::vector<std::string>{
                           "B == 2 (node of output 'y' (GatherND): input 0 'd' dim 0 and input "
                           "1 'i' dim 0 (a batch dim))"}));
}

INSTANTIATE_TEST_SUITE_P(
    Trilu, TensorOps2RuleTest,
    ::testing::Values(Case{"trilu_keeps_type",
                           Node("Trilu", {"x"}, {"y"}),
                           14,
                           {"int64[B, N, M]"},
                           {},
                           "int64[B, N, M]"},
                      Case{"trilu_with_k",
                           Node("Trilu", {"x", "k"}, {"y"}, IntAttr("upper", 0)),
                           14,
                           {"float[4, 5]", "int64[]"},
                           {},
                           "float[4, 5]"},
                      Case{"trilu_zero_rows",
                           Node("Trilu", {"x"}, {"y"}),
                           14,
                           {"int64[3, 0, 5]"},
                           {},
                           "int64[3, 0, 5]"},
                      Case{"trilu_rank_1",
                           Node("Trilu", {"x"}, {"y"}),
                           14,
                           {"float[5]"},
                           {},
                           "error: input 0 'x': expected rank >= 2, got rank 1"},
                      Case{"trilu_k_not_scalar",
                           Node("Trilu", {"x", "k"}, {"y"}),
                           14,
                           {"float[4, 5]", "int64[2]"},
                           {},
                           "error: input 1 'k': expected a scalar, got [2]"}));

INSTANTIATE_TEST_SUITE_P(
    Scatter, TensorOps2RuleTest,
    ::testing::Values(
        Case{"scatter_9_deprecated",
             Node("Scatter", {"d", "i", "u"}, {"y"}, IntAttr("axis", 1)),
             9,
             {"float[1, 5]", "int64[1, 2]", "float[1, 2]"},
             {},
             "float[1, 5]"},
        Case{"scatter_11_rank_mismatch",
             Node("Scatter", {"d", "i", "u"}, {"y"}),
             11,
             {"float[3, 3]", "int64[2]", "float[2]"},
             {},
             "error: input 1 'i': expected rank 2 (the rank of data), got rank 1"},
        Case{"scatter_elements_11",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}),
             11,
             {"float[N, 3]", "int64[2, 3]", "float[2, 3]"},
             {},
             "float[N, 3]"},
        Case{"scatter_elements_updates_differ",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}),
             13,
             {"float[3, 3]", "int64[2, 3]", "float[2, 2]"},
             {},
             "error: input 1 'i' dim 1 and input 2 'u' dim 1: expected equal dims, got 3 vs 2"},
        Case{"scatter_elements_axis_out_of_range",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}, IntAttr("axis", 2)),
             13,
             {"float[3, 3]", "int64[2, 3]", "float[2, 3]"},
             {},
             "error: attribute 'axis'"},
        Case{"scatter_elements_16_add",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "add")),
             16,
             {"float[3]", "int64[2]", "float[2]"},
             {},
             "float[3]"},
        Case{"scatter_elements_16_max_is_18",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "max")),
             16,
             {"float[3]", "int64[2]", "float[2]"},
             {},
             "error: attribute 'reduction': expected one of none, add, mul, got 'max'"},
        Case{"scatter_elements_18_max",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "max")),
             18,
             {"float[3]", "int64[2]", "float[2]"},
             {},
             "float[3]"},
        Case{"scatter_elements_data_unknown",
             Node("ScatterElements", {"d", "i", "u"}, {"y"}),
             18,
             {"float", "int64[2]", "float[2]"},
             {},
             "float"},
        Case{"scatternd_11",
             Node("ScatterND", {"d", "i", "u"}, {"y"}),
             11,
             {"float[4, 4, 4]", "int64[2, 1]", "float[2, 4, 4]"},
             {},
             "float[4, 4, 4]"},
        Case{"scatternd_13_elements",
             Node("ScatterND", {"d", "i", "u"}, {"y"}),
             13,
             {"float[N, M]", "int64[K, 2]", "float[K]"},
             {},
             "float[N, M]"},
        Case{"scatternd_updates_rank",
             Node("ScatterND", {"d", "i", "u"}, {"y"}),
             13,
             {"float[4, 4, 4]", "int64[2, 1]", "float[2, 4]"},
             {},
             "error: input 2 'u': expected rank 3 (indices[:-1] + data[1:]), got rank 2"},
        Case{"scatternd_updates_dim",
             Node("ScatterND", {"d", "i", "u"}, {"y"}),
             13,
             {"float[4, 4, 4]", "int64[2, 1]", "float[2, 4, 3]"},
             {},
             "error: input 2 'u' dim 2 and input 0 'd' dim 2: expected equal dims, got 3 vs 4"},
        Case{"scatternd_index_too_long",
             Node("ScatterND", {"d", "i", "u"}, {"y"}),
             13,
             {"float[4, 4]", "int64[2, 3]", "float[2]"},
             {},
             "error: input 1 'i': expected a last dim in [1, 2] (the rank of data), got 3"},
        Case{"scatternd_16_mul",
             Node("ScatterND", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "mul")),
             16,
             {"float[4]", "int64[1, 1]", "float[1]"},
             {},
             "float[4]"},
        Case{"scatternd_16_min_is_18",
             Node("ScatterND", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "min")),
             16,
             {"float[4]", "int64[1, 1]", "float[1]"},
             {},
             "error: attribute 'reduction'"},
        Case{"scatternd_18_min",
             Node("ScatterND", {"d", "i", "u"}, {"y"}, StrAttr("reduction", "min")),
             18,
             {"float[2, 2]", "int64[2, 2]", "float[2]"},
             {},
             "float[2, 2]"},
        Case{"tensorscatter_default_axis",
             Node("TensorScatter", {"p", "u"}, {"y"}),
             24,
             {"float[B, H, 16, D]", "float[B, H, S, D]"},
             {},
             "float[B, H, 16, D]"},
        Case{"tensorscatter_unifies_dims",
             Node("TensorScatter", {"p", "u", "w"}, {"y"}, IntAttr("axis", 1)),
             24,
             {"float[?, 4, 5]", "float[3, 1, ?]", "int64[3]"},
             {},
             "float[3, 4, 5]"},
        Case{"tensorscatter_update_only",
             Node("TensorScatter", {"p", "u"}, {"y"}),
             24,
             {"float", "float[2, 1, 3, 5]"},
             {},
             "float[2, 1, ?, 5]"},
        Case{"tensorscatter_linear_too_long",
             Node("TensorScatter", {"p", "u"}, {"y"}),
             24,
             {"float[2, 1, 4, 5]", "float[2, 1, 6, 5]"},
             {},
             "error: input 1 'u': expected a sequence length (dim 2) at most 4"},
        Case{"tensorscatter_circular_longer",
             Node("TensorScatter", {"p", "u"}, {"y"}, StrAttr("mode", "circular")),
             24,
             {"float[2, 1, 4, 5]", "float[2, 1, 6, 5]"},
             {},
             "float[2, 1, 4, 5]"},
        Case{"tensorscatter_batch_axis",
             Node("TensorScatter", {"p", "u"}, {"y"}, IntAttr("axis", 0)),
             24,
             {"float[2, 4]", "float[2, 4]"},
             {},
             "error: attribute 'axis': expected a sequence axis"},
        Case{"tensorscatter_bad_mode",
             Node("TensorScatter", {"p", "u"}, {"y"}, StrAttr("mode", "ring")),
             24,
             {"float[2, 4]", "float[2, 4]"},
             {},
             "error: attribute 'mode': expected one of linear"},
        Case{"tensorscatter_other_dim_differs",
             Node("TensorScatter", {"p", "u"}, {"y"}),
             24,
             {"float[2, 4, 5]", "float[3, 1, 5]"},
             {},
             "error: input 0 'p' dim 0 and input 1 'u' dim 0: expected equal dims, got 2 vs 3"}));

INSTANTIATE_TEST_SUITE_P(
    GatherND, TensorOps2RuleTest,
    ::testing::Values(
        Case{"gathernd_11_slices",
             Node("GatherND", {"d", "i"}, {"y"}),
             11,
             {"float[2, 2, 2]", "int64[2, 1, 2]"},
             {},
             "float[2, 1, 2]"},
        Case{"gathernd_11_elements",
             Node("GatherND", {"d", "i"}, {"y"}),
             11,
             {"int32[N, M]", "int64[K, 2]"},
             {},
             "int32[K]"},
        Case{"gathernd_12_batch_dims",
             Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 1)),
             12,
             {"int32[2, 2, 2]", "int64[2, 1]"},
             {},
             "int32[2, 2]"},
        Case{"gathernd_13_batch_dim_unknown_takes_data",
             Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 1)),
             13,
             {"float[B, 4, 5]", "int64[?, 3, 2]"},
             {},
             "float[B, 3]"},
        Case{"gathernd_index_length_unknown",
             Node("GatherND", {"d", "i"}, {"y"}),
             13,
             {"float[4, 5]", "int64[3, ?]"},
             {},
             "float"},
        Case{
            "gathernd_index_too_long",
            Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 1)),
            13,
            {"float[2, 4]", "int64[2, 2]"},
            {},
            "error: input 1 'i': expected a last dim in [1, 1] (rank of data - batch_dims), got 2"},
        Case{"gathernd_batch_dims_too_large",
             Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 2)),
             13,
             {"float[2, 4]", "int64[2, 1]"},
             {},
             "error: attribute 'batch_dims': expected less"},
        Case{"gathernd_batch_dims_differ",
             Node("GatherND", {"d", "i"}, {"y"}, IntAttr("batch_dims", 1)),
             13,
             {"float[2, 4]", "int64[3, 1]"},
             {},
             "error: input 0 'd' dim 0 and input 1 'i' dim 0 (a batch dim): expected equal dims, "
             "got 2 vs 3"},
        Case{"gathernd_scalar_indices",
             Node("GatherND", {"d", "i"}, {"y"}),
             13,
             {"float[2, 4]", "int64[]"},
             {},
             "error: input 1 'i': expected rank >= 1, got rank 0"}));

INSTANTIATE_TEST_SUITE_P(
    OneHot, TensorOps2RuleTest,
    ::testing::Values(Case{"onehot_9_default_axis_last",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           9,
                           {"int64[3]", "float[]", "int32[2]"},
                           {std::nullopt, Floats({12.0})},
                           "int32[3, 12]"},
                      Case{"onehot_11_axis",
                           Node("OneHot", {"i", "d", "v"}, {"y"}, IntAttr("axis", 1)),
                           11,
                           {"int64[2, 2]", "int64[1]", "float[2]"},
                           {std::nullopt, Int64s({10})},
                           "float[2, 10, 2]"},
                      Case{"onehot_11_negative_axis",
                           Node("OneHot", {"i", "d", "v"}, {"y"}, IntAttr("axis", -3)),
                           11,
                           {"int64[2, 2]", "int64[]", "float[2]"},
                           {std::nullopt, Scalar(10)},
                           "float[10, 2, 2]"},
                      Case{"onehot_11_symbolic_depth",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[B, S]", "int64[]", "float[2]"},
                           {std::nullopt, Scalar(Dim::Symbol("V"))},
                           "float[B, S, V]"},
                      Case{"onehot_11_fractional_depth_truncates",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[3]", "float[]", "float[2]"},
                           {std::nullopt, Floats({5.7})},
                           "float[3, 5]"},
                      Case{"onehot_11_depth_unknown",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[3]", "int64[]", "float[2]"},
                           {},
                           "float[3, ?]"},
                      Case{"onehot_axis_out_of_range",
                           Node("OneHot", {"i", "d", "v"}, {"y"}, IntAttr("axis", 2)),
                           11,
                           {"int64[3]", "int64[]", "float[2]"},
                           {},
                           "error: attribute 'axis'"},
                      Case{"onehot_depth_not_scalar",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[3]", "int64[2]", "float[2]"},
                           {},
                           "error: input 1 'd': expected a scalar or one element, got [2]"},
                      Case{"onehot_negative_depth",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[3]", "int64[]", "float[2]"},
                           {std::nullopt, Scalar(-1)},
                           "error: input 1 'd': expected a depth >= 0, got -1"},
                      Case{"onehot_values_not_pair",
                           Node("OneHot", {"i", "d", "v"}, {"y"}),
                           11,
                           {"int64[3]", "int64[]", "float[3]"},
                           {},
                           "error: input 2 'v': expected [2] ([off, on]), got [3]"}));

INSTANTIATE_TEST_SUITE_P(
    DataDependent, TensorOps2RuleTest,
    ::testing::Values(
        Case{"unique_flat_shares_one_symbol",
             Node("Unique", {"x"}, {"Y", "indices", "inverse", "counts"}),
             11,
             {"float[2, 3]"},
             {},
             "float[Y__d0]; int64[Y__d0]; int64[6]; int64[Y__d0]"},
        Case{"unique_axis",
             Node("Unique", {"x"}, {"Y", "indices", "inverse", "counts"}, IntAttr("axis", -1)),
             11,
             {"float[3, N]"},
             {},
             "float[3, Y__d1]; int64[Y__d1]; int64[N]; int64[Y__d1]"},
        Case{"unique_length_1",
             Node("Unique", {"x"}, {"Y", "indices", "inverse", "counts"}),
             11,
             {"int64[1]"},
             {},
             "int64[1]; int64[1]; int64[1]; int64[1]"},
        Case{"unique_known_value",
             Node("Unique", {"x"}, {"Y", "indices", "inverse", "counts"}),
             11,
             {"int64[6]"},
             {Int64s({2, 1, 1, 3, 4, 3})},
             "int64[4]; int64[4]; int64[6]; int64[4]"},
        Case{"unique_only_y", Node("Unique", {"x"}, {"Y"}), 11, {"float"}, {}, "float[Y__d0]"},
        Case{"unique_axis_out_of_range",
             Node("Unique", {"x"}, {"Y"}, IntAttr("axis", 2)),
             11,
             {"float[2, 3]"},
             {},
             "error: attribute 'axis'"},
        Case{"compress_axis_unknown_condition",
             Node("Compress", {"x", "c"}, {"y"}, IntAttr("axis", 0)),
             9,
             {"float[3, 2]", "bool[3]"},
             {},
             "float[?, 2]"},
        Case{"compress_flat_unknown_condition",
             Node("Compress", {"x", "c"}, {"y"}),
             11,
             {"float[3, 2]", "bool[3]"},
             {},
             "float[?]"},
        Case{"compress_known_condition",
             Node("Compress", {"x", "c"}, {"y"}, IntAttr("axis", -1)),
             11,
             {"float[N, 4]", "bool[3]"},
             {std::nullopt, Int64s({0, 1, 1})},
             "float[N, 2]"},
        Case{"compress_condition_longer_than_axis",
             Node("Compress", {"x", "c"}, {"y"}, IntAttr("axis", 1)),
             11,
             {"float[N, 2]", "bool[4]"},
             {std::nullopt, Int64s({1, 0, 1, 1})},
             "float[N, 1]"},
        Case{"compress_symbolic_length_unknown_count",
             Node("Compress", {"x", "c"}, {"y"}, IntAttr("axis", 0)),
             11,
             {"float[N, 2]", "bool[2]"},
             {std::nullopt, Int64s({1, 0})},
             "float[?, 2]"},
        Case{"compress_condition_rank",
             Node("Compress", {"x", "c"}, {"y"}),
             11,
             {"float[3, 2]", "bool[3, 1]"},
             {},
             "error: input 1 'c': expected rank 1, got rank 2"},
        Case{"nonzero_9", Node("NonZero", {"x"}, {"y"}), 9, {"float[2, 3]"}, {}, "int64[2, ?]"},
        Case{"nonzero_13_known_value",
             Node("NonZero", {"x"}, {"y"}),
             13,
             {"int64[4]"},
             {Int64s({0, 3, 0, 1})},
             "int64[1, 2]"},
        Case{
            "nonzero_empty", Node("NonZero", {"x"}, {"y"}), 13, {"float[N, 0]"}, {}, "int64[2, 0]"},
        Case{"nonzero_rank_unknown",
             Node("NonZero", {"x"}, {"y"}),
             13,
             {"float"},
             {},
             "int64[?, ?]"}));

INSTANTIATE_TEST_SUITE_P(
    Rearrange, TensorOps2RuleTest,
    ::testing::Values(
        Case{"eyelike_9_input_type",
             Node("EyeLike", {"x"}, {"y"}),
             9,
             {"int32[4, 4]"},
             {},
             "int32[4, 4]"},
        Case{"eyelike_22_dtype",
             Node("EyeLike", {"x"}, {"y"}, IntAttr("dtype", 11)),
             22,
             {"int32[N, M]"},
             {},
             "double[N, M]"},
        Case{"eyelike_dtype_without_input_type",
             Node("EyeLike", {"x"}, {"y"}, IntAttr("dtype", 1)),
             22,
             {"?"},
             {},
             "float"},
        Case{"eyelike_rank_3",
             Node("EyeLike", {"x"}, {"y"}),
             9,
             {"float[2, 3, 4]"},
             {},
             "error: input 0 'x': expected rank 2, got rank 3"},
        Case{"eyelike_bad_dtype",
             Node("EyeLike", {"x"}, {"y"}, IntAttr("dtype", 99)),
             22,
             {"float[2, 2]"},
             {},
             "error: attribute 'dtype': unknown type 99"},
        Case{"depthtospace_1",
             Node("DepthToSpace", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             1,
             {"float[1, 8, 2, 3]"},
             {},
             "float[1, 2, 4, 6]"},
        Case{"depthtospace_11_crd",
             Node("DepthToSpace", {"x"}, {"y"}, IntAttr("blocksize", 2) + StrAttr("mode", "CRD")),
             11,
             {"float[N, 4*C, H, W]"},
             {},
             "float[N, C, 2*H, 2*W]"},
        Case{"depthtospace_13_bad_mode",
             Node("DepthToSpace", {"x"}, {"y"}, IntAttr("blocksize", 2) + StrAttr("mode", "XYZ")),
             13,
             {"float[1, 8, 2, 3]"},
             {},
             "error: attribute 'mode': expected one of DCR, CRD"},
        Case{"depthtospace_channels_not_multiple",
             Node("DepthToSpace", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             13,
             {"float[1, 6, 2, 3]"},
             {},
             "error: input 0 'x' dim 1 (channels): expected a multiple of 4, got 6"},
        Case{"depthtospace_blocksize_required",
             Node("DepthToSpace", {"x"}, {"y"}),
             13,
             {"float[1, 8, 2, 3]"},
             {},
             "error: attribute 'blocksize'"},
        Case{"depthtospace_rank_3",
             Node("DepthToSpace", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             13,
             {"float[8, 2, 3]"},
             {},
             "error: input 0 'x': expected rank 4, got rank 3"},
        Case{"spacetodepth_1",
             Node("SpaceToDepth", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             1,
             {"float[1, 1, 4, 6]"},
             {},
             "float[1, 4, 2, 3]"},
        Case{"spacetodepth_13_symbolic",
             Node("SpaceToDepth", {"x"}, {"y"}, IntAttr("blocksize", 3)),
             13,
             {"float[N, C, H, 3*W]"},
             {},
             "float[N, 9*C, floor(H/3), W]"},
        Case{"spacetodepth_not_multiple",
             Node("SpaceToDepth", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             13,
             {"float[1, 1, 4, 5]"},
             {},
             "error: input 0 'x' dim 3: expected a multiple of 2, got 5"},
        Case{"spacetodepth_zero_block",
             Node("SpaceToDepth", {"x"}, {"y"}, IntAttr("blocksize", 0)),
             13,
             {"float[1, 1, 4, 4]"},
             {},
             "error: attribute 'blocksize': expected a value in [1, 2147483647], got 0"},
        Case{"spacetodepth_odd_symbolic_width",
             Node("SpaceToDepth", {"x"}, {"y"}, IntAttr("blocksize", 2)),
             13,
             {"float[1, 1, 4, 2*W + 1]"},
             {},
             "error: input 0 'x' dim 3: expected a multiple of 2, got 2*W + 1"},
        Case{"reversesequence_defaults",
             Node("ReverseSequence", {"x", "l"}, {"y"}),
             10,
             {"float[T, ?, 8]", "int64[4]"},
             {},
             "float[T, 4, 8]"},
        Case{"reversesequence_batch_first",
             Node("ReverseSequence", {"x", "l"}, {"y"},
                  IntAttr("batch_axis", 0) + IntAttr("time_axis", 1)),
             10,
             {"float[4, 4]", "int64[4]"},
             {},
             "float[4, 4]"},
        Case{"reversesequence_lens_differ",
             Node("ReverseSequence", {"x", "l"}, {"y"}),
             10,
             {"float[4, 3]", "int64[4]"},
             {},
             "error: input 0 'x' dim 1 (the batch axis) and input 1 'l' dim 0: expected equal "
             "dims, got 3 vs 4"},
        Case{"reversesequence_same_axes",
             Node("ReverseSequence", {"x", "l"}, {"y"}, IntAttr("batch_axis", 0)),
             10,
             {"float[4, 4]", "int64[4]"},
             {},
             "error: attributes 'batch_axis' and 'time_axis'"},
        Case{"reversesequence_axis_2",
             Node("ReverseSequence", {"x", "l"}, {"y"}, IntAttr("time_axis", 2)),
             10,
             {"float[4, 4, 4]", "int64[4]"},
             {},
             "error: attribute 'time_axis': expected 0 or 1, got 2"},
        Case{"reversesequence_rank_1",
             Node("ReverseSequence", {"x", "l"}, {"y"}),
             10,
             {"float[4]", "int64[4]"},
             {},
             "error: input 0 'x': expected rank >= 2, got rank 1"}));

}  // namespace
}  // namespace onnx_infer
