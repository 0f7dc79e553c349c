// Runs the whole harness and renders docs/conformance.md, the baseline and the gates' inputs.
#ifndef ONNX_INFER_CONFORMANCE_REPORT_H_
#define ONNX_INFER_CONFORMANCE_REPORT_H_

#include <array>
#include <set>
#include <string>
#include <vector>

#include "onnx_infer/conformance/harness.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer::conformance {

struct Results {
  std::vector<CaseResult> by_mode[kNumModes];  // indexed by Mode
  std::vector<RealModelResult> real;
};

Results RunAll(const std::string& shared_dir, const SchemaRegistry& registry);

// A case's grade: the worst of its outputs' (kWrong if any output is WRONG).
Grade CaseGrade(const CaseResult& c);

using GradeCounts = std::array<int, kNumGrades>;
// Cases per grade; `suite` "" for all suites, else e.g. "node".
GradeCounts CountCases(const std::vector<CaseResult>& results, const std::string& suite);

// "static node/test_x y" for every WRONG output.
std::set<std::string> WrongOutputs(const Results& r);

// The real models' not fully shaped node outputs grouped by the operator of their cause
// (UnshapedValue::cause; "(graph input)" for an input's own unknown dims), most values first.
struct UnshapedCause {
  std::string op;
  int causes = 0, values = 0;
  struct Example {
    std::string text;  // "model 'value': type <- input: type, ... (n values)"
    int values = 0;    // the values traced to it
  };
  std::vector<Example> examples;  // one per cause, by model then value name
};
std::vector<UnshapedCause> UnshapedCauses(const Results& r);

std::string RenderReport(const Results& r);
// "<mode> <exact cases>" for each mode, with a comment line on top.
std::string RenderBaseline(const Results& r);

}  // namespace onnx_infer::conformance

#endif  // ONNX_INFER_CONFORMANCE_REPORT_H_
