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

// extractor reads one file.
type extractor struct {
	extract.Base
	c *repoCache // nil without a Repo

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
	x := &extractor{
		Base: newBase(f.Root, f.Src), c: cacheFor(f.Repo),
		bind: map[string]*binding{}, seenImp: map[extract.Import]bool{}, modVars: map[string]string{},
		top: map[string]int32{}, defined: map[string]bool{}, methods: map[int32]map[string]int32{},
		fields: map[int32]map[string]int32{}, enums: map[int32]bool{},
		fieldExt: map[int32]map[string]bool{}, annotated: map[int32]bool{}, closed: map[int32]bool{},
		test: r.Flags&snapshot.FlagTest != 0,
	}
	x.F, x.R = f, r
	defer x.Release()
	x.dir = path.Dir(f.Path)
	if x.dir == "." {
		x.dir = ""
	}
	x.mod, x.isInit = moduleKey(x.c, f.Path)
	r.Package, r.Scope = x.mod, ""
	const root = 0
	x.walk(root, ctx{from: -1, parent: -1, class: -1})
	x.finish()
}

// ref records a reference out of symbol from and returns its index.
func (x *extractor) ref(from int32, kind extract.RefKind, name, qual, qt string, line uint32) int {
	return x.AddRef(extract.Ref{From: from, Kind: kind, Name: name, Qual: qual, QualType: qt, Line: line})
}

func (x *extractor) exported(name string, parent int32) snapshot.Flags {
	if parent >= 0 && x.R.Symbols[parent].Kind.IsCallable() {
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
func (x *extractor) finish() {
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
	out := x.R.Refs[:0]
	for i, rf := range x.R.Refs {
		if !drop[i] {
			out = append(out, rf)
		}
	}
	x.R.Refs = out
}

// localResults replaces "call:self.m" and "call:f" types with the result
// type of m or f when this file declares it (self.config =
// self.make_config() with make_config -> Config).
func (x *extractor) localResults() {
	for i := range x.R.Symbols {
		s := &x.R.Symbols[i]
		for step := 0; step < 3 && strings.HasPrefix(s.Type, "call:"); step++ {
			t := x.localResult(int32(i), s.Type[len("call:"):])
			if t == "" {
				break
			}
			s.Type = t
		}
	}
}

func (x *extractor) localResult(si int32, call string) string {
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
		for p := x.R.Symbols[si].Parent; p >= 0; p = x.R.Symbols[p].Parent {
			if x.R.Symbols[p].Kind.IsType() {
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
	f := &x.R.Symbols[fn]
	switch {
	case f.Kind.IsType():
		return f.Name
	case !f.Kind.IsCallable():
		return ""
	case f.Type == "Self" && cls >= 0:
		return x.R.Symbols[cls].Name
	}
	return f.Type
}

// pytestBuiltin are pytest's own fixtures: objects outside the repository.
var pytestBuiltin = extract.WordSet(`monkeypatch tmp_path tmpdir capsys capfd capsysbinary capfdbinary caplog
request pytestconfig recwarn tmp_path_factory tmpdir_factory cache doctest_namespace
record_property record_testsuite_property record_xml_attribute testdir pytester mocker
event_loop subtests`)

// resolveFixtures turns fixture parameters into "the result of the fixture
// function": defined in this file, or in the nearest conftest.py, which is
// imported under a name no code can spell.
func (x *extractor) resolveFixtures() {
	if len(x.fixtures) == 0 {
		return
	}
	conftest := ""
	if x.c != nil {
		d := x.dir
		if path.Base(x.F.Path) == "conftest.py" {
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
		rf := &x.R.Refs[i]
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
func (x *extractor) walk(n int32, c ctx) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kFuncDef:
		x.function(n, n, nil, c)
		return
	case kClassDef:
		x.class(n, n, nil, c)
		return
	case kDecorated:
		def := x.Field(n, fDefinition)
		var decos []int32
		for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
			if x.Code(ch) == kDecorator {
				decos = append(decos, ch)
			}
		}
		switch x.Code(def) {
		case kFuncDef:
			x.function(def, n, decos, c)
		case kClassDef:
			x.class(def, n, decos, c)
		}
		return
	case kImport, kImportFrom:
		for _, ri := range readImport(&x.Base, n) {
			x.addImport(ri)
		}
		return
	case kFutureImport, kIdentifier, kComment, kGlobal, kNonlocal, kNone, kInteger, kFloat,
		kTrue, kFalse, kEllipsis, kStringContent, kPass, kKeywordIdentifier:
		return
	case kExprStmt:
		for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
			if x.Code(ch) == kAssignment {
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
			x.bindNames(x.Field(n, fLeft), c.sc)
		}
	case kWithItem:
		x.withItem(n, c)
		return
	case kExcept:
		x.except(n, c)
		return
	case kNamedExpr:
		v := x.Field(n, fValue)
		if v >= 0 {
			x.walk(v, c)
		}
		if c.sc != nil {
			if nm := x.Field(n, fName); nm >= 0 {
				x.setLocal(c.sc, x.Text(nm), x.valueType(v, c))
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
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		x.walk(ch, c)
	}
}

// returned infers an unannotated function's result type from what it
// returns (or, for a pytest fixture, yields): a class instance, a typed
// local, self.
func (x *extractor) returned(n int32, c ctx) {
	if c.from < 0 || x.annotated[c.from] || c.sc == nil {
		return
	}
	e := x.only(n)
	if e < 0 {
		return
	}
	s := &x.R.Symbols[c.from]
	if !s.Kind.IsCallable() || s.Type != "" {
		return
	}
	if x.Code(e) == kIdentifier && c.sc.isSelf(x.Text(e)) && !c.sc.clsParam {
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

func (x *extractor) decoFlags(decos []int32, name string) decoInfo {
	var d decoInfo
	for _, deco := range decos {
		e := x.decoExpr(deco)
		if e < 0 {
			continue
		}
		if x.Code(e) == kCall {
			e = x.Field(e, fFunction)
		}
		ch := x.chain(e)
		switch extract.LastName(ch) {
		case "staticmethod":
			d.static = true
		case "classmethod":
			d.classm = true
		case "property", "cached_property":
			d.prop = true
		case "overload":
			d.overload = true
		case "setter", "getter", "deleter":
			if strings.TrimSuffix(ch, "."+extract.LastName(ch)) == name {
				d.accessor = true
			}
		}
	}
	return d
}

func (x *extractor) decoExpr(d int32) int32 {
	for ch := x.FirstNamed(d); ch >= 0; ch = x.NextNamed(ch) {
		if x.Code(ch) != kComment {
			return ch
		}
	}
	return -1
}

// header is a def or class header, on one line: up to its colon.
func (x *extractor) header(def int32) string {
	start, end := x.N[def].Start, x.N[def].End
	// The colon is the first one between the def's named children: the
	// tree holds no anonymous tokens, and no other token at this level
	// has a colon (those of annotations, lambdas and slices are inside
	// named children).
	for from, ch := start, x.FirstChild(def); ; ch = x.N[ch].Next {
		to := x.N[def].End
		if ch >= 0 {
			to = x.N[ch].Start
		}
		if from <= to && int(to) <= len(x.Src) {
			if i := bytes.IndexByte(x.Src[from:to], ':'); i >= 0 {
				end = from + uint32(i)
				break
			}
		}
		if ch < 0 {
			break
		}
		from = x.N[ch].End
	}
	if end > uint32(len(x.Src)) || start > end {
		return ""
	}
	return strings.Join(strings.Fields(string(x.Src[start:end])), " ")
}

// signature is the header with its decorators, on one line.
func (x *extractor) signature(def int32, decos []int32) string {
	h := x.header(def)
	if len(h) > 240 {
		return capText(h, 240)
	}
	var b strings.Builder
	for _, deco := range decos {
		d := extract.FirstLine(x.Text(deco))
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
func (x *extractor) blockDoc(body int32) string {
	if body < 0 {
		return ""
	}
	for n := x.FirstChild(body); n >= 0; n = x.N[n].Next {
		switch x.Code(n) {
		case kComment:
		case kExprStmt:
			if s := x.only(n); x.Code(s) == kString {
				return docstring(x.Text(s))
			}
			return ""
		default:
			if x.N[n].Named {
				return ""
			}
		}
	}
	return ""
}

// comments is the block of comment lines right above n, at its indentation.
func (x *extractor) comments(n int32) string {
	line := x.Line(n)
	col := x.column(n)
	p := x.N[n].Prev
	if p < 0 {
		if par := x.N[n].Parent; par >= 0 && x.Code(par) == kBlock {
			p = x.N[par].Prev
		}
	}
	var parts []string
	next := x.N[n].Start
	for p >= 0 && x.Code(p) == kComment && x.EndLine(p)+1 >= line && x.column(p) == col && len(parts) < 40 &&
		!x.LeftOut(x.N[p].End, next) { // a token between the two ends the doc
		parts = append(parts, cleanComment(x.Text(p)))
		line, next = x.Line(p), x.N[p].Start
		p = x.N[p].Prev
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return capText(strings.TrimSpace(strings.Join(parts, "\n")), maxDoc)
}

// attrDoc documents an attribute: #: comments above, or a string below.
func (x *extractor) attrDoc(stmt int32) string {
	if d := x.comments(stmt); d != "" {
		return d
	}
	if nx := x.nextNamedSibling(stmt); x.Code(nx) == kExprStmt {
		if s := x.only(nx); x.Code(s) == kString {
			return docstring(x.Text(s))
		}
	}
	return ""
}

func (x *extractor) function(def, outer int32, decos []int32, c ctx) {
	name := x.Text(x.Field(def, fName))
	if name == "" {
		return
	}
	d := x.decoFlags(decos, name)
	if d.overload {
		return // a typing stub; the implementation follows
	}
	isMethod := c.class >= 0
	body := x.Field(def, fBody)
	ret := x.Field(def, fReturnType)
	var id int32 = -1
	if d.accessor && isMethod {
		if m, ok := x.methods[c.class][name]; ok {
			id = m // a property's setter or deleter: part of the property
			if e := x.EndLine(def); e > x.R.Symbols[id].End {
				x.R.Symbols[id].End = e
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
			Name: name, Kind: kind, Parent: c.parent, Start: x.Line(outer), End: x.EndLine(def),
			Signature: x.signature(def, decos), Doc: x.blockDoc(body), Flags: x.exported(name, c.parent),
		}
		if s.Doc == "" {
			s.Doc = x.comments(outer)
		}
		if ret >= 0 {
			s.Type = typeOnly(x.typeName(ret))
		}
		id = x.Add(s)
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
	x.params(x.Field(def, fParameters), id, sc, hasSelf, d.classm, dc)
	if ret >= 0 {
		x.typeRefs(ret, id, extract.RefTypeHint)
	}
	if body >= 0 {
		x.walk(body, ctx{from: id, parent: id, class: -1, sc: sc})
	}
}

func (x *extractor) params(pl int32, id int32, sc *scope, hasSelf, classm bool, outer ctx) {
	if pl < 0 {
		return
	}
	first := true
	for p := x.FirstNamed(pl); p >= 0; p = x.NextNamed(p) {
		nameNode, typ, def := int32(-1), int32(-1), int32(-1)
		splat := false
		switch x.Code(p) {
		case kIdentifier:
			nameNode = p
		case kTypedParam:
			typ = x.Field(p, fType)
			for ch := x.FirstNamed(p); ch >= 0; ch = x.NextNamed(ch) {
				switch x.Code(ch) {
				case kIdentifier:
					nameNode = ch
				case kListSplatPattern, kDictSplatPattern:
					splat = true
					nameNode = x.FirstNamed(ch)
				}
				if nameNode >= 0 {
					break
				}
			}
		case kDefaultParam:
			nameNode, def = x.Field(p, fName), x.Field(p, fValue)
		case kTypedDefaultParam:
			nameNode, typ, def = x.Field(p, fName), x.Field(p, fType), x.Field(p, fValue)
		case kListSplatPattern, kDictSplatPattern:
			splat = true
			nameNode = x.FirstNamed(p)
		default:
			continue
		}
		if def >= 0 {
			x.walk(def, outer)
		}
		if typ >= 0 {
			x.typeRefs(typ, id, extract.RefTypeHint)
		}
		if x.Code(nameNode) != kIdentifier {
			first = false
			continue
		}
		name := x.Text(nameNode)
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

func (x *extractor) decorator(d int32, c ctx) {
	e := x.decoExpr(d)
	if e < 0 {
		return
	}
	line := x.Line(d)
	switch x.Code(e) {
	case kIdentifier:
		x.bareCall(x.Text(e), c, line)
	case kAttribute:
		switch x.Text(x.Field(e, fAttribute)) {
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

func (x *extractor) class(def, outer int32, decos []int32, c ctx) {
	name := x.Text(x.Field(def, fName))
	if name == "" {
		return
	}
	kind := snapshot.KindClass
	var ext []string
	var rest []int32
	repoBase := false // a base that may be in the repository
	if sup := x.Field(def, fSuperclasses); sup >= 0 {
		for a := x.FirstNamed(sup); a >= 0; a = x.NextNamed(a) {
			base := a
			switch x.Code(base) {
			case kSubscript:
				base = x.Field(base, fValue)
			case kKeywordArg:
				if x.Text(x.Field(a, fName)) == "metaclass" && extract.LastName(x.chain(x.Field(a, fValue))) == "ABCMeta" {
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
			switch extract.LastName(ch) {
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
			if lp := extract.LastName(ch); lp == "ABC" || typingNames[lp] && !x.maybeRepoType(ch) {
				continue // object, Generic, Protocol, TypedDict: no base worth an edge
			}
			ext = append(ext, x.baseName(ch))
		}
	}
	body := x.Field(def, fBody)
	s := extract.Symbol{
		Name: name, Kind: kind, Parent: c.parent, Start: x.Line(outer), End: x.EndLine(def),
		Signature: x.signature(def, decos), Doc: x.blockDoc(body), Flags: x.exported(name, c.parent), Extends: ext,
	}
	if s.Doc == "" {
		s.Doc = x.comments(outer)
	}
	id := x.Add(s)
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
func (x *extractor) maybeRepoType(ch string) bool {
	first, _, dotted := strings.Cut(ch, ".")
	if b := x.bind[first]; b != nil {
		return b.inRepo
	}
	if !dotted && (builtins[first] || typingNames[first]) && !x.defined[first] {
		return false
	}
	return true
}

func (x *extractor) baseName(ch string) string {
	first, rest, ok := strings.Cut(ch, ".")
	if !ok {
		return ch
	}
	b := x.bind[first]
	if b == nil || b.name != "" || !b.inRepo {
		return ch
	}
	mid, name := extract.SplitName(rest)
	q, _, nm, ok := x.viaModule(b, first, mid, name)
	if !ok {
		return ch
	}
	return q + "." + nm
}

func (x *extractor) typeAlias(n int32, c ctx) {
	left, right := x.Field(n, fLeft), x.Field(n, fRight)
	name := ""
	if left >= 0 && x.FirstNamed(left) >= 0 {
		l := x.FirstNamed(left)
		if x.Code(l) == kGenericType && x.FirstNamed(l) >= 0 {
			l = x.FirstNamed(l)
		}
		if x.Code(l) == kIdentifier {
			name = x.Text(l)
		}
	}
	from := c.from
	if name != "" && c.sc == nil {
		from = x.Add(extract.Symbol{Name: name, Kind: snapshot.KindTypeAlias, Parent: c.parent,
			Start: x.Line(n), End: x.EndLine(n), Signature: extract.FirstLine(x.Text(n)),
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

func (x *extractor) assign(n, stmt int32, c ctx) {
	left, right, typ := x.Field(n, fLeft), x.Field(n, fRight), x.Field(n, fType)
	vt := ""
	if typ >= 0 {
		vt = x.typeName(typ)
	}
	if vt == "" && right >= 0 {
		vt = x.valueType(right, c)
	}
	from := c.from
	switch x.Code(left) {
	case kIdentifier:
		name := x.Text(left)
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
		obj := x.Field(left, fObject)
		if c.sc != nil && x.Code(obj) == kIdentifier && c.sc.isSelf(x.Text(obj)) {
			x.instanceField(c.sc.cls, x.Text(x.Field(left, fAttribute)), stmt, vt)
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
func (x *extractor) bindTargets(n, stmt int32, c ctx) {
	for tg := x.FirstNamed(n); tg >= 0; tg = x.NextNamed(tg) {
		switch x.Code(tg) {
		case kIdentifier:
			name := x.Text(tg)
			switch {
			case c.class >= 0:
				x.classAttr(c.class, name, stmt, -1, -1, "")
			case c.sc != nil:
				x.setLocal(c.sc, name, "")
			default:
				x.moduleVar(name, stmt, -1, -1, "")
			}
		case kAttribute:
			obj := x.Field(tg, fObject)
			if c.sc != nil && x.Code(obj) == kIdentifier && c.sc.isSelf(x.Text(obj)) {
				x.instanceField(c.sc.cls, x.Text(x.Field(tg, fAttribute)), stmt, "")
			}
		case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kListSplatPattern, kListSplat:
			x.bindTargets(tg, stmt, c)
		default:
			x.walk(tg, c)
		}
	}
}

// bindNames declares loop and comprehension variables as untyped locals.
func (x *extractor) bindNames(n int32, sc *scope) {
	if n < 0 || sc == nil {
		return
	}
	switch x.Code(n) {
	case kIdentifier:
		sc.vars[x.Text(n)] = ""
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kListSplatPattern, kParenExpr:
		for tg := x.FirstNamed(n); tg >= 0; tg = x.NextNamed(tg) {
			x.bindNames(tg, sc)
		}
	}
}

func (x *extractor) setLocal(sc *scope, name, vt string) {
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
		if startsUpper(extract.LastName(vt[len("call:"):])) {
			return vt[len("call:"):]
		}
	}
	return vt
}

// noteFieldType remembers fields that hold objects from outside the
// repository (dicts, lists, library objects): calls on them are not
// guessed.
func (x *extractor) noteFieldType(cls int32, name, vt string) {
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

func (x *extractor) classAttr(cls int32, name string, stmt, right, typ int32, vt string) int32 {
	x.noteFieldType(cls, name, vt)
	if fs := x.fields[cls]; fs != nil {
		if id, ok := fs[name]; ok {
			if x.R.Symbols[id].Type == "" {
				x.R.Symbols[id].Type = typeOnly(vt)
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
		vt = x.R.Symbols[cls].Name
	}
	return x.newField(cls, name, kind, stmt, vt)
}

func (x *extractor) newField(cls int32, name string, kind snapshot.Kind, stmt int32, vt string) int32 {
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Start: x.Line(stmt), End: x.EndLine(stmt),
		Signature: extract.FirstLine(x.Text(stmt)), Doc: x.attrDoc(stmt), Type: typeOnly(vt), Flags: x.exported(name, cls),
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
func (x *extractor) instanceField(cls int32, name string, stmt int32, vt string) {
	if cls < 0 || name == "" {
		return
	}
	x.noteFieldType(cls, name, vt)
	if id, ok := x.fields[cls][name]; ok {
		s := &x.R.Symbols[id]
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

var typeVarCalls = extract.WordSet(`TypeVar NewType ParamSpec TypeVarTuple TypeAliasType`)

func (x *extractor) moduleVar(name string, stmt, right, typ int32, vt string) int32 {
	if isDunder(name) || name == "_" {
		return -1
	}
	if vt != "" || x.modVars[name] == "" {
		x.modVars[name] = vt
	}
	if id, ok := x.top[name]; ok {
		if s := &x.R.Symbols[id]; !s.Kind.IsCallable() && !s.Kind.IsType() && s.Type == "" {
			s.Type = typeOnly(vt)
		}
		return id
	}
	kind := snapshot.KindVariable
	switch {
	case typ >= 0 && extract.LastName(x.Text(typ)) == "TypeAlias":
		kind = snapshot.KindTypeAlias
	case x.Code(right) == kCall && typeVarCalls[extract.LastName(x.chain(x.Field(right, fFunction)))]:
		kind = snapshot.KindTypeAlias
	case x.Code(right) == kSubscript && startsUpper(name) && typingNames[extract.LastName(x.chain(x.Field(right, fValue)))]:
		kind = snapshot.KindTypeAlias
	case isUpperName(name):
		kind = snapshot.KindConstant
	}
	t := typeOnly(vt)
	if kind == snapshot.KindTypeAlias {
		t = ""
	}
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: -1, Start: x.Line(stmt), End: x.EndLine(stmt),
		Signature: extract.FirstLine(x.Text(stmt)), Doc: x.attrDoc(stmt), Type: t, Flags: x.exported(name, -1),
	})
	x.top[name] = id
	return id
}

// ---- expressions ----

// chain renders a.b.c for identifiers and attribute chains, else "".
func (x *extractor) chain(n int32) string {
	switch x.Code(n) {
	case kIdentifier:
		return x.Text(n)
	case kAttribute:
		left := x.chain(x.Field(n, fObject))
		if left == "" {
			return ""
		}
		return left + "." + x.Text(x.Field(n, fAttribute))
	case kDottedName:
		return stripSpace(x.Text(n))
	}
	return ""
}

func (x *extractor) call(n int32, c ctx) {
	fn := x.Field(n, fFunction)
	line := x.Line(n)
	switch x.Code(fn) {
	case kIdentifier:
		x.bareCall(x.Text(fn), c, line)
	case kAttribute:
		x.attrCall(fn, c, line)
	default:
		x.walk(fn, c)
	}
	if args := x.Field(n, fArguments); args >= 0 {
		if x.Code(args) == kArgList {
			x.args(args, c)
		} else {
			x.walk(args, c)
		}
	}
}

func (x *extractor) bareCall(name string, c ctx, line uint32) {
	if v, ok := c.sc.lookup(name); ok {
		if v == vDef {
			x.ref(c.from, extract.RefCall, name, "", "", line)
		}
		return // a local variable or parameter called
	}
	if c.sc != nil && c.sc.clsParam && c.sc.isSelf(name) {
		x.ref(c.from, extract.RefCall, x.R.Symbols[c.sc.cls].Name, "", "", line) // cls(...)
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

func (x *extractor) attrCall(fn int32, c ctx, line uint32) {
	name := x.Text(x.Field(fn, fAttribute))
	obj := x.Field(fn, fObject)
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
func (x *extractor) receiver(obj int32, name string, c ctx) (qual, qt, nm string, ok bool) {
	switch x.Code(obj) {
	case kIdentifier, kAttribute:
		ch := x.chain(obj)
		if ch == "" {
			// a().b.c(): unknown, unless a() is known to be outside.
			root := obj
			for x.Code(root) == kAttribute {
				root = x.Field(root, fObject)
			}
			if x.Code(root) == kCall {
				if ich := x.chain(x.Field(root, fFunction)); ich != "" && x.callType(ich, c) == vExt {
					return "", "", "", false
				}
			}
			return x.unknown(name)
		}
		return x.qualify(ch, name, c)
	case kCall:
		ich := x.chain(x.Field(obj, fFunction))
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
		return extract.LastName(ich) + "()", ct, name, true
	case kString, kConcatString, kInteger, kFloat, kList, kDictionary, kSet, kListComp, kDictComp,
		kSetComp, kTuple, kGenExpr, kTrue, kFalse, kNone:
		return "", "", "", false
	case kParenExpr:
		if e := x.only(obj); e >= 0 {
			return x.receiver(e, name, c)
		}
	}
	return x.unknown(name)
}

// builtinValues are builtins whose result is a builtin object.
var builtinValues = extract.WordSet(`dict list set str tuple frozenset bytes int float bool bytearray sorted
open repr format len range enumerate zip map filter reversed hex oct bin chr ord abs round sum
memoryview id hash ascii divmod`)

// builtinMethods are methods of str, bytes, list, dict, set and files. On
// an object of unknown type they are almost never the repository's.
var builtinMethods = extract.WordSet(`append extend insert pop remove clear copy update get setdefault items
keys values popitem add discard difference union intersection issubset issuperset split rsplit
strip lstrip rstrip join lower upper casefold capitalize title startswith endswith replace format
format_map encode decode find rfind index rindex count sort reverse partition rpartition
splitlines isdigit isalpha isalnum isspace isupper islower isidentifier zfill ljust rjust center
expandtabs translate maketrans removeprefix removesuffix read readline readlines write writelines
close flush seek tell fileno truncate hex fromkeys`)

// unknown is the receiver of a call on an object of unknown type: left to
// the resolver (which may find a unique method of that name), except for
// the methods of builtin types.
func (x *extractor) unknown(name string) (qual, qt, nm string, ok bool) {
	if builtinMethods[name] {
		return "", "", "", false
	}
	return "?", "", name, true
}

// qualify turns a receiver chain into the resolver's qualifier and type:
// aliases are expanded (app = self.app), typed locals give their type,
// module aliases follow package re-exports.
func (x *extractor) qualify(ch, name string, c ctx) (qual, qt, nm string, ok bool) {
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

func (x *extractor) typedField(cls int32, name string) bool {
	id, ok := x.fields[cls][name]
	return ok && x.R.Symbols[id].Type != ""
}

// viaModule qualifies name in module alias first (+ rest); when the module
// is a package that re-exports the name, the qualifier names the defining
// module instead (flask.Flask → flask.app.Flask).
func (x *extractor) viaModule(b *binding, first, rest, name string) (qual, qt, nm string, ok bool) {
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
func (x *extractor) callType(ich string, c ctx) string {
	qualChain, name := extract.SplitName(ich)
	if qualChain == "" {
		if v, ok := c.sc.lookup(name); ok {
			if v == vDef {
				return "call:" + name
			}
			return ""
		}
		if c.sc != nil && c.sc.clsParam && c.sc.isSelf(name) {
			return "call:" + x.R.Symbols[c.sc.cls].Name
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
func (x *extractor) valueType(n int32, c ctx) string {
	switch x.Code(n) {
	case kCall:
		ich := x.chain(x.Field(n, fFunction))
		if ich == "" {
			return ""
		}
		return x.callType(ich, c)
	case kIdentifier:
		name := x.Text(n)
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
		if e := x.only(n); e >= 0 {
			return x.valueType(e, c)
		}
	}
	return ""
}

func (x *extractor) args(al int32, c ctx) {
	for a := x.FirstNamed(al); a >= 0; a = x.NextNamed(a) {
		switch x.Code(a) {
		case kIdentifier:
			x.fnArg(a, c)
		case kAttribute:
			x.fnArg(a, c)
			x.walk(a, c)
		case kKeywordArg:
			if v := x.Field(a, fValue); v >= 0 {
				if k := x.Code(v); k == kIdentifier || k == kAttribute {
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
func (x *extractor) fnArg(n int32, c ctx) {
	line := x.Line(n)
	switch x.Code(n) {
	case kIdentifier:
		name := x.Text(n)
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
		qualChain, name := extract.SplitName(ch)
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

func (x *extractor) lambda(n int32, c ctx) {
	sc := newScope(c.sc)
	if ps := x.Field(n, fParameters); ps >= 0 {
		for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
			switch x.Code(p) {
			case kIdentifier:
				sc.vars[x.Text(p)] = ""
			case kDefaultParam, kTypedDefaultParam:
				if nm := x.Field(p, fName); nm >= 0 {
					sc.vars[x.Text(nm)] = ""
				}
				x.walk(x.Field(p, fValue), c)
			case kListSplatPattern, kDictSplatPattern, kTypedParam:
				x.bindNames(p, sc)
				x.bindNames(x.FirstNamed(p), sc)
			}
		}
	}
	if b := x.Field(n, fBody); b >= 0 {
		lc := c
		lc.sc = sc
		x.walk(b, lc)
	}
}

func (x *extractor) comprehension(n int32, c ctx) {
	sc := newScope(c.sc)
	for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
		if x.Code(k) == kForIn {
			x.bindNames(x.Field(k, fLeft), sc)
		}
	}
	cc := c
	cc.sc = sc
	for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
		x.walk(k, cc)
	}
}

// asPattern splits `expr as target` into its expression (the first named
// child outside the alias field) and its target (the alias), -1 when
// missing.
func (x *extractor) asPattern(n int32) (expr, target int32) {
	expr, target = -1, -1
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		if x.N[ch].Field == fAlias {
			target = ch
		} else if expr < 0 {
			expr = ch
		}
	}
	return expr, target
}

// asTarget is the name an `as` binds: the identifier inside an
// as_pattern_target of one child, else the target itself.
func (x *extractor) asTarget(target int32) int32 {
	if x.Code(target) == kAsPatternTarget {
		if e := x.only(target); e >= 0 {
			return e
		}
	}
	return target
}

func (x *extractor) withItem(n int32, c ctx) {
	v := x.Field(n, fValue)
	if v < 0 {
		return
	}
	if x.Code(v) != kAsPattern {
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
		if x.Code(target) == kIdentifier {
			x.setLocal(c.sc, x.Text(target), x.valueType(expr, c))
		} else {
			x.bindNames(target, c.sc)
		}
	}
}

func (x *extractor) except(n int32, c ctx) {
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		switch x.Code(ch) {
		case kBlock:
			x.walk(ch, c)
		case kAsPattern:
			expr, target := x.asPattern(ch)
			if expr >= 0 {
				x.excTypes(expr, c)
			}
			if target >= 0 && c.sc != nil {
				target = x.asTarget(target)
				if x.Code(target) == kIdentifier {
					typ := ""
					if chn := x.chain(expr); chn != "" {
						typ = x.typeChain(chn)
					}
					x.setLocal(c.sc, x.Text(target), typ)
				}
			}
		case kComment:
		default:
			x.excTypes(ch, c)
		}
	}
}

func (x *extractor) excTypes(n int32, c ctx) {
	switch x.Code(n) {
	case kIdentifier, kAttribute:
		if ch := x.chain(n); ch != "" {
			x.typeRef(ch, c.from, extract.RefType, x.Line(n))
			return
		}
		x.walk(n, c)
	case kTuple, kParenExpr:
		for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
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
func (x *extractor) typeName(n int32) string {
	for depth := 0; n >= 0 && depth < 8; depth++ {
		switch x.Code(n) {
		case kType, kParenExpr:
			n = x.FirstNamed(n)
			continue
		case kIdentifier, kAttribute:
			ch := x.chain(n)
			if ch == "" {
				return ""
			}
			return x.typeChain(ch)
		case kMemberType:
			return x.typeChain(stripSpace(x.Text(n)))
		case kString:
			return x.stringType(x.Text(n))
		case kSubscript:
			v := x.chain(x.Field(n, fValue))
			lp := extract.LastName(v)
			if wrapperTypes[lp] {
				n = x.firstTypeArg(n, fSubscript)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kGenericType:
			first := x.FirstNamed(n)
			if first < 0 {
				return ""
			}
			v := x.chain(first)
			lp := extract.LastName(v)
			if second := x.NextNamed(first); wrapperTypes[lp] && second >= 0 {
				n = x.firstTypeArg(second, 0)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kBinaryOp, kUnionType:
			next := int32(-1)
			for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
				if k := x.Code(ch); k != kNone && !(k == kType && x.Code(x.only(ch)) == kNone) {
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
func (x *extractor) firstTypeArg(n int32, field uint16) int32 {
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		if field != 0 && x.N[ch].Field != field {
			continue
		}
		switch x.Code(ch) {
		case kNone, kComment:
			continue
		}
		return ch
	}
	return -1
}

func (x *extractor) stringType(lit string) string {
	s := strings.Trim(lit, `"'`)
	for _, nm := range dottedNames(s) {
		lp := extract.LastName(nm)
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
func (x *extractor) typeChain(ch string) string {
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
			return opaqueType(extract.LastName(rest))
		}
		if !dotted && typingModules[b.key] {
			return opaqueType(b.name)
		}
		return vExt
	}
	if b.name == "" && dotted {
		mid, name := extract.SplitName(rest)
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
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kIdentifier, kAttribute:
		if ch := x.chain(n); ch != "" {
			x.typeRef(ch, from, kind, x.Line(n))
		}
		return
	case kString:
		line := x.Line(n)
		for _, nm := range dottedNames(strings.Trim(x.Text(n), `"'`)) {
			x.typeRef(nm, from, kind, line)
		}
		return
	case kSubscript:
		v := x.Field(n, fValue)
		x.typeRefs(v, from, kind)
		if extract.LastName(x.chain(v)) == "Literal" {
			return
		}
		for ch := x.FirstChild(n); ch >= 0; ch = x.N[ch].Next {
			if x.N[ch].Field == fSubscript {
				x.typeRefs(ch, from, kind)
			}
		}
		return
	case kGenericType:
		if first := x.FirstNamed(n); first >= 0 && extract.LastName(x.chain(first)) == "Literal" {
			return
		}
	case kCall, kLambda, kInteger, kFloat, kNone, kComment, kEllipsis:
		return
	}
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		x.typeRefs(ch, from, kind)
	}
}

func (x *extractor) typeRef(ch string, from int32, kind extract.RefKind, line uint32) {
	t := x.typeChain(ch)
	if t == "" || t == vExt || t == "Self" {
		return
	}
	qual, name := extract.SplitName(t)
	if name == "" || name == "None" {
		return
	}
	x.ref(from, kind, name, qual, "", line)
}

// ---- imports ----

func (x *extractor) emit(im extract.Import) {
	if im.Path == "" || x.seenImp[im] {
		return
	}
	x.seenImp[im] = true
	x.R.Imports = append(x.R.Imports, im)
}

func (x *extractor) absolute(dotted string) modLoc {
	if x.c == nil {
		return modLoc{key: dotted, inRepo: true}
	}
	return x.c.absolute(x.dir, dotted)
}

func (x *extractor) addImport(ri rawImport) {
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
		base = modLoc{key: extract.JoinName(k, ri.module), fs: d, inRepo: true}
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
func (x *extractor) fromName(base modLoc, name, alias string) {
	local := alias
	if local == "" {
		local = name
	}
	if base.inRepo && x.c != nil {
		sub := joinRel(base.fs, name)
		if base.fs != "" && x.c.isModule(sub) {
			key := extract.JoinName(base.key, name)
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
