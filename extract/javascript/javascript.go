// Package javascript extracts symbols and references from JavaScript and
// TypeScript (with JSX/TSX) for knowing's code graph.
//
// Every file is a module of its own (Scope ""), named by its path: the path
// without extension, "/" → ".", an index file naming its folder
// ("src/router/index.ts" → "src.router"). Imports — ES imports and
// re-exports, CommonJS require, TypeScript `import x = require()` — are
// resolved the way Node and TypeScript resolve them (relative paths with
// implied extensions and index files, tsconfig path aliases, barrels'
// re-exports) into that same key space, so the resolver can follow them.
// Methods put on prototypes (also through an alias or Object.assign) and
// on a plugin's parameters, and the functions of module-level object
// literals, are symbols too (prototypes.go).
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package javascript

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	// JavaScript and TypeScript differ in their grammars alone.
	language := func(l snapshot.Lang, grammars map[string]string, fn func(*extract.File, *extract.FileResult)) *extract.Language {
		return &extract.Language{
			Lang: l, Grammars: grammars, Extract: fn,
			SelfNames:  []string{"this"},
			SuperNames: []string{"super"},
			TestName:   TestName,
			// A property holding a function is called like a method
			// (this.handler = fn; onClick: () => void; get!: HandlerInterface).
			FieldsCallable: true,
		}
	}
	extract.Register(language(snapshot.LangJavaScript, map[string]string{
		".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	}, extractJS))
	extract.Register(language(snapshot.LangTypeScript, map[string]string{
		".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
	}, extractTS))
}

// TestName accepts the callables of a test file as tests (describe/it
// blocks and helpers alike), except test doubles.
func TestName(name string) bool {
	return !extract.IsMockName(name)
}

func extractJS(f *extract.File, r *extract.FileResult) { run(f, r, jsGrammar()) }

func extractTS(f *extract.File, r *extract.FileResult) {
	g := tsGrammar
	if strings.HasSuffix(strings.ToLower(f.Path), ".tsx") {
		g = tsxGrammar
	}
	run(f, r, g())
}

// Binding kinds of a name in a scope.
const (
	bLocal    uint8 = iota // a parameter or variable (not a symbol)
	bSymbol                // a function or class symbol of this file
	bImport                // imported from a module of the repository
	bExternal              // imported from a package outside it
	bModule                // a module of the repository imported as a whole
)

type binding struct {
	typ  string // type name, "call:..." hint, extValue, or ""
	kind uint8
	// param marks a parameter of the function whose scope holds it.
	param bool
	// proto is the chain whose prototype a variable holds (Clock for
	// const proto = Clock.prototype); see prototypes.go.
	proto string
}

// extValue types a local holding a value made by an external package
// (new ext.Client(), await ext.load()): its methods are not the
// repository's.
const extValue = "!ext"

// symType is a type fit for Symbol.Type (no hints).
func symType(t string) string {
	if strings.HasPrefix(t, "call:") || t == extValue {
		return ""
	}
	return t
}

type scope map[string]binding

type extractor struct {
	extract.Base
	g    *grammarInfo
	rc   *repoCache
	dir  string // the file's folder, "" the root
	test bool

	scopes     []scope
	typeParams []string
	js         bool              // JavaScript (types come from JSDoc)
	docParams  map[string]string // JSDoc @param types of the function being declared
	retSym     int32             // the function whose own body is walked, for return types
	topNames   map[string]int32  // top-level symbol → index
	exported   []string          // names exported by a separate statement
	deferred   []extract.Ref     // callbacks named before their declaration
	cls        *classCtx
}

type classCtx struct {
	id        int32
	members   map[string]bool
	pending   []pendingField // fields found in method bodies (this.x = …) and parameter properties
	pendingAt map[string]int // name → index in pending, for this.x = … fields
	thisRefs  []int          // indices in Refs of this.m() calls
	cbRefs    []int          // indices in Refs of this.m passed as a callback
	methods   map[string]bool
}

type pendingField struct {
	name, typ string
	line      uint32
	sig       string
	private   bool
}

// The extractor reads a file's tree flattened into Go memory
// (extract.FlatTree, through extract.Base): one cgo call copies every node,
// and walking the copy crosses into C no more. Nodes are indices into the
// flat tree, -1 is none; x.Code(n) is the node's kind as one of the codes
// of kinds.go.

func run(f *extract.File, r *extract.FileResult, g *grammarInfo) {
	x := &extractor{
		Base:     extract.Base{FlatTree: extract.NewFlatTree(f.Root, f.Src, g.names), F: f, R: r, Codes: g.codes},
		g:        g,
		rc:       cacheFor(f.Repo),
		dir:      path.Dir(f.Path),
		test:     r.Flags&snapshot.FlagTest != 0 || extract.IsTestPath(f.Path),
		js:       g.js,
		scopes:   []scope{{}},
		topNames: map[string]int32{},
		retSym:   -1,
	}
	defer x.Release()
	if x.dir == "." {
		x.dir = ""
	}
	r.Package, r.Scope = PackageOf(f.Path), ""
	const root = 0
	x.statements(root, -1)
	x.finish()
}

// ---------------------------------------------------------------- helpers

// firstKid is the first named child that is not a comment, or -1.
func (x *extractor) firstKid(n int32) int32 {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) != kComment {
			return c
		}
	}
	return -1
}

// hasToken reports an anonymous child token of kind k (static, async, …).
func (x *extractor) hasToken(n int32, k uint8) bool {
	if n < 0 {
		return false
	}
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		if !x.N[c].Named && x.Code(c) == k {
			return true
		}
	}
	return false
}

func (x *extractor) ref(from int32, k extract.RefKind, name, qual, qt string, n int32) {
	x.AddRef(extract.Ref{From: from, Kind: k, Name: name, Qual: qual, QualType: qt, Line: x.Line(n)})
}

func (x *extractor) doc(n int32) string {
	return x.PrecedingComments(n, "//")
}

// declSymbol is the symbol of a type-like declaration spanning outer, with
// its doc comment and its signature up to body.
func (x *extractor) declSymbol(kind snapshot.Kind, name string, parent int32, flags snapshot.Flags, outer, body int32) extract.Symbol {
	return extract.Symbol{
		Name: name, Kind: kind, Parent: parent, Flags: flags,
		Start: x.Line(outer), End: x.EndLine(outer),
		Signature: x.Signature(outer, body), Doc: x.doc(outer),
	}
}

func (x *extractor) push() { x.scopes = append(x.scopes, nil) }
func (x *extractor) pop()  { x.scopes = x.scopes[:len(x.scopes)-1] }

func (x *extractor) bind(name string, b binding) {
	if name == "" {
		return
	}
	i := len(x.scopes) - 1
	if x.scopes[i] == nil {
		x.scopes[i] = scope{}
	}
	x.scopes[i][name] = b
}

func (x *extractor) bindFile(name string, b binding) {
	x.scopes[0][name] = b
}

func (x *extractor) lookup(name string) (binding, bool) {
	for i := len(x.scopes) - 1; i >= 0; i-- {
		if b, ok := x.scopes[i][name]; ok {
			return b, true
		}
	}
	return binding{}, false
}

// setType records the type of an existing variable (x = new Foo()).
func (x *extractor) setType(name, typ string) {
	for i := len(x.scopes) - 1; i >= 0; i-- {
		if b, ok := x.scopes[i][name]; ok {
			if b.kind == bLocal && typ != "" {
				b.typ = typ
				x.scopes[i][name] = b
			}
			return
		}
	}
}

// propName is the name of a property key: identifier, string or number.
func (x *extractor) propName(n int32) string {
	switch x.Code(n) {
	case kPropertyIdentifier, kIdentifier, kNumber, kShorthandProp, kTypeIdentifier:
		return x.Text(n)
	case kString:
		return unquote(x.Text(n))
	}
	return ""
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// unwrap strips parentheses, `await`, `!` and type assertions from a value.
func (x *extractor) unwrap(n int32) int32 {
	for n >= 0 {
		switch x.Code(n) {
		case kParen, kAwait, kNonNull, kAs:
			n = x.firstKid(n)
		case kTypeAssertion:
			last := x.LastNamed(n)
			if last < 0 {
				return n
			}
			n = last
		default:
			return n
		}
	}
	return n
}

// callee strips parentheses, `!` and explicit type arguments from a callee.
func (x *extractor) callee(n int32) int32 {
	for n >= 0 {
		switch x.Code(n) {
		case kParen, kNonNull:
			n = x.firstKid(n)
		case kInstantiation:
			if f := x.Field(n, x.g.fFunction); f >= 0 {
				n = f
			} else {
				n = x.firstKid(n)
			}
		default:
			return n
		}
	}
	return n
}

// chain renders a.b.c for identifiers, this, super and property accesses,
// or "" for anything else.
func (x *extractor) chain(n int32) string {
	switch x.Code(n) {
	case kIdentifier, kThis, kSuper, kPropertyIdentifier, kTypeIdentifier:
		return x.Text(n)
	case kNestedIdentifier, kNestedTypeIdentifier:
		return strings.Join(strings.Fields(x.Text(n)), "")
	case kMember:
		left := x.chain(x.callee(x.Field(n, x.g.fObject)))
		if left == "" {
			return ""
		}
		p := x.Field(n, x.g.fProperty)
		if p < 0 {
			return ""
		}
		return left + "." + x.Text(p)
	case kParen, kNonNull:
		return x.chain(x.firstKid(n))
	}
	return ""
}

func firstPart(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return s
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// slug turns a test description into a name: "handles /x" → "handles_x".
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range s {
		if r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			if b.Len() >= 80 {
				break
			}
		} else {
			under = true
		}
	}
	if b.Len() == 0 {
		return "test"
	}
	return b.String()
}
