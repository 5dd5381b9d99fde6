package query

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/snapshot"
)

func queryWith(t testing.TB, e *Engine, task string, opt Options) *Result {
	t.Helper()
	opt.Limit = 20
	r, err := e.Query(context.Background(), task, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSessionRaisesReturnedSymbol: a symbol an earlier answer returned
// climbs while its strength lasts, and falls back to its own place as
// the strength decays.
func TestSessionRaisesReturnedSymbol(t *testing.T) {
	s := newShop()
	e := s.engine(t)
	const task = "get an item from the memory store"
	plain := symbols(queryWith(t, e, task, Options{}))
	if len(plain) < 3 {
		t.Fatalf("too few results to move one: %v", plain)
	}
	last := plain[len(plain)-1]
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sess := NewSession(time.Minute, 3)
	sess.Record(e.s, s.ids[last], t0)

	now := symbols(queryWith(t, e, task, Options{Session: sess, At: t0}))
	if rk := slices.Index(now, last); rk < 0 || rk >= len(plain)-1 {
		t.Errorf("%s returned just now stays at %d of %v (alone: %v)", last, rk+1, now, plain)
	}
	if !sameSet(now, plain) {
		t.Errorf("the session changed the answer's symbols: %v, alone %v", now, plain)
	}
	if got := sess.Strength(e.s, s.ids[last], t0.Add(time.Minute)); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("strength one half-life later %g, want 0.5", got)
	}
	later := symbols(queryWith(t, e, task, Options{Session: sess, At: t0.Add(20 * time.Minute)}))
	if !slices.Equal(later, plain) {
		t.Errorf("20 half-lives later: %v, want the plain order %v", later, plain)
	}
	fresh, gone := slices.Index(now, last), slices.Index(later, last)
	mid := slices.Index(symbols(queryWith(t, e, task, Options{Session: sess, At: t0.Add(90 * time.Second)})), last)
	if mid < fresh || mid > gone {
		t.Errorf("90 s later %s is at %d: not between %d (fresh) and %d (forgotten)", last, mid+1, fresh+1, gone+1)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestSessionStrength: returns add up, capped, and halve every half-life.
func TestSessionStrength(t *testing.T) {
	s := newShop()
	e := s.engine(t)
	id := s.ids["store.MemoryStore"]
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sess := NewSession(3*time.Minute, 1)
	if got := sess.Strength(e.s, id, t0); got != 0 {
		t.Errorf("unreturned strength %g", got)
	}
	sess.Record(e.s, id, t0)
	sess.Record(e.s, id, t0.Add(3*time.Minute)) // 0.5 left + 1
	if got := sess.Strength(e.s, id, t0.Add(3*time.Minute)); math.Abs(got-1.5) > 1e-9 {
		t.Errorf("strength after two returns %g, want 1.5", got)
	}
	for i := 0; i < 5; i++ {
		sess.Record(e.s, id, t0.Add(3*time.Minute))
	}
	if got := sess.Strength(e.s, id, t0.Add(9*time.Minute)); math.Abs(got-SessionCap/4.0) > 1e-9 {
		t.Errorf("capped strength two half-lives on %g, want %g", got, SessionCap/4.0)
	}
}

// TestSessionAddsNothing: a remembered symbol the task does not reach
// stays out, and a session of weight 0 changes nothing.
func TestSessionAddsNothing(t *testing.T) {
	s := newShop()
	e := s.engine(t)
	const task = "add a middleware that checks the API key header"
	plain := queryWith(t, e, task, Options{})
	t0 := time.Now()
	sess := NewSession(time.Minute, 5)
	sess.Record(e.s, s.ids["store.fakeStore.Get"], t0)
	if got := symbols(queryWith(t, e, task, Options{Session: sess, At: t0})); slices.Contains(got, "store.fakeStore.Get") || !slices.Equal(got, symbols(plain)) {
		t.Errorf("with an unrelated symbol remembered: %v, alone %v", got, symbols(plain))
	}
	zero := NewSession(time.Minute, 0)
	for _, it := range plain.Results {
		zero.Record(e.s, it.ID, t0)
	}
	got := queryWith(t, e, task, Options{Session: zero, At: t0})
	for i := range plain.Results {
		if got.Results[i].Symbol != plain.Results[i].Symbol || got.Results[i].Score != plain.Results[i].Score {
			t.Fatalf("weight 0 changed result %d: %+v, alone %+v", i, got.Results[i], plain.Results[i])
		}
	}
}

// TestSessionFollowsRebuiltSnapshot: a session recorded on one snapshot
// finds its symbols in another by qualified name, whatever their ids,
// and drops those the other lacks.
func TestSessionFollowsRebuiltSnapshot(t *testing.T) {
	files := []snapshot.File{{Path: "x/x.go", Lang: snapshot.LangGo}}
	a, addA := tinyShop(files...)
	addA("x.alpha", snapshot.KindFunction, 0, "Alpha parses the config.")
	addA("x.beta", snapshot.KindFunction, 0, "Beta parses the config file.")
	addA("x.gamma", snapshot.KindFunction, 0, "Gamma parses the config lines.")
	b, addB := tinyShop(files...)
	addB("x.zeta", snapshot.KindFunction, 0, "Zeta writes logs.")
	addB("x.gamma", snapshot.KindFunction, 0, "Gamma parses the config lines.")
	addB("x.beta", snapshot.KindFunction, 0, "Beta parses the config file.")
	ea, eb := a.engine(t), b.engine(t)
	if a.ids["x.beta"] == b.ids["x.beta"] {
		t.Fatal("the test needs Beta's id to differ between the snapshots")
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sess := NewSession(time.Minute, 10)
	sess.Record(ea.s, a.ids["x.alpha"], t0)
	sess.Record(ea.s, a.ids["x.beta"], t0)
	if sess.Len() != 2 {
		t.Fatalf("Len %d, want 2", sess.Len())
	}
	// The session outlives the snapshot it was recorded on (the names
	// are lower-case, so lower-casing them copies nothing).
	ea.s.Close()
	plain := symbols(queryWith(t, eb, "parse the config", Options{}))
	got := symbols(queryWith(t, eb, "parse the config", Options{Session: sess, At: t0}))
	if len(got) == 0 || got[0] != "x.beta" {
		t.Errorf("on the rebuilt snapshot: %v, want x.beta first (alone: %v)", got, plain)
	}
	if sess.Len() != 1 {
		t.Errorf("Alpha, gone from the rebuilt snapshot, is still remembered: Len %d", sess.Len())
	}
	if st := sess.Strength(eb.s, b.ids["x.beta"], t0); st != 1 {
		t.Errorf("Beta's strength on the rebuilt snapshot %g, want 1", st)
	}
	if st := sess.Strength(eb.s, b.ids["x.zeta"], t0); st != 0 {
		t.Errorf("Zeta, at Alpha's old id, has strength %g", st)
	}
	// and back: the first tree's snapshot finds Beta again at its id.
	if st := sess.Strength(a.engine(t).s, a.ids["x.beta"], t0); st != 1 {
		t.Errorf("Beta's strength back on the first snapshot %g, want 1", st)
	}
	if !sess.RecordName(eb.s, "shop/x.zeta", t0) || sess.RecordName(eb.s, "shop/x.alpha", t0) {
		t.Error("RecordName found a missing symbol or missed a present one")
	}
}

// TestSessionBoostAllocatesNothing: with a session bound to the engine's
// snapshot, a query allocates what it allocates without one.
func TestSessionBoostAllocatesNothing(t *testing.T) {
	s := newShop()
	e := s.engine(t)
	const task = "get an item from the memory store"
	sess := NewSession(time.Minute, 1)
	t0 := time.Now()
	for _, it := range queryWith(t, e, task, Options{}).Results {
		sess.Record(e.s, it.ID, t0)
	}
	ctx := context.Background()
	plain := testing.AllocsPerRun(50, func() { e.Query(ctx, task, Options{Limit: 20}) })
	with := testing.AllocsPerRun(50, func() { e.Query(ctx, task, Options{Limit: 20, Session: sess, At: t0}) })
	if with != plain {
		t.Errorf("a query allocates %v times with a session, %v without", with, plain)
	}
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	kw := ExtractKeywords(task)
	e.refine(&kw)
	ws.reset()
	ws.setWords(&kw)
	lists := e.channels(ws, &kw, task, false)
	e.fuse(ws, &lists)
	e.walkFrom(ws, e.selectSeeds(ws, &kw), lists[chPath])
	ranked := e.score(ws, &kw)
	opt := Options{Session: sess, At: t0}
	if n := testing.AllocsPerRun(100, func() { e.sessionBoost(ws, ranked, &opt) }); n != 0 {
		t.Errorf("the session boost allocates %v times", n)
	}
}
