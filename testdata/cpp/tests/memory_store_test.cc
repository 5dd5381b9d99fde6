#include "memory_store.h"

#include "gtest/gtest.h"

namespace shop {

class MemoryStoreTest : public ::testing::Test {
 protected:
  void PutValue(const std::string& key, const std::string& value) {
    ASSERT_TRUE(store_.Put(key, value).ok());
  }

  MemoryStore store_;
};

TEST_F(MemoryStoreTest, GetAfterPut) {
  PutValue("apple", "red");
  std::string value;
  ASSERT_TRUE(store_.Get("apple", &value).ok());
  EXPECT_EQ("red", value);
}

TEST(StatusTest, NotFoundIsNotOk) { EXPECT_FALSE(Status::NotFound().ok()); }

}  // namespace shop
