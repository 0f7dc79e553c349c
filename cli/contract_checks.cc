// infer-shapes --contract end to end: real contracts (with and without a profile, with
// bounds, divisibility, shape inputs, a violated profile) are valid under
// docs/contract.schema.json, and the exit codes of --range and --check-profile. (A gtest named
// apart from *_test.cc: the CMake build, which globs those, does not link the CLI library
// into tests.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/cli/cli.h"
#include "onnx_infer/cli/json_schema_validator.h"
#include "onnx_infer/schema/builtin.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? fs::path(t) : fs::temp_directory_path();
}

// Runs infer-shapes with `args` and `--contract FILE`; the contract (null when none was
// written) and the exit code.
json RunContract(std::vector<std::string> args, int* exit_code = nullptr) {
  static int run = 0;
  const fs::path file = TempDir() / ("contract_" + std::to_string(run++) + ".json");
  fs::remove(file);
  args.insert(args.begin(), "infer-shapes");
  args.push_back("--contract");
  args.push_back(file.string());
  args.push_back("--quiet");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  const int code = RunInferShapes(static_cast<int>(argv.size()), argv.data(), BuiltinSchemas());
  if (exit_code) *exit_code = code;
  if (!fs::exists(file)) return nullptr;
  return json::parse(ReadText(file));
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "  " + l + "\n";
  return out;
}

TEST(ContractSchema, RealContractsAreValid) {
  const json schema = json::parse(ReadText("docs/contract.schema.json"));
  testing::Validator validator(schema);
  const std::vector<std::vector<std::string>> runs = {
      {"testdata/demo/attention_block.onnx"},
      {"testdata/cases/bounds/position_table.onnxtxt", "--range", "batch=1:1:8", "--range",
       "seq=1:128:5000", "--check-profile"},
      {"testdata/cases/bounds/user_ranges_and_relations.onnxtxt", "--assume", "1 <= B <= 64",
       "--assume", "P + S <= 4096"},
      {"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1:1:4", "--range", "past=0:64:1000",
       "--range", "seq=1:1:24"},
      {"testdata/contract/channels_split.onnxtxt", "--range", "C=2:63:512", "--check-profile"},
  };
  int with_profile = 0, with_violation = 0, with_bound = 0, with_value = 0;
  for (const auto& args : runs) {
    json c = RunContract(args);
    ASSERT_FALSE(c.is_null()) << args[0];
    std::vector<std::string> errors = validator.Check(c);
    EXPECT_TRUE(errors.empty()) << args[0] << ": the contract breaks docs/contract.schema.json:\n"
                                << Lines(errors);
    if (c.contains("profiles")) {
      ++with_profile;
      if (!c["profiles"][0].value("violations", json::array()).empty()) ++with_violation;
    }
    for (const auto& s : c["symbols"]) {
      if (!s["max"].is_null()) ++with_bound;
      if (!s["value"].is_null()) ++with_value;
    }
  }
  EXPECT_GE(with_profile, 3);
  EXPECT_GE(with_violation, 2);
  EXPECT_GE(with_bound, 1);
  EXPECT_GE(with_value, 1);
}

TEST(ContractSchema, TheValidatorRejectsWhatTheSchemaForbids) {
  const json schema = json::parse(ReadText("docs/contract.schema.json"));
  testing::Validator validator(schema);
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1", "--range",
                        "past=0:64:1000", "--range", "seq=1:1:24"});
  ASSERT_TRUE(validator.Check(c).empty());
  auto broken = [&](auto&& change) {
    json r = c;
    change(r);
    return validator.Check(r);
  };
  EXPECT_FALSE(broken([](json& r) { r.erase("symbols"); }).empty());
  EXPECT_FALSE(broken([](json& r) { r["surprise"] = 1; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["symbols"][0]["min"] = -1; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["inputs"][0]["shape"] = 3; }).empty());
  EXPECT_FALSE(broken([](json& r) { r["profiles"][0]["min"]["symbols"]["x"] = "1"; }).empty());
}

TEST(ContractCli, KvCacheContractAndProfile) {
  int code = -1;
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1:1:4", "--range",
                        "past=0:64:1000", "--range", "seq=1:1:24", "--check-profile"},
                       &code);
  EXPECT_EQ(code, 0);
  ASSERT_FALSE(c.is_null());
  json total;
  for (const auto& s : c["symbols"]) {
    if (s["name"] == "total") total = s;
  }
  EXPECT_EQ(total["value"], "past + seq");
  const json& p = c["profiles"][0];
  EXPECT_EQ(p["max"]["symbols"]["total"], 1024);
  EXPECT_EQ(p["max"]["shapes"]["mask"], json::array({4, 1024}));
  EXPECT_EQ(p["trtexec"],
            "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1 "
            "--optShapes=past_key:1x64x8,key:1x1x8,mask:1x65 "
            "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024");
  EXPECT_TRUE(p["violations"].empty());
}

TEST(ContractCli, AProfileBreakingTheFactsExitsOne) {
  int code = -1;
  json c = RunContract(
      {"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1", "--range", "past=0:64:1000",
       "--range", "seq=1:1:24", "--range", "total=1:65:1000", "--check-profile"},
      &code);
  EXPECT_EQ(code, 1);
  ASSERT_FALSE(c.is_null());
  const json& v = c["profiles"][0]["violations"];
  ASSERT_EQ(v.size(), 1u) << v.dump(2);
  EXPECT_EQ(v[0]["point"], "max");
  EXPECT_NE(v[0]["origin"].get<std::string>().find("'present'"), std::string::npos);
}

TEST(ContractCli, ASymbolWithoutRangeIsAnError) {
  int code = -1;
  json c = RunContract(
      {"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1", "--range", "seq=1"}, &code);
  EXPECT_EQ(code, 2);
  ASSERT_FALSE(c.is_null());  // the contract is still written, with the profile's errors
  EXPECT_FALSE(c["profiles"][0]["errors"].empty());
  RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "seq=4:2:1"}, &code);
  EXPECT_EQ(code, 2);
  RunContract({"testdata/contract/kv_cache.onnxtxt", "--check-profile"}, &code);
  EXPECT_EQ(code, 2);
}

// A shared decoder (gpt2 with past, /work/shared): total_seq_len is past_seq_len + seq_len,
// derived in the profile, which then holds; a total given apart that breaks it is rejected.
TEST(ContractCli, SharedGpt2DecoderProfile) {
  const char* shared = std::getenv("SHARED_DIR");
  const fs::path model =
      fs::path(shared ? shared : "") / "models/real/genai_tiny_random_gpt2_fp32_past.onnx";
  if (!shared || !fs::exists(model)) GTEST_SKIP() << "no SHARED_DIR with the real models";
  int code = -1;
  json c = RunContract({model.string(), "--range", "batch_size=1:1:4", "--range",
                        "past_seq_len=0:128:1023", "--range", "seq_len=1:1:64", "--check-profile"},
                       &code);
  ASSERT_FALSE(c.is_null());
  EXPECT_EQ(code, 0);
  for (const auto& s : c["symbols"]) {
    if (s["name"] == "total_seq_len") EXPECT_EQ(s["value"], "past_seq_len + seq_len");
  }
  EXPECT_EQ(c["profiles"][0]["max"]["shapes"]["attention_mask"], json::array({4, 1087}));
  EXPECT_TRUE(c["profiles"][0]["violations"].empty());
  RunContract(
      {model.string(), "--range", "batch_size=1", "--range", "past_seq_len=0:128:1023", "--range",
       "seq_len=1:1:64", "--range", "total_seq_len=1:129:1000", "--check-profile"},
      &code);
  EXPECT_EQ(code, 1);
}

}  // namespace
}  // namespace onnx_infer
