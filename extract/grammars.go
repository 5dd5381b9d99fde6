package extract

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// grammar returns the tree-sitter language for a grammar name.
func grammar(name string) *sitter.Language {
	switch name {
	case "go":
		return sitter.NewLanguage(tsgo.Language())
	case "python":
		return sitter.NewLanguage(tspython.Language())
	case "javascript":
		return sitter.NewLanguage(tsjs.Language())
	case "typescript":
		return sitter.NewLanguage(tsts.LanguageTypescript())
	case "tsx":
		return sitter.NewLanguage(tsts.LanguageTSX())
	case "rust":
		return sitter.NewLanguage(tsrust.Language())
	case "java":
		return sitter.NewLanguage(tsjava.Language())
	case "csharp":
		return sitter.NewLanguage(tscsharp.Language())
	case "ruby":
		return sitter.NewLanguage(tsruby.Language())
	}
	return nil
}
