package walk_test

import (
	"fmt"

	"github.com/knowing-dev/knowing/csr"
	"github.com/knowing-dev/knowing/snapshot"
	"github.com/knowing-dev/knowing/walk"
)

// A query: walk from the seeds, then run HITS on the top of the walk.
func Example() {
	calls := snapshot.PackAttr(snapshot.EdgeCalls, 1)
	// 0 and 1 are seeds; both call 2, which calls 3; 4 calls 3 too.
	fwd, rev, _ := csr.Build(5, []csr.Edge{
		{From: 0, To: 2, Attr: calls},
		{From: 1, To: 2, Attr: calls},
		{From: 2, To: 3, Attr: calls},
		{From: 4, To: 3, Attr: calls},
	})
	g, _ := csr.NewGraph(5, fwd, rev)

	ws := walk.NewWorkspace(g.NumNodes()) // one per goroutine, reused
	w := walk.DefaultWeights()            // shared, read-only
	top := ws.RWR(g, w, []walk.Seed{{Node: 0, Weight: 1}, {Node: 1, Weight: 1}}, walk.Options{TopK: 10})

	nodes := make([]uint32, len(top))
	for i, s := range top {
		nodes[i] = s.Node
	}
	auth, hub := ws.HITS(g, w, nodes, 0)
	for i, s := range top {
		fmt.Printf("node %d  rwr %.3f  authority %.2f  hub %.2f\n", s.Node, s.Score, auth[i], hub[i])
	}
	// Output:
	// node 2  rwr 0.360  authority 0.66  hub 0.53
	// node 3  rwr 0.212  authority 0.75  hub 0.00
	// node 0  rwr 0.172  authority 0.00  hub 0.47
	// node 1  rwr 0.172  authority 0.00  hub 0.47
	// node 4  rwr 0.085  authority 0.00  hub 0.53
}
