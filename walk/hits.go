package walk

import (
	"math"

	"github.com/knowing-dev/knowing/csr"
)

// hitsEdge is one edge of the induced subgraph, between local ids.
type hitsEdge struct {
	src, dst uint32
	w        float32
}

type hitsState struct {
	local    []uint32 // position in nodes → local id, or noLocal
	distinct []uint32 // local id → node
	edges    []hitsEdge
	a, h     []float32 // by local id
	auth     []float32 // by position in nodes
	hub      []float32
}

const noLocal = ^uint32(0)

// HITS computes authority and hub scores on the subgraph induced by nodes
// (typically the top ~200 of a walk) and returns them aligned with nodes;
// the slices belong to the workspace and are valid until its next call.
//
// The subgraph's edges are the graph's edges u→v with u ≠ v both in nodes,
// gathered from the out-rows of nodes, each weighing w.Out[attr]: the edge
// types the walk ignores are ignored here too and weak relations (imports,
// references) count for less than calls. A nil w weighs every edge 1.
// Parallel edges add up; self-loops are left out.
//
// It iterates a = Aᵀh, h = A·a, each normalised to unit L2 norm, iters times
// (20 if iters ≤ 0). HITS is not unique where the subgraph splits into
// pieces of equal principal eigenvalue, so the start is not uniform: it is
// h₀(i) = p(i)/Σp + 1/m, blending the last walk's scores p ([Workspace.Score])
// with a uniform floor so that no piece starts at zero (uniform if no node
// has a walk score). A node with no edge in the subgraph scores 0; a node
// repeated in nodes gets the same scores at each of its positions; a node
// outside the graph scores 0.
//
// Cost: one pass over the out-rows of nodes plus O(iters·edges).
func (ws *Workspace) HITS(g *csr.Graph, w *Weights, nodes []uint32, iters int) (auth, hub []float32) {
	if iters <= 0 {
		iters = DefaultHITSIters
	}
	hs := &ws.hits
	m := len(nodes)
	hs.auth = resize(hs.auth, m)
	hs.hub = resize(hs.hub, m)
	if m == 0 {
		return hs.auth, hs.hub
	}
	n := g.NumNodes()
	ws.growLocal(n)
	ws.nextLocal()

	// Local ids, in order of first appearance.
	hs.local = hs.local[:0]
	hs.distinct = hs.distinct[:0]
	for _, v := range nodes {
		id := noLocal
		if int64(v) < int64(n) {
			if ws.locStamp[v] == ws.locEp {
				id = ws.loc[v]
			} else {
				id = uint32(len(hs.distinct))
				ws.locStamp[v], ws.loc[v] = ws.locEp, id
				hs.distinct = append(hs.distinct, v)
			}
		}
		hs.local = append(hs.local, id)
	}

	// Induced edges, by source.
	hs.edges = hs.edges[:0]
	var it csr.Iter
	for src, u := range hs.distinct {
		it.Reset(g.Out, u)
		for it.Next() {
			v := it.Node
			if v == u || int64(v) >= int64(n) || ws.locStamp[v] != ws.locEp {
				continue
			}
			wt := float32(1)
			if w != nil {
				if wt = w.Out[it.Attr]; !usable(wt) {
					continue
				}
			}
			hs.edges = append(hs.edges, hitsEdge{src: uint32(src), dst: ws.loc[v], w: wt})
		}
	}

	k := len(hs.distinct)
	hs.a = resize(hs.a, k)
	hs.h = resize(hs.h, k)
	var sum float64
	for i, v := range hs.distinct {
		p := ws.Score(v)
		hs.h[i] = p
		sum += float64(p)
	}
	floor := float32(1 / float64(k))
	for i := range hs.h {
		if sum > 0 {
			hs.h[i] = float32(float64(hs.h[i])/sum) + floor
		} else {
			hs.h[i] = floor
		}
	}
	normalize(hs.h)

	for range iters {
		clear(hs.a)
		for _, e := range hs.edges {
			hs.a[e.dst] += float32(e.w * hs.h[e.src])
		}
		normalize(hs.a)
		clear(hs.h)
		for _, e := range hs.edges {
			hs.h[e.src] += float32(e.w * hs.a[e.dst])
		}
		normalize(hs.h)
	}

	for i, id := range hs.local {
		if id == noLocal {
			hs.auth[i], hs.hub[i] = 0, 0
			continue
		}
		hs.auth[i], hs.hub[i] = hs.a[id], hs.h[id]
	}
	return hs.auth, hs.hub
}

// growLocal sizes the node → local map for n nodes without disturbing the
// walk's state.
func (ws *Workspace) growLocal(n int) {
	if n <= len(ws.loc) {
		return
	}
	ws.locStamp = make([]uint32, n)
	ws.loc = make([]uint32, n)
	ws.locEp = 0
}

// normalize scales x to unit L2 norm; a zero vector stays zero.
func normalize(x []float32) {
	var ss float64
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	if !(ss > 0) || math.IsInf(ss, 0) {
		return
	}
	s := float32(1 / math.Sqrt(ss))
	for i := range x {
		x[i] *= s
	}
}

// resize returns a slice of length n, reusing s's storage when it can.
func resize(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
