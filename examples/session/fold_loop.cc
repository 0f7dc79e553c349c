// An optimizer loop on an onnx_infer::Session (docs/embedding.md, "Editing and re-inferring"):
// fold what shape inference proves constant, re-infer, repeat until nothing folds.
//
//   - `Shape(x)` of a value whose shape the session knows statically becomes an initializer
//     holding that shape (a constant subgraph of one node);
//   - `Identity(x)` whose output type is its input's is removed, its readers reading x.
//
// Each fold is two or three edits followed by Update(); the next round sees the types the
// update inferred. The program checks, after every update, that the session's annotated model
// is byte for byte what a fresh InferShapes of the edited model writes, and prints each fold.
//
//   bazel run //examples/session:fold_loop [-- MODEL.onnx|MODEL.onnxtxt]
//
// Without an argument it folds a small built-in model. Exits 0 when the loop ends with the
// guarantee held, 1 otherwise, 2 when the model cannot be read.
#include <cstdint>
#include <iostream>
#include <string>

#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/inference/session.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/syntax/parser.h"

namespace {

namespace onnx = onnx_infer::onnx;  // the library's protobuf classes (proto/onnx_proto.h)

constexpr const char* kBuiltinModel = R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[2, 3, 8] x, float[2, 24] w) => (y, z) {
  i = Identity (x)
  s = Shape (i)
  start = Constant <value = int64[1] {0}> ()
  end = Constant <value = int64[1] {1}> ()
  batch = Slice (s, start, end)
  flat = Constant <value = int64[1] {-1}> ()
  target = Concat <axis = 0> (batch, flat)
  r = Reshape (i, target)
  j = Identity (r)
  y = Add (j, w)
  sw = Shape (w)
  z = Reshape (y, sw)
}
)";

// One fold in `session`'s main graph, or false when none applies.
bool FoldOnce(onnx_infer::Session& session) {
  const onnx::GraphProto& g = session.EditedModel().graph();
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    if (n.domain() != "" && n.domain() != "ai.onnx") continue;
    if (n.op_type() == "Shape" && n.attribute_size() == 0 && n.input_size() == 1) {
      const onnx_infer::Type* in = session.TypeOf(n.input(0));
      if (!in || !in->is_tensor() || !in->has_shape() || !onnx_infer::IsStatic(in->shape())) {
        continue;
      }
      onnx::TensorProto shape;
      shape.set_name(n.output(0));
      shape.set_data_type(onnx::TensorProto::INT64);
      shape.add_dims(static_cast<int64_t>(in->shape().size()));
      for (const auto& d : in->shape()) shape.add_int64_data(*d.const_value());
      std::cout << "fold: Shape(" << n.input(0) << ") -> initializer '" << n.output(0) << "' "
                << onnx_infer::ShapeToString(in->shape()) << "\n";
      const std::string name = n.output(0);
      if (!session.RemoveNode(i).ok() || !session.SetInitializer(shape).ok()) return false;
      return true;
    }
    if (n.op_type() == "Identity" && n.input_size() == 1 && n.output_size() == 1) {
      const onnx_infer::Type* in = session.TypeOf(n.input(0));
      const onnx_infer::Type* out = session.TypeOf(n.output(0));
      bool is_graph_output = false;
      for (const auto& o : g.output()) is_graph_output |= o.name() == n.output(0);
      if (!in || !out || !(*in == *out) || is_graph_output) continue;
      const std::string from = n.input(0), to = n.output(0);
      bool from_is_input = false;
      for (const auto& gi : g.input()) from_is_input |= gi.name() == from;
      if (from_is_input) continue;  // a graph input keeps its name
      std::cout << "fold: Identity(" << from << ") -> '" << to << "' reads " << from << "\n";
      if (!session.RemoveNode(i).ok() || !session.RenameValue(from, to).ok()) return false;
      return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  onnx::ModelProto model;
  if (argc > 1) {
    auto loaded = onnx_infer::LoadModel(argv[1]);
    if (!loaded.ok()) {
      std::cerr << "fold_loop: " << loaded.status().message() << "\n";
      return 2;
    }
    model = std::move(*loaded);
  } else {
    auto parsed = onnx_infer::syntax::ParseModelText(kBuiltinModel, "builtin");
    if (!parsed.ok()) {
      std::cerr << "fold_loop: " << parsed.status().message() << "\n";
      return 2;
    }
    model = std::move(*parsed);
  }
  const onnx_infer::SchemaRegistry& registry = onnx_infer::BuiltinSchemas();
  onnx_infer::Session session(std::move(model), registry, onnx_infer::InferenceOptions{});
  int folds = 0;
  while (FoldOnce(session)) {
    onnx_infer::SessionUpdate u = session.Update();
    ++folds;
    // The session's guarantee, checked: a fresh inference of the edited model writes the same.
    onnx::ModelProto fresh = session.EditedModel();
    onnx_infer::InferShapes(fresh, registry, onnx_infer::InferenceOptions{});
    if (fresh.SerializeAsString() != session.Model().SerializeAsString()) {
      std::cerr << "fold_loop: after fold " << folds << " the session differs from a fresh "
                << "InferShapes\n";
      return 1;
    }
    std::cout << "  update: " << (u.incremental ? "incremental" : "full") << ", "
              << u.changed_values.size() << " values changed, "
              << session.EditedModel().graph().node_size() << " nodes left\n";
  }
  for (const auto& o : session.Model().graph().output()) {
    const onnx_infer::Type* t = session.TypeOf(o.name());
    std::cout << "output " << o.name() << ": " << (t ? t->ToString() : "?") << "\n";
  }
  std::cout << folds << " folds; " << session.stats().incremental_updates << " incremental and "
            << session.stats().full_updates << " full updates\n";
  for (const auto& [reason, n] : session.stats().full_reasons) {
    std::cout << "  full (" << reason << "): " << n << "\n";
  }
  return session.result().HasErrors() ? 1 : 0;
}
