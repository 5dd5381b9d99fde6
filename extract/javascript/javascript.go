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
	js := &extract.Language{
		Lang: snapshot.LangJavaScript,
		Grammars: map[string]string{
			".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
		},
		Extract:    extractJS,
		SelfNames:  []string{"this"},
		SuperNames: []string{"super"},
		TestName:   TestName,
		// A property holding a function is called like a method
		// (this.handler = fn; onClick: () => void; get!: HandlerInterface).
		FieldsCallable: true,
	}
	ts := &extract.Language{
		Lang: snapshot.LangTypeScript,
		Grammars: map[string]string{
			".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
		},
		Extract:        extractTS,
		SelfNames:      []string{"this"},
		SuperNames:     []string{"super"},
		TestName:       TestName,
		FieldsCallable: true,
	}
	extract.Register(js)
	extract.Register(ts)
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
	r    *extract.FileResult
	t    *extract.FlatTree
	g    *grammarInfo
	rc   *repoCache
	path string
	dir  string
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
// (extract.FlatTree): one cgo call copies every node, and walking the copy
// crosses into C no more. Nodes are indices into the flat tree, -1 is none.

func run(f *extract.File, r *extract.FileResult, g *grammarInfo) {
	t := extract.NewFlatTree(f.Root, f.Src, g.names)
	defer t.Release()
	x := &extractor{
		r: r, t: t, g: g,
		rc: cacheFor(f.Repo), path: f.Path, dir: path.Dir(f.Path),
		test:     r.Flags&snapshot.FlagTest != 0 || extract.IsTestPath(f.Path),
		js:       g.js,
		scopes:   []scope{{}},
		topNames: map[string]int32{},
		retSym:   -1,
	}
	if x.dir == "." {
		x.dir = ""
	}
	r.Package, r.Scope = PackageOf(f.Path), ""
	const root = 0
	x.statements(root, -1)
	x.finish()
}

// ---------------------------------------------------------------- helpers

// kind is the code of node n (kOther for -1).
func (x *extractor) kind(n int32) uint8 { return x.g.kind(x.t, n) }

// text is the source text of n ("" for -1).
func (x *extractor) text(n int32) string { return x.t.Text(n) }

// field is the child of n in field id, or -1 (n may be -1).
func (x *extractor) field(n int32, id uint16) int32 { return x.t.Field(n, id) }

// first is the first named child of n, or -1 (n may be -1); with next it
// walks the named children: for c := x.first(n); c >= 0; c = x.next(c).
func (x *extractor) first(n int32) int32 { return x.t.FirstNamed(n) }

// next is the next named sibling of n, or -1.
func (x *extractor) next(n int32) int32 { return x.t.NextNamed(n) }

// firstKid is the first named child that is not a comment, or -1.
func (x *extractor) firstKid(n int32) int32 {
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) != kComment {
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
	for c := x.t.FirstChild(n); c >= 0; c = x.t.N[c].Next {
		if !x.t.N[c].Named && x.kind(c) == k {
			return true
		}
	}
	return false
}

func (x *extractor) add(s extract.Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
}

func (x *extractor) ref(from int32, k extract.RefKind, name, qual, qt string, n int32) {
	x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: k, Name: name, Qual: qual, QualType: qt, Line: x.t.Line(n)})
}

func (x *extractor) doc(n int32) string {
	return x.t.PrecedingComments(n, "//")
}

// sig is the signature of n: its text up to body (-1: all of it).
func (x *extractor) sig(n, body int32) string { return x.t.Signature(n, body) }

// declSymbol is the symbol of a type-like declaration spanning outer, with
// its doc comment and its signature up to body.
func (x *extractor) declSymbol(kind snapshot.Kind, name string, parent int32, flags snapshot.Flags, outer, body int32) extract.Symbol {
	return extract.Symbol{
		Name: name, Kind: kind, Parent: parent, Flags: flags,
		Start: x.t.Line(outer), End: x.t.EndLine(outer),
		Signature: x.sig(outer, body), Doc: x.doc(outer),
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
	switch x.kind(n) {
	case kPropertyIdentifier, kIdentifier, kNumber, kShorthandProp, kTypeIdentifier:
		return x.text(n)
	case kString:
		return unquote(x.text(n))
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
		switch x.kind(n) {
		case kParen, kAwait, kNonNull, kAs:
			n = x.firstKid(n)
		case kTypeAssertion:
			last := x.t.LastNamed(n)
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
		switch x.kind(n) {
		case kParen, kNonNull:
			n = x.firstKid(n)
		case kInstantiation:
			if f := x.field(n, x.g.fFunction); f >= 0 {
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
	switch x.kind(n) {
	case kIdentifier, kThis, kSuper, kPropertyIdentifier, kTypeIdentifier:
		return x.text(n)
	case kNestedIdentifier, kNestedTypeIdentifier:
		return strings.Join(strings.Fields(x.text(n)), "")
	case kMember:
		left := x.chain(x.callee(x.field(n, x.g.fObject)))
		if left == "" {
			return ""
		}
		p := x.field(n, x.g.fProperty)
		if p < 0 {
			return ""
		}
		return left + "." + x.text(p)
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
