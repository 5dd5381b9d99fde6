#include "index.h"

namespace shop {

void Index::Insert(const std::string& key) { keys_.insert(key); }

bool Index::Contains(const std::string& key) const {
  return keys_.count(key) > 0;
}

}  // namespace shop
