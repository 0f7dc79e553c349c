#include "onnx_infer/schema/diagnostic_codes.h"

namespace onnx_infer {
namespace {

#define ONNX_INFER_DIAG_ID_(n) "OI" #n
#define ONNX_INFER_DIAG_ROW_(e, n, name, severity, summary) \
  {DiagCode::e, ONNX_INFER_DIAG_ID_(n), name, severity, summary},
const DiagCodeInfo kRows[] = {ONNX_INFER_DIAGNOSTIC_CODES(ONNX_INFER_DIAG_ROW_)};
#undef ONNX_INFER_DIAG_ROW_
#undef ONNX_INFER_DIAG_ID_

const DiagCodeInfo kUnclassifiedRow = {DiagCode::kUnclassified, "OI0000", "unclassified", "any",
                                       "a finding its maker did not classify (a bug)"};

}  // namespace

const std::vector<DiagCodeInfo>& AllDiagCodes() {
  static const auto* rows = new std::vector<DiagCodeInfo>(std::begin(kRows), std::end(kRows));
  return *rows;
}

const DiagCodeInfo& InfoOf(DiagCode code) {
  for (const DiagCodeInfo& row : kRows) {
    if (row.code == code) return row;
  }
  return kUnclassifiedRow;
}

std::optional<DiagCode> FindDiagCode(std::string_view id_or_name) {
  for (const DiagCodeInfo& row : kRows) {
    if (row.id == id_or_name || row.name == id_or_name) return row.code;
  }
  return std::nullopt;
}

}  // namespace onnx_infer
