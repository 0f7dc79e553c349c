// The values of initializers stored in external files, read for data propagation only: an
// integer or bool initializer small enough to be tracked (InferenceOptions::
// max_value_elements) is read the first time a node consumes it, through the guarded reader
// of proto/external_data.h, and kept. Float tensors and large tensors are never opened.
#ifndef ONNX_INFER_INFERENCE_EXTERNAL_VALUES_H_
#define ONNX_INFER_INFERENCE_EXTERNAL_VALUES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"

namespace onnx_infer {

class ExternalValues {
 public:
  // `model_dir` is the directory of the model file; empty means external data is not read.
  ExternalValues(std::string model_dir, int64_t max_elements);

  // Whether the value of `tensor` is external data this reader would read on demand: stored
  // externally, of an integer or bool type, with at most max_elements elements, and a
  // model directory to read from.
  bool IsCandidate(const onnx::TensorProto& tensor) const;

  // The value of candidate `tensor`, reading its file on the first request; null when it
  // cannot be read. Findings of that first read (why it failed, keys that were ignored) are
  // appended to `warnings`; later requests for the same data add none.
  const ConstValue* Get(const onnx::TensorProto& tensor, std::vector<std::string>* warnings);

 private:
  std::string model_dir_;
  int64_t max_elements_;
  // Keyed by what determines the value (type, dims, external_data entries), not by address:
  // subgraphs are copied afresh for each inference pass.
  std::map<std::string, std::optional<ConstValue>> cache_;
};

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_EXTERNAL_VALUES_H_
