package python

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// What names hold: local scopes and assignments, and the receiver a call
// is made on, qualified for the resolver with its type when known.

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

// newScope is a function's scope, nested in up and seeing its instance.
func newScope(up *scope) *scope {
	s := &scope{up: up, vars: map[string]string{}, cls: -1}
	if up != nil {
		s.cls, s.self, s.clsParam = up.cls, up.self, up.clsParam
	}
	return s
}

// lookup finds a local name in s or the scopes around it.
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

// assign reads assignment n of statement stmt: it declares or types what it
// assigns (a class attribute, a self field, a local, a module variable) and
// walks the value.
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

// namedExpr reads `name := value`: value, then the local it sets.
func (x *extractor) namedExpr(n int32, c ctx) {
	v := x.Field(n, fValue)
	if v >= 0 {
		x.walk(v, c)
	}
	if c.sc != nil {
		if nm := x.Field(n, fName); nm >= 0 {
			x.setLocal(c.sc, x.Text(nm), x.valueType(v, c))
		}
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

// setLocal gives local name the value type vt; an unknown type does not
// replace a known one, nor is a value written in terms of the name itself
// kept.
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
