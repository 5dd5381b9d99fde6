package query

import (
	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/snapshot"
)

// bodyCap is how many callables the body channel keeps.
// A cap of 30 scored the held-out set's P@10 0.178 against 0.185 for 15
// and the dev set's 0.241 against 0.243 (EVAL.md, "Body evidence").
const bodyCap = 15

// bodyCommon: a word found in more than 1/bodyCommon of the bodies is
// not searched. At a third, the eval sets answer as without the cut; at a
// tenth, the dev set's P@10 fell from 0.243 to 0.238.
const bodyCommon = 3

// maxBodyTerms caps the body channel's query terms.
const maxBodyTerms = 48

// bodyChannel finds callables by what their bodies use: the task's
// identifiers and words against the identifiers, string literals and
// comments of each callable (the snapshot's body index). A bug report
// quotes an error message or names a variable that only a body holds.
func (e *Engine) bodyChannel(ws *workspace, kw *Keywords) []uint32 {
	q := ws.terms[:0]
	seen := ws.termSeen
	clear(seen)
	code, text, hist := uint8(1<<snapshot.BodyFieldCode), uint8(1<<snapshot.BodyFieldText), uint8(1<<snapshot.BodyFieldHistory)
	wText, wHist := float32(e.tune.BodyText), float32(e.tune.BodyHistory)
	// A word in most bodies (err, value, self's attributes) ranks
	// nothing and costs its whole posting list: such words are left out.
	maxDF := max(64, e.body.NumDocs()/bodyCommon)
	add := func(s string, boost float32) {
		ws.toks = bm25.AppendTokens(ws.toks[:0], s)
		for _, t := range ws.toks {
			if len(q) >= maxBodyTerms {
				return // the query keeps its first maxBodyTerms terms
			}
			if seen[t] || IsStopWord(t) || e.body.DocFreq(t) > maxDF {
				continue
			}
			seen[t] = true
			if wText == 1 && wHist == 1 {
				// Every field at its stored weight: one combined list.
				q = append(q, bm25.QueryTerm{Text: t, Boost: boost})
				continue
			}
			q = append(q, bm25.QueryTerm{Text: t, Fields: code, Boost: boost})
			if wText > 0 {
				q = append(q, bm25.QueryTerm{Text: t, Fields: text, Boost: boost * wText})
			}
			if wHist > 0 {
				q = append(q, bm25.QueryTerm{Text: t, Fields: hist, Boost: boost * wHist})
			}
		}
	}
	for _, c := range kw.Exact {
		add(c, 2)
	}
	if e.tune.BodyQuote > 0 {
		for _, m := range kw.Messages {
			add(m, float32(e.tune.BodyQuote))
		}
	}
	for _, c := range kw.Components {
		add(c, e.lateBoost(kw, c))
	}
	if len(q) > maxBodyTerms {
		q = q[:maxBodyTerms]
	}
	if len(q) == 0 {
		return nil
	}
	ws.terms = q
	return e.searchKept(ws.bodySrch, q, bodyCap, kw.aux())
}
