#include <stdlib.h>
#include <string.h>
#include "dict.h"

/* dictHash is djb2 over the key's bytes. */
static unsigned int dictHash(const char *key) {
    unsigned int h = 5381;
    while (*key) h = h * 33 + (unsigned char)*key++;
    return h;
}

/* dictCreate makes an empty table of 16 buckets. */
dict *dictCreate(void) {
    dict *d = malloc(sizeof(*d));
    d->size = 16;
    d->used = 0;
    d->table = calloc(d->size, sizeof(dictEntry *));
    return d;
}

int dictAdd(dict *d, const char *key, void *val) {
    unsigned int i = dictHash(key) % d->size;
    dictEntry *e = malloc(sizeof(*e));
    e->key = key;
    e->val = val;
    e->next = d->table[i];
    d->table[i] = e;
    d->used++;
    return 0;
}

void dictRelease(dict *d) {
    free(d->table);
    free(d);
}
