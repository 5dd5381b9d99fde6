// Package train learns the query engine's ranking weights from mined
// commits: each commit's message is a task, the symbols it changed the
// answer, and the weights of query.Tuning are set by coordinate ascent
// (Metzler and Croft's listwise method for linear rankers: one weight at
// a time, the step that raises the objective most is kept, until a round
// changes nothing) on the strict metrics the eval package computes.
//
// The objective is a macro average: each repository's mean of
// (MRR + R@10) / 2, averaged over repositories, so a repository with many
// commits does not outweigh the rest. Validation leaves repositories out
// (CrossValidate): weights learned on some repositories are scored on
// the others, against the weights they started from.
//
// Everything runs in process over open snapshots; nothing is written.
package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// Set is a training set: fixtures grouped by the snapshot they are
// answered from, every snapshot open.
type Set struct {
	Repos  []string // sorted
	groups []group
	snaps  []*snapshot.Snapshot
	n      int
}

// group is the fixtures of one repository answered from one snapshot.
type group struct {
	s    *snapshot.Snapshot
	fx   []eval.Fixture
	repo int // index in Repos
}

// Load opens the snapshot path(f) of every fixture (once per distinct
// path; fixtures of several repositories may share one). A fixture whose snapshot cannot be opened is an error: a
// training set with holes would learn from what is missing.
func Load(fixtures []eval.Fixture, path func(eval.Fixture) string) (*Set, error) {
	set := &Set{}
	repos := map[string]bool{}
	for _, f := range fixtures {
		repos[f.Repo] = true
	}
	for r := range repos {
		set.Repos = append(set.Repos, r)
	}
	sort.Strings(set.Repos)
	snaps := map[string]*snapshot.Snapshot{}
	type key struct{ path, repo string }
	byKey := map[key]int{}
	for _, f := range fixtures {
		p := path(f)
		s, ok := snaps[p]
		if !ok {
			var err error
			if s, err = snapshot.Open(p); err != nil {
				set.Close()
				return nil, fmt.Errorf("fixture %s: %w", f.ID, err)
			}
			snaps[p] = s
			set.snaps = append(set.snaps, s)
		}
		gi, ok := byKey[key{p, f.Repo}]
		if !ok {
			gi = len(set.groups)
			byKey[key{p, f.Repo}] = gi
			set.groups = append(set.groups, group{s: s, repo: sort.SearchStrings(set.Repos, f.Repo)})
		}
		set.groups[gi].fx = append(set.groups[gi].fx, f)
		set.n++
	}
	return set, nil
}

// Len is the number of fixtures.
func (s *Set) Len() int { return s.n }

// Snapshots is the number of distinct snapshots.
func (s *Set) Snapshots() int { return len(s.snaps) }

// Close unmaps every snapshot.
func (s *Set) Close() {
	for _, sn := range s.snaps {
		sn.Close()
	}
	s.groups, s.snaps = nil, nil
}

// Scores are the means of one repository's fixtures, or their macro
// average (eval.Summarize's figures; Count is the fixtures').
type Scores = eval.Summary

// Objective is what training maximises for one repository: (MRR +
// R@10) / 2.
func Objective(a Scores) float64 { return (a.MRR + a.R10) / 2 }

// Result is an evaluation: per repository (indexed as Set.Repos; Count
// is 0 for repositories left out) and their macro average.
type Result struct {
	Repos []Scores
	// Macro averages each included repository's means; Objective is its
	// objective.
	Macro     Scores
	Objective float64
}

// Evaluate answers every fixture of the repositories in only (nil: all)
// with the weights t and scores them strictly. workers ≤ 0 means
// GOMAXPROCS.
func (s *Set) Evaluate(ctx context.Context, t query.Tuning, only []bool, workers int) (Result, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	per := make([][][]eval.FixtureResult, workers)
	for w := range per {
		per[w] = make([][]eval.FixtureResult, len(s.Repos))
	}
	err := s.eachGroup(ctx, workers, func(w, gi int) error {
		g := s.groups[gi]
		if only != nil && !only[g.repo] {
			return nil
		}
		return g.answer(ctx, t, per[w])
	})
	if err != nil {
		return Result{}, err
	}
	byRepo := make([][]eval.FixtureResult, len(s.Repos))
	for i := range s.Repos {
		for _, acc := range per {
			byRepo[i] = append(byRepo[i], acc[i]...)
		}
	}
	return summarize(s.Repos, byRepo), nil
}

// summarize is the evaluation of each repository's results (indexed as
// repos) and their macro average over the repositories that have some.
func summarize(repos []string, byRepo [][]eval.FixtureResult) Result {
	res := Result{Repos: make([]Scores, len(repos))}
	var included []Scores
	for i, name := range repos {
		res.Repos[i] = eval.Summarize(name, byRepo[i])
		if len(byRepo[i]) > 0 {
			included = append(included, res.Repos[i])
		}
	}
	res.Macro = Macro(included)
	res.Objective = Objective(res.Macro)
	return res
}

// Macro averages the repositories' means, each repository alike: the
// summary of one result per repository standing for its means.
func Macro(repos []Scores) Scores {
	means := make([]eval.FixtureResult, len(repos))
	count := 0
	for i, r := range repos {
		means[i] = eval.FixtureResult{P10: r.P10, R10: r.R10, MRR: r.MRR, NDCG: r.NDCG, Acc1: r.Acc1, Acc5: r.Acc5, Acc10: r.Acc10}
		count += r.Count
	}
	m := eval.Summarize("repositories", means)
	m.Count = count
	return m
}

// answer runs g's fixtures with t and adds their results to acc.
func (g group) answer(ctx context.Context, t query.Tuning, acc [][]eval.FixtureResult) error {
	e, err := query.New(g.s, query.WithTuning(t))
	if err != nil {
		return err
	}
	for _, f := range g.fx {
		res, err := e.Query(ctx, f.Description, query.Options{Limit: eval.K})
		if err != nil {
			return fmt.Errorf("fixture %s: %w", f.ID, err)
		}
		names := make([]string, len(res.Results))
		for i, it := range res.Results {
			names[i] = it.Symbol
		}
		acc[g.repo] = append(acc[g.repo], eval.Score(f, names, eval.Strict, 0))
	}
	return nil
}

// Options steer the ascent.
type Options struct {
	// Params are the weights to learn, by their Tuning names (nil:
	// DefaultParams).
	Params []string
	// Rounds caps the passes over Params (0: 3).
	Rounds int
	// MinGain is the least rise of the objective a step must bring to be
	// kept (0: 0.001), so that noise of one fixture does not move a
	// weight.
	MinGain float64
	// Workers as for Evaluate.
	Workers int
	// Log, if set, gets a line per kept step and per round.
	Log io.Writer
}

// DefaultParams are the weights the ascent moves: the fusion weights of
// the channels and the score's components and factors. Caps and
// thresholds of the task reading stay as they are.
var DefaultParams = []string{
	"blast", "confidence", "distance", "match", "cover",
	"hitsSeed", "hitsHub", "hitsPenalty", "testPenalty", "valuePenalty", "enumPenalty", "typeBoost",
	"tiered", "bm25", "equiv", "alias", "body", "bodyText", "bodyHistory",
	"parentBoost", "stem", "base", "late",
}

// steps are the multipliers tried on a weight; a weight at 0 tries
// these values instead.
var (
	steps    = []float64{0, 0.5, 0.75, 1.33, 2}
	fromZero = []float64{0.1, 0.3, 1}
)

// Ascend learns the weights of opt.Params from start on the
// repositories in only (nil: all) and returns them with their
// evaluation there.
func Ascend(ctx context.Context, s *Set, start query.Tuning, only []bool, opt Options) (query.Tuning, Result, error) {
	params := opt.Params
	if params == nil {
		params = DefaultParams
	}
	rounds := opt.Rounds
	if rounds <= 0 {
		rounds = 3
	}
	gain := opt.MinGain
	if gain <= 0 {
		gain = 0.001
	}
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format, a...)
		}
	}
	cur := start
	best, err := s.Evaluate(ctx, cur, only, opt.Workers)
	if err != nil {
		return start, Result{}, err
	}
	logf("start: objective %.4f (MRR %.3f R@10 %.3f Acc@10 %.3f)\n", best.Objective, best.Macro.MRR, best.Macro.R10, best.Macro.Acc10)
	for round := 1; round <= rounds; round++ {
		moved := false
		for _, p := range params {
			v, err := weight(cur, p)
			if err != nil {
				return start, Result{}, err
			}
			tries := fromZero
			if v != 0 {
				tries = make([]float64, len(steps))
				for i, m := range steps {
					tries[i] = round4(v * m)
				}
			}
			bestV, bestRes := v, best
			for _, x := range tries {
				if x == v {
					continue
				}
				t, err := query.ParseTuning(fmt.Sprintf("%s=%g", p, x), cur)
				if err != nil {
					return start, Result{}, err
				}
				r, err := s.Evaluate(ctx, t, only, opt.Workers)
				if err != nil {
					return start, Result{}, err
				}
				if r.Objective > bestRes.Objective+gain {
					bestV, bestRes = x, r
				}
			}
			if bestV != v {
				cur, _ = query.ParseTuning(fmt.Sprintf("%s=%g", p, bestV), cur)
				logf("round %d: %s %g -> %g: objective %.4f -> %.4f\n", round, p, v, bestV, best.Objective, bestRes.Objective)
				best = bestRes
				moved = true
			}
		}
		logf("round %d done: objective %.4f (MRR %.3f R@10 %.3f Acc@10 %.3f)\n", round, best.Objective, best.Macro.MRR, best.Macro.R10, best.Macro.Acc10)
		if !moved {
			break
		}
	}
	return cur, best, nil
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// weight reads the weight named p of t (by its Tuning name).
func weight(t query.Tuning, p string) (float64, error) {
	for _, kv := range strings.Split(t.String(), ",") {
		k, v, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, p) {
			var x float64
			_, err := fmt.Sscan(v, &x)
			return x, err
		}
	}
	return 0, fmt.Errorf("no weight is named %q", p)
}

// Fold is one validation fold: weights learned without Held, scored on
// Held against the starting weights.
type Fold struct {
	Held          []string
	Learned       query.Tuning
	Before, After Result // on Held
}

// CrossValidate splits the repositories into k folds (repository i goes
// to fold i mod k, in Repos order), learns on all but one fold and scores
// the one left out, for each fold.
func CrossValidate(ctx context.Context, s *Set, start query.Tuning, k int, opt Options) ([]Fold, error) {
	if k < 2 || k > len(s.Repos) {
		return nil, fmt.Errorf("%d folds for %d repositories", k, len(s.Repos))
	}
	var folds []Fold
	for f := 0; f < k; f++ {
		held := make([]bool, len(s.Repos))
		train := make([]bool, len(s.Repos))
		var names []string
		for i, r := range s.Repos {
			held[i] = i%k == f
			train[i] = !held[i]
			if held[i] {
				names = append(names, r)
			}
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "fold %d: holding out %s\n", f+1, strings.Join(names, ", "))
		}
		t, _, err := Ascend(ctx, s, start, train, opt)
		if err != nil {
			return nil, err
		}
		before, err := s.Evaluate(ctx, start, held, opt.Workers)
		if err != nil {
			return nil, err
		}
		after, err := s.Evaluate(ctx, t, held, opt.Workers)
		if err != nil {
			return nil, err
		}
		folds = append(folds, Fold{Held: slices.Clone(names), Learned: t, Before: before, After: after})
	}
	return folds, nil
}

// eachGroup calls fn for every group of s (gi its index in s.groups)
// from workers goroutines (w the calling one's, 0 to workers-1) until
// the first error, which it returns, or ctx's end.
func (s *Set) eachGroup(ctx context.Context, workers int, fn func(w, gi int) error) error {
	var mu sync.Mutex
	var firstErr error
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				gi := next
				next++
				stop := firstErr != nil
				mu.Unlock()
				if stop || gi >= len(s.groups) || ctx.Err() != nil {
					return
				}
				if err := fn(w, gi); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
