#ifndef SHOP_MEMORY_STORE_H_
#define SHOP_MEMORY_STORE_H_

#include <map>
#include <memory>
#include <string>

#include "cache.h"
#include "index.h"
#include "shop/store.h"

namespace shop {

// MemoryStore is a Store that keeps everything in memory.
class MemoryStore : public Store {
 public:
  MemoryStore();
  ~MemoryStore() override;

  // Get looks the key up in the cache, then in the map.
  Status Get(const std::string& key, std::string* value) override;
  Status Put(const std::string& key, const std::string& value) override;

 private:
  bool Has(const std::string& key) const;

  std::map<std::string, std::string> items_;
  std::unique_ptr<Index> index_;
  LRUCache<std::string, std::string> cache_;
};

}  // namespace shop

#endif  // SHOP_MEMORY_STORE_H_
