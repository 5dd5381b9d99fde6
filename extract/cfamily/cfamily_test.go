package cfamily

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestCRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/c")

	// A function is one node, at its definition in the .c file, with the
	// doc of its prototype in the header; the header's outline lists it.
	n := b.Node("kv_put")
	if n.Kind != snapshot.KindFunction || n.Lang != snapshot.LangC || b.G.Files[n.File].Path != "src/kv.c" || n.StartLine != 14 {
		t.Errorf("kv_put: %v %v %s:%d", n.Kind, n.Lang, b.G.Files[n.File].Path, n.StartLine)
	}
	if n.Doc != "kv_put stores val under key.\nIt returns 0 on success, -1 for a key that is too long." {
		t.Errorf("kv_put doc %q", n.Doc)
	}
	if len(b.IDs("kv_put")) != 1 || len(b.IDs("kv_open")) != 1 {
		t.Errorf("kv_put or kv_open declared and defined as two nodes")
	}
	b.Edge("include/kv.h", "kv_put", snapshot.EdgeContains)
	b.Edge("src/kv.c", "kv_put", snapshot.EdgeContains)
	b.Edge("kv_put", "src/kv.c", snapshot.EdgeMemberOf)
	b.NoEdge("kv_put", "include/kv.h", snapshot.EdgeMemberOf)

	// Includes are imports of files: beside the includer, or found by
	// the end of their path (kv.h in include/).
	b.Edge("src/kv.c", "include/kv.h", snapshot.EdgeImports)
	b.Edge("include/kv.h", "src/dict.h", snapshot.EdgeImports)

	// A call across files through a header: kv.c includes kv.h, which
	// includes dict.h, which declares dictCreate, defined in dict.c.
	b.Edge("kv_open", "dictCreate", snapshot.EdgeCalls)
	b.Edge("kv_put", "dictAdd", snapshot.EdgeCalls)
	b.Edge("serverHandleSet", "kv_put", snapshot.EdgeCalls)

	// A static function is its file's: two files define validKey, and
	// each calls its own.
	ids := b.IDs("validKey")
	if len(ids) != 2 {
		t.Fatalf("validKey: %d nodes", len(ids))
	}
	for _, id := range ids {
		if b.G.Nodes[id].Flags&snapshot.FlagExported != 0 {
			t.Errorf("static validKey exported")
		}
	}
	for _, e := range b.G.Edges {
		if e.Type != snapshot.EdgeCalls || b.G.Nodes[e.To].Name != "validKey" {
			continue
		}
		from, to := b.G.Nodes[e.From], b.G.Nodes[e.To]
		if from.File != to.File {
			t.Errorf("%s calls the validKey of %s", from.QName, b.G.Files[to.File].Path)
		}
	}

	// A function defined once per platform: each definition has the
	// header's doc.
	if ids := b.IDs("kv_now"); len(ids) != 2 {
		t.Errorf("kv_now: %d nodes", len(ids))
	} else {
		for _, id := range ids {
			if n := b.G.Nodes[id]; n.Doc != "kv_now is the time in milliseconds, for expiry." {
				t.Errorf("kv_now in %s: doc %q", b.G.Files[n.File].Path, n.Doc)
			}
		}
	}

	// A call no include declares is not guessed into vendored code: the
	// system's fsync, not the shim deps/ defines for itself.
	if n := b.Node("fsync"); n.Flags&snapshot.FlagVendored == 0 {
		t.Errorf("deps/ not vendored: %v", n.Flags)
	}
	b.NoEdge("main", "fsync", snapshot.EdgeCalls)
	// Nor into another file's static function.
	b.NoEdge("test_kv_put_rejects_long_keys", "dictHash", snapshot.EdgeCalls)

	// Macros: a constant and a function.
	if n := b.Node("KV_MAX_KEY"); n.Kind != snapshot.KindConstant || n.Signature != "#define KV_MAX_KEY 256" || n.StartLine != n.EndLine {
		t.Errorf("KV_MAX_KEY: %v %q %d-%d", n.Kind, n.Signature, n.StartLine, n.EndLine)
	}
	if n := b.Node("KV_LEN"); n.Kind != snapshot.KindFunction || n.Doc != "KV_LEN is the number of keys in store s." {
		t.Errorf("KV_LEN: %v %q", n.Kind, n.Doc)
	}
	if len(b.IDs("KV_H")) != 0 {
		t.Errorf("the include guard is a symbol")
	}

	// Typedef'd structs and their fields; field types lead to types.
	if n := b.Node("kv_store"); n.Kind != snapshot.KindStruct || n.Doc != "A key-value store kept in memory." {
		t.Errorf("kv_store: %v %q", n.Kind, n.Doc)
	}
	b.Edge("kv_store.d", "dict", snapshot.EdgeReferences)
	b.Edge("dict", "dictAdd", snapshot.EdgeTypeHintOf)

	// A Unity test in tests/ exercises what it calls; its setUp is no test.
	if n := b.Node("test_kv_put_rejects_long_keys"); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("test not flagged: %v", n.Flags)
	}
	b.Edge("test_kv_put_rejects_long_keys", "kv_put", snapshot.EdgeTests)
	b.NoEdge("setUp", "kv_open", snapshot.EdgeTests)
	// A test macro naming its test (jemalloc's TEST_BEGIN).
	if n := b.Node("test_dict_add_counts_keys"); n.Flags&snapshot.FlagTest == 0 || n.Kind != snapshot.KindFunction {
		t.Errorf("TEST_BEGIN test: %v %v", n.Kind, n.Flags)
	}
	b.Edge("test_dict_add_counts_keys", "dictAdd", snapshot.EdgeTests)
}

func TestCPPRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/cpp")

	// Namespaces are packages; classes, their members, qualified names.
	if n := b.Node("shop"); n.Kind != snapshot.KindPackage {
		t.Errorf("shop: %v", n.Kind)
	}
	b.Node("shop.util")
	// The export macro between class and the name does not hide the class.
	if n := b.Node("shop.Store"); n.Kind != snapshot.KindClass || n.Doc != "Store is where the shop keeps its items." || n.Lang != snapshot.LangCPP {
		t.Errorf("Store: %v %q %v", n.Kind, n.Doc, n.Lang)
	}
	// Also where the macro leaves no syntax error (the struct read as a
	// function definition).
	if n := b.Node("shop.Options"); n.Kind != snapshot.KindStruct || n.Doc != "Options tune a store." {
		t.Errorf("Options: %v %q", n.Kind, n.Doc)
	}
	b.Node("shop.Options.capacity")
	if n := b.Node("shop.MemoryStore.items_"); n.Kind != snapshot.KindField || n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("items_: %v %v", n.Kind, n.Flags)
	}
	if n := b.Node("shop.MemoryStore.MemoryStore"); n.Kind != snapshot.KindConstructor {
		t.Errorf("constructor kind %v", n.Kind)
	}
	// A method declared in its class and defined in the .cc file is one
	// node at the definition, with the declaration's doc, a member of the
	// class and in both files' outlines.
	get := b.Node("shop.MemoryStore.Get")
	if get.Kind != snapshot.KindMethod || b.G.Files[get.File].Path != "src/memory_store.cc" ||
		get.Doc != "Get looks the key up in the cache, then in the map." ||
		get.Signature != "Status MemoryStore::Get(const std::string& key, std::string* value)" {
		t.Errorf("MemoryStore.Get: %v %s %q %q", get.Kind, b.G.Files[get.File].Path, get.Doc, get.Signature)
	}
	if len(b.IDs("shop.MemoryStore.Get")) != 1 {
		t.Errorf("MemoryStore.Get: %d nodes", len(b.IDs("shop.MemoryStore.Get")))
	}
	b.Edge("shop.MemoryStore", "shop.MemoryStore.Get", snapshot.EdgeContains)
	b.Edge("shop.MemoryStore.Get", "shop.MemoryStore", snapshot.EdgeMemberOf)
	b.Edge("src/memory_store.cc", "shop.MemoryStore.Get", snapshot.EdgeContains)
	// A pure virtual method has no definition: it stays where it is.
	if n := b.Node("shop.Store.Get"); b.G.Files[n.File].Path != "include/shop/store.h" || n.Doc != "Get reads the value stored under key into *value." {
		t.Errorf("Store.Get: %s %q", b.G.Files[n.File].Path, n.Doc)
	}

	// Inheritance: a base class, a virtual override.
	b.Edge("shop.MemoryStore", "shop.Store", snapshot.EdgeExtends)
	b.Edge("shop.MemoryStore.Get", "shop.Store.Get", snapshot.EdgeOverrides)
	b.Edge("shop.MemoryStore.Put", "shop.Store.Put", snapshot.EdgeOverrides)

	// Calls: through this, through fields of the class declared in the
	// header (a unique_ptr's element, a template instance), a static
	// method by Type::name, a function by namespace::name, a virtual call
	// through a pointer to the base class.
	b.Edge("shop.MemoryStore.Get", "shop.MemoryStore.Has", snapshot.EdgeCalls)
	b.Edge("shop.MemoryStore.Has", "shop.Index.Contains", snapshot.EdgeCalls)
	b.Edge("shop.MemoryStore.Put", "shop.Index.Insert", snapshot.EdgeCalls)
	b.Edge("shop.MemoryStore.Put", "shop.LRUCache.Insert", snapshot.EdgeCalls)
	b.Edge("shop.MemoryStore.Get", "shop.Status.NotFound", snapshot.EdgeCalls)
	b.Edge("shop.MemoryStore.Put", "shop.util.Log", snapshot.EdgeCalls)
	b.Edge("shop.Server.HandleGet", "shop.Store.Get", snapshot.EdgeCalls)
	b.Edge("shop.Server.HandleGet", "shop.Status.ok", snapshot.EdgeCalls)
	b.Edge("shop.PutOpaque", "shop.MemoryStore.Put", snapshot.EdgeCalls) // static_cast<MemoryStore*>(h)->Put
	// Helpers of two files' anonymous namespaces share a name: each file
	// calls its own.
	for _, e := range b.G.Edges {
		if from, to := b.G.Nodes[e.From], b.G.Nodes[e.To]; e.Type == snapshot.EdgeCalls && to.QName == "shop.Valid" && from.File != to.File {
			t.Errorf("%s calls the Valid of %s", from.QName, b.G.Files[to.File].Path)
		}
	}
	b.Edge("shop.Index.Insert", "shop.Valid", snapshot.EdgeCalls)

	// A template is its primary template; its methods defined outside it
	// are its members.
	if n := b.Node("shop.LRUCache"); n.Kind != snapshot.KindClass || !strings.HasPrefix(n.Signature, "template <typename K, typename V> class LRUCache") {
		t.Errorf("LRUCache: %v %q", n.Kind, n.Signature)
	}
	b.Edge("shop.LRUCache", "shop.LRUCache.Evict", snapshot.EdgeContains)
	b.Edge("shop.LRUCache.Insert", "shop.LRUCache.Evict", snapshot.EdgeCalls)

	// Tests: a gtest TEST_F is a method of its fixture and calls the
	// fixture's helpers; TEST and a Catch2 TEST_CASE are functions.
	gap := "shop.MemoryStoreTest.GetAfterPut"
	if n := b.Node(gap); n.Flags&snapshot.FlagTest == 0 || n.Kind != snapshot.KindMethod {
		t.Errorf("%s: %v %v", gap, n.Kind, n.Flags)
	}
	b.Edge(gap, "shop.MemoryStoreTest.PutValue", snapshot.EdgeCalls)
	b.Edge(gap, "shop.MemoryStore.Get", snapshot.EdgeTests)
	b.Edge("shop.MemoryStore.Get", gap, snapshot.EdgeTestedBy)
	b.Edge("shop.StatusTest.NotFoundIsNotOk", "shop.Status.NotFound", snapshot.EdgeTests)
	b.Edge("the cache returns what was inserted", "shop.LRUCache.Insert", snapshot.EdgeTests)
	b.NoEdge("shop.MemoryStoreTest.PutValue", "shop.MemoryStore.Put", snapshot.EdgeTests)
	// A doctest case on a fixture reads the fixture's fields.
	b.Edge("IndexFixture.an inserted key is contained", "shop.Index.Insert", snapshot.EdgeTests)

	// Includes: a quoted path beside the includer, one under an include
	// folder.
	b.Edge("src/memory_store.cc", "src/memory_store.h", snapshot.EdgeImports)
	b.Edge("src/memory_store.h", "include/shop/store.h", snapshot.EdgeImports)
}

// TestHeaderLanguage: a .h header is C++ in a repository of C++
// sources or when it holds C++ syntax, else C.
func TestHeaderLanguage(t *testing.T) {
	c := extracttest.BuildDir(t, "../../testdata/c")
	if n := c.Node("kv_store"); n.Lang != snapshot.LangC {
		t.Errorf("C header read as %v", n.Lang)
	}
	// A header with nothing C++ in it is C++ in a repository of C++
	// sources.
	cpp := extracttest.BuildDir(t, "../../testdata/cpp")
	if n := cpp.Node("SHOP_EXPORT"); n.Lang != snapshot.LangCPP {
		t.Errorf("header of a C++ repository read as %v", n.Lang)
	}
	if !cppSyntax([]byte("#include <x>\nnamespace a {\n}\n")) || !cppSyntax([]byte("  template <typename T>\n")) {
		t.Errorf("C++ syntax not seen")
	}
	if cppSyntax([]byte("/* a class of its own */\nstruct x { int class_id; };\n")) {
		t.Errorf("C read as C++")
	}
}

func TestBlankMacros(t *testing.T) {
	for _, tc := range []struct{ in, macro string }{
		{"class LEVELDB_EXPORT DB {", "LEVELDB_EXPORT"},
		{"struct GTEST_API_ TestInfo : public X {", "GTEST_API_"},
		{"class Foo final {", ""},
		{"struct FOO bar;", ""}, // a variable of type struct FOO
		{"  port::Mutex mu_ GUARDED_BY(x);", "GUARDED_BY(x)"},
		{"void f() EXCLUSIVE_LOCKS_REQUIRED(mu_, (a));", "EXCLUSIVE_LOCKS_REQUIRED(mu_, (a))"},
		{"LEVELDB_EXPORT Status DestroyDB(const std::string& name);", "LEVELDB_EXPORT"},
		{"REDIS_NO_SANITIZE(\"bounds\")\nvoid clusterSetMaster(clusterNode *n) {}", "REDIS_NO_SANITIZE(\"bounds\")"},
		{"#define LEVELDB_EXPORT __declspec(dllexport)", ""}, // the macro's own definition
		{"LARGE_INTEGER size;", ""},                          // a type named in capitals
	} {
		got, ok := blankMacros([]byte(tc.in))
		if tc.macro == "" {
			if ok {
				t.Errorf("%q: blanked to %q", tc.in, got)
			}
			continue
		}
		want := strings.Replace(tc.in, tc.macro, strings.Repeat(" ", len(tc.macro)), 1)
		if string(got) != want {
			t.Errorf("%q: got %q, want %q", tc.in, got, want)
		}
	}
	src := "int a(int x)\n    :\n#if !defined(NDEBUG)\n  b(x),\n#endif  // !NDEBUG\n  c(x) {}\n#define X 1\n"
	got, ok := blankConditionals([]byte(src))
	if !ok || len(got) != len(src) || strings.Contains(string(got), "#if") || strings.Contains(string(got), "#endif") ||
		!strings.Contains(string(got), "#define X 1") || strings.Count(string(got), "\n") != strings.Count(src, "\n") {
		t.Errorf("blankConditionals: %q", got)
	}
}
