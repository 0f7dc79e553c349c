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
#include "onnx_infer/cli/cli_test_util.h"
#include "onnx_infer/cli/json_schema_validator.h"
#include "onnx_infer/inference/contract.h"
#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/builtin.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::Lines;
using testing::ReadText;
using testing::TempDir;

// Runs infer-shapes with `args` and `--contract FILE`; the contract (null when none was
// written) and the exit code.
json RunContract(std::vector<std::string> args, int* exit_code = nullptr) {
  return testing::RunWritingJson(args, "--contract", exit_code);
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
      {"testdata/contract/kv_cache.onnxtxt", "--profile-format", "ort-trt", "--range", "batch=1",
       "--range", "past=0:64:1000", "--range", "seq=1:1:24", "--memory", "--cost"},
      {"testdata/contract/kv_cache.onnxtxt", "--bind", "seq=1"},
      {"testdata/contract/shape_tensors.onnxtxt", "--range", "B=1:2:4", "--range", "H=1:3:5",
       "--range", "S=1:7:30", "--range", "free[0]=1:2:4", "--range", "free[1]=2:6:10",
       "--check-profile"},
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

// A symbol inference introduces with bounds of its own (an element of a constant table read at
// an unknown index) is in the contract with its bounds and their origins.
TEST(ContractSchema, IntroducedSymbolsWithBounds) {
  const json schema = json::parse(ReadText("docs/contract.schema.json"));
  testing::Validator validator(schema);
  json c = RunContract({"testdata/cases/bounds/table_gather_range.onnxtxt"});
  ASSERT_FALSE(c.is_null());
  EXPECT_TRUE(validator.Check(c).empty()) << Lines(validator.Check(c));
  ASSERT_EQ(c["introduced_symbols"].size(), 1u) << c["introduced_symbols"].dump();
  const json& s = c["introduced_symbols"][0];
  EXPECT_EQ(s["name"], "n__e0");
  EXPECT_EQ(s["min"], 128);
  EXPECT_EQ(s["max"], 512);
  EXPECT_FALSE(s["max_assumed"].get<bool>());
  ASSERT_EQ(s["bound_origins"].size(), 2u);
  for (const auto& o : s["bound_origins"]) {
    EXPECT_NE(o.get<std::string>().find("(Gather): an element of constant 'sizes'"),
              std::string::npos)
        << o;
  }
  // No input has a shape symbol here, and a model without introduced bounds lists none.
  EXPECT_TRUE(c["symbols"].empty());
  json plain = RunContract({"testdata/contract/kv_cache.onnxtxt"});
  EXPECT_TRUE(plain["introduced_symbols"].empty()) << plain["introduced_symbols"].dump();
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
  // The shape-tensor input `shape` is [batch, total] (the declared output of its Reshape):
  // its values follow the shapes, after them.
  EXPECT_EQ(p["trtexec"],
            "--minShapes=past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1 "
            "--optShapes=past_key:1x64x8,key:1x1x8,mask:1x65,shape:1x65 "
            "--maxShapes=past_key:4x1000x8,key:4x24x8,mask:4x1024,shape:4x1024");
  EXPECT_EQ(p["max"]["values"]["shape"], json::array({4, 1024}));
  EXPECT_TRUE(p["violations"].empty());
  const json& shape = c["inputs"][3];
  EXPECT_EQ(shape["name"], "shape");
  EXPECT_EQ(shape["shape_tensor"], true);
  ASSERT_EQ(shape["values"].size(), 2u);
  EXPECT_EQ(shape["values"][0]["name"], "shape[0]");
  EXPECT_EQ(shape["values"][0]["value"], "batch");
  EXPECT_EQ(shape["values"][1]["value"], "total");  // mask's, so past + seq at each point
  EXPECT_NE(shape["values"][1]["facts"][0].get<std::string>().find("declared type of 'y' dim 1"),
            std::string::npos);
  EXPECT_EQ(c["inputs"][0]["shape_tensor"], false);
}

TEST(ContractCli, AProfileBreakingTheFactsExitsOne) {
  int code = -1;
  json c = RunContract(
      {"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1", "--range", "past=0:64:1000",
       "--range", "seq=1:1:24", "--range", "total=1:65:1000", "--check-profile"},
      &code);
  EXPECT_EQ(code, 1);
  ASSERT_FALSE(c.is_null());
  // total == past + seq breaks; shape's values follow total (shape[1] is total), so they
  // hold.
  const json& v = c["profiles"][0]["violations"];
  ASSERT_EQ(v.size(), 1u) << v.dump(2);
  EXPECT_EQ(v[0]["point"], "max");
  EXPECT_NE(v[0]["origin"].get<std::string>().find("'present'"), std::string::npos);
  EXPECT_EQ(c["profiles"][0]["max"]["values"]["shape"], json::array({1, 1000}));
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

// The profile in each format (docs/deploy.md#profile-formats), and each given back with
// --profile: parsed and checked, it holds.
TEST(ContractCli, ProfileFormatsRoundTrip) {
  int code = -1;
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1:1:4", "--range",
                        "past=0:64:1000", "--range", "seq=1:1:24"},
                       &code);
  ASSERT_EQ(code, 0);
  const json& p = c["profiles"][0];
  EXPECT_EQ(p["ort_trt"]["trt_profile_min_shapes"], "past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1");
  EXPECT_EQ(p["ort_trt"]["trt_profile_opt_shapes"],
            "past_key:1x64x8,key:1x1x8,mask:1x65,shape:1x65");
  EXPECT_EQ(p["ort_trt"]["trt_profile_max_shapes"],
            "past_key:4x1000x8,key:4x24x8,mask:4x1024,shape:4x1024");
  EXPECT_EQ(p["polygraphy"],
            "--trt-min-shapes past_key:[1,0,8] key:[1,1,8] mask:[1,1] shape:[1,1] "
            "--trt-opt-shapes past_key:[1,64,8] key:[1,1,8] mask:[1,65] shape:[1,65] "
            "--trt-max-shapes past_key:[4,1000,8] key:[4,24,8] mask:[4,1024] shape:[4,1024]");
  std::string ort;
  for (const auto& [key, value] : p["ort_trt"].items()) {
    ort += key + "=" + value.get<std::string>() + "\n";
  }
  for (const std::string& text :
       {p["trtexec"].get<std::string>(), p["polygraphy"].get<std::string>(), ort}) {
    json back = RunContract({"testdata/contract/kv_cache.onnxtxt", "--profile", text}, &code);
    EXPECT_EQ(code, 0) << text;
    ASSERT_FALSE(back.is_null()) << text;
    const json& q = back["profiles"][0];
    EXPECT_TRUE(q["violations"].empty()) << text << "\n" << q["violations"].dump(2);
    EXPECT_EQ(q["max"]["symbols"]["total"], 1024) << text;
    EXPECT_EQ(q["trtexec"], p["trtexec"]) << text;
  }
}

// A given profile that breaks the model: total != past + seq at max (named with the declared
// output that states it), a shared batch given two sizes, a constant dim given another size,
// min > opt.
TEST(ContractCli, AGivenProfileIsChecked) {
  int code = -1;
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--profile",
                        "trt_profile_min_shapes=past_key:1x0x8,key:1x1x8,mask:1x1,shape:1x1 "
                        "trt_profile_opt_shapes=past_key:1x64x8,key:2x1x8,mask:1x65,shape:1x65 "
                        "trt_profile_max_shapes=past_key:4x1000x8,key:4x24x16,mask:4x1000,"
                        "shape:4x1000"},
                       &code);
  EXPECT_EQ(code, 1);
  ASSERT_FALSE(c.is_null());
  const json& v = c["profiles"][0]["violations"];
  std::string all;
  for (const auto& x : v)
    all += x["point"].get<std::string>() + ": " + x["what"].get<std::string>() + " (" +
           x["origin"].get<std::string>() + ")\n";
  EXPECT_NE(all.find("opt: input 'past_key' dim 0 == input 'key' dim 0 (1 != 2)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("max: input 'key' dim 2 == 8 (16 != 8)"), std::string::npos) << all;
  EXPECT_NE(all.find("max: total == past + seq (1000 != 1024) (declared type of 'present'"),
            std::string::npos)
      << all;
  c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--profile",
                   "--trt-min-shapes past_key:[1,9,8] key:[1,1,8] mask:[1,10] shape:[1,10] "
                   "--trt-opt-shapes past_key:[1,1,8] key:[1,1,8] mask:[1,2] shape:[1,2] "
                   "--trt-max-shapes past_key:[1,9,8] key:[1,1,8] mask:[1,10] shape:[1,10]"},
                  &code);
  EXPECT_EQ(code, 1);
  ASSERT_FALSE(c.is_null());
  EXPECT_NE(c["profiles"][0]["violations"].dump().find("min <= opt <= max (9, 1, 9)"),
            std::string::npos)
      << c["profiles"][0]["violations"].dump(2);
}

// Bad profile text: a clear error naming what is wrong, exit 2.
TEST(ContractCli, BadProfileTextIsAUsageError) {
  const std::vector<std::string> bad = {
      "--minShapes=key:1xx8 --optShapes=key:1x1x8 --maxShapes=key:1x1x8",
      "--minShapes=key:1x1x8 --optShapes=key:1x1x8",
      "--trt-min-shapes key:1x1x8 --trt-opt-shapes key:[1,1,8] --trt-max-shapes key:[1,1,8]",
      "--minShapes=key:1x1x8 --trt-opt-shapes key:[1,1,8]",
      "--minShapes=key:1x1x8 --optShapes=key:1x1 --maxShapes=key:1x1x8",
      "hello",
  };
  for (const auto& text : bad) {
    std::string error;
    EXPECT_FALSE(ParseProfileText(text, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
    int code = -1;
    RunContract({"testdata/contract/kv_cache.onnxtxt", "--profile", text}, &code);
    EXPECT_EQ(code, 2) << text;
  }
  std::string error;
  auto ok = ParseProfileText(
      "--minShapes='in:0':1x2,b:3 --optShapes=b:3,'in:0':1x2 --maxShapes='in:0':1x2,b:3", &error);
  ASSERT_TRUE(ok) << error;
  ASSERT_EQ(ok->inputs.size(), 2u);
  EXPECT_EQ(ok->inputs[0].input, "in:0");
  EXPECT_EQ(ok->inputs[1].shapes[1], std::vector<int64_t>({3}));
}

// Without --range, a symbol takes the model's bound: the position table caps seq at 4096, so
// the generated max is 4096 and says where it comes from; a --range max above it is checked.
TEST(ContractCli, ProfileFromTheModelsBounds) {
  int code = -1;
  json c = RunContract(
      {"testdata/cases/bounds/position_table.onnxtxt", "--range", "batch=1:1:8", "--check-profile"},
      &code);
  EXPECT_EQ(code, 0);
  ASSERT_FALSE(c.is_null());
  const json& p = c["profiles"][0];
  EXPECT_EQ(p["min"]["symbols"]["seq"], 1);
  EXPECT_EQ(p["opt"]["symbols"]["seq"], 4096);
  EXPECT_EQ(p["max"]["symbols"]["seq"], 4096);
  ASSERT_EQ(p["from_bounds"].size(), 1u);
  EXPECT_NE(p["from_bounds"][0].get<std::string>().find("seq = 1:4096:4096"), std::string::npos);
  EXPECT_NE(p["from_bounds"][0].get<std::string>().find("(Add)"), std::string::npos);
  // --profile-format alone: batch has no bound, so no profile can be made.
  RunContract({"testdata/cases/bounds/position_table.onnxtxt", "--profile-format", "polygraphy"},
              &code);
  EXPECT_EQ(code, 2);
  c = RunContract({"testdata/cases/bounds/position_table.onnxtxt", "--assume", "1 <= batch <= 16",
                   "--profile-format", "polygraphy"},
                  &code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(c["profiles"][0]["polygraphy"],
            "--trt-min-shapes x:[1,1,8] --trt-opt-shapes x:[16,4096,8] "
            "--trt-max-shapes x:[16,4096,8]");
}

// --memory and --cost at min, opt and max of the profile: at max (batch 4, past 1000, seq 24,
// total 1024) the Mul holds the peak: present and scores 4*1024*8*4 bytes each, the
// unsqueezed mask m 4*1024*4, with the inputs still to be read by the Reshape (mask 4*1024*4,
// shape 2*8); the Mul of present by the mask is 4*1024*8 FLOPs.
TEST(ContractCli, MemoryAndCostAtTheProfilesPoints) {
  int code = -1;
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1:1:4", "--range",
                        "past=0:64:1000", "--range", "seq=1:1:24", "--memory", "--cost"},
                       &code);
  EXPECT_EQ(code, 0);
  ASSERT_FALSE(c.is_null());
  const json& p = c["profiles"][0];
  ASSERT_TRUE(p.contains("memory")) << p.dump(2);
  EXPECT_EQ(p["memory"]["max"]["peak_bytes"], 2 * (4 * 1024 * 8 * 4) + 2 * (4 * 1024 * 4) + 2 * 8);
  EXPECT_EQ(p["memory"]["max"]["peak_node"], "node #3 (Mul)");
  EXPECT_EQ(p["memory"]["max"]["peak_node_index"], 3);
  EXPECT_EQ(p["cost"]["max"]["flops"], 4 * 1024 * 8);
  EXPECT_EQ(p["cost"]["max"]["top_node"], "node #3 (Mul)");
  EXPECT_EQ(p["cost"]["min"]["flops"], 1 * 1 * 8);
  // Without --memory and --cost, none.
  c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--range", "batch=1:1:4", "--range",
                   "past=0:64:1000", "--range", "seq=1:1:24"});
  EXPECT_FALSE(c["profiles"][0].contains("memory"));
}

// An input dim that is an expression (2*H): the profile's size gives H where it can, and a
// size that no H gives (9) is a violation at that point only.
TEST(ContractCli, AGivenProfileSolvesExpressionDims) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("Relu");
  n->add_input("x");
  n->add_output("y");
  onnx::ValueInfoProto* in = g->add_input();
  in->set_name("x");
  auto* t = in->mutable_type()->mutable_tensor_type();
  t->set_elem_type(1);
  t->mutable_shape()->add_dim()->set_dim_param("B");
  t->mutable_shape()->add_dim()->set_dim_param("2*H");
  g->add_output()->set_name("y");
  const fs::path path = TempDir() / "pairs.onnx";
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(m.SerializeToOstream(&out));
  }
  int code = -1;
  json c = RunContract(
      {path.string(), "--profile", "--minShapes=x:1x2 --optShapes=x:2x6 --maxShapes=x:4x10"},
      &code);
  EXPECT_EQ(code, 0);
  ASSERT_FALSE(c.is_null());
  EXPECT_EQ(c["profiles"][0]["max"]["symbols"]["H"], 5);
  c = RunContract(
      {path.string(), "--profile", "--minShapes=x:1x2 --optShapes=x:2x6 --maxShapes=x:4x9"}, &code);
  EXPECT_EQ(code, 1);
  const json& v = c["profiles"][0]["violations"];
  ASSERT_EQ(v.size(), 1u) << v.dump(2);
  EXPECT_EQ(v[0]["point"], "max");
  EXPECT_EQ(v[0]["what"], "input 'x' dim 1 == 2*H (9 is not 2*H for any H >= 0)");
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

// --bind seq=1 on the decoder: the contract's "binding" derives total = past + 1 and names
// what is still free; the same is printed as "bind:" lines.
TEST(ContractBinding, APartialBindIsCompleted) {
  json c = RunContract({"testdata/contract/kv_cache.onnxtxt", "--bind", "seq=1"});
  ASSERT_TRUE(c.contains("binding")) << c.dump();
  const json& b = c["binding"];
  EXPECT_EQ(b["bound"], json({{"seq", 1}}));
  ASSERT_EQ(b["derived"].size(), 1u);
  EXPECT_EQ(b["derived"][0]["symbol"], "total");
  EXPECT_EQ(b["derived"][0]["value"], "past + 1");
  EXPECT_EQ(b["free"], json({"batch", "past"}));
  // Without --bind there is no section.
  EXPECT_FALSE(RunContract({"testdata/contract/kv_cache.onnxtxt"}).contains("binding"));
}

}  // namespace
}  // namespace onnx_infer
