package walk

import (
	"math"
	"slices"
	"testing"
)

func argmax(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

func TestHITSHubAndAuthority(t *testing.T) {
	// H=0 points to five nodes 1..5; five nodes 6..10 point to X=11; H also
	// points to X. Node 12 is isolated within the set.
	es := []edge{{0, 11, calls}}
	for v := uint32(1); v <= 5; v++ {
		es = append(es, edge{0, v, calls}, edge{v + 5, 11, calls})
	}
	g := graphOf(t, 13, es...)
	nodes := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}

	check := func(name string, auth, hub []float32) {
		t.Helper()
		if len(auth) != len(nodes) || len(hub) != len(nodes) {
			t.Fatalf("%s: lengths %d %d", name, len(auth), len(hub))
		}
		if nodes[argmax(hub)] != 0 {
			t.Errorf("%s: top hub is %d, want 0: %v", name, nodes[argmax(hub)], hub)
		}
		if nodes[argmax(auth)] != 11 {
			t.Errorf("%s: top authority is %d, want 11: %v", name, nodes[argmax(auth)], auth)
		}
		if auth[0] != 0 || hub[11] != 0 {
			t.Errorf("%s: nothing points to 0 and 11 points nowhere: %v %v", name, auth[0], hub[11])
		}
		if auth[12] != 0 || hub[12] != 0 {
			t.Errorf("%s: isolated node scored %v %v", name, auth[12], hub[12])
		}
		var sa, sh float64
		for i := range auth {
			if math.IsNaN(float64(auth[i])) || math.IsNaN(float64(hub[i])) {
				t.Fatalf("%s: NaN", name)
			}
			sa += float64(auth[i]) * float64(auth[i])
			sh += float64(hub[i]) * float64(hub[i])
		}
		if math.Abs(sa-1) > 1e-4 || math.Abs(sh-1) > 1e-4 {
			t.Errorf("%s: norms %v %v", name, sa, sh)
		}
	}

	ws := NewWorkspace(13)
	auth, hub := ws.HITS(g, nil, nodes, 0) // no walk yet: uniform start
	check("uniform", auth, hub)
	ws.RWR(g, nil, []Seed{{3, 1}}, Options{})
	auth, hub = ws.HITS(g, DefaultWeights(), nodes, 20)
	check("walk start", auth, hub)
}

func TestHITSDisconnectedFollowsWalk(t *testing.T) {
	// Two identical stars: their principal eigenvalues tie, so the start
	// decides; the one the walk favours must come out ahead.
	g := graphOf(t, 8,
		edge{0, 1, calls}, edge{0, 2, calls}, edge{0, 3, calls},
		edge{4, 5, calls}, edge{4, 6, calls}, edge{4, 7, calls},
	)
	nodes := []uint32{0, 1, 2, 3, 4, 5, 6, 7}
	ws := NewWorkspace(8)
	ws.RWR(g, nil, []Seed{{4, 1}}, Options{})
	_, hub := ws.HITS(g, nil, nodes, 0)
	if !(hub[4] > hub[0]) || hub[0] <= 0 {
		t.Errorf("walk-favoured hub 4 should lead, and hub 0 keep a score: %v", hub)
	}
	auth1, hub1 := slices.Clone(ws.hits.auth), slices.Clone(hub)
	auth2, hub2 := ws.HITS(g, nil, nodes, 0)
	if !slices.Equal(auth1, auth2) || !slices.Equal(hub1, hub2) {
		t.Errorf("HITS not deterministic")
	}
}

func TestHITSEdgeCases(t *testing.T) {
	g := graphOf(t, 4, edge{0, 1, calls}, edge{1, 1, calls}, edge{0, 1, imports})
	ws := NewWorkspace(4)
	auth, hub := ws.HITS(g, nil, nil, 0)
	if len(auth) != 0 || len(hub) != 0 {
		t.Fatalf("empty input")
	}
	// Duplicates share scores; out-of-range nodes score 0; self-loops do not count.
	auth, hub = ws.HITS(g, nil, []uint32{1, 0, 1, 99}, 5)
	if auth[0] != auth[2] || hub[0] != hub[2] || auth[3] != 0 || hub[3] != 0 {
		t.Fatalf("auth %v hub %v", auth, hub)
	}
	if auth[0] != 1 || hub[1] != 1 || hub[0] != 0 || auth[1] != 0 {
		t.Fatalf("0→1 only: auth %v hub %v", auth, hub)
	}
	// No edges at all: zeros, no NaN.
	auth, hub = ws.HITS(g, nil, []uint32{2, 3}, 5)
	for i := range auth {
		if auth[i] != 0 || hub[i] != 0 {
			t.Fatalf("edgeless: %v %v", auth, hub)
		}
	}
}
