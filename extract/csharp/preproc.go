package csharp

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
)

// withoutPreprocessor handles a file whose #if directives broke the parse
// (the grammar knows them between declarations and statements, not inside
// a parameter list or an expression): it parses the file again with the
// directives and the #elif/#else branches blanked out, keeping every byte
// offset and line, and returns the new file when that parse is cleaner.
// The caller closes the returned tree.
//
// This runs before the tree is flattened, on the node API, and only for
// files with #if directives and a syntax error.
func withoutPreprocessor(f *extract.File) (*extract.File, *sitter.Tree) {
	src, ok := blankPreprocessor(f.Src)
	if !ok {
		return nil, nil
	}
	tree := extract.ParseLang("csharp", src)
	if tree == nil {
		return nil, nil
	}
	root := tree.RootNode()
	if root.HasError() && (nodeKind(f.Root) != "ERROR" || nodeKind(root) == "ERROR") {
		tree.Close()
		return nil, nil
	}
	return &extract.File{Path: f.Path, Src: src, Root: root, Repo: f.Repo}, tree
}

// brokenStructure reports a syntax error where declarations are: at the
// top of the file, in a namespace, or among a type's members, where it
// loses symbols. Errors inside code bodies only lose references. Like
// withoutPreprocessor it reads the node API, before the tree is flattened.
func brokenStructure(n *sitter.Node, depth int) bool {
	if nodeKind(n) == "ERROR" {
		return true
	}
	if depth > 4 || !n.HasError() {
		return false
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch nodeKind(c) {
		case "ERROR":
			return true
		case "namespace_declaration", "class_declaration", "struct_declaration", "interface_declaration",
			"record_declaration", "enum_declaration":
			b := c.ChildByFieldId(fBody)
			if b != nil && brokenStructure(b, depth+1) || b == nil && c.HasError() {
				return true
			}
		case "declaration_list", "preproc_if", "preproc_else", "preproc_elif":
			if brokenStructure(c, depth+1) {
				return true
			}
		case "method_declaration", "constructor_declaration", "property_declaration":
			// An error in the header (parameters, accessors) rather than
			// in the body.
			if c.HasError() {
				if b := c.ChildByFieldId(fBody); b == nil || !b.HasError() {
					return true
				}
			}
		}
	}
	return false
}

// nodeKind is the kind of a node of the node API.
func nodeKind(n *sitter.Node) string {
	if id := int(n.KindId()); id < len(kindNames) {
		return kindNames[id]
	}
	return n.Kind()
}

// blankPreprocessor replaces #if/#elif/#else/#endif lines, and the lines
// of #elif and #else branches, with spaces.
func blankPreprocessor(src []byte) ([]byte, bool) {
	out := append([]byte(nil), src...)
	var alt []bool // per open #if: inside a later branch
	changed := false
	blank := func(line []byte) {
		for i, c := range line {
			if c != '\r' {
				line[i] = ' '
			}
		}
		changed = true
	}
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		line := out[start:end]
		t := bytes.TrimLeft(line, " \t\ufeff")
		if len(t) > 0 && t[0] == '#' {
			d := bytes.TrimLeft(t[1:], " \t")
			switch {
			case hasWord(d, "if"):
				alt = append(alt, false)
				blank(line)
			case hasWord(d, "elif"), hasWord(d, "else"):
				if len(alt) > 0 {
					alt[len(alt)-1] = true
				}
				blank(line)
			case hasWord(d, "endif"):
				if len(alt) > 0 {
					alt = alt[:len(alt)-1]
				}
				blank(line)
			}
		} else {
			for _, a := range alt {
				if a {
					blank(line)
					break
				}
			}
		}
		start = end + 1
	}
	return out, changed
}

func hasWord(b []byte, w string) bool {
	if !bytes.HasPrefix(b, []byte(w)) {
		return false
	}
	return len(b) == len(w) || b[len(w)] == ' ' || b[len(w)] == '\t' || b[len(w)] == '\r' || b[len(w)] == '('
}
