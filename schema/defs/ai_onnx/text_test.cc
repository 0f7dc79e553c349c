// Table tests of the string rules (text.cc): StringConcat, StringSplit, RegexFullMatch,
// StringNormalizer, TfIdfVectorizer.
#include <gtest/gtest.h>

#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/test_util.h"

namespace onnx_infer {
namespace {

using testing::FloatAttr;
using testing::Int64s;
using testing::IntAttr;
using testing::IntsAttr;
using testing::Node;
using testing::RunRuleCase;
using testing::StrAttr;
using testing::StrsAttr;

using Case = testing::RuleCase;
using TextRuleTest = testing::RuleTableTest;

TEST_P(TextRuleTest, Infers) { EXPECT_TRUE(RunRuleCase(BuiltinSchemas(), GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    Strings, TextRuleTest,
    ::testing::Values(
        Case{"string_concat_broadcast",
             Node("StringConcat", {"a", "b"}, {"y"}),
             20,
             {"string[N, 3]", "string[]"},
             {},
             "string[N, 3]"},
        Case{"string_concat_mismatch",
             Node("StringConcat", {"a", "b"}, {"y"}),
             20,
             {"string[2]", "string[3]"},
             {},
             "error: "},
        Case{"regex_full_match",
             Node("RegexFullMatch", {"x"}, {"y"}, StrAttr("pattern", "a.*")),
             20,
             {"string[N, 2]"},
             {},
             "bool[N, 2]"},
        Case{"normalizer_no_stopwords_keeps_length",
             Node("StringNormalizer", {"x"}, {"y"}, StrAttr("case_change_action", "LOWER")),
             10,
             {"string[4]"},
             {},
             "string[4]"},
        Case{"normalizer_empty_input_gives_one_empty_string",
             Node("StringNormalizer", {"x"}, {"y"}),
             10,
             {"string[0]"},
             {},
             "string[1]"},
        Case{"normalizer_symbolic_length",
             Node("StringNormalizer", {"x"}, {"y"}),
             10,
             {"string[1, C]"},
             {},
             "string[1, Max(1, C)]"},
        Case{"normalizer_stopwords_unknown_length",
             Node("StringNormalizer", {"x"}, {"y"}, StrsAttr("stopwords", {"monday"})),
             10,
             {"string[1, 4]"},
             {},
             "string[1, ?]"},
        Case{"normalizer_first_dim_not_1",
             Node("StringNormalizer", {"x"}, {"y"}),
             10,
             {"string[2, 4]"},
             {},
             "error: input 0 'x' dim 0 of [1, C]"},
        Case{"normalizer_rank_3",
             Node("StringNormalizer", {"x"}, {"y"}),
             10,
             {"string[1, 2, 4]"},
             {},
             "error: input 0 'x': expected [C] or [1, C], got rank 3"},
        Case{"string_split",
             Node("StringSplit", {"x"}, {"y", "n"}, StrAttr("delimiter", ",")),
             20,
             {"string[N, 2]"},
             {},
             "string[N, 2, ?]; int64[N, 2]"},
        Case{"string_split_negative_maxsplit",
             Node("StringSplit", {"x"}, {"y", "n"}, IntAttr("maxsplit", -1)),
             20,
             {"string[2]"},
             {},
             "error: attribute 'maxsplit': expected >= 0, got -1"},
        Case{"tfidf_1d",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 2) +
                      IntAttr("max_gram_length", 2) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0, 4}) +
                      IntsAttr("ngram_indexes", {0, 1, 2, 3, 4, 5, 6}) +
                      IntsAttr("pool_int64s", {2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 9, 1, 2, 3})),
             9,
             {"int32[12]"},
             {},
             "float[7]"},
        Case{"tfidf_2d",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {2, 0, 1})),
             9,
             {"string[N, C]"},
             {},
             "float[N, 3]"},
        Case{"tfidf_rank_3",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {0})),
             9,
             {"int64[2, 3, 4]"},
             {},
             "error: input 0 'x': expected [C] or [N, C], got rank 3"},
        Case{"tfidf_negative_index",
             Node("TfIdfVectorizer", {"x"}, {"y"},
                  StrAttr("mode", "TF") + IntAttr("min_gram_length", 1) +
                      IntAttr("max_gram_length", 1) + IntAttr("max_skip_count", 0) +
                      IntsAttr("ngram_counts", {0}) + IntsAttr("ngram_indexes", {0, -1})),
             9,
             {"int64[4]"},
             {},
             "error: attribute 'ngram_indexes': expected indexes >= 0, got -1"}));

}  // namespace
}  // namespace onnx_infer
