// Package golang is the Go extractor of knowing: functions, methods (with
// their receiver type), structs with their fields and embedded types,
// interfaces with their methods and embedded interfaces, type aliases,
// constants and variables; calls with the type of their receiver where
// the file tells it, type uses, and imports.
//
// Qualified names start with the package's import path, from the go.mod
// that governs the folder (example.com/shop/store.MemoryStore.Get); an
// external test package (package x_test) is the import path with "_test".
// The package is the Scope: its files see each other's names.
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package golang

import (
	"path"
	"strings"
	"sync"
	"unicode"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// The grammar's field ids.
var (
	fName, fType, fPath, fBody, fReceiver, fResult, fParameters uint16
	fValue, fPackage, fElement, fLeft, fRight, fOperand, fField uint16
	fFunction, fArguments                                       uint16
)

// kindNames are the grammar's node kinds by id: Node.Kind copies the name
// out of C on every call.
var kindNames []string

// setupOnce fills the field ids and kindNames on first use: at start-up
// they would cost every command, queries included.
var setupOnce sync.Once

// setup fills the field ids and kindNames.
func setup() {
	lang := sitter.NewLanguage(tsgo.Language())
	extract.FieldIDs(lang, map[string]*uint16{
		"name": &fName, "type": &fType, "path": &fPath, "body": &fBody, "receiver": &fReceiver,
		"result": &fResult, "parameters": &fParameters, "value": &fValue, "package": &fPackage,
		"element": &fElement, "left": &fLeft, "right": &fRight, "operand": &fOperand,
		"field": &fField, "function": &fFunction, "arguments": &fArguments,
	})
	kindNames = extract.KindNames(lang)
}

func init() {
	extract.Register(&extract.Language{
		Lang:     snapshot.LangGo,
		Grammars: map[string]string{".go": "go"},
		Extract:  extractGo,
		TestName: func(n string) bool {
			return strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Benchmark") ||
				strings.HasPrefix(n, "Fuzz") || strings.HasPrefix(n, "Example")
		},
	})
}

// importPath is the import path of the package in folder dir, from the
// governing go.mod (the standard library's go.mod names module "std",
// whose packages are named by folder alone).
func importPath(repo *extract.Repo, dir string) string {
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

// extractor reads a file's tree flattened into Go memory (see
// extract.Base): walking it takes no cgo call per node.
type extractor struct {
	extract.Base
	locals map[string]string // variable → type, inside the current function
}

// importPathKey keys a folder's import path in the repository's memo.
type importPathKey struct{ dir string }

func extractGo(f *extract.File, r *extract.FileResult) {
	setupOnce.Do(setup)
	x := &extractor{Base: extract.Base{FlatTree: extract.NewNamedFlatTree(f.Root, f.Src, kindNames), F: f, R: r}}
	defer x.Release()
	dir := path.Dir(f.Path)
	pkg := extract.Memo(f.Repo, importPathKey{dir}, func() string { return importPath(f.Repo, dir) })
	const root = 0
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "package_clause" {
			if pc := x.FirstNamed(c); pc >= 0 && strings.HasSuffix(x.Text(pc), "_test") {
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
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "import_declaration":
			x.imports(c)
		case "function_declaration", "method_declaration":
			x.function(c)
		case "type_declaration":
			for s := x.FirstNamed(c); s >= 0; s = x.NextNamed(s) {
				if k := x.Kind(s); k == "type_spec" || k == "type_alias" {
					x.typeSpec(s, c)
				}
			}
		case "const_declaration", "var_declaration":
			x.valueDecl(c, -1)
		}
	}
}

func (x *extractor) imports(n int32) {
	var visit func(n int32)
	visit = func(n int32) {
		if x.Kind(n) == "import_spec" {
			p := strings.Trim(x.Text(x.Field(n, fPath)), "\"`")
			alias := ""
			if a := x.Field(n, fName); a >= 0 {
				alias = x.Text(a)
			}
			if alias == "_" {
				return
			}
			if alias == "." {
				x.R.Imports = append(x.R.Imports, extract.Import{Path: p, Name: "*"})
				return
			}
			if alias == "" {
				// The package name is usually the last path element,
				// without a major-version suffix or a "go-" prefix.
				alias = extract.LastPart(p)
				if len(alias) > 1 && alias[0] == 'v' && strings.Trim(alias[1:], "0123456789") == "" {
					alias = extract.LastPart(path.Dir(p))
				}
				alias = strings.TrimPrefix(alias, "go-")
				alias = strings.ReplaceAll(strings.TrimSuffix(alias, ".go"), "-", "")
			}
			x.R.Imports = append(x.R.Imports, extract.Import{Path: p, Alias: alias})
			return
		}
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			visit(c)
		}
	}
	visit(n)
}

// doc returns the comment block right above n (or above its declaration
// group), with comment markers removed.
func (x *extractor) doc(n int32) string {
	return x.PrecedingComments(n, "//")
}

func (x *extractor) function(n int32) {
	name := x.Text(x.Field(n, fName))
	if name == "" {
		return
	}
	body := x.Field(n, fBody)
	s := extract.Symbol{
		Name: name, Kind: snapshot.KindFunction, Parent: -1,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.Signature(n, body),
		Doc: x.doc(n), Flags: extract.ExportedFlag(name),
	}
	x.locals = map[string]string{}
	if recv := x.Field(n, fReceiver); recv >= 0 {
		s.Kind = snapshot.KindMethod
		for p := x.FirstNamed(recv); p >= 0; p = x.NextNamed(p) {
			t := x.typeName(x.Field(p, fType))
			s.Receiver = t
			if v := x.Field(p, fName); v >= 0 {
				x.locals[x.Text(v)] = t
			}
		}
	}
	if res := x.Field(n, fResult); res >= 0 {
		s.Type = x.typeName(res)
	}
	id := x.Add(s)
	x.params(x.Field(n, fParameters), id)
	if res := x.Field(n, fResult); res >= 0 {
		x.typeRefs(res, id, extract.RefTypeHint)
	}
	if body >= 0 {
		x.body(body, id)
	}
	x.locals = nil
}

func (x *extractor) params(pl int32, from int32) {
	if pl < 0 {
		return
	}
	for p := x.FirstNamed(pl); p >= 0; p = x.NextNamed(p) {
		typ := x.Field(p, fType)
		if typ < 0 {
			continue
		}
		t := x.typeName(typ)
		for c := x.FirstNamed(p); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "identifier" && x.locals != nil {
				x.locals[x.Text(c)] = t
			}
		}
		x.typeRefs(typ, from, extract.RefTypeHint)
	}
}

// typeName reduces a type expression to the name of its named type:
// *pkg.Foo[T] → pkg.Foo, []Foo → Foo, map[K]V → V, chan T → T.
func (x *extractor) typeName(n int32) string {
	for n >= 0 {
		switch x.Kind(n) {
		case "type_identifier", "identifier", "package_identifier":
			return x.Text(n)
		case "qualified_type":
			return x.Text(x.Field(n, fPackage)) + "." + x.Text(x.Field(n, fName))
		case "pointer_type", "parenthesized_type", "slice_type", "array_type", "channel_type":
			if e := x.Field(n, fElement); e >= 0 {
				n = e
				continue
			}
			if e := x.Field(n, fValue); e >= 0 {
				n = e
				continue
			}
			last := x.LastNamed(n)
			if last < 0 {
				return ""
			}
			n = last
		case "generic_type":
			n = x.Field(n, fType)
		case "map_type":
			n = x.Field(n, fValue)
		case "parameter_list":
			// A result list: take the first named result type.
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				if t := x.Field(c, fType); t >= 0 {
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
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.Kind(n) {
	case "type_identifier":
		name := x.Text(n)
		if !builtinType[name] {
			x.AddRef(extract.Ref{From: from, Kind: kind, Name: name, Line: x.Line(n)})
		}
		return
	case "qualified_type":
		x.AddRef(extract.Ref{From: from, Kind: kind, Qual: x.Text(x.Field(n, fPackage)),
			Name: x.Text(x.Field(n, fName)), Line: x.Line(n)})
		return
	case "struct_type", "interface_type", "func_literal", "block":
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.typeRefs(c, from, kind)
	}
}

var builtinType = extract.WordSet(`bool byte rune string error any int int8 int16 int32 int64 uint
	uint8 uint16 uint32 uint64 uintptr float32 float64 complex64 complex128 comparable`)

func (x *extractor) typeSpec(n int32, decl int32) {
	name := x.Text(x.Field(n, fName))
	if name == "" {
		return
	}
	typ := x.Field(n, fType)
	kind := snapshot.KindTypeAlias
	if typ >= 0 {
		switch x.Kind(typ) {
		case "struct_type":
			kind = snapshot.KindStruct
		case "interface_type":
			kind = snapshot.KindInterface
		}
	}
	doc := x.doc(n)
	if doc == "" && x.NamedCount(decl) == 1 {
		doc = x.doc(decl)
	}
	sig := "type " + name
	if typ >= 0 && (kind == snapshot.KindStruct || kind == snapshot.KindInterface) {
		sig += " " + strings.SplitN(x.Kind(typ), "_", 2)[0]
	} else if typ >= 0 {
		sig = x.Signature(n, -1)
	}
	id := x.Add(extract.Symbol{Name: name, Kind: kind, Parent: -1, Start: x.Line(n), End: x.EndLine(n),
		Signature: sig, Doc: doc, Flags: extract.ExportedFlag(name)})
	if typ < 0 {
		return
	}
	switch kind {
	case snapshot.KindStruct:
		x.structFields(typ, id)
	case snapshot.KindInterface:
		x.interfaceMethods(typ, id)
	default:
		x.typeRefs(typ, id, extract.RefType)
	}
}

func (x *extractor) structFields(st int32, owner int32) {
	list := int32(-1)
	for c := x.FirstNamed(st); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "field_declaration_list" {
			list = c
		}
	}
	if list < 0 {
		return
	}
	for fd := x.FirstNamed(list); fd >= 0; fd = x.NextNamed(fd) {
		if x.Kind(fd) != "field_declaration" {
			continue
		}
		typ := x.Field(fd, fType)
		tname := x.typeName(typ)
		named := false
		for c := x.FirstNamed(fd); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) != "field_identifier" {
				continue
			}
			named = true
			fname := x.Text(c)
			x.Add(extract.Symbol{Name: fname, Kind: snapshot.KindField, Parent: owner, Start: x.Line(fd), End: x.EndLine(fd),
				Signature: strings.Join(strings.Fields(x.Text(fd)), " "), Doc: x.doc(fd), Type: tname, Flags: extract.ExportedFlag(fname)})
		}
		if !named && tname != "" {
			// An embedded field: its methods are promoted, like a base.
			x.R.Symbols[owner].Extends = append(x.R.Symbols[owner].Extends, tname)
			// It is also a field named after the type.
			x.Add(extract.Symbol{Name: extract.LastPart(tname), Kind: snapshot.KindField, Parent: owner, Start: x.Line(fd), End: x.EndLine(fd),
				Signature: strings.Join(strings.Fields(x.Text(fd)), " "), Type: tname, Flags: extract.ExportedFlag(extract.LastPart(tname))})
		}
		x.typeRefs(typ, owner, extract.RefType)
	}
}

func (x *extractor) interfaceMethods(it int32, owner int32) {
	for m := x.FirstNamed(it); m >= 0; m = x.NextNamed(m) {
		switch x.Kind(m) {
		case "method_elem", "method_spec":
			name := x.Text(x.Field(m, fName))
			if name == "" {
				continue
			}
			id := x.Add(extract.Symbol{Name: name, Kind: snapshot.KindMethod, Parent: owner, Start: x.Line(m), End: x.EndLine(m),
				Signature: strings.Join(strings.Fields(x.Text(m)), " "), Doc: x.doc(m), Flags: extract.ExportedFlag(name)})
			x.params(x.Field(m, fParameters), id)
			if res := x.Field(m, fResult); res >= 0 {
				x.typeRefs(res, id, extract.RefTypeHint)
			}
		case "type_elem", "constraint_elem", "interface_type_name", "qualified_type", "type_identifier":
			// Each named child is a type; a bare name is its own.
			ts := []int32{m}
			if c := x.FirstNamed(m); c >= 0 {
				ts = ts[:0]
				for ; c >= 0; c = x.NextNamed(c) {
					ts = append(ts, c)
				}
			}
			for _, t := range ts {
				if name := x.typeName(t); name != "" && !builtinType[name] {
					x.R.Symbols[owner].Extends = append(x.R.Symbols[owner].Extends, name)
				}
			}
		}
	}
}

func (x *extractor) valueDecl(n int32, parent int32) {
	kind := snapshot.KindVariable
	if x.Kind(n) == "const_declaration" {
		kind = snapshot.KindConstant
	}
	var visit func(c int32)
	visit = func(c int32) {
		switch x.Kind(c) {
		case "const_spec", "var_spec":
			typ := x.Field(c, fType)
			tname := x.typeName(typ)
			doc := x.doc(c)
			if doc == "" {
				doc = x.doc(n)
			}
			for id := x.FirstNamed(c); id >= 0; id = x.NextNamed(id) {
				if x.Kind(id) != "identifier" || x.Text(id) == "_" {
					continue
				}
				name := x.Text(id)
				sym := x.Add(extract.Symbol{Name: name, Kind: kind, Parent: parent, Start: x.Line(c), End: x.EndLine(c),
					Signature: extract.FirstLine(x.Text(c)), Doc: doc, Type: tname, Flags: extract.ExportedFlag(name)})
				if typ >= 0 {
					x.typeRefs(typ, sym, extract.RefType)
				}
				if v := x.Field(c, fValue); v >= 0 {
					x.body(v, sym)
				}
			}
		case "const_spec_list", "var_spec_list":
			for s := x.FirstNamed(c); s >= 0; s = x.NextNamed(s) {
				visit(s)
			}
		}
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		visit(c)
	}
}

// body records calls, type uses and typed locals inside a function body.
func (x *extractor) body(n int32, from int32) {
	switch x.Kind(n) {
	case "call_expression":
		x.call(n, from)
	case "composite_literal":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
	case "short_var_declaration", "assignment_statement":
		x.assign(n)
	case "var_spec":
		if t := x.Field(n, fType); t >= 0 && x.locals != nil {
			tn := x.typeName(t)
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				if x.Kind(c) == "identifier" {
					x.locals[x.Text(c)] = tn
				}
			}
		}
	case "func_literal":
		x.params(x.Field(n, fParameters), from)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.body(c, from)
	}
}

// assign learns the types of locals from `x := &T{}`, `x := T{}`,
// `x := new(T)` and `x := pkg.NewT()` (as "call:" hints the resolver can
// use when the called function's result type is known).
func (x *extractor) assign(n int32) {
	if x.locals == nil {
		return
	}
	left, right := x.Field(n, fLeft), x.Field(n, fRight)
	if left < 0 || right < 0 || x.FirstNamed(left) < 0 || x.FirstNamed(right) < 0 {
		return
	}
	name := x.Text(x.FirstNamed(left))
	v := x.FirstNamed(right)
	if x.Kind(v) == "unary_expression" {
		if o := x.Field(v, fOperand); o >= 0 {
			v = o
		}
	}
	switch x.Kind(v) {
	case "composite_literal":
		if t := x.typeName(x.Field(v, fType)); t != "" {
			x.locals[name] = t
		}
	case "call_expression":
		fn := x.Field(v, fFunction)
		if fn >= 0 && x.Text(fn) == "new" {
			if args := x.Field(v, fArguments); args >= 0 && x.FirstNamed(args) >= 0 {
				x.locals[name] = x.typeName(x.FirstNamed(args))
			}
		} else if c := x.selectorChain(fn); c != "" {
			// The result type of the called function, found by the resolver.
			x.locals[name] = "call:" + x.typedChain(c)
		} else if t := x.operandType(v); t != "" {
			x.locals[name] = t // a call on a call's result
		}
	}
}

func (x *extractor) call(n int32, from int32) {
	fn := x.Field(n, fFunction)
	for fn >= 0 && (x.Kind(fn) == "index_expression" || x.Kind(fn) == "generic_type" || x.Kind(fn) == "parenthesized_expression") {
		if o := x.Field(fn, fOperand); o >= 0 {
			fn = o
		} else if t := x.Field(fn, fType); t >= 0 {
			fn = t
		} else if c := x.FirstNamed(fn); c >= 0 {
			fn = c
		} else {
			return
		}
	}
	if fn < 0 {
		return
	}
	switch x.Kind(fn) {
	case "identifier":
		name := x.Text(fn)
		if builtinFunc[name] {
			return
		}
		x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
	case "selector_expression":
		name := x.Text(x.Field(fn, fField))
		qual := x.selectorChain(x.Field(fn, fOperand))
		ref := extract.Ref{From: from, Kind: extract.RefCall, Name: name, Qual: qual, Line: x.Line(n)}
		if qual == "" {
			// A method of a call's result, of a type assertion, an index
			// or a literal: never a function of this package. The type,
			// when the operand tells it, decides; a chain whose types
			// leave what the resolver knows (an untyped variable at its
			// root) falls back to the name, as on an unknown receiver.
			ref.Qual, ref.QualType = "()", extract.OrName(x.operandType(x.Field(fn, fOperand)))
		} else {
			first := extract.FirstName(qual)
			if t, ok := x.locals[first]; ok {
				ref.QualType = t
			}
		}
		x.R.Refs = append(x.R.Refs, ref)
	}
}

// operandType is the QualType of an operand that is not a plain chain: a
// call's result as "call:..." (the resolver follows chains of calls, as
// in caddy.ActiveContext().App("http")), a type assertion's type, or "".
func (x *extractor) operandType(n int32) string {
	for n >= 0 && x.Kind(n) == "parenthesized_expression" {
		n = x.FirstNamed(n)
	}
	if n < 0 {
		return ""
	}
	switch x.Kind(n) {
	case "type_assertion_expression":
		return x.typeName(x.Field(n, fType))
	case "call_expression":
		fn := x.Field(n, fFunction)
		if fn < 0 {
			return ""
		}
		switch x.Kind(fn) {
		case "identifier":
			if name := x.Text(fn); !builtinFunc[name] {
				return "call:" + name
			}
		case "selector_expression":
			field := x.Text(x.Field(fn, fField))
			if c := x.selectorChain(fn); c != "" {
				return "call:" + x.typedChain(c)
			}
			switch inner := x.operandType(x.Field(fn, fOperand)); {
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
func (x *extractor) typedChain(c string) string {
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
	if base := strings.TrimLeft(t, "*"); startsUpper(extract.LastPart(base)) {
		return base + "." + rest
	}
	return c
}

// selectorChain renders a.b.c for a chain of identifiers and fields, or ""
// when the operand is anything else (a call result, an index).
func (x *extractor) selectorChain(n int32) string {
	if n < 0 {
		return ""
	}
	switch x.Kind(n) {
	case "identifier", "field_identifier", "package_identifier", "type_identifier":
		return x.Text(n)
	case "selector_expression":
		left := x.selectorChain(x.Field(n, fOperand))
		if left == "" {
			return ""
		}
		return left + "." + x.Text(x.Field(n, fField))
	case "parenthesized_expression", "unary_expression":
		if last := x.LastNamed(n); last >= 0 {
			return x.selectorChain(last)
		}
	}
	return ""
}

var builtinFunc = extract.WordSet(`append cap clear close complex copy delete imag len make max min
	new panic print println real recover`)

// startsUpper reports whether s starts with an upper-case letter.
func startsUpper(s string) bool {
	for _, c := range s {
		return unicode.IsUpper(c)
	}
	return false
}
