// Diagnostics: rendering, and the subject an error carries.
#include "onnx_infer/schema/diagnostic.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace onnx_infer {
namespace {

TEST(DiagnosticTest, RendersOneLineWithEverythingKnown) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.graph = "main/If_3.then_branch";
  d.node_index = 7;
  d.node_name = "cat0";
  d.op = "ai.onnx::Concat-13";
  d.message = "input 1 'b': expected rank 2, got rank 1";
  d.code = DiagCode::kInputRank;
  EXPECT_EQ(d.Render("m.onnx"),
            "m.onnx: warning[OI3001]: graph 'main/If_3.then_branch' node #7 'cat0' "
            "(ai.onnx::Concat-13): input 1 'b': expected rank 2, got rank 1");
  Diagnostic bare;
  bare.message = "something";
  EXPECT_EQ(bare.Render(""), "error[OI0000]: something");  // unclassified: a bug, shown as such
}

// The table of codes: unique numbers and names, each found by both; the old names of the
// four kinds told apart before codes are names of codes still.
TEST(DiagnosticCodesTest, EveryCodeHasAUniqueIdAndName) {
  std::set<std::string_view> ids, names;
  for (const DiagCodeInfo& row : AllDiagCodes()) {
    EXPECT_TRUE(ids.insert(row.id).second) << row.id;
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_EQ(row.id.size(), 6u) << row.id;
    EXPECT_EQ(row.id.substr(0, 2), "OI");
    EXPECT_EQ(std::to_string(static_cast<int>(row.code)), row.id.substr(2));
    EXPECT_EQ(FindDiagCode(row.id), row.code);
    EXPECT_EQ(FindDiagCode(row.name), row.code);
    EXPECT_EQ(CodeId(row.code), row.id);
    EXPECT_FALSE(row.summary.empty());
    EXPECT_FALSE(row.severity.empty());
  }
  EXPECT_EQ(CodeName(kDiagSignature), "signature");
  EXPECT_EQ(CodeName(kDiagTypeConstraint), "type-constraint");
  EXPECT_EQ(CodeName(kDiagDeclaredContradiction), "declared-contradiction");
  EXPECT_EQ(CodeName(kDiagOptionContradiction), "option-contradiction");
  EXPECT_EQ(CodeId(DiagCode::kUnclassified), "OI0000");
  EXPECT_FALSE(FindDiagCode("OI0000").has_value());
  EXPECT_FALSE(FindDiagCode("unclassified").has_value());
}

TEST(DiagnosticCodesTest, AStatusCarriesItsCode) {
  Status plain = Status::Error("x");
  EXPECT_EQ(CodeOf(plain), DiagCode::kUnclassified);
  Status coded = WithCode(Status::Error("x", Subject::Input(0, "a")), DiagCode::kBroadcast);
  EXPECT_EQ(CodeOf(coded), DiagCode::kBroadcast);
  EXPECT_EQ(coded.subject(), Subject::Input(0, "a"));
  EXPECT_EQ(coded.message(), "x");
}

TEST(DiagnosticTest, SubjectNamesItsThing) {
  EXPECT_EQ(Subject::Input(1, "b").ToString(), "input 1 'b'");
  EXPECT_EQ(Subject::Input(3).ToString(), "input 3");
  EXPECT_EQ(Subject::Output(0, "y").ToString(), "output 0 'y'");
  EXPECT_EQ(Subject::Output(-1, "x").ToString(), "output 'x'");
  EXPECT_EQ(Subject::Attribute("axis").ToString(), "attribute 'axis'");
  EXPECT_EQ(DiagnosticSubject().ToString(), "");
  EXPECT_TRUE(DiagnosticSubject().empty());
}

TEST(DiagnosticTest, StatusCarriesItsSubject) {
  Status plain = Status::Error("expected 2 inputs, got 1");
  EXPECT_TRUE(plain.subject().empty());
  Status about = Status::Error("input 1 'b': expected rank 2", Subject::Input(1, "b"));
  EXPECT_EQ(about.subject(), Subject::Input(1, "b"));
  EXPECT_EQ(about.message(), "input 1 'b': expected rank 2");
  // Through StatusOr and copies, as errors travel from a rule to the driver.
  StatusOr<int> failed = about;
  Status copy = failed.status();
  EXPECT_EQ(copy.subject().ToString(), "input 1 'b'");
  EXPECT_TRUE(OkStatus().subject().empty());
}

}  // namespace
}  // namespace onnx_infer
