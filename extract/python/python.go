// Package python is knowing's Python extractor: modules, classes,
// functions, methods, attributes and module variables, with calls (through
// self, super, typed locals and parameters, imported modules and names,
// package re-exports, pytest fixtures), type uses and imports.
//
// A file's Package is its dotted module name (src/flask/sansio/scaffold.py
// is flask.sansio.scaffold: the package root is the highest folder holding
// __init__.py, folders in between may lack it); a file outside any package
// is named by its path. Scope is empty: a module sees only its own names
// and what it imports. Imports are keyed the same way, relative ones
// resolved against the module, so the resolver can match them.
//
// Calls are kept precise rather than many: a call on a value known to come
// from outside the repository (an external module, a str, dict or list, a
// builtin) is not recorded, so the resolver cannot guess it onto a
// repository symbol of the same name.
package python

import (
	"bytes"
	"path"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	extract.Register(&extract.Language{
		Lang:       snapshot.LangPython,
		Grammars:   map[string]string{".py": "python", ".pyi": "python"},
		Extract:    extractPython,
		SelfNames:  []string{"self", "cls"},
		SuperNames: []string{"super"},
		// pytest and unittest collect callables named test*; fixtures and
		// helpers in test files are flagged test but link no subject.
		TestName: func(n string) bool { return strings.HasPrefix(n, "test") },
	})
}

// Values a scope records for a local name.
const (
	vExt = "\x00ext" // an object of a type outside the repository
	vDef = "\x00def" // a function or class defined in the enclosing function
	// vFix prefixes a pytest fixture parameter's name: its value is what
	// the fixture function returns, found once the file is read.
	vFix = "\x00fix:"
	// "" is a local of unknown type, "=a.b" an alias of the chain a.b,
	// "call:f" the result of calling f, anything else a type name.
)

// scope is a function's local names.
type scope struct {
	up   *scope
	vars map[string]string
	cls  int32  // class whose instance self is, or -1
	self string // the instance (or class) parameter's name
	// clsParam: self names the class itself (a classmethod's cls).
	clsParam bool
}

func newScope(up *scope) *scope {
	s := &scope{up: up, vars: map[string]string{}, cls: -1}
	if up != nil {
		s.cls, s.self, s.clsParam = up.cls, up.self, up.clsParam
	}
	return s
}

func (s *scope) lookup(name string) (string, bool) {
	for ; s != nil; s = s.up {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return "", false
}

// isSelf reports a name that is the instance (or class) parameter.
func (s *scope) isSelf(name string) bool {
	if s == nil || s.cls < 0 || name != s.self {
		return false
	}
	v, ok := s.lookup(name)
	return !ok || v == "=self" || v == "=cls"
}

// binding is what an import binds a local name to.
type binding struct {
	key    string // module key; for a name, the module defining it
	fs     string // module path without extension
	name   string // imported name, "" for a module
	inRepo bool
}

// ctx is where the walk is.
type ctx struct {
	from   int32 // refs go out of this symbol (-1: the file)
	parent int32 // new symbols nest in this one
	class  int32 // directly in this class's body, or -1
	sc     *scope
}

type check struct {
	ref   int
	name  string
	class int32 // -1: name must be a function or class of the file; else a method of this class
}

type ex struct {
	f *extract.File
	t *extract.FlatTree // the file's syntax tree
	r *extract.FileResult
	k *kinds
	c *repoCache

	dir    string
	mod    string
	isInit bool

	bind    map[string]*binding
	seenImp map[extract.Import]bool
	modVars map[string]string // module-level variable → value type
	top     map[string]int32  // module-level symbol by name
	defined map[string]bool   // functions and classes of the file, any depth
	methods map[int32]map[string]int32
	fields  map[int32]map[string]int32
	enums   map[int32]bool
	checks  []check

	fieldExt  map[int32]map[string]bool // class → field known to hold an outside type
	closed    map[int32]bool            // classes without a base in the repository
	annotated map[int32]bool            // functions with a written return type
	test      bool                      // a test file: parameters may be fixtures
	fixtures  []int                     // refs whose QualType names a fixture
}

func extractPython(f *extract.File, r *extract.FileResult) {
	x := &ex{
		f: f, r: r, k: kindTable(), c: cacheFor(f.Repo),
		bind: map[string]*binding{}, seenImp: map[extract.Import]bool{}, modVars: map[string]string{},
		top: map[string]int32{}, defined: map[string]bool{}, methods: map[int32]map[string]int32{},
		fields: map[int32]map[string]int32{}, enums: map[int32]bool{},
		fieldExt: map[int32]map[string]bool{}, annotated: map[int32]bool{}, closed: map[int32]bool{},
		test: r.Flags&snapshot.FlagTest != 0,
	}
	x.dir = path.Dir(f.Path)
	if x.dir == "." {
		x.dir = ""
	}
	x.mod, x.isInit = moduleKey(x.c, f.Path)
	r.Package, r.Scope = x.mod, ""
	x.t = flatten(f.Root, f.Src)
	defer x.t.Release()
	const root = 0
	x.walk(root, ctx{from: -1, parent: -1, class: -1})
	x.finish()
}

// of is the kind code of n (kOther for -1).
func (x *ex) of(n int32) uint8 { return x.k.of(x.t, n) }

// text is the source text of n ("" for -1).
func (x *ex) text(n int32) string { return x.t.Text(n) }

func (x *ex) add(s extract.Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
}

func (x *ex) ref(from int32, kind extract.RefKind, name, qual, qt string, line uint32) int {
	x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: kind, Name: name, Qual: qual, QualType: qt, Line: line})
	return len(x.r.Refs) - 1
}

func (x *ex) exported(name string, parent int32) snapshot.Flags {
	if parent >= 0 && x.r.Symbols[parent].Kind.IsCallable() {
		return 0
	}
	if strings.HasPrefix(name, "_") && !isDunder(name) {
		return 0
	}
	return snapshot.FlagExported
}

// finish settles what needed the whole file: fixture parameters, result
// types of this file's functions, and references whose condition failed (a
// builtin name the file does not define, an argument that names no
// function or method of the file).
func (x *ex) finish() {
	x.resolveFixtures()
	x.localResults()
	if len(x.checks) == 0 {
		return
	}
	drop := map[int]bool{}
	for _, ch := range x.checks {
		if ch.class < 0 {
			if !x.defined[ch.name] {
				drop[ch.ref] = true
			}
		} else if _, ok := x.methods[ch.class][ch.name]; !ok {
			drop[ch.ref] = true
		}
	}
	out := x.r.Refs[:0]
	for i, rf := range x.r.Refs {
		if !drop[i] {
			out = append(out, rf)
		}
	}
	x.r.Refs = out
}

// localResults replaces "call:self.m" and "call:f" types with the result
// type of m or f when this file declares it (self.config =
// self.make_config() with make_config -> Config).
func (x *ex) localResults() {
	for i := range x.r.Symbols {
		s := &x.r.Symbols[i]
		for step := 0; step < 3 && strings.HasPrefix(s.Type, "call:"); step++ {
			t := x.localResult(int32(i), s.Type[len("call:"):])
			if t == "" {
				break
			}
			s.Type = t
		}
	}
}

func (x *ex) localResult(si int32, call string) string {
	qual, name, dotted := strings.Cut(call, ".")
	var fn int32 = -1
	cls := int32(-1)
	switch {
	case !dotted:
		name = qual
		if id, ok := x.top[name]; ok {
			fn = id
		}
	case qual == "self" || qual == "cls":
		for p := x.r.Symbols[si].Parent; p >= 0; p = x.r.Symbols[p].Parent {
			if x.r.Symbols[p].Kind.IsType() {
				cls = p
				break
			}
		}
		if id, ok := x.methods[cls][name]; ok && cls >= 0 {
			fn = id
		}
	}
	if fn < 0 || fn == si {
		return ""
	}
	f := &x.r.Symbols[fn]
	switch {
	case f.Kind.IsType():
		return f.Name
	case !f.Kind.IsCallable():
		return ""
	case f.Type == "Self" && cls >= 0:
		return x.r.Symbols[cls].Name
	}
	return f.Type
}

// pytestBuiltin are pytest's own fixtures: objects outside the repository.
var pytestBuiltin = setOf(`monkeypatch tmp_path tmpdir capsys capfd capsysbinary capfdbinary caplog
request pytestconfig recwarn tmp_path_factory tmpdir_factory cache doctest_namespace
record_property record_testsuite_property record_xml_attribute testdir pytester mocker
event_loop subtests`)

// resolveFixtures turns fixture parameters into "the result of the fixture
// function": defined in this file, or in the nearest conftest.py, which is
// imported under a name no code can spell.
func (x *ex) resolveFixtures() {
	if len(x.fixtures) == 0 {
		return
	}
	conftest := ""
	if x.c != nil {
		d := x.dir
		if path.Base(x.f.Path) == "conftest.py" {
			d = parentDir(d)
			if x.dir == "" {
				d = "\x00"
			}
		}
		for d != "\x00" {
			if p := joinRel(d, "conftest.py"); x.c.isFile(p) {
				conftest, _ = moduleKey(x.c, p)
				break
			}
			if d == "" {
				break
			}
			d = parentDir(d)
		}
	}
	used := false
	for _, i := range x.fixtures {
		rf := &x.r.Refs[i]
		name := strings.TrimPrefix(rf.QualType, vFix)
		switch {
		case x.defined[name]:
			rf.QualType = "call:" + name
		case conftest != "":
			rf.QualType = "call:" + conftestAlias + "." + name
			used = true
		default:
			rf.QualType = ""
		}
	}
	if used {
		x.emit(extract.Import{Path: conftest, Alias: conftestAlias})
	}
}

const conftestAlias = "__conftest__"

// walk visits a statement or expression (none for -1).
func (x *ex) walk(n int32, c ctx) {
	if n < 0 {
		return
	}
	t := x.t
	switch x.of(n) {
	case kFuncDef:
		x.function(n, n, nil, c)
		return
	case kClassDef:
		x.class(n, n, nil, c)
		return
	case kDecorated:
		def := t.Field(n, x.k.fDefinition)
		var decos []int32
		for ch := t.FirstNamed(n); ch >= 0; ch = t.NextNamed(ch) {
			if x.of(ch) == kDecorator {
				decos = append(decos, ch)
			}
		}
		switch x.of(def) {
		case kFuncDef:
			x.function(def, n, decos, c)
		case kClassDef:
			x.class(def, n, decos, c)
		}
		return
	case kImport, kImportFrom:
		for _, ri := range readImport(x.k, t, n) {
			x.addImport(ri)
		}
		return
	case kFutureImport, kIdentifier, kComment, kGlobal, kNonlocal, kNone, kInteger, kFloat,
		kTrue, kFalse, kEllipsis, kStringContent, kPass, kKeywordIdentifier:
		return
	case kExprStmt:
		for ch := t.FirstNamed(n); ch >= 0; ch = t.NextNamed(ch) {
			if x.of(ch) == kAssignment {
				x.assign(ch, n, c)
			} else {
				x.walk(ch, c)
			}
		}
		return
	case kAssignment:
		x.assign(n, n, c)
		return
	case kCall:
		x.call(n, c)
		return
	case kLambda:
		x.lambda(n, c)
		return
	case kListComp, kSetComp, kDictComp, kGenExpr:
		x.comprehension(n, c)
		return
	case kFor:
		if c.sc != nil {
			x.bindNames(t.Field(n, x.k.fLeft), c.sc)
		}
	case kWithItem:
		x.withItem(n, c)
		return
	case kExcept:
		x.except(n, c)
		return
	case kNamedExpr:
		v := t.Field(n, x.k.fValue)
		if v >= 0 {
			x.walk(v, c)
		}
		if c.sc != nil {
			if nm := t.Field(n, x.k.fName); nm >= 0 {
				x.setLocal(c.sc, x.text(nm), x.valueType(v, c))
			}
		}
		return
	case kType:
		x.typeRefs(n, c.from, extract.RefType)
		return
	case kReturn:
		x.returned(n, c)
	case kYield:
		if x.test {
			x.returned(n, c)
		}
	case kTypeAlias:
		x.typeAlias(n, c)
		return
	}
	for ch := t.FirstNamed(n); ch >= 0; ch = t.NextNamed(ch) {
		x.walk(ch, c)
	}
}

// returned infers an unannotated function's result type from what it
// returns (or, for a pytest fixture, yields): a class instance, a typed
// local, self.
func (x *ex) returned(n int32, c ctx) {
	if c.from < 0 || x.annotated[c.from] || c.sc == nil {
		return
	}
	e := only(x.t, n)
	if e < 0 {
		return
	}
	s := &x.r.Symbols[c.from]
	if !s.Kind.IsCallable() || s.Type != "" {
		return
	}
	if x.of(e) == kIdentifier && c.sc.isSelf(x.text(e)) && !c.sc.clsParam {
		s.Type = "Self"
		return
	}
	vt := x.valueType(e, c)
	if strings.HasPrefix(vt, vFix) {
		return
	}
	s.Type = typeOnly(vt)
}

// ---- declarations ----

type decoInfo struct {
	static, classm, prop, overload, accessor bool
}

func (x *ex) decoFlags(decos []int32, name string) decoInfo {
	var d decoInfo
	for _, deco := range decos {
		e := x.decoExpr(deco)
		if e < 0 {
			continue
		}
		if x.of(e) == kCall {
			e = x.t.Field(e, x.k.fFunction)
		}
		ch := x.chain(e)
		switch lastPart(ch) {
		case "staticmethod":
			d.static = true
		case "classmethod":
			d.classm = true
		case "property", "cached_property":
			d.prop = true
		case "overload":
			d.overload = true
		case "setter", "getter", "deleter":
			if strings.TrimSuffix(ch, "."+lastPart(ch)) == name {
				d.accessor = true
			}
		}
	}
	return d
}

func (x *ex) decoExpr(d int32) int32 {
	for ch := x.t.FirstNamed(d); ch >= 0; ch = x.t.NextNamed(ch) {
		if x.of(ch) != kComment {
			return ch
		}
	}
	return -1
}

// header is a def or class header, on one line: up to its colon.
func (x *ex) header(def int32) string {
	t := x.t
	start, end := t.N[def].Start, t.N[def].End
	// The colon is the first one between the def's named children: the
	// tree holds no anonymous tokens, and no other token at this level
	// has a colon (those of annotations, lambdas and slices are inside
	// named children).
	for from, ch := start, t.FirstChild(def); ; ch = t.N[ch].Next {
		to := t.N[def].End
		if ch >= 0 {
			to = t.N[ch].Start
		}
		if from <= to && int(to) <= len(t.Src) {
			if i := bytes.IndexByte(t.Src[from:to], ':'); i >= 0 {
				end = from + uint32(i)
				break
			}
		}
		if ch < 0 {
			break
		}
		from = t.N[ch].End
	}
	if end > uint32(len(t.Src)) || start > end {
		return ""
	}
	return strings.Join(strings.Fields(string(t.Src[start:end])), " ")
}

// signature is the header with its decorators, on one line.
func (x *ex) signature(def int32, decos []int32) string {
	h := x.header(def)
	if len(h) > 240 {
		return capText(h, 240)
	}
	var b strings.Builder
	for _, deco := range decos {
		d := extract.FirstLine(x.text(deco))
		if len(d) > 80 {
			d = capText(d, 80)
		}
		if b.Len()+len(d)+len(h) > 300 {
			break
		}
		b.WriteString(d)
		b.WriteByte(' ')
	}
	b.WriteString(h)
	return b.String()
}

// blockDoc is the docstring opening a block.
func (x *ex) blockDoc(body int32) string {
	if body < 0 {
		return ""
	}
	for n := x.t.FirstChild(body); n >= 0; n = x.t.N[n].Next {
		switch x.of(n) {
		case kComment:
		case kExprStmt:
			if s := only(x.t, n); x.of(s) == kString {
				return docstring(x.text(s))
			}
			return ""
		default:
			if x.t.N[n].Named {
				return ""
			}
		}
	}
	return ""
}

// comments is the block of comment lines right above n, at its indentation.
func (x *ex) comments(n int32) string {
	t := x.t
	line := t.Line(n)
	col := column(t, n)
	p := t.N[n].Prev
	if p < 0 {
		if par := t.N[n].Parent; par >= 0 && x.of(par) == kBlock {
			p = t.N[par].Prev
		}
	}
	var parts []string
	next := t.N[n].Start
	for p >= 0 && x.of(p) == kComment && t.EndLine(p)+1 >= line && column(t, p) == col && len(parts) < 40 &&
		!t.LeftOut(t.N[p].End, next) { // a token between the two ends the doc
		parts = append(parts, cleanComment(x.text(p)))
		line, next = t.Line(p), t.N[p].Start
		p = t.N[p].Prev
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return capText(strings.TrimSpace(strings.Join(parts, "\n")), maxDoc)
}

// attrDoc documents an attribute: #: comments above, or a string below.
func (x *ex) attrDoc(stmt int32) string {
	if d := x.comments(stmt); d != "" {
		return d
	}
	if nx := nextNamedSibling(x.t, stmt); x.of(nx) == kExprStmt {
		if s := only(x.t, nx); x.of(s) == kString {
			return docstring(x.text(s))
		}
	}
	return ""
}

func (x *ex) function(def, outer int32, decos []int32, c ctx) {
	t := x.t
	name := x.text(t.Field(def, x.k.fName))
	if name == "" {
		return
	}
	d := x.decoFlags(decos, name)
	if d.overload {
		return // a typing stub; the implementation follows
	}
	isMethod := c.class >= 0
	body := t.Field(def, x.k.fBody)
	ret := t.Field(def, x.k.fReturnType)
	var id int32 = -1
	if d.accessor && isMethod {
		if m, ok := x.methods[c.class][name]; ok {
			id = m // a property's setter or deleter: part of the property
			if e := t.EndLine(def); e > x.r.Symbols[id].End {
				x.r.Symbols[id].End = e
			}
		}
	}
	if id < 0 {
		kind := snapshot.KindFunction
		if isMethod {
			kind = snapshot.KindMethod
			if name == "__init__" {
				kind = snapshot.KindConstructor
			}
		}
		s := extract.Symbol{
			Name: name, Kind: kind, Parent: c.parent, Start: t.Line(outer), End: t.EndLine(def),
			Signature: x.signature(def, decos), Doc: x.blockDoc(body), Flags: x.exported(name, c.parent),
		}
		if s.Doc == "" {
			s.Doc = x.comments(outer)
		}
		if ret >= 0 {
			s.Type = typeOnly(x.typeName(ret))
		}
		id = x.add(s)
		if ret >= 0 {
			x.annotated[id] = true
		}
		x.defined[name] = true
		switch {
		case isMethod:
			m := x.methods[c.class]
			if m == nil {
				m = map[string]int32{}
				x.methods[c.class] = m
			}
			if _, ok := m[name]; !ok {
				m[name] = id
			}
		case c.sc != nil:
			c.sc.vars[name] = vDef
		case c.parent < 0:
			if _, ok := x.top[name]; !ok {
				x.top[name] = id
			}
		}
	}
	dc := ctx{from: id, parent: c.parent, class: c.class, sc: c.sc}
	for _, deco := range decos {
		x.decorator(deco, dc)
	}
	sc := newScope(c.sc)
	hasSelf := isMethod && !d.static
	if isMethod {
		sc.cls, sc.self, sc.clsParam = -1, "", false
		if hasSelf {
			sc.cls, sc.clsParam = c.class, d.classm
		}
	}
	x.params(t.Field(def, x.k.fParameters), id, sc, hasSelf, d.classm, dc)
	if ret >= 0 {
		x.typeRefs(ret, id, extract.RefTypeHint)
	}
	if body >= 0 {
		x.walk(body, ctx{from: id, parent: id, class: -1, sc: sc})
	}
}

func (x *ex) params(pl int32, id int32, sc *scope, hasSelf, classm bool, outer ctx) {
	if pl < 0 {
		return
	}
	t := x.t
	first := true
	for p := t.FirstNamed(pl); p >= 0; p = t.NextNamed(p) {
		nameNode, typ, def := int32(-1), int32(-1), int32(-1)
		splat := false
		switch x.of(p) {
		case kIdentifier:
			nameNode = p
		case kTypedParam:
			typ = t.Field(p, x.k.fType)
			for ch := t.FirstNamed(p); ch >= 0; ch = t.NextNamed(ch) {
				switch x.of(ch) {
				case kIdentifier:
					nameNode = ch
				case kListSplatPattern, kDictSplatPattern:
					splat = true
					nameNode = t.FirstNamed(ch)
				}
				if nameNode >= 0 {
					break
				}
			}
		case kDefaultParam:
			nameNode, def = t.Field(p, x.k.fName), t.Field(p, x.k.fValue)
		case kTypedDefaultParam:
			nameNode, typ, def = t.Field(p, x.k.fName), t.Field(p, x.k.fType), t.Field(p, x.k.fValue)
		case kListSplatPattern, kDictSplatPattern:
			splat = true
			nameNode = t.FirstNamed(p)
		default:
			continue
		}
		if def >= 0 {
			x.walk(def, outer)
		}
		if typ >= 0 {
			x.typeRefs(typ, id, extract.RefTypeHint)
		}
		if x.of(nameNode) != kIdentifier {
			first = false
			continue
		}
		name := x.text(nameNode)
		if first && hasSelf {
			first = false
			sc.self = name
			switch {
			case typ >= 0:
				sc.vars[name] = x.typeName(typ)
			case classm && name != "cls":
				sc.vars[name] = "=cls"
			case !classm && name != "self":
				sc.vars[name] = "=self"
			}
			continue
		}
		first = false
		if name == sc.self {
			sc.cls, sc.self = -1, "" // a nested function's own parameter hides self
		}
		vt := ""
		switch {
		case splat:
			vt = vExt // *args is a tuple, **kwargs a dict
		case typ >= 0:
			vt = x.typeName(typ)
		case x.test && def < 0 && pytestBuiltin[name]:
			vt = vExt
		case x.test && def < 0:
			vt = vFix + name
		}
		sc.vars[name] = vt
	}
}

func (x *ex) decorator(d int32, c ctx) {
	e := x.decoExpr(d)
	if e < 0 {
		return
	}
	line := x.t.Line(d)
	switch x.of(e) {
	case kIdentifier:
		x.bareCall(x.text(e), c, line)
	case kAttribute:
		switch x.text(x.t.Field(e, x.k.fAttribute)) {
		case "setter", "getter", "deleter":
			return
		}
		x.attrCall(e, c, line)
	case kCall:
		x.call(e, c)
	default:
		x.walk(e, c)
	}
}

func (x *ex) class(def, outer int32, decos []int32, c ctx) {
	t := x.t
	name := x.text(t.Field(def, x.k.fName))
	if name == "" {
		return
	}
	kind := snapshot.KindClass
	var ext []string
	var rest []int32
	repoBase := false // a base that may be in the repository
	if sup := t.Field(def, x.k.fSuperclasses); sup >= 0 {
		for a := t.FirstNamed(sup); a >= 0; a = t.NextNamed(a) {
			base := a
			switch x.of(base) {
			case kSubscript:
				base = t.Field(base, x.k.fValue)
			case kKeywordArg:
				if x.text(t.Field(a, x.k.fName)) == "metaclass" && lastPart(x.chain(t.Field(a, x.k.fValue))) == "ABCMeta" {
					kind = snapshot.KindInterface
				}
				rest = append(rest, a)
				continue
			}
			ch := x.chain(base)
			if ch == "" {
				rest = append(rest, a)
				continue
			}
			switch lastPart(ch) {
			case "Protocol", "ABC":
				if kind == snapshot.KindClass {
					kind = snapshot.KindInterface
				}
			case "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag":
				kind = snapshot.KindEnum
			case "NamedTuple", "TypedDict":
				kind = snapshot.KindStruct
			}
			if x.maybeRepoType(ch) {
				repoBase = true
			}
			if lp := lastPart(ch); lp == "ABC" || typingNames[lp] && !x.maybeRepoType(ch) {
				continue // object, Generic, Protocol, TypedDict: no base worth an edge
			}
			ext = append(ext, x.baseName(ch))
		}
	}
	body := t.Field(def, x.k.fBody)
	s := extract.Symbol{
		Name: name, Kind: kind, Parent: c.parent, Start: t.Line(outer), End: t.EndLine(def),
		Signature: x.signature(def, decos), Doc: x.blockDoc(body), Flags: x.exported(name, c.parent), Extends: ext,
	}
	if s.Doc == "" {
		s.Doc = x.comments(outer)
	}
	id := x.add(s)
	x.defined[name] = true
	if kind == snapshot.KindEnum {
		x.enums[id] = true
	}
	if !repoBase {
		x.closed[id] = true
	}
	switch {
	case c.class >= 0:
	case c.sc != nil:
		c.sc.vars[name] = vDef
	case c.parent < 0:
		if _, ok := x.top[name]; !ok {
			x.top[name] = id
		}
	}
	dc := ctx{from: id, parent: c.parent, class: c.class, sc: c.sc}
	for _, deco := range decos {
		x.decorator(deco, dc)
	}
	for _, a := range rest {
		x.walk(a, dc)
	}
	if body >= 0 {
		x.walk(body, ctx{from: id, parent: id, class: id, sc: c.sc})
	}
}

// baseName rewrites a base class written through a module alias to the
// module that defines it (flask.Flask → flask.app.Flask).
func (x *ex) maybeRepoType(ch string) bool {
	first, _, dotted := strings.Cut(ch, ".")
	if b := x.bind[first]; b != nil {
		return b.inRepo
	}
	if !dotted && (builtins[first] || typingNames[first]) && !x.defined[first] {
		return false
	}
	return true
}

func (x *ex) baseName(ch string) string {
	first, rest, ok := strings.Cut(ch, ".")
	if !ok {
		return ch
	}
	b := x.bind[first]
	if b == nil || b.name != "" || !b.inRepo {
		return ch
	}
	mid, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		mid, name = rest[:i], rest[i+1:]
	}
	q, _, nm, ok := x.viaModule(b, first, mid, name)
	if !ok {
		return ch
	}
	return q + "." + nm
}

func (x *ex) typeAlias(n int32, c ctx) {
	t := x.t
	left, right := t.Field(n, x.k.fLeft), t.Field(n, x.k.fRight)
	name := ""
	if left >= 0 && t.FirstNamed(left) >= 0 {
		l := t.FirstNamed(left)
		if x.of(l) == kGenericType && t.FirstNamed(l) >= 0 {
			l = t.FirstNamed(l)
		}
		if x.of(l) == kIdentifier {
			name = x.text(l)
		}
	}
	from := c.from
	if name != "" && c.sc == nil {
		from = x.add(extract.Symbol{Name: name, Kind: snapshot.KindTypeAlias, Parent: c.parent,
			Start: t.Line(n), End: t.EndLine(n), Signature: extract.FirstLine(x.text(n)),
			Doc: x.comments(n), Flags: x.exported(name, c.parent)})
		if c.parent < 0 {
			x.top[name] = from
		}
	}
	if right >= 0 {
		x.typeRefs(right, from, extract.RefType)
	}
}

// ---- assignments ----

func (x *ex) assign(n, stmt int32, c ctx) {
	t := x.t
	left, right, typ := t.Field(n, x.k.fLeft), t.Field(n, x.k.fRight), t.Field(n, x.k.fType)
	vt := ""
	if typ >= 0 {
		vt = x.typeName(typ)
	}
	if vt == "" && right >= 0 {
		vt = x.valueType(right, c)
	}
	from := c.from
	switch x.of(left) {
	case kIdentifier:
		name := x.text(left)
		switch {
		case c.class >= 0:
			if id := x.classAttr(c.class, name, stmt, right, typ, vt); id >= 0 {
				from = id
			}
		case c.sc != nil:
			x.setLocal(c.sc, name, vt)
		default:
			if id := x.moduleVar(name, stmt, right, typ, vt); id >= 0 {
				from = id
			}
		}
	case kAttribute:
		obj := t.Field(left, x.k.fObject)
		if c.sc != nil && x.of(obj) == kIdentifier && c.sc.isSelf(x.text(obj)) {
			x.instanceField(c.sc.cls, x.text(t.Field(left, x.k.fAttribute)), stmt, vt)
		} else if x.chain(obj) == "" {
			x.walk(obj, c)
		}
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList:
		x.bindTargets(left, stmt, c)
	default:
		x.walk(left, c)
	}
	if typ >= 0 {
		x.typeRefs(typ, from, extract.RefType)
	}
	if right >= 0 {
		rc := c
		rc.from = from
		x.walk(right, rc)
	}
}

// bindTargets declares the names of an unpacking assignment.
func (x *ex) bindTargets(n, stmt int32, c ctx) {
	t := x.t
	for tg := t.FirstNamed(n); tg >= 0; tg = t.NextNamed(tg) {
		switch x.of(tg) {
		case kIdentifier:
			name := x.text(tg)
			switch {
			case c.class >= 0:
				x.classAttr(c.class, name, stmt, -1, -1, "")
			case c.sc != nil:
				x.setLocal(c.sc, name, "")
			default:
				x.moduleVar(name, stmt, -1, -1, "")
			}
		case kAttribute:
			obj := t.Field(tg, x.k.fObject)
			if c.sc != nil && x.of(obj) == kIdentifier && c.sc.isSelf(x.text(obj)) {
				x.instanceField(c.sc.cls, x.text(t.Field(tg, x.k.fAttribute)), stmt, "")
			}
		case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kListSplatPattern, kListSplat:
			x.bindTargets(tg, stmt, c)
		default:
			x.walk(tg, c)
		}
	}
}

// bindNames declares loop and comprehension variables as untyped locals.
func (x *ex) bindNames(n int32, sc *scope) {
	if n < 0 || sc == nil {
		return
	}
	switch x.of(n) {
	case kIdentifier:
		sc.vars[x.text(n)] = ""
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kListSplatPattern, kParenExpr:
		for tg := x.t.FirstNamed(n); tg >= 0; tg = x.t.NextNamed(tg) {
			x.bindNames(tg, sc)
		}
	}
}

func (x *ex) setLocal(sc *scope, name, vt string) {
	if vt == "" {
		if _, ok := sc.vars[name]; !ok {
			sc.vars[name] = ""
		}
		return
	}
	if strings.HasPrefix(vt, "=") || strings.HasPrefix(vt, "call:") {
		if first, _, _ := strings.Cut(vt[strings.IndexAny(vt, "=:")+1:], "."); first == name {
			return // x = x.parent(), x = x.strip(): not in terms of itself
		}
	}
	sc.vars[name] = vt
}

// typeOnly keeps the value types a symbol's Type can hold: a type name, or
// "call:f" for the result of a function; a class called is its type.
func typeOnly(vt string) string {
	switch {
	case vt == "" || vt == vExt || vt == vDef || strings.HasPrefix(vt, "="):
		return ""
	case strings.HasPrefix(vt, "call:"):
		if startsUpper(lastPart(vt[len("call:"):])) {
			return vt[len("call:"):]
		}
	}
	return vt
}

// noteFieldType remembers fields that hold objects from outside the
// repository (dicts, lists, library objects): calls on them are not
// guessed.
func (x *ex) noteFieldType(cls int32, name, vt string) {
	m := x.fieldExt[cls]
	if m == nil {
		m = map[string]bool{}
		x.fieldExt[cls] = m
	}
	switch {
	case vt == vExt:
		if _, seen := m[name]; !seen {
			m[name] = true
		}
	case vt != "":
		m[name] = false
	}
}

func (x *ex) classAttr(cls int32, name string, stmt, right, typ int32, vt string) int32 {
	x.noteFieldType(cls, name, vt)
	if fs := x.fields[cls]; fs != nil {
		if id, ok := fs[name]; ok {
			if x.r.Symbols[id].Type == "" {
				x.r.Symbols[id].Type = typeOnly(vt)
			}
			return id
		}
	}
	if _, ok := x.methods[cls][name]; ok {
		return -1
	}
	kind := snapshot.KindField
	if x.enums[cls] && typ < 0 && !isDunder(name) && !strings.HasPrefix(name, "_") {
		kind = snapshot.KindConstant // an enum member is an instance of its enum
		vt = x.r.Symbols[cls].Name
	}
	return x.newField(cls, name, kind, stmt, vt)
}

func (x *ex) newField(cls int32, name string, kind snapshot.Kind, stmt int32, vt string) int32 {
	id := x.add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Start: x.t.Line(stmt), End: x.t.EndLine(stmt),
		Signature: extract.FirstLine(x.text(stmt)), Doc: x.attrDoc(stmt), Type: typeOnly(vt), Flags: x.exported(name, cls),
	})
	fs := x.fields[cls]
	if fs == nil {
		fs = map[string]int32{}
		x.fields[cls] = fs
	}
	fs[name] = id
	return id
}

// instanceField declares self.name, assigned in a method, on the class.
func (x *ex) instanceField(cls int32, name string, stmt int32, vt string) {
	if cls < 0 || name == "" {
		return
	}
	x.noteFieldType(cls, name, vt)
	if id, ok := x.fields[cls][name]; ok {
		s := &x.r.Symbols[id]
		if s.Type == "" {
			s.Type = typeOnly(vt)
		}
		return
	}
	if _, ok := x.methods[cls][name]; ok {
		return
	}
	x.newField(cls, name, snapshot.KindField, stmt, vt)
}

var typeVarCalls = setOf(`TypeVar NewType ParamSpec TypeVarTuple TypeAliasType`)

func (x *ex) moduleVar(name string, stmt, right, typ int32, vt string) int32 {
	if isDunder(name) || name == "_" {
		return -1
	}
	if vt != "" || x.modVars[name] == "" {
		x.modVars[name] = vt
	}
	if id, ok := x.top[name]; ok {
		if s := &x.r.Symbols[id]; !s.Kind.IsCallable() && !s.Kind.IsType() && s.Type == "" {
			s.Type = typeOnly(vt)
		}
		return id
	}
	kind := snapshot.KindVariable
	switch {
	case typ >= 0 && lastPart(x.text(typ)) == "TypeAlias":
		kind = snapshot.KindTypeAlias
	case x.of(right) == kCall && typeVarCalls[lastPart(x.chain(x.t.Field(right, x.k.fFunction)))]:
		kind = snapshot.KindTypeAlias
	case x.of(right) == kSubscript && startsUpper(name) && typingNames[lastPart(x.chain(x.t.Field(right, x.k.fValue)))]:
		kind = snapshot.KindTypeAlias
	case isUpperName(name):
		kind = snapshot.KindConstant
	}
	t := typeOnly(vt)
	if kind == snapshot.KindTypeAlias {
		t = ""
	}
	id := x.add(extract.Symbol{
		Name: name, Kind: kind, Parent: -1, Start: x.t.Line(stmt), End: x.t.EndLine(stmt),
		Signature: extract.FirstLine(x.text(stmt)), Doc: x.attrDoc(stmt), Type: t, Flags: x.exported(name, -1),
	})
	x.top[name] = id
	return id
}

// ---- expressions ----

// chain renders a.b.c for identifiers and attribute chains, else "".
func (x *ex) chain(n int32) string {
	switch x.of(n) {
	case kIdentifier:
		return x.text(n)
	case kAttribute:
		left := x.chain(x.t.Field(n, x.k.fObject))
		if left == "" {
			return ""
		}
		return left + "." + x.text(x.t.Field(n, x.k.fAttribute))
	case kDottedName:
		return stripSpace(x.text(n))
	}
	return ""
}

func (x *ex) call(n int32, c ctx) {
	fn := x.t.Field(n, x.k.fFunction)
	line := x.t.Line(n)
	switch x.of(fn) {
	case kIdentifier:
		x.bareCall(x.text(fn), c, line)
	case kAttribute:
		x.attrCall(fn, c, line)
	default:
		x.walk(fn, c)
	}
	if args := x.t.Field(n, x.k.fArguments); args >= 0 {
		if x.of(args) == kArgList {
			x.args(args, c)
		} else {
			x.walk(args, c)
		}
	}
}

func (x *ex) bareCall(name string, c ctx, line uint32) {
	if v, ok := c.sc.lookup(name); ok {
		if v == vDef {
			x.ref(c.from, extract.RefCall, name, "", "", line)
		}
		return // a local variable or parameter called
	}
	if c.sc != nil && c.sc.clsParam && c.sc.isSelf(name) {
		x.ref(c.from, extract.RefCall, x.r.Symbols[c.sc.cls].Name, "", "", line) // cls(...)
		return
	}
	if b := x.bind[name]; b != nil {
		if b.inRepo && b.name != "" {
			x.ref(c.from, extract.RefCall, name, "", "", line)
		}
		return
	}
	if _, ok := x.modVars[name]; ok && !x.defined[name] {
		return // a module variable called: its value is unknown
	}
	i := x.ref(c.from, extract.RefCall, name, "", "", line)
	if builtins[name] {
		x.checks = append(x.checks, check{ref: i, name: name, class: -1})
	}
}

func (x *ex) attrCall(fn int32, c ctx, line uint32) {
	name := x.text(x.t.Field(fn, x.k.fAttribute))
	obj := x.t.Field(fn, x.k.fObject)
	if qual, qt, nm, ok := x.receiver(obj, name, c); ok && name != "" {
		i := x.ref(c.from, extract.RefCall, nm, qual, qt, line)
		if strings.HasPrefix(qt, vFix) {
			x.fixtures = append(x.fixtures, i)
		}
	}
	if x.chain(obj) == "" {
		x.walk(obj, c)
	}
}

// receiver describes the object a method is called on: the qualifier as
// the resolver reads it, and its type when known. ok is false when the
// call is on a literal or on something outside the repository.
func (x *ex) receiver(obj int32, name string, c ctx) (qual, qt, nm string, ok bool) {
	switch x.of(obj) {
	case kIdentifier, kAttribute:
		ch := x.chain(obj)
		if ch == "" {
			// a().b.c(): unknown, unless a() is known to be outside.
			root := obj
			for x.of(root) == kAttribute {
				root = x.t.Field(root, x.k.fObject)
			}
			if x.of(root) == kCall {
				if ich := x.chain(x.t.Field(root, x.k.fFunction)); ich != "" && x.callType(ich, c) == vExt {
					return "", "", "", false
				}
			}
			return x.unknown(name)
		}
		return x.qualify(ch, name, c)
	case kCall:
		ich := x.chain(x.t.Field(obj, x.k.fFunction))
		switch ich {
		case "super":
			if c.sc != nil && c.sc.cls >= 0 && x.closed[c.sc.cls] {
				return "", "", "", false // the parent is outside the repository
			}
			return "super", "", name, true
		case "":
			return x.unknown(name)
		}
		ct := x.callType(ich, c)
		switch ct {
		case vExt:
			return "", "", "", false
		case "":
			return x.unknown(name)
		}
		return lastPart(ich) + "()", ct, name, true
	case kString, kConcatString, kInteger, kFloat, kList, kDictionary, kSet, kListComp, kDictComp,
		kSetComp, kTuple, kGenExpr, kTrue, kFalse, kNone:
		return "", "", "", false
	case kParenExpr:
		if e := only(x.t, obj); e >= 0 {
			return x.receiver(e, name, c)
		}
	}
	return x.unknown(name)
}

// builtinValues are builtins whose result is a builtin object.
var builtinValues = setOf(`dict list set str tuple frozenset bytes int float bool bytearray sorted
open repr format len range enumerate zip map filter reversed hex oct bin chr ord abs round sum
memoryview id hash ascii divmod`)

// builtinMethods are methods of str, bytes, list, dict, set and files. On
// an object of unknown type they are almost never the repository's.
var builtinMethods = setOf(`append extend insert pop remove clear copy update get setdefault items
keys values popitem add discard difference union intersection issubset issuperset split rsplit
strip lstrip rstrip join lower upper casefold capitalize title startswith endswith replace format
format_map encode decode find rfind index rindex count sort reverse partition rpartition
splitlines isdigit isalpha isalnum isspace isupper islower isidentifier zfill ljust rjust center
expandtabs translate maketrans removeprefix removesuffix read readline readlines write writelines
close flush seek tell fileno truncate hex fromkeys`)

// unknown is the receiver of a call on an object of unknown type: left to
// the resolver (which may find a unique method of that name), except for
// the methods of builtin types.
func (x *ex) unknown(name string) (qual, qt, nm string, ok bool) {
	if builtinMethods[name] {
		return "", "", "", false
	}
	return "?", "", name, true
}

// qualify turns a receiver chain into the resolver's qualifier and type:
// aliases are expanded (app = self.app), typed locals give their type,
// module aliases follow package re-exports.
func (x *ex) qualify(ch, name string, c ctx) (qual, qt, nm string, ok bool) {
	// A builtin type's method (get, update, append) reached through
	// fields of an object is left out unless the last field's type is
	// known here: a guess would almost always be wrong.
	hop := func(rest string) bool { return rest != "" && builtinMethods[name] }
	for step := 0; step < 3; step++ {
		first, rest, _ := strings.Cut(ch, ".")
		v, local := c.sc.lookup(first)
		if !local {
			if mv, isVar := x.modVars[first]; isVar && !x.defined[first] {
				v, local = mv, true
			}
		}
		if local {
			switch {
			case v == vExt:
				return "", "", "", false
			case v == "" || v == vDef:
				if builtinMethods[name] {
					return "", "", "", false
				}
				return ch, "", name, true
			case v[0] == '=':
				ch = v[1:]
				if rest != "" {
					ch += "." + rest
				}
				continue
			}
			if hop(rest) {
				return "", "", "", false
			}
			return ch, v, name, true
		}
		if c.sc.isSelf(first) {
			f, more, _ := strings.Cut(rest, ".")
			switch {
			case f != "" && x.fieldExt[c.sc.cls][f]:
				return "", "", "", false // self.headers.get(): a dict
			case hop(more), hop(rest) && !x.typedField(c.sc.cls, f):
				return "", "", "", false // self.items.append()
			}
			return ch, "", name, true
		}
		if b := x.bind[first]; b != nil {
			if !b.inRepo {
				return "", "", "", false
			}
			if b.name == "" {
				return x.viaModule(b, first, rest, name)
			}
			if hop(rest) {
				return "", "", "", false
			}
			return ch, "", name, true
		}
		if builtinMethods[name] && !x.defined[first] {
			return "", "", "", false
		}
		return ch, "", name, true
	}
	return ch, "", name, true
}

func (x *ex) typedField(cls int32, name string) bool {
	id, ok := x.fields[cls][name]
	return ok && x.r.Symbols[id].Type != ""
}

// viaModule qualifies name in module alias first (+ rest); when the module
// is a package that re-exports the name, the qualifier names the defining
// module instead (flask.Flask → flask.app.Flask).
func (x *ex) viaModule(b *binding, first, rest, name string) (qual, qt, nm string, ok bool) {
	qual = first
	key, fs := b.key, b.fs
	if rest != "" {
		qual += "." + rest
		key += "." + rest
		fs = joinRel(fs, strings.ReplaceAll(rest, ".", "/"))
	}
	if x.c == nil || !x.c.isPkgDir(fs) {
		return qual, "", name, true
	}
	t, found := x.c.reexport(fs, key, name)
	switch {
	case !found:
		// A package re-exporting one module with *: the name is there.
		if stars := x.c.reexportsOf(fs, key).stars; len(stars) == 1 && strings.HasPrefix(stars[0].key, b.key+".") {
			return first + stars[0].key[len(b.key):], "", name, true
		}
		return qual, "", name, true
	case !t.inRepo:
		return "", "", "", false
	case t.name == "":
		return qual, "", name, true
	case t.key == b.key:
		return first, "", t.name, true
	case strings.HasPrefix(t.key, b.key+"."):
		return first + t.key[len(b.key):], "", t.name, true
	}
	return qual, "", name, true
}

// callType is the value type of the result of calling the chain ich, as
// "call:..." the resolver can follow, vExt, or "".
func (x *ex) callType(ich string, c ctx) string {
	qualChain, name := "", ich
	if i := strings.LastIndexByte(ich, '.'); i >= 0 {
		qualChain, name = ich[:i], ich[i+1:]
	}
	if qualChain == "" {
		if v, ok := c.sc.lookup(name); ok {
			if v == vDef {
				return "call:" + name
			}
			return ""
		}
		if c.sc != nil && c.sc.clsParam && c.sc.isSelf(name) {
			return "call:" + x.r.Symbols[c.sc.cls].Name
		}
		if b := x.bind[name]; b != nil {
			switch {
			case !b.inRepo:
				return vExt
			case b.name == "":
				return ""
			}
			return "call:" + name
		}
		if builtins[name] && !x.defined[name] {
			if builtinValues[name] {
				return vExt
			}
			return ""
		}
		return "call:" + name
	}
	q, qt, nm, ok := x.qualify(qualChain, name, c)
	if strings.HasPrefix(qt, "call:") {
		qt = typeOnly(qt) // an instance of a class called: of that class
	}
	switch {
	case !ok:
		return vExt
	case qt == "":
		return "call:" + q + "." + nm
	case strings.HasPrefix(qt, "call:") || strings.HasPrefix(qt, vFix) || qt == "Self":
		return ""
	}
	if _, rest, two := strings.Cut(q, "."); two {
		return "call:" + qt + "." + rest + "." + nm
	}
	return "call:" + qt + "." + nm
}

// valueType is what an assigned value tells about the variable's type.
func (x *ex) valueType(n int32, c ctx) string {
	switch x.of(n) {
	case kCall:
		ich := x.chain(x.t.Field(n, x.k.fFunction))
		if ich == "" {
			return ""
		}
		return x.callType(ich, c)
	case kIdentifier:
		name := x.text(n)
		if v, ok := c.sc.lookup(name); ok {
			if v == vDef {
				return ""
			}
			return v
		}
		if c.sc.isSelf(name) {
			return "=" + name
		}
		if v, ok := x.modVars[name]; ok {
			return v
		}
		if b := x.bind[name]; b != nil && !b.inRepo {
			return vExt
		}
	case kAttribute:
		ch := x.chain(n)
		if ch == "" {
			return ""
		}
		first, rest, _ := strings.Cut(ch, ".")
		if v, ok := c.sc.lookup(first); ok {
			switch {
			case v == vExt:
				return vExt
			case strings.HasPrefix(v, "="):
				return v + "." + rest
			}
			return "=" + ch
		}
		if b := x.bind[first]; b != nil && !b.inRepo {
			return vExt
		}
		return "=" + ch
	case kAwait, kParenExpr:
		if e := only(x.t, n); e >= 0 {
			return x.valueType(e, c)
		}
	}
	return ""
}

func (x *ex) args(al int32, c ctx) {
	for a := x.t.FirstNamed(al); a >= 0; a = x.t.NextNamed(a) {
		switch x.of(a) {
		case kIdentifier:
			x.fnArg(a, c)
		case kAttribute:
			x.fnArg(a, c)
			x.walk(a, c)
		case kKeywordArg:
			if v := x.t.Field(a, x.k.fValue); v >= 0 {
				if k := x.of(v); k == kIdentifier || k == kAttribute {
					x.fnArg(v, c)
				}
				x.walk(v, c)
			}
		default:
			x.walk(a, c)
		}
	}
}

// fnArg records a function, method or class passed as an argument
// (map(process, xs), app.before_request(check), isinstance(x, Foo)).
func (x *ex) fnArg(n int32, c ctx) {
	line := x.t.Line(n)
	switch x.of(n) {
	case kIdentifier:
		name := x.text(n)
		if v, ok := c.sc.lookup(name); ok {
			if v == vDef {
				x.ref(c.from, extract.RefCall, name, "", "", line)
			}
			return
		}
		if c.sc.isSelf(name) {
			return
		}
		if _, ok := x.modVars[name]; ok && !x.defined[name] {
			return
		}
		kind := extract.RefCall
		if startsUpper(name) {
			kind = extract.RefType
		}
		if b := x.bind[name]; b != nil {
			if b.inRepo && b.name != "" {
				x.ref(c.from, kind, name, "", "", line)
			}
			return
		}
		if builtins[name] || typingNames[name] {
			return
		}
		i := x.ref(c.from, kind, name, "", "", line)
		x.checks = append(x.checks, check{ref: i, name: name, class: -1})
	case kAttribute:
		ch := x.chain(n)
		if ch == "" {
			return
		}
		qualChain, name := ch[:strings.LastIndexByte(ch, '.')], lastPart(ch)
		first, rest, _ := strings.Cut(qualChain, ".")
		if rest == "" && c.sc.isSelf(first) {
			i := x.ref(c.from, extract.RefCall, name, first, "", line)
			x.checks = append(x.checks, check{ref: i, name: name, class: c.sc.cls})
			return
		}
		if _, local := c.sc.lookup(first); local {
			return
		}
		if b := x.bind[first]; b != nil && b.name == "" && b.inRepo {
			q, _, nm, ok := x.viaModule(b, first, rest, name)
			if !ok {
				return
			}
			kind := extract.RefCall
			if startsUpper(nm) {
				kind = extract.RefType
			}
			x.ref(c.from, kind, nm, q, "", line)
		}
	}
}

func (x *ex) lambda(n int32, c ctx) {
	t := x.t
	sc := newScope(c.sc)
	if ps := t.Field(n, x.k.fParameters); ps >= 0 {
		for p := t.FirstNamed(ps); p >= 0; p = t.NextNamed(p) {
			switch x.of(p) {
			case kIdentifier:
				sc.vars[x.text(p)] = ""
			case kDefaultParam, kTypedDefaultParam:
				if nm := t.Field(p, x.k.fName); nm >= 0 {
					sc.vars[x.text(nm)] = ""
				}
				x.walk(t.Field(p, x.k.fValue), c)
			case kListSplatPattern, kDictSplatPattern, kTypedParam:
				x.bindNames(p, sc)
				x.bindNames(t.FirstNamed(p), sc)
			}
		}
	}
	if b := t.Field(n, x.k.fBody); b >= 0 {
		lc := c
		lc.sc = sc
		x.walk(b, lc)
	}
}

func (x *ex) comprehension(n int32, c ctx) {
	t := x.t
	sc := newScope(c.sc)
	for k := t.FirstNamed(n); k >= 0; k = t.NextNamed(k) {
		if x.of(k) == kForIn {
			x.bindNames(t.Field(k, x.k.fLeft), sc)
		}
	}
	cc := c
	cc.sc = sc
	for k := t.FirstNamed(n); k >= 0; k = t.NextNamed(k) {
		x.walk(k, cc)
	}
}

// asPattern splits `expr as target` into its expression (the first named
// child outside the alias field) and its target (the alias), -1 when
// missing.
func (x *ex) asPattern(n int32) (expr, target int32) {
	expr, target = -1, -1
	for ch := x.t.FirstNamed(n); ch >= 0; ch = x.t.NextNamed(ch) {
		if x.t.N[ch].Field == x.k.fAlias {
			target = ch
		} else if expr < 0 {
			expr = ch
		}
	}
	return expr, target
}

// asTarget is the name an `as` binds: the identifier inside an
// as_pattern_target of one child, else the target itself.
func (x *ex) asTarget(target int32) int32 {
	if x.of(target) == kAsPatternTarget {
		if e := only(x.t, target); e >= 0 {
			return e
		}
	}
	return target
}

func (x *ex) withItem(n int32, c ctx) {
	v := x.t.Field(n, x.k.fValue)
	if v < 0 {
		return
	}
	if x.of(v) != kAsPattern {
		x.walk(v, c)
		return
	}
	expr, target := x.asPattern(v)
	if expr < 0 {
		return
	}
	x.walk(expr, c)
	if target >= 0 && c.sc != nil {
		target = x.asTarget(target)
		if x.of(target) == kIdentifier {
			x.setLocal(c.sc, x.text(target), x.valueType(expr, c))
		} else {
			x.bindNames(target, c.sc)
		}
	}
}

func (x *ex) except(n int32, c ctx) {
	for ch := x.t.FirstNamed(n); ch >= 0; ch = x.t.NextNamed(ch) {
		switch x.of(ch) {
		case kBlock:
			x.walk(ch, c)
		case kAsPattern:
			expr, target := x.asPattern(ch)
			if expr >= 0 {
				x.excTypes(expr, c)
			}
			if target >= 0 && c.sc != nil {
				target = x.asTarget(target)
				if x.of(target) == kIdentifier {
					typ := ""
					if chn := x.chain(expr); chn != "" {
						typ = x.typeChain(chn)
					}
					x.setLocal(c.sc, x.text(target), typ)
				}
			}
		case kComment:
		default:
			x.excTypes(ch, c)
		}
	}
}

func (x *ex) excTypes(n int32, c ctx) {
	switch x.of(n) {
	case kIdentifier, kAttribute:
		if ch := x.chain(n); ch != "" {
			x.typeRef(ch, c.from, extract.RefType, x.t.Line(n))
			return
		}
		x.walk(n, c)
	case kTuple, kParenExpr:
		for ch := x.t.FirstNamed(n); ch >= 0; ch = x.t.NextNamed(ch) {
			x.excTypes(ch, c)
		}
	default:
		x.walk(n, c)
	}
}

// ---- types ----

// typeName reduces an annotation to the type it is about: Optional[Foo],
// Foo | None and "Foo" are Foo; containers give "". vExt marks a type
// outside the repository.
func (x *ex) typeName(n int32) string {
	t := x.t
	for depth := 0; n >= 0 && depth < 8; depth++ {
		switch x.of(n) {
		case kType, kParenExpr:
			n = t.FirstNamed(n)
			continue
		case kIdentifier, kAttribute:
			ch := x.chain(n)
			if ch == "" {
				return ""
			}
			return x.typeChain(ch)
		case kMemberType:
			return x.typeChain(stripSpace(x.text(n)))
		case kString:
			return x.stringType(x.text(n))
		case kSubscript:
			v := x.chain(t.Field(n, x.k.fValue))
			lp := lastPart(v)
			if wrapperTypes[lp] {
				n = x.firstTypeArg(n, x.k.fSubscript)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kGenericType:
			first := t.FirstNamed(n)
			if first < 0 {
				return ""
			}
			v := x.chain(first)
			lp := lastPart(v)
			if second := t.NextNamed(first); wrapperTypes[lp] && second >= 0 {
				n = x.firstTypeArg(second, 0)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kBinaryOp, kUnionType:
			next := int32(-1)
			for ch := t.FirstNamed(n); ch >= 0; ch = t.NextNamed(ch) {
				if k := x.of(ch); k != kNone && !(k == kType && x.of(only(t, ch)) == kNone) {
					next = ch
					break
				}
			}
			n = next
			continue
		}
		return ""
	}
	return ""
}

// firstTypeArg is the first argument of a subscript or type parameter
// list that is not None: a named child, in the given field unless field
// is 0.
func (x *ex) firstTypeArg(n int32, field uint16) int32 {
	for ch := x.t.FirstNamed(n); ch >= 0; ch = x.t.NextNamed(ch) {
		if field != 0 && x.t.N[ch].Field != field {
			continue
		}
		switch x.of(ch) {
		case kNone, kComment:
			continue
		}
		return ch
	}
	return -1
}

func (x *ex) stringType(lit string) string {
	s := strings.Trim(lit, `"'`)
	for _, nm := range dottedNames(s) {
		lp := lastPart(nm)
		if wrapperTypes[lp] || lp == "None" {
			continue
		}
		if typingNames[lp] {
			return opaqueType(lp)
		}
		return x.typeChain(nm)
	}
	return ""
}

// typeChain checks a type name against the file's imports: builtins and
// typing give "", names from outside the repository vExt, names through a
// module alias the module that defines them.
func (x *ex) typeChain(ch string) string {
	first, rest, dotted := strings.Cut(ch, ".")
	b := x.bind[first]
	if b == nil {
		if !dotted && (typingNames[first] || builtins[first]) && !x.defined[first] {
			return opaqueType(first)
		}
		return ch
	}
	if !b.inRepo {
		if dotted && typingModules[b.key] {
			return opaqueType(lastPart(rest))
		}
		if !dotted && typingModules[b.key] {
			return opaqueType(b.name)
		}
		return vExt
	}
	if b.name == "" && dotted {
		mid, name := "", rest
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			mid, name = rest[:i], rest[i+1:]
		}
		q, _, nm, ok := x.viaModule(b, first, mid, name)
		if !ok {
			return vExt
		}
		return q + "." + nm
	}
	return ch
}

// opaqueType is the value type of a builtin or typing name: Any and object
// say nothing, Self is the enclosing class, the rest are types outside the
// repository (str, dict, Callable).
func opaqueType(name string) string {
	switch name {
	case "Any", "object", "":
		return ""
	case "Self":
		return "Self"
	}
	return vExt
}

// typeRefs records the types named in an annotation.
func (x *ex) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	t := x.t
	switch x.of(n) {
	case kIdentifier, kAttribute:
		if ch := x.chain(n); ch != "" {
			x.typeRef(ch, from, kind, t.Line(n))
		}
		return
	case kString:
		line := t.Line(n)
		for _, nm := range dottedNames(strings.Trim(x.text(n), `"'`)) {
			x.typeRef(nm, from, kind, line)
		}
		return
	case kSubscript:
		v := t.Field(n, x.k.fValue)
		x.typeRefs(v, from, kind)
		if lastPart(x.chain(v)) == "Literal" {
			return
		}
		for ch := t.FirstChild(n); ch >= 0; ch = t.N[ch].Next {
			if t.N[ch].Field == x.k.fSubscript {
				x.typeRefs(ch, from, kind)
			}
		}
		return
	case kGenericType:
		if first := t.FirstNamed(n); first >= 0 && lastPart(x.chain(first)) == "Literal" {
			return
		}
	case kCall, kLambda, kInteger, kFloat, kNone, kComment, kEllipsis:
		return
	}
	for ch := t.FirstNamed(n); ch >= 0; ch = t.NextNamed(ch) {
		x.typeRefs(ch, from, kind)
	}
}

func (x *ex) typeRef(ch string, from int32, kind extract.RefKind, line uint32) {
	t := x.typeChain(ch)
	if t == "" || t == vExt || t == "Self" {
		return
	}
	qual, name := "", t
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		qual, name = t[:i], t[i+1:]
	}
	if name == "" || name == "None" {
		return
	}
	x.ref(from, kind, name, qual, "", line)
}

// ---- imports ----

func (x *ex) emit(im extract.Import) {
	if im.Path == "" || x.seenImp[im] {
		return
	}
	x.seenImp[im] = true
	x.r.Imports = append(x.r.Imports, im)
}

func (x *ex) absolute(dotted string) modLoc {
	if x.c == nil {
		return modLoc{key: dotted, inRepo: true}
	}
	return x.c.absolute(x.dir, dotted)
}

func (x *ex) addImport(ri rawImport) {
	if !ri.from {
		if len(ri.names) == 0 || ri.module == "" {
			return
		}
		if alias := ri.names[0].alias; alias != "" {
			loc := x.absolute(ri.module)
			x.emit(extract.Import{Path: loc.key, Alias: alias})
			x.bind[alias] = &binding{key: loc.key, fs: loc.fs, inRepo: loc.inRepo}
			return
		}
		// `import a.b.c` binds a; the resolver reads a.b.c.f() through it.
		top, _, dotted := strings.Cut(ri.module, ".")
		tl := x.absolute(top)
		im := extract.Import{Path: tl.key}
		if tl.key != top {
			im.Alias = top
		}
		x.emit(im)
		if b := x.bind[top]; b == nil || b.name != "" || b.key != tl.key {
			x.bind[top] = &binding{key: tl.key, fs: tl.fs, inRepo: tl.inRepo}
		}
		if dotted {
			// The module itself, under a name no code can spell, for the
			// import edge.
			loc := x.absolute(ri.module)
			x.emit(extract.Import{Path: loc.key, Alias: ri.module})
		}
		return
	}
	var base modLoc
	if ri.level > 0 {
		k, d := relativeBase(x.mod, x.isInit, x.dir, ri.level)
		base = modLoc{key: joinKey(k, ri.module), fs: d, inRepo: true}
		if ri.module != "" {
			base.fs = joinRel(d, strings.ReplaceAll(ri.module, ".", "/"))
		}
	} else {
		base = x.absolute(ri.module)
	}
	if base.key == "" {
		return
	}
	if ri.star {
		x.emit(extract.Import{Path: base.key, Name: "*"})
		if base.inRepo && x.c != nil && x.c.isPkgDir(base.fs) {
			re := x.c.reexportsOf(base.fs, base.key)
			locals := make([]string, 0, len(re.names))
			for l := range re.names {
				locals = append(locals, l)
			}
			sort.Strings(locals)
			for _, l := range locals {
				x.fromName(base, l, "")
			}
			for _, s := range re.stars {
				x.emit(extract.Import{Path: s.key, Name: "*"})
			}
		}
		return
	}
	for _, na := range ri.names {
		if na.name == "" || strings.Contains(na.name, ".") {
			continue
		}
		x.fromName(base, na.name, na.alias)
	}
}

// fromName handles `from base import name [as alias]`: a submodule, a
// name re-exported by a package (followed to its definition), or a name.
func (x *ex) fromName(base modLoc, name, alias string) {
	local := alias
	if local == "" {
		local = name
	}
	if base.inRepo && x.c != nil {
		sub := joinRel(base.fs, name)
		if base.fs != "" && x.c.isModule(sub) {
			key := joinKey(base.key, name)
			x.emit(extract.Import{Path: key, Alias: local})
			x.bind[local] = &binding{key: key, fs: sub, inRepo: true}
			return
		}
		if x.c.isPkgDir(base.fs) {
			if t, ok := x.c.reexport(base.fs, base.key, name); ok {
				switch {
				case !t.inRepo:
					x.emit(extract.Import{Path: base.key, Name: name, Alias: alias})
					x.bind[local] = &binding{key: t.key, name: name}
				case t.name == "":
					x.emit(extract.Import{Path: t.key, Alias: local})
					x.bind[local] = &binding{key: t.key, fs: t.fs, inRepo: true}
				default:
					im := extract.Import{Path: t.key, Name: t.name}
					if local != t.name {
						im.Alias = local
					}
					x.emit(im)
					x.bind[local] = &binding{key: t.key, fs: t.fs, name: t.name, inRepo: true}
				}
				return
			}
			// Names a package re-exports with *: each source may hold it
			// (the resolver takes the first that does).
			defer func() {
				for _, s := range x.c.reexportsOf(base.fs, base.key).stars {
					x.emit(extract.Import{Path: s.key, Name: name, Alias: alias})
				}
			}()
		}
	}
	x.emit(extract.Import{Path: base.key, Name: name, Alias: alias})
	x.bind[local] = &binding{key: base.key, fs: base.fs, name: name, inRepo: base.inRepo}
}
