package csharp

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// withoutPreprocessor handles a file whose #if directives broke the parse
// (the grammar knows them between declarations and statements, not inside
// a parameter list or an expression): it parses the file again with the
// directives and the #elif/#else branches blanked out, keeping every byte
// offset and line, and returns the new file when that parse is cleaner.
// The caller closes the returned tree.
func withoutPreprocessor(f *extract.File) (*extract.File, *sitter.Tree) {
	src, ok := blankPreprocessor(f.Src)
	if !ok {
		return nil, nil
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tscsharp.Language())); err != nil {
		return nil, nil
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, nil
	}
	root := tree.RootNode()
	if root.HasError() && (kind(f.Root) != "ERROR" || kind(root) == "ERROR") {
		tree.Close()
		return nil, nil
	}
	return &extract.File{Path: f.Path, Src: src, Root: root, Repo: f.Repo}, tree
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
