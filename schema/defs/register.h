// Entry points of the rule families in schema/defs/. Each attaches its rules to the catalog
// schemas by (domain, name, since_version).
#ifndef ONNX_INFER_SCHEMA_DEFS_REGISTER_H_
#define ONNX_INFER_SCHEMA_DEFS_REGISTER_H_

#include "onnx_infer/base/status.h"
#include "onnx_infer/schema/registry.h"

namespace onnx_infer {

// ai.onnx (and ai.onnx.preview.training): one file per operator category of ONNX's operator
// documentation under defs/ai_onnx/, a folder for the large ones (math/, nn/, tensor/).
Status RegisterAiOnnxMathRules(SchemaRegistry& registry);             // ai_onnx/math/math.cc
Status RegisterAiOnnxElementwiseRules(SchemaRegistry& registry);      // ai_onnx/math/elementwise.cc
Status RegisterAiOnnxLogicalRules(SchemaRegistry& registry);          // ai_onnx/logical.cc
Status RegisterAiOnnxReductionRules(SchemaRegistry& registry);        // ai_onnx/reduction.cc
Status RegisterAiOnnxConvPoolRules(SchemaRegistry& registry);         // ai_onnx/nn/conv_pool.cc
Status RegisterAiOnnxNormalizationRules(SchemaRegistry& registry);    // ai_onnx/nn/normalization.cc
Status RegisterAiOnnxDropoutRules(SchemaRegistry& registry);          // ai_onnx/nn/dropout.cc
Status RegisterAiOnnxAttentionRules(SchemaRegistry& registry);        // ai_onnx/nn/attention.cc
Status RegisterAiOnnxReshapeRules(SchemaRegistry& registry);          // ai_onnx/tensor/reshape.cc
Status RegisterAiOnnxShapeRules(SchemaRegistry& registry);            // ai_onnx/tensor/shape.cc
Status RegisterAiOnnxIndexingRules(SchemaRegistry& registry);         // ai_onnx/tensor/indexing.cc
Status RegisterAiOnnxCastRules(SchemaRegistry& registry);             // ai_onnx/tensor/cast.cc
Status RegisterAiOnnxPadRules(SchemaRegistry& registry);              // ai_onnx/tensor/pad.cc
Status RegisterAiOnnxResizeRules(SchemaRegistry& registry);           // ai_onnx/tensor/resize.cc
Status RegisterAiOnnxGeneratorRules(SchemaRegistry& registry);        // ai_onnx/generator.cc
Status RegisterAiOnnxControlFlowRules(SchemaRegistry& registry);      // ai_onnx/controlflow.cc
Status RegisterAiOnnxSequenceRules(SchemaRegistry& registry);         // ai_onnx/sequence.cc
Status RegisterAiOnnxOptionalRules(SchemaRegistry& registry);         // ai_onnx/optional.cc
Status RegisterAiOnnxRnnRules(SchemaRegistry& registry);              // ai_onnx/rnn.cc
Status RegisterAiOnnxQuantizationRules(SchemaRegistry& registry);     // ai_onnx/quantization.cc
Status RegisterAiOnnxObjectDetectionRules(SchemaRegistry& registry);  // ai_onnx/object_detection.cc
Status RegisterAiOnnxTextRules(SchemaRegistry& registry);             // ai_onnx/text.cc
Status RegisterAiOnnxImageRules(SchemaRegistry& registry);            // ai_onnx/image.cc
Status RegisterAiOnnxTrainingRules(SchemaRegistry& registry);         // ai_onnx/training.cc
Status RegisterAiOnnxMlRules(SchemaRegistry& registry);  // ai_onnx_ml/traditional_ml.cc

// All of the above.
inline Status RegisterAiOnnxRules(SchemaRegistry& registry) {
  OI_RETURN_IF_ERROR(RegisterAiOnnxMathRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxElementwiseRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxLogicalRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxReductionRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxConvPoolRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxNormalizationRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxDropoutRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxAttentionRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxReshapeRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxShapeRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxIndexingRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxCastRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxPadRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxResizeRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxGeneratorRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxControlFlowRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxSequenceRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxOptionalRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxRnnRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxQuantizationRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxObjectDetectionRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxTextRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxImageRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxTrainingRules(registry));
  OI_RETURN_IF_ERROR(RegisterAiOnnxMlRules(registry));
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
Status RegisterComMicrosoftExecutionProviderRules(
    SchemaRegistry& registry);                                       // execution_provider.cc
Status RegisterComMicrosoftTrainingRules(SchemaRegistry& registry);  // training.cc
Status RegisterOrtDefaultDomainRules(SchemaRegistry& registry);      // ort_default_domain.cc

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
