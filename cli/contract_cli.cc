#include "onnx_infer/cli/contract_cli.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/proto/model_io.h"

namespace onnx_infer {

std::string CheckContractFlags(const ContractFlags& flags) {
  for (const auto& text : flags.ranges) {
    std::string error;
    if (!ParseSymbolRange(text, &error)) return "--range: " + error;
  }
  if (!ParseProfileFormat(flags.profile_format)) {
    return "--profile-format '" + flags.profile_format +
           "': expected trtexec, ort-trt, polygraphy or json";
  }
  if (!flags.profile.empty() && !flags.ranges.empty()) {
    return "--profile and --range exclude each other: a profile is given or made";
  }
  if (flags.check_profile && flags.ranges.empty() && flags.profile.empty()) {
    return "--check-profile needs --range or --profile";
  }
  return "";
}

namespace {

// --profile's text: itself, or the file's after '@'.
bool ProfileText(const std::string& flag, std::string* text, std::string* error) {
  if (flag.empty() || flag[0] != '@') {
    *text = flag;
    return true;
  }
  std::ifstream in(flag.substr(1), std::ios::binary);
  if (!in) {
    *error = "--profile: cannot read '" + flag.substr(1) + "'";
    return false;
  }
  std::stringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

}  // namespace

ContractRun RunContract(const ContractFlags& flags, const onnx::ModelProto& model,
                        const InferenceResult& result, std::ostream& info, std::ostream& err,
                        const MemoryEstimate* memory, const CostEstimate* cost) {
  ContractRun run;
  Contract contract = BuildContract(model, result);
  if (flags.registry && flags.options) {
    AddShapeInputValues(model, *flags.registry, *flags.options, result, &contract);
  }
  std::optional<BindingCompletion> completion;
  if (!flags.bind.empty()) {
    completion = CompleteBinding(contract, result, flags.bind);
    if (flags.print_bind) {
      for (const auto& d : completion->derived) info << "bind: derived " << d.ToString() << "\n";
      if (completion->free.empty()) {
        info << "bind: every symbol of the inputs' shapes is bound or derived\n";
      } else {
        info << "bind: still free: " << StrJoin(completion->free, ", ") << "\n";
      }
    }
  }
  std::optional<Profile> profile;
  std::vector<ProfileViolation> violations;
  const ProfileFormat format = *ParseProfileFormat(flags.profile_format);
  if (!flags.profile.empty()) {
    std::string text, error;
    if (!ProfileText(flags.profile, &text, &error)) {
      run.error = error;
      return run;
    }
    std::optional<GivenProfile> given = ParseProfileText(text, &error);
    if (!given) {
      run.error = "--profile: " + error;
      return run;
    }
    profile = ProfileFromShapes(contract, result, *given, &violations);
    for (const auto& d : profile->derived) info << "derived: " << d << "\n";
  } else if (!flags.ranges.empty() || flags.profile_format_given) {
    std::vector<SymbolRange> ranges;
    for (const auto& text : flags.ranges) {
      std::string error;
      ranges.push_back(*ParseSymbolRange(text, &error));  // checked by CheckContractFlags
    }
    // A range for a symbol no input has is likely a typo: said, and kept (it may still
    // take part in a fact that derives an input's symbol).
    for (const auto& r : ranges) {
      bool known = std::any_of(contract.symbols.begin(), contract.symbols.end(),
                               [&](const ContractSymbol& s) { return s.name == r.symbol; });
      for (const auto& in : contract.inputs) {
        for (const auto& e : in.value_elements) known = known || e.name == r.symbol;
      }
      if (!known)
        err << "infer-shapes: warning: --range " << r.symbol << ": no input's shape has "
            << "the symbol '" << r.symbol << "'\n";
    }
    profile = MakeProfile(contract, result, ranges);
    for (const auto& w : profile->warnings) err << "infer-shapes: warning: " << w << "\n";
    for (const auto& d : profile->derived) info << "derived: " << d << "\n";
    for (const auto& b : profile->from_bounds) info << "bounded: " << b << "\n";
    if (profile->errors.empty()) {
      if (format == ProfileFormat::kJson) {
        info << ProfileJson(*profile).dump() << "\n";
      } else {
        info << FormatProfile(*profile, format) << "\n";
      }
    }
  }
  if (profile && !profile->errors.empty()) {
    run.error = (flags.profile.empty() ? "--range: " : "--profile: ") + profile->errors.front();
    for (size_t i = 1; i < profile->errors.size(); ++i) run.error += "; " + profile->errors[i];
  }
  // A given profile is always checked (what ProfileFromShapes finds, a shared symbol given
  // two sizes, is a violation already); a made one with --check-profile.
  if (profile && (flags.check_profile || !flags.profile.empty())) {
    for (auto& v : CheckProfile(*profile, result)) violations.push_back(std::move(v));
    for (auto& v : CheckShapeInputValues(contract, *profile, result))
      violations.push_back(std::move(v));
    for (const auto& v : violations) err << "profile violation: " << v.ToString() << "\n";
    if (violations.empty() && profile->errors.empty()) {
      info << "profile: every fact, bound, relation and divisibility holds at min, opt and "
              "max\n";
    }
    run.violated = !violations.empty();
  }
  std::optional<nlohmann::json> sizes;
  if (profile && profile->errors.empty() && (memory || cost)) {
    sizes = SizesAtPoints(*profile, memory, cost);
    PrintSizesAtPoints(*sizes, info);
  }
  const bool checked = flags.check_profile || !flags.profile.empty();
  run.json = ContractJson(contract, profile ? &*profile : nullptr, checked ? &violations : nullptr);
  if (sizes) {
    for (const auto& [key, value] : sizes->items()) run.json["profiles"][0][key] = value;
  }
  if (completion) run.json["binding"] = BindingJson(flags.bind, *completion);
  const nlohmann::json& j = run.json;
  if (!flags.file.empty()) {
    const std::string text =
        j.dump(2, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace) + "\n";
    if (Status st = WriteFileAtomically(flags.file, text); !st.ok()) {
      run.error = run.error.empty() ? st.message() : run.error + "; " + st.message();
    }
  }
  if (profile && profile->errors.empty()) run.profile = std::move(profile);
  return run;
}

nlohmann::json BindingJson(const std::map<std::string, int64_t, std::less<>>& bind,
                           const BindingCompletion& completion) {
  nlohmann::json j = {{"bound", nlohmann::json::object()},
                      {"derived", nlohmann::json::array()},
                      {"free", completion.free}};
  for (const auto& [name, value] : bind) j["bound"][name] = value;
  for (const auto& d : completion.derived) {
    j["derived"].push_back({{"symbol", d.symbol}, {"value", d.value}, {"from", d.from}});
  }
  return j;
}

namespace {

std::string NodeLabel(int index, const std::string& name, const std::string& op) {
  return StrCat("node #", index, name.empty() ? std::string() : StrCat(" '", name, "'"), " (", op,
                ")");
}

nlohmann::json Number(const std::optional<int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json SizesAtPoints(const Profile& profile, const MemoryEstimate* memory,
                             const CostEstimate* cost) {
  nlohmann::json out = nlohmann::json::object();
  if (memory) {
    std::optional<symbolic::SymbolContext::Scope> scope;
    if (memory->symbol_context) scope.emplace(*memory->symbol_context);
    nlohmann::json m = nlohmann::json::object();
    for (int i = 0; i < 3; ++i) {
      std::optional<int64_t> peak;
      int peak_step = -1, not_evaluated = 0, unknown_values = 0;
      for (size_t k = 0; k < memory->steps.size(); ++k) {
        const MemoryStep& step = memory->steps[k];
        unknown_values += step.unknown_values > 0;
        auto v = step.live_bytes.is_unknown()
                     ? std::nullopt
                     : symbolic::Evaluate(step.live_bytes, profile.values[i]);
        if (!v) {
          ++not_evaluated;
          continue;
        }
        if (!peak || *v > *peak) {
          peak = v;
          peak_step = static_cast<int>(k);
        }
      }
      nlohmann::json point = {{"peak_bytes", Number(peak)},
                              {"steps_not_evaluated", not_evaluated},
                              {"steps_with_unknown_sizes", unknown_values}};
      if (peak_step >= 0) {
        const MemoryStep& step = memory->steps[peak_step];
        point["peak_node"] = NodeLabel(step.node_index, step.node_name, step.op_type);
        point["peak_node_index"] = step.node_index;
      } else {
        point["peak_node"] = nullptr;
        point["peak_node_index"] = nullptr;
      }
      m[kProfilePoints[i]] = std::move(point);
    }
    out["memory"] = std::move(m);
  }
  if (cost) {
    nlohmann::json c = nlohmann::json::object();
    for (int i = 0; i < 3; ++i) {
      CostBinding binding(profile.values[i].begin(), profile.values[i].end());
      const CostValues values = EvaluateCost(*cost, binding);
      int top = -1, not_evaluated = 0;
      for (size_t k = 0; k < values.nodes.size(); ++k) {
        const auto& f = values.nodes[k].flops;
        if (!f) {
          ++not_evaluated;
          continue;
        }
        if (top < 0 || *f > *values.nodes[top].flops) top = static_cast<int>(k);
      }
      nlohmann::json point = {{"flops", Number(values.total_flops)},
                              {"macs", Number(values.total_macs)},
                              {"nodes_not_evaluated", not_evaluated}};
      if (top >= 0) {
        const NodeCost& node = cost->nodes[top];
        point["top_node"] = StrCat(node.graph == "main" ? "" : node.graph + ": ",
                                   NodeLabel(node.node_index, node.node_name, node.op_type));
        point["top_node_flops"] = *values.nodes[top].flops;
      } else {
        point["top_node"] = nullptr;
        point["top_node_flops"] = nullptr;
      }
      c[kProfilePoints[i]] = std::move(point);
    }
    out["cost"] = std::move(c);
  }
  return out;
}

void PrintSizesAtPoints(const nlohmann::json& sizes, std::ostream& out) {
  auto text = [](const nlohmann::json& v) {
    return v.is_null() ? std::string("?") : v.is_string() ? v.get<std::string>() : v.dump();
  };
  if (sizes.contains("memory")) {
    for (const char* point : kProfilePoints) {
      const nlohmann::json& m = sizes["memory"][point];
      out << "memory at " << point << ": peak " << text(m["peak_bytes"]) << " bytes";
      if (!m["peak_node"].is_null()) out << " at " << text(m["peak_node"]);
      const int64_t missing = m["steps_not_evaluated"].get<int64_t>();
      const int64_t unknown = m["steps_with_unknown_sizes"].get<int64_t>();
      if (missing || unknown) {
        out << " (at least: " << missing << " steps do not evaluate at this point, " << unknown
            << " have values of unknown size)";
      }
      out << "\n";
    }
  }
  if (sizes.contains("cost")) {
    for (const char* point : kProfilePoints) {
      const nlohmann::json& c = sizes["cost"][point];
      out << "cost at " << point << ": " << text(c["flops"]) << " FLOPs, " << text(c["macs"])
          << " MACs";
      if (!c["top_node"].is_null()) {
        out << "; costliest " << text(c["top_node"]) << " with " << text(c["top_node_flops"])
            << " FLOPs";
      }
      if (c["nodes_not_evaluated"].get<int64_t>()) {
        out << " (" << text(c["nodes_not_evaluated"]) << " nodes do not evaluate at this point)";
      }
      out << "\n";
    }
  }
}

nlohmann::json ProfileJson(const Profile& profile) {
  nlohmann::json p = nlohmann::json::object();
  for (int i = 0; i < 3; ++i) {
    nlohmann::json shapes = nlohmann::json::object();
    for (const auto& in : profile.inputs) shapes[in.input] = in.shapes[i];
    nlohmann::json values = nlohmann::json::object();
    for (const auto& in : profile.shape_values) values[in.input] = in.shapes[i];
    p[kProfilePoints[i]] = {{"symbols", profile.values[i]}, {"shapes", shapes}, {"values", values}};
  }
  p["derived"] = profile.derived;
  p["from_bounds"] = profile.from_bounds;
  p["trtexec"] = TrtexecFlags(profile);
  // The provider options as onnxruntime takes them: key to value.
  nlohmann::json ort = nlohmann::json::object();
  static constexpr std::array<const char*, 3> kOrtKeys = {
      "trt_profile_min_shapes", "trt_profile_opt_shapes", "trt_profile_max_shapes"};
  for (int i = 0; i < 3; ++i) {
    std::vector<std::string> items;
    for (const auto* list : {&profile.inputs, &profile.shape_values}) {
      for (const auto& in : *list) {
        std::vector<std::string> sizes;
        for (int64_t d : in.shapes[i]) sizes.push_back(std::to_string(d));
        items.push_back(in.input + ":" + StrJoin(sizes, "x"));
      }
    }
    ort[kOrtKeys[i]] = StrJoin(items, ",");
  }
  p["ort_trt"] = std::move(ort);
  p["polygraphy"] = FormatProfile(profile, ProfileFormat::kPolygraphy);
  return p;
}

nlohmann::json ContractJson(const Contract& contract, const Profile* profile,
                            const std::vector<ProfileViolation>* violations) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : contract.inputs) {
    nlohmann::json j = {{"name", in.name},
                        {"elem_type", in.elem_type},
                        {"shape", in.shape ? nlohmann::json(*in.shape) : nlohmann::json(nullptr)},
                        {"has_initializer", in.has_initializer},
                        {"value_reaches_shapes", !in.shape_consumers.empty()},
                        {"shape_consumers", in.shape_consumers},
                        {"shape_tensor", in.shape_tensor}};
    if (in.shape_tensor) {
      nlohmann::json elements = nlohmann::json::array();
      for (const auto& e : in.value_elements) {
        elements.push_back(
            {{"name", e.name},
             {"value", e.value.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.value)},
             {"min", e.min},
             {"max", e.max ? nlohmann::json(*e.max) : nlohmann::json(nullptr)},
             {"bound_origins", e.bound_origins},
             {"facts", e.facts}});
      }
      j["values"] = std::move(elements);
    }
    inputs.push_back(std::move(j));
  }
  nlohmann::json symbols = nlohmann::json::array();
  for (const auto& s : contract.symbols) {
    nlohmann::json uses = nlohmann::json::array();
    for (const auto& [input, axis] : s.uses) uses.push_back({{"input", input}, {"axis", axis}});
    nlohmann::json j = {
        {"name", s.name},
        {"uses", uses},
        {"min", s.min},
        {"max", s.max ? nlohmann::json(*s.max) : nlohmann::json(nullptr)},
        {"min_assumed", s.min_assumed},
        {"max_assumed", s.max_assumed},
        {"bound_origins", s.bound_origins},
        {"value", s.value.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.value)},
        {"facts", s.facts}};
    symbols.push_back(std::move(j));
  }
  nlohmann::json introduced = nlohmann::json::array();
  for (const auto& s : contract.introduced_symbols) {
    introduced.push_back({{"name", s.name},
                          {"min", s.min},
                          {"max", s.max ? nlohmann::json(*s.max) : nlohmann::json(nullptr)},
                          {"min_assumed", s.min_assumed},
                          {"max_assumed", s.max_assumed},
                          {"bound_origins", s.bound_origins}});
  }
  nlohmann::json out = {{"contract_version", 1},
                        {"inputs", inputs},
                        {"symbols", symbols},
                        {"introduced_symbols", introduced},
                        {"divisibility", contract.divisibility},
                        {"facts", contract.facts},
                        {"relations", contract.relations},
                        {"conditions", contract.conditions}};
  if (profile) {
    nlohmann::json p = ProfileJson(*profile);
    p["errors"] = profile->errors;
    if (violations) {
      nlohmann::json v = nlohmann::json::array();
      for (const auto& x : *violations) {
        v.push_back(
            {{"point", x.point}, {"what", x.what}, {"values", x.values}, {"origin", x.origin}});
      }
      p["violations"] = v;
    }
    out["profiles"] = nlohmann::json::array({p});
  }
  return out;
}

}  // namespace onnx_infer
