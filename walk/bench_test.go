package walk

import (
	"fmt"
	"testing"
)

// BenchmarkRWR walks from 20 seeds on synthetic graphs of two sizes; the
// time per walk should not grow with the graph.
func BenchmarkRWR(b *testing.B) {
	for _, size := range []struct{ n, m int }{{10_000, 40_000}, {250_000, 1_000_000}} {
		g := synthGraph(b, size.n, size.m, 1)
		seeds := make([][]Seed, 16)
		for i := range seeds {
			seeds[i] = randomSeeds(size.n, 20, int64(i+2))
		}
		b.Run(fmt.Sprintf("n=%d/m=%d", size.n, size.m), func(b *testing.B) {
			ws := NewWorkspace(size.n)
			ws.RWR(g, nil, seeds[0], Options{})
			work, reached, scored := 0, 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ws.RWR(g, nil, seeds[i%len(seeds)], Options{})
				work += ws.Stats().Work
				reached += ws.Stats().Reached
				scored += len(ws.Touched())
			}
			b.ReportMetric(float64(work)/float64(b.N), "edges/op")
			b.ReportMetric(float64(reached)/float64(b.N), "reached/op")
			b.ReportMetric(float64(scored)/float64(b.N), "scored/op")
		})
	}
}

// BenchmarkHITS runs HITS on the top 200 of a walk.
func BenchmarkHITS(b *testing.B) {
	g := synthGraph(b, 250_000, 1_000_000, 1)
	ws := NewWorkspace(250_000)
	nodes := make([]uint32, 0, 200)
	for _, s := range ws.RWR(g, nil, randomSeeds(250_000, 20, 2), Options{TopK: 200}) {
		nodes = append(nodes, s.Node)
	}
	w := DefaultWeights()
	ws.HITS(g, w, nodes, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws.HITS(g, w, nodes, 0)
	}
	b.ReportMetric(float64(len(ws.hits.edges)), "edges")
}
