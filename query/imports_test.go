package query_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports holds the package to its dependencies (doc.go): of the
// module, only snapshot, bm25, walk and csr, and never os (the library
// reads no environment).
func TestImports(t *testing.T) {
	const module = "github.com/knowing-dev/knowing/"
	allowed := map[string]bool{"snapshot": true, "bm25": true, "walk": true, "csr": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok && !allowed[rest] || p == "os" {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
