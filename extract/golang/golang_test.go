package golang_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestGoRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/go")
	const st, sv = "example.com/shop/store", "example.com/shop/server"

	// Symbols, kinds, qualified names, doc comments, signatures.
	if n := b.Node(sv + ".Server"); n.Kind != snapshot.KindStruct || n.Doc != "Server answers catalogue requests over HTTP." {
		t.Errorf("Server: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node(st + ".Store"); n.Kind != snapshot.KindInterface {
		t.Errorf("Store kind %v", n.Kind)
	}
	if n := b.Node(st + ".MemoryStore.Get"); n.Kind != snapshot.KindMethod || !strings.HasPrefix(n.Signature, "func (m *MemoryStore) Get(id string)") {
		t.Errorf("MemoryStore.Get: %v %q", n.Kind, n.Signature)
	}
	if n := b.Node(st + ".ErrNotFound"); n.Kind != snapshot.KindVariable {
		t.Errorf("ErrNotFound kind %v", n.Kind)
	}
	b.Node(st + ".Item.Price")
	b.Node(sv + ".render")

	// Containment both ways.
	b.Edge(st+".MemoryStore", st+".MemoryStore.Get", snapshot.EdgeContains)
	b.Edge(st+".MemoryStore.Get", st+".MemoryStore", snapshot.EdgeMemberOf)

	// A call across files of one package, and a call through the receiver.
	b.Edge(sv+".Server.HandleGet", sv+".render", snapshot.EdgeCalls)
	b.Edge(sv+".Server.HandleGet", sv+".Server.logf", snapshot.EdgeCalls)
	// A call through a field typed with an imported interface.
	b.Edge(sv+".Server.HandleGet", st+".Store.Get", snapshot.EdgeCalls)
	// A call into another package through its import.
	b.Edge(sv+".TestServer_HandleGet", st+".NewMemoryStore", snapshot.EdgeCalls)
	// A use of a package-level variable is not a call; the call to an
	// external function (fmt.Printf) is not guessed onto a repo symbol.
	b.NoEdge(sv+".Server.logf", st+".MemoryStore.Put", snapshot.EdgeCalls)

	// Structural interface implementation.
	b.Edge(st+".MemoryStore", st+".Store", snapshot.EdgeImplements)
	b.NoEdge(st+".Item", st+".Store", snapshot.EdgeImplements)

	// Embedding: Server extends Base and inherits its method.
	// A call chain, a type assertion, and a method of a library's result.
	b.Edge(sv+".Lookup", sv+".Query.Limit", snapshot.EdgeCalls)
	b.Edge(sv+".Lookup", sv+".Query.Run", snapshot.EdgeCalls)
	b.Edge(sv+".Lookup", st+".Store.Put", snapshot.EdgeCalls)
	b.NoEdge(sv+".Lookup", sv+".Len", snapshot.EdgeCalls)
	b.Edge(sv+".Server", sv+".Base", snapshot.EdgeExtends)
	b.Edge(sv+".Server", sv+".Base.Close", snapshot.EdgeInherits)

	// Types in signatures.
	b.Edge(st+".Item", sv+".render", snapshot.EdgeTypeHintOf)
	b.Edge(st+".Store", sv+".New", snapshot.EdgeTypeHintOf)

	// Tests: by call and by name.
	b.Edge(sv+".TestServer_HandleGet", sv+".Server.HandleGet", snapshot.EdgeTests)
	b.Edge(sv+".Server.HandleGet", sv+".TestServer_HandleGet", snapshot.EdgeTestedBy)
	if n := b.Node(sv + ".TestServer_HandleGet"); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("test function not flagged: %v", n.Flags)
	}
	if n := b.Node(sv + ".Server"); n.Flags&snapshot.FlagTest != 0 || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("Server flags %v", n.Flags)
	}

	// Imports link files to packages.
	b.Edge("server/server.go", st, snapshot.EdgeImports)
}

// TestBuildDeterministic: the graph does not depend on how many workers
// parse the files.
func TestBuildDeterministic(t *testing.T) {
	var first *snapshot.Graph
	for _, workers := range []int{1, 2, 4} {
		g, _, err := extract.Build(context.Background(), extract.Options{Root: "../../testdata/go", Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		g.Meta = snapshot.Meta{}
		g.Stamps.WalkStart = 0 // when the build ran, like the metadata
		if first == nil {
			first = g
			continue
		}
		if !reflect.DeepEqual(first, g) {
			t.Fatalf("graph with %d workers differs from the one with 1", workers)
		}
	}
}
