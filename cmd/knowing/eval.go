package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/eval/baseline"
	"github.com/knowing-dev/knowing/query"
)

const evalHelp = `Usage: knowing eval --snap SNAP --fixtures DIR [flags]

Runs every fixture's task (YAML files under DIR, one task each) against
the snapshot and scores the top 10 against the fixture's ground truth:
P@10, R@10, MRR and NDCG@10 per fixture, per tier, per repo and overall.
Matching is strict by default (a result matches when its qualified name
equals the ground truth or ends with "." or "/" plus it); --lenient also
counts a class for its methods and a method for a same-named method on a
type that shares a qualifier (the matching older published figures use).

  --verify   only check that every ground-truth symbol exists in the
             snapshot; list the ones that do not
  --floor F  fail (exit 1) when an overall metric is below the floor file F

Flags:
`

func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	snap := fs.String("snap", "", "snapshot `file` to query")
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
	baseName := fs.String("baseline", "", "rank with a `baseline` instead of the engine: grep (task words in qualified names)")
	pos, err := parse(fs, args, evalHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q; use --snap and --fixtures", pos)
	}
	if *snap == "" || *fixtures == "" {
		return usagef("--snap and --fixtures are both required")
	}
	if *budget < 0 {
		return usagef("--budget must be 0 (the default) or more (got %d)", *budget)
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
	s, e, err := openEngine(*snap)
	if err != nil {
		return err
	}
	defer s.Close()
	if *verify {
		names := func(yield func(string) bool) {
			for id := 0; id < s.NumNodes(); id++ {
				if !yield(s.QName(uint32(id))) {
					return
				}
			}
		}
		bad := eval.VerifyNames(fx, names)
		missing := 0
		for _, u := range bad {
			for _, m := range u.Missing {
				fmt.Fprintf(stdout, "MISSING %s (%s): %s\n", u.ID, u.Path, m)
				missing++
			}
		}
		fmt.Fprintf(stdout, "%d fixtures, %d ground-truth entries missing from the snapshot\n", len(fx), missing)
		if missing > 0 {
			return fmt.Errorf("%d ground-truth entries not found", missing)
		}
		return nil
	}
	if *baseName != "" && *baseName != "grep" {
		return usagef("unknown baseline %q: the one baseline is grep", *baseName)
	}
	m := eval.Strict
	if *lenient {
		m = eval.Lenient
	}
	retrieve := func(ctx context.Context, f eval.Fixture) ([]string, time.Duration, error) {
		start := time.Now()
		var items []query.Item
		if *baseName == "grep" {
			items, err = baseline.Grep(ctx, e, f.Description, eval.K)
		} else {
			var res *query.Result
			res, err = e.Query(ctx, f.Description, query.Options{Limit: eval.K, Vector: *vector, Budget: *budget})
			if res != nil {
				items = res.Results
			}
		}
		el := time.Since(start)
		if err != nil {
			return nil, el, err
		}
		names := make([]string, len(items))
		for i, it := range items {
			names[i] = it.Symbol
		}
		return names, el, nil
	}
	rep, err := eval.Run(context.Background(), fx, retrieve, eval.Options{Matcher: m})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := rep.WriteJSON(stdout); err != nil {
			return err
		}
	} else if *quiet {
		short := *rep
		short.Fixtures = nil
		if err := short.WriteText(stdout); err != nil {
			return err
		}
	} else if err := rep.WriteText(stdout); err != nil {
		return err
	}
	if *markdown != "" {
		f, err := os.Create(*markdown)
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
	if *floor != "" {
		fl, err := eval.LoadFloor(*floor)
		if err != nil {
			return err
		}
		if err := fl.Check(rep); err != nil {
			return fmt.Errorf("below the floor in %s: %w", *floor, err)
		}
		fmt.Fprintf(stderr, "eval: at or above the floor in %s\n", *floor)
	}
	return nil
}
