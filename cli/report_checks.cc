// Checks of what infer-shapes reports, against the documents that describe it:
// - every diagnostic code (schema/diagnostic_codes.h) has its entry in docs/diagnostics.md,
//   and the entry's example, run through infer-shapes, reports that code;
// - real --json reports (with --json-values, subgraphs, function calls, diagnostics, a
//   failed run) are valid under docs/report.schema.json;
// - no built-in rule makes an error without a code.
// The JSON Schema validator is ours and small (cli/json_schema_validator.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/cli/cli.h"
#include "onnx_infer/cli/cli_test_util.h"
#include "onnx_infer/cli/json_schema_validator.h"
#include "onnx_infer/schema/builtin.h"
#include "onnx_infer/schema/diagnostic_codes.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::Lines;
using testing::ReadText;
using testing::TempDir;

// Runs infer-shapes with `args` and `--json REPORT` and returns the report (null when none
// was written).
json RunReport(std::vector<std::string> args) { return testing::RunWritingJson(args, "--json"); }

using testing::Validator;

json LoadSchema() { return json::parse(ReadText("docs/report.schema.json")); }

// ---- docs/diagnostics.md

// The sections of docs/diagnostics.md by code: "## OI1204 graph-cycle" to the next "## ".
std::map<std::string, std::string> DocSections() {
  std::map<std::string, std::string> sections;
  std::istringstream in(ReadText("docs/diagnostics.md"));
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      current = line.rfind("## OI", 0) == 0 ? line.substr(3, 6) : "";
      if (!current.empty()) sections[current] = line + "\n";
      continue;
    }
    if (!current.empty()) sections[current] += line + "\n";
  }
  return sections;
}

TEST(DiagnosticsDoc, EveryCodeHasAnEntryWhoseExampleReportsIt) {
  const auto sections = DocSections();
  ASSERT_FALSE(sections.empty()) << "docs/diagnostics.md has no '## OI....' entries";
  std::set<std::string> codes;
  for (const DiagCodeInfo& row : AllDiagCodes()) {
    const std::string id(row.id);
    codes.insert(id);
    auto it = sections.find(id);
    if (it == sections.end()) {
      ADD_FAILURE() << id << " (" << row.name << ") has no entry in docs/diagnostics.md";
      continue;
    }
    const std::string& text = it->second;
    EXPECT_EQ(text.rfind("## " + id + " " + std::string(row.name) + "\n", 0), 0u)
        << id << ": the entry's heading is '## " << id << " " << row.name << "'";
    // The example: the command line that starts with "infer-shapes testdata/diagnostics/".
    const size_t at = text.find("\ninfer-shapes testdata/diagnostics/");
    if (at == std::string::npos) {
      ADD_FAILURE() << id << ": the entry has no example 'infer-shapes testdata/diagnostics/...'";
      continue;
    }
    std::istringstream command(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
    std::vector<std::string> args;
    for (std::string word; command >> word;) args.push_back(word);
    args.erase(args.begin());  // "infer-shapes"
    json report = RunReport(args);
    ASSERT_FALSE(report.is_null()) << id << ": no report";
    bool found = false;
    std::vector<std::string> messages;
    for (const auto& d : report["diagnostics"]) {
      if (d["code"] == id && d["kind"] == std::string(row.name)) {
        found = true;
        messages.push_back(d["message"]);
      }
    }
    EXPECT_TRUE(found) << id << ": the example does not report it:\n" << report.dump(2);
    // The line the entry shows under "reports:" is what the example reports (the start of
    // the message at least: long lines are cut).
    const size_t shown = text.find("reports:\n\n```\n");
    if (shown == std::string::npos) {
      ADD_FAILURE() << id << ": the entry does not show what the example reports";
      continue;
    }
    const size_t begin = shown + 15;
    const std::string line = text.substr(begin, text.find('\n', begin) - begin);
    EXPECT_NE(line.find("[" + id + "]: "), std::string::npos) << id << ": " << line;
    // A line cut before its message (a long graph path) ends with "...".
    bool matches = line.size() > 3 && line.compare(line.size() - 3, 3, "...") == 0;
    for (const auto& m : messages)
      matches = matches || line.find(m.substr(0, 60)) != std::string::npos;
    EXPECT_TRUE(matches) << id << ": the entry shows\n  " << line
                         << "\nbut the example reports other messages";
  }
  for (const auto& [id, text] : sections) {
    EXPECT_TRUE(codes.count(id)) << "docs/diagnostics.md describes " << id
                                 << ", which is not a code of schema/diagnostic_codes.h";
  }
}

// ---- docs/report.schema.json

TEST(ReportSchema, TheSchemaListsEveryCode) {
  json schema = LoadSchema();
  std::set<std::string> listed, names;
  for (const auto& c : schema["$defs"]["code"]["enum"]) listed.insert(c);
  for (const auto& c : schema["$defs"]["kind"]["enum"]) names.insert(c);
  std::set<std::string> table, table_names;
  for (const DiagCodeInfo& row : AllDiagCodes()) {
    table.insert(std::string(row.id));
    table_names.insert(std::string(row.name));
  }
  EXPECT_EQ(listed, table);
  EXPECT_EQ(names, table_names);
}

TEST(ReportSchema, RealReportsAreValid) {
  json schema = LoadSchema();
  Validator validator(schema);
  const fs::path out = TempDir() / "written.onnx";
  const std::vector<std::vector<std::string>> runs = {
      // A real model with symbols and facts.
      {"testdata/demo/attention_block.onnx", "--json-values", "--memory"},
      // If branches (subgraphs) and a join.
      {"testdata/cases/controlflow/if_join_branches.onnxtxt", "--json-values"},
      // A Loop body, and its condition's contradicting declaration (a diagnostic).
      {"testdata/diagnostics/OI6001.onnxtxt", "--json-values"},
      // Model-local function calls.
      {"testdata/cases/functions/recursion.onnxtxt", "--json-values"},
      // A declared type contradicted, the model written.
      {"testdata/diagnostics/OI4001.onnxtxt", "--json-values", "-o", out.string()},
      // Options, assumptions, warnings.
      {"testdata/diagnostics/OI5003.onnxtxt", "--bind", "Q=3", "--assume", "N>=2"},
      // Bounds of the model's and the user's, a relation, and the cost under a binding.
      {"testdata/cases/bounds/position_table.onnxtxt", "--cost", "--bind", "batch=2"},
      {"testdata/cases/bounds/user_ranges_and_relations.onnxtxt", "--assume", "1 <= B <= 64",
       "--assume", "P + S <= 4096", "--cost"},
      // Lint findings: a pinned batch (L001) and an output declared dynamic made constant
      // (L003); a dead Shape (L004).
      {"testdata/cases/lint/declared_output_pinned.onnxtxt", "--lint"},
      {"testdata/cases/lint/shape_unused.onnxtxt", "--lint"},
      // Explanations: one asked for, with its chain and the input that would decide it; all
      // unknowns with the introduced symbols and the what-if runs.
      {"testdata/cases/explain/shape_value_unknown.onnxtxt", "--explain", "y:1"},
      {"testdata/cases/explain/symbolic.onnxtxt", "--explain", "y:1", "--explain", "all",
       "--what-if", "B=3"},
      // A run that stops before inference.
      {"testdata/diagnostics/OI1001.onnxtxt"},
      {"testdata/diagnostics/OI5002.onnxtxt", "--input-shape", "ghost:1,2"},
  };
  int with_values = 0, with_subgraph_values = 0, with_diagnostics = 0, with_findings = 0,
      with_explain = 0;
  for (const auto& args : runs) {
    json report = RunReport(args);
    ASSERT_FALSE(report.is_null()) << args[0];
    std::vector<std::string> errors = validator.Check(report);
    EXPECT_TRUE(errors.empty()) << args[0] << ": the report breaks docs/report.schema.json:\n"
                                << Lines(errors);
    if (report.contains("values") && !report["values"].empty()) ++with_values;
    for (const auto& v : report.value("values", json::array())) {
      if (v["graph"] != "main") {
        ++with_subgraph_values;
        break;
      }
    }
    if (!report["diagnostics"].empty()) ++with_diagnostics;
    if (!report.value("findings", json::array()).empty()) ++with_findings;
    if (report.contains("explain")) ++with_explain;
  }
  // The reports checked hold what the schema describes (so it was exercised).
  EXPECT_GE(with_values, 4);
  EXPECT_GE(with_subgraph_values, 3);
  EXPECT_GE(with_diagnostics, 4);
  EXPECT_GE(with_findings, 2);
  EXPECT_EQ(with_explain, 2);
}

// The explain section holds what --explain prints: the reason, the chain and the input that
// would decide the dim; with `all`, the counts by reason, the introduced symbols and the
// what-if runs, whose counts are those of real runs.
TEST(ReportExplain, ExplanationsAndWhatIf) {
  json one = RunReport({"testdata/cases/explain/shape_value_unknown.onnxtxt", "--explain", "y:1"});
  ASSERT_TRUE(one.contains("explain")) << one.dump(2);
  const json& e = one["explain"]["explanations"];
  ASSERT_EQ(e.size(), 1u) << one.dump(2);
  EXPECT_EQ(e[0]["value"], "y");
  EXPECT_EQ(e[0]["axis"], 1);
  EXPECT_EQ(e[0]["reason"], "shape-value-unknown");
  EXPECT_EQ(e[0]["input_value"], "s");
  EXPECT_EQ(e[0]["chain"].back()["value"], "s");
  EXPECT_EQ(e[0]["chain"].back()["of_value"], true);
  EXPECT_FALSE(one["explain"].contains("unknown"));  // only with `all`

  json all = RunReport({"testdata/cases/explain/explain_all_what_if.onnxtxt", "--explain", "all",
                        "--what-if", "N=7"});
  const json& x = all["explain"];
  ASSERT_TRUE(x.contains("introduced_symbols")) << all.dump(2);
  std::map<std::string, std::string> introduced;
  for (const auto& s : x["introduced_symbols"]) introduced[s["name"]] = s["reason"];
  EXPECT_EQ(introduced["u__d0"], "data-dependent");
  EXPECT_EQ(introduced["x_d1"], "unknown-graph-input");
  std::map<std::string, json> runs;
  for (const auto& r : x["what_if"]["runs"]) runs[r["label"]] = r;
  ASSERT_TRUE(runs.count("N=7") && runs.count("x_d1=2") && runs.count("all together")) << x.dump(2);
  EXPECT_EQ(runs["N=7"]["bind"]["N"], 7);
  // "all together" binds both; a real --bind of both gives the same count.
  json bound =
      RunReport({"testdata/cases/explain/explain_all_what_if.onnxtxt", "--bind", "N=7,x_d1=2"});
  EXPECT_EQ(runs["all together"]["static"], bound["summary"]["static_shaped"]) << bound.dump(2);
  EXPECT_EQ(x["what_if"]["baseline_static"], all["summary"]["static_shaped"]);
}

TEST(ReportSchema, TheValidatorRejectsWhatTheSchemaForbids) {
  json schema = LoadSchema();
  Validator validator(schema);
  json report = RunReport({"testdata/diagnostics/OI4001.onnxtxt", "--json-values"});
  ASSERT_TRUE(validator.Check(report).empty());
  auto broken = [&](auto&& change) {
    json r = report;
    change(r);
    return validator.Check(r);
  };
  EXPECT_FALSE(broken([](json& r) { r.erase("exit_code"); }).empty());
  EXPECT_FALSE(broken([](json& r) { r["surprise"] = 1; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["diagnostics"][0]["code"] = "OI9999"; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["values"][0]["role"] = 3; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["summary"]["nodes"] = -1; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["values"][0].erase("agreement"); }).empty());
}

// The values section: declared and inferred types side by side, per graph path.
TEST(ReportValues, DeclaredAndInferredTypesAreCompared) {
  json report = RunReport({"testdata/diagnostics/OI4001.onnxtxt", "--json-values"});
  ASSERT_EQ(report["values"].size(), 2u) << report.dump(2);
  const json& y = report["values"][1];
  EXPECT_EQ(y["name"], "y");
  EXPECT_EQ(y["role"], "output");
  EXPECT_EQ(y["declared"], "float[5]");
  EXPECT_EQ(y["inferred"], "float[4]");
  EXPECT_EQ(y["type"], "float[4]");  // the default policy writes the inferred type
  EXPECT_EQ(y["agreement"], "contradiction");
  EXPECT_EQ(y["contradiction"], "dim 0: 5 vs 4");
  json plain = RunReport({"testdata/diagnostics/OI4001.onnxtxt"});
  EXPECT_FALSE(plain.contains("values"));  // only with --json-values
  json loop = RunReport({"testdata/diagnostics/OI6001.onnxtxt", "--json-values"});
  bool body = false;
  for (const auto& v : loop["values"]) {
    if (v["graph"] == "main/Loop_0.body" && v["name"] == "cond_in") {
      body = true;
      EXPECT_EQ(v["role"], "input");
      EXPECT_EQ(v["declared"], "bool[1]");
    }
  }
  EXPECT_TRUE(body) << loop.dump(2);
}

// ---- Rule sources: every error a built-in rule makes states its code (RuleError,
// InputError, AttrError...; Status::Error has none).
TEST(RuleSources, NoRuleMakesAnUnclassifiedError) {
  std::vector<std::string> offenders;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator("schema/defs")) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".cc" || path.find("_test.cc") != std::string::npos) continue;
    if (path.find("catalog_data") != std::string::npos) continue;
    ++files;
    std::istringstream in(ReadText(entry.path()));
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (line.find("Status::Error(") != std::string::npos) {
        offenders.push_back(path + ":" + std::to_string(n) + ": " + line);
      }
    }
  }
  EXPECT_GT(files, 20);
  EXPECT_TRUE(offenders.empty()) << "errors without a diagnostic code (use RuleError(DiagCode::k"
                                    "..., ...), schema/inference_context.h):\n"
                                 << Lines(offenders);
}

}  // namespace
}  // namespace onnx_infer
