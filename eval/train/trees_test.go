package train

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
)

// synthetic makes queries whose ground truth is the one candidate with
// the largest "lines" among ten, listed in an order that ignores it (the
// formula's order is random): a model that learns to sort by lines
// ranks every truth first.
func synthetic(n int, seed int64) *Queries {
	names := query.FeatureNames()
	nf := len(names)
	lines := slices.Index(names, "lines")
	r := rand.New(rand.NewSource(seed))
	qs := &Queries{Names: names, Repos: []string{"a", "b"}}
	for i := 0; i < n; i++ {
		q := Query{Repo: i % 2, X: make([]float32, 10*nf)}
		best, bestV := 0, float32(-1)
		for k := 0; k < 10; k++ {
			q.Symbols = append(q.Symbols, fmt.Sprintf("pkg.F%d_%d", i, k))
			for f := 0; f < nf; f++ {
				q.X[k*nf+f] = r.Float32()
			}
			if v := q.X[k*nf+lines]; v > bestV {
				best, bestV = k, v
			}
		}
		for k := range q.Symbols {
			q.Rel = append(q.Rel, k == best)
		}
		q.Fixture = eval.Fixture{ID: fmt.Sprint(i), Repo: qs.Repos[i%2], GroundTruth: []string{q.Symbols[best]}}
		qs.Q = append(qs.Q, q)
	}
	return qs
}

func TestBoostLearnsAFeature(t *testing.T) {
	qs := synthetic(400, 1)
	train := []bool{true, false} // learn on repository a, score on b
	f, err := Boost(context.Background(), qs, train, TreeOptions{Trees: 30, Depth: 3, MinLeaf: 20, Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	held := []bool{false, true}
	before, after := EvaluateForest(qs, nil, held), EvaluateForest(qs, f, held)
	if before.Macro.Acc1 > 0.3 {
		t.Fatalf("the formula's order already finds the truth: Acc@1 %.3f", before.Macro.Acc1)
	}
	if after.Macro.Acc1 < 0.8 {
		t.Errorf("held-out Acc@1 %.3f -> %.3f: the trees did not learn to sort by lines", before.Macro.Acc1, after.Macro.Acc1)
	}
	if after.Macro.Count != 200 {
		t.Errorf("scored %d held-out queries, want 200", after.Macro.Count)
	}
	// A model of fewer trees is the start of the same model.
	if c := f.Cut(5); c.Trees() != 5 || f.Trees() != 30 {
		t.Errorf("cut: %d of %d trees", c.Trees(), f.Trees())
	}

	// The model file reads back into the engine's model, which scores
	// as the forest does.
	var b strings.Builder
	if err := f.WriteModel(&b, "a test model\nsecond line"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "# a test model\n# second line\nknowing-trees 1\ntop 10\n") {
		t.Errorf("model file opens:\n%.120s", b.String())
	}
	m, err := query.ParseTrees(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if m.Top != 10 || m.Trees() != 30 {
		t.Errorf("read back: top %d, %d trees", m.Top, m.Trees())
	}
	nf := len(qs.Names)
	for _, q := range qs.Q[:50] {
		for k := range q.Symbols {
			x := q.X[k*nf : (k+1)*nf]
			// Leaves are written as float32 with 6 digits.
			if a, b := f.Score(x), m.Predict(x); math.Abs(a-b) > 1e-4 {
				t.Fatalf("forest %g, model file %g", a, b)
			}
		}
	}
}

func TestBoostRefusesWhatItCannotLearn(t *testing.T) {
	qs := synthetic(10, 2)
	for i := range qs.Q {
		clear(qs.Q[i].Rel) // no query has a relevant candidate
	}
	if _, err := Boost(context.Background(), qs, nil, TreeOptions{Top: 10}); err == nil {
		t.Error("boosting without a relevant candidate did not fail")
	}
	qs = synthetic(10, 2)
	if _, err := Boost(context.Background(), qs, nil, TreeOptions{Top: 10, Skip: []string{"noSuchFeature"}}); err == nil {
		t.Error("skipping an unknown feature did not fail")
	}
}

// Skipping the one feature that matters leaves the trees nothing to
// learn from.
func TestBoostSkip(t *testing.T) {
	qs := synthetic(400, 3)
	f, err := Boost(context.Background(), qs, []bool{true, false}, TreeOptions{Trees: 20, Depth: 3, MinLeaf: 20, Top: 10, Skip: []string{"lines"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := EvaluateForest(qs, f, []bool{false, true}); a.Macro.Acc1 > 0.3 {
		t.Errorf("Acc@1 %.3f without the feature that decides", a.Macro.Acc1)
	}
}

// The lambdas push the relevant row up and the others down, more for a
// relevant row ranked low.
func TestLambdas(t *testing.T) {
	rel := []bool{false, false, true}
	g, h := make([]float64, 3), make([]float64, 3)
	lambdas(gains(rel), []float64{3, 2, 1}, g, h, 0)
	if !(g[2] > 0 && g[0] < 0 && g[1] < 0) || g[0] > g[1] || h[2] <= 0 {
		t.Errorf("gradients %v, hessians %v", g, h)
	}
	if s := g[0] + g[1] + g[2]; math.Abs(s) > 1e-12 {
		t.Errorf("gradients sum to %g", s)
	}
	// With a cut-off of 1, swapping places 2 and 3 changes nothing.
	g2, h2 := make([]float64, 3), make([]float64, 3)
	lambdas(gains(rel), []float64{3, 2, 1}, g2, h2, 1)
	if g2[1] != 0 {
		t.Errorf("cut-off 1: the second row moves: %v", g2)
	}
}

func TestBins(t *testing.T) {
	qs := synthetic(200, 4)
	nf := len(qs.Names)
	b := binRows(qs.Q, nf)
	for f := 0; f < nf; f++ {
		if len(b.upper[f]) >= maxBins || !slices.IsSorted(b.upper[f]) {
			t.Fatalf("feature %d: %d bounds, sorted %v", f, len(b.upper[f]), slices.IsSorted(b.upper[f]))
		}
	}
	// Every value is at or below its bin's bound and above the one
	// before.
	off := 0
	for _, q := range qs.Q {
		for i, v := range q.X {
			f := i % nf
			c := b.code[off+i]
			up := b.upper[f]
			if int(c) < len(up) && v > up[c] || c > 0 && v <= up[c-1] {
				t.Fatalf("value %g in bin %d of %v", v, c, up)
			}
		}
		off += len(q.X)
	}
}
