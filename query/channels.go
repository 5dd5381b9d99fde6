package query

import (
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/snapshot"
)

// Caps of the tiered channel (seed document, tiered keyword matching).
const (
	prefixUntil    = 15 // run the prefix tier while fewer results
	prefixCap      = 30
	fallbackUntil  = 5 // components only when the primary keywords found fewer
	substringUntil = 5
	substringCap   = 20
	bm25Cap        = 30
)

// matchSet collects ranked unique node ids for one channel.
type matchSet struct {
	ids  []uint32
	seen map[uint32]bool
}

func (m *matchSet) add(id uint32) bool {
	if m.seen == nil {
		m.seen = map[uint32]bool{}
	}
	if m.seen[id] {
		return false
	}
	m.seen[id] = true
	m.ids = append(m.ids, id)
	return true
}

// prefer orders the nodes found for one keyword: real code before noise
// and tests, types and callables before fields and variables, shorter
// qualified names (less nested) first.
func (e *Engine) prefer(ids []uint32, tests bool) {
	rank := func(id uint32) int {
		r := 0
		f := e.s.Flags(id)
		if f.Noise() {
			r += 8
		}
		if f&snapshot.FlagTest != 0 && !tests {
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
	sort.SliceStable(ids, func(a, b int) bool {
		ra, rb := rank(ids[a]), rank(ids[b])
		if ra != rb {
			return ra < rb
		}
		la, lb := len(e.s.QName(ids[a])), len(e.s.QName(ids[b]))
		if la != lb {
			return la < lb
		}
		return ids[a] < ids[b]
	})
}

// exact finds symbols named kw (case-insensitive). A dotted keyword
// "Type.member" keeps the members whose qualified name ends with it.
func (e *Engine) exact(ws *workspace, kw string, tests bool) []uint32 {
	kw = strings.ToLower(kw)
	qual := ""
	if i := strings.LastIndexByte(kw, '.'); i >= 0 {
		qual, kw = kw[:i], kw[i+1:]
	}
	ws.ids = e.s.LookupName(kw, ws.ids[:0])
	if qual != "" {
		suffix := "." + qual + "." + kw
		kept := ws.ids[:0]
		for _, id := range ws.ids {
			q := strings.ToLower(e.s.QName(id))
			if strings.HasSuffix(q, suffix) || strings.HasSuffix(strings.ReplaceAll(q, "/", "."), suffix) {
				kept = append(kept, id)
			}
		}
		if len(kept) > 0 {
			ws.ids = kept
		}
	}
	e.prefer(ws.ids, tests)
	return ws.ids
}

// prefix finds symbols whose lower-cased name starts with kw.
func (e *Engine) prefix(ws *workspace, kw string, limit int, tests bool) []uint32 {
	kw = strings.ToLower(kw)
	if i := strings.LastIndexByte(kw, '.'); i >= 0 {
		kw = kw[i+1:]
	}
	ws.ids = ws.ids[:0]
	ws.nameIt.Reset(kw)
	for ws.nameIt.Next() && len(ws.ids) < 4*limit {
		if string(ws.nameIt.Key()) == kw {
			continue // the exact tier has it
		}
		ws.ids = ws.nameIt.Nodes(ws.ids)
	}
	e.prefer(ws.ids, tests)
	return ws.ids
}

// tiered is the name-matching channel: the primary keywords (exact and
// compounds) through exact and prefix tiers, components only as a
// fallback, then a substring tier through the name-part index.
func (e *Engine) tiered(ws *workspace, kw *Keywords) []uint32 {
	var m matchSet
	prefixAdded := 0
	run := func(words []string) {
		for _, w := range words {
			for _, id := range e.exact(ws, w, kw.Tests) {
				m.add(id)
			}
		}
		for _, w := range words {
			if len(m.ids) >= prefixUntil || prefixAdded >= prefixCap || len(w) < 3 {
				continue
			}
			for _, id := range e.prefix(ws, w, prefixCap, kw.Tests) {
				if prefixAdded >= prefixCap {
					break
				}
				if m.add(id) {
					prefixAdded++
				}
			}
		}
	}
	run(kw.Primary())
	if len(m.ids) < fallbackUntil {
		run(kw.Components)
	}
	if len(m.ids) < substringUntil {
		added := 0
		for _, w := range append(kw.Primary(), kw.Components...) {
			if len(w) < 4 || strings.ContainsAny(w, "._") {
				continue
			}
			ws.ids = e.s.LookupPart(strings.ToLower(w), ws.ids[:0])
			e.prefer(ws.ids, kw.Tests)
			for _, id := range ws.ids {
				if added >= substringCap {
					break
				}
				if m.add(id) {
					added++
				}
			}
		}
	}
	return m.ids
}

// bm25Channel searches the multi-field index: compounds aimed at the
// name fields with a boost, components over all fields, path words over
// the path field.
func (e *Engine) bm25Channel(ws *workspace, kw *Keywords) []uint32 {
	q := ws.terms[:0]
	seen := map[string]bool{}
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
	for _, c := range kw.Primary() {
		addTerms(strings.ToLower(c), nameFields, 2)
	}
	for _, c := range kw.Components {
		addTerms(c, 0, 1)
	}
	for _, p := range kw.Paths {
		addTerms(p, 1<<bm25.FieldPath|1<<bm25.FieldConcepts, 1)
	}
	if len(q) > 32 {
		q = q[:32]
	}
	ws.terms = q
	hits := ws.searcher.Search(q, bm25Cap*2)
	var out []uint32
	for _, h := range hits {
		if len(out) == bm25Cap {
			break
		}
		if e.keep(h.Doc, kw.Tests) {
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
	for _, h := range hits {
		k := e.s.Kind(h.Doc)
		if !k.IsType() || !e.keep(h.Doc, kw.Tests) {
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
