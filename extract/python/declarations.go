package python

import (
	"bytes"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Functions, methods, decorators, type aliases and module variables: their
// symbols, signatures and docs.

// decorated declares the function or class of a decorated definition,
// with its decorators.
func (x *extractor) decorated(n int32, c ctx) {
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
}

// decoInfo is what a function's decorators tell of it.
type decoInfo struct {
	static, classm, prop, overload, accessor bool
}

// decoFlags reads what the decorators of function name make of it.
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

// decoExpr is the expression of decorator d, or -1.
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

// function declares a def (decorated from outer) as a function, method or
// constructor and walks its decorators, parameters and body, the body in a
// scope of its own. A property's setter or deleter extends the property; an
// @overload stub declares nothing.
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
		s := x.defSymbol(def, outer, decos, name, kind, c)
		if ret >= 0 {
			s.Type = typeOnly(x.typeName(ret))
		}
		id = x.Add(s)
		if ret >= 0 {
			x.annotated[id] = true
		}
		x.define(name, id, c, true)
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

// defSymbol is the symbol of a def or class statement def, decorated
// from outer: its docstring, or else the comments above it, documents it.
func (x *extractor) defSymbol(def, outer int32, decos []int32, name string, kind snapshot.Kind, c ctx) extract.Symbol {
	s := extract.Symbol{
		Name: name, Kind: kind, Parent: c.parent, Start: x.Line(outer), End: x.EndLine(def),
		Signature: x.signature(def, decos), Doc: x.blockDoc(x.Field(def, fBody)), Flags: x.exported(name, c.parent),
	}
	if s.Doc == "" {
		s.Doc = x.comments(outer)
	}
	return s
}

// define records the function or class name, symbol id, declared where c
// is: a name the file defines, and a method of the enclosing class (when
// method), a local of the enclosing function, or a module-level name (the
// first of that name).
func (x *extractor) define(name string, id int32, c ctx, method bool) {
	x.defined[name] = true
	switch {
	case c.class >= 0:
		if !method {
			return
		}
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

// params declares the parameters of list pl of function id in sc, typed by
// their annotations. With hasSelf the first is the instance (or, with
// classm, the class); in a test file a parameter with neither annotation
// nor default is a pytest fixture.
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

// decorator records the call decorator d makes.
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

// typeAlias declares the alias of a `type X = ...` statement and records
// the types it names.
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

var typeVarCalls = extract.WordSet(`TypeVar NewType ParamSpec TypeVarTuple TypeAliasType`)

// moduleVar declares module-level name, assigned by stmt, as a variable,
// constant or type alias, or types the one declared before; -1 for
// __dunder__ names and _.
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
