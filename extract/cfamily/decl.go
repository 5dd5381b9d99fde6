package cfamily

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// container reads the declarations under n (the file, a namespace body,
// an extern "C" block, a preprocessor branch) in namespace ns.
func (x *extractor) container(n, parent int32, ns string) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.item(c, parent, ns)
	}
}

// item reads one declaration at namespace level.
func (x *extractor) item(c, parent int32, ns string) {
	switch x.Kind(c) {
	case "preproc_include":
		x.include(c)
	case "preproc_def":
		x.macro(c, parent, ns, false)
	case "preproc_function_def":
		x.macro(c, parent, ns, true)
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
		"declaration_list", "ERROR":
		x.container(c, parent, ns)
	case "namespace_definition":
		if b := x.Field(c, x.f.body); b >= 0 {
			inner := extract.JoinName(ns, x.namespaceName(c))
			anon := x.Field(c, x.f.name) < 0 && !x.inline(c)
			if anon {
				x.anon++
			}
			x.container(b, parent, inner)
			if anon {
				x.anon--
			}
		}
	case "linkage_specification":
		if b := x.Field(c, x.f.body); b >= 0 {
			if x.Kind(b) == "declaration_list" {
				x.container(b, parent, ns)
			} else {
				x.item(b, parent, ns)
			}
		}
	case "function_definition":
		x.function(c, parent, ns, -1)
	case "declaration":
		x.declaration(c, parent, ns, -1)
	case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
		x.typeSpec(c, parent, ns, -1, "")
	case "type_definition":
		x.typedef(c, parent, ns)
	case "alias_declaration":
		x.alias(c, parent, ns, -1)
	case "template_declaration":
		x.template(c, parent, ns)
	case "using_declaration":
		x.using(c)
	case "expression_statement":
		x.caseMacro(c, parent, ns)
	}
}

// include records an #include line.
func (x *extractor) include(n int32) {
	p := x.Field(n, x.f.path)
	if p < 0 {
		return
	}
	s := strings.TrimSpace(x.Text(p))
	s = strings.Trim(s, `"<>`)
	if s != "" {
		x.R.Includes = append(x.R.Includes, s)
	}
}

// using records using namespace a::b (every name of a.b) and using a::X
// (X) as imports.
func (x *extractor) using(n int32) {
	c := x.FirstNamed(n)
	if c < 0 {
		return
	}
	name := dotted(x.Text(c))
	if name == "" || name == "std" || strings.HasPrefix(name, "std.") {
		return
	}
	if x.usingNamespace(n) {
		x.addImport(extract.Import{Path: name, Name: "*"})
		return
	}
	if q, last := extract.SplitName(name); q != "" {
		x.addImport(extract.Import{Path: q, Name: last})
	}
}

// usingNamespace reports `using namespace`.
func (x *extractor) usingNamespace(n int32) bool {
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		if !x.N[c].Named && x.Kind(c) == "namespace" {
			return true
		}
	}
	return false
}

// dotted turns a C++ scoped name into a dotted one: "::a::b" is "a.b".
func dotted(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	s = strings.TrimPrefix(s, "::")
	return strings.ReplaceAll(s, "::", ".")
}

// qual is the namespace path of ns below the file's Package: the Qual of
// a top-level symbol.
func (x *extractor) qual(ns string) string {
	if x.pkg == "" {
		return ns
	}
	return strings.TrimPrefix(strings.TrimPrefix(ns, x.pkg), ".")
}

// add adds a symbol nested in parent, or at the top level in namespace ns.
func (x *extractor) add(s extract.Symbol, parent int32, ns string) int32 {
	s.Parent = parent
	if parent < 0 && s.Receiver == "" {
		s.Qual = x.qual(ns)
	}
	return x.Add(s)
}

// macro reads #define NAME value (a constant) and #define NAME(args)
// (a function); a macro without a value (an include guard, a flag) is no
// symbol.
func (x *extractor) macro(n, parent int32, ns string, function bool) {
	nm := x.Field(n, x.f.name)
	if nm < 0 || parent >= 0 {
		return
	}
	val := x.Field(n, x.f.value)
	kind := snapshot.KindFunction
	sig := x.Signature(n, val)
	if !function {
		if val < 0 || strings.TrimSpace(x.Text(val)) == "" {
			return
		}
		kind = snapshot.KindConstant
		sig = extract.FirstLine(x.Text(n))
	}
	end := x.EndLine(n)
	if end > x.Line(n) && x.N[n].End > 0 && x.Src[x.N[n].End-1] == '\n' {
		end-- // the node ends with the line's newline
	}
	x.add(extract.Symbol{Name: x.Text(nm), Kind: kind, Start: x.Line(n), End: end,
		Signature: sig, Doc: x.doc(n), Flags: x.exportedTop(false)}, parent, ns)
}

// exportedTop is the exported flag of a declaration at namespace level:
// not static, not in an anonymous namespace.
func (x *extractor) exportedTop(static bool) snapshot.Flags {
	if static || x.anon > 0 {
		return 0
	}
	return snapshot.FlagExported
}

// specifiers reports the storage classes of a declaration: static,
// extern.
func (x *extractor) specifiers(n int32) (static, extern bool) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "storage_class_specifier" {
			switch x.Text(c) {
			case "static":
				static = true
			case "extern":
				extern = true
			}
		}
	}
	return static, extern
}

// funcDeclarator finds the function declarator inside a declarator
// (under pointers, references, parentheses and attributes), -1 when the
// declarator declares no function.
func (x *extractor) funcDeclarator(d int32) int32 {
	for i := 0; d >= 0 && i < 16; i++ {
		switch x.Kind(d) {
		case "function_declarator":
			// int (*f(void))(int) returns a function pointer: f is the
			// inner one.
			if inner := x.Field(d, x.f.declarator); inner >= 0 && x.Kind(inner) == "parenthesized_declarator" {
				if fd := x.funcDeclarator(x.FirstNamed(inner)); fd >= 0 {
					return fd
				}
				return -1 // a pointer to a function: a variable
			}
			return d
		case "pointer_declarator", "reference_declarator", "attributed_declarator", "init_declarator":
			next := x.Field(d, x.f.declarator)
			if next < 0 {
				next = x.LastNamed(d)
			}
			d = next
		default:
			return -1
		}
	}
	return -1
}

// declName reads the name a declarator declares: the identifier under
// pointers and references, and the scope written before it (A::B::f
// gives "A.B" and "f"); ok is false for what names nothing.
func (x *extractor) declName(d int32) (scope, name string, ok bool) {
	for i := 0; d >= 0 && i < 16; i++ {
		switch x.Kind(d) {
		case "identifier", "field_identifier", "type_identifier":
			return "", x.Text(d), true
		case "destructor_name":
			return "", "~" + strings.TrimSpace(strings.TrimPrefix(x.Text(d), "~")), true
		case "operator_name":
			return "", strings.ReplaceAll(x.Text(d), " ", ""), true
		case "template_function":
			d = x.Field(d, x.f.name)
		case "qualified_identifier":
			s := x.Field(d, x.f.scope)
			inner := x.Field(d, x.f.name)
			sc, nm, ok := x.declName(inner)
			if !ok {
				return "", "", false
			}
			return extract.JoinName(x.scopeName(s), sc), nm, true
		case "function_declarator", "pointer_declarator", "reference_declarator", "init_declarator",
			"attributed_declarator", "array_declarator":
			next := x.Field(d, x.f.declarator)
			if next < 0 {
				next = x.FirstNamed(d)
			}
			d = next
		case "parenthesized_declarator":
			d = x.FirstNamed(d)
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// scopeName is the dotted name of a scope: a namespace, a class, a
// template class (its name without arguments), nested.
func (x *extractor) scopeName(s int32) string {
	switch x.Kind(s) {
	case "namespace_identifier", "type_identifier", "identifier":
		return x.Text(s)
	case "template_type":
		return x.Text(x.Field(s, x.f.name))
	case "qualified_identifier":
		return extract.JoinName(x.scopeName(x.Field(s, x.f.scope)), x.scopeName(x.Field(s, x.f.name)))
	}
	return ""
}

// function reads a function definition; outer is its template
// declaration, or -1.
func (x *extractor) function(n, parent int32, ns string, outer int32) {
	fd := x.funcDeclarator(x.Field(n, x.f.declarator))
	body := x.Field(n, x.f.body)
	if fd < 0 {
		x.testBlock(n, body, parent, ns)
		return
	}
	if x.testMacro(n, fd, body, parent, ns) {
		return
	}
	head := n
	if outer >= 0 {
		head = outer
	}
	scope, name, ok := x.declName(x.Field(fd, x.f.declarator))
	if !ok {
		return
	}
	static, _ := x.specifiers(n)
	s := extract.Symbol{Name: name, Kind: snapshot.KindFunction, Start: x.Line(head), End: x.EndLine(n),
		Signature: x.Signature(head, body), Doc: x.doc(head), Type: x.typeName(x.Field(n, x.f.typ))}
	cls := x.class
	switch {
	case parent >= 0 && x.class != nil && x.class.sym == parent:
		s.Kind = x.memberKind(name, x.class.name)
		s.Flags = x.access
	case scope != "":
		// Defined outside its class: Status DBImpl::Write(...) {...}.
		s.Receiver = extract.JoinName(ns, scope)
		s.Kind = x.memberKind(name, extract.LastName(scope))
		s.Flags = snapshot.FlagExported
		cls = &classCtx{sym: -1, name: extract.LastName(scope)}
	default:
		s.Flags = x.exportedTop(static)
	}
	sym := x.add(s, parent, ns)
	x.readBody(fd, body, sym, cls, outer)
}

// memberKind is constructor for a member named like its class, method
// otherwise.
func (x *extractor) memberKind(name, class string) snapshot.Kind {
	if name == class {
		return snapshot.KindConstructor
	}
	return snapshot.KindMethod
}

// readBody reads a function's parameters and body, in class cls (nil for
// a free function).
func (x *extractor) readBody(fd, body, sym int32, cls *classCtx, outer int32) {
	saved, savedLocals := x.class, x.locals
	x.class, x.locals = cls, map[string]string{}
	defer func() { x.class, x.locals = saved, savedLocals }()
	mark := len(x.tparams)
	x.templateParams(outer)
	defer func() { x.tparams = x.tparams[:mark] }()
	// The result type is a hint of the function too.
	if p := x.N[fd].Parent; p >= 0 {
		for q := p; q >= 0; q = x.N[q].Parent {
			if t := x.Field(q, x.f.typ); t >= 0 {
				x.typeRefs(t, sym, extract.RefTypeHint)
				break
			}
			if k := x.Kind(q); k == "function_definition" || k == "declaration" || k == "field_declaration" {
				break
			}
		}
	}
	x.params(x.Field(fd, x.f.parameters), sym, true)
	if body >= 0 {
		x.walk(body, sym)
	}
}

// params records the parameters of a function as typed locals and their
// types as hints.
func (x *extractor) params(ps, sym int32, hints bool) {
	for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
		if k := x.Kind(p); k != "parameter_declaration" && k != "optional_parameter_declaration" {
			continue
		}
		typ := x.Field(p, x.f.typ)
		if hints {
			x.typeRefs(typ, sym, extract.RefTypeHint)
		}
		if _, nm, ok := x.declName(x.Field(p, x.f.declarator)); ok && x.locals != nil {
			x.locals[nm] = x.typeName(typ)
		}
	}
}

// templateParams puts the type parameters of template declaration t (-1:
// none) in scope.
func (x *extractor) templateParams(t int32) {
	if t < 0 {
		return
	}
	ps := x.Field(t, x.f.parameters)
	for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
		if nm := x.LastNamed(p); nm >= 0 && x.Kind(nm) == "type_identifier" {
			x.tparams = append(x.tparams, x.Text(nm))
		}
	}
}

// declaration reads a declaration: function prototypes (Decl symbols)
// and, at namespace level, variables; a struct, union or enum defined in
// it is a symbol of its own.
func (x *extractor) declaration(n, parent int32, ns string, outer int32) {
	head, typ := x.begin(n, parent, ns, outer)
	static, extern := x.specifiers(n)
	inClass := parent >= 0 && x.class != nil && x.class.sym == parent
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.N[d].Field != x.f.declarator {
			continue
		}
		if fd := x.funcDeclarator(d); fd >= 0 {
			scope, name, ok := x.declName(x.Field(fd, x.f.declarator))
			if !ok {
				continue
			}
			s := extract.Symbol{Name: name, Kind: snapshot.KindFunction, Start: x.Line(head), End: x.EndLine(n),
				Signature: strings.TrimSuffix(x.Signature(head, -1), ";"), Doc: x.doc(head),
				Type: x.typeName(typ), Decl: true}
			switch {
			case inClass:
				s.Kind = x.memberKind(name, x.class.name)
				s.Flags = x.access
			case scope != "":
				continue // a friend's or a redeclaration's: the class has it
			default:
				s.Flags = x.exportedTop(static)
			}
			sym := x.add(s, parent, ns)
			x.readBody(fd, -1, sym, nil, outer)
			continue
		}
		if inClass || extern || parent >= 0 {
			continue
		}
		if _, name, ok := x.declName(d); ok {
			sym := x.add(extract.Symbol{Name: name, Kind: snapshot.KindVariable, Start: x.Line(head), End: x.EndLine(n),
				Signature: strings.TrimSuffix(x.Signature(head, -1), ";"), Doc: x.doc(head),
				Type: x.typeName(typ), Flags: x.exportedTop(static)}, parent, ns)
			x.typeRefs(typ, sym, extract.RefType)
			if v := x.Field(d, x.f.value); v >= 0 {
				saved := x.locals
				x.locals = map[string]string{}
				x.walk(v, sym)
				x.locals = saved
			}
		}
	}
}

// begin starts reading declaration n: it reads a struct, union or enum
// the declaration defines (struct s {...} x;), and returns the node whose
// lines, doc and signature the declaration's symbols take (its template
// declaration outer, when there is one) and its type.
func (x *extractor) begin(n, parent int32, ns string, outer int32) (head, typ int32) {
	head = n
	if outer >= 0 {
		head = outer
	}
	typ = x.Field(n, x.f.typ)
	if x.bodied(typ) {
		x.typeSpec(typ, parent, ns, -1, "")
	}
	return head, typ
}

// bodied reports a struct, class, union or enum specifier with a body.
func (x *extractor) bodied(t int32) bool {
	switch x.Kind(t) {
	case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		return x.Field(t, x.f.body) >= 0
	}
	return false
}

// typeSpec reads a class, struct, union or enum with a body; alias names
// an anonymous one (typedef struct {...} name). It returns the symbol,
// -1 for a declaration that defines nothing.
func (x *extractor) typeSpec(n, parent int32, ns string, outer int32, alias string) int32 {
	body := x.Field(n, x.f.body)
	if body < 0 {
		return -1
	}
	name, receiver := alias, ""
	if nm := x.Field(n, x.f.name); nm >= 0 {
		switch x.Kind(nm) {
		case "type_identifier":
			name = x.Text(nm)
		case "qualified_identifier":
			// struct DBImpl::Writer {...}: a member of DBImpl.
			scope, last, ok := x.declName(nm)
			if !ok || scope == "" || x.Kind(x.Field(nm, x.f.name)) != "type_identifier" {
				return -1
			}
			name, receiver = last, extract.JoinName(ns, scope)
		default:
			return -1 // a specialization (Cache<int>)
		}
	}
	kind := snapshot.KindStruct
	switch x.Kind(n) {
	case "class_specifier":
		kind = snapshot.KindClass
	case "enum_specifier":
		kind = snapshot.KindEnum
	}
	if name == "" {
		if kind == snapshot.KindEnum {
			x.enumerators(body, parent, ns) // enum { A, B }: A and B alone
		}
		return -1
	}
	head := n
	if outer >= 0 {
		head = outer
	}
	s := extract.Symbol{Name: name, Kind: kind, Start: x.Line(head), End: x.EndLine(n),
		Signature: x.Signature(head, body), Doc: x.doc(x.docNode(head))}
	if x.Field(n, x.f.name) < 0 {
		s.Signature += " " + name // typedef struct {...} name
	}
	switch {
	case receiver != "":
		s.Receiver, s.Flags = receiver, snapshot.FlagExported
	case parent >= 0 && x.class != nil && x.class.sym == parent:
		s.Flags = x.access
	default:
		s.Flags = x.exportedTop(false)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "base_class_clause" {
			continue
		}
		for b := x.FirstNamed(c); b >= 0; b = x.NextNamed(b) {
			if t := x.typeName(b); t != "" && !external(t) {
				s.Extends = append(s.Extends, t)
			}
		}
	}
	sym := x.add(s, parent, ns)
	if kind == snapshot.KindEnum {
		x.enumerators(body, sym, ns)
		return sym
	}
	mark := len(x.tparams)
	x.templateParams(outer)
	x.classBody(body, sym, name, kind == snapshot.KindClass, ns)
	x.tparams = x.tparams[:mark]
	return sym
}

// docNode is the node whose preceding comments document n: the
// declaration around a struct defined in it (typedef struct {...} x;).
func (x *extractor) docNode(n int32) int32 {
	if p := x.N[n].Parent; p >= 0 {
		switch x.Kind(p) {
		case "type_definition", "declaration", "field_declaration":
			return p
		}
	}
	return n
}

// enumerators reads the constants of an enum body.
func (x *extractor) enumerators(body, parent int32, ns string) {
	for e := range x.OfKind(body, "enumerator") {
		if nm := x.Field(e, x.f.name); nm >= 0 {
			fl := snapshot.FlagExported
			if parent < 0 {
				fl = x.exportedTop(false)
			}
			x.add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindConstant, Start: x.Line(e), End: x.EndLine(e),
				Signature: x.TextLine(e), Doc: x.doc(e), Flags: fl}, parent, ns)
		}
	}
}

// classBody reads the members of a class, struct or union.
func (x *extractor) classBody(body, sym int32, name string, private bool, ns string) {
	cls := &classCtx{sym: sym, name: name, fields: map[string]string{}, outer: x.class}
	x.fieldTypes(body, cls)
	saved, savedAccess := x.class, x.access
	x.class = cls
	x.access = snapshot.FlagExported
	if private {
		x.access = 0
	}
	x.members(body, sym, ns)
	x.class, x.access = saved, savedAccess
}

// fieldTypes notes the types of a class's fields before its methods are
// read: a method may use a field declared below it.
func (x *extractor) fieldTypes(body int32, cls *classCtx) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration":
			t := x.typeName(x.Field(c, x.f.typ))
			for d := x.FirstNamed(c); d >= 0; d = x.NextNamed(d) {
				if x.N[d].Field != x.f.declarator || x.funcDeclarator(d) >= 0 {
					continue
				}
				if _, nm, ok := x.declName(d); ok {
					cls.fields[nm] = t
				}
			}
		case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif":
			x.fieldTypes(c, cls)
		}
	}
}

// members reads a class body's members.
func (x *extractor) members(body, sym int32, ns string) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "access_specifier":
			x.access = 0
			if strings.TrimSpace(x.Text(c)) == "public" {
				x.access = snapshot.FlagExported
			}
		case "field_declaration":
			x.field(c, sym, ns, -1)
		case "function_definition":
			x.function(c, sym, ns, -1)
		case "declaration":
			x.declaration(c, sym, ns, -1)
		case "template_declaration":
			x.template(c, sym, ns)
		case "type_definition":
			x.typedef(c, sym, ns)
		case "alias_declaration":
			x.alias(c, sym, ns, -1)
		case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
			x.members(c, sym, ns)
		case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
			x.typeSpec(c, sym, ns, -1, "")
		}
	}
}

// field reads a member declaration: fields, method declarations, a type
// defined in it.
func (x *extractor) field(n, parent int32, ns string, outer int32) {
	head, typ := x.begin(n, parent, ns, outer)
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.N[d].Field != x.f.declarator {
			continue
		}
		if fd := x.funcDeclarator(d); fd >= 0 {
			_, name, ok := x.declName(x.Field(fd, x.f.declarator))
			if !ok {
				continue
			}
			sym := x.add(extract.Symbol{Name: name, Kind: x.memberKind(name, x.class.name), Start: x.Line(head),
				End: x.EndLine(n), Signature: strings.TrimSuffix(x.Signature(head, -1), ";"), Doc: x.doc(head),
				Type: x.typeName(typ), Flags: x.access, Decl: true}, parent, ns)
			x.readBody(fd, -1, sym, nil, outer)
			continue
		}
		_, name, ok := x.declName(d)
		if !ok {
			continue
		}
		sym := x.add(extract.Symbol{Name: name, Kind: snapshot.KindField, Start: x.Line(head), End: x.EndLine(n),
			Signature: strings.TrimSuffix(x.Signature(head, -1), ";"), Doc: x.doc(head), Type: x.typeName(typ),
			Flags: x.access}, parent, ns)
		x.typeRefs(typ, sym, extract.RefType)
	}
}

// template reads a template declaration: the primary template of a
// class, a function, an alias or a member.
func (x *extractor) template(n, parent int32, ns string) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "class_specifier", "struct_specifier", "union_specifier":
			x.typeSpec(c, parent, ns, n, "")
		case "function_definition":
			x.function(c, parent, ns, n)
		case "declaration":
			x.declaration(c, parent, ns, n)
		case "field_declaration":
			if x.class != nil && x.class.sym == parent {
				x.field(c, parent, ns, n)
			}
		case "alias_declaration":
			x.alias(c, parent, ns, n)
		case "template_declaration":
			x.template(c, parent, ns)
		}
	}
}

// typedef reads typedef T name. A struct, union or enum defined in it is
// a symbol named by its tag, or by the typedef when it has none; a
// typedef naming a struct, union or class by another name is an alias
// that extends it.
func (x *extractor) typedef(n, parent int32, ns string) {
	typ := x.Field(n, x.f.typ)
	var names []string
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.N[d].Field == x.f.declarator {
			if _, nm, ok := x.declName(d); ok {
				names = append(names, nm)
			}
		}
	}
	if len(names) == 0 {
		return
	}
	tag := ""
	if nm := x.Field(typ, x.f.name); nm >= 0 && x.Kind(typ) != "template_type" {
		tag = x.Text(nm)
	}
	if x.bodied(typ) {
		if tag == "" {
			x.typeSpec(typ, parent, ns, -1, names[0])
			names = names[1:]
		} else {
			x.typeSpec(typ, parent, ns, -1, "")
		}
	}
	base := ""
	switch x.Kind(typ) {
	case "struct_specifier", "union_specifier", "class_specifier":
		base = tag
	case "type_identifier", "qualified_identifier":
		if t := x.typeName(typ); !external(t) {
			base = t
		}
	}
	for _, nm := range names {
		if nm == tag {
			continue
		}
		s := extract.Symbol{Name: nm, Kind: snapshot.KindTypeAlias, Start: x.Line(n), End: x.EndLine(n),
			Signature: strings.TrimSuffix(x.Signature(n, x.Field(typ, x.f.body)), ";"), Doc: x.doc(n), Flags: x.exportedTop(false)}
		if parent >= 0 && x.class != nil && x.class.sym == parent {
			s.Flags = x.access
		}
		if base != "" {
			s.Extends = []string{base}
		}
		x.add(s, parent, ns)
	}
}

// alias reads using Name = Type.
func (x *extractor) alias(n, parent int32, ns string, outer int32) {
	nm := x.Field(n, x.f.name)
	if nm < 0 {
		return
	}
	head := n
	if outer >= 0 {
		head = outer
	}
	s := extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindTypeAlias, Start: x.Line(head), End: x.EndLine(n),
		Signature: strings.TrimSuffix(x.Signature(head, -1), ";"), Doc: x.doc(head), Flags: x.exportedTop(false)}
	if parent >= 0 && x.class != nil && x.class.sym == parent {
		s.Flags = x.access
	}
	sym := x.add(s, parent, ns)
	x.typeRefs(x.Field(n, x.f.typ), sym, extract.RefType)
}

// gtestMacros declare a test case as a function: TEST(Suite, Name).
// The fixture ones make it a method of the fixture class.
var gtestMacros = map[string]bool{"TEST": false, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true,
	"TYPED_TEST_P": true, "BENCHMARK_F": true}

// testMacro reads a gtest case, TEST(Suite, Name) {...}, which parses as
// a function named TEST, or a case of another framework's macro named
// like one with the test's name as its argument (TEST_BEGIN(test_x)
// {...}); it reports whether n was one.
func (x *extractor) testMacro(n, fd, body, parent int32, ns string) bool {
	nm := x.Field(fd, x.f.declarator)
	if x.Kind(nm) != "identifier" || body < 0 {
		return false
	}
	macro := x.Text(nm)
	fixture, ok := gtestMacros[macro]
	if !ok && !(strings.Contains(macro, "TEST") && upperWord([]byte(macro))) {
		return false
	}
	var args []string
	for p := x.FirstNamed(x.Field(fd, x.f.parameters)); p >= 0; p = x.NextNamed(p) {
		a := strings.TrimSpace(x.Text(p))
		if !isIdentifier(a) {
			return false
		}
		args = append(args, a)
	}
	if !ok && len(args) == 1 {
		// TEST_BEGIN(test_foo) {...}: a test named by its one argument.
		args = []string{"", args[0]}
	} else if len(args) != 2 {
		return false
	}
	s := extract.Symbol{Name: args[1], Kind: snapshot.KindFunction, Flags: snapshot.FlagTest,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.Signature(n, body), Doc: x.doc(n)}
	var cls *classCtx
	switch {
	case args[0] == "":
		s.Qual = x.qual(ns)
	case fixture:
		s.Kind, s.Receiver = snapshot.KindMethod, extract.JoinName(ns, args[0])
		cls = &classCtx{sym: -1, name: args[0]}
	default:
		s.Qual = extract.JoinName(x.qual(ns), args[0])
	}
	s.Parent = parent
	sym := x.Add(s)
	x.readBody(fd, body, sym, cls, -1)
	return true
}

// testBlock reads TEST_BEGIN(test_x) {...} where the C grammar makes
// it a function definition of type TEST_BEGIN declaring (test_x).
func (x *extractor) testBlock(n, body, parent int32, ns string) {
	typ, d := x.Field(n, x.f.typ), x.Field(n, x.f.declarator)
	macro := x.Text(typ)
	if body < 0 || x.Kind(typ) != "type_identifier" || x.Kind(d) != "parenthesized_declarator" ||
		!strings.Contains(macro, "TEST") || !upperWord([]byte(macro)) {
		return
	}
	name := strings.TrimSpace(strings.Trim(strings.TrimSpace(x.Text(d)), "()"))
	if !isIdentifier(name) {
		return
	}
	sym := x.add(extract.Symbol{Name: name, Kind: snapshot.KindFunction, Flags: snapshot.FlagTest,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.Signature(n, body), Doc: x.doc(n)}, parent, ns)
	saved := x.locals
	x.locals = map[string]string{}
	x.walk(body, sym)
	x.locals = saved
}

// caseMacros open a Catch2 or doctest case: TEST_CASE("name") {...}.
var caseMacros = extract.WordSet("TEST_CASE SCENARIO TEST_CASE_METHOD TEMPLATE_TEST_CASE TEST_CASE_FIXTURE TEST_CASE_TEMPLATE")

// caseMacro reads a Catch2 or doctest case, which parses as a call
// statement followed by a block: a test function named by its string.
func (x *extractor) caseMacro(n, parent int32, ns string) {
	call := x.FirstNamed(n)
	block := x.NextNamed(n)
	if x.Kind(call) != "call_expression" || x.Kind(block) != "compound_statement" {
		return
	}
	fn := x.Field(call, x.f.function)
	if x.Kind(fn) != "identifier" || !caseMacros[x.Text(fn)] {
		return
	}
	name, fixture := "", ""
	for a := x.FirstNamed(x.Field(call, x.f.arguments)); a >= 0 && name == ""; a = x.NextNamed(a) {
		switch x.Kind(a) {
		case "string_literal":
			name = strings.Trim(x.Text(a), `"`)
		case "identifier":
			if m := x.Text(fn); fixture == "" && (strings.HasSuffix(m, "_METHOD") || strings.HasSuffix(m, "_FIXTURE")) {
				fixture = x.Text(a)
			}
		}
	}
	name = strings.Join(strings.Fields(strings.ReplaceAll(name, ".", " ")), " ")
	if name == "" {
		return
	}
	s := extract.Symbol{Name: name, Kind: snapshot.KindFunction, Flags: snapshot.FlagTest,
		Start: x.Line(n), End: x.EndLine(block), Signature: x.TextLine(call), Doc: x.doc(n)}
	var cls *classCtx
	if fixture != "" {
		// TEST_CASE_METHOD(Fixture, "name"): a method of the fixture.
		s.Kind, s.Receiver = snapshot.KindMethod, extract.JoinName(ns, fixture)
		cls = &classCtx{sym: -1, name: fixture}
	}
	sym := x.add(s, parent, ns)
	saved, savedClass := x.locals, x.class
	x.locals, x.class = map[string]string{}, cls
	x.walk(block, sym)
	x.locals, x.class = saved, savedClass
}

// doc is the comment block right above n: // runs, /* */ and /** */
// blocks; a comment that ends a line of code is not one.
func (x *extractor) doc(n int32) string {
	var parts []string
	line := x.Line(n)
	for p := x.N[n].Prev; p >= 0; p = x.N[p].Prev {
		if x.Kind(p) != "comment" || x.EndLine(p)+1 < line {
			break
		}
		if q := x.N[p].Prev; q >= 0 && x.EndLine(q) == x.Line(p) && x.Kind(q) != "comment" {
			break // int a; // about a
		}
		line = x.Line(p)
		c := extract.CleanComment(x.Text(p), "///")
		if strings.Contains(c, "\n") {
			lines := strings.Split(c, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimSpace(l)
			}
			c = strings.Join(lines, "\n")
		}
		parts = append(parts, c)
		if len(parts) > 40 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// isIdentifier reports a C identifier.
func isIdentifier(s string) bool {
	if s == "" || !identStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}
