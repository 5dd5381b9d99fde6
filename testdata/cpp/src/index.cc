#include "index.h"

namespace shop {

namespace {
// Valid rejects empty keys.
bool Valid(const std::string& key) { return !key.empty(); }
}  // namespace

void Index::Insert(const std::string& key) {
  if (Valid(key)) keys_.insert(key);
}

bool Index::Contains(const std::string& key) const {
  return keys_.count(key) > 0;
}

}  // namespace shop
