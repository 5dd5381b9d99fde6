package train

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
)

// This file learns a tree model (query.Model) by LambdaMART: gradient
// boosting of regression trees on the pairwise lambdas of NDCG (Burges,
// "From RankNet to LambdaRank to LambdaMART"). The rows are the features
// of the formula's best candidates of every fixture (Collect); a tree is
// grown depth first on feature histograms, its leaves set by a Newton
// step.

// Queries are the collected candidates of a training set.
type Queries struct {
	Names []string // the feature names (query.FeatureNames)
	Repos []string
	Q     []Query
}

// Query is one fixture's candidates, in the formula's order.
type Query struct {
	Fixture eval.Fixture
	Repo    int
	Symbols []string
	X       []float32 // row-major: len(Symbols) × len(Names)
	Rel     []bool    // the candidate is ground truth
}

// Collect runs every fixture of s with the weights t and keeps the
// features of its top best candidates.
func Collect(ctx context.Context, s *Set, t query.Tuning, top, workers int) (*Queries, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	names := query.FeatureNames()
	out := make([][]Query, len(s.groups))
	err := s.eachGroup(ctx, workers, func(_, gi int) error {
		var err error
		out[gi], err = s.groups[gi].collect(ctx, t, top, len(names))
		return err
	})
	if err != nil {
		return nil, err
	}
	q := &Queries{Names: names, Repos: s.Repos}
	for _, qs := range out {
		q.Q = append(q.Q, qs...)
	}
	return q, nil
}

// collect runs g's fixtures and keeps their candidates.
func (g group) collect(ctx context.Context, t query.Tuning, top, nf int) ([]Query, error) {
	e, err := query.New(g.s, query.WithTuning(t))
	if err != nil {
		return nil, err
	}
	var qs []Query
	for _, f := range g.fx {
		rows, err := e.Features(ctx, f.Description, top)
		if err != nil {
			return nil, fmt.Errorf("fixture %s: %w", f.ID, err)
		}
		q := Query{Fixture: f, Repo: g.repo, X: make([]float32, 0, len(rows)*nf)}
		for _, r := range rows {
			q.Symbols = append(q.Symbols, r.Symbol)
			q.X = append(q.X, r.Features...)
			rel := false
			for _, gt := range f.GroundTruth {
				if eval.Strict.Match(r.Symbol, gt) {
					rel = true
					break
				}
			}
			q.Rel = append(q.Rel, rel)
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// TreeOptions steer the boosting.
type TreeOptions struct {
	Trees    int     // trees grown (0: 100)
	Depth    int     // levels of splits per tree (0: 4)
	Rate     float64 // shrinkage (0: 0.1)
	MinLeaf  int     // least rows in a leaf (0: 50)
	L2       float64 // leaf regularisation (0: 1)
	Truncate int     // NDCG cut-off of the lambdas (0: the whole list)
	Top      int     // the model's rerank depth (query.Model.Top)
	Log      io.Writer
	// Skip names features the trees never split on (ablations).
	Skip []string
	skip []bool // per feature column: in Skip (set by Boost)
}

func (o *TreeOptions) defaults() {
	if o.Trees <= 0 {
		o.Trees = 100
	}
	if o.Depth <= 0 {
		o.Depth = 4
	}
	if o.Rate <= 0 {
		o.Rate = 0.1
	}
	if o.MinLeaf <= 0 {
		o.MinLeaf = 50
	}
	if o.L2 <= 0 {
		o.L2 = 1
	}
}

// tree is a regression tree over feature columns: a node with feat ≥ 0
// splits (a value at or below thr goes to left, above it to right), the
// others are leaves of value val. While a tree grows its thresholds are
// bins (tree[uint8] over bins.code); learned, values (tree[float32]).
type tree[T float32 | uint8] struct{ nodes []tnode[T] }

type tnode[T float32 | uint8] struct {
	feat        int
	thr         T
	val         float64
	left, right int
}

func (t *tree[T]) predict(x []T) float64 {
	n := 0
	for {
		nd := &t.nodes[n]
		if nd.feat < 0 {
			return nd.val
		}
		if x[nd.feat] <= nd.thr {
			n = nd.left
		} else {
			n = nd.right
		}
	}
}

// Forest is a learned model: its trees, over the collected features.
type Forest struct {
	Names []string
	Top   int
	trees []tree[float32]
}

// Trees is the number of trees.
func (f *Forest) Trees() int { return len(f.trees) }

// Cut returns the model of the first n trees.
func (f *Forest) Cut(n int) *Forest {
	return &Forest{Names: f.Names, Top: f.Top, trees: f.trees[:min(n, len(f.trees))]}
}

// Score scores one row.
func (f *Forest) Score(x []float32) float64 {
	s := 0.0
	for i := range f.trees {
		s += f.trees[i].predict(x)
	}
	return s
}

// WriteModel writes f as a model file query.ParseTrees reads; comment
// lines first.
func (f *Forest) WriteModel(w io.Writer, comment string) error {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(comment), "\n") {
		b.WriteString("# " + l + "\n")
	}
	fmt.Fprintf(&b, "knowing-trees 1\ntop %d\nfeatures %s\n", f.Top, strings.Join(f.Names, ","))
	for _, t := range f.trees {
		b.WriteString("tree")
		for _, nd := range t.nodes {
			if nd.feat < 0 {
				b.WriteString(" =" + strconv.FormatFloat(float64(float32(nd.val)), 'g', 6, 32))
			} else {
				fmt.Fprintf(&b, " %d:%s:%d:%d", nd.feat, strconv.FormatFloat(float64(nd.thr), 'g', -1, 32), nd.left, nd.right)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bins is the features' quantisation: each value's bin per column, and
// each bin's upper bound (a value at or below it is in the bin or one
// before).
type bins struct {
	nf    int
	upper [][]float32 // per feature, ascending
	code  []uint8     // row-major per row
}

const maxBins = 64

// binRows quantises the rows of qs.
func binRows(qs []Query, nf int) *bins {
	b := &bins{nf: nf, upper: make([][]float32, nf)}
	var col []float32
	for f := 0; f < nf; f++ {
		col = col[:0]
		for _, q := range qs {
			for i := f; i < len(q.X); i += nf {
				col = append(col, q.X[i])
			}
		}
		slices.Sort(col)
		d := slices.Compact(slices.Clone(col))
		var up []float32
		if len(d) <= maxBins {
			for i := 0; i+1 < len(d); i++ {
				up = append(up, (d[i]+d[i+1])/2)
			}
		} else {
			for k := 1; k < maxBins; k++ {
				v := col[k*len(col)/maxBins]
				j := sort.Search(len(d), func(i int) bool { return d[i] > v })
				if j < len(d) {
					u := (v + d[j]) / 2
					if len(up) == 0 || u > up[len(up)-1] {
						up = append(up, u)
					}
				}
			}
		}
		b.upper[f] = up
	}
	for _, q := range qs {
		for i, v := range q.X {
			u := b.upper[i%nf]
			b.code = append(b.code, uint8(sort.Search(len(u), func(k int) bool { return v <= u[k] })))
		}
	}
	return b
}

// Boost learns a forest on the queries train selects.
func Boost(ctx context.Context, all *Queries, train []bool, opt TreeOptions) (*Forest, error) {
	opt.defaults()
	nf := len(all.Names)
	opt.skip = make([]bool, nf)
	for _, s := range opt.Skip {
		f := slices.Index(all.Names, s)
		if f < 0 {
			return nil, fmt.Errorf("no feature is named %q", s)
		}
		opt.skip[f] = true
	}
	var qs []Query
	for _, q := range all.Q {
		if (train == nil || train[q.Repo]) && slices.Contains(q.Rel, true) && slices.Contains(q.Rel, false) {
			qs = append(qs, q) // a list of one label gives no pair to learn from
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no training query has both a relevant and an irrelevant candidate")
	}
	b := binRows(qs, nf)
	// start[i] is query i's first row.
	start := make([]int, len(qs)+1)
	for i, q := range qs {
		start[i+1] = start[i] + len(q.Symbols)
	}
	n := start[len(qs)]
	score := make([]float64, n)
	grad := make([]float64, n)
	hess := make([]float64, n)
	forest := &Forest{Names: all.Names, Top: opt.Top}
	rows := make([]int32, n)
	for t := 0; t < opt.Trees; t++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(grad)
		clear(hess)
		for i, q := range qs {
			lambdas(gains(q.Rel), score[start[i]:start[i+1]], grad[start[i]:start[i+1]], hess[start[i]:start[i+1]], opt.Truncate)
		}
		for i := range rows {
			rows[i] = int32(i)
		}
		tr := growTree(b, rows, grad, hess, opt)
		for i := 0; i < n; i++ {
			score[i] += tr.predict(b.code[i*nf : (i+1)*nf])
		}
		forest.trees = append(forest.trees, valueTree(tr, b))
		if opt.Log != nil && (t+1)%25 == 0 {
			fmt.Fprintf(opt.Log, "trees: %d grown\n", t+1)
		}
	}
	return forest, nil
}

// gains are the relevance of a query's rows: 1 for ground truth, else
// 0.
func gains(rel []bool) []float64 {
	g := make([]float64, len(rel))
	for i, r := range rel {
		if r {
			g[i] = 1
		}
	}
	return g
}

// lambdas adds the LambdaRank gradients of one query's rows (graded
// relevance gain, NDCG with cut-off trunc when > 0) to grad and hess.
func lambdas(gain []float64, score, grad, hess []float64, trunc int) {
	n := len(gain)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	pos := make([]int, n)
	for p, i := range order {
		pos[i] = p
	}
	ideal := slices.Clone(gain)
	slices.SortFunc(ideal, func(a, b float64) int { return cmp.Compare(b, a) })
	idcg := 0.0
	for p := 0; p < n && ideal[p] > 0 && (trunc <= 0 || p < trunc); p++ {
		idcg += ideal[p] / math.Log2(float64(p+2))
	}
	disc := func(p int) float64 {
		if trunc > 0 && p >= trunc {
			return 0
		}
		return 1 / math.Log2(float64(p+2))
	}
	for i := 0; i < n; i++ {
		if gain[i] == 0 {
			continue
		}
		for j := 0; j < n; j++ {
			if gain[j] >= gain[i] {
				continue
			}
			delta := (gain[i] - gain[j]) * math.Abs(disc(pos[i])-disc(pos[j])) / idcg
			if delta == 0 {
				continue
			}
			rho := 1 / (1 + math.Exp(score[i]-score[j]))
			grad[i] += delta * rho
			grad[j] -= delta * rho
			h := delta * rho * (1 - rho)
			hess[i] += h
			hess[j] += h
		}
	}
}

// valueTree turns a tree's bin thresholds into the bins' upper bounds.
func valueTree(t *tree[uint8], b *bins) tree[float32] {
	out := tree[float32]{nodes: make([]tnode[float32], len(t.nodes))}
	for i, nd := range t.nodes {
		out.nodes[i] = tnode[float32]{feat: nd.feat, val: nd.val, left: nd.left, right: nd.right}
		if nd.feat >= 0 {
			out.nodes[i].thr = b.upper[nd.feat][nd.thr]
		}
	}
	return out
}

// growTree grows one tree on rows, depth first, to opt.Depth.
func growTree(b *bins, rows []int32, grad, hess []float64, opt TreeOptions) *tree[uint8] {
	t := &tree[uint8]{}
	var grow func(rows []int32, depth int) int
	grow = func(rows []int32, depth int) int {
		id := len(t.nodes)
		t.nodes = append(t.nodes, tnode[uint8]{feat: -1})
		G, H := 0.0, 0.0
		for _, r := range rows {
			G += grad[r]
			H += hess[r]
		}
		t.nodes[id].val = opt.Rate * G / (H + opt.L2)
		if depth == opt.Depth || len(rows) < 2*opt.MinLeaf {
			return id
		}
		f, bin, ok := bestSplit(b, rows, grad, hess, G, H, opt)
		if !ok {
			return id
		}
		// Partition rows in place: left first.
		nf := b.nf
		i, j := 0, len(rows)-1
		for i <= j {
			if b.code[int(rows[i])*nf+f] <= bin {
				i++
			} else {
				rows[i], rows[j] = rows[j], rows[i]
				j--
			}
		}
		t.nodes[id].feat, t.nodes[id].thr = f, bin
		l := grow(rows[:i], depth+1)
		r := grow(rows[i:], depth+1)
		t.nodes[id].left, t.nodes[id].right = l, r
		return id
	}
	grow(rows, 0)
	return t
}

// bestSplit finds the split of rows with the largest gain.
func bestSplit(b *bins, rows []int32, grad, hess []float64, G, H float64, opt TreeOptions) (int, uint8, bool) {
	nf := b.nf
	type cell struct {
		g, h float64
		n    int
	}
	hist := make([]cell, nf*maxBins)
	for _, r := range rows {
		code := b.code[int(r)*nf : int(r)*nf+nf]
		g, h := grad[r], hess[r]
		for f, c := range code {
			x := &hist[f*maxBins+int(c)]
			x.g += g
			x.h += h
			x.n++
		}
	}
	parent := G * G / (H + opt.L2)
	bestGain, bestF, bestBin := 1e-9, -1, uint8(0)
	for f := 0; f < nf; f++ {
		if opt.skip[f] {
			continue
		}
		gl, hl, nl := 0.0, 0.0, 0
		for k := 0; k < len(b.upper[f]); k++ {
			c := hist[f*maxBins+k]
			gl, hl, nl = gl+c.g, hl+c.h, nl+c.n
			if nl < opt.MinLeaf {
				continue
			}
			if len(rows)-nl < opt.MinLeaf {
				break
			}
			gr, hr := G-gl, H-hl
			gain := gl*gl/(hl+opt.L2) + gr*gr/(hr+opt.L2) - parent
			if gain > bestGain {
				bestGain, bestF, bestBin = gain, f, uint8(k)
			}
		}
	}
	return bestF, bestBin, bestF >= 0
}

// Rerank orders q's candidates by f (ties by the formula's order) and
// returns their symbols: the first f.Top re-ordered, the rest as they
// were.
func (f *Forest) Rerank(q *Query) []string {
	nf := len(f.Names)
	m := min(len(q.Symbols), f.Top)
	idx := make([]int, len(q.Symbols))
	s := make([]float64, len(q.Symbols))
	for i := range idx {
		idx[i] = i
		if i < m {
			s[i] = f.Score(q.X[i*nf : (i+1)*nf])
		}
	}
	sort.SliceStable(idx[:m], func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = q.Symbols[k]
	}
	return out
}

// EvaluateForest scores the queries only selects (nil: all) as ranked by
// f (nil: the formula's order), per repository and macro.
func EvaluateForest(all *Queries, f *Forest, only []bool) Result {
	per := make([][]eval.FixtureResult, len(all.Repos))
	for i := range all.Q {
		q := &all.Q[i]
		if only != nil && !only[q.Repo] {
			continue
		}
		names := q.Symbols
		if f != nil {
			names = f.Rerank(q)
		}
		if len(names) > eval.K {
			names = names[:eval.K]
		}
		per[q.Repo] = append(per[q.Repo], eval.Score(q.Fixture, names, eval.Strict, 0))
	}
	return summarize(all.Repos, per)
}
