// Specialization: fixing what a model leaves open before inference runs (docs/cli.md,
// "Specializing a model"). InferShapes applies InferenceOptions::input_shapes, bind,
// input_values and name_anonymous_dims itself, through Specialize; this header adds the text
// forms the command line takes and a check of the options against a model, so a front end can
// refuse a mistyped option before inferring:
//
//   InferenceOptions options;
//   OI_ASSIGN_OR_RETURN(options.bind, ParseBindings("B=1,S=128"));
//   OI_ASSIGN_OR_RETURN(auto shape, ParseInputShape("x:1,3,H,W"));
//   options.input_shapes.insert(std::move(shape));
//   OI_ASSIGN_OR_RETURN(auto value, ParseInputValue("sr=16000"));
//   options.input_values.push_back(std::move(value));
//   OI_RETURN_IF_ERROR(CheckSpecialization(model, options));  // "no graph input 'q'"...
//   InferenceResult result = InferShapes(model, BuiltinSchemas(), options);
#ifndef ONNX_INFER_INFERENCE_SPECIALIZE_H_
#define ONNX_INFER_INFERENCE_SPECIALIZE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnx_infer/base/status.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/const_value.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer {

// "B=1,S=128" -> {B: 1, S: 128}: comma-separated `symbol=value`, each value a non-negative
// integer. A symbol given twice with different values is an error.
StatusOr<std::map<std::string, int64_t, std::less<>>> ParseBindings(std::string_view text);

// "x:1,3,H,W" -> ("x", {"1", "3", "H", "W"}): the input's name up to the last ':' (names such
// as "input:0" keep theirs), then its dims separated by commas outside parentheses (each a
// number, a symbol, an expression such as "Max(A, B)" or "?"), optionally in brackets. "x:"
// and "x:[]" are scalars.
StatusOr<std::pair<std::string, std::vector<std::string>>> ParseInputShape(std::string_view text);

// "sr=16000", "pads=1,2,3", "flag=true", "scale=0.5", "axes=[1]": the input's name up to the
// last '=', then comma-separated numbers (true and false are 1 and 0). Without brackets the
// value's dims are fitted to the declared input (KnownInputValue::fit_dims); in brackets it is
// a 1-D tensor whatever its length. The element type is the input's (elem_type 0).
StatusOr<KnownInputValue> ParseInputValue(std::string_view text);

// Checks the specialization options against `model` without changing it: every input they
// name exists, every dim parses, every value fits its input's declaration, every bound value
// is a dim (>= 0). The first problem, worded as InferShapes reports it.
Status CheckSpecialization(const onnx::ModelProto& model, const InferenceOptions& options);

// What Specialize did to a model and what the driver must know of it.
struct Specialization {
  // Options that could not be applied, each skipped ("input shape for 'q': the model has no
  // graph input 'q'").
  std::vector<std::string> errors;
  // The given values of main-graph inputs, by name, with Dims in the current context.
  std::map<std::string, ConstValue, std::less<>> input_values;
  // What the options state about symbols: each binding (B == 1), and a declared symbol dim
  // of an input meeting its given value's extent (N == 3).
  struct Equality {
    Dim lhs, rhs;
    std::string origin;
  };
  std::vector<Equality> facts;
  // Symbols named for anonymous input dims: name -> origin.
  std::map<std::string, std::string> named_dims;
  // Bound symbols the model's declarations used (before they were evaluated).
  std::vector<std::string> bound_and_declared;
};

// Applies the options to `model`'s declarations in the order of InferenceOptions: input
// shapes replaced, declared dims evaluated under `bind`, given values fitted to their inputs
// (whose declarations take the value's shape), anonymous input dims named. Dims are made in
// the current context. InferShapes calls it first; a front end need not.
Specialization Specialize(onnx::ModelProto& model, const InferenceOptions& options);

}  // namespace onnx_infer

#endif  // ONNX_INFER_INFERENCE_SPECIALIZE_H_
