package csr

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

func collect(a Adjacency, u uint32) []Edge {
	var out []Edge
	it := a.Row(u)
	for it.Next() {
		out = append(out, Edge{From: u, To: it.Node, Attr: it.Attr})
	}
	return out
}

func TestBuildRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const n = 500
	var edges []Edge
	for i := 0; i < 3000; i++ {
		edges = append(edges, Edge{From: uint32(rng.Intn(n)), To: uint32(rng.Intn(n)), Attr: uint8(rng.Intn(12))})
	}
	edges = append(edges, edges[7]) // a parallel edge survives
	fwd, rev, err := Build(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGraph(n, fwd, rev)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	key := func(e Edge) [3]uint32 { return [3]uint32{e.From, e.To, uint32(e.Attr)} }
	want := map[[3]uint32]int{}
	for _, e := range edges {
		want[key(e)]++
	}
	gotOut, gotIn := map[[3]uint32]int{}, map[[3]uint32]int{}
	for u := uint32(0); u < n; u++ {
		row := collect(g.Out, u)
		if !sort.SliceIsSorted(row, func(i, j int) bool { return row[i].To < row[j].To }) {
			t.Fatalf("row %d not ascending", u)
		}
		if g.Out.Degree(u) != len(row) {
			t.Fatalf("degree %d != %d", g.Out.Degree(u), len(row))
		}
		for _, e := range row {
			gotOut[key(e)]++
		}
		for _, e := range collect(g.In, u) {
			gotIn[key(Edge{From: e.To, To: e.From, Attr: e.Attr})]++
		}
	}
	for k, c := range want {
		if gotOut[k] != c || gotIn[k] != c {
			t.Fatalf("edge %v: want %d, out %d, in %d", k, c, gotOut[k], gotIn[k])
		}
	}
	if len(gotOut) != len(want) || len(gotIn) != len(want) {
		t.Fatalf("extra edges: out %d in %d want %d", len(gotOut), len(gotIn), len(want))
	}
}

func TestBuildRejectsOutOfRange(t *testing.T) {
	if _, _, err := Build(3, []Edge{{From: 0, To: 3}}); err == nil {
		t.Fatal("want error for edge to node 3 of 3")
	}
}

func TestCorruptNeverPanics(t *testing.T) {
	fwd, _, err := Build(50, []Edge{{0, 1, 1}, {0, 49, 2}, {3, 4, 0}, {49, 0, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewAdjacency(50, fwd[:10]); err == nil {
		t.Fatal("truncated offsets accepted")
	}
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 2000; trial++ {
		b := append([]byte(nil), fwd...)
		for k := 0; k < 1+rng.Intn(4); k++ {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if head := int(HeaderSize(50, 0, uint(fwd[4]))); rng.Intn(3) == 0 {
			b = b[:head+rng.Intn(len(b)-head)]
		}
		a, err := NewAdjacency(50, b)
		if err != nil {
			continue
		}
		for u := uint32(0); u < 52; u++ {
			it := a.Row(u)
			for it.Next() {
			}
			_ = it.Err()
		}
		g := &Graph{Out: a, In: a}
		_ = g.Validate()
	}
}

// TestWideBlocks builds rows too long for 16-bit offsets: their blocks
// store whole offsets, and rows in other blocks stay compact.
func TestWideBlocks(t *testing.T) {
	const n = 200
	var edges []Edge
	for i := 0; i < 80000; i++ { // row 3: about 80 KB
		edges = append(edges, Edge{From: 3, To: uint32(i % n), Attr: uint8(i % 7)})
	}
	for u := uint32(0); u < n; u++ {
		edges = append(edges, Edge{From: u, To: (u * 7) % n, Attr: 1})
	}
	fwd, rev, err := Build(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGraph(n, fwd, rev)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if w := binary.LittleEndian.Uint32(fwd); w != blockRows {
		t.Fatalf("%d wide offsets in the forward direction, want one block's", w)
	}
	if d := g.Out.Degree(3); d != 80001 {
		t.Fatalf("row 3: degree %d", d)
	}
	for u := uint32(0); u < n; u++ {
		want := 1
		if u == 3 {
			want = 80001
		}
		if row := collect(g.Out, u); len(row) != want {
			t.Fatalf("row %d: %d edges, want %d", u, len(row), want)
		}
	}
	// Damage the wide table: rows report it, nothing panics.
	b := append([]byte(nil), fwd...)
	binary.LittleEndian.PutUint32(b[HeaderSize(n, 0, uint(fwd[4])):], 1<<30)
	a, err := NewAdjacency(n, b)
	if err != nil {
		t.Fatal(err)
	}
	it := a.Row(0)
	for it.Next() {
	}
	if it.Err() == nil {
		t.Fatal("a wide offset past the data went unnoticed")
	}
}

func TestIterAllocs(t *testing.T) {
	fwd, rev, _ := Build(4, []Edge{{0, 1, 1}, {0, 2, 1}, {1, 3, 2}})
	g, _ := NewGraph(4, fwd, rev)
	var it Iter
	sum := uint32(0)
	allocs := testing.AllocsPerRun(100, func() {
		for u := uint32(0); u < 4; u++ {
			it.Reset(g.Out, u)
			for it.Next() {
				sum += it.Node
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("neighbour iteration allocates %v times", allocs)
	}
}

func BenchmarkBuild1M(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	const n = 250000
	edges := make([]Edge, 1000000)
	for i := range edges {
		edges[i] = Edge{From: uint32(rng.Intn(n)), To: uint32(rng.Intn(n)), Attr: uint8(rng.Intn(12))}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fwd, rev, _ := Build(n, edges)
		b.ReportMetric(float64(len(fwd)+len(rev))/float64(len(edges)), "bytes/edge")
	}
}

func BenchmarkRowIteration(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	const n = 250000
	edges := make([]Edge, 1000000)
	for i := range edges {
		edges[i] = Edge{From: uint32(rng.Intn(n)), To: uint32(rng.Intn(n)), Attr: uint8(rng.Intn(12))}
	}
	fwd, rev, _ := Build(n, edges)
	g, _ := NewGraph(n, fwd, rev)
	b.ReportAllocs()
	b.ResetTimer()
	var it Iter
	s := uint32(0)
	for i := 0; i < b.N; i++ {
		it.Reset(g.Out, uint32(i%n))
		for it.Next() {
			s += it.Node
		}
	}
	_ = s
}

// TestAttrCodes round-trips every attribute byte (k = 8) and a single one
// (k = 0), and rejects a code width above 8 bits.
func TestAttrCodes(t *testing.T) {
	for _, distinct := range []int{256, 1} {
		const n = 300
		var edges []Edge
		for i := 0; i < 2000; i++ {
			edges = append(edges, Edge{From: uint32(i % n), To: uint32((i * 37) % n), Attr: uint8(i % distinct)})
		}
		fwd, rev, err := Build(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGraph(n, fwd, rev)
		if err != nil {
			t.Fatal(err)
		}
		want := map[Edge]int{}
		for _, e := range edges {
			want[e]++
		}
		for u := uint32(0); u < n; u++ {
			for _, e := range collect(g.Out, u) {
				want[e]--
			}
		}
		for e, c := range want {
			if c != 0 {
				t.Fatalf("%d attributes: edge %v off by %d", distinct, e, c)
			}
		}
		bad := append([]byte(nil), fwd...)
		bad[4] = 9
		if _, err := NewAdjacency(n, bad); err == nil {
			t.Fatal("9 code bits accepted")
		}
	}
}

// TestBuildOrderMatchesStableSort: rows hold their edges in the order of
// a stable sort of the input, by (From, To) forward and by (To, From)
// backward, parallel edges with different attributes included.
func TestBuildOrderMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const n = 40
	var edges []Edge
	for i := 0; i < 4000; i++ { // dense: many parallel edges
		edges = append(edges, Edge{From: uint32(rng.Intn(n)), To: uint32(rng.Intn(n)), Attr: uint8(rng.Intn(200))})
	}
	fwd, rev, err := Build(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	byFrom := slices.Clone(edges)
	sort.SliceStable(byFrom, func(i, j int) bool {
		a, b := byFrom[i], byFrom[j]
		return a.From < b.From || a.From == b.From && a.To < b.To
	})
	byTo := slices.Clone(edges)
	sort.SliceStable(byTo, func(i, j int) bool {
		a, b := byTo[i], byTo[j]
		return a.To < b.To || a.To == b.To && a.From < b.From
	})
	wantFwd, err := encode(n, byFrom, func(e Edge) (uint32, uint32) { return e.From, e.To })
	if err != nil {
		t.Fatal(err)
	}
	wantRev, err := encode(n, byTo, func(e Edge) (uint32, uint32) { return e.To, e.From })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fwd, wantFwd) || !bytes.Equal(rev, wantRev) {
		t.Fatal("rows are not in stable-sort order")
	}
}
