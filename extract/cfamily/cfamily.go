// Package cfamily is the C and C++ extractor of knowing: one package for
// the two languages, which share most of their grammar (tree-sitter-cpp
// extends tree-sitter-c, and the kinds they share have the same names),
// with two registrations, snapshot.LangC and snapshot.LangCPP.
//
// Files: .c and .h are C; .cc .cpp .cxx .c++ .hpp .hh .hxx .h++ are C++.
// A .h header is read as C++ when the repository parses more C++ sources
// than C sources (.cc .cpp .cxx .c++ against .c), or when it holds
// syntax only C++ has (a namespace, a class, a template, an access
// specifier); else it is C. Headers are shared between the two, so names
// resolve across them either way.
//
// Symbols: namespaces are packages, as in C#: a file whose declarations
// are in one namespace (nested ones joined: leveldb.log) has it as
// Package and Scope; a file declaring in several has their common prefix
// as Package and the rest as each declaration's Qual; anonymous and
// inline namespaces and extern "C" blocks add nothing. Classes, structs,
// unions and enums with a body (a forward declaration is no symbol), their
// fields, methods, constructors (named after the class), destructors
// (~Name), enumerators and nested types; functions; typedefs and using
// aliases (an alias of a struct, class or union extends it, so its
// members are found through it); function-like macros (functions) and
// macros with a value (constants); a template is its primary template (a
// specialization is no symbol of its own). Qualified names join
// namespaces and classes with ".": leveldb.DBImpl.Write; a C function is
// its bare name, its file telling it apart.
//
// Declarations and definitions: a prototype or an in-class method
// declaration is a symbol marked Decl; a method defined outside its class
// (Status DBImpl::Write(...) {...}) names the class as Receiver. The
// resolver keeps one node per function, at its definition, contained by
// its class and listed in the outline of its own file and of the header
// that declared it, with the header's doc when the definition has none
// (see extract's resolve_includes.go). A declaration the repository does
// not define (a pure virtual method, a library's prototype) stays.
//
// Docs are the comments right above a declaration (// runs and /* */ or
// /** */ blocks), not a comment ending a line of code.
//
// References: calls (bare, through this, through typed locals,
// parameters and fields, Type::f and ns::f as dotted names, new T), type
// uses and type hints of parameters and results; #include lines, which
// the resolver turns into imports edges and into the names a file sees;
// using directives (using namespace ns: every name of ns; using ns::X: X)
// and enclosing namespaces as imports. Calls into the standard library
// (std::) are dropped. Base classes are Extends.
//
// Tests: files named *_test.*, *_unittest.*, *_tests.*, test_*.* or in
// test folders; in them, functions whose name starts with test (Unity,
// plain C), and anywhere gtest TEST/TEST_F/TEST_P/TYPED_TEST cases,
// Catch2 and doctest TEST_CASE/SCENARIO blocks, and cases of a test macro
// named by its one argument (jemalloc's TEST_BEGIN(test_x)).
// TEST_F(Fixture, Name), TEST_CASE_METHOD and TEST_CASE_FIXTURE are
// methods of the fixture (their bodies call the fixture's methods and
// read its fields), TEST(Suite, Name) is Suite.Name, a Catch2 case is
// named by its string.
//
// Noise: besides vendor/ and third_party/ (package extract), files under
// external/, deps/, 3rdparty/ and third-party/ are vendored, and those a
// parser generator wrote (bison, flex, gperf, re2c) generated; a single
// amalgamated source over the size limit (sqlite3.c) is not parsed at
// all. Macros the grammar cannot read are blanked and the file parsed
// again (macros.go). A #define inside a namespace block takes the
// namespace's name, as the other declarations there do.
//
// It builds on package extract and snapshot's kinds and flags; it
// imports no other language's package, nor walk, query or cmd.
package cfamily

import (
	"bytes"
	"path"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

var langC, langCPP *extract.Language

func init() {
	langCPP = &extract.Language{
		Lang: snapshot.LangCPP,
		Grammars: map[string]string{".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
			".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp"},
		Extract:      extractCPP,
		ImplicitSelf: true,
		SelfNames:    []string{"this"},
		TestName:     isTestName,
		Includes:     true,
	}
	langC = &extract.Language{
		Lang:     snapshot.LangC,
		Grammars: map[string]string{".c": "c", ".h": "c"},
		Extract:  extractC,
		TestName: isTestName,
		Includes: true,
		Pick:     pick,
	}
	extract.Register(langC)
	extract.Register(langCPP)
}

// cppSources and cSources are the extensions that tell a repository's
// main language; headers do not count.
var cppSources = []string{".cc", ".cpp", ".cxx", ".c++"}

// pick hands a .h header to C++ (see the package doc).
func pick(r *extract.Repo, p string, src []byte) (*extract.Language, string) {
	if strings.ToLower(path.Ext(p)) != ".h" {
		return nil, ""
	}
	cpp := 0
	for _, e := range cppSources {
		cpp += r.Parses(e)
	}
	if cpp > r.Parses(".c") || cppSyntax(src) {
		return langCPP, "cpp"
	}
	return nil, ""
}

// cppMarkers start lines only C++ writes.
var cppMarkers = [][]byte{[]byte("namespace "), []byte("class "), []byte("template <"),
	[]byte("template<"), []byte("public:"), []byte("private:"), []byte("protected:")}

// cppSyntax reports a header with a line starting with C++ syntax.
func cppSyntax(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimLeft(line, " \t")
		for _, m := range cppMarkers {
			if bytes.HasPrefix(line, m) {
				return true
			}
		}
	}
	return false
}

// isTestName: in a test file, a function named test... is a test (Unity,
// plain C test programs); gtest and Catch2 cases are flagged where they
// are declared.
func isTestName(name string) bool {
	l := strings.ToLower(extract.LastName(name))
	return strings.HasPrefix(l, "test")
}

// fieldIDs are a grammar's ids of the fields the extractor reads; the
// two grammars number them differently.
type fieldIDs struct {
	name, typ, declarator, body, value, scope, parameters uint16
	argument, field, function, arguments, path, right     uint16
}

var (
	setupOnce          sync.Once
	cNames, cppNames   []string
	cFields, cppFields fieldIDs
)

func setup() {
	for _, g := range []struct {
		lang  *sitter.Language
		names *[]string
		ids   *fieldIDs
	}{{sitter.NewLanguage(tsc.Language()), &cNames, &cFields}, {sitter.NewLanguage(tscpp.Language()), &cppNames, &cppFields}} {
		*g.names = extract.KindNames(g.lang)
		f := g.ids
		extract.FieldIDs(g.lang, map[string]*uint16{"name": &f.name, "type": &f.typ, "declarator": &f.declarator,
			"body": &f.body, "value": &f.value, "scope": &f.scope, "parameters": &f.parameters,
			"argument": &f.argument, "field": &f.field, "function": &f.function, "arguments": &f.arguments,
			"path": &f.path, "right": &f.right})
	}
}

func extractC(f *extract.File, r *extract.FileResult)   { extractFile(f, r, false) }
func extractCPP(f *extract.File, r *extract.FileResult) { extractFile(f, r, true) }

type extractor struct {
	extract.Base
	cpp bool
	f   *fieldIDs // the grammar's field ids

	pkg     string            // the file's Package
	locals  map[string]string // variables of the current function: name → type
	class   *classCtx         // the class whose body or method is being read
	access  snapshot.Flags    // FlagExported in a public part of a class body
	anon    int               // depth of anonymous namespaces
	tparams []string          // template parameters in scope
	seen    map[string]bool   // imports recorded
}

// classCtx is a class while its members, or a method defined outside
// it, are read.
type classCtx struct {
	sym    int32             // its symbol, -1 for a class of another file
	name   string            // its name
	fields map[string]string // its fields' types, when its body is in the file
	outer  *classCtx
}

func extractFile(f *extract.File, r *extract.FileResult, cpp bool) {
	setupOnce.Do(setup)
	names, ids := cNames, &cFields
	if cpp {
		names, ids = cppNames, &cppFields
		r.Lang = snapshot.LangCPP
	}
	if nf, done := prepared(f, cpp, names); nf != nil {
		defer done()
		f = nf
	}
	x := &extractor{Base: extract.Base{FlatTree: extract.NewFlatTree(f.Root, f.Src, names), F: f, R: r},
		cpp: cpp, f: ids, seen: map[string]bool{}}
	defer x.Release()
	x.fileFlags()
	count := map[string]int{}
	var spaces []string
	x.scan(0, "", count, &spaces)
	switch len(spaces) {
	case 0:
	case 1:
		r.Package = spaces[0]
	default:
		r.Package = extract.CommonPrefix(spaces)
	}
	x.pkg = r.Package
	// The scope is the namespace holding the most declarations.
	r.Scope = r.Package
	if len(spaces) > 1 {
		best := -1
		for _, ns := range spaces {
			if count[ns] > best && ns != "" {
				r.Scope, best = ns, count[ns]
			}
		}
	}
	// Code in a namespace sees the namespaces around it.
	for _, ns := range spaces {
		for p := ns; strings.Contains(p, "."); {
			p = p[:strings.LastIndexByte(p, '.')]
			x.addImport(extract.Import{Path: p, Name: "*"})
		}
	}
	x.container(0, -1, "")
}

// vendorDirs hold other projects' code copied in, by the C and C++
// conventions (vendor/ and third_party/ are everyone's, see extract).
var vendorDirs = []string{"/external/", "/deps/", "/3rdparty/", "/third-party/", "/thirdparty/"}

// generatedHeads mark the sources parser generators write.
var generatedHeads = []string{"A Bison parser, made by GNU Bison", "generated by flex", "Generated by gperf",
	"generated by re2c", "Generated by re2c", "DO NOT EDIT"}

// fileFlags flags the C and C++ test, vendored and generated files the
// shared rules miss.
func (x *extractor) fileFlags() {
	base := strings.ToLower(path.Base(x.F.Path))
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") || strings.HasSuffix(stem, "_unittest") ||
		strings.HasSuffix(stem, "-test") || strings.HasPrefix(stem, "test_") {
		x.R.Flags |= snapshot.FlagTest
	}
	lp := "/" + strings.ToLower(x.F.Path)
	for _, d := range vendorDirs {
		if strings.Contains(lp, d) {
			x.R.Flags |= snapshot.FlagVendored
		}
	}
	head := x.F.Src[:min(len(x.F.Src), 2048)]
	for _, g := range generatedHeads {
		if bytes.Contains(head, []byte(g)) {
			x.R.Flags |= snapshot.FlagGenerated
		}
	}
}

func (x *extractor) addImport(im extract.Import) {
	k := im.Path + "\x00" + im.Name
	if x.seen[k] {
		return
	}
	x.seen[k] = true
	x.R.Imports = append(x.R.Imports, im)
}

// scan lists the namespaces that directly hold declarations, outermost
// first, and counts their declarations.
func (x *extractor) scan(n int32, ns string, count map[string]int, out *[]string) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch k := x.Kind(c); k {
		case "namespace_definition":
			if b := x.Field(c, x.f.body); b >= 0 {
				x.scan(b, extract.JoinName(ns, x.namespaceName(c)), count, out)
			}
		case "linkage_specification", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
			"preproc_elifdef", "declaration_list":
			x.scan(c, ns, count, out)
		case "function_definition", "declaration", "class_specifier", "struct_specifier", "union_specifier",
			"enum_specifier", "type_definition", "template_declaration", "alias_declaration":
			if strings.HasSuffix(k, "_specifier") && x.Field(c, x.f.body) < 0 {
				continue // a forward declaration
			}
			if _, ok := count[ns]; !ok {
				*out = append(*out, ns)
			}
			count[ns]++
		}
	}
}

// namespaceName is the dotted name a namespace definition adds: "" for
// an anonymous or inline one, "a.b" for namespace a::b.
func (x *extractor) namespaceName(n int32) string {
	if x.inline(n) {
		return ""
	}
	nm := x.Field(n, x.f.name)
	if nm < 0 {
		return ""
	}
	return strings.ReplaceAll(strings.ReplaceAll(x.Text(nm), "::", "."), " ", "")
}

// inline reports a declaration with the inline keyword before it.
func (x *extractor) inline(n int32) bool {
	for c := x.FirstChild(n); c >= 0 && !x.N[c].Named; c = x.N[c].Next {
		if x.Kind(c) == "inline" {
			return true
		}
	}
	return false
}
