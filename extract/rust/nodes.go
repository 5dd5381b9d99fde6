package rust

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// The extractor reads a file's tree flattened into Go memory (see
// extract.Base): one cgo call copies every node, and walking the copy
// crosses into C no more.

// The grammar's field ids.
var (
	fAlias, fAlternative, fArgument, fArguments, fBody, fBounds, fField uint16
	fFunction, fLeft, fMacro, fName, fParameters, fPath, fPattern       uint16
	fReturnType, fTrait, fType, fTypeArguments, fTypeParameters, fValue uint16
)

// kindNames are the grammar's node kinds by id, the flat tree's Names.
var kindNames []string

// setupOnce fills the field ids and kindNames on first use: at start-up
// they would cost every command, queries included.
var setupOnce sync.Once

func setup() {
	lang := sitter.NewLanguage(tsrust.Language())
	for _, f := range []struct {
		id   *uint16
		name string
	}{{&fAlias, "alias"}, {&fAlternative, "alternative"}, {&fArgument, "argument"}, {&fArguments, "arguments"},
		{&fBody, "body"}, {&fBounds, "bounds"}, {&fField, "field"}, {&fFunction, "function"}, {&fLeft, "left"},
		{&fMacro, "macro"}, {&fName, "name"}, {&fParameters, "parameters"}, {&fPath, "path"},
		{&fPattern, "pattern"}, {&fReturnType, "return_type"}, {&fTrait, "trait"}, {&fType, "type"},
		{&fTypeArguments, "type_arguments"}, {&fTypeParameters, "type_parameters"}, {&fValue, "value"}} {
		*f.id = lang.FieldIdForName(f.name)
	}
	kindNames = extract.KindNames(lang)
}

// atLineStart reports whether byte offset off is at column 0 of its line,
// as the node positions of tree-sitter count columns.
func (x *extractor) atLineStart(off uint32) bool {
	return off == 0 || int(off) <= len(x.Src) && x.Src[off-1] == '\n'
}
