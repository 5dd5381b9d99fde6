package extract

import (
	"path"
	"sort"
	"strings"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/knowing-dev/knowing/snapshot"
)

// Language describes one supported language.
type Language struct {
	Lang snapshot.Lang
	// Grammars maps a lower-case file extension to a grammar name.
	Grammars map[string]string
	// Extract fills r from the parsed file.
	Extract func(f *File, r *FileResult)
	// ImplicitSelf: a bare call inside a type may name a member of the
	// type (Java, C#, Ruby), so the resolver looks there first.
	ImplicitSelf bool
	// SelfNames are qualifiers that mean the current object.
	SelfNames []string
	// SuperNames are qualifiers that mean the parent class.
	SuperNames []string
	// FieldsCallable: fields are read through methods (Ruby attributes), so
	// a call may name a field.
	FieldsCallable bool
	// ChainByName: when a call chain ("call?:") breaks, its last call,
	// if the repository has one method of that name, gives the receiver,
	// and the call is not looked up by its name alone (C#: extension
	// methods and generic results break chains).
	ChainByName bool
	// TestName reports whether a callable with this name in a test file is
	// a test (TestX, test_x, ...). Nil: every callable in a test file is.
	TestName func(name string) bool
	// Pick, when set, may hand a file with one of this language's
	// extensions to another language: it returns that language and the
	// grammar (a key of the grammar table) to parse it with, or nil to
	// keep the file. It sees the repository (Repo.Parses) and the file's
	// source. C hands a .h header to C++ (see package cfamily).
	Pick func(r *Repo, path string, src []byte) (*Language, string)
	// Includes: files see the names of the files they #include,
	// transitively (C, C++), and a declaration without a body is one
	// symbol with its definition (see Symbol.Decl).
	Includes bool
}

var byExt = map[string]*Language{}
var byLang = map[snapshot.Lang]*Language{}

// Register adds a language. Language packages call it from init.
func Register(l *Language) {
	for ext := range l.Grammars {
		byExt[ext] = l
	}
	byLang[l.Lang] = l
}

// Extensions lists the file extensions knowing parses.
func Extensions() []string {
	var out []string
	for e := range byExt {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// Supported reports whether knowing parses files with this path's extension.
func Supported(p string) bool {
	lang, _ := langOf(p)
	return lang != nil
}

// langOf returns the language that parses files with p's extension, nil
// when none does, and the extension, lower-cased, as Grammars keys it.
func langOf(p string) (*Language, string) {
	ext := strings.ToLower(path.Ext(p))
	return byExt[ext], ext
}

// File is the input of a language extractor.
type File struct {
	Path string // relative, slash-separated
	Src  []byte
	Root *sitter.Node
	Repo *Repo
}

// grammars maps a grammar name, as Language.Grammars gives it, to the
// tree-sitter language it names.
var grammars = map[string]func() unsafe.Pointer{
	"go":         tsgo.Language,
	"python":     tspython.Language,
	"javascript": tsjs.Language,
	"typescript": tsts.LanguageTypescript,
	"tsx":        tsts.LanguageTSX,
	"rust":       tsrust.Language,
	"java":       tsjava.Language,
	"csharp":     tscsharp.Language,
	"ruby":       tsruby.Language,
	"c":          tsc.Language,
	"cpp":        tscpp.Language,
}

// grammar returns the tree-sitter language for a grammar name, nil for
// one it does not know.
func grammar(name string) *sitter.Language {
	if lang := grammars[name]; lang != nil {
		return sitter.NewLanguage(lang())
	}
	return nil
}
