package extract_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	_ "github.com/knowing-dev/knowing/extract/langs"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestReadBufferNotRetained: a parse worker reads every file into one
// buffer. Overwriting that buffer after each file must leave the graph
// exactly as it is, in every language: no symbol, reference or import may
// keep a view of the source.
func TestReadBufferNotRetained(t *testing.T) {
	roots := []string{filepath.Join(extract.GoRootSrc(t), "encoding", "json")}
	for _, lang := range []string{"go", "python", "javascript", "rust", "java", "csharp", "ruby", "c", "cpp"} {
		roots = append(roots, filepath.Join("..", "testdata", lang))
	}
	build := func(root string, scribble bool) *snapshot.Graph {
		extract.SetScribbleSource(scribble)
		defer extract.SetScribbleSource(false)
		g, _, err := extract.Build(context.Background(), extract.Options{Root: root, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		g.Meta = snapshot.Meta{}
		g.Stamps.WalkStart = 0 // when the build ran, like the metadata
		return g
	}
	for _, root := range roots {
		want, got := build(root, false), build(root, true)
		if len(want.Nodes) < 20 {
			t.Fatalf("%s: %d nodes; the test needs a real repository", root, len(want.Nodes))
		}
		if !reflect.DeepEqual(want, got) {
			for i := range min(len(want.Nodes), len(got.Nodes)) {
				if !reflect.DeepEqual(want.Nodes[i], got.Nodes[i]) {
					t.Fatalf("%s: node %d is %+v with the buffer overwritten, %+v without", root, i, got.Nodes[i], want.Nodes[i])
				}
			}
			t.Fatalf("%s: the graph changes when the read buffer is overwritten", root)
		}
	}
}

// TestNodesDone: Build calls Options.NodesDone once, and what the nodes it
// sees hold then is what they hold in the finished graph (what a BM25 index
// started there reads); the nodes added afterwards are external ones. In
// Go, methods get their receiver's qualified name only after declaring:
// a hook called too early sees other names.
func TestNodesDone(t *testing.T) {
	for _, dir := range []string{"../testdata/go", "../testdata/python", "../testdata/rust"} {
		type text struct {
			name, qname, sig, doc string
			kind                  snapshot.Kind
			file                  int32
			flags                 snapshot.Flags
		}
		textOf := func(n *snapshot.Node) text {
			return text{n.Name, n.QName, n.Signature, n.Doc, n.Kind, n.File, n.Flags &^ snapshot.FlagTest}
		}
		var seen []text
		calls := 0
		opt := extract.Options{Root: dir, NodesDone: func(g *snapshot.Graph) {
			calls++
			for i := range g.Nodes {
				seen = append(seen, textOf(&g.Nodes[i]))
			}
		}}
		g, _, err := extract.Build(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		if calls != 1 || len(seen) == 0 || len(seen) > len(g.Nodes) {
			t.Fatalf("%s: NodesDone called %d times with %d of %d nodes", dir, calls, len(seen), len(g.Nodes))
		}
		for i, want := range seen {
			if got := textOf(&g.Nodes[i]); got != want {
				t.Errorf("%s: node %d is %+v in the graph, %+v when NodesDone ran", dir, i, got, want)
			}
		}
		for i := len(seen); i < len(g.Nodes); i++ {
			if g.Nodes[i].Flags&snapshot.FlagExternal == 0 {
				t.Errorf("%s: node %d (%s) added after NodesDone is not external", dir, i, g.Nodes[i].QName)
			}
		}
	}
}
