// Package walk ranks the nodes of a code graph for a query: a Random Walk
// with Restart from weighted seeds, computed by forward push in time that
// does not grow with the graph, then HITS on the top candidates.
//
// # The walk
//
// A walker starts at a seed drawn from the restart distribution s (the seeds'
// weights, normalised). At each step it stops with probability α (the
// restart probability), otherwise it takes one transition out of its node u:
// along an out-edge with weight [Weights].Out[attr] or against an in-edge
// with weight [Weights].In[attr], chosen in proportion to weight. A node all
// of whose transitions weigh zero (a dead end) sends the walker back to the
// seeds, drawn from s. The score π(v) is the probability that the walker
// stops at v, the personalized PageRank of v for s; Σπ = 1.
//
// # Forward push
//
// [Workspace.RWR] computes an estimate p ≤ π by forward push (Andersen, Chung
// and Lang, 2006). It keeps p and a residual r, starting from p = 0, r = s,
// and keeps the invariant π = p + Σ_u r(u)·Π(u,·), where Π(u,·) is the
// distribution of the stopping node of a walk started at u. Pushing u moves
// α·r(u) into p(u) and spreads (1−α)·r(u) over u's transitions by weight, or
// to the seeds by s if u is a dead end.
//
// A node u is pushed while r(u) ≥ ε·deg(u), where deg(u) is the number of
// edges in both of u's rows, at least 1. It is the count, not the total
// weight, because the count is read in O(1) from the row headers, and only
// once r(u) reaches ε, the threshold's lower bound: the fringe of the walk
// costs no lookup, and deciding about a high-degree neighbour never decodes
// its rows. The total weight of u's transitions is summed at u's first push
// and cached for the rest of the walk. Every seed is pushed once whatever
// its degree, so a seed always scores.
//
// Work. A push of u decodes u's deg(u) edges once (a node of more than 4096
// edges twice at its first push, to sum its weights first) and moves at
// least α·ε·deg(u) into p, whose total never exceeds 1. So beyond the seeds'
// own first pushes a walk decodes at most 1/(α·ε) edges, 2/(α·ε) if it
// pushes such hubs: 50,000 (100,000) with the defaults α = 0.2, ε = 1e-4,
// whatever the size of the graph. [Options].MaxPushes caps the work
// outright; a push that would pass the cap is skipped and its residual kept.
//
// Error. Every Π(u,·) is a distribution, so on return
//
//	0 ≤ π(v) − p(v) ≤ R for every v,  and  Σ_v (π(v) − p(v)) = R,
//
// where R = Σ_u r(u) is the residual left, reported by [Workspace.Stats]:
// R is the exact L1 error of p, up to float32 rounding. Without the cap,
// every node ends with r(u) < ε·deg(u). When transitions are symmetric (In =
// Out, every edge of weight 1, no dead ends: an undirected walk) this gives
// the classical per-node bound π(v) − p(v) < ε·deg(v); the code graph's walk
// is directed, so only R bounds it in general.
//
// ε = 1e-4 is the default. It pushes every node whose residual passes
// 1e-4 per edge, well below the share of a node within two hops of a seed
// (with 20 seeds, 0.05 per seed, times (1−α) per hop, divided among ~8
// neighbours), and it leaves most of the unresolved mass (R ≈ 0.5) on the
// far fringe, where it shifts no ranking. Measured with 20 seeds on
// synthetic graphs of 10K and 250K nodes (see the tests and benchmarks): a
// walk decodes ~4,500 edges and scores ~420 nodes, and its top 10, 50 and
// 200 share 97–100%, 92% and 84–87% of their nodes with a near-exact walk
// (ε = 1e-8). ε = 3e-5 lifts that to 98%, 97% and 92% for 3.5× the work;
// ε = 3e-4 drops the top 50 to 90% and the top 200 to 65%.
//
// # Ownership
//
// A [csr.Graph] and a [Weights] are read-only and may be shared. A
// [Workspace] belongs to one goroutine; slices it returns are valid until its
// next call. Nothing is allocated once a workspace has served one call of a
// given size.
//
// # What it owns
//
// The walk and HITS over a [csr.Graph], their workspaces, and the
// transition weights: [Weights], and the default weight of each edge type
// (weights.go). It reads the graph through csr, and the edge types and the
// attribute byte's packing through snapshot; it must not import query,
// cmd/knowing or extract, the packages above it.
package walk

import (
	"math"

	"github.com/knowing-dev/knowing/csr"
)

// Defaults for zero [Options] fields.
const (
	DefaultAlpha     = 0.2
	DefaultEpsilon   = 1e-4
	DefaultMaxPushes = 200_000
	DefaultTopK      = 200
	DefaultHITSIters = 20
)

// Seed is a node to restart at, with a positive weight. Seeds with a zero,
// negative or non-finite weight or a node outside the graph are ignored;
// repeated nodes are merged by summing their weights.
type Seed struct {
	Node   uint32
	Weight float32
}

// Scored is a node and its score.
type Scored struct {
	Node  uint32
	Score float32
}

// Options tune a walk. Zero (or invalid) fields take the defaults.
type Options struct {
	// Alpha is the restart probability, in (0,1]; default 0.2.
	Alpha float32
	// Epsilon is the push threshold per edge: u is pushed while
	// r(u) ≥ Epsilon·deg(u). Default 1e-4. Work is O(1/(Alpha·Epsilon)).
	Epsilon float32
	// MaxPushes caps the work of a walk, counted in decoded edges (edge
	// updates); default 200,000, which the default α and ε never reach but
	// for the first pushes of high-degree seeds.
	MaxPushes int
	// TopK is how many nodes RWR returns; default 200.
	TopK int
}

func (o Options) withDefaults() Options {
	if !(o.Alpha > 0 && o.Alpha <= 1) {
		o.Alpha = DefaultAlpha
	}
	if !(o.Epsilon > 0 && o.Epsilon <= math.MaxFloat32) {
		o.Epsilon = DefaultEpsilon
	}
	if o.MaxPushes <= 0 {
		o.MaxPushes = DefaultMaxPushes
	}
	if o.TopK <= 0 {
		o.TopK = DefaultTopK
	}
	return o
}

// Stats describe the last walk.
type Stats struct {
	Pushes   int     // nodes pushed
	Work     int     // edges decoded plus seeds updated by dead ends: what MaxPushes caps
	Residual float64 // R = Σ r, the exact L1 error of the scores (see the package doc)
	Capped   bool    // a push was skipped because of MaxPushes
	Reached  int     // nodes given any mass (p or r)
}

// cell is the per-node state of a walk, valid when stamp&^1 == the
// workspace's epoch; stamp == epoch|1 marks a node in the queue.
type cell struct {
	p, r  float32
	thr   float32 // ε·max(deg, 1)
	wdeg  float32 // total transition weight; < 0 until computed
	stamp uint32
}

// Workspace is the reusable state of walks over graphs of up to its size
// (it grows, once, for a larger graph). Not safe for concurrent use.
type Workspace struct {
	cells   []cell
	ep      uint32 // even; cells stamped ep or ep|1 belong to this walk
	touched []uint32
	queue   []uint32 // FIFO ring; a node is in it at most once
	qhead   int
	qlen    int

	nbr   []nbrEdge // the transitions of the node being pushed
	seeds []Seed    // the merged, normalised restart distribution
	seedW []float64 // merge buffer
	pool  float32   // mass sent back to the seeds by dead ends, not yet spread

	gn       uint32 // nodes of the graph being walked
	alpha    float32
	eps      float32
	maxWork  int
	top      []Scored
	stats    Stats
	hasWalk  bool
	locStamp []uint32 // node → local index map, valid when locStamp == locEp
	loc      []uint32
	locEp    uint32

	hits hitsState
}

// NewWorkspace makes a workspace for graphs of n nodes. It allocates about
// 36 bytes per node, once.
func NewWorkspace(n int) *Workspace {
	ws := &Workspace{ep: 2}
	ws.grow(n)
	return ws
}

func (ws *Workspace) grow(n int) {
	if n <= len(ws.cells) {
		return
	}
	ws.cells = make([]cell, n)
	ws.touched = make([]uint32, 0, n)
	ws.queue = make([]uint32, n)
	ws.locStamp = make([]uint32, n)
	ws.loc = make([]uint32, n)
	if ws.nbr == nil {
		ws.nbr = make([]nbrEdge, nbrCap)
	}
	ws.ep, ws.locEp = 2, 0
	ws.hasWalk = false
}

// nextLocal starts a new node → local index map.
func (ws *Workspace) nextLocal() {
	ws.locEp++
	if ws.locEp == 0 {
		clear(ws.locStamp)
		ws.locEp = 1
	}
}

// RWR runs the walk from seeds and returns the TopK nodes by score p,
// descending, ties by lower node id; only nodes with p > 0 are returned. The
// slice belongs to the workspace and is valid until its next call. A nil w
// means [DefaultWeights]. See the package doc for the bounds on work and
// error. The result depends only on the graph, weights, seeds and options:
// repeated calls give bit-identical results.
func (ws *Workspace) RWR(g *csr.Graph, w *Weights, seeds []Seed, opt Options) []Scored {
	opt = opt.withDefaults()
	if w == nil {
		w = defaultWeights
	}
	n := g.NumNodes()
	ws.grow(n)
	ws.ep += 2
	if ws.ep == 0 {
		for i := range ws.cells {
			ws.cells[i].stamp = 0
		}
		ws.ep = 2
	}
	ws.gn = uint32(n)
	ws.alpha = opt.Alpha
	ws.maxWork = opt.MaxPushes
	ws.touched = ws.touched[:0]
	ws.qhead, ws.qlen = 0, 0
	ws.pool = 0
	ws.stats = Stats{}
	ws.hasWalk = true

	ws.eps = opt.Epsilon
	ws.mergeSeeds(seeds)
	for _, s := range ws.seeds {
		ws.cell(s.Node).r += s.Weight
	}
	for _, s := range ws.seeds {
		ws.push(g, w, s.Node, true)
	}
	for {
		for ws.qlen > 0 {
			u := ws.queue[ws.qhead]
			ws.qhead++
			if ws.qhead == len(ws.queue) {
				ws.qhead = 0
			}
			ws.qlen--
			c := &ws.cells[u]
			c.stamp = ws.ep
			if c.r >= c.thr {
				ws.push(g, w, u, false)
			}
		}
		if ws.pool == 0 || !ws.flush(g) {
			break
		}
	}

	ws.stats.Reached = len(ws.touched)
	var res float64
	k := 0
	for _, v := range ws.touched {
		c := &ws.cells[v]
		res += float64(c.r)
		if c.p > 0 {
			ws.touched[k] = v
			k++
		}
	}
	ws.touched = ws.touched[:k]
	ws.stats.Residual = res
	return ws.selectTop(opt.TopK)
}

// mergeSeeds fills ws.seeds with the valid seeds, merged and normalised, in
// order of first appearance.
func (ws *Workspace) mergeSeeds(seeds []Seed) {
	ws.nextLocal()
	ws.seeds = ws.seeds[:0]
	ws.seedW = ws.seedW[:0]
	var total float64
	for _, s := range seeds {
		if s.Node >= ws.gn || !usable(s.Weight) {
			continue
		}
		if ws.locStamp[s.Node] == ws.locEp {
			ws.seedW[ws.loc[s.Node]] += float64(s.Weight)
		} else {
			ws.locStamp[s.Node] = ws.locEp
			ws.loc[s.Node] = uint32(len(ws.seeds))
			ws.seeds = append(ws.seeds, Seed{Node: s.Node})
			ws.seedW = append(ws.seedW, float64(s.Weight))
		}
		total += float64(s.Weight)
	}
	for i := range ws.seeds {
		ws.seeds[i].Weight = float32(ws.seedW[i] / total)
	}
}

// nbrCap bounds the transitions a push decodes into a buffer, to sum their
// weights and then spread; a node with more edges is spread as it is
// decoded, after a pass of its own to sum its weights at its first push.
const nbrCap = 4096

type nbrEdge struct {
	v uint32
	w float32
}

// Cell states by wdeg: thrLow means thr is only the lower bound ε (the
// degree has not been read), wUnknown that thr is exact but the total
// weight unknown; wdeg ≥ 0 is the total weight, and thr is exact.
const (
	thrLow   = -2
	wUnknown = -1
)

// cell returns the cell of v, initialising it on first use in this walk.
func (ws *Workspace) cell(v uint32) *cell {
	c := &ws.cells[v]
	if c.stamp&^1 != ws.ep {
		ws.initCell(v)
	}
	return c
}

// initCell starts v with the lower bound ε as its threshold: its degree
// is read only if its residual reaches that (see push).
func (ws *Workspace) initCell(v uint32) {
	ws.cells[v] = cell{thr: ws.eps, wdeg: thrLow, stamp: ws.ep}
	ws.touched = append(ws.touched, v)
}

// add gives v residual x and queues v if it reaches its threshold (or,
// before v's degree is read, the lower bound of its threshold).
func (ws *Workspace) add(v uint32, x float32) {
	c := &ws.cells[v]
	if c.stamp != ws.ep {
		ws.addSlow(v, x)
		return
	}
	c.r += x
	if c.r >= c.thr {
		ws.enqueue(v, c)
	}
}

// addSlow is add for a node that is queued or not yet reached.
func (ws *Workspace) addSlow(v uint32, x float32) {
	c := &ws.cells[v]
	if c.stamp == ws.ep|1 {
		c.r += x
		return
	}
	ws.initCell(v)
	c.r = x
	if c.r >= c.thr {
		ws.enqueue(v, c)
	}
}

func (ws *Workspace) enqueue(v uint32, c *cell) {
	c.stamp = ws.ep | 1
	i := ws.qhead + ws.qlen
	if i >= len(ws.queue) {
		i -= len(ws.queue)
	}
	ws.queue[i] = v
	ws.qlen++
}

// push settles u's residual if it has reached u's threshold, or always if
// force, unless that would pass the work cap. A node queued on the lower
// bound of its threshold gets its exact threshold here, from the row
// headers push reads anyway.
func (ws *Workspace) push(g *csr.Graph, w *Weights, u uint32, force bool) {
	c := &ws.cells[u]
	ru := c.r
	if !(ru > 0) {
		return
	}
	var out, in csr.Iter
	out.Reset(g.Out, u)
	in.Reset(g.In, u)
	d := out.Len() + in.Len()
	if c.wdeg == thrLow {
		c.thr = ws.eps * float32(max(d, 1))
		c.wdeg = wUnknown
		if ru < c.thr && !force {
			return
		}
	}
	cost := max(d, 1)
	twoPass := d > len(ws.nbr)
	if twoPass && c.wdeg < 0 {
		cost += d
	}
	if ws.stats.Work+cost > ws.maxWork {
		ws.stats.Capped = true
		return
	}
	ws.stats.Work += cost
	ws.stats.Pushes++
	c.r = 0
	c.p += float32(ws.alpha * ru)
	rest := float32((1 - ws.alpha) * ru)
	n := ws.gn

	if twoPass {
		// Too many edges for nbr: sum the weights in a pass of their own.
		if c.wdeg < 0 {
			c.wdeg = totalWeight(w, out, in, n)
		}
		if c.wdeg == 0 {
			ws.pool += rest
			return
		}
		share := rest / c.wdeg
		for out.Next() {
			if wt := w.Out[out.Attr]; usable(wt) && out.Node < n {
				ws.add(out.Node, float32(share*wt))
			}
		}
		for in.Next() {
			if wt := w.In[in.Attr]; usable(wt) && in.Node < n {
				ws.add(in.Node, float32(share*wt))
			}
		}
		return
	}

	// Decode the transitions into nbr, then spread.
	nbr := ws.nbr
	k := 0
	var sum float32
	for out.Next() {
		if wt := w.Out[out.Attr]; usable(wt) && out.Node < n && k < len(nbr) {
			nbr[k] = nbrEdge{out.Node, wt}
			sum += wt
			k++
		}
	}
	for in.Next() {
		if wt := w.In[in.Attr]; usable(wt) && in.Node < n && k < len(nbr) {
			nbr[k] = nbrEdge{in.Node, wt}
			sum += wt
			k++
		}
	}
	if c.wdeg < 0 {
		if !usable(sum) {
			sum = 0
		}
		c.wdeg = sum
	}
	if c.wdeg == 0 {
		ws.pool += rest
		return
	}
	share := rest / c.wdeg
	cells, ep := ws.cells, ws.ep
	for _, e := range nbr[:k] {
		x := float32(share * e.w)
		cv := &cells[e.v]
		if cv.stamp != ep {
			ws.addSlow(e.v, x)
			continue
		}
		cv.r += x
		if cv.r >= cv.thr {
			ws.enqueue(e.v, cv)
		}
	}
}

// totalWeight sums the usable transition weights of a node's rows (given by
// value: the caller's iterators are not advanced). A total that is not
// finite counts as a dead end.
func totalWeight(w *Weights, out, in csr.Iter, n uint32) float32 {
	var sum float32
	for out.Next() {
		if wt := w.Out[out.Attr]; usable(wt) && out.Node < n {
			sum += wt
		}
	}
	for in.Next() {
		if wt := w.In[in.Attr]; usable(wt) && in.Node < n {
			sum += wt
		}
	}
	if !usable(sum) {
		return 0
	}
	return sum
}

// flush spreads the dead ends' pool over the seeds' residuals by the restart
// distribution and reports whether that queued a node.
func (ws *Workspace) flush(g *csr.Graph) bool {
	x := ws.pool
	ws.pool = 0
	ws.stats.Work += len(ws.seeds)
	q := ws.qlen
	for _, s := range ws.seeds {
		ws.add(s.Node, float32(x*s.Weight))
	}
	return ws.qlen > q
}

// worse reports whether a ranks below b: lower score, or equal score and
// higher node id.
func worse(a, b Scored) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.Node > b.Node)
}

// selectTop keeps the k best touched nodes in a heap whose root is the
// worst kept, then sorts them best first.
func (ws *Workspace) selectTop(k int) []Scored {
	h := ws.top[:0]
	for _, v := range ws.touched {
		s := Scored{Node: v, Score: ws.cells[v].p}
		if len(h) < k {
			h = append(h, s)
			for i := len(h) - 1; i > 0; {
				parent := (i - 1) / 2
				if !worse(h[i], h[parent]) {
					break
				}
				h[i], h[parent] = h[parent], h[i]
				i = parent
			}
		} else if worse(h[0], s) {
			h[0] = s
			siftDown(h, 0)
		}
	}
	for end := len(h) - 1; end > 0; end-- {
		h[0], h[end] = h[end], h[0]
		siftDown(h[:end], 0)
	}
	ws.top = h
	return h
}

func siftDown(h []Scored, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && worse(h[r], h[l]) {
			m = r
		}
		if !worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// Score is p of node v after the last walk: 0 if the walk did not reach it.
func (ws *Workspace) Score(v uint32) float32 {
	if !ws.hasWalk || int64(v) >= int64(len(ws.cells)) || v >= ws.gn {
		return 0
	}
	if c := &ws.cells[v]; c.stamp&^1 == ws.ep {
		return c.p
	}
	return 0
}

// Touched lists the nodes with p > 0 after the last walk, in the order the
// walk first reached them. The slice belongs to the workspace.
func (ws *Workspace) Touched() []uint32 {
	if !ws.hasWalk {
		return nil
	}
	return ws.touched
}

// Stats describes the last walk.
func (ws *Workspace) Stats() Stats { return ws.stats }
