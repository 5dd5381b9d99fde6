// Package rust extracts Rust source files for knowing.
//
// Qualified names follow module paths, dotted, starting with the crate name
// (see locate in crate.go): `cargo.core.compiler.build_config.BuildConfig.emit_json`.
// Binaries, integration tests, benches and examples are crates of their own
// under the package's name: src/bin/x.rs is cargo.bin.x, tests/t.rs is
// cargo.tests.t. Package and Scope of a file are its module path; inline
// `mod m {}` blocks are KindModule symbols. Methods of `impl T` blocks hang
// under T when T is declared in the same module of the file (the usual
// case), else they carry Receiver T.
//
// Names are resolved as far as the file and the module files it imports
// allow: imports are reported at the module that declares the item
// (following `pub use` re-exports), calls qualified by a path carry a
// synthetic import whose alias is an opaque qualifier token (typeToken,
// modToken in body.go), typed locals, parameters and self carry their type,
// and calls known to leave the repository are not reported.
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
	f      *extract.File
	r      *extract.FileResult
	t      *extract.FlatTree
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
	t := extract.NewFlatTree(f.Root, f.Src, kindNames())
	defer t.Release()
	x := &extractor{f: f, r: r, t: t, c: c, ci: ci, root: root, scopes: map[string]*scope{}, byNode: map[int32]*scope{}, tokens: map[string]bool{}}
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
	for c := x.first(n); c >= 0; c = x.next(c) {
		k := itemUnknown
		switch x.kind(c) {
		case "use_declaration", "extern_crate_declaration":
			sc.nodes = append(sc.nodes, c)
			continue
		case "struct_item", "enum_item", "union_item", "type_item":
			k = itemType
		case "trait_item":
			k = itemType
			x.declareMethods(sc, x.text(x.fld(c, "name")), x.fld(c, "body"))
		case "function_item":
			k = itemFn
		case "impl_item":
			x.declareMethods(sc, x.implName(x.fld(c, "type")), x.fld(c, "body"))
			continue
		case "const_item", "static_item":
			k = itemValue
		case "macro_definition":
			k = itemMacro
		case "mod_item":
			k = itemMod
			if b := x.fld(c, "body"); b >= 0 {
				if name := x.text(x.fld(c, "name")); name != "" {
					x.byNode[c] = x.declare(b, joinMod(mod, name), sc)
				}
			}
		default:
			continue
		}
		if name := x.text(x.fld(c, "name")); name != "" {
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
	for c := x.first(body); c >= 0; c = x.next(c) {
		if x.kind(c) == "function_item" || x.kind(c) == "function_signature_item" {
			m[x.text(x.fld(c, "name"))] = true
		}
	}
}

// resolveUses turns the use declarations of a scope (and its inline
// modules) into bindings and imports.
func (x *extractor) resolveUses(sc *scope) {
	for _, n := range sc.nodes {
		if x.kind(n) == "extern_crate_declaration" {
			name := x.text(x.fld(n, "name"))
			alias := x.text(x.fld(n, "alias"))
			if alias != "" && name != "" {
				sc.uses[alias] = binding{abs: name, ext: !x.c.visible(x.ci, name), kind: itemMod}
			}
			continue
		}
		arg := x.fld(n, "argument")
		if arg < 0 {
			continue
		}
		for _, e := range parseUse(x.text(arg)) {
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
	mod, last := splitLast(abs)
	if last == "*" {
		sc.globs = append(sc.globs, mod)
		if !ext && mod != x.r.Package {
			x.r.Imports = append(x.r.Imports, extract.Import{Path: mod, Name: "*"})
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
			x.r.Imports = append(x.r.Imports, extract.Import{Path: abs, Alias: alias(last)})
		} else {
			x.r.Imports = append(x.r.Imports, extract.Import{Path: mod, Name: last, Alias: alias(last)})
		}
		if local != "_" {
			sc.uses[local] = b
		}
		return
	}
	res := x.resolveItem(mod, last, 0, false)
	b := binding{abs: joinMod(res.mod, res.name)}
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
		x.r.Imports = append(x.r.Imports, extract.Import{Path: b.abs, Alias: alias(res.name)})
	case res.found || startsUpper(res.name):
		b.kind = itemFn
		if startsUpper(res.name) {
			b.kind = itemType
		}
		x.r.Imports = append(x.r.Imports, extract.Import{Path: res.mod, Name: res.name, Alias: alias(res.name)})
	default:
		// Unknown: a module or a function. Both forms; the resolver keeps
		// what exists.
		x.r.Imports = append(x.r.Imports,
			extract.Import{Path: b.abs, Alias: alias(res.name)},
			extract.Import{Path: res.mod, Name: res.name, Alias: alias(res.name)})
	}
	if local != "_" {
		sc.uses[local] = b
	}
	if !startsUpper(last) && local != "_" {
		if rv := x.resolveItem(mod, last, 0, true); rv.found && !rv.isMod && (res.isMod || rv.mod != res.mod || rv.name != res.name) {
			v := binding{abs: joinMod(rv.mod, rv.name), kind: itemFn, ext: x.external(joinMod(rv.mod, rv.name))}
			sc.values[local] = v
			if !v.ext {
				x.r.Imports = append(x.r.Imports, extract.Import{Path: rv.mod, Name: rv.name, Alias: alias(rv.name)})
			}
		}
	}
}

// external reports whether an absolute path leaves the repository's crates
// (the file's own crate is always in).
func (x *extractor) external(abs string) bool {
	if x.ci != nil {
		if first, _, _ := strings.Cut(abs, "."); first == x.ci.name {
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
		return joinMod(x.selfType.abs, strings.Join(segs[1:], ".")), x.selfType.ext
	}
	// The first element names a module or a type (types and values live
	// in different namespaces: `fn tar` does not hide the crate tar).
	if b, ok := x.lookupNS(sc, segs[0], true); ok && b.kind != itemFn && b.kind != itemValue && b.kind != itemMacro {
		return joinMod(b.abs, strings.Join(segs[1:], ".")), b.ext
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
			return binding{abs: joinMod(sc.mod, name), kind: k}, true
		}
	} else {
		if b, ok := sc.values[name]; ok {
			return b, true
		}
		if declared && k != itemMod {
			return binding{abs: joinMod(sc.mod, name), kind: k}, true
		}
	}
	if b, ok := sc.uses[name]; ok {
		return b, true
	}
	if declared {
		return binding{abs: joinMod(sc.mod, name), kind: k}, true
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
		abs := joinMod(res.mod, res.name)
		return binding{abs: abs, kind: k, ext: x.external(abs)}, true
	}
	return binding{}, false
}

// resolveItem is repoCache.resolveItem that knows the modules of this file.
func (x *extractor) resolveItem(m, name string, depth int, value bool) itemRes {
	sc := x.scopes[m]
	if sc == nil {
		if p, last := splitLast(m); p != "" && x.scopes[p] != nil {
			// A module reached through a name of this file.
			if r := x.resolveItem(p, last, depth+1, false); r.found && joinMod(r.mod, r.name) != m && depth < 4 {
				return x.resolveItem(joinMod(r.mod, r.name), name, depth+1, value)
			}
		}
		return x.c.resolveItem(x.c.canonMod(m), name, value)
	}
	if k, ok := sc.items[name]; ok {
		return itemRes{m, name, true, k == itemMod}
	}
	if b, ok := sc.uses[name]; ok && !b.ext {
		mod, n := splitLast(b.abs)
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

func (x *extractor) add(s extract.Symbol) int32 {
	x.r.Symbols = append(x.r.Symbols, s)
	return int32(len(x.r.Symbols) - 1)
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
	line := x.t.Line(n)
	for p := x.prev(n); p >= 0; p = x.prev(p) {
		k := x.kind(p)
		if k == "attribute_item" {
			x.attribute(p, &li, &parts)
			line = x.t.Line(p)
			continue
		}
		if k != "line_comment" && k != "block_comment" {
			break
		}
		endLine := x.t.EndLine(p)
		if x.atLineStart(x.t.N[p].End) && x.t.N[p].EndRow > x.t.N[p].StartRow {
			// A line comment ends with its newline, at column 0.
			endLine--
		}
		if endLine+1 < line {
			break
		}
		text := x.text(p)
		if strings.HasPrefix(text, "//!") || strings.HasPrefix(text, "/*!") {
			break
		}
		line = x.t.Line(p)
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
	a := x.first(n)
	if a < 0 || x.kind(a) != "attribute" || x.first(a) < 0 {
		return
	}
	name := x.text(x.first(a))
	last := name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		last = name[i+2:]
	}
	switch {
	case name == "doc":
		if v := x.fld(a, "value"); v >= 0 {
			*parts = append(*parts, strings.TrimSpace(strings.Trim(x.text(v), `"`)))
		}
	case name == "cfg":
		args := x.text(x.fld(a, "arguments"))
		if strings.Contains(args, "test") && !strings.Contains(args, "not(test") {
			li.cfgTest = true
		}
	case last == "test" || last == "bench" || strings.HasSuffix(last, "_test") || last == "rstest" || last == "test_case":
		li.test = true
	}
}

// exported reports `pub` visibility (any but pub(self)).
func (x *extractor) exported(n int32) snapshot.Flags {
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) == "visibility_modifier" {
			if t := x.text(c); strings.HasPrefix(t, "pub") && !strings.Contains(t, "self") {
				return snapshot.FlagExported
			}
			return 0
		}
		if x.kind(c) != "attribute_item" {
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
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
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
			name := x.text(x.fld(c, "name"))
			if name == "" {
				continue
			}
			id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindTypeAlias, Parent: parent,
				Start: x.t.Line(c), End: x.t.EndLine(c), Signature: extract.FirstLine(x.text(c)),
				Doc: li.doc, Flags: x.exported(c) | testFlag(inTest || li.cfgTest)})
			sc.syms[name] = id
			x.withGenerics(c, nil, func() { x.typeRefs(x.fld(c, "type"), id, extract.RefType) })
		case "const_item", "static_item":
			x.sc = sc
			x.valueItem(c, sc, parent, inTest, "", "")
		case "macro_definition":
			li := x.leading(c)
			name := x.text(x.fld(c, "name"))
			if name == "" {
				continue
			}
			x.add(extract.Symbol{Name: name, Kind: snapshot.KindFunction, Parent: parent,
				Start: x.t.Line(c), End: x.t.EndLine(c), Signature: "macro_rules! " + name,
				Doc: li.doc, Flags: testFlag(inTest || li.cfgTest)})
		case "mod_item":
			body := x.fld(c, "body")
			name := x.text(x.fld(c, "name"))
			if body < 0 || name == "" {
				continue
			}
			li := x.leading(c)
			doc := li.doc
			if inner := x.innerDoc(body); inner != "" {
				doc = strings.TrimSpace(doc + "\n" + inner)
			}
			test := inTest || li.cfgTest || li.test
			id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindModule, Parent: parent,
				Start: x.t.Line(c), End: x.t.EndLine(c), Signature: x.t.Signature(c, body),
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
	for c := x.first(body); c >= 0; c = x.next(c) {
		if x.kind(c) != "line_comment" && x.kind(c) != "block_comment" {
			break
		}
		t := x.text(c)
		if strings.HasPrefix(t, "//!") || strings.HasPrefix(t, "/*!") {
			parts = append(parts, extract.CleanComment(strings.Replace(t, "/*!", "/*", 1), "//!"))
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

func (x *extractor) structItem(n int32, sc *scope, parent int32, inTest bool) {
	name := x.text(x.fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := x.fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	sig := x.t.Signature(n, body)
	if body >= 0 && x.kind(body) == "ordered_field_declaration_list" {
		sig = x.t.Signature(n, -1)
	}
	id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindStruct, Parent: parent,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: sig, Doc: li.doc, Flags: flags})
	sc.syms[name] = id
	x.withGenerics(n, nil, func() { x.fields(body, id, flags&snapshot.FlagTest) })
}

// fields adds the named fields of a struct or struct variant.
func (x *extractor) fields(body int32, owner int32, test snapshot.Flags) {
	if body < 0 {
		return
	}
	for fd := x.first(body); fd >= 0; fd = x.next(fd) {
		switch x.kind(fd) {
		case "field_declaration":
			name := x.text(x.fld(fd, "name"))
			typ := x.fld(fd, "type")
			if name == "" {
				continue
			}
			t := x.principal(typ)
			if x.sc != nil && x.r.Symbols[owner].Kind == snapshot.KindStruct {
				owners := x.sc.fields[x.r.Symbols[owner].Name]
				if owners == nil {
					owners = map[string]typeInfo{}
					x.sc.fields[x.r.Symbols[owner].Name] = owners
				}
				owners[name] = t
			}
			x.add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: owner,
				Start: x.t.Line(fd), End: x.t.EndLine(fd), Signature: extract.FirstLine(x.text(fd)),
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
	name := x.text(x.fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := x.fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindEnum, Parent: parent,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.t.Signature(n, body), Doc: li.doc, Flags: flags})
	sc.syms[name] = id
	if body < 0 {
		return
	}
	x.withGenerics(n, nil, func() {
		for v := x.first(body); v >= 0; v = x.next(v) {
			if x.kind(v) != "enum_variant" {
				continue
			}
			vname := x.text(x.fld(v, "name"))
			if vname == "" {
				continue
			}
			x.add(extract.Symbol{Name: vname, Kind: snapshot.KindConstant, Parent: id,
				Start: x.t.Line(v), End: x.t.EndLine(v), Signature: extract.FirstLine(x.text(v)),
				Doc: x.leading(v).doc, Flags: flags})
			if vb := x.fld(v, "body"); vb >= 0 {
				x.typeRefs(vb, id, extract.RefType)
			}
		}
	})
}

func (x *extractor) traitItem(n int32, sc *scope, parent int32, inTest bool) {
	name := x.text(x.fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := x.fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	s := extract.Symbol{Name: name, Kind: snapshot.KindTrait, Parent: parent,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.t.Signature(n, body), Doc: li.doc, Flags: flags}
	if b := x.fld(n, "bounds"); b >= 0 {
		for kid := x.first(b); kid >= 0; kid = x.next(kid) {
			if t := x.baseName(kid); t != "" {
				s.Extends = append(s.Extends, t)
			}
		}
	}
	id := x.add(s)
	sc.syms[name] = id
	if body < 0 {
		return
	}
	saved, savedAtt, savedName := x.selfType, x.selfAttached, x.selfName
	x.selfType, x.selfAttached, x.selfName = typeInfo{abs: joinMod(sc.mod, name), self: true}, true, name
	x.withGenerics(n, nil, func() { x.implBody(body, sc, id, flags, "", "", "") })
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
		if x.kind(w) == "generic_type" {
			w = x.fld(w, "type")
		}
		return strings.ReplaceAll(x.text(w), "::", ".")
	}
	return t.abs
}

func (x *extractor) implItem(n int32, sc *scope, parent int32, inTest bool) {
	x.sc = sc
	li := x.leading(n)
	inTest = inTest || li.cfgTest
	body := x.fld(n, "body")
	typ := x.fld(n, "type")
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
	if id, ok := sc.syms[written]; ok && target.abs == joinMod(sc.mod, written) {
		owner, attached = id, true
	}
	trait := ""
	if tr := x.fld(n, "trait"); tr >= 0 {
		x.withGenerics(n, nil, func() { trait = x.baseName(tr) })
	}
	if attached && trait != "" {
		s := &x.r.Symbols[owner]
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
		for c := x.first(body); c >= 0; c = x.next(c) {
			if x.kind(c) != "type_item" || x.text(x.fld(c, "name")) != "Target" {
				continue
			}
			var t typeInfo
			x.withGenerics(n, nil, func() { t = x.principal(x.fld(c, "type")) })
			if t.abs != "" && !t.ext && !t.self {
				x.r.Symbols[owner].Extends = append(x.r.Symbols[owner].Extends, t.abs)
			}
		}
	}
	saved, savedAtt, savedName := x.selfType, x.selfAttached, x.selfName
	x.selfType, x.selfAttached, x.selfName = target, attached, written
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
	x.withGenerics(n, nil, func() { x.implBody(body, sc, methodParent, flags|testFlag(inTest), recv, qual, traitRef) })
	x.selfType, x.selfAttached, x.selfName = saved, savedAtt, savedName
}

// implBody extracts the functions and constants of an impl or trait body.
// traitRef, when set, is the implemented trait of a type not declared in
// this file: each method references it, the one link the file can give.
func (x *extractor) implBody(body int32, sc *scope, parent int32, flags snapshot.Flags, recv, qual, traitRef string) {
	for c := x.first(body); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case "function_item", "function_signature_item":
			li := x.leading(c)
			fl := flags | x.exported(c) | testFlag(li.test || li.cfgTest)
			if flags&snapshot.FlagTest != 0 {
				fl |= snapshot.FlagTest
			}
			id := x.function(c, sc, parent, snapshot.KindMethod, fl, li, recv, qual)
			if id >= 0 && traitRef != "" {
				mod, name := splitLast(traitRef)
				x.r.Refs = append(x.r.Refs, extract.Ref{From: id, Kind: extract.RefType, Name: name, Qual: mod, Line: x.t.Line(c)})
			}
		case "const_item":
			x.valueItem(c, sc, parent, flags&snapshot.FlagTest != 0, recv, qual)
		}
	}
}

func (x *extractor) valueItem(n int32, sc *scope, parent int32, inTest bool, recv, qual string) {
	name := x.text(x.fld(n, "name"))
	if name == "" {
		return
	}
	li := x.leading(n)
	symKind := snapshot.KindConstant
	if x.kind(n) == "static_item" {
		symKind = snapshot.KindVariable
	}
	typ := x.fld(n, "type")
	id := x.add(extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
		Start: x.t.Line(n), End: x.t.EndLine(n), Signature: extract.FirstLine(x.text(n)),
		Doc: li.doc, Type: x.typeString(x.principal(typ)), Flags: x.exported(n) | testFlag(inTest || li.cfgTest)})
	x.typeRefs(typ, id, extract.RefType)
	if v := x.fld(n, "value"); v >= 0 {
		x.locals = map[string]local{}
		x.body(v, id)
		x.locals = nil
	}
}

// function extracts a function or method with its parameters and body.
func (x *extractor) function(n int32, sc *scope, parent int32, symKind snapshot.Kind, flags snapshot.Flags, li leadInfo, recv, qual string) int32 {
	name := x.text(x.fld(n, "name"))
	if name == "" {
		return -1
	}
	body := x.fld(n, "body")
	x.sc = sc
	id := int32(-1)
	x.withGenerics(n, map[string]local{}, func() {
		s := extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
			Start: x.t.Line(n), End: x.t.EndLine(n), Signature: x.t.Signature(n, body),
			Doc: li.doc, Flags: flags}
		ret := x.fld(n, "return_type")
		if ret >= 0 {
			s.Type = x.typeString(x.principal(ret))
		}
		id = x.add(s)
		if ps := x.fld(n, "parameters"); ps >= 0 {
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
	for p := x.first(ps); p >= 0; p = x.next(p) {
		if x.kind(p) != "parameter" {
			continue
		}
		typ := x.fld(p, "type")
		pat := x.fld(p, "pattern")
		if pat >= 0 && x.kind(pat) == "identifier" && typ >= 0 {
			t := x.principal(typ)
			x.locals[x.text(pat)] = x.localOf(t)
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
	tp := x.fld(n, "type_parameters")
	where := int32(-1)
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) == "where_clause" {
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
			for p := x.first(tp); p >= 0; p = x.next(p) {
				if x.kind(p) != "type_parameter" {
					continue
				}
				name := x.text(x.fld(p, "name"))
				g[name] = typeInfo{ext: true}
				x.bound(g, name, x.fld(p, "bounds"))
			}
		}
		if where >= 0 {
			for p := x.first(where); p >= 0; p = x.next(p) {
				if l := x.fld(p, "left"); l >= 0 && x.kind(l) == "type_identifier" {
					name := x.text(l)
					if _, ok := g[name]; ok {
						x.bound(g, name, x.fld(p, "bounds"))
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
	for kid := x.first(bounds); kid >= 0; kid = x.next(kid) {
		if t := x.principal(kid); t.abs != "" && !t.ext {
			g[name] = t
			return
		}
	}
}
