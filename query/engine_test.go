package query

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// shop is a small hand-built code graph:
//
//	store/store.go:  Store (interface) {Get, Put}; Item (struct) {Price (field)}
//	store/memory.go: MemoryStore (struct) {Get, Put}, implements Store;
//	                 NewMemoryStore; fakeStore (a mock) {Get}
//	server/auth.go:  CheckAPIKey, authMiddleware -> CheckAPIKey
//	server/server.go: Server {HandleGet -> Store.Get, render}, render
//	server/server_test.go: TestHandleGet -> Server.HandleGet
//	gen/tables.go (generated): CheckAPIKeyTable
type shop struct {
	g   *snapshot.Graph
	ids map[string]uint32
}

func newShop() *shop {
	s := &shop{g: &snapshot.Graph{}, ids: map[string]uint32{}}
	files := []struct {
		path  string
		flags snapshot.Flags
	}{
		{"store/store.go", 0}, {"store/memory.go", 0}, {"server/auth.go", 0},
		{"server/server.go", 0}, {"server/server_test.go", snapshot.FlagTest}, {"gen/tables.go", snapshot.FlagGenerated},
	}
	for _, f := range files {
		s.g.Files = append(s.g.Files, snapshot.File{Path: f.path, Lang: snapshot.LangGo, Flags: f.flags})
	}
	add := s.add
	add("store.Store", snapshot.KindInterface, 0, 0, "type Store interface", "Store persists items.")
	add("store.Store.Get", snapshot.KindMethod, 0, 0, "Get(id string) (*Item, error)", "")
	add("store.Store.Put", snapshot.KindMethod, 0, 0, "Put(it *Item) error", "")
	add("store.Item", snapshot.KindStruct, 0, 0, "type Item struct", "Item is one catalogue entry.")
	add("store.Item.Price", snapshot.KindField, 0, 0, "Price int", "")
	add("store.MemoryStore", snapshot.KindStruct, 1, 0, "type MemoryStore struct", "MemoryStore keeps items in memory.")
	add("store.MemoryStore.Get", snapshot.KindMethod, 1, 0, "func (m *MemoryStore) Get(id string) (*Item, error)", "")
	add("store.MemoryStore.Put", snapshot.KindMethod, 1, 0, "func (m *MemoryStore) Put(it *Item) error", "")
	add("store.NewMemoryStore", snapshot.KindFunction, 1, 0, "func NewMemoryStore() *MemoryStore", "")
	add("store.fakeStore", snapshot.KindStruct, 1, snapshot.FlagMock, "type fakeStore struct", "")
	add("store.fakeStore.Get", snapshot.KindMethod, 1, snapshot.FlagMock, "func (f *fakeStore) Get(id string) (*Item, error)", "")
	add("server.CheckAPIKey", snapshot.KindFunction, 2, 0, "func CheckAPIKey(r *Request) bool", "CheckAPIKey validates the API key header.")
	add("server.authMiddleware", snapshot.KindFunction, 2, 0, "func authMiddleware(next Handler) Handler", "authMiddleware rejects requests without a valid key.")
	add("server.Server", snapshot.KindStruct, 3, 0, "type Server struct", "Server answers catalogue requests.")
	add("server.Server.HandleGet", snapshot.KindMethod, 3, 0, "func (s *Server) HandleGet(id string) string", "HandleGet fetches one item.")
	add("server.render", snapshot.KindFunction, 3, 0, "func render(it *Item) string", "")
	add("server.TestHandleGet", snapshot.KindFunction, 4, 0, "func TestHandleGet(t *testing.T)", "")
	add("gen.CheckAPIKeyTable", snapshot.KindVariable, 5, 0, "var CheckAPIKeyTable = ...", "")
	edge := func(from, to string, t snapshot.EdgeType) {
		s.g.Edges = append(s.g.Edges, snapshot.Edge{From: s.ids[from], To: s.ids[to], Type: t, Confidence: 0.9})
	}
	member := s.member
	member("store.Store", "store.Store.Get", "store.Store.Put")
	member("store.Item", "store.Item.Price")
	member("store.MemoryStore", "store.MemoryStore.Get", "store.MemoryStore.Put")
	member("store.fakeStore", "store.fakeStore.Get")
	member("server.Server", "server.Server.HandleGet")
	edge("store.MemoryStore", "store.Store", snapshot.EdgeImplements)
	edge("store.fakeStore", "store.Store", snapshot.EdgeImplements)
	edge("server.authMiddleware", "server.CheckAPIKey", snapshot.EdgeCalls)
	edge("server.Server.HandleGet", "store.Store.Get", snapshot.EdgeCalls)
	edge("server.Server.HandleGet", "server.render", snapshot.EdgeCalls)
	edge("store.NewMemoryStore", "store.MemoryStore", snapshot.EdgeReferences)
	edge("server.TestHandleGet", "server.Server.HandleGet", snapshot.EdgeTests)
	edge("server.Server.HandleGet", "server.TestHandleGet", snapshot.EdgeTestedBy)
	return s
}

// add appends the Go symbol q (its qualified name under "shop/"), in
// file number file, whose flags it also takes.
func (s *shop) add(q string, k snapshot.Kind, file int32, flags snapshot.Flags, sig, doc string) {
	s.ids[q] = uint32(len(s.g.Nodes))
	s.g.Nodes = append(s.g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: "shop/" + q, Kind: k,
		Lang: s.g.Files[file].Lang, Flags: flags | s.g.Files[file].Flags, File: file, StartLine: 1, EndLine: 5, Signature: sig, Doc: doc})
}

// member makes kids the members of parent: contains and member_of edges.
func (s *shop) member(parent string, kids ...string) {
	for _, k := range kids {
		s.g.Edges = append(s.g.Edges,
			snapshot.Edge{From: s.ids[parent], To: s.ids[k], Type: snapshot.EdgeContains, Confidence: 0.9},
			snapshot.Edge{From: s.ids[k], To: s.ids[parent], Type: snapshot.EdgeMemberOf, Confidence: 0.9})
	}
}

// tinyShop is a shop of the given files for one test, and a shorthand
// for adding a symbol with a doc comment and nothing else.
func tinyShop(files ...snapshot.File) (*shop, func(q string, k snapshot.Kind, file int32, doc string)) {
	s := &shop{g: &snapshot.Graph{Files: files}, ids: map[string]uint32{}}
	return s, func(q string, k snapshot.Kind, file int32, doc string) { s.add(q, k, file, 0, "", doc) }
}

// engine writes the shop's snapshot and makes an engine over it with
// opts.
func (s *shop) engine(t testing.TB, opts ...EngineOption) *Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.snap")
	if err := snapshot.Write(path, s.g, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := snapshot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snap.Close() })
	e, err := New(snap, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func symbols(r *Result) []string {
	var out []string
	for _, it := range r.Results {
		out = append(out, strings.TrimPrefix(it.Symbol, "shop/"))
	}
	return out
}

func rankOf(r *Result, q string) int {
	for i, s := range symbols(r) {
		if s == q {
			return i + 1
		}
	}
	return 0
}

func query(t *testing.T, e *Engine, task string) *Result {
	t.Helper()
	r, err := e.Query(context.Background(), task, Options{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func names(e *Engine, ids []uint32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, e.s.QName(id))
	}
	return out
}

func TestQueryFindsSubjectAndNeighbours(t *testing.T) {
	e := newShop().engine(t)
	r := query(t, e, "add a middleware that checks the API key header")
	if rk := rankOf(r, "server.CheckAPIKey"); rk == 0 || rk > 2 {
		t.Errorf("CheckAPIKey at rank %d: %v", rk, symbols(r))
	}
	if rankOf(r, "server.authMiddleware") == 0 {
		t.Errorf("the middleware that calls it is missing: %v", symbols(r))
	}
}

func TestBadInput(t *testing.T) {
	e := newShop().engine(t)
	if _, err := e.Query(context.Background(), "  \n ", Options{}); !errors.Is(err, ErrEmptyTask) {
		t.Errorf("empty task: %v", err)
	}
	r := query(t, e, "the of and to")
	if len(r.Results) != 0 || r.Stats.Message == "" {
		t.Errorf("wordless task: %d results, message %q", len(r.Results), r.Stats.Message)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Query(ctx, "memory store", Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestConcurrentQueriesAgree(t *testing.T) {
	e := newShop().engine(t)
	tasks := []string{"memory store get", "check api key", "render an item", "Server HandleGet"}
	want := map[string]string{}
	for _, task := range tasks {
		want[task] = strings.Join(symbols(query(t, e, task)), ",")
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				task := tasks[(g+i)%len(tasks)]
				r, err := e.Query(context.Background(), task, Options{Limit: 20})
				if err != nil {
					t.Error(err)
					return
				}
				if got := strings.Join(symbols(r), ","); got != want[task] {
					t.Errorf("%q: %s, want %s", task, got, want[task])
					return
				}
			}
		}(g)
	}
	wg.Wait()
}
