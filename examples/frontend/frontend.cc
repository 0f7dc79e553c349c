// A front end that embeds onnx-infer, written as an outside project writes it (C++17, its own
// Bazel workspace and CMakeLists.txt). It links its own ONNX protobuf classes (::onnx::*, as
// ONNX's library brings them), registers one custom operator with a C++ rule, infers a model
// and prints every value's type as `infer-shapes MODEL --values --quiet` does.
//
//   frontend MODEL
//
// onnx-infer can be built two ways (docs/embedding.md), and this file works with both:
// - with its own protobuf classes (the default): onnx_infer::onnx::ModelProto is a type of
//   its own, and the front end's ::onnx::ModelProto lives beside it in the same binary;
// - against the front end's classes: onnx_infer::onnx is ::onnx, so the model the front end
//   parsed itself goes to InferShapes as it is, without a copy.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "onnx/onnx-ml.pb.h"  // the front end's own ONNX classes
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/registry.h"

namespace {

using onnx_infer::Dim;
using onnx_infer::InferenceContext;
using onnx_infer::Shape;
using onnx_infer::Status;

// com.frontend::MergeHeads: X[B, H, S, D] -> Y[B, S, H * D], the inverse of a head split.
Status InferMergeHeads(InferenceContext& ctx) {
  ctx.PropagateElemType(/*in=*/0, /*out=*/0);
  const Shape* x = ctx.InputShape(0);
  if (!x) return onnx_infer::OkStatus();  // rank unknown: so is the output's shape
  if (x->size() != 4) {
    return Status::Error("input 0: expected rank 4 [B, H, S, D], got rank " +
                         std::to_string(x->size()));
  }
  const Shape& s = *x;
  ctx.SetOutputShape(0, Shape{s[0], s[2], s[1] * s[3]});
  return onnx_infer::OkStatus();
}

onnx_infer::SchemaRegistry FrontEndSchemas() {
  onnx_infer::SchemaRegistry registry = onnx_infer::BuiltinSchemas();
  Status st = registry.Register(onnx_infer::OpSchema("com.frontend", "MergeHeads", 1)
                                    .Input("X", "T")
                                    .Output("Y", "T")
                                    .TypeConstraint("T", {"tensor(float)", "tensor(float16)"})
                                    .Rule(InferMergeHeads));
  if (!st.ok()) {
    std::cerr << "frontend: " << st.message() << "\n";
    std::exit(2);
  }
  return registry;
}

// Every value of the main graph with its inferred type, from the result (not the annotated
// protobuf): what `infer-shapes --values` prints (onnx_infer::FormatValues gives the same).
void PrintValues(const onnx_infer::InferenceResult& result) {
  const onnx_infer::GraphValueTypes& main_graph = result.value_types.at("main");
  auto print = [&](const char* heading, const std::vector<std::string>& names) {
    std::cout << heading << ":\n";
    for (const std::string& name : names) {
      std::cout << "  " << name << ": " << main_graph.Find(name)->ToString() << "\n";
    }
  };
  print("inputs", main_graph.inputs);
  print("values", main_graph.values);
  print("outputs", main_graph.outputs);
}

std::string Directory(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: frontend MODEL\n";
    return 2;
  }
  const std::string path = argv[1];

  // The front end reads the file with its own classes, as it would for its own import.
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  ::onnx::ModelProto own;
  const bool own_parsed = in.good() && own.ParseFromString(bytes.str());

#if ONNX_INFER_EXTERNAL_ONNX_PROTO
  // One set of classes: the engine works on the front end's own model object.
  static_assert(std::is_same_v<onnx_infer::onnx::ModelProto, ::onnx::ModelProto>);
  ::onnx::ModelProto* model = &own;
  std::optional<onnx_infer::StatusOr<::onnx::ModelProto>> text;
  if (!own_parsed) {  // not binary protobuf: let the library read it (the text syntax)
    text = onnx_infer::LoadModel(path);
    if (!text->ok()) {
      std::cerr << "frontend: " << text->status().message() << "\n";
      return 2;
    }
    model = &**text;
  }
#else
  // Two sets of classes in one binary, each with its own descriptors: they do not mix.
  static_assert(!std::is_same_v<onnx_infer::onnx::ModelProto, ::onnx::ModelProto>);
  onnx_infer::StatusOr<onnx_infer::onnx::ModelProto> loaded = onnx_infer::LoadModel(path);
  if (!loaded.ok()) {
    std::cerr << "frontend: " << loaded.status().message() << "\n";
    return 2;
  }
  if (own_parsed && own.graph().node_size() != loaded->graph().node_size()) {
    std::cerr << "frontend: the two sets of classes read different models\n";
    return 2;
  }
  onnx_infer::onnx::ModelProto* model = &*loaded;
#endif

  static const onnx_infer::SchemaRegistry registry = FrontEndSchemas();
  onnx_infer::InferenceOptions options;
  options.model_dir = Directory(path);  // external data, as infer-shapes reads it
  onnx_infer::InferenceResult result = onnx_infer::InferShapes(*model, registry, options);
  for (const auto& d : result.diagnostics) std::cerr << d.Render(path) << "\n";
  PrintValues(result);
  return result.HasErrors() ? 1 : 0;
}
