package rust

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestRustRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/rust")
	const st, mem, sv, fm = "shop.store", "shop.store.memory", "shop.server", "text_fmt"

	// Symbols, kinds, qualified names (module paths from the crate name),
	// doc comments, signatures, flags.
	if n := b.Node(sv + ".Server"); n.Kind != snapshot.KindStruct || n.Doc != "Server answers catalogue requests." ||
		n.Flags&snapshot.FlagExported == 0 || n.Flags&snapshot.FlagTest != 0 {
		t.Errorf("Server: kind %v doc %q flags %v", n.Kind, n.Doc, n.Flags)
	}
	if n := b.Node(st + ".Store"); n.Kind != snapshot.KindTrait || n.Signature != "pub trait Store: Named" {
		t.Errorf("Store: %v %q", n.Kind, n.Signature)
	}
	if n := b.Node(mem + ".MemoryStore.get"); n.Kind != snapshot.KindMethod || n.Signature != "fn get(&self, id: &str) -> Option<Item>" {
		t.Errorf("MemoryStore.get: %v %q", n.Kind, n.Signature)
	}
	if n := b.Node(st + ".Store.describe"); n.Doc != "describe renders the item with this id, or nothing." {
		t.Errorf("describe doc %q", n.Doc)
	}
	if n := b.Node(st + ".Item.price"); n.Kind != snapshot.KindField {
		t.Errorf("Item.price kind %v", n.Kind)
	}
	if n := b.Node(sv + ".Server.log"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("private method exported: %v", n.Flags)
	}
	b.Node(fm + ".render")        // a workspace crate, named after its Cargo.toml
	b.Node("shop.bin.shopd.main") // src/bin/shopd.rs
	if n := b.Node(fm + ".tests"); n.Kind != snapshot.KindModule {
		t.Errorf("inline mod kind %v", n.Kind)
	}
	for _, q := range []string{fm + ".tests.pads", "shop.tests.api.handle_get_renders_item"} {
		if n := b.Node(q); n.Flags&snapshot.FlagTest == 0 {
			t.Errorf("%s not flagged test: %v", q, n.Flags)
		}
	}

	// Methods of impl blocks hang under their type.
	b.Edge(mem+".MemoryStore", mem+".MemoryStore.new", snapshot.EdgeContains)
	b.Edge(mem+".MemoryStore.new", mem+".MemoryStore", snapshot.EdgeMemberOf)

	// Calls: across files through an import re-exported by the crate root
	// (use crate::MemoryStore), across crates of the workspace (a use and
	// a path), in the module, through self.
	b.Edge(sv+".Server.new", mem+".MemoryStore.new", snapshot.EdgeCalls)
	b.Edge(sv+".Server.handle_get", fm+".render", snapshot.EdgeCalls)
	b.Edge(sv+".not_found", fm+".pad", snapshot.EdgeCalls)
	b.Edge(sv+".Server.handle_get", sv+".not_found", snapshot.EdgeCalls)
	b.Edge(sv+".Server.handle_get", sv+".Server.log", snapshot.EdgeCalls)
	// Through a field typed with a trait object (Box<dyn Store>).
	b.Edge(sv+".Server.handle_get", st+".Store.get", snapshot.EdgeCalls)
	b.Edge(sv+".Server.add", st+".Store.put", snapshot.EdgeCalls)
	// Through a local typed by the call that made it, inside a macro.
	b.Edge("shop.bin.shopd.main", sv+".Server.handle_get", snapshot.EdgeCalls)
	// A builder chain: each call is on the type the call before returned,
	// also through a local bound to a chain; a name Job shares goes to
	// Query's method only, and len() on a String to no method of the repo.
	b.Edge(sv+".lookup", sv+".Query.new", snapshot.EdgeCalls)
	b.Edge(sv+".lookup", sv+".Query.limit", snapshot.EdgeCalls)
	b.Edge(sv+".lookup", sv+".Query.run", snapshot.EdgeCalls)
	b.Edge(sv+".lookup", sv+".Query.key", snapshot.EdgeCalls)
	b.NoEdge(sv+".lookup", sv+".Job.limit", snapshot.EdgeCalls)
	b.NoEdge(sv+".lookup", sv+".Job.run", snapshot.EdgeCalls)
	b.NoEdge(sv+".lookup", sv+".Query.len", snapshot.EdgeCalls)
	// A call of the standard library is not guessed onto the repository's
	// function of the same name.
	b.NoEdge(sv+".load", fm+".read_to_string", snapshot.EdgeCalls)
	// A trait's default method calls the trait's method through self.
	b.Edge(st+".Store.describe", st+".Store.get", snapshot.EdgeCalls)

	// Traits: supertrait, implementations, inherited default method,
	// overrides, and a call through self resolved to the default method.
	b.Edge(st+".Store", st+".Named", snapshot.EdgeExtends)
	b.Edge(mem+".MemoryStore", st+".Store", snapshot.EdgeImplements)
	b.Edge(mem+".MemoryStore", st+".Named", snapshot.EdgeImplements)
	b.NoEdge(st+".Item", st+".Store", snapshot.EdgeImplements)
	b.Edge(mem+".MemoryStore", st+".Store.describe", snapshot.EdgeInherits)
	b.Edge(mem+".MemoryStore.get", st+".Store.get", snapshot.EdgeOverrides)
	b.Edge(mem+".MemoryStore.summary", st+".Store.describe", snapshot.EdgeCalls)

	// Types in signatures and bodies.
	b.Edge(st+".Item", sv+".Server.add", snapshot.EdgeTypeHintOf)
	b.Edge(sv+".Server", st+".Store", snapshot.EdgeReferences)
	b.Edge("shop.tests.api.handle_get_renders_item", st+".Item", snapshot.EdgeReferences)

	// An integration test and its subject.
	b.Edge("shop.tests.api.handle_get_renders_item", sv+".Server.handle_get", snapshot.EdgeTests)
	b.Edge(sv+".Server.handle_get", "shop.tests.api.handle_get_renders_item", snapshot.EdgeTestedBy)
	b.Edge(fm+".tests.pads", fm+".pad", snapshot.EdgeCalls)

	// Imports link files to the modules that declare what they use.
	b.Edge("src/server.rs", st, snapshot.EdgeImports)
	b.Edge("src/server.rs", mem, snapshot.EdgeImports)
	b.Edge("src/server.rs", fm, snapshot.EdgeImports)
	b.Edge("tests/api.rs", sv, snapshot.EdgeImports)
	b.NoEdge("crates/text-fmt/src/lib.rs", fm, snapshot.EdgeImports)
}

func TestParseUse(t *testing.T) {
	got := parseUse(`crate::core::{compiler::BuildRunner, Package as P, self, *}`)
	want := []useEntry{
		{segs: []string{"crate", "core", "compiler", "BuildRunner"}},
		{segs: []string{"crate", "core", "Package"}, alias: "P"},
		{segs: []string{"crate", "core"}},
		{segs: []string{"crate", "core", "*"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	got = parseUse("::std::{\n    // a comment\n    fs,\n    io::{self, Write as _},\n}")
	want = []useEntry{
		{segs: []string{"::", "std", "fs"}},
		{segs: []string{"::", "std", "io"}},
		{segs: []string{"::", "std", "io", "Write"}, alias: "_"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestParseCargo(t *testing.T) {
	ci := parseCargo("crates/io", []byte(`
[package]
name = "crates-io"   # comment

[lib]
path = "lib.rs"

[dependencies]
serde = { workspace = true }
cargo-util.workspace = true

[target.'cfg(unix)'.dev-dependencies.libc]
version = "1"
`))
	if ci.name != "crates_io" || ci.libDir != "crates/io" || ci.libFile != "lib.rs" {
		t.Errorf("crate %+v", ci)
	}
	for _, d := range []string{"serde", "cargo_util", "libc"} {
		if !ci.deps[d] {
			t.Errorf("dependency %s missing: %v", d, ci.deps)
		}
	}
	ws := parseCargo("", []byte("[workspace]\nmembers = [\n  \"crates/*\",\n  \"benches/x\", # b\n]\n"))
	if ws.name != "" || !reflect.DeepEqual(ws.members, []string{"crates/*", "benches/x"}) {
		t.Errorf("workspace %+v", ws)
	}
}

func TestLocate(t *testing.T) {
	c := cacheFor(extract.NewRepo("../../testdata/rust"))
	for p, want := range map[string]string{
		"src/lib.rs":                 "shop shop",
		"src/store/mod.rs":           "shop.store shop",
		"src/store/memory.rs":        "shop.store.memory shop",
		"src/bin/shopd.rs":           "shop.bin.shopd shop.bin.shopd",
		"tests/api.rs":               "shop.tests.api shop.tests.api",
		"crates/text-fmt/src/lib.rs": "text_fmt text_fmt",
	} {
		pkg, root, _ := c.locate(p)
		if got := pkg + " " + root; got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
	if f := c.moduleFile("shop.store.memory"); f != "src/store/memory.rs" {
		t.Errorf("module file %q", f)
	}
	if r := c.resolveItem("shop", "MemoryStore", false); r.mod != "shop.store.memory" || !r.found {
		t.Errorf("re-export followed to %+v", r)
	}
	if !strings.HasPrefix(modulePath([]string{"a-b", "mod.rs"}), "a_b") {
		t.Error(modulePath([]string{"a-b", "mod.rs"}))
	}
}

// TestLocateBinOutsideSrc checks that a package whose only target is a
// binary kept outside src/ ([[bin]] path = "crates/core/main.rs", as in
// ripgrep) names its modules from that file's folder.
func TestLocateBinOutsideSrc(t *testing.T) {
	dir := t.TempDir()
	for p, body := range map[string]string{
		"Cargo.toml":                  "[package]\nname = \"ripgrep\"\n\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n",
		"crates/core/main.rs":         "mod flags;\nfn main() {}\n",
		"crates/core/flags/mod.rs":    "pub mod config;\n",
		"crates/core/flags/config.rs": "pub fn args() {}\n",
	} {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := cacheFor(extract.NewRepo(dir))
	for p, want := range map[string]string{
		"crates/core/main.rs":         "ripgrep ripgrep",
		"crates/core/flags/config.rs": "ripgrep.flags.config ripgrep",
	} {
		pkg, root, _ := c.locate(p)
		if got := pkg + " " + root; got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

// TestItemMacros: functions, structs and impl blocks in the braces of a
// macro invocation among items (cfg_rt! { ... }, nested cfg_net! { ... })
// are symbols of the enclosing module or impl, at their own lines, with
// their calls resolved, as are the items of each cfg_if! branch; an
// invocation whose argument is no items
// (flags! { pub struct Mode: u8 { ... } }) is left as it is.
func TestItemMacros(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/rust")
	const task = "shop.task"
	for _, c := range []struct {
		qname      string
		kind       snapshot.Kind
		start, end uint32
	}{
		{task + ".spawn", snapshot.KindFunction, 7, 11},
		{task + ".JoinHandle", snapshot.KindStruct, 14, 17},
		{task + ".JoinHandle.label", snapshot.KindField, 16, 16},
		{task + ".JoinHandle.new", snapshot.KindMethod, 20, 22},
		{task + ".JoinHandle.announce", snapshot.KindMethod, 26, 28}, // cfg_net! in an impl in cfg_rt!
		{task + ".send", snapshot.KindFunction, 34, 36},
	} {
		n := b.Node(c.qname)
		if n.Kind != c.kind || n.StartLine != c.start || n.EndLine != c.end {
			t.Errorf("%s: %v %d-%d, want %v %d-%d", c.qname, n.Kind, n.StartLine, n.EndLine, c.kind, c.start, c.end)
		}
	}
	if n := b.Node(task + ".spawn"); n.Doc != "spawn starts a task for the item and returns its handle." ||
		n.Signature != "pub fn spawn(item: Item) -> JoinHandle" || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("spawn: doc %q sig %q flags %v", n.Doc, n.Signature, n.Flags)
	}
	// cfg_if!'s branches: one symbol each.
	if ids := b.IDs(task + ".workers"); len(ids) != 2 || b.G.Nodes[ids[0]].StartLine+4 != b.G.Nodes[ids[1]].StartLine &&
		b.G.Nodes[ids[1]].StartLine+4 != b.G.Nodes[ids[0]].StartLine {
		t.Errorf("cfg_if! branches: %d symbols workers, want 2 four lines apart", len(ids))
	}
	b.Edge(task+".workers", task+".next_id", snapshot.EdgeCalls)
	if ids := b.IDs(task + ".Mode"); len(ids) != 0 {
		t.Errorf("flags!'s argument read as items: %v", ids)
	}
	b.Edge(task+".JoinHandle", task+".JoinHandle.announce", snapshot.EdgeContains)
	b.Edge(task+".spawn", task+".JoinHandle.new", snapshot.EdgeCalls)
	b.Edge(task+".spawn", task+".next_id", snapshot.EdgeCalls)
	b.Edge(task+".spawn", task+".JoinHandle.announce", snapshot.EdgeCalls)
	b.Edge(task+".JoinHandle.announce", task+".send", snapshot.EdgeCalls)
	// From another crate of the package, through `pub use task::spawn`
	// inside cfg_rt! in lib.rs.
	b.Edge("shop.tests.tasks.spawn_starts_a_task", task+".spawn", snapshot.EdgeCalls)
}

// TestScanModuleItemMacros: the line scan of a module file reads the
// items of a macro invocation opened at column 0, and of invocations
// nested in it, and nothing deeper.
func TestScanModuleItemMacros(t *testing.T) {
	src := "use a::b;\n" +
		"cfg_rt! {\n" +
		"    pub mod task;\n" +
		"    pub fn spawn() {\n" +
		"        fn inner() {}\n" +
		"    }\n" +
		"    cfg_net! {\n" +
		"        pub struct Socket;\n" +
		"    }\n" +
		"    pub fn after_net() {}\n" +
		"}\n" +
		"cfg_if! {\n" +
		"    if #[cfg(unix)] {\n" +
		"        fn unix_only() {}\n" +
		"    } else if #[cfg(windows)] {\n" +
		"        fn windows_only() {}\n" +
		"    } else {\n" +
		"        fn elsewhere() {}\n" +
		"    }\n" +
		"}\n" +
		"macro_rules! m {\n" +
		"    () => {};\n" +
		"}\n" +
		"    fn indented() {}\n" +
		"fn top() {}\n"
	c := &repoCache{repo: extract.NewRepo(t.TempDir())}
	mi := c.scanModule("x", []byte(src))
	for _, name := range []string{"spawn", "Socket", "after_net", "unix_only", "windows_only", "elsewhere", "top", "m"} {
		if !mi.items[name] {
			t.Errorf("item %s not read; items %v", name, mi.items)
		}
	}
	for _, name := range []string{"inner", "indented"} {
		if mi.items[name] {
			t.Errorf("nested item %s read as the module's", name)
		}
	}
	if !mi.mods["task"] {
		t.Errorf("mod task in cfg_rt! not read: %v", mi.mods)
	}
}
