package query

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Model is a trained ranking model: gradient-boosted regression trees
// over the features of the formula's best candidates (features.go). An
// engine with a model (WithModel) re-orders its Top best candidates by
// the model's score (step 7a); the rest keep the formula's order after
// them.
//
// A model file is text: '#' comment lines, a header line
// "knowing-trees VERSION", a line "top N", a line "features NAME,..."
// naming the features the model reads, then one line per tree (at least
// one), "tree" followed by its nodes in order (node 0 is the root), each
// either "FEATURE:THRESHOLD:LEFT:RIGHT" (FEATURE an index into the
// features line; a value at or below THRESHOLD, a finite number, goes to
// node LEFT, above it to RIGHT) or "=VALUE" (a leaf, finite). Every node
// but the root is the child of one split. The score is the sum of the
// leaves reached. A binary refuses a model of another version or one
// naming a feature it does not compute.
type Model struct {
	Top   int
	nodes []modelNode
	roots []int32
	// The trees laid out complete to depth (leaves above it repeated
	// below dummy splits that always go left), so a prediction walks
	// every tree without branching: tree t's splits are feat and thr
	// [t*inner, (t+1)*inner), in breadth-first order, its leaves
	// leaf[t*(inner+1):]; nil when a tree is deeper than maxFlatDepth.
	depth, inner int
	feat         []int16
	thr          []float32
	leaf         []float32
}

// maxFlatDepth bounds the complete layout: 2^depth leaves a tree.
const maxFlatDepth = 8

// modelNode is a split (feat ≥ 0) or a leaf (feat < 0, val).
type modelNode struct {
	feat        int16
	thr, val    float32
	left, right int32
}

// modelVersion is the model file version this binary reads.
const modelVersion = 1

// ParseTrees reads a model file (see Model).
func ParseTrees(text string) (*Model, error) {
	// The embedded model is parsed by every process that ranks: the
	// parse allocates its result and little else.
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for l := range strings.SplitSeq(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 {
		return nil, fmt.Errorf("tree model: want a header, a top and a features line, got %d lines", len(lines))
	}
	var v int
	if _, err := fmt.Sscanf(lines[0], "knowing-trees %d", &v); err != nil {
		return nil, fmt.Errorf("tree model: header %q: want \"knowing-trees VERSION\"", lines[0])
	}
	if v != modelVersion {
		return nil, fmt.Errorf("tree model: version %d; this knowing reads version %d", v, modelVersion)
	}
	m := &Model{}
	if _, err := fmt.Sscanf(lines[1], "top %d", &m.Top); err != nil || m.Top < 2 {
		return nil, fmt.Errorf("tree model: %q: want \"top N\", N at least 2", lines[1])
	}
	names, ok := strings.CutPrefix(lines[2], "features ")
	if !ok {
		return nil, fmt.Errorf("tree model: %q: want \"features NAME,...\"", lines[2])
	}
	var feat []int16
	for n := range strings.SplitSeq(names, ",") {
		i := slices.Index(featureNames[:], n)
		if i < 0 {
			return nil, fmt.Errorf("tree model: feature %q is not one this knowing computes", n)
		}
		feat = append(feat, int16(i))
	}
	m.nodes = make([]modelNode, 0, strings.Count(text, ":")/3+strings.Count(text, "="))
	m.roots = make([]int32, 0, len(lines)-3)
	var parents []int // checkTree's scratch
	for li, l := range lines[3:] {
		nodes, ok := strings.CutPrefix(l, "tree")
		n := int32(0)
		for range strings.FieldsSeq(nodes) {
			n++
		}
		if !ok || n == 0 || nodes[0] != ' ' && nodes[0] != '\t' {
			return nil, fmt.Errorf("tree model: line %q: want \"tree NODE...\"", l)
		}
		root := int32(len(m.nodes))
		for t := range strings.FieldsSeq(nodes) {
			nd, err := parseNode(t, feat, n)
			if err != nil {
				return nil, fmt.Errorf("tree model: tree %d: %w", li, err)
			}
			if nd.feat >= 0 {
				nd.left += root
				nd.right += root
			}
			m.nodes = append(m.nodes, nd)
		}
		if cap(parents) < int(n) {
			parents = make([]int, n)
		}
		if err := checkTree(m.nodes[root:], root, parents); err != nil {
			return nil, fmt.Errorf("tree model: tree %d: %w", li, err)
		}
		m.roots = append(m.roots, root)
	}
	if len(m.roots) == 0 {
		// Every candidate would score 0, and rerank would give the Top
		// best one score, the formula's order kept only by the sort's
		// ties.
		return nil, fmt.Errorf("tree model: no tree")
	}
	m.flatten()
	return m, nil
}

// flatten lays the trees out complete (Model), when none is deeper than
// maxFlatDepth.
func (m *Model) flatten() {
	var depth func(n int32) int
	depth = func(n int32) int {
		nd := &m.nodes[n]
		if nd.feat < 0 {
			return 0
		}
		return 1 + max(depth(nd.left), depth(nd.right))
	}
	d := 0
	for _, r := range m.roots {
		d = max(d, depth(r))
	}
	if d > maxFlatDepth {
		return
	}
	inner := 1<<d - 1
	m.depth, m.inner = d, inner
	m.feat = make([]int16, len(m.roots)*inner)
	m.thr = make([]float32, len(m.roots)*inner)
	m.leaf = make([]float32, len(m.roots)*(inner+1))
	for t, r := range m.roots {
		feat, thr, leaf := m.feat[t*inner:], m.thr[t*inner:], m.leaf[t*(inner+1):]
		// place puts node n at position i of the complete tree.
		var place func(n int32, i int)
		place = func(n int32, i int) {
			if i >= inner { // a leaf position
				leaf[i-inner] = m.nodes[n].val
				return
			}
			nd := &m.nodes[n]
			if nd.feat < 0 {
				// A dummy split: feature 0 at +Inf always goes left; the
				// leaf repeats on both sides, so either way reaches it.
				feat[i], thr[i] = 0, float32(math.Inf(1))
				place(n, 2*i+1)
				place(n, 2*i+2)
				return
			}
			feat[i], thr[i] = nd.feat, nd.thr
			place(nd.left, 2*i+1)
			place(nd.right, 2*i+2)
		}
		place(r, 0)
	}
}

// parseNode reads one node of a tree of n nodes. An infinite threshold
// is refused: the complete layout's step (predictFlat) takes the sign of
// threshold − value, which for an infinite threshold and the same
// infinite value is NaN's, not the comparison's.
func parseNode(t string, feat []int16, n int32) (modelNode, error) {
	if v, ok := strings.CutPrefix(t, "="); ok {
		x, err := strconv.ParseFloat(v, 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return modelNode{}, fmt.Errorf("leaf %q: want a finite number", t)
		}
		return modelNode{feat: -1, val: float32(x)}, nil
	}
	fs, rest, ok1 := strings.Cut(t, ":")
	ts, rest, ok2 := strings.Cut(rest, ":")
	ls, rs, ok3 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || !ok3 || strings.Contains(rs, ":") {
		return modelNode{}, fmt.Errorf("node %q: want FEATURE:THRESHOLD:LEFT:RIGHT or =VALUE", t)
	}
	f, err1 := strconv.Atoi(fs)
	thr, err2 := strconv.ParseFloat(ts, 32)
	l, err3 := strconv.Atoi(ls)
	r, err4 := strconv.Atoi(rs)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || f < 0 || f >= len(feat) ||
		l <= 0 || r <= 0 || l >= int(n) || r >= int(n) || math.IsNaN(thr) || math.IsInf(thr, 0) {
		return modelNode{}, fmt.Errorf("node %q: a feature index, a threshold and two child nodes in the tree", t)
	}
	// -0 becomes +0 (x ≤ -0 is x ≤ +0): predictFlat's step, the sign of
	// threshold − value, would send a value of +0 right of -0.
	return modelNode{feat: feat[f], thr: float32(thr) + 0, left: int32(l), right: int32(r)}, nil
}

// checkTree refuses a tree whose splits do not all point forward (a
// cycle would never end a prediction) or whose nodes other than the root
// are not each the child of exactly one split: a node shared by two
// splits would make flatten's walk of the tree exponential in its
// depth, and one no split reaches is no part of the tree. parents, at
// least as long as nodes, is scratch.
func checkTree(nodes []modelNode, root int32, parents []int) error {
	parents = parents[:len(nodes)]
	clear(parents)
	for i, nd := range nodes {
		if nd.feat < 0 {
			continue
		}
		if nd.left <= root+int32(i) || nd.right <= root+int32(i) {
			return fmt.Errorf("node %d points back", i)
		}
		parents[nd.left-root]++
		parents[nd.right-root]++
	}
	for i := 1; i < len(nodes); i++ {
		if parents[i] != 1 {
			return fmt.Errorf("node %d is the child of %d splits, not one", i, parents[i])
		}
	}
	return nil
}

// Trees is the number of trees.
func (m *Model) Trees() int { return len(m.roots) }

// Predict scores one candidate's features, adding the leaves in float64
// as predictRows does, so both give the same score. It allocates
// nothing.
func (m *Model) Predict(x []float32) float64 {
	if m.feat != nil {
		return m.predictFlat(x)
	}
	s := 0.0
	for _, n := range m.roots {
		for {
			nd := &m.nodes[n]
			if nd.feat < 0 {
				s += float64(nd.val)
				break
			}
			if x[nd.feat] <= nd.thr {
				n = nd.left
			} else {
				n = nd.right
			}
		}
	}
	return s
}

// predictFlat is Predict over the complete layout. The step down a
// level takes the sign of thr - x (set: x is above the threshold, go
// right) instead of a branch, which the processor would mispredict about
// half the time: the difference of two distinct finite numbers is never
// zero, and +Inf - x is positive.
func (m *Model) predictFlat(x []float32) float64 {
	s := 0.0
	inner, depth := m.inner, m.depth
	x = x[:numFeatures]
	for t := range m.roots {
		feat, thr := m.feat[t*inner:(t+1)*inner], m.thr[t*inner:(t+1)*inner]
		i := 0
		for d := 0; d < depth; d++ {
			right := int(math.Float32bits(thr[i]-x[feat[i]]) >> 31)
			i = 2*i + 1 + right
		}
		s += float64(m.leaf[t*(inner+1)+i-inner])
	}
	return s
}

// predictRows adds the model's score of each row of xs to out (len(xs)
// values, zeroed by the caller). Over the complete layout it walks each
// tree for four rows at a time, so the four independent walks overlap in
// the processor; the rows left over go one at a time (predictFlat).
func (m *Model) predictRows(xs []featureVec, out []float64) {
	if m.feat == nil {
		for i := range xs {
			out[i] += m.Predict(xs[i][:])
		}
		return
	}
	inner, depth := m.inner, m.depth
	out = out[:len(xs)]
	batched := len(xs) - len(xs)%4
	for t := range m.roots {
		feat, thr := m.feat[t*inner:(t+1)*inner], m.thr[t*inner:(t+1)*inner]
		leaf := m.leaf[t*(inner+1) : (t+1)*(inner+1)]
		for r := 0; r < batched; r += 4 {
			x0, x1, x2, x3 := &xs[r], &xs[r+1], &xs[r+2], &xs[r+3]
			i0, i1, i2, i3 := 0, 0, 0, 0
			for d := 0; d < depth; d++ {
				i0 = 2*i0 + 1 + int(math.Float32bits(thr[i0]-x0[feat[i0]])>>31)
				i1 = 2*i1 + 1 + int(math.Float32bits(thr[i1]-x1[feat[i1]])>>31)
				i2 = 2*i2 + 1 + int(math.Float32bits(thr[i2]-x2[feat[i2]])>>31)
				i3 = 2*i3 + 1 + int(math.Float32bits(thr[i3]-x3[feat[i3]])>>31)
			}
			out[r] += float64(leaf[i0-inner])
			out[r+1] += float64(leaf[i1-inner])
			out[r+2] += float64(leaf[i2-inner])
			out[r+3] += float64(leaf[i3-inner])
		}
	}
	for r := batched; r < len(xs); r++ {
		out[r] += m.predictFlat(xs[r][:])
	}
}

// WithModel makes the engine re-order its best candidates with m (nil:
// none), those of reports too when they have weights of their own
// (WithReportTuning).
func WithModel(m *Model) EngineOption {
	return func(e *Engine) { e.model = m }
}

// rerank re-orders the formula's best candidates by the model (step 7a)
// and gives them scores in the formula's range, in the model's order:
// between the best formula score and the first candidate left in the
// formula's order, so packing and the results' scores keep the order.
func (e *Engine) rerank(ws *workspace, ranked []*candidate, task string) {
	m := min(len(ranked), e.model.Top)
	if m < 2 {
		return
	}
	top := ranked[:m]
	e.features(ws, top, task)
	hi, lo := top[0].score, 0.0
	if m < len(ranked) {
		lo = max(ranked[m].score, 0)
	}
	if hi <= lo {
		// No room between the best and the rest (every score equal, or
		// none positive): the reranked rise above the rest.
		hi = lo + 1
	}
	ws.mscore = append(ws.mscore[:0], make([]float64, m)...)
	e.model.predictRows(ws.feat, ws.mscore)
	ws.order = ws.order[:0]
	for i := range top {
		ws.order = append(ws.order, modelPick{cd: top[i], s: ws.mscore[i], at: i})
	}
	slices.SortFunc(ws.order, func(a, b modelPick) int {
		return cmp.Or(cmp.Compare(b.s, a.s), a.at-b.at) // ties: the formula's order
	})
	for i, p := range ws.order {
		top[i] = p.cd
		p.cd.parts.Model, p.cd.parts.Formula, p.cd.parts.Place = p.s, p.cd.score, p.at+1
		sc := lo + (hi-lo)*(1/(1+math.Exp(-p.s)))
		if i > 0 && sc >= top[i-1].score {
			// Equal model scores, or ones the sigmoid rounds together:
			// a later re-sort by score (the session's) keeps this order.
			sc = math.Nextafter(top[i-1].score, math.Inf(-1))
		}
		p.cd.score, p.cd.parts.Final = sc, sc
	}
}

// modelPick is one reranked candidate: its model score and formula
// place.
type modelPick struct {
	cd *candidate
	s  float64
	at int
}
