package csharp_test

import (
	"context"
	"os"
	"sort"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestCorpus builds the C# checkout named by KNOWING_CORPUS_CSHARP (an
// Ocelot checkout, say) and reports what the extractor finds: files,
// symbols, edges by type, time, and how many calls resolved. It is skipped
// when the variable is unset.
func TestCorpus(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_CSHARP")
	if root == "" {
		t.Skip("KNOWING_CORPUS_CSHARP not set")
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
	var types []snapshot.EdgeType
	for et := range byType {
		types = append(types, et)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	for _, et := range types {
		t.Logf("  %-12s %d", et, byType[et])
	}
	byKind := map[snapshot.Kind]int{}
	for _, n := range g.Nodes {
		byKind[n.Kind]++
	}
	t.Logf("nodes by kind: %v", byKind)
	for _, q := range []string{
		// Present in an Ocelot checkout.
		"Ocelot.Authentication.AuthenticationMiddleware.Invoke",
		"Ocelot.Middleware.OcelotMiddleware.Logger",
	} {
		found := false
		for _, n := range g.Nodes {
			if n.QName == q {
				found = true
				break
			}
		}
		t.Logf("%-60s found=%v", q, found)
	}
}
