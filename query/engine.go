package query

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

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
	// Vector turns on the hashed-vector channel (off by default: it
	// lowered the dev and gostd figures, EVAL.md).
	Vector bool
	// Docs fills each result's Doc with the opening of its doc comment
	// (see Summary) and counts it in the result's tokens.
	Docs bool
	// Session raises symbols earlier answers returned (session.go); At is
	// the time its strengths decay to (zero: the clock). Nil: none.
	Session *Session
	At      time.Time

	// features, when set, gets the features of the formula's best
	// featureTop candidates instead of a model's reranking (Features).
	features   *[]FeatureRow
	featureTop int
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
	Signature string `json:"signature"`
	// Doc is the opening of the doc comment (Options.Docs), at most
	// SummaryMax bytes.
	Doc    string  `json:"doc"`
	Score  float64 `json:"score"`
	Tokens int     `json:"tokens"`
	Seed   bool    `json:"seed"`
	// FileState is "changed" or "removed" when a caller checked the
	// item's file against the repository (snapshot.Snapshot.CheckFile)
	// and it differs from what the snapshot was built from; empty
	// otherwise. The engine never sets it.
	FileState string `json:"file_state,omitempty"`
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

// Engine answers queries over one open snapshot. It is safe for
// concurrent use.
type Engine struct {
	s       *snapshot.Snapshot
	ix      *bm25.Index
	body    *bm25.Index // the body index (snapshot.Body)
	history bool        // the build read git history (snapshot.HasHistory)
	weights *walk.Weights
	n       int
	tune    Tuning
	fusion  [numChannels]float64 // the channels' fusion weights, from tune
	pool    sync.Pool
	// hot keeps one workspace out of the pool: the pool drops what it
	// holds at every other garbage collection, and making a workspace
	// again costs more than a query (about 60 bytes a node, cleared).
	hot atomic.Pointer[workspace]
	// report ranks reports with weights of their own (nil: every task
	// ranks with tune).
	report *Engine
	// model re-orders the best candidates (nil: the formula's order).
	model *Model
}

// An EngineOption configures an engine New makes.
type EngineOption func(*Engine)

// WithTuning makes the engine rank with t instead of DefaultTuning.
func WithTuning(t Tuning) EngineOption {
	return func(e *Engine) { e.tune = t }
}

// getWorkspace takes the hot workspace, or one from the pool when
// another query holds it.
func (e *Engine) getWorkspace() *workspace {
	if ws := e.hot.Swap(nil); ws != nil {
		return ws
	}
	return e.pool.Get().(*workspace)
}

// putWorkspace gives ws back: as the hot workspace when there is none.
func (e *Engine) putWorkspace(ws *workspace) {
	if !e.hot.CompareAndSwap(nil, ws) {
		e.pool.Put(ws)
	}
}

// WithReportTuning makes the engine rank reports (IsReport: bug reports,
// pasted logs) with t, and other tasks with the engine's weights.
func WithReportTuning(t Tuning) EngineOption {
	return func(e *Engine) { e.report = &Engine{tune: t} }
}

// New makes an engine over an open snapshot.
func New(s *snapshot.Snapshot, opts ...EngineOption) (*Engine, error) {
	ix, err := s.BM25()
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", s.Path(), err)
	}
	body, err := s.Body()
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", s.Path(), err)
	}
	e := &Engine{tune: DefaultTuning()}
	for _, o := range opts {
		o(e)
	}
	e.over(s, ix, body)
	if e.report != nil {
		// Reports run on an engine of their own over the same indexes,
		// with its own workspaces, and the same model.
		e.report.model = e.model
		e.report.over(s, ix, body)
	}
	return e, nil
}

// over sets e over snapshot s and its indexes, with e's weights.
func (e *Engine) over(s *snapshot.Snapshot, ix, body *bm25.Index) {
	e.s, e.ix, e.body, e.history = s, ix, body, s.HasHistory()
	e.weights, e.n = walk.DefaultWeights(), s.NumNodes()
	e.fusion = e.tune.channelWeights()
	e.pool.New = func() any { return e.newWorkspace() }
}

// Tuning returns the weights the engine ranks with (requests, when
// reports have weights of their own: TuningFor).
func (e *Engine) Tuning() Tuning { return e.tune }

// TuningFor returns the weights the engine ranks task with.
func (e *Engine) TuningFor(task string) Tuning {
	if e.report != nil && IsReport(task) {
		return e.report.tune
	}
	return e.tune
}

// Snapshot is the snapshot the engine reads.
func (e *Engine) Snapshot() *snapshot.Snapshot { return e.s }

// Query runs the pipeline for a task: the steps of the package
// documentation, in order, on a workspace from the engine's pool.
func (e *Engine) Query(ctx context.Context, task string, opt Options) (*Result, error) {
	if e.report != nil && IsReport(task) {
		return e.report.Query(ctx, task, opt)
	}
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
	kw := ExtractKeywords(task) // step 1, keywords.go
	e.refine(&kw)               // step 2, refine.go
	if kw.Empty() {
		// A task of stop words only ("Hello", "Close") may still name a
		// symbol: take its words as exact names when the index has them.
		if names := ExtractKeywords(asNames(task)); e.hasAnyName(names.Exact) {
			kw = names
			e.refine(&kw)
		}
	}
	res := &Result{}
	res.Stats.Keywords = append(append(append([]string{}, kw.Exact...), kw.Compounds...), kw.Components...)
	if kw.Empty() {
		res.Stats.Message = "the task has no words to search for (only stop words or symbols)"
		res.Stats.ElapsedUS = time.Since(start).Microseconds()
		res.Results = []Item{}
		return res, nil
	}
	ws := e.getWorkspace()
	defer e.putWorkspace(ws)
	ws.reset()
	ws.setWords(&kw)
	var tr *trace
	if opt.Trace {
		tr = &trace{keywords: kw}
		res.trace = tr
	}

	lists := e.channels(ws, &kw, task, opt.Vector) // step 3, channels.go
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.fuse(ws, &lists)              // step 4, fusion.go
	seeds := e.selectSeeds(ws, &kw) // step 5, seeds.go
	res.Stats.Candidates = len(ws.cand)
	res.Stats.Seeds = len(seeds)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Stats.Walked, res.Stats.Pushes = e.walkFrom(ws, seeds, lists[chPath]) // step 6, walk.go
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ranked := e.score(ws, &kw) // step 7, score.go
	switch {
	case opt.features != nil:
		*opt.features = e.featureRows(ws, ranked, task, opt.featureTop)
	case e.model != nil:
		e.rerank(ws, ranked, task) // step 7a, model.go
	}
	ranked = e.sessionBoost(ws, ranked, &opt) // step 7b, session.go
	items, used := e.pack(ws, ranked, opt)    // step 8, pack.go
	res.Results = items
	res.Stats.Packed = len(items)
	res.Stats.Tokens = used
	if tr != nil {
		tr.capture(e, ws, lists, seeds, ranked)
	}
	res.Stats.ElapsedUS = time.Since(start).Microseconds()
	return res, nil
}

// workspace is one query's scratch state, sized to the snapshot's nodes
// and reused by the queries that borrow it in turn: its per-node tables
// are stamped with an epoch, so emptying them is O(1).
type workspace struct {
	searcher *bm25.Searcher
	bodySrch *bm25.Searcher
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
	// the reranked candidates' features, files and model order
	feat   []featureVec
	files  []int32
	mscore []float64
	order  []modelPick
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

// newWorkspace makes a workspace for the engine's snapshot (the pool's
// New).
func (e *Engine) newWorkspace() *workspace {
	return &workspace{
		searcher: bm25.NewSearcher(e.ix),
		bodySrch: bm25.NewSearcher(e.body),
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

// reset empties the candidates and the coverage cache for a new query.
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

// lookup returns the candidate for id, or nil if id is none.
func (ws *workspace) lookup(id uint32) *candidate {
	if ws.stamp[id] != ws.epoch {
		return nil
	}
	return &ws.cand[ws.slot[id]]
}

// hasAnyName reports whether a symbol has one of names as its name.
func (e *Engine) hasAnyName(names []string) bool {
	var ids []uint32
	for _, n := range names {
		if ids = e.s.LookupName(strings.ToLower(n), ids[:0]); len(ids) > 0 {
			return true
		}
	}
	return false
}

// asNames writes each identifier-like word of task in backticks, the form
// in which the keyword reader takes a word as an exact name.
func asNames(task string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(task, func(r rune) bool {
		return !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		if w = strings.Trim(w, "."); len(w) > 1 {
			b.WriteString(" `" + w + "`")
		}
	}
	return b.String()
}
