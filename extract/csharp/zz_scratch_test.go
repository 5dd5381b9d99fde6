package csharp

import (
	"github.com/knowing-dev/knowing/extract"
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
)

func TestZZDump(t *testing.T) {
	p := os.Getenv("CS_DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	ps := sitter.NewParser()
	defer ps.Close()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	tree := ps.Parse(src, nil)
	var dump func(n *sitter.Node, field string, depth int)
	dump = func(n *sitter.Node, field string, depth int) {
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
		if n.IsNamed() {
			t.Logf("%s%s%s%s", pad, field, n.Kind(), txt)
		} else {
			t.Logf("%s%s'%s'", pad, field, n.Kind())
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			dump(n.Child(i), n.FieldNameForChild(uint32(i)), depth+1)
		}
	}
	dump(tree.RootNode(), "", 0)
}

func TestZZExtract(t *testing.T) {
	p := os.Getenv("CS_EXTRACT")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	ps := sitter.NewParser()
	defer ps.Close()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	tree := ps.Parse(src, nil)
	r := &extract.FileResult{Path: "x.cs"}
	extractCSharp(&extract.File{Path: "x.cs", Src: src, Root: tree.RootNode(), Repo: extract.NewRepo("/tmp/nonexist")}, r)
	t.Logf("package %q scope %q", r.Package, r.Scope)
	for _, im := range r.Imports {
		t.Logf("import %+v", im)
	}
	for i, s := range r.Symbols {
		t.Logf("sym %d %s %s parent=%d type=%q ext=%v impl=%v flags=%v L%d-%d sig=%q doc=%q", i, s.Kind, s.Name, s.Parent, s.Type, s.Extends, s.Implements, s.Flags, s.Start, s.End, s.Signature, s.Doc)
	}
	for _, rf := range r.Refs {
		from := "-"
		if rf.From >= 0 {
			from = r.Symbols[rf.From].Name
		}
		t.Logf("ref %s kind=%d name=%s qual=%q qtype=%q L%d", from, rf.Kind, rf.Name, rf.Qual, rf.QualType, rf.Line)
	}
}
