// Helpers of the in-process tests of the command (cli/report_checks.cc, cli/contract_checks.cc):
// run infer-shapes as a function and read the JSON file it wrote. Test-only.
#ifndef ONNX_INFER_CLI_CLI_TEST_UTIL_H_
#define ONNX_INFER_CLI_CLI_TEST_UTIL_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_infer/cli/cli.h"
#include "onnx_infer/schema/builtin.h"

namespace onnx_infer::testing {

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? std::filesystem::path(t) : std::filesystem::temp_directory_path();
}

// Runs infer-shapes (built-in schemas) with `args`, then `flag FILE --quiet` (flag: "--json",
// "--contract"), in this process; returns what it wrote to FILE (null when nothing) and sets
// `exit_code`. Each call writes a file of its own in TempDir().
inline nlohmann::json RunWritingJson(std::vector<std::string> args, const std::string& flag,
                                     int* exit_code = nullptr) {
  static int run = 0;
  const std::filesystem::path file =
      TempDir() / ("run_" + std::to_string(run++) + "_" + flag.substr(2) + ".json");
  std::filesystem::remove(file);
  args.insert(args.begin(), "infer-shapes");
  args.push_back(flag);
  args.push_back(file.string());
  args.push_back("--quiet");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  const int code = RunInferShapes(static_cast<int>(argv.size()), argv.data(), BuiltinSchemas());
  if (exit_code) *exit_code = code;
  if (!std::filesystem::exists(file)) return nullptr;
  return nlohmann::json::parse(ReadText(file));
}

// "  line\n" for each line: failure messages that list places.
inline std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "  " + l + "\n";
  return out;
}

}  // namespace onnx_infer::testing

#endif  // ONNX_INFER_CLI_CLI_TEST_UTIL_H_
