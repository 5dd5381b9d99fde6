#ifndef DICT_H
#define DICT_H

typedef struct dictEntry {
    const char *key;
    void *val;
    struct dictEntry *next;
} dictEntry;

/* A hash table with chaining. */
typedef struct dict {
    dictEntry **table;
    unsigned long size;
    unsigned long used;
} dict;

dict *dictCreate(void);
int dictAdd(dict *d, const char *key, void *val);
void dictRelease(dict *d);

#endif
