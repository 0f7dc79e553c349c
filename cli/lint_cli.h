// infer-shapes --lint (docs/lint.md): prints the lint findings and gives the report's
// "findings" section, kept apart from the flag parsing of infer_shapes_main.cc.
#ifndef ONNX_INFER_CLI_LINT_CLI_H_
#define ONNX_INFER_CLI_LINT_CLI_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>
#include <vector>

#include "onnx_infer/inference/lint.h"

namespace onnx_infer {

// Each finding as LintFinding::Render gives it, one per paragraph. With `full` false only the
// first line of each (what an ordinary run prints for the silent narrowings: L001 and L003).
void PrintFindings(const std::vector<LintFinding>& findings, std::string_view file, bool full,
                   std::ostream& out);

// The report's "findings" section: an array of objects (docs/report.schema.json).
nlohmann::json FindingsJson(const std::vector<LintFinding>& findings);

}  // namespace onnx_infer

#endif  // ONNX_INFER_CLI_LINT_CLI_H_
