package csharp

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/internal/scope"
	"github.com/knowing-dev/knowing/snapshot"
)

// mods are the modifiers and attributes of a declaration.
type mods struct {
	public, protected, internal, private, isConst, access bool
	test, testClass                                       bool
	attrs                                                 []int32 // attribute nodes
	start                                                 uint32  // first byte past the attributes
}

func (x *extractor) modifiers(n int32) mods {
	m := mods{start: x.N[n].Start}
	started := false
loop:
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "attribute_list":
			for a := range x.OfKind(c, "attribute") {
				m.attrs = append(m.attrs, a)
				name := attrName(x.typeName(x.Field(a, fName)))
				if testAttributes[name] {
					m.test = true
				}
				if testClassAttributes[name] {
					m.testClass = true
				}
			}
			m.start = x.N[c].End
			continue
		case "comment":
			if !started {
				m.start = x.N[c].End
			}
			continue
		case "modifier":
			switch x.Text(c) {
			case "public":
				m.public, m.access = true, true
			case "protected":
				m.protected, m.access = true, true
			case "internal":
				m.internal, m.access = true, true
			case "private":
				m.private, m.access = true, true
			case "const":
				m.isConst = true
			}
		default:
			break loop // modifiers come first
		}
		started = true
	}
	// The first token after the attributes starts the signature.
	if m.start > x.N[n].Start {
		for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
			if x.N[c].Start >= m.start && x.Kind(c) != "comment" {
				m.start = x.N[c].Start
				break
			}
		}
	}
	return m
}

// attrName is an attribute's class name without namespace and without the
// Attribute suffix C# lets one leave out.
func attrName(t string) string {
	return strings.TrimSuffix(extract.LastPart(t), "Attribute")
}

// exported: public, protected and internal declarations, members of
// interfaces (public unless private), and top-level types without an
// access modifier (internal by default).
func exported(m mods, topLevel, inInterface bool) snapshot.Flags {
	switch {
	case m.public || m.protected || m.internal:
		return snapshot.FlagExported
	case m.private:
		return 0
	case inInterface || (topLevel && !m.access):
		return snapshot.FlagExported
	}
	return 0
}

// attrRefs records uses of attribute classes (FooAttribute for [Foo]) and
// walks attribute arguments (typeof(Bar)).
func (x *extractor) attrRefs(m mods, from int32) {
	for _, a := range m.attrs {
		t := x.typeName(x.Field(a, fName))
		name := attrName(t)
		if name == "" || ignoredAttributes[name] || x.external(t) {
			continue
		}
		qual, _ := extract.SplitName(t)
		x.AddRef(extract.Ref{From: from, Kind: extract.RefType, Name: name + "Attribute",
			Qual: qual, Line: x.Line(a)})
		for c := range x.OfKind(a, "attribute_argument_list") {
			x.walk(c, from)
		}
	}
}

// signature is the declaration from its first modifier or keyword (past
// attributes) up to end, on one line.
func (x *extractor) signature(m mods, end uint32) string {
	return extract.CapSignature(strings.TrimSpace(strings.TrimSuffix(extract.OneLine(x.Src, m.start, end), ";")))
}

// typeDecl extracts a class, struct, record, interface or enum.
func (x *extractor) typeDecl(n int32, parent int32, doc string, inInterface bool) {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		return
	}
	name := x.Text(nameNode)
	k := x.Kind(n)
	tkind := snapshot.KindClass
	switch k {
	case "struct_declaration":
		tkind = snapshot.KindStruct
	case "interface_declaration":
		tkind = snapshot.KindInterface
	case "enum_declaration":
		tkind = snapshot.KindEnum
	case "record_declaration":
		tkind = snapshot.KindStruct
	}
	isStruct := k == "struct_declaration"
	m := x.modifiers(n)
	body := x.Field(n, fBody)
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	end := x.HeadEnd(n, body)
	topLevel := x.topLevel(parent)
	s := extract.Symbol{Name: name, Kind: tkind, Parent: parent, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(m, end), Doc: doc, Flags: exported(m, topLevel, inInterface)}
	if m.testClass {
		s.Flags |= snapshot.FlagTest
	}
	if !topLevel {
		// A nested type reached through its outer type (Outer.Inner.Make())
		// is itself: the resolver follows member chains through Type.
		s.Type = name
	}
	params, baseList := int32(-1), int32(-1)
	baseArgs := int32(-1) // arguments passed to the base's primary constructor
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "parameter_list":
			params = c
		case "base_list":
			baseList = c
		}
	}
	cls := &classCtx{Class: scope.Class[vtype]{Name: name, Fields: map[string]vtype{}}, test: m.testClass}
	if baseList >= 0 && tkind != snapshot.KindEnum {
		first := true
		for b := x.FirstNamed(baseList); b >= 0; b = x.NextNamed(b) {
			t := b
			switch x.Kind(t) {
			case "argument_list":
				continue
			case "primary_constructor_base_type":
				for a := range x.OfKind(t, "argument_list") {
					baseArgs = a
				}
				t = x.Field(t, fType)
			}
			bn := x.typeName(t)
			if bn == "" || x.external(bn) {
				first = false
				continue
			}
			switch {
			case tkind == snapshot.KindInterface:
				s.Extends = append(s.Extends, bn)
			case first && !isStruct && !looksInterface(bn):
				s.Extends = append(s.Extends, bn)
				cls.Base = bn
			default:
				s.Implements = append(s.Implements, bn)
			}
			first = false
		}
	}
	id := x.Add(s)
	cls.Sym = id
	x.attrRefs(m, id)
	if baseList >= 0 && tkind != snapshot.KindEnum {
		// Type arguments of the bases (IRepository<User>) are uses.
		for b := range x.OfKind(baseList, "generic_name") {
			for c := range x.OfKind(b, "type_argument_list") {
				x.typeRefs(c, id, extract.RefType)
			}
		}
	}
	x.constraints(n, id)

	// body is -1 when there is none: then there are no members.
	x.collectFields(body, cls)
	if params >= 0 {
		x.primaryConstructor(n, params, cls, tkind, m)
	}
	x.classes = append(x.classes, &cls.Class)
	defer x.classes.Pop()
	if baseArgs >= 0 {
		x.locals = map[string]vtype{}
		x.walk(baseArgs, id)
		x.locals = nil
	}
	if tkind == snapshot.KindEnum {
		for c := range x.OfKind(body, "enum_member_declaration") {
			nm := x.Field(c, fName)
			if nm < 0 {
				continue
			}
			em := x.modifiers(c)
			eid := x.Add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindConstant, Parent: id,
				Start: x.Line(c), End: x.EndLine(c), Signature: x.signature(em, x.N[c].End),
				Doc: x.docAt(c), Type: name, Flags: s.Flags & snapshot.FlagExported})
			if v := x.Field(c, fValue); v >= 0 {
				x.locals = map[string]vtype{}
				x.walk(v, eid)
				x.locals = nil
			}
		}
		return
	}
	x.members(body, cls, tkind == snapshot.KindInterface)
}

// topLevel reports whether a declaration under parent is outside any type:
// at the top of the file or in a namespace.
func (x *extractor) topLevel(parent int32) bool {
	return parent < 0 || x.R.Symbols[parent].Kind == snapshot.KindPackage
}

// looksInterface reports the .NET naming convention for interfaces: I
// followed by an upper-case letter (IFoo, not Item).
func looksInterface(t string) bool {
	t = extract.LastPart(t)
	return len(t) > 1 && t[0] == 'I' && t[1] >= 'A' && t[1] <= 'Z'
}

// constraints records the types named in `where T : IFoo` clauses.
func (x *extractor) constraints(n int32, from int32) {
	for c := range x.OfKind(n, "type_parameter_constraints_clause") {
		for tc := range x.OfKind(c, "type_parameter_constraint") {
			x.typeRefs(x.Field(tc, fType), from, extract.RefType)
		}
	}
}

// primaryConstructor handles `class C(IFoo foo)` and `record R(string Name)`:
// a constructor, and for records a property per parameter.
func (x *extractor) primaryConstructor(n, params int32, cls *classCtx, tkind snapshot.Kind, m mods) {
	isRecord := x.Kind(n) == "record_declaration"
	sig := extract.CapSignature(cls.Name + x.TextLine(params))
	ctor := x.Add(extract.Symbol{Name: cls.Name, Kind: snapshot.KindConstructor, Parent: cls.Sym,
		Start: x.Line(params), End: x.EndLine(params), Signature: sig,
		Flags: x.R.Symbols[cls.Sym].Flags & snapshot.FlagExported})
	for p := range x.OfKind(params, "parameter") {
		pn := x.Field(p, fName)
		pt := x.Field(p, fType)
		if pn < 0 {
			continue
		}
		pname := x.Text(pn)
		vt := x.varType(pt)
		if _, ok := cls.Fields[pname]; !ok {
			cls.Fields[pname] = vt
		}
		x.typeRefs(pt, ctor, extract.RefTypeHint)
		if isRecord {
			fid := x.Add(extract.Symbol{Name: pname, Kind: snapshot.KindField, Parent: cls.Sym,
				Start: x.Line(p), End: x.EndLine(p),
				Signature: x.TextLine(p), Type: x.typeName(pt),
				Flags: snapshot.FlagExported})
			x.typeRefs(pt, fid, extract.RefType)
		}
	}
}

// collectFields notes the fields and properties of a class body (the
// members of body, or of a preprocessor branch in it) before its methods
// are read, since a method may use a field declared below it.
func (x *extractor) collectFields(body int32, cls *classCtx) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration", "event_field_declaration":
			for d := range x.OfKind(c, "variable_declaration") {
				vt := x.varType(x.Field(d, fType))
				for v := range x.OfKind(d, "variable_declarator") {
					if nm := x.Field(v, fName); nm >= 0 {
						cls.Fields[x.Text(nm)] = vt
					}
				}
			}
		case "property_declaration", "event_declaration":
			if nm := x.Field(c, fName); nm >= 0 {
				cls.Fields[x.Text(nm)] = x.varType(x.Field(c, fType))
			}
		case "method_declaration":
			if !cls.test {
				for a := range x.OfKind(c, "attribute_list") {
					for at := x.FirstNamed(a); at >= 0; at = x.NextNamed(at) {
						if x.Kind(at) == "attribute" && testAttributes[attrName(x.typeName(x.Field(at, fName)))] {
							cls.test = true
						}
					}
				}
			}
		case "preproc_if", "preproc_else", "preproc_elif":
			x.collectFields(c, cls)
		}
	}
}

func (x *extractor) noteTest(name string) {
	if _, ok := testNames.Load(name); !ok {
		testNames.Store(name, true)
	}
}

// members extracts the members of a class, struct, record or interface:
// those of body, or of a preprocessor branch in it.
func (x *extractor) members(body int32, cls *classCtx, inInterface bool) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		k := x.Kind(c)
		switch k {
		case "field_declaration", "event_field_declaration":
			x.field(c, cls, x.docAt(c), inInterface)
		case "property_declaration", "event_declaration", "indexer_declaration":
			x.property(c, cls, x.docAt(c), inInterface)
		case "method_declaration", "constructor_declaration", "destructor_declaration",
			"operator_declaration", "conversion_operator_declaration":
			x.method(c, cls, x.docAt(c), inInterface)
		case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
			"record_declaration":
			x.typeDecl(c, cls.Sym, x.docAt(c), inInterface)
		case "delegate_declaration":
			x.delegate(c, cls.Sym, x.docAt(c), inInterface)
		case "preproc_if", "preproc_else", "preproc_elif":
			x.members(c, cls, inInterface)
		}
	}
}

func (x *extractor) field(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	decl := int32(-1)
	for c := range x.OfKind(n, "variable_declaration") {
		decl = c
	}
	if decl < 0 {
		return
	}
	typ := x.Field(decl, fType)
	tname := x.typeName(typ)
	sk := snapshot.KindField
	if m.isConst {
		sk = snapshot.KindConstant
	}
	sig := x.signature(m, x.N[n].End)
	for d := range x.OfKind(decl, "variable_declarator") {
		nm := x.Field(d, fName)
		if nm < 0 {
			continue
		}
		id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: sk, Parent: cls.Sym, Start: x.Line(n),
			End: x.EndLine(n), Signature: sig, Doc: doc, Type: tname, Flags: exported(m, false, inInterface)})
		x.typeRefs(typ, id, extract.RefType)
		x.attrRefs(m, id)
		x.locals = map[string]vtype{}
		for v := x.FirstNamed(d); v >= 0; v = x.NextNamed(v) {
			if x.N[v].Start > x.N[nm].Start {
				x.value(v, x.varType(typ), id)
			}
		}
		x.locals = nil
	}
}

// value walks the initializer of a variable of declared type vt: `new()`
// calls vt's constructor.
func (x *extractor) value(v int32, vt vtype, from int32) {
	if x.Kind(v) == "implicit_object_creation_expression" && vt.name != "" && vt.name != "[]" {
		x.ctorCall(vt.name, v, from)
	}
	x.walk(v, from)
}

func (x *extractor) property(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	typ := x.Field(n, fType)
	name := ""
	sk := snapshot.KindField
	if x.Kind(n) == "indexer_declaration" {
		name, sk = "this[]", snapshot.KindMethod
	} else if nm := x.Field(n, fName); nm >= 0 {
		name = x.Text(nm)
	}
	if name == "" {
		return
	}
	acc := x.Field(n, fAccessors)
	val := x.Field(n, fValue)
	end := x.N[n].End
	if acc >= 0 {
		end = x.N[acc].Start
	} else if val >= 0 {
		end = x.N[val].Start
		if x.Kind(val) != "arrow_expression_clause" {
			// An initializer: `= value;` is not part of the signature.
			end = x.N[n].End
		}
	}
	sig := x.signature(m, end)
	if acc >= 0 {
		var parts []string
		for a := range x.OfKind(acc, "accessor_declaration") {
			am := x.modifiers(a)
			an := x.Field(a, fName)
			if an < 0 {
				continue
			}
			p := x.Text(an)
			if am.access {
				p = x.signature(am, x.N[an].End)
			}
			parts = append(parts, p+";")
		}
		sig = strings.TrimSpace(sig + " { " + strings.Join(parts, " ") + " }")
		if x.N[acc].End < x.N[n].End && val >= 0 && x.Kind(val) != "arrow_expression_clause" {
			sig = extract.CapSignature(sig + " = " + x.TextLine(val))
		}
	}
	id := x.Add(extract.Symbol{Name: name, Kind: sk, Parent: cls.Sym, Start: x.Line(n), End: x.EndLine(n),
		Signature: sig, Doc: doc, Type: x.typeName(typ), Flags: exported(m, false, inInterface)})
	x.attrRefs(m, id)
	x.locals = map[string]vtype{}
	if sk == snapshot.KindMethod {
		x.typeRefs(typ, id, extract.RefTypeHint)
		x.params(x.Field(n, fParameters), id)
	} else {
		x.typeRefs(typ, id, extract.RefType)
	}
	for a := range x.OfKind(acc, "accessor_declaration") {
		if b := x.Field(a, fBody); b >= 0 {
			x.walk(b, id)
		}
	}
	if val >= 0 {
		x.value(val, x.varType(typ), id)
	}
	x.locals = nil
}

func (x *extractor) method(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	k := x.Kind(n)
	name := ""
	sk := snapshot.KindMethod
	ret := int32(-1)
	switch k {
	case "method_declaration":
		name = x.Text(x.Field(n, fName))
		ret = x.Field(n, fReturns)
	case "constructor_declaration":
		name, sk = cls.Name, snapshot.KindConstructor
	case "destructor_declaration":
		name = "Finalize"
	case "operator_declaration":
		name = "operator" + x.Text(x.Field(n, fOperator))
		ret = x.Field(n, fType)
	case "conversion_operator_declaration":
		ret = x.Field(n, fType)
		name = "op_Implicit"
		for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
			if x.Kind(c) == "explicit" {
				name = "op_Explicit"
				break
			}
		}
	}
	if name == "" {
		return
	}
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	body := x.Field(n, fBody)
	end := x.HeadEnd(n, body)
	s := extract.Symbol{Name: name, Kind: sk, Parent: cls.Sym, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(m, end), Doc: doc, Type: x.resultType(ret), Flags: exported(m, false, inInterface)}
	if m.test {
		s.Flags |= snapshot.FlagTest
		x.noteTest(name)
	} else if cls.test {
		x.noteTest(name)
	}
	id := x.Add(s)
	x.attrRefs(m, id)
	x.constraints(n, id)
	x.locals = map[string]vtype{}
	x.params(x.Field(n, fParameters), id)
	if ret >= 0 {
		x.typeRefs(ret, id, extract.RefTypeHint)
	}
	for c := range x.OfKind(n, "constructor_initializer") {
		x.ctorInitializer(c, cls, id)
	}
	if body >= 0 {
		x.walk(body, id)
	}
	x.locals = nil
}

// ctorInitializer handles `: base(...)` and `: this(...)`.
func (x *extractor) ctorInitializer(n int32, cls *classCtx, from int32) {
	isBase := false
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		if x.Kind(c) == "base" {
			isBase = true
		}
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	switch {
	case isBase && cls.Base != "":
		ref.Name = extract.LastPart(cls.Base)
		ref.Qual, ref.QualType = ref.Name, cls.Base
		x.AddRef(ref)
	case !isBase:
		ref.Name, ref.Qual = cls.Name, "this"
		x.AddRef(ref)
	}
	x.walkChildren(n, from)
}

// params records parameter types as hints of the callable and the
// parameters as typed locals.
func (x *extractor) params(pl int32, from int32) {
	for p := range x.OfKind(pl, "parameter") {
		typ := x.Field(p, fType)
		nm := x.Field(p, fName)
		if nm >= 0 && x.locals != nil {
			x.locals[x.Text(nm)] = x.varType(typ)
		}
		x.typeRefs(typ, from, extract.RefTypeHint)
		if nm < 0 || x.locals == nil {
			continue
		}
		// A default value.
		for c := x.FirstNamed(p); c >= 0; c = x.NextNamed(c) {
			if x.N[c].Start > x.N[nm].Start {
				x.walk(c, from)
			}
		}
	}
}

func (x *extractor) delegate(n int32, parent int32, doc string, inInterface bool) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	topLevel := x.topLevel(parent)
	ret := x.Field(n, fType)
	id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindTypeAlias, Parent: parent,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.signature(m, x.N[n].End), Doc: doc,
		Type: x.resultType(ret), Flags: exported(m, topLevel, inInterface)})
	saved := x.locals
	x.locals = nil
	x.params(x.Field(n, fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.locals = saved
}

// localFunction extracts a local function: a function nested in the
// callable (or the top-level statements) it is declared in.
func (x *extractor) localFunction(n int32, parent int32) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer x.tparams.Cut(mark)
	body := x.Field(n, fBody)
	end := x.HeadEnd(n, body)
	ret := x.Field(n, fType)
	id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindFunction, Parent: parent,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.signature(m, end), Doc: x.docBefore(n),
		Type: x.resultType(ret)})
	saved := x.locals
	x.locals = make(map[string]vtype, len(saved)+4)
	for k, v := range saved {
		x.locals[k] = v
	}
	x.params(x.Field(n, fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.constraints(n, id)
	if body >= 0 {
		x.walk(body, id)
	}
	x.locals = saved
}
