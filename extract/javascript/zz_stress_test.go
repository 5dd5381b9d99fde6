package javascript

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

func TestZZStress(t *testing.T) {
	root := os.Getenv("STRESS")
	if root == "" {
		t.Skip()
	}
	repo := extract.NewRepo(root)
	n, syms, refs := 0, 0, 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !extract.Supported(p) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		src, _ := os.ReadFile(p)
		pr := sitter.NewParser()
		defer pr.Close()
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
		defer tree.Close()
		r := &extract.FileResult{Path: filepath.ToSlash(rel)}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("%s: panic %v", rel, e)
				}
			}()
			run(&extract.File{Path: r.Path, Src: src, Root: tree.RootNode(), Repo: repo}, r, g)
		}()
		for i, s := range r.Symbols {
			if s.Parent >= int32(i) {
				t.Errorf("%s: parent after child %v", rel, s)
			}
			if s.Name == "" {
				t.Errorf("%s: empty name %+v", rel, s)
			}
		}
		for _, rf := range r.Refs {
			if rf.From >= int32(len(r.Symbols)) || rf.Name == "" {
				t.Errorf("%s: bad ref %+v", rel, rf)
			}
		}
		n++
		syms += len(r.Symbols)
		refs += len(r.Refs)
		return nil
	})
	fmt.Println("files", n, "symbols", syms, "refs", refs)
}
