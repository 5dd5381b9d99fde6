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

// setup fills the field ids and kindNames.
func setup() {
	lang := sitter.NewLanguage(tsrust.Language())
	extract.FieldIDs(lang, map[string]*uint16{
		"alias": &fAlias, "alternative": &fAlternative, "argument": &fArgument, "arguments": &fArguments,
		"body": &fBody, "bounds": &fBounds, "field": &fField, "function": &fFunction, "left": &fLeft,
		"macro": &fMacro, "name": &fName, "parameters": &fParameters, "path": &fPath,
		"pattern": &fPattern, "return_type": &fReturnType, "trait": &fTrait, "type": &fType,
		"type_arguments": &fTypeArguments, "type_parameters": &fTypeParameters, "value": &fValue,
	})
	kindNames = extract.KindNames(lang)
}

// atLineStart reports whether byte offset off is at column 0 of its line,
// as the node positions of tree-sitter count columns.
func (x *extractor) atLineStart(off uint32) bool {
	return off == 0 || int(off) <= len(x.Src) && x.Src[off-1] == '\n'
}
