package cfamily

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// external reports a type or function of the standard library.
func external(name string) bool {
	return name == "std" || strings.HasPrefix(name, "std.") || strings.HasPrefix(name, "__")
}

// pointers name their element type: a field std::unique_ptr<Table> is
// used as a Table.
var pointers = extract.WordSet("unique_ptr shared_ptr weak_ptr optional scoped_refptr RefPtr Ref intrusive_ptr atomic")

// casts are the C++ casts, which are no calls.
var casts = extract.WordSet("static_cast dynamic_cast const_cast reinterpret_cast")

// typeName is the dotted name of the type a type node names: Foo,
// leveldb.log.Writer, the element of a smart pointer; "" for a builtin
// type, auto, a template parameter or what names no type.
func (x *extractor) typeName(t int32) string {
	for i := 0; t >= 0 && i < 8; i++ {
		switch x.Kind(t) {
		case "type_identifier", "namespace_identifier", "identifier":
			name := x.Text(t)
			if x.isTParam(name) {
				return ""
			}
			return name
		case "qualified_identifier":
			s, n := x.Field(t, x.f.scope), x.Field(t, x.f.name)
			if x.Kind(n) == "template_type" && pointers[x.Text(x.Field(n, x.f.name))] {
				t = n
				continue
			}
			if s < 0 {
				t = n
				continue
			}
			return extract.JoinName(x.scopeName(s), x.typeName(n))
		case "template_type":
			if pointers[x.Text(x.Field(t, x.f.name))] {
				args := x.Field(t, x.f.arguments)
				t = x.FirstNamed(args)
				continue
			}
			t = x.Field(t, x.f.name)
		case "type_descriptor":
			t = x.Field(t, x.f.typ)
		case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
			nm := x.Field(t, x.f.name)
			if nm < 0 {
				return ""
			}
			t = nm
		default:
			return ""
		}
	}
	return ""
}

func (x *extractor) isTParam(name string) bool {
	for _, p := range x.tparams {
		if p == name {
			return true
		}
	}
	return false
}

// typeRefs records the types a type node names, template arguments
// included.
func (x *extractor) typeRefs(t, from int32, kind extract.RefKind) {
	if t < 0 {
		return
	}
	switch x.Kind(t) {
	case "primitive_type", "sized_type_specifier", "placeholder_type_specifier", "auto", "type_qualifier":
		return
	case "template_type", "qualified_identifier":
		if name := x.typeName(t); name != "" && !external(name) {
			x.typeRef(name, from, kind, x.Line(t))
		}
		for a := range x.OfKind(t, "template_argument_list") {
			x.typeRefs(a, from, kind)
		}
		if n := x.Field(t, x.f.name); n >= 0 && x.Kind(n) == "template_type" {
			for a := range x.OfKind(n, "template_argument_list") {
				x.typeRefs(a, from, kind)
			}
		}
		return
	case "type_identifier", "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		if name := x.typeName(t); name != "" && !external(name) {
			x.typeRef(name, from, kind, x.Line(t))
		}
		return
	}
	for c := x.FirstNamed(t); c >= 0; c = x.NextNamed(c) {
		x.typeRefs(c, from, kind)
	}
}

func (x *extractor) typeRef(name string, from int32, kind extract.RefKind, line uint32) {
	q, last := extract.SplitName(name)
	x.AddRef(extract.Ref{From: from, Kind: kind, Name: last, Qual: q, Line: line})
}

// walk records the calls, type uses and typed locals of a body.
func (x *extractor) walk(n, from int32) {
	switch x.Kind(n) {
	case "call_expression":
		x.call(n, from)
		return
	case "new_expression":
		t := x.Field(n, x.f.typ)
		x.construct(t, from, x.Line(n))
		x.walkChildren(n, from)
		return
	case "declaration":
		x.local(n, from)
		return
	case "for_range_loop":
		typ := x.Field(n, x.f.typ)
		x.typeRefs(typ, from, extract.RefType)
		if _, nm, ok := x.declName(x.Field(n, x.f.declarator)); ok {
			x.locals[nm] = x.typeName(typ)
		}
		x.walk(x.Field(n, x.f.right), from)
		x.walk(x.Field(n, x.f.body), from)
		return
	case "cast_expression", "compound_literal_expression", "sizeof_expression":
		x.typeRefs(x.Field(n, x.f.typ), from, extract.RefType)
	case "lambda_expression":
		x.params(x.Field(x.Field(n, x.f.declarator), x.f.parameters), from, false)
		x.walk(x.Field(n, x.f.body), from)
		return
	case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier",
		"comment", "string_literal", "raw_string_literal", "char_literal", "number_literal",
		"identifier", "field_identifier", "type_identifier", "true", "false", "null", "this":
		return
	}
	x.walkChildren(n, from)
}

func (x *extractor) walkChildren(n, from int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.walk(c, from)
	}
}

// local reads a local declaration: its variables' types, a constructor
// called with arguments (Foo f(a, b)), the values.
func (x *extractor) local(n, from int32) {
	typ := x.Field(n, x.f.typ)
	t := x.typeName(typ)
	x.typeRefs(typ, from, extract.RefType)
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.N[d].Field != x.f.declarator {
			continue
		}
		_, nm, ok := x.declName(d)
		if !ok {
			continue
		}
		vt := t
		if x.Kind(d) == "init_declarator" {
			v := x.Field(d, x.f.value)
			if k := x.Kind(v); x.cpp && t != "" && (k == "argument_list" || k == "initializer_list") {
				x.constructCall(t, from, x.Line(d)) // Foo f(a, b), Foo f{a, b}
			}
			if vt == "" {
				vt = x.valueType(v)
			}
			x.walk(v, from)
		}
		if x.funcDeclarator(d) < 0 {
			x.locals[nm] = vt
		}
	}
}

// valueType is the type of an initializer when it tells: new T, T(...).
func (x *extractor) valueType(v int32) string {
	switch x.Kind(v) {
	case "new_expression":
		return x.typeName(x.Field(v, x.f.typ))
	case "call_expression":
		if r := x.receiver(v); r.qtype != "" {
			return r.qtype
		}
	}
	return ""
}

// construct records new T(...): a use of T and a call of its
// constructor.
func (x *extractor) construct(t, from int32, line uint32) {
	x.typeRefs(t, from, extract.RefType)
	if name := x.typeName(t); name != "" && !external(name) {
		x.constructCall(name, from, line)
	}
}

func (x *extractor) constructCall(t string, from int32, line uint32) {
	last := extract.LastName(t)
	x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: last, Qual: last, QualType: t, Line: line})
}

// call records a call: f(), ns::f() and Type::f() (as the dotted name
// ns.f), obj.f(), p->f(), this->f().
func (x *extractor) call(n, from int32) {
	defer x.walk(x.Field(n, x.f.arguments), from)
	fn := x.Field(n, x.f.function)
	if x.Kind(fn) == "template_function" {
		if casts[x.Text(x.Field(fn, x.f.name))] {
			for a := range x.OfKind(fn, "template_argument_list") {
				x.typeRefs(a, from, extract.RefType)
			}
			return
		}
		fn = x.Field(fn, x.f.name)
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	switch x.Kind(fn) {
	case "identifier":
		name := x.Text(fn)
		if _, local := x.locals[name]; local {
			return // a function pointer or a callable object
		}
		ref.Name = name
	case "qualified_identifier":
		name := dotted(x.Text(fn))
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = x.scopedName(fn)
		}
		if name == "" || external(name) {
			return
		}
		ref.Name = name
	case "field_expression":
		f := x.Field(fn, x.f.field)
		if f < 0 {
			return
		}
		if x.Kind(f) == "template_method" {
			f = x.Field(f, x.f.name)
		}
		r := x.receiver(x.Field(fn, x.f.argument))
		if r.ext {
			x.walk(x.Field(fn, x.f.argument), from)
			return
		}
		ref.Name, ref.Qual, ref.QualType = x.Text(f), r.qual, r.qtype
		if strings.HasPrefix(r.qtype, "call:") {
			ref.QualType = extract.OrName(r.qtype)
		}
		x.walk(x.Field(fn, x.f.argument), from)
	default:
		x.walk(fn, from)
		return
	}
	x.AddRef(ref)
}

// scopedName is the dotted name of a qualified identifier with template
// arguments left out: Foo<int>::Make is Foo.Make.
func (x *extractor) scopedName(q int32) string {
	s := x.scopeName(x.Field(q, x.f.scope))
	n := x.Field(q, x.f.name)
	switch x.Kind(n) {
	case "qualified_identifier":
		return extract.JoinName(s, x.scopedName(n))
	case "template_function":
		return extract.JoinName(s, x.Text(x.Field(n, x.f.name)))
	}
	return extract.JoinName(s, x.Text(n))
}

// recv is what the extractor knows of the object a method is called on.
type recv struct {
	qual  string // Ref.Qual
	qtype string // Ref.QualType: a type, or "call:..."
	ext   bool   // outside the repository: the call is dropped
}

// receiver works out the object a call is made on.
func (x *extractor) receiver(n int32) recv {
	switch x.Kind(n) {
	case "this":
		return recv{qual: "this"}
	case "identifier":
		name := x.Text(n)
		if t, ok := x.locals[name]; ok {
			return recv{qual: name, qtype: t, ext: external(t)}
		}
		if x.class != nil {
			if t, ok := x.class.fields[name]; ok && external(t) {
				return recv{ext: true}
			}
			// A member: of this class, or of a base declared elsewhere.
			return recv{qual: "this." + name}
		}
		return recv{qual: name}
	case "field_expression":
		f := x.Field(n, x.f.field)
		r := x.receiver(x.Field(n, x.f.argument))
		if r.ext || f < 0 || strings.HasPrefix(r.qual, "(") {
			return recv{qual: "(expr)", ext: r.ext}
		}
		if r.qual == "this" && x.class != nil {
			if t, ok := x.class.fields[x.Text(f)]; ok && external(t) {
				return recv{ext: true}
			}
		}
		return recv{qual: r.qual + "." + x.Text(f), qtype: r.qtype}
	case "parenthesized_expression":
		if c := x.FirstNamed(n); c >= 0 && x.NextNamed(c) < 0 {
			return x.receiver(c)
		}
	case "pointer_expression":
		return x.receiver(x.Field(n, x.f.argument))
	case "cast_expression":
		// ((Foo *)p)->f()
		if t := x.typeName(x.Field(n, x.f.typ)); t != "" {
			return recv{qual: "(cast)", qtype: t, ext: external(t)}
		}
	case "call_expression":
		fn := x.Field(n, x.f.function)
		switch x.Kind(fn) {
		case "template_function":
			// static_cast<const SnapshotImpl*>(s)->sequence_number()
			if casts[x.Text(x.Field(fn, x.f.name))] {
				args := x.Field(fn, x.f.arguments)
				if t := x.typeName(x.FirstNamed(args)); t != "" {
					return recv{qual: "(cast)", qtype: t, ext: external(t)}
				}
			}
		case "identifier":
			if _, local := x.locals[x.Text(fn)]; !local {
				return recv{qual: "(call)", qtype: "call:" + x.Text(fn)}
			}
		case "qualified_identifier":
			if name := x.scopedName(fn); name != "" && !external(name) {
				return recv{qual: "(call)", qtype: "call:" + name}
			}
			return recv{ext: true}
		case "field_expression":
			r := x.receiver(x.Field(fn, x.f.argument))
			if f := x.Field(fn, x.f.field); f >= 0 && r.qtype != "" && !strings.Contains(r.qual, ".") &&
				!strings.HasPrefix(r.qtype, "call") {
				return recv{qual: "(call)", qtype: "call:" + r.qtype + "." + x.Text(f)}
			}
		}
	case "qualified_identifier":
		if name := x.scopedName(n); external(name) {
			return recv{ext: true}
		}
	case "string_literal", "raw_string_literal", "number_literal", "char_literal":
		return recv{ext: true}
	}
	return recv{qual: "(expr)"}
}
