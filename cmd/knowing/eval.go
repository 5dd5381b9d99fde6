package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/eval/baseline"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

const evalHelp = `Usage: knowing eval --snap SNAP --fixtures DIR [flags]
       knowing eval --mined REPO [--fixtures DIR] [flags]

Runs every fixture's task (YAML files under DIR, one task each) against
the snapshot and scores the top 10 against the fixture's ground truth:
P@10, R@10, MRR and NDCG@10 per fixture, per tier, per repo and overall.
Bug reports and mined commits (tiers swe, mined, mined-test) are also
scored by strict Acc@1, Acc@5 and Acc@10 (every ground-truth symbol within
the top k), printed in a table of their own with R@10 and MRR.
Matching is strict by default (a result matches when its qualified name
equals the ground truth or ends with "." or "/" plus it); --lenient also
counts a class for its methods and a method for a same-named method on a
type that shares a qualifier (the matching older published figures use).

SNAP may name one snapshot per fixture: {id}, {repo} and {base_commit}
in it are replaced by the fixture's fields, so bug reports, each answered
from its own tree, run in one go:

  knowing eval --snap 'snaps/{id}.snap' --fixtures swe-dev/fixtures

--mined REPO answers "how well does knowing work on this repository":
it mines REPO's history as 'knowing mine' does (with its flags --max,
--since, --fixes, --tests, --rev, --name; or reads fixtures mined
before, with --fixtures), builds a
snapshot of each commit's parent in a temporary folder (one per distinct
tree), and scores each commit from its parent's snapshot alone: neither
the change, nor its message, nor any later commit is in the index.

--replay answers each repository's fixtures in run order (file order;
with --mined, the order the commits were made in) as one working session,
as an agent's MCP server would see them: each task's top results feed the
session (or with --replay-feed truth its ground truth), the next task
comes --replay-gap later, and returned symbols it meets again are raised
(--session-half-life, --session-weight; see knowing mcp).

  --verify    only check that every ground-truth symbol exists in the
              snapshot; list the ones that do not
  --floor F   fail (exit 1) when an overall metric is below the floor file F
  --baseline  rank without the engine: grep (task words in qualified
              names) or body (BM25 over each function's source, read from
              the folder the snapshot was built from)

Flags:
`

// evalFlags are the flags of eval that shape a run rather than say what
// to run it on.
type evalFlags struct {
	matcher  eval.Matcher
	asJSON   bool
	markdown string
	floor    string
	verify   bool
	quiet    bool
	vector   bool
	budget   int
	baseline string
	replay   *replay // nil: each fixture on its own
}

func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	snap := fs.String("snap", "", "snapshot `file` to query, or a template with {id}, {repo}, {base_commit}")
	fixtures := fs.String("fixtures", "", "fixture `folder` (searched recursively)")
	repo := fs.String("repo", "", "only fixtures whose repo field is this `name`")
	lenient := fs.Bool("lenient", false, "lenient matching: a class counts for its methods (see above)")
	asJSON := fs.Bool("json", false, "JSON report on stdout")
	markdown := fs.String("markdown", "", "also write a markdown report to this `file`")
	floor := fs.String("floor", "", "fail below the minimums in this floor `file`")
	verify := fs.Bool("verify", false, "check ground-truth symbols exist; run no queries")
	quiet := fs.Bool("quiet", false, "print only the summary tables")
	vector := fs.Bool("vector", false, "queries use the hashed-vector channel too")
	budget := fs.Int("budget", 0, "token budget of each query (0: the query's default, 50,000), to measure packing under small budgets")
	baseName := fs.String("baseline", "", "rank with a `baseline` instead of the engine: grep (task words in qualified names) or body (BM25 over function source)")
	mined := fs.String("mined", "", "mine the git repository in this `folder` and score each commit from its parent's snapshot")
	mf := mineFlagsOf(fs)
	rf := replayFlagsOf(fs)
	rankerFlag(fs)
	pos, err := parse(fs, args, evalHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q; use --snap and --fixtures", pos)
	}
	if *mined != "" && *snap != "" {
		return usagef("--mined builds its own snapshots; leave out --snap")
	}
	if *mined == "" && (*snap == "" || *fixtures == "") {
		return usagef("--snap and --fixtures are both required (or --mined REPO)")
	}
	if *budget < 0 {
		return usagef("--budget must be 0 (the default) or more (got %d)", *budget)
	}
	if *baseName != "" && *baseName != "grep" && *baseName != "body" {
		return usagef("unknown baseline %q: the baselines are grep and body", *baseName)
	}
	cfg := evalFlags{matcher: eval.Strict, asJSON: *asJSON, markdown: *markdown, floor: *floor,
		verify: *verify, quiet: *quiet, vector: *vector, budget: *budget, baseline: *baseName}
	if cfg.replay, err = rf.replay(); err != nil {
		return err
	}
	if *lenient {
		cfg.matcher = eval.Lenient
	}
	if *mined != "" {
		return evalMined(*mined, *fixtures, *repo, mf, cfg, stdout, stderr)
	}
	fx, err := eval.LoadDir(*fixtures)
	if err != nil {
		return err
	}
	if *repo != "" {
		fx = eval.FilterRepo(fx, *repo)
	}
	if len(fx) == 0 {
		return fmt.Errorf("no fixtures in %s", *fixtures)
	}
	src := &snapTemplate{tmpl: *snap}
	return runEval(fx, src, cfg, stdout, stderr)
}

// snapSource gives the snapshot each fixture is answered from. Fixtures
// with the same key share one snapshot; open is called once per run of
// consecutive fixtures with the same key and returns the snapshot's path,
// the folder it was built from ("" for the one it records) and a function
// to call when the run is done with it.
type snapSource interface {
	key(f eval.Fixture) string
	open(key string) (path, root string, done func(), err error)
}

// snapTemplate is --snap: one path, or a template of fixture fields.
type snapTemplate struct{ tmpl string }

func (t *snapTemplate) key(f eval.Fixture) string {
	return strings.NewReplacer("{id}", f.ID, "{repo}", f.Repo, "{base_commit}", f.BaseCommit).Replace(t.tmpl)
}

func (t *snapTemplate) open(key string) (string, string, func(), error) {
	if strings.ContainsAny(key, "{}") {
		return "", "", nil, fmt.Errorf("snapshot template %q: only {id}, {repo} and {base_commit} are replaced", t.tmpl)
	}
	return key, "", func() {}, nil
}

// evalTarget is the snapshot the current fixtures are answered from.
type evalTarget struct {
	key  string
	s    *snapshot.Snapshot
	e    *query.Engine
	body *baseline.Body
	done func()
	err  error
}

func (t *evalTarget) close() {
	if t.s != nil {
		t.s.Close()
	}
	if t.done != nil {
		t.done()
	}
	*t = evalTarget{}
}

// runEval answers every fixture from the snapshot src gives it, scores,
// and writes the report as cfg says. A snapshot that cannot be opened
// fails its fixtures (they score 0 and the error is listed), not the run.
func runEval(fx []eval.Fixture, src snapSource, cfg evalFlags, stdout, stderr io.Writer) error {
	ctx := context.Background()
	var cur evalTarget
	defer cur.close()
	target := func(f eval.Fixture) *evalTarget {
		k := src.key(f)
		if cur.key == k && (cur.e != nil || cur.err != nil) {
			return &cur
		}
		cur.close()
		cur.key = k
		path, root, done, err := src.open(k)
		cur.done = done
		if err == nil {
			cur.s, cur.e, err = openEngine(path)
		}
		if err == nil && cfg.baseline == "body" && !cfg.verify {
			cur.body, err = baseline.NewBody(ctx, cur.s, root)
		}
		cur.err = err
		return &cur
	}
	// One snapshot for every fixture: one that cannot be opened fails
	// the run at once.
	if k := src.key(fx[0]); !slices.ContainsFunc(fx, func(f eval.Fixture) bool { return src.key(f) != k }) {
		if t := target(fx[0]); t.err != nil {
			return t.err
		}
	}
	if cfg.verify {
		missing := 0
		for i := 0; i < len(fx); {
			j := i + 1
			for j < len(fx) && src.key(fx[j]) == src.key(fx[i]) {
				j++
			}
			t := target(fx[i])
			if t.err != nil {
				return t.err
			}
			names := func(yield func(string) bool) {
				for id := 0; id < t.s.NumNodes(); id++ {
					if !yield(t.s.QName(uint32(id))) {
						return
					}
				}
			}
			for _, u := range eval.VerifyNames(fx[i:j], names) {
				for _, m := range u.Missing {
					fmt.Fprintf(stdout, "MISSING %s (%s): %s\n", u.ID, u.Path, m)
					missing++
				}
			}
			i = j
		}
		fmt.Fprintf(stdout, "%d fixtures, %d ground-truth entries missing from the snapshot\n", len(fx), missing)
		if missing > 0 {
			return fmt.Errorf("%d ground-truth entries not found", missing)
		}
		return nil
	}
	retrieve := func(ctx context.Context, f eval.Fixture) ([]string, time.Duration, error) {
		t := target(f)
		if t.err != nil {
			return nil, 0, t.err
		}
		start := time.Now()
		var items []query.Item
		var err error
		switch cfg.baseline {
		case "grep":
			items, err = baseline.Grep(ctx, t.e, f.Description, eval.K)
		case "body":
			items, err = t.body.Rank(ctx, t.e, f.Description, eval.K)
		default:
			opt := query.Options{Limit: eval.K, Vector: cfg.vector, Budget: cfg.budget}
			if cfg.replay != nil {
				opt.Session, opt.At = cfg.replay.next(f)
			}
			var res *query.Result
			res, err = t.e.Query(ctx, f.Description, opt)
			if res != nil {
				items = res.Results
				if cfg.replay != nil {
					cfg.replay.fed(opt.Session, t.s, f, items, opt.At)
				}
			}
		}
		el := time.Since(start)
		if err != nil {
			return nil, el, err
		}
		// The names live in the snapshot's mapping, which is unmapped
		// when the next fixture needs another snapshot: the report keeps
		// copies.
		names := make([]string, len(items))
		for i, it := range items {
			names[i] = strings.Clone(it.Symbol)
		}
		return names, el, nil
	}
	rep, err := eval.Run(ctx, fx, retrieve, eval.Options{Matcher: cfg.matcher})
	if err != nil {
		return err
	}
	return writeEval(rep, cfg, stdout, stderr)
}

// writeEval prints the report as cfg says and checks the floor.
func writeEval(rep *eval.Report, cfg evalFlags, stdout, stderr io.Writer) error {
	if cfg.asJSON {
		if err := rep.WriteJSON(stdout); err != nil {
			return err
		}
	} else if cfg.quiet {
		short := *rep
		short.Fixtures = nil
		if err := short.WriteText(stdout); err != nil {
			return err
		}
	} else if err := rep.WriteText(stdout); err != nil {
		return err
	}
	if cfg.markdown != "" {
		f, err := os.Create(cfg.markdown)
		if err != nil {
			return err
		}
		if err := rep.WriteMarkdown(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if cfg.floor != "" {
		fl, err := eval.LoadFloor(cfg.floor)
		if err != nil {
			return err
		}
		if err := fl.Check(rep); err != nil {
			return fmt.Errorf("below the floor in %s: %w", cfg.floor, err)
		}
		fmt.Fprintf(stderr, "eval: at or above the floor in %s\n", cfg.floor)
	}
	return nil
}
