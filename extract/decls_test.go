package extract

import (
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func TestOfKind(t *testing.T) {
	src := []byte("package p\n\nimport \"a\"\n\nfunc F() {}\n\nimport \"b\"\n\nfunc G() {}\n")
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(grammar("go")); err != nil {
		t.Fatal(err)
	}
	tree := ParseSource(p, src)
	defer tree.Close()
	ft := NewFlatTree(tree.RootNode(), src, KindNames(grammar("go")))
	defer ft.Release()
	var got []string
	for c := range ft.OfKind(0, "function_declaration") {
		got = append(got, ft.Text(c))
	}
	if strings.Join(got, "|") != "func F() {}|func G() {}" {
		t.Errorf("function declarations: %q", got)
	}
	for c := range ft.OfKind(0, "import_declaration") {
		if ft.Text(c) != `import "a"` {
			t.Errorf("first import: %q", ft.Text(c))
		}
		break
	}
	for range ft.OfKind(-1, "function_declaration") {
		t.Error("a child of no node")
	}
	body := grammar("go").FieldIdForName("body")
	for c := range ft.OfKind(0, "function_declaration") {
		if head := string(src[ft.N[c].Start:ft.HeadEnd(c, ft.Field(c, body))]); head != "func F() " {
			t.Errorf("head %q", head)
		}
		if all := string(src[ft.N[c].Start:ft.HeadEnd(c, -1)]); all != "func F() {}" {
			t.Errorf("head without a body %q", all)
		}
		if line := ft.TextLine(0); line != `package p import "a" func F() {} import "b" func G() {}` {
			t.Errorf("TextLine %q", line)
		}
		if ft.TextLine(-1) != "" {
			t.Error("TextLine of no node")
		}
		break
	}
}

func TestStartsUpper(t *testing.T) {
	for s, want := range map[string]bool{"Foo": true, "foo": false, "": false, "_Foo": false, "Élan": false} {
		if StartsUpper(s) != want {
			t.Errorf("StartsUpper(%q) = %v", s, !want)
		}
	}
}

func TestOneLineAndCap(t *testing.T) {
	src := []byte("  public void\n\tf(int a,\n   int b) { }")
	end := uint32(strings.Index(string(src), " {"))
	if got := OneLine(src, 2, end); got != "public void f(int a, int b)" {
		t.Errorf("OneLine = %q", got)
	}
	if OneLine(src, 5, 4) != "" || OneLine(src, 0, uint32(len(src)+1)) != "" {
		t.Error("OneLine of a span outside src is not empty")
	}
	long := strings.Repeat("x", 300)
	if got := CapSignature(long); got != long[:240]+"…" {
		t.Errorf("CapSignature of 300 bytes is %d bytes", len(got))
	}
	if got := CapSignature(long[:240]); got != long[:240] {
		t.Error("CapSignature cut a signature of 240 bytes")
	}
}
