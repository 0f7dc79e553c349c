#include "onnx_infer/schema/registry.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/catalog_data.h"

namespace onnx_infer {
namespace {

Status NoOp(InferenceContext&) { return OkStatus(); }

// The opset range the generated catalog gives `domain` ("" for ai.onnx), from its rows.
std::pair<int, int> CatalogRange(const catalog::DomainRow* rows, int n, std::string_view domain) {
  for (int i = 0; i < n; ++i) {
    if (rows[i].domain == domain) return {rows[i].min_version, rows[i].max_version};
  }
  return {0, 0};
}

TEST(RegistryTest, LookupPicksGreatestSinceVersionNotAboveTheOpset) {
  SchemaRegistry r;
  ASSERT_TRUE(r.Register(OpSchema("", "Op", 1)).ok());
  ASSERT_TRUE(r.Register(OpSchema("", "Op", 7)).ok());
  ASSERT_TRUE(r.Register(OpSchema("", "Op", 13)).ok());
  EXPECT_EQ(r.Lookup("", "Op", 0), nullptr);
  EXPECT_EQ(r.Lookup("", "Op", 1)->since_version(), 1);
  EXPECT_EQ(r.Lookup("", "Op", 6)->since_version(), 1);
  EXPECT_EQ(r.Lookup("", "Op", 7)->since_version(), 7);
  EXPECT_EQ(r.Lookup("", "Op", 12)->since_version(), 7);
  EXPECT_EQ(r.Lookup("", "Op", 13)->since_version(), 13);
  EXPECT_EQ(r.Lookup("", "Op", 1000)->since_version(), 13);
  EXPECT_EQ(r.Lookup("", "Other", 13), nullptr);
  EXPECT_EQ(r.Lookup("custom", "Op", 13), nullptr);
}

TEST(RegistryTest, AiOnnxIsTheDefaultDomain) {
  SchemaRegistry r;
  ASSERT_TRUE(r.Register(OpSchema("ai.onnx", "Op", 1)).ok());
  ASSERT_NE(r.Lookup("", "Op", 1), nullptr);
  ASSERT_NE(r.Lookup("ai.onnx", "Op", 1), nullptr);
  EXPECT_EQ(r.Lookup("", "Op", 1)->Id(), "ai.onnx::Op-1");
}

TEST(RegistryTest, DuplicatesAndMissingAttachmentsAreErrors) {
  SchemaRegistry r;
  ASSERT_TRUE(r.Register(OpSchema("my.domain", "Op", 1)).ok());
  Status dup = r.Register(OpSchema("my.domain", "Op", 1));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.message(), "schema my.domain::Op-1 is already registered");
  EXPECT_TRUE(r.AttachRule("my.domain", "Op", {1}, NoOp).ok());
  EXPECT_TRUE(r.Lookup("my.domain", "Op", 1)->has_rule());
  Status missing = r.AttachRule("my.domain", "Op", {1, 2}, NoOp);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "no schema my.domain::Op-2 to attach a rule to");
}

TEST(RegistryTest, ArityFromFormalParameters) {
  OpSchema s("", "Op", 1);
  s.Input("a", "T")
      .Input("b", "T", ParamOption::kOptional)
      .Output("y", "T", ParamOption::kVariadic, true, 2);
  EXPECT_EQ(s.min_inputs(), 1);
  EXPECT_EQ(s.max_inputs(), 2);
  EXPECT_EQ(s.min_outputs(), 2);
  EXPECT_EQ(s.max_outputs(), INT32_MAX);
  s.Arity(0, 5, 1, 1);
  EXPECT_EQ(s.min_inputs(), 0);
  EXPECT_EQ(s.max_inputs(), 5);
}

// Schemas registered together share one allowed type set per distinct list of type strings,
// each string parsed once; a list that does not parse is still refused, naming it.
TEST(RegistryTest, SchemasShareTheAllowedTypeSetsOfTheSameList) {
  SchemaRegistry r;
  const std::vector<std::string> floats = {"tensor(float)", "tensor(double)"};
  ASSERT_TRUE(
      r.Register(OpSchema("", "A", 1).Input("X", "T").Output("Y", "T").TypeConstraint("T", floats))
          .ok());
  ASSERT_TRUE(r.Register(OpSchema("", "B", 1)
                             .Input("X", "U")
                             .Input("shape", "tensor(int64)")
                             .Output("Y", "tensor(int64)")
                             .TypeConstraint("U", floats))
                  .ok());
  ASSERT_TRUE(r.Register(OpSchema("", "C", 1)
                             .Input("X", "T")
                             .Output("Y", "T")
                             .TypeConstraint("T", {"tensor(float)"}))
                  .ok());
  const OpSchema* a = r.Lookup("", "A", 1);
  const OpSchema* b = r.Lookup("", "B", 1);
  const OpSchema* c = r.Lookup("", "C", 1);
  const AllowedTypeSet* a_t = a->Allowed(a->inputs()[0]);
  ASSERT_NE(a_t, nullptr);
  EXPECT_EQ(a_t, b->Allowed(b->inputs()[0]));
  EXPECT_EQ(a_t->types.size(), 2u);
  EXPECT_TRUE(a_t->type_param);
  EXPECT_NE(a_t, c->Allowed(c->inputs()[0]));
  EXPECT_EQ(c->Allowed(c->inputs()[0])->types.size(), 1u);
  // A literal type is a set of its own, not the type parameter's of the same one type.
  const AllowedTypeSet* shape = b->Allowed(b->inputs()[1]);
  EXPECT_EQ(shape, b->Allowed(b->outputs()[0]));
  EXPECT_FALSE(shape->type_param);
  EXPECT_EQ(a->AllowedTypes("T"), &a_t->types);
  // A copy of the registry (custom schemas on top of the built-in ones) shares them too.
  SchemaRegistry copy = r;
  EXPECT_EQ(copy.Lookup("", "A", 1)->Allowed(copy.Lookup("", "A", 1)->inputs()[0]), a_t);

  Status bad =
      r.Register(OpSchema("", "D", 1).Input("X", "T").TypeConstraint("T", {"tensor(float)", "x"}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "ai.onnx::D-1: type constraint T: type string 'x' at 0: expected a "
            "type, got 'x'");
  Status literal = r.Register(OpSchema("", "E", 1).Input("X", "tensor(floaty)"));
  ASSERT_FALSE(literal.ok());
  EXPECT_EQ(literal.message(),
            "ai.onnx::E-1: 'X' has type 'tensor(floaty)', which is neither a "
            "constrained type parameter nor a type");
}

// ---- Deferred schemas (SchemaRegistry::Defer).

// A schema made from a row of this test: its name, and how many times it was made.
struct TestRow {
  const char* name;
  int since;
  int made = 0;
  bool fails = false;
};

StatusOr<OpSchema> MakeTestRow(const void* data) {
  auto* row = const_cast<TestRow*>(static_cast<const TestRow*>(data));
  ++row->made;
  if (row->fails) return Status::Error(StrCat("row ", row->name, " does not build"));
  return OpSchema("test", row->name, row->since)
      .Input("X", "T")
      .Output("Y", "T")
      .TypeConstraint("T", {"tensor(float)"});
}

TEST(RegistryTest, DeferredSchemasAreMadeOnFirstUseOnceWithTheirRules) {
  TestRow op1{"Op", 1}, op7{"Op", 7}, other{"Other", 1};
  SchemaRegistry r;
  ASSERT_TRUE(r.Defer("test", "Op", 1, MakeTestRow, &op1).ok());
  ASSERT_TRUE(r.Defer("test", "Op", 7, MakeTestRow, &op7).ok());
  ASSERT_TRUE(r.Defer("test", "Other", 1, MakeTestRow, &other).ok());
  EXPECT_FALSE(r.Defer("test", "Op", 7, MakeTestRow, &op7).ok());  // registered already
  EXPECT_FALSE(r.Register(OpSchema("test", "Op", 7)).ok());
  ASSERT_TRUE(r.AttachRule("test", "Op", {7}, NoOp).ok());
  EXPECT_FALSE(r.AttachRule("test", "Op", {3}, NoOp).ok());
  // Nothing is made by registering.
  EXPECT_EQ(op1.made + op7.made + other.made, 0);
  const OpSchema* s = r.Lookup("test", "Op", 9);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->since_version(), 7);
  EXPECT_TRUE(s->has_rule());
  EXPECT_FALSE(r.Lookup("test", "Op", 6)->has_rule());
  // Both versions of the operator, once; not the other operator.
  EXPECT_EQ(op1.made, 1);
  EXPECT_EQ(op7.made, 1);
  EXPECT_EQ(other.made, 0);
  EXPECT_EQ(r.Lookup("test", "Op", 7), s);
  // Numbered in the order they were made (SignatureMemo keys on it): the operator's two
  // versions first, the other operator's when it is made.
  EXPECT_EQ(r.Lookup("test", "Op", 6)->registry_order() + 1, s->registry_order());
  EXPECT_EQ(r.Versions("test", "Op").size(), 2u);
  EXPECT_EQ(op7.made, 1);
  EXPECT_EQ(*r.OpsetRange("test"), std::make_pair(1, 7));
  EXPECT_EQ(r.size(), 3u);
  EXPECT_EQ(other.made, 1);
  EXPECT_EQ(r.Lookup("test", "Other", 1)->registry_order(), s->registry_order() + 1);
  EXPECT_TRUE(r.MakeAll().ok());
}

TEST(RegistryTest, ACopyOfDeferredSchemasMakesItsOwn) {
  TestRow op{"Op", 1};
  SchemaRegistry r;
  ASSERT_TRUE(r.Defer("test", "Op", 1, MakeTestRow, &op).ok());
  SchemaRegistry copy = r;
  ASSERT_NE(copy.Lookup("test", "Op", 1), nullptr);
  EXPECT_EQ(op.made, 1);
  ASSERT_NE(r.Lookup("test", "Op", 1), nullptr);
  EXPECT_EQ(op.made, 2);
  EXPECT_NE(copy.Lookup("test", "Op", 1), r.Lookup("test", "Op", 1));
  // A copy of a made registry copies the schemas.
  SchemaRegistry again = r;
  ASSERT_NE(again.Lookup("test", "Op", 1), nullptr);
  EXPECT_EQ(op.made, 2);
}

TEST(RegistryTest, ADeferredSchemaReplacedIsNotMade) {
  TestRow op{"Op", 1};
  SchemaRegistry r;
  ASSERT_TRUE(r.Defer("test", "Op", 1, MakeTestRow, &op).ok());
  ASSERT_TRUE(r.RegisterOrReplace(OpSchema("test", "Op", 1).Input("A", "tensor(int64)")).ok());
  const OpSchema* s = r.Lookup("test", "Op", 1);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->inputs()[0].name, "A");
  EXPECT_EQ(op.made, 0);
}

TEST(RegistryTest, ADeferredSchemaThatFailsIsLeftOutWithItsError) {
  TestRow bad{"Bad", 1};
  bad.fails = true;
  SchemaRegistry r;
  ASSERT_TRUE(r.Defer("test", "Bad", 1, MakeTestRow, &bad).ok());
  EXPECT_EQ(r.Lookup("test", "Bad", 1), nullptr);
  Status st = r.MakeAll();
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "row Bad does not build");
}

// Threads looking up one registry's deferred schemas at once all get the one made schema
// (tools/tsan.sh runs this test under ThreadSanitizer).
TEST(RegistryTest, DeferredSchemasAreMadeOnceAcrossThreads) {
  std::vector<TestRow> rows;
  rows.reserve(64);
  for (int i = 0; i < 64; ++i) rows.push_back({nullptr, 1});
  std::vector<std::string> names;
  for (int i = 0; i < 64; ++i) names.push_back("Op" + std::to_string(i));
  SchemaRegistry r;
  for (int i = 0; i < 64; ++i) {
    rows[i].name = names[i].c_str();
    ASSERT_TRUE(r.Defer("test", names[i], 1, MakeTestRow, &rows[i]).ok());
  }
  std::vector<std::vector<const OpSchema*>> seen(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 64; ++i)
        seen[t].push_back(r.Lookup("test", names[(i * (t + 1)) % 64], 1));
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(rows[i].made, 1) << i;
  for (int t = 0; t < 4; ++t) {
    for (int i = 0; i < 64; ++i) {
      EXPECT_EQ(seen[t][i], r.Lookup("test", names[(i * (t + 1)) % 64], 1));
    }
  }
}

TEST(BuiltinTest, EveryCatalogSchemaLoadsAndRulesAttach) {
  ASSERT_TRUE(BuiltinSchemasStatus().ok()) << BuiltinSchemasStatus().message();
  const SchemaRegistry& r = BuiltinSchemas();
  // Every deferred catalog schema builds.
  EXPECT_TRUE(r.MakeAll().ok()) << r.MakeAll().message();
  // Every row of the generated catalog: ONNX's domains, and onnxruntime's (schema/data/).
  EXPECT_EQ(r.size(),
            static_cast<size_t>(catalog::kNumSchemaRows + catalog::kNumContribSchemaRows));
  EXPECT_GT(catalog::kNumSchemaRows, 0);
  EXPECT_GT(catalog::kNumContribSchemaRows, 0);
  EXPECT_EQ(r.Versions("", "Reshape").size(), 9u);
  EXPECT_EQ(r.Versions("ai.onnx.ml", "TreeEnsembleClassifier").front()->since_version(), 1);
  const OpSchema* reshape = r.Lookup("", "Reshape", 17);
  ASSERT_NE(reshape, nullptr);
  EXPECT_EQ(reshape->since_version(), 14);
  EXPECT_TRUE(reshape->has_rule());
  ASSERT_EQ(reshape->inputs().size(), 2u);
  EXPECT_EQ(reshape->inputs()[1].type, "tensor(int64)");
  const AttributeSpec* allowzero = reshape->FindAttribute("allowzero");
  ASSERT_NE(allowzero, nullptr);
  ASSERT_TRUE(allowzero->default_value.has_value());
  EXPECT_EQ(allowzero->default_value->i(), 0);
  // Defaults of every kind the catalog has: float, string, ints, strings.
  EXPECT_FLOAT_EQ(r.Lookup("", "LeakyRelu", 16)->FindAttribute("alpha")->default_value->f(), 0.01f);
  EXPECT_EQ(r.Lookup("", "AveragePool", 19)->FindAttribute("auto_pad")->default_value->s(),
            "NOTSET");
  const auto* mvn_axes = r.Lookup("", "MeanVarianceNormalization", 13)->FindAttribute("axes");
  EXPECT_EQ(mvn_axes->default_value->ints_size(), 3);
  EXPECT_EQ(mvn_axes->default_value->ints(2), 3);
  const auto* activations = r.Lookup("", "RNN", 22)->FindAttribute("activations");
  ASSERT_EQ(activations->default_value->strings_size(), 2);
  EXPECT_EQ(activations->default_value->strings(1), "Tanh");
  EXPECT_EQ(activations->default_value->type(), onnx::AttributeProto::STRINGS);
  // Variadic inputs: Concat takes at least one.
  const OpSchema* concat = r.Lookup("", "Concat", 13);
  EXPECT_EQ(concat->min_inputs(), 1);
  EXPECT_EQ(concat->max_inputs(), INT32_MAX);
  // A schema registered without a rule has none: the driver leaves its outputs unknown.
  SchemaRegistry bare;
  ASSERT_TRUE(bare.Register(OpSchema("test", "NoRule", 1)
                                .Input("X", "T")
                                .Output("Y", "T")
                                .TypeConstraint("T", {"tensor(float)"}))
                  .ok());
  EXPECT_FALSE(bare.Lookup("test", "NoRule", 1)->has_rule());
}

TEST(BuiltinTest, OnnxruntimeSchemasSitBesideOnnxs) {
  ASSERT_TRUE(BuiltinSchemasStatus().ok()) << BuiltinSchemasStatus().message();
  const SchemaRegistry& r = BuiltinSchemas();
  ASSERT_TRUE(r.OpsetRange("com.microsoft").has_value());
  EXPECT_EQ(*r.OpsetRange("com.microsoft"), std::make_pair(1, 1));
  // ai.onnx's range is ONNX's catalog's, unchanged by the extras.
  EXPECT_EQ(*r.OpsetRange(""), CatalogRange(catalog::kDomainRows, catalog::kNumDomainRows, ""));
  // A com.microsoft operator: arity from the document's "(2 - 7)", optional entries, defaults
  // stated in its prose, none where the prose gives an expression.
  const OpSchema* attention = r.Lookup("com.microsoft", "Attention", 1);
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->min_inputs(), 2);
  EXPECT_EQ(attention->max_inputs(), 7);
  EXPECT_EQ(attention->inputs()[4].name, "past");
  EXPECT_EQ(attention->inputs()[4].option, ParamOption::kOptional);
  EXPECT_TRUE(attention->FindAttribute("num_heads")->required);
  EXPECT_EQ(attention->FindAttribute("unidirectional")->default_value->i(), 0);
  EXPECT_FLOAT_EQ(attention->FindAttribute("mask_filter_value")->default_value->f(), -10000.0f);
  EXPECT_FALSE(attention->FindAttribute("scale")->default_value.has_value());  // 1/sqrt(head_size)
  EXPECT_EQ(r.Lookup("com.microsoft", "GroupQueryAttention", 1)
                ->FindAttribute("local_window_size")
                ->default_value->i(),
            -1);
  EXPECT_EQ(r.Lookup("com.microsoft", "CausalConvWithState", 1)
                ->FindAttribute("activation")
                ->default_value->s(),
            "none");
  // A model importing a newer com.microsoft resolves the newest version known.
  EXPECT_EQ(r.Lookup("com.microsoft", "MatMulNBits", 2)->since_version(), 1);
  // Variadic entries, and the two experimental operators registered at version 1.
  const OpSchema* ep_context = r.Lookup("com.microsoft", "EPContext", 1);
  EXPECT_EQ(ep_context->min_inputs(), 0);
  EXPECT_EQ(ep_context->max_inputs(), INT32_MAX);
  EXPECT_FALSE(ep_context->inputs()[0].homogeneous);
  EXPECT_EQ(r.Lookup("com.microsoft", "IsAllFinite", 1)->min_inputs(), 1);
  const OpSchema* qembed = r.Lookup("com.microsoft", "QEmbedLayerNormalization", 1);
  EXPECT_EQ(qembed->min_inputs(), 18);  // optional entries before single ones: all 18 given
  EXPECT_EQ(qembed->max_inputs(), 18);

  // The default-domain extras sit below ONNX's versions: ONNX's schema wins where it has one.
  auto version = [&](std::string_view name, int opset) {
    const OpSchema* s = r.Lookup("", name, opset);
    return s ? s->since_version() : 0;
  };
  EXPECT_EQ(version("LayerNormalization", 16), 1);
  EXPECT_EQ(version("LayerNormalization", 17), 17);
  EXPECT_EQ(version("ThresholdedRelu", 9), 1);
  EXPECT_EQ(version("ThresholdedRelu", 10), 10);
  EXPECT_EQ(version("ThresholdedRelu", 22), 22);
  EXPECT_EQ(version("MeanVarianceNormalization", 8), 1);
  EXPECT_EQ(version("MeanVarianceNormalization", 9), 9);
  EXPECT_EQ(version("MeanVarianceNormalization", 13), 13);
  EXPECT_EQ(version("SimplifiedLayerNormalization", 17), 1);
  EXPECT_EQ(version("EfficientNMS_TRT", 13), 1);
  EXPECT_EQ(version("Affine", 9), 1);
  EXPECT_EQ(version("Affine", 10), 10);
  EXPECT_FALSE(r.Lookup("", "Affine", 9)->deprecated());
  EXPECT_TRUE(r.Lookup("", "Affine", 10)->deprecated());
  EXPECT_FALSE(r.Lookup("", "Crop", 1)->FindAttribute("border")->required);
  EXPECT_TRUE(r.Lookup("", "Crop", 10)->FindAttribute("border")->required);
  const OpSchema* rms = r.Lookup("", "SimplifiedLayerNormalization", 1);
  EXPECT_EQ(rms->FindAttribute("stash_type")->default_value->i(), 1);  // float
  EXPECT_EQ(rms->outputs()[1].name, "inv_std_var");
  EXPECT_EQ(rms->outputs()[1].type, "U");
}

}  // namespace
}  // namespace onnx_infer
