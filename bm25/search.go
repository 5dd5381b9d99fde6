package bm25

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// chunk is the number of documents a roaring container spans; the score
// array is padded to whole chunks so that a container's values index it
// without further bounds checks.
const chunk = 1 << 16

// Searcher is a reusable per-goroutine workspace: a dense float32 score
// array over DocLimit rounded up to a multiple of 65,536 documents, a bitset
// of the documents the current query has scored, a bitset of pruning
// candidates, one dirty bit per 65,536 documents, a dictionary reader and
// the result slices; about 4.25 bytes per document id. Adding a posting is
// branch-free (add to the score, set a bit); ranking walks the set bits of
// the dirty chunks in document order and clears them and their scores, so
// the workspace is clean for the next query at no extra cost. After the
// first queries have grown its slices, Search does not allocate.
type Searcher struct {
	ix    *Index
	score []float32 // by document, padded to whole chunks
	seen  []uint64  // bit d: document d has a score
	dirty []uint64  // bit c: chunk c has bits in seen
	cand  []uint64  // bit d: document d may still reach the top k
	lim   uint32    // DocLimit
	units []unit    // posting lists of the current query
	top   []Hit     // the k best scores so far (min-heap, distinct docs)
	th    float32   // top's root score when full, else -Inf
	k     int
	hits  []Hit
	err   error

	single float64 // sum of |single postings| of the current query
	neg    bool    // the current query has a negative boost

	exhaustive bool // tests: never cut
}

// NewSearcher makes a workspace for ix. A nil ix gives a searcher that finds
// nothing.
func NewSearcher(ix *Index) *Searcher {
	s := &Searcher{ix: ix}
	if ix != nil {
		s.lim = ix.st.idLimit
		n := (uint64(s.lim) + chunk - 1) / chunk // chunks
		s.score = make([]float32, n*chunk)
		s.seen = make([]uint64, n*chunk/64)
		s.cand = make([]uint64, n*chunk/64)
		s.dirty = make([]uint64, (n+63)/64)
	}
	return s
}

// Err reports the corruption met by the last Search, or nil.
func (s *Searcher) Err() error { return s.err }

// Search returns the k best documents, best first; equal scores are ordered
// by increasing document id, so results are deterministic. The returned
// slice is owned by the searcher and valid until its next call.
//
// A document's score is the sum over query terms of the term's
// contribution: impact × field weight × boost summed over the fields
// the term's mask selects, where impact is the precomputed BM25 value of the
// term in that field of that document (snapshot/FORMAT.md says how it is
// stored, the package comment the exact float32 arithmetic). Terms not in the
// dictionary, empty terms, empty masks and non-finite boosts contribute
// nothing. If the index bytes turn out corrupt, Search stops reading, ranks
// what it has accumulated and Err reports the problem.
//
// Evaluation is term-at-a-time with an exact MaxScore cut. Single postings
// (terms in one document) are added first, then the posting lists in
// decreasing order of their largest contribution. Once the k-th best score
// so far exceeds what all remaining lists together could add, no document
// without a score can reach the top k; the remaining lists then only update
// the documents that still can, and bitmap containers are intersected with
// those candidates word by word. The ranking is that of exhaustive
// evaluation; additions happen in an order fixed by the query and the index.
// Negative boosts are allowed; they, and k above 64, turn the cut off.
func (s *Searcher) Search(q []QueryTerm, k int) []Hit {
	s.err = nil
	s.hits = s.hits[:0]
	s.units = s.units[:0]
	s.single = 0
	s.top = s.top[:0]
	s.th = float32(math.Inf(-1))
	if s.exhaustive || k > maxPruneK {
		s.th = inf
	}
	s.k = k
	s.neg = false
	if s.ix == nil || k <= 0 || s.lim == 0 {
		return s.hits
	}
	for i := range q {
		if err := s.collect(i, &q[i]); err != nil {
			s.err = err
			break
		}
	}
	pruned := s.run(q, k)
	return s.topK(k, pruned)
}

// unit is one posting list selected by a query.
type unit struct {
	docs, imps []byte
	mult       float32 // scale · weight · boost
	ub         float32 // mult · 255: the largest contribution
	rest       float64 // ub of this and every later unit (after sorting)
	term       int     // index of the query term
	field      int     // the field, -1 for a combined list
	packed     bool    // docs are delta uvarints, not a roaring bitmap
}

// collect resolves query term i: single postings are added at once, posting
// lists become units.
func (s *Searcher) collect(i int, t *QueryTerm) error {
	mask := t.Fields
	if mask == 0 {
		mask = allFields
	}
	mask &= allFields
	boost := t.Boost
	if boost == 0 {
		boost = 1
	}
	if mask == 0 || t.Text == "" || !finite(boost) {
		return nil
	}
	if boost < 0 {
		s.neg = true
	}
	v, ok, err := s.ix.dict.Get(t.Text)
	if err != nil {
		return corruptf("term %q: %v", t.Text, err)
	}
	if !ok {
		return nil
	}
	w := &s.ix.st.params.Weights
	if v&valInline != 0 {
		f := v >> inlineFieldSh & 7
		doc := uint32(v)
		x := fromBF16(uint16(v >> inlineImpSh))
		if v>>(inlineFieldSh+3)&(1<<12-1) != 0 || f >= NumFields ||
			doc >= s.lim || !validImpact(x) {
			return corruptf("term %q: bad inline value %#x", t.Text, v)
		}
		if mask&(1<<f) != 0 {
			s.addSingle(doc, x*w[f]*boost)
		}
		return nil
	}
	if v >= uint64(len(s.ix.postings)) {
		return corruptf("term %q: record offset %d out of range", t.Text, v)
	}
	p := s.ix.postings[v:]
	flags := p[0]
	rmask := flags & recMaskBits
	if rmask == 0 || flags&recSingleton != 0 && flags&recCombined != 0 {
		return corruptf("term %q: bad record flags %#x", t.Text, flags)
	}
	pos := 1
	if flags&recSingleton != 0 {
		doc, n := binary.Uvarint(p[pos:])
		if n <= 0 || doc >= uint64(s.lim) || len(p)-pos-n < 2*bits.OnesCount8(rmask) {
			return corruptf("term %q: bad singleton record", t.Text)
		}
		pos += n
		x := float32(0)
		for f := 0; f < NumFields; f++ {
			if rmask&(1<<f) == 0 {
				continue
			}
			y := fromBF16(binary.LittleEndian.Uint16(p[pos:]))
			pos += 2
			if !validImpact(y) {
				return corruptf("term %q: bad singleton impact", t.Text)
			}
			if mask&(1<<f) != 0 {
				x += y * w[f]
			}
		}
		if rmask&mask != 0 {
			s.addSingle(uint32(doc), x*boost)
		}
		return nil
	}
	_, n := binary.Uvarint(p[pos:]) // document frequency, not needed here
	if n <= 0 {
		return corruptf("term %q: bad document frequency", t.Text)
	}
	pos += n
	if flags&recCombined != 0 {
		l, ok := parseList(p, pos)
		if !ok {
			return corruptf("term %q: combined list truncated", t.Text)
		}
		if rmask&^mask == 0 { // every field of the term is selected
			s.addUnit(i, -1, l, l.scale*boost)
			return nil
		}
		pos = l.end
	}
	for f := 0; f < NumFields; f++ {
		if rmask&(1<<f) == 0 {
			continue
		}
		l, ok := parseList(p, pos)
		if !ok {
			return corruptf("term %q: field %d list truncated", t.Text, f)
		}
		pos = l.end
		if mask&(1<<f) == 0 {
			continue
		}
		s.addUnit(i, f, l, l.scale*w[f]*boost)
	}
	return nil
}

func (s *Searcher) addUnit(term, field int, l list, mult float32) {
	s.units = append(s.units, unit{docs: l.docs, imps: l.imps, mult: mult, ub: mult * quantMax, term: term, field: field, packed: l.packed})
}

// addSingle adds one posting stored inline or in a singleton record.
func (s *Searcher) addSingle(d uint32, x float32) {
	s.add(d, x)
	s.single += math.Abs(float64(x))
}

// Pruning parameters.
const (
	// maxPruneK is the largest k for which Search prunes; keeping the k
	// best scores up to date costs O(k) per improvement.
	maxPruneK = 64
	// maxPruneTries bounds the passes spent looking for the cut per query.
	maxPruneTries = 3
	// pruneSlack widens the bounds so that float32 rounding, which depends
	// on the order of additions, cannot make the cut drop a document that
	// belongs in the top k.
	pruneSlack = 1e-4
)

// run adds the collected units' postings and reports whether it cut, that
// is whether only candidate documents can rank.
func (s *Searcher) run(q []QueryTerm, k int) bool {
	us := s.units
	for i := 1; i < len(us); i++ { // insertion sort: ub descending, stable
		for j := i; j > 0 && us[j].ub > us[j-1].ub; j-- {
			us[j], us[j-1] = us[j-1], us[j]
		}
	}
	prunable := !s.exhaustive && !s.neg && k <= maxPruneK
	rest := 0.0
	left := 0 // postings of this and later units
	for i := len(us) - 1; i >= 0; i-- {
		if !(us[i].mult >= 0) {
			prunable = false // a negative boost: scores are not monotone
		}
		rest += float64(us[i].ub)
		us[i].rest = rest
		left += len(us[i].imps)
	}
	done := s.single // bounds every score so far
	doneN := 0       // postings added so far, bounds the scored documents
	cut := false
	tries := 0
	for i := range us {
		u := &us[i]
		// Looking for the cut costs a pass over the scored documents: try
		// only when the bounds allow it and enough work remains to save.
		if !cut && prunable && tries < maxPruneTries && u.rest < done && left >= doneN/2 {
			tries++
			cut = s.prune(u.rest)
		}
		if cut || i == len(us)-1 || tries == maxPruneTries {
			s.th = inf // no later try needs the k best so far
		}
		var ok bool
		switch {
		case u.packed && cut:
			ok = s.addPackedCand(u.docs, u.imps, u.mult)
		case u.packed:
			ok = s.addPacked(u.docs, u.imps, u.mult)
		case cut:
			ok = s.addListCand(u.docs, u.imps, u.mult)
		default:
			ok = s.addList(u.docs, u.imps, u.mult)
		}
		if !ok {
			if u.field < 0 {
				s.err = corruptf("term %q: combined posting list invalid", q[u.term].Text)
			} else {
				s.err = corruptf("term %q: field %d posting list invalid", q[u.term].Text, u.field)
			}
			return cut
		}
		done += float64(u.ub)
		doneN += len(u.imps)
		left -= len(u.imps)
	}
	return cut
}

// prune looks for the cut before lists that can add at most rest to any
// document. θ is the k-th best score so far, kept by offer; if θ exceeds
// rest, no document without a score can reach the top k, so prune marks
// the scored documents that still can (score + rest ≥ θ) as candidates and
// reports true. Both bounds are widened by pruneSlack.
func (s *Searcher) prune(rest float64) bool {
	if len(s.top) < s.k {
		return false
	}
	th := s.top[0].Score
	theta := float64(th)
	slack := pruneSlack * (math.Abs(theta) + rest)
	if theta <= rest+slack {
		return false
	}
	floor := float32(theta - rest - slack)
	for i, m := range s.dirty {
		for m != 0 {
			c := i<<6 | bits.TrailingZeros64(m)
			m &= m - 1
			ws := (*[chunk / 64]uint64)(s.seen[c*(chunk/64) : (c+1)*(chunk/64)])
			cw := (*[chunk / 64]uint64)(s.cand[c*(chunk/64) : (c+1)*(chunk/64)])
			sc := (*[chunk]float32)(s.score[c*chunk : (c+1)*chunk])
			for wi, word := range ws {
				cand := uint64(0)
				for ; word != 0; word &= word - 1 {
					b := bits.TrailingZeros64(word)
					cand |= b2u(sc[wi<<6|b] >= floor) << b // branch-free: the outcome is random
				}
				cw[wi] = cand
			}
		}
	}
	return true
}

// offer records that document d now scores y > s.th, keeping s.top the k
// best scores so far over distinct documents. Scores only grow while
// pruning is allowed, so the root of a full s.top bounds the final k-th
// score from below. Offers are rare: a posting makes one only when it lifts
// its document above the current k-th best.
//
//go:noinline
func (s *Searcher) offer(d uint32, y float32) {
	if d >= s.lim {
		return // corrupt; topK reports it
	}
	h := s.top
	for i := range h {
		if h[i].Doc == d {
			h[i].Score = y
			down(h, i, len(h))
			s.th = h[0].Score
			return
		}
	}
	if len(h) < s.k {
		h = append(h, Hit{Doc: d, Score: y})
		up(h, len(h)-1)
		s.top = h
		if len(h) == s.k {
			s.th = h[0].Score
		}
		return
	}
	h[0] = Hit{Doc: d, Score: y}
	down(h, 0, len(h))
	s.th = h[0].Score
}

// add adds x to document d's score; d < s.lim.
func (s *Searcher) add(d uint32, x float32) {
	y := s.score[d] + x
	s.score[d] = y
	if y > s.th {
		s.offer(d, y)
	}
	s.seen[d>>6] |= 1 << (d & 63)
	s.dirty[d>>22] |= 1 << (d >> 16 & 63)
}

// addList adds mult·q to the score of every document of one posting list: r
// is a portable roaring bitmap, imps the quantized impacts q in document
// order. It reports false, having added a prefix of the list, when the bytes
// are malformed. Documents are visited in increasing order, so the score
// array is walked forward. A document id at or above DocLimit but inside
// the padded score array is caught by topK.
func (s *Searcher) addList(r, imps []byte, mult float32) bool {
	h, ok := parseRoaring(r)
	if !ok {
		return false
	}
	le := binary.LittleEndian
	pos, i := h.body, 0
	th := s.th
	for c := 0; c < h.size; c++ {
		key, card, kind, body, next, ok := s.frame(&h, r, c, pos, len(imps)-i)
		if !ok {
			return false
		}
		pos = next
		s.dirty[key>>22] |= 1 << (key >> 16 & 63)
		sc := (*[chunk]float32)(s.score[key : key+chunk])
		sn := (*[chunk / 64]uint64)(s.seen[key/64 : key/64+chunk/64])
		switch kind {
		case containerRun:
			for j := 0; j < len(body); j += 4 {
				start, length, ok := runAt(body, j, len(imps)-i)
				if !ok {
					return false
				}
				v := uint16(start)
				for _, q := range imps[i : i+length+1] {
					y := sc[v] + mult*float32(q)
					sc[v] = y
					sn[v>>6] |= 1 << (v & 63)
					if y > th {
						s.offer(key|uint32(v), y)
						th = s.th
					}
					v++
				}
				i += length + 1
			}
		case containerArray:
			qs := imps[i : i+card]
			i += card
			for j, q := range qs {
				v := le.Uint16(body[2*j:])
				y := sc[v] + mult*float32(q)
				sc[v] = y
				sn[v>>6] |= 1 << (v & 63)
				if y > th {
					s.offer(key|uint32(v), y)
					th = s.th
				}
			}
		default:
			for w := uint16(0); w < chunk/64; w++ {
				word := le.Uint64(body[8*int(w):])
				if word == 0 {
					continue
				}
				if len(imps)-i < bits.OnesCount64(word) {
					return false
				}
				sn[w] |= word
				base := w << 6
				for word != 0 {
					v := base | uint16(bits.TrailingZeros64(word))
					word &= word - 1
					y := sc[v] + mult*float32(imps[i])
					sc[v] = y
					i++
					if y > th {
						s.offer(key|uint32(v), y)
						th = s.th
					}
				}
			}
		}
	}
	return i == len(imps) && pos == len(r)
}

// frame is roaringHeader.frame for Search's loops, which also need the
// container inside the score array and, for an array container, its
// impacts among the left ones not yet used.
func (s *Searcher) frame(h *roaringHeader, r []byte, c, pos, left int) (key uint32, card, kind int, body []byte, next int, ok bool) {
	key, card, kind, body, next, ok = h.frame(r, c, pos)
	ok = ok && key/chunk < uint32(len(s.score)/chunk) && (kind != containerArray || card <= left)
	return key, card, kind, body, next, ok
}

// runAt reads the run at runs[j:] of a run container: its first value and
// its length-1, ok when it stays inside the container and the left
// impacts not yet used hold one for each of its values.
func runAt(runs []byte, j, left int) (start, length int, ok bool) {
	start, length = int(binary.LittleEndian.Uint16(runs[j:])), int(binary.LittleEndian.Uint16(runs[j+2:]))
	return start, length, start+length < chunk && length < left
}

// addPacked is addList for a list whose ids are delta uvarints: the first
// id, then each id minus the previous one minus 1.
func (s *Searcher) addPacked(r, imps []byte, mult float32) bool {
	lim := uint64(len(s.score))
	pos := 0
	d := noPacked
	for _, q := range imps {
		var ok bool
		if d, pos, ok = nextPacked(r, pos, d, lim); !ok {
			return false
		}
		s.add(uint32(d), mult*float32(q))
	}
	return pos == len(r)
}

// nextPacked reads the id at r[pos:] of a delta-uvarint list, the one
// after d (the first one when d is noPacked), and the offset after it; ok
// when the uvarint is complete, at most 10 bytes long, and the id is below
// lim, which is at most 1<<32. Gaps take one to three bytes; those are
// decoded inline.
func nextPacked(r []byte, pos int, d, lim uint64) (id uint64, next int, ok bool) {
	v, k := uint64(0), 0
	if pos+2 < len(r) { // room for three bytes
		b0, b1, b2 := r[pos], r[pos+1], r[pos+2]
		switch {
		case b0 < 0x80:
			v, k = uint64(b0), 1
		case b1 < 0x80:
			v, k = uint64(b0&0x7f)|uint64(b1)<<7, 2
		case b2 < 0x80:
			v, k = uint64(b0&0x7f)|uint64(b1&0x7f)<<7|uint64(b2)<<14, 3
		}
	}
	if k == 0 && pos < len(r) {
		v, k = binary.Uvarint(r[pos:])
	}
	ok = k > 0 && v < lim // then v + d + 1 cannot wrap around
	v += d + 1
	return v, pos + k, ok && v < lim
}

// noPacked stands for the id before a delta-uvarint list's first: the
// first id is stored as is, which is as a gap from -1.
const noPacked = ^uint64(0)

// addPackedCand is addPacked restricted to candidate documents.
func (s *Searcher) addPackedCand(r, imps []byte, mult float32) bool {
	lim := uint64(len(s.score))
	pos := 0
	d := noPacked
	m := [2]float32{0, mult}
	for _, q := range imps {
		var ok bool
		if d, pos, ok = nextPacked(r, pos, d, lim); !ok {
			return false
		}
		s.score[d] += m[s.cand[d>>6]>>(d&63)&1] * float32(q)
	}
	return pos == len(r)
}

// addListCand is addList restricted to candidate documents, which already
// have scores, so no bits change. Bitmap containers are intersected with the
// candidate bitset word by word and runs are walked through it; array
// containers test each value.
func (s *Searcher) addListCand(r, imps []byte, mult float32) bool {
	h, ok := parseRoaring(r)
	if !ok {
		return false
	}
	le := binary.LittleEndian
	pos, i := h.body, 0
	for c := 0; c < h.size; c++ {
		key, card, kind, body, next, ok := s.frame(&h, r, c, pos, len(imps)-i)
		if !ok {
			return false
		}
		pos = next
		sc := (*[chunk]float32)(s.score[key : key+chunk])
		cw := (*[chunk / 64]uint64)(s.cand[key/64 : key/64+chunk/64])
		switch kind {
		case containerRun:
			for j := 0; j < len(body); j += 4 {
				start, length, ok := runAt(body, j, len(imps)-i)
				if !ok {
					return false
				}
				end := start + length // inclusive
				for w := start >> 6; w <= end>>6; w++ {
					word := cw[w]
					if w == start>>6 {
						word &= ^uint64(0) << (start & 63)
					}
					if w == end>>6 {
						word &= ^uint64(0) >> (63 - end&63)
					}
					for word != 0 {
						v := w<<6 | bits.TrailingZeros64(word)
						word &= word - 1
						sc[v] += mult * float32(imps[i+v-start])
					}
				}
				i += length + 1
			}
		case containerArray:
			qs := imps[i : i+card]
			i += card
			m := [2]float32{0, mult} // branch-free: whether v is a candidate is random
			for j, q := range qs {
				v := le.Uint16(body[2*j:])
				sc[v] += m[cw[v>>6]>>(v&63)&1] * float32(q)
			}
		default:
			for w := uint16(0); w < chunk/64; w++ {
				word := le.Uint64(body[8*int(w):])
				if word == 0 {
					continue
				}
				n := bits.OnesCount64(word)
				if len(imps)-i < n {
					return false
				}
				for hit := word & cw[w]; hit != 0; hit &= hit - 1 {
					b := bits.TrailingZeros64(hit)
					rank := i + bits.OnesCount64(word&(1<<b-1))
					sc[w<<6|uint16(b)] += mult * float32(imps[rank])
				}
				i += n
			}
		}
	}
	return i == len(imps) && pos == len(r)
}

// worse orders hits: lower score first, then higher document id.
func worse(a, b Hit) bool {
	return a.Score < b.Score || a.Score == b.Score && a.Doc > b.Doc
}

// topK walks the scored documents (only the candidates after a cut) in
// increasing order and keeps the k best in a bounded heap whose root is the
// worst kept hit, then heap-sorts them best first. It clears the scores,
// bits and candidates as it goes.
func (s *Searcher) topK(k int, cut bool) []Hit {
	h := s.hits[:0]
	th := float32(0) // the root's score once the heap is full
	full := false
	for i, m := range s.dirty {
		if m == 0 {
			continue
		}
		s.dirty[i] = 0
		for m != 0 {
			c := i<<6 | bits.TrailingZeros64(m)
			m &= m - 1
			ws := (*[chunk / 64]uint64)(s.seen[c*(chunk/64) : (c+1)*(chunk/64)])
			cw := (*[chunk / 64]uint64)(s.cand[c*(chunk/64) : (c+1)*(chunk/64)])
			sc := (*[chunk]float32)(s.score[c*chunk : (c+1)*chunk])
			last := int(s.lim) - c*chunk // documents of this chunk below DocLimit
			for wi := range ws {
				word := ws[wi]
				if word == 0 {
					continue
				}
				ws[wi] = 0
				base := wi << 6
				blk := (*[64]float32)(sc[base : base+64])
				if cut {
					word = cw[wi]
					cw[wi] = 0
				}
				if base+64 > last && word != 0 { // ids at or above DocLimit are corrupt
					keep := uint64(0)
					if last > base {
						keep = word & (1<<(last-base) - 1)
					}
					if word != keep && s.err == nil {
						s.err = corruptf("document %d out of range", c*chunk+base+bits.TrailingZeros64(word&^keep))
					}
					word = keep
				}
				for ; word != 0; word &= word - 1 {
					b := bits.TrailingZeros64(word)
					x := blk[b]
					if !full || x > th { // ties keep the lower id, seen first
						d := uint32(c*chunk + base + b)
						if !full {
							h = append(h, Hit{Doc: d, Score: x})
							up(h, len(h)-1)
							full = len(h) == k
						} else {
							h[0] = Hit{Doc: d, Score: x}
							down(h, 0, len(h))
						}
						th = h[0].Score
					}
				}
				*blk = [64]float32{}
			}
		}
	}
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		down(h, 0, n)
	}
	s.hits = h
	return h
}

func up(h []Hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []Hit, i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && worse(h[c+1], h[c]) {
			c++
		}
		if !worse(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

var inf = float32(math.Inf(1))

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
