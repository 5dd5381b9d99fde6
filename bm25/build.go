package bm25

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/knowing-dev/knowing/internal/fst"
)

// Builder accumulates documents and encodes them into an index. It is not
// safe for concurrent use and is single-use: after Finish it accepts no
// more documents.
//
// Add only records a document. Index tokenizes the documents added since
// the last Index on all cores (workers take runs of documents in turn,
// each into its own term table, which it sorts) and merges the sorted
// tables into the terms indexed so far; Finish indexes what is
// left, then encodes the terms, again on all cores. A caller can thus
// tokenize most documents while it still works out the last few. The
// output does not depend on the number of workers, nor on when or how
// often Index was called.
//
// Memory: the builder keeps the added documents' field strings (not copies)
// until Finish, every distinct term once and one uint64 per (term, field,
// document) posting, plus six uint32 field lengths per document; while
// tokenizing, each worker also keeps the term numbers of every distinct
// segment it has seen (on the Go standard library, 5% more peak memory
// for the whole build).
type Builder struct {
	p    Params
	err  error
	done bool

	ids     []uint32            // document id by insertion index
	docs    []Doc               // documents not yet indexed, from insertion index docBase
	docBase int                 // insertion index of docs[0]: documents indexed so far
	lens    [NumFields][]uint32 // field length (terms) by insertion index
	keys    []string            // term by term number
	posts   [][]uint64          // postings by term number, see posting
	fdocs   [NumFields]uint32   // documents with a non-empty field
	avg     [NumFields]float64  // mean length of non-empty fields
}

// termEnc encodes term records; each encoding worker has its own.
type termEnc struct {
	b     *Builder // read only while encoding
	imps  []float64
	qs    []byte
	dids  []uint32
	bm    *roaring.Bitmap
	cnt   [NumFields]int
	idf   [NumFields]float64 // of the term at hand, in the fields it occurs in
	first [NumFields]int
	vbuf  [binary.MaxVarintLen64]byte
}

// A posting in the builder: insertion index << 32 | field << 28 | tf.
const (
	postFieldSh = 28
	postTFMask  = 1<<postFieldSh - 1
)

// NewBuilder starts an index with parameters p. Invalid parameters (negative
// or non-finite k1 or weights, b outside [0,1]) make Finish fail.
func NewBuilder(p Params) *Builder {
	return &Builder{p: p}
}

// Grow makes room for n more documents, for a caller that knows how many
// it will add: the builder then copies them once.
func (b *Builder) Grow(n int) {
	b.ids = slices.Grow(b.ids, n)
	b.docs = slices.Grow(b.docs, n)
}

// Add adds document id; ids must be added in strictly increasing order
// (gaps are allowed). A nil d adds a document with empty fields. The first
// misuse is reported by Finish. The builder keeps d's strings until Finish.
//
// The whole-path term of the qualified-name field (net/http.server.serve)
// counts toward the field's length but is not indexed: it names one symbol,
// which the snapshot's name index finds exactly, and it was 4–6% of a
// snapshot.
func (b *Builder) Add(id uint32, d *Doc) {
	if b.err != nil {
		return
	}
	switch {
	case b.done:
		b.err = errors.New("bm25: Add after Finish")
		return
	case id == math.MaxUint32:
		b.err = fmt.Errorf("bm25: document id %d too large", id)
		return
	case len(b.ids) > 0 && id <= b.ids[len(b.ids)-1]:
		b.err = fmt.Errorf("bm25: document id %d added after %d", id, b.ids[len(b.ids)-1])
		return
	}
	b.ids = append(b.ids, id)
	if d == nil {
		b.docs = append(b.docs, Doc{})
	} else {
		b.docs = append(b.docs, *d)
	}
}

// termTable is one worker's share of the index: the terms of a run of
// documents in first-seen order, and their postings.
type termTable struct {
	index map[string]uint32
	keys  []string
	posts [][]uint64
}

// term returns the number of term t in tt, adding it if new.
func (tt *termTable) term(t string) uint32 {
	n, ok := tt.index[t]
	if !ok {
		k := strings.Clone(t) // t may be a view of the text or of the tokenizer's scratch
		n = uint32(len(tt.keys))
		tt.index[k] = n
		tt.keys = append(tt.keys, k)
		tt.posts = append(tt.posts, nil)
	}
	return n
}

// tokenize indexes the runs of documents next hands out, in increasing
// order, until it has none: their field lengths go to b.lens (each run to
// one worker), their terms and postings to a new table, which sizeHint
// documents are expected to fill.
//
// Text is tokenized a unit at a time (see nextUnit): a unit that is a
// path emits itself whole, then the terms of each of its segments. The
// terms of a segment depend on its text alone, and code repeats its
// identifiers in names, qualified names, signatures and docs, so each
// distinct segment is tokenized once: its term numbers are kept in a memo.
// A field whose text is the same as in the previous document (the path
// and concepts of the symbols of one file) reuses that document's terms.
func (b *Builder) tokenize(next func() (from, to int, ok bool), sizeHint int) *termTable {
	// A worker finds from 1.1 distinct terms per document of its even
	// share (the Go standard library: 71 K over 65 K documents) to 3.9
	// (flask, whose runs one worker took all of while the resolver had
	// the other core). Sized for two, the table and the memo grow at
	// most once; sized for one, flask's grew twice, and the copies were
	// 3% of the write's allocations.
	tt := &termTable{index: make(map[string]uint32, 2*sizeHint)}
	memo := make(map[string][]uint32, 2*sizeHint)
	var arena []uint32 // the memo's term lists
	var tok []string
	var low []byte
	var ends [16]int
	var cnt []uint32  // by term number: occurrences in the field at hand
	var seen []uint32 // the field's terms, each once, as first seen
	// The previous document's fields. The zero value is right for the
	// first: an empty field has no terms.
	var last [NumFields]struct {
		text  string
		n     uint32
		terms []uint64 // term number << 32 | tf
	}
	count := func(n uint32) {
		if int(n) >= len(cnt) {
			cnt = append(cnt, make([]uint32, int(n)+1-len(cnt))...)
		}
		if cnt[n] == 0 {
			seen = append(seen, n)
		}
		cnt[n]++
	}
	for {
		from, to, ok := next()
		if !ok {
			return tt
		}
		for idx := from; idx < to; idx++ {
			d := &b.docs[idx-b.docBase]
			for f := 0; f < NumFields; f++ {
				lf := &last[f]
				text := d.Fields[f]
				if text == lf.text {
					b.lens[f][idx] = lf.n
					for _, t := range lf.terms {
						n := uint32(t >> 32)
						tt.posts[n] = append(tt.posts[n], uint64(idx)<<32|uint64(f)<<postFieldSh|t&postTFMask)
					}
					continue
				}
				lf.text, lf.terms = text, lf.terms[:0]
				ntok := 0
				seen = seen[:0]
				for i := 0; i < len(text); {
					start, end, segs := nextUnit(text, i, &ends)
					if start == end {
						break
					}
					i = end
					if pathTermOf(text[start:end], segs) {
						// Counted in every field, indexed outside qualified
						// names (see Add).
						ntok++
						if f != int(FieldQName) {
							count(tt.term(lowerInto(&low, text[start:end])))
						}
					}
					for j, k := start, 0; j < end; k++ {
						e := segEnd(text, j, k, &ends)
						seg := text[j:e]
						j = e + 1 // skip the separator
						terms, ok := memo[seg]
						if !ok {
							// The terms live in low until the next segment:
							// term copies them.
							tok = appendTokensScratch(tok[:0], seg, &low)
							at := len(arena)
							for _, t := range tok {
								arena = append(arena, tt.term(t))
							}
							terms = arena[at:len(arena):len(arena)]
							memo[seg] = terms
						}
						ntok += len(terms)
						for _, n := range terms {
							count(n)
						}
					}
				}
				lf.n = uint32(min(ntok, math.MaxUint32))
				b.lens[f][idx] = lf.n
				for _, n := range seen {
					t := uint64(min(cnt[n], postTFMask))
					cnt[n] = 0
					tt.posts[n] = append(tt.posts[n], uint64(idx)<<32|uint64(f)<<postFieldSh|t)
					lf.terms = append(lf.terms, uint64(n)<<32|t)
				}
			}
		}
	}
}

// index tokenizes the documents not yet indexed on up to GOMAXPROCS
// workers, each of which then sorts its own terms, and merges the workers'
// sorted tables into b.keys (in byte order, each once) and b.posts (for a
// term found by several workers, or indexed before, its postings in
// document order).
func (b *Builder) index() {
	from, n := b.docBase, len(b.ids)
	if from == n {
		return
	}
	for f := range b.lens {
		b.lens[f] = slices.Grow(b.lens[f], n-len(b.lens[f]))[:n]
	}
	// Up to one worker per 512 documents: flask's 1,926 get two, an
	// index under 1,024 documents stays on one. Workers take runs of 128
	// documents in turn rather than a fixed share each: documents differ
	// in length by orders of magnitude (a docstring against a field
	// name), and a core may be busy with the caller's other work (the
	// snapshot writer indexes while the graph's edges are resolved).
	const run = 128
	workers := min(runtime.GOMAXPROCS(0), max(1, (n-from)/512))
	var taken atomic.Int64
	next := func() (int, int, bool) {
		lo := from + int(taken.Add(run)-run)
		return lo, min(lo+run, n), lo < n
	}
	tables := make([]*termTable, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tt := b.tokenize(next, (n-from)/workers)
			tt.sort()
			tables[w] = tt
		}()
	}
	wg.Wait()
	if len(b.keys) > 0 {
		// What earlier calls indexed: its documents come first.
		tables = append([]*termTable{{keys: b.keys, posts: b.posts}}, tables...)
	}
	b.docs, b.docBase = nil, n
	if len(tables) == 1 {
		b.keys, b.posts = tables[0].keys, tables[0].posts
		return
	}
	// Merge the sorted tables: the smallest next key of all, its postings
	// gathered from the tables in document order.
	total := 0
	for _, tt := range tables {
		total += len(tt.keys)
	}
	b.keys = make([]string, 0, total)
	b.posts = make([][]uint64, 0, total)
	at := make([]int, len(tables))
	for {
		k, found := "", false
		for w, tt := range tables {
			if i := at[w]; i < len(tt.keys) && (!found || tt.keys[i] < k) {
				k, found = tt.keys[i], true
			}
		}
		if !found {
			return
		}
		var ps []uint64
		for w, tt := range tables {
			if i := at[w]; i < len(tt.keys) && tt.keys[i] == k {
				ps = mergePostings(ps, tt.posts[i])
				at[w]++
			}
		}
		b.keys = append(b.keys, k)
		b.posts = append(b.posts, ps)
	}
}

// mergePostings merges two posting lists, each in document order, into
// one. Postings order as numbers the way they do by document and field;
// two lists never hold the same document. A list may be reused.
func mergePostings(a, b []uint64) []uint64 {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	case a[len(a)-1] < b[0]:
		return append(a, b...)
	case b[len(b)-1] < a[0]:
		return append(b, a...)
	}
	m := make([]uint64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			m = append(m, a[i])
			i++
		} else {
			m = append(m, b[j])
			j++
		}
	}
	m = append(m, a[i:]...)
	return append(m, b[j:]...)
}

// sort orders the table by term, in byte order.
func (tt *termTable) sort() {
	order := make([]uint32, len(tt.keys))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(x, y uint32) int { return strings.Compare(tt.keys[x], tt.keys[y]) })
	keys := make([]string, len(order))
	posts := make([][]uint64, len(order))
	for i, o := range order {
		keys[i], posts[i] = tt.keys[o], tt.posts[o]
	}
	tt.keys, tt.posts, tt.index = keys, posts, nil
}

// Index tokenizes the documents added since the last Index, on all cores,
// which is most of Finish's work; Finish then indexes the rest and
// encodes. A caller with other work for the cores can do it after Index,
// while Finish runs, or add its last documents while Index runs on
// another goroutine (the builder itself is not safe for concurrent use:
// Add must wait for Index to return).
func (b *Builder) Index() {
	if b.err != nil || b.done {
		return
	}
	b.index()
}

// Finish encodes the index. The builder's memory can be dropped afterwards.
func (b *Builder) Finish() (*Encoded, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.done {
		return nil, errors.New("bm25: Finish called twice")
	}
	if err := b.p.validate(); err != nil {
		return nil, err
	}
	b.done = true
	b.index()
	n := len(b.ids)
	st := stats{numDocs: uint32(n), numTerms: uint32(len(b.keys)), params: b.p}
	if n > 0 {
		st.idLimit = b.ids[n-1] + 1
	}
	for f := 0; f < NumFields; f++ {
		var sum float64
		var docs uint32
		for _, l := range b.lens[f] {
			if l > 0 {
				sum += float64(l)
				docs++
			}
		}
		b.fdocs[f] = docs
		if docs > 0 {
			b.avg[f] = sum / float64(docs)
		}
		st.fieldDocs[f] = docs
		st.avgLen[f] = float32(b.avg[f])
	}

	nt := len(b.keys) // in key order: index sorted them

	keyBytes := 0
	for _, k := range b.keys {
		keyBytes += len(k)
	}
	// An FST is smaller than its keys and values written out; the room
	// it does not fill is never touched.
	fb := fst.NewBuilder(keyBytes + 4*nt + 64)
	// Term records are encoded on all cores, in chunks of consecutive
	// terms. A worker encodes a chunk into its own scratch buffer and
	// keeps an exact copy of it. This goroutine takes the chunks in key
	// order, moving each chunk's offsets by its start, and inserts the
	// chunk's terms into the FST as soon as the chunk is done: inserting,
	// which is serial, overlaps encoding the rest. The chunks are joined
	// into the postings section at the end, into a slice of exactly their
	// length, so no buffer grows by doubling.
	const chunk = 1024
	vals := make([]uint64, nt)
	nchunks := (nt + chunk - 1) / chunk
	bufs := make([][]byte, nchunks)
	errs := make([]error, nchunks)
	done := make([]chan struct{}, nchunks)
	for c := range done {
		done[c] = make(chan struct{})
	}
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), nchunks) {
		go func() {
			te := &termEnc{b: b, bm: roaring.New()}
			var scratch bytes.Buffer
			for {
				c := int(next.Add(1) - 1)
				if c >= nchunks {
					return
				}
				scratch.Reset()
				for i := c * chunk; i < min((c+1)*chunk, nt); i++ {
					if vals[i], errs[c] = te.encodeTerm(&scratch, b.posts[i]); errs[c] != nil {
						break
					}
				}
				bufs[c] = bytes.Clone(scratch.Bytes())
				close(done[c])
			}
		}()
	}
	var ferr error
	total := 0
	for c := range nchunks {
		<-done[c] // every chunk is waited for, even after an error
		if ferr != nil {
			continue
		}
		if ferr = errs[c]; ferr != nil {
			continue
		}
		base := total
		if base+len(bufs[c]) > maxRecordOff+1 {
			ferr = errors.New("bm25: postings section too large")
			continue
		}
		total += len(bufs[c])
		for i := c * chunk; i < min((c+1)*chunk, nt); i++ {
			if vals[i]&valInline == 0 {
				vals[i] += uint64(base)
			}
			if ferr = fb.Insert(b.keys[i], vals[i]); ferr != nil {
				break
			}
		}
	}
	if ferr != nil {
		return nil, ferr
	}
	if err := fb.Close(); err != nil {
		return nil, err
	}
	post := make([]byte, 0, total)
	for c := range bufs {
		post = append(post, bufs[c]...)
		bufs[c] = nil
	}
	enc := &Encoded{Terms: fb.Bytes(), Postings: post}
	st.termsLen = uint64(len(enc.Terms))
	st.postingsLen = uint64(len(enc.Postings))
	st.termsCRC = crc32.Checksum(enc.Terms, castagnoli)
	st.postingsCRC = crc32.Checksum(enc.Postings, castagnoli)
	enc.Stats = st.encode()
	return enc, nil
}

// encodeTerm writes the term record of postings ps (sorted by document, then
// field) to w, or packs it into the FST value, and returns the value.
// combinedMinDF is the document frequency from which a term that occurs
// in several fields also gets a combined all-fields list.
const combinedMinDF = 32

func (te *termEnc) encodeTerm(w *bytes.Buffer, ps []uint64) (uint64, error) {
	b := te.b
	var mask uint8
	df := 0
	last := uint64(math.MaxUint64)
	te.cnt = [NumFields]int{}
	for i, p := range ps {
		f := p >> postFieldSh & 0xf
		if te.cnt[f] == 0 {
			te.first[f] = i
		}
		te.cnt[f]++
		mask |= 1 << f
		if d := p >> 32; d != last {
			df++
			last = d
		}
	}
	k1, bb := float64(b.p.K1), float64(b.p.B)
	for f := range te.idf {
		if te.cnt[f] > 0 {
			te.idf[f] = idf(int(b.fdocs[f]), te.cnt[f])
		}
	}
	imp := func(f int, p uint64) float64 {
		idx := p >> 32
		return impact(te.idf[f], int(p&postTFMask), int(b.lens[f][idx]), b.avg[f], k1, bb)
	}

	off := w.Len()
	if off > maxRecordOff {
		return 0, errors.New("bm25: postings section too large")
	}
	if df == 1 {
		doc := b.ids[ps[0]>>32]
		if len(ps) == 1 {
			f := int(ps[0] >> postFieldSh & 0xf)
			h := toBF16(float32(imp(f, ps[0])))
			return valInline | uint64(f)<<inlineFieldSh | uint64(h)<<inlineImpSh | uint64(doc), nil
		}
		w.WriteByte(recSingleton | mask)
		w.Write(binary.AppendUvarint(te.vbuf[:0], uint64(doc)))
		for _, p := range ps { // one posting per field, in field order
			h := toBF16(float32(imp(int(p>>postFieldSh&0xf), p)))
			w.WriteByte(byte(h))
			w.WriteByte(byte(h >> 8))
		}
		return uint64(off), nil
	}

	flags := mask
	// A combined list pays for itself on common terms, whose per-field
	// lists a default query would otherwise read one by one; a rare
	// term's few per-field postings are cheap to read, and its combined
	// list would only add bytes.
	multi := bits.OnesCount8(mask) > 1 && df >= combinedMinDF
	if multi {
		flags |= recCombined
	}
	w.WriteByte(flags)
	w.Write(binary.AppendUvarint(te.vbuf[:0], uint64(df)))
	if multi {
		// The combined list: per document, the weighted sum over fields.
		te.dids = te.dids[:0]
		te.imps = te.imps[:0]
		for j, p := range ps {
			f := int(p >> postFieldSh & 0xf)
			x := imp(f, p) * float64(b.p.Weights[f])
			if j > 0 && p>>32 == ps[j-1]>>32 {
				te.imps[len(te.imps)-1] += x
				continue
			}
			te.imps = append(te.imps, x)
			te.dids = append(te.dids, b.ids[p>>32])
		}
		if err := te.writeList(w); err != nil {
			return 0, err
		}
	}
	for f := 0; f < NumFields; f++ {
		if mask&(1<<f) == 0 {
			continue
		}
		te.dids = te.dids[:0]
		te.imps = te.imps[:0]
		for _, p := range ps[te.first[f]:] {
			if int(p>>postFieldSh&0xf) != f {
				continue
			}
			te.imps = append(te.imps, imp(f, p))
			te.dids = append(te.dids, b.ids[p>>32])
		}
		if err := te.writeList(w); err != nil {
			return 0, err
		}
	}
	return uint64(off), nil
}

// writeList writes the list of te.dids with impacts te.imps: scale, count,
// document ids (delta uvarints or a roaring bitmap, whichever is smaller),
// quantized impacts.
func (te *termEnc) writeList(w *bytes.Buffer) error {
	// Impacts are finite and non-negative: plain comparisons, which the
	// builtin max and min of floats are not (they order NaNs and zeros).
	maxImp := 0.0
	for _, x := range te.imps {
		if x > maxImp {
			maxImp = x
		}
	}
	scale := float32(maxImp / quantMax)
	if maxImp <= 0 || !finite(scale) { // all weights zero: contributes nothing
		scale, maxImp = 0, 1
	}
	// The smaller encoding of the ids: delta uvarints pay one or two
	// bytes a document and nothing else, which beats roaring's header on
	// short lists; dense lists are smaller as roaring containers.
	packed := 0
	prev := uint32(0)
	for j, d := range te.dids {
		gap := uint64(d)
		if j > 0 {
			gap = uint64(d - prev - 1)
		}
		prev = d
		packed += uvarintLen(gap)
	}
	size, kind := uint64(packed), uint64(docsPacked)
	// Build the bitmap only when it might be smaller: most lists lose to
	// the uvarints by more than roaring's least possible size.
	if len(te.dids) > maxPacked || packed > minRoaringSize && uint64(packed) > roaringLowerBound(te.dids) {
		te.bm.Clear()
		te.bm.AddMany(te.dids)
		te.bm.RunOptimize()
		if rs := te.bm.GetSerializedSizeInBytes(); rs < size || len(te.dids) > maxPacked {
			size, kind = rs, docsRoaring
		}
	}
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], math.Float32bits(scale))
	w.Write(hdr[:])
	// The quantized impacts; a list whose impacts all round to the
	// largest (a term with the same weight in every document) omits them.
	te.qs = te.qs[:0]
	uniform := len(te.imps) <= len(allMax)
	for _, x := range te.imps {
		q := math.Round(x / maxImp * quantMax)
		switch {
		case q < 1 && x > 0:
			q = 1 // a match never rounds to nothing
		case q < 0:
			q = 0
		case q > quantMax:
			q = quantMax
		}
		uniform = uniform && q == quantMax
		te.qs = append(te.qs, byte(q))
	}
	flags := kind
	if uniform {
		flags |= listUniform
	}
	w.Write(binary.AppendUvarint(te.vbuf[:0], uint64(len(te.dids))))
	w.Write(binary.AppendUvarint(te.vbuf[:0], size<<2|flags))
	start := w.Len()
	if kind == docsRoaring {
		if _, err := te.bm.WriteTo(w); err != nil {
			return err
		}
	} else {
		for j, d := range te.dids {
			gap := uint64(d)
			if j > 0 {
				gap = uint64(d - te.dids[j-1] - 1)
			}
			w.Write(binary.AppendUvarint(te.vbuf[:0], gap))
		}
	}
	if uint64(w.Len()-start) != size {
		return errors.New("bm25: document list size mismatch")
	}
	if !uniform {
		w.Write(te.qs)
	}
	return nil
}

// maxPacked is the longest list whose ids may be delta uvarints. Longer
// lists stay roaring bitmaps whatever their size: their containers are
// faster to add than uvarints to decode, and a long list is where a query
// spends its time.
const maxPacked = roaringArrayMax

// minRoaringSize is the smallest serialized roaring bitmap with one
// container: cookie, count, key and cardinality, offset, one value.
const minRoaringSize = 18

// roaringLowerBound is at most the serialized size of a roaring bitmap of
// ids (ascending, distinct): a 4-byte cookie, a 4-byte header per
// container, and each container in the smallest of its three encodings
// (2 bytes a value, 2 + 4 bytes a run, 8 KiB as a bitmap), whichever the
// library picks.
func roaringLowerBound(ids []uint32) uint64 {
	total := uint64(4)
	for i := 0; i < len(ids); {
		hi := ids[i] >> 16
		card, runs := 0, 0
		for ; i < len(ids) && ids[i]>>16 == hi; i++ {
			if card == 0 || ids[i] != ids[i-1]+1 {
				runs++
			}
			card++
		}
		total += 4 + uint64(min(2*card, 2+4*runs, 8192))
	}
	return total
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// popcount of a field mask.
func popcount(m uint8) int { return bits.OnesCount8(m) }
