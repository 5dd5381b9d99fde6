package csharp

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// mods are the modifiers and attributes of a declaration.
type mods struct {
	public, protected, internal, private, isConst, access bool
	test, testClass                                       bool
	attrs                                                 []sitter.Node // attribute nodes
	start                                                 uint          // first byte past the attributes
}

func (x *extractor) modifiers(n *sitter.Node) mods {
	m := mods{start: n.StartByte()}
	started := false
loop:
	for _, c := range x.kids(n) {
		switch kind(&c) {
		case "attribute_list":
			for _, a := range x.kids(&c) {
				if kind(&a) != "attribute" {
					continue
				}
				m.attrs = append(m.attrs, a)
				name := attrName(x.typeName(a.ChildByFieldId(fName)))
				if testAttributes[name] {
					m.test = true
				}
				if testClassAttributes[name] {
					m.testClass = true
				}
			}
			m.start = c.EndByte()
			continue
		case "comment":
			if !started {
				m.start = c.EndByte()
			}
			continue
		case "modifier":
			switch x.f.Text(&c) {
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
	if m.start > n.StartByte() {
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c.StartByte() >= m.start && kind(c) != "comment" {
				m.start = c.StartByte()
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
	for i := range m.attrs {
		a := &m.attrs[i]
		t := x.typeName(a.ChildByFieldId(fName))
		name := attrName(t)
		if name == "" || ignoredAttributes[name] || x.external(t) {
			continue
		}
		qual := ""
		if j := strings.LastIndexByte(t, '.'); j >= 0 {
			qual = t[:j]
		}
		x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: extract.RefType, Name: name + "Attribute",
			Qual: qual, Line: extract.Line(a)})
		for _, c := range x.kids(a) {
			if kind(&c) == "attribute_argument_list" {
				x.walk(&c, from)
			}
		}
	}
}

// signature is the declaration from its first modifier or keyword (past
// attributes) up to end, on one line.
func (x *extractor) signature(m mods, end uint) string {
	start := m.start
	if end > uint(len(x.f.Src)) || start > end {
		return ""
	}
	s := strings.TrimSpace(strings.TrimSuffix(strings.Join(strings.Fields(string(x.f.Src[start:end])), " "), ";"))
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return s
}

// docAt is the doc comment of declaration ks[i]: the comments right above
// it among its siblings.
func (x *extractor) docAt(ks []sitter.Node, i int) string {
	line := extract.Line(&ks[i])
	j := i
	for j > 0 {
		p := &ks[j-1]
		if kind(p) != "comment" || extract.EndLine(p)+1 < line {
			break
		}
		// A comment trailing the previous declaration's last line.
		if j > 1 && kind(&ks[j-2]) != "comment" && extract.EndLine(&ks[j-2]) == extract.Line(p) {
			break
		}
		line = extract.Line(p)
		j--
		if i-j > 80 {
			break
		}
	}
	if j == i {
		return ""
	}
	parts := make([]string, 0, i-j)
	for k := j; k < i; k++ {
		parts = append(parts, x.f.Text(&ks[k]))
	}
	return cleanDoc(parts)
}

// docBefore finds the doc comment of a node outside a declaration list
// (a local function) through its previous siblings.
func (x *extractor) docBefore(n *sitter.Node) string {
	var parts []string
	line := extract.Line(n)
	for p := n.PrevSibling(); p != nil && kind(p) == "comment" && extract.EndLine(p)+1 >= line; p = p.PrevSibling() {
		line = extract.Line(p)
		parts = append(parts, x.f.Text(p))
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
func (x *extractor) typeDecl(n *sitter.Node, parent int32, doc string, inInterface bool) {
	nameNode := n.ChildByFieldId(fName)
	if nameNode == nil {
		return
	}
	name := x.f.Text(nameNode)
	k := kind(n)
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
	body := n.ChildByFieldId(fBody)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	topLevel := parent < 0 || x.r.Symbols[parent].Kind == snapshot.KindPackage
	s := extract.Symbol{Name: name, Kind: tkind, Parent: parent, Start: extract.Line(n), End: extract.EndLine(n),
		Signature: x.signature(m, end), Doc: doc, Flags: exported(m, topLevel, inInterface)}
	if m.testClass {
		s.Flags |= snapshot.FlagTest
	}
	if !topLevel {
		// A nested type reached through its outer type (Outer.Inner.Make())
		// is itself: the resolver follows member chains through Type.
		s.Type = name
	}
	var params, baseList *sitter.Node
	var baseArgs *sitter.Node // arguments passed to the base's primary constructor
	for _, c := range x.kids(n) {
		switch kind(&c) {
		case "parameter_list":
			c := c
			params = &c
		case "base_list":
			c := c
			baseList = &c
		}
	}
	cls := &classCtx{name: name, fields: map[string]vtype{}, test: m.testClass}
	if baseList != nil && tkind != snapshot.KindEnum {
		first := true
		for _, b := range x.kids(baseList) {
			t := &b
			switch kind(t) {
			case "argument_list":
				continue
			case "primary_constructor_base_type":
				for _, a := range x.kids(t) {
					if kind(&a) == "argument_list" {
						a := a
						baseArgs = &a
					}
				}
				t = t.ChildByFieldId(fType)
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
	if baseList != nil && tkind != snapshot.KindEnum {
		// Type arguments of the bases (IRepository<User>) are uses.
		for _, b := range x.kids(baseList) {
			if kind(&b) == "generic_name" {
				for _, c := range x.kids(&b) {
					if kind(&c) == "type_argument_list" {
						x.typeRefs(&c, id, extract.RefType)
					}
				}
			}
		}
	}
	x.constraints(n, id)

	var members []sitter.Node
	if body != nil {
		members = x.kids(body)
	}
	x.collectFields(members, cls)
	if params != nil {
		x.primaryConstructor(n, params, cls, tkind, m)
	}
	x.classes = append(x.classes, cls)
	defer func() { x.classes = x.classes[:len(x.classes)-1] }()
	if baseArgs != nil {
		x.locals = map[string]vtype{}
		x.walk(baseArgs, id)
		x.locals = nil
	}
	if tkind == snapshot.KindEnum {
		for i := range members {
			c := &members[i]
			if kind(c) != "enum_member_declaration" {
				continue
			}
			nm := c.ChildByFieldId(fName)
			if nm == nil {
				continue
			}
			em := x.modifiers(c)
			eid := x.add(extract.Symbol{Name: x.f.Text(nm), Kind: snapshot.KindConstant, Parent: id,
				Start: extract.Line(c), End: extract.EndLine(c), Signature: x.signature(em, c.EndByte()),
				Doc: x.docAt(members, i), Type: name, Flags: s.Flags & snapshot.FlagExported})
			if v := c.ChildByFieldId(fValue); v != nil {
				x.locals = map[string]vtype{}
				x.walk(v, eid)
				x.locals = nil
			}
		}
		return
	}
	x.members(members, cls, tkind == snapshot.KindInterface)
}

// looksInterface reports the .NET naming convention for interfaces: I
// followed by an upper-case letter (IFoo, not Item).
func looksInterface(t string) bool {
	t = extract.LastPart(t)
	return len(t) > 1 && t[0] == 'I' && t[1] >= 'A' && t[1] <= 'Z'
}

// constraints records the types named in `where T : IFoo` clauses.
func (x *extractor) constraints(n *sitter.Node, from int32) {
	for _, c := range x.kids(n) {
		if kind(&c) != "type_parameter_constraints_clause" {
			continue
		}
		for _, tc := range x.kids(&c) {
			if kind(&tc) == "type_parameter_constraint" {
				x.typeRefs(tc.ChildByFieldId(fType), from, extract.RefType)
			}
		}
	}
}

// primaryConstructor handles `class C(IFoo foo)` and `record R(string Name)`:
// a constructor, and for records a property per parameter.
func (x *extractor) primaryConstructor(n, params *sitter.Node, cls *classCtx, tkind snapshot.Kind, m mods) {
	isRecord := kind(n) == "record_declaration"
	sig := cls.name + strings.Join(strings.Fields(x.f.Text(params)), " ")
	if len(sig) > 240 {
		sig = sig[:240] + "…"
	}
	ctor := x.add(extract.Symbol{Name: cls.name, Kind: snapshot.KindConstructor, Parent: cls.sym,
		Start: extract.Line(params), End: extract.EndLine(params), Signature: sig,
		Flags: x.r.Symbols[cls.sym].Flags & snapshot.FlagExported})
	for _, p := range x.kids(params) {
		if kind(&p) != "parameter" {
			continue
		}
		pn := p.ChildByFieldId(fName)
		pt := p.ChildByFieldId(fType)
		if pn == nil {
			continue
		}
		pname := x.f.Text(pn)
		vt := x.varType(pt)
		if _, ok := cls.fields[pname]; !ok {
			cls.fields[pname] = vt
		}
		x.typeRefs(pt, ctor, extract.RefTypeHint)
		if isRecord {
			fid := x.add(extract.Symbol{Name: pname, Kind: snapshot.KindField, Parent: cls.sym,
				Start: extract.Line(&p), End: extract.EndLine(&p),
				Signature: strings.Join(strings.Fields(x.f.Text(&p)), " "), Type: x.typeName(pt),
				Flags: snapshot.FlagExported})
			x.typeRefs(pt, fid, extract.RefType)
		}
	}
}

// collectFields notes the fields and properties of a class body before its
// methods are read, since a method may use a field declared below it.
func (x *extractor) collectFields(members []sitter.Node, cls *classCtx) {
	for i := range members {
		c := &members[i]
		switch kind(c) {
		case "field_declaration", "event_field_declaration":
			for _, d := range x.kids(c) {
				if kind(&d) != "variable_declaration" {
					continue
				}
				vt := x.varType(d.ChildByFieldId(fType))
				for _, v := range x.kids(&d) {
					if kind(&v) == "variable_declarator" {
						if nm := v.ChildByFieldId(fName); nm != nil {
							cls.fields[x.f.Text(nm)] = vt
						}
					}
				}
			}
		case "property_declaration", "event_declaration":
			if nm := c.ChildByFieldId(fName); nm != nil {
				cls.fields[x.f.Text(nm)] = x.varType(c.ChildByFieldId(fType))
			}
		case "method_declaration":
			if !cls.test {
				for _, a := range x.kids(c) {
					if kind(&a) != "attribute_list" {
						continue
					}
					for _, at := range x.kids(&a) {
						if kind(&at) == "attribute" && testAttributes[attrName(x.typeName(at.ChildByFieldId(fName)))] {
							cls.test = true
						}
					}
				}
			}
		case "preproc_if", "preproc_else", "preproc_elif":
			x.collectFields(x.kids(c), cls)
		}
	}
}

func (x *extractor) noteTest(name string) {
	if _, ok := testNames.Load(name); !ok {
		testNames.Store(name, true)
	}
}

// members extracts the members of a class, struct, record or interface.
func (x *extractor) members(ms []sitter.Node, cls *classCtx, inInterface bool) {
	for i := range ms {
		c := &ms[i]
		k := kind(c)
		switch k {
		case "field_declaration", "event_field_declaration":
			x.field(c, cls, x.docAt(ms, i), inInterface)
		case "property_declaration", "event_declaration", "indexer_declaration":
			x.property(c, cls, x.docAt(ms, i), inInterface)
		case "method_declaration", "constructor_declaration", "destructor_declaration",
			"operator_declaration", "conversion_operator_declaration":
			x.method(c, cls, x.docAt(ms, i), inInterface)
		case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
			"record_declaration":
			x.typeDecl(c, cls.sym, x.docAt(ms, i), inInterface)
		case "delegate_declaration":
			x.delegate(c, cls.sym, x.docAt(ms, i), inInterface)
		case "preproc_if", "preproc_else", "preproc_elif":
			x.members(x.kids(c), cls, inInterface)
		}
	}
}

func (x *extractor) field(n *sitter.Node, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	var decl *sitter.Node
	for _, c := range x.kids(n) {
		if kind(&c) == "variable_declaration" {
			c := c
			decl = &c
		}
	}
	if decl == nil {
		return
	}
	typ := decl.ChildByFieldId(fType)
	tname := x.typeName(typ)
	sk := snapshot.KindField
	if m.isConst {
		sk = snapshot.KindConstant
	}
	sig := x.signature(m, n.EndByte())
	for _, d := range x.kids(decl) {
		if kind(&d) != "variable_declarator" {
			continue
		}
		nm := d.ChildByFieldId(fName)
		if nm == nil {
			continue
		}
		id := x.add(extract.Symbol{Name: x.f.Text(nm), Kind: sk, Parent: cls.sym, Start: extract.Line(n),
			End: extract.EndLine(n), Signature: sig, Doc: doc, Type: tname, Flags: exported(m, false, inInterface)})
		x.typeRefs(typ, id, extract.RefType)
		x.attrRefs(m, id)
		x.locals = map[string]vtype{}
		for _, v := range x.kids(&d) {
			if v.StartByte() > nm.StartByte() {
				x.value(&v, x.varType(typ), id)
			}
		}
		x.locals = nil
	}
}

// value walks the initializer of a variable of declared type vt: `new()`
// calls vt's constructor.
func (x *extractor) value(v *sitter.Node, vt vtype, from int32) {
	if kind(v) == "implicit_object_creation_expression" && vt.name != "" && vt.name != "[]" {
		x.ctorCall(vt.name, v, from)
	}
	x.walk(v, from)
}

func (x *extractor) property(n *sitter.Node, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	typ := n.ChildByFieldId(fType)
	name := ""
	sk := snapshot.KindField
	if kind(n) == "indexer_declaration" {
		name, sk = "this[]", snapshot.KindMethod
	} else if nm := n.ChildByFieldId(fName); nm != nil {
		name = x.f.Text(nm)
	}
	if name == "" {
		return
	}
	acc := n.ChildByFieldId(fAccessors)
	val := n.ChildByFieldId(fValue)
	end := n.EndByte()
	if acc != nil {
		end = acc.StartByte()
	} else if val != nil {
		end = val.StartByte()
		if kind(val) != "arrow_expression_clause" {
			// An initializer: `= value;` is not part of the signature.
			end = n.EndByte()
		}
	}
	sig := x.signature(m, end)
	if acc != nil {
		var parts []string
		for _, a := range x.kids(acc) {
			if kind(&a) != "accessor_declaration" {
				continue
			}
			am := x.modifiers(&a)
			an := a.ChildByFieldId(fName)
			if an == nil {
				continue
			}
			p := x.f.Text(an)
			if am.access {
				p = x.signature(am, an.EndByte())
			}
			parts = append(parts, p+";")
		}
		sig = strings.TrimSpace(sig + " { " + strings.Join(parts, " ") + " }")
		if acc.EndByte() < n.EndByte() && val != nil && kind(val) != "arrow_expression_clause" {
			sig += " = " + strings.Join(strings.Fields(x.f.Text(val)), " ")
			if len(sig) > 240 {
				sig = sig[:240] + "…"
			}
		}
	}
	id := x.add(extract.Symbol{Name: name, Kind: sk, Parent: cls.sym, Start: extract.Line(n), End: extract.EndLine(n),
		Signature: sig, Doc: doc, Type: x.typeName(typ), Flags: exported(m, false, inInterface)})
	x.attrRefs(m, id)
	x.locals = map[string]vtype{}
	if sk == snapshot.KindMethod {
		x.typeRefs(typ, id, extract.RefTypeHint)
		x.params(n.ChildByFieldId(fParameters), id)
	} else {
		x.typeRefs(typ, id, extract.RefType)
	}
	if acc != nil {
		for _, a := range x.kids(acc) {
			if kind(&a) == "accessor_declaration" {
				if b := a.ChildByFieldId(fBody); b != nil {
					x.walk(b, id)
				}
			}
		}
	}
	if val != nil {
		x.value(val, x.varType(typ), id)
	}
	x.locals = nil
}

func (x *extractor) method(n *sitter.Node, cls *classCtx, doc string, inInterface bool) {
	m := x.modifiers(n)
	k := kind(n)
	name := ""
	sk := snapshot.KindMethod
	var ret *sitter.Node
	switch k {
	case "method_declaration":
		name = x.f.Text(n.ChildByFieldId(fName))
		ret = n.ChildByFieldId(fReturns)
	case "constructor_declaration":
		name, sk = cls.name, snapshot.KindConstructor
	case "destructor_declaration":
		name = "Finalize"
	case "operator_declaration":
		name = "operator" + x.f.Text(n.ChildByFieldId(fOperator))
		ret = n.ChildByFieldId(fType)
	case "conversion_operator_declaration":
		ret = n.ChildByFieldId(fType)
		name = "op_Implicit"
		for i := uint(0); i < n.ChildCount(); i++ {
			if kind(n.Child(i)) == "explicit" {
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
	body := n.ChildByFieldId(fBody)
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	s := extract.Symbol{Name: name, Kind: sk, Parent: cls.sym, Start: extract.Line(n), End: extract.EndLine(n),
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
	x.params(n.ChildByFieldId(fParameters), id)
	if ret != nil {
		x.typeRefs(ret, id, extract.RefTypeHint)
	}
	for _, c := range x.kids(n) {
		if kind(&c) == "constructor_initializer" {
			x.ctorInitializer(&c, cls, id)
		}
	}
	if body != nil {
		x.walk(body, id)
	}
	x.locals = nil
}

// ctorInitializer handles `: base(...)` and `: this(...)`.
func (x *extractor) ctorInitializer(n *sitter.Node, cls *classCtx, from int32) {
	isBase := false
	for i := uint(0); i < n.ChildCount(); i++ {
		switch kind(n.Child(i)) {
		case "base":
			isBase = true
		}
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: extract.Line(n)}
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
func (x *extractor) params(pl *sitter.Node, from int32) {
	if pl == nil {
		return
	}
	for _, p := range x.kids(pl) {
		if kind(&p) != "parameter" {
			continue
		}
		typ := p.ChildByFieldId(fType)
		nm := p.ChildByFieldId(fName)
		if nm != nil && x.locals != nil {
			x.locals[x.f.Text(nm)] = x.varType(typ)
		}
		x.typeRefs(typ, from, extract.RefTypeHint)
		if nm == nil || x.locals == nil {
			continue
		}
		// A default value.
		for _, c := range x.kids(&p) {
			if c.StartByte() > nm.StartByte() {
				x.walk(&c, from)
			}
		}
	}
}

func (x *extractor) delegate(n *sitter.Node, parent int32, doc string, inInterface bool) {
	nm := n.ChildByFieldId(fName)
	if nm == nil {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	topLevel := parent < 0 || x.r.Symbols[parent].Kind == snapshot.KindPackage
	ret := n.ChildByFieldId(fType)
	id := x.add(extract.Symbol{Name: x.f.Text(nm), Kind: snapshot.KindTypeAlias, Parent: parent,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: x.signature(m, n.EndByte()), Doc: doc,
		Type: x.resultType(ret), Flags: exported(m, topLevel, inInterface)})
	saved := x.locals
	x.locals = nil
	x.params(n.ChildByFieldId(fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.locals = saved
}

// localFunction extracts a local function: a function nested in the
// callable (or the top-level statements) it is declared in.
func (x *extractor) localFunction(n *sitter.Node, parent int32) {
	nm := n.ChildByFieldId(fName)
	if nm == nil {
		return
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	body := n.ChildByFieldId(fBody)
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	ret := n.ChildByFieldId(fType)
	id := x.add(extract.Symbol{Name: x.f.Text(nm), Kind: snapshot.KindFunction, Parent: parent,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: x.signature(m, end), Doc: x.docBefore(n),
		Type: x.resultType(ret)})
	saved := x.locals
	x.locals = make(map[string]vtype, len(saved)+4)
	for k, v := range saved {
		x.locals[k] = v
	}
	x.params(n.ChildByFieldId(fParameters), id)
	x.typeRefs(ret, id, extract.RefTypeHint)
	x.constraints(n, id)
	if body != nil {
		x.walk(body, id)
	}
	x.locals = saved
}
