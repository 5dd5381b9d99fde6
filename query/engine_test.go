package query

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
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

func (s *shop) engine(t testing.TB) *Engine {
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
	e, err := New(snap)
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

func TestTestPenaltyUnlessAboutTests(t *testing.T) {
	e := newShop().engine(t)
	plain := query(t, e, "HandleGet renders the item")
	tests := query(t, e, "add tests for HandleGet")
	if rankOf(plain, "server.TestHandleGet") != 0 {
		t.Errorf("a test returned for a task not about tests: %v", symbols(plain))
	}
	if rankOf(tests, "server.TestHandleGet") == 0 {
		t.Errorf("the test is missing when the task is about tests: %v", symbols(tests))
	}
}

// TestExamplePenaltyUnlessAboutExamples: code in an examples folder is
// scored like a test, below the code it demonstrates and never a seed,
// unless the task asks for an example.
func TestExamplePenaltyUnlessAboutExamples(t *testing.T) {
	sh := newShop()
	fi := int32(len(sh.g.Files))
	sh.g.Files = append(sh.g.Files, snapshot.File{Path: "examples/auth/main.go", Lang: snapshot.LangGo, Flags: snapshot.FlagExample})
	for _, q := range []string{"examples.auth.CheckAPIKeyDemo", "examples.auth.main"} {
		sh.ids[q] = uint32(len(sh.g.Nodes))
		sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: "shop/" + q,
			Kind: snapshot.KindFunction, Lang: snapshot.LangGo, Flags: snapshot.FlagExample, File: fi, StartLine: 1, EndLine: 9,
			Doc: "CheckAPIKeyDemo shows how to check the API key of a request."})
	}
	sh.g.Edges = append(sh.g.Edges,
		snapshot.Edge{From: sh.ids["examples.auth.CheckAPIKeyDemo"], To: sh.ids["server.CheckAPIKey"], Type: snapshot.EdgeCalls, Confidence: 0.9},
		snapshot.Edge{From: sh.ids["examples.auth.main"], To: sh.ids["examples.auth.CheckAPIKeyDemo"], Type: snapshot.EdgeCalls, Confidence: 0.9})
	e := sh.engine(t)

	plain := query(t, e, "check the api key of each request")
	real, demo := rankOf(plain, "server.CheckAPIKey"), rankOf(plain, "examples.auth.CheckAPIKeyDemo")
	if real == 0 || demo != 0 && demo < real {
		t.Errorf("the example ranks at %d, the code it demonstrates at %d: %v", demo, real, symbols(plain))
	}
	for _, it := range plain.Results {
		if strings.HasPrefix(it.Symbol, "shop/examples.") && it.Seed {
			t.Errorf("an example is a seed of a task not about examples: %s", it.Symbol)
		}
	}

	for _, task := range []string{"add an example that checks the api key", "check the api key in the demo app"} {
		r := query(t, e, task)
		if d := rankOf(r, "examples.auth.CheckAPIKeyDemo"); d == 0 || d > 2 {
			t.Errorf("%q: the example ranks at %d: %v", task, d, symbols(r))
		}
	}
	// "for example" is a figure of speech, not a request for examples.
	r := query(t, e, "check the api key, for example of each request")
	if d := rankOf(r, "examples.auth.CheckAPIKeyDemo"); d != 0 && d < rankOf(r, "server.CheckAPIKey") {
		t.Errorf("\"for example\" lifted the example penalty: %v", symbols(r))
	}
}

func TestValuesRankBelowTypesOnEqualEvidence(t *testing.T) {
	sh := newShop()
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	for _, q := range []string{"store.Item", "store.Item.Price"} {
		cd := ws.get(sh.ids[q])
		cd.fused, cd.walkP, cd.seed = 0.03, 0.01, true
	}
	kw := Keywords{}
	out := e.score(ws, &kw)
	if len(out) != 2 || e.s.Name(out[0].id) != "Item" || out[1].score >= out[0].score {
		t.Fatalf("the field did not rank below the type on equal evidence: %v %v", e.s.Name(out[0].id), out[0].score)
	}
}

func TestDetailsRankBelowPeersOnEqualEvidence(t *testing.T) {
	sh := newShop()
	n := uint32(len(sh.g.Nodes))
	add := func(q string, k snapshot.Kind, lang snapshot.Lang) {
		sh.ids[q] = uint32(len(sh.g.Nodes))
		sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: "shop/" + q,
			Kind: k, Lang: lang, File: 3, StartLine: 1, EndLine: 2})
	}
	add("server.Server.HandleGet.wrap", snapshot.KindFunction, snapshot.LangGo) // a closure
	add("server.Handler", snapshot.KindTypeAlias, snapshot.LangPython)          // an alias, no members
	add("server.Status", snapshot.KindTypeAlias, snapshot.LangGo)               // a Go defined type
	add("server.helper", snapshot.KindFunction, snapshot.LangGo)                // top-level, no edges
	sh.g.Edges = append(sh.g.Edges,
		snapshot.Edge{From: sh.ids["server.Server.HandleGet"], To: n, Type: snapshot.EdgeContains, Confidence: 1},
		snapshot.Edge{From: n, To: sh.ids["server.Server.HandleGet"], Type: snapshot.EdgeMemberOf, Confidence: 1})
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	set := []string{"server.helper", "server.Server.HandleGet.wrap", "server.Handler", "server.Status"}
	for _, q := range set {
		cd := ws.get(sh.ids[q])
		cd.fused, cd.walkP, cd.seed = 0.03, 0.01, true
	}
	score := map[string]float64{}
	for _, cd := range e.score(ws, &Keywords{}) {
		score[strings.TrimPrefix(e.s.QName(cd.id), "shop/")] = cd.score
	}
	if !(score["server.Server.HandleGet.wrap"] < score["server.helper"]) {
		t.Errorf("a nested function scored %v, a top-level one %v", score["server.Server.HandleGet.wrap"], score["server.helper"])
	}
	if !(score["server.Handler"] < score["server.Status"]) {
		t.Errorf("a member-less alias scored %v, a Go defined type %v", score["server.Handler"], score["server.Status"])
	}
}

func TestBudgetPacking(t *testing.T) {
	e := newShop().engine(t)
	full := query(t, e, "memory store get put item")
	r, err := e.Query(context.Background(), "memory store get put item", Options{Limit: 20, Budget: 40})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Tokens > 40 {
		t.Errorf("packed %d tokens into a budget of 40", r.Stats.Tokens)
	}
	if len(r.Results) >= len(full.Results) {
		t.Errorf("a small budget kept all %d results", len(r.Results))
	}
	for i := 1; i < len(r.Results); i++ {
		if r.Results[i].Score > r.Results[i-1].Score {
			t.Errorf("packed results not in score order: %v", symbols(r))
		}
	}
	lim, _ := e.Query(context.Background(), "memory store get put item", Options{Limit: 2})
	if len(lim.Results) != 2 {
		t.Errorf("limit 2 gave %d", len(lim.Results))
	}
}

func TestWhyAgreesWithQuery(t *testing.T) {
	e := newShop().engine(t)
	task := "add a middleware that checks the API key header"
	r := query(t, e, task)
	ex, err := e.Why(context.Background(), task, "CheckAPIKey", Options{})
	if err != nil || len(ex) != 1 {
		t.Fatalf("why: %v %v", ex, err)
	}
	if ex[0].FinalRank != rankOf(r, "server.CheckAPIKey") || len(ex[0].Channels) == 0 || !ex[0].Seed {
		t.Errorf("why %+v disagrees with rank %d", ex[0], rankOf(r, "server.CheckAPIKey"))
	}
	if _, err := e.Why(context.Background(), task, "NoSuchThing", Options{}); !errors.Is(err, ErrSymbolNotFound) {
		t.Errorf("unknown symbol: %v", err)
	}
	// A task with no words to search for explains that, for a test
	// symbol too (it once dereferenced the missing trace).
	ex, err = e.Why(context.Background(), "the of and to", "TestHandleGet", Options{})
	if err != nil || len(ex) != 1 || len(ex[0].Notes) == 0 || !strings.Contains(ex[0].Notes[0], "nothing was searched") {
		t.Errorf("why with a wordless task: %+v %v", ex, err)
	}
	// The parts add up to the score, for every symbol the tasks rank.
	boosted := 0
	for _, task := range []string{task, "call MemoryStore.Get to fetch an item from the store"} {
		for _, it := range query(t, e, task).Results {
			exs, err := e.Why(context.Background(), task, it.Symbol, Options{})
			if err != nil || len(exs) == 0 {
				t.Fatalf("why %s: %v", it.Symbol, err)
			}
			x, w := exs[0], exs[0].Weights
			sum := (x.Blast*w.Blast+x.Confidence*w.Confidence+x.Recency*w.Recency+x.Distance*w.Distance+
				x.Match*w.Match+x.Cover*w.Cover+x.AuthorityAdj)*x.KindFactor*x.TestPenalty + x.MemberBoost
			if math.Abs(sum-x.Score) > 1e-9 {
				t.Errorf("%s: the parts add up to %v, the score is %v: %+v", it.Symbol, sum, x.Score, x)
			}
			if x.MemberBoost != 0 {
				boosted++
			}
		}
	}
	if boosted == 0 {
		t.Error("no explanation shows a member or type boost")
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

// TestTypeRisesTowardItsMember: a type whose member matches the task gains
// from it, but never passes that member.
func TestTypeRisesTowardItsMember(t *testing.T) {
	sh := newShop()
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	run := func(memberFused float64) map[string]float64 {
		ws.reset()
		for q, f := range map[string]float64{"server.Server.HandleGet": memberFused, "server.Server": 0.005, "store.Item": 0.005} {
			cd := ws.get(sh.ids[q])
			cd.fused, cd.walkP, cd.seed = f, 0.01, true
		}
		score := map[string]float64{}
		for _, cd := range e.score(ws, &Keywords{}) {
			score[strings.TrimPrefix(e.s.QName(cd.id), "shop/")] = cd.score
		}
		return score
	}
	s := run(0.05)
	if !(s["server.Server"] > s["store.Item"]) {
		t.Errorf("the type of a strongly matched method (%v) did not rise above an equal type (%v)", s["server.Server"], s["store.Item"])
	}
	// A member barely above its type: the type catches up, no further.
	s = run(0.0055)
	if !(s["server.Server"] <= s["server.Server.HandleGet"]) {
		t.Errorf("the type (%v) passed its matched member (%v)", s["server.Server"], s["server.Server.HandleGet"])
	}
}

func TestDocSummaries(t *testing.T) {
	e := newShop().engine(t)
	task := "check the api key"
	plain, err := e.Query(context.Background(), task, Options{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	withDocs, err := e.Query(context.Background(), task, Options{Limit: 20, Docs: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(symbols(plain), symbols(withDocs)) {
		t.Fatalf("docs changed the ranking: %v vs %v", symbols(plain), symbols(withDocs))
	}
	want := map[string]string{
		"shop/server.CheckAPIKey":      "CheckAPIKey validates the API key header.",
		"shop/server.authMiddleware":   "authMiddleware rejects requests without a valid key.",
		"shop/store.MemoryStore.Get":   "",
		"shop/server.Server.HandleGet": "HandleGet fetches one item.",
	}
	sum := 0
	for i, it := range withDocs.Results {
		if plain.Results[i].Doc != "" {
			t.Errorf("%s has a doc without Options.Docs", it.Symbol)
		}
		if w, ok := want[it.Symbol]; ok && it.Doc != w {
			t.Errorf("%s: doc %q, want %q", it.Symbol, it.Doc, w)
		}
		if extra := it.Tokens - plain.Results[i].Tokens; extra != (len(it.Doc)+3)/4 {
			t.Errorf("%s: %d tokens more for a %d-byte summary", it.Symbol, extra, len(it.Doc))
		}
		sum += it.Tokens
	}
	if rankOf(withDocs, "server.CheckAPIKey") == 0 {
		t.Fatalf("CheckAPIKey not found: %v", symbols(withDocs))
	}
	if withDocs.Stats.Tokens != sum {
		t.Errorf("stats count %d tokens, the results %d", withDocs.Stats.Tokens, sum)
	}
	// A budget that holds the results but not their summaries: the
	// summaries go, the budget holds.
	tight, err := e.Query(context.Background(), task, Options{Limit: 20, Docs: true, Budget: plain.Stats.Tokens})
	if err != nil {
		t.Fatal(err)
	}
	if tight.Stats.Tokens > plain.Stats.Tokens {
		t.Errorf("packed %d tokens into a budget of %d", tight.Stats.Tokens, plain.Stats.Tokens)
	}
	if !slices.Equal(symbols(tight), symbols(plain)) {
		t.Errorf("summaries pushed results out of the budget: %v, want %v", symbols(tight), symbols(plain))
	}
}

// An enum scores below a struct with the same evidence: enums are mostly
// vocabularies of values.
func TestEnumPenalty(t *testing.T) {
	// The same evidence but for the kind; ties go to the enum, added first.
	s, add := tinyShop(snapshot.File{Path: "cfg/jobs.rs", Lang: snapshot.LangRust}, snapshot.File{Path: "opt/jobs.rs", Lang: snapshot.LangRust})
	add("cfg.Jobs", snapshot.KindEnum, 0, "Jobs says how many jobs run in parallel.")
	add("opt.Jobs", snapshot.KindStruct, 1, "Jobs says how many jobs run in parallel.")
	e := s.engine(t)
	task := "limit how many jobs run in parallel"
	res := query(t, e, task)
	if en, st := rankOf(res, "cfg.Jobs"), rankOf(res, "opt.Jobs"); st == 0 || en != 0 && en < st {
		t.Errorf("%q: the enum ranks %d, the struct %d; want the struct first", task, en, st)
	}
	defer func(p float64) { tune.EnumPenalty = p }(tune.EnumPenalty)
	tune.EnumPenalty = 1
	res = query(t, e, task)
	if en, st := rankOf(res, "cfg.Jobs"), rankOf(res, "opt.Jobs"); en == 0 || en > st {
		t.Errorf("%q without the penalty: the enum ranks %d, the struct %d; the test proves nothing unless the enum leads", task, en, st)
	}
}
