package javascript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

func TestZZFile(t *testing.T) {
	root, p := os.Getenv("Q"), os.Getenv("QP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(filepath.Join(root, p))
	pr := sitter.NewParser()
	g := "javascript"
	switch {
	case strings.HasSuffix(p, ".tsx"):
		pr.SetLanguage(sitter.NewLanguage(tsts.LanguageTSX()))
		g = "tsx"
	case strings.HasSuffix(p, ".ts"):
		pr.SetLanguage(sitter.NewLanguage(tsts.LanguageTypescript()))
		g = "typescript"
	default:
		pr.SetLanguage(sitter.NewLanguage(tsjs.Language()))
	}
	tree := pr.Parse(src, nil)
	r := &extract.FileResult{Path: p}
	run(&extract.File{Path: p, Src: src, Root: tree.RootNode(), Repo: extract.NewRepo(root)}, r, g)
	fmt.Println("package", r.Package)
	for i, s := range r.Symbols {
		fmt.Printf("SYM %d %s %s parent=%d qual=%s type=%q ext=%v impl=%v flags=%v L%d\n", i, s.Kind, s.Name, s.Parent, s.Qual, s.Type, s.Extends, s.Implements, s.Flags, s.Start)
	}
	for _, im := range r.Imports {
		fmt.Printf("IMP %+v\n", im)
	}
	if os.Getenv("REFS") != "" {
		for _, rf := range r.Refs {
			fmt.Printf("REF from=%d k=%d %s | %s | %s L%d\n", rf.From, rf.Kind, rf.Name, rf.Qual, rf.QualType, rf.Line)
		}
	}
}
