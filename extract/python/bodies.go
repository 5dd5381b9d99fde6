package python

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// The walk over statements and expressions: the calls it records, with
// their arguments, and the scopes of lambdas, comprehensions, with and
// except clauses.

// ctx is where the walk is.
type ctx struct {
	from   int32 // refs go out of this symbol (-1: the file)
	parent int32 // new symbols nest in this one
	class  int32 // directly in this class's body, or -1
	sc     *scope
}

// walk visits a statement or expression (none for -1).
func (x *extractor) walk(n int32, c ctx) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kFuncDef:
		x.function(n, n, nil, c)
	case kClassDef:
		x.class(n, n, nil, c)
	case kDecorated:
		x.decorated(n, c)
	case kImport, kImportFrom:
		for _, ri := range readImport(&x.Base, n) {
			x.addImport(ri)
		}
	case kFutureImport, kIdentifier, kComment, kGlobal, kNonlocal, kNone, kInteger, kFloat,
		kTrue, kFalse, kEllipsis, kStringContent, kPass, kKeywordIdentifier:
		// nothing to record
	case kExprStmt:
		for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
			if x.Code(ch) == kAssignment {
				x.assign(ch, n, c)
			} else {
				x.walk(ch, c)
			}
		}
	case kAssignment:
		x.assign(n, n, c)
	case kNamedExpr:
		x.namedExpr(n, c)
	case kCall:
		x.call(n, c)
	case kLambda:
		x.lambda(n, c)
	case kListComp, kSetComp, kDictComp, kGenExpr:
		x.comprehension(n, c)
	case kWithItem:
		x.withItem(n, c)
	case kExcept:
		x.except(n, c)
	case kType:
		x.typeRefs(n, c.from, extract.RefType)
	case kTypeAlias:
		x.typeAlias(n, c)
	case kFor:
		if c.sc != nil {
			x.bindNames(x.Field(n, fLeft), c.sc)
		}
		x.walkKids(n, c)
	case kReturn:
		x.returned(n, c)
		x.walkKids(n, c)
	case kYield:
		if x.test {
			x.returned(n, c) // a pytest fixture's value
		}
		x.walkKids(n, c)
	default:
		x.walkKids(n, c)
	}
}

// walkKids walks the named children of n.
func (x *extractor) walkKids(n int32, c ctx) {
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		x.walk(ch, c)
	}
}

// call records the call n and walks its arguments.
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

// bareCall records a call of a bare name: a local function, a name imported
// from the repository, or a name for the resolver to find (a builtin only
// when the file defines it).
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

// attrCall records a method call, obj.name(...), qualified by what is known
// of obj.
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

// args walks the arguments of a call, recording functions and classes
// passed by name.
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

// lambda walks a lambda: its defaults, then its body in a scope of its
// parameters.
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

// comprehension walks a comprehension in a scope of its loop variables.
func (x *extractor) comprehension(n int32, c ctx) {
	sc := newScope(c.sc)
	for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
		if x.Code(k) == kForIn {
			x.bindNames(x.Field(k, fLeft), sc)
		}
	}
	cc := c
	cc.sc = sc
	x.walkKids(n, cc)
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

// withItem walks `expr as target` of a with statement, typing target by the
// value of expr.
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

// except records the exception types an except clause names, binds its `as`
// name to the type, and walks its block.
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

// excTypes records the exception types named in n: a name, or a tuple of
// them.
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
