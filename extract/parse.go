package extract

/*
#include <stdint.h>

// ts_parser_parse_string from the tree-sitter runtime that go-tree-sitter
// compiles in (tree_sitter/api.h), declared with opaque pointer types.
extern void *ts_parser_parse_string(void *self, const void *old_tree, const char *string, uint32_t length);
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter's Parser and Tree are each one pointer to the runtime's
// object; ParseSource reads and writes that pointer. These constants fail
// to compile if either type changes shape.
const (
	_ = uint(unsafe.Sizeof(sitter.Parser{}) - unsafe.Sizeof(unsafe.Pointer(nil)))
	_ = uint(unsafe.Sizeof(unsafe.Pointer(nil)) - unsafe.Sizeof(sitter.Parser{}))
	_ = uint(unsafe.Sizeof(sitter.Tree{}) - unsafe.Sizeof(unsafe.Pointer(nil)))
	_ = uint(unsafe.Sizeof(unsafe.Pointer(nil)) - unsafe.Sizeof(sitter.Tree{}))
)

// ParseSource parses src with p, as p.Parse(src, nil) does, but hands
// tree-sitter the bytes in place. go-tree-sitter's Parse feeds the text
// through a Go callback that copies the rest of the file into C memory on
// every call, and the lexer calls it again whenever it seeks back: on the
// Go standard library that was 0.8 s of CPU, each copy as long as the rest
// of the file. The tree keeps no pointer into src, so src is
// only borrowed for the call. It returns nil if the parser has no language
// or src does not fit tree-sitter's 32-bit offsets.
func ParseSource(p *sitter.Parser, src []byte) *sitter.Tree {
	if len(src) > math.MaxUint32 {
		return nil
	}
	inner := *(*unsafe.Pointer)(unsafe.Pointer(p))
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(unsafe.SliceData(src)))
	}
	t := C.ts_parser_parse_string(inner, nil, text, C.uint32_t(len(src)))
	if t == nil {
		return nil
	}
	tree := new(sitter.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(tree)) = t
	return tree
}

// spareParsers keeps parsers between ParseLang calls, by grammar name. A
// parser costs about 0.1 ms to create and set up, more than parsing a
// small __init__.py, which Python's re-export reader parses one by one.
var spareParsers struct {
	sync.Mutex
	m map[string][]*sitter.Parser
}

// ParseLang parses src with the grammar of that name ("python",
// "csharp", as parseOne's parsers are named), using a parser kept from an
// earlier call or a new one; at most GOMAXPROCS parsers per grammar are
// kept. It returns nil for an unknown grammar or a failed parse.
func ParseLang(name string, src []byte) *sitter.Tree {
	var p *sitter.Parser
	spareParsers.Lock()
	if l := spareParsers.m[name]; len(l) > 0 {
		p = l[len(l)-1]
		spareParsers.m[name] = l[:len(l)-1]
	}
	spareParsers.Unlock()
	if p == nil {
		lang := grammar(name)
		if lang == nil {
			return nil
		}
		p = sitter.NewParser()
		if p.SetLanguage(lang) != nil {
			p.Close()
			return nil
		}
	}
	t := ParseSource(p, src)
	spareParsers.Lock()
	if spareParsers.m == nil {
		spareParsers.m = map[string][]*sitter.Parser{}
	}
	if l := spareParsers.m[name]; len(l) < runtime.GOMAXPROCS(0) {
		spareParsers.m[name] = append(l, p)
		p = nil
	}
	spareParsers.Unlock()
	if p != nil {
		p.Close()
	}
	return t
}
