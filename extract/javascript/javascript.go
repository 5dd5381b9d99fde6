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

	sitter "github.com/tree-sitter/go-tree-sitter"

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
	}
	ts := &extract.Language{
		Lang: snapshot.LangTypeScript,
		Grammars: map[string]string{
			".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
		},
		Extract:    extractTS,
		SelfNames:  []string{"this"},
		SuperNames: []string{"super"},
		TestName:   TestName,
	}
	extract.Register(js)
	extract.Register(ts)
}

// TestName accepts the callables of a test file as tests (describe/it
// blocks and helpers alike), except test doubles.
func TestName(name string) bool {
	return !extract.IsMockName(name)
}

func extractJS(f *extract.File, r *extract.FileResult) { run(f, r, "javascript") }

func extractTS(f *extract.File, r *extract.FileResult) {
	g := "typescript"
	if strings.HasSuffix(strings.ToLower(f.Path), ".tsx") {
		g = "tsx"
	}
	run(f, r, g)
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
	f    *extract.File
	r    *extract.FileResult
	g    *grammarInfo
	cur  *sitter.TreeCursor
	rc   *repoCache
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
	id       int32
	members  map[string]bool
	methods  map[string]bool
	pending  []pendingField
	thisRefs []int // indices in Refs of this.m() calls
}

type pendingField struct {
	name, typ string
	line      uint32
	sig       string
	private   bool
}

func run(f *extract.File, r *extract.FileResult, grammar string) {
	x := &extractor{
		f: f, r: r, g: grammarFor(grammar, f.Root), cur: f.Root.Walk(),
		rc: cacheFor(f.Repo), dir: path.Dir(f.Path),
		test:     r.Flags&snapshot.FlagTest != 0 || extract.IsTestPath(f.Path),
		js:       grammar == "javascript",
		scopes:   []scope{{}},
		topNames: map[string]int32{},
		retSym:   -1,
	}
	defer x.cur.Close()
	if x.dir == "." {
		x.dir = ""
	}
	r.Package, r.Scope = PackageOf(f.Path), ""
	x.statements(f.Root, -1)
	x.finish()
}

// ---------------------------------------------------------------- helpers

func (x *extractor) kind(n *sitter.Node) uint8 { return x.g.kind(n) }

func (x *extractor) text(n *sitter.Node) string { return x.f.Text(n) }

func (x *extractor) field(n *sitter.Node, id uint16) *sitter.Node {
	if n == nil || id == 0 {
		return nil
	}
	return n.ChildByFieldId(id)
}

// kids returns the named children of n.
func (x *extractor) kids(n *sitter.Node) []sitter.Node {
	if n == nil {
		return nil
	}
	cnt := n.NamedChildCount()
	if cnt == 0 {
		return nil
	}
	if cnt <= 8 {
		// Indexed access costs one call per child; its log(i) walk is
		// cheap for short lists.
		out := make([]sitter.Node, 0, cnt)
		for i := uint(0); i < cnt; i++ {
			if k := n.NamedChild(i); k != nil {
				out = append(out, *k)
			}
		}
		return out
	}
	c := x.cur
	c.Reset(*n)
	if !c.GotoFirstChild() {
		return nil
	}
	out := make([]sitter.Node, 0, 4)
	for {
		nd := c.Node()
		if x.g.isNamed(nd) {
			out = append(out, *nd)
		}
		if !c.GotoNextSibling() {
			break
		}
	}
	return out
}

// firstKid is the first named child that is not a comment.
func (x *extractor) firstKid(n *sitter.Node) *sitter.Node {
	for _, k := range x.kids(n) {
		if x.kind(&k) != kComment {
			k := k
			return &k
		}
	}
	return nil
}

// hasToken reports an anonymous child token of kind k (static, async, …).
func (x *extractor) hasToken(n *sitter.Node, k uint8) bool {
	c := x.cur
	c.Reset(*n)
	if !c.GotoFirstChild() {
		return false
	}
	for {
		if nd := c.Node(); x.g.kind(nd) == k && !x.g.isNamed(nd) {
			return true
		}
		if !c.GotoNextSibling() {
			return false
		}
	}
}

func (x *extractor) add(s extract.Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
}

func (x *extractor) ref(from int32, k extract.RefKind, name, qual, qt string, n *sitter.Node) {
	x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: k, Name: name, Qual: qual, QualType: qt, Line: extract.Line(n)})
}

func (x *extractor) doc(n *sitter.Node) string {
	return extract.PrecedingComments(x.f, n, "//")
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
func (x *extractor) propName(n *sitter.Node) string {
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
func (x *extractor) unwrap(n *sitter.Node) *sitter.Node {
	for n != nil {
		switch x.kind(n) {
		case kParen, kAwait, kNonNull, kAs:
			n = x.firstKid(n)
		case kTypeAssertion:
			ks := x.kids(n)
			if len(ks) == 0 {
				return n
			}
			k := ks[len(ks)-1]
			n = &k
		default:
			return n
		}
	}
	return n
}

// callee strips parentheses, `!` and explicit type arguments from a callee.
func (x *extractor) callee(n *sitter.Node) *sitter.Node {
	for n != nil {
		switch x.kind(n) {
		case kParen, kNonNull:
			n = x.firstKid(n)
		case kInstantiation:
			if f := x.field(n, x.g.fFunction); f != nil {
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
func (x *extractor) chain(n *sitter.Node) string {
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
		if p == nil {
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

// ------------------------------------------------------------- statements

// statements handles the statements of a module body (the program, a
// namespace body, the body of a top-level IIFE): declarations there are
// symbols with the given parent.
func (x *extractor) statements(n *sitter.Node, parent int32) {
	kids := x.kids(n)
	for i := range kids {
		c := &kids[i]
		if k := x.kind(c); k == kFunctionSig || k == kExport && x.kind(x.field(c, x.g.fDeclaration)) == kFunctionSig {
			// An overload signature followed by its implementation.
			if i+1 < len(kids) && x.declName(c) != "" && x.declName(c) == x.declName(&kids[i+1]) {
				continue
			}
		}
		x.statement(c, parent)
	}
}

// declName is the name a (possibly exported) function declaration declares.
func (x *extractor) declName(n *sitter.Node) string {
	if x.kind(n) == kExport {
		n = x.field(n, x.g.fDeclaration)
	}
	switch x.kind(n) {
	case kFunctionSig, kFunctionDecl:
		return x.text(x.field(n, x.g.fName))
	}
	return ""
}

func (x *extractor) statement(c *sitter.Node, parent int32) {
	switch x.kind(c) {
	case kExport:
		x.export(c, parent)
	case kImport:
		x.importStmt(c)
	case kExpressionStatement:
		inner := x.firstKid(c)
		if inner == nil {
			return
		}
		switch x.kind(inner) {
		case kNamespace:
			x.namespace(inner, c, parent, 0)
		case kAssign:
			if parent < 0 {
				x.topAssign(inner, c)
			} else {
				x.walk(inner, parent)
			}
		case kCall:
			if body := x.iife(inner); body != nil {
				x.walk(x.field(inner, x.g.fArguments), parent)
				fn := x.callee(x.field(inner, x.g.fFunction))
				x.params(fn, parent, extract.RefType, nil)
				x.statements(body, parent)
				return
			}
			x.walk(inner, parent)
		default:
			x.walk(inner, parent)
		}
	case kAmbient:
		for _, k := range x.kids(c) {
			switch x.kind(&k) {
			case kStatementBlock, kComment:
				// declare global { … }: typings, not declarations here.
			case kNamespace:
				if x.kind(x.field(&k, x.g.fName)) != kString {
					x.namespace(&k, c, parent, 0)
				}
			default:
				x.declaration(&k, c, parent, 0, "")
			}
		}
	case kStatementBlock:
		x.statements(c, parent)
	case kError:
		// A region the parser could not make sense of: declarations in it
		// are still declarations.
		x.statements(c, parent)
	case kComment:
	default:
		if !x.declaration(c, c, parent, 0, "") {
			x.walk(c, parent)
		}
	}
}

// iife returns the body of an immediately invoked function expression.
func (x *extractor) iife(call *sitter.Node) *sitter.Node {
	fn := x.callee(x.field(call, x.g.fFunction))
	if k := x.kind(fn); k == kFunctionExpr || k == kArrow {
		if b := x.field(fn, x.g.fBody); x.kind(b) == kStatementBlock {
			return b
		}
	}
	return nil
}

// declaration handles a declaration statement with its outer node (the
// export statement around it, for lines, doc and signature).
func (x *extractor) declaration(d, outer *sitter.Node, parent int32, flags snapshot.Flags, name string) bool {
	switch x.kind(d) {
	case kClassDecl, kClassExpr:
		x.class(d, outer, parent, flags, name)
	case kFunctionDecl, kFunctionExpr, kArrow:
		x.function(d, outer, parent, flags, name)
	case kFunctionSig:
		x.function(d, outer, parent, flags, name)
	case kLexicalDecl:
		x.varDecl(d, outer, parent, flags)
	case kInterface:
		x.iface(d, outer, parent, flags)
	case kTypeAlias:
		x.typeAlias(d, outer, parent, flags)
	case kEnum:
		x.enum(d, outer, parent, flags)
	case kNamespace:
		if x.kind(x.field(d, x.g.fName)) != kString {
			x.namespace(d, outer, parent, flags)
		}
	case kAmbient:
		for _, k := range x.kids(d) {
			x.declaration(&k, outer, parent, flags, "")
		}
	case kImport:
		x.importStmt(d)
	default:
		return false
	}
	return true
}

func (x *extractor) top(name string, id int32, parent int32) {
	if parent < 0 && name != "" {
		if _, ok := x.topNames[name]; !ok {
			x.topNames[name] = id
		}
	}
}

// function declares a function (declaration, expression or arrow bound to
// a name).
func (x *extractor) function(n, outer *sitter.Node, parent int32, flags snapshot.Flags, name string) int32 {
	if own := x.text(x.field(n, x.g.fName)); own != "" && (name == "" || x.kind(n) == kFunctionDecl || x.kind(n) == kFunctionSig) {
		name = own
	}
	if name == "" {
		x.fnBody(n, parent, extract.RefType)
		return -1
	}
	body := x.field(n, x.g.fBody)
	kind := snapshot.KindFunction
	if parent >= 0 {
		if pk := x.r.Symbols[parent].Kind; pk == snapshot.KindClass || pk == snapshot.KindInterface {
			kind = snapshot.KindMethod
		}
	}
	doc := x.doc(outer)
	id := x.add(extract.Symbol{
		Name: name, Kind: kind, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: doc,
		Type: x.typeName(x.field(n, x.g.fReturnType)),
	})
	x.jsdoc(id, doc)
	x.top(name, id, parent)
	if parent < 0 {
		x.bindFile(name, binding{kind: bSymbol})
	} else {
		x.bind(name, binding{kind: bSymbol})
	}
	x.fnBody(n, id, extract.RefTypeHint)
	return id
}

// fnBody handles the parameters, result type and body of a function-like
// node, in a new scope, attributing what it finds to from.
func (x *extractor) fnBody(n *sitter.Node, from int32, hint extract.RefKind) {
	savedRet := x.retSym
	x.retSym = -1
	if hint == extract.RefTypeHint {
		x.retSym = from
	}
	defer func() { x.retSym = savedRet }()
	x.push()
	tp := x.pushTypeParams(n)
	x.params(n, from, hint, nil)
	if rt := x.field(n, x.g.fReturnType); rt != nil {
		x.typeRefs(rt, from, hint)
	}
	if b := x.field(n, x.g.fBody); b != nil {
		x.walk(b, from)
	}
	x.typeParams = x.typeParams[:tp]
	x.pop()
}

// params binds the parameters of a function-like node in the current scope
// and records their types. props, when not nil, receives TypeScript
// parameter properties (constructor(private db: Db)).
func (x *extractor) params(fn *sitter.Node, from int32, hint extract.RefKind, props *[]pendingField) {
	doc := x.docParams
	x.docParams = nil
	if fn == nil {
		return
	}
	if p := x.field(fn, x.g.fParameter); p != nil {
		x.bind(x.text(p), binding{typ: doc[x.text(p)]})
		return
	}
	pl := x.field(fn, x.g.fParameters)
	if pl == nil {
		return
	}
	for _, p := range x.kids(pl) {
		p := p
		switch x.kind(&p) {
		case kIdentifier:
			x.bind(x.text(&p), binding{typ: doc[x.text(&p)]})
		case kParam:
			pat := x.field(&p, x.g.fPattern)
			if pat == nil {
				pat = x.field(&p, x.g.fName)
			}
			ann := x.field(&p, x.g.fType)
			typ := x.typeName(ann)
			val := x.field(&p, x.g.fValue)
			if typ == "" && val != nil {
				typ = x.inferType(val)
			}
			if x.kind(pat) == kIdentifier {
				if typ == "" {
					typ = doc[x.text(pat)]
				}
				x.bind(x.text(pat), binding{typ: typ})
				if props != nil && x.isParamProperty(&p) {
					*props = append(*props, pendingField{name: x.text(pat), typ: typ, line: extract.Line(&p),
						sig: extract.FirstLine(x.text(&p)), private: x.memberFlags(&p, "", true) == 0})
				}
			} else if pat != nil {
				x.bindPattern(pat)
				if x.kind(pat) == kObjectPattern {
					x.bindMemberTypes(pat, ann)
				}
			}
			if ann != nil {
				x.typeRefs(ann, from, hint)
			}
			if val != nil {
				x.walk(val, from)
			}
		case kAssignPattern:
			left, right := x.field(&p, x.g.fLeft), x.field(&p, x.g.fRight)
			if x.kind(left) == kIdentifier {
				typ := doc[x.text(left)]
				if typ == "" {
					typ = x.inferType(right)
				}
				x.bind(x.text(left), binding{typ: typ})
			} else {
				x.bindPattern(left)
			}
			x.walk(right, from)
		default:
			x.bindPattern(&p)
		}
	}
}

// bindMemberTypes types the names of a destructured parameter from an
// inline object type: ({ user }: { user: User }) binds user as User.
func (x *extractor) bindMemberTypes(pat, ann *sitter.Node) {
	t := x.firstKid(ann)
	if x.kind(t) != kObjectType {
		return
	}
	types := map[string]string{}
	for _, m := range x.kids(t) {
		if x.kind(&m) == kPropertySig {
			if tn := x.typeName(x.field(&m, x.g.fType)); tn != "" {
				types[x.propName(x.field(&m, x.g.fName))] = tn
			}
		}
	}
	for _, k := range x.kids(pat) {
		if x.kind(&k) == kShorthandPattern {
			if tn := types[x.text(&k)]; tn != "" {
				x.bind(x.text(&k), binding{typ: tn})
			}
		}
	}
}

// jsdoc takes the types a JavaScript function's JSDoc declares: @returns
// as the symbol's result type, @param for its parameters (used by params,
// which runs next).
func (x *extractor) jsdoc(id int32, doc string) {
	if !x.js || !strings.Contains(doc, "@") {
		return
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		tag, rest, _ := strings.Cut(line, " ")
		switch tag {
		case "@param", "@arg", "@argument":
			t, name := jsdocType(rest)
			name = strings.Trim(strings.TrimSpace(name), "[]")
			name, _, _ = strings.Cut(name, " ")
			name, _, _ = strings.Cut(name, "=")
			if t != "" && name != "" && !strings.Contains(name, ".") {
				if x.docParams == nil {
					x.docParams = map[string]string{}
				}
				x.docParams[name] = t
			}
		case "@returns", "@return":
			if t, _ := jsdocType(rest); t != "" && x.r.Symbols[id].Type == "" {
				x.r.Symbols[id].Type = t
			}
		case "@type":
			if t, _ := jsdocType(rest); t != "" && x.r.Symbols[id].Type == "" {
				x.r.Symbols[id].Type = t
			}
		}
	}
}

// jsdocType reads "{Type} rest": the class a JSDoc type names, if one.
func jsdocType(s string) (string, string) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return "", s
	}
	depth, end := 0, -1
	for i := 0; i < len(s); i++ {
		if s[i] == '{' {
			depth++
		} else if s[i] == '}' {
			depth--
			if depth == 0 {
				end = i
				break
			}
		}
	}
	if end < 0 {
		return "", ""
	}
	t, rest := strings.TrimSpace(s[1:end]), s[end+1:]
	if i := strings.LastIndex(t, ")."); i >= 0 && strings.HasPrefix(t, "import(") {
		t = t[i+2:] // import('./x').Foo
	}
	t = strings.Trim(t, "?!=")
	if strings.Contains(t, "|") {
		found := ""
		for _, alt := range strings.Split(t, "|") {
			alt = strings.Trim(strings.TrimSpace(alt), "()")
			if alt == "null" || alt == "undefined" || alt == "" {
				continue
			}
			if found != "" {
				return "", rest
			}
			found = alt
		}
		t = found
	}
	for _, w := range []string{"Promise<", "Array<", "Promise.<", "Array.<"} {
		if strings.HasPrefix(t, w) && strings.HasSuffix(t, ">") {
			t = t[len(w) : len(t)-1]
		}
	}
	t = strings.TrimSuffix(t, "[]")
	if t == "" || ident(t) != t && strings.Trim(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.") != "" {
		return "", rest
	}
	if builtinTypes[t] || !startsUpper(extract.LastPart(t)) {
		return "", rest // string, number, object, *, Object, Function…
	}
	return t, rest
}

// isParamProperty reports a constructor parameter that declares a field:
// constructor(private db: Db), constructor(readonly id: string).
func (x *extractor) isParamProperty(p *sitter.Node) bool {
	for _, k := range x.kids(p) {
		if x.kind(&k) == kAccessibility {
			return true
		}
	}
	return x.hasToken(p, kwReadonly)
}

// bindPattern binds every name a destructuring pattern declares.
func (x *extractor) bindPattern(n *sitter.Node) {
	if n == nil {
		return
	}
	switch x.kind(n) {
	case kIdentifier, kShorthandPattern:
		x.bind(x.text(n), binding{})
	case kPairPattern:
		x.bindPattern(x.field(n, x.g.fValue))
	case kAssignPattern:
		x.bindPattern(x.field(n, x.g.fLeft))
	case kObjectPattern, kArrayPattern, kRestPattern, kObjectAssignPattern:
		for _, k := range x.kids(n) {
			if x.kind(&k) == kObjectAssignPattern || x.kind(&k) != kComment {
				x.bindPatternKid(&k)
			}
		}
	}
}

func (x *extractor) bindPatternKid(k *sitter.Node) {
	switch x.kind(k) {
	case kIdentifier, kShorthandPattern, kPairPattern, kAssignPattern, kObjectPattern, kArrayPattern, kRestPattern:
		x.bindPattern(k)
	case kObjectAssignPattern:
		// {a = 1}: the first child is the name.
		if f := x.firstKid(k); f != nil {
			x.bindPattern(f)
		}
	}
}

// varDecl declares the variables of a module-level const/let/var: functions
// and classes bound to names become such symbols, require() calls imports.
func (x *extractor) varDecl(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	isConst := x.hasToken(n, kwConst)
	decls := x.kids(n)
	single := 0
	for i := range decls {
		if x.kind(&decls[i]) == kVarDeclarator {
			single++
		}
	}
	for i := range decls {
		d := &decls[i]
		if x.kind(d) != kVarDeclarator {
			continue
		}
		nameN, value, ann := x.field(d, x.g.fName), x.field(d, x.g.fValue), x.field(d, x.g.fType)
		span := outer
		if single > 1 {
			span = d
		}
		if x.requireDecl(nameN, value) {
			continue
		}
		if x.kind(nameN) != kIdentifier {
			x.bindPattern(nameN)
			x.walk(value, parent)
			continue
		}
		name := x.text(nameN)
		v := x.unwrap(value)
		switch x.kind(v) {
		case kArrow, kFunctionExpr:
			id := x.function(v, span, parent, flags, name)
			if id >= 0 && ann != nil {
				x.typeRefs(ann, id, extract.RefTypeHint)
			}
			continue
		case kClassExpr:
			x.class(v, span, parent, flags, name)
			continue
		case kCall:
			if fn := x.wrappedFunction(name, v); fn != nil {
				id := x.add(extract.Symbol{
					Name: name, Kind: snapshot.KindFunction, Parent: parent, Flags: flags,
					Start: extract.Line(span), End: extract.EndLine(span),
					Signature: extract.Signature(x.f, span, x.field(fn, x.g.fBody)), Doc: x.doc(outer),
				})
				x.top(name, id, parent)
				x.bindFile(name, binding{kind: bSymbol})
				if ann != nil {
					x.typeRefs(ann, id, extract.RefTypeHint)
				}
				x.walk(value, id)
				continue
			}
		}
		kind := snapshot.KindVariable
		if isConst {
			kind = snapshot.KindConstant
		}
		typ := x.typeName(ann)
		if typ == "" {
			typ = x.inferType(value)
		}
		stype := symType(typ)
		doc := x.doc(outer)
		id := x.add(extract.Symbol{
			Name: name, Kind: kind, Parent: parent, Flags: flags,
			Start: extract.Line(span), End: extract.EndLine(span),
			Signature: extract.FirstLine(x.text(span)), Doc: doc, Type: stype,
		})
		if stype == "" && x.js {
			x.jsdoc(id, doc)
			x.docParams = nil
			if t := x.r.Symbols[id].Type; t != "" {
				typ = t
			}
		}
		x.top(name, id, parent)
		if parent < 0 {
			x.bindFile(name, binding{typ: typ})
		} else {
			x.bind(name, binding{typ: typ})
		}
		if ann != nil {
			x.typeRefs(ann, id, extract.RefType)
		}
		if value != nil {
			x.walk(value, id)
		}
	}
}

// componentWrappers are calls whose function argument is the function the
// variable stands for: const Button = memo((props) => …).
var componentWrappers = map[string]bool{
	"memo": true, "forwardRef": true, "observer": true, "useCallback": true,
	"debounce": true, "throttle": true, "defineComponent": true, "createComponent": true,
	"withRouter": true, "styled": false,
}

func (x *extractor) wrappedFunction(name string, call *sitter.Node) *sitter.Node {
	fn := x.chain(x.callee(x.field(call, x.g.fFunction)))
	if fn == "" || !(componentWrappers[extract.LastPart(fn)] || startsUpper(name) && !startsUpper(extract.LastPart(fn))) {
		return nil
	}
	args := x.kids(x.field(call, x.g.fArguments))
	for i := range args {
		if k := x.kind(&args[i]); k == kArrow || k == kFunctionExpr {
			return &args[i]
		}
	}
	return nil
}

// localVars binds the variables declared inside a function.
func (x *extractor) localVars(n *sitter.Node, from int32) {
	for _, d := range x.kids(n) {
		d := d
		if x.kind(&d) != kVarDeclarator {
			continue
		}
		nameN, value, ann := x.field(&d, x.g.fName), x.field(&d, x.g.fValue), x.field(&d, x.g.fType)
		if x.requireDecl(nameN, value) {
			continue
		}
		if v := x.unwrap(value); x.kind(v) == kClassExpr && x.kind(nameN) == kIdentifier {
			// const Local = class extends Base {…}: a class of its own.
			x.class(v, &d, from, 0, x.text(nameN))
			continue
		}
		if x.kind(nameN) == kIdentifier {
			typ := x.typeName(ann)
			if typ == "" {
				typ = x.inferType(value)
			}
			x.bind(x.text(nameN), binding{typ: typ})
		} else {
			x.bindPattern(nameN)
		}
		if ann != nil {
			x.typeRefs(ann, from, extract.RefType)
		}
		if value != nil {
			x.walk(value, from)
		}
	}
}

// ---------------------------------------------------------------- classes

func (x *extractor) class(n, outer *sitter.Node, parent int32, flags snapshot.Flags, name string) int32 {
	if nn := x.text(x.field(n, x.g.fName)); nn != "" && (name == "" || x.kind(n) == kClassDecl) {
		name = nn
	}
	body := x.field(n, x.g.fBody)
	if name == "" {
		x.walk(body, parent)
		return -1
	}
	s := extract.Symbol{
		Name: name, Kind: snapshot.KindClass, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	}
	var typeArgs []*sitter.Node
	var decorators []sitter.Node
	for _, h := range x.kids(n) {
		h := h
		switch x.kind(&h) {
		case kDecorator:
			decorators = append(decorators, h)
		case kClassHeritage:
			for _, c := range x.kids(&h) {
				c := c
				switch x.kind(&c) {
				case kExtendsClause:
					x.heritage(x.field(&c, x.g.fValue), &s.Extends)
					if ta := x.field(&c, x.g.fTypeArguments); ta != nil {
						typeArgs = append(typeArgs, ta)
					}
				case kImplementsClause:
					for _, t := range x.kids(&c) {
						t := t
						if tn := x.typeName(&t); tn != "" {
							s.Implements = append(s.Implements, tn)
						}
						if x.kind(&t) == kGenericType {
							typeArgs = append(typeArgs, x.field(&t, x.g.fTypeArguments))
						}
					}
				case kComment:
				default:
					x.heritage(&c, &s.Extends)
				}
			}
		}
	}
	id := x.add(s)
	x.top(name, id, parent)
	if parent < 0 {
		x.bindFile(name, binding{kind: bSymbol})
	} else {
		x.bind(name, binding{kind: bSymbol})
	}
	for i := range decorators {
		x.walk(&decorators[i], id)
	}
	tp := x.pushTypeParams(n)
	for _, ta := range typeArgs {
		x.typeRefs(ta, id, extract.RefType)
	}
	x.classBody(body, id, flags&snapshot.FlagExported != 0)
	x.typeParams = x.typeParams[:tp]
	return id
}

// heritage records the base class expression of `extends`.
func (x *extractor) heritage(v *sitter.Node, out *[]string) {
	v = x.unwrap(v)
	if c := x.chain(v); c != "" {
		*out = append(*out, c)
		return
	}
	if x.kind(v) == kCall {
		// A mixin application: extends mixin(Base, Other).
		for _, a := range x.kids(x.field(v, x.g.fArguments)) {
			a := a
			if c := x.chain(&a); c != "" {
				*out = append(*out, c)
			}
		}
	}
}

func (x *extractor) classBody(body *sitter.Node, cls int32, exported bool) {
	if body == nil {
		return
	}
	saved := x.cls
	x.cls = &classCtx{id: cls, members: map[string]bool{}, methods: map[string]bool{}}
	members := x.kids(body)
	for i := range members {
		m := &members[i]
		switch x.kind(m) {
		case kMethodDef:
			x.method(m, m, cls, exported, "")
		case kFieldDef:
			x.classField(m, cls, exported)
		case kMethodSig:
			if i+1 < len(members) {
				if nk := x.kind(&members[i+1]); (nk == kMethodDef || nk == kMethodSig) &&
					x.text(x.field(m, x.g.fName)) == x.text(x.field(&members[i+1], x.g.fName)) {
					continue // an overload signature
				}
			}
			x.method(m, m, cls, exported, "")
		case kAbstractMethodSig:
			x.method(m, m, cls, exported, "")
		case kStaticBlock, kDecorator:
			x.walk(m, cls)
		case kOtherSig:
			x.typeRefs(m, cls, extract.RefType)
		}
	}
	// this.m() where m is a field of this class (a function-valued
	// property, a private field) cannot resolve to a method: drop it rather
	// than let it be guessed onto another class's method.
	for _, i := range x.cls.thisRefs {
		name := x.r.Refs[i].Name
		if !x.cls.methods[name] && (x.cls.members[name] || strings.HasPrefix(name, "#") || x.hasPending(name)) {
			x.r.Refs[i].Name = ""
		}
	}
	for _, p := range x.cls.pending {
		if x.cls.members[p.name] {
			continue
		}
		x.cls.members[p.name] = true
		fl := snapshot.Flags(0)
		if exported && !p.private && !strings.HasPrefix(p.name, "#") {
			fl = snapshot.FlagExported
		}
		x.add(extract.Symbol{Name: p.name, Kind: snapshot.KindField, Parent: cls, Flags: fl,
			Start: p.line, End: p.line, Signature: p.sig, Type: p.typ})
	}
	x.cls = saved
}

func (x *extractor) memberFlags(m *sitter.Node, name string, exported bool) snapshot.Flags {
	if !exported || strings.HasPrefix(name, "#") {
		return 0
	}
	for _, k := range x.kids(m) {
		if x.kind(&k) == kAccessibility && x.text(&k) != "public" {
			return 0
		}
	}
	return snapshot.FlagExported
}

// method declares a class method (fn is the function node, m the member).
func (x *extractor) method(m, fn *sitter.Node, cls int32, exported bool, name string) {
	if name == "" {
		name = x.propName(x.field(m, x.g.fName))
	}
	if name == "" {
		x.fnBody(fn, cls, extract.RefType)
		return
	}
	kind := snapshot.KindMethod
	if name == "constructor" {
		kind = snapshot.KindConstructor
	}
	body := x.field(fn, x.g.fBody)
	doc := x.doc(m)
	id := x.add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Flags: x.memberFlags(m, name, exported),
		Start: extract.Line(m), End: extract.EndLine(m),
		Signature: extract.Signature(x.f, m, body), Doc: doc,
		Type: x.typeName(x.field(fn, x.g.fReturnType)),
	})
	x.jsdoc(id, doc)
	if x.cls != nil {
		x.cls.members[name] = true
		x.cls.methods[name] = true
	}
	var props *[]pendingField
	if kind == snapshot.KindConstructor && x.cls != nil {
		props = &x.cls.pending
	}
	savedRet := x.retSym
	x.retSym = id
	defer func() { x.retSym = savedRet }()
	x.push()
	tp := x.pushTypeParams(fn)
	x.params(fn, id, extract.RefTypeHint, props)
	if rt := x.field(fn, x.g.fReturnType); rt != nil {
		x.typeRefs(rt, id, extract.RefTypeHint)
	}
	if body != nil {
		x.walk(body, id)
	}
	x.typeParams = x.typeParams[:tp]
	x.pop()
}

func (x *extractor) classField(m *sitter.Node, cls int32, exported bool) {
	nameN := x.field(m, x.g.fName)
	if nameN == nil {
		nameN = x.field(m, x.g.fProperty)
	}
	name := x.propName(nameN)
	value := x.field(m, x.g.fValue)
	if v := x.unwrap(value); x.kind(v) == kArrow || x.kind(v) == kFunctionExpr {
		x.method(m, v, cls, exported, name)
		return
	}
	for _, d := range x.kids(m) {
		if x.kind(&d) == kDecorator {
			x.walk(&d, cls)
		}
	}
	if name == "" {
		x.walk(value, cls)
		return
	}
	ann := x.field(m, x.g.fType)
	typ := x.typeName(ann)
	kind := snapshot.KindField
	if t := x.firstKid(ann); x.kind(t) == kFunctionType {
		// onError: (err: Error) => void — a method-like property.
		kind, typ = snapshot.KindMethod, x.typeName(x.field(t, x.g.fReturnType))
	}
	if typ == "" && kind == snapshot.KindField {
		typ = symType(x.inferType(value))
	}
	id := x.add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Flags: x.memberFlags(m, name, exported),
		Start: extract.Line(m), End: extract.EndLine(m),
		Signature: extract.FirstLine(x.text(m)), Doc: x.doc(m), Type: typ,
	})
	if x.cls != nil {
		x.cls.members[name] = true
		if kind == snapshot.KindMethod {
			x.cls.methods[name] = true
		}
	}
	if ann != nil {
		x.typeRefs(ann, cls, extract.RefType)
	}
	if value != nil {
		x.walk(value, id)
	}
}

// ------------------------------------------------------- TypeScript types

func (x *extractor) iface(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	s := extract.Symbol{
		Name: name, Kind: snapshot.KindInterface, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	}
	var typeArgs []*sitter.Node
	for _, c := range x.kids(n) {
		c := c
		if x.kind(&c) != kExtendsTypeClause {
			continue
		}
		for _, t := range x.kids(&c) {
			t := t
			if tn := x.typeName(&t); tn != "" {
				s.Extends = append(s.Extends, tn)
			}
			if x.kind(&t) == kGenericType {
				typeArgs = append(typeArgs, x.field(&t, x.g.fTypeArguments))
			}
		}
	}
	id := x.add(s)
	x.top(name, id, parent)
	tp := x.pushTypeParams(n)
	for _, ta := range typeArgs {
		x.typeRefs(ta, id, extract.RefType)
	}
	x.typeMembers(body, id, flags&snapshot.FlagExported != 0)
	x.typeParams = x.typeParams[:tp]
}

// typeMembers declares the members of an interface or object type.
func (x *extractor) typeMembers(body *sitter.Node, owner int32, exported bool) {
	for _, m := range x.kids(body) {
		m := m
		switch x.kind(&m) {
		case kPropertySig:
			name := x.propName(x.field(&m, x.g.fName))
			ann := x.field(&m, x.g.fType)
			if name == "" {
				x.typeRefs(ann, owner, extract.RefType)
				continue
			}
			// A function-typed property (onClick?: () => void) stays a
			// field: typings declare hundreds, and as methods every
			// extending interface would inherit them all.
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			x.add(extract.Symbol{
				Name: name, Kind: snapshot.KindField, Parent: owner, Flags: fl,
				Start: extract.Line(&m), End: extract.EndLine(&m),
				Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m), Type: x.typeName(ann),
			})
			x.typeRefs(ann, owner, extract.RefType)
		case kMethodSig:
			name := x.propName(x.field(&m, x.g.fName))
			if name == "" {
				continue
			}
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			id := x.add(extract.Symbol{
				Name: name, Kind: snapshot.KindMethod, Parent: owner, Flags: fl,
				Start: extract.Line(&m), End: extract.EndLine(&m),
				Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m),
				Type: x.typeName(x.field(&m, x.g.fReturnType)),
			})
			x.fnBody(&m, id, extract.RefTypeHint)
		case kOtherSig:
			x.typeRefs(&m, owner, extract.RefType)
		}
	}
}

func (x *extractor) typeAlias(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	value := x.field(n, x.g.fValue)
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindTypeAlias, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.FirstLine(x.text(outer)), Doc: x.doc(outer), Type: x.typeName(value),
	})
	x.top(name, id, parent)
	tp := x.pushTypeParams(n)
	if x.kind(value) == kObjectType {
		x.typeMembers(value, id, flags&snapshot.FlagExported != 0)
	} else {
		x.typeRefs(value, id, extract.RefType)
	}
	x.typeParams = x.typeParams[:tp]
}

func (x *extractor) enum(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindEnum, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	})
	x.top(name, id, parent)
	for _, m := range x.kids(body) {
		m := m
		var mn string
		switch x.kind(&m) {
		case kEnumAssignment:
			mn = x.propName(x.field(&m, x.g.fName))
		case kComment:
			continue
		default:
			mn = x.propName(&m)
		}
		if mn == "" {
			continue
		}
		x.add(extract.Symbol{Name: mn, Kind: snapshot.KindConstant, Parent: id, Flags: flags,
			Start: extract.Line(&m), End: extract.EndLine(&m), Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m)})
	}
}

func (x *extractor) namespace(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	full := x.chain(x.field(n, x.g.fName))
	if full == "" {
		return
	}
	qual, name := "", full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		qual, name = full[:i], full[i+1:]
	}
	body := x.field(n, x.g.fBody)
	id := x.add(extract.Symbol{
		Name: name, Qual: qual, Kind: snapshot.KindModule, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	})
	if qual == "" {
		x.top(name, id, parent)
	}
	if body != nil {
		x.statements(body, id)
	}
}

func (x *extractor) pushTypeParams(n *sitter.Node) int {
	before := len(x.typeParams)
	tp := x.field(n, x.g.fTypeParameters)
	if tp == nil {
		return before
	}
	for _, p := range x.kids(tp) {
		p := p
		if x.kind(&p) == kTypeParameter {
			x.typeParams = append(x.typeParams, x.text(x.field(&p, x.g.fName)))
		}
	}
	return before
}

func (x *extractor) isTypeParam(name string) bool {
	if len(name) == 1 {
		return true
	}
	for _, t := range x.typeParams {
		if t == name {
			return true
		}
	}
	return false
}

// typeWrappers are generic types whose argument is the interesting type.
var typeWrappers = map[string]bool{
	"Promise": true, "Array": true, "ReadonlyArray": true, "Partial": true, "Readonly": true,
	"Required": true, "NonNullable": true, "Awaited": true, "PromiseLike": true, "Observable": true,
	"Ref": false,
}

// typeName reduces a type (or annotation) to the name of its class or
// interface: "Promise<User[]> | null" → "User".
func (x *extractor) typeName(n *sitter.Node) string {
	for n != nil {
		switch x.kind(n) {
		case kTypeAnnotation, kParenType, kArrayType:
			n = x.firstKid(n)
		case kTypeIdentifier, kIdentifier:
			name := x.text(n)
			if builtinTypes[name] || x.isTypeParam(name) {
				return ""
			}
			return name
		case kNestedTypeIdentifier:
			return strings.Join(strings.Fields(x.text(n)), "")
		case kGenericType:
			base := x.field(n, x.g.fName)
			if typeWrappers[x.text(base)] {
				n = x.firstKid(x.field(n, x.g.fTypeArguments))
				continue
			}
			return x.typeName(base)
		case kUnionType:
			found := ""
			for _, k := range x.kids(n) {
				k := k
				if t := x.typeName(&k); t != "" {
					if found != "" {
						return ""
					}
					found = t
				}
			}
			return found
		default:
			return ""
		}
	}
	return ""
}

// typeRefs records references to the named types inside a type.
func (x *extractor) typeRefs(n *sitter.Node, from int32, kind extract.RefKind) {
	if n == nil {
		return
	}
	switch x.kind(n) {
	case kTypeIdentifier:
		name := x.text(n)
		if !builtinTypes[name] && !x.isTypeParam(name) {
			x.ref(from, kind, name, "", "", n)
		}
		return
	case kNestedTypeIdentifier:
		mod, name := x.field(n, x.g.fModule), x.field(n, x.g.fName)
		if q := x.chain(mod); q != "" && name != nil {
			if b, ok := x.lookup(firstPart(q)); ok && b.kind == bExternal {
				return
			}
			x.ref(from, kind, x.text(name), q, "", n)
		}
		return
	case kTypeQuery, kPredefinedType, kLiteralType, kString, kComment, kNumber:
		return
	case kTypePredicate:
		// x is Foo: only the type.
		if t := x.field(n, x.g.fType); t != nil {
			x.typeRefs(t, from, kind)
		}
		for _, k := range x.kids(n) {
			k := k
			if x.kind(&k) == kTypePredicate {
				x.typeRefs(&k, from, kind)
			}
		}
		return
	case kStatementBlock:
		return
	}
	for _, k := range x.kids(n) {
		k := k
		x.typeRefs(&k, from, kind)
	}
}

// ----------------------------------------------------------------- bodies

// walk records calls, type uses and typed locals inside code, attributing
// them to symbol from (-1: the file).
func (x *extractor) walk(n *sitter.Node, from int32) {
	if n == nil {
		return
	}
	switch x.kind(n) {
	case kCall:
		x.call(n, from)
		return
	case kNew:
		x.newExpr(n, from)
		return
	case kArrow, kFunctionExpr:
		if nm := x.field(n, x.g.fName); nm != nil {
			// A named function expression sees its own name.
			x.push()
			x.bind(x.text(nm), binding{})
			x.fnBody(n, from, extract.RefType)
			x.pop()
			return
		}
		x.fnBody(n, from, extract.RefType)
		return
	case kFunctionDecl, kFunctionSig:
		x.bind(x.text(x.field(n, x.g.fName)), binding{})
		x.fnBody(n, from, extract.RefType)
		return
	case kMethodDef:
		x.fnBody(n, from, extract.RefType)
		return
	case kClassDecl:
		x.class(n, n, from, 0, "")
		return
	case kClassExpr:
		saved := x.cls
		x.cls = nil
		for _, k := range x.kids(n) {
			k := k
			x.walk(&k, from)
		}
		x.cls = saved
		return
	case kLexicalDecl:
		x.localVars(n, from)
		return
	case kAssign:
		x.assign(n, from)
		return
	case kTypeAnnotation, kTypeArguments:
		x.typeRefs(n, from, extract.RefType)
		return
	case kAs:
		ks := x.kids(n)
		for i := range ks {
			if i == 0 {
				x.walk(&ks[i], from)
			} else {
				x.typeRefs(&ks[i], from, extract.RefType)
			}
		}
		return
	case kJSXOpen:
		x.jsx(n, from)
		return
	case kForIn:
		left := x.field(n, x.g.fLeft)
		if x.kind(left) == kIdentifier {
			x.bind(x.text(left), binding{})
		} else {
			x.bindPattern(left)
		}
	case kCatch:
		for _, k := range x.kids(n) {
			k := k
			if x.kind(&k) == kIdentifier || x.kind(&k) == kObjectPattern || x.kind(&k) == kArrayPattern {
				x.bindPattern(&k)
			}
		}
	case kReturn:
		// An untyped function returning new Foo() (or a Foo) returns a Foo.
		if x.retSym >= 0 && x.r.Symbols[x.retSym].Type == "" {
			if v := x.firstKid(n); v != nil {
				if t := symType(x.inferType(v)); t != "" {
					x.r.Symbols[x.retSym].Type = t
				}
			}
		}
	case kInterface, kTypeAlias, kEnum:
		// Local types: their member types count as uses.
		x.typeRefs(n, from, extract.RefType)
		return
	case kImport:
		x.importStmt(n)
		return
	case kPair:
		// A function named in an object literal (a route table, a handler
		// map) is called through it.
		if v := x.field(n, x.g.fValue); x.kind(v) == kIdentifier || x.kind(v) == kMember {
			x.walk(x.field(n, x.g.fKey), from)
			x.callback(v, from)
			return
		}
	case kShorthandProp:
		x.callback(n, from)
		return
	case kIdentifier, kPropertyIdentifier, kString, kNumber, kComment, kThis, kSuper:
		return
	}
	for _, k := range x.kids(n) {
		k := k
		x.walk(&k, from)
	}
}

// assign learns types from `x = new Foo()`, records `this.x = …` as fields
// of the enclosing class, and walks both sides.
func (x *extractor) assign(n *sitter.Node, from int32) {
	left, right := x.field(n, x.g.fLeft), x.field(n, x.g.fRight)
	switch x.kind(left) {
	case kIdentifier:
		if t := x.inferType(right); t != "" {
			x.setType(x.text(left), t)
		}
	case kMember:
		if obj := x.field(left, x.g.fObject); x.kind(obj) == kThis && x.cls != nil {
			if p := x.field(left, x.g.fProperty); p != nil {
				x.addPending(x.text(p), symType(x.inferType(right)), n)
			}
		}
		x.walk(x.field(left, x.g.fObject), from)
	default:
		x.walk(left, from)
	}
	x.walk(right, from)
}

func (x *extractor) hasPending(name string) bool {
	for i := range x.cls.pending {
		if x.cls.pending[i].name == name {
			return true
		}
	}
	return false
}

func (x *extractor) addPending(name, typ string, n *sitter.Node) {
	for i := range x.cls.pending {
		if x.cls.pending[i].name == name {
			if x.cls.pending[i].typ == "" {
				x.cls.pending[i].typ = typ
			}
			return
		}
	}
	x.cls.pending = append(x.cls.pending, pendingField{name: name, typ: typ, line: extract.Line(n), sig: extract.FirstLine(x.text(n))})
}

// inferType is the type of a value when it can be told: "Foo" for
// `new Foo()`, "call:f" / "call:T.m" for call results, a local's type.
func (x *extractor) inferType(v *sitter.Node) string {
	if v == nil {
		return ""
	}
	switch x.kind(v) {
	case kParen, kAwait, kNonNull:
		return x.inferType(x.firstKid(v))
	case kAs:
		ks := x.kids(v)
		if len(ks) > 1 {
			if t := x.typeName(&ks[len(ks)-1]); t != "" {
				return t
			}
		}
		if len(ks) > 0 {
			return x.inferType(&ks[0])
		}
	case kTypeAssertion:
		ks := x.kids(v)
		if len(ks) > 0 {
			if t := x.typeName(x.firstKid(&ks[0])); t != "" {
				return t
			}
		}
	case kNew:
		c := x.chain(x.callee(x.field(v, x.g.fConstructor)))
		if c == "" || builtinGlobals[c] {
			return ""
		}
		if b, ok := x.lookup(firstPart(c)); ok {
			switch {
			case b.kind == bExternal || b.typ == extValue:
				return extValue
			case b.kind == bLocal && !strings.Contains(c, "."):
				return ""
			}
		}
		return c
	case kCall:
		return x.callHint(v)
	case kIdentifier:
		if b, ok := x.lookup(x.text(v)); ok && b.kind == bLocal {
			return b.typ
		}
	}
	return ""
}

// callHint names the result of a call for the resolver: "call:f",
// "call:Type.m", "call:this.m", "call:ns.f".
func (x *extractor) callHint(call *sitter.Node) string {
	fn := x.callee(x.field(call, x.g.fFunction))
	c := x.chain(fn)
	if c == "" {
		return ""
	}
	first := firstPart(c)
	b, bound := x.lookup(first)
	if bound && (b.kind == bExternal || b.typ == extValue) {
		return extValue
	}
	if !strings.Contains(c, ".") {
		if bound && b.kind == bLocal || !bound && builtinGlobals[c] || c == "require" {
			return ""
		}
		return "call:" + c
	}
	switch {
	case first == "this" || first == "super":
		return "call:" + c
	case bound && b.kind == bLocal:
		if b.typ == "" || strings.HasPrefix(b.typ, "call:") {
			return ""
		}
		return "call:" + b.typ + c[len(first):]
	case !bound && builtinObjects[first]:
		return ""
	}
	return "call:" + c
}

// call records a call and walks its parts.
func (x *extractor) call(n *sitter.Node, from int32) {
	fn := x.callee(x.field(n, x.g.fFunction))
	args := x.field(n, x.g.fArguments)
	if x.test && x.testBlock(n, fn, args, from) {
		return
	}
	switch x.kind(fn) {
	case kImportKw:
		x.dynamicImport(args, "")
		return
	case kIdentifier:
		name := x.text(fn)
		switch name {
		case "require":
			if spec := x.stringArg(args); spec != "" {
				x.sideImport(spec)
				return
			}
		case "inherits":
			if x.inherits(args) {
				return
			}
		}
		x.callName(name, from, n)
	case kMember:
		if x.text(x.field(fn, x.g.fProperty)) == "inherits" && x.inherits(args) {
			return
		}
		x.memberCall(fn, from, n)
		x.walk(x.field(fn, x.g.fObject), from)
	case kSuper:
		x.ref(from, extract.RefCall, "constructor", "super", "", n)
	default:
		x.walk(fn, from)
	}
	if ta := x.field(n, x.g.fTypeArguments); ta != nil {
		x.typeRefs(ta, from, extract.RefType)
	}
	x.args(args, from)
}

// callName records a call of a bare name, unless the name is a local
// variable, an external import or a global of the platform.
func (x *extractor) callName(name string, from int32, n *sitter.Node) {
	if b, ok := x.lookup(name); ok {
		if b.kind == bLocal || b.kind == bExternal {
			return
		}
	} else if builtinGlobals[name] {
		return
	}
	x.ref(from, extract.RefCall, name, "", "", n)
}

// memberCall records obj.name(…).
func (x *extractor) memberCall(fn *sitter.Node, from int32, n *sitter.Node) {
	p := x.field(fn, x.g.fProperty)
	if p == nil {
		return
	}
	name := x.text(p)
	obj := x.callee(x.field(fn, x.g.fObject))
	if name == "call" || name == "apply" || name == "bind" {
		// f.call(this, …) calls f.
		switch x.kind(obj) {
		case kIdentifier:
			x.callName(x.text(obj), from, n)
			return
		case kMember:
			if c := x.chain(obj); c != "" {
				inner := x.field(obj, x.g.fObject)
				if x.kind(inner) == kMember && x.text(x.field(inner, x.g.fProperty)) == "prototype" {
					// Base.prototype.m.call(this): a call of Base's m.
					q := x.chain(x.field(inner, x.g.fObject))
					if q != "" {
						x.ref(from, extract.RefCall, x.text(x.field(obj, x.g.fProperty)), q, "", n)
					}
					return
				}
				x.memberCall(obj, from, n)
				return
			}
		}
	}
	qual, qt, ok := x.qualifier(obj)
	if !ok {
		return
	}
	if builtinMethods[name] && (qt == "" || strings.HasPrefix(qt, "call:") || strings.Contains(qual, ".")) {
		// A platform method on a value of unknown type is not guessed onto
		// a repository method of the same name.
		first := firstPart(qual)
		b, bound := x.lookup(first)
		if !(qual == "this" || qual == "super" || !strings.Contains(qual, ".") && (bound && (b.kind == bImport || b.kind == bModule || b.kind == bSymbol) || startsUpper(first))) {
			return
		}
	}
	if strings.HasPrefix(name, "#") && qual != "this" {
		qual, qt = "this", "" // private names belong to the enclosing class
	}
	if qual == "this" && x.cls != nil {
		x.cls.thisRefs = append(x.cls.thisRefs, len(x.r.Refs))
	}
	x.ref(from, extract.RefCall, name, qual, qt, n)
}

// qualifier renders the object of a method call as Qual and, when known,
// the type of its first element. ok is false when the call should not be
// recorded (a platform global, an external package, an unknown value).
func (x *extractor) qualifier(obj *sitter.Node) (qual, qt string, ok bool) {
	obj = x.callee(obj)
	switch x.kind(obj) {
	case kIdentifier, kThis, kSuper, kMember:
		c := x.chain(obj)
		if c == "" {
			break
		}
		c = strings.ReplaceAll(c, ".prototype", "")
		first := firstPart(c)
		if first == "this" || first == "super" {
			return c, "", true
		}
		b, bound := x.lookup(first)
		switch {
		case !bound:
			if builtinObjects[first] {
				return "", "", false
			}
			return c, "", true
		case b.kind == bExternal || b.typ == extValue:
			return "", "", false
		case b.kind == bLocal:
			return c, b.typ, true
		}
		return c, "", true
	case kCall:
		h := x.callHint(obj)
		if h == "" || h == extValue {
			return "", "", false
		}
		return extract.LastPart(strings.TrimPrefix(h, "call:")) + "()", h, true
	case kNew:
		if t := x.inferType(obj); t != "" && t != extValue {
			return extract.LastPart(t) + "()", t, true
		}
		return "", "", false
	case kAwait, kParen, kNonNull, kAs:
		if t := x.inferType(obj); t == extValue {
			return "", "", false
		} else if t != "" {
			return "value", t, true
		}
		if k := x.unwrap(obj); k != obj && k != nil {
			return x.qualifier(k)
		}
	}
	return "?", "", true
}

// args walks call arguments; functions passed by name count as calls.
func (x *extractor) args(args *sitter.Node, from int32) {
	if args == nil {
		return
	}
	for _, a := range x.kids(args) {
		a := a
		switch x.kind(&a) {
		case kIdentifier, kMember:
			x.callback(&a, from)
		default:
			x.walk(&a, from)
		}
	}
}

// callback records a function passed by name (app.use(handler),
// onClick={this.handle}) as a call, when the name is a function.
func (x *extractor) callback(n *sitter.Node, from int32) {
	switch x.kind(n) {
	case kIdentifier:
		name := x.text(n)
		b, ok := x.lookup(name)
		switch {
		case !ok:
			if !builtinGlobals[name] {
				x.deferred = append(x.deferred, extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: extract.Line(n)})
			}
		case b.kind == bSymbol || b.kind == bImport:
			x.ref(from, extract.RefCall, name, "", "", n)
		}
	case kMember:
		obj := x.field(n, x.g.fObject)
		p := x.field(n, x.g.fProperty)
		if p == nil {
			return
		}
		switch x.kind(obj) {
		case kThis:
			if x.cls != nil {
				x.cls.thisRefs = append(x.cls.thisRefs, len(x.r.Refs))
			}
			x.ref(from, extract.RefCall, x.text(p), "this", "", n)
		case kIdentifier:
			if b, ok := x.lookup(x.text(obj)); ok && (b.kind == bImport || b.kind == bModule) {
				x.ref(from, extract.RefCall, x.text(p), x.text(obj), "", n)
			}
		default:
			x.walk(obj, from)
		}
	}
}

func (x *extractor) newExpr(n *sitter.Node, from int32) {
	c := x.callee(x.field(n, x.g.fConstructor))
	switch x.kind(c) {
	case kIdentifier:
		x.callName(x.text(c), from, n)
	case kMember:
		x.memberCall(c, from, n)
	default:
		x.walk(c, from)
	}
	if ta := x.field(n, x.g.fTypeArguments); ta != nil {
		x.typeRefs(ta, from, extract.RefType)
	}
	x.args(x.field(n, x.g.fArguments), from)
}

// jsx records a component use <Button …/> as a call of Button, and
// handlers passed by name as calls.
func (x *extractor) jsx(n *sitter.Node, from int32) {
	nm := x.field(n, x.g.fName)
	switch x.kind(nm) {
	case kIdentifier:
		if name := x.text(nm); startsUpper(name) {
			x.callName(name, from, n)
		}
	case kMember:
		x.memberCall(nm, from, n)
	}
	for _, a := range x.kids(n) {
		a := a
		switch x.kind(&a) {
		case kJSXAttribute:
			for _, v := range x.kids(&a) {
				v := v
				if x.kind(&v) == kJSXExpression {
					if e := x.firstKid(&v); e != nil && (x.kind(e) == kIdentifier || x.kind(e) == kMember) {
						x.callback(e, from)
						continue
					}
				}
				x.walk(&v, from)
			}
		case kTypeArguments:
			x.typeRefs(&a, from, extract.RefType)
		case kJSXExpression:
			x.walk(&a, from)
		}
	}
}

// testFuncs open test blocks (describe/it/test of Jest, Mocha, Vitest…).
var testFuncs = map[string]bool{
	"describe": true, "it": true, "test": true, "context": true, "suite": true, "specify": true,
	"fdescribe": true, "fit": true, "xdescribe": true, "xit": true, "xtest": true, "bench": true,
}

// testBlock declares describe("…", () => …) and it("…", …) blocks of test
// files as test functions named after their description.
func (x *extractor) testBlock(n, fn, args *sitter.Node, from int32) bool {
	root := fn
	for root != nil {
		switch x.kind(root) {
		case kCall:
			root = x.callee(x.field(root, x.g.fFunction))
			continue
		case kMember:
			root = x.callee(x.field(root, x.g.fObject))
			continue
		}
		break
	}
	if x.kind(root) != kIdentifier || !testFuncs[x.text(root)] {
		return false
	}
	if b, ok := x.lookup(x.text(root)); ok && (b.kind == bLocal || b.kind == bSymbol) {
		return false
	}
	as := x.kids(args)
	var body *sitter.Node
	for i := len(as) - 1; i >= 1; i-- {
		if k := x.kind(&as[i]); k == kArrow || k == kFunctionExpr {
			body = &as[i]
			break
		}
	}
	if len(as) == 0 || body == nil {
		x.args(args, from)
		return true
	}
	desc := x.text(&as[0])
	switch x.kind(&as[0]) {
	case kString, kTemplateString:
		desc = unquote(desc)
	}
	name := slug(desc)
	if _, clash := x.lookup(name); clash {
		// describe("UserStore") must not hide the UserStore it tests.
		name = x.text(root) + "_" + name
	}
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindFunction, Parent: from, Flags: snapshot.FlagTest,
		Start: extract.Line(n), End: extract.EndLine(n),
		Signature: extract.Signature(x.f, n, x.field(body, x.g.fBody)),
	})
	if x.kind(fn) == kCall {
		x.walk(fn, from) // it.each(table)
	}
	for i := range as {
		if &as[i] != body && i > 0 {
			x.walk(&as[i], id)
		}
	}
	x.fnBody(body, id, extract.RefType)
	return true
}

// inherits handles util.inherits(Child, Parent) of pre-class code; it
// reports whether Child is a class of this file.
func (x *extractor) inherits(args *sitter.Node) bool {
	as := x.kids(args)
	if len(as) != 2 || x.kind(&as[0]) != kIdentifier {
		return false
	}
	base := x.chain(&as[1])
	if base == "" || x.owner(x.text(&as[0])) < 0 {
		return false
	}
	x.addBase(x.text(&as[0]), base)
	return true
}

// ---------------------------------------------------------------- imports

func (x *extractor) stringArg(args *sitter.Node) string {
	as := x.kids(args)
	if len(as) == 0 || x.kind(&as[0]) != kString {
		return ""
	}
	return unquote(x.text(&as[0]))
}

func (x *extractor) addImport(im extract.Import) {
	x.r.Imports = append(x.r.Imports, im)
}

// sideImport records a module imported for its effects (or required in an
// expression): an imports edge, no local name.
func (x *extractor) sideImport(spec string) {
	key, _, _ := x.rc.resolve(x.dir, spec)
	if key != "" {
		x.addImport(extract.Import{Path: key, Alias: "(import)"})
	}
}

// bindImport imports the export `name` of spec as local ("default" for a
// default import, "" for the module itself).
func (x *extractor) bindImport(spec, name, local string) {
	key, file, inRepo := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	if !inRepo {
		x.bindFile(local, binding{kind: bExternal})
		if name == "default" {
			name = ""
		}
		x.addImport(extract.Import{Path: key, Name: name, Alias: local})
		return
	}
	if name == "" {
		x.bindFile(local, binding{kind: bModule})
		x.addImport(extract.Import{Path: key, Alias: local})
		return
	}
	x.bindFile(local, binding{kind: bImport})
	if file == "" {
		// Not a source file (JSON, CSS, a missing module).
		if name == "default" {
			name = local
		}
		x.addImport(extract.Import{Path: key, Name: name, Alias: local})
		return
	}
	cands := x.rc.exportCands(file, key, name, 0, nil)
	if len(cands) == 0 {
		// No default export found: assume it is named like the import.
		if name == "default" {
			name = local
		}
		cands = append(cands, cand{key, name})
	}
	direct := false
	for _, c := range cands {
		x.addImport(extract.Import{Path: c.key, Name: c.name, Alias: local})
		if c.key == key {
			direct = true
		}
	}
	if !direct {
		// The imports edge to the module named in the statement.
		x.addImport(extract.Import{Path: key, Alias: "(import)"})
	}
}

func (x *extractor) importStmt(n *sitter.Node) {
	spec := unquote(x.text(x.field(n, x.g.fSource)))
	bound := false
	for _, c := range x.kids(n) {
		c := c
		switch x.kind(&c) {
		case kImportClause:
			for _, k := range x.kids(&c) {
				k := k
				switch x.kind(&k) {
				case kIdentifier:
					x.bindImport(spec, "default", x.text(&k))
					bound = true
				case kNamespaceImport:
					if id := x.firstKid(&k); id != nil {
						x.bindImport(spec, "", x.text(id))
						bound = true
					}
				case kNamedImports:
					for _, s := range x.kids(&k) {
						s := s
						if x.kind(&s) != kImportSpecifier {
							continue
						}
						name := x.propName(x.field(&s, x.g.fName))
						if name == "" {
							name = x.text(x.field(&s, x.g.fName))
						}
						local := name
						if a := x.field(&s, x.g.fAlias); a != nil {
							local = x.text(a)
						}
						x.bindImport(spec, name, local)
						bound = true
					}
				}
			}
		case kImportRequireClause:
			if id := x.firstKid(&c); id != nil && x.kind(id) == kIdentifier {
				if spec == "" {
					spec = unquote(x.text(x.field(&c, x.g.fSource)))
				}
				x.requireBind(spec, x.text(id))
				bound = true
			}
		}
	}
	if !bound && spec != "" {
		x.sideImport(spec)
	}
}

// requireBind handles const local = require(spec): the module's
// `module.exports` value when it names a class or function, else the
// module as a namespace.
func (x *extractor) requireBind(spec, local string) {
	key, file, inRepo := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	if !inRepo {
		x.bindFile(local, binding{kind: bExternal})
		x.addImport(extract.Import{Path: key, Alias: local})
		return
	}
	kind := bModule
	if file != "" {
		for _, c := range x.rc.exportCands(file, key, "default", 0, nil) {
			if c.name != "" {
				x.addImport(extract.Import{Path: c.key, Name: c.name, Alias: local})
				kind = bImport
			}
		}
	}
	x.bindFile(local, binding{kind: kind})
	x.addImport(extract.Import{Path: key, Alias: local})
}

// requireDecl handles declarators whose value is require("x"),
// require("x").name or await import("x"); it reports whether it did.
func (x *extractor) requireDecl(nameN, value *sitter.Node) bool {
	v := x.unwrap(value)
	member := ""
	if x.kind(v) == kMember {
		member = x.text(x.field(v, x.g.fProperty))
		v = x.unwrap(x.field(v, x.g.fObject))
	}
	if x.kind(v) != kCall {
		return false
	}
	fn := x.callee(x.field(v, x.g.fFunction))
	isReq := x.kind(fn) == kIdentifier && x.text(fn) == "require"
	if !isReq && x.kind(fn) != kImportKw {
		return false
	}
	spec := x.stringArg(x.field(v, x.g.fArguments))
	if spec == "" {
		return false
	}
	switch x.kind(nameN) {
	case kIdentifier:
		local := x.text(nameN)
		switch {
		case member != "":
			x.bindImport(spec, member, local)
		case isReq:
			x.requireBind(spec, local)
		default:
			x.bindImport(spec, "", local)
		}
	case kObjectPattern:
		for _, p := range x.kids(nameN) {
			p := p
			switch x.kind(&p) {
			case kShorthandPattern:
				x.bindImport(spec, x.text(&p), x.text(&p))
			case kPairPattern:
				k, val := x.propName(x.field(&p, x.g.fKey)), x.field(&p, x.g.fValue)
				if x.kind(val) == kIdentifier && k != "" {
					x.bindImport(spec, k, x.text(val))
				}
			case kObjectAssignPattern:
				if f := x.firstKid(&p); f != nil {
					x.bindImport(spec, x.text(f), x.text(f))
				}
			}
		}
	default:
		x.sideImport(spec)
	}
	return true
}

func (x *extractor) dynamicImport(args *sitter.Node, local string) {
	if spec := x.stringArg(args); spec != "" {
		if local != "" {
			x.bindImport(spec, "", local)
		} else {
			x.sideImport(spec)
		}
	}
}

// ---------------------------------------------------------------- exports

func (x *extractor) export(n *sitter.Node, parent int32) {
	if src := x.field(n, x.g.fSource); src != nil {
		x.reexport(n, unquote(x.text(src)))
		return
	}
	isDefault := x.hasToken(n, kwDefault)
	name := ""
	if isDefault {
		name = defaultName(x.f.Path)
	}
	if d := x.field(n, x.g.fDeclaration); d != nil {
		x.declaration(d, n, parent, snapshot.FlagExported, name)
		return
	}
	if v := x.field(n, x.g.fValue); v != nil {
		vv := x.unwrap(v)
		switch x.kind(vv) {
		case kIdentifier:
			x.exported = append(x.exported, x.text(vv))
		case kArrow, kFunctionExpr:
			if own := x.text(x.field(vv, x.g.fName)); own != "" {
				name = own
			}
			x.function(vv, n, parent, snapshot.FlagExported, name)
		case kClassExpr:
			x.class(vv, n, parent, snapshot.FlagExported, name)
		case kObject:
			x.objectExports(vv, parent)
		case kCall:
			x.wrapperExport(vv)
			x.walk(v, parent)
		default:
			x.walk(v, parent)
		}
		return
	}
	for _, c := range x.kids(n) {
		c := c
		switch x.kind(&c) {
		case kExportClause:
			for _, s := range x.kids(&c) {
				s := s
				if x.kind(&s) == kExportSpecifier {
					x.exported = append(x.exported, x.text(x.field(&s, x.g.fName)))
				}
			}
		case kIdentifier:
			x.exported = append(x.exported, x.text(&c)) // export = Foo
		}
	}
}

// wrapperExport marks Component exported in export default connect(…)(Component).
func (x *extractor) wrapperExport(call *sitter.Node) {
	for _, a := range x.kids(x.field(call, x.g.fArguments)) {
		a := a
		if x.kind(&a) == kIdentifier {
			x.exported = append(x.exported, x.text(&a))
		}
	}
	if fn := x.callee(x.field(call, x.g.fFunction)); x.kind(fn) == kCall {
		x.wrapperExport(fn)
	}
}

// reexport handles export … from "spec": the names become imports of this
// module (so a barrel links to what it re-exports).
func (x *extractor) reexport(n *sitter.Node, spec string) {
	key, _, _ := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	some := false
	for _, c := range x.kids(n) {
		c := c
		switch x.kind(&c) {
		case kExportClause:
			for _, s := range x.kids(&c) {
				s := s
				if x.kind(&s) != kExportSpecifier {
					continue
				}
				name := x.propName(x.field(&s, x.g.fName))
				if name == "" {
					name = x.text(x.field(&s, x.g.fName))
				}
				local := name
				if a := x.field(&s, x.g.fAlias); a != nil {
					local = x.text(a)
				}
				if name == "default" {
					x.bindImport(spec, "default", local)
				} else {
					x.addImport(extract.Import{Path: key, Name: name, Alias: local})
				}
				some = true
			}
		case kNamespaceExport:
			if id := x.firstKid(&c); id != nil {
				x.addImport(extract.Import{Path: key, Alias: x.text(id)})
				some = true
			}
		}
	}
	if !some {
		x.addImport(extract.Import{Path: key, Name: "*"})
	}
}

// objectExports declares the functions of an exported object literal
// (module.exports = {…}, export default {…}) as top-level functions.
func (x *extractor) objectExports(obj *sitter.Node, parent int32) {
	for _, m := range x.kids(obj) {
		m := m
		switch x.kind(&m) {
		case kMethodDef:
			name := x.propName(x.field(&m, x.g.fName))
			x.function(&m, &m, parent, snapshot.FlagExported, name)
		case kPair:
			name := x.propName(x.field(&m, x.g.fKey))
			val := x.field(&m, x.g.fValue)
			v := x.unwrap(val)
			switch x.kind(v) {
			case kArrow, kFunctionExpr:
				x.function(v, &m, parent, snapshot.FlagExported, name)
			case kIdentifier:
				x.exported = append(x.exported, x.text(v))
			default:
				if name != "" && !x.requireDecl(x.field(&m, x.g.fKey), val) {
					x.walk(val, parent)
				}
			}
		case kShorthandProp:
			x.exported = append(x.exported, x.text(&m))
		default:
			x.walk(&m, parent)
		}
	}
}

// topAssign handles module-level assignments of CommonJS and pre-class
// code: module.exports = …, exports.f = function, Foo.prototype.m =
// function, Foo.m = function.
func (x *extractor) topAssign(n, stmt *sitter.Node) {
	lefts := []*sitter.Node{x.field(n, x.g.fLeft)}
	right := x.field(n, x.g.fRight)
	for x.kind(x.unwrap(right)) == kAssign {
		r := x.unwrap(right)
		lefts = append(lefts, x.field(r, x.g.fLeft))
		right = x.field(r, x.g.fRight)
	}
	v := x.unwrap(right)
	vk := x.kind(v)
	isFn := vk == kArrow || vk == kFunctionExpr
	handled := false
	for _, l := range lefts {
		c := x.chain(l)
		switch {
		case c == "":
			continue
		case c == "module.exports" || c == "exports":
			switch {
			case isFn || vk == kClassExpr:
				name := x.text(x.field(v, x.g.fName))
				if name == "" {
					name = defaultName(x.f.Path)
				}
				if isFn {
					x.function(v, stmt, -1, snapshot.FlagExported, name)
				} else {
					x.class(v, stmt, -1, snapshot.FlagExported, name)
				}
				return
			case vk == kIdentifier:
				x.exported = append(x.exported, x.text(v))
			case vk == kObject:
				x.objectExports(v, -1)
				return
			}
		case strings.HasPrefix(c, "module.exports.") || strings.HasPrefix(c, "exports."):
			name := extract.LastPart(c)
			if strings.Count(c, ".") > 2 || strings.HasPrefix(c, "exports.") && strings.Count(c, ".") > 1 {
				break
			}
			switch {
			case isFn:
				x.function(v, stmt, -1, snapshot.FlagExported, name)
				return
			case vk == kClassExpr:
				x.class(v, stmt, -1, snapshot.FlagExported, name)
				return
			case vk == kIdentifier:
				x.exported = append(x.exported, x.text(v))
			}
		default:
			if handled {
				continue
			}
			recv, name := "", c
			if i := strings.LastIndexByte(c, '.'); i >= 0 {
				recv, name = c[:i], c[i+1:]
			}
			switch {
			case recv == "":
				if t := x.inferType(right); t != "" {
					x.setType(name, t)
				}
			case isFn:
				x.methodOn(recv, name, v, stmt)
				handled = true
			case name == "prototype" && vk == kObject:
				x.prototypeObject(recv, v, stmt)
				handled = true
			case name == "prototype" && vk == kCall:
				// A.prototype = Object.create(B.prototype)
				if x.chain(x.callee(x.field(v, x.g.fFunction))) == "Object.create" {
					as := x.kids(x.field(v, x.g.fArguments))
					if len(as) > 0 {
						base := strings.TrimSuffix(x.chain(&as[0]), ".prototype")
						x.addBase(recv, base)
					}
				}
			}
		}
	}
	if handled {
		return
	}
	for _, l := range lefts {
		if x.kind(l) != kIdentifier {
			x.walk(l, -1)
		}
	}
	x.walk(right, -1)
}

// owner finds the class a pre-class method is attached to: a top-level
// class, or a function that thereby becomes one.
func (x *extractor) owner(recv string) int32 {
	if strings.Contains(recv, ".") {
		return -1
	}
	id, ok := x.topNames[recv]
	if !ok {
		return -1
	}
	s := &x.r.Symbols[id]
	switch s.Kind {
	case snapshot.KindFunction:
		s.Kind = snapshot.KindClass
		return id
	case snapshot.KindClass:
		return id
	}
	return -1
}

func (x *extractor) addBase(recv, base string) {
	if base == "" {
		return
	}
	if id := x.owner(recv); id >= 0 {
		x.r.Symbols[id].Extends = append(x.r.Symbols[id].Extends, base)
	}
}

// methodOn declares fn assigned to recv.name (Foo.prototype.m = function,
// Foo.m = function, app.handle = function).
func (x *extractor) methodOn(recv, name string, fn, stmt *sitter.Node) {
	proto := strings.TrimSuffix(recv, ".prototype")
	if id := x.owner(proto); id >= 0 {
		saved := x.cls
		x.cls = &classCtx{id: id, members: map[string]bool{}, methods: map[string]bool{}}
		doc := x.doc(stmt)
		mid := x.add(extract.Symbol{
			Name: name, Kind: snapshot.KindMethod, Parent: id, Flags: x.r.Symbols[id].Flags & snapshot.FlagExported,
			Start: extract.Line(stmt), End: extract.EndLine(stmt),
			Signature: extract.Signature(x.f, stmt, x.field(fn, x.g.fBody)), Doc: doc,
			Type: x.typeName(x.field(fn, x.g.fReturnType)),
		})
		x.jsdoc(mid, doc)
		x.fnBody(fn, mid, extract.RefTypeHint)
		x.cls = saved
		return
	}
	// The object is not a class of this file: keep its name as qualifier.
	flags := snapshot.Flags(0)
	if b, ok := x.lookup(firstPart(proto)); ok && b.kind == bLocal {
		if id, ok := x.topNames[firstPart(proto)]; ok {
			flags = x.r.Symbols[id].Flags & snapshot.FlagExported
		}
	}
	mid := x.add(extract.Symbol{
		Name: name, Qual: proto, Kind: snapshot.KindFunction, Parent: -1, Flags: flags,
		Start: extract.Line(stmt), End: extract.EndLine(stmt),
		Signature: extract.Signature(x.f, stmt, x.field(fn, x.g.fBody)), Doc: x.doc(stmt),
	})
	x.fnBody(fn, mid, extract.RefTypeHint)
}

// prototypeObject declares the methods of Foo.prototype = {…}.
func (x *extractor) prototypeObject(recv string, obj, stmt *sitter.Node) {
	for _, m := range x.kids(obj) {
		m := m
		switch x.kind(&m) {
		case kMethodDef:
			x.methodOn(recv+".prototype", x.propName(x.field(&m, x.g.fName)), &m, &m)
		case kPair:
			if v := x.unwrap(x.field(&m, x.g.fValue)); x.kind(v) == kArrow || x.kind(v) == kFunctionExpr {
				x.methodOn(recv+".prototype", x.propName(x.field(&m, x.g.fKey)), v, &m)
				continue
			}
			x.walk(&m, -1)
		default:
			x.walk(&m, -1)
		}
	}
}

// finish applies what needed the whole file: names exported by separate
// statements, callbacks named before their declaration.
func (x *extractor) finish() {
	refs := x.r.Refs[:0]
	for _, r := range x.r.Refs {
		if r.Name != "" {
			refs = append(refs, r)
		}
	}
	x.r.Refs = refs
	var late map[int32]bool
	for _, name := range x.exported {
		if id, ok := x.topNames[name]; ok && x.r.Symbols[id].Flags&snapshot.FlagExported == 0 {
			x.r.Symbols[id].Flags |= snapshot.FlagExported
			if k := x.r.Symbols[id].Kind; k == snapshot.KindClass || k == snapshot.KindInterface || k == snapshot.KindEnum {
				if late == nil {
					late = map[int32]bool{}
				}
				late[id] = true
			}
		}
	}
	// Members of a class exported by a later statement are exported too
	// (the classes of JavaScript have no other visibility than #names).
	for i := range x.r.Symbols {
		s := &x.r.Symbols[i]
		if s.Parent >= 0 && late[s.Parent] && !strings.HasPrefix(s.Name, "#") &&
			!strings.HasPrefix(s.Signature, "private ") && !strings.HasPrefix(s.Signature, "protected ") {
			s.Flags |= snapshot.FlagExported
		}
	}
	for _, ref := range x.deferred {
		if id, ok := x.topNames[ref.Name]; ok {
			if k := x.r.Symbols[id].Kind; k.IsCallable() || k == snapshot.KindClass {
				x.r.Refs = append(x.r.Refs, ref)
			}
		}
	}
}
