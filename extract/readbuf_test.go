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
	for _, lang := range []string{"go", "python", "javascript", "rust", "java", "csharp", "ruby"} {
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
