// The inputs whose values, not only their shapes, decide an operator's output shapes: one
// version-aware table for the contract (shape-tensor inputs), --explain (which input a lost
// dim came from) and lint (does a Shape's result reach a shape).
#ifndef ONNX_INFER_SCHEMA_SHAPE_INPUTS_H_
#define ONNX_INFER_SCHEMA_SHAPE_INPUTS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "onnx_infer/proto/onnx_proto.h"

namespace onnx_infer {

// Positions of the inputs of (domain, op_type) at `opset` (the version of its domain the
// model imports; 0 when unknown, which means the newest) whose element values decide the
// shape of an output, or which subgraph runs and how often: Reshape's shape, Slice's
// starts..., Resize-10's scales (input 1) but from Resize-11 on its scales and sizes (2, 3;
// input 1 is then `roi`, which decides no shape), an If's condition, a Loop's trip count and
// condition, NonMaxSuppression's max_output_boxes_per_class. Data whose every element decides
// the output's length (NonZero's input) is not listed. Empty for other operators.
const std::vector<int>& ShapeValueInputs(std::string_view domain, std::string_view op_type,
                                         int64_t opset);

// Whether input `i` of `node` is one of them, at the version `model` imports for its domain.
bool IsShapeValueInput(const onnx::ModelProto& model, const onnx::NodeProto& node, int i);

// The version of `domain` ("" and "ai.onnx" alike) that `model` imports; 0 when none.
int64_t ImportedOpset(const onnx::ModelProto& model, std::string_view domain);

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_SHAPE_INPUTS_H_
