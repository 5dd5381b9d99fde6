package javascript

import (
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

func BenchmarkZZExtract(b *testing.B) {
	root := os.Getenv("Q")
	if root == "" {
		b.Skip()
	}
	type pf struct {
		path, g string
		src     []byte
		tree    *sitter.Tree
	}
	var files []pf
	var bytes int
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !extract.Supported(p) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		src, _ := os.ReadFile(p)
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
		files = append(files, pf{filepath.ToSlash(rel), g, src, pr.Parse(src, nil)})
		bytes += len(src)
		return nil
	})
	repo := extract.NewRepo(root)
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			r := &extract.FileResult{Path: f.path}
			run(&extract.File{Path: f.path, Src: f.src, Root: f.tree.RootNode(), Repo: repo}, r, f.g)
		}
	}
}
