package csharp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

func TestZZBases(t *testing.T) {
	root := os.Getenv("CS_TIMING")
	if root == "" {
		t.Skip()
	}
	ps := sitter.NewParser()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	repo := extract.NewRepo(root)
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if !strings.HasSuffix(p, ".cs") {
			return nil
		}
		src, _ := os.ReadFile(p)
		tree := ps.Parse(src, nil)
		defer tree.Close()
		rel, _ := filepath.Rel(root, p)
		r := &extract.FileResult{Path: rel}
		extractCSharp(&extract.File{Path: rel, Src: src, Root: tree.RootNode(), Repo: repo}, r)
		for _, s := range r.Symbols {
			for _, b := range s.Extends {
				t.Logf("EXT %s %s", s.Name, b)
				n++
			}
			for _, b := range s.Implements {
				t.Logf("IMPL %s %s", s.Name, b)
				n++
			}
		}
		return nil
	})
	t.Logf("total %d", n)
}
