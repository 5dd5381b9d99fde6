package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/knowing-dev/knowing/bm25"
)

const (
	benchNodes = 250_000
	benchEdges = 1_000_000
)

var bench struct {
	once  sync.Once
	dir   string
	path  string
	g     *Graph
	err   error
	names []string // lower-cased names that exist
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
	os.Exit(code)
}

// benchSnapshot builds the synthetic snapshot once per test binary.
func benchSnapshot(b *testing.B) (string, *Graph) {
	b.Helper()
	if testing.Short() {
		b.Skip("builds a 250,000-node snapshot")
	}
	bench.once.Do(func() {
		bench.g = syntheticGraph(benchNodes, benchEdges)
		if bench.dir, bench.err = os.MkdirTemp("", "snapshot-bench-"); bench.err != nil {
			return
		}
		bench.path = filepath.Join(bench.dir, "bench.snap")
		bench.err = Write(bench.path, bench.g, testOptions())
		for i := 0; i < len(bench.g.Nodes); i += 97 {
			bench.names = append(bench.names, strings.ToLower(bench.g.Nodes[i].Name))
		}
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.path, bench.g
}

func openBench(b *testing.B) *Snapshot {
	p, _ := benchSnapshot(b)
	s, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func reportGraphSize(b *testing.B, s *Snapshot) {
	g := len(s.sec(secGraphOut)) + len(s.sec(secGraphIn))
	b.ReportMetric(float64(g)/float64(s.NumEdges()), "graph-bytes/edge")
	b.ReportMetric(float64(s.Size())/(1<<20), "file-MiB")
}

func BenchmarkOpen(b *testing.B) {
	p, _ := benchSnapshot(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkLookupName looks up distinct names drawn uniformly from the
// name index (every 20th key), so common and rare names weigh the same.
func BenchmarkLookupName(b *testing.B) {
	s := openBench(b)
	var names []string
	it := s.NewNameIter()
	for k := 0; it.Next(); k++ {
		if k%20 == 0 {
			names = append(names, string(it.Key()))
		}
	}
	dst := make([]uint32, 0, 1<<16)
	b.ReportAllocs()
	i, ids := 0, 0
	for b.Loop() {
		dst = s.LookupName(names[i%len(names)], dst[:0])
		ids += len(dst)
		i++
	}
	b.ReportMetric(float64(ids)/float64(i), "ids/op")
}

// BenchmarkLookupNameUnique looks up names held by one node each.
func BenchmarkLookupNameUnique(b *testing.B) {
	s := openBench(b)
	var names []string
	for _, n := range bench.names {
		if len(s.LookupName(n, nil)) == 1 {
			names = append(names, n)
		}
	}
	dst := make([]uint32, 0, 16)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dst = s.LookupName(names[i%len(names)], dst[:0])
		i++
	}
}

func BenchmarkPrefixIter(b *testing.B) {
	s := openBench(b)
	it := s.NewNameIter()
	dst := make([]uint32, 0, 4096)
	prefixes := make([]string, 0, len(bench.names))
	for _, n := range bench.names {
		prefixes = append(prefixes, n[:min(3, len(n))])
	}
	b.ReportAllocs()
	i, keys := 0, 0
	for b.Loop() {
		it.Reset(prefixes[i%len(prefixes)])
		for k := 0; k < 50 && it.Next(); k++ {
			dst = it.Nodes(dst[:0])
			keys++
		}
		i++
	}
	b.ReportMetric(float64(keys)/float64(i), "keys/op")
}

func BenchmarkNeighbors(b *testing.B) {
	s := openBench(b)
	n := uint32(s.NumNodes())
	b.ReportAllocs()
	u, edges := uint32(0), 0
	for b.Loop() {
		for _, dir := range []Direction{Out, In} {
			it := s.Neighbors(u, dir)
			for it.Next() {
				edges++
			}
		}
		u = (u + 7919) % n
	}
	b.ReportMetric(float64(edges)/float64(b.N), "edges/op")
	reportGraphSize(b, s)
}

func BenchmarkBM25Top20(b *testing.B) {
	needBM25(b)
	s := openBench(b)
	ix, err := s.BM25()
	if err != nil {
		b.Fatal(err)
	}
	sr := bm25.NewSearcher(ix)
	// Three terms per query: a frequent word, a middling one, a rarer one
	// (Zipf ranks of the synthetic vocabulary).
	var queries [][]bm25.QueryTerm
	for _, ranks := range [][3]int{{3, 40, 400}, {8, 90, 900}, {15, 200, 1500}} {
		var q []bm25.QueryTerm
		for _, rk := range ranks {
			q = append(q, bm25.QueryTerm{Text: synthVocab.words[rk]})
		}
		queries = append(queries, q)
	}
	var dst []uint32
	for _, q := range queries {
		for _, t := range q {
			dst = s.LookupPart(t.Text, dst[:0])
			b.Logf("term %q: %d nodes with it as a name part", t.Text, len(dst))
		}
	}
	sr.Search(queries[0], 20)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if len(sr.Search(queries[i%len(queries)], 20)) == 0 {
			b.Fatal("no hits")
		}
		i++
	}
}

func BenchmarkSignature(b *testing.B) {
	s := openBench(b)
	n := uint32(s.NumNodes())
	b.ReportAllocs()
	u := uint32(0)
	for b.Loop() {
		if _, err := s.Signature(u); err != nil {
			b.Fatal(err)
		}
		u = (u + 7919) % n
	}
}

func BenchmarkWrite(b *testing.B) {
	_, g := benchSnapshot(b)
	p := filepath.Join(b.TempDir(), "w.snap")
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(p, g, testOptions()); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reportGraphSize(b, s)
}

func BenchmarkVerify(b *testing.B) {
	s := openBench(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteSmall writes a graph the size of a small repository
// (flask: 2,000 nodes), where fixed costs show.
func BenchmarkWriteSmall(b *testing.B) {
	g := syntheticGraph(2000, 8000)
	p := filepath.Join(b.TempDir(), "w.snap")
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(p, g, nil); err != nil {
			b.Fatal(err)
		}
	}
}
