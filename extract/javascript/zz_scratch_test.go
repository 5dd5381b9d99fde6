package javascript

import (
	"fmt"
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

func TestScratchSexp(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("SNIP"))
	if err != nil {
		t.Skip()
	}
	p := sitter.NewParser()
	switch os.Getenv("G") {
	case "ts":
		p.SetLanguage(sitter.NewLanguage(tsts.LanguageTypescript()))
	case "tsx":
		p.SetLanguage(sitter.NewLanguage(tsts.LanguageTSX()))
	default:
		p.SetLanguage(sitter.NewLanguage(tsjs.Language()))
	}
	tree := p.Parse(src, nil)
	fmt.Println(tree.RootNode().ToSexp())
}
