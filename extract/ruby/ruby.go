// Package ruby is knowing's Ruby extractor.
//
// Ruby has no packages: constants are namespaced by module nesting, and
// every file sees every top-level constant and method once loaded. So
// FileResult.Package is "" and qualified names come from nesting alone
// (`module Jekyll; class Tags::HighlightBlock; def render` is
// Jekyll.Tags.HighlightBlock.render), and all Ruby files share one Scope,
// so that a top-level name (module Jekyll, a top-level def) declared in
// one file is found from the others. A module or class reopened in several
// files gives one symbol per file, all with the same qualified name.
//
// Calls are recorded with what is known of the receiver: self, a constant
// path, a local or instance variable typed by `Foo.new` (or a YARD or
// Sorbet annotation, or the inferred result of a method), and chains
// through attributes (`@site.config` is Qual "self.site"). super calls the
// method of the same name in a base. Mixins (include, extend, prepend) are
// Implements, so their methods are found from the including class.
// RSpec examples (it/specify), shoulda `should` blocks and ActiveSupport
// `test "..."` blocks become test functions.
package ruby

import (
	"path"
	"strconv"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Scope is the scope of every Ruby file: top-level constants and methods
// are global in Ruby.
const Scope = "ruby"

func init() {
	extract.Register(&extract.Language{
		Lang:           snapshot.LangRuby,
		FieldsCallable: true,
		Grammars:       map[string]string{".rb": "ruby", ".rake": "ruby"},
		Extract:        extractRuby,
		ImplicitSelf:   true,
		SelfNames:      []string{"self"},
		SuperNames:     []string{"super"},
		TestName:       IsTestName,
	})
}

// IsTestName reports the names of tests: minitest's test_x methods and the
// functions made for RSpec, shoulda and ActiveSupport test blocks.
func IsTestName(n string) bool {
	return strings.HasPrefix(n, "test_") || strings.HasPrefix(n, "it_") || strings.HasPrefix(n, "should_") ||
		n == "test" || n == "it"
}

// typeCtx is a class or module body being read.
type typeCtx struct {
	sym       int32
	private   bool             // the default visibility of following defs
	fields    map[string]int32 // attribute / instance variable → field symbol
	methods   map[string]int32 // method name → symbol, for `private :m`
	singleton bool             // inside class << self
	name      string           // the type as written, dotted: "Tags.HighlightBlock"
}

// scope holds local variables and their types ("" unknown). Blocks chain
// to the enclosing scope; method and class bodies start afresh.
type scope struct {
	vars   map[string]string
	parent *scope
}

// fnCtx is the method (or test block) being read.
type fnCtx struct {
	sym  int32
	name string
}

// specCtx is an RSpec example group (describe/context) being read.
type specCtx struct {
	desc      string
	described string            // the described class, dotted
	lets      map[string]string // let/subject name → type
}

type sorbetSig struct {
	params  map[string]string
	returns string
	line    uint32
	doc     string // the comment above the sig, which documents the def
}

// extractor reads one file.
type extractor struct {
	extract.Base

	cls   *typeCtx
	fn    *fnCtx
	from  int32
	vars  *scope
	specs []*specCtx
	test  bool
	sig   *sorbetSig

	// The run of comments ending last, for doc comments.
	docEnd   uint32
	docParts []string

	topTypes   map[string]bool // top-level names of modules/classes declared in the file
	deps       map[string]bool // normalised names of the project's gem dependencies
	externals  map[string]bool // constants given an import as outside the repository
	typeRefs   map[typeRefKey]bool
	fileMethod map[string]bool // every method name the file defines
}

type typeRefKey struct {
	from int32
	name string
}

func extractRuby(f *extract.File, r *extract.FileResult) {
	r.Package, r.Scope = "", Scope
	setupOnce.Do(setup)
	x := &extractor{
		Base:       extract.Base{FlatTree: extract.NewNamedFlatTree(f.Root, f.Src, kindNames), F: f, R: r, Codes: codes},
		from:       -1,
		vars:       &scope{vars: map[string]string{}},
		test:       r.Flags&snapshot.FlagTest != 0 || extract.IsTestPath(f.Path),
		topTypes:   map[string]bool{},
		externals:  map[string]bool{},
		typeRefs:   map[typeRefKey]bool{},
		fileMethod: map[string]bool{},
	}
	defer x.Release()
	x.deps = dependencies(f.Repo, path.Dir(f.Path))
	const root = 0
	x.scanTopTypes(root)
	x.visit(root)
	x.finish()
}

// visitKids visits the named children of n.
func (x *extractor) visitKids(n int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.visit(c)
	}
}

func (x *extractor) visit(n int32) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kComment:
		x.comment(n)
	case kModule, kClass:
		x.typeDecl(n)
	case kSingletonClass:
		x.singletonClass(n)
	case kMethod, kSingletonMethod:
		x.method(n, false)
	case kCall:
		x.call(n)
	case kIdentifier:
		x.identifier(n)
	case kConstant:
		x.typeRef(x.Text(n), n)
	case kScopeRes:
		x.scopeRef(n)
	case kAssignment, kOpAssignment:
		x.assignment(n)
	case kSuper:
		x.superCall(n)
	case kBlock, kDoBlock, kLambda:
		x.block(n, nil)
	case kExceptionVar, kLeftList:
		x.bindLocals(n)
	case kFor:
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.N[c].Field == fPattern {
				x.bindLocals(c)
			} else {
				x.visit(c)
			}
		}
	case kPattern:
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.N[c].Field == fPattern {
				x.bindLocals(c)
			} else {
				x.visit(c)
			}
		}
	case kSkip, kSymbol, kLiteral, kHashKeySymbol, kSelf, kIVar, kClassVar, kGlobalVar:
		// names and values, no references
		if x.Code(n) == kLiteral && x.FirstNamed(n) >= 0 {
			x.visitKids(n)
		}
	case kParams:
		x.params(n, nil, nil)
	default:
		x.visitKids(n)
	}
}

// ---- comments and docs

func (x *extractor) comment(n int32) {
	line, end := x.Line(n), x.EndLine(n)
	txt := x.Text(n)
	if x.docEnd == 0 || x.docEnd+1 < line || x.trailing(n) {
		x.docParts = x.docParts[:0]
	}
	x.docEnd = end
	if x.trailing(n) {
		// end # class Foo: a remark on the code before it, not a doc
		// comment of what follows.
		return
	}
	if strings.HasPrefix(txt, "=begin") {
		txt = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(txt, "=begin"), "=end"))
		x.docParts = append(x.docParts, txt)
		return
	}
	body := strings.TrimSpace(strings.TrimLeft(txt, "#"))
	if isDirective(body) {
		return
	}
	x.docParts = append(x.docParts, body)
}

// trailing reports a comment that follows code on its line.
func (x *extractor) trailing(n int32) bool {
	for i := int(x.N[n].Start) - 1; i >= 0 && i < len(x.Src); i-- {
		switch x.Src[i] {
		case '\n':
			return false
		case ' ', '\t', '\r':
		default:
			return true
		}
	}
	return false
}

// isDirective reports magic comments and linter directives, which are not
// documentation.
func isDirective(s string) bool {
	for _, p := range []string{"frozen_string_literal:", "encoding:", "-*-", "coding:", "warn_indent:",
		"typed:", "rubocop:", "shareable_constant_value:", "@!", ":nodoc:", "standard:", "sorbet", "!/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// doc is the comment block ending on the line above line.
func (x *extractor) doc(line uint32) string {
	if x.docEnd == 0 || x.docEnd+1 != line || len(x.docParts) == 0 {
		return ""
	}
	s := strings.TrimSpace(strings.Join(x.docParts, "\n"))
	if len(s) > 4000 {
		s = s[:4000]
	}
	return s
}

// signature is the text of n from its start to end, on one line.
func (x *extractor) signature(n int32, end uint32) string {
	s := x.N[n].Start
	if end > uint32(len(x.Src)) || end < s {
		end = x.N[n].End
	}
	if end > uint32(len(x.Src)) {
		return ""
	}
	sig := strings.Join(strings.Fields(string(x.Src[s:end])), " ")
	if len(sig) > 240 {
		sig = sig[:240] + "…"
	}
	return sig
}

// ---- symbols

// container is the symbol new declarations nest in.
func (x *extractor) container() int32 {
	if x.cls != nil {
		return x.cls.sym
	}
	return -1
}

// scanTopTypes records the names of the top-level modules and classes the
// file declares, so that a core name reopened here (class String) is not
// taken for the outside one.
func (x *extractor) scanTopTypes(root int32) {
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		if k := x.Code(c); k == kModule || k == kClass {
			if name := x.Field(c, fName); name >= 0 {
				first, _, _ := strings.Cut(x.constPath(name), ".")
				x.topTypes[first] = true
			}
		}
	}
}

// constPath renders a constant or scope resolution dotted: Foo::Bar →
// "Foo.Bar", ::Foo → "Foo". Anything else gives "".
func (x *extractor) constPath(n int32) string {
	switch x.Code(n) {
	case kConstant:
		return x.Text(n)
	case kScopeRes:
		name := x.Field(n, fName)
		scope := x.Field(n, fScope)
		if name < 0 {
			return ""
		}
		if scope < 0 {
			return x.Text(name)
		}
		s := x.constPath(scope)
		if s == "" {
			return ""
		}
		return s + "." + x.Text(name)
	}
	return ""
}

func (x *extractor) typeDecl(n int32) {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		x.visitKids(n)
		return
	}
	full := x.constPath(nameNode)
	if full == "" {
		x.visitKids(n)
		return
	}
	qual, name := extract.SplitName(full)
	parent := x.container()
	if x.Code(nameNode) == kScopeRes && x.Field(nameNode, fScope) < 0 {
		parent = -1 // class ::Foo is top level
	}
	s := extract.Symbol{
		Name: name, Qual: qual, Kind: snapshot.KindModule, Parent: parent,
		Start: x.Line(n), End: x.EndLine(n), Doc: x.doc(x.Line(n)),
		Flags: snapshot.FlagExported,
	}
	superExpr := int32(-1)
	if x.Code(n) == kClass {
		s.Kind = snapshot.KindClass
		if sc := x.Field(n, fSuperclass); sc >= 0 {
			if superExpr = x.FirstNamed(sc); superExpr >= 0 {
				if p := x.constPath(superExpr); p != "" {
					s.Extends = []string{p}
					x.external(p)
				}
			}
		}
	}
	end := x.N[nameNode].End
	if sc := x.Field(n, fSuperclass); sc >= 0 {
		end = x.N[sc].End
	}
	s.Signature = x.signature(n, end)
	id := x.Add(s)

	saved, savedFrom, savedVars, savedFn := x.cls, x.from, x.vars, x.fn
	clsName := full
	if saved != nil && parent == saved.sym && saved.name != "" {
		clsName = saved.name + "." + full
	}
	x.cls = &typeCtx{sym: id, fields: map[string]int32{}, methods: map[string]int32{}, name: clsName}
	x.from, x.vars, x.fn = id, &scope{vars: map[string]string{}}, nil
	if superExpr >= 0 && x.Code(superExpr) == kCall {
		// class Point < Struct.new(:x, :y)
		x.structFields(superExpr)
		x.visit(superExpr)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if f := x.N[c].Field; f == fName || f == fSuperclass {
			continue
		}
		x.visit(c)
	}
	x.cls, x.from, x.vars, x.fn = saved, savedFrom, savedVars, savedFn
}

func (x *extractor) singletonClass(n int32) {
	if x.cls == nil {
		x.visitKids(n)
		return
	}
	savedSingleton, savedPrivate := x.cls.singleton, x.cls.private
	x.cls.singleton, x.cls.private = true, false
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fValue {
			continue
		}
		x.visit(c)
	}
	x.cls.singleton, x.cls.private = savedSingleton, savedPrivate
}

// method declares a def (or def self.x). forcePrivate marks `private def`.
func (x *extractor) method(n int32, forcePrivate bool) int32 {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		return -1
	}
	name := x.Text(nameNode)
	singleton := x.Code(n) == kSingletonMethod
	params := x.Field(n, fParameters)
	body := x.Field(n, fBody)
	kind := snapshot.KindMethod
	switch {
	case x.cls == nil:
		kind = snapshot.KindFunction
	case name == "initialize" && !singleton && !x.cls.singleton:
		kind = snapshot.KindConstructor
	}
	line := x.Line(n)
	doc := x.doc(line)
	var flags snapshot.Flags
	// private sections do not apply to def self.m.
	if x.cls != nil && (!x.cls.private || singleton) && !forcePrivate {
		flags = snapshot.FlagExported
	}
	var end uint32
	switch {
	case body >= 0:
		end = x.N[body].Start
	case params >= 0:
		end = x.N[params].End
	default:
		end = x.N[nameNode].End
	}
	sig := strings.TrimSpace(strings.TrimSuffix(x.signature(n, end), "="))
	if body >= 0 && x.Code(body) != kBodyStatement {
		// def m(x) = expr: the signature ends before "="
		sig = strings.TrimSpace(strings.TrimSuffix(sig, "="))
	}
	s := extract.Symbol{
		Name: name, Kind: kind, Parent: x.container(), Start: line, End: x.EndLine(n),
		Signature: sig, Doc: doc, Flags: flags,
	}
	yard := parseYard(doc)
	if yard.returns != "" {
		s.Type = yard.returns
	}
	sig2 := x.takeSig(line)
	if sig2 != nil && sig2.returns != "" && s.Type == "" {
		s.Type = sig2.returns
	}
	if sig2 != nil && s.Doc == "" {
		s.Doc = sig2.doc
	}
	id := x.Add(s)
	x.fileMethod[name] = true
	if x.cls != nil {
		x.cls.methods[name] = id
	}
	for _, t := range yard.types {
		x.hint(id, t)
	}
	if sig2 != nil {
		for _, t := range sig2.params {
			x.hint(id, t)
		}
		if sig2.returns != "" {
			x.hint(id, sig2.returns)
		}
	}

	savedFn, savedFrom, savedVars := x.fn, x.from, x.vars
	x.fn, x.from, x.vars = &fnCtx{sym: id, name: name}, id, &scope{vars: map[string]string{}}
	if params >= 0 {
		x.params(params, yard.params, sig2)
	}
	if body >= 0 {
		x.visit(body)
		if x.R.Symbols[id].Type == "" {
			x.R.Symbols[id].Type = x.resultType(body)
		}
	}
	x.fn, x.from, x.vars = savedFn, savedFrom, savedVars
	return id
}

// resultType infers the type of what a method body returns from its last
// expression: Foo.new, self, a typed local, a memoised @x ||= Foo.new.
func (x *extractor) resultType(body int32) string {
	last := body
	if k := x.Code(body); k == kBodyStatement || k == kBlockBody || k == kBegin {
		last = -1
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			switch x.Code(c) {
			case kComment, kRescue, kElse, kEnsure:
				continue
			}
			last = c
		}
	}
	if last < 0 {
		return ""
	}
	if x.Code(last) == kSelf && x.cls != nil {
		return "self"
	}
	// "call:" results are not followed: result types are read as names.
	return declType(x.exprType(last))
}

func (x *extractor) hint(from int32, typ string) {
	if typ == "" || coreConstants[extract.FirstName(typ)] {
		return
	}
	q, name := extract.SplitName(typ)
	x.AddRef(extract.Ref{From: from, Kind: extract.RefTypeHint, Name: name, Qual: q,
		Line: x.R.Symbols[from].Start})
}

func (x *extractor) params(n int32, yard map[string]string, sig *sorbetSig) {
	typeOf := func(name string) string {
		if t := yard[name]; t != "" {
			return t
		}
		if sig != nil && sig.params[name] != "" {
			return sig.params[name]
		}
		return x.guess(name)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Code(c) {
		case kIdentifier:
			name := x.Text(c)
			x.vars.vars[name] = typeOf(name)
		case kOptionalParam, kKeywordParam, kSplatParam, kBlockParam:
			if nm := x.Field(c, fName); nm >= 0 {
				name := x.Text(nm)
				x.vars.vars[name] = typeOf(name)
			}
			if v := x.Field(c, fValue); v >= 0 {
				x.visit(v)
			}
		case kDestructuredParam:
			x.params(c, nil, nil)
		}
	}
}

// guess types a parameter by its name, the Ruby convention for duck-typed
// arguments: site → Site, static_file → StaticFile. The guess only counts
// when the repository has a class of that name, and calls of core methods
// through it are not recorded.
func (x *extractor) guess(name string) string {
	if len(name) < 4 || name[0] < 'a' || name[0] > 'z' {
		return ""
	}
	c := camelize(name)
	if c == "" || x.outside(c) || coreConstants[c] {
		return ""
	}
	return "?" + c
}

// bindLocals declares the identifiers of an assignment target list,
// rescue variable or pattern as untyped locals, and visits the rest.
func (x *extractor) bindLocals(n int32) {
	switch x.Code(n) {
	case kIdentifier:
		x.vars.set(x.Text(n), "")
		return
	case kExceptionVar:
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Code(c) == kIdentifier {
				x.vars.set(x.Text(c), coreValue)
			}
		}
		return
	case kCall, kElementRef, kScopeRes, kConstant, kIVar:
		x.visit(n)
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fValue && x.Code(n) == kPair {
			x.bindLocals(c)
			continue
		}
		x.bindLocals(c)
	}
}

func (s *scope) lookup(name string) (string, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if t, ok := sc.vars[name]; ok {
			return t, true
		}
	}
	return "", false
}

// set assigns a local: an existing one in an enclosing block scope, or a
// new one in the innermost. A known type is not forgotten by a later
// untyped assignment.
func (s *scope) set(name, typ string) {
	for sc := s; sc != nil; sc = sc.parent {
		if old, ok := sc.vars[name]; ok {
			if typ != "" || old == "" {
				sc.vars[name] = typ
			}
			return
		}
	}
	s.vars[name] = typ
}

func (x *extractor) block(n int32, preset map[string]string) {
	saved := x.vars
	x.vars = &scope{vars: map[string]string{}, parent: saved}
	for k, v := range preset {
		x.vars.vars[k] = v
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fParameters {
			x.params(c, nil, nil)
			continue
		}
		x.visit(c)
	}
	x.vars = saved
}

// ---- references

// typeRef records a use of a constant as a type.
func (x *extractor) typeRef(path string, n int32) {
	if path == "" {
		return
	}
	first := extract.FirstName(path)
	if isAllCaps(extract.LastName(path)) || x.outside(first) {
		return
	}
	k := typeRefKey{x.from, path}
	if x.typeRefs[k] {
		return
	}
	x.typeRefs[k] = true
	q, name := extract.SplitName(path)
	x.AddRef(extract.Ref{From: x.from, Kind: extract.RefType, Name: name, Qual: q, Line: x.Line(n)})
}

func (x *extractor) scopeRef(n int32) {
	if p := x.constPath(n); p != "" {
		x.typeRef(p, n)
		return
	}
	x.visitKids(n) // expr::Const
}

// isAllCaps reports value-constant names like SYNTAX or DEFAULT_OPTS.
func isAllCaps(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// external marks the first constant of a path as outside the repository
// when it is a Ruby core or standard library constant not declared in the
// file, by giving the file an import of it; the resolver then does not
// look for its methods in the repository.
func (x *extractor) external(p string) bool {
	first := extract.FirstName(p)
	if !x.outside(first) {
		return x.externals[first]
	}
	if !x.externals[first] {
		x.externals[first] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: first})
	}
	return true
}

// outside reports a top constant of Ruby's core or of a gem the project
// depends on, unless the file declares it.
func (x *extractor) outside(first string) bool {
	if x.topTypes[first] {
		return false
	}
	return coreConstants[first] || x.deps[normConst(first)]
}

func (x *extractor) identifier(n int32) {
	name := x.Text(n)
	if _, ok := x.vars.lookup(name); ok {
		return
	}
	if x.fn == nil && x.cls != nil {
		switch name {
		case "private", "protected":
			x.cls.private = true
			return
		case "public", "module_function":
			x.cls.private = false
			return
		}
	}
	if _, ok := x.letType(name); ok {
		return
	}
	if x.cls != nil {
		if _, ok := x.cls.fields[name]; ok && x.fieldIsAttr(name) {
			return // an attribute read
		}
	}
	x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
}

func (x *extractor) fieldIsAttr(name string) bool {
	id := x.cls.fields[name]
	return id >= 0 && strings.HasPrefix(x.R.Symbols[id].Signature, "attr")
}

func (x *extractor) letType(name string) (string, bool) {
	for i := len(x.specs) - 1; i >= 0; i-- {
		if t, ok := x.specs[i].lets[name]; ok {
			return t, true
		}
	}
	if name == "described_class" {
		for i := len(x.specs) - 1; i >= 0; i-- {
			if d := x.specs[i].described; d != "" {
				return d, true
			}
		}
	}
	if name == "subject" {
		for i := len(x.specs) - 1; i >= 0; i-- {
			if d := x.specs[i].described; d != "" {
				return d, true
			}
		}
	}
	return "", false
}

func (x *extractor) superCall(n int32) {
	if x.fn != nil {
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: x.fn.name, Qual: "super", Line: x.Line(n)})
	}
}

// Receiver classes.
const (
	rNone    = iota
	rSelf    // self
	rConst   // Foo: a constant named directly
	rTyped   // a typed local, Foo.new, Foo::Bar
	rChain   // through attributes or results of other calls
	rUntyped // an untyped local or an unknown expression
	rLiteral // a literal or core value: calls on it are core methods
	rGuess   // a parameter typed by its name only
)

// local describes a local variable receiver of type t.
func local(name, t string) (string, string, int) {
	switch {
	case t == "":
		return name, "", rUntyped
	case t == coreValue:
		return "", "", rLiteral
	case t[0] == '?':
		return name, t[1:], rGuess
	}
	return name, t, rTyped
}

// receiver describes the object a call is made on, as Qual and QualType.
func (x *extractor) receiver(n int32, depth int) (qual, qualType string, class int) {
	if depth > 5 {
		return "", "", rUntyped
	}
	switch x.Code(n) {
	case kSelf:
		return "self", "", rSelf
	case kIdentifier:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok {
			return local(name, t)
		}
		if t, ok := x.letType(name); ok {
			return local(name, t)
		}
		return "self." + name, "", rChain
	case kIVar:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok && t != "" {
			return local(name, t)
		}
		return "self." + strings.TrimPrefix(name, "@"), "", rChain
	case kConstant:
		p := x.Text(n)
		if x.external(p) {
			return "", "", rLiteral
		}
		if isAllCaps(p) {
			return p, "", rGuess // a value constant: its type is not known
		}
		return p, "", rConst
	case kScopeRes:
		p := x.constPath(n)
		if p == "" {
			return "", "", rUntyped
		}
		if x.external(p) {
			return "", "", rLiteral
		}
		if !strings.Contains(p, ".") {
			return p, "", rConst
		}
		return strings.ReplaceAll(p, ".", "::"), p, rTyped
	case kParenthesized:
		if c := x.FirstNamed(n); c >= 0 && x.NextNamed(c) < 0 {
			return x.receiver(c, depth+1)
		}
		return "", "", rUntyped
	case kCall:
		recv := x.Field(n, fReceiver)
		m := x.Field(n, fMethod)
		if m < 0 {
			return "", "", rUntyped
		}
		mname := x.Text(m)
		if recv < 0 {
			if x.Code(m) == kSuper || kernelCalls[mname] {
				return "", "", rUntyped
			}
			if t, ok := x.letType(mname); ok && t != "" {
				return mname, t, rTyped
			}
			return "self." + mname, "", rChain
		}
		if mname == "new" {
			if p := x.constPath(recv); p != "" {
				if x.external(p) {
					return "", "", rLiteral
				}
				return strings.ReplaceAll(p, ".", "::"), p, rTyped
			}
		}
		if mname == "class" && x.Code(recv) == kSelf {
			return "self", "", rSelf // self.class.m: a method of the own class
		}
		if coreResults[mname] {
			return "", "", rLiteral
		}
		q, qt, c := x.receiver(recv, depth+1)
		switch c {
		case rLiteral, rNone:
			return "", "", rLiteral
		case rUntyped:
			return "", "", rUntyped
		}
		if c == rConst && x.externals[extract.FirstName(q)] {
			return "", "", rLiteral
		}
		if mname == "class" {
			return q, qt, c // x.class.m: a class method of x's type
		}
		if strings.Count(q, ".") >= 4 {
			return "", "", rUntyped
		}
		return q + "." + mname, qt, rChain
	case kString, kSymbol, kLiteral, kArray, kHash:
		return "", "", rLiteral
	}
	return "", "", rUntyped
}

func (x *extractor) call(n int32) {
	recv := x.Field(n, fReceiver)
	m := x.Field(n, fMethod)
	args := x.Field(n, fArguments)
	blk := x.Field(n, fBlock)
	if m < 0 {
		x.visitKids(n)
		return
	}
	line := x.Line(n)
	if x.Code(m) == kSuper {
		x.superCall(n)
		x.visit(args)
		x.visit(blk)
		return
	}
	mname := x.Text(m)
	if recv < 0 {
		if x.special(n, mname, args, blk) {
			return
		}
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Line: line})
		x.visit(args)
		x.visit(blk)
		return
	}
	if mname == "describe" && x.Code(recv) == kConstant && x.Text(recv) == "RSpec" {
		x.describe(n, args, blk)
		return
	}
	if mname == "new" {
		if p := x.constPath(recv); p != "" {
			x.typeRef(p, recv)
			if !x.external(p) {
				if strings.Contains(p, ".") {
					x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: "initialize",
						Qual: strings.ReplaceAll(p, ".", "::"), QualType: p, Line: line})
				} else {
					x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: "initialize", Qual: p, Line: line})
				}
			}
			x.visit(args)
			x.visit(blk)
			return
		}
	}
	q, qt, class := x.receiver(recv, 0)
	if class == rTyped && strings.HasPrefix(qt, "call:") {
		class = rChain // the result of a call: often not known after all
	}
	if class == rSelf && mname == "class" {
		class = rLiteral // self.class: Kernel#class
	}
	switch class {
	case rLiteral:
	case rSelf, rConst, rTyped:
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Qual: q, QualType: qt, Line: line})
	default:
		if !coreMethods[mname] {
			if q == "" {
				q = "?"
			}
			x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Qual: q, QualType: qt, Line: line})
		}
	}
	x.visit(recv)
	x.visit(args)
	x.visit(blk)
}

// special handles receiverless calls that declare something: require,
// attr_*, include, visibility, delegators, define_method, RSpec blocks.
// It reports whether the call was consumed.
func (x *extractor) special(n int32, mname string, args, blk int32) bool {
	switch mname {
	case "require", "require_relative", "load":
		if s := x.firstString(args); s != "" {
			x.require(mname, s)
			return true
		}
	case "autoload":
		if cs := x.argNodes(args); len(cs) == 2 {
			if s := x.stringValue(cs[1]); s != "" {
				x.require("require", s)
				return true
			}
		}
	case "attr_reader", "attr_writer", "attr_accessor", "attr":
		if x.cls != nil && x.fn == nil {
			x.attrs(n, args)
			return true
		}
	case "include", "extend", "prepend":
		if x.cls != nil && x.fn == nil {
			for _, a := range x.argNodes(args) {
				if p := x.constPath(a); p != "" {
					s := &x.R.Symbols[x.cls.sym]
					s.Implements = append(s.Implements, p)
					x.external(p)
				}
			}
			return true
		}
	case "private", "protected", "public", "module_function", "private_class_method",
		"public_class_method", "private_constant":
		if x.cls != nil {
			x.visibility(mname, args)
			return true
		}
	case "def_delegators", "def_delegator", "delegate", "def_instance_delegators", "def_instance_delegator":
		if x.cls != nil && x.fn == nil {
			x.delegators(n, mname, args)
			return true
		}
	case "alias_method":
		if x.cls != nil && x.fn == nil {
			if cs := x.argNodes(args); len(cs) == 2 {
				x.alias(n, x.symbolValue(cs[0]), x.symbolValue(cs[1]))
				return true
			}
		}
	case "define_method":
		if blk >= 0 {
			if cs := x.argNodes(args); len(cs) >= 1 {
				if name := x.symbolValue(cs[0]); name != "" {
					x.defineMethod(n, name, blk)
					return true
				}
			}
		}
	case "sig":
		if blk >= 0 && args < 0 {
			x.sorbetSig(n, blk)
			return true
		}
	case "let", "let!", "subject", "subject!", "given", "given!":
		if blk >= 0 && (x.test || len(x.specs) > 0) {
			x.let(mname, args, blk)
			return true
		}
	}
	if rspecGroups[mname] && blk >= 0 && (x.test || len(x.specs) > 0 || mname == "describe") {
		x.describe(n, args, blk)
		return true
	}
	if rspecExamples[mname] && blk >= 0 && (x.test || len(x.specs) > 0) {
		x.example(n, mname, args, blk)
		return true
	}
	return false
}

// argNodes lists the arguments of an argument list (args may be -1),
// comments aside.
func (x *extractor) argNodes(args int32) []int32 {
	var out []int32
	for c := x.FirstNamed(args); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) != kComment {
			out = append(out, c)
		}
	}
	return out
}

// stringValue is the text of a plain string literal, or "".
func (x *extractor) stringValue(n int32) string {
	if x.Code(n) != kString {
		return ""
	}
	if x.FirstNamed(n) < 0 {
		return ""
	}
	var b strings.Builder
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "string_content" {
			return ""
		}
		b.WriteString(x.Text(c))
	}
	return b.String()
}

// descText is the text of a description argument: a string (with
// interpolations kept as written), a symbol or a constant.
func (x *extractor) descText(n int32) string {
	switch x.Code(n) {
	case kString:
		return strings.Trim(x.Text(n), `"'`)
	case kSymbol:
		return strings.TrimPrefix(x.Text(n), ":")
	}
	return x.Text(n)
}

func (x *extractor) firstString(args int32) string {
	cs := x.argNodes(args)
	if len(cs) == 0 {
		return ""
	}
	return x.stringValue(cs[0])
}

// symbolValue is the name in :name or "name".
func (x *extractor) symbolValue(n int32) string {
	switch x.Code(n) {
	case kSymbol:
		return strings.Trim(strings.TrimPrefix(x.Text(n), ":"), `"'`)
	case kString:
		return x.stringValue(n)
	}
	return ""
}

// ---- imports

func (x *extractor) exists(rel string) bool { return x.F.Repo.Exists(rel) }

// require records `require "a/b"` (or require_relative): when the file
// is in the repository, as an import of the module the path names by
// convention (a/b → A::B, so the import links to it when it exists);
// otherwise as an outside library whose top constant is the camelised
// first path element.
func (x *extractor) require(how, p string) {
	p = strings.TrimSuffix(p, ".rb")
	dir := path.Dir(x.F.Path)
	internal := ""
	if how == "require_relative" {
		internal = path.Clean(path.Join(dir, p))
		if strings.HasPrefix(internal, "../") {
			internal = ""
		}
	} else if x.F.Repo != nil && !strings.HasPrefix(p, ".") {
		cands := []string{"lib/" + p}
		if gemDir, _, ok := x.F.Repo.FindUp(dir, "Gemfile"); ok && gemDir != "" {
			cands = append([]string{gemDir + "/lib/" + p}, cands...)
		}
		cands = append(cands, p)
		for _, c := range cands {
			if x.exists(c + ".rb") {
				internal = c
				break
			}
		}
	}
	if internal == "" && how == "require_relative" {
		x.R.Imports = append(x.R.Imports, extract.Import{Path: p})
		return
	}
	if internal == "" {
		first, _, _ := strings.Cut(p, "/")
		alias := camelize(first)
		if alias == "" || x.topTypes[alias] {
			x.R.Imports = append(x.R.Imports, extract.Import{Path: p})
			return
		}
		// An outside library: the import stands for its top constant
		// (minitest/autorun → Minitest), so that its types become
		// external nodes named as Ruby names them (Minitest.Test) and
		// calls on it are not looked for in the repository.
		x.externals[alias] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: alias})
		return
	}
	// Drop the load-path folder: lib/jekyll/filters → jekyll/filters.
	if i := strings.LastIndex(internal, "lib/"); i >= 0 && (i == 0 || internal[i-1] == '/') {
		internal = internal[i+4:]
	}
	segs := strings.Split(internal, "/")
	for i, s := range segs {
		segs[i] = camelize(s)
	}
	if len(segs) < 2 {
		x.R.Imports = append(x.R.Imports, extract.Import{Path: internal})
		return
	}
	x.R.Imports = append(x.R.Imports, extract.Import{
		Path: strings.Join(segs[:len(segs)-1], "."), Name: segs[len(segs)-1]})
}

// camelize turns a file name into the constant it conventionally defines:
// entry_filter → EntryFilter, jekyll-feed → JekyllFeed.
func camelize(s string) string {
	var b strings.Builder
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
				return ""
			}
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}

// ---- declarations made by calls

func (x *extractor) attrs(n, args int32) {
	line := x.Line(n)
	doc := x.doc(line)
	yard := parseYard(doc)
	sig := x.signature(n, x.N[n].End)
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	for _, a := range x.argNodes(args) {
		name := x.symbolValue(a)
		if name == "" {
			continue
		}
		if id, ok := x.cls.fields[name]; ok {
			if strings.HasPrefix(x.R.Symbols[id].Signature, "@") {
				x.R.Symbols[id].Signature = sig
			}
			continue
		}
		id := x.Add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: x.cls.sym, Start: line,
			End: x.EndLine(n), Signature: sig, Doc: doc, Flags: flags, Type: yard.returns})
		x.cls.fields[name] = id
	}
}

// ivar notes an instance variable assignment: the field it stands for
// gets the assigned type, and a field symbol is made for variables
// assigned in initialize or with a known type.
func (x *extractor) ivar(name, typ string, n int32) {
	if x.cls == nil || x.cls.singleton {
		return
	}
	bare := strings.TrimPrefix(name, "@")
	if bare == "" {
		return
	}
	typ = declType(typ)
	if id, ok := x.cls.fields[bare]; ok {
		if typ != "" && x.R.Symbols[id].Type == "" {
			x.R.Symbols[id].Type = typ
		}
		return
	}
	if typ == "" && (x.fn == nil || x.fn.name != "initialize") {
		return
	}
	id := x.Add(extract.Symbol{Name: bare, Kind: snapshot.KindField, Parent: x.cls.sym,
		Start: x.Line(n), End: x.Line(n), Signature: x.signature(n, x.N[n].End), Type: typ})
	x.cls.fields[bare] = id
}

func (x *extractor) visibility(mname string, args int32) {
	cs := x.argNodes(args)
	if len(cs) == 0 {
		switch mname {
		case "private", "protected":
			x.cls.private = true
		case "public", "module_function":
			x.cls.private = false
		}
		return
	}
	private := mname == "private" || mname == "protected" || mname == "private_class_method" ||
		mname == "private_constant"
	for _, a := range cs {
		switch x.Code(a) {
		case kMethod, kSingletonMethod:
			x.method(a, private)
			continue
		case kSymbol, kString:
			name := x.symbolValue(a)
			id, ok := x.cls.methods[name]
			if !ok {
				id, ok = x.cls.fields[name]
			}
			if !ok {
				id, ok = x.constByName(name)
			}
			if ok {
				if private {
					x.R.Symbols[id].Flags &^= snapshot.FlagExported
				} else {
					x.R.Symbols[id].Flags |= snapshot.FlagExported
				}
			}
			continue
		}
		x.visit(a)
	}
}

func (x *extractor) constByName(name string) (int32, bool) {
	for i := len(x.R.Symbols) - 1; i > int(x.cls.sym); i-- {
		s := &x.R.Symbols[i]
		if s.Parent == x.cls.sym && s.Name == name {
			return int32(i), true
		}
	}
	return 0, false
}

// delegators declares the methods Forwardable (def_delegators :@obj, :a)
// and ActiveSupport (delegate :a, to: :obj) generate, each calling the
// method of the same name on the target.
func (x *extractor) delegators(n int32, mname string, args int32) {
	cs := x.argNodes(args)
	line := x.Line(n)
	doc := x.doc(line)
	sig := x.signature(n, x.N[n].End)
	target := ""
	var names [][2]string // declared name, called name
	switch mname {
	case "delegate":
		for _, a := range cs {
			if x.Code(a) == kPair {
				k, v := x.Field(a, fKey), x.Field(a, fValue)
				if k >= 0 && v >= 0 && strings.TrimSuffix(strings.TrimPrefix(x.Text(k), ":"), ":") == "to" {
					target = x.symbolValue(v)
				}
				continue
			}
			if nm := x.symbolValue(a); nm != "" {
				names = append(names, [2]string{nm, nm})
			}
		}
	case "def_delegator", "def_instance_delegator":
		if len(cs) >= 2 {
			target = x.symbolValue(cs[0])
			called := x.symbolValue(cs[1])
			decl := called
			if len(cs) >= 3 {
				decl = x.symbolValue(cs[2])
			}
			names = append(names, [2]string{decl, called})
		}
	default:
		if len(cs) >= 2 {
			target = x.symbolValue(cs[0])
			for _, a := range cs[1:] {
				if nm := x.symbolValue(a); nm != "" {
					names = append(names, [2]string{nm, nm})
				}
			}
		}
	}
	qual := ""
	switch {
	case target == "" || target == "self":
		qual = "self"
	case strings.HasPrefix(target, "@@"):
	case strings.HasPrefix(target, "@"):
		qual = "self." + target[1:]
	default:
		qual = "self." + target
	}
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	for _, nm := range names {
		if nm[0] == "" || nm[1] == "" {
			continue
		}
		id := x.Add(extract.Symbol{Name: nm[0], Kind: snapshot.KindMethod, Parent: x.cls.sym, Start: line,
			End: x.EndLine(n), Signature: sig, Doc: doc, Flags: flags})
		x.cls.methods[nm[0]] = id
		x.fileMethod[nm[0]] = true
		if qual != "" && !coreMethods[nm[1]] {
			x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: nm[1], Qual: qual, Line: line})
		}
	}
}

// alias declares alias_method :new, :old as a method calling old.
func (x *extractor) alias(n int32, newName, old string) {
	if newName == "" || old == "" {
		return
	}
	line := x.Line(n)
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	id := x.Add(extract.Symbol{Name: newName, Kind: snapshot.KindMethod, Parent: x.cls.sym, Start: line,
		End: x.EndLine(n), Signature: x.signature(n, x.N[n].End), Doc: x.doc(line), Flags: flags})
	x.cls.methods[newName] = id
	x.fileMethod[newName] = true
	x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: old, Qual: "self", Line: line})
}

func (x *extractor) defineMethod(n int32, name string, blk int32) {
	line := x.Line(n)
	kind := snapshot.KindMethod
	if x.cls == nil {
		kind = snapshot.KindFunction
	}
	flags := snapshot.Flags(0)
	if x.cls != nil && !x.cls.private {
		flags = snapshot.FlagExported
	}
	id := x.Add(extract.Symbol{Name: name, Kind: kind, Parent: x.container(), Start: line,
		End: x.EndLine(n), Signature: x.signature(n, x.N[blk].Start), Doc: x.doc(line), Flags: flags})
	if x.cls != nil {
		x.cls.methods[name] = id
	}
	x.fileMethod[name] = true
	savedFn, savedFrom := x.fn, x.from
	x.fn, x.from = &fnCtx{sym: id, name: name}, id
	x.block(blk, nil)
	x.fn, x.from = savedFn, savedFrom
}

// ---- assignments

func (x *extractor) assignment(n int32) {
	left, right := x.Field(n, fLeft), x.Field(n, fRight)
	if left < 0 {
		x.visitKids(n)
		return
	}
	switch x.Code(left) {
	case kIdentifier:
		x.visit(right)
		typ := ""
		if right >= 0 {
			typ = x.exprType(right)
		}
		x.vars.set(x.Text(left), typ)
	case kIVar:
		x.visit(right)
		typ := ""
		if right >= 0 {
			typ = x.exprType(right)
		}
		name := x.Text(left)
		if typ != "" && x.fn != nil {
			x.vars.set(name, typ)
		}
		x.ivar(name, typ, n)
	case kConstant, kScopeRes:
		if x.Code(n) == kAssignment && x.fn == nil && right >= 0 {
			x.constant(n, left, right)
			return
		}
		x.visit(right)
	case kCall:
		// A setter: obj.attr = value
		recv, m := x.Field(left, fReceiver), x.Field(left, fMethod)
		if recv >= 0 && m >= 0 {
			q, qt, class := x.receiver(recv, 0)
			name := x.Text(m) + "="
			switch class {
			case rSelf, rConst, rTyped, rChain:
				x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: name, Qual: q, QualType: qt,
					Line: x.Line(left)})
			}
			x.visit(recv)
		} else {
			x.visit(left)
		}
		x.visit(right)
	case kLeftList:
		x.bindLocals(left)
		x.visit(right)
	default:
		x.visit(left)
		x.visit(right)
	}
}

// constant declares FOO = value, or a class made by Struct.new, Class.new,
// Module.new or Data.define.
func (x *extractor) constant(n, left, right int32) {
	full := x.constPath(left)
	if full == "" {
		x.visit(right)
		return
	}
	qual, name := extract.SplitName(full)
	line := x.Line(n)
	s := extract.Symbol{Name: name, Qual: qual, Kind: snapshot.KindConstant, Parent: x.container(),
		Start: line, End: x.EndLine(n), Doc: x.doc(line), Flags: snapshot.FlagExported}
	blk, args := int32(-1), int32(-1)
	if x.Code(right) == kCall {
		recv, m := x.Field(right, fReceiver), x.Field(right, fMethod)
		if recv >= 0 && m >= 0 {
			rp, mn := x.constPath(recv), x.Text(m)
			switch {
			case (rp == "Struct" || rp == "Class") && mn == "new", rp == "Data" && mn == "define":
				s.Kind = snapshot.KindClass
			case rp == "Module" && mn == "new":
				s.Kind = snapshot.KindModule
			}
			if s.Kind != snapshot.KindConstant {
				blk, args = x.Field(right, fBlock), x.Field(right, fArguments)
				if rp == "Class" {
					if as := x.argNodes(args); len(as) > 0 {
						if p := x.constPath(as[0]); p != "" {
							s.Extends = []string{p}
						}
					}
				}
			}
		}
	}
	end := x.N[n].End
	if blk >= 0 {
		end = x.N[blk].Start
	}
	s.Signature = x.signature(n, end)
	if s.Kind == snapshot.KindConstant {
		s.Type = declType(x.exprType(right))
	}
	id := x.Add(s)
	if s.Kind == snapshot.KindConstant {
		savedFrom := x.from
		x.from = id
		x.visit(right)
		x.from = savedFrom
		return
	}
	saved, savedFrom, savedVars := x.cls, x.from, x.vars
	x.cls = &typeCtx{sym: id, fields: map[string]int32{}, methods: map[string]int32{}, name: full}
	x.from, x.vars = id, &scope{vars: map[string]string{}}
	if s.Kind == snapshot.KindClass && args >= 0 {
		x.structFields(right)
	}
	if blk >= 0 {
		x.block(blk, nil)
	}
	x.cls, x.from, x.vars = saved, savedFrom, savedVars
}

// structFields declares the members of Struct.new(:a, :b) / Data.define as
// fields of the current class.
func (x *extractor) structFields(call int32) {
	recv, m := x.Field(call, fReceiver), x.Field(call, fMethod)
	if recv < 0 || m < 0 {
		return
	}
	rp, mn := x.constPath(recv), x.Text(m)
	if !(rp == "Struct" && mn == "new" || rp == "Data" && mn == "define") {
		return
	}
	args := x.Field(call, fArguments)
	for _, a := range x.argNodes(args) {
		if x.Code(a) != kSymbol {
			continue
		}
		name := x.symbolValue(a)
		if _, ok := x.cls.fields[name]; ok || name == "" {
			continue
		}
		x.cls.fields[name] = x.Add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: x.cls.sym,
			Start: x.Line(a), End: x.Line(a), Signature: "attr_accessor :" + name,
			Flags: snapshot.FlagExported})
	}
}

// Inferred types are written names ("Foo", "Foo.Bar") or:
//
//	"call:f", "call:self.f", "call:Foo.f"  the result of that call
//	"?Foo"  guessed from a parameter's name (site → Site)
//	"!"     a value of a core class (a literal, File.read(...), x.to_s)
const coreValue = "!"

// declType turns an inferred type into one a symbol can declare, or "".
func declType(t string) string {
	if t == coreValue || strings.HasPrefix(t, "call:") {
		return ""
	}
	return strings.TrimPrefix(t, "?")
}

// coreResults are core methods whose result is surely a core value
// (a string, an array, a hash, a number, a boolean).
var coreResults = extract.WordSet("to_s", "to_str", "to_sym", "to_a", "to_h", "to_i", "to_f", "to_json", "to_yaml",
	"inspect", "map", "collect", "flat_map", "select", "filter", "reject", "filter_map", "keys", "values",
	"split", "join", "gsub", "sub", "strip", "lstrip", "rstrip", "chomp", "downcase", "upcase",
	"capitalize", "size", "length", "count", "group_by", "partition", "sort", "sort_by", "uniq",
	"compact", "flatten", "merge", "zip", "each_slice", "each_with_index", "chars", "lines", "bytes",
	"include?", "key?", "empty?", "nil?", "any?", "all?", "none?", "start_with?", "end_with?",
	"match?", "is_a?", "respond_to?", "tr", "squeeze", "format", "sum", "to_set", "scan", "slice",
	"transform_values", "transform_keys", "each_with_object", "tally", "encode", "force_encoding",
	"freeze_keys", "to_proc", "lazy", "entries", "basename", "dirname", "extname", "expand_path",
	"strftime", "iso8601")

// exprType is the type of the value of an expression when it can be told.
func (x *extractor) exprType(n int32) string {
	switch x.Code(n) {
	case kString, kSymbol, kLiteral, kArray, kHash:
		return coreValue
	case kCall:
		recv, m := x.Field(n, fReceiver), x.Field(n, fMethod)
		if m < 0 {
			return ""
		}
		mname := x.Text(m)
		if recv < 0 {
			if x.Code(m) == kIdentifier {
				if t, ok := x.letType(mname); ok {
					return t
				}
				if !kernelCalls[mname] {
					return "call:" + mname
				}
			}
			return ""
		}
		if mname == "new" && x.Code(recv) == kIdentifier {
			if t, ok := x.letType(x.Text(recv)); ok && !strings.HasPrefix(t, "call:") {
				return t // described_class.new
			}
		}
		if p := x.constPath(recv); p != "" {
			if x.outside(extract.FirstName(p)) {
				if coreConstants[extract.FirstName(p)] {
					return coreValue
				}
				return ""
			}
			if mname == "new" {
				return p
			}
			if !strings.Contains(p, ".") {
				return "call:" + p + "." + mname
			}
			return ""
		}
		switch mname {
		case "dup", "clone", "freeze", "tap", "itself":
			return x.exprType(recv)
		}
		if coreResults[mname] {
			return coreValue
		}
		switch x.Code(recv) {
		case kSelf:
			return "call:self." + mname
		case kIdentifier, kIVar:
			t, ok := x.vars.lookup(x.Text(recv))
			t = strings.TrimPrefix(t, "?")
			if ok && t != "" && t != coreValue && !strings.HasPrefix(t, "call:") && !strings.Contains(t, ".") {
				return "call:" + t + "." + mname
			}
		case kString, kSymbol, kLiteral, kArray, kHash:
			return coreValue
		}
		return ""
	case kConstant, kScopeRes:
		p := x.constPath(n)
		if p == "" || isAllCaps(extract.LastName(p)) || x.outside(extract.FirstName(p)) {
			return ""
		}
		return p
	case kIdentifier:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok {
			return t
		}
		if t, ok := x.letType(name); ok {
			return t
		}
		if x.cls != nil {
			if id, ok := x.cls.fields[name]; ok {
				return x.R.Symbols[id].Type
			}
		}
		if !kernelCalls[name] {
			return "call:" + name
		}
	case kIVar:
		if t, ok := x.vars.lookup(x.Text(n)); ok {
			return t
		}
		if x.cls != nil {
			if id, ok := x.cls.fields[strings.TrimPrefix(x.Text(n), "@")]; ok {
				return x.R.Symbols[id].Type
			}
		}
	case kParenthesized:
		if last := x.LastNamed(n); last >= 0 {
			return x.exprType(last)
		}
	case kAssignment, kOpAssignment:
		if r := x.Field(n, fRight); r >= 0 {
			return x.exprType(r)
		}
	case kBinary:
		// a || b: the type of a (memoisation, defaults)
		if c := x.FirstNamed(n); c >= 0 {
			return x.exprType(c)
		}
	case kSelf:
		if x.cls != nil {
			return x.cls.name
		}
	}
	return ""
}

// ---- YARD and Sorbet annotations

type yardTags struct {
	returns string
	params  map[string]string
	types   []string
}

// parseYard reads "@return [Type]" and "@param name [Type]" from a doc
// comment.
func parseYard(doc string) yardTags {
	var y yardTags
	if !strings.Contains(doc, "@") {
		return y
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "@return"):
			if t := yardType(line); t != "" && y.returns == "" {
				y.returns = t
				y.types = append(y.types, t)
			}
		case strings.HasPrefix(line, "@param"):
			rest := strings.TrimSpace(strings.TrimPrefix(line, "@param"))
			t := yardType(rest)
			name := rest
			if strings.HasPrefix(rest, "[") {
				if i := strings.IndexByte(rest, ']'); i >= 0 {
					name = strings.TrimSpace(rest[i+1:])
				}
			}
			if f := strings.Fields(name); len(f) > 0 {
				name = f[0]
			}
			if t != "" && name != "" {
				if y.params == nil {
					y.params = map[string]string{}
				}
				y.params[name] = t
				y.types = append(y.types, t)
			}
		}
	}
	return y
}

// yardType is the first type named in the brackets of a YARD tag, when it
// is a constant: "[Jekyll::Site, nil]" → "Jekyll.Site".
func yardType(s string) string {
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 0 {
		return ""
	}
	inner := s[i+1 : i+j]
	if k := strings.IndexAny(inner, ",|<({"); k >= 0 {
		inner = inner[:k]
	}
	return typeText(inner)
}

// typeText turns a written constant path into dotted form, or "".
func typeText(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "::"))
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return ""
	}
	s = strings.ReplaceAll(s, "::", ".")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	if coreConstants[extract.FirstName(s)] || s == "Boolean" {
		return ""
	}
	return s
}

func (x *extractor) takeSig(line uint32) *sorbetSig {
	s := x.sig
	x.sig = nil
	if s == nil || s.line >= line {
		return nil
	}
	return s
}

// sorbetSig reads sig { params(a: Foo).returns(Bar) } for the next def.
func (x *extractor) sorbetSig(n, blk int32) {
	s := &sorbetSig{params: map[string]string{}, line: x.Line(n), doc: x.doc(x.Line(n))}
	var walk func(n int32, depth int)
	walk = func(n int32, depth int) {
		if depth > 12 || x.Code(n) != kCall {
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				if depth <= 12 {
					walk(c, depth+1)
				}
			}
			return
		}
		if m := x.Field(n, fMethod); m >= 0 {
			switch x.Text(m) {
			case "params":
				for _, a := range x.argNodes(x.Field(n, fArguments)) {
					if x.Code(a) != kPair {
						continue
					}
					k, v := x.Field(a, fKey), x.Field(a, fValue)
					if k >= 0 && v >= 0 {
						s.params[strings.TrimSuffix(x.Text(k), ":")] = x.sorbetType(v)
					}
				}
			case "returns":
				if as := x.argNodes(x.Field(n, fArguments)); len(as) == 1 {
					s.returns = x.sorbetType(as[0])
				}
			}
		}
		if r := x.Field(n, fReceiver); r >= 0 {
			walk(r, depth+1)
		}
	}
	for c := x.FirstNamed(blk); c >= 0; c = x.NextNamed(c) {
		walk(c, 0)
	}
	x.sig = s
}

// sorbetType reads Foo, Foo::Bar and T.nilable(Foo).
func (x *extractor) sorbetType(n int32) string {
	if p := x.constPath(n); p != "" {
		return typeText(p)
	}
	if x.Code(n) == kCall {
		if m := x.Field(n, fMethod); m >= 0 && x.Text(m) == "nilable" {
			if as := x.argNodes(x.Field(n, fArguments)); len(as) == 1 {
				return x.sorbetType(as[0])
			}
		}
	}
	return ""
}

// ---- tests

func (x *extractor) describe(n, args, blk int32) {
	sp := &specCtx{lets: map[string]string{}}
	as := x.argNodes(args)
	if len(as) > 0 {
		if p := x.constPath(as[0]); p != "" {
			sp.described = p
			x.typeRef(p, as[0])
		}
		sp.desc = x.descText(as[0])
	}
	x.specs = append(x.specs, sp)
	x.block(blk, nil)
	x.specs = x.specs[:len(x.specs)-1]
}

func (x *extractor) let(mname string, args, blk int32) {
	name := "subject"
	if as := x.argNodes(args); len(as) > 0 {
		name = x.symbolValue(as[0])
	}
	typ := ""
	// The type of the block's last expression.
	for c := x.FirstNamed(blk); c >= 0; c = x.NextNamed(c) {
		if k := x.Code(c); k == kBlockBody || k == kBodyStatement {
			x.block(blk, nil)
			typ = x.resultTypeLoose(c)
			if len(x.specs) > 0 && name != "" {
				x.specs[len(x.specs)-1].lets[name] = typ
			}
			return
		}
	}
	x.block(blk, nil)
	if len(x.specs) > 0 && name != "" {
		x.specs[len(x.specs)-1].lets[name] = typ
	}
}

// resultTypeLoose is resultType that keeps "call:" results.
func (x *extractor) resultTypeLoose(body int32) string {
	last := int32(-1)
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) != kComment {
			last = c
		}
	}
	if last < 0 {
		return ""
	}
	return x.exprType(last)
}

func (x *extractor) example(n int32, mname string, args, blk int32) {
	desc := ""
	if as := x.argNodes(args); len(as) > 0 {
		desc = x.descText(as[0])
	}
	prefix := "it_"
	switch mname {
	case "should", "should_eventually":
		prefix = "should_"
	case "test":
		prefix = "test_"
	}
	slug := slugify(desc)
	if slug == "" {
		slug = "line_" + strconv.Itoa(int(x.Line(n)))
	}
	var chain []string
	for _, sp := range x.specs {
		if sp.desc != "" {
			chain = append(chain, sp.desc)
		}
	}
	chain = append(chain, desc)
	line := x.Line(n)
	doc := strings.TrimSpace(strings.Join(chain, " "))
	if d := x.doc(line); d != "" {
		doc = d + "\n" + doc
	}
	id := x.Add(extract.Symbol{Name: prefix + slug, Kind: snapshot.KindFunction, Parent: x.container(),
		Start: line, End: x.EndLine(n), Signature: x.signature(n, x.N[blk].Start), Doc: doc,
		Flags: snapshot.FlagTest})
	savedFn, savedFrom := x.fn, x.from
	x.fn, x.from = &fnCtx{sym: id, name: prefix + slug}, id
	x.block(blk, nil)
	x.fn, x.from = savedFn, savedFrom
}

// slugify makes an identifier of a description: "adds items" → adds_items.
func slugify(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '…'
		if !ok {
			under = b.Len() > 0
			continue
		}
		if under {
			b.WriteByte('_')
			under = false
		}
		b.WriteRune(r)
		if b.Len() >= 80 {
			break
		}
	}
	return b.String()
}

// finish drops receiverless calls of Kernel functions the file does not
// define itself.
func (x *extractor) finish() {
	out := x.R.Refs[:0]
	for _, r := range x.R.Refs {
		if r.Kind == extract.RefCall && r.Qual == "" && kernelCalls[r.Name] && !x.fileMethod[r.Name] {
			continue
		}
		out = append(out, r)
	}
	x.R.Refs = out
}
