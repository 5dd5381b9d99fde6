package baseline

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// engine makes an engine over a snapshot of Go functions with the given
// qualified names, in store/store.go, and of tests, in store_test.go.
func engine(t *testing.T, names, tests []string) *query.Engine {
	t.Helper()
	g := &snapshot.Graph{Files: []snapshot.File{
		{Path: "store/store.go", Lang: snapshot.LangGo},
		{Path: "store/store_test.go", Lang: snapshot.LangGo, Flags: snapshot.FlagTest},
	}}
	add := func(q string, file int32, flags snapshot.Flags) {
		g.Nodes = append(g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: q, Kind: snapshot.KindFunction,
			Lang: snapshot.LangGo, Flags: flags, File: file, StartLine: 3, EndLine: 9})
	}
	for _, q := range names {
		add(q, 0, 0)
	}
	for _, q := range tests {
		add(q, 1, snapshot.FlagTest)
	}
	_, e := openGraph(t, g)
	return e
}

func symbols(items []query.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Symbol)
	}
	return out
}

func TestGrepRanksByWordsThenLength(t *testing.T) {
	e := engine(t,
		[]string{"shop.restoreItems", "shop.MemoryStore.GetItem", "shop.MemoryStore.Get", "shop.getItem", "shop.Close"},
		[]string{"shop.TestMemoryStoreGetItem"})
	ctx := context.Background()
	got, err := Grep(ctx, e, "get an item from the memory store", 10)
	if err != nil {
		t.Fatal(err)
	}
	// The words are item, memory and store ("get" is a stop word): three
	// in the first name, two in the second, one in the last two, the
	// shorter name first. "restore" does not hold "store" as a part;
	// Close holds no word, and the test is no result.
	want := []string{"shop.MemoryStore.GetItem", "shop.MemoryStore.Get", "shop.getItem", "shop.restoreItems"}
	if !slices.Equal(symbols(got), want) {
		t.Errorf("got %v, want %v", symbols(got), want)
	}
	if len(got) > 0 && (got[0].Score != 3 || got[0].File != "store/store.go" || got[0].Line != 3 || got[0].Tokens == 0 || got[0].Seed) {
		t.Errorf("first item %+v", got[0])
	}
	if got, _ := Grep(ctx, e, "get an item from the memory store", 2); len(got) != 2 {
		t.Errorf("limit 2 gave %d", len(got))
	}
	if got, _ := Grep(ctx, e, "test getting an item from the memory store", 10); !slices.Contains(symbols(got), "shop.TestMemoryStoreGetItem") {
		t.Errorf("a task about tests: %v, want the test among them", symbols(got))
	}
}

func TestGrepBadInput(t *testing.T) {
	e := engine(t, []string{"shop.Get"}, nil)
	if _, err := Grep(context.Background(), e, "  ", 10); !errors.Is(err, query.ErrEmptyTask) {
		t.Errorf("empty task: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Grep(ctx, e, "get", 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// openGraph writes g as a snapshot in a temporary folder and opens it and
// an engine over it; the snapshot closes when the test ends.
func openGraph(t *testing.T, g *snapshot.Graph) (*snapshot.Snapshot, *query.Engine) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.snap")
	if err := snapshot.Write(path, g, nil); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e, err := query.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, e
}
