// Package query turns a task in plain words into the code symbols that
// matter, ranked and packed into a token budget, over a memory-mapped
// snapshot.
//
// The pipeline (see the seed documents for the measurements behind it):
//
//  1. Keywords: exact, compounds, components, paths (ExtractKeywords).
//  2. Seed channels, each a ranked list: tiered name matching through the
//     name FSTs, BM25 over the multi-field index, equivalence classes
//     (concept phrases → symbol names), and path context (types in folders
//     the task names, used only as low-weight walk seeds).
//  3. Weighted reciprocal-rank fusion (k = 60), implementors of matched
//     interfaces, noise filtering, size-adaptive seed count, type-seed
//     preference on large graphs, focus on the most cohesive package.
//  4. Random walk with restart (forward push, alpha 0.2) from the seeds.
//  5. HITS on the top 200 walk nodes.
//  6. Scoring: blast radius (walk score), confidence, recency (no data
//     source yet: neutral), distance, HITS authority adjustments; the
//     penalty on tests and on examples and benchmarks, unless the task is
//     about them.
//  7. Density packing into the token budget.
//
// An Engine is safe for concurrent use; each query borrows a workspace.
// Results are deterministic: the same snapshot and task give the same
// ranking at any GOMAXPROCS.
package query

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/snapshot"
	"github.com/knowing-dev/knowing/walk"
)

// ErrEmptyTask is returned for a task with no text.
var ErrEmptyTask = errors.New("the task is empty: describe what you want to do, e.g. \"add a before_request hook that checks API keys\"")

// Options tune one query.
type Options struct {
	Limit  int // results returned (default 20)
	Budget int // token budget for packing (default 50,000)
	// Trace records per-symbol explanations (used by Why).
	Trace bool
	// Vector turns on the hashed-vector channel (off by default: neutral
	// in the earlier system's measurements).
	Vector bool
	// Docs fills each result's Doc with the opening of its doc comment
	// (see Summary) and counts it in the result's tokens.
	Docs bool
}

// Item is one ranked symbol.
type Item struct {
	ID        uint32 `json:"-"`
	Symbol    string `json:"symbol"` // qualified name
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Lang      string `json:"lang"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	EndLine   int    `json:"end_line"`
	Signature string `json:"signature,omitempty"`
	// Doc is the opening of the doc comment (Options.Docs), at most
	// SummaryMax bytes.
	Doc    string  `json:"doc,omitempty"`
	Score  float64 `json:"score"`
	Tokens int     `json:"tokens"`
	Seed   bool    `json:"seed"`
}

// Stats describe how a query ran.
type Stats struct {
	ElapsedUS  int64    `json:"elapsed_us"`
	Keywords   []string `json:"keywords"`
	Candidates int      `json:"candidates"`
	Seeds      int      `json:"seeds"`
	Walked     int      `json:"walked"`
	Pushes     int      `json:"pushes"`
	Packed     int      `json:"packed"`
	Tokens     int      `json:"tokens"`
	Message    string   `json:"message,omitempty"`
}

// Result is the answer to a query.
type Result struct {
	Results []Item `json:"results"`
	Stats   Stats  `json:"stats"`
	trace   *trace
}

// Engine answers queries over one open snapshot.
type Engine struct {
	s       *snapshot.Snapshot
	ix      *bm25.Index
	weights *walk.Weights
	n       int
	pool    sync.Pool
}

// New makes an engine over an open snapshot.
func New(s *snapshot.Snapshot) (*Engine, error) {
	ix, err := s.BM25()
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", s.Path(), err)
	}
	e := &Engine{s: s, ix: ix, weights: walk.DefaultWeights(), n: s.NumNodes()}
	e.pool.New = func() any { return e.newWorkspace() }
	return e, nil
}

// Snapshot is the snapshot the engine reads.
func (e *Engine) Snapshot() *snapshot.Snapshot { return e.s }

type workspace struct {
	searcher *bm25.Searcher
	walk     *walk.Workspace
	nameIt   *snapshot.KeyIter
	ids      []uint32
	terms    []bm25.QueryTerm
	toks     []string
	exp      []string
	// candidate bookkeeping, epoch-stamped over node ids
	stamp []uint32
	epoch uint32
	cand  []candidate
	slot  []int32
	// coverage cache, epoch-stamped over node ids
	covStamp []uint32
	cov      []uint8
	lower    []byte
	words    []string // the task's components (Keywords.Pos), sorted
	prefKeys []uint64 // prefer's sort keys
	bases    []string // verbBases' result
	// a node set one channel at a time uses, epoch-stamped
	setStamp []uint32
	setEpoch uint32
	// string-keyed scratch maps, cleared (not reallocated) per use
	termSeen map[string]bool
	pkgCount map[string]float64
}

// newSet empties the workspace's node set in O(1).
func (ws *workspace) newSet() {
	ws.setEpoch++
	if ws.setEpoch == 0 {
		clear(ws.setStamp)
		ws.setEpoch = 1
	}
}

// addToSet adds id to the node set and reports whether it was new.
func (ws *workspace) addToSet(id uint32) bool {
	if ws.setStamp[id] == ws.setEpoch {
		return false
	}
	ws.setStamp[id] = ws.setEpoch
	return true
}

func (e *Engine) newWorkspace() *workspace {
	return &workspace{
		searcher: bm25.NewSearcher(e.ix),
		walk:     walk.NewWorkspace(e.n),
		nameIt:   e.s.NewNameIter(),
		stamp:    make([]uint32, e.n),
		slot:     make([]int32, e.n),
		covStamp: make([]uint32, e.n),
		cov:      make([]uint8, e.n),
		setStamp: make([]uint32, e.n),
		termSeen: map[string]bool{},
		pkgCount: map[string]float64{},
	}
}

// candidate is one node met by a seed channel or the walk.
type candidate struct {
	id    uint32
	fused float64
	rank  [numChannels]int32 // 1-based rank in each channel, 0 if absent
	seed  bool
	walkP float32
	auth  float32
	hub   float32
	score float64
	parts scoreParts
}

// scoreParts is the breakdown of a final score.
type scoreParts struct {
	Blast, Confidence, Recency, Distance, Match, Cover, AuthorityAdj, TestPenalty, Final float64
	// Kind is the kind multiplier (1, or the value penalty for fields,
	// variables, constants and details); Boost what boostMembers added.
	Kind, Boost float64
}

func (ws *workspace) reset() {
	ws.epoch++
	if ws.epoch == 0 {
		for i := range ws.stamp {
			ws.stamp[i] = 0
			ws.covStamp[i] = 0
		}
		ws.epoch = 1
	}
	ws.cand = ws.cand[:0]
}

// get returns the candidate for id, creating it.
func (ws *workspace) get(id uint32) *candidate {
	if ws.stamp[id] != ws.epoch {
		ws.stamp[id] = ws.epoch
		ws.slot[id] = int32(len(ws.cand))
		ws.cand = append(ws.cand, candidate{id: id})
	}
	return &ws.cand[ws.slot[id]]
}

// setWords takes the task's components for coverage: a slice iterates
// faster than the map.
func (ws *workspace) setWords(kw *Keywords) {
	ws.words = ws.words[:0]
	for w := range kw.Pos {
		ws.words = append(ws.words, w)
	}
	slices.Sort(ws.words)
}

func (ws *workspace) lookup(id uint32) *candidate {
	if ws.stamp[id] != ws.epoch {
		return nil
	}
	return &ws.cand[ws.slot[id]]
}

// Query runs the pipeline for a task.
func (e *Engine) Query(ctx context.Context, task string, opt Options) (*Result, error) {
	start := time.Now()
	if strings.TrimSpace(task) == "" {
		return nil, ErrEmptyTask
	}
	if opt.Limit <= 0 {
		opt.Limit = 20
	}
	if opt.Budget <= 0 {
		opt.Budget = 50000
	}
	kw := ExtractKeywords(task)
	e.refine(&kw)
	res := &Result{}
	res.Stats.Keywords = append(append(append([]string{}, kw.Exact...), kw.Compounds...), kw.Components...)
	if kw.Empty() {
		res.Stats.Message = "the task has no words to search for (only stop words or symbols)"
		res.Stats.ElapsedUS = time.Since(start).Microseconds()
		res.Results = []Item{}
		return res, nil
	}
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	ws.setWords(&kw)
	var tr *trace
	if opt.Trace {
		tr = &trace{keywords: kw}
		res.trace = tr
	}

	lists := e.channels(ws, &kw, task, opt.Vector)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.fuse(ws, &lists)
	seeds := e.selectSeeds(ws, &kw)
	res.Stats.Candidates = len(ws.cand)
	res.Stats.Seeds = len(seeds)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Stats.Walked, res.Stats.Pushes = e.walkFrom(ws, seeds, lists[chPath])
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ranked := e.score(ws, &kw)
	items, used := e.pack(ws, ranked, opt)
	res.Results = items
	res.Stats.Packed = len(items)
	res.Stats.Tokens = used
	if tr != nil {
		tr.capture(e, ws, lists, seeds, ranked)
	}
	res.Stats.ElapsedUS = time.Since(start).Microseconds()
	return res, nil
}

// tuning holds the scoring weights. The defaults are the HITS-mode weights
// of the seed document plus Match, the strength of the direct evidence
// (the candidate's fused seed-channel score relative to the best), which
// the seed document's binary distance stood in for. KNOWING_TUNE
// ("match=0.3,hitsSeed=0.1") overrides them for experiments.
type tuning struct {
	Blast, Confidence, Recency, Distance, Match float64
	// Cover weighs the share of the task's words found in a candidate's
	// qualified name.
	Cover                          float64
	HitsSeed, HitsHub, HitsPenalty float64
	TestPenalty                    float64
	// ValuePenalty multiplies the score of fields, variables and
	// constants: tasks need types and callables far more often (on the
	// dev tasks 7% of returned fields and constants were relevant, 24% of
	// methods, 30% of classes). Implementation details (isDetail) get it
	// too: 0 of 15 returned Python type aliases were relevant.
	ValuePenalty float64
	// EnumPenalty multiplies the score of enum types, which are mostly
	// vocabularies of values: on the dev tasks none of the 16 enums
	// returned in a top 10 was relevant, while their code holds 169
	// enums to 487 structs and the ground truth 2 to 38.
	EnumPenalty float64
	// TypeBoost gives a type candidate this share of its best member's
	// score (relative to the best candidate), capped at that member's
	// score: methods that match a task point at their class.
	TypeBoost float64
	// Fusion weights of the seed channels.
	Tiered, BM25, Equiv, Path, Alias, Vector float64
	// Focus promotes the package holding most of the fused evidence to
	// the front of the seeds (1) or not (0).
	Focus float64
	// ParentBoost adds this share of a member's container's score (the
	// container ranked as a candidate), normalised by the best score.
	ParentBoost float64
	// Stem is the boost of terms that share a long task word's first five
	// letters (0: no expansion).
	Stem float64
	// Base is the boost of a task verb's base form (opened → open;
	// 0: none).
	Base float64
	// StemTiered: the tiered prefix tier uses a long word's first five
	// letters when they start at most this many distinct names (0: never).
	StemTiered float64
	// Late decays a component's BM25 boost with its position in the
	// task: 1/(1 + Late*pos/10).
	Late float64
	// WeakEquiv is how many symbols a weakly matched concept (one
	// single-word phrase) may contribute per target name (strong: 3).
	WeakEquiv float64
	// CommonDF drops a one-word keyword found in more than this share of
	// the documents (the project's own name, a package prefix).
	CommonDF float64
}

var tune = loadTuning(tuning{
	Blast: 0.35, Confidence: 0.20, Recency: 0.15, Distance: 0.15, Match: 0.30, Cover: 0.7,
	HitsSeed: 0.10, HitsHub: 0.10, HitsPenalty: 0.15, TestPenalty: 0.3, ValuePenalty: 0.6, EnumPenalty: 0.8, TypeBoost: 0.2,
	Tiered: 2, BM25: 2, Equiv: 2, Path: 0, Alias: 1.4, Vector: 1, CommonDF: 0.2, Focus: 1, WeakEquiv: 1, ParentBoost: 0.1, Stem: 0.3, Base: 0.6, StemTiered: 10, Late: 0.6,
})

func loadTuning(t tuning) tuning {
	spec := os.Getenv("KNOWING_TUNE")
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		switch strings.ToLower(k) {
		case "blast":
			t.Blast = x
		case "confidence":
			t.Confidence = x
		case "recency":
			t.Recency = x
		case "distance":
			t.Distance = x
		case "match":
			t.Match = x
		case "cover":
			t.Cover = x
		case "hitsseed":
			t.HitsSeed = x
		case "hitshub":
			t.HitsHub = x
		case "hitspenalty":
			t.HitsPenalty = x
		case "enumpenalty":
			t.EnumPenalty = x
		case "testpenalty":
			t.TestPenalty = x
		case "valuepenalty":
			t.ValuePenalty = x
		case "tiered":
			t.Tiered = x
		case "bm25":
			t.BM25 = x
		case "equiv":
			t.Equiv = x
		case "path":
			t.Path = x
		case "alias":
			t.Alias = x
		case "vector":
			t.Vector = x
		case "commondf":
			t.CommonDF = x
		case "focus":
			t.Focus = x
		case "weakequiv":
			t.WeakEquiv = x
		case "parentboost":
			t.ParentBoost = x
		case "stem":
			t.Stem = x
		case "base":
			t.Base = x
		case "stemtiered":
			t.StemTiered = x
		case "typeboost":
			t.TypeBoost = x
		case "late":
			t.Late = x
		}
	}
	return t
}

// recencyNeutral stands in for runtime recency, which knowing has no data
// source for: every symbol gets the same value, so it does not change the
// order.
const recencyNeutral = 0.3

// score computes final scores for every candidate with walk mass or a
// seed role, and returns them best first.
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
		if tune.Cover != 0 && len(kw.Pos) > 0 {
			p.Cover = float64(e.coverage(ws, cd.id)) / float64(min(len(kw.Pos), 4))
		}
		p.Confidence = e.inConfidence(cd.id)
		p.Recency = recencyNeutral
		if cd.seed {
			p.Distance = 1
		} else {
			p.Distance = 0.5
		}
		switch {
		case cd.seed && cd.auth > 0.05:
			p.AuthorityAdj += float64(cd.auth) * tune.HitsSeed
		case !cd.seed && cd.auth > 0.2:
			p.AuthorityAdj -= float64(cd.auth) * tune.HitsPenalty
		}
		if cd.seed && cd.hub > 0.1 {
			p.AuthorityAdj += float64(cd.hub) * tune.HitsHub
		}
		s := p.Blast*tune.Blast + p.Confidence*tune.Confidence + p.Recency*tune.Recency +
			p.Distance*tune.Distance + p.Match*tune.Match + p.Cover*tune.Cover + p.AuthorityAdj
		p.Kind = 1
		switch e.s.Kind(cd.id) {
		case snapshot.KindField, snapshot.KindVariable, snapshot.KindConstant:
			p.Kind = tune.ValuePenalty
		case snapshot.KindTypeAlias, snapshot.KindFunction:
			if e.isDetail(cd.id) {
				p.Kind = tune.ValuePenalty // scored like a value
			}
		case snapshot.KindEnum:
			p.Kind = tune.EnumPenalty
		}
		s *= p.Kind
		p.TestPenalty = 1
		if e.s.Flags(cd.id)&auxFlags&^allow != 0 {
			p.TestPenalty = tune.TestPenalty
			s *= tune.TestPenalty
		}
		p.Final = s
		cd.score, cd.parts = s, p
		out = append(out, cd)
	}
	slices.SortFunc(out, byScore)
	if tune.ParentBoost > 0 {
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
				add[i] = tune.ParentBoost * p.score / best
			}
			break
		}
	}
	if tune.TypeBoost > 0 {
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
			boost := min(tune.TypeBoost*bestM/best, bestM-cd.score-add[i])
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

// tokens estimates what a symbol costs in a prompt: qualified name, kind
// and signature at about four characters a token.
func (e *Engine) tokens(id uint32) int {
	n := len(e.s.QName(id)) + len(e.s.Kind(id).String()) + e.s.SignatureLen(id) + 8
	return (n + 3) / 4
}

// pack picks symbols by score density (score per token, times the walk
// proximity to the power 0.3) until the budget is spent, then returns them
// in score order, at most Limit.
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
	sort.SliceStable(order, func(a, b int) bool {
		x, y := picks[order[a]], picks[order[b]]
		if x.density != y.density {
			return x.density > y.density
		}
		return x.cd.score > y.cd.score
	})
	chosen := make([]bool, len(picks))
	used, count := 0, 0
	for _, i := range order {
		if used+picks[i].tok > opt.Budget {
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
