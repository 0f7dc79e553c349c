// RequireEqualDims with lazily built labels: the same result, error (message and subject) and
// recorded fact as with the labels built up front, and no label built when none is used.
#include "onnx_infer/schema/rule_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/registry.h"
#include "onnx_infer/schema/test_util.h"
#include "onnx_infer/symbolic/unifier.h"

namespace onnx_infer {
namespace {

using testing::Node;
using testing::RunRule;
using testing::T;

int labels_built = 0;  // how many times the lazy rule built `what` or `about`

// Y = [dim 0 of A and B, which must be equal]; `lazy` picks the overload.
Status SameDim(InferenceContext& ctx, bool lazy) {
  const Shape* a = ctx.InputShape(0);
  const Shape* b = ctx.InputShape(1);
  if (!a || !b) return OkStatus();
  StatusOr<Dim> d = Dim();
  if (lazy) {
    d = RequireEqualDims(
        ctx, (*a)[0], (*b)[0],
        [&] {
          ++labels_built;
          return StrCat(InputLabel(ctx, 1), " dim 0 and A's dim 0");
        },
        [&] {
          ++labels_built;
          return InputSubject(ctx, 1);
        });
  } else {
    d = RequireEqualDims(ctx, (*a)[0], (*b)[0], StrCat(InputLabel(ctx, 1), " dim 0 and A's dim 0"),
                         InputSubject(ctx, 1));
  }
  if (!d.ok()) return d.status();
  ctx.SetOutputShape(0, {*d});
  return OkStatus();
}

SchemaRegistry Registry() {
  SchemaRegistry r;
  for (bool lazy : {false, true}) {
    OpSchema s("test", lazy ? "SameLazy" : "Same", 1);
    s.Input("A", "T").Input("B", "T").Output("Y", "T").TypeConstraint("T", {"tensor(float)"});
    s.Rule([lazy](InferenceContext& ctx) { return SameDim(ctx, lazy); });
    EXPECT_TRUE(r.Register(std::move(s)).ok());
  }
  return r;
}

struct Case {
  const char* a;
  const char* b;
  int labels;  // built by the lazy form
};

TEST(RequireEqualDimsTest, LazyLabelsGiveTheSameResultsAndAreBuiltOnlyWhenUsed) {
  const SchemaRegistry r = Registry();
  const Case cases[] = {
      {"float[N]", "float[N]", 0},      // the same dim: nothing to record
      {"float[N]", "float[?]", 0},      // an unknown: nothing to record
      {"float[?]", "float[3]", 0},      //
      {"float[3]", "float[3]", 0},      //
      {"float[N]", "float[3]", 2},      // a fact, N == 3, named by the label
      {"float[N]", "float[M]", 2},      //
      {"float[N + 1]", "float[N]", 2},  // provably different: the error
      {"float[3]", "float[4]", 2},      //
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(StrCat(c.a, " vs ", c.b));
    symbolic::Unifier eager_facts, lazy_facts;
    const auto eager = RunRule(r, Node("Same", {"a", "b"}, {"y"}, "", "test"), 1, {T(c.a), T(c.b)},
                               {}, &eager_facts);
    labels_built = 0;
    const auto lazy = RunRule(r, Node("SameLazy", {"a", "b"}, {"y"}, "", "test"), 1,
                              {T(c.a), T(c.b)}, {}, &lazy_facts);
    EXPECT_EQ(labels_built, c.labels);
    EXPECT_EQ(lazy.Summary(), eager.Summary());
    EXPECT_EQ(lazy.status.subject(), eager.status.subject());
    ASSERT_EQ(lazy.facts.size(), eager.facts.size());
    for (size_t i = 0; i < lazy.facts.size(); ++i) {
      // The facts name the node's op type, which differs; the rest is the same.
      std::string fact = lazy.facts[i];
      fact.replace(fact.find("SameLazy"), 8, "Same");
      EXPECT_EQ(fact, eager.facts[i]);
    }
  }
}

TEST(RequireEqualDimsTest, ErrorsNameTheInput) {
  const SchemaRegistry r = Registry();
  const auto run = RunRule(r, Node("SameLazy", {"a", "b"}, {"y"}, "", "test"), 1,
                           {T("float[3]"), T("float[4]")});
  EXPECT_EQ(run.status.message(),
            "input 1 'b' dim 0 and A's dim 0: expected equal dims, got 3 vs 4");
  EXPECT_EQ(run.status.subject(), Subject::Input(1, "b"));
}

}  // namespace
}  // namespace onnx_infer
