package java

import (
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
)

func TestZZSexp(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("SEXP_FILE"))
	if err != nil {
		t.Skip()
	}
	p := sitter.NewParser()
	p.SetLanguage(sitter.NewLanguage(tsjava.Language()))
	tree := p.Parse(src, nil)
	var dump func(n *sitter.Node, d int, field string)
	dump = func(n *sitter.Node, d int, field string) {
		s := ""
		for i := 0; i < d; i++ {
			s += "  "
		}
		if field != "" {
			s += field + ": "
		}
		txt := ""
		if n.NamedChildCount() == 0 {
			txt = string(src[n.StartByte():n.EndByte()])
		}
		t.Logf("%s%s %q", s, n.Kind(), txt)
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c.IsNamed() {
				dump(c, d+1, n.FieldNameForChild(uint32(i)))
			}
		}
	}
	dump(tree.RootNode(), 0, "")
}
