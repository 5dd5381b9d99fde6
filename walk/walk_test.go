package walk

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/knowing-dev/knowing/csr"
	"github.com/knowing-dev/knowing/snapshot"
)

const (
	calls    = snapshot.EdgeCalls
	imports  = snapshot.EdgeImports
	contains = snapshot.EdgeContains
)

func rank(res []Scored, v uint32) int {
	for i, s := range res {
		if s.Node == v {
			return i
		}
	}
	return -1
}

func TestTwoSeedsBeatOne(t *testing.T) {
	// Seeds A=0 and B=1. X=6 is two hops from both (A→2→6, B→3→6); Y=7 two
	// hops from A only (A→4→7), Z=8 two hops from B only (B→5→8).
	g := graphOf(t, 9,
		edge{0, 2, calls}, edge{2, 6, calls},
		edge{1, 3, calls}, edge{3, 6, calls},
		edge{0, 4, calls}, edge{4, 7, calls},
		edge{1, 5, calls}, edge{5, 8, calls},
	)
	ws := NewWorkspace(9)
	res := ws.RWR(g, nil, []Seed{{0, 1}, {1, 1}}, Options{})
	x, y, z := ws.Score(6), ws.Score(7), ws.Score(8)
	if !(x > y && x > z) {
		t.Fatalf("two-seed node %v should beat one-seed nodes %v, %v", x, y, z)
	}
	if rank(res, 6) > rank(res, 7) || rank(res, 6) > rank(res, 8) {
		t.Fatalf("ranking %v", res)
	}
}

func TestSeedsFirstUnreachableZero(t *testing.T) {
	// A tree around seeds 0 and 1; nodes 8, 9 form a separate component.
	g := graphOf(t, 10,
		edge{0, 2, calls}, edge{0, 3, calls}, edge{1, 4, calls}, edge{1, 5, calls},
		edge{2, 6, calls}, edge{4, 7, calls}, edge{0, 1, imports},
		edge{8, 9, calls},
	)
	ws := NewWorkspace(10)
	res := ws.RWR(g, nil, []Seed{{0, 1}, {1, 1}}, Options{})
	if len(res) < 2 {
		t.Fatalf("result %v", res)
	}
	top := []uint32{res[0].Node, res[1].Node}
	slices.Sort(top)
	if top[0] != 0 || top[1] != 1 {
		t.Fatalf("seeds should rank first: %v", res)
	}
	for _, v := range []uint32{8, 9} {
		if ws.Score(v) != 0 || rank(res, v) >= 0 || slices.Contains(ws.Touched(), v) {
			t.Errorf("unreachable node %d scored %v", v, ws.Score(v))
		}
	}
	for v := uint32(0); v < 8; v++ {
		if ws.Score(v) <= 0 {
			t.Errorf("reachable node %d scored %v", v, ws.Score(v))
		}
	}
	if got := ws.Score(1 << 30); got != 0 {
		t.Errorf("out-of-range score %v", got)
	}
	checkMass(t, ws, 10)
}

func TestEdgeWeightsMatter(t *testing.T) {
	// Seed 0 calls 1 (1.0) and imports 2 (0.5); both lead back only to 0.
	g := graphOf(t, 3, edge{0, 1, calls}, edge{0, 2, imports})
	ws := NewWorkspace(3)
	ws.RWR(g, nil, []Seed{{0, 1}}, Options{})
	if !(ws.Score(1) > ws.Score(2)) {
		t.Fatalf("calls target %v should beat imports target %v", ws.Score(1), ws.Score(2))
	}
	// The first push sends 2/3 of the flow along calls, 1/3 along imports.
	want := float32(2)
	if got := ws.Score(1) / ws.Score(2); got < want*0.9 || got > want*1.1 {
		t.Errorf("calls/imports score ratio %v, want ≈ %v", got, want)
	}
}

func TestConfidenceIgnored(t *testing.T) {
	es := []csr.Edge{
		{From: 0, To: 1, Attr: snapshot.PackAttr(calls, 1)},
		{From: 0, To: 2, Attr: snapshot.PackAttr(calls, 0.1)},
	}
	g := buildGraph(t, 3, es)
	ws := NewWorkspace(3)
	ws.RWR(g, nil, []Seed{{0, 1}}, Options{})
	if ws.Score(1) != ws.Score(2) {
		t.Fatalf("confidence changed the walk: %v vs %v", ws.Score(1), ws.Score(2))
	}
}

func TestDeadEndSeed(t *testing.T) {
	// Seed 1's only edge is an incoming contains: walking it backwards
	// weighs 0, so 1 has no transition at all.
	g := graphOf(t, 3, edge{0, 1, contains}, edge{0, 2, calls})
	ws := NewWorkspace(3)
	res := ws.RWR(g, nil, []Seed{{1, 1}}, Options{})
	checkMass(t, ws, 3)
	if len(res) != 1 || res[0].Node != 1 {
		t.Fatalf("result %v", res)
	}
	if p := ws.Score(1); p < 0.99 {
		t.Errorf("a lone dead-end seed should keep nearly all mass, got %v", p)
	}
	if ws.Score(0) != 0 || ws.Score(2) != 0 {
		t.Errorf("mass leaked across a zero-weight edge: %v %v", ws.Score(0), ws.Score(2))
	}
}

func TestDeadEndInWalk(t *testing.T) {
	// 0 calls 1; 1 contains 2 and 3, which have no transition (their only
	// edge is an incoming contains); 4 is a second seed on a cycle.
	g := graphOf(t, 6,
		edge{0, 1, calls}, edge{1, 2, contains}, edge{1, 3, contains},
		edge{4, 5, calls}, edge{5, 4, calls},
	)
	ws := NewWorkspace(6)
	for _, eps := range []float32{1e-2, 1e-4, 1e-7} {
		ws.RWR(g, nil, []Seed{{0, 1}, {4, 3}}, Options{Epsilon: eps})
		checkMass(t, ws, 6)
		ref := reference(g, defaultWeights, []Seed{{0, 1}, {4, 3}}, DefaultAlpha)
		for v := range ref {
			if d := ref[v] - float64(ws.Score(uint32(v))); d < -1e-6 || d > ws.Stats().Residual+1e-6 {
				t.Errorf("ε=%g node %d: p=%v π=%v R=%v", eps, v, ws.Score(uint32(v)), ref[v], ws.Stats().Residual)
			}
		}
	}
	if ws.Score(2) <= 0 || ws.Score(3) <= 0 {
		t.Errorf("dead ends should score: %v %v", ws.Score(2), ws.Score(3))
	}
}

func TestNoTransitionsAnywhere(t *testing.T) {
	g := graphOf(t, 4, edge{0, 1, calls}, edge{1, 2, calls}, edge{2, 3, calls})
	var zero Weights
	ws := NewWorkspace(4)
	res := ws.RWR(g, &zero, []Seed{{0, 1}, {2, 1}}, Options{})
	checkMass(t, ws, 4)
	if len(res) != 2 || math.Abs(float64(res[0].Score-res[1].Score)) > ws.Stats().Residual {
		t.Fatalf("two dead-end seeds of equal weight: %v", res)
	}
	// Weights that are NaN, infinite or negative count as zero.
	bad := *defaultWeights
	bad.SetType(calls, float32(math.NaN()), float32(math.Inf(1)))
	bad.SetType(contains, -1, float32(math.Inf(-1)))
	ws.RWR(g, &bad, []Seed{{1, 1}}, Options{})
	checkMass(t, ws, 4)
}

func TestBadSeeds(t *testing.T) {
	g := graphOf(t, 3, edge{0, 1, calls})
	ws := NewWorkspace(3)
	nan := float32(math.NaN())
	res := ws.RWR(g, nil, []Seed{{0, 0}, {1, -1}, {2, nan}, {7, 1}, {1, float32(math.Inf(1))}}, Options{})
	if len(res) != 0 || len(ws.Touched()) != 0 || ws.Score(0) != 0 {
		t.Fatalf("no valid seed should give an empty walk: %v", res)
	}
	res = ws.RWR(g, nil, nil, Options{})
	if len(res) != 0 {
		t.Fatalf("no seeds: %v", res)
	}
	// Huge weights normalise without overflow.
	res = ws.RWR(g, nil, []Seed{{0, math.MaxFloat32}, {0, math.MaxFloat32}, {2, math.MaxFloat32}}, Options{})
	checkMass(t, ws, 3)
	if ws.Score(0) <= ws.Score(2) {
		t.Errorf("doubled seed 0 should beat 2: %v", res)
	}
}

func TestConvergence(t *testing.T) {
	const n = 180
	rng := rand.New(rand.NewSource(7))
	var es []csr.Edge
	for i := 0; i < 700; i++ {
		u, v := uint32(rng.Intn(160)), uint32(rng.Intn(160))
		t := snapshot.EdgeType(rng.Intn(snapshot.NumEdgeTypes))
		es = append(es, csr.Edge{From: u, To: v, Attr: snapshot.PackAttr(t, rng.Float32())})
	}
	// Nodes 160.. are dead ends: reached only by contains.
	for v := 160; v < n; v++ {
		es = append(es, csr.Edge{From: uint32(rng.Intn(160)), To: uint32(v), Attr: snapshot.PackAttr(contains, 1)})
	}
	g := buildGraph(t, n, es)
	seeds := []Seed{{3, 1}, {50, 2}, {3, 0.5}, {170, 1}, {99, 0.25}}
	ref := reference(g, defaultWeights, seeds, DefaultAlpha)

	ws := NewWorkspace(n)
	for _, eps := range []float32{1e-3, DefaultEpsilon, 1e-6, 1e-8} {
		ws.RWR(g, nil, seeds, Options{Epsilon: eps, MaxPushes: 1 << 40, TopK: n})
		st := ws.Stats()
		if st.Capped {
			t.Fatalf("ε=%g capped", eps)
		}
		checkMass(t, ws, n)
		var l1 float64
		for v := range ref {
			d := ref[v] - float64(ws.Score(uint32(v)))
			if d < -1e-6 {
				t.Errorf("ε=%g node %d: p=%v exceeds π=%v", eps, v, ws.Score(uint32(v)), ref[v])
			}
			if d > st.Residual+1e-6 {
				t.Errorf("ε=%g node %d: error %v beyond R=%v", eps, v, d, st.Residual)
			}
			l1 += math.Abs(d)
		}
		if math.Abs(l1-st.Residual) > 1e-5 {
			t.Errorf("ε=%g: L1 error %v, R %v: should match", eps, l1, st.Residual)
		}
		bound := 2 / (DefaultAlpha * float64(eps))
		if float64(st.Work) > bound+float64(4*len(es)) {
			t.Errorf("ε=%g: work %d beyond 2/(αε) = %v", eps, st.Work, bound)
		}
		t.Logf("ε=%g: L1 error %.3g, R %.3g, pushes %d, work %d", eps, l1, st.Residual, st.Pushes, st.Work)
		if eps == 1e-8 && l1 > 1e-4 {
			t.Errorf("tiny ε should converge: L1 %v", l1)
		}
	}
}

func TestSymmetricPerNodeBound(t *testing.T) {
	// With every transition of weight 1 both ways the walk is undirected,
	// and the classic bound π(v) − p(v) < ε·deg(v) holds per node.
	const n = 120
	rng := rand.New(rand.NewSource(11))
	var es []csr.Edge
	for v := 0; v < n; v++ { // a ring: no isolated nodes
		es = append(es, csr.Edge{From: uint32(v), To: uint32((v + 1) % n), Attr: snapshot.PackAttr(calls, 1)})
	}
	for i := 0; i < 300; i++ {
		es = append(es, csr.Edge{From: uint32(rng.Intn(n)), To: uint32(rng.Intn(n)), Attr: snapshot.PackAttr(imports, 1)})
	}
	g := buildGraph(t, n, es)
	var w Weights
	for i := range w.Out {
		w.Out[i], w.In[i] = 1, 1
	}
	seeds := []Seed{{5, 1}, {60, 1}}
	ref := reference(g, &w, seeds, DefaultAlpha)
	ws := NewWorkspace(n)
	const eps = 1e-3
	ws.RWR(g, &w, seeds, Options{Epsilon: eps})
	for v := range ref {
		deg := g.Out.Degree(uint32(v)) + g.In.Degree(uint32(v))
		d := ref[v] - float64(ws.Score(uint32(v)))
		if d < -1e-6 || d > eps*float64(deg)+1e-6 {
			t.Errorf("node %d: π−p = %v, bound ε·deg = %v", v, d, eps*float64(deg))
		}
	}
}

func TestOrderAndTies(t *testing.T) {
	// Star: seed 0 calls 1..6 alike; their scores tie and must come out by id.
	var es []edge
	for v := uint32(6); v >= 1; v-- {
		es = append(es, edge{0, v, calls})
	}
	g := graphOf(t, 7, es...)
	ws := NewWorkspace(7)
	res := ws.RWR(g, nil, []Seed{{0, 1}}, Options{TopK: 4})
	want := []uint32{0, 1, 2, 3}
	if len(res) != 4 {
		t.Fatalf("TopK 4 gave %v", res)
	}
	for i, s := range res {
		if s.Node != want[i] {
			t.Fatalf("order %v, want nodes %v", res, want)
		}
	}
	if res[1].Score != res[3].Score {
		t.Fatalf("symmetric leaves differ: %v", res)
	}
	if len(ws.Touched()) != 7 {
		t.Errorf("touched %v", ws.Touched())
	}

	g = synthGraph(t, 3000, 12000, 3)
	ws = NewWorkspace(3000)
	res = ws.RWR(g, nil, randomSeeds(3000, 10, 4), Options{TopK: 100})
	if len(res) != 100 {
		t.Fatalf("got %d results", len(res))
	}
	for i := 1; i < len(res); i++ {
		if worse(res[i-1], res[i]) {
			t.Fatalf("not sorted at %d: %v %v", i, res[i-1], res[i])
		}
	}
	// The top 100 are the 100 best touched nodes.
	all := make([]Scored, 0)
	for _, v := range ws.Touched() {
		all = append(all, Scored{v, ws.Score(v)})
	}
	slices.SortFunc(all, func(a, b Scored) int {
		if worse(a, b) {
			return 1
		}
		if worse(b, a) {
			return -1
		}
		return 0
	})
	if !slices.Equal(all[:100], res) {
		t.Fatalf("top-k differs from a full sort")
	}
}

func TestDeterministic(t *testing.T) {
	g := synthGraph(t, 10000, 40000, 1)
	seeds := randomSeeds(10000, 20, 2)
	ws := NewWorkspace(10000)
	first := slices.Clone(ws.RWR(g, nil, seeds, Options{}))
	firstStats := ws.Stats()
	other := NewWorkspace(10)
	for i := 0; i < 5; i++ {
		ws.RWR(g, nil, randomSeeds(10000, 7, int64(i+10)), Options{}) // disturb the workspace
		got := ws.RWR(g, nil, seeds, Options{})
		if !slices.Equal(got, first) || ws.Stats() != firstStats {
			t.Fatalf("run %d differs", i)
		}
		if got := other.RWR(g, nil, seeds, Options{}); !slices.Equal(got, first) {
			t.Fatalf("a fresh workspace differs")
		}
	}
	// Duplicate seeds merge: {a,1},{a,1} is {a,2}.
	dup := append(slices.Clone(seeds), seeds[0], seeds[3])
	merged := slices.Clone(seeds)
	merged[0].Weight *= 2
	merged[3].Weight *= 2
	a := slices.Clone(ws.RWR(g, nil, dup, Options{}))
	b := ws.RWR(g, nil, merged, Options{})
	if !slices.Equal(a, b) {
		t.Fatalf("duplicate seeds do not merge")
	}
}

func TestWorkBoundAndCap(t *testing.T) {
	g := synthGraph(t, 10000, 40000, 1)
	seeds := randomSeeds(10000, 20, 2)
	ws := NewWorkspace(10000)
	ws.RWR(g, nil, seeds, Options{})
	st := ws.Stats()
	seedWork := 0
	for _, s := range seeds {
		seedWork += 2 * (g.Out.Degree(s.Node) + g.In.Degree(s.Node))
	}
	if bound := 2/(DefaultAlpha*DefaultEpsilon) + float64(seedWork); float64(st.Work) > bound || st.Capped {
		t.Errorf("work %d beyond bound %v (capped %v)", st.Work, bound, st.Capped)
	}
	t.Logf("default walk: %d pushes, %d edge updates, %d touched, R=%.3g", st.Pushes, st.Work, len(ws.Touched()), st.Residual)
	checkMass(t, ws, 10000)

	res := ws.RWR(g, nil, seeds, Options{MaxPushes: 500})
	st = ws.Stats()
	if st.Work > 500 || !st.Capped {
		t.Errorf("cap 500: work %d, capped %v", st.Work, st.Capped)
	}
	if len(res) == 0 {
		t.Errorf("a capped walk still scores something")
	}
	checkMass(t, ws, 10000)
}

func TestWorkspaceGrows(t *testing.T) {
	g := graphOf(t, 5, edge{0, 1, calls}, edge{1, 4, calls})
	ws := NewWorkspace(2)
	res := ws.RWR(g, nil, []Seed{{0, 1}}, Options{})
	if len(res) != 3 || ws.Score(4) <= 0 {
		t.Fatalf("result %v", res)
	}
	checkMass(t, ws, 5)
}

func TestZeroAllocs(t *testing.T) {
	g := synthGraph(t, 10000, 40000, 1)
	seeds := randomSeeds(10000, 20, 2)
	ws := NewWorkspace(10000)
	nodes := make([]uint32, 0, 200)
	for _, s := range ws.RWR(g, nil, seeds, Options{}) {
		nodes = append(nodes, s.Node)
	}
	ws.HITS(g, nil, nodes, 0)
	if a := testing.AllocsPerRun(50, func() { ws.RWR(g, nil, seeds, Options{}) }); a != 0 {
		t.Errorf("RWR allocates %v per run", a)
	}
	w := DefaultWeights()
	if a := testing.AllocsPerRun(50, func() { ws.HITS(g, w, nodes, 0) }); a != 0 {
		t.Errorf("HITS allocates %v per run", a)
	}
}

func TestDefaultWeights(t *testing.T) {
	w := DefaultWeights()
	for c := float32(0); c <= 1; c += 0.25 {
		a := snapshot.PackAttr(calls, c)
		if w.Out[a] != 1.0 || w.In[a] != 0.5 {
			t.Errorf("calls at confidence %v: %v/%v", c, w.Out[a], w.In[a])
		}
	}
	if a := snapshot.PackAttr(contains, 1); w.In[a] != 0 || w.Out[a] != 0.8 {
		t.Errorf("contains: %v/%v", w.Out[a], w.In[a])
	}
	if a := snapshot.PackAttr(snapshot.EdgeType(30), 1); w.Out[a] != 0.3 || w.In[a] != 0.15 {
		t.Errorf("undefined type code: %v", w.Out[a])
	}
}

func TestDefaultEpsilonRanksLikeExact(t *testing.T) {
	// At the default ε the head of the ranking is that of a near-exact walk.
	g := synthGraph(t, 10000, 40000, 1)
	ws := NewWorkspace(10000)
	var over10, over50 float64
	const sets = 4
	for i := 0; i < sets; i++ {
		seeds := randomSeeds(10000, 20, int64(i+2))
		exact := slices.Clone(ws.RWR(g, nil, seeds, Options{Epsilon: 1e-7, MaxPushes: 1 << 40, TopK: 50}))
		if r := ws.Stats().Residual; r > 0.05 {
			t.Fatalf("reference walk left R = %v", r)
		}
		got := ws.RWR(g, nil, seeds, Options{})
		for _, k := range []int{10, 50} {
			in := map[uint32]bool{}
			for _, s := range exact[:k] {
				in[s.Node] = true
			}
			c := 0
			for _, s := range got[:k] {
				if in[s.Node] {
					c++
				}
			}
			if k == 10 {
				over10 += float64(c) / 10 / sets
			} else {
				over50 += float64(c) / 50 / sets
			}
		}
	}
	t.Logf("top-10 overlap %.3f, top-50 overlap %.3f", over10, over50)
	if over10 < 0.9 || over50 < 0.85 {
		t.Errorf("default ε ranks unlike the exact walk: top-10 %.3f, top-50 %.3f", over10, over50)
	}
}

func TestHubBeyondBuffer(t *testing.T) {
	// Hub 1 has more edges than the push buffer holds, so it is spread
	// while decoded, after a pass to sum its weights.
	const leaves = nbrCap + 500
	n := leaves + 2
	es := []edge{{0, 1, calls}}
	for v := uint32(2); v < uint32(n); v++ {
		es = append(es, edge{1, v, calls})
	}
	g := graphOf(t, n, es...)
	seeds := []Seed{{0, 1}, {1, 0.5}}
	ref := reference(g, defaultWeights, seeds, DefaultAlpha)
	ws := NewWorkspace(n)
	ws.RWR(g, nil, seeds, Options{Epsilon: 1e-7, MaxPushes: 1 << 40})
	checkMass(t, ws, n)
	st := ws.Stats()
	var l1 float64
	for v := range ref {
		d := ref[v] - float64(ws.Score(uint32(v)))
		if d < -1e-6 {
			t.Fatalf("node %d: p=%v > π=%v", v, ws.Score(uint32(v)), ref[v])
		}
		l1 += math.Abs(d)
	}
	if math.Abs(l1-st.Residual) > 1e-5 || l1 > 1e-3 {
		t.Errorf("L1 error %v, R %v", l1, st.Residual)
	}
	if ws.Score(2) != ws.Score(uint32(n-1)) || ws.Score(2) <= 0 {
		t.Errorf("leaves differ: %v %v", ws.Score(2), ws.Score(uint32(n-1)))
	}
}

func TestEpochWrap(t *testing.T) {
	g := synthGraph(t, 2000, 8000, 5)
	seeds := randomSeeds(2000, 10, 6)
	fresh := NewWorkspace(2000)
	want := slices.Clone(fresh.RWR(g, nil, seeds, Options{}))
	nodes := make([]uint32, len(want))
	for i, s := range want {
		nodes[i] = s.Node
	}
	wantAuth, wantHub := fresh.HITS(g, nil, nodes, 0)
	wantAuth, wantHub = slices.Clone(wantAuth), slices.Clone(wantHub)

	ws := NewWorkspace(2000)
	for i := 0; i < 3; i++ {
		ws.RWR(g, nil, randomSeeds(2000, 10, int64(20+i)), Options{})
		ws.HITS(g, nil, nodes[:50], 0)
	}
	ws.ep = math.MaxUint32 - 1 // the next walk wraps the epoch
	ws.locEp = math.MaxUint32  // and the next map the local stamps
	got := ws.RWR(g, nil, seeds, Options{})
	if ws.ep != 2 || !slices.Equal(got, want) {
		t.Fatalf("after the epoch wrapped: ep %d, equal %v", ws.ep, slices.Equal(got, want))
	}
	auth, hub := ws.HITS(g, nil, nodes, 0)
	if !slices.Equal(auth, wantAuth) || !slices.Equal(hub, wantHub) {
		t.Fatalf("HITS differs after the local stamps wrapped")
	}
}
