// The driver's per-value state (driver.h's Value): an initializer alone is kept in the word
// that otherwise points at the value's box, and moves into a box when the value holds more.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "onnx_infer/inference/driver.h"

namespace onnx_infer::driver_internal {
namespace {

TEST(ValueTest, AnInitializerAloneNeedsNoBox) {
  onnx::TensorProto a, b;
  Value v;
  v.set_defined();
  v.set_unread(&a);
  EXPECT_EQ(v.held(), nullptr);
  EXPECT_EQ(v.unread(), &a);
  EXPECT_EQ(v.external(), nullptr);
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_TRUE(v.defined());
  EXPECT_FALSE(v.from_node());
  v.set_unread(&b);  // replaced, still without a box
  EXPECT_EQ(v.held(), nullptr);
  EXPECT_EQ(v.unread(), &b);
  v.set_unread(nullptr);
  EXPECT_EQ(v.unread(), nullptr);
  EXPECT_EQ(v.held(), nullptr);
  EXPECT_TRUE(v.defined());  // the flags are untouched

  Value e;
  e.set_declared();
  e.set_external(&a);
  EXPECT_EQ(e.held(), nullptr);
  EXPECT_EQ(e.external(), &a);
  EXPECT_EQ(e.unread(), nullptr);
  EXPECT_TRUE(e.declared());
}

TEST(ValueTest, MoreThanAnInitializerMovesIntoABox) {
  onnx::TensorProto a, b;
  Value v;
  v.set_from_node();
  v.set_unread(&a);
  v.set_external(&b);  // two tensors: a box holds both
  ASSERT_NE(v.held(), nullptr);
  EXPECT_EQ(v.unread(), &a);
  EXPECT_EQ(v.external(), &b);
  EXPECT_TRUE(v.from_node());

  // What ValueData does on first use: the elements decoded, the initializer forgotten.
  Value w;
  w.set_default_input();
  w.set_unread(&a);
  auto elements = std::make_unique<ConstValue>();
  elements->dims = {2};
  w.set_data(std::move(elements));
  ASSERT_NE(w.held(), nullptr);
  EXPECT_EQ(w.unread(), &a);
  ASSERT_NE(w.data(), nullptr);
  EXPECT_EQ(w.data()->dims, std::vector<int64_t>{2});
  w.set_unread(nullptr);
  EXPECT_EQ(w.unread(), nullptr);
  EXPECT_TRUE(w.default_input());
  w.DropData();  // nothing points at an initializer any more: the box goes
  EXPECT_EQ(w.held(), nullptr);
  EXPECT_EQ(w.data(), nullptr);
  EXPECT_TRUE(w.default_input());
}

TEST(ValueTest, MovesCarryTheInitializer) {
  onnx::TensorProto a;
  Value v;
  v.set_defined();
  v.set_unread(&a);
  Value moved(std::move(v));
  EXPECT_EQ(moved.unread(), &a);
  EXPECT_TRUE(moved.defined());
  Value assigned;
  assigned.set_data(std::make_unique<ConstValue>());
  assigned = std::move(moved);
  EXPECT_EQ(assigned.unread(), &a);
  EXPECT_EQ(assigned.data(), nullptr);
  // Dropping data keeps an initializer that is still to be read.
  assigned.DropData();
  EXPECT_EQ(assigned.unread(), &a);
}

}  // namespace
}  // namespace onnx_infer::driver_internal
