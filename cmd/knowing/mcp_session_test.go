package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/query"
)

// TestMCPSession: with --session, a symbol the agent looked up rises in
// the next context answer for a related task; without it (the default)
// the answer does not change.
func TestMCPSession(t *testing.T) {
	const task = "get an item from the memory store"
	for _, on := range []bool{false, true} {
		k := &mcpServer{repo: "../../testdata/go", snap: filepath.Join(t.TempDir(), "go.snap")}
		if on {
			k.sess = query.NewSession(time.Hour, query.DefaultSessionWeight)
		}
		cs := mcpServe(t, k)
		var first contextOut
		if msg := call(t, cs, "context", map[string]any{"task": task}, &first); msg != "" {
			t.Fatal(msg)
		}
		pick, sym := liftable(t, first)
		var def struct{ Symbol string }
		if msg := call(t, cs, "symbol", map[string]any{"symbol": sym}, &def); msg != "" || def.Symbol != sym {
			t.Fatalf("symbol %s: %q %+v", sym, msg, def)
		}
		var second contextOut
		if msg := call(t, cs, "context", map[string]any{"task": task}, &second); msg != "" {
			t.Fatal(msg)
		}
		names := func(o contextOut) []string {
			var out []string
			for _, r := range o.Results {
				out = append(out, r.Symbol)
			}
			return out
		}
		rank := slices.Index(names(second), sym)
		switch {
		case on && (rank < 0 || rank >= pick):
			t.Errorf("with a session, %s looked up stays at %d (was %d): %v", sym, rank+1, pick+1, names(second))
		case !on && !slices.Equal(names(second), names(first)):
			t.Errorf("without a session the answer changed: %v, then %v", names(first), names(second))
		}
	}
}

func TestMCPSessionFlags(t *testing.T) {
	var out, errb strings.Builder
	for _, args := range [][]string{{"--session", "--session-half-life", "0"}, {"--session-weight", "-1"}} {
		if err := cmdMCP(args, strings.NewReader(""), &out, &errb); err == nil || !strings.Contains(err.Error(), "session") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// liftable is the lowest result of an answer that a single lookup can
// lift past its neighbour, and its index.
func liftable(t *testing.T, ans contextOut) (int, string) {
	t.Helper()
	lift := 1 + query.DefaultSessionWeight/query.SessionCap
	for i := len(ans.Results) - 1; i > 0; i-- {
		if ans.Results[i].Score*lift > ans.Results[i-1].Score*1.001 {
			return i, ans.Results[i].Symbol
		}
	}
	t.Fatalf("no result close enough to its neighbour to rise: %+v", ans.Results)
	return 0, ""
}
