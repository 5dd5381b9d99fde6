package query

import (
	"cmp"
	"slices"

	"github.com/knowing-dev/knowing/snapshot"
)

// scoreParts is the breakdown of a final score.
type scoreParts struct {
	Blast, Confidence, Recency, Distance, Match, Cover, AuthorityAdj, TestPenalty, Final float64
	// Kind is the kind multiplier (1, or the value penalty for fields,
	// variables, constants and details); Boost what boostMembers added.
	Kind, Boost float64
	// Detail: the candidate is an implementation detail (isDetail).
	Detail bool
	// Model is the model's score of a candidate it reranked, Formula
	// and Place the formula's score and place before (Place 0: not
	// reranked).
	Model, Formula float64
	Place          int
}

// recencyNeutral stands in for recency when the build read no git
// history: every symbol gets the same value, so it does not change the
// order.
const recencyNeutral = 0.3

// recency is 1 for a symbol the newest commit of the history window
// changed, falling with the place of the newest commit that changed it
// (a half at RecencyHalf commits back), and 0 for one no commit of the
// window changed; recencyNeutral without history or with RecencyHalf 0,
// the default: on the dev corpora and swe-dev cloned with history it
// moved nothing but noise (EVAL.md, "History evidence").
func (e *Engine) recency(id uint32) float64 {
	if !e.history || e.tune.RecencyHalf <= 0 {
		return recencyNeutral
	}
	changed, _ := e.s.History(id)
	if changed == 0 {
		return 0
	}
	return 1 / (1 + float64(changed-1)/e.tune.RecencyHalf)
}

// score computes final scores (step 7) for every candidate with walk
// mass, fused evidence or a seed role, and returns them best first.
func (e *Engine) score(ws *workspace, kw *Keywords) []*candidate {
	maxP := float32(0)
	maxF := 0.0
	for i := range ws.cand {
		maxP = max(maxP, ws.cand[i].walkP)
		maxF = max(maxF, ws.cand[i].fused)
	}
	var out []*candidate
	allow := kw.aux()
	for i := range ws.cand {
		cd := &ws.cand[i]
		if cd.walkP == 0 && !cd.seed && cd.fused == 0 {
			continue
		}
		if !e.keep(cd.id, allow) && !(cd.seed && e.keep(cd.id, auxFlags)) {
			continue
		}
		var p scoreParts
		if maxP > 0 {
			p.Blast = float64(cd.walkP / maxP)
		}
		if maxF > 0 {
			p.Match = cd.fused / maxF
		}
		if e.tune.Cover != 0 && len(kw.Pos) > 0 {
			p.Cover = float64(e.coverage(ws, cd.id)) / float64(min(len(kw.Pos), 4))
		}
		p.Confidence = e.inConfidence(cd.id)
		p.Recency = e.recency(cd.id)
		if cd.seed {
			p.Distance = 1
		} else {
			p.Distance = 0.5
		}
		switch {
		case cd.seed && cd.auth > 0.05:
			p.AuthorityAdj += float64(cd.auth) * e.tune.HitsSeed
		case !cd.seed && cd.auth > 0.2:
			p.AuthorityAdj -= float64(cd.auth) * e.tune.HitsPenalty
		}
		if cd.seed && cd.hub > 0.1 {
			p.AuthorityAdj += float64(cd.hub) * e.tune.HitsHub
		}
		s := p.Blast*e.tune.Blast + p.Confidence*e.tune.Confidence + p.Recency*e.tune.Recency +
			p.Distance*e.tune.Distance + p.Match*e.tune.Match + p.Cover*e.tune.Cover + p.AuthorityAdj
		p.Kind = 1
		switch e.s.Kind(cd.id) {
		case snapshot.KindField, snapshot.KindVariable, snapshot.KindConstant:
			p.Kind = e.tune.ValuePenalty
		case snapshot.KindTypeAlias, snapshot.KindFunction:
			if p.Detail = e.isDetail(cd.id); p.Detail {
				p.Kind = e.tune.ValuePenalty // scored like a value
			}
		case snapshot.KindEnum:
			p.Kind = e.tune.EnumPenalty
		}
		s *= p.Kind
		p.TestPenalty = 1
		if e.s.Flags(cd.id)&auxFlags&^allow != 0 {
			p.TestPenalty = e.tune.TestPenalty
			s *= e.tune.TestPenalty
		}
		p.Final = s
		cd.score, cd.parts = s, p
		out = append(out, cd)
	}
	slices.SortFunc(out, byScore)
	if e.tune.ParentBoost > 0 {
		e.boostMembers(ws, out)
	}
	return out
}

// byScore orders candidates best first, ties by id: a total order, so
// the sort is deterministic.
func byScore(a, b *candidate) int {
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.id, b.id)
}

// isDetail reports a function declared inside another callable (a
// closure, a decorator's inner function) or a type alias with no members
// (a TypeVar, a Union, Rust's type X = Y): names a task rarely means.
func (e *Engine) isDetail(id uint32) bool {
	switch e.s.Kind(id) {
	case snapshot.KindFunction:
		it := e.s.Neighbors(id, snapshot.Out)
		for it.Next() {
			if it.Type() == snapshot.EdgeMemberOf && e.s.Kind(it.Node()).IsCallable() {
				return true
			}
		}
	case snapshot.KindTypeAlias:
		if e.s.Lang(id) == snapshot.LangGo {
			return false // type T U defines a new type, enum-like or with methods
		}
		it := e.s.Neighbors(id, snapshot.Out)
		for it.Next() {
			if it.Type() == snapshot.EdgeContains {
				return false
			}
		}
		return true
	}
	return false
}

// boostMembers adds to each member a share of its container's score, when
// the container is itself a candidate, and to each type a share of its best
// member's (TypeBoost), then re-sorts.
func (e *Engine) boostMembers(ws *workspace, out []*candidate) {
	if len(out) == 0 || out[0].score <= 0 {
		return
	}
	best := out[0].score
	add := make([]float64, len(out))
	for i, cd := range out {
		it := e.s.Neighbors(cd.id, snapshot.Out)
		for it.Next() {
			if it.Type() != snapshot.EdgeMemberOf {
				continue
			}
			if p := ws.lookup(it.Node()); p != nil && p.score > 0 && e.s.Kind(it.Node()).IsType() {
				add[i] = e.tune.ParentBoost * p.score / best
			}
			break
		}
	}
	if e.tune.TypeBoost > 0 {
		for i, cd := range out {
			if !e.s.Kind(cd.id).IsType() {
				continue
			}
			bestM := 0.0
			it := e.s.Neighbors(cd.id, snapshot.Out)
			for it.Next() {
				if it.Type() != snapshot.EdgeContains {
					continue
				}
				if m := ws.lookup(it.Node()); m != nil && m.score > bestM {
					bestM = m.score
				}
			}
			// The type rises toward its best member, never past it: when
			// the task names the member, the member stays first.
			boost := min(e.tune.TypeBoost*bestM/best, bestM-cd.score-add[i])
			if boost > 0 {
				add[i] += boost
			}
		}
	}
	for i, cd := range out {
		cd.score += add[i]
		cd.parts.Boost = add[i]
		cd.parts.Final = cd.score
	}
	slices.SortFunc(out, byScore)
}

// inConfidence is the highest confidence of the edges into id.
func (e *Engine) inConfidence(id uint32) float64 {
	it := e.s.Neighbors(id, snapshot.In)
	best := float32(0)
	for i := 0; i < 64 && it.Next(); i++ {
		t := it.Type()
		if t == snapshot.EdgeContains || t == snapshot.EdgeMemberOf {
			continue
		}
		if c := it.Confidence(); c > best {
			best = c
		}
	}
	if best == 0 {
		return 0.5
	}
	return float64(best)
}
