package extract

import (
	"path"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/snapshot"
)

// goFields are the grammar's field ids by name: ChildByFieldName copies
// the name into C memory on every call.
var goFields = map[string]uint16{}

// goKinds are the grammar's node kinds by id: Node.Kind copies the name
// out of C on every call.
var goKinds []string

func init() {
	lang := grammar("go")
	for _, f := range []string{"name", "type", "path", "body", "receiver", "result", "parameters",
		"value", "package", "element", "left", "right", "operand", "field", "function", "arguments"} {
		goFields[f] = lang.FieldIdForName(f)
	}
	goKinds = make([]string, lang.NodeKindCount())
	for i := range goKinds {
		goKinds[i] = lang.NodeKindForId(uint16(i))
	}
	Register(&Language{
		Lang:     snapshot.LangGo,
		Grammars: map[string]string{".go": "go"},
		Extract:  extractGo,
		TestName: func(n string) bool {
			return strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Benchmark") ||
				strings.HasPrefix(n, "Fuzz") || strings.HasPrefix(n, "Example")
		},
	})
}

// gokind is n.Kind() without the copy.
func gokind(n *sitter.Node) string {
	if id := int(n.KindId()); id < len(goKinds) {
		return goKinds[id]
	}
	return n.Kind()
}

// gofld is n.ChildByFieldName(name) by field id.
func gofld(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	if id := goFields[name]; id != 0 {
		return n.ChildByFieldId(id)
	}
	return n.ChildByFieldName(name)
}

// goImportPath is the import path of the package in folder dir, from the
// governing go.mod (the standard library's go.mod names module "std",
// whose packages are named by folder alone).
func goImportPath(repo *Repo, dir string) string {
	if dir == "." {
		dir = ""
	}
	modDir, data, ok := repo.FindUp(dir, "go.mod")
	if !ok {
		// Indexing a folder inside a module (a package of the standard
		// library, say): take the module from above the root.
		above, adata, aok := repo.FindAbove("go.mod")
		if !aok {
			return dir
		}
		modDir, data = above, adata
	}
	module := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok {
			module = strings.Trim(strings.TrimSpace(rest), `"`)
			break
		}
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(dir, modDir), "/")
	if strings.HasPrefix(modDir, "../") || modDir == ".." {
		rel = strings.Trim(path.Join(strings.TrimPrefix(repo.RootRel(modDir), "/"), dir), "/")
	}
	switch {
	case module == "" || module == "std":
		return rel
	case rel == "":
		return module
	}
	return module + "/" + rel
}

type goExtractor struct {
	f      *File
	r      *FileResult
	locals map[string]string // variable → type, inside the current function
}

func extractGo(f *File, r *FileResult) {
	x := &goExtractor{f: f, r: r}
	dir := path.Dir(f.Path)
	pkg := goImportPath(f.Repo, dir)
	root := f.Root
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		if gokind(c) == "package_clause" {
			if c.NamedChildCount() > 0 && strings.HasSuffix(f.Text(c.NamedChild(0)), "_test") {
				pkg += "_test"
			}
			break
		}
	}
	r.Package, r.Scope = pkg, pkg
	for _, seg := range strings.Split(dir, "/") {
		if strings.HasPrefix(seg, "_") || strings.HasPrefix(seg, ".") && seg != "." {
			// The go tool ignores these folders: not part of any build.
			r.Flags |= snapshot.FlagGenerated
		}
	}
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		switch gokind(c) {
		case "import_declaration":
			x.imports(c)
		case "function_declaration", "method_declaration":
			x.function(c)
		case "type_declaration":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				s := c.NamedChild(j)
				if k := gokind(s); k == "type_spec" || k == "type_alias" {
					x.typeSpec(s, c)
				}
			}
		case "const_declaration", "var_declaration":
			x.valueDecl(c, -1)
		}
	}
}

func (x *goExtractor) imports(n *sitter.Node) {
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		if gokind(n) == "import_spec" {
			p := strings.Trim(x.f.Text(gofld(n, "path")), "\"`")
			alias := ""
			if a := gofld(n, "name"); a != nil {
				alias = x.f.Text(a)
			}
			if alias == "_" {
				return
			}
			if alias == "." {
				x.r.Imports = append(x.r.Imports, Import{Path: p, Name: "*"})
				return
			}
			if alias == "" {
				// The package name is usually the last path element,
				// without a major-version suffix or a "go-" prefix.
				alias = LastPart(p)
				if len(alias) > 1 && alias[0] == 'v' && strings.Trim(alias[1:], "0123456789") == "" {
					alias = LastPart(path.Dir(p))
				}
				alias = strings.TrimPrefix(alias, "go-")
				alias = strings.ReplaceAll(strings.TrimSuffix(alias, ".go"), "-", "")
			}
			x.r.Imports = append(x.r.Imports, Import{Path: p, Alias: alias})
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			visit(n.NamedChild(i))
		}
	}
	visit(n)
}

// doc returns the comment block right above n (or above its declaration
// group), with comment markers removed.
func (x *goExtractor) doc(n *sitter.Node) string {
	return PrecedingComments(x.f, n, "//")
}

func (x *goExtractor) add(s Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
}

func (x *goExtractor) function(n *sitter.Node) {
	name := x.f.Text(gofld(n, "name"))
	if name == "" {
		return
	}
	body := gofld(n, "body")
	s := Symbol{
		Name: name, Kind: snapshot.KindFunction, Parent: -1,
		Start: Line(n), End: EndLine(n), Signature: Signature(x.f, n, body),
		Doc: x.doc(n), Flags: ExportedFlag(name),
	}
	x.locals = map[string]string{}
	if recv := gofld(n, "receiver"); recv != nil {
		s.Kind = snapshot.KindMethod
		for i := uint(0); i < recv.NamedChildCount(); i++ {
			p := recv.NamedChild(i)
			t := goTypeName(x.f, gofld(p, "type"))
			s.Receiver = t
			if v := gofld(p, "name"); v != nil {
				x.locals[x.f.Text(v)] = t
			}
		}
	}
	if res := gofld(n, "result"); res != nil {
		s.Type = goTypeName(x.f, res)
	}
	id := x.add(s)
	x.params(gofld(n, "parameters"), id)
	if res := gofld(n, "result"); res != nil {
		x.typeRefs(res, id, RefTypeHint)
	}
	if body != nil {
		x.body(body, id)
	}
	x.locals = nil
}

func (x *goExtractor) params(pl *sitter.Node, from int32) {
	if pl == nil {
		return
	}
	for i := uint(0); i < pl.NamedChildCount(); i++ {
		p := pl.NamedChild(i)
		typ := gofld(p, "type")
		if typ == nil {
			continue
		}
		t := goTypeName(x.f, typ)
		for j := uint(0); j < p.NamedChildCount(); j++ {
			if c := p.NamedChild(j); gokind(c) == "identifier" && x.locals != nil {
				x.locals[x.f.Text(c)] = t
			}
		}
		x.typeRefs(typ, from, RefTypeHint)
	}
}

// goTypeName reduces a type expression to the name of its named type:
// *pkg.Foo[T] → pkg.Foo, []Foo → Foo, map[K]V → V, chan T → T.
func goTypeName(f *File, n *sitter.Node) string {
	for n != nil {
		switch gokind(n) {
		case "type_identifier", "identifier", "package_identifier":
			return f.Text(n)
		case "qualified_type":
			return f.Text(gofld(n, "package")) + "." + f.Text(gofld(n, "name"))
		case "pointer_type", "parenthesized_type", "slice_type", "array_type", "channel_type":
			if e := gofld(n, "element"); e != nil {
				n = e
				continue
			}
			if e := gofld(n, "value"); e != nil {
				n = e
				continue
			}
			if n.NamedChildCount() == 0 {
				return ""
			}
			n = n.NamedChild(n.NamedChildCount() - 1)
		case "generic_type":
			n = gofld(n, "type")
		case "map_type":
			n = gofld(n, "value")
		case "parameter_list":
			// A result list: take the first named result type.
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if t := gofld(n.NamedChild(i), "type"); t != nil {
					return goTypeName(f, t)
				}
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// typeRefs records references to every named type inside a type expression.
func (x *goExtractor) typeRefs(n *sitter.Node, from int32, kind RefKind) {
	if n == nil {
		return
	}
	switch gokind(n) {
	case "type_identifier":
		name := x.f.Text(n)
		if !goBuiltinType[name] {
			x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: kind, Name: name, Line: Line(n)})
		}
		return
	case "qualified_type":
		x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: kind, Qual: x.f.Text(gofld(n, "package")),
			Name: x.f.Text(gofld(n, "name")), Line: Line(n)})
		return
	case "struct_type", "interface_type", "func_literal", "block":
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.typeRefs(n.NamedChild(i), from, kind)
	}
}

var goBuiltinType = map[string]bool{
	"bool": true, "byte": true, "rune": true, "string": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "comparable": true,
}

func (x *goExtractor) typeSpec(n *sitter.Node, decl *sitter.Node) {
	name := x.f.Text(gofld(n, "name"))
	if name == "" {
		return
	}
	typ := gofld(n, "type")
	kind := snapshot.KindTypeAlias
	if typ != nil {
		switch gokind(typ) {
		case "struct_type":
			kind = snapshot.KindStruct
		case "interface_type":
			kind = snapshot.KindInterface
		}
	}
	doc := x.doc(n)
	if doc == "" && decl.NamedChildCount() == 1 {
		doc = x.doc(decl)
	}
	sig := "type " + name
	if typ != nil && (kind == snapshot.KindStruct || kind == snapshot.KindInterface) {
		sig += " " + strings.SplitN(gokind(typ), "_", 2)[0]
	} else if typ != nil {
		sig = Signature(x.f, n, nil)
	}
	id := x.add(Symbol{Name: name, Kind: kind, Parent: -1, Start: Line(n), End: EndLine(n),
		Signature: sig, Doc: doc, Flags: ExportedFlag(name)})
	if typ == nil {
		return
	}
	switch kind {
	case snapshot.KindStruct:
		x.structFields(typ, id)
	case snapshot.KindInterface:
		x.interfaceMethods(typ, id)
	default:
		x.typeRefs(typ, id, RefType)
	}
}

func (x *goExtractor) structFields(st *sitter.Node, owner int32) {
	var list *sitter.Node
	for i := uint(0); i < st.NamedChildCount(); i++ {
		if c := st.NamedChild(i); gokind(c) == "field_declaration_list" {
			list = c
		}
	}
	if list == nil {
		return
	}
	for i := uint(0); i < list.NamedChildCount(); i++ {
		fd := list.NamedChild(i)
		if gokind(fd) != "field_declaration" {
			continue
		}
		typ := gofld(fd, "type")
		tname := goTypeName(x.f, typ)
		named := false
		for j := uint(0); j < fd.NamedChildCount(); j++ {
			c := fd.NamedChild(j)
			if gokind(c) != "field_identifier" {
				continue
			}
			named = true
			fname := x.f.Text(c)
			x.add(Symbol{Name: fname, Kind: snapshot.KindField, Parent: owner, Start: Line(fd), End: EndLine(fd),
				Signature: strings.Join(strings.Fields(x.f.Text(fd)), " "), Doc: x.doc(fd), Type: tname, Flags: ExportedFlag(fname)})
		}
		if !named && tname != "" {
			// An embedded field: its methods are promoted, like a base.
			x.r.Symbols[owner].Extends = append(x.r.Symbols[owner].Extends, tname)
			// It is also a field named after the type.
			x.add(Symbol{Name: LastPart(tname), Kind: snapshot.KindField, Parent: owner, Start: Line(fd), End: EndLine(fd),
				Signature: strings.Join(strings.Fields(x.f.Text(fd)), " "), Type: tname, Flags: ExportedFlag(LastPart(tname))})
		}
		x.typeRefs(typ, owner, RefType)
	}
}

func (x *goExtractor) interfaceMethods(it *sitter.Node, owner int32) {
	for i := uint(0); i < it.NamedChildCount(); i++ {
		m := it.NamedChild(i)
		switch gokind(m) {
		case "method_elem", "method_spec":
			name := x.f.Text(gofld(m, "name"))
			if name == "" {
				continue
			}
			id := x.add(Symbol{Name: name, Kind: snapshot.KindMethod, Parent: owner, Start: Line(m), End: EndLine(m),
				Signature: strings.Join(strings.Fields(x.f.Text(m)), " "), Doc: x.doc(m), Flags: ExportedFlag(name)})
			x.params(gofld(m, "parameters"), id)
			if res := gofld(m, "result"); res != nil {
				x.typeRefs(res, id, RefTypeHint)
			}
		case "type_elem", "constraint_elem", "interface_type_name", "qualified_type", "type_identifier":
			for j := uint(0); j < m.NamedChildCount() || j == 0; j++ {
				t := m
				if m.NamedChildCount() > 0 {
					t = m.NamedChild(j)
				}
				if name := goTypeName(x.f, t); name != "" && !goBuiltinType[name] {
					x.r.Symbols[owner].Extends = append(x.r.Symbols[owner].Extends, name)
				}
				if m.NamedChildCount() == 0 {
					break
				}
			}
		}
	}
}

func (x *goExtractor) valueDecl(n *sitter.Node, parent int32) {
	kind := snapshot.KindVariable
	if gokind(n) == "const_declaration" {
		kind = snapshot.KindConstant
	}
	var visit func(c *sitter.Node)
	visit = func(c *sitter.Node) {
		switch gokind(c) {
		case "const_spec", "var_spec":
			typ := gofld(c, "type")
			tname := goTypeName(x.f, typ)
			doc := x.doc(c)
			if doc == "" {
				doc = x.doc(n)
			}
			for j := uint(0); j < c.NamedChildCount(); j++ {
				id := c.NamedChild(j)
				if gokind(id) != "identifier" || x.f.Text(id) == "_" {
					continue
				}
				name := x.f.Text(id)
				sym := x.add(Symbol{Name: name, Kind: kind, Parent: parent, Start: Line(c), End: EndLine(c),
					Signature: FirstLine(x.f.Text(c)), Doc: doc, Type: tname, Flags: ExportedFlag(name)})
				if typ != nil {
					x.typeRefs(typ, sym, RefType)
				}
				if v := gofld(c, "value"); v != nil {
					x.body(v, sym)
				}
			}
		case "const_spec_list", "var_spec_list":
			for j := uint(0); j < c.NamedChildCount(); j++ {
				visit(c.NamedChild(j))
			}
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		visit(n.NamedChild(i))
	}
}

// body records calls, type uses and typed locals inside a function body.
func (x *goExtractor) body(n *sitter.Node, from int32) {
	switch gokind(n) {
	case "call_expression":
		x.call(n, from)
	case "composite_literal":
		x.typeRefs(gofld(n, "type"), from, RefType)
	case "short_var_declaration", "assignment_statement":
		x.assign(n)
	case "var_spec":
		if t := gofld(n, "type"); t != nil && x.locals != nil {
			tn := goTypeName(x.f, t)
			for j := uint(0); j < n.NamedChildCount(); j++ {
				if c := n.NamedChild(j); gokind(c) == "identifier" {
					x.locals[x.f.Text(c)] = tn
				}
			}
		}
	case "func_literal":
		x.params(gofld(n, "parameters"), from)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		x.body(n.NamedChild(i), from)
	}
}

// assign learns the types of locals from `x := &T{}`, `x := T{}`,
// `x := new(T)` and `x := pkg.NewT()` (as "call:" hints the resolver can
// use when the called function's result type is known).
func (x *goExtractor) assign(n *sitter.Node) {
	if x.locals == nil {
		return
	}
	left, right := gofld(n, "left"), gofld(n, "right")
	if left == nil || right == nil || left.NamedChildCount() == 0 || right.NamedChildCount() == 0 {
		return
	}
	name := x.f.Text(left.NamedChild(0))
	v := right.NamedChild(0)
	if gokind(v) == "unary_expression" {
		if o := gofld(v, "operand"); o != nil {
			v = o
		}
	}
	switch gokind(v) {
	case "composite_literal":
		if t := goTypeName(x.f, gofld(v, "type")); t != "" {
			x.locals[name] = t
		}
	case "call_expression":
		fn := gofld(v, "function")
		if fn != nil && x.f.Text(fn) == "new" {
			if args := gofld(v, "arguments"); args != nil && args.NamedChildCount() > 0 {
				x.locals[name] = goTypeName(x.f, args.NamedChild(0))
			}
		} else if c := selectorChain(x.f, fn); c != "" {
			// The result type of the called function, found by the resolver.
			x.locals[name] = "call:" + c
		}
	}
}

func (x *goExtractor) call(n *sitter.Node, from int32) {
	fn := gofld(n, "function")
	for fn != nil && (gokind(fn) == "index_expression" || gokind(fn) == "generic_type" || gokind(fn) == "parenthesized_expression") {
		if o := gofld(fn, "operand"); o != nil {
			fn = o
		} else if t := gofld(fn, "type"); t != nil {
			fn = t
		} else if fn.NamedChildCount() > 0 {
			fn = fn.NamedChild(0)
		} else {
			return
		}
	}
	if fn == nil {
		return
	}
	switch gokind(fn) {
	case "identifier":
		name := x.f.Text(fn)
		if goBuiltinFunc[name] {
			return
		}
		x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: RefCall, Name: name, Line: Line(n)})
	case "selector_expression":
		name := x.f.Text(gofld(fn, "field"))
		qual := selectorChain(x.f, gofld(fn, "operand"))
		ref := Ref{From: from, Kind: RefCall, Name: name, Qual: qual, Line: Line(n)}
		if qual != "" && x.locals != nil {
			first, _, _ := strings.Cut(qual, ".")
			if t, ok := x.locals[first]; ok {
				ref.QualType = t
			}
		}
		x.r.Refs = append(x.r.Refs, ref)
	}
}

// selectorChain renders a.b.c for a chain of identifiers and fields, or ""
// when the operand is anything else (a call result, an index).
func selectorChain(f *File, n *sitter.Node) string {
	if n == nil {
		return ""
	}
	switch gokind(n) {
	case "identifier", "field_identifier", "package_identifier", "type_identifier":
		return f.Text(n)
	case "selector_expression":
		left := selectorChain(f, gofld(n, "operand"))
		if left == "" {
			return ""
		}
		return left + "." + f.Text(gofld(n, "field"))
	case "parenthesized_expression", "unary_expression":
		if n.NamedChildCount() > 0 {
			return selectorChain(f, n.NamedChild(n.NamedChildCount()-1))
		}
	}
	return ""
}

var goBuiltinFunc = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}
