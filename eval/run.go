package eval

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// Retriever answers one fixture with ranked qualified names, best first.
// elapsed is the retrieval time to report; when it is 0 or negative, Run
// uses the wall time of the call.
type Retriever func(ctx context.Context, f Fixture) (names []string, elapsed time.Duration, err error)

// Options configures Run. The zero value is valid.
type Options struct {
	// Matcher decides relevance; nil means Strict.
	Matcher Matcher
	// FailFast makes Run return the first retriever error. Otherwise the
	// error is recorded in the fixture's result, which scores 0 (and is a
	// zero hit), and the run goes on.
	FailFast bool
	// OnResult, if set, is called after each fixture is scored, in order
	// (for progress output).
	OnResult func(FixtureResult)
}

// Report is the outcome of a run. Its JSON form (WriteJSON) uses the field
// names in the struct tags; see the package documentation.
type Report struct {
	Matcher  string          `json:"matcher"`
	K        int             `json:"k"`
	Fixtures []FixtureResult `json:"fixtures"` // in run order
	// Tiers: easy, medium, hard, then any other tier sorted; only tiers
	// that occur.
	Tiers []Summary `json:"tiers"`
	// Repos: sorted by name.
	Repos   []Summary `json:"repos"`
	Overall Summary   `json:"overall"`
	// BugRepos and BugOverall summarise the fixtures of BugTiers alone
	// (per repository, and all of them), for their Acc@k; absent when
	// the run has none.
	BugRepos   []Summary `json:"bug_repos,omitempty"`
	BugOverall *Summary  `json:"bug_overall,omitempty"`
}

// Run runs the retriever on each fixture in order, one at a time, and
// scores the results. It returns an error when ctx is done (checked
// between fixtures) or, with FailFast, when the retriever fails.
func Run(ctx context.Context, fixtures []Fixture, retrieve Retriever, opts Options) (*Report, error) {
	m := opts.Matcher
	if m == nil {
		m = Strict
	}
	results := make([]FixtureResult, 0, len(fixtures))
	for _, f := range fixtures {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		names, elapsed, err := retrieve(ctx, f)
		if elapsed <= 0 {
			elapsed = time.Since(start)
		}
		var r FixtureResult
		if err != nil {
			if opts.FailFast {
				return nil, fmt.Errorf("eval: fixture %s: %w", f.ID, err)
			}
			r = Score(f, nil, m, elapsed)
			r.Error = err.Error()
		} else {
			r = Score(f, names, m, elapsed)
		}
		results = append(results, r)
		if opts.OnResult != nil {
			opts.OnResult(r)
		}
	}
	return NewReport(m.Name(), results), nil
}

// NewReport aggregates fixture results (kept in the given order) into a
// report: per tier, per repository and overall.
func NewReport(matcher string, results []FixtureResult) *Report {
	if results == nil {
		results = []FixtureResult{}
	}
	rep := &Report{Matcher: matcher, K: K, Fixtures: results, Tiers: []Summary{}, Repos: []Summary{}}
	byTier := map[string][]FixtureResult{}
	byRepo := map[string][]FixtureResult{}
	bugByRepo := map[string][]FixtureResult{}
	var bugs []FixtureResult
	for _, r := range results {
		byTier[r.Tier] = append(byTier[r.Tier], r)
		byRepo[r.Repo] = append(byRepo[r.Repo], r)
		if IsBugTier(r.Tier) {
			bugByRepo[r.Repo] = append(bugByRepo[r.Repo], r)
			bugs = append(bugs, r)
		}
	}
	tiers := keys(byTier)
	sort.SliceStable(tiers, func(i, j int) bool { return tierRank(tiers[i]) < tierRank(tiers[j]) })
	for _, t := range tiers {
		rep.Tiers = append(rep.Tiers, Summarize(t, byTier[t]))
	}
	for _, r := range keys(byRepo) {
		rep.Repos = append(rep.Repos, Summarize(r, byRepo[r]))
	}
	rep.Overall = Summarize("overall", results)
	if len(bugs) > 0 {
		for _, r := range keys(bugByRepo) {
			rep.BugRepos = append(rep.BugRepos, Summarize(r, bugByRepo[r]))
		}
		s := Summarize("overall", bugs)
		rep.BugOverall = &s
	}
	return rep
}

func keys(m map[string][]FixtureResult) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
