#include "unity.h"
#include "kv.h"

static kv_store *store;

void setUp(void) { store = kv_open(NULL); }

void tearDown(void) { kv_close(store); }

void test_kv_put_rejects_long_keys(void) {
    char key[KV_MAX_KEY + 1];
    memset(key, 'k', KV_MAX_KEY);
    key[KV_MAX_KEY] = '\0';
    TEST_ASSERT_EQUAL(-1, kv_put(store, key, "v"));
    TEST_ASSERT_EQUAL(0, dictHash("k") == 0); /* static in dict.c: not in view */
}

int main(void) {
    UNITY_BEGIN();
    RUN_TEST(test_kv_put_rejects_long_keys);
    return UNITY_END();
}
