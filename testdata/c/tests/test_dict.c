#include "dict.h"

/* A jemalloc-style test: the macro names the test. */
TEST_BEGIN(test_dict_add_counts_keys) {
    dict *d = dictCreate();
    dictAdd(d, "a", NULL);
    expect_u64_eq(d->used, 1, "one key");
    dictRelease(d);
}
TEST_END

int main(void) {
    return test(test_dict_add_counts_keys);
}
