// Diagnostics: rendering, and the subject an error carries.
#include "onnx_infer/schema/diagnostic.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(d.Render("m.onnx"),
            "m.onnx: warning: graph 'main/If_3.then_branch' node #7 'cat0' "
            "(ai.onnx::Concat-13): input 1 'b': expected rank 2, got rank 1");
  Diagnostic bare;
  bare.message = "something";
  EXPECT_EQ(bare.Render(""), "error: something");
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
