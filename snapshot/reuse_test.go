package snapshot

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// reuseGraph is a random graph with body words on some nodes.
func reuseGraph() *Graph {
	g := randomGraph(11, 30, 800, 2500)
	for i := range g.Nodes {
		if i%3 == 0 {
			g.Nodes[i].Body = words[i%len(words)] + " " + words[(i*7)%len(words)]
		}
		if i%5 == 0 {
			g.Nodes[i].Text = "the words of a comment"
		}
	}
	return g
}

// TestWriteReuse writes a graph, changes it in one way after another, and
// writes each change twice, afresh and reusing the sections of the
// snapshot before it: the files must be the same, byte for byte, and the
// reused groups the ones the change left alone.
func TestWriteReuse(t *testing.T) {
	needBM25(t)
	for _, mapped := range []bool{true, false} {
		t.Run(map[bool]string{true: "mapped", false: "copied"}[mapped], func(t *testing.T) {
			defer func(was bool) { reuseMapped = was }(reuseMapped)
			reuseMapped = mapped
			testWriteReuse(t)
		})
	}
}

func testWriteReuse(t *testing.T) {
	dir := t.TempDir()
	prev := filepath.Join(dir, "prev.snap")
	g := reuseGraph()
	memo := &Memo{}
	if err := Write(prev, g, &WriteOptions{Memo: memo}); err != nil {
		t.Fatal(err)
	}
	all := []string{"graph", "keys", "bm25", "body", "cold"}
	// pick is the first node from i on with a BM25 document of all its
	// fields and no body words.
	pick := func(i int) int {
		for ; ; i++ {
			n := &g.Nodes[i]
			if searchable(n) && n.Flags&FlagExternal == 0 && n.File >= 0 && n.Body == "" && n.Text == "" {
				return i
			}
		}
	}
	changes := []struct {
		name   string
		change func(g *Graph)
		reused []string
	}{
		{"nothing", func(g *Graph) {}, all},
		{"lines and a file's size", func(g *Graph) {
			g.Nodes[10].StartLine++
			g.Nodes[10].EndLine += 2
			g.Files[3].Size++
		}, all},
		{"an edge's target", func(g *Graph) { g.Edges[7].To = (g.Edges[7].To + 1) % uint32(len(g.Nodes)) }, []string{"keys", "bm25", "body", "cold"}},
		{"an edge's confidence", func(g *Graph) { g.Edges[9].Confidence = 1 - g.Edges[9].Confidence/2 }, []string{"keys", "bm25", "body", "cold"}},
		{"an edge more", func(g *Graph) { g.Edges = append(g.Edges, Edge{From: 1, To: 2, Type: 1, Confidence: 1}) }, []string{"keys", "bm25", "body", "cold"}},
		{"a body", func(g *Graph) { g.Nodes[30].Body = "changed words" }, []string{"graph", "keys", "bm25", "cold"}},
		{"a body becomes generated", func(g *Graph) {
			i := 33
			for g.Nodes[i].Body == "" || !searchable(&g.Nodes[i]) {
				i++
			}
			g.Nodes[i].Flags |= FlagGenerated
		}, []string{"graph", "cold"}},
		{"a history", func(g *Graph) { g.Nodes[pick(31)].History = "fix the parser" }, []string{"graph", "keys", "bm25", "cold"}},
		{"a doc", func(g *Graph) { g.Nodes[pick(40)].Doc = "a new doc" }, []string{"graph", "keys", "body"}},
		{"a signature", func(g *Graph) { g.Nodes[pick(50)].Signature = "func x()" }, []string{"graph", "keys", "body"}},
		{"a qualified name", func(g *Graph) { n := &g.Nodes[pick(60)]; n.QName = "pkg.other." + n.Name }, []string{"graph", "keys", "body", "cold"}},
		{"a name", func(g *Graph) { g.Nodes[43].Name = "renamedByTheTest" }, []string{"graph", "body", "cold"}},
		{"a file's path", func(g *Graph) { g.Files[2].Path = "moved/by/the/test.go" }, []string{"graph", "keys", "body", "cold"}},
		{"generated", func(g *Graph) { g.Nodes[pick(70)].Flags ^= FlagGenerated }, []string{"graph", "body", "cold"}},
		{"a kind", func(g *Graph) { g.Nodes[pick(80)].Kind = KindFile }, []string{"graph", "body", "cold"}},
		{"a node more", func(g *Graph) { g.Nodes = append(g.Nodes, Node{Name: "more", QName: "pkg.more", File: -1}) }, nil},
	}
	for _, c := range changes {
		c.change(g)
		fresh := filepath.Join(dir, "fresh.snap")
		if err := Write(fresh, g, nil); err != nil {
			t.Fatal(err)
		}
		next := &Memo{}
		r, err := OpenReuse(prev, memo)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "reused.snap")
		if err := Write(out, g, &WriteOptions{Reuse: r, Memo: next}); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(fresh)
		b, _ := os.ReadFile(out)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the file reusing sections differs from a fresh write", c.name)
		}
		if got := r.Reused(); !slices.Equal(got, c.reused) && !(len(got) == 0 && len(c.reused) == 0) {
			t.Errorf("%s: reused %v, want %v", c.name, got, c.reused)
		}
		if err := os.Rename(out, prev); err != nil {
			t.Fatal(err)
		}
		memo = next
	}
}

// TestWriteReuseChecksBytes: a memo that does not describe the snapshot
// (another file, damaged sections) reuses nothing.
func TestWriteReuseChecksBytes(t *testing.T) {
	needBM25(t)
	dir := t.TempDir()
	g := reuseGraph()
	prev := filepath.Join(dir, "prev.snap")
	memo := &Memo{}
	if err := Write(prev, g, &WriteOptions{Memo: memo}); err != nil {
		t.Fatal(err)
	}
	// Another snapshot at the same path, of a graph with other edges.
	other := reuseGraph()
	other.Edges = other.Edges[:len(other.Edges)/2]
	if err := Write(prev, other, nil); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReuse(prev, memo)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.snap")
	if err := Write(out, g, &WriteOptions{Reuse: r}); err != nil {
		t.Fatal(err)
	}
	if got := r.Reused(); slices.Contains(got, "graph") {
		t.Errorf("reused the graph of another snapshot: %v", got)
	}
	fresh := filepath.Join(dir, "fresh.snap")
	if err := Write(fresh, g, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(fresh)
	b, _ := os.ReadFile(out)
	if !bytes.Equal(a, b) {
		t.Error("the file differs from a fresh write")
	}
}

// TestMemoRoundTrip: a memo survives its encoding, under its id only.
func TestMemoRoundTrip(t *testing.T) {
	needBM25(t)
	m := &Memo{}
	if err := Write(filepath.Join(t.TempDir(), "x.snap"), reuseGraph(), &WriteOptions{Memo: m}); err != nil {
		t.Fatal(err)
	}
	b := m.Marshal("v1")
	got, err := UnmarshalMemo(b, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if got.groups[groupKeys].nameKeys != m.groups[groupKeys].nameKeys || got.groups[groupCold].key != m.groups[groupCold].key ||
		!slices.Equal(got.groups[groupBM25].crcs, m.groups[groupBM25].crcs) {
		t.Errorf("decoded %+v, encoded %+v", got.groups, m.groups)
	}
	if _, err := UnmarshalMemo(b, "v2"); err == nil {
		t.Error("a memo of another id was accepted")
	}
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0x10
		if _, err := UnmarshalMemo(c, "v1"); err == nil {
			t.Fatalf("a memo with byte %d changed was accepted", i)
		}
	}
}
