#include "onnx_infer/proto/nesting.h"

#include <variant>
#include <vector>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/base/strings.h"

namespace onnx_infer {
namespace {

// Depth is counted in protobuf messages, as protobuf's parsers count it, so that whatever a
// parser accepts passes: a subgraph adds 3 (NodeProto, AttributeProto, GraphProto), a type in a
// type 2 (TypeProto and its Sequence, Optional or Map).
constexpr int kGraphMessages = 3;
constexpr int kTypeMessages = 2;

// One message still to visit and the nesting depth it sits at.
struct Pending {
  std::variant<const onnx::GraphProto*, const onnx::NodeProto*, const onnx::TypeProto*,
               const onnx::FunctionProto*>
      message;
  int depth;
};

class Walker {
 public:
  void Push(const onnx::GraphProto& g, int depth) { stack_.push_back({&g, depth}); }
  void Push(const onnx::NodeProto& n, int depth) { stack_.push_back({&n, depth}); }
  void Push(const onnx::TypeProto& t, int depth) { stack_.push_back({&t, depth}); }
  void Push(const onnx::FunctionProto& f, int depth) { stack_.push_back({&f, depth}); }

  Status Run() {
    while (!stack_.empty()) {
      Pending p = stack_.back();
      stack_.pop_back();
      if (p.depth > kMaxProtobufDepth) {
        return Status::Error(StrCat("types or subgraphs nested deeper than ", kMaxProtobufDepth,
                                    " protobuf messages (docs/limits.md)"));
      }
      std::visit([&](const auto* m) { Visit(*m, p.depth); }, p.message);
    }
    return OkStatus();
  }

 private:
  void ValueInfos(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos,
                  int depth) {
    for (const auto& vi : infos) {
      if (vi.has_type()) Push(vi.type(), depth);
    }
  }

  void Visit(const onnx::GraphProto& g, int depth) {
    ValueInfos(g.input(), depth);
    ValueInfos(g.output(), depth);
    ValueInfos(g.value_info(), depth);
    for (const auto& n : g.node()) Push(n, depth);
  }

  void Visit(const onnx::FunctionProto& f, int depth) {
    ValueInfos(f.value_info(), depth);
    for (const auto& n : f.node()) Push(n, depth);
  }

  void Visit(const onnx::NodeProto& n, int depth) {
    for (const auto& a : n.attribute()) {
      if (a.has_g()) Push(a.g(), depth + kGraphMessages);
      for (const auto& g : a.graphs()) Push(g, depth + kGraphMessages);
      if (a.has_tp()) Push(a.tp(), depth);
      for (const auto& t : a.type_protos()) Push(t, depth);
    }
  }

  void Visit(const onnx::TypeProto& t, int depth) {
    switch (t.value_case()) {
      case onnx::TypeProto::kSequenceType:
        if (t.sequence_type().has_elem_type())
          Push(t.sequence_type().elem_type(), depth + kTypeMessages);
        break;
      case onnx::TypeProto::kOptionalType:
        if (t.optional_type().has_elem_type())
          Push(t.optional_type().elem_type(), depth + kTypeMessages);
        break;
      case onnx::TypeProto::kMapType:
        if (t.map_type().has_value_type()) Push(t.map_type().value_type(), depth + kTypeMessages);
        break;
      default:
        break;
    }
  }

  std::vector<Pending> stack_;
};

}  // namespace

Status CheckNesting(const onnx::ModelProto& model) {
  Walker w;
  if (model.has_graph()) w.Push(model.graph(), 0);
  for (const auto& f : model.functions()) w.Push(f, 0);
  for (const auto& t : model.training_info()) {
    if (t.has_initialization()) w.Push(t.initialization(), 0);
    if (t.has_algorithm()) w.Push(t.algorithm(), 0);
  }
  return w.Run();
}

Status CheckNesting(const onnx::NodeProto& node) {
  Walker w;
  w.Push(node, 0);
  return w.Run();
}

Status CheckNesting(const onnx::TypeProto& type) {
  Walker w;
  w.Push(type, 0);
  return w.Run();
}

}  // namespace onnx_infer
