// The committed docs/op-coverage.md must be what the generator prints today.
#include "onnx_infer/schema/coverage.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "onnx_infer/schema/builtin.h"

namespace onnx_infer {
namespace {

TEST(CoverageTest, CommittedReportIsCurrent) {
  std::ifstream file("docs/op-coverage.md");
  ASSERT_TRUE(file) << "docs/op-coverage.md is missing";
  std::ostringstream committed;
  committed << file.rdbuf();
  EXPECT_TRUE(committed.str() == CoverageReport(BuiltinSchemas()))
      << "docs/op-coverage.md is stale: run `bazel run //schema:op_coverage -- --write`";
}

TEST(CoverageTest, CountsRulesBodiesAndNeither) {
  SchemaRegistry r;
  ASSERT_TRUE(r.Register(OpSchema("d", "WithRule", 1).Rule([](InferenceContext&) {
                 return OkStatus();
               })).ok());
  ASSERT_TRUE(r.Register(OpSchema("d", "WithBody", 1).Function(1, "body")).ok());
  ASSERT_TRUE(r.Register(OpSchema("d", "Neither", 1)).ok());
  ASSERT_TRUE(r.Register(OpSchema("d", "Neither", 3)).ok());
  const std::string report = CoverageReport(r);
  EXPECT_NE(report.find("| d | 3 | 4 | 1 | 1 | 2 | 25% |"), std::string::npos) << report;
  EXPECT_NE(report.find("| WithRule | 1 | 1 |  |  |"), std::string::npos) << report;
  EXPECT_NE(report.find("| WithBody | 1 |  | 1 |  |"), std::string::npos) << report;
  EXPECT_NE(report.find("| Neither | 1, 3 |  |  | all |"), std::string::npos) << report;
}

}  // namespace
}  // namespace onnx_infer
