package rust

import (
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

func TestZZDump(t *testing.T) {
	fn := os.Getenv("DUMP")
	if fn == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(fn)
	p := sitter.NewParser()
	p.SetLanguage(sitter.NewLanguage(tsrust.Language()))
	tree := p.Parse(src, nil)
	var walk func(n *sitter.Node, d int, field string)
	walk = func(n *sitter.Node, d int, field string) {
		pre := ""
		for i := 0; i < d; i++ {
			pre += "  "
		}
		txt := ""
		if n.ChildCount() == 0 || n.NamedChildCount() == 0 {
			txt = " " + string(src[n.StartByte():n.EndByte()])
		}
		if field != "" {
			field += ": "
		}
		if n.IsNamed() {
			t.Logf("%s%s%s%s", pre, field, n.Kind(), txt)
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i), d+1, n.FieldNameForChild(uint32(i)))
		}
	}
	walk(tree.RootNode(), 0, "")
}
