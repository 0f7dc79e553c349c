#include "onnx_infer/schema/shape_inputs.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace onnx_infer {
namespace {

// One operator's positions from a version on; an operator with versions that moved or
// added such inputs has one entry a change (the newest one not after the opset applies).
struct Since {
  int64_t version;
  std::vector<int> inputs;
};

// Keyed by "domain/op_type" ("" for ai.onnx).
using Table = std::map<std::string, std::vector<Since>, std::less<>>;

const Table& Entries() {
  static const auto* table = [] {
    auto* t = new Table;
    auto add = [t](const std::string& domain, const std::string& op, std::vector<Since> since) {
      (*t)[domain + "/" + op] = std::move(since);
    };
    // ai.onnx, from the changelog's signatures (docs/Changelog.md of the shared spec).
    add("", "Reshape", {{5, {1}}});  // Reshape-1 took `shape` as an attribute
    add("", "Expand", {{8, {1}}});
    add("", "Tile", {{1, {1, 2}}, {6, {1}}});  // Tile-1: tiles and axis
    add("", "ConstantOfShape", {{9, {0}}});
    add("", "Slice", {{1, {}}, {10, {1, 2, 3, 4}}});
    add("", "Range", {{11, {0, 1, 2}}});
    add("", "Resize", {{10, {1}}, {11, {2, 3}}});  // from 11, input 1 is roi
    add("", "Upsample", {{7, {}}, {9, {1}}});
    add("", "TopK", {{1, {}}, {10, {1}}});
    add("", "Pad", {{1, {}}, {11, {1}}, {18, {1, 3}}});  // input 2 is the constant value
    add("", "OneHot", {{9, {1}}});
    add("", "Squeeze", {{1, {}}, {13, {1}}});
    add("", "Unsqueeze", {{1, {}}, {13, {1}}});
    add("", "Split", {{1, {1}}, {2, {}}, {13, {1}}});  // Split-1's optional input 1
    add("", "ReduceSum", {{1, {}}, {13, {1}}});
    for (const char* reduce : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                               "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
      add("", reduce, {{1, {}}, {18, {1}}});
    }
    add("", "CenterCropPad", {{18, {1}}});
    add("", "Col2Im", {{18, {1, 2}}});
    add("", "MaxUnpool", {{9, {2}}});
    add("", "NonMaxSuppression", {{10, {2}}});
    add("", "Compress", {{9, {1}}});
    add("", "If", {{1, {0}}});
    add("", "Loop", {{1, {0, 1}}});
    add("", "DFT", {{17, {1}}, {20, {1, 2}}});  // DFT-20 moved axis to input 2
    add("", "STFT", {{17, {1, 3}}});            // frame_step, frame_length (2: the window)
    add("", "AffineGrid", {{20, {1}}});
    for (const char* window : {"BlackmanWindow", "HannWindow", "HammingWindow"}) {
      add("", window, {{17, {0}}});
    }
    add("", "MelWeightMatrix", {{17, {0, 1}}});
    // com.microsoft (the contrib operator document).
    add("com.microsoft", "GroupQueryAttention", {{1, {6}}});  // total_sequence_length
    return t;
  }();
  return *table;
}

}  // namespace

const std::vector<int>& ShapeValueInputs(std::string_view domain, std::string_view op_type,
                                         int64_t opset) {
  static const std::vector<int> kNone;
  if (domain == "ai.onnx") domain = "";
  const Table& table = Entries();
  std::string key(domain);
  key += '/';
  key += op_type;
  auto it = table.find(key);
  if (it == table.end()) return kNone;
  const std::vector<Since>& since = it->second;
  if (opset <= 0) return since.back().inputs;
  const std::vector<int>* found = &kNone;
  for (const Since& s : since) {
    if (s.version <= opset) found = &s.inputs;
  }
  return *found;
}

int64_t ImportedOpset(const onnx::ModelProto& model, std::string_view domain) {
  if (domain == "ai.onnx") domain = "";
  for (const auto& op : model.opset_import()) {
    std::string_view d = op.domain();
    if (d == "ai.onnx") d = "";
    if (d == domain) return op.version();
  }
  return 0;
}

bool IsShapeValueInput(const onnx::ModelProto& model, const onnx::NodeProto& node, int i) {
  const std::vector<int>& inputs =
      ShapeValueInputs(node.domain(), node.op_type(), ImportedOpset(model, node.domain()));
  return std::find(inputs.begin(), inputs.end(), i) != inputs.end();
}

}  // namespace onnx_infer
