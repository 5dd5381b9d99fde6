package csharp

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
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
	m := mods{start: x.t.N[n].Start}
	started := false
loop:
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case "attribute_list":
			for a := x.first(c); a >= 0; a = x.next(a) {
				if x.kind(a) != "attribute" {
					continue
				}
				m.attrs = append(m.attrs, a)
				name := attrName(x.typeName(x.fld(a, fName)))
				if testAttributes[name] {
					m.test = true
				}
				if testClassAttributes[name] {
					m.testClass = true
				}
			}
			m.start = x.t.N[c].End
			continue
		case "comment":
			if !started {
				m.start = x.t.N[c].End
			}
			continue
		case "modifier":
			switch x.text(c) {
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
	if m.start > x.t.N[n].Start {
		for c := x.t.FirstChild(n); c >= 0; c = x.t.N[c].Next {
			if x.t.N[c].Start >= m.start && x.kind(c) != "comment" {
				m.start = x.t.N[c].Start
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
		t := x.typeName(x.fld(a, fName))
		name := attrName(t)
		if name == "" || ignoredAttributes[name] || x.external(t) {
			continue
		}
		qual := ""
		if j := strings.LastIndexByte(t, '.'); j >= 0 {
			qual = t[:j]
		}
		x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: extract.RefType, Name: name + "Attribute",
			Qual: qual, Line: x.t.Line(a)})
		for c := x.first(a); c >= 0; c = x.next(c) {
			if x.kind(c) == "attribute_argument_list" {
				x.walk(c, from)
			}
		}
	}
}

// signature is the declaration from its first modifier or keyword (past
// attributes) up to end, on one line.
func (x *extractor) signature(m mods, end uint32) string {
	start := m.start
	if end > uint32(len(x.t.Src)) || start > end {
		return ""
	}
	s := strings.TrimSpace(strings.TrimSuffix(strings.Join(strings.Fields(string(x.t.Src[start:end])), " "), ";"))
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return s
}

// docAt is the doc comment of declaration n: the comments right above it
// among its named siblings.
func (x *extractor) docAt(n int32) string {
	line := x.t.Line(n)
	top, count := n, 0 // the first comment taken, how many
	for {
		p := x.prev(top)
		if p < 0 || x.kind(p) != "comment" || x.t.EndLine(p)+1 < line {
			break
		}
		// A comment trailing the previous declaration's last line.
		if pp := x.prev(p); pp >= 0 && x.kind(pp) != "comment" && x.t.EndLine(pp) == x.t.Line(p) {
			break
		}
		line = x.t.Line(p)
		top = p
		count++
		if count > 80 {
			break
		}
	}
	if count == 0 {
		return ""
	}
	parts := make([]string, 0, count)
	for c := top; c != n; c = x.next(c) {
		parts = append(parts, x.text(c))
	}
	return cleanDoc(parts)
}

// docBefore finds the doc comment of a node outside a declaration list
// (a local function) through its previous siblings.
func (x *extractor) docBefore(n int32) string {
	var parts []string
	line := x.t.Line(n)
	for p := x.t.N[n].Prev; p >= 0 && x.kind(p) == "comment" && x.t.EndLine(p)+1 >= line; p = x.t.N[p].Prev {
		line = x.t.Line(p)
		parts = append(parts, x.text(p))
		if len(parts) > 40 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanDoc(parts)
}

// cleanDoc strips comment markers and, from XML doc comments, the tags:
// <see cref="T"/> becomes T, <param name="x"> becomes "x: ".
func cleanDoc(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	xml := false
	var lines []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case strings.HasPrefix(p, "///"):
			xml = true
			lines = append(lines, strings.TrimPrefix(p, "///"))
		case strings.HasPrefix(p, "/*"):
			if strings.HasPrefix(p, "/**") {
				xml = true
			}
			lines = append(lines, extract.CleanComment(p, ""))
		case strings.HasPrefix(p, "//"):
			lines = append(lines, strings.TrimPrefix(p, "//"))
		default:
			lines = append(lines, p)
		}
	}
	s := strings.Join(lines, "\n")
	if xml && strings.Contains(s, "<") {
		s = stripXML(s)
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

var entities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func stripXML(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '<' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(tagText(s[i+1 : i+j]))
		i += j + 1
	}
	return entities.Replace(b.String())
}

// tagText is what an XML doc tag stands for in plain text.
func tagText(tag string) string {
	closing := strings.HasPrefix(tag, "/")
	tag = strings.TrimSuffix(strings.TrimPrefix(tag, "/"), "/")
	name, attrs, _ := strings.Cut(strings.TrimSpace(tag), " ")
	val := ""
	for _, a := range []string{"cref=", "name=", "langword=", "href="} {
		if i := strings.Index(attrs, a); i >= 0 {
			v := attrs[i+len(a):]
			if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
				q := v[0]
				v = v[1:]
				if k := strings.IndexByte(v, q); k >= 0 {
					v = v[:k]
				}
			}
			val = v
			break
		}
	}
	switch strings.ToLower(name) {
	case "see", "seealso":
		if closing {
			return ""
		}
		if i := strings.IndexByte(val, ':'); i >= 0 && i < 2 {
			val = val[i+1:]
		}
		if i := strings.IndexAny(val, "({"); i >= 0 {
			val = val[:i]
		}
		return extract.LastPart(val)
	case "paramref", "typeparamref":
		return val
	case "param", "typeparam":
		if closing {
			return "\n"
		}
		return "\n" + val + ": "
	case "returns":
		if closing {
			return "\n"
		}
		return "\nReturns: "
	case "exception":
		if closing {
			return "\n"
		}
		return "\nThrows " + extract.LastPart(strings.TrimPrefix(val, "T:")) + ": "
	case "summary", "remarks", "para", "br", "example", "value", "list", "item", "code":
		return "\n"
	}
	return ""
}

// typeDecl extracts a class, struct, record, interface or enum.
func (x *extractor) typeDecl(n int32, parent int32, doc string, inInterface bool) {
	nameNode := x.fld(n, fName)
	if nameNode < 0 {
		return
	}
	name := x.text(nameNode)
	k := x.kind(n)
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
	body := x.fld(n, fBody)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	end := x.t.N[n].End
	if body >= 0 {
		end = x.t.N[body].Start
	}
	topLevel := parent < 0 || x.r.Symbols[parent].Kind == snapshot.KindPackage
	s := extract.Symbol{Name: name, Kind: tkind, Parent: parent, Start: x.t.Line(n), End: x.t.EndLine(n),
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
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case "parameter_list":
			params = c
		case "base_list":
			baseList = c
		}
	}
	cls := &classCtx{name: name, fields: map[string]vtype{}, test: m.testClass}
	if baseList >= 0 && tkind != snapshot.KindEnum {
		first := true
		for b := x.first(baseList); b >= 0; b = x.next(b) {
			t := b
			switch x.kind(t) {
			case "argument_list":
				continue
			case "primary_constructor_base_type":
				for a := x.first(t); a >= 0; a = x.next(a) {
					if x.kind(a) == "argument_list" {
						baseArgs = a
					}
				}
				t = x.fld(t, fType)
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
				cls.base = bn
			default:
				s.Implements = append(s.Implements, bn)
			}
			first = false
		}
	}
	id := x.add(s)
	cls.sym = id
	x.attrRefs(m, id)
	if baseList >= 0 && tkind != snapshot.KindEnum {
		// Type arguments of the bases (IRepository<User>) are uses.
		for b := x.first(baseList); b >= 0; b = x.next(b) {
			if x.kind(b) == "generic_name" {
				for c := x.first(b); c >= 0; c = x.next(c) {
					if x.kind(c) == "type_argument_list" {
						x.typeRefs(c, id, extract.RefType)
					}
				}
			}
		}
	}
	x.constraints(n, id)

	// body is -1 when there is none: then there are no members.
	x.collectFields(body, cls)
	if params >= 0 {
		x.primaryConstructor(n, params, cls, tkind, m)
	}
	x.classes = append(x.classes, cls)
	defer func() { x.classes = x.classes[:len(x.classes)-1] }()
	if baseArgs >= 0 {
		x.locals = map[string]vtype{}
		x.walk(baseArgs, id)
		x.locals = nil
	}
	if tkind == snapshot.KindEnum {
		for c := x.first(body); c >= 0; c = x.next(c) {
			if x.kind(c) != "enum_member_declaration" {
				continue
			}
			nm := x.fld(c, fName)
			if nm < 0 {
				continue
			}
			em := x.modifiers(c)
			eid := x.add(extract.Symbol{Name: x.text(nm), Kind: snapshot.KindConstant, Parent: id,
				Start: x.t.Line(c), End: x.t.EndLine(c), Signature: x.signature(em, x.t.N[c].End),
				Doc: x.docAt(c), Type: name, Flags: s.Flags & snapshot.FlagExported})
			if v := x.fld(c, fValue); v >= 0 {
				x.locals = map[string]vtype{}
				x.walk(v, eid)
				x.locals = nil
			}
		}
		return
	}
	x.members(body, cls, tkind == snapshot.KindInterface)
}

// looksInterface reports the .NET naming convention for interfaces: I
// followed by an upper-case letter (IFoo, not Item).
func looksInterface(t string) bool {
	t = extract.LastPart(t)
	return len(t) > 1 && t[0] == 'I' && t[1] >= 'A' && t[1] <= 'Z'
}

// constraints records the types named in `where T : IFoo` clauses.
func (x *extractor) constraints(n int32, from int32) {
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) != "type_parameter_constraints_clause" {
			continue
		}
		for tc := x.first(c); tc >= 0; tc = x.next(tc) {
			if x.kind(tc) == "type_parameter_constraint" {
				x.typeRefs(x.fld(tc, fType), from, extract.RefType)
			}
		}
	}
}

// primaryConstructor handles `class C(IFoo foo)` and `record R(string Name)`:
// a constructor, and for records a property per parameter.
func (x *extractor) primaryConstructor(n, params int32, cls *classCtx, tkind snapshot.Kind, m mods) {
	isRecord := x.kind(n) == "record_declaration"
	sig := cls.name + strings.Join(strings.Fields(x.text(params)), " ")
	if len(sig) > 240 {
		sig = sig[:240] + "…"
	}
	ctor := x.add(extract.Symbol{Name: cls.name, Kind: snapshot.KindConstructor, Parent: cls.sym,
		Start: x.t.Line(params), End: x.t.EndLine(params), Signature: sig,
		Flags: x.r.Symbols[cls.sym].Flags & snapshot.FlagExported})
	for p := x.first(params); p >= 0; p = x.next(p) {
		if x.kind(p) != "parameter" {
			continue
		}
		pn := x.fld(p, fName)
		pt := x.fld(p, fType)
		if pn < 0 {
			continue
		}
		pname := x.text(pn)
		vt := x.varType(pt)
		if _, ok := cls.fields[pname]; !ok {
			cls.fields[pname] = vt
		}
		x.typeRefs(pt, ctor, extract.RefTypeHint)
		if isRecord {
			fid := x.add(extract.Symbol{Name: pname, Kind: snapshot.KindField, Parent: cls.sym,
				Start: x.t.Line(p), End: x.t.EndLine(p),
				Signature: strings.Join(strings.Fields(x.text(p)), " "), Type: x.typeName(pt),
				Flags: snapshot.FlagExported})
			x.typeRefs(pt, fid, extract.RefType)
		}
	}
}

// collectFields notes the fields and properties of a class body (the
// members of body, or of a preprocessor branch in it) before its methods
// are read, since a method may use a field declared below it.
func (x *extractor) collectFields(body int32, cls *classCtx) {
	for c := x.first(body); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case "field_declaration", "event_field_declaration":
			for d := x.first(c); d >= 0; d = x.next(d) {
				if x.kind(d) != "variable_declaration" {
					continue
				}
				vt := x.varType(x.fld(d, fType))
				for v := x.first(d); v >= 0; v = x.next(v) {
					if x.kind(v) == "variable_declarator" {
						if nm := x.fld(v, fName); nm >= 0 {
							cls.fields[x.text(nm)] = vt
						}
					}
				}
			}
		case "property_declaration", "event_declaration":
			if nm := x.fld(c, fName); nm >= 0 {
				cls.fields[x.text(nm)] = x.varType(x.fld(c, fType))
			}
		case "method_declaration":
			if !cls.test {
				for a := x.first(c); a >= 0; a = x.next(a) {
					if x.kind(a) != "attribute_list" {
						continue
					}
					for at := x.first(a); at >= 0; at = x.next(at) {
						if x.kind(at) == "attribute" && testAttributes[attrName(x.typeName(x.fld(at, fName)))] {
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
	for c := x.first(body); c >= 0; c = x.next(c) {
		k := x.kind(c)
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
			x.typeDecl(c, cls.sym, x.docAt(c), inInterface)
		case "delegate_declaration":
			x.delegate(c, cls.sym, x.docAt(c), inInterface)
		case "preproc_if", "preproc_else", "preproc_elif":
			x.members(c, cls, inInterface)
		}
	}
}

func (x *extractor) field(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	decl := int32(-1)
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) == "variable_declaration" {
			decl = c
		}
	}
	if decl < 0 {
		return
	}
	typ := x.fld(decl, fType)
	tname := x.typeName(typ)
	sk := snapshot.KindField
	if m.isConst {
		sk = snapshot.KindConstant
	}
	sig := x.signature(m, x.t.N[n].End)
	for d := x.first(decl); d >= 0; d = x.next(d) {
		if x.kind(d) != "variable_declarator" {
			continue
		}
		nm := x.fld(d, fName)
		if nm < 0 {
			continue
		}
		id := x.add(extract.Symbol{Name: x.text(nm), Kind: sk, Parent: cls.sym, Start: x.t.Line(n),
			End: x.t.EndLine(n), Signature: sig, Doc: doc, Type: tname, Flags: exported(m, false, inInterface)})
		x.typeRefs(typ, id, extract.RefType)
		x.attrRefs(m, id)
		x.locals = map[string]vtype{}
		for v := x.first(d); v >= 0; v = x.next(v) {
			if x.t.N[v].Start > x.t.N[nm].Start {
				x.value(v, x.varType(typ), id)
			}
		}
		x.locals = nil
	}
}

// value walks the initializer of a variable of declared type vt: `new()`
// calls vt's constructor.
func (x *extractor) value(v int32, vt vtype, from int32) {
	if x.kind(v) == "implicit_object_creation_expression" && vt.name != "" && vt.name != "[]" {
		x.ctorCall(vt.name, v, from)
	}
	x.walk(v, from)
}

func (x *extractor) property(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	typ := x.fld(n, fType)
	name := ""
	sk := snapshot.KindField
	if x.kind(n) == "indexer_declaration" {
		name, sk = "this[]", snapshot.KindMethod
	} else if nm := x.fld(n, fName); nm >= 0 {
		name = x.text(nm)
	}
	if name == "" {
		return
	}
	acc := x.fld(n, fAccessors)
	val := x.fld(n, fValue)
	end := x.t.N[n].End
	if acc >= 0 {
		end = x.t.N[acc].Start
	} else if val >= 0 {
		end = x.t.N[val].Start
		if x.kind(val) != "arrow_expression_clause" {
			// An initializer: `= value;` is not part of the signature.
			end = x.t.N[n].End
		}
	}
	sig := x.signature(m, end)
	if acc >= 0 {
		var parts []string
		for a := x.first(acc); a >= 0; a = x.next(a) {
			if x.kind(a) != "accessor_declaration" {
				continue
			}
			am := x.modifiers(a)
			an := x.fld(a, fName)
			if an < 0 {
				continue
			}
			p := x.text(an)
			if am.access {
				p = x.signature(am, x.t.N[an].End)
			}
			parts = append(parts, p+";")
		}
		sig = strings.TrimSpace(sig + " { " + strings.Join(parts, " ") + " }")
		if x.t.N[acc].End < x.t.N[n].End && val >= 0 && x.kind(val) != "arrow_expression_clause" {
			sig += " = " + strings.Join(strings.Fields(x.text(val)), " ")
			if len(sig) > 240 {
				sig = sig[:240] + "…"
			}
		}
	}
	id := x.add(extract.Symbol{Name: name, Kind: sk, Parent: cls.sym, Start: x.t.Line(n), End: x.t.EndLine(n),
		Signature: sig, Doc: doc, Type: x.typeName(typ), Flags: exported(m, false, inInterface)})
	x.attrRefs(m, id)
	x.locals = map[string]vtype{}
	if sk == snapshot.KindMethod {
		x.typeRefs(typ, id, extract.RefTypeHint)
		x.params(x.fld(n, fParameters), id)
	} else {
		x.typeRefs(typ, id, extract.RefType)
	}
	for a := x.first(acc); a >= 0; a = x.next(a) {
		if x.kind(a) == "accessor_declaration" {
			if b := x.fld(a, fBody); b >= 0 {
				x.walk(b, id)
			}
		}
	}
	if val >= 0 {
		x.value(val, x.varType(typ), id)
	}
	x.locals = nil
}

func (x *extractor) method(n int32, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	k := x.kind(n)
	name := ""
	sk := snapshot.KindMethod
	ret := int32(-1)
	switch k {
	case "method_declaration":
		name = x.text(x.fld(n, fName))
		ret = x.fld(n, fReturns)
	case "constructor_declaration":
		name, sk = cls.name, snapshot.KindConstructor
	case "destructor_declaration":
		name = "Finalize"
	case "operator_declaration":
		name = "operator" + x.text(x.fld(n, fOperator))
		ret = x.fld(n, fType)
	case "conversion_operator_declaration":
		ret = x.fld(n, fType)
		name = "op_Implicit"
		for c := x.t.FirstChild(n); c >= 0; c = x.t.N[c].Next {
			if x.kind(c) == "explicit" {
				name = "op_Explicit"
				break
			}
		}
	}
	if name == "" {
		return
	}
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	body := x.fld(n, fBody)
	end := x.t.N[n].End
	if body >= 0 {
		end = x.t.N[body].Start
	}
	s := extract.Symbol{Name: name, Kind: sk, Parent: cls.sym, Start: x.t.Line(n), End: x.t.EndLine(n),
		Signature: x.signature(m, end), Doc: doc, Type: x.resultType(ret), Flags: exported(m, false, inInterface)}
	if m.test {
		s.Flags |= snapshot.FlagTest
		x.noteTest(name)
	} else if cls.test {
		x.noteTest(name)
	}
	id := x.add(s)
	x.attrRefs(m, id)
	x.constraints(n, id)
	x.locals = map[string]vtype{}
	x.params(x.fld(n, fParameters), id)
	if ret >= 0 {
		x.typeRefs(ret, id, extract.RefTypeHint)
	}
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) == "constructor_initializer" {
			x.ctorInitializer(c, cls, id)
		}
	}
	if body >= 0 {
		x.walk(body, id)
	}
	x.locals = nil
}

// ctorInitializer handles `: base(...)` and `: this(...)`.
func (x *extractor) ctorInitializer(n int32, cls *classCtx, from int32) {
	isBase := false
	for c := x.t.FirstChild(n); c >= 0; c = x.t.N[c].Next {
		if x.kind(c) == "base" {
			isBase = true
		}
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.t.Line(n)}
	switch {
	case isBase && cls.base != "":
		ref.Name = extract.LastPart(cls.base)
		ref.Qual, ref.QualType = ref.Name, cls.base
		x.r.Refs = append(x.r.Refs, ref)
	case !isBase:
		ref.Name, ref.Qual = cls.name, "this"
		x.r.Refs = append(x.r.Refs, ref)
	}
	x.walkChildren(n, from)
}

// params records parameter types as hints of the callable and the
// parameters as typed locals.
func (x *extractor) params(pl int32, from int32) {
	for p := x.first(pl); p >= 0; p = x.next(p) {
		if x.kind(p) != "parameter" {
			continue
		}
		typ := x.fld(p, fType)
		nm := x.fld(p, fName)
		if nm >= 0 && x.locals != nil {
			x.locals[x.text(nm)] = x.varType(typ)
		}
		x.typeRefs(typ, from, extract.RefTypeHint)
		if nm < 0 || x.locals == nil {
			continue
		}
		// A default value.
		for c := x.first(p); c >= 0; c = x.next(c) {
			if x.t.N[c].Start > x.t.N[nm].Start {
				x.walk(c, from)
			}
		}
	}
}

func (x *extractor) delegate(n int32, parent int32, doc string, inInterface bool) {
	nm := x.fld(n, fName)
	if nm < 0 {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	topLevel := parent < 0 || x.r.Symbols[parent].Kind == snapshot.KindPackage
	ret := x.fld(n, fType)
	id := x.add(extract.Symbol{Name: x.text(nm), Kind: snapshot.KindTypeAlias, Parent: parent,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.signature(m, x.t.N[n].End), Doc: doc,
		Type: x.resultType(ret), Flags: exported(m, topLevel, inInterface)})
	saved := x.locals
	x.locals = nil
	x.params(x.fld(n, fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.locals = saved
}

// localFunction extracts a local function: a function nested in the
// callable (or the top-level statements) it is declared in.
func (x *extractor) localFunction(n int32, parent int32) {
	nm := x.fld(n, fName)
	if nm < 0 {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	body := x.fld(n, fBody)
	end := x.t.N[n].End
	if body >= 0 {
		end = x.t.N[body].Start
	}
	ret := x.fld(n, fType)
	id := x.add(extract.Symbol{Name: x.text(nm), Kind: snapshot.KindFunction, Parent: parent,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.signature(m, end), Doc: x.docBefore(n),
		Type: x.resultType(ret)})
	saved := x.locals
	x.locals = make(map[string]vtype, len(saved)+4)
	for k, v := range saved {
		x.locals[k] = v
	}
	x.params(x.fld(n, fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.constraints(n, id)
	if body >= 0 {
		x.walk(body, id)
	}
	x.locals = saved
}
