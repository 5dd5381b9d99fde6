package java

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

type mods struct {
	public, protected, private, static, final, abstract bool
	test                                                bool
	node                                                int32    // the modifiers node, or -1
	annotations                                         []string // names as written
}

var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true,
	"TestTemplate": true, "Theory": true, "Property": true,
}

func (x *extractor) modifiers(n int32) mods {
	m := mods{node: -1}
	mn := int32(-1)
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		if k := x.Kind(c); k == "modifiers" {
			mn = c
			break
		} else if x.N[c].Named && k != "marker_annotation" && k != "annotation" &&
			k != "line_comment" && k != "block_comment" {
			break
		}
	}
	if mn < 0 {
		return m
	}
	m.node = mn
	for c := x.FirstChild(mn); c >= 0; c = x.N[c].Next {
		switch x.Kind(c) {
		case "public":
			m.public = true
		case "protected":
			m.protected = true
		case "private":
			m.private = true
		case "static":
			m.static = true
		case "final":
			m.final = true
		case "abstract":
			m.abstract = true
		case "marker_annotation", "annotation":
			if nm := x.Field(c, fName); nm >= 0 {
				name := x.dotted(nm)
				m.annotations = append(m.annotations, name)
				if testAnnotations[extract.LastPart(name)] {
					m.test = true
				}
			}
		}
	}
	return m
}

// annotationRefs records the annotation types of the repository used on a
// declaration (not @Override and other JDK or library annotations).
func (x *extractor) annotationRefs(m mods, from int32) {
	for _, a := range m.annotations {
		if x.external(a) {
			continue
		}
		qual, name := extract.SplitName(a)
		x.AddRef(extract.Ref{From: from, Kind: extract.RefType, Name: name, Qual: qual, Line: x.Line(m.node)})
	}
}

// signature is the declaration from its first modifier keyword (past
// annotations) up to the body, on one line.
func (x *extractor) signature(n int32, m mods, body int32) string {
	start := x.N[n].Start
	if m.node >= 0 {
		start = x.N[m.node].End
		for c := x.FirstChild(m.node); c >= 0; c = x.N[c].Next {
			if k := x.Kind(c); k != "marker_annotation" && k != "annotation" && k != "line_comment" && k != "block_comment" {
				start = x.N[c].Start
				break
			}
		}
	}
	end := x.HeadEnd(n, body)
	return strings.TrimSpace(extract.CapSignature(strings.TrimSuffix(extract.OneLine(x.Src, start, end), ";")))
}

// doc is the Javadoc comment right before a declaration, or the line
// comments directly above it.
func (x *extractor) doc(n int32) string {
	p := x.N[n].Prev
	if p < 0 {
		return ""
	}
	switch x.Kind(p) {
	case "block_comment":
		t := x.Text(p)
		if strings.HasPrefix(t, "/**") && t != "/**/" {
			return extract.CleanComment(t, "")
		}
	case "line_comment":
		if x.EndLine(p)+1 < x.Line(n) {
			return ""
		}
		// Not a comment trailing the previous declaration's line.
		if q := x.N[p].Prev; q >= 0 && x.Kind(q) != "line_comment" && x.EndLine(q) == x.Line(p) {
			return ""
		}
		return x.PrecedingComments(n, "//")
	}
	return ""
}

func exportedFlag(m mods, inIface bool) snapshot.Flags {
	if m.public || m.protected || (inIface && !m.private) {
		return snapshot.FlagExported
	}
	return 0
}

// typeDecl extracts a class, interface, enum, record or annotation type.
func (x *extractor) typeDecl(n int32, parent int32, inIface bool) {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		return
	}
	name := x.Text(nameNode)
	x.declared[name] = true
	kind := snapshot.KindClass
	switch x.Kind(n) {
	case "interface_declaration", "annotation_type_declaration":
		kind = snapshot.KindInterface
	case "enum_declaration":
		kind = snapshot.KindEnum
	case "record_declaration":
		kind = snapshot.KindStruct
	}
	m := x.modifiers(n)
	body := x.Field(n, fBody)
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	s := extract.Symbol{Name: name, Kind: kind, Parent: parent, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(n, m, body), Doc: x.doc(n), Flags: exportedFlag(m, inIface)}
	if sc := x.Field(n, fSuperclass); sc >= 0 {
		for t := x.FirstNamed(sc); t >= 0; t = x.NextNamed(t) {
			if b := x.typeName(t); b != "" && !x.external(b) {
				s.Extends = append(s.Extends, b)
			}
		}
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "super_interfaces", "extends_interfaces":
			for tl := x.FirstNamed(c); tl >= 0; tl = x.NextNamed(tl) {
				for t := x.FirstNamed(tl); t >= 0; t = x.NextNamed(t) {
					b := x.typeName(t)
					if b == "" || x.external(b) {
						continue
					}
					if kind == snapshot.KindInterface {
						s.Extends = append(s.Extends, b)
					} else {
						s.Implements = append(s.Implements, b)
					}
				}
			}
		}
	}
	id := x.Add(s)
	x.annotationRefs(m, id)
	cls := &classCtx{Sym: id, Name: name, Fields: map[string]vtype{}}
	if len(s.Extends) > 0 && kind == snapshot.KindClass {
		cls.Base = s.Extends[0]
	}
	if kind == snapshot.KindStruct {
		x.recordComponents(x.Field(n, fParameters), cls)
	}
	if body < 0 {
		return
	}
	if kind == snapshot.KindEnum {
		x.enumBody(body, cls)
		return
	}
	x.collectFields(body, cls)
	x.classes = append(x.classes, cls)
	x.members(body, cls, kind == snapshot.KindInterface)
	x.classes.Pop()
}

// recordComponents extracts the components of a record, its fields.
func (x *extractor) recordComponents(ps int32, cls *classCtx) {
	for p := range x.OfKind(ps, "formal_parameter") {
		pn := x.Field(p, fName)
		pt := x.Field(p, fType)
		if pn < 0 {
			continue
		}
		fname := x.Text(pn)
		vt := x.varType(pt)
		cls.Fields[fname] = vt
		fid := x.Add(extract.Symbol{Name: fname, Kind: snapshot.KindField, Parent: cls.Sym, Start: x.Line(p),
			End: x.EndLine(p), Signature: x.TextLine(p), Type: vt.name, Flags: snapshot.FlagExported})
		x.typeRefs(pt, fid, extract.RefType)
	}
}

// enumBody extracts the body of an enum: its constants, then the other
// members in a nested list.
func (x *extractor) enumBody(body int32, cls *classCtx) {
	for c := range x.OfKind(body, "enum_constant") {
		if nm := x.Field(c, fName); nm >= 0 {
			cls.Fields[x.Text(nm)] = vtype{name: cls.Name}
		}
	}
	for c := range x.OfKind(body, "enum_body_declarations") {
		x.collectFields(c, cls)
	}
	x.classes = append(x.classes, cls)
	for c := range x.OfKind(body, "enum_constant") {
		x.enumConstant(c, cls)
	}
	for c := range x.OfKind(body, "enum_body_declarations") {
		x.members(c, cls, false)
	}
	x.classes.Pop()
}

// collectFields notes the fields of a class body before its methods are
// read, since a method may use a field declared below it.
func (x *extractor) collectFields(body int32, cls *classCtx) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration", "constant_declaration":
			vt := x.varType(x.Field(c, fType))
			for d := range x.OfKind(c, "variable_declarator") {
				if nm := x.Field(d, fName); nm >= 0 {
					cls.Fields[x.Text(nm)] = x.withDims(vt, d)
				}
			}
		case "method_declaration":
			if nm := x.Field(c, fName); nm >= 0 {
				x.methods[x.Text(nm)] = true
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			if nm := x.Field(c, fName); nm >= 0 {
				x.declared[x.Text(nm)] = true
			}
		}
	}
}

// members extracts the members of a class body.
func (x *extractor) members(body int32, cls *classCtx, inIface bool) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration", "constant_declaration":
			x.field(c, cls.Sym, inIface)
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
			x.callable(c, cls, inIface)
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			x.typeDecl(c, cls.Sym, inIface)
		case "static_initializer", "block":
			x.withLocals(func() { x.walkChildren(c, cls.Sym) })
		}
	}
}

// withLocals runs fn with a fresh variable scope, restoring the outer one.
func (x *extractor) withLocals(fn func()) {
	saved := x.locals
	x.locals = map[string]vtype{}
	fn()
	x.locals = saved
}

func (x *extractor) enumConstant(n int32, cls *classCtx) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindConstant, Parent: cls.Sym,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.signature(n, x.modifiers(n), x.Field(n, fBody)),
		Doc: x.doc(n), Type: cls.Name, Flags: snapshot.FlagExported})
	if args := x.Field(n, fArguments); args >= 0 {
		// The constant is made by the enum's constructor.
		x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: cls.Name, Qual: cls.Name, Line: x.Line(n)})
		x.withLocals(func() { x.walk(args, id) })
	}
	if body := x.Field(n, fBody); body >= 0 {
		// A constant with a body: its methods belong to the constant.
		sub := &classCtx{Sym: id, Name: cls.Name, Base: cls.Name, Fields: cls.Fields}
		x.members(body, sub, false)
	}
}

func (x *extractor) field(n int32, owner int32, inIface bool) {
	m := x.modifiers(n)
	typ := x.Field(n, fType)
	vt := x.varType(typ)
	kind := snapshot.KindField
	if x.Kind(n) == "constant_declaration" || (m.static && m.final) || (inIface) {
		kind = snapshot.KindConstant
	}
	doc := x.doc(n)
	sig := x.signature(n, m, -1)
	if i := strings.Index(sig, " = "); i >= 0 && len(sig) > 120 {
		sig = sig[:i]
	}
	flags := exportedFlag(m, inIface)
	for d := range x.OfKind(n, "variable_declarator") {
		nm := x.Field(d, fName)
		if nm < 0 {
			continue
		}
		t := vt.name
		if t == "[]" {
			t = vt.elem
		}
		id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: kind, Parent: owner, Start: x.Line(n),
			End: x.EndLine(n), Signature: sig, Doc: doc, Type: t, Flags: flags})
		x.typeRefs(typ, id, extract.RefType)
		x.annotationRefs(m, id)
		if v := x.Field(d, fValue); v >= 0 {
			x.withLocals(func() { x.walk(v, id) })
		}
	}
}

// callable extracts a method or constructor with its parameters and body.
func (x *extractor) callable(n int32, cls *classCtx, inIface bool) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	name := x.Text(nm)
	kind := snapshot.KindMethod
	if k := x.Kind(n); k == "constructor_declaration" || k == "compact_constructor_declaration" {
		kind = snapshot.KindConstructor
		name = cls.Name
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	body := x.Field(n, fBody)
	s := extract.Symbol{Name: name, Kind: kind, Parent: cls.Sym, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(n, m, body), Doc: x.doc(n), Flags: exportedFlag(m, inIface)}
	typ := x.Field(n, fType)
	if kind == snapshot.KindMethod {
		s.Type = x.typeName(typ)
	}
	if m.test {
		s.Flags |= snapshot.FlagTest
		noteTestName(name)
	}
	id := x.Add(s)
	x.annotationRefs(m, id)
	x.withLocals(func() {
		x.params(x.Field(n, fParameters), id)
		x.typeRefs(typ, id, extract.RefTypeHint)
		for c := range x.OfKind(n, "throws") {
			x.typeRefs(c, id, extract.RefType)
		}
		if body >= 0 {
			x.walkChildren(body, id)
		}
	})
}

// params records parameter types as hints and as typed locals.
func (x *extractor) params(ps int32, from int32) {
	if ps < 0 {
		return
	}
	for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
		switch x.Kind(p) {
		case "formal_parameter":
			typ := x.Field(p, fType)
			if nm := x.Field(p, fName); nm >= 0 {
				x.locals[x.Text(nm)] = x.withDims(x.varType(typ), p)
			}
			x.typeRefs(typ, from, extract.RefTypeHint)
		case "spread_parameter":
			typ := int32(-1)
			for c := x.FirstNamed(p); c >= 0; c = x.NextNamed(c) {
				switch x.Kind(c) {
				case "variable_declarator":
					if nm := x.Field(c, fName); nm >= 0 && typ >= 0 {
						x.locals[x.Text(nm)] = vtype{name: "[]", elem: x.typeName(typ)}
					}
				case "modifiers", "annotation", "marker_annotation":
				default:
					if typ < 0 {
						typ = c
					}
				}
			}
			x.typeRefs(typ, from, extract.RefTypeHint)
		}
	}
}
