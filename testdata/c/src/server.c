#include <stdio.h>
#include "kv.h"

struct server {
    kv_store *store;
    int port;
};

/* validKey, here, rejects empty keys before they reach the store. */
static int validKey(const char *key) {
    return key[0] != '\0';
}

/* serverHandleSet answers a SET command. */
int serverHandleSet(struct server *srv, const char *key, const char *val) {
    if (!validKey(key)) return -1;
    return kv_put(srv->store, key, val);
}

int main(void) {
    struct server srv = {0};
    fsync(1);
    srv.store = kv_open("data.kv");
    serverHandleSet(&srv, "a", "1");
    kv_close(srv.store);
    return 0;
}
