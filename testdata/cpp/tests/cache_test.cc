#include "cache.h"

#include "catch2/catch.hpp"

TEST_CASE("the cache returns what was inserted", "[cache]") {
  shop::LRUCache<int, int> cache(2);
  cache.Insert(1, 10);
  REQUIRE(cache.Lookup(1) == 10);
}
