// Package extracttest builds the small test repositories under testdata/
// and asserts symbols and edges in them by qualified name.
//
// It is for tests of the extract packages only; it imports extract and
// snapshot.
package extracttest

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Built is an extracted test repository with lookups by qualified name.
type Built struct {
	t *testing.T
	G *snapshot.Graph
}

// BuildDir extracts every supported file under root (a folder of a test
// repository, e.g. "../../testdata/python").
func BuildDir(t *testing.T, root string) *Built {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if extract.Supported(p) {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := extract.ExtractFiles(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	return &Built{t: t, G: g}
}

// IDs are the nodes with this qualified name.
func (b *Built) IDs(qname string) []uint32 {
	var out []uint32
	for i, n := range b.G.Nodes {
		if n.QName == qname {
			out = append(out, uint32(i))
		}
	}
	return out
}

// Node asserts a node with this qualified name exists and returns it.
func (b *Built) Node(qname string) snapshot.Node {
	b.t.Helper()
	ids := b.IDs(qname)
	if len(ids) == 0 {
		b.t.Fatalf("no node %q; nodes with that name: %v", qname, b.similar(qname))
	}
	return b.G.Nodes[ids[0]]
}

func (b *Built) similar(qname string) []string {
	name := extract.LastPart(qname)
	var out []string
	for _, n := range b.G.Nodes {
		if n.Name == name {
			out = append(out, n.QName+" ("+n.Kind.String()+")")
		}
	}
	sort.Strings(out)
	return out
}

// HasEdge reports an edge of type t between the named nodes.
func (b *Built) HasEdge(from, to string, t snapshot.EdgeType) bool {
	fs, ts := b.IDs(from), b.IDs(to)
	for _, e := range b.G.Edges {
		if e.Type != t {
			continue
		}
		for _, f := range fs {
			for _, x := range ts {
				if e.From == f && e.To == x {
					return true
				}
			}
		}
	}
	return false
}

// Edge asserts an edge of type t from → to.
func (b *Built) Edge(from, to string, t snapshot.EdgeType) {
	b.t.Helper()
	b.Node(from)
	b.Node(to)
	if !b.HasEdge(from, to, t) {
		b.t.Errorf("missing edge %s -%s-> %s; edges out of %s: %v", from, t, to, from, b.EdgesFrom(from))
	}
}

// NoEdge asserts there is no edge of type t from → to.
func (b *Built) NoEdge(from, to string, t snapshot.EdgeType) {
	b.t.Helper()
	if b.HasEdge(from, to, t) {
		b.t.Errorf("unexpected edge %s -%s-> %s", from, t, to)
	}
}

// EdgesFrom lists the edges out of the named node, for messages.
func (b *Built) EdgesFrom(from string) []string {
	var out []string
	for _, f := range b.IDs(from) {
		for _, e := range b.G.Edges {
			if e.From == f {
				out = append(out, e.Type.String()+"→"+b.G.Nodes[e.To].QName)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Corpus builds the repository named by the environment variable env
// (skipping the test when it is unset or missing) with extract.Build, the
// way `knowing build` does, logs what was found (files, symbols, edges by
// type, nodes by kind, calls by how they resolved, time), checks the
// qualified names listed in $KNOWING_EXPECT, and returns it for
// assertions.
func Corpus(t *testing.T, env string) *Built {
	t.Helper()
	root := os.Getenv(env)
	if root == "" {
		t.Skipf("%s not set", env)
	}
	if _, err := os.Stat(root); err != nil {
		t.Skip(err)
	}
	g, st, err := extract.Build(context.Background(), extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("files %d, symbols %d, nodes %d, edges %d, parse errors %d, %v",
		st.Files, st.Symbols, st.Nodes, st.Edges, st.ParseErrors, st.Elapsed)
	byType := map[snapshot.EdgeType]int{}
	for _, e := range g.Edges {
		byType[e.Type]++
	}
	byKind := map[snapshot.Kind]int{}
	for _, n := range g.Nodes {
		byKind[n.Kind]++
	}
	for et := snapshot.EdgeType(0); int(et) < snapshot.NumEdgeTypes; et++ {
		if byType[et] > 0 {
			t.Logf("  %-12s %d", et, byType[et])
		}
	}
	t.Logf("nodes by kind: %v", byKind)
	conf := map[string]int{}
	for _, e := range g.Edges {
		if e.Type != snapshot.EdgeCalls {
			continue
		}
		switch {
		case e.Confidence >= 0.9:
			conf["scope"]++
		case e.Confidence >= 0.8:
			conf["typed"]++
		default:
			conf["unique name"]++
		}
	}
	t.Logf("calls by how they resolved: %v", conf)
	b := &Built{t: t, G: g}
	b.ExpectNodes(strings.Fields(os.Getenv("KNOWING_EXPECT"))...)
	return b
}

// ExpectNodes asserts that each qualified name names a node, and logs its
// kind and how many nodes share the name.
func (b *Built) ExpectNodes(qnames ...string) {
	b.t.Helper()
	for _, q := range qnames {
		ids := b.IDs(q)
		if len(ids) == 0 {
			b.t.Errorf("missing %s; nodes with that name: %v", q, b.similar(q))
			continue
		}
		b.t.Logf("found %-50s %s ×%d", q, b.G.Nodes[ids[0]].Kind, len(ids))
	}
}

// SetT attaches a test to a Built made from a graph directly.
func (b *Built) SetT(t *testing.T) { b.t = t }

// CopyTree copies the folder src to a new temporary folder and returns
// it: tests that edit a repository work on a copy.
func CopyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
