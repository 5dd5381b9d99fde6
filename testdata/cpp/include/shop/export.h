#ifndef SHOP_EXPORT_H_
#define SHOP_EXPORT_H_

#define SHOP_EXPORT __attribute__((visibility("default")))

#endif  // SHOP_EXPORT_H_
