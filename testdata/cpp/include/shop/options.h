#ifndef SHOP_OPTIONS_H_
#define SHOP_OPTIONS_H_

#include "shop/export.h"

namespace shop {
// Options tune a store.
struct SHOP_EXPORT Options {
  // Capacity is how many items fit.
  int capacity = 64;
  bool sync = false;
};
}  // namespace shop

#endif  // SHOP_OPTIONS_H_
