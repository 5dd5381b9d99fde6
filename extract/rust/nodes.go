package rust

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// The extractor reads a file's tree flattened into Go memory
// (extract.FlatTree): one cgo call copies every node, and walking the copy
// crosses into C no more. Nodes are indices into the flat tree, -1 is none.

// fieldIDs maps the grammar's field names to ids. A name missing here
// reads as no field: list every name the extractor asks for.
var fieldIDs = func() map[string]uint16 {
	lang := sitter.NewLanguage(tsrust.Language())
	m := map[string]uint16{}
	for _, name := range []string{"alias", "alternative", "argument", "arguments", "body", "bounds",
		"field", "function", "left", "macro", "name", "parameters", "path", "pattern", "return_type",
		"trait", "type", "type_arguments", "type_parameters", "value"} {
		m[name] = lang.FieldIdForName(name)
	}
	return m
}()

// kindNames are the grammar's node kinds by id, the flat tree's Names,
// read out of C on first use: building them at start-up would cost every
// command, queries included.
var kindNames = sync.OnceValue(func() []string { return extract.KindNames(sitter.NewLanguage(tsrust.Language())) })

// kind is the node kind of n.
func (x *extractor) kind(n int32) string { return x.t.Kind(n) }

// text is the source text of n ("" for -1).
func (x *extractor) text(n int32) string { return x.t.Text(n) }

// fld is the child of n in the named field, or -1 (n may be -1).
func (x *extractor) fld(n int32, name string) int32 { return x.t.Field(n, fieldIDs[name]) }

// first is the first named child of n, or -1 (n may be -1); with next it
// walks the named children: for c := x.first(n); c >= 0; c = x.next(c).
func (x *extractor) first(n int32) int32 { return x.t.FirstNamed(n) }

// next is the next named sibling of n, or -1.
func (x *extractor) next(n int32) int32 { return x.t.NextNamed(n) }

// atLineStart reports whether byte offset off is at column 0 of its line,
// as the node positions of tree-sitter count columns.
func (x *extractor) atLineStart(off uint32) bool {
	return off == 0 || int(off) <= len(x.t.Src) && x.t.Src[off-1] == '\n'
}

// prev is the previous sibling of n, named or not, or -1.
func (x *extractor) prev(n int32) int32 { return x.t.N[n].Prev }
