package extract

import (
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// FileResult is what a language extractor finds in one file: symbols with
// their nesting, unresolved references out of them, and imports. The
// resolver turns the results of all files into the graph.
type FileResult struct {
	Path  string // slash-separated, relative to the repository root
	Lang  snapshot.Lang
	Flags snapshot.Flags
	Size  int64
	// ModTime (nanoseconds since the Unix epoch) and Hash
	// (snapshot.Fingerprint) stamp the bytes the result was extracted
	// from.
	ModTime int64
	Hash    uint64

	// Package is the qualified-name prefix of the file's symbols: a Go
	// import path, a Python module, a Java package, a Rust module path
	// ("cargo.core.compiler"), "" where the language has none (Ruby).
	Package string
	// Scope groups files whose top-level names see each other without an
	// import: the Go package, the Java package, the C# namespace. Empty
	// means the file alone (a Python or Rust module, a JS file).
	Scope string

	Symbols []Symbol
	Refs    []Ref
	Imports []Import
	// Includes are the files a C or C++ file #includes, as written
	// ("db/db_impl.h", "stdio.h"); the resolver finds them among the
	// repository's files (see Language.Includes).
	Includes []string
}

// Symbol is one declaration.
type Symbol struct {
	Name string
	// Qual is an extra dotted qualifier between the parent's qualified
	// name and Name, for declarations like Ruby's `class Jekyll::Page`.
	Qual   string
	Kind   snapshot.Kind
	Flags  snapshot.Flags
	Parent int32 // index of the enclosing symbol in Symbols, or -1
	// Receiver names the type a Go method (or a Rust impl item) belongs to
	// when it is declared outside the type's body; the resolver attaches
	// the symbol to that type of the same package.
	Receiver   string
	Start, End uint32 // 1-based lines
	Signature  string
	Doc        string
	// Type is the declared type of a field, variable or constant, or the
	// result type of a function, as written (last identifier, or dotted).
	Type string
	// Extends and Implements name base types as written.
	Extends    []string
	Implements []string
	// Body and Text are a callable's body words (body.go): the distinct
	// identifiers its code uses, and the distinct words of its string
	// literals and comments, space-separated, in source order.
	Body, Text string
	// Commits are the window's commits that changed the symbol (indexes,
	// newest first) and History their subjects, newest first, capped
	// (history.go).
	Commits []int32
	History string
	// Decl marks a declaration without a body: a C or C++ prototype, a
	// method declared in its class and defined outside it. When the
	// repository defines the same qualified name, the resolver keeps the
	// definition alone, with the declaration's doc when it has none of its
	// own (see Language.Includes).
	Decl bool
}

// RefKind says what a reference does.
type RefKind uint8

const (
	RefCall     RefKind = iota // a call of Name
	RefType                    // a use of type Name (field type, composite literal, cast)
	RefTypeHint                // Name is a parameter or result type of the enclosing function
)

// Ref is an unresolved reference from a symbol to a name.
type Ref struct {
	From int32 // enclosing symbol index, or -1 for file level
	Kind RefKind
	Name string // the referenced identifier
	// Qual is the qualifier as written, dotted: "" for a bare call,
	// "self", "this", "super", an import alias, a type name, a variable,
	// or a chain "s.srv".
	Qual string
	// QualType is the type of the first element of Qual when the extractor
	// knows it (a typed local, a parameter, a receiver).
	QualType string
	Line     uint32
}

// CallOrName starts a QualType that is a call chain ("call?:T.f().g") the
// extractor cannot vouch for: when the chain leads the resolver to the
// method, as with "call:", that is the call; when it does not (a result
// type outside the repository or not declared, a method it does not
// see), the call is resolved as if its receiver were unknown (by name),
// as it was before chains were followed.
const CallOrName = "call?:"

// OrName turns a "call:" QualType into its CallOrName form; any other
// QualType is returned as it is.
func OrName(qt string) string {
	if t, ok := strings.CutPrefix(qt, "call:"); ok {
		return CallOrName + t
	}
	return qt
}

// Import is one imported module or name.
type Import struct {
	// Path is the module as a key the resolver can match against the
	// Package of files: a Go import path, a dotted Python/Java/Rust module.
	Path string
	// Name is the imported member, when a single name is imported
	// (`from a import B`, `use a::B`, `import a.B`), else "".
	Name string
	// Alias is the local name bound by the import ("" means the default:
	// Name, or the last element of Path).
	Alias string
}

// LocalName is the name the import binds in the file.
func (im Import) LocalName() string {
	if im.Alias != "" {
		return im.Alias
	}
	if im.Name != "" {
		return im.Name
	}
	p := im.Path
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '.' {
			return p[i+1:]
		}
	}
	return p
}
