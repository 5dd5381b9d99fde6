//go:build cgo

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/query"
)

// TestMCPSessionFollowsRebuild: a symbol looked up before an edit is
// still raised by the context answers of the rebuilt snapshot, in which
// a new package shifted every node id.
func TestMCPSessionFollowsRebuild(t *testing.T) {
	const task = "get an item from the memory store"
	repo := extracttest.CopyTree(t, "../../testdata/go")
	k := &mcpServer{repo: repo, snap: filepath.Join(t.TempDir(), "go.snap"), sess: query.NewSession(time.Hour, query.DefaultSessionWeight)}
	cs := mcpServe(t, k)
	var first contextOut
	if msg := call(t, cs, "context", map[string]any{"task": task}, &first); msg != "" {
		t.Fatal(msg)
	}
	pick, sym := liftable(t, first)
	if msg := call(t, cs, "symbol", map[string]any{"symbol": sym}, &struct{}{}); msg != "" {
		t.Fatal(msg)
	}
	// A package whose file sorts first: the rebuilt snapshot numbers
	// every other symbol anew.
	if err := os.MkdirAll(filepath.Join(repo, "aaa"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package aaa\n\n// Ping answers pong.\nfunc Ping() string { return \"pong\" }\n\n// Pong answers ping.\nfunc Pong() string { return \"ping\" }\n"
	if err := os.WriteFile(filepath.Join(repo, "aaa", "aaa.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the server does not see the new package", func() bool {
		var o outlineReport
		return call(t, cs, "outline", map[string]any{"file": "aaa/aaa.go"}, &o) == "" && len(o.Results) > 0
	})
	var second contextOut
	if msg := call(t, cs, "context", map[string]any{"task": task}, &second); msg != "" {
		t.Fatal(msg)
	}
	var names []string
	for _, r := range second.Results {
		names = append(names, r.Symbol)
	}
	if rank := slices.Index(names, sym); rank < 0 || rank >= pick {
		t.Errorf("after the rebuild %s looked up before it stays at %d (was %d): %v", sym, rank+1, pick+1, names)
	}
}
