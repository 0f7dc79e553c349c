// Diagnostics: rendering, and the subject read from a message's first clause.
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

TEST(DiagnosticTest, SubjectOfMessage) {
  struct Case {
    const char* message;
    const char* kind;
    int index;
    const char* name;
  };
  for (const Case& c : {
           Case{"input 1 'b': expected rank 2, got rank 1", "input", 1, "b"},
           Case{"input 0 'ghost' is not defined by any node", "input", 0, "ghost"},
           Case{"input 2: expected a scalar", "input", 2, ""},
           Case{"output 0 'y': inferred type float[4] contradicts", "output", 0, "y"},
           Case{"output 'x' redefines a graph input", "output", -1, "x"},
           Case{"attribute 'axis': expected an axis in [-2, 1]", "attribute", -1, "axis"},
           Case{"expected 2 inputs, got 1", "", -1, ""},
           Case{"input shapes differ", "", -1, ""},
           Case{"input 1x: odd", "", -1, ""},
           Case{"attribute 'unterminated", "", -1, ""},
           Case{"", "", -1, ""},
       }) {
    DiagnosticSubject s = SubjectOfMessage(c.message);
    EXPECT_EQ(s.kind, c.kind) << c.message;
    EXPECT_EQ(s.index, c.index) << c.message;
    EXPECT_EQ(s.name, c.name) << c.message;
  }
  EXPECT_EQ(SubjectOfMessage("input 1 'b': x").ToString(), "input 1 'b'");
  EXPECT_EQ(SubjectOfMessage("attribute 'axis': x").ToString(), "attribute 'axis'");
  EXPECT_EQ(SubjectOfMessage("input 3: x").ToString(), "input 3");
  EXPECT_EQ(DiagnosticSubject().ToString(), "");
}

}  // namespace
}  // namespace onnx_infer
