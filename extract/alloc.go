package extract

/*
#include <stdlib.h>

// Defined by the tree-sitter runtime that go-tree-sitter compiles in.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t),
                             void *(*)(void *, size_t), void (*)(void *));

static void knowing_use_libc_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

// go-tree-sitter routes every allocation of the C parser through Go
// callbacks (C → Go → C.malloc), a cgo round trip per node. Their
// functions end in the C allocator anyway, so the parser is pointed at it
// directly: memory allocated either way is freed either way by libc. On
// the Go standard library this takes seconds off a build.
func init() {
	C.knowing_use_libc_allocator()
}
