// Simplifier laws as tables: check(input, expected) parses `input` (built through the same
// constructors rules use) and compares the printed normal form with `expected`.
#include <gtest/gtest.h>

#include "onnx_infer/symbolic/dim.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer::symbolic {
namespace {

Dim P(const char* text) {
  std::string error;
  auto d = ParseDim(text, &error);
  EXPECT_TRUE(d.has_value()) << text << ": " << error;
  return d.value_or(Dim());
}

void check(const char* input, const char* expected) {
  SCOPED_TRACE(input);
  Dim d = P(input);
  EXPECT_EQ(d.ToString(), expected);
  // The printed form reads back as the same interned node.
  if (!d.is_unknown()) {
    EXPECT_EQ(P(d.ToString().c_str()), d) << d;
  }
}

TEST(SimplifyAdd, ConstantsLikeTermsAndOrder) {
  check("2 + 3", "5");
  check("N + 0", "N");
  check("5 + N", "N + 5");
  check("N + 5 - 5", "N");
  check("N + N", "2*N");
  check("N - N", "0");
  check("M + N - M", "N");
  check("B + A", "A + B");
  check("N - 3", "N - 3");
  check("3 - N", "-N + 3");
  check("2*N + 3*N - 5*N + 1", "1");
  check("(N + 1) + (M + 2)", "M + N + 3");
  check("(H + 2 - 3)", "H - 1");
}

TEST(SimplifyMul, DistributesAndCollectsPowers) {
  check("N*1", "N");
  check("N*0", "0");
  check("2*3", "6");
  check("N*2", "2*N");
  check("S*B", "B*S");
  check("2*(N + 3)", "2*N + 6");
  check("(N + 1)*(N + 1)", "N**2 + 2*N + 1");
  check("N*N*M", "M*N**2");
  check("B*S*768", "768*B*S");
  check("(A + B)*(A - B)", "A**2 - B**2");
}

TEST(SimplifyFloorDiv, Laws) {
  check("floor(N/1)", "N");
  check("floor(7/2)", "3");
  check("floor(-7/2)", "-4");
  check("floor((2*N)/2)", "N");
  check("floor((N + 4)/2)", "floor(N/2) + 2");
  check("floor((N + 1)/2)", "floor((N + 1)/2)");  // not floor(N/2) + 1/2: stays whole
  check("floor((2*N + 1)/2)", "N");
  check("floor((4*N + 2)/8)", "floor((2*N + 1)/4)");  // common factor 2
  check("floor(floor(N/2)/3)", "floor(N/6)");
  check("floor((floor((H + 1)/2) + 1)/2)", "floor((H + 3)/4)");  // strided layers
  check("floor((floor((floor((H + 1)/2) + 1)/2) + 1)/2)", "floor((H + 7)/8)");
  check("floor((floor(N/2) + M)/3)", "floor((2*M + N)/6)");
  check("floor((floor(N/2) - 1)/2)", "floor((N + 2)/4) - 1");
  check("floor((2*floor(N/2) + 1)/2)", "floor(N/2)");  // coefficient 2: the multiple leaves
  check("floor(N/N)", "1");
  check("floor((768*B*S)/(12*B))", "64*S");
  check("floor((B*S*768)/(B*768))", "S");
  check("floor(N/M)", "floor(N/M)");
  check("floor(Mod(N, 3)/3)", "0");
  check("floor(N/(N + 1))", "0");
  check("floor(N/-2)", "-N + floor(N/2)");
  check("floor((H + 2 - 3)/1) + 1", "H");
  check("floor((H - 1)/2) + 1", "floor((H + 1)/2)");
}

TEST(SimplifyCeilDiv, IsTheFloorSpelling) {
  check("ceiling(N/2)", "floor((N + 1)/2)");
  check("ceiling((x - 1)/2)", "floor(x/2)");
  check("ceiling(7/2)", "4");
  check("ceiling(-7/2)", "-3");
  check("ceiling((2*N)/2)", "N");
  check("ceiling(N/M)", "floor((M + N - 1)/M)");
  check("ceiling((6*N*M)/(3*N))", "2*M");
}

TEST(SimplifyMod, Laws) {
  check("Mod(7, 3)", "1");
  check("Mod(-7, 3)", "2");
  check("Mod(7, -3)", "-2");
  check("Mod(N, 1)", "0");
  check("Mod(2*N, 2)", "0");
  check("Mod(N + 4, 2)", "Mod(N, 2)");
  check("Mod(3*N + 5, 3)", "2");
  check("Mod(Mod(N, 6), 3)", "Mod(N, 3)");
  check("Mod(Mod(N, 3), 3)", "Mod(N, 3)");
  check("Mod(2*N, 4)", "2*Mod(N, 2)");
  check("Mod(6*N, 3*N)", "0");
  check("Mod(N, N + 1)", "N");
  check("N % 3", "Mod(N, 3)");
  check("N // 2", "floor(N/2)");
}

TEST(SimplifyMinMax, ComparableTermsFold) {
  check("Max(N, N + 1)", "N + 1");
  check("Min(N, N + 1)", "N");
  check("Max(N, 0)", "N");  // every symbol is >= 0
  check("Min(N, 0)", "0");
  check("Max(3, 5)", "5");
  check("Max(B, A)", "Max(A, B)");
  check("Max(A, B) - Max(B, A)", "0");
  check("Min(A, B, A)", "Min(A, B)");
  check("Max(N, 1)", "Max(1, N)");  // N may be 0
  check("Max(N, floor(N/2))", "N");
  check("Min(Mod(N, 4), 3)", "Mod(N, 4)");
}

// A nest of Min/Max over one variable gets its short form, proved on every value of the
// variable from its lower bound (the clamped lengths of Slice and Pad).
TEST(SimplifyMinMax, PiecewiseNestsOfOneVariable) {
  // Slice(x, 1, -1) on an axis of S: for S = 0, 1, 2, 3... the length is 0, 0, 0, 1...
  check("Max(0, -Min(1, S) + Max(0, S - 1))", "Max(0, S - 2)");
  check("Max(0, Max(0, S - 1) - 1)", "Max(0, S - 2)");
  check("Min(S, Max(0, S - 1) + 1)", "S");
  check("Max(0, Min(S, 3) - Min(1, S))", "Min(2, Max(0, S - 1))");  // x[1:3]
  // The variable may be any sum that appears whole: here P + S.
  check("Max(0, -Min(1, P + S) + Max(0, P + S - 1))", "Max(0, P + S - 2)");
  check("Max(0, -Min(1, 2*S) + Max(0, 2*S - 1))", "Max(0, 2*S - 2)");
  // A variable bounded above (Mod(S, 7) <= 6) is checked on its whole range.
  check("Max(0, -Min(1, Mod(S, 7)) + Max(0, Mod(S, 7) - 1))", "Max(0, Mod(S, 7) - 2)");
  check("Min(5, Max(0, Mod(S, 7) - 1))", "Max(0, Mod(S, 7) - 1)");
  // No shorter form among the clamped lines: kept as they are.
  check("Max(0, Min(S, 5) - 2)", "Max(0, Min(5, S) - 2)");
  check("Max(0, 2*S - Min(3, S))", "Max(0, 2*S - Min(3, S))");
  // Two variables: not a one-variable nest.
  check("Max(0, -Min(1, S) + Max(0, T - 1))", "Max(0, -Min(1, S) + Max(0, T - 1))");
  // Under a lower bound the short form simplifies further.
  Assumptions s_at_least_2;
  s_at_least_2.SetLowerBound("S", 2);
  EXPECT_EQ(Simplify(P("Max(0, -Min(1, S) + Max(0, S - 1))"), s_at_least_2).ToString(), "S - 2");
  Assumptions s_at_least_1;
  s_at_least_1.SetLowerBound("S", 1);
  EXPECT_EQ(Simplify(P("Max(0, -Min(1, S) + Max(0, S - 1))"), s_at_least_1).ToString(),
            "Max(0, S - 2)");
  Assumptions positive;
  positive.SetDefaultLowerBound(1);
  EXPECT_EQ(Simplify(P("Max(0, S - 1)"), positive).ToString(), "S - 1");
}

// Known multiples (Mod(C, 2) == 0, as a Reshape's -1 records) are used where a sum, floor or
// Mod mentions the term.
TEST(Assumptions, MultiplesSimplify) {
  Assumptions even;
  even.AddMultipleOf(P("C"), 2);
  auto simplify = [&](const char* text) { return Simplify(P(text), even).ToString(); };
  EXPECT_EQ(simplify("2*floor(C/2)"), "C");
  EXPECT_EQ(simplify("floor((C + 1)/2)"), "floor(C/2)");
  EXPECT_EQ(simplify("ceiling(C/2)"), "floor(C/2)");
  EXPECT_EQ(simplify("C - floor((C + 1)/2)"), "floor(C/2)");  // the second half of a Split
  EXPECT_EQ(simplify("C + floor(C/2)"), "3*floor(C/2)");
  EXPECT_EQ(simplify("Mod(C, 2)"), "0");
  EXPECT_EQ(simplify("Mod(C + 3, 2)"), "1");
  EXPECT_EQ(simplify("floor(C/2)"), "floor(C/2)");  // already short
  EXPECT_EQ(simplify("floor(C/4)"), "floor(C/4)");  // C may be 2
  EXPECT_EQ(simplify("floor(N/2)"), "floor(N/2)");  // another symbol
  EXPECT_EQ(Equal(P("2*floor(C/2)"), P("C"), &even), Tri::kTrue);
  EXPECT_EQ(Equal(P("2*floor(C/2)"), P("C")), Tri::kUnknown);
  // Moduli of one term combine; a product term works like a symbol.
  Assumptions more;
  more.AddMultipleOf(P("C"), 4);
  more.AddMultipleOf(P("C"), 6);
  more.AddMultipleOf(P("H*W"), 8);
  EXPECT_EQ(more.KnownModulus(P("C").node()), 12);
  EXPECT_EQ(Simplify(P("Mod(C, 3) + Mod(C + 1, 4)"), more).ToString(), "1");
  EXPECT_EQ(Simplify(P("floor((H*W + 7)/8)"), more).ToString(), "floor(H*W/8)");
  EXPECT_EQ(Simplify(P("8*floor(H*W/8)"), more).ToString(), "H*W");
  // Sums and constants are not terms: ignored.
  Assumptions ignored;
  ignored.AddMultipleOf(P("N + 1"), 2);
  ignored.AddMultipleOf(P("4"), 2);
  EXPECT_FALSE(ignored.has_multiples());
}

TEST(SimplifyProofs, TheIssueExamples) {
  EXPECT_EQ(Equal(P("ceiling((x - 1)/2)"), P("floor(x/2)")), Tri::kTrue);
  EXPECT_EQ(Equal(P("floor((H + 2 - 3)/1) + 1"), P("H")), Tri::kTrue);
  EXPECT_EQ(P("ceiling((x - 1)/2)"), P("floor(x/2)"));  // the same node, not just Equal
}

TEST(Compare, ThreeValued) {
  EXPECT_EQ(Equal(P("N + 5"), P("5 + N")), Tri::kTrue);
  EXPECT_EQ(Equal(P("N + 5"), P("N + 6")), Tri::kFalse);
  EXPECT_EQ(Equal(P("2*N"), P("2*M + 1")), Tri::kFalse);  // parity
  EXPECT_EQ(Equal(P("N"), P("M")), Tri::kUnknown);
  EXPECT_EQ(Equal(P("Mod(N, 3)"), P("3")), Tri::kFalse);
  EXPECT_EQ(Equal(P("N*M"), P("0")), Tri::kUnknown);
  EXPECT_EQ(LessEqual(P("N"), P("N + 1")), Tri::kTrue);
  EXPECT_EQ(LessEqual(P("N + 1"), P("N")), Tri::kFalse);
  EXPECT_EQ(LessEqual(P("N"), P("M")), Tri::kUnknown);
  EXPECT_EQ(LessEqual(P("0"), P("N*M")), Tri::kTrue);
  EXPECT_EQ(LessEqual(P("floor(N/2)"), P("N")), Tri::kTrue);
  EXPECT_EQ(LessEqual(P("floor(N/2)"), P("M")), Tri::kUnknown);
  EXPECT_EQ(LessEqual(P("N - M"), P("N")), Tri::kTrue);
  EXPECT_EQ(LessEqual(P("N"), P("Max(N, M)")), Tri::kTrue);
  EXPECT_EQ(LessEqual(P("Mod(N, 4)"), P("3")), Tri::kTrue);
  EXPECT_EQ(Equal(Dim(), Dim()), Tri::kUnknown);
  EXPECT_EQ(LessEqual(Dim(), P("5")), Tri::kUnknown);
}

TEST(Assumptions, LowerBoundsProveMore) {
  Assumptions as;
  EXPECT_EQ(Equal(P("N"), P("0"), &as), Tri::kUnknown);
  as.SetLowerBound("N", 1);
  EXPECT_EQ(Equal(P("N"), P("0"), &as), Tri::kFalse);
  EXPECT_EQ(LessEqual(P("1"), P("N*M + N"), &as), Tri::kTrue);
  EXPECT_EQ(Simplify(P("Max(N, 1)"), as).ToString(), "N");
  EXPECT_EQ(Simplify(P("floor(N/(N + 1))"), as).ToString(), "0");
}

TEST(Parse, SyntaxAndErrors) {
  check("N + 5", "N + 5");
  check("2*N", "2*N");
  check("N/2 + N/2", "N");  // sympy's exact division
  check("(2*N)/2", "N");
  check("N**2", "N**2");
  check("  N   +5 ", "N + 5");
  check("max(A, B)", "Max(A, B)");
  check("ceil(N/2)", "floor((N + 1)/2)");
  std::string error;
  EXPECT_FALSE(ParseDim("N/2", &error));  // not provably an integer
  EXPECT_NE(error.find("not provably an integer"), std::string::npos) << error;
  EXPECT_FALSE(ParseDim("batch size"));
  EXPECT_FALSE(ParseDim("input.1_dim_0"));
  EXPECT_FALSE(ParseDim("N +"));
  EXPECT_FALSE(ParseDim("foo(N)"));
  EXPECT_FALSE(ParseDim("99999999999999999999"));
  EXPECT_FALSE(ParseDim("1/0"));
  EXPECT_FALSE(ParseDim(""));
  // The structured error points at the byte where the parser stopped.
  ParseError at;
  EXPECT_FALSE(ParseDim("floor(N", &at));
  EXPECT_EQ(at.message, "expected ')' after the arguments of floor");
  EXPECT_EQ(at.offset, 7u);
  EXPECT_FALSE(ParseDim("N + $", &at));
  EXPECT_EQ(at.message, "unexpected '$'");
  EXPECT_EQ(at.offset, 4u);
  // Nesting is bounded, so a hostile dim_param cannot overflow the stack.
  EXPECT_TRUE(ParseDim(std::string(99, '(') + "N" + std::string(99, ')')));
  // Issue 17: 20,000 levels of parentheses, floor, Mod or unary minus; the error names the
  // limit.
  std::string floors, mods;
  for (int i = 0; i < 20000; ++i) floors += "floor(";
  floors += "N" + std::string(20000, ')');
  for (int i = 0; i < 20000; ++i) mods += "Mod(";
  mods += "N";
  for (int i = 0; i < 20000; ++i) mods += ", 3)";
  for (const std::string& deep : {std::string(100000, '(') + "N" + std::string(100000, ')'),
                                  std::string(100000, '-') + "N", floors, mods}) {
    EXPECT_FALSE(ParseDim(deep, &at));
    EXPECT_EQ(at.message.rfind("nested too deeply: more than 128 levels", 0), 0u) << at.message;
    EXPECT_TRUE(at.too_deep);
  }
  EXPECT_FALSE(ParseDim("floor(N", &at));
  EXPECT_FALSE(at.too_deep) << "an error other than the nesting limit";
  EXPECT_TRUE(ParseDim(std::string(kMaxDimNesting - 1, '-') + "N"));
  EXPECT_TRUE(IsIdentifier("unk__3"));
  EXPECT_FALSE(IsIdentifier("N + 1"));
  EXPECT_FALSE(IsIdentifier("3N"));
}

TEST(Parse, LowerBounds) {
  auto bound = [](const char* text) {
    auto b = ParseLowerBound(text, nullptr);
    return b ? b->symbol + " >= " + std::to_string(b->bound) : std::string("none");
  };
  EXPECT_EQ(bound("S >= 2"), "S >= 2");
  EXPECT_EQ(bound("S>1"), "S >= 2");
  EXPECT_EQ(bound(" 2 <= seq_len "), "seq_len >= 2");
  EXPECT_EQ(bound("0 < N"), "N >= 1");
  EXPECT_EQ(bound("N >= -1"), "N >= -1");
  std::string error;
  EXPECT_FALSE(ParseLowerBound("S <= 4", &error));
  EXPECT_NE(error.find("only lower bounds"), std::string::npos) << error;
  EXPECT_FALSE(ParseLowerBound("S == 4", &error));
  EXPECT_NE(error.find("only lower bounds"), std::string::npos) << error;
  EXPECT_FALSE(ParseLowerBound("S >= T", &error));
  EXPECT_FALSE(ParseLowerBound("S + 1 >= 2", &error));
  EXPECT_FALSE(ParseLowerBound("S", &error));
  EXPECT_FALSE(ParseLowerBound("S >= 2 >= 1", &error));
  EXPECT_FALSE(ParseLowerBound("S >= (", &error));
  EXPECT_NE(error.find("right of '>='"), std::string::npos) << error;
}

TEST(Parse, Assumptions) {
  auto read = [](const char* text) {
    std::string error;
    auto a = ParseAssumption(text, &error);
    if (!a) return "error: " + error;
    std::string out = a->expr.ToString();
    if (a->lo) out = std::to_string(*a->lo) + " <= " + out;
    if (a->hi) out += " <= " + std::to_string(*a->hi);
    return out;
  };
  EXPECT_EQ(read("S >= 2"), "2 <= S");
  EXPECT_EQ(read("S>1"), "2 <= S");
  EXPECT_EQ(read("S <= 2048"), "S <= 2048");
  EXPECT_EQ(read("S < 4097"), "S <= 4096");
  EXPECT_EQ(read("2048 >= S"), "S <= 2048");
  EXPECT_EQ(read("1 <= B <= 64"), "1 <= B <= 64");
  EXPECT_EQ(read("64 > B > 0"), "1 <= B <= 63");
  EXPECT_EQ(read("P + S <= 4096"), "P + S <= 4096");
  EXPECT_EQ(read("4096 >= S + P"), "P + S <= 4096");
  EXPECT_NE(read("S == 4").find("--bind"), std::string::npos);
  EXPECT_NE(read("S >= T").find("one side must be an integer"), std::string::npos);
  EXPECT_NE(read("1 <= B >= 64").find("same way"), std::string::npos);
  EXPECT_NE(read("S").find("error"), std::string::npos);
  EXPECT_NE(read("S >= (").find("right of '>='"), std::string::npos);
  EXPECT_NE(read("1 <= 2").find("error"), std::string::npos);
  EXPECT_NE(read("S >= 9223372036854775807 + 1").find("error"), std::string::npos);
}

TEST(Evaluate, Values) {
  std::map<std::string, int64_t, std::less<>> env = {{"N", 4}, {"S", 128}};
  EXPECT_EQ(Evaluate(P("N*S + floor((S - 1)/3) + Mod(N, 3)"), env), 4 * 128 + 42 + 1);
  EXPECT_EQ(Evaluate(P("Max(N, S) - Min(N, S)"), env), 124);
  EXPECT_EQ(Evaluate(P("M + 1"), env), std::nullopt);             // M not given
  EXPECT_EQ(Evaluate(P("floor(S/(N - 4))"), env), std::nullopt);  // division by zero
  EXPECT_EQ(Evaluate(P("N**40"), env), std::nullopt);             // overflow
  EXPECT_EQ(Evaluate(Dim(), env), std::nullopt);
}

TEST(Substitute, ReplacesSymbolsAtOnceAndResimplifies) {
  const std::map<std::string, Dim, std::less<>> values = {
      {"a", P("H")}, {"b", Dim::Const(2)}, {"u", Dim()}};
  EXPECT_EQ(Substitute(P("floor((a - 1)/b) + 1"), values).ToString(), "floor((H + 1)/2)");
  EXPECT_EQ(Substitute(P("Max(a, b) + c"), values).ToString(), "c + Max(2, H)");  // c stays
  EXPECT_EQ(Substitute(P("Mod(a*b, b)"), values), Dim::Const(0));
  EXPECT_TRUE(Substitute(P("a + u"), values).is_unknown());  // unknown stays unknown
  // Simultaneous: a value that mentions another substituted symbol is not substituted again.
  EXPECT_EQ(Substitute(P("a - 2*b"), {{"a", P("b")}, {"b", P("a")}}).ToString(), "-2*a + b");
}

TEST(SizeCap, FreshSymbolsAndNotes) {
  EXPECT_EQ(FreshSymbol("nz", 1).ToString(), "nz__d1");
  EXPECT_EQ(FreshSymbol("input.1", 0).ToString(), "input_1__d0");
  EXPECT_EQ(FreshSymbol("0out", 2).ToString(), "v0out__d2");
  EXPECT_EQ(FreshSymbol("nz", 1), FreshSymbol("nz", 1));  // stable: no counter
  Dim big = Dim::Const(0);
  for (int i = 0; i < 40; ++i) big = big + Dim::Symbol("s" + std::to_string(i)) * Dim::Const(2);
  ASSERT_GT(big.size(), kMaxExprSize);
  std::string note;
  EXPECT_EQ(CapSize(big, "y", 0, &note), FreshSymbol("y", 0));
  EXPECT_NE(note.find("replaced by the symbol y__d0"), std::string::npos) << note;
  note.clear();
  EXPECT_EQ(CapSize(P("N + 1"), "y", 0, &note), P("N + 1"));
  EXPECT_TRUE(note.empty());
  // Past the hard cap, arithmetic itself gives up rather than grow without bound.
  Dim sum = Dim::Const(0);
  for (int i = 0; i < 30; ++i) sum = sum + Dim::Symbol("t" + std::to_string(i));
  EXPECT_TRUE((sum * sum * sum).is_unknown());
}

TEST(Overflow, IsUnknown) {
  Dim n = Dim::Symbol("N");
  EXPECT_TRUE((n * Dim::Const(INT64_MAX) * Dim::Const(2)).is_unknown());
  EXPECT_TRUE((n + Dim::Const(INT64_MAX) + Dim::Const(1)).is_unknown());
  EXPECT_TRUE(Dim::Mod(Dim::Const(INT64_MIN), Dim::Const(-1)) == Dim::Const(0));
  EXPECT_TRUE(Dim::CeilDiv(Dim::Const(INT64_MIN), Dim::Const(-1)).is_unknown());
  EXPECT_TRUE(Dim::FloorDiv(n, Dim::Const(INT64_MIN)).is_unknown());
}

// docs/limits.md: arithmetic never builds an expression past kHardSizeCap nodes, so its depth
// is bounded too and the recursive walks (printing, parsing back, substitution, evaluation)
// cannot overflow the stack, however long the chain of operations that builds it.
TEST(Limits, ExpressionsStayWithinTheHardSizeCap) {
  const Dim n = Dim::Symbol("N"), m = Dim::Symbol("M");
  for (int kind = 0; kind < 3; ++kind) {
    Dim d = n;
    int known = 0;
    for (int i = 0; i < 20000; ++i) {
      const Dim k = Dim::Symbol("S" + std::to_string(i % 7));
      d = kind == 0   ? Dim::FloorDiv(d + k, Dim::Const(3 + i % 5))
          : kind == 1 ? Dim::Max(Dim::Mod(d, m + Dim::Const(i)), k)
                      : Dim::Min(d * k + Dim::Const(1), m);
      if (d.is_unknown()) break;
      ASSERT_LE(d.size(), kHardSizeCap);
      ++known;
    }
    EXPECT_GT(known, 0);
    if (d.is_unknown()) continue;
    const std::string text = d.ToString();
    auto back = ParseDim(text);
    if (back) {
      EXPECT_EQ(*back, d) << text;
    }
    (void)Substitute(d, {{"N", Dim::Const(7)}, {"M", Dim::Const(2)}}).ToString();
    (void)Evaluate(d, {{"N", 7}, {"M", 2}});
  }
}

}  // namespace
}  // namespace onnx_infer::symbolic
