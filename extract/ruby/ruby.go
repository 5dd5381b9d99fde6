// Package ruby is knowing's Ruby extractor.
//
// Ruby has no packages: constants are namespaced by module nesting, and
// every file sees every top-level constant and method once loaded. So
// FileResult.Package is "" and qualified names come from nesting alone
// (`module Jekyll; class Tags::HighlightBlock; def render` is
// Jekyll.Tags.HighlightBlock.render), and all Ruby files share one Scope,
// so that a top-level name (module Jekyll, a top-level def) declared in
// one file is found from the others. A module or class reopened in several
// files gives one symbol per file, all with the same qualified name.
//
// Calls are recorded with what is known of the receiver: self, a constant
// path, a local or instance variable typed by `Foo.new` (or a YARD or
// Sorbet annotation, or the inferred result of a method), and chains
// through attributes (`@site.config` is Qual "self.site"). super calls the
// method of the same name in a base. Mixins (include, extend, prepend) are
// Implements, so their methods are found from the including class.
// RSpec examples (it/specify), shoulda `should` blocks and ActiveSupport
// `test "..."` blocks become test functions.
//
// The extractor walks a file once (visit, here); each concern has a file:
// declarations made by syntax (declarations.go) and by calls (macros.go),
// calls and their receivers (calls.go), what names hold (values.go),
// constants (constants.go), comments and annotations (docs.go), test
// blocks (specs.go), and what a file loads and which gems lie outside
// (imports.go).
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package ruby

import (
	"path"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Scope is the scope of every Ruby file: top-level constants and methods
// are global in Ruby.
const Scope = "ruby"

func init() {
	extract.Register(&extract.Language{
		Lang:           snapshot.LangRuby,
		FieldsCallable: true,
		Grammars:       map[string]string{".rb": "ruby", ".rake": "ruby"},
		Extract:        extractRuby,
		ImplicitSelf:   true,
		SelfNames:      []string{"self"},
		SuperNames:     []string{"super"},
		TestName:       IsTestName,
	})
}

// IsTestName reports the names of tests: minitest's test_x methods and the
// functions made for RSpec, shoulda and ActiveSupport test blocks.
func IsTestName(n string) bool {
	return strings.HasPrefix(n, "test_") || strings.HasPrefix(n, "it_") || strings.HasPrefix(n, "should_") ||
		n == "test" || n == "it"
}

// typeCtx is a class or module body being read.
type typeCtx struct {
	sym       int32
	private   bool             // the default visibility of following defs
	fields    map[string]int32 // attribute / instance variable → field symbol
	methods   map[string]int32 // method name → symbol, for `private :m`
	singleton bool             // inside class << self
	name      string           // the type as written, dotted: "Tags.HighlightBlock"
}

// fnCtx is the method (or test block) being read.
type fnCtx struct {
	sym  int32
	name string
}

// extractor reads one file.
type extractor struct {
	extract.Base

	cls   *typeCtx
	fn    *fnCtx
	from  int32
	vars  *scope
	specs []*specCtx
	test  bool
	sig   *sorbetSig

	// The run of comments ending last, for doc comments.
	docEnd   uint32
	docParts []string

	topTypes   map[string]bool // top-level names of modules/classes declared in the file
	deps       map[string]bool // normalised names of the project's gem dependencies
	externals  map[string]bool // constants given an import as outside the repository
	typeRefs   map[typeRefKey]bool
	fileMethod map[string]bool // every method name the file defines
}

// typeRefKey is a type reference out of a symbol, recorded once.
type typeRefKey struct {
	from int32
	name string
}

// extractRuby reads one Ruby file into r.
func extractRuby(f *extract.File, r *extract.FileResult) {
	r.Package, r.Scope = "", Scope
	setupOnce.Do(setup)
	x := &extractor{
		Base:       extract.Base{FlatTree: extract.NewNamedFlatTree(f.Root, f.Src, kindNames), F: f, R: r, Codes: codes},
		from:       -1,
		vars:       &scope{vars: map[string]string{}},
		test:       r.Flags&snapshot.FlagTest != 0 || extract.IsTestPath(f.Path),
		topTypes:   map[string]bool{},
		externals:  map[string]bool{},
		typeRefs:   map[typeRefKey]bool{},
		fileMethod: map[string]bool{},
	}
	defer x.Release()
	x.deps = dependencies(f.Repo, path.Dir(f.Path))
	const root = 0
	x.scanTopTypes(root)
	x.visit(root)
	x.finish()
}

// visitKids visits the named children of n.
func (x *extractor) visitKids(n int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.visit(c)
	}
}

// visit reads node n (none for -1) and what it holds.
func (x *extractor) visit(n int32) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kComment:
		x.comment(n)
	case kModule, kClass:
		x.typeDecl(n)
	case kSingletonClass:
		x.singletonClass(n)
	case kMethod, kSingletonMethod:
		x.method(n, false)
	case kCall:
		x.call(n)
	case kIdentifier:
		x.identifier(n)
	case kConstant:
		x.typeRef(x.Text(n), n)
	case kScopeRes:
		x.scopeRef(n)
	case kAssignment, kOpAssignment:
		x.assignment(n)
	case kSuper:
		x.superCall(n)
	case kBlock, kDoBlock, kLambda:
		x.block(n, nil)
	case kExceptionVar, kLeftList:
		x.bindLocals(n)
	case kFor, kPattern:
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.N[c].Field == fPattern {
				x.bindLocals(c)
			} else {
				x.visit(c)
			}
		}
	case kSkip, kSymbol, kLiteral, kHashKeySymbol, kSelf, kIVar, kClassVar, kGlobalVar:
		// names and values, no references
		if x.Code(n) == kLiteral && x.FirstNamed(n) >= 0 {
			x.visitKids(n)
		}
	case kParams:
		x.params(n, nil, nil)
	default:
		x.visitKids(n)
	}
}

// container is the symbol new declarations nest in.
func (x *extractor) container() int32 {
	if x.cls != nil {
		return x.cls.sym
	}
	return -1
}

// finish drops receiverless calls of Kernel functions the file does not
// define itself.
func (x *extractor) finish() {
	out := x.R.Refs[:0]
	for _, r := range x.R.Refs {
		if r.Kind == extract.RefCall && r.Qual == "" && kernelCalls[r.Name] && !x.fileMethod[r.Name] {
			continue
		}
		out = append(out, r)
	}
	x.R.Refs = out
}
