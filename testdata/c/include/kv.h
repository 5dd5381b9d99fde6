#ifndef KV_H
#define KV_H

#include "dict.h"

/* The longest key a store accepts. */
#define KV_MAX_KEY 256

/* KV_LEN is the number of keys in store s. */
#define KV_LEN(s) ((s)->d->used)

/* A key-value store kept in memory. */
typedef struct kv_store {
    dict *d;
    int dirty;
} kv_store;

/* kv_open opens the store saved at path, or a new empty one. */
kv_store *kv_open(const char *path);

/**
 * kv_put stores val under key.
 * It returns 0 on success, -1 for a key that is too long.
 */
int kv_put(kv_store *s, const char *key, const char *val);

void kv_close(kv_store *s);

/* kv_now is the time in milliseconds, for expiry. */
long kv_now(void);

#endif
