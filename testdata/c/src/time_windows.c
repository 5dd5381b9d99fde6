#include <windows.h>
#include "kv.h"

long kv_now(void) {
    return (long)GetTickCount64();
}
