package query

import "github.com/knowing-dev/knowing/snapshot"

// rrfK damps the reciprocal ranks of fusion: a rank r counts
// 1/(rrfK+r), so the first places of a list differ little.
const rrfK = 60

// fuse merges the channels' ranked lists by weighted reciprocal-rank
// fusion (step 4): a node at 1-based rank r of channel c gains
// e.fusion[c]/(rrfK+r), the channel's weight (Tuning) over its damped
// rank. The implementors of matched interfaces and traits then join as a
// channel of their own.
func (e *Engine) fuse(ws *workspace, lists *[numChannels][]uint32) {
	for c := 0; c < numChannels; c++ {
		for r, id := range lists[c] {
			cd := ws.get(id)
			if cd.rank[c] == 0 {
				cd.rank[c] = int32(r + 1)
				cd.fused += e.fusion[c] / float64(rrfK+r+1)
			}
		}
	}
	e.interfaceSeeds(ws)
}

// interfaceSeeds adds the implementors of matched interfaces and traits.
func (e *Engine) interfaceSeeds(ws *workspace) {
	n := len(ws.cand)
	r := 0
	for i := 0; i < n; i++ {
		cd := ws.cand[i]
		if cd.fused == 0 {
			continue
		}
		k := e.s.Kind(cd.id)
		if k != snapshot.KindInterface && k != snapshot.KindTrait {
			continue
		}
		it := e.s.Neighbors(cd.id, snapshot.In)
		added := 0
		for it.Next() && added < 10 {
			if it.Type() != snapshot.EdgeImplements {
				continue
			}
			c := ws.get(it.Node())
			if c.rank[chInterface] == 0 {
				r++
				c.rank[chInterface] = int32(r)
				c.fused += e.fusion[chInterface] / float64(rrfK+r)
				added++
			}
		}
	}
}
