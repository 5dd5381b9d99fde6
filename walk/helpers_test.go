package walk

import (
	"math"
	"math/rand"
	"testing"

	"github.com/knowing-dev/knowing/csr"
	"github.com/knowing-dev/knowing/snapshot"
)

// edge is a test edge with full confidence.
type edge struct {
	from, to uint32
	t        snapshot.EdgeType
}

func graphOf(tb testing.TB, n int, edges ...edge) *csr.Graph {
	tb.Helper()
	es := make([]csr.Edge, len(edges))
	for i, e := range edges {
		es[i] = csr.Edge{From: e.from, To: e.to, Attr: snapshot.PackAttr(e.t, 1)}
	}
	return buildGraph(tb, n, es)
}

func buildGraph(tb testing.TB, n int, es []csr.Edge) *csr.Graph {
	tb.Helper()
	fwd, rev, err := csr.Build(n, es)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := csr.NewGraph(n, fwd, rev)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// synthGraph imitates an extracted repository of n symbols and m edges:
// symbols are numbered file by file (blocks of 8–24 ids, the first one the
// container, linked to its members by contains/member_of), most other
// edges join nearby ids, a quarter go anywhere with a skew towards low ids
// (hubs, like widely used helpers).
func synthGraph(tb testing.TB, n, m int, seed int64) *csr.Graph {
	tb.Helper()
	rng := rand.New(rand.NewSource(seed))
	es := make([]csr.Edge, 0, m)
	attr := func(t snapshot.EdgeType) uint8 { return snapshot.PackAttr(t, 0.3+0.7*rng.Float32()) }
	for f := 0; f < n; {
		size := 8 + rng.Intn(17)
		if f+size > n {
			size = n - f
		}
		for i := 1; i < size && len(es)+2 <= m; i++ {
			es = append(es,
				csr.Edge{From: uint32(f), To: uint32(f + i), Attr: attr(snapshot.EdgeContains)},
				csr.Edge{From: uint32(f + i), To: uint32(f), Attr: attr(snapshot.EdgeMemberOf)})
		}
		f += size
	}
	types := []snapshot.EdgeType{
		snapshot.EdgeCalls, snapshot.EdgeCalls, snapshot.EdgeCalls, snapshot.EdgeCalls,
		snapshot.EdgeCalls, snapshot.EdgeReferences, snapshot.EdgeReferences,
		snapshot.EdgeImports, snapshot.EdgeTypeHintOf, snapshot.EdgeImplements,
		snapshot.EdgeExtends, snapshot.EdgeTests, snapshot.EdgeOverrides, snapshot.EdgeUnknown,
	}
	for len(es) < m {
		u := rng.Intn(n)
		var v int
		if rng.Intn(4) > 0 {
			v = u + rng.Intn(129) - 64
			if v < 0 || v >= n {
				continue
			}
		} else {
			v = int(float64(n) * math.Pow(rng.Float64(), 3))
		}
		es = append(es, csr.Edge{From: uint32(u), To: uint32(v), Attr: attr(types[rng.Intn(len(types))])})
	}
	return buildGraph(tb, n, es)
}

// randomSeeds picks k distinct-ish seeds with weights in [0.5, 1.5).
func randomSeeds(n, k int, seed int64) []Seed {
	rng := rand.New(rand.NewSource(seed))
	s := make([]Seed, k)
	for i := range s {
		s[i] = Seed{Node: uint32(rng.Intn(n)), Weight: 0.5 + rng.Float32()}
	}
	return s
}

// reference computes the walk's exact distribution by dense power
// iteration in float64, independently of the push code: the restart
// distribution, transitions by weight in both directions, dead ends back to
// the seeds.
func reference(g *csr.Graph, w *Weights, seeds []Seed, alpha float64) []float64 {
	n := g.NumNodes()
	s := make([]float64, n)
	var total float64
	for _, sd := range seeds {
		if int(sd.Node) < n && sd.Weight > 0 && !math.IsInf(float64(sd.Weight), 0) {
			s[sd.Node] += float64(sd.Weight)
			total += float64(sd.Weight)
		}
	}
	for i := range s {
		s[i] /= total
	}
	type tr struct {
		v int
		w float64
	}
	rows := make([][]tr, n)
	sums := make([]float64, n)
	for u := 0; u < n; u++ {
		var it csr.Iter
		it.Reset(g.Out, uint32(u))
		for it.Next() {
			if x := float64(w.Out[it.Attr]); x > 0 && !math.IsInf(x, 0) {
				rows[u] = append(rows[u], tr{int(it.Node), x})
				sums[u] += x
			}
		}
		it.Reset(g.In, uint32(u))
		for it.Next() {
			if x := float64(w.In[it.Attr]); x > 0 && !math.IsInf(x, 0) {
				rows[u] = append(rows[u], tr{int(it.Node), x})
				sums[u] += x
			}
		}
	}
	pi := append([]float64(nil), s...)
	next := make([]float64, n)
	for iter := 0; iter < 400; iter++ { // (1−α)^400 is far below float64 rounding
		for v := range next {
			next[v] = alpha * s[v]
		}
		for u := 0; u < n; u++ {
			mass := (1 - alpha) * pi[u]
			if mass == 0 {
				continue
			}
			if sums[u] == 0 {
				for v := range next {
					next[v] += mass * s[v]
				}
				continue
			}
			for _, t := range rows[u] {
				next[t.v] += mass * t.w / sums[u]
			}
		}
		var diff float64
		for v := range next {
			diff += math.Abs(next[v] - pi[v])
		}
		pi, next = next, pi
		if diff < 1e-14 {
			break
		}
	}
	return pi
}

// checkFinite fails on any NaN or infinite score, and returns Σp.
func checkFinite(t *testing.T, ws *Workspace, n int) float64 {
	t.Helper()
	var sum float64
	for v := 0; v < n; v++ {
		p := ws.Score(uint32(v))
		if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) || p < 0 {
			t.Fatalf("score of %d is %v", v, p)
		}
		sum += float64(p)
	}
	if r := ws.Stats().Residual; math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		t.Fatalf("residual %v", r)
	}
	return sum
}

// checkMass asserts Σp ≤ 1 and Σp + R ≈ 1.
func checkMass(t *testing.T, ws *Workspace, n int) {
	t.Helper()
	sum := checkFinite(t, ws, n)
	r := ws.Stats().Residual
	if sum > 1+1e-5 {
		t.Errorf("Σp = %v > 1", sum)
	}
	if math.Abs(sum+r-1) > 1e-5 {
		t.Errorf("Σp + R = %v + %v = %v, want 1", sum, r, sum+r)
	}
}
