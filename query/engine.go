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
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
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
