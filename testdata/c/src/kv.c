#include <string.h>
#include "kv.h"

static int validKey(const char *key);

kv_store *kv_open(const char *path) {
    kv_store *s = malloc(sizeof(*s));
    (void)path;
    s->d = dictCreate();
    s->dirty = 0;
    return s;
}

int kv_put(kv_store *s, const char *key, const char *val) {
    if (!validKey(key)) return -1;
    s->dirty = 1;
    return dictAdd(s->d, key, (void *)val);
}

void kv_close(kv_store *s) {
    dictRelease(s->d);
    free(s);
}

/* validKey accepts keys shorter than KV_MAX_KEY. */
static int validKey(const char *key) {
    return strlen(key) < KV_MAX_KEY;
}
