package query

import (
	"cmp"
	"context"
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A two-tree model over rank and kind.value: tree 0 gives +1 to a
// candidate the formula ranked third or lower (1/rank ≤ 0.4), tree 1
// -0.5 to values (kind.value above 0.5), two levels deep on one side.
const twoTrees = `# a test model
knowing-trees 1
top 10
features rank,kind.value,nameLen
tree 0:0.4:1:2 =1 =0
tree 1:0.5:1:2 =0 2:3:3:4 =-0.25 =-0.5
`

func TestParseTrees(t *testing.T) {
	m, err := ParseTrees(twoTrees)
	if err != nil {
		t.Fatal(err)
	}
	if m.Top != 10 || m.Trees() != 2 || m.depth != 2 {
		t.Fatalf("top %d, %d trees, depth %d", m.Top, m.Trees(), m.depth)
	}
	x := make([]float32, numFeatures)
	cases := []struct {
		rank, value, nameLen float32
		want                 float64
	}{
		{1, 0, 5, 0},         // first, a callable
		{0.25, 0, 5, 1},      // fourth
		{0.25, 1, 2, 0.75},   // fourth, a short value
		{0.5, 1, 9, -0.5},    // second, a long value
		{0.4, 0, 0, 1},       // at the threshold: left
		{0.4000001, 0, 0, 0}, // above it: right
	}
	for _, c := range cases {
		x[ftRank], x[ftKindValue], x[ftNameLen] = c.rank, c.value, c.nameLen
		if got := m.Predict(x); got != c.want {
			t.Errorf("rank %g value %g nameLen %g: %g, want %g", c.rank, c.value, c.nameLen, got, c.want)
		}
	}
	// A threshold of -0 is +0's: a value of 0 goes left, in the complete
	// layout as walking the trees.
	z, err := ParseTrees("knowing-trees 1\ntop 2\nfeatures rank\ntree 0:-0:1:2 =1 =0\n")
	if err != nil {
		t.Fatal(err)
	}
	zw := *z
	zw.feat = nil
	clear(x)
	if a, b := z.Predict(x), zw.Predict(x); a != 1 || b != 1 {
		t.Errorf("a value of 0 at the threshold -0: complete layout %g, walking %g, want 1", a, b)
	}
	for _, bad := range []string{
		strings.Replace(twoTrees, "knowing-trees 1", "knowing-trees 2", 1), // another version
		strings.Replace(twoTrees, "nameLen", "noSuchFeature", 1),           // a feature this binary lacks
		strings.Replace(twoTrees, "top 10", "top 1", 1),                    // nothing to re-order
		strings.Replace(twoTrees, "0:0.4:1:2", "0:0.4:0:2", 1),             // a cycle through the root
		strings.Replace(twoTrees, "2:3:3:4", "2:3:2:4", 1),                 // a node its own child
		strings.Replace(twoTrees, "0:0.4:1:2", "0:0.4:1:1", 1),             // a node two splits share, one none reaches
		twoTrees + sharedChain(40),                                         // 2^40 paths through 41 nodes
		strings.Replace(twoTrees, "0:0.4:1:2", "0:0.4:1:3", 1),             // a child outside the tree
		strings.Replace(twoTrees, "0:0.4:1:2", "7:0.4:1:2", 1),             // no such feature index
		strings.Replace(twoTrees, "=-0.5", "=NaN", 1),                      // no number
		strings.Replace(twoTrees, "0:0.4:1:2", "0:-inf:1:2", 1),            // an infinite threshold
		strings.Replace(twoTrees, "tree 0", "forest 0", 1),                 // no tree line
		strings.Replace(twoTrees, "tree 0", "trees 0", 1),                  // nor this
		strings.Replace(twoTrees, "0:0.4:1:2", "0:0.4:1:2:3", 1),           // a fifth field
		strings.Replace(twoTrees, "0:0.4:1:2", "0:0.4:1", 1),               // a missing field
		twoTrees + "tree\n",                       // a tree of no node
		"knowing-trees 1\ntop 5\n",                // no features line
		"knowing-trees 1\ntop 5\nfeatures rank\n", // no tree
	} {
		if _, err := ParseTrees(bad); err == nil {
			t.Errorf("model parsed:\n%s", bad)
		}
	}
}

// The complete layout predicts what walking the trees does, one row or
// four at a time, for random models and features, half of them at a
// threshold of the model.
func TestFlatTreesAgree(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	b.WriteString("knowing-trees 1\ntop 5\nfeatures " + strings.Join(FeatureNames(), ",") + "\n")
	for range 30 {
		// A random tree: node i splits or is a leaf, children appended.
		nodes := []string{""}
		var grow func(i, depth int)
		grow = func(i, depth int) {
			if depth == 4 || r.Intn(3) == 0 {
				nodes[i] = "=" + ftoa(r.Float64()*2-1)
				return
			}
			l := len(nodes)
			nodes = append(nodes, "", "")
			nodes[i] = itoa(r.Intn(numFeatures)) + ":" + ftoa(r.Float64()) + ":" + itoa(l) + ":" + itoa(l+1)
			grow(l, depth+1)
			grow(l+1, depth+1)
		}
		grow(0, 0)
		b.WriteString("tree " + strings.Join(nodes, " ") + "\n")
	}
	m, err := ParseTrees(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if m.feat == nil {
		t.Fatal("no complete layout")
	}
	flatAgrees(t, m, r, 200)
	// The embedded model, on values around and at its thresholds.
	em, err := trees()
	if err != nil {
		t.Fatal(err)
	}
	if em.feat == nil {
		t.Fatal("the embedded model has no complete layout")
	}
	flatAgrees(t, em, r, 500)
}

// flatAgrees checks m's complete layout against walking its trees on
// rounds of random rows.
func flatAgrees(t *testing.T, m *Model, r *rand.Rand, rounds int) {
	t.Helper()
	var thr []float32
	for _, nd := range m.nodes {
		if nd.feat >= 0 {
			thr = append(thr, nd.thr)
		}
	}
	walk := *m
	walk.feat = nil
	rows := make([]featureVec, 7) // one batch of four and three alone
	out := make([]float64, len(rows))
	for range rounds {
		for k := range rows {
			for i := range rows[k] {
				if r.Intn(2) == 0 {
					rows[k][i] = thr[r.Intn(len(thr))]
				} else {
					rows[k][i] = r.Float32() * 4
				}
			}
		}
		clear(out)
		m.predictRows(rows, out)
		for k := range rows {
			a, b := m.Predict(rows[k][:]), walk.Predict(rows[k][:])
			if a != b || out[k] != b {
				t.Fatalf("complete layout %g, by rows %g, walking %g", a, out[k], b)
			}
		}
	}
}

// sharedChain is a tree line of n splits each pointing both ways to the
// next: every node but the root is shared by two splits.
func sharedChain(n int) string {
	var b strings.Builder
	b.WriteString("tree")
	for i := range n {
		b.WriteString(" 0:0.5:" + itoa(i+1) + ":" + itoa(i+1))
	}
	return b.String() + " =1\n"
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 32) }
func itoa(i int) string     { return strconv.Itoa(i) }

// rerankTask is the task the model tests run on the shop.
const rerankTask = "store item get put memory"

// withTwoTrees returns the shop, the formula's answer to rerankTask (it
// fails the test below least results) and an engine re-ordering with
// twoTrees.
func withTwoTrees(t *testing.T, least int) (*shop, *Result, *Engine) {
	t.Helper()
	s := newShop()
	plain := query(t, s.engine(t), rerankTask)
	if len(plain.Results) < least {
		t.Fatalf("only %d results", len(plain.Results))
	}
	m, err := ParseTrees(twoTrees)
	if err != nil {
		t.Fatal(err)
	}
	return s, plain, s.engine(t, WithModel(m))
}

// A model re-orders the formula's best candidates, gives them scores in
// its order, leaves the rest after them, and allocates nothing.
func TestRerank(t *testing.T) {
	s, plain, e := withTwoTrees(t, 4)
	task, m := rerankTask, e.model
	got := query(t, e, task)
	// Tree 0 lifts everything from the third place on above the first
	// two; tree 1 drops values, the long-named more. Ties keep the
	// formula's order.
	want := symbols(plain)
	type sc struct {
		q string
		s float64
	}
	var exp []sc
	for i, q := range want[:min(len(want), m.Top)] {
		v := 0.0
		if i >= 2 {
			v++
		}
		switch e.s.Kind(s.ids[q]).String() {
		case "field", "variable", "constant":
			v -= 0.5
			if len(e.s.Name(s.ids[q])) <= 3 {
				v += 0.25
			}
		}
		exp = append(exp, sc{q, v})
	}
	slices.SortStableFunc(exp, func(a, b sc) int { return cmp.Compare(b.s, a.s) })
	for i, x := range exp {
		if symbols(got)[i] != x.q {
			t.Fatalf("place %d: %s, want %s (formula order %v, reranked %v)", i+1, symbols(got)[i], x.q, want, symbols(got))
		}
	}
	for i := 1; i < len(got.Results); i++ {
		if got.Results[i].Score > got.Results[i-1].Score {
			t.Errorf("scores out of order at %d: %v", i, got.Results)
		}
	}
	if !slices.Equal(sorted(symbols(got)), sorted(want)) {
		t.Errorf("reranking changed the set: %v against %v", symbols(got), want)
	}
	ctx := context.Background()
	e.Query(ctx, task, Options{Limit: 20})
	ws := e.getWorkspace()
	defer e.putWorkspace(ws)
	ws.reset()
	kw := ExtractKeywords(task)
	e.refine(&kw)
	ws.setWords(&kw)
	lists := e.channels(ws, &kw, task, false)
	e.fuse(ws, &lists)
	seeds := e.selectSeeds(ws, &kw)
	e.walkFrom(ws, seeds, lists[chPath])
	ranked := e.score(ws, &kw)
	if n := testing.AllocsPerRun(100, func() { e.rerank(ws, ranked, task) }); n != 0 {
		t.Errorf("rerank allocates %.1f times", n)
	}
	// Scores fall strictly through the reranked candidates, even when
	// the formula gave them all the same score or none a positive one
	// (a later re-sort by score keeps the model's order), and stay
	// above the rest.
	for _, same := range []float64{0.5, 0, -1} {
		for _, cd := range ranked {
			cd.score = same
		}
		e.rerank(ws, ranked, task)
		m := min(len(ranked), e.model.Top)
		for i := 1; i < len(ranked); i++ {
			if i < m && !(ranked[i].score < ranked[i-1].score) || i >= m && ranked[i].score >= ranked[m-1].score {
				t.Fatalf("formula scores all %g: place %d scores %g after %g", same, i+1, ranked[i].score, ranked[i-1].score)
			}
		}
	}
}

// Why tells a candidate the model re-ordered by its model score and
// the formula's place and score; without a model it tells neither.
func TestWhyNotesTheModel(t *testing.T) {
	s, plain, e := withTwoTrees(t, 3)
	task := rerankTask
	third := plain.Results[2]
	got := query(t, e, task)
	ex, err := e.Why(context.Background(), task, third.Symbol, Options{})
	if err != nil || len(ex) != 1 {
		t.Fatalf("why %s: %v %v", third.Symbol, ex, err)
	}
	// Tree 0 gives the third place +1, tree 1 takes at most 0.5.
	x := ex[0]
	if x.FormulaRank != 3 || math.Abs(x.FormulaScore-third.Score) > 1e-4 || x.ModelScore < 0.5 || x.ModelScore > 1 ||
		x.FinalRank != rankOf(got, strings.TrimPrefix(third.Symbol, "shop/")) || x.Score == x.FormulaScore {
		t.Errorf("why %s with the model: %+v", third.Symbol, x)
	}
	if len(x.Notes) == 0 || !strings.Contains(x.Notes[len(x.Notes)-1], "re-ordered by the tree model") {
		t.Errorf("no note of the model: %q", x.Notes)
	}
	ex, err = s.engine(t).Why(context.Background(), task, third.Symbol, Options{})
	if err != nil || len(ex) != 1 || ex[0].FormulaRank != 0 || ex[0].ModelScore != 0 {
		t.Fatalf("why without a model: %+v %v", ex, err)
	}
	for _, n := range ex[0].Notes {
		if strings.Contains(n, "tree model") {
			t.Errorf("a note of a model the engine lacks: %q", n)
		}
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// The features of a query's candidates: one value per name, the
// formula's order, and what they say of the candidate.
func TestFeatures(t *testing.T) {
	names := FeatureNames()
	if len(names) != numFeatures || len(slices.Compact(sorted(names))) != numFeatures {
		t.Fatalf("feature names not distinct: %v", names)
	}
	for _, n := range names {
		if n == "" {
			t.Fatalf("a feature has no name: %v", names)
		}
	}
	s := newShop()
	e := s.engine(t)
	task := "check the API key"
	rows, err := e.Features(context.Background(), task, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain := symbols(query(t, e, task))
	if len(rows) != min(5, len(plain)) {
		t.Fatalf("%d rows for %d results", len(rows), len(plain))
	}
	for i, r := range rows {
		r.Symbol = strings.TrimPrefix(r.Symbol, "shop/")
		rows[i] = r
		if r.Symbol != plain[i] {
			t.Errorf("row %d is %s, the formula's %s", i, r.Symbol, plain[i])
		}
		if len(r.Features) != numFeatures {
			t.Fatalf("%d features", len(r.Features))
		}
		if r.Features[ftRank] != 1/float32(i+1) {
			t.Errorf("%s: rank feature %g at place %d", r.Symbol, r.Features[ftRank], i+1)
		}
	}
	if r := rows[0]; r.Symbol != "server.CheckAPIKey" || r.Features[ftScore] != 1 || r.Features[ftKindCall] != 1 ||
		r.Features[ftNameCover] < 1 || r.Features[ftChannels] < 1 || r.Features[ftNameLen] != float32(len("CheckAPIKey")) {
		t.Errorf("first row %s: %v", r.Symbol, r.Features)
	}
	// CheckAPIKey and authMiddleware share a file: each is the other's
	// file mate.
	for _, r := range rows {
		if r.Symbol == "server.authMiddleware" && r.Features[ftFileMates] < 1 {
			t.Errorf("authMiddleware has no file mate: %v", r.Features)
		}
	}
}

func TestFeatureHelpers(t *testing.T) {
	for name, want := range map[string]int{"CheckAPIKey": 2, "checkAPIKey": 2, "check_api_key": 3, "a2b": 1, "fooBar": 2, "x": 1, "HTTPServer2": 1, "__init__": 1, "": 0} {
		if got := nameParts(name); got != want {
			t.Errorf("nameParts(%q) = %d, want %d", name, got, want)
		}
	}
	for q, want := range map[string]int{"a.b.C": 2, "std::vec::Vec": 2, "pkg/sub.F": 2, "Class#method": 1, "x": 0} {
		if got := qnameDepth(q); got != want {
			t.Errorf("qnameDepth(%q) = %d, want %d", q, got, want)
		}
	}
	if got, two := countWords(" a  b\tc\n", math.MaxInt), countWords(" a  b\tc\n", 2); got != 3 || two != 2 {
		t.Errorf("countWords: %d, up to 2: %d", got, two)
	}
}

// BenchmarkPredict scores 50 candidates with the embedded tree model.
func BenchmarkPredict(b *testing.B) {
	m, err := trees()
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	xs := make([][]float32, 50)
	for i := range xs {
		xs[i] = make([]float32, numFeatures)
		for j := range xs[i] {
			xs[i][j] = r.Float32() * 3
		}
	}
	b.Run("one", func(b *testing.B) {
		b.ReportAllocs()
		s := 0.0
		for b.Loop() {
			for _, x := range xs {
				s += m.Predict(x)
			}
		}
		_ = s
	})
	b.Run("rows", func(b *testing.B) {
		rows := make([]featureVec, len(xs))
		for i := range xs {
			copy(rows[i][:], xs[i])
		}
		out := make([]float64, len(rows))
		b.ReportAllocs()
		for b.Loop() {
			clear(out)
			m.predictRows(rows, out)
		}
	})
}

// The history features say how often and how lately a symbol changed,
// and are 0 for a symbol no commit of the window changed.
func TestHistoryFeatures(t *testing.T) {
	s := newShop()
	key := s.ids["server.CheckAPIKey"]
	s.g.Nodes[key].Changed, s.g.Nodes[key].Churn = 2, 3 // the second newest commit changed it, three did
	e := s.engine(t)
	rows, err := e.Features(context.Background(), "check the API key", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		churn, recent := r.Features[ftChurn], r.Features[ftRecent]
		if strings.HasSuffix(r.Symbol, "server.CheckAPIKey") {
			if churn != 2 || recent != 0.5 {
				t.Errorf("%s: churn %g, recent %g; want log2(1+3) = 2 and 1/2", r.Symbol, churn, recent)
			}
		} else if churn != 0 || recent != 0 {
			t.Errorf("%s changed in no commit: churn %g, recent %g", r.Symbol, churn, recent)
		}
	}
}

// BenchmarkParseTrees: every process that ranks parses the embedded
// model once; what it allocates is paid in page faults at start.
func BenchmarkParseTrees(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTrees(treesModel); err != nil {
			b.Fatal(err)
		}
	}
}
