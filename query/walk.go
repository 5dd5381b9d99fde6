package query

import "github.com/knowing-dev/knowing/walk"

// hitsSize is how many of the walk's best nodes HITS scores.
const hitsSize = 200

// walkAlpha is the restart probability of the pipeline's walk, and of
// Impact's, which ranks by the same walk.
const walkAlpha = 0.2

// walkFrom spreads the evidence from the seeds over the graph (step 6): a
// random walk with restart (forward push, alpha 0.2) from the seeds, best
// first at weight 1 down to 0.4, and from the path context at 0.3; then
// HITS on the walk's top hitsSize nodes. Each node reached gets its walk
// score, authority and hub. It returns how many nodes the walk ranked and
// how many pushes it made.
func (e *Engine) walkFrom(ws *workspace, seeds, pathContext []uint32) (walked, pushes int) {
	// Path context joins the walk as low-weight seeds.
	walkSeeds := make([]walk.Seed, 0, len(seeds)+len(pathContext))
	for i, id := range seeds {
		w := float32(1.0 - 0.6*float64(i)/float64(max(1, len(seeds)-1)))
		walkSeeds = append(walkSeeds, walk.Seed{Node: id, Weight: w})
	}
	for _, id := range pathContext {
		walkSeeds = append(walkSeeds, walk.Seed{Node: id, Weight: 0.3})
	}
	top := ws.walk.RWR(e.s.Graph(), e.weights, walkSeeds, walk.Options{Alpha: walkAlpha, TopK: hitsSize})
	nodes := make([]uint32, len(top))
	for i, sc := range top {
		nodes[i] = sc.Node
	}
	auth, hub := ws.walk.HITS(e.s.Graph(), e.weights, nodes, 20)
	for i, sc := range top {
		cd := ws.get(sc.Node)
		cd.walkP = sc.Score
		cd.auth, cd.hub = auth[i], hub[i]
	}
	for _, id := range seeds {
		if cd := ws.lookup(id); cd != nil && cd.walkP == 0 {
			cd.walkP = ws.walk.Score(id)
		}
	}
	return len(top), ws.walk.Stats().Pushes
}
