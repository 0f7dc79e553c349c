#include "onnx_infer/cli/contract_cli.h"

#include <algorithm>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/proto/model_io.h"

namespace onnx_infer {

std::string CheckContractFlags(const ContractFlags& flags) {
  for (const auto& text : flags.ranges) {
    std::string error;
    if (!ParseSymbolRange(text, &error)) return "--range: " + error;
  }
  if (flags.check_profile && flags.ranges.empty()) return "--check-profile needs --range";
  return "";
}

ContractRun RunContract(const ContractFlags& flags, const onnx::ModelProto& model,
                        const InferenceResult& result, std::ostream& info, std::ostream& err) {
  ContractRun run;
  const Contract contract = BuildContract(model, result);
  std::optional<Profile> profile;
  std::vector<ProfileViolation> violations;
  if (!flags.ranges.empty()) {
    std::vector<SymbolRange> ranges;
    for (const auto& text : flags.ranges) {
      std::string error;
      ranges.push_back(*ParseSymbolRange(text, &error));  // checked by CheckContractFlags
    }
    // A range for a symbol no input has is likely a typo: said, and kept (it may still
    // take part in a fact that derives an input's symbol).
    for (const auto& r : ranges) {
      const bool known = std::any_of(contract.symbols.begin(), contract.symbols.end(),
                                     [&](const ContractSymbol& s) { return s.name == r.symbol; });
      if (!known)
        err << "infer-shapes: warning: --range " << r.symbol << ": no input's shape has "
            << "the symbol '" << r.symbol << "'\n";
    }
    profile = MakeProfile(contract, result, ranges);
    for (const auto& d : profile->derived) info << "derived: " << d << "\n";
    if (!profile->errors.empty()) {
      run.error = "--range: " + profile->errors.front();
      for (size_t i = 1; i < profile->errors.size(); ++i) run.error += "; " + profile->errors[i];
    } else {
      info << TrtexecFlags(*profile) << "\n";
    }
    if (flags.check_profile) {
      violations = CheckProfile(*profile, result);
      for (const auto& v : violations) err << "profile violation: " << v.ToString() << "\n";
      if (violations.empty() && profile->errors.empty()) {
        info << "profile: every fact, bound, relation and divisibility holds at min, opt and "
                "max\n";
      }
      run.violated = !violations.empty();
    }
  }
  if (!flags.file.empty()) {
    const nlohmann::json j = ContractJson(contract, profile ? &*profile : nullptr,
                                          flags.check_profile ? &violations : nullptr);
    const std::string text =
        j.dump(2, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace) + "\n";
    if (Status st = WriteFileAtomically(flags.file, text); !st.ok()) {
      run.error = run.error.empty() ? st.message() : run.error + "; " + st.message();
    }
  }
  return run;
}

nlohmann::json ProfileJson(const Profile& profile) {
  nlohmann::json p = nlohmann::json::object();
  for (int i = 0; i < 3; ++i) {
    nlohmann::json shapes = nlohmann::json::object();
    for (const auto& in : profile.inputs) shapes[in.input] = in.shapes[i];
    p[kProfilePoints[i]] = {{"symbols", profile.values[i]}, {"shapes", shapes}};
  }
  p["derived"] = profile.derived;
  p["trtexec"] = TrtexecFlags(profile);
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
                        {"shape_consumers", in.shape_consumers}};
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
  nlohmann::json out = {{"contract_version", 1},
                        {"inputs", inputs},
                        {"symbols", symbols},
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
