package ruby

import (
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
)

func TestScratchSexp(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("RB"))
	if err != nil {
		t.Skip()
	}
	p := sitter.NewParser()
	p.SetLanguage(sitter.NewLanguage(tsruby.Language()))
	tree := p.Parse(src, nil)
	var walk func(n *sitter.Node, depth int, field string)
	walk = func(n *sitter.Node, depth int, field string) {
		if !n.IsNamed() {
			return
		}
		pad := ""
		for i := 0; i < depth; i++ {
			pad += "  "
		}
		txt := ""
		if n.ChildCount() == 0 {
			txt = " " + string(src[n.StartByte():n.EndByte()])
		}
		if field != "" {
			field += ": "
		}
		t.Logf("%s%s%s%s", pad, field, n.Kind(), txt)
		c := n.Walk()
		defer c.Close()
		if c.GotoFirstChild() {
			for {
				walk(c.Node(), depth+1, c.FieldName())
				if !c.GotoNextSibling() {
					break
				}
			}
		}
	}
	walk(tree.RootNode(), 0, "")
}
