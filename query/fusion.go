package query

import "github.com/knowing-dev/knowing/snapshot"

// channelWeight is each channel's weight in reciprocal-rank fusion. Path
// context does not compete in fusion: it seeds the walk at low weight.
var channelWeight = [numChannels]float64{chTiered: tune.Tiered, chBM25: tune.BM25, chEquiv: tune.Equiv, chPath: tune.Path,
	chInterface: 1.0, chAlias: tune.Alias, chVector: tune.Vector}

const rrfK = 60

// fuse merges the channels' ranked lists by weighted reciprocal-rank
// fusion (step 4): a node at rank r of channel c gains
// channelWeight[c]/(rrfK+r). The implementors of matched interfaces and
// traits then join as a channel of their own.
func (e *Engine) fuse(ws *workspace, lists *[numChannels][]uint32) {
	for c := 0; c < numChannels; c++ {
		for r, id := range lists[c] {
			cd := ws.get(id)
			if cd.rank[c] == 0 {
				cd.rank[c] = int32(r + 1)
				cd.fused += channelWeight[c] / float64(rrfK+r+1)
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
				c.fused += channelWeight[chInterface] / float64(rrfK+r)
				added++
			}
		}
	}
}
