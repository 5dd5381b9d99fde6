#include "index.h"

#include "doctest/doctest.h"

struct IndexFixture {
  shop::Index index;
};

// A doctest case on a fixture: a method of the fixture.
TEST_CASE_FIXTURE(IndexFixture, "an inserted key is contained") {
  index.Insert("apple");
  CHECK(index.Contains("apple"));
}
