// Package csharp is the C# extractor of knowing: namespaces, classes,
// structs, records, interfaces, enums and delegates with their members,
// calls with the static type of their receiver where the source tells it,
// type uses, and using directives.
//
// Qualified names follow the namespace: a file declaring one namespace
// (block or file-scoped, nested blocks joined) has it as Package, so
// Ocelot.Authentication.AuthenticationMiddleware.Invoke; a constructor is
// named after its class (Ocelot.Errors.Error.Error), a local function is
// nested in its method. A file declaring types in several namespaces has
// Package "" and one KindPackage symbol per namespace block holding them,
// which gives the same qualified names. The namespace is the Scope: its
// types see each other without a using.
//
// Using directives become imports: `using A.B;` imports every name of
// namespace A.B (Name "*"), `using X = A.B.C;` imports C as X, `using
// static A.B.C;` imports C's members. The enclosing namespaces of a file's
// namespace are imported the same way (C# code in A.B.C sees A.B and A),
// and so are the `global using` directives of the project's Usings.cs or
// GlobalUsings.cs.
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package csharp

import (
	"bytes"
	"path"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/internal/scope"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	extract.Register(&extract.Language{
		Lang:         snapshot.LangCSharp,
		Grammars:     map[string]string{".cs": "csharp"},
		Extract:      extractCSharp,
		ImplicitSelf: true,
		SelfNames:    []string{"this"},
		SuperNames:   []string{"base"},
		ChainByName:  true,
		TestName:     isTestName,
	})
}

// testNames holds the names of methods that are tests: annotated with a
// test attribute, or members of a test class (xUnit classes set up their
// subject in the constructor, BDD-style tests call helpers that exercise
// it). The resolver asks TestName by name alone, after every file is
// extracted, and only for callables in test files.
var testNames sync.Map

func isTestName(name string) bool {
	if strings.HasPrefix(name, "Test") || strings.HasSuffix(name, "Test") || strings.HasSuffix(name, "Tests") {
		return true
	}
	_, ok := testNames.Load(name)
	return ok
}

// globalScope is the scope of files outside any namespace.
const globalScope = "csharp:global"

// classCtx is a class, struct, record or interface while its members are
// extracted: its Fields are its fields and properties.
type classCtx struct {
	scope.Class[vtype]
	test bool // a test class
}

type extractor struct {
	extract.Base

	multi     bool            // several namespaces: each is a KindPackage symbol
	own       map[string]bool // the namespaces the file declares things in
	nsRoot    string          // first segment of the file's namespace
	nsRoots   map[string]bool // first segments of namespaces in view
	aliases   map[string]bool // names bound by using aliases
	declared  map[string]bool // type names declared in the file
	delegates map[string]bool // delegate types declared in the file
	imported  map[string]bool // import keys already recorded

	classes scope.Classes[vtype] // enclosing classes, innermost last
	locals  map[string]vtype     // variables of the current callable; nil outside one
	tparams scope.TypeParams     // type parameters in scope
	depth   int                  // nesting of receiver()
}

func extractCSharp(f *extract.File, r *extract.FileResult) {
	setupOnce.Do(setup)
	// A file whose #if directives broke the parse is read without them;
	// the source is searched first, so that only files with #if cost the
	// cgo calls of the check.
	if bytes.Contains(f.Src, []byte("#if")) && f.Root.HasError() && brokenStructure(f.Root, 0) {
		if nf, tree := withoutPreprocessor(f); nf != nil {
			defer tree.Close()
			f = nf
		}
	}
	x := &extractor{Base: extract.Base{FlatTree: extract.NewFlatTree(f.Root, f.Src, kindNames), F: f, R: r},
		nsRoots: map[string]bool{"global": true}, aliases: map[string]bool{}, declared: map[string]bool{},
		delegates: map[string]bool{}, imported: map[string]bool{}}
	defer x.Release()
	const root = 0

	// First the namespaces holding declarations, and the declared names.
	spaces := map[string]bool{}
	var order []string
	x.scan(root, "", spaces, &order)
	switch len(order) {
	case 0:
	case 1:
		r.Package = order[0]
	default:
		// Several namespaces: the Package is their common prefix, and
		// each namespace block below it is a symbol.
		x.multi = true
		r.Package = extract.CommonPrefix(order)
	}
	// .NET test and benchmark projects live in folders of any name, but
	// their namespaces say what they are.
	for _, n := range order {
		r.Flags |= namespaceFlags(n)
	}
	// The scope is the namespace; for a file of unrelated namespaces, the
	// first one.
	r.Scope = r.Package
	for i := 0; r.Scope == "" && i < len(order); i++ {
		r.Scope = order[i]
	}
	if r.Scope == "" {
		r.Scope = globalScope
	}
	ns := r.Package
	if ns == "" && r.Scope != globalScope {
		ns = r.Scope
	}
	x.own = spaces
	x.nsRoot = extract.FirstName(ns)
	if ns != "" {
		x.nsRoots[x.nsRoot] = true
	}
	// Enclosing namespaces are in view, innermost first.
	for _, n := range order {
		for p := n; strings.Contains(p, "."); {
			p = p[:strings.LastIndexByte(p, '.')]
			x.addImport(extract.Import{Path: p, Name: "*"})
		}
	}
	x.usings(root)
	x.globalUsings()
	for _, im := range r.Imports {
		if im.Name == "*" || im.Alias == "" {
			x.nsRoots[extract.FirstName(im.Path)] = true
		}
	}
	x.locals = map[string]vtype{} // top-level statements
	x.container(root, -1, "")
}

// scan lists the namespaces that directly hold declarations or statements
// and notes the type names declared in the file.
func (x *extractor) scan(n int32, ns string, spaces map[string]bool, order *[]string) {
	note := func(ns string) {
		if !spaces[ns] {
			spaces[ns] = true
			*order = append(*order, ns)
		}
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "namespace_declaration":
			inner := extract.JoinName(ns, x.typeName(x.Field(c, fName)))
			if b := x.Field(c, fBody); b >= 0 {
				x.scan(b, inner, spaces, order)
			}
		case "file_scoped_namespace_declaration":
			ns = extract.JoinName(ns, x.typeName(x.Field(c, fName)))
		case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
			"record_declaration", "delegate_declaration":
			note(ns)
			x.declareNames(c)
		case "global_statement":
			note(ns)
		case "preproc_if", "preproc_else", "preproc_elif":
			x.scan(c, ns, spaces, order)
		}
	}
}

// declareNames notes a type and its nested types as declared in the file.
func (x *extractor) declareNames(n int32) {
	if nm := x.Field(n, fName); nm >= 0 {
		x.declared[x.Text(nm)] = true
		if x.Kind(n) == "delegate_declaration" {
			x.delegates[x.Text(nm)] = true
		}
	}
	if b := x.Field(n, fBody); b >= 0 && x.Kind(b) == "declaration_list" {
		for c := x.FirstNamed(b); c >= 0; c = x.NextNamed(c) {
			switch x.Kind(c) {
			case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
				"record_declaration", "delegate_declaration":
				x.declareNames(c)
			}
		}
	}
}

func (x *extractor) addImport(im extract.Import) {
	k := im.Path + "\x00" + im.Name + "\x00" + im.Alias
	if im.Path == "" && im.Name == "" || x.imported[k] || im.Name == "*" && x.own[im.Path] {
		return
	}
	x.imported[k] = true
	x.R.Imports = append(x.R.Imports, im)
}

// usings records the using directives of the file, at the top and in
// namespace blocks.
func (x *extractor) usings(n int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "using_directive":
			x.using(c)
		case "namespace_declaration":
			if b := x.Field(c, fBody); b >= 0 {
				x.usings(b)
			}
		case "preproc_if", "preproc_else", "preproc_elif":
			x.usings(c)
		}
	}
}

func (x *extractor) using(n int32) {
	alias, target := "", ""
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		switch {
		case x.N[c].Field == fName:
			alias = x.Text(c)
		case x.N[c].Named:
			if t := x.typeName(c); t != "" {
				target = t
			}
		}
	}
	x.usingImport(target, alias)
}

// usingImport records `using target;` (a namespace, or with static a type:
// all their names are imported) or `using alias = target;`.
func (x *extractor) usingImport(target, alias string) {
	if target == "" {
		return
	}
	if alias == "" {
		x.addImport(extract.Import{Path: target, Name: "*"})
		return
	}
	x.aliases[alias] = true
	pkg, name := extract.SplitName(target)
	x.addImport(extract.Import{Path: pkg, Name: name, Alias: alias})
}

// globalUsings adds the `global using` directives of the project: those of
// the nearest Usings.cs or GlobalUsings.cs above the file, where .NET
// projects keep them.
func (x *extractor) globalUsings() {
	if x.F.Repo == nil {
		return
	}
	dir := path.Dir(x.F.Path)
	if dir == "." {
		dir = ""
	}
	for _, name := range [...]string{"GlobalUsings.cs", "Usings.cs"} {
		if _, data, ok := x.F.Repo.FindUp(dir, name); ok {
			x.parseGlobalUsings(data)
		}
	}
}

// parseGlobalUsings reads `global using [static] [X =] A.B;` lines.
func (x *extractor) parseGlobalUsings(data []byte) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("global using "))
		if !ok {
			continue
		}
		rest, _, _ = bytes.Cut(rest, []byte(";"))
		rest = bytes.TrimSpace(rest)
		rest = bytes.TrimSpace(bytes.TrimPrefix(rest, []byte("static ")))
		alias := ""
		if a, t, ok := bytes.Cut(rest, []byte("=")); ok {
			alias, rest = string(bytes.TrimSpace(a)), t
		}
		rest = bytes.TrimPrefix(bytes.TrimSpace(rest), []byte("global::"))
		if i := bytes.IndexByte(rest, '<'); i >= 0 {
			rest = rest[:i]
		}
		x.usingImport(strings.Join(strings.Fields(string(rest)), ""), alias)
	}
}

// nsSymbol opens namespace full in a file of several namespaces: a
// KindPackage symbol named relative to the enclosing one (or the Package),
// or none for the Package itself and the namespaces around it.
func (x *extractor) nsSymbol(n, end int32, full, outer string, parent int32) int32 {
	pkg := x.R.Package
	if !x.multi || full == pkg || strings.HasPrefix(pkg, full+".") {
		return parent
	}
	base := outer
	if parent < 0 || x.R.Symbols[parent].Kind != snapshot.KindPackage {
		base = pkg
	}
	name := full
	if base != "" {
		name = strings.TrimPrefix(full, base+".")
	}
	return x.Add(extract.Symbol{Name: name, Kind: snapshot.KindPackage, Parent: parent,
		Start: x.Line(n), End: x.EndLine(end), Signature: "namespace " + full,
		Flags: snapshot.FlagExported})
}

// container extracts the declarations of a compilation unit, a namespace
// body or a preprocessor branch; ns is the namespace they are in.
func (x *extractor) container(n int32, parent int32, ns string) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "namespace_declaration":
			b := x.Field(c, fBody)
			if b < 0 {
				continue
			}
			full := extract.JoinName(ns, x.typeName(x.Field(c, fName)))
			x.container(b, x.nsSymbol(c, c, full, ns, parent), full)
		case "file_scoped_namespace_declaration":
			full := extract.JoinName(ns, x.typeName(x.Field(c, fName)))
			parent = x.nsSymbol(c, n, full, ns, parent)
			ns = full
		case "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
			"record_declaration":
			x.typeDecl(c, parent, x.docAt(c), false)
		case "delegate_declaration":
			x.delegate(c, parent, x.docAt(c), false)
		case "global_statement":
			for s := x.FirstNamed(c); s >= 0; s = x.NextNamed(s) {
				if x.Kind(s) == "local_function_statement" {
					x.localFunction(s, parent)
				} else {
					x.walk(s, parent)
				}
			}
		case "preproc_if", "preproc_else", "preproc_elif":
			x.container(c, parent, ns)
		}
	}
}
