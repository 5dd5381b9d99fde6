package query

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/snapshot"
)

// The seed channels, in the order fusion reads them.
const (
	chTiered = iota
	chBM25
	chEquiv
	chPath
	chInterface
	chAlias
	chVector
	chBody
	numChannels
)

var channelNames = [numChannels]string{"tiered", "bm25", "equivalence", "path", "interface", "graph-alias", "vector", "body"}

// channels runs the seed channels over the task (step 3) and returns
// each channel's ranked list. Path context is no fusion channel: it seeds
// the walk at low weight (walk). The hashed-vector channel runs only when
// asked for (Options.Vector).
func (e *Engine) channels(ws *workspace, kw *Keywords, task string, vector bool) [numChannels][]uint32 {
	lower := strings.ToLower(task)
	lists := [numChannels][]uint32{}
	lists[chTiered] = e.tiered(ws, kw)
	lists[chBM25] = e.bm25Channel(ws, kw)
	lists[chEquiv] = e.equivChannel(ws, lower, kw.aux(), len(lists[chTiered])+len(lists[chBM25]))
	lists[chPath] = e.pathChannel(ws, kw)
	lists[chAlias] = e.aliasChannel(ws, lists[chTiered])
	if e.tune.Body > 0 {
		lists[chBody] = e.bodyChannel(ws, kw)
	}
	if vector {
		pool := append(append([]uint32{}, lists[chTiered]...), lists[chBM25]...)
		lists[chVector] = e.vectorChannel(ws, kw, pool)
	}
	return lists
}

// Caps of the name-matching tiers (exact, prefix, substring, component
// fallback) and of the BM25 channel: how long each tier runs and how many
// symbols it keeps. A BM25 channel of 50 instead of 30 lowered dev P@10
// while it raised gostd's (EVAL.md, Experiments).
const (
	prefixUntil    = 15 // run the prefix tier while fewer results
	prefixCap      = 30
	fallbackUntil  = 5 // components only when the primary keywords found fewer
	substringUntil = 5
	substringCap   = 20
	bm25Cap        = 30
	stemMinLen     = 7  // the shortest task word the BM25 stem expansion widens
	exactCap       = 64 // symbols kept per keyword by the exact tier
)

// matchSet collects ranked unique node ids for one channel, using the
// workspace's node set.
type matchSet struct {
	ws  *workspace
	ids []uint32
}

func newMatchSet(ws *workspace) matchSet {
	ws.newSet()
	return matchSet{ws: ws}
}

func (m *matchSet) add(id uint32) bool {
	if !m.ws.addToSet(id) {
		return false
	}
	m.ids = append(m.ids, id)
	return true
}

// prefer orders the nodes found for one keyword: real code before noise,
// tests and examples (unless allowed, see auxFlags), types and callables
// before fields and variables, shorter qualified names (less nested)
// first.
func (e *Engine) prefer(ws *workspace, ids []uint32, allow snapshot.Flags) {
	// One sort key per node (kind preference, name length, id), computed
	// once rather than in every comparison.
	keys := ws.prefKeys[:0]
	for _, id := range ids {
		r := uint64(e.kindPref(id, allow))
		l := uint64(min(len(e.s.QName(id)), 0xffff))
		keys = append(keys, r<<48|l<<32|uint64(id))
	}
	slices.Sort(keys)
	for i, k := range keys {
		ids[i] = uint32(k)
	}
	ws.prefKeys = keys
}

// exact finds symbols named kw (case-insensitive). A dotted keyword
// "Type.member" keeps the members whose qualified name ends with it.
func (e *Engine) exact(ws *workspace, kw string, fallback bool, allow snapshot.Flags) []uint32 {
	kw = strings.ToLower(kw)
	qual := ""
	if i := strings.LastIndexByte(kw, '.'); i >= 0 {
		qual, kw = kw[:i], kw[i+1:]
	}
	ws.ids = e.s.LookupName(kw, ws.ids[:0])
	defer func() {
		// A very common name (Reader, get) matches hundreds of symbols:
		// keep the best of them.
		if len(ws.ids) > exactCap {
			ws.ids = ws.ids[:exactCap]
		}
	}()
	if qual != "" {
		dotted := qual + "." + kw
		kept := ws.ids[:0]
		for _, id := range ws.ids {
			if qnameEndsWith(e.s.QName(id), dotted) {
				kept = append(kept, id)
			}
		}
		// A Container.name that names nothing falls back to every
		// symbol called name, if fallback; a longer qualified name (a
		// stack frame's package.Class.method) that names nothing is
		// outside the index.
		if len(kept) > 0 || !fallback || strings.Contains(qual, ".") {
			ws.ids = kept
		}
	}
	e.prefer(ws, ws.ids, allow)
	return ws.ids
}

// prefix finds symbols whose lower-cased name starts with kw.
func (e *Engine) prefix(ws *workspace, kw string, limit int, allow snapshot.Flags) []uint32 {
	kw = strings.ToLower(kw)
	if i := strings.LastIndexByte(kw, '.'); i >= 0 {
		kw = kw[i+1:]
	}
	ws.ids = ws.ids[:0]
	if e.tune.StemTiered > 0 && len(kw) >= 7 && !strings.ContainsAny(kw, "_") {
		// A long word's stem (resolution → resol(ve|ver)), unless the
		// stem is so common in this codebase that it names too much.
		stem, keys := kw[:5], 0
		ws.nameIt.Reset(stem)
		for keys <= int(e.tune.StemTiered) && ws.nameIt.Next() {
			keys++
		}
		if keys <= int(e.tune.StemTiered) {
			kw = stem
		}
	}
	ws.nameIt.Reset(kw)
	for ws.nameIt.Next() && len(ws.ids) < 4*limit {
		if string(ws.nameIt.Key()) == kw {
			continue // the exact tier has it
		}
		ws.ids = ws.nameIt.Nodes(ws.ids)
	}
	e.prefer(ws, ws.ids, allow)
	return ws.ids
}

// tiered is the name-matching channel: the primary keywords (exact and
// compounds) through exact and prefix tiers, components only as a
// fallback, then a substring tier through the name-part index. The
// results are ordered by tier, then by kind (types and callables before
// fields and variables), then by keyword order.
func (e *Engine) tiered(ws *workspace, kw *Keywords) []uint32 {
	type hit struct {
		id         uint32
		tier, pref int
		kw, pos    int
		cover      int // distinct task words in the qualified name
	}
	var hits []hit
	allow := kw.aux()
	ws.newSet()
	prefixAdded := 0
	kwIndex := 0
	words := kw.Pos
	add := func(id uint32, tier int) bool {
		if !ws.addToSet(id) {
			return false
		}
		h := hit{id: id, tier: tier, pref: e.kindPref(id, allow), kw: kwIndex, pos: len(hits)}
		if tier >= 2 {
			// A one-word match is weak evidence unless the symbol's
			// qualified name (package, container) carries more of the
			// task's words.
			h.cover = e.coverage(ws, id)
			if h.cover < 2 && len(words) >= 2 {
				h.tier++
			}
		}
		hits = append(hits, h)
		return true
	}
	run := func(words []string, tier0 int) {
		for i, w := range words {
			kwIndex = i
			// Container.name that names nothing falls back to every
			// symbol called name, unless name is a keyword of its own
			// (a stack frame's), which finds them in its turn.
			fallback := true
			if j := strings.LastIndexByte(w, '.'); j >= 0 {
				fallback = !slices.Contains(words, w[j+1:])
			}
			for _, id := range e.exact(ws, w, fallback, allow) {
				add(id, tier0)
			}
		}
		for i, w := range words {
			kwIndex = i
			if len(hits) >= prefixUntil || prefixAdded >= prefixCap || len(w) < 3 {
				continue
			}
			for _, id := range e.prefix(ws, w, prefixCap, allow) {
				if prefixAdded >= prefixCap {
					break
				}
				if add(id, tier0+1) {
					prefixAdded++
				}
			}
		}
	}
	run(kw.Primary(), 0)
	if len(hits) < fallbackUntil {
		run(kw.Components, 2)
	}
	if len(hits) < substringUntil {
		added := 0
		for i, w := range append(kw.Primary(), kw.Components...) {
			kwIndex = i
			if len(w) < 4 || strings.ContainsAny(w, "._") {
				continue
			}
			ws.ids = e.s.LookupPart(strings.ToLower(w), ws.ids[:0])
			e.prefer(ws, ws.ids, allow)
			for _, id := range ws.ids {
				if added >= substringCap {
					break
				}
				if add(id, 4) {
					added++
				}
			}
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		x, y := hits[a], hits[b]
		if x.tier != y.tier {
			return x.tier < y.tier
		}
		if x.cover != y.cover {
			return x.cover > y.cover
		}
		if x.pref != y.pref {
			return x.pref < y.pref
		}
		return x.pos < y.pos
	})
	out := make([]uint32, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
}

// coverage counts the distinct task words that start an identifier part
// of a symbol's qualified name (after a separator or at a case change), by
// a case-insensitive search that does not allocate.
func (e *Engine) coverage(ws *workspace, id uint32) int {
	if ws.covStamp[id] == ws.epoch {
		return int(ws.cov[id])
	}
	q := e.s.QName(id)
	// Lower-case once, then let bytes.Index find candidates.
	if cap(ws.lower) < len(q) {
		ws.lower = make([]byte, len(q), 2*len(q))
	}
	ws.lower = ws.lower[:len(q)]
	for i := 0; i < len(q); i++ {
		ws.lower[i] = lowerByte(q[i])
	}
	n := 0
	for _, w := range ws.words {
		if hasPartLower(q, ws.lower, w) {
			n++
		}
	}
	ws.covStamp[id], ws.cov[id] = ws.epoch, uint8(min(n, 255))
	return n
}

// HasPart reports whether lower-case word w occurs in s, case-insensitively,
// starting an identifier part: at the start, after a non-letter, or at a
// lower-to-upper case change. It is how a task word matches a name
// ("store" is a part of MemoryStore and memory_store, not of restore).
func HasPart(s, w string) bool {
	if len(w) == 0 || len(w) > len(s) {
		return false
	}
	for i := 0; i+len(w) <= len(s); i++ {
		if i > 0 {
			p, c := s[i-1], s[i]
			boundary := !isLetter(p) || p >= 'a' && p <= 'z' && c >= 'A' && c <= 'Z'
			if !boundary {
				continue
			}
		}
		j := 0
		for j < len(w) && lowerByte(s[i+j]) == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// hasPartLower is HasPart with the lower-cased s given: occurrences are
// found by bytes.Index and checked for a part boundary in s.
func hasPartLower(s string, lower []byte, w string) bool {
	from := 0
	for from+len(w) <= len(lower) {
		j := bytes.Index(lower[from:], []byte(w))
		if j < 0 {
			return false
		}
		i := from + j
		if i == 0 {
			return true
		}
		p, c := s[i-1], s[i]
		if !isLetter(p) || p >= 'a' && p <= 'z' && c >= 'A' && c <= 'Z' {
			return true
		}
		from = i + 1
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// kindPref ranks what a name match found: real code before noise and
// tests and examples (unless allowed), types and callables before fields
// and variables.
func (e *Engine) kindPref(id uint32, allow snapshot.Flags) int {
	r := 0
	f := e.s.Flags(id)
	if f.Noise() {
		r += 8
	}
	if f&auxFlags&^allow != 0 {
		r += 4
	}
	k := e.s.Kind(id)
	if !k.IsType() && !k.IsCallable() {
		r += 2
	}
	if k == snapshot.KindFile || k == snapshot.KindPackage || k == snapshot.KindExternal {
		r += 16
	}
	return r
}

// bm25Channel searches the multi-field index: compounds aimed at the
// name fields with a boost, components over all fields, path words over
// the path field.
func (e *Engine) bm25Channel(ws *workspace, kw *Keywords) []uint32 {
	q := ws.terms[:0]
	seen := ws.termSeen
	clear(seen)
	addTerms := func(text string, fields uint8, boost float32) {
		ws.toks = bm25.AppendTokens(ws.toks[:0], text)
		for _, t := range ws.toks {
			key := t + string(rune('0'+fields))
			if seen[key] || IsStopWord(t) {
				continue
			}
			seen[key] = true
			q = append(q, bm25.QueryTerm{Text: t, Fields: fields, Boost: boost})
		}
	}
	nameFields := uint8(1<<bm25.FieldName | 1<<bm25.FieldQName)
	for _, c := range kw.Exact {
		addTerms(c, nameFields, 2)
	}
	for _, c := range kw.Compounds {
		// The compound as one term, aimed at names; its parts are
		// components already.
		ws.toks = bm25.AppendTokens(ws.toks[:0], c)
		if len(ws.toks) > 0 {
			t := ws.toks[0]
			key := t + string(rune('0'+nameFields))
			if !seen[key] {
				seen[key] = true
				q = append(q, bm25.QueryTerm{Text: t, Fields: nameFields, Boost: 2})
			}
		}
	}
	for _, c := range kw.Components {
		addTerms(c, 0, e.lateBoost(kw, c))
	}
	for _, p := range kw.Paths {
		addTerms(p, 1<<bm25.FieldPath|1<<bm25.FieldConcepts, 1)
	}
	if e.tune.Base > 0 {
		// A verb's base form, where the index has it: opened → open,
		// parsed → parse, stopped → stop, copied → copy, reading → read.
		for _, c := range kw.Components {
			if len(c) >= stemMinLen && e.tune.Stem > 0 {
				continue // the stem expansion below covers it
			}
			ws.bases = verbBases(c, ws.bases[:0])
			for _, t := range ws.bases {
				key := t + string(rune('0'))
				if seen[key] || e.ix.DocFreq(t) == 0 {
					continue
				}
				seen[key] = true
				q = append(q, bm25.QueryTerm{Text: t, Boost: float32(e.tune.Base)})
				break
			}
		}
	}
	if e.tune.Stem > 0 {
		// Morphology without a word list: a long word's first letters,
		// expanded through the term dictionary ("resolution" → resolve,
		// resolver; "compilation" → compile, compiler), at low weight.
		for _, c := range kw.Components {
			if len(c) < stemMinLen || strings.ContainsAny(c, "_.") {
				continue
			}
			stem := c[:max(5, len(c)*6/10)]
			ws.exp = e.ix.ExpandPrefix(stem[:5], ws.exp[:0], 24)
			n := 0
			for _, t := range ws.exp {
				if n == 6 || t == c || len(t) > len(c)+6 || strings.ContainsAny(t, "_./") {
					continue
				}
				key := t + string(rune('0'))
				if seen[key] {
					continue
				}
				seen[key] = true
				q = append(q, bm25.QueryTerm{Text: t, Boost: float32(e.tune.Stem)})
				n++
			}
		}
	}
	if len(q) > 32 {
		q = q[:32]
	}
	ws.terms = q
	return e.searchKept(ws.searcher, q, bm25Cap, kw.aux())
}

// lateBoost is a component's BM25 boost: words far into a long task
// weigh less than its opening, 1/(1 + Late·pos/10).
func (e *Engine) lateBoost(kw *Keywords, c string) float32 {
	if e.tune.Late <= 0 {
		return 1
	}
	return float32(1 / (1 + e.tune.Late*float64(kw.Pos[c])/10))
}

// searchKept runs q on a searcher and returns the first limit hits that
// keep allows (it searches twice as deep, for the hits it drops).
func (e *Engine) searchKept(s *bm25.Searcher, q []bm25.QueryTerm, limit int, allow snapshot.Flags) []uint32 {
	var out []uint32
	for _, h := range s.Search(q, limit*2) {
		if len(out) == limit {
			break
		}
		if e.keep(h.Doc, allow) {
			out = append(out, h.Doc)
		}
	}
	return out
}

// pathChannel finds types in folders and files the task names: path words
// of four letters or more, matched against the path and concept fields.
func (e *Engine) pathChannel(ws *workspace, kw *Keywords) []uint32 {
	q := ws.terms[:0]
	for _, c := range kw.Components {
		if len(c) < 4 || commonEnglish[c] {
			continue
		}
		q = append(q, bm25.QueryTerm{Text: c, Fields: 1 << bm25.FieldConcepts})
	}
	for _, p := range kw.Paths {
		ws.toks = bm25.AppendTokens(ws.toks[:0], p)
		for _, t := range ws.toks {
			if len(t) >= 4 && !commonEnglish[t] {
				q = append(q, bm25.QueryTerm{Text: t, Fields: 1<<bm25.FieldConcepts | 1<<bm25.FieldPath})
			}
		}
	}
	if len(q) == 0 {
		return nil
	}
	ws.terms = q
	hits := ws.searcher.Search(q, 200)
	var rich, lean []uint32
	allow := kw.aux()
	for _, h := range hits {
		k := e.s.Kind(h.Doc)
		if !k.IsType() || !e.keep(h.Doc, allow) {
			continue
		}
		if e.s.Degree(h.Doc, snapshot.Out) > 2 {
			if len(rich) < 10 {
				rich = append(rich, h.Doc)
			}
		} else if len(lean) < 10 {
			lean = append(lean, h.Doc)
		}
	}
	return append(rich, lean...)
}

// commonEnglish are words too general to name a folder worth seeding.
var commonEnglish = set(`about after again before being between could every first found going great
large little might never other should since small still their there these thing think those three
through under until where which while would years other using value values given return returns
called calls when what with from into that this than then them they have been were will more most
some such only also does done make made each used uses like just over much many well same`)

// verbBases appends the base forms a lower-case word ending in -ed or
// -ing may have, likeliest first. Words under five letters are left
// alone (bed, red, king).
func verbBases(w string, dst []string) []string {
	var stem string
	switch {
	case len(w) >= 5 && strings.HasSuffix(w, "ied"):
		return append(dst, w[:len(w)-3]+"y")
	case len(w) >= 5 && strings.HasSuffix(w, "ed"):
		stem = w[:len(w)-2]
		dst = append(dst, stem, w[:len(w)-1]) // opened → open, parsed → parse
	case len(w) >= 6 && strings.HasSuffix(w, "ing"):
		stem = w[:len(w)-3]
		if len(stem) >= 4 { // not string → str
			dst = append(dst, stem)
		}
		dst = append(dst, stem+"e") // reading → read, parsing → parse, timing → time
	default:
		return dst
	}
	if n := len(stem); n >= 3 && stem[n-1] == stem[n-2] && !strings.ContainsRune("aeiouslz", rune(stem[n-1])) {
		dst = append(dst, stem[:n-1]) // stopped → stop, running → run
	}
	return dst
}
