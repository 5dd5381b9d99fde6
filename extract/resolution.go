package extract

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// Reusing a prior build's resolution. Resolving reads a file's path,
// language, package, scope, imports, includes, its symbols' names,
// kinds, flags, parents, receivers, types, bases and commits, and its
// references' names and kinds, but not where they are (lines), nor a
// symbol's signature, doc, body words or history text, which only
// become the fields of its node (C and C++ aside: their declarations
// and definitions are matched by signature, and a definition takes its
// declaration's doc). So when every file's resolution key (those fields
// it reads, every field for C and C++) is the prior build's, file for
// file, the graph is the prior's with the nodes' lines and texts and the
// files' stamps taken from this build: resolving again would give it
// exactly.

// resolutionKey fingerprints what resolving reads of f.
func resolutionKey(f *FileResult) uint64 {
	var e enc
	whole := includesLang(f)
	e.str(f.Path)
	e.uvarint(uint64(f.Lang))
	e.uvarint(uint64(f.Flags))
	e.str(f.Package)
	e.str(f.Scope)
	e.uvarint(uint64(len(f.Symbols)))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		e.str(s.Name)
		e.str(s.Qual)
		e.uvarint(uint64(s.Kind))
		e.uvarint(uint64(s.Flags))
		e.uvarint(uint64(int64(s.Parent)))
		e.str(s.Receiver)
		e.str(s.Type)
		e.strs(s.Extends)
		e.strs(s.Implements)
		if s.Decl {
			e.uvarint(1)
		} else {
			e.uvarint(0)
		}
		e.uvarint(uint64(len(s.Commits)))
		for _, c := range s.Commits {
			e.uvarint(uint64(int64(c)))
		}
		if whole {
			e.uvarint(uint64(s.Start))
			e.uvarint(uint64(s.End))
			e.str(s.Signature)
			e.str(s.Doc)
			e.str(s.Body)
			e.str(s.Text)
			e.str(s.History)
		}
	}
	e.uvarint(uint64(len(f.Refs)))
	for i := range f.Refs {
		r := &f.Refs[i]
		e.uvarint(uint64(int64(r.From)))
		e.uvarint(uint64(r.Kind))
		e.str(r.Name)
		e.str(r.Qual)
		e.str(r.QualType)
		if whole {
			e.uvarint(uint64(r.Line))
		}
	}
	e.uvarint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.str(im.Path)
		e.str(im.Name)
		e.str(im.Alias)
	}
	e.strs(f.Includes)
	return snapshot.Fingerprint(e.b)
}

// priorGraph is a build's resolved graph, kept for the next build.
type priorGraph struct {
	keys    []uint64 // the resolution key of each file, in path order
	files   []snapshot.File
	nodes   []snapshot.Node
	symFile []int32 // the file of each node's symbol, or -1
	symIdx  []int32 // the symbol's index in its file, or -1
	edges   []snapshot.Edge
	// raw is its encoding, when it was decoded from one and is kept as
	// it was (encode copies it).
	raw []byte
}

// patched reports a node whose lines and texts come from its symbol in
// the build that reuses the graph (and are not kept).
func (pg *priorGraph) patched(id int, files []*FileResult) bool {
	fi, si := pg.symFile[id], pg.symIdx[id]
	return fi >= 0 && si >= 0 && int(fi) < len(files) && !includesLang(files[fi])
}

// reuse returns the graph of results (in path order, with their keys)
// when every file's key is the one pg was resolved from; else nil. The
// graph shares pg's edges, which neither may change.
func (pg *priorGraph) reuse(results []*FileResult, keys []uint64) *snapshot.Graph {
	if pg == nil || !slices.Equal(pg.keys, keys) || len(pg.files) != len(results) || len(pg.symFile) != len(pg.nodes) {
		return nil
	}
	g := &snapshot.Graph{Files: slices.Clone(pg.files), Nodes: slices.Clone(pg.nodes), Edges: pg.edges}
	for i, f := range results {
		gf := &g.Files[i]
		if gf.Path != f.Path {
			return nil
		}
		gf.Size, gf.ModTime, gf.Hash = uint64(f.Size), f.ModTime, f.Hash
	}
	for id := range g.Nodes {
		if !pg.patched(id, results) {
			continue
		}
		fi, si := pg.symFile[id], pg.symIdx[id]
		if int(si) >= len(results[fi].Symbols) {
			return nil
		}
		s := &results[fi].Symbols[si]
		n := &g.Nodes[id]
		n.StartLine, n.EndLine = s.Start, s.End
		n.Signature, n.Doc, n.Body, n.Text, n.History = s.Signature, s.Doc, s.Body, s.Text, s.History
	}
	return g
}

// encode appends pg to e: the patched nodes without their lines and
// texts, which the next build takes from its symbols.
func (pg *priorGraph) encode(e *enc, files []*FileResult, flush func(int) error) error {
	if pg.raw != nil {
		if err := flush(0); err != nil {
			return err
		}
		e.b = append(e.b, pg.raw...)
		return flush(0)
	}
	e.uvarint(uint64(len(pg.keys)))
	for _, k := range pg.keys {
		e.b = binary.LittleEndian.AppendUint64(e.b, k)
	}
	e.uvarint(uint64(len(pg.files)))
	for _, f := range pg.files {
		e.str(f.Path)
		e.b = append(e.b, byte(f.Lang))
		e.uvarint(uint64(f.Flags))
	}
	e.uvarint(uint64(len(pg.nodes)))
	for id := range pg.nodes {
		n := &pg.nodes[id]
		e.varint(int64(pg.symFile[id]))
		e.varint(int64(pg.symIdx[id]))
		e.str(n.Name)
		e.str(n.QName)
		e.b = append(e.b, byte(n.Kind), byte(n.Lang))
		e.uvarint(uint64(n.Flags))
		e.varint(int64(n.File))
		e.uvarint(uint64(n.Changed))
		e.uvarint(uint64(n.Churn))
		if err := flush(1 << 16); err != nil {
			return err
		}
		if pg.patched(id, files) {
			e.b = append(e.b, 1)
			continue
		}
		e.b = append(e.b, 0)
		e.uvarint(uint64(n.StartLine))
		e.uvarint(uint64(n.EndLine))
		e.str(n.Signature)
		e.str(n.Doc)
		e.str(n.Body)
		e.str(n.Text)
		e.str(n.History)
	}
	e.uvarint(uint64(len(pg.edges)))
	for _, ed := range pg.edges {
		e.b = binary.LittleEndian.AppendUint32(e.b, ed.From)
		e.b = binary.LittleEndian.AppendUint32(e.b, ed.To)
		e.b = append(e.b, byte(ed.Type))
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(ed.Confidence))
		if err := flush(1 << 16); err != nil {
			return err
		}
	}
	return nil
}

// sortedResults is p's files' results in path order, as a graph
// resolved from them has its files.
func (p *Prior) sortedResults() []*FileResult {
	out := make([]*FileResult, 0, len(p.files))
	for _, pf := range p.files {
		out = append(out, pf.r)
	}
	slices.SortFunc(out, func(a, b *FileResult) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// graph reads what priorGraph.encode wrote.
func (d *dec) graph() *priorGraph {
	at := d.b
	pg := &priorGraph{}
	defer func() { pg.raw = at[:len(at)-len(d.b)] }()
	pg.keys = make([]uint64, d.count())
	for i := range pg.keys {
		pg.keys[i] = d.u64()
	}
	pg.files = make([]snapshot.File, d.count())
	for i := range pg.files {
		f := &pg.files[i]
		f.Path, f.Lang, f.Flags = d.str(), snapshot.Lang(d.byte()), snapshot.Flags(d.uvarint())
	}
	nn := d.count()
	pg.nodes = make([]snapshot.Node, nn)
	pg.symFile, pg.symIdx = make([]int32, nn), make([]int32, nn)
	for id := range pg.nodes {
		n := &pg.nodes[id]
		pg.symFile[id], pg.symIdx[id] = d.i32(), d.i32()
		n.Name, n.QName = d.str(), d.str()
		n.Kind, n.Lang = snapshot.Kind(d.byte()), snapshot.Lang(d.byte())
		n.Flags = snapshot.Flags(d.uvarint())
		n.File = d.i32()
		n.Changed, n.Churn = uint16(d.uvarint()), uint16(d.uvarint())
		if d.byte() == 1 || d.err != nil {
			continue
		}
		n.StartLine, n.EndLine = d.u32(), d.u32()
		n.Signature, n.Doc, n.Body, n.Text, n.History = d.str(), d.str(), d.str(), d.str(), d.str()
	}
	ne := d.uvarint()
	if ne > uint64(len(d.b))/13 {
		d.fail("edges beyond the data")
		return nil
	}
	pg.edges = make([]snapshot.Edge, ne)
	for i := range pg.edges {
		b := d.b[13*i:]
		pg.edges[i] = snapshot.Edge{From: binary.LittleEndian.Uint32(b), To: binary.LittleEndian.Uint32(b[4:]),
			Type: snapshot.EdgeType(b[8]), Confidence: math.Float32frombits(binary.LittleEndian.Uint32(b[9:]))}
	}
	d.b = d.b[13*ne:]
	return pg
}
