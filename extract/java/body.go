package java

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/internal/scope"
)

// walkChildren walks the named children of n (see walk).
func (x *extractor) walkChildren(n int32, from int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.walk(c, from)
	}
}

// walk records calls, type uses and typed locals in a body. Lambdas and
// anonymous classes belong to the enclosing callable.
func (x *extractor) walk(n int32, from int32) {
	switch x.Kind(n) {
	case "method_invocation":
		x.call(n, from)
	case "object_creation_expression":
		x.creation(n, from)
		return
	case "method_reference":
		x.methodRef(n, from)
	case "explicit_constructor_invocation":
		x.ctorCall(n, from)
	case "local_variable_declaration":
		x.localVar(n, from)
	case "enhanced_for_statement":
		typ := x.Field(n, fType)
		vt := x.varType(typ)
		if vt.name == "" {
			// for (var e : xs): the element type of xs, when known.
			if v := x.Field(n, fValue); v >= 0 {
				if r := x.receiver(v); r.elem != "" {
					vt = vtype{name: r.elem}
				}
			}
		}
		if nm := x.Field(n, fName); nm >= 0 {
			x.locals[x.Text(nm)] = vt
		}
		x.typeRefs(typ, from, extract.RefType)
	case "catch_formal_parameter":
		for c := range x.OfKind(n, "catch_type") {
			x.typeRefs(c, from, extract.RefType)
			if nm := x.Field(n, fName); nm >= 0 {
				x.locals[x.Text(nm)] = vtype{name: x.typeName(c)}
			}
		}
		return
	case "resource":
		if typ := x.Field(n, fType); typ >= 0 {
			if nm := x.Field(n, fName); nm >= 0 {
				x.locals[x.Text(nm)] = x.varType(typ)
			}
			x.typeRefs(typ, from, extract.RefType)
		}
	case "instanceof_expression":
		if typ := x.Field(n, fRight); typ >= 0 {
			x.typeRefs(typ, from, extract.RefType)
			if nm := x.Field(n, fName); nm >= 0 {
				x.locals[x.Text(nm)] = x.varType(typ)
			}
		}
	case "type_pattern":
		typ := int32(-1)
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "identifier" && typ >= 0 {
				x.locals[x.Text(c)] = x.varType(typ)
			} else if typ < 0 {
				typ = c
			}
		}
		x.typeRefs(typ, from, extract.RefType)
		return
	case "lambda_expression":
		if ps := x.Field(n, fParameters); ps >= 0 {
			switch x.Kind(ps) {
			case "identifier":
				x.locals[x.Text(ps)] = vtype{}
			case "inferred_parameters":
				for c := x.FirstNamed(ps); c >= 0; c = x.NextNamed(c) {
					x.locals[x.Text(c)] = vtype{}
				}
			case "formal_parameters":
				x.params(ps, from)
			}
		}
		if b := x.Field(n, fBody); b >= 0 {
			x.walk(b, from)
		}
		return
	case "cast_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
	case "class_literal":
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			x.typeRefs(c, from, extract.RefType)
		}
		return
	case "array_creation_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
		// A local class: a symbol of its own inside the callable.
		saved := x.locals
		x.typeDecl(n, from, false)
		x.locals = saved
		return
	case "line_comment", "block_comment", "string_literal", "identifier", "type_identifier",
		"decimal_integer_literal", "true", "false", "null_literal", "this", "super":
		return
	}
	x.walkChildren(n, from)
}

func (x *extractor) localVar(n int32, from int32) {
	typ := x.Field(n, fType)
	vt := x.varType(typ)
	x.typeRefs(typ, from, extract.RefType)
	for d := range x.OfKind(n, "variable_declarator") {
		nm := x.Field(d, fName)
		if nm < 0 {
			continue
		}
		v := x.withDims(vt, d)
		if v.name == "" {
			// var x = ...: the type of the value, when it can be told.
			if val := x.Field(d, fValue); val >= 0 {
				r := x.receiver(val)
				if !r.ext && r.qtype != "" {
					v = vtype{name: r.qtype}
				}
			}
		}
		x.locals[x.Text(nm)] = v
	}
}

// recv is what the extractor knows of the object a call is made on.
type recv struct {
	qual  string // the qualifier for Ref.Qual
	qtype string // Ref.QualType: a type name, or "call:..."
	ext   bool   // known to be outside the repository: the call is dropped
	elem  string // element type, for containers and arrays
}

// objectMethods are java.lang.Object's methods (and enum's implicit ones):
// a call of one on a receiver of unknown type is not guessed.
var objectMethods = map[string]bool{
	"equals": true, "hashCode": true, "toString": true, "getClass": true, "notify": true,
	"notifyAll": true, "wait": true, "clone": true, "finalize": true, "values": true,
	"valueOf": true, "ordinal": true, "name": true, "compareTo": true,
}

// accessors return an element of a container (List.get, Optional.get,
// Map.get, Iterator.next, Map.Entry.getValue): called on a container of
// known element type, their result has that type.
var accessors = map[string]bool{
	"get": true, "getFirst": true, "getLast": true, "first": true, "last": true, "next": true,
	"previous": true, "peek": true, "peekFirst": true, "peekLast": true, "poll": true,
	"pollFirst": true, "pollLast": true, "pop": true, "element": true, "remove": true,
	"orElse": true, "orElseGet": true, "orElseThrow": true, "getValue": true, "join": true,
	"firstElement": true, "lastElement": true, "floor": true, "ceiling": true, "take": true,
}

func (x *extractor) call(n int32, from int32) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	name := x.Text(nm)
	obj := x.Field(n, fObject)
	ref := extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)}
	if obj < 0 {
		if x.libCall(name) {
			return
		}
		if a := x.anonTop(); a != nil && a.methods[name] {
			// A method of the anonymous class itself (not a symbol), or
			// its override of the base's.
			if a.ext || a.base == "" {
				return
			}
			ref.Qual, ref.QualType = "(this)", a.base
		} else if objectMethods[name] && !x.methods[name] && x.plainObject() {
			return
		}
		x.AddRef(ref)
		return
	}
	r := x.receiver(obj)
	if r.ext {
		return
	}
	if objectMethods[name] && (r.qtype == "" && r.qual != "this" && r.qual != "super" ||
		r.qual == "this" && !x.methods[name] && x.plainObject()) {
		return
	}
	ref.Qual, ref.QualType = r.qual, chainQualType(r.qtype, ref.Name)
	x.AddRef(ref)
}

// chainQualType is the QualType of a call of name on a receiver of type
// qtype. A chain of calls the resolver may follow out of the repository
// falls back to the name, as a call on an unknown receiver does, unless
// the name is one of Object's.
func chainQualType(qtype, name string) string {
	if strings.Contains(qtype, "()") && !objectMethods[name] {
		return extract.OrName(qtype)
	}
	return qtype
}

// libCall reports a bare call of a statically imported library method.
func (x *extractor) libCall(name string) bool {
	if x.statics[name] {
		return x.extNames[name]
	}
	return x.libStatics && libStaticNames[name] && !x.methods[name]
}

func (x *extractor) anonTop() *anonCtx {
	if len(x.anon) == 0 {
		return nil
	}
	return &x.anon[len(x.anon)-1]
}

// plainObject reports that the enclosing class has no superclass in the
// repository, so Object's methods it does not declare are Object's.
func (x *extractor) plainObject() bool {
	c := x.classes.Top()
	return c != nil && c.Base == "" && len(x.anon) == 0
}

// variable is the receiver for a variable of a known declared type.
func (x *extractor) variable(qual string, v vtype) recv {
	if v.name == "" || x.tparams.Has(v.name) {
		return recv{qual: qual, elem: v.elem}
	}
	return recv{qual: qual, qtype: v.name, ext: x.external(v.name), elem: v.elem}
}

// ident is the receiver named by a plain identifier.
func (x *extractor) ident(name string) recv {
	if v, ok := scope.Var(x.locals, x.classes, name); ok {
		return x.variable(name, v)
	}
	if x.statics[name] {
		return recv{qual: name, ext: x.extNames[name]}
	}
	if extract.StartsUpper(name) {
		return recv{qual: name, ext: x.external(name)} // a type: a static call
	}
	// A field inherited from a base class declared elsewhere.
	return recv{qual: "this." + name}
}

// receiver works out the qualifier and static type of an expression a
// method is called on.
func (x *extractor) receiver(n int32) recv {
	switch k := x.Kind(n); k {
	case "this", "super":
		if a := x.anonTop(); a != nil {
			// this and super of an anonymous class: its base.
			if a.ext || a.base == "" {
				return recv{ext: a.ext, qual: "(expr)"}
			}
			return recv{qual: "(" + k + ")", qtype: a.base}
		}
		return recv{qual: k}
	case "identifier":
		return x.ident(x.Text(n))
	case "field_access":
		return x.fieldAccess(n)
	case "method_invocation":
		return x.callResult(n)
	case "object_creation_expression":
		t := x.typeName(x.Field(n, fType))
		if t == "" {
			return recv{qual: "(new)"}
		}
		return recv{qual: "(new)", qtype: t, ext: x.external(t)}
	case "parenthesized_expression":
		if c := x.FirstNamed(n); c >= 0 && x.NextNamed(c) < 0 {
			return x.receiver(c)
		}
	case "cast_expression":
		vt := x.varType(x.Field(n, fType))
		if vt.name == "" || vt.name == "[]" {
			return recv{qual: "(cast)", elem: vt.elem}
		}
		return recv{qual: "(cast)", qtype: vt.name, ext: x.external(vt.name), elem: vt.elem}
	case "array_access":
		if a := x.Field(n, fArray); a >= 0 {
			r := x.receiver(a)
			if r.elem != "" {
				return recv{qual: "[]", qtype: r.elem, ext: x.external(r.elem)}
			}
		}
		return recv{qual: "[]"}
	case "string_literal", "class_literal", "array_creation_expression", "decimal_integer_literal",
		"character_literal", "true", "false", "template_expression":
		return recv{ext: true}
	}
	return recv{qual: "(expr)"}
}

// fieldAccess handles a.b.c: a variable followed by fields, a type (maybe
// nested or fully qualified) followed by static fields, or this/super
// followed by fields.
func (x *extractor) fieldAccess(n int32) recv {
	var segs []string
	base := n
	for x.Kind(base) == "field_access" {
		f := x.Field(base, fField)
		o := x.Field(base, fObject)
		if f < 0 || o < 0 {
			return recv{qual: "(expr)"}
		}
		segs = append(segs, x.Text(f))
		base = o
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	switch bk := x.Kind(base); bk {
	case "this", "super":
		if a := x.anonTop(); a != nil {
			if a.ext || a.base == "" {
				return recv{ext: a.ext, qual: "(expr)"}
			}
			return recv{qual: "(" + bk + ")." + strings.Join(segs, "."), qtype: a.base}
		}
		q := bk + "." + strings.Join(segs, ".")
		if bk == "this" && len(segs) == 1 {
			if v, ok := x.classes.Field(segs[0]); ok && v.name != "" && !x.tparams.Has(v.name) {
				return recv{qual: q, ext: x.external(v.name), elem: v.elem}
			}
		}
		return recv{qual: q}
	case "identifier":
	default:
		r := x.receiver(base)
		if r.ext || r.qual == "" {
			return recv{ext: r.ext, qual: "(expr)"}
		}
		first, _, _ := strings.Cut(r.qual, ".")
		if r.qtype == "" && !isIdent(first) {
			return recv{qual: "(expr)"}
		}
		return recv{qual: r.qual + "." + strings.Join(segs, "."), qtype: r.qtype}
	}
	head := x.Text(base)
	all := append([]string{head}, segs...)
	if segs[len(segs)-1] == "this" {
		// Outer.this: the enclosing instance of class Outer.
		return recv{qual: strings.Join(all[:len(all)-1], ".")}
	}
	rest := strings.Join(segs, ".")
	if v, ok := scope.Var(x.locals, x.classes, head); ok {
		r := x.variable(head+"."+rest, v)
		r.elem = ""
		return r
	}
	if x.statics[head] {
		return recv{qual: head + "." + rest, ext: x.extNames[head]}
	}
	// A type path: pkg.Type.Nested.field...
	j := -1
	for i, s := range all {
		if extract.StartsUpper(s) {
			j = i
			break
		}
	}
	if j < 0 {
		return recv{qual: "this." + strings.Join(all, ".")}
	}
	k := j
	for k+1 < len(all) && isTypeLike(all[k+1]) {
		k++
	}
	typ := x.qualify(strings.Join(all[:k+1], "."))
	ext := x.external(typ)
	if j > 0 {
		ext = x.externalPath(typ)
	}
	if k == 0 {
		return recv{qual: strings.Join(all, "."), ext: ext}
	}
	q := all[k]
	if k+1 < len(all) {
		q += "." + strings.Join(all[k+1:], ".")
	}
	return recv{qual: q, qtype: typ, ext: ext}
}

// callResult is the receiver that is the result of another call: its type
// is the result type of that call, which the resolver finds ("call:...").
func (x *extractor) callResult(n int32) recv {
	nm := x.Field(n, fName)
	if nm < 0 {
		return recv{qual: "(expr)"}
	}
	name := x.Text(nm)
	q := name + "()"
	obj := x.Field(n, fObject)
	if obj < 0 {
		if x.libCall(name) {
			return recv{ext: true}
		}
		return recv{qual: q, qtype: "call:" + name}
	}
	inner := x.receiver(obj)
	if inner.ext {
		if accessors[name] && inner.elem != "" {
			return recv{qual: q, qtype: inner.elem, ext: x.external(inner.elem)}
		}
		return recv{ext: true}
	}
	first, rest, _ := strings.Cut(inner.qual, ".")
	switch {
	case strings.HasPrefix(inner.qtype, "call:"):
		// A chain of calls (a builder, a stream): the resolver follows it
		// one call at a time.
		return recv{qual: q, qtype: inner.qtype + "()." + name}
	case inner.qtype != "":
		t := extract.LastPart(inner.qtype)
		if !extract.StartsUpper(t) {
			return recv{qual: q}
		}
		if rest != "" {
			t += "." + rest
		}
		return recv{qual: q, qtype: "call:" + t + "." + name}
	case first == "this" || first == "super" || (extract.StartsUpper(first) && isIdent(first)):
		return recv{qual: q, qtype: "call:" + inner.qual + "." + name}
	}
	return recv{qual: q}
}

// creation handles new T(...): a call of T's constructor and a use of T,
// and the members of an anonymous class body, whose code belongs to the
// enclosing callable.
func (x *extractor) creation(n int32, from int32) {
	typ := x.Field(n, fType)
	t := x.typeName(typ)
	x.typeRefs(typ, from, extract.RefType)
	if t != "" && !x.external(t) {
		last := extract.LastPart(t)
		x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: last, Qual: last,
			QualType: t, Line: x.Line(n)})
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "argument_list":
			x.walkChildren(c, from)
		case "class_body":
			x.anonymous(c, t, from)
		case "identifier", "field_access", "method_invocation", "parenthesized_expression":
			x.walk(c, from) // outer.new Inner()
		}
	}
}

func (x *extractor) anonymous(body int32, base string, from int32) {
	a := anonCtx{base: base, ext: x.external(base), methods: map[string]bool{}}
	for m := range x.OfKind(body, "method_declaration") {
		if nm := x.Field(m, fName); nm >= 0 {
			a.methods[x.Text(nm)] = true
		}
	}
	x.anon = append(x.anon, a)
	defer func() { x.anon = x.anon[:len(x.anon)-1] }()
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		switch x.Kind(m) {
		case "method_declaration":
			x.params(x.Field(m, fParameters), from)
			x.typeRefs(x.Field(m, fType), from, extract.RefType)
			if b := x.Field(m, fBody); b >= 0 {
				x.walkChildren(b, from)
			}
		case "field_declaration":
			x.localVar(m, from)
			x.walkChildren(m, from)
		case "block", "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			x.walk(m, from)
		}
	}
}

// methodRef handles Foo::bar, this::bar, obj::bar and Foo::new: its named
// children other than type arguments are the target and, unless it is
// Foo::new, the method name last.
func (x *extractor) methodRef(n int32, from int32) {
	target, last, parts := int32(-1), int32(-1), 0
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "type_arguments" {
			if target < 0 {
				target = c
			}
			last = c
			parts++
		}
	}
	if parts == 0 {
		return
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	if parts == 1 {
		// Foo::new
		t := x.typeName(target)
		if x.Kind(target) == "array_type" || t == "" || x.external(t) {
			return
		}
		ref.Name = extract.LastPart(t)
		ref.Qual, ref.QualType = ref.Name, t
		x.typeRefs(target, from, extract.RefType)
		x.AddRef(ref)
		return
	}
	ref.Name = x.Text(last)
	var r recv
	switch x.Kind(target) {
	case "type_identifier", "scoped_type_identifier", "generic_type":
		t := x.typeName(target)
		r = recv{qual: extract.LastPart(t), qtype: t, ext: x.external(t)}
	default:
		r = x.receiver(target)
	}
	if r.ext {
		return
	}
	ref.Qual, ref.QualType = r.qual, chainQualType(r.qtype, ref.Name)
	x.AddRef(ref)
}

// ctorCall handles this(...) and super(...) in a constructor.
func (x *extractor) ctorCall(n int32, from int32) {
	cls := x.classes.Top()
	if cls == nil {
		return
	}
	c := x.Field(n, fConstructor)
	if c < 0 {
		return
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	switch x.Kind(c) {
	case "this":
		ref.Name, ref.Qual = cls.Name, "this"
	case "super":
		if cls.Base == "" {
			return
		}
		ref.Name = extract.LastPart(cls.Base)
		ref.Qual, ref.QualType = ref.Name, cls.Base
	default:
		return
	}
	x.AddRef(ref)
}
