#ifndef SHOP_CACHE_H_
#define SHOP_CACHE_H_

#include <list>
#include <map>

namespace shop {

// LRUCache keeps the most recently used entries, up to a capacity.
template <typename K, typename V>
class LRUCache {
 public:
  explicit LRUCache(size_t capacity) : capacity_(capacity) {}

  // Insert adds or refreshes an entry, evicting the oldest past capacity.
  void Insert(const K& key, V value);

  // Lookup returns the entry's value, or V() when it is absent.
  V Lookup(const K& key);

 private:
  void Evict();

  size_t capacity_;
  std::map<K, V> entries_;
  std::list<K> order_;
};

template <typename K, typename V>
void LRUCache<K, V>::Insert(const K& key, V value) {
  entries_[key] = value;
  order_.push_back(key);
  if (entries_.size() > capacity_) {
    Evict();
  }
}

template <typename K, typename V>
V LRUCache<K, V>::Lookup(const K& key) {
  auto it = entries_.find(key);
  return it == entries_.end() ? V() : it->second;
}

template <typename K, typename V>
void LRUCache<K, V>::Evict() {
  entries_.erase(order_.front());
  order_.pop_front();
}

}  // namespace shop

#endif  // SHOP_CACHE_H_
