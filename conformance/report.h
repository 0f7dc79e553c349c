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

// The report ends with kGeneratedEnd's line; what follows it in docs/conformance.md (the
// runtime verification written by tools/verify_runtime/verify.py --write-docs) is kept by
// --write and not compared by the staleness test.
inline constexpr char kGeneratedEnd[] =
    "<!-- END OF THE GENERATED PART: what follows is tools/verify_runtime/verify.py's -->";
std::string RenderReport(const Results& r);
// text up to and including kGeneratedEnd's line (all of it when the line is missing), and
// what follows that line.
std::string GeneratedPart(const std::string& text);
std::string AfterGeneratedPart(const std::string& text);
// "<mode> <exact cases>" for each mode, with a comment line on top.
std::string RenderBaseline(const Results& r);

}  // namespace onnx_infer::conformance

#endif  // ONNX_INFER_CONFORMANCE_REPORT_H_
