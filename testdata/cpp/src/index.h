#ifndef SHOP_INDEX_H_
#define SHOP_INDEX_H_

#include <set>
#include <string>

namespace shop {

// Index remembers which keys exist.
class Index {
 public:
  void Insert(const std::string& key);
  bool Contains(const std::string& key) const;

 private:
  std::set<std::string> keys_;
};

}  // namespace shop

#endif  // SHOP_INDEX_H_
