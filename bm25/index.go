package bm25

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"sync"

	"github.com/knowing-dev/knowing/internal/fst"
)

// Index is a read-only view over the three sections of an encoded index.
// It borrows the byte slices (typically a memory mapping): they must stay
// valid and unmodified for the life of the Index and of every Searcher made
// from it. An Index is safe for concurrent use by any number of goroutines;
// a Searcher is not (make one per goroutine).
type Index struct {
	dict     fst.View // the Terms FST
	terms    []byte
	postings []byte
	st       stats
}

// Open views encoded sections without copying them. It checks the Stats
// section (magic, version, checksum, plausible values), that the section
// lengths match what Stats records and that the term dictionary loads; its
// cost does not depend on the index size. Term and postings bytes are
// checked as queries reach them; Verify checks everything up front.
func Open(terms, postings, stats []byte) (*Index, error) {
	st, err := decodeStats(stats)
	if err != nil {
		return nil, err
	}
	if uint64(len(terms)) != st.termsLen {
		return nil, corruptf("terms section is %d bytes, stats say %d", len(terms), st.termsLen)
	}
	if uint64(len(postings)) != st.postingsLen {
		return nil, corruptf("postings section is %d bytes, stats say %d", len(postings), st.postingsLen)
	}
	dict, err := fst.New(terms, ErrCorrupt)
	if err != nil {
		return nil, fmt.Errorf("term dictionary: %w", err)
	}
	if dict.Count() != uint64(st.numTerms) {
		return nil, corruptf("term dictionary holds %d terms, stats say %d", dict.Count(), st.numTerms)
	}
	return &Index{dict: dict, terms: terms, postings: postings, st: st}, nil
}

// NumDocs is the number of documents indexed.
func (ix *Index) NumDocs() int { return int(ix.st.numDocs) }

// NumTerms is the number of distinct terms in the dictionary.
func (ix *Index) NumTerms() int { return int(ix.st.numTerms) }

// DocLimit is one more than the largest document id (0 when empty): the
// size of a Searcher's score array.
func (ix *Index) DocLimit() int { return int(ix.st.idLimit) }

// Params returns the parameters the index was built with; queries use
// their field weights.
func (ix *Index) Params() Params { return ix.st.params }

// DocFreq is the number of documents that contain term in any field, 0 if
// none do or the index bytes are corrupt.
func (ix *Index) DocFreq(term string) int {
	v, ok, err := ix.dict.Get(term)
	if err != nil || !ok {
		return 0
	}
	if v&valInline != 0 {
		return 1
	}
	if v >= uint64(len(ix.postings)) {
		return 0
	}
	p := ix.postings[v:]
	if p[0]&recSingleton != 0 {
		return 1
	}
	df, n := binary.Uvarint(p[1:])
	if n <= 0 || df > uint64(ix.st.numDocs) {
		return 0
	}
	return int(df)
}

// ExpandPrefix appends to dst the dictionary terms that start with prefix,
// in key (byte) order, at most max of them, and returns the extended slice.
// An empty prefix lists the dictionary from its start. Apart from the
// strings it appends, it does not allocate.
func (ix *Index) ExpandPrefix(prefix string, dst []string, max int) []string {
	if max <= 0 {
		return dst
	}
	w := walks.Get().(*fst.Walk)
	defer walks.Put(w)
	w.Reset(&ix.dict, prefix)
	for n := 0; n < max && w.Next(); n++ {
		dst = append(dst, string(w.Key()))
	}
	return dst
}

// walks recycles dictionary walks between ExpandPrefix calls.
var walks = sync.Pool{New: func() any { return new(fst.Walk) }}

// Verify checks the whole index: section checksums, every dictionary entry
// and every posting list (containers well formed, documents strictly
// increasing and below DocLimit, impacts in range, counts consistent). It
// reads everything, so it costs time proportional to the index size; call
// it when the bytes come from an untrusted or unchecked source. It returns
// nil or an error wrapping ErrCorrupt.
func (ix *Index) Verify() error {
	if c := crc32.Checksum(ix.terms, castagnoli); c != ix.st.termsCRC {
		return corruptf("terms checksum %08x, want %08x", c, ix.st.termsCRC)
	}
	if c := crc32.Checksum(ix.postings, castagnoli); c != ix.st.postingsCRC {
		return corruptf("postings checksum %08x, want %08x", c, ix.st.postingsCRC)
	}
	var w fst.Walk
	w.Reset(&ix.dict, "")
	n := 0
	for w.Next() {
		if err := ix.verifyTerm(w.Value()); err != nil {
			return fmt.Errorf("term %q: %w", w.Key(), err)
		}
		n++
	}
	if err := w.Err(); err != nil {
		return fmt.Errorf("term dictionary: %w", err)
	}
	if n != int(ix.st.numTerms) {
		return corruptf("iterated %d terms, stats say %d", n, ix.st.numTerms)
	}
	return nil
}

func (ix *Index) verifyTerm(v uint64) error {
	if v&valInline != 0 {
		if v>>(inlineFieldSh+3)&(1<<12-1) != 0 || v>>inlineFieldSh&7 >= NumFields {
			return corruptf("bad inline value %#x", v)
		}
		if uint32(v) >= ix.st.idLimit || !validImpact(fromBF16(uint16(v>>inlineImpSh))) {
			return corruptf("bad inline posting %#x", v)
		}
		return nil
	}
	if v >= uint64(len(ix.postings)) {
		return corruptf("record offset %d out of range", v)
	}
	p := ix.postings[v:]
	flags := p[0]
	mask := flags & recMaskBits
	single := flags&recSingleton != 0
	combined := flags&recCombined != 0
	// A combined list needs several fields; a multi-field term below
	// combinedMinDF documents may go without one.
	if mask == 0 || single && combined || combined && popcount(mask) < 2 {
		return corruptf("bad record flags %#x", flags)
	}
	pos := 1
	if single {
		doc, n := binary.Uvarint(p[pos:])
		if n <= 0 || doc >= uint64(ix.st.idLimit) {
			return corruptf("bad singleton document")
		}
		pos += n
		if len(p)-pos < 2*popcount(mask) {
			return corruptf("singleton record truncated")
		}
		for i := 0; i < popcount(mask); i++ {
			if !validImpact(fromBF16(binary.LittleEndian.Uint16(p[pos+2*i:]))) {
				return corruptf("bad singleton impact")
			}
		}
		return nil
	}
	df, n := binary.Uvarint(p[pos:])
	if n <= 0 || df < 2 || df > uint64(ix.st.numDocs) {
		return corruptf("bad document frequency")
	}
	pos += n
	var all []uint32 // the combined list's documents
	var covered []bool
	if combined {
		l, ok := parseList(p, pos)
		if !ok {
			return corruptf("combined list truncated")
		}
		pos = l.end
		if all, ok = ix.listDocs(l); !ok || uint64(len(all)) != df {
			return corruptf("combined list invalid")
		}
		covered = make([]bool, len(all))
	}
	for f := 0; f < NumFields; f++ {
		if mask&(1<<f) == 0 {
			continue
		}
		l, ok := parseList(p, pos)
		if !ok {
			return corruptf("field %d list truncated", f)
		}
		pos = l.end
		docs, ok := ix.listDocs(l)
		if !ok || l.scale == 0 {
			return corruptf("field %d list invalid", f)
		}
		for _, q := range l.imps {
			if q == 0 {
				return corruptf("field %d: zero impact", f)
			}
		}
		if !combined {
			// One field's list holds the term's documents; several
			// fields' lists each hold some of them.
			if n := uint64(len(docs)); n > df || popcount(mask) == 1 && n != df {
				return corruptf("document frequency %d, list has %d", df, len(docs))
			}
			continue
		}
		j := 0 // merge: every document must be in the combined list
		for _, d := range docs {
			for j < len(all) && all[j] < d {
				j++
			}
			if j == len(all) || all[j] != d {
				return corruptf("field %d: document %d missing from combined list", f, d)
			}
			covered[j] = true
		}
	}
	for j, c := range covered {
		if !c {
			return corruptf("combined list: document %d in no field", all[j])
		}
	}
	return nil
}

// listDocs decodes l's bitmap strictly, checking that it has one document
// per impact, all below DocLimit.
func (ix *Index) listDocs(l list) ([]uint32, bool) {
	var docs []uint32
	add := func(d uint32) { docs = append(docs, d) }
	var ok bool
	if l.packed {
		ok = walkPacked(l.docs, len(l.imps), uint64(ix.st.idLimit), add)
	} else {
		ok = walkRoaring(l.docs, add)
	}
	if !ok || len(docs) != len(l.imps) || len(docs) > 0 && docs[len(docs)-1] >= ix.st.idLimit {
		return nil, false
	}
	return docs, true
}

// list is one field's posting list inside a term record.
type list struct {
	scale  float32
	docs   []byte // document ids: delta uvarints, or a portable roaring bitmap
	imps   []byte // one quantized impact per document, in document order
	end    int    // offset after the list in the record
	packed bool   // docs are delta uvarints
}

// parseList reads the field list at p[pos:], checking every length.
func parseList(p []byte, pos int) (l list, ok bool) {
	if len(p)-pos < 4 {
		return l, false
	}
	l.scale = math.Float32frombits(binary.LittleEndian.Uint32(p[pos:]))
	if !finite(l.scale) || l.scale < 0 {
		return l, false
	}
	pos += 4
	n, k := binary.Uvarint(p[pos:])
	if k <= 0 {
		return l, false
	}
	pos += k
	rl, k := binary.Uvarint(p[pos:])
	if k <= 0 {
		return l, false
	}
	pos += k
	l.packed = rl&1 == docsPacked
	uniform := rl&listUniform != 0
	rl >>= 2
	rest := uint64(len(p) - pos)
	if rl > rest {
		return l, false
	}
	l.docs = p[pos : pos+int(rl)]
	pos += int(rl)
	if uniform {
		if n > uint64(len(allMax)) {
			return l, false
		}
		l.imps = allMax[:n:n]
		l.end = pos
		return l, true
	}
	if n > rest-rl {
		return l, false
	}
	l.imps = p[pos : pos+int(n)]
	l.end = pos + int(n)
	return l, true
}

// walkPacked calls fn for every id of a delta-uvarint list of n ids in
// order and checks it strictly: ids below lim, no bytes left over.
func walkPacked(r []byte, n int, lim uint64, fn func(uint32)) bool {
	pos := 0
	d := noPacked
	for i := 0; i < n; i++ {
		var ok bool
		if d, pos, ok = nextPacked(r, pos, d, lim); !ok {
			return false
		}
		fn(uint32(d))
	}
	return pos == len(r)
}

// AppendTermDocs appends to dst, in increasing order, the documents whose
// field f holds term, and reports whether the dictionary holds term at all
// (in any field). On a malformed record it stops, having appended what it
// could read; Verify reports the record. It does not allocate beyond
// growing dst.
func (ix *Index) AppendTermDocs(term string, f Field, dst []uint32) (out []uint32, found bool) {
	v, ok, err := ix.dict.Get(term)
	if !ok || err != nil {
		return dst, false
	}
	dst, _ = ix.appendFieldDocs(v, f, dst)
	return dst, true
}

// appendFieldDocs appends to dst, in increasing order, the documents whose
// field f holds the term whose dictionary value is v. It reports false,
// having appended what it could read, when the record is malformed.
func (ix *Index) appendFieldDocs(v uint64, f Field, dst []uint32) ([]uint32, bool) {
	if f >= NumFields {
		return dst, false
	}
	if v&valInline != 0 {
		if v>>inlineFieldSh&7 == uint64(f) && uint32(v) < ix.st.idLimit {
			dst = append(dst, uint32(v))
		}
		return dst, true
	}
	if v >= uint64(len(ix.postings)) {
		return dst, false
	}
	p := ix.postings[v:]
	flags := p[0]
	mask := flags & recMaskBits
	if flags&recSingleton != 0 {
		doc, n := binary.Uvarint(p[1:])
		if n <= 0 || doc >= uint64(ix.st.idLimit) {
			return dst, false
		}
		if mask&(1<<f) != 0 {
			dst = append(dst, uint32(doc))
		}
		return dst, true
	}
	if mask&(1<<f) == 0 {
		return dst, true
	}
	_, n := binary.Uvarint(p[1:])
	if n <= 0 {
		return dst, false
	}
	pos := 1 + n
	skip := popcount(mask & (1<<f - 1)) // the field lists before f's
	if flags&recCombined != 0 {
		skip++
	}
	for ; ; skip-- {
		l, ok := parseList(p, pos)
		if !ok {
			return dst, false
		}
		if skip > 0 {
			pos = l.end
			continue
		}
		lim := ix.st.idLimit
		add := func(d uint32) {
			if d < lim {
				dst = append(dst, d)
			}
		}
		if l.packed {
			ok = walkPacked(l.docs, len(l.imps), uint64(lim), add)
		} else {
			ok = walkRoaring(l.docs, add)
		}
		return dst, ok
	}
}
