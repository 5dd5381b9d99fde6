package javascript

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestCorpus builds a real JavaScript/TypeScript project named by
// KNOWING_CORPUS_JS (read-only) and reports its figures.
func TestCorpus(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_JS")
	if root == "" {
		t.Skip("KNOWING_CORPUS_JS not set")
	}
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus absent:", err)
	}
	start := time.Now()
	g, st, err := extract.Build(context.Background(), extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("files %d (parse errors %d), nodes %d, edges %d, %.2fs (total %.2fs)",
		st.Files, st.ParseErrors, st.Nodes, st.Edges, st.Elapsed.Seconds(), time.Since(start).Seconds())
	byType := map[snapshot.EdgeType]int{}
	byKind := map[snapshot.Kind]int{}
	for _, e := range g.Edges {
		byType[e.Type]++
	}
	for _, n := range g.Nodes {
		byKind[n.Kind]++
	}
	var lines []string
	for et, c := range byType {
		lines = append(lines, et.String()+"="+itoa(c))
	}
	sort.Strings(lines)
	t.Logf("edges: %v", lines)
	lines = lines[:0]
	for k, c := range byKind {
		lines = append(lines, k.String()+"="+itoa(c))
	}
	sort.Strings(lines)
	t.Logf("nodes: %v", lines)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
