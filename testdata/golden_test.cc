// The golden-test runner (docs/testing.md). Every testdata/cases/**/<case>.onnxtxt (or
// <case>.textproto, a ModelProto in protobuf text format) is parsed,
// inferred with the built-in schemas, and its annotations and diagnostics, rendered as text,
// are compared with <case>.expected beside it. One GoogleTest case per file.
//
//   bazel test //testdata:golden_test
//   bazel run //testdata:golden_test -- --update    # rewrite the .expected files in the tree
//
// A case may ask for options in a comment line of its own: `# options: strict`,
// `# options: bind B=1,S=128` (the options of docs/testing.md), or `# assume: S >= 2`.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/inference/cost.h"
#include "onnx_infer/inference/explain.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/lint.h"
#include "onnx_infer/inference/memory.h"
#include "onnx_infer/inference/specialize.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/syntax/parser.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

bool g_update = false;

// What a case's .expected file holds: the sections in this order, each only when non-empty.
//   inputs:       graph inputs as declared
//   values:       value_info after inference (node outputs in node order)
//   outputs:      graph outputs after inference
//   graph <path>: the same three sections, indented, for every subgraph (If branches, Loop and
//                 Scan bodies...), depth first in node order
//   function <domain>::<name>[:<overload>]: a model-local function's value_info after
//                 inference
//   symbols introduced: each symbol inference added to the model, with its origin
//   facts:        what inference learnt about the symbols (N == M)
//   conditions:   conditions the model must meet that are not equations
//   bounds:       each symbol's range beyond >= 0 ("0 <= seq <= 4096"), with its origins
//   relations:    relations over several symbols ("P + S <= 4096 (assumed)")
//   diagnostics:  every diagnostic, rendered, in the order found
//   explain:      with `# options: explain VALUE[:AXIS]` or `# options: explain all`, what
//                 --explain prints (the what-if runs with `all`, and with `# options: what-if
//                 S=3`, as --what-if)
// A text that does not parse gives the single line "parse error: <message>".
// Options, each in a comment line of its own: `# options: strict`, `# options: no-data-prop`,
// `# options: policy refine` (--policy),
// `# options: assume-positive`, the specialization options below; and `# assume: S >= 2`
// lines, as --assume.
bool HasOption(const std::string& text, const std::string& option) {
  const std::string line = "# options: " + option;
  return text.find("\n" + line) != std::string::npos || text.rfind(line, 0) == 0;
}

// The rest of every line that starts with `prefix` (`# assume: ` gives "S >= 2").
std::vector<std::string> LineArgs(const std::string& text, const std::string& prefix) {
  std::vector<std::string> args;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) args.push_back(line.substr(prefix.size()));
  }
  return args;
}

// The arguments of every `# options: <option> ARG` line (`# options: bind B=1,S=128`).
std::vector<std::string> OptionArgs(const std::string& text, const std::string& option) {
  return LineArgs(text, "# options: " + option + " ");
}

// Specialization options of a case (docs/cli.md): `# options: bind B=1`, `# options:
// input-shape x:1,3,H,W`, `# options: set-input sr=16000`, `# options: keep-anonymous-dims`.
Status SpecializationOptions(const std::string& text, InferenceOptions& options) {
  for (const auto& arg : OptionArgs(text, "bind")) {
    OI_ASSIGN_OR_RETURN(auto bind, ParseBindings(arg));
    options.bind.insert(bind.begin(), bind.end());
  }
  for (const auto& arg : OptionArgs(text, "input-shape")) {
    OI_ASSIGN_OR_RETURN(auto shape, ParseInputShape(arg));
    options.input_shapes[shape.first] = shape.second;
  }
  for (const auto& arg : OptionArgs(text, "set-input")) {
    OI_ASSIGN_OR_RETURN(auto value, ParseInputValue(arg));
    options.input_values.push_back(std::move(value));
  }
  options.name_anonymous_dims = !HasOption(text, "keep-anonymous-dims");
  return OkStatus();
}

void PrintGraph(const onnx::GraphProto& g, const std::string& indent, std::ostringstream& out) {
  auto section = [&](const char* title, const auto& list) {
    if (list.empty()) return;
    out << indent << title << ":\n";
    for (const auto& vi : list) {
      out << indent << "  " << vi.name() << ": " << TypeFromProto(vi.type()).ToString() << "\n";
    }
  };
  section("inputs", g.input());
  section("values", g.value_info());
  section("outputs", g.output());
}

void PrintSubgraphs(const onnx::GraphProto& g, const std::string& path, std::ostringstream& out) {
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    for (const auto& a : node.attribute()) {
      if (!a.has_g()) continue;
      const std::string sub =
          path + "/" + node.op_type() + "_" + std::to_string(i) + "." + a.name();
      out << "graph " << sub << ":\n";
      PrintGraph(a.g(), "  ", out);
      PrintSubgraphs(a.g(), sub, out);
    }
  }
}

// `# options: memory`: the memory estimate (inference/memory.h) as a last section: each
// value's bytes, the weights, each step's live bytes and the peak.
void PrintMemory(const MemoryEstimate& m, std::ostringstream& out) {
  out << "memory:\n";
  for (const auto& v : m.values) {
    out << "  " << v.graph << " " << v.name << ": " << FormatBytes(v.bytes) << "\n";
  }
  out << "  weights: " << FormatBytes(m.weight_bytes) << " in " << m.weights << " tensors ("
      << m.weights_unknown_size << " of unknown size)\n";
  for (const auto& step : m.steps) {
    out << "  step node #" << step.node_index << " " << step.op_type << ": "
        << FormatBytes(step.live_bytes);
    if (step.unknown_values) out << " (and " << step.unknown_values << " of unknown size)";
    out << "\n";
  }
  std::vector<int> nodes;
  for (int k : m.peak_steps) nodes.push_back(m.steps[k].node_index);
  out << "  peak: " << FormatBytes(m.peak_bytes) << (m.peak_decided ? " at" : " undecided among")
      << " nodes #" << StrJoin(nodes, ", #") << "; " << m.unknown_activations
      << " activations of unknown size\n";
}

// `# options: cost`: the cost estimate (inference/cost.h) as a last section: every node's
// FLOPs and MACs, the totals, and with `# cost-bind: B=1,S=4` lines their values there.
void PrintCost(const CostEstimate& c, const std::string& text, std::ostringstream& out) {
  out << "cost:\n";
  for (const auto& n : c.nodes) {
    out << "  " << n.graph << " node #" << n.node_index << " "
        << (n.domain.empty() ? "" : n.domain + "::") << n.op_type << ": " << CostKindName(n.kind)
        << ", " << FormatCount(n.flops) << " FLOPs, " << FormatCount(n.macs) << " MACs";
    if (n.lower_bound) out << " (lower bound)";
    if (n.per_iteration) out << " (per iteration)";
    if (!n.note.empty()) out << "; " << n.note;
    out << "\n";
  }
  out << "  total: " << FormatCount(c.total_flops) << " FLOPs, " << FormatCount(c.total_macs)
      << " MACs" << (c.lower_bound ? " (lower bound)" : "");
  if (c.per_iteration_loops) out << " (per iteration of " << c.per_iteration_loops << " loops)";
  out << "\n";
  for (const auto& line : LineArgs(text, "# cost-bind: ")) {
    auto binding = ParseBindings(line);
    if (!binding.ok()) {
      out << "  cost-bind error: " << binding.status().message() << "\n";
      continue;
    }
    CostValues v = EvaluateCost(c, CostBinding(binding->begin(), binding->end()));
    auto num = [](const std::optional<int64_t>& x) { return x ? std::to_string(*x) : "?"; };
    out << "  at " << line << ": " << num(v.total_flops) << " FLOPs, " << num(v.total_macs)
        << " MACs\n";
  }
}

// A case is ONNX text syntax (.onnxtxt), or protobuf text format (.textproto) for what the
// text syntax cannot say (training_info, external data).
StatusOr<onnx::ModelProto> ParseCase(const std::string& text, const std::string& name) {
  if (name.size() < 10 || name.substr(name.size() - 10) != ".textproto") {
    return syntax::ParseModelText(text, name);
  }
  onnx::ModelProto model;
  if (!google::protobuf::TextFormat::ParseFromString(text, &model)) {
    return Status::Error(name + ": not a ModelProto in protobuf text format");
  }
  return model;
}

// `# options: explain VALUE[:AXIS]` and `# options: explain all`: what --explain prints
// (cli/explain_cli.cc), from the library's functions; `# options: what-if S=3` as --what-if.
void PrintExplain(const onnx::ModelProto& original, const onnx::ModelProto& annotated,
                  const InferenceOptions& options, const InferenceResult& result,
                  const std::string& text, std::ostringstream& out) {
  out << "explain:\n";
  bool all = false;
  for (const auto& target : OptionArgs(text, "explain")) {
    if (target == "all") {
      all = true;
      continue;
    }
    auto explained = ExplainTarget(annotated, result, target);
    if (!explained.ok()) {
      out << "  error: " << explained.status().message() << "\n";
      continue;
    }
    for (const auto& e : *explained) out << FormatExplanation(e);
  }
  if (!all) return;
  std::vector<DimExplanation> unknown = ExplainAllUnknown(annotated, result);
  out << FormatExplainSummary(unknown, 3);
  out << FormatIntroducedSymbols(ExplainIntroducedSymbols(annotated, result), 3);
  WhatIfRequest request;
  for (const auto& arg : OptionArgs(text, "what-if")) {
    auto bind = ParseBindings(arg);
    if (!bind.ok()) {
      out << "  error: " << bind.status().message() << "\n";
      continue;
    }
    request.symbols.insert(bind->begin(), bind->end());
  }
  out << FormatWhatIf(WhatIfBindings(original, BuiltinSchemas(), options, result, unknown, request),
                      result.stats.static_shaped, result.stats.values);
}

std::string Annotations(const std::string& text, const std::string& name) {
  auto model = ParseCase(text, name);
  if (!model.ok()) return "parse error: " + model.status().message() + "\n";
  InferenceOptions options;
  options.strict = HasOption(text, "strict");
  options.data_propagation = !HasOption(text, "no-data-prop");
  options.assume_positive = HasOption(text, "assume-positive");
  options.overridable_initializers = HasOption(text, "overridable-initializers");
  options.check_types = !HasOption(text, "no-check-types");
  // `# options: policy refine`, as --policy.
  for (const auto& arg : OptionArgs(text, "policy")) {
    auto policy = ParseDeclaredPolicy(arg);
    if (!policy) return "options error: unknown policy '" + arg + "'\n";
    options.declared_policy = *policy;
  }
  // `# assume: S >= 2` (repeatable), as --assume.
  options.assumptions = LineArgs(text, "# assume: ");
  if (Status st = SpecializationOptions(text, options); !st.ok()) {
    return "options error: " + st.message() + "\n";
  }
  const std::vector<std::string> explain = OptionArgs(text, "explain");
  std::optional<onnx::ModelProto> original;
  if (!explain.empty()) {
    options.record_provenance = true;  // what --explain turns on
    options.record_value_types = true;
    original.emplace(*model);
  }
  InferenceResult result = InferShapes(*model, BuiltinSchemas(), options);
  std::ostringstream out;
  PrintGraph(model->graph(), "", out);
  PrintSubgraphs(model->graph(), "main", out);
  for (int i = 0; i < model->training_info_size(); ++i) {
    const auto& info = model->training_info(i);
    for (auto [graph, kind] : {std::pair{&info.initialization(), "initialization"},
                               std::pair{&info.algorithm(), "algorithm"}}) {
      if (graph->node_size() == 0 && graph->output_size() == 0) continue;
      const std::string path = "training_info[" + std::to_string(i) + "]." + kind;
      out << "graph " << path << ":\n";
      PrintGraph(*graph, "  ", out);
      PrintSubgraphs(*graph, path, out);
    }
  }
  for (const auto& f : model->functions()) {
    if (f.value_info().empty()) continue;
    out << "function " << (f.domain().empty() ? "ai.onnx" : f.domain()) << "::" << f.name()
        << (f.overload().empty() ? "" : ":" + f.overload()) << ":\n";
    for (const auto& vi : f.value_info()) {
      out << "  " << vi.name() << ": " << TypeFromProto(vi.type()).ToString() << "\n";
    }
  }
  bool introduced = false;
  for (const auto& sym : result.symbols) {
    if (sym.declared) continue;
    if (!introduced) out << "symbols introduced:\n";
    introduced = true;
    out << "  " << sym.name << ": " << sym.origin << "\n";
  }
  auto list = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out << title << ":\n";
    for (const auto& item : items) out << "  " << item << "\n";
  };
  list("facts", result.facts);
  list("conditions", result.conditions);
  std::vector<std::string> bounds;
  for (const auto& b : result.bounds) {
    std::string line = std::to_string(b.lo) + " <= " + b.symbol;
    if (b.hi) line += " <= " + std::to_string(*b.hi);
    for (const auto& origin : b.origins) line += "\n    " + origin;
    bounds.push_back(std::move(line));
  }
  list("bounds", bounds);
  list("relations", result.relations);
  if (!result.diagnostics.empty()) {
    out << "diagnostics:\n";
    for (const auto& d : result.diagnostics) {
      out << "  " << d.Render("") << "\n";
      // Every diagnostic says what kind of finding it is (docs/diagnostics.md).
      EXPECT_NE(d.code, DiagCode::kUnclassified) << name << ": unclassified: " << d.Render("");
    }
  }
  if (HasOption(text, "memory")) PrintMemory(EstimateMemory(*model, result), out);
  if (HasOption(text, "cost")) PrintCost(EstimateCost(*model, result), text, out);
  // `# options: lint`: the lint findings (inference/lint.h), each with its pattern and fix.
  if (HasOption(text, "lint")) {
    out << "findings:\n";
    for (const auto& f : Lint(*model, result)) out << "  " << f.Render("") << "\n";
  }
  if (original) PrintExplain(*original, *model, options, result, text, out);
  return out.str();
}

class GoldenTest : public testing::Test {
 public:
  explicit GoldenTest(fs::path case_path) : case_path_(std::move(case_path)) {}

  void TestBody() override {
    auto text = ReadFile(case_path_.string());
    ASSERT_TRUE(text.ok()) << text.status().message();
    std::string name = case_path_.filename().string();
    ASSERT_EQ(text->rfind("#", 0), 0u)
        << case_path_ << ": a case starts with a comment saying what it covers";
    std::string actual = Annotations(*text, name);
    fs::path expected_path = case_path_;
    expected_path.replace_extension(".expected");
    if (g_update) {
      Status st = WriteFileAtomically(expected_path.string(), actual);
      ASSERT_TRUE(st.ok()) << st.message();
      return;
    }
    auto expected = ReadFile(expected_path.string());
    ASSERT_TRUE(expected.ok()) << expected_path
                               << " is missing; run bazel run //testdata:golden_test -- --update";
    EXPECT_EQ(actual, *expected) << case_path_ << ": the annotations differ from " << expected_path
                                 << " (regenerate with bazel run //testdata:golden_test -- "
                                    "--update, and review the diff)";
  }

 private:
  fs::path case_path_;  // in the source tree under --update, else in the runfiles
};

}  // namespace
}  // namespace onnx_infer

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--update") == 0) onnx_infer::g_update = true;
  }
  if (const char* env = std::getenv("GOLDEN_UPDATE"); env && *env && std::strcmp(env, "0") != 0) {
    onnx_infer::g_update = true;
  }
  // Under `bazel run` the cases are read from and written to the source tree; under
  // `bazel test` they are read from the runfiles.
  fs::path root;
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY"); ws && *ws) root = ws;
  if (onnx_infer::g_update && root.empty()) {
    std::cerr << "--update needs `bazel run` (BUILD_WORKSPACE_DIRECTORY is not set)\n";
    return 2;
  }
  fs::path cases = root.empty() ? fs::path("testdata/cases") : root / "testdata/cases";
  std::vector<fs::path> paths;
  if (fs::is_directory(cases)) {
    for (const auto& entry : fs::recursive_directory_iterator(cases)) {
      if (entry.is_regular_file() &&
          (entry.path().extension() == ".onnxtxt" || entry.path().extension() == ".textproto")) {
        paths.push_back(entry.path());
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  if (paths.empty()) {
    std::cerr << "no golden cases under " << cases << "\n";
    return 1;
  }
  for (const fs::path& path : paths) {
    std::string name = path.lexically_relative(cases).replace_extension().string();
    testing::RegisterTest("Golden", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [=]() -> testing::Test* { return new onnx_infer::GoldenTest(path); });
  }
  int status = RUN_ALL_TESTS();
  if (onnx_infer::g_update) std::cout << "updated " << paths.size() << " .expected files\n";
  return status;
}
