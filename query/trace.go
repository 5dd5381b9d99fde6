package query

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// trace keeps what Why needs about every candidate of one query.
type trace struct {
	keywords Keywords
	rows     map[uint32]*Explanation
	seeds    []uint32
}

// ChannelRank is a symbol's place in one seed channel.
type ChannelRank struct {
	Channel string `json:"channel"`
	Rank    int    `json:"rank"`
}

// Explanation breaks one symbol's score down.
type Explanation struct {
	Symbol       string        `json:"symbol"`
	Kind         string        `json:"kind"`
	File         string        `json:"file"`
	Line         int           `json:"line"`
	Channels     []ChannelRank `json:"channels"`
	FusedScore   float64       `json:"fused_score"`
	FusedRank    int           `json:"fused_rank"` // 0: not a fused candidate
	Seed         bool          `json:"seed"`
	SeedRank     int           `json:"seed_rank"` // 0: not a seed
	WalkScore    float32       `json:"walk_score"`
	Authority    float32       `json:"hits_authority"`
	Hub          float32       `json:"hits_hub"`
	Blast        float64       `json:"blast_radius"`
	Confidence   float64       `json:"confidence"`
	Recency      float64       `json:"recency"`
	Distance     float64       `json:"distance"`
	Match        float64       `json:"match"`
	Cover        float64       `json:"cover"`
	AuthorityAdj float64       `json:"authority_adjustment"`
	TestPenalty  float64       `json:"test_penalty"`
	KindFactor   float64       `json:"kind_factor"`  // fields, variables, constants, closures: the value penalty; enums: the enum penalty
	MemberBoost  float64       `json:"member_boost"` // added from the container's or the best member's score
	// ModelScore is the tree model's score of a candidate it re-ordered,
	// FormulaScore and FormulaRank the formula's score and place before
	// (FormulaRank 0: not re-ordered).
	ModelScore   float64  `json:"model_score,omitempty"`
	FormulaScore float64  `json:"formula_score,omitempty"`
	FormulaRank  int      `json:"formula_rank,omitempty"`
	Weights      Weights  `json:"weights"`
	Score        float64  `json:"score"`
	FinalRank    int      `json:"final_rank"` // 0: not ranked
	Notes        []string `json:"notes,omitempty"`
}

func (tr *trace) capture(e *Engine, ws *workspace, lists [numChannels][]uint32, seeds []uint32, ranked []*candidate) {
	tr.rows = map[uint32]*Explanation{}
	tr.seeds = seeds
	fused := make([]*candidate, 0, len(ws.cand))
	for i := range ws.cand {
		if ws.cand[i].fused > 0 {
			fused = append(fused, &ws.cand[i])
		}
	}
	sort.Slice(fused, func(a, b int) bool {
		if fused[a].fused != fused[b].fused {
			return fused[a].fused > fused[b].fused
		}
		return fused[a].id < fused[b].id
	})
	row := func(cd *candidate) *Explanation {
		if r := tr.rows[cd.id]; r != nil {
			return r
		}
		start, _ := e.s.Lines(cd.id)
		r := &Explanation{Symbol: e.s.QName(cd.id), Kind: e.s.Kind(cd.id).String(), Line: int(start),
			FusedScore: cd.fused, Seed: cd.seed, WalkScore: cd.walkP, Authority: cd.auth, Hub: cd.hub}
		if fi := e.s.FileIndex(cd.id); fi >= 0 {
			r.File = e.s.FilePath(int(fi))
		}
		for c := 0; c < numChannels; c++ {
			if cd.rank[c] > 0 {
				r.Channels = append(r.Channels, ChannelRank{channelNames[c], int(cd.rank[c])})
			}
		}
		p := cd.parts
		r.Blast, r.Confidence, r.Recency, r.Distance, r.Match, r.Cover = p.Blast, p.Confidence, p.Recency, p.Distance, p.Match, p.Cover
		r.AuthorityAdj, r.TestPenalty, r.Score = p.AuthorityAdj, p.TestPenalty, cd.score
		r.KindFactor, r.MemberBoost, r.Weights = p.Kind, p.Boost, e.scoreWeights()
		if p.Place > 0 {
			r.ModelScore, r.FormulaScore, r.FormulaRank = p.Model, p.Formula, p.Place
			r.Notes = append(r.Notes, fmt.Sprintf("re-ordered by the tree model (score %.3f): the formula placed it %d with %.4f", p.Model, p.Place, p.Formula))
		}
		tr.rows[cd.id] = r
		return r
	}
	for i, cd := range fused {
		row(cd).FusedRank = i + 1
	}
	for i := range ws.cand {
		row(&ws.cand[i])
	}
	for i, id := range seeds {
		if r := tr.rows[id]; r != nil {
			r.SeedRank = i + 1
		}
	}
	for i, cd := range ranked {
		tr.rows[cd.id].FinalRank = i + 1
	}
}

// Weights are the scoring weights: score = (Σ component × weight +
// authority adjustment) × kind factor × test penalty + member boost.
type Weights struct {
	Blast      float64 `json:"blast_radius"`
	Confidence float64 `json:"confidence"`
	Recency    float64 `json:"recency"`
	Distance   float64 `json:"distance"`
	Match      float64 `json:"match"`
	Cover      float64 `json:"cover"`
}

// scoreWeights are the engine's score weights (Tuning).
func (e *Engine) scoreWeights() Weights {
	t := &e.tune
	return Weights{t.Blast, t.Confidence, t.Recency, t.Distance, t.Match, t.Cover}
}

// ErrSymbolNotFound is returned by Why for a name no symbol has.
var ErrSymbolNotFound = fmt.Errorf("no symbol with that name in the snapshot")

// Why runs the task and explains where one symbol (a qualified name, a
// Container.name suffix, or a bare name) came from and how it scored.
func (e *Engine) Why(ctx context.Context, task, symbol string, opt Options) ([]*Explanation, error) {
	ids := e.resolveSymbol(symbol)
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrSymbolNotFound, symbol)
	}
	opt.Trace = true
	res, err := e.Query(ctx, task, opt)
	if err != nil {
		return nil, err
	}
	var out []*Explanation
	for _, id := range ids {
		var ex *Explanation
		if res.trace != nil {
			ex = res.trace.rows[id]
		}
		if ex == nil {
			start, _ := e.s.Lines(id)
			ex = &Explanation{Symbol: e.s.QName(id), Kind: e.s.Kind(id).String(), Line: int(start)}
			if fi := e.s.FileIndex(id); fi >= 0 {
				ex.File = e.s.FilePath(int(fi))
			}
			if res.trace == nil && res.Stats.Message != "" {
				ex.Notes = append(ex.Notes, "nothing was searched: "+res.Stats.Message)
			} else {
				ex.Notes = append(ex.Notes, "no seed channel matched it and the walk from the seeds did not reach it")
			}
		}
		if !e.keep(id, auxFlags) {
			ex.Notes = append(ex.Notes, "filtered as noise (file/package node, external, generated, vendored, minified, mock, or a name of two letters)")
		} else if f := e.s.Flags(id) & auxFlags; res.trace != nil && f&^res.trace.keywords.aux() != 0 {
			what, about := "a test", "tests"
			if f&snapshot.FlagTest == 0 {
				what, about = "an example or benchmark", "examples"
			}
			ex.Notes = append(ex.Notes, fmt.Sprintf("in %s: penalised ×%g because the task is not about %s", what, e.tune.TestPenalty, about))
		}
		if ex.Recency == 0 && ex.Score != 0 {
			ex.Recency = recencyNeutral
		}
		out = append(out, ex)
	}
	return out, nil
}

// resolveSymbol finds nodes by qualified name, by a dotted suffix, or by
// bare name.
func (e *Engine) resolveSymbol(symbol string) []uint32 {
	symbol = strings.TrimSpace(strings.ReplaceAll(symbol, "::", "."))
	name := symbol
	if i := strings.LastIndexAny(symbol, "./"); i >= 0 {
		name = symbol[i+1:]
	}
	ids := e.s.LookupName(strings.ToLower(name), nil)
	if name == symbol {
		return ids
	}
	var out []uint32
	for _, id := range ids {
		q := e.s.QName(id)
		if q == symbol || strings.HasSuffix(q, "."+symbol) || strings.HasSuffix(q, "/"+symbol) {
			out = append(out, id)
		}
	}
	return out
}

// Explanations lists every candidate of a traced query (Options.Trace),
// in final-rank order for ranked ones, then the rest by fused rank.
func (r *Result) Explanations() []*Explanation {
	if r.trace == nil {
		return nil
	}
	out := make([]*Explanation, 0, len(r.trace.rows))
	for _, x := range r.trace.rows {
		out = append(out, x)
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		rx, ry := x.FinalRank, y.FinalRank
		if (rx == 0) != (ry == 0) {
			return rx != 0
		}
		if rx != ry {
			return rx < ry
		}
		if x.FusedRank != y.FusedRank {
			return x.FusedRank < y.FusedRank
		}
		return x.Symbol < y.Symbol
	})
	return out
}
