// A small JSON Schema validator for the tests of what infer-shapes writes (cli/report_checks.cc
// for docs/report.schema.json, cli/contract_checks.cc for docs/contract.schema.json). It
// knows the keywords those schemas may use (type, properties, required,
// additionalProperties, items, enum, $ref to $defs, minimum, and the annotations title,
// description, $schema, $id) and refuses any other, so the schemas stay within what it
// checks. (python3-jsonschema would be the library to use were one allowed.) Test-only.
#ifndef ONNX_INFER_CLI_JSON_SCHEMA_VALIDATOR_H_
#define ONNX_INFER_CLI_JSON_SCHEMA_VALIDATOR_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace onnx_infer::testing {

class Validator {
 public:
  explicit Validator(const nlohmann::json& schema) : root_(schema) {}

  // The places where `value` breaks the schema, one line each ("$.values[3].role: ...").
  std::vector<std::string> Check(const nlohmann::json& value) {
    errors_.clear();
    Visit(root_, value, "$");
    return errors_;
  }

 private:
  static bool HasType(const nlohmann::json& v, const std::string& type) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "integer") return v.is_number_integer();
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    if (type == "null") return v.is_null();
    return false;
  }

  void Fail(const std::string& where, const std::string& what) {
    errors_.push_back(where + ": " + what);
  }

  void Visit(const nlohmann::json& schema, const nlohmann::json& v, const std::string& where) {
    if (!schema.is_object()) return Fail(where, "the schema is not an object");
    static const std::set<std::string> kKnown = {
        "type",       "properties", "required", "additionalProperties",
        "items",      "enum",       "$ref",     "$defs",
        "minimum",    "title",      "$schema",  "$id",
        "description"};
    for (const auto& [key, unused] : schema.items()) {
      if (!kKnown.count(key)) Fail(where, "the schema uses '" + key + "', which is not checked");
    }
    if (schema.contains("$ref")) {
      const std::string ref = schema["$ref"];
      const std::string prefix = "#/$defs/";
      if (ref.rfind(prefix, 0) != 0 || !root_["$defs"].contains(ref.substr(prefix.size()))) {
        return Fail(where, "unresolved $ref " + ref);
      }
      Visit(root_["$defs"][ref.substr(prefix.size())], v, where);
    }
    if (schema.contains("type")) {
      const nlohmann::json& t = schema["type"];
      bool ok = false;
      if (t.is_string()) ok = HasType(v, t);
      for (const auto& one : t.is_array() ? t : nlohmann::json::array()) ok = ok || HasType(v, one);
      if (!ok) return Fail(where, "expected type " + t.dump() + ", got " + v.dump().substr(0, 80));
    }
    if (schema.contains("enum")) {
      bool found = false;
      for (const auto& e : schema["enum"]) found = found || e == v;
      if (!found) Fail(where, v.dump() + " is not one of " + schema["enum"].dump());
    }
    if (schema.contains("minimum") && v.is_number() && v < schema["minimum"]) {
      Fail(where, v.dump() + " is below the minimum " + schema["minimum"].dump());
    }
    if (v.is_object()) {
      for (const auto& r : schema.value("required", nlohmann::json::array())) {
        if (!v.contains(r.get<std::string>())) Fail(where, "missing required " + r.dump());
      }
      const nlohmann::json props = schema.value("properties", nlohmann::json::object());
      for (const auto& [key, value] : v.items()) {
        const std::string at = where + "." + key;
        if (props.contains(key)) {
          Visit(props[key], value, at);
        } else if (schema.contains("additionalProperties")) {
          const nlohmann::json& extra = schema["additionalProperties"];
          if (extra.is_boolean()) {
            if (!extra.get<bool>()) Fail(at, "not a property the schema allows");
          } else {
            Visit(extra, value, at);
          }
        }
      }
    }
    if (v.is_array() && schema.contains("items")) {
      for (size_t i = 0; i < v.size(); ++i) {
        Visit(schema["items"], v[i], where + "[" + std::to_string(i) + "]");
      }
    }
  }

  const nlohmann::json& root_;
  std::vector<std::string> errors_;
};

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_CLI_JSON_SCHEMA_VALIDATOR_H_
