package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash"
	"hash/crc32"
	"math"
	"runtime"
	"sync"

	"github.com/knowing-dev/knowing/bm25"
)

// Reusing sections of an earlier snapshot. The costly sections of a
// snapshot (the adjacency, the name and part lookups, the two BM25
// indexes, the cold data) are each a function of a few fields of the
// graph. A write fingerprints those fields per group of sections (the
// group's key) and records the keys in a Memo; a later write of another
// graph whose fields are the same for a group copies that group's bytes
// from the earlier snapshot instead of building them again. An
// incremental build whose edit leaves the node ids where they were (a
// comment, a changed function body) then rebuilds only what the edit
// changed. The file is the one a write without reuse makes, byte for byte:
// a key covers every field its sections are built from, and the bytes
// copied are checked against the checksums the Memo recorded.

// reuseGroup is a set of sections built from the same fields.
type reuseGroup uint8

const (
	groupGraph reuseGroup = iota // graph.out, graph.in: the edges
	groupKeys                    // names and parts: the names, and which nodes BM25 serves
	groupBM25                    // bm25.*: the BM25 documents
	groupBody                    // body.*: the body words
	groupCold                    // cold.*: the signatures and docs
	numGroups
)

var groupNames = [numGroups]string{"graph", "keys", "bm25", "body", "cold"}

var groupSections = [numGroups][]sectionID{
	groupGraph: {secGraphOut, secGraphIn},
	groupKeys:  {secNamesFST, secNamesIDs, secPartsFST, secPartsIDs},
	groupBM25:  {secBM25Terms, secBM25Postings, secBM25Stats},
	groupBody:  {secBodyTerms, secBodyPostings, secBodyStats},
	groupCold:  {secColdIndex, secColdData},
}

// builds reports whether a write with o makes group grp's sections:
// without BM25 it makes no BM25 or body index.
func (o *WriteOptions) builds(grp reuseGroup) bool {
	return !o.NoBM25 || (grp != groupBM25 && grp != groupBody)
}

// keyVersion changes whenever what a key covers, or how a group's
// sections are built from it, changes: a Memo of another version keys
// nothing this writer can reuse.
const keyVersion = 1

// Memo is what a write's costly sections were built from: per group, the
// key of its fields and the checksums of the sections it made. Pass it
// to OpenReuse with the snapshot that write made.
type Memo struct {
	groups [numGroups]memoGroup
}

type memoGroup struct {
	ok   bool
	key  uint64
	crcs []uint32 // of groupSections[g], in order
	// The name and part key counts the metadata records (groupKeys).
	nameKeys, partKeys int
}

const memoMagic = "KNOWMEMO"

// Marshal encodes m, tagged with id (the caller's: say, the program that
// wrote the snapshot).
func (m *Memo) Marshal(id string) []byte {
	b := append([]byte(memoMagic), byte(keyVersion))
	b = binary.AppendUvarint(b, uint64(len(id)))
	b = append(b, id...)
	for g := range numGroups {
		mg := &m.groups[g]
		if !mg.ok {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint64(b, mg.key)
		for _, c := range mg.crcs {
			b = binary.LittleEndian.AppendUint32(b, c)
		}
		b = binary.AppendUvarint(b, uint64(mg.nameKeys))
		b = binary.AppendUvarint(b, uint64(mg.partKeys))
	}
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

// UnmarshalMemo decodes what Marshal encoded with the same id; damaged
// or foreign bytes give an error.
func UnmarshalMemo(b []byte, id string) (*Memo, error) {
	bad := errors.New("snapshot: not a memo of this writer")
	if len(b) < len(memoMagic)+5 || string(b[:len(memoMagic)]) != memoMagic || b[len(memoMagic)] != keyVersion ||
		checksum(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, bad
	}
	b = b[len(memoMagic)+1 : len(b)-4]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || string(b[k:k+int(n)]) != id {
		return nil, bad
	}
	b = b[k+int(n):]
	m := &Memo{}
	for g := range numGroups {
		if len(b) < 1 {
			return nil, bad
		}
		ok := b[0] == 1
		b = b[1:]
		if !ok {
			continue
		}
		mg := &m.groups[g]
		need := 8 + 4*len(groupSections[g])
		if len(b) < need {
			return nil, bad
		}
		mg.ok, mg.key = true, binary.LittleEndian.Uint64(b)
		for i := range groupSections[g] {
			mg.crcs = append(mg.crcs, binary.LittleEndian.Uint32(b[8+4*i:]))
		}
		b = b[need:]
		for _, p := range []*int{&mg.nameKeys, &mg.partKeys} {
			v, k := binary.Uvarint(b)
			if k <= 0 || v > math.MaxInt32 {
				return nil, bad
			}
			*p, b = int(v), b[k:]
		}
	}
	if len(b) != 0 {
		return nil, bad
	}
	return m, nil
}

// Reuse is an earlier snapshot whose sections a write may copy
// (WriteOptions.Reuse), with the Memo of the write that made it.
type Reuse struct {
	s    *Snapshot
	memo *Memo
	used [numGroups]bool
}

// OpenReuse opens the snapshot at path, which the write that gave m
// made, for a later write to copy sections from. Write closes it.
func OpenReuse(path string, m *Memo) (*Reuse, error) {
	if m == nil {
		return nil, errors.New("snapshot: no memo")
	}
	s, err := Open(path)
	if err != nil {
		return nil, err
	}
	return &Reuse{s: s, memo: m}, nil
}

// Close releases the earlier snapshot.
func (r *Reuse) Close() error {
	if r == nil || r.s == nil {
		return nil
	}
	err := r.s.Close()
	r.s = nil
	return err
}

// Reused names the groups of sections the write copied ("graph",
// "keys", "bm25", "body", "cold").
func (r *Reuse) Reused() []string {
	var out []string
	if r == nil {
		return out
	}
	for g := range numGroups {
		if r.used[g] {
			out = append(out, groupNames[g])
		}
	}
	return out
}

// take returns copies of group g's sections when the earlier write built
// them from fields of the same key and they are in the snapshot as it
// wrote them; else nil.
func (r *Reuse) take(g reuseGroup, key uint64) ([][]byte, *memoGroup) {
	if r == nil || r.s == nil {
		return nil, nil
	}
	mg := &r.memo.groups[g]
	if !mg.ok || mg.key != key {
		return nil, nil
	}
	out := make([][]byte, len(groupSections[g]))
	for i, id := range groupSections[g] {
		e := r.s.secs[id]
		if !e.present || e.crc != mg.crcs[i] {
			return nil, nil
		}
		b := r.s.sec(id)
		if !reuseMapped {
			b = bytes.Clone(b)
		}
		if b == nil {
			b = []byte{}
		}
		if checksum(b) != e.crc {
			return nil, nil
		}
		out[i] = b
	}
	r.used[g] = true
	return out, mg
}

// reuseMapped: a write refers to the sections it copies in the earlier
// file's mapping, and closes it after the rename; where a mapped file
// cannot be replaced (Windows) it copies them and closes it before.
var reuseMapped = runtime.GOOS != "windows"

// fingerprintGroups fingerprints the fields each group's sections are built
// from, one group a goroutine.
func fingerprintGroups(g *Graph, o *WriteOptions) [numGroups]uint64 {
	var keys [numGroups]uint64
	var wg sync.WaitGroup
	for grp := range numGroups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[grp] = groupKey(grp, g, o)
		}()
	}
	wg.Wait()
	return keys
}

// groupKey fingerprints what group grp's sections are built from: the
// node count, and per node (or edge) every field their encoder reads.
func groupKey(grp reuseGroup, g *Graph, o *WriteOptions) uint64 {
	h := newKeyHash()
	h.u64(keyVersion)
	h.u64(uint64(grp))
	h.u64(uint64(len(g.Nodes)))
	switch grp {
	case groupGraph:
		h.u64(uint64(len(g.Edges)))
		for i := range g.Edges {
			e := &g.Edges[i]
			h.buf = binary.LittleEndian.AppendUint32(h.buf, e.From)
			h.buf = binary.LittleEndian.AppendUint32(h.buf, e.To)
			h.buf = append(h.buf, PackAttr(e.Type, e.Confidence))
			h.spill()
		}
	case groupKeys:
		h.flag(!o.NoBM25)
		for i := range g.Nodes {
			n := &g.Nodes[i]
			h.str(clip(n.Name, maxNameLen))
			h.flag(searchable(n))
		}
	case groupBM25:
		h.params(o.BM25)
		for i := range g.Nodes {
			n := &g.Nodes[i]
			if !searchable(n) {
				h.flag(false)
				continue
			}
			h.flag(true)
			h.str(n.Name)
			h.str(n.QName)
			ext := n.Flags&FlagExternal != 0
			h.flag(ext)
			if ext {
				continue
			}
			h.str(n.Signature)
			h.str(clip(n.Doc, bm25DocBytes))
			if n.File >= 0 && int(n.File) < len(g.Files) {
				h.flag(true)
				h.str(g.Files[n.File].Path)
			} else {
				h.flag(false)
			}
		}
	case groupBody:
		h.params(BodyParams())
		for i := range g.Nodes {
			n := &g.Nodes[i]
			if (n.Body == "" && n.Text == "" && n.History == "") || !searchable(n) {
				h.flag(false)
				continue
			}
			h.flag(true)
			h.str(n.Body)
			h.str(n.Text)
			h.str(n.History)
		}
	case groupCold:
		h.u64(uint64(o.ColdBlock))
		for i := range g.Nodes {
			h.str(g.Nodes[i].Signature)
			h.str(g.Nodes[i].Doc)
		}
	}
	return h.sum()
}

// keyHash is a 64-bit fingerprint of a stream of fields (two CRC-32s,
// as Fingerprint), buffered.
type keyHash struct {
	buf  []byte
	c, i hash.Hash32
}

// keySpill is how full the buffer gets before it is hashed.
const keySpill = 1 << 16

func newKeyHash() *keyHash {
	return &keyHash{buf: make([]byte, 0, keySpill+64), c: crc32.New(castagnoli), i: crc32.NewIEEE()}
}

// spill hashes the buffer once it is full.
func (h *keyHash) spill() {
	if len(h.buf) >= keySpill {
		h.flush()
	}
}

// flush hashes the buffer.
func (h *keyHash) flush() {
	h.c.Write(h.buf)
	h.i.Write(h.buf)
	h.buf = h.buf[:0]
}

func (h *keyHash) u64(v uint64) {
	h.buf = binary.AppendUvarint(h.buf, v)
	h.spill()
}

func (h *keyHash) flag(b bool) {
	if b {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = append(h.buf, 0)
	}
	h.spill()
}

// str adds s with its length, so that no two lists of strings hash
// alike by their concatenation.
func (h *keyHash) str(s string) {
	h.buf = binary.AppendUvarint(h.buf, uint64(len(s)))
	if len(s) >= keySpill {
		h.flush()
		b := []byte(s)
		h.c.Write(b)
		h.i.Write(b)
		return
	}
	h.buf = append(h.buf, s...)
	h.spill()
}

func (h *keyHash) params(p bm25.Params) {
	h.u64(uint64(math.Float32bits(p.K1)))
	h.u64(uint64(math.Float32bits(p.B)))
	for _, w := range p.Weights {
		h.u64(uint64(math.Float32bits(w)))
	}
}

func (h *keyHash) sum() uint64 {
	h.flush()
	return uint64(h.c.Sum32())<<32 | uint64(h.i.Sum32())
}
