package python

import (
	"fmt"
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

func TestScratchSexp(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("SNIP"))
	p := sitter.NewParser()
	p.SetLanguage(sitter.NewLanguage(tspython.Language()))
	tree := p.Parse(src, nil)
	fmt.Println(tree.RootNode().ToSexp())
}
