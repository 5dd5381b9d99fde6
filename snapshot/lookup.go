package snapshot

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/internal/fst"
)

// LookupName appends to dst the ids of the nodes whose lower-cased name is
// exactly lowerName, in ascending order, and returns the extended slice. It
// does not allocate when dst has room. The caller lower-cases the query
// (strings.ToLower), as the writer lower-cased the names.
func (s *Snapshot) LookupName(lowerName string, dst []uint32) []uint32 {
	v, ok, err := s.names.Get(lowerName)
	if !ok || err != nil {
		return dst
	}
	return s.appendIDs(dst, v, s.nameIDs)
}

// LookupPart appends the ids of the nodes one of whose lower-cased name
// parts (CamelCase and snake_case components, as bm25.AppendTokens splits
// names, or the whole name) is exactly lowerPart, in ascending order. It
// does not allocate when dst has room.
//
// With BM25 (the usual case) the answer is assembled from three indexes:
// the names index for the whole name, the BM25 name-field postings of the
// term for the nodes with a BM25 document, and the parts index for the
// parts of the other nodes (files, packages, generated code).
func (s *Snapshot) LookupPart(lowerPart string, dst []uint32) []uint32 {
	start := len(dst)
	if v, ok, err := s.parts.Get(lowerPart); ok && err == nil {
		dst = s.appendIDs(dst, v, s.partIDs)
	}
	if s.flags&flagNoBM25 != 0 {
		return dst
	}
	dst = s.LookupName(lowerPart, dst)
	if ix, err := s.BM25(); err == nil {
		dst, _ = ix.AppendTermDocs(lowerPart, bm25.FieldName, dst)
	}
	ids := dst[start:]
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for len(ids) > 0 && uint64(ids[len(ids)-1]) >= uint64(s.nNodes) {
		ids = ids[:len(ids)-1] // corrupt postings; Verify reports them
	}
	return dst[:start+len(ids)]
}

// AppendFileNodes appends the ids of file i's nodes that have a BM25
// document (its symbols outside generated, vendored and minified code),
// in ascending order, found through the BM25 path field: by the
// whole-path term, or, for a path longer than bm25.MaxPathTerm (which has
// none), by the path's rarest term. A snapshot without BM25 has no path
// field: then nothing is appended. For a path of at most MaxPathTerm
// lower-case bytes it does not allocate when dst has room.
func (s *Snapshot) AppendFileNodes(i int, dst []uint32) []uint32 {
	if s.flags&flagNoBM25 != 0 || i < 0 || i >= s.nFiles {
		return dst
	}
	ix, err := s.BM25()
	if err != nil {
		return dst
	}
	p := s.FilePath(i)
	start := len(dst)
	found := false
	if len(p) <= bm25.MaxPathTerm {
		dst, found = ix.AppendTermDocs(strings.ToLower(p), bm25.FieldPath, dst)
	}
	if !found {
		// Each segment of the path is a term of its nodes' path field;
		// the one fewest documents hold narrows the scan the most.
		term, best := "", 0
		for _, t := range bm25.AppendTokens(nil, p) {
			if df := ix.DocFreq(t); df != 0 && (best == 0 || df < best) {
				term, best = t, df
			}
		}
		if best == 0 {
			return dst
		}
		dst, _ = ix.AppendTermDocs(term, bm25.FieldPath, dst)
	}
	// The term is in other paths too (a/b.go is a part of x/a/b.go, a
	// segment of many): keep the nodes of file i.
	kept := dst[:start]
	for _, id := range dst[start:] {
		if uint64(id) < uint64(s.nNodes) && s.FileIndex(id) == int32(i) {
			kept = append(kept, id)
		}
	}
	return kept
}

// appendIDs decodes an FST value: id<<1 for one node, offset<<1|1 for the
// list at byte offset in ids (a uvarint count, then the ids as uvarint
// differences). Ids out of range end the list, as does a list that
// overruns its section; Verify reports them.
func (s *Snapshot) appendIDs(dst []uint32, v uint64, ids []byte) []uint32 {
	n := uint64(s.nNodes)
	if v&1 == 0 {
		if id := v >> 1; id < n {
			dst = append(dst, uint32(id))
		}
		return dst
	}
	dst, _, _ = appendIDList(dst, ids, v>>1, n)
	return dst
}

// appendIDList appends the ids of the list at byte offset at of ids, all
// below n, and returns the count the list declares; ok is false, with the
// ids read so far appended, when the list is malformed or not ascending.
func appendIDList(dst []uint32, ids []byte, at, n uint64) (out []uint32, cnt uint64, ok bool) {
	if at >= uint64(len(ids)) {
		return dst, 0, false
	}
	p := ids[at:]
	cnt, pos := binary.Uvarint(p)
	if pos <= 0 || cnt > uint64(len(p)-pos) { // every id takes a byte
		return dst, 0, false
	}
	id := uint64(0)
	for i := uint64(0); i < cnt; i++ {
		d, k := binary.Uvarint(p[pos:])
		if k <= 0 || d >= n || i > 0 && d == 0 {
			return dst, cnt, false
		}
		pos += k
		if id += d; id >= n {
			return dst, cnt, false
		}
		dst = append(dst, uint32(id))
	}
	return dst, cnt, true
}

// KeyIter enumerates the keys of the name index that start with a
// prefix, in ascending byte order, with their nodes. It belongs to one
// goroutine; Reset reuses it, and once its buffers have grown to the
// longest key it does not allocate.
//
//	it := s.NewNameIter()
//	it.Reset("parse")
//	for it.Next() {
//		ids = it.Nodes(ids[:0])
//	}
type KeyIter struct {
	s *Snapshot
	w fst.Walk
}

// NewNameIter returns an iterator over lower-cased names.
func (s *Snapshot) NewNameIter() *KeyIter {
	it := &KeyIter{s: s}
	it.Reset("")
	return it
}

// Reset positions the iterator before the first key starting with prefix
// (lower-case it first: keys are lower-case). An empty prefix walks every
// key.
func (it *KeyIter) Reset(prefix string) {
	it.w.Reset(&it.s.names, prefix)
}

// Next advances to the next key; it returns false at the end, or when the
// index turns out corrupt (then Err says so).
func (it *KeyIter) Next() bool { return it.w.Next() }

// Key is the current key. It is valid until the next call to Next or
// Reset; copy it to keep it.
func (it *KeyIter) Key() []byte { return it.w.Key() }

// Nodes appends the current key's node ids to dst, ascending.
func (it *KeyIter) Nodes(dst []uint32) []uint32 {
	return it.s.appendIDs(dst, it.w.Value(), it.s.nameIDs)
}

// Err reports corruption met by the last Reset or Next.
func (it *KeyIter) Err() error { return it.w.Err() }
