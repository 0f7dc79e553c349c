// Entry points of the rule families in schema/defs/. Each attaches its rules to the catalog
// schemas by (domain, name, since_version).
#ifndef ONNX_INFER_SCHEMA_DEFS_REGISTER_H_
#define ONNX_INFER_SCHEMA_DEFS_REGISTER_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

Status RegisterAiOnnxMathRules(SchemaRegistry& registry);    // ai_onnx/math.cc
Status RegisterAiOnnxTensorRules(SchemaRegistry& registry);  // ai_onnx/tensor.cc
Status RegisterAiOnnxControlFlowRules(SchemaRegistry& registry);  // ai_onnx/controlflow.cc
Status RegisterAiOnnxShapeOpsRules(SchemaRegistry& registry);  // ai_onnx/shape_ops.cc
Status RegisterAiOnnxReductionRules(SchemaRegistry& registry);  // ai_onnx/reduction.cc
Status RegisterAiOnnxMathOpsRules(SchemaRegistry& registry);    // ai_onnx/math_ops.cc
Status RegisterAiOnnxElementwiseRules(SchemaRegistry& registry);  // ai_onnx/elementwise.cc
Status RegisterAiOnnxLogicalRules(SchemaRegistry& registry);      // ai_onnx/logical.cc
Status RegisterAiOnnxTensorOps2Rules(SchemaRegistry& registry);  // ai_onnx/tensor_ops2.cc
Status RegisterAiOnnxAttentionRules(SchemaRegistry& registry);    // ai_onnx/attention.cc
Status RegisterAiOnnxResizeRules(SchemaRegistry& registry);       // ai_onnx/resize.cc
Status RegisterAiOnnxConvPoolRules(SchemaRegistry& registry);     // ai_onnx/conv_pool.cc
Status RegisterAiOnnxMlRules(SchemaRegistry& registry);           // ai_onnx_ml/ml.cc
Status RegisterAiOnnxSequenceRnnRules(SchemaRegistry& registry);  // ai_onnx/sequence_rnn.cc
Status RegisterAiOnnxQuantMiscRules(SchemaRegistry& registry);    // ai_onnx/quant_misc.cc

// All of the above.
inline Status RegisterAiOnnxRules(SchemaRegistry& registry) {
  OI_RETURN_IF_ERROR(RegisterAiOnnxMathRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxTensorRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxControlFlowRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxShapeOpsRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxReductionRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxMathOpsRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxElementwiseRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxLogicalRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxTensorOps2Rules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxAttentionRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxResizeRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxConvPoolRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxMlRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxSequenceRnnRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxQuantMiscRules(registry));
  return OkStatus();
}

// onnxruntime's operators: com.microsoft, and the extras it registers in the default domain
// (SimplifiedLayerNormalization, LayerNormalization-1, the *_TRT plugins, Affine, ...). One
// file per family in defs/com_microsoft/, each with
//   Status RegisterComMicrosoft<Family>Rules(SchemaRegistry& registry);
// declared here and called from RegisterContribRules.
Status RegisterComMicrosoftAttentionRules(SchemaRegistry& registry);     // attention.cc
Status RegisterComMicrosoftNnRules(SchemaRegistry& registry);            // nn.cc
Status RegisterComMicrosoftQuantizationRules(SchemaRegistry& registry);  // quantization.cc
Status RegisterComMicrosoftGenerationRules(SchemaRegistry& registry);    // generation.cc
Status RegisterComMicrosoftRecurrentRules(SchemaRegistry& registry);     // recurrent.cc
Status RegisterComMicrosoftTensorRules(SchemaRegistry& registry);        // tensor.cc
Status RegisterComMicrosoftExecutionProviderRules(SchemaRegistry& registry);  // execution_provider.cc
Status RegisterComMicrosoftTrainingRules(SchemaRegistry& registry);      // training.cc
Status RegisterOrtDefaultDomainRules(SchemaRegistry& registry);          // ort_default_domain.cc

inline Status RegisterContribRules(SchemaRegistry& registry) {
  OI_RETURN_IF_ERROR(RegisterComMicrosoftAttentionRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftNnRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftQuantizationRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftGenerationRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftRecurrentRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftTensorRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftExecutionProviderRules(registry));
  OI_RETURN_IF_ERROR(RegisterComMicrosoftTrainingRules(registry));
  OI_RETURN_IF_ERROR(RegisterOrtDefaultDomainRules(registry));
  return OkStatus();
}

}  // namespace onnx_infer

#endif  // ONNX_INFER_SCHEMA_DEFS_REGISTER_H_
