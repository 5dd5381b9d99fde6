package csharp

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/internal/scope"
)

// recv is what the extractor knows of the object a call is made on.
type recv struct {
	qual  string // Ref.Qual: the qualifier, its first element typed by qtype
	qtype string // Ref.QualType: a type name or "call:..."
	elem  string // element type, for containers and arrays
	alt   string // a second reading of the qualifier: an inherited property rather than a type
	typed bool   // the resolver can find the receiver's type (typed, this, base, a type)
	chain bool   // the type is reached through members or calls the extractor cannot check
	ext   bool   // of a library type
	drop  bool   // certainly outside the repository: the call is not recorded
}

// walk records calls, type uses and typed locals in a callable's code.
func (x *extractor) walk(n int32, from int32) {
	switch x.Kind(n) {
	case "invocation_expression":
		x.call(n, from)
		if hint, ok := x.lambdaHint(n); ok {
			x.walkWithHint(n, from, hint)
			return
		}
	case "object_creation_expression":
		x.creation(n, from)
		return
	case "variable_declaration":
		x.localVar(n, from)
		return
	case "local_function_statement":
		x.localFunction(n, from)
		return
	case "lambda_expression", "anonymous_method_expression":
		x.lambda(n, from)
		return
	case "foreach_statement":
		x.foreach(n, from)
		return
	case "assignment_expression":
		x.assign(n, from)
	case "catch_declaration", "declaration_expression", "declaration_pattern":
		typ := x.Field(n, fType)
		x.typeRefs(typ, from, extract.RefType)
		if nm := x.Field(n, fName); nm >= 0 && x.locals != nil {
			x.locals[x.Text(nm)] = x.varType(typ)
		}
		return
	case "recursive_pattern":
		typ := x.Field(n, fType)
		x.typeRefs(typ, from, extract.RefType)
		if nm := x.Field(n, fName); nm >= 0 && x.locals != nil {
			x.locals[x.Text(nm)] = x.varType(typ)
		}
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if k := x.Kind(c); k == "positional_pattern_clause" || k == "property_pattern_clause" {
				x.walk(c, from)
			}
		}
		return
	case "type_pattern", "typeof_expression", "default_expression", "sizeof_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
		return
	case "cast_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
		if v := x.Field(n, fValue); v >= 0 {
			x.walk(v, from)
		}
		return
	case "as_expression", "is_expression":
		if l := x.Field(n, fLeft); l >= 0 {
			x.walk(l, from)
		}
		x.typeRefs(x.Field(n, fRight), from, extract.RefType)
		return
	case "array_creation_expression", "stackalloc_expression":
		typ := x.Field(n, fType)
		x.typeRefs(typ, from, extract.RefType)
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if typ < 0 || x.N[c].Start != x.N[typ].Start {
				x.walk(c, from)
			}
		}
		return
	case "generic_name":
		for c := range x.OfKind(n, "type_argument_list") {
			x.typeRefs(c, from, extract.RefType)
		}
		return
	case "identifier", "comment", "string_literal", "verbatim_string_literal", "raw_string_literal",
		"integer_literal", "real_literal", "boolean_literal", "null_literal", "character_literal",
		"predefined_type", "this", "base", "implicit_type", "qualified_name", "alias_qualified_name",
		"attribute_list", "modifier":
		return
	case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
		"record_declaration", "delegate_declaration":
		return // not valid inside code; error recovery
	}
	x.walkChildren(n, from)
}

func (x *extractor) walkChildren(n int32, from int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.walk(c, from)
	}
}

// identText is the name of an identifier or generic name.
func (x *extractor) identText(n int32) string {
	switch x.Kind(n) {
	case "identifier":
		return x.Text(n)
	case "generic_name":
		if c := x.FirstNamed(n); c >= 0 {
			return x.Text(c)
		}
	}
	return ""
}

func (x *extractor) localVar(n int32, from int32) {
	typ := x.Field(n, fType)
	vt := x.varType(typ)
	x.typeRefs(typ, from, extract.RefType)
	for d := range x.OfKind(n, "variable_declarator") {
		nm := x.Field(d, fName)
		v := vt
		for c := x.FirstNamed(d); c >= 0; c = x.NextNamed(c) {
			switch x.Kind(c) {
			case "identifier", "bracketed_argument_list":
				if nm >= 0 && x.N[c].Start == x.N[nm].Start {
					continue
				}
			case "tuple_pattern":
				x.tupleNames(c)
				continue
			}
			x.value(c, vt, from)
			if v.name == "" && v.head == "" {
				v = vtypeOf(x.receiver(c))
			}
		}
		if nm >= 0 && x.locals != nil {
			x.locals[x.Text(nm)] = v
		}
	}
}

// tupleNames declares the variables of a deconstruction, of unknown type.
func (x *extractor) tupleNames(n int32) {
	if x.locals == nil {
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "identifier":
			x.locals[x.Text(c)] = vtype{}
		case "tuple_pattern":
			x.tupleNames(c)
		}
	}
}

// vtypeOf is the type of a variable initialised from an expression.
func vtypeOf(r recv) vtype {
	if r.drop {
		return vtype{}
	}
	first, rest, _ := strings.Cut(r.qual, ".")
	switch {
	case r.qtype != "":
		return vtype{name: r.qtype, path: rest, elem: r.elem}
	case r.typed:
		return vtype{head: first, path: rest}
	}
	return vtype{elem: r.elem}
}

func (x *extractor) assign(n int32, from int32) {
	l, r := x.Field(n, fLeft), x.Field(n, fRight)
	if l < 0 || r < 0 || x.Kind(l) != "identifier" {
		return
	}
	name := x.Text(l)
	v, local := x.locals[name]
	if !local {
		v, _ = x.classes.Field(name)
	}
	if x.Kind(r) == "implicit_object_creation_expression" && v.name != "" && v.name != "[]" {
		x.ctorCall(v.name, r, from)
	}
	if local && v == (vtype{}) {
		x.locals[name] = vtypeOf(x.receiver(r))
	}
}

func (x *extractor) foreach(n int32, from int32) {
	typ := x.Field(n, fType)
	right := x.Field(n, fRight)
	left := x.Field(n, fLeft)
	if right >= 0 {
		x.walk(right, from)
	}
	x.typeRefs(typ, from, extract.RefType)
	v := x.varType(typ)
	if v.name == "" && right >= 0 {
		if r := x.receiver(right); r.elem != "" {
			v = vtype{name: r.elem}
		}
	}
	if left >= 0 && x.locals != nil {
		switch x.Kind(left) {
		case "identifier":
			x.locals[x.Text(left)] = v
		case "tuple_pattern":
			x.tupleNames(left)
		}
	}
	if b := x.Field(n, fBody); b >= 0 {
		x.walk(b, from)
	}
}

// bddSteps are the step methods of BDD libraries (BDDfy, LightBDD):
// the parameter of a lambda passed to one is the test object itself,
// `this.Given(x => x.GivenARoute())`.
var bddSteps = extract.WordSet(`Given When Then And But AndGiven AndWhen AndThen Teardown`)

// mockSetups are the methods of mocking libraries whose lambda's parameter
// is the mocked object: `mock.Setup(x => x.Create())` on a Mock<IFoo>.
var mockSetups = extract.WordSet(`Setup SetupGet SetupSet SetupSequence SetupProperty Verify VerifyGet VerifySet Raise`)

// lambdaHint is the type of the parameter of lambdas passed to a call, when
// the call tells it.
func (x *extractor) lambdaHint(n int32) (vtype, bool) {
	fn := x.Field(n, fFunction)
	switch x.Kind(fn) {
	case "identifier", "generic_name":
		if bddSteps[x.identText(fn)] && len(x.classes) > 0 {
			return vtype{head: "this"}, true
		}
	case "member_access_expression":
		name := x.identText(x.Field(fn, fName))
		if bddSteps[name] && len(x.classes) > 0 {
			return vtype{head: "this"}, true
		}
		if mockSetups[name] {
			if obj := x.Field(fn, fExpression); obj >= 0 {
				if r := x.receiver(obj); r.elem != "" && !x.external(r.elem) {
					return vtype{name: r.elem}, true
				}
			}
		}
	}
	return vtype{}, false
}

// walkWithHint walks a call whose lambda arguments take a parameter of
// type hint.
func (x *extractor) walkWithHint(n int32, from int32, hint vtype) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "argument_list" {
			x.walk(c, from)
			continue
		}
		for a := x.FirstNamed(c); a >= 0; a = x.NextNamed(a) {
			for e := x.FirstNamed(a); e >= 0; e = x.NextNamed(e) {
				if x.Kind(e) == "lambda_expression" {
					if p := x.Field(e, fParameters); p >= 0 && x.Kind(p) == "implicit_parameter" && x.locals != nil {
						x.locals[x.Text(p)] = hint
						x.lambdaBody(e, from)
						continue
					}
				}
				x.walk(e, from)
			}
		}
	}
}

func (x *extractor) lambda(n int32, from int32) {
	x.lambdaParams(n, from)
	x.lambdaBody(n, from)
}

func (x *extractor) lambdaParams(n int32, from int32) {
	if ps := x.Field(n, fParameters); ps >= 0 && x.locals != nil {
		switch x.Kind(ps) {
		case "implicit_parameter", "identifier":
			x.locals[x.Text(ps)] = vtype{}
		case "parameter_list":
			for p := range x.OfKind(ps, "parameter") {
				typ := x.Field(p, fType)
				if nm := x.Field(p, fName); nm >= 0 {
					x.locals[x.Text(nm)] = x.varType(typ)
				}
				x.typeRefs(typ, from, extract.RefType)
			}
		}
	}
}

func (x *extractor) lambdaBody(n int32, from int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "parameter_list", "implicit_parameter", "attribute_list", "modifier":
		default:
			x.walk(c, from) // the body, or a return type
		}
	}
}

// creation handles new T(...): a call of T's constructor and a use of T.
func (x *extractor) creation(n int32, from int32) {
	typ := x.Field(n, fType)
	t := x.typeName(typ)
	x.typeRefs(typ, from, extract.RefType)
	if t != "" && !x.external(t) && !x.tparams.Has(t) {
		x.ctorCall(t, n, from)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if typ < 0 || x.N[c].Start != x.N[typ].Start {
			x.walk(c, from)
		}
	}
}

func (x *extractor) ctorCall(t string, n int32, from int32) {
	t = strings.TrimSuffix(t, "[]")
	if t == "" || x.external(t) || x.tparams.Has(t) {
		return
	}
	last := extract.LastPart(t)
	x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: last, Qual: last,
		QualType: t, Line: x.Line(n)})
}

// call records an invocation.
func (x *extractor) call(n int32, from int32) {
	fn := x.Field(n, fFunction)
	if fn < 0 {
		return
	}
	switch x.Kind(fn) {
	case "identifier", "generic_name":
		name := x.identText(fn)
		if name == "" || name == "nameof" {
			return
		}
		if _, ok := scope.Var(x.locals, x.classes, name); ok {
			return // a delegate in a variable, field or property
		}
		x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
	case "member_access_expression":
		x.memberCall(x.identText(x.Field(fn, fName)), x.Field(fn, fExpression), n, from)
	case "conditional_access_expression":
		name, obj := x.binding(fn)
		x.memberCall(name, obj, n, from)
	}
}

// binding splits a?.B into the condition a and the member name B.
func (x *extractor) binding(n int32) (string, int32) {
	cond := x.Field(n, fCondition)
	last := x.LastNamed(n)
	if cond < 0 || last < 0 || x.Kind(last) != "member_binding_expression" {
		return "", -1
	}
	return x.identText(x.Field(last, fName)), cond
}

func (x *extractor) memberCall(name string, obj int32, n int32, from int32) {
	if name == "" || obj < 0 {
		return
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)}
	if x.Kind(obj) == "this" {
		// this.M(): a bare call, which the resolver also finds in the other
		// parts of a partial class.
		x.AddRef(ref)
		return
	}
	r := x.receiver(obj)
	if r.drop {
		return
	}
	if bclMethods[name] && (r.ext || !r.typed || r.chain && strictMethods[name]) {
		return
	}
	if delegateCall[name] && x.isDelegate(r.qtype) {
		return // invoking a delegate: what runs is not known
	}
	ref.Qual, ref.QualType = r.qual, r.qtype
	x.AddRef(ref)
	if r.alt != "" && (!bclMethods[name] || strings.HasPrefix(r.alt, "this.")) {
		ref.Qual, ref.QualType = r.alt, ""
		x.AddRef(ref)
	}
}

var delegateCall = map[string]bool{"Invoke": true, "BeginInvoke": true, "DynamicInvoke": true}

// isDelegate reports a delegate type: one declared in the file, or named
// like one (RequestDelegate, EventHandler, the .NET convention).
func (x *extractor) isDelegate(t string) bool {
	if t == "" || isCallType(t) {
		return false
	}
	t = extract.LastPart(t)
	return x.delegates[t] || strings.HasSuffix(t, "Delegate") || strings.HasSuffix(t, "EventHandler") ||
		strings.HasSuffix(t, "Callback")
}

// isCallType reports a type that is the result of a call ("call:T.f", or
// a chain the resolver may fall back from, "call?:T.f().g").
func isCallType(t string) bool {
	return strings.HasPrefix(t, "call:") || strings.HasPrefix(t, extract.CallOrName)
}

// fromVar is the receiver for a variable of type v.
func (x *extractor) fromVar(name string, v vtype) recv {
	switch {
	case v.name == "[]" || predefined[v.name]:
		return extRecv(v.elem)
	case v.name != "":
		if !isCallType(v.name) && x.external(v.name) {
			return extRecv(v.elem)
		}
		return recv{qual: extract.JoinName(name, v.path), qtype: v.name, elem: v.elem, typed: true,
			chain: v.path != "" || isCallType(v.name)}
	case v.head != "":
		return recv{qual: extract.JoinName(v.head, v.path), typed: true, chain: true}
	}
	return recv{qual: name, elem: v.elem}
}

// extRecv is an object of a library type. Its methods are not in the
// repository, but extension methods declared there may be called on it:
// those the resolver finds by their name alone.
func extRecv(elem string) recv {
	return recv{qual: "(ext)", ext: true, elem: elem}
}

// ident is the receiver named by a plain identifier.
func (x *extractor) ident(name string) recv {
	if v, ok := scope.Var(x.locals, x.classes, name); ok {
		return x.fromVar(name, v)
	}
	switch {
	case x.tparams.Has(name):
		return recv{qual: name}
	case x.aliases[name] || x.declared[name]:
		return recv{qual: name, typed: true}
	case predefined[name] || bclTypes[name]:
		return recv{drop: true} // a static call on a library type
	case extract.StartsUpper(name):
		// A type, or a property inherited from a base class declared
		// elsewhere (Logger in a middleware): both are tried.
		r := recv{qual: name, typed: true}
		if c := x.classes.Top(); c != nil && c.Base != "" {
			r.alt = "this." + name
		}
		return r
	}
	// A field inherited from a base class, or a name the extractor does
	// not know.
	return recv{qual: "this." + name}
}

// receiver works out the qualifier and static type of an expression a
// method is called on.
func (x *extractor) receiver(n int32) recv {
	// Long chains of calls are followed a few levels only: the resolver
	// types one call result, and this keeps the work linear.
	if x.depth > 8 {
		return recv{qual: "(expr)"}
	}
	x.depth++
	defer func() { x.depth-- }()
	switch x.Kind(n) {
	case "this":
		return recv{qual: "this", typed: true}
	case "base":
		return recv{qual: "base", typed: true}
	case "identifier":
		return x.ident(x.Text(n))
	case "generic_name":
		name := x.identText(n)
		if x.external(name) {
			return recv{drop: true}
		}
		return recv{qual: name, typed: true}
	case "predefined_type":
		return recv{drop: true}
	case "member_access_expression", "conditional_access_expression":
		return x.memberAccess(n)
	case "invocation_expression":
		return x.callResult(n)
	case "object_creation_expression":
		typ := x.Field(n, fType)
		t := x.typeName(typ)
		if t == "" {
			return recv{qual: "(new)"}
		}
		v := x.varType(typ)
		if x.external(t) {
			return extRecv(v.elem)
		}
		return recv{qual: "(new)", qtype: t, typed: true, elem: v.elem}
	case "parenthesized_expression", "await_expression", "postfix_unary_expression", "checked_expression",
		"ref_expression":
		if c := x.only(n); c >= 0 {
			return x.receiver(c)
		}
	case "cast_expression":
		return x.typedRecv("(cast)", x.varType(x.Field(n, fType)))
	case "as_expression":
		return x.typedRecv("(cast)", x.varType(x.Field(n, fRight)))
	case "element_access_expression":
		if e := x.Field(n, fExpression); e >= 0 {
			if r := x.receiver(e); r.elem != "" {
				return x.typedRecv("[]", vtype{name: r.elem})
			}
		}
		return recv{qual: "[]"}
	case "binary_expression":
		if op := x.Field(n, fOperator); op >= 0 && x.Kind(op) == "??" {
			if l := x.Field(n, fLeft); l >= 0 {
				return x.receiver(l)
			}
		}
		return extRecv("")
	case "conditional_expression":
		if c := x.Field(n, fConsequence); c >= 0 {
			return x.receiver(c)
		}
	case "string_literal", "interpolated_string_expression", "verbatim_string_literal", "raw_string_literal":
		return extRecv("")
	case "integer_literal", "real_literal", "boolean_literal", "character_literal", "null_literal",
		"typeof_expression", "array_creation_expression", "implicit_array_creation_expression",
		"lambda_expression", "anonymous_object_creation_expression", "query_expression":
		return extRecv("")
	}
	return recv{qual: "(expr)"}
}

// typedRecv is the receiver for an expression of a known declared type
// (a cast, an element).
func (x *extractor) typedRecv(qual string, v vtype) recv {
	if v.name == "" {
		return recv{qual: qual, elem: v.elem}
	}
	r := x.fromVar(qual, v)
	r.chain = false
	return r
}

// memberAccess handles a.b.c as a receiver: a variable followed by
// members, a type (maybe namespace-qualified) followed by static members,
// or this/base followed by members.
func (x *extractor) memberAccess(n int32) recv {
	var segs []string
	base := n
loop:
	for {
		switch x.Kind(base) {
		case "member_access_expression":
			nm := x.identText(x.Field(base, fName))
			e := x.Field(base, fExpression)
			if nm == "" || e < 0 {
				return recv{qual: "(expr)"}
			}
			segs = append(segs, nm)
			base = e
		case "conditional_access_expression":
			nm, cond := x.binding(base)
			if nm == "" {
				return recv{qual: "(expr)"}
			}
			segs = append(segs, nm)
			base = cond
		default:
			break loop
		}
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	rest := strings.Join(segs, ".")
	withRest := func(r recv) recv {
		r.qual = extract.JoinName(r.qual, rest)
		r.elem = ""
		r.chain = true
		return r
	}
	switch x.Kind(base) {
	case "this":
		if v, ok := x.classes.Field(segs[0]); ok {
			r := x.fromVar(segs[0], v)
			if len(segs) > 1 {
				r.qual = extract.JoinName(r.qual, strings.Join(segs[1:], "."))
				r.elem, r.chain = "", true
			}
			return r
		}
		return recv{qual: "this." + rest, typed: true, chain: true}
	case "base":
		return recv{qual: "base." + rest, typed: true, chain: true}
	case "identifier":
		head := x.Text(base)
		if v, ok := scope.Var(x.locals, x.classes, head); ok {
			return withRest(x.fromVar(head, v))
		}
		full := head + "." + rest
		switch {
		case x.tparams.Has(head):
			return recv{qual: full}
		case x.aliases[head]:
			return recv{qual: segs[len(segs)-1], qtype: full, typed: true, chain: true}
		case x.declared[head]:
			return recv{qual: full, typed: true, chain: true}
		case x.nsRoots[head] || externalRoots[head]:
			// A namespace-qualified name: the resolver finds where the
			// type ends.
			if x.externalNS(head) {
				return recv{drop: true}
			}
			return recv{qual: segs[len(segs)-1], qtype: full, typed: true, chain: true}
		case predefined[head] || bclTypes[head]:
			return recv{drop: true}
		case extract.StartsUpper(head):
			r := recv{qual: full, typed: true, chain: true}
			if c := x.classes.Top(); c != nil && c.Base != "" {
				r.alt = "this." + full
			}
			return r
		}
		return recv{qual: "this." + full, chain: true}
	case "generic_name":
		name := x.identText(base)
		if x.external(name) {
			return recv{drop: true}
		}
		return recv{qual: name + "." + rest, typed: true, chain: true}
	case "predefined_type":
		return recv{drop: true}
	case "alias_qualified_name", "qualified_name":
		full := extract.JoinName(x.typeName(base), rest)
		if x.externalNS(extract.FirstName(full)) {
			return recv{drop: true}
		}
		return recv{qual: segs[len(segs)-1], qtype: full, typed: true, chain: true}
	}
	r := x.receiver(base)
	if r.drop {
		return r
	}
	return withRest(r)
}

// callResult is the receiver that is the result of another call: its type
// is the result type of that call, which the resolver finds ("call:...").
func (x *extractor) callResult(n int32) recv {
	fn := x.Field(n, fFunction)
	if fn < 0 {
		return recv{qual: "(expr)"}
	}
	var name string
	obj := int32(-1)
	switch x.Kind(fn) {
	case "identifier", "generic_name":
		name = x.identText(fn)
		if _, ok := scope.Var(x.locals, x.classes, name); ok || name == "" || name == "nameof" {
			return recv{qual: "(expr)"} // a delegate, or no method
		}
		return recv{qual: name + "()", qtype: "call:" + name, typed: true, chain: true}
	case "member_access_expression":
		name, obj = x.identText(x.Field(fn, fName)), x.Field(fn, fExpression)
	case "conditional_access_expression":
		name, obj = x.binding(fn)
	}
	if name == "" || obj < 0 {
		return recv{qual: "(expr)"}
	}
	q := name + "()"
	inner := x.receiver(obj)
	// The chain below this call, if marked call?:, is read as call: here;
	// the chain this call ends is marked again when it is returned.
	inner.qtype = strings.Replace(inner.qtype, extract.CallOrName, "call:", 1)
	if inner.drop || inner.ext || !inner.typed || strings.HasPrefix(inner.qtype, "call:") {
		switch {
		case inner.elem != "" && elemAccessors[name]:
			return x.typedRecv(q, vtype{name: inner.elem})
		case inner.elem != "" && seqMethods[name]:
			return extRecv(inner.elem)
		case inner.drop:
			return inner
		case bclMethods[name]:
			return extRecv("")
		case inner.typed && strings.HasPrefix(inner.qtype, "call:") && !strings.HasPrefix(inner.qtype, "call:(expr)"):
			// A chain of calls (a builder, a fluent API): the resolver
			// follows it one call at a time; where it breaks, the last
			// call, if its name is unique, gives the receiver, as
			// "(expr)" below does (Language.ChainByName).
			return recv{qual: q, qtype: extract.OrName(inner.qtype + "()." + name), typed: true, chain: true}
		}
		// An extension method, or a method of a type the resolver finds
		// by the name alone; failing that, the method called on the
		// result is found by its name alone too.
		return recv{qual: q, qtype: "call:(expr)." + name, typed: true, chain: true, alt: q}
	}
	if inner.qtype != "" {
		t := extract.LastPart(inner.qtype)
		if _, rest, ok := strings.Cut(inner.qual, "."); ok {
			t += "." + rest
		}
		return recv{qual: q, qtype: "call:" + t + "." + name, typed: true, chain: true}
	}
	return recv{qual: q, qtype: "call:" + inner.qual + "." + name, typed: true, chain: true}
}
