#include "memory_store.h"

#include "util/log.h"

namespace shop {

namespace {
// Valid rejects keys too long for the map.
bool Valid(const std::string& key) { return key.size() < 256; }
}  // namespace

MemoryStore::MemoryStore() : index_(new Index), cache_(64) {}

MemoryStore::~MemoryStore() = default;

Status MemoryStore::Get(const std::string& key, std::string* value) {
  if (!this->Has(key)) {
    return Status::NotFound();
  }
  *value = cache_.Lookup(key);
  if (value->empty()) {
    *value = items_[key];
  }
  return Status::OK();
}

Status MemoryStore::Put(const std::string& key, const std::string& value) {
  if (!Valid(key)) {
    return Status::NotFound();
  }
  items_[key] = value;
  index_->Insert(key);
  cache_.Insert(key, value);
  util::Log("put");
  return Status::OK();
}

bool MemoryStore::Has(const std::string& key) const {
  return index_->Contains(key);
}

// PutOpaque stores through the handle a C caller holds.
void PutOpaque(void* handle, const char* key) {
  static_cast<MemoryStore*>(handle)->Put(key, "1");
}

}  // namespace shop
