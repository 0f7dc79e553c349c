// Table tests of the ai.onnx.ml rules: element types from attributes (class labels, keys and
// values, vocabularies), batch dims from [N, C] or [C] inputs, every version difference, and
// the errors for attributes that contradict each other or the input.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::ExpectsError;
using testing::RunMatches;
using testing::RunRule;
using testing::T;

struct Case {
  const char* name;
  std::string node;
  int64_t opset;  // of ai.onnx.ml
  std::vector<Type> inputs;
  std::string expected;  // output types, or "error: ..." (a part of the message)
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class MlRuleTest : public ::testing::TestWithParam<Case> {};

TEST_P(MlRuleTest, Infers) {
  const Case& c = GetParam();
  auto run = RunRule(BuiltinSchemas(), c.node, c.opset, c.inputs);
  EXPECT_TRUE(RunMatches(run, c.expected));
  if (ExpectsError(c.expected)) return;
  ASSERT_TRUE(run.status.ok()) << run.status.message();
}

// A node of ai.onnx.ml with inputs x (and i), outputs y (and z), and attributes.
std::string Node(const std::string& op, const std::string& attrs, int inputs = 1, int outputs = 1) {
  std::string s = R"(domain: "ai.onnx.ml" op_type: ")" + op + R"(" input: "x" )";
  if (inputs > 1) s += R"(input: "i" )";
  s += R"(output: "y" )";
  if (outputs > 1) s += R"(output: "z" )";
  return s + attrs;
}
std::string Ints(const std::string& name, const std::string& values) {
  std::string s = R"(attribute { name: ")" + name + R"(" type: INTS )";
  size_t start = 0;
  while (start < values.size()) {
    size_t end = values.find(',', start);
    if (end == std::string::npos) end = values.size();
    s += "ints: " + values.substr(start, end - start) + " ";
    start = end + 1;
  }
  return s + "} ";
}
std::string Strings(const std::string& name, const std::vector<std::string>& values) {
  std::string s = R"(attribute { name: ")" + name + R"(" type: STRINGS )";
  for (const auto& v : values) s += R"(strings: ")" + v + R"(" )";
  return s + "} ";
}
std::string Floats(const std::string& name, const std::string& values) {
  return R"(attribute { name: ")" + name + R"(" type: FLOATS floats: )" + values + " } ";
}
std::string Int(const std::string& name, int64_t v) {
  return R"(attribute { name: ")" + name + R"(" type: INT i: )" + std::to_string(v) + " } ";
}
std::string Str(const std::string& name, const std::string& v) {
  return R"(attribute { name: ")" + name + R"(" type: STRING s: ")" + v + R"(" } )";
}
std::string TensorAttr(const std::string& name, int32_t type) {
  return R"(attribute { name: ")" + name + R"(" type: TENSOR t { data_type: )" +
         std::to_string(type) + " dims: 1 } } ";
}

INSTANTIATE_TEST_SUITE_P(
    Table, MlRuleTest,
    ::testing::Values(
        // ArrayFeatureExtractor
        Case{"afe_last_axis",
             Node("ArrayFeatureExtractor", "", 2),
             1,
             {T("float[N, 4]"), T("int64[2]")},
             "float[N, 2]"},
        Case{"afe_symbolic_indices",
             Node("ArrayFeatureExtractor", "", 2),
             1,
             {T("string[2, 3, 5]"), T("int64[K]")},
             "string[2, 3, K]"},
        Case{"afe_scalar_index",
             Node("ArrayFeatureExtractor", "", 2),
             1,
             {T("int64[N, 4]"), T("int64[]")},
             "int64[N, 1]"},
        Case{"afe_one_dim_input_no_shape",
             Node("ArrayFeatureExtractor", "", 2),
             1,
             {T("float[4]"), T("int64[2]")},
             "float"},
        // Binarizer, Imputer, Normalizer, Scaler
        Case{"binarizer", Node("Binarizer", ""), 1, {T("double[N, 3]")}, "double[N, 3]"},
        Case{"imputer",
             Node("Imputer", Floats("imputed_value_floats", "0")),
             1,
             {T("float[N, 3]")},
             "float[N, 3]"},
        Case{"normalizer_float",
             Node("Normalizer", Str("norm", "L2")),
             1,
             {T("int64[N, 3]")},
             "float[N, 3]"},
        Case{"scaler_float", Node("Scaler", Floats("scale", "2")), 1, {T("double[5]")}, "float[5]"},
        // CastMap
        Case{"castmap_default_float",
             Node("CastMap", ""),
             1,
             {Type::Map(kInt64, T("string"))},
             "float"},
        Case{"castmap_to_int64",
             Node("CastMap", Str("cast_to", "TO_INT64")),
             1,
             {Type::Map(kInt64, T("float"))},
             "int64"},
        Case{"castmap_bad_cast_to",
             Node("CastMap", Str("cast_to", "TO_DOUBLE")),
             1,
             {Type::Map(kInt64, T("float"))},
             "error: attribute 'cast_to': expected TO_FLOAT"},
        Case{"castmap_bad_map_form",
             Node("CastMap", Str("map_form", "DIAGONAL")),
             1,
             {Type::Map(kInt64, T("float"))},
             "error: attribute 'map_form': expected DENSE"},
        // CategoryMapper
        Case{"category_mapper_strings_to_ints",
             Node("CategoryMapper",
                  Strings("cats_strings", {"a", "b"}) + Ints("cats_int64s", "1,2")),
             1,
             {T("string[N, 2]")},
             "int64[N, 2]"},
        Case{"category_mapper_ints_to_strings",
             Node("CategoryMapper", ""),
             1,
             {T("int64[3]")},
             "string[3]"},
        Case{"category_mapper_float_input",
             Node("CategoryMapper", ""),
             1,
             {T("float[3]")},
             "error: input 0 'x': expected element type string or int64"},
        // DictVectorizer
        Case{"dict_vectorizer_value_type",
             Node("DictVectorizer", Strings("string_vocabulary", {"a", "b", "c"})),
             1,
             {Type::Map(kString, T("double"))},
             "double"},
        Case{"dict_vectorizer_key_mismatch",
             Node("DictVectorizer", Ints("int64_vocabulary", "1,2")),
             1,
             {Type::Map(kString, T("float"))},
             "error: input 0 'x': expected map keys of type int64 (the vocabulary's), got string"},
        Case{"dict_vectorizer_no_vocabulary",
             Node("DictVectorizer", ""),
             1,
             {Type::Map(kString, T("float"))},
             "error: got neither"},
        Case{"dict_vectorizer_both_vocabularies",
             Node("DictVectorizer",
                  Ints("int64_vocabulary", "1") + Strings("string_vocabulary", {"a"})),
             1,
             {Type::Map(kString, T("float"))},
             "error: got both"},
        // FeatureVectorizer
        Case{
            "feature_vectorizer_batch",
            R"(domain: "ai.onnx.ml" op_type: "FeatureVectorizer" input: "a" input: "b" output: "y" )" +
                Ints("inputdimensions", "2,3"),
            1,
            {T("int64[N, 2]"), T("double[N, 3]")},
            "float[N, 5]"},
        Case{"feature_vectorizer_one_example",
             R"(domain: "ai.onnx.ml" op_type: "FeatureVectorizer" input: "a" output: "y" )" +
                 Ints("inputdimensions", "4"),
             1,
             {T("int32[4]")},
             "float[1, 4]"},
        Case{"feature_vectorizer_no_dimensions",
             R"(domain: "ai.onnx.ml" op_type: "FeatureVectorizer" input: "a" output: "y" )",
             1,
             {T("float[N, 4]")},
             "float[N, ?]"},
        Case{"feature_vectorizer_wrong_count",
             R"(domain: "ai.onnx.ml" op_type: "FeatureVectorizer" input: "a" output: "y" )" +
                 Ints("inputdimensions", "4,1"),
             1,
             {T("float[N, 4]")},
             "error: attribute 'inputdimensions': expected 1 values (one per input), got 2"},
        // LabelEncoder 1, 2, 4
        Case{"label_encoder_v1_strings",
             Node("LabelEncoder", Strings("classes_strings", {"a"})),
             1,
             {T("string[N]")},
             "int64[N]"},
        Case{"label_encoder_v1_ints",
             Node("LabelEncoder", Strings("classes_strings", {"a"})),
             1,
             {T("int64[N, 2]")},
             "string[N, 2]"},
        Case{"label_encoder_v2_floats",
             Node("LabelEncoder", Floats("keys_floats", "1") + Strings("values_strings", {"a"})),
             2,
             {T("float[3]")},
             "string[3]"},
        Case{"label_encoder_v2_key_mismatch",
             Node("LabelEncoder", Strings("keys_strings", {"a"}) + Ints("values_int64s", "1")),
             2,
             {T("int64[3]")},
             "error: input 0 'x': expected element type string (the keys' type), got int64"},
        Case{"label_encoder_v2_no_values",
             Node("LabelEncoder", Strings("keys_strings", {"a"})),
             2,
             {T("string[3]")},
             "error: attribute 'values_*': expected one of the values_*"},
        Case{"label_encoder_v2_two_keys",
             Node("LabelEncoder", Strings("keys_strings", {"a"}) + Ints("keys_int64s", "1") +
                                      Ints("values_int64s", "1")),
             2,
             {T("string[3]")},
             "error: expected only one of the keys_* attributes"},
        Case{"label_encoder_v2_ignores_tensors",
             Node("LabelEncoder",
                  Strings("keys_strings", {"a"}) + TensorAttr("values_tensor", kInt16)),
             2,
             {T("string[3]")},
             "error: attribute 'values_*'"},
        Case{"label_encoder_v4_tensor_values",
             Node("LabelEncoder",
                  Strings("keys_strings", {"a"}) + TensorAttr("values_tensor", kInt16)),
             4,
             {T("string[N, 5]")},
             "int16[N, 5]"},
        Case{"label_encoder_v4_tensor_keys",
             Node("LabelEncoder",
                  TensorAttr("keys_tensor", kInt32) + TensorAttr("values_tensor", kDouble)),
             4,
             {T("int32[7]")},
             "double[7]"},
        // LinearClassifier, LinearRegressor
        Case{"linear_classifier_int_labels",
             Node("LinearClassifier",
                  Ints("classlabels_ints", "0,1,2") + Floats("coefficients", "1"), 1, 2),
             1,
             {T("float[N, 4]")},
             "int64[N]; float[N, 3]"},
        Case{"linear_classifier_one_example",
             Node("LinearClassifier",
                  Strings("classlabels_strings", {"a", "b"}) + Floats("coefficients", "1"), 1, 2),
             1,
             {T("double[4]")},
             "string[1]; float[1, 2]"},
        Case{"linear_classifier_no_labels",
             Node("LinearClassifier", Floats("coefficients", "1"), 1, 2),
             1,
             {T("float[N, 4]")},
             "error: got neither"},
        Case{"linear_classifier_string_input",
             Node("LinearClassifier", Ints("classlabels_ints", "0,1") + Floats("coefficients", "1"),
                  1, 2),
             1,
             {T("string[N, 4]")},
             "error: input 0 'x': expected element type float or double"},
        Case{"linear_regressor_default_one_target",
             Node("LinearRegressor", ""),
             1,
             {T("float[N, 4]")},
             "float[N, 1]"},
        Case{"linear_regressor_targets",
             Node("LinearRegressor", Int("targets", 3)),
             1,
             {T("int32[B, 4]")},
             "float[B, 3]"},
        Case{"linear_regressor_zero_targets",
             Node("LinearRegressor", Int("targets", 0)),
             1,
             {T("int32[B, 4]")},
             "error: attribute 'targets': expected at least 1, got 0"},
        // OneHotEncoder
        Case{"one_hot_encoder_appends_categories",
             Node("OneHotEncoder", Ints("cats_int64s", "1,2,3,4")),
             1,
             {T("float[1, 1]")},
             "float[1, 1, 4]"},
        Case{"one_hot_encoder_strings",
             Node("OneHotEncoder", Strings("cats_strings", {"a", "b"})),
             1,
             {T("string[N]")},
             "float[N, 2]"},
        Case{"one_hot_encoder_no_categories",
             Node("OneHotEncoder", ""),
             1,
             {T("string[N]")},
             "error: got neither"},
        // SVMClassifier, SVMRegressor
        Case{"svm_classifier_probabilities",
             Node("SVMClassifier",
                  Ints("classlabels_ints", "0,1,2") + Floats("prob_a", "1") + Floats("prob_b", "1"),
                  1, 2),
             1,
             {T("float[N, 4]")},
             "int64[N]; float[N, 3]"},
        Case{"svm_classifier_raw_scores",
             Node("SVMClassifier", Strings("classlabels_strings", {"a", "b", "c"}), 1, 2),
             1,
             {T("float[N, 4]")},
             "string[N]; float[N, ?]"},
        Case{"svm_regressor", Node("SVMRegressor", ""), 1, {T("double[N, 4]")}, "float[N, 1]"},
        // TreeEnsemble 5, TreeEnsembleClassifier 1/3/5, TreeEnsembleRegressor 1/3/5
        Case{"tree_ensemble_keeps_type",
             Node("TreeEnsemble", Int("n_targets", 2)),
             5,
             {T("double[N, 3]")},
             "double[N, 2]"},
        Case{"tree_ensemble_no_targets",
             Node("TreeEnsemble", ""),
             5,
             {T("float16[N, 3]")},
             "float16[N, ?]"},
        Case{"tree_ensemble_rank",
             Node("TreeEnsemble", Int("n_targets", 1)),
             5,
             {T("float[3]")},
             "error: input 0 'x': expected rank 2 ([N, F]), got rank 1"},
        Case{"tree_ensemble_int_input",
             Node("TreeEnsemble", Int("n_targets", 1)),
             5,
             {T("int64[N, 3]")},
             "error: input 0 'x': expected element type float or double or float16"},
        Case{"tree_classifier_v1",
             Node("TreeEnsembleClassifier", Ints("classlabels_int64s", "0,1,2"), 1, 2),
             1,
             {T("float[N, 13]")},
             "int64[N]; float[N, 3]"},
        Case{"tree_classifier_v3_binary_strings",
             Node("TreeEnsembleClassifier", Strings("classlabels_strings", {"no", "yes"}), 1, 2),
             3,
             {T("double[B, 2]")},
             "string[B]; float[B, 2]"},
        Case{"tree_classifier_v5",
             Node("TreeEnsembleClassifier", Ints("classlabels_int64s", "4,5"), 1, 2),
             5,
             {T("int64[7]")},
             "int64[1]; float[1, 2]"},
        Case{"tree_classifier_both_labels",
             Node("TreeEnsembleClassifier",
                  Ints("classlabels_int64s", "0") + Strings("classlabels_strings", {"a"}), 1, 2),
             3,
             {T("float[N, 2]")},
             "error: got both"},
        Case{"tree_regressor_v1",
             Node("TreeEnsembleRegressor", Int("n_targets", 1)),
             1,
             {T("float[N, 4]")},
             "float[N, 1]"},
        Case{"tree_regressor_v3_no_targets",
             Node("TreeEnsembleRegressor", ""),
             3,
             {T("double[N, 4]")},
             "float[N, ?]"},
        Case{"tree_regressor_v5",
             Node("TreeEnsembleRegressor", Int("n_targets", 2)),
             5,
             {T("int32[N, 4]")},
             "float[N, 2]"},
        // ZipMap
        Case{"zipmap_int_labels",
             Node("ZipMap", Ints("classlabels_int64s", "0,1,2")),
             1,
             {T("float[N, 3]")},
             "seq(map(int64, float))"},
        Case{"zipmap_string_labels",
             Node("ZipMap", Strings("classlabels_strings", {"a", "b"})),
             1,
             {T("float[N, 2]")},
             "seq(map(string, float))"},
        Case{"zipmap_label_count",
             Node("ZipMap", Ints("classlabels_int64s", "0,1,2")),
             1,
             {T("float[N, 2]")},
             "error: input 0 'x': expected 3 scores per row (one per class label), got 2"}));

}  // namespace
}  // namespace onnx_infer
