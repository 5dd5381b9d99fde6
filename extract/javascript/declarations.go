package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// statements handles the statements of a module body (the program, a
// namespace body, the body of a top-level IIFE): declarations there are
// symbols with the given parent.
func (x *extractor) statements(n int32, parent int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if k := x.Code(c); k == kFunctionSig || k == kExport && x.Code(x.Field(c, x.g.fDeclaration)) == kFunctionSig {
			// An overload signature followed by its implementation.
			if nx := x.NextNamed(c); nx >= 0 && x.declName(c) != "" && x.declName(c) == x.declName(nx) {
				continue
			}
		}
		x.statement(c, parent)
	}
}

// declName is the name a (possibly exported) function declaration declares.
func (x *extractor) declName(n int32) string {
	if x.Code(n) == kExport {
		n = x.Field(n, x.g.fDeclaration)
	}
	switch x.Code(n) {
	case kFunctionSig, kFunctionDecl:
		return x.Text(x.Field(n, x.g.fName))
	}
	return ""
}

func (x *extractor) statement(c int32, parent int32) {
	switch x.Code(c) {
	case kExport:
		x.export(c, parent)
	case kImport:
		x.importStmt(c)
	case kExpressionStatement:
		inner := x.firstKid(c)
		if inner < 0 {
			return
		}
		switch x.Code(inner) {
		case kNamespace:
			x.namespace(inner, c, parent, 0)
		case kAssign:
			if parent < 0 {
				x.topAssign(inner, c)
			} else {
				x.walk(inner, parent)
			}
		case kCall:
			if parent < 0 && x.assignPrototype(inner) {
				return
			}
			if body := x.iife(inner); body >= 0 {
				for a := x.FirstNamed(x.Field(inner, x.g.fArguments)); a >= 0; a = x.NextNamed(a) {
					// UMD: (function (root, factory) {…})(this, function () {…}):
					// the factory's body is the module.
					if k := x.Code(a); (k == kFunctionExpr || k == kArrow) && x.Code(x.Field(a, x.g.fBody)) == kStatementBlock {
						x.params(a, parent, extract.RefType, nil)
						x.statements(x.Field(a, x.g.fBody), parent)
						continue
					}
					x.walk(a, parent)
				}
				fn := x.callee(x.Field(inner, x.g.fFunction))
				x.params(fn, parent, extract.RefType, nil)
				x.statements(body, parent)
				return
			}
			x.walk(inner, parent)
		default:
			x.walk(inner, parent)
		}
	case kAmbient:
		for k := x.FirstNamed(c); k >= 0; k = x.NextNamed(k) {
			switch x.Code(k) {
			case kStatementBlock, kComment:
				// declare global { … }: typings, not declarations here.
			case kNamespace:
				if x.Code(x.Field(k, x.g.fName)) != kString {
					x.namespace(k, c, parent, 0)
				}
			default:
				x.declaration(k, c, parent, 0, "")
			}
		}
	case kStatementBlock:
		x.statements(c, parent)
	case kComment:
	default:
		switch {
		case x.Kind(c) == "ERROR":
			// A region the parser could not make sense of: declarations
			// in it are still declarations.
			x.statements(c, parent)
		case !x.declaration(c, c, parent, 0, ""):
			x.walk(c, parent)
		}
	}
}

// iife returns the body of an immediately invoked function expression.
func (x *extractor) iife(call int32) int32 {
	fn := x.callee(x.Field(call, x.g.fFunction))
	if k := x.Code(fn); k == kFunctionExpr || k == kArrow {
		if b := x.Field(fn, x.g.fBody); x.Code(b) == kStatementBlock {
			return b
		}
	}
	return -1
}

// declaration handles a declaration statement with its outer node (the
// export statement around it, for lines, doc and signature).
func (x *extractor) declaration(d, outer int32, parent int32, flags snapshot.Flags, name string) bool {
	switch x.Code(d) {
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
		if x.Code(x.Field(d, x.g.fName)) != kString {
			x.namespace(d, outer, parent, flags)
		}
	case kAmbient:
		for k := x.FirstNamed(d); k >= 0; k = x.NextNamed(k) {
			x.declaration(k, outer, parent, flags, "")
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
func (x *extractor) function(n, outer int32, parent int32, flags snapshot.Flags, name string) int32 {
	if own := x.Text(x.Field(n, x.g.fName)); own != "" && (name == "" || x.Code(n) == kFunctionDecl || x.Code(n) == kFunctionSig) {
		name = own
	}
	if name == "" {
		x.fnBody(n, parent, extract.RefType)
		return -1
	}
	body := x.Field(n, x.g.fBody)
	kind := snapshot.KindFunction
	if parent >= 0 {
		if pk := x.R.Symbols[parent].Kind; pk == snapshot.KindClass || pk == snapshot.KindInterface {
			kind = snapshot.KindMethod
		}
	}
	doc := x.doc(outer)
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: parent, Flags: flags,
		Start: x.Line(outer), End: x.EndLine(outer),
		Signature: x.Signature(outer, body), Doc: doc,
		Type: x.typeName(x.Field(n, x.g.fReturnType)),
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
func (x *extractor) fnBody(n int32, from int32, hint extract.RefKind) {
	savedRet := x.retSym
	x.retSym = -1
	if hint == extract.RefTypeHint {
		x.retSym = from
	}
	defer func() { x.retSym = savedRet }()
	x.push()
	tp := x.pushTypeParams(n)
	x.params(n, from, hint, nil)
	if rt := x.Field(n, x.g.fReturnType); rt >= 0 {
		x.typeRefs(rt, from, hint)
	}
	if b := x.Field(n, x.g.fBody); b >= 0 {
		x.walk(b, from)
	}
	x.typeParams = x.typeParams[:tp]
	x.pop()
}

// params binds the parameters of a function-like node in the current scope
// and records their types. props, when not nil, receives TypeScript
// parameter properties (constructor(private db: Db)).
func (x *extractor) params(fn int32, from int32, hint extract.RefKind, props *[]pendingField) {
	doc := x.docParams
	x.docParams = nil
	if fn < 0 {
		return
	}
	if p := x.Field(fn, x.g.fParameter); p >= 0 {
		x.bind(x.Text(p), binding{typ: doc[x.Text(p)], param: true})
		return
	}
	pl := x.Field(fn, x.g.fParameters)
	if pl < 0 {
		return
	}
	for p := x.FirstNamed(pl); p >= 0; p = x.NextNamed(p) {
		switch x.Code(p) {
		case kIdentifier:
			x.bind(x.Text(p), binding{typ: doc[x.Text(p)], param: true})
		case kParam:
			pat := x.Field(p, x.g.fPattern)
			if pat < 0 {
				pat = x.Field(p, x.g.fName)
			}
			ann := x.Field(p, x.g.fType)
			typ := x.typeName(ann)
			val := x.Field(p, x.g.fValue)
			if typ == "" && val >= 0 {
				typ = x.inferType(val)
			}
			if x.Code(pat) == kIdentifier {
				if typ == "" {
					typ = doc[x.Text(pat)]
				}
				x.bind(x.Text(pat), binding{typ: typ, param: true})
				if props != nil && x.isParamProperty(p) {
					*props = append(*props, pendingField{name: x.Text(pat), typ: typ, line: x.Line(p),
						sig: extract.FirstLine(x.Text(p)), private: x.memberFlags(p, "", true) == 0})
				}
			} else if pat >= 0 {
				x.bindPattern(pat)
				if x.Code(pat) == kObjectPattern {
					x.bindMemberTypes(pat, ann)
				}
			}
			if ann >= 0 {
				x.typeRefs(ann, from, hint)
			}
			if val >= 0 {
				x.walk(val, from)
			}
		case kAssignPattern:
			left, right := x.Field(p, x.g.fLeft), x.Field(p, x.g.fRight)
			if x.Code(left) == kIdentifier {
				typ := doc[x.Text(left)]
				if typ == "" {
					typ = x.inferType(right)
				}
				x.bind(x.Text(left), binding{typ: typ, param: true})
			} else {
				x.bindPattern(left)
			}
			x.walk(right, from)
		default:
			x.bindPattern(p)
		}
	}
}

// bindMemberTypes types the names of a destructured parameter from an
// inline object type: ({ user }: { user: User }) binds user as User.
func (x *extractor) bindMemberTypes(pat, ann int32) {
	t := x.firstKid(ann)
	if x.Code(t) != kObjectType {
		return
	}
	types := map[string]string{}
	for m := x.FirstNamed(t); m >= 0; m = x.NextNamed(m) {
		if x.Code(m) == kPropertySig {
			if tn := x.typeName(x.Field(m, x.g.fType)); tn != "" {
				types[x.propName(x.Field(m, x.g.fName))] = tn
			}
		}
	}
	for k := x.FirstNamed(pat); k >= 0; k = x.NextNamed(k) {
		if x.Code(k) == kShorthandPattern {
			if tn := types[x.Text(k)]; tn != "" {
				x.bind(x.Text(k), binding{typ: tn})
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
			if t, _ := jsdocType(rest); t != "" && x.R.Symbols[id].Type == "" {
				x.R.Symbols[id].Type = t
			}
		case "@type":
			if t, _ := jsdocType(rest); t != "" && x.R.Symbols[id].Type == "" {
				x.R.Symbols[id].Type = t
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
func (x *extractor) isParamProperty(p int32) bool {
	for k := x.FirstNamed(p); k >= 0; k = x.NextNamed(k) {
		if x.Code(k) == kAccessibility {
			return true
		}
	}
	return x.hasToken(p, kwReadonly)
}

// bindPattern binds every name a destructuring pattern declares.
func (x *extractor) bindPattern(n int32) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kIdentifier, kShorthandPattern:
		x.bind(x.Text(n), binding{})
	case kPairPattern:
		x.bindPattern(x.Field(n, x.g.fValue))
	case kAssignPattern:
		x.bindPattern(x.Field(n, x.g.fLeft))
	case kObjectPattern, kArrayPattern, kRestPattern, kObjectAssignPattern:
		for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
			if x.Code(k) == kObjectAssignPattern || x.Code(k) != kComment {
				x.bindPatternKid(k)
			}
		}
	}
}

func (x *extractor) bindPatternKid(k int32) {
	switch x.Code(k) {
	case kIdentifier, kShorthandPattern, kPairPattern, kAssignPattern, kObjectPattern, kArrayPattern, kRestPattern:
		x.bindPattern(k)
	case kObjectAssignPattern:
		// {a = 1}: the first child is the name.
		if f := x.firstKid(k); f >= 0 {
			x.bindPattern(f)
		}
	}
}

// varDecl declares the variables of a module-level const/let/var: functions
// and classes bound to names become such symbols, require() calls imports.
func (x *extractor) varDecl(n, outer int32, parent int32, flags snapshot.Flags) {
	isConst := x.hasToken(n, kwConst)
	single := x.declarators(n)
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Code(d) != kVarDeclarator {
			continue
		}
		nameN, value, ann := x.Field(d, x.g.fName), x.Field(d, x.g.fValue), x.Field(d, x.g.fType)
		span := outer
		if single > 1 {
			span = d
		}
		if x.requireDecl(nameN, value) {
			continue
		}
		if x.Code(nameN) != kIdentifier {
			x.bindPattern(nameN)
			x.walk(value, parent)
			continue
		}
		name := x.Text(nameN)
		v := x.unwrap(value)
		switch x.Code(v) {
		case kArrow, kFunctionExpr:
			id := x.function(v, span, parent, flags, name)
			if id >= 0 && ann >= 0 {
				x.typeRefs(ann, id, extract.RefTypeHint)
			}
			continue
		case kClassExpr:
			x.class(v, span, parent, flags, name)
			continue
		case kCall:
			if fn := x.wrappedFunction(name, v); fn >= 0 {
				id := x.Add(extract.Symbol{
					Name: name, Kind: snapshot.KindFunction, Parent: parent, Flags: flags,
					Start: x.Line(span), End: x.EndLine(span),
					Signature: x.Signature(span, x.Field(fn, x.g.fBody)), Doc: x.doc(outer),
				})
				x.top(name, id, parent)
				x.bindFile(name, binding{kind: bSymbol})
				if ann >= 0 {
					x.typeRefs(ann, id, extract.RefTypeHint)
				}
				x.walk(value, id)
				continue
			}
		}
		if p := x.protoOf(value); p != "" && ann < 0 {
			// const proto = Clock.prototype: an alias methods are put on
			// (see prototypes.go), no value of its own.
			if parent < 0 {
				x.bindFile(name, binding{proto: p})
			} else {
				x.bind(name, binding{proto: p})
			}
			continue
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
		id := x.Add(extract.Symbol{
			Name: name, Kind: kind, Parent: parent, Flags: flags,
			Start: x.Line(span), End: x.EndLine(span),
			Signature: extract.FirstLine(x.Text(span)), Doc: doc, Type: stype,
		})
		if stype == "" && x.js {
			x.jsdoc(id, doc)
			x.docParams = nil
			if t := x.R.Symbols[id].Type; t != "" {
				typ = t
			}
		}
		x.top(name, id, parent)
		if parent < 0 {
			x.bindFile(name, binding{typ: typ})
		} else {
			x.bind(name, binding{typ: typ})
		}
		if ann >= 0 {
			x.typeRefs(ann, id, extract.RefType)
		}
		switch {
		case parent < 0 && x.Code(v) == kObject:
			x.objectMembers(v, id, flags)
		case value >= 0:
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

func (x *extractor) wrappedFunction(name string, call int32) int32 {
	fn := x.chain(x.callee(x.Field(call, x.g.fFunction)))
	if fn == "" || !(componentWrappers[extract.LastPart(fn)] || startsUpper(name) && !startsUpper(extract.LastPart(fn))) {
		return -1
	}
	for a := x.FirstNamed(x.Field(call, x.g.fArguments)); a >= 0; a = x.NextNamed(a) {
		if k := x.Code(a); k == kArrow || k == kFunctionExpr {
			return a
		}
	}
	return -1
}

// localVars binds the variables declared inside a function.
func (x *extractor) localVars(n int32, from int32) {
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Code(d) != kVarDeclarator {
			continue
		}
		nameN, value, ann := x.Field(d, x.g.fName), x.Field(d, x.g.fValue), x.Field(d, x.g.fType)
		if x.requireDecl(nameN, value) {
			continue
		}
		v := x.unwrap(value)
		if (x.Code(v) == kArrow || x.Code(v) == kFunctionExpr) && x.Code(nameN) == kIdentifier && x.inCallable(from) {
			// const helper = (…) => {…} inside a function: a nested
			// function, as a declaration would be.
			span := n
			if x.declarators(n) > 1 {
				span = d
			}
			if id := x.function(v, span, from, 0, x.Text(nameN)); id >= 0 && ann >= 0 {
				x.typeRefs(ann, id, extract.RefTypeHint)
			}
			continue
		}
		if x.Code(v) == kClassExpr && x.Code(nameN) == kIdentifier {
			// const Local = class extends Base {…}: a class of its own.
			x.class(v, d, from, 0, x.Text(nameN))
			continue
		}
		if x.Code(nameN) == kIdentifier {
			typ := x.typeName(ann)
			if typ == "" {
				typ = x.inferType(value)
			}
			x.bind(x.Text(nameN), binding{typ: typ, proto: x.protoOf(value)})
		} else {
			x.bindPattern(nameN)
		}
		if ann >= 0 {
			x.typeRefs(ann, from, extract.RefType)
		}
		if value >= 0 {
			x.walk(value, from)
		}
	}
}

// declarators counts the variables a declaration statement declares.
func (x *extractor) declarators(n int32) int {
	c := 0
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Code(d) == kVarDeclarator {
			c++
		}
	}
	return c
}

// inCallable reports whether symbol from is a function, method or
// constructor outside test files, whose nested functions are symbols of
// their own. A test's helpers and inline components stay part of the
// test: they are many (a third more symbols in a React hooks library) and
// never what a task is after.
func (x *extractor) inCallable(from int32) bool {
	return !x.test && from >= 0 && int(from) < len(x.R.Symbols) && x.R.Symbols[from].Kind.IsCallable()
}
