// infer-shapes: annotates an ONNX model with the type and shape of every value.
// See docs/cli.md. This file only parses flags and calls the library; main() is in main.cc,
// so that a build with custom operators can reuse it (cli/cli.h).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/cli/cli.h"
#include "onnx_infer/inference/infer_shapes.h"
#include "onnx_infer/inference/load_model.h"
#include "onnx_infer/inference/memory.h"
#include "onnx_infer/inference/specialize.h"
#include "onnx_infer/proto/model_io.h"
#include "onnx_infer/schema/custom_schemas.h"
#include "onnx_infer/symbolic/parse.h"
#include "onnx_infer/syntax/printer.h"

namespace onnx_infer {
namespace {

// Exit codes (docs/cli.md).
constexpr int kExitOk = 0;
constexpr int kExitInferenceErrors = 1;
constexpr int kExitUsageOrIo = 2;

constexpr char kUsage[] = R"(usage: infer-shapes MODEL.onnx [options]

Infers the type and shape of every value in an ONNX model and writes them into it.
MODEL may be binary (.onnx) or in the ONNX text syntax (.onnxtxt, or any file that is not
binary protobuf but reads as text).

options:
  -o, --output OUT.onnx  write the annotated model to OUT.onnx
  --in-place             write the annotated model back to MODEL.onnx
  --strict               a missing schema or rule, or a declared type that contradicts
                         the inferred one, is an error (and nothing is written on errors)
  --json REPORT.json     write a report: summary counts and every diagnostic
  --schemas OPS.json     load custom operator schemas (docs/custom-ops.md); repeatable
  --no-data-prop         track only constants (initializers, Constant nodes), not the values
                         operators compute from them (shape tensors)
  --assume 'S >= 2'      assume a lower bound of a dim symbol (S >= k or S > k); repeatable.
                         Dims simplify under it; each result that needed it is listed
                         with it among the conditions of the --json report
  --assume-positive      assume every dim symbol >= 1, as onnxruntime's symbolic shape
                         inference does (by default a dim may be 0, as in an empty cache)
  --values               print the type of every graph input, node output and graph output
  --memory               print each value's size in bytes, the weights' bytes and the peak
                         bytes of live activations (docs/memory.md); with --json, report them
  --bind B=1,S=128       evaluate every dim under these symbol values; repeatable
  --input-shape x:1,3,H,W
                         replace a graph input's declared shape ('?' for unknown); repeatable
  --set-input sr=16000   give a graph input a known value (a number or a comma-separated list
                         such as pads=0,1,0,1; true/false): shape computations fold and an If
                         it decides takes its branch; repeatable
  --print                print the annotated model in the ONNX text syntax
  --quiet                print only errors
  -h, --help             show this help

Without -o or --in-place the model is only checked; nothing is written.
Output files are written atomically: a failed run leaves them untouched.

exit codes:
  0  inference ran without errors (warnings and notes may have been printed)
  1  inference found errors (with --strict nothing was written)
  2  usage error, or the model or an output file could not be read or written
)";

struct Flags {
  std::string model;
  std::string output;
  std::string json;
  std::vector<std::string> schemas;
  std::vector<std::string> assumptions;  // --assume, as given
  bool assume_positive = false;
  std::vector<std::string> binds;         // "B=1,S=128"
  std::vector<std::string> input_shapes;  // "x:1,3,H,W"
  std::vector<std::string> set_inputs;    // "sr=16000"
  bool memory = false;
  bool in_place = false;
  bool strict = false;
  bool data_prop = true;
  bool values = false;
  bool print = false;
  bool quiet = false;
};

// Parses argv; returns an error message, or "" when fine. `help` is set for -h.
std::string ParseFlags(int argc, char** argv, Flags* flags, bool* help) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) -> bool {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      *help = true;
      return "";
    } else if (a == "-o" || a == "--output") {
      if (!value(&flags->output)) return a + " needs a file name";
    } else if (a.rfind("--output=", 0) == 0) {
      flags->output = a.substr(9);
    } else if (a == "--json") {
      if (!value(&flags->json)) return "--json needs a file name";
    } else if (a.rfind("--json=", 0) == 0) {
      flags->json = a.substr(7);
    } else if (a == "--schemas") {
      std::string file;
      if (!value(&file)) return "--schemas needs a file name";
      flags->schemas.push_back(file);
    } else if (a.rfind("--schemas=", 0) == 0) {
      flags->schemas.push_back(a.substr(10));
    } else if (a == "--assume" || a.rfind("--assume=", 0) == 0) {
      std::string text = a == "--assume" ? "" : a.substr(9);
      if (a == "--assume" && !value(&text)) return "--assume needs a bound such as 'S >= 2'";
      std::string why;
      if (!symbolic::ParseLowerBound(text, &why)) return "--assume '" + text + "': " + why;
      flags->assumptions.push_back(text);
    } else if (a == "--assume-positive") {
      flags->assume_positive = true;
    } else if (a == "--bind" || a == "--input-shape" || a == "--set-input") {
      std::string text;
      if (!value(&text)) return a + " needs a value";
      (a == "--bind" ? flags->binds : a == "--input-shape" ? flags->input_shapes
                                                           : flags->set_inputs)
          .push_back(text);
    } else if (a.rfind("--bind=", 0) == 0) {
      flags->binds.push_back(a.substr(7));
    } else if (a.rfind("--input-shape=", 0) == 0) {
      flags->input_shapes.push_back(a.substr(14));
    } else if (a.rfind("--set-input=", 0) == 0) {
      flags->set_inputs.push_back(a.substr(12));
    } else if (a == "--memory") {
      flags->memory = true;
    } else if (a == "--in-place") {
      flags->in_place = true;
    } else if (a == "--no-data-prop") {
      flags->data_prop = false;
    } else if (a == "--strict") {
      flags->strict = true;
    } else if (a == "--values") {
      flags->values = true;
    } else if (a == "--print") {
      flags->print = true;
    } else if (a == "--quiet" || a == "-q") {
      flags->quiet = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return "unknown option " + a;
    } else if (flags->model.empty()) {
      flags->model = a;
    } else {
      return "more than one model given ('" + flags->model + "' and '" + a + "')";
    }
  }
  if (flags->model.empty()) return "no model given";
  // The specialization flags' syntax; whether they fit the model is checked once it is read.
  for (const auto& text : flags->binds) {
    if (auto b = ParseBindings(text); !b.ok()) return "--bind: " + b.status().message();
  }
  for (const auto& text : flags->input_shapes) {
    if (auto s = ParseInputShape(text); !s.ok()) return "--input-shape: " + s.status().message();
  }
  for (const auto& text : flags->set_inputs) {
    if (auto v = ParseInputValue(text); !v.ok()) return "--set-input: " + v.status().message();
  }
  if (flags->in_place && !flags->output.empty()) return "--in-place and -o exclude each other";
  if (flags->in_place) flags->output = flags->model;
  return "";
}

// The specialization flags as InferenceOptions ("" when fine; their syntax was checked).
std::string SpecializationOptions(const Flags& flags, InferenceOptions& options) {
  for (const auto& text : flags.binds) {
    const auto bindings = *ParseBindings(text);
    for (const auto& [name, value] : bindings) {
      auto [it, inserted] = options.bind.emplace(name, value);
      if (!inserted && it->second != value) {
        return StrCat("--bind: ", name, " is bound twice: to ", it->second, " and to ", value);
      }
    }
  }
  for (const auto& text : flags.input_shapes) {
    auto shape = *ParseInputShape(text);
    if (!options.input_shapes.emplace(shape.first, shape.second).second) {
      return StrCat("--input-shape: input '", shape.first, "' is given twice");
    }
  }
  for (const auto& text : flags.set_inputs) options.input_values.push_back(*ParseInputValue(text));
  return "";
}

// A byte count in the JSON report: a number, an expression's text, or null when unknown.
nlohmann::json BytesJson(const Dim& bytes) {
  if (bytes.is_unknown()) return nullptr;
  if (auto v = bytes.const_value()) return *v;
  return bytes.ToString();
}

std::string StepLabel(const MemoryStep& step) {
  return StrCat("node #", step.node_index,
                step.node_name.empty() ? std::string() : StrCat(" '", step.node_name, "'"), " (",
                step.op_type, ")");
}

nlohmann::json MemoryJson(const MemoryEstimate& m) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : m.values) {
    values.push_back({{"graph", v.graph}, {"name", v.name}, {"bytes", BytesJson(v.bytes)}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : m.steps) {
    steps.push_back({{"node_index", step.node_index},
                     {"node_name", step.node_name},
                     {"op", step.op_type},
                     {"live_bytes", BytesJson(step.live_bytes)},
                     {"unknown_values", step.unknown_values}});
  }
  nlohmann::json peak_nodes = nlohmann::json::array();
  for (int k : m.peak_steps) peak_nodes.push_back(m.steps[k].node_index);
  return {{"values", std::move(values)},
          {"weight_bytes", BytesJson(m.weight_bytes)},
          {"weights", m.weights},
          {"weights_of_unknown_size", m.weights_unknown_size},
          {"peak_bytes", BytesJson(m.peak_bytes)},
          {"peak_decided", m.peak_decided},
          {"peak_nodes", std::move(peak_nodes)},
          {"activations_of_unknown_size", m.unknown_activations},
          {"steps", std::move(steps)}};
}

// What --memory prints.
void PrintMemory(const MemoryEstimate& m, const InferenceResult& result, std::ostream& out) {
  out << "memory in bytes (docs/memory.md):\n";
  std::string graph;
  for (const auto& v : m.values) {
    if (v.graph != graph) {
      graph = v.graph;
      out << "graph " << graph << ":\n";
    }
    const Type* type = result.TypeOf(v.graph, v.name);
    out << "  " << v.name << ": " << (type ? type->ToString() : "?") << " = "
        << FormatBytes(v.bytes) << "\n";
  }
  out << "weights: " << FormatBytes(m.weight_bytes) << " in " << m.weights << " tensors";
  if (m.weights_unknown_size) out << " (" << m.weights_unknown_size << " of unknown size)";
  out << "\n";
  out << "activations: peak " << FormatBytes(m.peak_bytes);
  if (m.peak_decided) {
    out << " at " << StepLabel(m.steps[m.peak_steps.front()]);
  } else if (!m.peak_steps.empty()) {
    std::vector<std::string> labels;
    for (int k : m.peak_steps) labels.push_back(StepLabel(m.steps[k]));
    out << ", at whichever of " << StrJoin(labels, ", ")
        << " is largest for the symbols' values";
  }
  if (m.unknown_activations) {
    out << "; " << m.unknown_activations
        << " activations of unknown size are not counted, so it is a lower bound";
  }
  out << "\n";
}

nlohmann::json Report(const Flags& flags, const InferenceResult& result,
                      const MemoryEstimate* memory) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : result.diagnostics) {
    nlohmann::json j = {{"severity", SeverityName(d.severity)},
                        {"graph", d.graph},
                        {"message", d.message}};
    if (d.node_index >= 0) {
      j["node_index"] = d.node_index;
      j["node_name"] = d.node_name;
    }
    if (!d.op.empty()) j["op"] = d.op;
    if (!d.subject.empty()) {
      nlohmann::json subject = {{"kind", d.subject.kind}};
      if (d.subject.index >= 0) subject["index"] = d.subject.index;
      if (!d.subject.name.empty()) subject["name"] = d.subject.name;
      j["subject"] = std::move(subject);
    }
    diagnostics.push_back(std::move(j));
  }
  nlohmann::json symbols = nlohmann::json::array();
  int64_t declared = 0;
  for (const auto& sym : result.symbols) {
    declared += sym.declared;
    symbols.push_back({{"name", sym.name}, {"declared", sym.declared}, {"origin", sym.origin}});
  }
  const InferenceStats& s = result.stats;
  nlohmann::json report = {
      {"model", flags.model},
      {"summary",
       {{"nodes", s.nodes},
        {"values", s.values},
        {"typed", s.typed},
        {"shaped", s.shaped},
        {"static_shaped", s.static_shaped},
        {"symbolic", s.symbolic},
        {"partial", s.partial},
        {"type_only", s.type_only},
        {"unknown", s.unknown},
        {"nodes_without_rule", s.nodes_without_rule},
        {"symbols_declared", declared},
        {"symbols_introduced", static_cast<int64_t>(result.symbols.size()) - declared},
        {"facts", result.facts.size()},
        {"errors", result.CountOf(Severity::kError)},
        {"warnings", result.CountOf(Severity::kWarning)},
        {"notes", result.CountOf(Severity::kNote)}}},
      {"symbols", std::move(symbols)},
      {"facts", result.facts},
      {"assumptions", flags.assumptions},
      {"assume_positive", flags.assume_positive},
      {"conditions", result.conditions},
      {"diagnostics", std::move(diagnostics)},
  };
  if (memory) report["memory"] = MemoryJson(*memory);
  return report;
}

}  // namespace

int RunInferShapes(int argc, char** argv, const SchemaRegistry& base_registry) {
  Flags flags;
  bool help = false;
  std::string error = ParseFlags(argc, argv, &flags, &help);
  if (help) {
    std::cout << kUsage;
    return kExitOk;
  }
  if (!error.empty()) {
    std::cerr << "infer-shapes: " << error << "\n\n" << kUsage;
    return kExitUsageOrIo;
  }
  const SchemaRegistry* registry = &base_registry;
  SchemaRegistry with_custom;
  if (!flags.schemas.empty()) {
    with_custom = base_registry;
    for (const auto& file : flags.schemas) {
      Status st = LoadCustomSchemasFile(file, with_custom);
      if (!st.ok()) {
        std::cerr << "infer-shapes: " << st.message() << "\n";
        return kExitUsageOrIo;
      }
    }
    registry = &with_custom;
  }
  auto loaded = LoadModel(flags.model);
  if (!loaded.ok()) {
    std::cerr << "infer-shapes: " << loaded.status().message() << "\n";
    return kExitUsageOrIo;
  }
  // Never freed: the process ends right after, and freeing a large model costs about a
  // tenth of the run (docs/performance.md). The static pointer keeps it reachable for leak
  // checkers.
  static onnx::ModelProto* const model = new onnx::ModelProto;
  model->Swap(&*loaded);
  InferenceOptions options;
  options.strict = flags.strict;
  options.data_propagation = flags.data_prop;
  options.assumptions = flags.assumptions;
  options.assume_positive = flags.assume_positive;
  if (std::string error = SpecializationOptions(flags, options); !error.empty()) {
    std::cerr << "infer-shapes: " << error << "\n";
    return kExitUsageOrIo;
  }
  if (Status st = CheckSpecialization(*model, options); !st.ok()) {
    std::cerr << "infer-shapes: " << flags.model << ": " << st.message() << "\n";
    return kExitUsageOrIo;
  }
  // External data is looked for beside the model file, and nowhere else.
  const std::filesystem::path model_dir = std::filesystem::path(flags.model).parent_path();
  options.model_dir = model_dir.empty() ? std::filesystem::path(".") : model_dir;
  InferenceResult result = InferShapes(*model, *registry, options);

  for (const auto& d : result.diagnostics) {
    if (flags.quiet && d.severity != Severity::kError) continue;
    std::cerr << d.Render(flags.model) << "\n";
  }
  if (flags.values) std::cout << FormatValues(result.value_types.at("main"));
  std::optional<MemoryEstimate> memory;
  if (flags.memory) {
    memory = EstimateMemory(*model, result);
    // With --print, standard output holds only the model text.
    PrintMemory(*memory, result, flags.print ? std::cerr : std::cout);
  }
  if (flags.print) std::cout << syntax::PrintModelText(*model);
  const InferenceStats& s = result.stats;
  if (!flags.quiet) {
    // With --print, standard output holds only the model text.
    std::ostream& summary = flags.print ? std::cerr : std::cout;
    summary << flags.model << ": " << s.nodes << " nodes, " << s.values << " values: "
            << s.typed << " typed, " << s.shaped << " fully shaped (" << s.static_shaped
            << " static, " << s.symbolic << " symbolic), " << s.unknown << " unknown; "
            << result.CountOf(Severity::kError) << " errors, "
            << result.CountOf(Severity::kWarning) << " warnings, "
            << result.CountOf(Severity::kNote) << " notes\n";
  }

  int exit_code = result.HasErrors() ? kExitInferenceErrors : kExitOk;
  if (!flags.json.empty()) {
    Status st = WriteFileAtomically(flags.json, Report(flags, result, memory ? &*memory : nullptr).dump(2) + "\n");
    if (!st.ok()) {
      std::cerr << "infer-shapes: " << st.message() << "\n";
      return kExitUsageOrIo;
    }
  }
  if (!flags.output.empty()) {
    if (flags.strict && result.HasErrors()) {
      std::cerr << "infer-shapes: not writing " << flags.output << ": inference found errors\n";
      return exit_code;
    }
    Status st = SaveModel(*model, flags.output);
    if (!st.ok()) {
      std::cerr << "infer-shapes: " << st.message() << "\n";
      return kExitUsageOrIo;
    }
    if (!flags.quiet) std::cout << "wrote " << flags.output << "\n";
  }
  return exit_code;
}

}  // namespace onnx_infer
