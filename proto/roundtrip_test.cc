// Every model of the shared corpus parses with our onnx.proto and serializes back to an equal
// message, with no field left unknown to our definition. Needs SHARED_DIR (the shared
// reference folder); skips without it.
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "onnx_infer/base/test_util.h"
#include "onnx_infer/proto/model_io.h"

namespace onnx_infer {
namespace {

namespace fs = std::filesystem;

// Counts the fields our definition does not know, anywhere in the message.
int UnknownFields(const google::protobuf::Message& m) {
  const auto* reflection = m.GetReflection();
  int n = reflection->GetUnknownFields(m).field_count();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(m, f); ++i) {
        n += UnknownFields(reflection->GetRepeatedMessage(m, f, i));
      }
    } else {
      n += UnknownFields(reflection->GetMessage(m, f));
    }
  }
  return n;
}

std::vector<std::string> SharedModels() {
  std::vector<std::string> paths = testing::SharedModels("conformance");
  for (auto& p : testing::SharedModels("models/real")) paths.push_back(std::move(p));
  return paths;
}

TEST(RoundTripTest, EverySharedModelParsesAndReserializesWithoutLoss) {
  std::vector<std::string> paths = SharedModels();
  if (paths.empty()) GTEST_SKIP() << "SHARED_DIR is not set or holds no models";
  // Tensors may hold NaN (tree ensembles use it for "missing"); NaN equals NaN here.
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  int checked = 0;
  for (const auto& path : paths) {
    auto model = LoadBinaryModel(path);
    ASSERT_TRUE(model.ok()) << model.status().message();
    EXPECT_EQ(UnknownFields(*model), 0) << path << ": has fields onnx.proto does not define";
    std::string bytes;
    ASSERT_TRUE(model->SerializeToString(&bytes)) << path;
    auto again = ParseModel(bytes, path);
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_TRUE(differencer.Compare(*model, *again)) << path;
    ++checked;
  }
  std::cout << "round-tripped " << checked << " shared models\n";
  EXPECT_GT(checked, 1900);
}

}  // namespace
}  // namespace onnx_infer
