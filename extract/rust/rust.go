// Package rust extracts Rust source files for knowing.
//
// Qualified names follow module paths, dotted, starting with the crate name
// (see locate in crate.go): `cargo.core.compiler.build_config.BuildConfig.emit_json`.
// Binaries, integration tests, benches and examples are crates of their own
// under the package's name: src/bin/x.rs is cargo.bin.x, tests/t.rs is
// cargo.tests.t. Package and Scope of a file are its module path; inline
// `mod m {}` blocks are KindModule symbols. Methods of `impl T` blocks hang
// under T when T is declared in the same module of the file (the usual
// case), else they carry Receiver T. Items inside a macro invocation among
// items (cfg_rt! { ... }, cfg_if! { ... }) are the enclosing module's or
// impl's (macros.go).
//
// Names are resolved as far as the file and the module files it imports
// allow: imports are reported at the module that declares the item
// (following `pub use` re-exports), calls qualified by a path carry a
// synthetic import whose alias is an opaque qualifier token (typeToken,
// modToken in body.go), typed locals, parameters and self carry their type,
// and calls known to leave the repository are not reported.
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package rust

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	extract.Register(&extract.Language{
		Lang:      snapshot.LangRust,
		Grammars:  map[string]string{".rs": "rust"},
		Extract:   extractRust,
		SelfNames: []string{"self", "Self"},
		// Files under tests/, benches/ hold tests and their helpers; in
		// other files tests are flagged by their #[test] attributes.
		TestName: func(string) bool { return true },
	})
}

// Kinds of names declared in a module.
const (
	itemUnknown uint8 = iota
	itemType
	itemFn
	itemMod
	itemValue
	itemMacro
)

// binding is what a name means in a module: an absolute path.
type binding struct {
	abs  string // dotted, from the crate name
	ext  bool   // outside the repository's crates
	kind uint8
}

// scope is a module of the file: the file itself or an inline `mod m {}`.
type scope struct {
	mod    string
	parent *scope
	items  map[string]uint8 // declared names
	syms   map[string]int32 // type symbols declared here, by name
	uses   map[string]binding
	// values are use bindings of the value namespace that differ from
	// uses: `use crate::version;` binds module version and fn version.
	values map[string]binding
	globs  []string // glob-imported modules
	nodes  []int32  // its use and extern crate declarations
	inner  []*scope // inline modules, in order
	// methods are the method names of the impl and trait blocks of this
	// module, by type name; fields the field types of its structs.
	methods map[string]map[string]bool
	fields  map[string]map[string]typeInfo
}

// typeInfo is what the extractor knows of the type of a value.
type typeInfo struct {
	abs  string // absolute type path, or a name as written when unresolved
	ext  bool   // an external type: its methods are not in the repository
	self bool   // the Self type of the enclosing impl or trait
}

// local is a variable of the current function.
type local struct {
	qualType string // type for Ref.QualType: a type path or "call:..."
	alias    string // a chain the variable stands for ("self.gctx")
	ext      bool
}

type extractor struct {
	extract.Base
	c      *repoCache
	ci     *crateInfo // the file's crate, nil outside packages
	root   string
	scopes map[string]*scope // by module path (the first of cfg'd twins)
	byNode map[int32]*scope  // inline module scopes by mod_item node
	tokens map[string]bool

	// The enclosing impl or trait.
	selfType     typeInfo
	selfName     string // its name as written
	selfAttached bool   // methods hang under the type symbol of this file
	// The current function.
	locals   map[string]local
	generics map[string]typeInfo
	sc       *scope
}

func extractRust(f *extract.File, r *extract.FileResult) {
	c := cacheFor(f.Repo)
	pkg, root, ci := c.locate(f.Path)
	r.Package, r.Scope = pkg, pkg
	setupOnce.Do(setup)
	t := extract.NewFlatTree(f.Root, f.Src, kindNames)
	if u := unwrapItemMacros(t, f.Src); u != nil {
		// Items in macro invocations (cfg_rt! { pub fn spawn() {} }) are
		// read as items: see macros.go.
		t.Release()
		t = u
	}
	x := &extractor{Base: extract.Base{FlatTree: t, F: f, R: r},
		c: c, ci: ci, root: root, scopes: map[string]*scope{}, byNode: map[int32]*scope{}, tokens: map[string]bool{}}
	defer x.Release()
	const rootNode = 0
	top := x.declare(rootNode, pkg, nil)
	x.resolveUses(top)
	x.items(rootNode, top, -1, false)
}

// declare records the names declared in a module and its inline modules.
func (x *extractor) declare(n int32, mod string, parent *scope) *scope {
	sc := &scope{mod: mod, parent: parent, items: map[string]uint8{}, syms: map[string]int32{}, uses: map[string]binding{}, values: map[string]binding{},
		methods: map[string]map[string]bool{}, fields: map[string]map[string]typeInfo{}}
	if x.scopes[mod] == nil {
		x.scopes[mod] = sc
	}
	if parent != nil {
		parent.inner = append(parent.inner, sc)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		k := itemUnknown
		switch x.Kind(c) {
		case "use_declaration", "extern_crate_declaration":
			sc.nodes = append(sc.nodes, c)
			continue
		case "struct_item", "enum_item", "union_item", "type_item":
			k = itemType
		case "trait_item":
			k = itemType
			x.declareMethods(sc, x.Text(x.Field(c, fName)), x.Field(c, fBody))
		case "function_item":
			k = itemFn
		case "impl_item":
			x.declareMethods(sc, x.implName(x.Field(c, fType)), x.Field(c, fBody))
			continue
		case "const_item", "static_item":
			k = itemValue
		case "macro_definition":
			k = itemMacro
		case "mod_item":
			k = itemMod
			if b := x.Field(c, fBody); b >= 0 {
				if name := x.Text(x.Field(c, fName)); name != "" {
					x.byNode[c] = x.declare(b, extract.JoinName(mod, name), sc)
				}
			}
		default:
			continue
		}
		if name := x.Text(x.Field(c, fName)); name != "" {
			sc.items[name] = k
		}
	}
	return sc
}

func (x *extractor) declareMethods(sc *scope, typ string, body int32) {
	if typ == "" || body < 0 {
		return
	}
	m := sc.methods[typ]
	if m == nil {
		m = map[string]bool{}
		sc.methods[typ] = m
	}
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "function_item" || x.Kind(c) == "function_signature_item" {
			m[x.Text(x.Field(c, fName))] = true
		}
	}
}

// resolveUses turns the use declarations of a scope (and its inline
// modules) into bindings and imports.
func (x *extractor) resolveUses(sc *scope) {
	for _, n := range sc.nodes {
		if x.Kind(n) == "extern_crate_declaration" {
			name := x.Text(x.Field(n, fName))
			alias := x.Text(x.Field(n, fAlias))
			if alias != "" && name != "" {
				sc.uses[alias] = binding{abs: name, ext: !x.c.visible(x.ci, name), kind: itemMod}
			}
			continue
		}
		arg := x.Field(n, fArgument)
		if arg < 0 {
			continue
		}
		for _, e := range parseUse(x.Text(arg)) {
			x.use(sc, e)
		}
	}
	for _, s := range sc.inner {
		x.resolveUses(s)
	}
}

func (x *extractor) use(sc *scope, e useEntry) {
	if len(e.segs) == 0 {
		return
	}
	abs, ext := x.absPath(e.segs, sc)
	if abs == "" {
		return
	}
	mod, last := extract.SplitName(abs)
	if last == "*" {
		sc.globs = append(sc.globs, mod)
		if !ext && mod != x.R.Package {
			x.R.Imports = append(x.R.Imports, extract.Import{Path: mod, Name: "*"})
		}
		return
	}
	local := e.alias
	if local == "" {
		local = last
	}
	if mod == "" {
		// `use serde;`, `use self::x as y;` of a crate: a module binding.
		if local != "_" {
			sc.uses[local] = binding{abs: abs, ext: ext, kind: itemMod}
		}
		return
	}
	alias := func(name string) string {
		if local != name {
			return local
		}
		return ""
	}
	if ext {
		b := binding{abs: abs, ext: true, kind: itemType}
		if !startsUpper(last) {
			b.kind = itemMod
			x.R.Imports = append(x.R.Imports, extract.Import{Path: abs, Alias: alias(last)})
		} else {
			x.R.Imports = append(x.R.Imports, extract.Import{Path: mod, Name: last, Alias: alias(last)})
		}
		if local != "_" {
			sc.uses[local] = b
		}
		return
	}
	res := x.resolveItem(mod, last, 0, false)
	b := binding{abs: extract.JoinName(res.mod, res.name)}
	if x.external(b.abs) {
		// Re-exported from outside the repository.
		b.ext, b.kind = true, itemType
		if !startsUpper(res.name) {
			b.kind = itemMod
		}
		if local != "_" {
			sc.uses[local] = b
		}
		return
	}
	switch {
	case res.isMod:
		b.kind = itemMod
		x.R.Imports = append(x.R.Imports, extract.Import{Path: b.abs, Alias: alias(res.name)})
	case res.found || startsUpper(res.name):
		b.kind = itemFn
		if startsUpper(res.name) {
			b.kind = itemType
		}
		x.R.Imports = append(x.R.Imports, extract.Import{Path: res.mod, Name: res.name, Alias: alias(res.name)})
	default:
		// Unknown: a module or a function. Both forms; the resolver keeps
		// what exists.
		x.R.Imports = append(x.R.Imports,
			extract.Import{Path: b.abs, Alias: alias(res.name)},
			extract.Import{Path: res.mod, Name: res.name, Alias: alias(res.name)})
	}
	if local != "_" {
		sc.uses[local] = b
	}
	if !startsUpper(last) && local != "_" {
		if rv := x.resolveItem(mod, last, 0, true); rv.found && !rv.isMod && (res.isMod || rv.mod != res.mod || rv.name != res.name) {
			v := binding{abs: extract.JoinName(rv.mod, rv.name), kind: itemFn, ext: x.external(extract.JoinName(rv.mod, rv.name))}
			sc.values[local] = v
			if !v.ext {
				x.R.Imports = append(x.R.Imports, extract.Import{Path: rv.mod, Name: rv.name, Alias: alias(rv.name)})
			}
		}
	}
}

// external reports whether an absolute path leaves the repository's crates
// (the file's own crate is always in).
func (x *extractor) external(abs string) bool {
	if x.ci != nil {
		if extract.FirstName(abs) == x.ci.name {
			return false
		}
	}
	return x.c.external(abs)
}

// absPath makes a path absolute as seen from scope sc.
func (x *extractor) absPath(segs []string, sc *scope) (string, bool) {
	if len(segs) == 0 {
		return "", true
	}
	switch segs[0] {
	case "crate", "$crate", "self", "super", "::":
		return x.c.absPath(segs, sc.mod, x.root, x.ci, nil)
	case "Self":
		if x.selfType.abs == "" {
			return "", true
		}
		return extract.JoinName(x.selfType.abs, strings.Join(segs[1:], ".")), x.selfType.ext
	}
	// The first element names a module or a type (types and values live
	// in different namespaces: `fn tar` does not hide the crate tar).
	if b, ok := x.lookupNS(sc, segs[0], true); ok && b.kind != itemFn && b.kind != itemValue && b.kind != itemMacro {
		return extract.JoinName(b.abs, strings.Join(segs[1:], ".")), b.ext
	}
	return x.c.absPath(segs, sc.mod, x.root, x.ci, nil)
}

// lookup finds what a name declared or imported in sc means, as a value
// first.
func (x *extractor) lookup(sc *scope, name string) (binding, bool) {
	return x.lookupNS(sc, name, false)
}

// lookupNS finds what a name means in the type namespace (modules and
// types: path prefixes, types) or in the value namespace (functions).
func (x *extractor) lookupNS(sc *scope, name string, typeNS bool) (binding, bool) {
	k, declared := sc.items[name]
	if typeNS {
		if declared && (k == itemType || k == itemMod) {
			return binding{abs: extract.JoinName(sc.mod, name), kind: k}, true
		}
	} else {
		if b, ok := sc.values[name]; ok {
			return b, true
		}
		if declared && k != itemMod {
			return binding{abs: extract.JoinName(sc.mod, name), kind: k}, true
		}
	}
	if b, ok := sc.uses[name]; ok {
		return b, true
	}
	if declared {
		return binding{abs: extract.JoinName(sc.mod, name), kind: k}, true
	}
	for _, g := range sc.globs {
		res := x.resolveItem(g, name, 0, false)
		if !res.found {
			continue
		}
		k := itemFn
		switch {
		case res.isMod:
			k = itemMod
		case startsUpper(res.name):
			k = itemType
		}
		abs := extract.JoinName(res.mod, res.name)
		return binding{abs: abs, kind: k, ext: x.external(abs)}, true
	}
	return binding{}, false
}

// resolveItem is repoCache.resolveItem that knows the modules of this file.
func (x *extractor) resolveItem(m, name string, depth int, value bool) itemRes {
	sc := x.scopes[m]
	if sc == nil {
		if p, last := extract.SplitName(m); p != "" && x.scopes[p] != nil {
			// A module reached through a name of this file.
			if r := x.resolveItem(p, last, depth+1, false); r.found && extract.JoinName(r.mod, r.name) != m && depth < 4 {
				return x.resolveItem(extract.JoinName(r.mod, r.name), name, depth+1, value)
			}
		}
		return x.c.resolveItem(x.c.canonMod(m), name, value)
	}
	if k, ok := sc.items[name]; ok {
		return itemRes{m, name, true, k == itemMod}
	}
	if b, ok := sc.uses[name]; ok && !b.ext {
		mod, n := extract.SplitName(b.abs)
		return itemRes{mod, n, true, b.kind == itemMod}
	}
	if depth < 4 {
		for _, g := range sc.globs {
			if r := x.resolveItem(g, name, depth+1, value); r.found {
				return r
			}
		}
	}
	return itemRes{mod: m, name: name}
}

func startsUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// leading reads the doc comments and attributes before an item.
type leadInfo struct {
	doc     string
	test    bool // #[test], #[tokio::test], #[cargo_test], #[bench], ...
	cfgTest bool // #[cfg(test)]
}

func (x *extractor) leading(n int32) leadInfo {
	var li leadInfo
	var parts []string
	line := x.Line(n)
	for p := x.N[n].Prev; p >= 0; p = x.N[p].Prev {
		k := x.Kind(p)
		if k == "attribute_item" {
			x.attribute(p, &li, &parts)
			line = x.Line(p)
			continue
		}
		if k != "line_comment" && k != "block_comment" {
			break
		}
		endLine := x.EndLine(p)
		if x.atLineStart(x.N[p].End) && x.N[p].EndRow > x.N[p].StartRow {
			// A line comment ends with its newline, at column 0.
			endLine--
		}
		if endLine+1 < line {
			break
		}
		text := x.Text(p)
		if strings.HasPrefix(text, "//!") || strings.HasPrefix(text, "/*!") {
			break
		}
		line = x.Line(p)
		parts = append(parts, extract.CleanComment(text, "///"))
		if len(parts) > 40 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	li.doc = strings.TrimSpace(strings.Join(parts, "\n"))
	return li
}

func (x *extractor) attribute(n int32, li *leadInfo, parts *[]string) {
	a := x.FirstNamed(n)
	if a < 0 || x.Kind(a) != "attribute" || x.FirstNamed(a) < 0 {
		return
	}
	name := x.Text(x.FirstNamed(a))
	last := lastSegment(name)
	switch {
	case name == "doc":
		if v := x.Field(a, fValue); v >= 0 {
			*parts = append(*parts, strings.TrimSpace(strings.Trim(x.Text(v), `"`)))
		}
	case name == "cfg":
		args := x.Text(x.Field(a, fArguments))
		if strings.Contains(args, "test") && !strings.Contains(args, "not(test") {
			li.cfgTest = true
		}
	case last == "test" || last == "bench" || strings.HasSuffix(last, "_test") || last == "rstest" || last == "test_case":
		li.test = true
	}
}

// exported reports `pub` visibility (any but pub(self)).
func (x *extractor) exported(n int32) snapshot.Flags {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "visibility_modifier" {
			if t := x.Text(c); strings.HasPrefix(t, "pub") && !strings.Contains(t, "self") {
				return snapshot.FlagExported
			}
			return 0
		}
		if x.Kind(c) != "attribute_item" {
			break
		}
	}
	return 0
}

func testFlag(b bool) snapshot.Flags {
	if b {
		return snapshot.FlagTest
	}
	return 0
}

// items extracts the items of a module body. impl blocks come last, so
// that the types they extend are declared first.
func (x *extractor) items(n int32, sc *scope, parent int32, inTest bool) {
	var impls []int32
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "impl_item":
			impls = append(impls, c)
		case "function_item":
			x.sc = sc
			li := x.leading(c)
			x.function(c, sc, parent, snapshot.KindFunction, x.exported(c)|testFlag(inTest || li.test || li.cfgTest), li, "", "")
		case "struct_item", "union_item":
			x.structItem(c, sc, parent, inTest)
		case "enum_item":
			x.enumItem(c, sc, parent, inTest)
		case "trait_item":
			x.traitItem(c, sc, parent, inTest)
		case "type_item":
			x.sc = sc
			li := x.leading(c)
			name := x.Text(x.Field(c, fName))
			if name == "" {
				continue
			}
			id := x.Add(extract.Symbol{Name: name, Kind: snapshot.KindTypeAlias, Parent: parent,
				Start: x.Line(c), End: x.EndLine(c), Signature: extract.FirstLine(x.Text(c)),
				Doc: li.doc, Flags: x.exported(c) | testFlag(inTest || li.cfgTest)})
			sc.syms[name] = id
			x.withGenerics(c, nil, func() { x.typeRefs(x.Field(c, fType), id, extract.RefType) })
		case "const_item", "static_item":
			x.sc = sc
			x.valueItem(c, sc, parent, inTest, "", "")
		case "macro_definition":
			li := x.leading(c)
			name := x.Text(x.Field(c, fName))
			if name == "" {
				continue
			}
			x.Add(extract.Symbol{Name: name, Kind: snapshot.KindFunction, Parent: parent,
				Start: x.Line(c), End: x.EndLine(c), Signature: "macro_rules! " + name,
				Doc: li.doc, Flags: testFlag(inTest || li.cfgTest)})
		case "mod_item":
			body := x.Field(c, fBody)
			name := x.Text(x.Field(c, fName))
			if body < 0 || name == "" {
				continue
			}
			li := x.leading(c)
			doc := li.doc
			if inner := x.innerDoc(body); inner != "" {
				doc = strings.TrimSpace(doc + "\n" + inner)
			}
			test := inTest || li.cfgTest || li.test
			id := x.Add(extract.Symbol{Name: name, Kind: snapshot.KindModule, Parent: parent,
				Start: x.Line(c), End: x.EndLine(c), Signature: x.Signature(c, body),
				Doc: doc, Flags: x.exported(c) | testFlag(test)})
			if child := x.byNode[c]; child != nil {
				x.items(body, child, id, test)
			}
		}
	}
	for _, c := range impls {
		x.implItem(c, sc, parent, inTest)
	}
	x.sc = sc
}

// innerDoc collects the //! comments at the start of a module body.
func (x *extractor) innerDoc(body int32) string {
	var parts []string
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "line_comment" && x.Kind(c) != "block_comment" {
			break
		}
		t := x.Text(c)
		if strings.HasPrefix(t, "//!") || strings.HasPrefix(t, "/*!") {
			parts = append(parts, extract.CleanComment(strings.Replace(t, "/*!", "/*", 1), "//!"))
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// typeSymbol is the symbol of kind k of a struct, union, enum or trait item
// n, not yet added, and the item's body (-1 for none); ok is false for an
// item without a name. The signature is the header up to the body, or the
// whole item for a tuple struct.
func (x *extractor) typeSymbol(n int32, sc *scope, parent int32, inTest bool, k snapshot.Kind) (s extract.Symbol, body int32, ok bool) {
	name := x.Text(x.Field(n, fName))
	if name == "" {
		return s, -1, false
	}
	x.sc = sc
	li := x.leading(n)
	body = x.Field(n, fBody)
	sig := x.Signature(n, body)
	if body >= 0 && x.Kind(body) == "ordered_field_declaration_list" {
		sig = x.Signature(n, -1)
	}
	return extract.Symbol{Name: name, Kind: k, Parent: parent, Start: x.Line(n), End: x.EndLine(n),
		Signature: sig, Doc: li.doc, Flags: x.exported(n) | testFlag(inTest || li.cfgTest)}, body, true
}

// addType adds the symbol of a type item declared in module sc.
func (x *extractor) addType(sc *scope, s extract.Symbol) int32 {
	id := x.Add(s)
	sc.syms[s.Name] = id
	return id
}

func (x *extractor) structItem(n int32, sc *scope, parent int32, inTest bool) {
	s, body, ok := x.typeSymbol(n, sc, parent, inTest, snapshot.KindStruct)
	if !ok {
		return
	}
	id := x.addType(sc, s)
	x.withGenerics(n, nil, func() { x.fields(body, id, s.Flags&snapshot.FlagTest) })
}

// fields adds the named fields of a struct or struct variant.
func (x *extractor) fields(body int32, owner int32, test snapshot.Flags) {
	if body < 0 {
		return
	}
	for fd := x.FirstNamed(body); fd >= 0; fd = x.NextNamed(fd) {
		switch x.Kind(fd) {
		case "field_declaration":
			name := x.Text(x.Field(fd, fName))
			typ := x.Field(fd, fType)
			if name == "" {
				continue
			}
			t := x.principal(typ)
			if x.sc != nil && x.R.Symbols[owner].Kind == snapshot.KindStruct {
				owners := x.sc.fields[x.R.Symbols[owner].Name]
				if owners == nil {
					owners = map[string]typeInfo{}
					x.sc.fields[x.R.Symbols[owner].Name] = owners
				}
				owners[name] = t
			}
			x.Add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: owner,
				Start: x.Line(fd), End: x.EndLine(fd), Signature: extract.FirstLine(x.Text(fd)),
				Doc: x.leading(fd).doc, Type: x.typeString(t), Flags: x.exported(fd) | test})
			x.typeRefs(typ, owner, extract.RefType)
		case "visibility_modifier", "attribute_item", "line_comment", "block_comment":
		default:
			// A tuple field's type.
			x.typeRefs(fd, owner, extract.RefType)
		}
	}
}

func (x *extractor) enumItem(n int32, sc *scope, parent int32, inTest bool) {
	s, body, ok := x.typeSymbol(n, sc, parent, inTest, snapshot.KindEnum)
	if !ok {
		return
	}
	flags := s.Flags
	id := x.addType(sc, s)
	if body < 0 {
		return
	}
	x.withGenerics(n, nil, func() {
		for v := x.FirstNamed(body); v >= 0; v = x.NextNamed(v) {
			if x.Kind(v) != "enum_variant" {
				continue
			}
			vname := x.Text(x.Field(v, fName))
			if vname == "" {
				continue
			}
			x.Add(extract.Symbol{Name: vname, Kind: snapshot.KindConstant, Parent: id,
				Start: x.Line(v), End: x.EndLine(v), Signature: extract.FirstLine(x.Text(v)),
				Doc: x.leading(v).doc, Flags: flags})
			if vb := x.Field(v, fBody); vb >= 0 {
				x.typeRefs(vb, id, extract.RefType)
			}
		}
	})
}

func (x *extractor) traitItem(n int32, sc *scope, parent int32, inTest bool) {
	s, body, ok := x.typeSymbol(n, sc, parent, inTest, snapshot.KindTrait)
	if !ok {
		return
	}
	name, flags := s.Name, s.Flags
	if b := x.Field(n, fBounds); b >= 0 {
		for kid := x.FirstNamed(b); kid >= 0; kid = x.NextNamed(kid) {
			if t := x.baseName(kid); t != "" {
				s.Extends = append(s.Extends, t)
			}
		}
	}
	id := x.addType(sc, s)
	if body < 0 {
		return
	}
	x.withSelf(typeInfo{abs: extract.JoinName(sc.mod, name), self: true}, true, name, func() {
		x.withGenerics(n, nil, func() { x.implBody(body, sc, id, flags, "", "", "") })
	})
}

// withSelf runs fn inside an impl or trait block: with its Self type t
// (written as name), attached when the block's methods hang under a type
// symbol of this file.
func (x *extractor) withSelf(t typeInfo, attached bool, name string, fn func()) {
	saved, savedAtt, savedName := x.selfType, x.selfAttached, x.selfName
	x.selfType, x.selfAttached, x.selfName = t, attached, name
	fn()
	x.selfType, x.selfAttached, x.selfName = saved, savedAtt, savedName
}

// baseName renders a trait or type bound for Extends/Implements: the
// absolute path of a repository type, else the path as written (dotted).
func (x *extractor) baseName(n int32) string {
	t := x.principal(n)
	if t.abs == "" || t.self {
		return ""
	}
	if t.ext {
		// As written, so that the resolver can link a node standing for
		// the external trait through a module import (fmt.Display).
		w := n
		if x.Kind(w) == "generic_type" {
			w = x.Field(w, fType)
		}
		return strings.ReplaceAll(x.Text(w), "::", ".")
	}
	return t.abs
}

func (x *extractor) implItem(n int32, sc *scope, parent int32, inTest bool) {
	x.sc = sc
	li := x.leading(n)
	inTest = inTest || li.cfgTest
	body := x.Field(n, fBody)
	typ := x.Field(n, fType)
	if body < 0 || typ < 0 {
		return
	}
	var target typeInfo
	written := ""
	x.withGenerics(n, nil, func() {
		target = x.implTarget(typ)
		written = x.implName(typ)
	})
	if written == "" {
		return
	}
	if target.abs == "" {
		target = typeInfo{abs: written, ext: true}
	}
	owner, attached := int32(-1), false
	if id, ok := sc.syms[written]; ok && target.abs == extract.JoinName(sc.mod, written) {
		owner, attached = id, true
	}
	trait := ""
	if tr := x.Field(n, fTrait); tr >= 0 {
		x.withGenerics(n, nil, func() { trait = x.baseName(tr) })
	}
	if attached && trait != "" {
		s := &x.R.Symbols[owner]
		dup := false
		for _, t := range s.Implements {
			dup = dup || t == trait
		}
		if !dup {
			s.Implements = append(s.Implements, trait)
		}
	}
	if attached && trait != "" && (trait == "Deref" || strings.HasSuffix(trait, ".Deref")) {
		// Methods and fields of the deref target are reached through T:
		// for the resolver, T extends the target.
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) != "type_item" || x.Text(x.Field(c, fName)) != "Target" {
				continue
			}
			var t typeInfo
			x.withGenerics(n, nil, func() { t = x.principal(x.Field(c, fType)) })
			if t.abs != "" && !t.ext && !t.self {
				x.R.Symbols[owner].Extends = append(x.R.Symbols[owner].Extends, t.abs)
			}
		}
	}
	recv, qual := "", ""
	methodParent := owner
	if !attached {
		methodParent = parent
		if parent < 0 {
			recv = written
		} else {
			qual = written
		}
	}
	var flags snapshot.Flags
	if trait != "" {
		flags = snapshot.FlagExported
	}
	traitRef := ""
	if !attached && trait != "" {
		traitRef = trait
	}
	x.withSelf(target, attached, written, func() {
		x.withGenerics(n, nil, func() { x.implBody(body, sc, methodParent, flags|testFlag(inTest), recv, qual, traitRef) })
	})
}

// implBody extracts the functions and constants of an impl or trait body.
// traitRef, when set, is the implemented trait of a type not declared in
// this file: each method references it, the one link the file can give.
func (x *extractor) implBody(body int32, sc *scope, parent int32, flags snapshot.Flags, recv, qual, traitRef string) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "function_item", "function_signature_item":
			li := x.leading(c)
			fl := flags | x.exported(c) | testFlag(li.test || li.cfgTest)
			if flags&snapshot.FlagTest != 0 {
				fl |= snapshot.FlagTest
			}
			id := x.function(c, sc, parent, snapshot.KindMethod, fl, li, recv, qual)
			if id >= 0 && traitRef != "" {
				mod, name := extract.SplitName(traitRef)
				x.AddRef(extract.Ref{From: id, Kind: extract.RefType, Name: name, Qual: mod, Line: x.Line(c)})
			}
		case "const_item":
			x.valueItem(c, sc, parent, flags&snapshot.FlagTest != 0, recv, qual)
		}
	}
}

func (x *extractor) valueItem(n int32, sc *scope, parent int32, inTest bool, recv, qual string) {
	name := x.Text(x.Field(n, fName))
	if name == "" {
		return
	}
	li := x.leading(n)
	symKind := snapshot.KindConstant
	if x.Kind(n) == "static_item" {
		symKind = snapshot.KindVariable
	}
	typ := x.Field(n, fType)
	id := x.Add(extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
		Start: x.Line(n), End: x.EndLine(n), Signature: extract.FirstLine(x.Text(n)),
		Doc: li.doc, Type: x.typeString(x.principal(typ)), Flags: x.exported(n) | testFlag(inTest || li.cfgTest)})
	x.typeRefs(typ, id, extract.RefType)
	if v := x.Field(n, fValue); v >= 0 {
		x.locals = map[string]local{}
		x.body(v, id)
		x.locals = nil
	}
}

// function extracts a function or method with its parameters and body.
func (x *extractor) function(n int32, sc *scope, parent int32, symKind snapshot.Kind, flags snapshot.Flags, li leadInfo, recv, qual string) int32 {
	name := x.Text(x.Field(n, fName))
	if name == "" {
		return -1
	}
	body := x.Field(n, fBody)
	x.sc = sc
	id := int32(-1)
	x.withGenerics(n, map[string]local{}, func() {
		s := extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
			Start: x.Line(n), End: x.EndLine(n), Signature: x.Signature(n, body),
			Doc: li.doc, Flags: flags}
		ret := x.Field(n, fReturnType)
		if ret >= 0 {
			s.Type = x.typeString(x.principal(ret))
		}
		id = x.Add(s)
		if ps := x.Field(n, fParameters); ps >= 0 {
			x.params(ps, id)
		}
		x.typeRefs(ret, id, extract.RefTypeHint)
		if body >= 0 {
			x.body(body, id)
		}
	})
	return id
}

func (x *extractor) params(ps int32, from int32) {
	for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
		if x.Kind(p) != "parameter" {
			continue
		}
		typ := x.Field(p, fType)
		pat := x.Field(p, fPattern)
		if pat >= 0 && x.Kind(pat) == "identifier" && typ >= 0 {
			t := x.principal(typ)
			x.locals[x.Text(pat)] = x.localOf(t)
		}
		x.typeRefs(typ, from, extract.RefTypeHint)
	}
}

// localOf makes a local from a type.
func (x *extractor) localOf(t typeInfo) local {
	switch {
	case t.self:
		if x.selfAttached {
			return local{alias: "self"}
		}
		return local{qualType: x.selfType.abs, ext: x.selfType.ext}
	case t.ext:
		return local{ext: true}
	}
	return local{qualType: t.abs}
}

// typeString renders a type for Symbol.Type.
func (x *extractor) typeString(t typeInfo) string {
	if t.self {
		if x.selfAttached {
			return "Self"
		}
		return x.selfType.abs
	}
	return t.abs
}

// withGenerics runs fn with the type parameters of n (and its where clause)
// in scope, and with locals when given.
func (x *extractor) withGenerics(n int32, locals map[string]local, fn func()) {
	savedG, savedL := x.generics, x.locals
	tp := x.Field(n, fTypeParameters)
	where := int32(-1)
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "where_clause" {
			where = c
		}
	}
	if tp >= 0 || where >= 0 {
		g := make(map[string]typeInfo, len(savedG)+4)
		for k, v := range savedG {
			g[k] = v
		}
		x.generics = g
		if tp >= 0 {
			for p := x.FirstNamed(tp); p >= 0; p = x.NextNamed(p) {
				if x.Kind(p) != "type_parameter" {
					continue
				}
				name := x.Text(x.Field(p, fName))
				g[name] = typeInfo{ext: true}
				x.bound(g, name, x.Field(p, fBounds))
			}
		}
		if where >= 0 {
			for p := x.FirstNamed(where); p >= 0; p = x.NextNamed(p) {
				if l := x.Field(p, fLeft); l >= 0 && x.Kind(l) == "type_identifier" {
					name := x.Text(l)
					if _, ok := g[name]; ok {
						x.bound(g, name, x.Field(p, fBounds))
					}
				}
			}
		}
	}
	if locals != nil {
		x.locals = locals
	}
	fn()
	x.generics, x.locals = savedG, savedL
}

// bound makes the first repository trait bound of a type parameter its type.
func (x *extractor) bound(g map[string]typeInfo, name string, bounds int32) {
	if bounds < 0 || !g[name].ext {
		return
	}
	for kid := x.FirstNamed(bounds); kid >= 0; kid = x.NextNamed(kid) {
		if t := x.principal(kid); t.abs != "" && !t.ext {
			g[name] = t
			return
		}
	}
}
