// Package csr holds an immutable directed multigraph in compressed-sparse-row
// form, readable straight from borrowed bytes (a memory mapping) without
// copying or decoding at open.
//
// # Encoding
//
// One adjacency (forward or reverse) is one byte blob: its offset tables,
// then the rows back to back, each a uvarint count and one uvarint per
// edge that packs the delta to the previous target with a short code for
// the edge's attribute byte. snapshot/FORMAT.md (graph.out and graph.in)
// specifies the bytes. Delta-coded targets keep a row small when a node's
// neighbours have nearby ids, which the extractor arranges by numbering
// the symbols of one file together; a 16-bit offset per row, from a base
// per 64 rows, keeps the offset tables at about 2 bytes a row. Rows are
// decoded sequentially by [Iter]; no random access to the k-th edge of a
// row is offered, and none is needed by the walks.
//
// The attribute byte is opaque to this package; the snapshot format packs
// the edge type and a confidence bucket into it.
//
// # Safety
//
// A view never panics on corrupt bytes: every offset is checked against the
// blob before use, and a row that runs past its end stops early, with
// [Iter.Err] reporting it. Every error about the bytes wraps [ErrCorrupt].
// A Graph and its Adjacency values are immutable and safe for concurrent
// use; an Iter belongs to one goroutine.
//
// # What it owns
//
// The adjacency encoding, its builder and its readers. It is the bottom
// layer: it must not import any other package of this module.
package csr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Edge is one directed edge given to [Build].
type Edge struct {
	From, To uint32
	Attr     uint8
}

// ErrCorrupt is wrapped by every error about adjacency bytes that do not
// decode. A caller that reads the adjacency from a larger file wraps such
// errors in its own sentinel as well (snapshot.ErrCorrupt), so that they
// match both.
var ErrCorrupt = errors.New("csr: corrupt adjacency")

// Build encodes the forward and reverse adjacency of a graph with n nodes in
// O(n + len(edges)) time, by three stable counting sorts into two reused
// buffers. Parallel edges are kept. An edge naming a node ≥ n is an error.
func Build(n int, edges []Edge) (fwd, rev []byte, err error) {
	if n < 0 || uint64(n) >= 1<<32-1 {
		return nil, nil, fmt.Errorf("csr: node count %d out of range", n)
	}
	for i, e := range edges {
		if int64(e.From) >= int64(n) || int64(e.To) >= int64(n) {
			return nil, nil, fmt.Errorf("csr: edge %d (%d→%d) names a node outside [0,%d)", i, e.From, e.To, n)
		}
	}
	a, b := make([]Edge, len(edges)), make([]Edge, len(edges))
	start := make([]int, n+1)
	// Sort by To, then stably by From: rows come out with ascending
	// targets.
	countingSort(a, start, edges, func(e Edge) uint32 { return e.To })
	countingSort(b, start, a, func(e Edge) uint32 { return e.From })
	if fwd, err = encode(n, b, func(e Edge) (uint32, uint32) { return e.From, e.To }); err != nil {
		return nil, nil, err
	}
	// Stably by To again: rows by target, ascending sources. Edges equal
	// in both stay in input order, as they would sorting the input by
	// From and then by To.
	countingSort(a, start, b, func(e Edge) uint32 { return e.To })
	if rev, err = encode(n, a, func(e Edge) (uint32, uint32) { return e.To, e.From }); err != nil {
		return nil, nil, err
	}
	return fwd, rev, nil
}

// countingSort writes in to out, stably sorted by key; start has room for
// one more than the largest key.
func countingSort(out []Edge, start []int, in []Edge, key func(Edge) uint32) {
	clear(start)
	for _, e := range in {
		start[key(e)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	for _, e := range in {
		k := key(e)
		out[start[k]] = e
		start[k]++
	}
}

// encode writes rows for edges already grouped by row and ascending by
// target within a row.
func encode(n int, sorted []Edge, rowTarget func(Edge) (uint32, uint32)) ([]byte, error) {
	// Number the distinct attributes, most frequent first.
	var freq [256]int
	for _, e := range sorted {
		freq[e.Attr]++
	}
	var attrs []byte
	for a := 0; a < 256; a++ {
		if freq[a] > 0 {
			attrs = append(attrs, byte(a))
		}
	}
	sort.SliceStable(attrs, func(i, j int) bool { return freq[attrs[i]] > freq[attrs[j]] })
	k := uint(0)
	for 1<<k < len(attrs) {
		k++
	}
	var code [256]uint64
	for c, a := range attrs {
		code[a] = uint64(c)
	}
	attrs = append(attrs, make([]byte, 1<<k-len(attrs))...)

	data := make([]byte, 0, len(sorted)*2+n)
	offs := make([]uint32, n+1)
	var tmp [binary.MaxVarintLen64]byte
	i := 0
	for u := 0; u < n; u++ {
		if len(data) >= maxData {
			return nil, fmt.Errorf("csr: more than %d bytes of rows", maxData)
		}
		offs[u] = uint32(len(data))
		j := i
		for j < len(sorted) {
			r, _ := rowTarget(sorted[j])
			if int(r) != u {
				break
			}
			j++
		}
		data = append(data, tmp[:binary.PutUvarint(tmp[:], uint64(j-i))]...)
		prev := uint32(0)
		for ; i < j; i++ {
			_, t := rowTarget(sorted[i])
			data = append(data, tmp[:binary.PutUvarint(tmp[:], uint64(t-prev)<<k|code[sorted[i].Attr])]...)
			prev = t
		}
	}
	if len(data) >= maxData {
		return nil, fmt.Errorf("csr: more than %d bytes of rows", maxData)
	}
	offs[n] = uint32(len(data))

	le := binary.LittleEndian
	nb := (n + 1 + blockRows - 1) / blockRows
	bases := make([]byte, 4*nb)
	rel := make([]byte, 2*(n+1))
	var wides []byte
	for b := 0; b < nb; b++ {
		blk := offs[b*blockRows : min((b+1)*blockRows, n+1)]
		if blk[len(blk)-1]-blk[0] <= 0xffff {
			le.PutUint32(bases[4*b:], blk[0])
			for k, o := range blk {
				le.PutUint16(rel[2*(b*blockRows+k):], uint16(o-blk[0]))
			}
			continue
		}
		le.PutUint32(bases[4*b:], wideBit|uint32(len(wides)/4))
		for _, o := range blk {
			wides = le.AppendUint32(wides, o)
		}
	}
	buf := make([]byte, 0, 5+len(attrs)+len(bases)+len(rel)+len(wides)+len(data))
	buf = le.AppendUint32(buf, uint32(len(wides)/4))
	buf = append(buf, byte(k))
	buf = append(buf, attrs...)
	buf = append(buf, bases...)
	buf = append(buf, rel...)
	buf = append(buf, wides...)
	return append(buf, data...), nil
}

const (
	blockRows = 64      // offsets per base
	wideBit   = 1 << 31 // a base marking a block of whole offsets
	maxData   = 1 << 31 // bound on the row data: bases keep bit 31 free
)

// Adjacency is one direction of a graph, a view over borrowed bytes. It is
// passed by value on every row access, so it stays small: the offset
// tables are one slice, with the positions of rel and wides in it.
type Adjacency struct {
	n     int
	offs  []byte // bases, rel, wides
	data  []byte
	attrs *[256]byte // the attribute table, zero past 1<<k
	rel   uint32     // offset of rel in offs
	wides uint32     // offset of wides in offs
	k     uint8      // attribute code bits
}

// HeaderSize is the number of bytes before the row data of an adjacency
// of n nodes with w wide offsets and k attribute code bits.
func HeaderSize(n, w int, k uint) uint64 {
	return 5 + 1<<k + 4*uint64((n+blockRows)/blockRows) + 2*(uint64(n)+1) + 4*uint64(w)
}

// NewAdjacency makes a view of an encoded adjacency for n nodes. It checks
// only that the offset tables fit; rows are checked as they are read, so
// the cost does not grow with the graph.
func NewAdjacency(n int, blob []byte) (Adjacency, error) {
	if n < 0 {
		return Adjacency{}, fmt.Errorf("%w: negative node count", ErrCorrupt)
	}
	if len(blob) < 5 {
		return Adjacency{}, fmt.Errorf("%w: %d bytes cannot hold offsets for %d nodes", ErrCorrupt, len(blob), n)
	}
	w, k := binary.LittleEndian.Uint32(blob), uint(blob[4])
	if w >= wideBit || k > 8 {
		return Adjacency{}, fmt.Errorf("%w: %d wide offsets, %d attribute bits", ErrCorrupt, w, k)
	}
	head := HeaderSize(n, int(w), k)
	if uint64(len(blob)) < head {
		return Adjacency{}, fmt.Errorf("%w: %d bytes cannot hold offsets for %d nodes", ErrCorrupt, len(blob), n)
	}
	if head > maxData {
		return Adjacency{}, fmt.Errorf("%w: offset tables of %d bytes", ErrCorrupt, head)
	}
	nb := uint64((n + blockRows) / blockRows)
	a := uint64(5 + 1<<k) // after the attribute table
	attrs := new([256]byte)
	copy(attrs[:], blob[5:a])
	return Adjacency{
		n:     n,
		attrs: attrs,
		offs:  blob[a:head:head],
		data:  blob[head:],
		rel:   uint32(4 * nb),
		wides: uint32(4*nb + 2*(uint64(n)+1)),
		k:     uint8(k),
	}, nil
}

// DataLen is the number of bytes of row data.
func (a Adjacency) DataLen() int { return len(a.data) }

// span returns offset(u) and offset(u+1), u < n, reporting false for a
// wide index outside the wide table.
func (a *Adjacency) span(u uint) (lo, hi uint32, ok bool) {
	b := binary.LittleEndian.Uint32(a.offs[4*(u/blockRows):])
	if b&wideBit == 0 && u%blockRows != blockRows-1 { // the common case
		r := a.offs[uint(a.rel)+2*u : uint(a.rel)+2*u+4]
		return b + uint32(binary.LittleEndian.Uint16(r)), b + uint32(binary.LittleEndian.Uint16(r[2:])), true
	}
	lo, ok1 := a.offset(u)
	hi, ok2 := a.offset(u + 1)
	return lo, hi, ok1 && ok2
}

// offset returns offset(i), 0 ≤ i ≤ n, reporting false for a wide index
// outside the wide table.
func (a *Adjacency) offset(i uint) (uint32, bool) {
	b := binary.LittleEndian.Uint32(a.offs[4*(i/blockRows):])
	if b&wideBit == 0 {
		return b + uint32(binary.LittleEndian.Uint16(a.offs[uint(a.rel)+2*i:])), true
	}
	w := uint64(b&^wideBit) + uint64(i%blockRows)
	if w >= uint64(len(a.offs)-int(a.wides))/4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(a.offs[uint64(a.wides)+4*w:]), true
}

// NumNodes is the number of rows.
func (a Adjacency) NumNodes() int { return a.n }

// Row returns an iterator over the edges of node u. A u out of range gives
// an empty iterator.
func (a Adjacency) Row(u uint32) Iter {
	var it Iter
	it.Reset(a, u)
	return it
}

// Degree returns the number of edges of node u (0 for a bad row).
func (a Adjacency) Degree(u uint32) int {
	it := a.Row(u)
	return it.left
}

// Iter walks one row. The zero value is an empty row.
type Iter struct {
	data  []byte
	attrs *[256]byte // the adjacency's attribute table
	pos   int
	left  int
	prev  uint64
	k     uint8
	bad   bool

	// Node and Attr describe the current edge after Next returns true.
	Node uint32
	Attr uint8
}

// Reset points the iterator at row u of a, reusing it without allocation.
func (it *Iter) Reset(a Adjacency, u uint32) {
	*it = Iter{}
	if int64(u) >= int64(a.n) {
		return
	}
	lo, hi, ok := a.span(uint(u))
	if !ok || lo > hi || uint64(hi) > uint64(len(a.data)) {
		it.bad = true
		return
	}
	row := a.data[lo:hi]
	cnt, k := binary.Uvarint(row)
	if k <= 0 || cnt > uint64(len(row)) {
		it.bad = true
		return
	}
	it.data, it.pos, it.left = row, k, int(cnt)
	it.attrs, it.k = a.attrs, a.k
}

// Len is the number of edges not yet returned.
func (it *Iter) Len() int { return it.left }

// Next advances to the next edge.
func (it *Iter) Next() bool {
	if it.left == 0 {
		return false
	}
	p := it.pos
	if p >= len(it.data) {
		it.bad, it.left = true, 0
		return false
	}
	var v uint64
	if b := it.data[p]; b < 0x80 { // most edges: one or two bytes
		v = uint64(b)
		p++
	} else if p+1 < len(it.data) && it.data[p+1] < 0x80 {
		v = uint64(b&0x7f) | uint64(it.data[p+1])<<7
		p += 2
	} else {
		var k int
		if v, k = binary.Uvarint(it.data[p:]); k <= 0 {
			it.bad, it.left = true, 0
			return false
		}
		p += k
	}
	node := it.prev + v>>it.k
	if node > 1<<32-1 {
		it.bad, it.left = true, 0
		return false
	}
	// attrs is set whenever a row has edges left (Reset sets both).
	it.pos, it.prev = p, node
	it.left--
	it.Node, it.Attr = uint32(node), it.attrs[uint8(v)&(1<<it.k-1)]
	return true
}

// Err reports whether the row was found corrupt while reading it.
func (it *Iter) Err() error {
	if it.bad {
		return ErrCorrupt
	}
	return nil
}

// Graph is a forward and a reverse adjacency over the same nodes.
type Graph struct {
	Out Adjacency // edges u→v, in row u
	In  Adjacency // the same edges, in row v
}

// NewGraph makes a view of both directions.
func NewGraph(n int, fwd, rev []byte) (*Graph, error) {
	out, err := NewAdjacency(n, fwd)
	if err != nil {
		return nil, fmt.Errorf("forward: %w", err)
	}
	in, err := NewAdjacency(n, rev)
	if err != nil {
		return nil, fmt.Errorf("reverse: %w", err)
	}
	return &Graph{Out: out, In: in}, nil
}

// NumNodes is the number of nodes.
func (g *Graph) NumNodes() int { return g.Out.n }

// Validate decodes every row of both directions and checks that they hold
// the same number of edges. It costs O(V+E); use it when verifying a file.
func (g *Graph) Validate() error {
	var total [2]int
	for d, a := range []Adjacency{g.Out, g.In} {
		var it Iter
		for u := 0; u < a.n; u++ {
			it.Reset(a, uint32(u))
			for it.Next() {
				if int(it.Node) >= a.n {
					return fmt.Errorf("%w: row %d names node %d of %d", ErrCorrupt, u, it.Node, a.n)
				}
				total[d]++
			}
			if it.bad {
				return fmt.Errorf("%w: row %d", ErrCorrupt, u)
			}
		}
	}
	if total[0] != total[1] {
		return fmt.Errorf("%w: %d forward edges but %d reverse", ErrCorrupt, total[0], total[1])
	}
	return nil
}
