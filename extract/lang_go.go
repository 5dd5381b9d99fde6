package extract

import (
	"path"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/snapshot"
)

// The grammar's field ids.
var (
	goName, goType, goPath, goBody, goReceiver, goResult, goParameters uint16
	goValue, goPackage, goElement, goLeft, goRight, goOperand, goField uint16
	goFunction, goArguments                                            uint16
)

// goKinds are the grammar's node kinds by id: Node.Kind copies the name
// out of C on every call.
var goKinds []string

// goSetupOnce fills the field ids and goKinds on first use: at start-up
// they would cost every command, queries included.
var goSetupOnce sync.Once

func goSetup() {
	lang := grammar("go")
	for _, f := range []struct {
		id   *uint16
		name string
	}{{&goName, "name"}, {&goType, "type"}, {&goPath, "path"}, {&goBody, "body"}, {&goReceiver, "receiver"},
		{&goResult, "result"}, {&goParameters, "parameters"}, {&goValue, "value"}, {&goPackage, "package"},
		{&goElement, "element"}, {&goLeft, "left"}, {&goRight, "right"}, {&goOperand, "operand"},
		{&goField, "field"}, {&goFunction, "function"}, {&goArguments, "arguments"}} {
		*f.id = lang.FieldIdForName(f.name)
	}
	goKinds = KindNames(lang)
}

func init() {
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

// goExtractor reads a file's tree flattened into Go memory (FlatTree):
// walking it takes no cgo call per node. Nodes are indices, -1 is none.
type goExtractor struct {
	f      *File
	t      *FlatTree
	r      *FileResult
	locals map[string]string // variable → type, inside the current function
}

// kind is the node kind of n.
func (x *goExtractor) kind(n int32) string { return x.t.Kind(n) }

// text is the source text of n ("" for -1).
func (x *goExtractor) text(n int32) string { return x.t.Text(n) }

// fld is the child of n in field f, or -1.
func (x *goExtractor) fld(n int32, f uint16) int32 { return x.t.Field(n, f) }

// goImportPathKey keys a folder's import path in the repository's memo.
type goImportPathKey struct{ dir string }

func extractGo(f *File, r *FileResult) {
	goSetupOnce.Do(goSetup)
	t := NewNamedFlatTree(f.Root, f.Src, goKinds)
	defer t.Release()
	x := &goExtractor{f: f, t: t, r: r}
	dir := path.Dir(f.Path)
	pkg := Memo(f.Repo, goImportPathKey{dir}, func() string { return goImportPath(f.Repo, dir) })
	const root = 0
	for c := t.FirstNamed(root); c >= 0; c = t.NextNamed(c) {
		if x.kind(c) == "package_clause" {
			if pc := t.FirstNamed(c); pc >= 0 && strings.HasSuffix(x.text(pc), "_test") {
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
	for c := t.FirstNamed(root); c >= 0; c = t.NextNamed(c) {
		switch x.kind(c) {
		case "import_declaration":
			x.imports(c)
		case "function_declaration", "method_declaration":
			x.function(c)
		case "type_declaration":
			for s := t.FirstNamed(c); s >= 0; s = t.NextNamed(s) {
				if k := x.kind(s); k == "type_spec" || k == "type_alias" {
					x.typeSpec(s, c)
				}
			}
		case "const_declaration", "var_declaration":
			x.valueDecl(c, -1)
		}
	}
}

func (x *goExtractor) imports(n int32) {
	var visit func(n int32)
	visit = func(n int32) {
		if x.kind(n) == "import_spec" {
			p := strings.Trim(x.text(x.fld(n, goPath)), "\"`")
			alias := ""
			if a := x.fld(n, goName); a >= 0 {
				alias = x.text(a)
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
		for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
			visit(c)
		}
	}
	visit(n)
}

// doc returns the comment block right above n (or above its declaration
// group), with comment markers removed.
func (x *goExtractor) doc(n int32) string {
	return x.t.PrecedingComments(n, "//")
}

func (x *goExtractor) add(s Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
}

func (x *goExtractor) function(n int32) {
	name := x.text(x.fld(n, goName))
	if name == "" {
		return
	}
	body := x.fld(n, goBody)
	s := Symbol{
		Name: name, Kind: snapshot.KindFunction, Parent: -1,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.t.Signature(n, body),
		Doc: x.doc(n), Flags: ExportedFlag(name),
	}
	x.locals = map[string]string{}
	if recv := x.fld(n, goReceiver); recv >= 0 {
		s.Kind = snapshot.KindMethod
		for p := x.t.FirstNamed(recv); p >= 0; p = x.t.NextNamed(p) {
			t := x.typeName(x.fld(p, goType))
			s.Receiver = t
			if v := x.fld(p, goName); v >= 0 {
				x.locals[x.text(v)] = t
			}
		}
	}
	if res := x.fld(n, goResult); res >= 0 {
		s.Type = x.typeName(res)
	}
	id := x.add(s)
	x.params(x.fld(n, goParameters), id)
	if res := x.fld(n, goResult); res >= 0 {
		x.typeRefs(res, id, RefTypeHint)
	}
	if body >= 0 {
		x.body(body, id)
	}
	x.locals = nil
}

func (x *goExtractor) params(pl int32, from int32) {
	if pl < 0 {
		return
	}
	for p := x.t.FirstNamed(pl); p >= 0; p = x.t.NextNamed(p) {
		typ := x.fld(p, goType)
		if typ < 0 {
			continue
		}
		t := x.typeName(typ)
		for c := x.t.FirstNamed(p); c >= 0; c = x.t.NextNamed(c) {
			if x.kind(c) == "identifier" && x.locals != nil {
				x.locals[x.text(c)] = t
			}
		}
		x.typeRefs(typ, from, RefTypeHint)
	}
}

// typeName reduces a type expression to the name of its named type:
// *pkg.Foo[T] → pkg.Foo, []Foo → Foo, map[K]V → V, chan T → T.
func (x *goExtractor) typeName(n int32) string {
	for n >= 0 {
		switch x.kind(n) {
		case "type_identifier", "identifier", "package_identifier":
			return x.text(n)
		case "qualified_type":
			return x.text(x.fld(n, goPackage)) + "." + x.text(x.fld(n, goName))
		case "pointer_type", "parenthesized_type", "slice_type", "array_type", "channel_type":
			if e := x.fld(n, goElement); e >= 0 {
				n = e
				continue
			}
			if e := x.fld(n, goValue); e >= 0 {
				n = e
				continue
			}
			last := x.t.LastNamed(n)
			if last < 0 {
				return ""
			}
			n = last
		case "generic_type":
			n = x.fld(n, goType)
		case "map_type":
			n = x.fld(n, goValue)
		case "parameter_list":
			// A result list: take the first named result type.
			for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
				if t := x.fld(c, goType); t >= 0 {
					return x.typeName(t)
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
func (x *goExtractor) typeRefs(n int32, from int32, kind RefKind) {
	if n < 0 {
		return
	}
	switch x.kind(n) {
	case "type_identifier":
		name := x.text(n)
		if !goBuiltinType[name] {
			x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: kind, Name: name, Line: x.t.Line(n)})
		}
		return
	case "qualified_type":
		x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: kind, Qual: x.text(x.fld(n, goPackage)),
			Name: x.text(x.fld(n, goName)), Line: x.t.Line(n)})
		return
	case "struct_type", "interface_type", "func_literal", "block":
		return
	}
	for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
		x.typeRefs(c, from, kind)
	}
}

var goBuiltinType = map[string]bool{
	"bool": true, "byte": true, "rune": true, "string": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "comparable": true,
}

func (x *goExtractor) typeSpec(n int32, decl int32) {
	name := x.text(x.fld(n, goName))
	if name == "" {
		return
	}
	typ := x.fld(n, goType)
	kind := snapshot.KindTypeAlias
	if typ >= 0 {
		switch x.kind(typ) {
		case "struct_type":
			kind = snapshot.KindStruct
		case "interface_type":
			kind = snapshot.KindInterface
		}
	}
	doc := x.doc(n)
	if doc == "" && x.t.NamedCount(decl) == 1 {
		doc = x.doc(decl)
	}
	sig := "type " + name
	if typ >= 0 && (kind == snapshot.KindStruct || kind == snapshot.KindInterface) {
		sig += " " + strings.SplitN(x.kind(typ), "_", 2)[0]
	} else if typ >= 0 {
		sig = x.t.Signature(n, -1)
	}
	id := x.add(Symbol{Name: name, Kind: kind, Parent: -1, Start: x.t.Line(n), End: x.t.EndLine(n),
		Signature: sig, Doc: doc, Flags: ExportedFlag(name)})
	if typ < 0 {
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

func (x *goExtractor) structFields(st int32, owner int32) {
	list := int32(-1)
	for c := x.t.FirstNamed(st); c >= 0; c = x.t.NextNamed(c) {
		if x.kind(c) == "field_declaration_list" {
			list = c
		}
	}
	if list < 0 {
		return
	}
	for fd := x.t.FirstNamed(list); fd >= 0; fd = x.t.NextNamed(fd) {
		if x.kind(fd) != "field_declaration" {
			continue
		}
		typ := x.fld(fd, goType)
		tname := x.typeName(typ)
		named := false
		for c := x.t.FirstNamed(fd); c >= 0; c = x.t.NextNamed(c) {
			if x.kind(c) != "field_identifier" {
				continue
			}
			named = true
			fname := x.text(c)
			x.add(Symbol{Name: fname, Kind: snapshot.KindField, Parent: owner, Start: x.t.Line(fd), End: x.t.EndLine(fd),
				Signature: strings.Join(strings.Fields(x.text(fd)), " "), Doc: x.doc(fd), Type: tname, Flags: ExportedFlag(fname)})
		}
		if !named && tname != "" {
			// An embedded field: its methods are promoted, like a base.
			x.r.Symbols[owner].Extends = append(x.r.Symbols[owner].Extends, tname)
			// It is also a field named after the type.
			x.add(Symbol{Name: LastPart(tname), Kind: snapshot.KindField, Parent: owner, Start: x.t.Line(fd), End: x.t.EndLine(fd),
				Signature: strings.Join(strings.Fields(x.text(fd)), " "), Type: tname, Flags: ExportedFlag(LastPart(tname))})
		}
		x.typeRefs(typ, owner, RefType)
	}
}

func (x *goExtractor) interfaceMethods(it int32, owner int32) {
	for m := x.t.FirstNamed(it); m >= 0; m = x.t.NextNamed(m) {
		switch x.kind(m) {
		case "method_elem", "method_spec":
			name := x.text(x.fld(m, goName))
			if name == "" {
				continue
			}
			id := x.add(Symbol{Name: name, Kind: snapshot.KindMethod, Parent: owner, Start: x.t.Line(m), End: x.t.EndLine(m),
				Signature: strings.Join(strings.Fields(x.text(m)), " "), Doc: x.doc(m), Flags: ExportedFlag(name)})
			x.params(x.fld(m, goParameters), id)
			if res := x.fld(m, goResult); res >= 0 {
				x.typeRefs(res, id, RefTypeHint)
			}
		case "type_elem", "constraint_elem", "interface_type_name", "qualified_type", "type_identifier":
			// Each named child is a type; a bare name is its own.
			ts := []int32{m}
			if c := x.t.FirstNamed(m); c >= 0 {
				ts = ts[:0]
				for ; c >= 0; c = x.t.NextNamed(c) {
					ts = append(ts, c)
				}
			}
			for _, t := range ts {
				if name := x.typeName(t); name != "" && !goBuiltinType[name] {
					x.r.Symbols[owner].Extends = append(x.r.Symbols[owner].Extends, name)
				}
			}
		}
	}
}

func (x *goExtractor) valueDecl(n int32, parent int32) {
	kind := snapshot.KindVariable
	if x.kind(n) == "const_declaration" {
		kind = snapshot.KindConstant
	}
	var visit func(c int32)
	visit = func(c int32) {
		switch x.kind(c) {
		case "const_spec", "var_spec":
			typ := x.fld(c, goType)
			tname := x.typeName(typ)
			doc := x.doc(c)
			if doc == "" {
				doc = x.doc(n)
			}
			for id := x.t.FirstNamed(c); id >= 0; id = x.t.NextNamed(id) {
				if x.kind(id) != "identifier" || x.text(id) == "_" {
					continue
				}
				name := x.text(id)
				sym := x.add(Symbol{Name: name, Kind: kind, Parent: parent, Start: x.t.Line(c), End: x.t.EndLine(c),
					Signature: FirstLine(x.text(c)), Doc: doc, Type: tname, Flags: ExportedFlag(name)})
				if typ >= 0 {
					x.typeRefs(typ, sym, RefType)
				}
				if v := x.fld(c, goValue); v >= 0 {
					x.body(v, sym)
				}
			}
		case "const_spec_list", "var_spec_list":
			for s := x.t.FirstNamed(c); s >= 0; s = x.t.NextNamed(s) {
				visit(s)
			}
		}
	}
	for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
		visit(c)
	}
}

// body records calls, type uses and typed locals inside a function body.
func (x *goExtractor) body(n int32, from int32) {
	switch x.kind(n) {
	case "call_expression":
		x.call(n, from)
	case "composite_literal":
		x.typeRefs(x.fld(n, goType), from, RefType)
	case "short_var_declaration", "assignment_statement":
		x.assign(n)
	case "var_spec":
		if t := x.fld(n, goType); t >= 0 && x.locals != nil {
			tn := x.typeName(t)
			for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
				if x.kind(c) == "identifier" {
					x.locals[x.text(c)] = tn
				}
			}
		}
	case "func_literal":
		x.params(x.fld(n, goParameters), from)
	}
	for c := x.t.FirstNamed(n); c >= 0; c = x.t.NextNamed(c) {
		x.body(c, from)
	}
}

// assign learns the types of locals from `x := &T{}`, `x := T{}`,
// `x := new(T)` and `x := pkg.NewT()` (as "call:" hints the resolver can
// use when the called function's result type is known).
func (x *goExtractor) assign(n int32) {
	if x.locals == nil {
		return
	}
	left, right := x.fld(n, goLeft), x.fld(n, goRight)
	if left < 0 || right < 0 || x.t.FirstNamed(left) < 0 || x.t.FirstNamed(right) < 0 {
		return
	}
	name := x.text(x.t.FirstNamed(left))
	v := x.t.FirstNamed(right)
	if x.kind(v) == "unary_expression" {
		if o := x.fld(v, goOperand); o >= 0 {
			v = o
		}
	}
	switch x.kind(v) {
	case "composite_literal":
		if t := x.typeName(x.fld(v, goType)); t != "" {
			x.locals[name] = t
		}
	case "call_expression":
		fn := x.fld(v, goFunction)
		if fn >= 0 && x.text(fn) == "new" {
			if args := x.fld(v, goArguments); args >= 0 && x.t.FirstNamed(args) >= 0 {
				x.locals[name] = x.typeName(x.t.FirstNamed(args))
			}
		} else if c := x.selectorChain(fn); c != "" {
			// The result type of the called function, found by the resolver.
			x.locals[name] = "call:" + x.typedChain(c)
		} else if t := x.operandType(v); t != "" {
			x.locals[name] = t // a call on a call's result
		}
	}
}

func (x *goExtractor) call(n int32, from int32) {
	fn := x.fld(n, goFunction)
	for fn >= 0 && (x.kind(fn) == "index_expression" || x.kind(fn) == "generic_type" || x.kind(fn) == "parenthesized_expression") {
		if o := x.fld(fn, goOperand); o >= 0 {
			fn = o
		} else if t := x.fld(fn, goType); t >= 0 {
			fn = t
		} else if c := x.t.FirstNamed(fn); c >= 0 {
			fn = c
		} else {
			return
		}
	}
	if fn < 0 {
		return
	}
	switch x.kind(fn) {
	case "identifier":
		name := x.text(fn)
		if goBuiltinFunc[name] {
			return
		}
		x.r.Refs = append(x.r.Refs, Ref{From: from, Kind: RefCall, Name: name, Line: x.t.Line(n)})
	case "selector_expression":
		name := x.text(x.fld(fn, goField))
		qual := x.selectorChain(x.fld(fn, goOperand))
		ref := Ref{From: from, Kind: RefCall, Name: name, Qual: qual, Line: x.t.Line(n)}
		if qual == "" {
			// A method of a call's result, of a type assertion, an index
			// or a literal: never a function of this package. The type,
			// when the operand tells it, decides; a chain whose types
			// leave what the resolver knows (an untyped variable at its
			// root) falls back to the name, as on an unknown receiver.
			ref.Qual, ref.QualType = "()", OrName(x.operandType(x.fld(fn, goOperand)))
		} else {
			first, _, _ := strings.Cut(qual, ".")
			if t, ok := x.locals[first]; ok {
				ref.QualType = t
			}
		}
		x.r.Refs = append(x.r.Refs, ref)
	}
}

// operandType is the QualType of an operand that is not a plain chain: a
// call's result as "call:..." (the resolver follows chains of calls, as
// in caddy.ActiveContext().App("http")), a type assertion's type, or "".
func (x *goExtractor) operandType(n int32) string {
	for n >= 0 && x.kind(n) == "parenthesized_expression" {
		n = x.t.FirstNamed(n)
	}
	if n < 0 {
		return ""
	}
	switch x.kind(n) {
	case "type_assertion_expression":
		return x.typeName(x.fld(n, goType))
	case "call_expression":
		fn := x.fld(n, goFunction)
		if fn < 0 {
			return ""
		}
		switch x.kind(fn) {
		case "identifier":
			if name := x.text(fn); !goBuiltinFunc[name] {
				return "call:" + name
			}
		case "selector_expression":
			field := x.text(x.fld(fn, goField))
			if c := x.selectorChain(fn); c != "" {
				return "call:" + x.typedChain(c)
			}
			switch inner := x.operandType(x.fld(fn, goOperand)); {
			case strings.HasPrefix(inner, "call:"):
				return inner + "()." + field
			case inner != "":
				return "call:" + inner + "." + field
			}
		}
	}
	return ""
}

// typedChain is chain a.b.f with a, when it is a local of known type T,
// written as the type: T.b.f, or, for a local bound to a call, as that
// call's result: pkg.NewT().b.f (see resolver.resultTypes).
func (x *goExtractor) typedChain(c string) string {
	first, rest, dotted := strings.Cut(c, ".")
	t, ok := x.locals[first]
	if !ok || !dotted {
		return c
	}
	if call, isCall := strings.CutPrefix(t, "call:"); isCall {
		return call + "()." + rest
	}
	// The resolver reads a qualifier's first name as a type only when it
	// is capitalized (a lower-case one is as likely a variable).
	if base := strings.TrimLeft(t, "*"); startsUpper(LastPart(base)) {
		return base + "." + rest
	}
	return c
}

// selectorChain renders a.b.c for a chain of identifiers and fields, or ""
// when the operand is anything else (a call result, an index).
func (x *goExtractor) selectorChain(n int32) string {
	if n < 0 {
		return ""
	}
	switch x.kind(n) {
	case "identifier", "field_identifier", "package_identifier", "type_identifier":
		return x.text(n)
	case "selector_expression":
		left := x.selectorChain(x.fld(n, goOperand))
		if left == "" {
			return ""
		}
		return left + "." + x.text(x.fld(n, goField))
	case "parenthesized_expression", "unary_expression":
		if last := x.t.LastNamed(n); last >= 0 {
			return x.selectorChain(last)
		}
	}
	return ""
}

var goBuiltinFunc = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}
