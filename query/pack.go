package query

import (
	"math"
	"sort"
)

// tokens estimates what a symbol costs in a prompt: qualified name, kind
// and signature at about four characters a token.
func (e *Engine) tokens(id uint32) int {
	n := len(e.s.QName(id)) + len(e.s.Kind(id).String()) + e.s.SignatureLen(id) + 8
	return (n + 3) / 4
}

// pack picks symbols by score density (step 8): score per token, times
// the walk proximity to the power 0.3, until the budget is spent; it
// returns them in score order, at most Limit, with their doc summaries
// when asked for (Options.Docs) and the budget leaves room.
func (e *Engine) pack(ws *workspace, ranked []*candidate, opt Options) ([]Item, int) {
	const proximityExp = 0.3
	type pick struct {
		cd      *candidate
		tok     int
		density float64
	}
	picks := make([]pick, 0, len(ranked))
	maxP := float32(0)
	for _, cd := range ranked {
		if cd.walkP > maxP {
			maxP = cd.walkP
		}
	}
	for _, cd := range ranked {
		t := e.tokens(cd.id)
		prox := 1.0
		if maxP > 0 && !cd.seed {
			prox = math.Pow(float64(cd.walkP/maxP), proximityExp)
		}
		picks = append(picks, pick{cd, t, cd.score / float64(t) * prox})
	}
	order := make([]int, len(picks))
	for i := range order {
		order[i] = i
	}
	all, best := 0, 0.0
	for _, p := range picks {
		all += p.tok
		best = max(best, p.cd.score)
	}
	binding := all > opt.Budget // the budget cannot hold every candidate
	if !binding || e.tune.PackByScore == 0 {
		sort.SliceStable(order, func(a, b int) bool {
			x, y := picks[order[a]], picks[order[b]]
			if x.density != y.density {
				return x.density > y.density
			}
			return x.cd.score > y.cd.score
		})
	} // else picks are in score order already
	floor := 0.0
	if binding {
		floor = e.tune.PackFloor * best
	}
	chosen := make([]bool, len(picks))
	used, count := 0, 0
	for _, i := range order {
		if used+picks[i].tok > opt.Budget || picks[i].cd.score < floor {
			continue
		}
		chosen[i] = true
		used += picks[i].tok
		count++
	}
	items := make([]Item, 0, min(count, opt.Limit))
	total := 0
	for i, p := range picks { // picks are in score order
		if !chosen[i] {
			continue
		}
		if len(items) == opt.Limit {
			break
		}
		items = append(items, e.item(p.cd, p.tok))
		total += p.tok
	}
	if opt.Docs {
		// The summaries were not known when the picks were made: they
		// fill what the results leave of the budget, best result first.
		for i := range items {
			it := &items[i]
			doc, err := e.s.Doc(it.ID)
			if err != nil || doc == "" {
				continue
			}
			sum := Summary(doc)
			if extra := (len(sum) + 3) / 4; total+extra <= opt.Budget {
				it.Doc = sum
				it.Tokens += extra
				total += extra
			}
		}
	}
	return items, total
}

// Item describes node id as a result with the given score, which it
// rounds as the engine's results are, and its tokens (the estimate
// packing uses; no doc summary).
func (e *Engine) Item(id uint32, score float64) Item {
	return e.item(&candidate{id: id, score: score}, e.tokens(id))
}

// item describes a ranked candidate as a result costing tok tokens.
func (e *Engine) item(cd *candidate, tok int) Item {
	id := cd.id
	start, end := e.s.Lines(id)
	it := Item{
		ID: id, Symbol: e.s.QName(id), Name: e.s.Name(id), Kind: e.s.Kind(id).String(),
		Lang: e.s.Lang(id).String(), Line: int(start), EndLine: int(end),
		Score: math.Round(cd.score*10000) / 10000, Tokens: tok, Seed: cd.seed,
	}
	if fi := e.s.FileIndex(id); fi >= 0 {
		it.File = e.s.FilePath(int(fi))
	}
	if sig, err := e.s.Signature(id); err == nil {
		it.Signature = sig
	}
	return it
}
