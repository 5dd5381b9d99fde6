// Package python is knowing's Python extractor: modules, classes,
// functions, methods, attributes and module variables, with calls (through
// self, super, typed locals and parameters, imported modules and names,
// package re-exports, pytest fixtures), type uses and imports.
//
// A file's Package is its dotted module name (src/flask/sansio/scaffold.py
// is flask.sansio.scaffold: the package root is the highest folder holding
// __init__.py, folders in between may lack it); a file outside any package
// is named by its path. Scope is empty: a module sees only its own names
// and what it imports. Imports are keyed the same way, relative ones
// resolved against the module, so the resolver can match them.
//
// Calls are kept precise rather than many: a call on a value known to come
// from outside the repository (an external module, a str, dict or list, a
// builtin) is not recorded, so the resolver cannot guess it onto a
// repository symbol of the same name.
//
// The extractor walks a file once (bodies.go), declaring what it meets
// (declarations.go, classes.go) and following what names hold (values.go)
// and what annotations name (types.go). Imports (imports.go) are resolved
// against the repository's module layout (modules.go), which the files of
// a build share. What needs the whole file (pytest fixtures, the results
// of its own functions, conditional references) is settled at its end.
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package python

import (
	"path"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	extract.Register(&extract.Language{
		Lang:       snapshot.LangPython,
		Grammars:   map[string]string{".py": "python", ".pyi": "python"},
		Extract:    extractPython,
		SelfNames:  []string{"self", "cls"},
		SuperNames: []string{"super"},
		// pytest and unittest collect callables named test*; fixtures and
		// helpers in test files are flagged test but link no subject.
		TestName: func(n string) bool { return strings.HasPrefix(n, "test") },
	})
}

// check is a reference kept only if a condition holds once the whole file
// is read.
type check struct {
	ref   int
	name  string
	class int32 // -1: name must be a function or class of the file; else a method of this class
}

// extractor reads one file.
type extractor struct {
	extract.Base
	c *repoCache // nil without a Repo

	dir    string
	mod    string
	isInit bool

	bind    map[string]*binding
	seenImp map[extract.Import]bool
	modVars map[string]string // module-level variable → value type
	top     map[string]int32  // module-level symbol by name
	defined map[string]bool   // functions and classes of the file, any depth
	methods map[int32]map[string]int32
	fields  map[int32]map[string]int32
	enums   map[int32]bool
	checks  []check

	fieldExt  map[int32]map[string]bool // class → field known to hold an outside type
	closed    map[int32]bool            // classes without a base in the repository
	annotated map[int32]bool            // functions with a written return type
	test      bool                      // a test file: parameters may be fixtures
	fixtures  []int                     // refs whose QualType names a fixture
}

// extractPython reads one Python file into r.
func extractPython(f *extract.File, r *extract.FileResult) {
	x := &extractor{
		Base: newBase(f.Root, f.Src), c: cacheFor(f.Repo),
		bind: map[string]*binding{}, seenImp: map[extract.Import]bool{}, modVars: map[string]string{},
		top: map[string]int32{}, defined: map[string]bool{}, methods: map[int32]map[string]int32{},
		fields: map[int32]map[string]int32{}, enums: map[int32]bool{},
		fieldExt: map[int32]map[string]bool{}, annotated: map[int32]bool{}, closed: map[int32]bool{},
		test: r.Flags&snapshot.FlagTest != 0,
	}
	x.F, x.R = f, r
	defer x.Release()
	x.dir = path.Dir(f.Path)
	if x.dir == "." {
		x.dir = ""
	}
	x.mod, x.isInit = moduleKey(x.c, f.Path)
	r.Package, r.Scope = x.mod, ""
	const root = 0
	x.walk(root, ctx{from: -1, parent: -1, class: -1})
	x.finish()
}

// ref records a reference out of symbol from and returns its index.
func (x *extractor) ref(from int32, kind extract.RefKind, name, qual, qt string, line uint32) int {
	return x.AddRef(extract.Ref{From: from, Kind: kind, Name: name, Qual: qual, QualType: qt, Line: line})
}

// exported flags a name seen from outside its module: not one inside a
// function, nor a _private one (__dunder__ names are public).
func (x *extractor) exported(name string, parent int32) snapshot.Flags {
	if parent >= 0 && x.R.Symbols[parent].Kind.IsCallable() {
		return 0
	}
	if strings.HasPrefix(name, "_") && !isDunder(name) {
		return 0
	}
	return snapshot.FlagExported
}

// finish settles what needed the whole file: fixture parameters, result
// types of this file's functions, and references whose condition failed (a
// builtin name the file does not define, an argument that names no
// function or method of the file).
func (x *extractor) finish() {
	x.resolveFixtures()
	x.localResults()
	if len(x.checks) == 0 {
		return
	}
	drop := map[int]bool{}
	for _, ch := range x.checks {
		if ch.class < 0 {
			if !x.defined[ch.name] {
				drop[ch.ref] = true
			}
		} else if _, ok := x.methods[ch.class][ch.name]; !ok {
			drop[ch.ref] = true
		}
	}
	out := x.R.Refs[:0]
	for i, rf := range x.R.Refs {
		if !drop[i] {
			out = append(out, rf)
		}
	}
	x.R.Refs = out
}

// localResults replaces "call:self.m" and "call:f" types with the result
// type of m or f when this file declares it (self.config =
// self.make_config() with make_config -> Config).
func (x *extractor) localResults() {
	for i := range x.R.Symbols {
		s := &x.R.Symbols[i]
		for step := 0; step < 3 && strings.HasPrefix(s.Type, "call:"); step++ {
			t := x.localResult(int32(i), s.Type[len("call:"):])
			if t == "" {
				break
			}
			s.Type = t
		}
	}
}

// localResult is the result type of call ("f" or "self.m") as this file
// declares it for symbol si, or "".
func (x *extractor) localResult(si int32, call string) string {
	qual, name, dotted := strings.Cut(call, ".")
	var fn int32 = -1
	cls := int32(-1)
	switch {
	case !dotted:
		name = qual
		if id, ok := x.top[name]; ok {
			fn = id
		}
	case qual == "self" || qual == "cls":
		for p := x.R.Symbols[si].Parent; p >= 0; p = x.R.Symbols[p].Parent {
			if x.R.Symbols[p].Kind.IsType() {
				cls = p
				break
			}
		}
		if id, ok := x.methods[cls][name]; ok && cls >= 0 {
			fn = id
		}
	}
	if fn < 0 || fn == si {
		return ""
	}
	f := &x.R.Symbols[fn]
	switch {
	case f.Kind.IsType():
		return f.Name
	case !f.Kind.IsCallable():
		return ""
	case f.Type == "Self" && cls >= 0:
		return x.R.Symbols[cls].Name
	}
	return f.Type
}

// pytestBuiltin are pytest's own fixtures: objects outside the repository.
var pytestBuiltin = extract.WordSet(`monkeypatch tmp_path tmpdir capsys capfd capsysbinary capfdbinary caplog
request pytestconfig recwarn tmp_path_factory tmpdir_factory cache doctest_namespace
record_property record_testsuite_property record_xml_attribute testdir pytester mocker
event_loop subtests`)

// resolveFixtures turns fixture parameters into "the result of the fixture
// function": defined in this file, or in the nearest conftest.py, which is
// imported under a name no code can spell.
func (x *extractor) resolveFixtures() {
	if len(x.fixtures) == 0 {
		return
	}
	conftest := ""
	if x.c != nil {
		d := x.dir
		if path.Base(x.F.Path) == "conftest.py" {
			d = parentDir(d)
			if x.dir == "" {
				d = "\x00"
			}
		}
		for d != "\x00" {
			if p := joinRel(d, "conftest.py"); x.c.isFile(p) {
				conftest, _ = moduleKey(x.c, p)
				break
			}
			if d == "" {
				break
			}
			d = parentDir(d)
		}
	}
	used := false
	for _, i := range x.fixtures {
		rf := &x.R.Refs[i]
		name := strings.TrimPrefix(rf.QualType, vFix)
		switch {
		case x.defined[name]:
			rf.QualType = "call:" + name
		case conftest != "":
			rf.QualType = "call:" + conftestAlias + "." + name
			used = true
		default:
			rf.QualType = ""
		}
	}
	if used {
		x.emit(extract.Import{Path: conftest, Alias: conftestAlias})
	}
}

const conftestAlias = "__conftest__"

// returned infers an unannotated function's result type from what it
// returns (or, for a pytest fixture, yields): a class instance, a typed
// local, self.
func (x *extractor) returned(n int32, c ctx) {
	if c.from < 0 || x.annotated[c.from] || c.sc == nil {
		return
	}
	e := x.only(n)
	if e < 0 {
		return
	}
	s := &x.R.Symbols[c.from]
	if !s.Kind.IsCallable() || s.Type != "" {
		return
	}
	if x.Code(e) == kIdentifier && c.sc.isSelf(x.Text(e)) && !c.sc.clsParam {
		s.Type = "Self"
		return
	}
	vt := x.valueType(e, c)
	if strings.HasPrefix(vt, vFix) {
		return
	}
	s.Type = typeOnly(vt)
}

// typeOnly keeps the value types a symbol's Type can hold: a type name, or
// "call:f" for the result of a function; a class called is its type.
func typeOnly(vt string) string {
	switch {
	case vt == "" || vt == vExt || vt == vDef || strings.HasPrefix(vt, "="):
		return ""
	case strings.HasPrefix(vt, "call:"):
		if startsUpper(extract.LastName(vt[len("call:"):])) {
			return vt[len("call:"):]
		}
	}
	return vt
}
