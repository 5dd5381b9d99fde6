package query

import (
	"cmp"
	"slices"

	"github.com/knowing-dev/knowing/snapshot"
	"github.com/knowing-dev/knowing/walk"
)

// Impacted is a symbol a change to the impact's subjects may break: a
// caller (transitively), an overrider, an implementer or subclass, a user
// of a changed type, or a test that exercises any of them.
type Impacted struct {
	Item
	Depth int     `json:"depth"` // edges from the nearest subject
	Via   string  `json:"via"`   // the edge that reached it: calls, overrides, implements, extends, references, tests
	From  string  `json:"from"`  // the symbol it was reached from
	Walk  float64 `json:"walk"`  // walk mass from the subjects, relative to the best
}

// impactEdges are the edges into a symbol whose source depends on it.
var impactEdges = [snapshot.NumEdgeTypes]bool{
	snapshot.EdgeCalls: true, snapshot.EdgeOverrides: true, snapshot.EdgeImplements: true,
	snapshot.EdgeExtends: true, snapshot.EdgeReferences: true,
}

// Impact lists the blast radius of a change to ids: every symbol that
// reaches one of them through calls, overrides, implements, extends or
// references edges, up to depth edges away, and the tests that exercise
// any of them (one edge further). They are ranked by the mass a random
// walk with restart from ids leaves on them (the walk the query pipeline
// runs), nearest first among equals (or, with nearestFirst, by depth
// first and walk mass within a depth), and packed: each in rank order
// that fits budget tokens, at most limit. total counts them all.
func (e *Engine) Impact(ids []uint32, depth, limit, budget int, nearestFirst bool) (out []Impacted, total int) {
	type hit struct {
		id, from uint32
		depth    int
		via      snapshot.EdgeType
		mass     float32 // the walk's mass on id
	}
	seen := map[uint32]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	var hits []hit
	frontier := slices.Clone(ids)
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []uint32
		for _, u := range frontier {
			it := e.s.Neighbors(u, snapshot.In)
			for it.Next() {
				v, t := it.Node(), it.Type()
				if int(t) >= len(impactEdges) || !impactEdges[t] || seen[v] {
					continue
				}
				if k := e.s.Kind(v); k == snapshot.KindFile || k == snapshot.KindPackage {
					continue
				}
				seen[v] = true
				hits = append(hits, hit{id: v, from: u, depth: d, via: t})
				next = append(next, v)
			}
		}
		frontier = next
	}
	// The tests of the subjects (depth 0) and of everything reached.
	tests := func(u uint32, d int) {
		it := e.s.Neighbors(u, snapshot.Out)
		for it.Next() {
			if v := it.Node(); it.Type() == snapshot.EdgeTestedBy && !seen[v] {
				seen[v] = true
				hits = append(hits, hit{id: v, from: u, depth: d + 1, via: snapshot.EdgeTests})
			}
		}
	}
	for _, u := range ids {
		tests(u, 0)
	}
	for i, n := 0, len(hits); i < n; i++ {
		tests(hits[i].id, hits[i].depth)
	}
	ws := e.getWorkspace()
	defer e.putWorkspace(ws)
	seeds := make([]walk.Seed, len(ids))
	for i, id := range ids {
		seeds[i] = walk.Seed{Node: id, Weight: 1}
	}
	ws.walk.RWR(e.s.Graph(), e.weights, seeds, walk.Options{Alpha: walkAlpha, TopK: 1})
	best := float32(0)
	for i := range hits {
		hits[i].mass = ws.walk.Score(hits[i].id)
		best = max(best, hits[i].mass)
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if nearestFirst && a.depth != b.depth {
			return cmp.Compare(a.depth, b.depth)
		}
		return cmp.Or(cmp.Compare(b.mass, a.mass), cmp.Compare(a.depth, b.depth), cmp.Compare(e.s.QName(a.id), e.s.QName(b.id)))
	})
	out = []Impacted{}
	used := 0
	for _, h := range hits {
		if limit > 0 && len(out) == limit {
			break
		}
		tok := e.tokens(h.id) // what Item charges, without decoding the signature
		if used+tok > budget {
			continue
		}
		used += tok
		w := 0.0
		if best > 0 {
			w = float64(h.mass / best)
		}
		out = append(out, Impacted{Item: e.Item(h.id, 0), Depth: h.depth, Via: h.via.String(), From: e.s.QName(h.from), Walk: w})
	}
	return out, len(hits)
}
