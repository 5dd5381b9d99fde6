package python

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

const (
	pApp   = "shop.app"
	pScaf  = "shop.sansio.scaffold" // sansio has no __init__.py: a namespace sub-package
	pStore = "shop.store"
	pHelp  = "shop.helpers"
	pViews = "shop.web.views"
	pTest  = "tests.test_app" // tests/ is no package: named by its path
)

func TestPythonRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/python")

	// Symbols: kinds, qualified names (src layout), docstrings, #: comments,
	// signatures with decorators, visibility.
	n := b.Node(pScaf + ".Scaffold.before_request")
	if n.Kind != snapshot.KindMethod || !strings.HasPrefix(n.Doc, "Register a function to run before each request.") {
		t.Errorf("before_request: kind %v doc %q", n.Kind, n.Doc)
	}
	if n.Signature != "@setupmethod def before_request(self, f: F) -> F" || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("before_request: signature %q flags %v", n.Signature, n.Flags)
	}
	if n := b.Node(pStore + ".Store"); n.Kind != snapshot.KindInterface || n.Doc != "Where items live." {
		t.Errorf("Store: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node(pStore + ".MemoryStore"); n.Kind != snapshot.KindClass {
		t.Errorf("MemoryStore kind %v", n.Kind)
	}
	if n := b.Node(pApp + ".App.__init__"); n.Kind != snapshot.KindConstructor {
		t.Errorf("__init__ kind %v", n.Kind)
	}
	if n := b.Node(pApp + ".App.store"); n.Kind != snapshot.KindField {
		t.Errorf("self.store kind %v", n.Kind)
	}
	if n := b.Node(pScaf + ".Scaffold._got_first_request"); n.Kind != snapshot.KindField ||
		n.Doc != "Set once the first request was handled." || n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("_got_first_request: kind %v doc %q flags %v", n.Kind, n.Doc, n.Flags)
	}
	if n := b.Node(pScaf + ".setupmethod.wrapper"); n.Kind != snapshot.KindFunction || n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("nested wrapper: kind %v flags %v", n.Kind, n.Flags)
	}
	if n := b.Node(pScaf + ".F"); n.Kind != snapshot.KindTypeAlias {
		t.Errorf("TypeVar F kind %v", n.Kind)
	}
	if n := b.Node(pViews + ".app"); n.Kind != snapshot.KindVariable {
		t.Errorf("module variable app kind %v", n.Kind)
	}
	if n := b.Node("shop"); n.Kind != snapshot.KindPackage {
		t.Errorf("package shop kind %v", n.Kind)
	}
	b.Node(pStore + ".Item.price")
	b.Node("tests.conftest.app")

	// Containment both ways.
	b.Edge(pApp+".App", pApp+".App.setup", snapshot.EdgeContains)
	b.Edge(pApp+".App.setup", pApp+".App", snapshot.EdgeMemberOf)

	// Calls: an imported function in another file, a function through a
	// module alias, a method through self, through a typed field, an
	// inherited method through self, a method passed as an argument,
	// super(), a class instantiated, a method on a typed local.
	b.Edge(pApp+".App.link", pHelp+".url_for", snapshot.EdgeCalls)
	b.Edge(pApp+".App.full_dispatch_request", pHelp+".render", snapshot.EdgeCalls)
	b.Edge(pApp+".App.full_dispatch_request", pApp+".App.preprocess_request", snapshot.EdgeCalls)
	b.Edge(pApp+".App.full_dispatch_request", pStore+".Store.get", snapshot.EdgeCalls)
	b.Edge(pApp+".App.setup", pScaf+".Scaffold.before_request", snapshot.EdgeCalls)
	b.Edge(pApp+".App.setup", pApp+".App.check_api_key", snapshot.EdgeCalls)
	b.Edge(pApp+".App.__init__", pScaf+".Scaffold.__init__", snapshot.EdgeCalls)
	b.Edge(pApp+".App.__init__", pStore+".MemoryStore", snapshot.EdgeCalls)
	b.Edge(pApp+".create_app", pApp+".App.setup", snapshot.EdgeCalls)
	// A decorator on a module variable holding create_app()'s result, and
	// a relative import of the parent package's module.
	b.Edge(pViews+".check_key", pScaf+".Scaffold.before_request", snapshot.EdgeCalls)
	b.Edge(pViews+".check_key", pApp+".App.check_api_key", snapshot.EdgeCalls)
	b.Edge(pViews+".index", pHelp+".url_for", snapshot.EdgeCalls)
	// Decorators are calls; a self parameter typed by annotation.
	b.Edge(pScaf+".Scaffold.before_request", pScaf+".setupmethod", snapshot.EdgeCalls)
	b.Edge(pScaf+".setupmethod.wrapper", pScaf+".Scaffold._check_setup_finished", snapshot.EdgeCalls)
	b.Edge(pScaf+".setupmethod", pScaf+".setupmethod.wrapper", snapshot.EdgeCalls)

	// Not guessed: os.path.join is not the repository's join, reset() on an
	// untyped parameter is ambiguous (Scaffold and MemoryStore have one),
	// str.join on a literal is no call of helpers.join.
	b.NoEdge(pApp+".App.setup", pHelp+".join", snapshot.EdgeCalls)
	b.NoEdge(pApp+".App.shutdown", pScaf+".Scaffold.reset", snapshot.EdgeCalls)
	b.NoEdge(pApp+".App.shutdown", pStore+".MemoryStore.reset", snapshot.EdgeCalls)
	b.NoEdge(pHelp+".join", pHelp+".join", snapshot.EdgeCalls)

	// Inheritance: extends, inherited methods, an abstract base class
	// implemented, an overriding method.
	b.Edge(pApp+".App", pScaf+".Scaffold", snapshot.EdgeExtends)
	b.Edge(pApp+".App", pScaf+".Scaffold.before_request", snapshot.EdgeInherits)
	b.Edge(pStore+".MemoryStore", pStore+".Store", snapshot.EdgeImplements)
	b.Edge(pStore+".MemoryStore.get", pStore+".Store.get", snapshot.EdgeOverrides)
	// A test's subclass extends and overrides, but inherits nothing: its
	// inherited methods are the product's API, reached from the product's
	// own classes.
	b.Edge(pTest+".RecordingStore", pStore+".MemoryStore", snapshot.EdgeExtends)
	b.Edge(pTest+".RecordingStore.get", pStore+".MemoryStore.get", snapshot.EdgeOverrides)
	b.NoEdge(pTest+".RecordingStore", pStore+".MemoryStore.put", snapshot.EdgeInherits)

	// Types in signatures and annotations.
	b.Edge(pStore+".Store", pApp+".App.__init__", snapshot.EdgeTypeHintOf)
	b.Edge(pStore+".Item", pHelp+".render", snapshot.EdgeTypeHintOf)

	// Tests: a test function, a pytest fixture from conftest.py, a method of
	// a Test class.
	b.Edge(pTest+".test_full_dispatch", pApp+".App.full_dispatch_request", snapshot.EdgeTests)
	b.Edge(pApp+".App.full_dispatch_request", pTest+".test_full_dispatch", snapshot.EdgeTestedBy)
	b.Edge(pTest+".test_full_dispatch", pStore+".MemoryStore.put", snapshot.EdgeTests)
	b.Edge(pTest+".test_before_request", pScaf+".Scaffold.before_request", snapshot.EdgeTests)
	b.Edge(pTest+".TestStore.test_missing", pStore+".MemoryStore.get", snapshot.EdgeTests)
	if n := b.Node(pTest + ".test_full_dispatch"); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("test function not flagged: %v", n.Flags)
	}
	if n := b.Node(pApp + ".App"); n.Flags&snapshot.FlagTest != 0 || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("App flags %v", n.Flags)
	}

	// Imports link files to modules; a name re-exported by a package
	// (`from shop import App`) links to the module that defines it.
	b.Edge("src/shop/app.py", pScaf, snapshot.EdgeImports)
	b.Edge("src/shop/web/views.py", pHelp, snapshot.EdgeImports)
	b.Edge("tests/test_app.py", pApp, snapshot.EdgeImports)
	b.Edge("tests/test_app.py", "tests.conftest", snapshot.EdgeImports)
}

// TestHeadersFromNamedTree checks signatures cut at the header's colon,
// which the named-only tree the extractor reads does not hold: the colon
// is found in the text between named children, past the colons of
// annotations, defaults, lambdas and slices, and before a comment.
func TestHeadersFromNamedTree(t *testing.T) {
	dir := t.TempDir()
	src := `import typing


class Base(object, metaclass=typing.Protocol):  # a comment: not the header
    pass


def annotated(x: int = 1, *, y: "a:b" = {1: 2}, z=lambda q: q[1:2]) -> typing.Dict[str, int]:
    return {}


async def coro(): pass


def wrapped(
    a,
    b,
) -> None:  # note: not part of the header
    pass


class Bare:
    # first: a comment inside the body
    def method(self) -> "x:y":
        pass


# The limit, documented above.
LIMIT = 10
`
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b := extracttest.BuildDir(t, dir)
	for qname, want := range map[string]string{
		"m.Base":        "class Base(object, metaclass=typing.Protocol)",
		"m.annotated":   `def annotated(x: int = 1, *, y: "a:b" = {1: 2}, z=lambda q: q[1:2]) -> typing.Dict[str, int]`,
		"m.coro":        "async def coro()",
		"m.wrapped":     "def wrapped( a, b, ) -> None",
		"m.Bare":        "class Bare",
		"m.Bare.method": `def method(self) -> "x:y"`,
	} {
		if got := b.Node(qname).Signature; got != want {
			t.Errorf("%s: signature %q, want %q", qname, got, want)
		}
	}
	if got := b.Node("m.LIMIT").Doc; got != "The limit, documented above." {
		t.Errorf("LIMIT: doc %q", got)
	}
}
