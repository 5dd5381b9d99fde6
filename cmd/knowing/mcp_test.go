package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// mcpClient serves testdata/go over in-memory transports and returns the
// client's session; the snapshot is built by the first tool call.
func mcpClient(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	return mcpClientFor(t, "../../testdata/go")
}

// mcpClientFor serves the repository at repo.
func mcpClientFor(t *testing.T, repo string) (*mcp.ClientSession, string) {
	t.Helper()
	snap := filepath.Join(t.TempDir(), "go.snap")
	return mcpServe(t, &mcpServer{repo: repo, snap: snap}), snap
}

// mcpServe serves k in memory and returns the client's session.
func mcpServe(t *testing.T, k *mcpServer) *mcp.ClientSession {
	t.Helper()
	t.Cleanup(k.close)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := newMCPServer(k).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured answer into out; it
// returns the error text of a tool error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err.Error()
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, raw)
	}
	return ""
}

// TestMCPServer drives the server as an agent's client does: it lists the
// tools and calls each with good and bad arguments on testdata/go.
func TestMCPServer(t *testing.T) {
	cs, snap := mcpClient(t)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" {
			t.Errorf("tool %s has no description", tl.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"callees", "callers", "changes", "context", "impact", "outline", "symbol"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	var ctxOut contextOut
	if msg := call(t, cs, "context", map[string]any{"task": "get an item from the memory store"}, &ctxOut); msg != "" {
		t.Fatal(msg)
	}
	if _, err := os.Stat(snap); err != nil {
		t.Errorf("the first call built no snapshot: %v", err)
	}
	if len(ctxOut.Results) == 0 || !strings.Contains(ctxOut.Results[0].Symbol, "store.") {
		t.Errorf("context: %+v", ctxOut.Results)
	}
	if len(ctxOut.Sources) != 0 {
		t.Errorf("context gave code unasked")
	}
	var withCode contextOut
	if msg := call(t, cs, "context", map[string]any{"task": "get an item from the memory store", "source": true}, &withCode); msg != "" || len(withCode.Sources) == 0 || !strings.Contains(withCode.Sources[0].Code, "func") && !strings.Contains(withCode.Sources[0].Code, "type") {
		t.Errorf("context with source: %q %+v", msg, withCode.Sources)
	}
	tokens := 0
	for _, r := range ctxOut.Results {
		tokens += r.Tokens
	}
	if tokens > mcpBudget {
		t.Errorf("context answered %d tokens, over the %d budget", tokens, mcpBudget)
	}

	var def struct {
		Symbol, File string
		Source       *Source
	}
	if msg := call(t, cs, "symbol", map[string]any{"symbol": "MemoryStore.Get"}, &def); msg != "" || def.Symbol != "example.com/shop/store.MemoryStore.Get" || def.File != "store/memory.go" || def.Source != nil {
		t.Errorf("symbol: %q %+v", msg, def)
	}
	if msg := call(t, cs, "symbol", map[string]any{"symbol": "MemoryStore.Get", "source": true}, &def); msg != "" || def.Source == nil || !strings.HasPrefix(def.Source.Code, "func (m *MemoryStore) Get(") {
		t.Errorf("symbol with source: %q %+v", msg, def.Source)
	}
	var callers callsReport
	if msg := call(t, cs, "callers", map[string]any{"symbol": "store.Store.Get"}, &callers); msg != "" || !slices.ContainsFunc(callers.Results, func(h query.Hop) bool { return h.Symbol == "example.com/shop/server.Server.HandleGet" }) {
		t.Errorf("callers: %q %+v", msg, callers)
	}
	var imp impactReport
	if msg := call(t, cs, "impact", map[string]any{"symbols": []string{"store.Store.Get"}}, &imp); msg != "" || !slices.ContainsFunc(imp.Results, func(r query.Impacted) bool { return r.Symbol == "example.com/shop/server.TestServer_HandleGet" }) {
		t.Errorf("impact: the test of HandleGet missing: %q %+v", msg, imp.Results)
	}
	var ol outlineReport
	if msg := call(t, cs, "outline", map[string]any{"file": "store/memory.go"}, &ol); msg != "" || len(ol.Results) != 5 {
		t.Errorf("outline: %q %+v", msg, ol)
	}
	var ch changesReport
	if msg := call(t, cs, "changes", map[string]any{"files": []string{"store/memory.go"}}, &ch); msg != "" || len(ch.Changed) == 0 {
		t.Errorf("changes: %q %+v", msg, ch)
	}

	// Bad arguments: tool errors an agent can read and act on.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"symbol", map[string]any{"symbol": "Get"}, "give more of the qualified name"},
		{"symbol", map[string]any{"symbol": "MemoryStor.Gett"}, "no symbol"},
		{"symbol", map[string]any{}, "symbol"},
		{"callers", map[string]any{"symbol": 7}, "symbol"},
		{"impact", map[string]any{"symbols": []string{}}, "at least one symbol"},
		{"changes", map[string]any{}, "a diff or a list of files"},
		{"outline", map[string]any{"file": "nowhere.go"}, "nowhere.go"},
	} {
		var sink any
		if msg := call(t, cs, c.tool, c.args, &sink); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: %q, want an error with %q", c.tool, c.args, msg, c.want)
		}
	}
}

// TestMCPStdio runs knowing mcp as a command, as a client registers it,
// and asks it one question over stdin and stdout.
func TestMCPStdio(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "go.snap")
	cmd := exec.Command(os.Args[0], "mcp", "--repo", "../../testdata/go", "--snap", snap)
	cmd.Env = append(os.Environ(), "KNOWING_RUN_AS_MAIN=1")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var def struct{ Symbol string }
	if msg := call(t, cs, "symbol", map[string]any{"symbol": "NewMemoryStore"}, &def); msg != "" || def.Symbol != "example.com/shop/store.NewMemoryStore" {
		t.Errorf("symbol over stdio: %q %+v", msg, def)
	}
}

// BenchmarkMCPRoundTrip measures a warm server's tool call, client to
// server and back over in-memory transports, on KNOWING_BENCH_SNAP (the
// Go standard library).
//
//	KNOWING_BENCH_SNAP=/tmp/gostd.snap go test ./cmd/knowing -run xxx -bench MCPRoundTrip
func BenchmarkMCPRoundTrip(b *testing.B) {
	snap := os.Getenv("KNOWING_BENCH_SNAP")
	if snap == "" {
		b.Skip("set KNOWING_BENCH_SNAP to a snapshot of the Go standard library")
	}
	// The server keeps the snapshot up to date with the repository it
	// was built from.
	s, err := snapshot.Open(snap)
	if err != nil {
		b.Fatal(err)
	}
	m, err := s.Meta()
	s.Close()
	if err != nil {
		b.Fatal(err)
	}
	k := &mcpServer{repo: m.RepoRoot, snap: snap}
	defer k.close()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := newMCPServer(k).Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	calls := []*mcp.CallToolParams{
		{Name: "symbol", Arguments: map[string]any{"symbol": "net/http.Server.Serve"}},
		{Name: "callers", Arguments: map[string]any{"symbol": "net/http.readCookies"}},
		{Name: "context", Arguments: map[string]any{"task": "where are cookies parsed from the request headers"}},
	}
	for _, c := range calls { // warm
		if _, err := cs.CallTool(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range calls {
		b.Run(c.Name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if res, err := cs.CallTool(ctx, c); err != nil || res.IsError {
					b.Fatal(err, res)
				}
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		})
	}
}
