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

	sitter "github.com/tree-sitter/go-tree-sitter"

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
	nodes  []*sitter.Node
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
	cur    *sitter.TreeCursor
	c      *repoCache
	ci     *crateInfo // the file's crate, nil outside packages
	root   string
	scopes map[string]*scope // by module path (the first of cfg'd twins)
	byNode map[uint]*scope   // inline module scopes by start byte
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
	x := &extractor{f: f, r: r, c: c, ci: ci, root: root, scopes: map[string]*scope{}, byNode: map[uint]*scope{}, tokens: map[string]bool{}}
	x.cur = f.Root.Walk()
	defer x.cur.Close()
	top := x.declare(f.Root, pkg, nil)
	x.resolveUses(top)
	x.items(f.Root, top, -1, false)
}

// declare records the names declared in a module and its inline modules.
func (x *extractor) declare(n *sitter.Node, mod string, parent *scope) *scope {
	sc := &scope{mod: mod, parent: parent, items: map[string]uint8{}, syms: map[string]int32{}, uses: map[string]binding{}, values: map[string]binding{},
		methods: map[string]map[string]bool{}, fields: map[string]map[string]typeInfo{}}
	if x.scopes[mod] == nil {
		x.scopes[mod] = sc
	}
	if parent != nil {
		parent.inner = append(parent.inner, sc)
	}
	for _, c := range x.kids(n) {
		k := itemUnknown
		switch kind(c) {
		case "use_declaration", "extern_crate_declaration":
			sc.nodes = append(sc.nodes, c)
			continue
		case "struct_item", "enum_item", "union_item", "type_item":
			k = itemType
		case "trait_item":
			k = itemType
			x.declareMethods(sc, x.f.Text(fld(c, "name")), fld(c, "body"))
		case "function_item":
			k = itemFn
		case "impl_item":
			x.declareMethods(sc, x.implName(fld(c, "type")), fld(c, "body"))
			continue
		case "const_item", "static_item":
			k = itemValue
		case "macro_definition":
			k = itemMacro
		case "mod_item":
			k = itemMod
			if b := fld(c, "body"); b != nil {
				if name := x.f.Text(fld(c, "name")); name != "" {
					x.byNode[c.StartByte()] = x.declare(b, joinMod(mod, name), sc)
				}
			}
		default:
			continue
		}
		if name := x.f.Text(fld(c, "name")); name != "" {
			sc.items[name] = k
		}
	}
	return sc
}

func (x *extractor) declareMethods(sc *scope, typ string, body *sitter.Node) {
	if typ == "" || body == nil {
		return
	}
	m := sc.methods[typ]
	if m == nil {
		m = map[string]bool{}
		sc.methods[typ] = m
	}
	for _, kid := range x.kids(body) {
		if c := kid; kind(c) == "function_item" || kind(c) == "function_signature_item" {
			m[x.f.Text(fld(c, "name"))] = true
		}
	}
}

// resolveUses turns the use declarations of a scope (and its inline
// modules) into bindings and imports.
func (x *extractor) resolveUses(sc *scope) {
	for _, n := range sc.nodes {
		if kind(n) == "extern_crate_declaration" {
			name := x.f.Text(fld(n, "name"))
			alias := x.f.Text(fld(n, "alias"))
			if alias != "" && name != "" {
				sc.uses[alias] = binding{abs: name, ext: !x.c.visible(x.ci, name), kind: itemMod}
			}
			continue
		}
		arg := fld(n, "argument")
		if arg == nil {
			continue
		}
		for _, e := range parseUse(x.f.Text(arg)) {
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

func (x *extractor) leading(n *sitter.Node) leadInfo {
	var li leadInfo
	var parts []string
	line := extract.Line(n)
	for p := n.PrevSibling(); p != nil; p = p.PrevSibling() {
		k := kind(p)
		if k == "attribute_item" {
			x.attribute(p, &li, &parts)
			line = extract.Line(p)
			continue
		}
		if k != "line_comment" && k != "block_comment" {
			break
		}
		end := p.EndPosition()
		endLine := uint32(end.Row) + 1
		if end.Column == 0 && end.Row > p.StartPosition().Row {
			endLine--
		}
		if endLine+1 < line {
			break
		}
		text := x.f.Text(p)
		if strings.HasPrefix(text, "//!") || strings.HasPrefix(text, "/*!") {
			break
		}
		line = extract.Line(p)
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

func (x *extractor) attribute(n *sitter.Node, li *leadInfo, parts *[]string) {
	a := n.NamedChild(0)
	if a == nil || kind(a) != "attribute" || a.NamedChildCount() == 0 {
		return
	}
	name := x.f.Text(a.NamedChild(0))
	last := name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		last = name[i+2:]
	}
	switch {
	case name == "doc":
		if v := fld(a, "value"); v != nil {
			*parts = append(*parts, strings.TrimSpace(strings.Trim(x.f.Text(v), `"`)))
		}
	case name == "cfg":
		args := x.f.Text(fld(a, "arguments"))
		if strings.Contains(args, "test") && !strings.Contains(args, "not(test") {
			li.cfgTest = true
		}
	case last == "test" || last == "bench" || strings.HasSuffix(last, "_test") || last == "rstest" || last == "test_case":
		li.test = true
	}
}

// exported reports `pub` visibility (any but pub(self)).
func (x *extractor) exported(n *sitter.Node) snapshot.Flags {
	for _, c := range x.kids(n) {
		if kind(c) == "visibility_modifier" {
			if t := x.f.Text(c); strings.HasPrefix(t, "pub") && !strings.Contains(t, "self") {
				return snapshot.FlagExported
			}
			return 0
		}
		if kind(c) != "attribute_item" {
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
func (x *extractor) items(n *sitter.Node, sc *scope, parent int32, inTest bool) {
	var impls []*sitter.Node
	for _, c := range x.kids(n) {
		switch kind(c) {
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
			name := x.f.Text(fld(c, "name"))
			if name == "" {
				continue
			}
			id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindTypeAlias, Parent: parent,
				Start: extract.Line(c), End: extract.EndLine(c), Signature: extract.FirstLine(x.f.Text(c)),
				Doc: li.doc, Flags: x.exported(c) | testFlag(inTest || li.cfgTest)})
			sc.syms[name] = id
			x.withGenerics(c, nil, func() { x.typeRefs(fld(c, "type"), id, extract.RefType) })
		case "const_item", "static_item":
			x.sc = sc
			x.valueItem(c, sc, parent, inTest, "", "")
		case "macro_definition":
			li := x.leading(c)
			name := x.f.Text(fld(c, "name"))
			if name == "" {
				continue
			}
			x.add(extract.Symbol{Name: name, Kind: snapshot.KindFunction, Parent: parent,
				Start: extract.Line(c), End: extract.EndLine(c), Signature: "macro_rules! " + name,
				Doc: li.doc, Flags: testFlag(inTest || li.cfgTest)})
		case "mod_item":
			body := fld(c, "body")
			name := x.f.Text(fld(c, "name"))
			if body == nil || name == "" {
				continue
			}
			li := x.leading(c)
			doc := li.doc
			if inner := x.innerDoc(body); inner != "" {
				doc = strings.TrimSpace(doc + "\n" + inner)
			}
			test := inTest || li.cfgTest || li.test
			id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindModule, Parent: parent,
				Start: extract.Line(c), End: extract.EndLine(c), Signature: extract.Signature(x.f, c, body),
				Doc: doc, Flags: x.exported(c) | testFlag(test)})
			if child := x.byNode[c.StartByte()]; child != nil {
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
func (x *extractor) innerDoc(body *sitter.Node) string {
	var parts []string
	for _, c := range x.kids(body) {
		if kind(c) != "line_comment" && kind(c) != "block_comment" {
			break
		}
		t := x.f.Text(c)
		if strings.HasPrefix(t, "//!") || strings.HasPrefix(t, "/*!") {
			parts = append(parts, extract.CleanComment(strings.Replace(t, "/*!", "/*", 1), "//!"))
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

func (x *extractor) structItem(n *sitter.Node, sc *scope, parent int32, inTest bool) {
	name := x.f.Text(fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	sig := extract.Signature(x.f, n, body)
	if body != nil && kind(body) == "ordered_field_declaration_list" {
		sig = extract.Signature(x.f, n, nil)
	}
	id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindStruct, Parent: parent,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: sig, Doc: li.doc, Flags: flags})
	sc.syms[name] = id
	x.withGenerics(n, nil, func() { x.fields(body, id, flags&snapshot.FlagTest) })
}

// fields adds the named fields of a struct or struct variant.
func (x *extractor) fields(body *sitter.Node, owner int32, test snapshot.Flags) {
	if body == nil {
		return
	}
	for _, fd := range x.kids(body) {
		switch kind(fd) {
		case "field_declaration":
			name := x.f.Text(fld(fd, "name"))
			typ := fld(fd, "type")
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
				Start: extract.Line(fd), End: extract.EndLine(fd), Signature: extract.FirstLine(x.f.Text(fd)),
				Doc: x.leading(fd).doc, Type: x.typeString(t), Flags: x.exported(fd) | test})
			x.typeRefs(typ, owner, extract.RefType)
		case "visibility_modifier", "attribute_item", "line_comment", "block_comment":
		default:
			// A tuple field's type.
			x.typeRefs(fd, owner, extract.RefType)
		}
	}
}

func (x *extractor) enumItem(n *sitter.Node, sc *scope, parent int32, inTest bool) {
	name := x.f.Text(fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	id := x.add(extract.Symbol{Name: name, Kind: snapshot.KindEnum, Parent: parent,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: extract.Signature(x.f, n, body), Doc: li.doc, Flags: flags})
	sc.syms[name] = id
	if body == nil {
		return
	}
	x.withGenerics(n, nil, func() {
		for _, v := range x.kids(body) {
			if kind(v) != "enum_variant" {
				continue
			}
			vname := x.f.Text(fld(v, "name"))
			if vname == "" {
				continue
			}
			x.add(extract.Symbol{Name: vname, Kind: snapshot.KindConstant, Parent: id,
				Start: extract.Line(v), End: extract.EndLine(v), Signature: extract.FirstLine(x.f.Text(v)),
				Doc: x.leading(v).doc, Flags: flags})
			if vb := fld(v, "body"); vb != nil {
				x.typeRefs(vb, id, extract.RefType)
			}
		}
	})
}

func (x *extractor) traitItem(n *sitter.Node, sc *scope, parent int32, inTest bool) {
	name := x.f.Text(fld(n, "name"))
	if name == "" {
		return
	}
	x.sc = sc
	li := x.leading(n)
	body := fld(n, "body")
	flags := x.exported(n) | testFlag(inTest || li.cfgTest)
	s := extract.Symbol{Name: name, Kind: snapshot.KindTrait, Parent: parent,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: extract.Signature(x.f, n, body), Doc: li.doc, Flags: flags}
	if b := fld(n, "bounds"); b != nil {
		for _, kid := range x.kids(b) {
			if t := x.baseName(kid); t != "" {
				s.Extends = append(s.Extends, t)
			}
		}
	}
	id := x.add(s)
	sc.syms[name] = id
	if body == nil {
		return
	}
	saved, savedAtt, savedName := x.selfType, x.selfAttached, x.selfName
	x.selfType, x.selfAttached, x.selfName = typeInfo{abs: joinMod(sc.mod, name), self: true}, true, name
	x.withGenerics(n, nil, func() { x.implBody(body, sc, id, flags, "", "", "") })
	x.selfType, x.selfAttached, x.selfName = saved, savedAtt, savedName
}

// baseName renders a trait or type bound for Extends/Implements: the
// absolute path of a repository type, else the path as written (dotted).
func (x *extractor) baseName(n *sitter.Node) string {
	t := x.principal(n)
	if t.abs == "" || t.self {
		return ""
	}
	if t.ext {
		// As written, so that the resolver can link a node standing for
		// the external trait through a module import (fmt.Display).
		w := n
		if kind(w) == "generic_type" {
			w = fld(w, "type")
		}
		return strings.ReplaceAll(x.f.Text(w), "::", ".")
	}
	return t.abs
}

func (x *extractor) implItem(n *sitter.Node, sc *scope, parent int32, inTest bool) {
	x.sc = sc
	li := x.leading(n)
	inTest = inTest || li.cfgTest
	body := fld(n, "body")
	typ := fld(n, "type")
	if body == nil || typ == nil {
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
	if tr := fld(n, "trait"); tr != nil {
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
		for _, c := range x.kids(body) {
			if kind(c) != "type_item" || x.f.Text(fld(c, "name")) != "Target" {
				continue
			}
			var t typeInfo
			x.withGenerics(n, nil, func() { t = x.principal(fld(c, "type")) })
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
func (x *extractor) implBody(body *sitter.Node, sc *scope, parent int32, flags snapshot.Flags, recv, qual, traitRef string) {
	for _, c := range x.kids(body) {
		switch kind(c) {
		case "function_item", "function_signature_item":
			li := x.leading(c)
			fl := flags | x.exported(c) | testFlag(li.test || li.cfgTest)
			if flags&snapshot.FlagTest != 0 {
				fl |= snapshot.FlagTest
			}
			id := x.function(c, sc, parent, snapshot.KindMethod, fl, li, recv, qual)
			if id >= 0 && traitRef != "" {
				mod, name := splitLast(traitRef)
				x.r.Refs = append(x.r.Refs, extract.Ref{From: id, Kind: extract.RefType, Name: name, Qual: mod, Line: extract.Line(c)})
			}
		case "const_item":
			x.valueItem(c, sc, parent, flags&snapshot.FlagTest != 0, recv, qual)
		}
	}
}

func (x *extractor) valueItem(n *sitter.Node, sc *scope, parent int32, inTest bool, recv, qual string) {
	name := x.f.Text(fld(n, "name"))
	if name == "" {
		return
	}
	li := x.leading(n)
	symKind := snapshot.KindConstant
	if kind(n) == "static_item" {
		symKind = snapshot.KindVariable
	}
	typ := fld(n, "type")
	id := x.add(extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
		Start: extract.Line(n), End: extract.EndLine(n), Signature: extract.FirstLine(x.f.Text(n)),
		Doc: li.doc, Type: x.typeString(x.principal(typ)), Flags: x.exported(n) | testFlag(inTest || li.cfgTest)})
	x.typeRefs(typ, id, extract.RefType)
	if v := fld(n, "value"); v != nil {
		x.locals = map[string]local{}
		x.body(v, id)
		x.locals = nil
	}
}

// function extracts a function or method with its parameters and body.
func (x *extractor) function(n *sitter.Node, sc *scope, parent int32, symKind snapshot.Kind, flags snapshot.Flags, li leadInfo, recv, qual string) int32 {
	name := x.f.Text(fld(n, "name"))
	if name == "" {
		return -1
	}
	body := fld(n, "body")
	x.sc = sc
	id := int32(-1)
	x.withGenerics(n, map[string]local{}, func() {
		s := extract.Symbol{Name: name, Kind: symKind, Parent: parent, Receiver: recv, Qual: qual,
			Start: extract.Line(n), End: extract.EndLine(n), Signature: extract.Signature(x.f, n, body),
			Doc: li.doc, Flags: flags}
		ret := fld(n, "return_type")
		if ret != nil {
			s.Type = x.typeString(x.principal(ret))
		}
		id = x.add(s)
		if ps := fld(n, "parameters"); ps != nil {
			x.params(ps, id)
		}
		x.typeRefs(ret, id, extract.RefTypeHint)
		if body != nil {
			x.body(body, id)
		}
	})
	return id
}

func (x *extractor) params(ps *sitter.Node, from int32) {
	for _, p := range x.kids(ps) {
		if kind(p) != "parameter" {
			continue
		}
		typ := fld(p, "type")
		pat := fld(p, "pattern")
		if pat != nil && kind(pat) == "identifier" && typ != nil {
			t := x.principal(typ)
			x.locals[x.f.Text(pat)] = x.localOf(t)
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
func (x *extractor) withGenerics(n *sitter.Node, locals map[string]local, fn func()) {
	savedG, savedL := x.generics, x.locals
	tp := fld(n, "type_parameters")
	var where *sitter.Node
	for _, kid := range x.kids(n) {
		if c := kid; kind(c) == "where_clause" {
			where = c
		}
	}
	if tp != nil || where != nil {
		g := make(map[string]typeInfo, len(savedG)+4)
		for k, v := range savedG {
			g[k] = v
		}
		x.generics = g
		if tp != nil {
			for _, p := range x.kids(tp) {
				if kind(p) != "type_parameter" {
					continue
				}
				name := x.f.Text(fld(p, "name"))
				g[name] = typeInfo{ext: true}
				x.bound(g, name, fld(p, "bounds"))
			}
		}
		if where != nil {
			for _, p := range x.kids(where) {
				if l := fld(p, "left"); l != nil && kind(l) == "type_identifier" {
					name := x.f.Text(l)
					if _, ok := g[name]; ok {
						x.bound(g, name, fld(p, "bounds"))
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
func (x *extractor) bound(g map[string]typeInfo, name string, bounds *sitter.Node) {
	if bounds == nil || !g[name].ext {
		return
	}
	for _, kid := range x.kids(bounds) {
		if t := x.principal(kid); t.abs != "" && !t.ext {
			g[name] = t
			return
		}
	}
}
