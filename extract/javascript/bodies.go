package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// walk records calls, type uses and typed locals inside code, attributing
// them to symbol from (-1: the file). Nodes it has no case for are walked
// through: their children are.
func (x *extractor) walk(n int32, from int32) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kCall:
		x.call(n, from)
	case kNew:
		x.newExpr(n, from)
	case kArrow, kFunctionExpr:
		if nm := x.Field(n, x.g.fName); nm >= 0 {
			// A named function expression sees its own name.
			x.push()
			x.bind(x.Text(nm), binding{})
			x.fnBody(n, from, extract.RefType)
			x.pop()
		} else {
			x.fnBody(n, from, extract.RefType)
		}
	case kFunctionDecl, kFunctionSig:
		if x.Code(n) == kFunctionDecl && x.inCallable(from) {
			// A named helper inside a function (a factory's closures,
			// as in a renderer built by one big function) is a symbol
			// of its own, found by name and called by its siblings.
			x.function(n, n, from, 0, "")
		} else {
			x.bind(x.Text(x.Field(n, x.g.fName)), binding{})
			x.fnBody(n, from, extract.RefType)
		}
	case kMethodDef:
		x.fnBody(n, from, extract.RefType)
	case kClassDecl:
		x.class(n, n, from, 0, "")
	case kClassExpr:
		saved := x.cls
		x.cls = nil
		x.walkKids(n, from)
		x.cls = saved
	case kLexicalDecl:
		x.localVars(n, from)
	case kAssign:
		x.assign(n, from)
	case kTypeAnnotation, kTypeArguments:
		x.typeRefs(n, from, extract.RefType)
	case kAs:
		// The value, then its types.
		if k := x.FirstNamed(n); k >= 0 {
			x.walk(k, from)
			for k = x.NextNamed(k); k >= 0; k = x.NextNamed(k) {
				x.typeRefs(k, from, extract.RefType)
			}
		}
	case kJSXOpen:
		x.jsx(n, from)
	case kForIn:
		left := x.Field(n, x.g.fLeft)
		if x.Code(left) == kIdentifier {
			x.bind(x.Text(left), binding{})
		} else {
			x.bindPattern(left)
		}
		x.walkKids(n, from)
	case kCatch:
		for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
			if x.Code(k) == kIdentifier || x.Code(k) == kObjectPattern || x.Code(k) == kArrayPattern {
				x.bindPattern(k)
			}
		}
		x.walkKids(n, from)
	case kReturn:
		// An untyped function returning new Foo() (or a Foo) returns a Foo.
		if x.retSym >= 0 && x.R.Symbols[x.retSym].Type == "" {
			if v := x.firstKid(n); v >= 0 {
				if t := symType(x.inferType(v)); t != "" {
					x.R.Symbols[x.retSym].Type = t
				}
			}
		}
		x.walkKids(n, from)
	case kInterface, kTypeAlias, kEnum:
		// Local types: their member types count as uses.
		x.typeRefs(n, from, extract.RefType)
	case kImport:
		x.importStmt(n)
	case kPair:
		// A function named in an object literal (a route table, a handler
		// map) is called through it.
		if v := x.Field(n, x.g.fValue); x.Code(v) == kIdentifier || x.Code(v) == kMember {
			x.walk(x.Field(n, x.g.fKey), from)
			x.callback(v, from)
		} else {
			x.walkKids(n, from)
		}
	case kShorthandProp:
		x.callback(n, from)
	case kIdentifier, kPropertyIdentifier, kString, kNumber, kComment, kThis, kSuper:
		// Leaves: calls and types are found above them.
	default:
		x.walkKids(n, from)
	}
}

// walkKids walks the named children of n.
func (x *extractor) walkKids(n int32, from int32) {
	for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
		x.walk(k, from)
	}
}

// assign learns types from `x = new Foo()`, records `this.x = …` as fields
// of the enclosing class, and walks both sides.
func (x *extractor) assign(n int32, from int32) {
	if x.memberFunction(n, from) {
		return
	}
	left, right := x.Field(n, x.g.fLeft), x.Field(n, x.g.fRight)
	switch x.Code(left) {
	case kIdentifier:
		if t := x.inferType(right); t != "" {
			x.setType(x.Text(left), t)
		}
	case kMember:
		if obj := x.Field(left, x.g.fObject); x.Code(obj) == kThis && x.cls != nil {
			if p := x.Field(left, x.g.fProperty); p >= 0 {
				x.addPending(x.Text(p), symType(x.inferType(right)), n)
			}
		}
		x.walk(x.Field(left, x.g.fObject), from)
	default:
		x.walk(left, from)
	}
	x.walk(right, from)
}

func (x *extractor) hasPending(name string) bool {
	_, ok := x.cls.pendingAt[name]
	return ok
}

func (x *extractor) addPending(name, typ string, n int32) {
	if i, ok := x.cls.pendingAt[name]; ok {
		if x.cls.pending[i].typ == "" {
			x.cls.pending[i].typ = typ
		}
		return
	}
	if x.cls.pendingAt == nil {
		x.cls.pendingAt = map[string]int{}
	}
	x.cls.pendingAt[name] = len(x.cls.pending)
	x.cls.pending = append(x.cls.pending, pendingField{name: name, typ: typ, line: x.Line(n), sig: extract.FirstLine(x.Text(n))})
}

// inferType is the type of a value when it can be told: "Foo" for
// `new Foo()`, "call:f" / "call:T.m" for call results, a local's type.
func (x *extractor) inferType(v int32) string {
	if v < 0 {
		return ""
	}
	switch x.Code(v) {
	case kParen, kAwait, kNonNull:
		return x.inferType(x.firstKid(v))
	case kAs:
		if k0 := x.FirstNamed(v); k0 >= 0 {
			if last := x.LastNamed(v); last != k0 {
				if t := x.typeName(last); t != "" {
					return t
				}
			}
			return x.inferType(k0)
		}
	case kTypeAssertion:
		if k0 := x.FirstNamed(v); k0 >= 0 {
			if t := x.typeName(x.firstKid(k0)); t != "" {
				return t
			}
		}
	case kNew:
		c := x.chain(x.callee(x.Field(v, x.g.fConstructor)))
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
		if b, ok := x.lookup(x.Text(v)); ok && b.kind == bLocal {
			return b.typ
		}
	}
	return ""
}

// callHint names the result of a call for the resolver: "call:f",
// "call:Type.m", "call:this.m", "call:ns.f".
func (x *extractor) callHint(call int32) string {
	fn := x.callee(x.Field(call, x.g.fFunction))
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
func (x *extractor) call(n int32, from int32) {
	fn := x.callee(x.Field(n, x.g.fFunction))
	args := x.Field(n, x.g.fArguments)
	if x.test && x.testBlock(n, fn, args, from) {
		return
	}
	switch x.Code(fn) {
	case kImportKw:
		x.dynamicImport(args, "")
		return
	case kIdentifier:
		name := x.Text(fn)
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
		if x.Text(x.Field(fn, x.g.fProperty)) == "inherits" && x.inherits(args) {
			return
		}
		x.memberCall(fn, from, n)
		x.walk(x.Field(fn, x.g.fObject), from)
	case kSuper:
		x.ref(from, extract.RefCall, "constructor", "super", "", n)
	default:
		x.walk(fn, from)
	}
	if ta := x.Field(n, x.g.fTypeArguments); ta >= 0 {
		x.typeRefs(ta, from, extract.RefType)
	}
	x.args(args, from)
}

// callName records a call of a bare name, unless the name is a local
// variable, an external import or a global of the platform.
func (x *extractor) callName(name string, from int32, n int32) {
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
func (x *extractor) memberCall(fn int32, from int32, n int32) {
	p := x.Field(fn, x.g.fProperty)
	if p < 0 {
		return
	}
	name := x.Text(p)
	obj := x.callee(x.Field(fn, x.g.fObject))
	if name == "call" || name == "apply" || name == "bind" {
		// f.call(this, …) calls f.
		switch x.Code(obj) {
		case kIdentifier:
			x.callName(x.Text(obj), from, n)
			return
		case kMember:
			if c := x.chain(obj); c != "" {
				inner := x.Field(obj, x.g.fObject)
				if x.Code(inner) == kMember && x.Text(x.Field(inner, x.g.fProperty)) == "prototype" {
					// Base.prototype.m.call(this): a call of Base's m.
					q := x.chain(x.Field(inner, x.g.fObject))
					if q != "" {
						x.ref(from, extract.RefCall, x.Text(x.Field(obj, x.g.fProperty)), q, "", n)
					}
					return
				}
				x.memberCall(obj, from, n)
				return
			}
		}
	}
	qual, qt, ok := x.qualifier(obj)
	if !ok || isReactInstance(qual) {
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
		x.cls.thisRefs = append(x.cls.thisRefs, len(x.R.Refs))
	}
	x.ref(from, extract.RefCall, name, qual, qt, n)
}

// reactInstance are the React component's own objects: callbacks passed
// in props, state and context are not resolvable by name.
func isReactInstance(qual string) bool {
	for _, p := range []string{"this.props", "this.state", "this.context", "this.refs"} {
		if qual == p || strings.HasPrefix(qual, p) && qual[len(p)] == '.' {
			return true
		}
	}
	return false
}

// qualifier renders the object of a method call as Qual and, when known,
// the type of its first element. ok is false when the call should not be
// recorded (a platform global, an external package, an unknown value).
func (x *extractor) qualifier(obj int32) (qual, qt string, ok bool) {
	obj = x.callee(obj)
	switch x.Code(obj) {
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
		if k := x.unwrap(obj); k != obj && k >= 0 {
			return x.qualifier(k)
		}
	}
	return "?", "", true
}

// args walks call arguments; functions passed by name count as calls.
func (x *extractor) args(args int32, from int32) {
	for a := x.FirstNamed(args); a >= 0; a = x.NextNamed(a) {
		switch x.Code(a) {
		case kIdentifier, kMember:
			x.callback(a, from)
		default:
			x.walk(a, from)
		}
	}
}

// callback records a function passed by name (app.use(handler),
// onClick={this.handle}) as a call, when the name is a function.
func (x *extractor) callback(n int32, from int32) {
	switch x.Code(n) {
	case kIdentifier:
		name := x.Text(n)
		b, ok := x.lookup(name)
		switch {
		case !ok:
			if !builtinGlobals[name] {
				x.deferred = append(x.deferred, extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
			}
		case b.kind == bSymbol || b.kind == bImport:
			x.ref(from, extract.RefCall, name, "", "", n)
		}
	case kMember:
		obj := x.Field(n, x.g.fObject)
		p := x.Field(n, x.g.fProperty)
		if p < 0 {
			return
		}
		switch x.Code(obj) {
		case kThis:
			if x.cls == nil {
				return // not in a class: this is anything
			}
			x.cls.cbRefs = append(x.cls.cbRefs, len(x.R.Refs))
			x.ref(from, extract.RefCall, x.Text(p), "this", "", n)
		case kIdentifier:
			// A function of a module imported whole (handlers.list); a
			// class's static (Queryable.ALL) is more often a value.
			if b, ok := x.lookup(x.Text(obj)); ok && b.kind == bModule {
				x.ref(from, extract.RefCall, x.Text(p), x.Text(obj), "", n)
			}
		default:
			x.walk(obj, from)
		}
	}
}

func (x *extractor) newExpr(n int32, from int32) {
	c := x.callee(x.Field(n, x.g.fConstructor))
	switch x.Code(c) {
	case kIdentifier:
		x.callName(x.Text(c), from, n)
	case kMember:
		x.memberCall(c, from, n)
	default:
		x.walk(c, from)
	}
	if ta := x.Field(n, x.g.fTypeArguments); ta >= 0 {
		x.typeRefs(ta, from, extract.RefType)
	}
	x.args(x.Field(n, x.g.fArguments), from)
}

// jsx records a component use <Button …/> as a call of Button, and
// handlers passed by name as calls.
func (x *extractor) jsx(n int32, from int32) {
	nm := x.Field(n, x.g.fName)
	switch x.Code(nm) {
	case kIdentifier:
		if name := x.Text(nm); startsUpper(name) {
			x.callName(name, from, n)
		}
	case kMember:
		x.memberCall(nm, from, n)
	}
	for a := x.FirstNamed(n); a >= 0; a = x.NextNamed(a) {
		switch x.Code(a) {
		case kJSXAttribute:
			for v := x.FirstNamed(a); v >= 0; v = x.NextNamed(v) {
				if x.Code(v) == kJSXExpression {
					if e := x.firstKid(v); e >= 0 && (x.Code(e) == kIdentifier || x.Code(e) == kMember) {
						x.callback(e, from)
						continue
					}
				}
				x.walk(v, from)
			}
		case kTypeArguments:
			x.typeRefs(a, from, extract.RefType)
		case kJSXExpression:
			x.walk(a, from)
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
func (x *extractor) testBlock(n, fn, args int32, from int32) bool {
	root := fn
	for root >= 0 {
		switch x.Code(root) {
		case kCall:
			root = x.callee(x.Field(root, x.g.fFunction))
			continue
		case kMember:
			root = x.callee(x.Field(root, x.g.fObject))
			continue
		}
		break
	}
	if x.Code(root) != kIdentifier || !testFuncs[x.Text(root)] {
		return false
	}
	if b, ok := x.lookup(x.Text(root)); ok && (b.kind == bLocal || b.kind == bSymbol) {
		return false
	}
	// The test function is the last function argument after the first.
	first := x.FirstNamed(args)
	body := int32(-1)
	if first >= 0 {
		for a := x.NextNamed(first); a >= 0; a = x.NextNamed(a) {
			if k := x.Code(a); k == kArrow || k == kFunctionExpr {
				body = a
			}
		}
	}
	if body < 0 {
		x.args(args, from)
		return true
	}
	desc := x.Text(first)
	switch x.Code(first) {
	case kString, kTemplateString:
		desc = unquote(desc)
	}
	name := slug(desc)
	if _, clash := x.lookup(name); clash {
		// describe("UserStore") must not hide the UserStore it tests.
		name = x.Text(root) + "_" + name
	}
	id := x.Add(extract.Symbol{
		Name: name, Kind: snapshot.KindFunction, Parent: from, Flags: snapshot.FlagTest,
		Start: x.Line(n), End: x.EndLine(n),
		Signature: x.Signature(n, x.Field(body, x.g.fBody)),
	})
	if x.Code(fn) == kCall {
		x.walk(fn, from) // it.each(table)
	}
	for a := x.NextNamed(first); a >= 0; a = x.NextNamed(a) {
		if a != body {
			x.walk(a, id)
		}
	}
	x.fnBody(body, id, extract.RefType)
	return true
}

// inherits handles util.inherits(Child, Parent) of pre-class code; it
// reports whether Child is a class of this file.
func (x *extractor) inherits(args int32) bool {
	child := x.FirstNamed(args)
	if child < 0 || x.Code(child) != kIdentifier {
		return false
	}
	parent := x.NextNamed(child)
	if parent < 0 || x.NextNamed(parent) >= 0 {
		return false // not two arguments
	}
	base := x.chain(parent)
	if base == "" || x.owner(x.Text(child)) < 0 {
		return false
	}
	x.addBase(x.Text(child), base)
	return true
}
