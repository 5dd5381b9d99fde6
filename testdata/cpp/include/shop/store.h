#ifndef SHOP_STORE_H_
#define SHOP_STORE_H_

#include <string>

#include "shop/export.h"
#include "shop/status.h"

namespace shop {

/// Store is where the shop keeps its items.
class SHOP_EXPORT Store {
 public:
  virtual ~Store();

  // Get reads the value stored under key into *value.
  virtual Status Get(const std::string& key, std::string* value) = 0;

  // Put stores value under key, replacing what was there.
  virtual Status Put(const std::string& key, const std::string& value) = 0;
};

}  // namespace shop

#endif  // SHOP_STORE_H_
