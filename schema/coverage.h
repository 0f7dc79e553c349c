// The operator coverage report (docs/op-coverage.md): for each domain and operator, the
// versions known, which have an inference rule, which have only a function body, and which
// have neither.
#ifndef ONNX_INFER_SCHEMA_COVERAGE_H_
#define ONNX_INFER_SCHEMA_COVERAGE_H_

#include <string>

#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// The report in Markdown. Deterministic: same registry, same text.
std::string CoverageReport(const SchemaRegistry& registry);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_COVERAGE_H_
