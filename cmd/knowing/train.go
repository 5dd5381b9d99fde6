package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/eval/train"
	"github.com/knowing-dev/knowing/query"
)

const trainHelp = `Usage: knowing train --snap TEMPLATE --fixtures DIR [flags]

Learns the ranking weights from mined commits (see 'knowing mine'): each
commit's message is a task and the symbols it changed its answer, scored
strictly from a snapshot of its parent. The weights of the ranking
formula (the ones 'knowing why' prints) are set by coordinate ascent:
one weight at a time, the step that raises the objective most is kept,
round after round until a round changes nothing. The objective is the
mean over repositories of each one's (MRR + R@10) / 2.

--folds K first validates: the repositories are split into K folds, and
for each the weights are learned on the others and scored on it against
the starting weights. Then the weights are learned on every repository
and printed (or written to --out) as the weights that differ from the
formula's defaults, in the form KNOWING_TUNE and a ranker model file
read. The ascent starts from --ranker's weights for short tasks (auto
and formula: the formula; learned: the learned weights), with --start
and KNOWING_TUNE over them. eval/train/README.md has the training set and the exact commands.

  knowing train --snap 'snaps/{repo}/{base_commit}.snap' --fixtures fixtures --folds 4

--trees N learns a tree model instead (the trees ranker): for every
fixture the formula ranks (with --ranker's weights), the features of its
best --top candidates are kept (what every stage knew of each: the
score's parts, each channel's rank, kind, name, size, degree, the
candidates sharing its file, the task's length), and N regression trees
of --depth levels are boosted on them by LambdaMART (NDCG's pairwise
gradients). --folds K prints the left-out repositories' figures after
10, 25, 50... trees against the formula's order. The model file written
is what query/trees.model embeds; KNOWING_MODEL=FILE makes any command
re-order with another one, for experiments.

  knowing train --snap 'snaps/{repo}/{base_commit}.snap' --fixtures fixtures \
      --ranker formula --trees 100 --depth 3 --top 50 --folds 4 --out query/trees.model

Flags:
`

func cmdTrain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	snap := fs.String("snap", "", "snapshot path `template`: {id}, {repo} and {base_commit} are replaced by each fixture's fields")
	fixtures := fs.String("fixtures", "", "fixture `folder` (searched recursively)")
	folds := fs.Int("folds", 0, "validate first: learn without each of this many folds of repositories, score on it (0: no validation)")
	rounds := fs.Int("rounds", 3, "passes over the weights at most")
	params := fs.String("params", "", "comma-separated weights to learn (default: the fusion weights and the score's components)")
	start := fs.String("start", "", "start from these weights (name=value,...) over the ranker's (--ranker)")
	gain := fs.Float64("min-gain", 0.001, "least rise of the objective a step must bring")
	out := fs.String("out", "", "write the learned weights to this `file` (default: stdout)")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	trees := fs.Int("trees", 0, "learn a tree model of this many trees instead of the weights (LambdaMART over the features of the best --top candidates)")
	top := fs.Int("top", 50, "with --trees: candidates the model re-orders")
	depth := fs.Int("depth", 4, "with --trees: levels of splits per tree")
	rate := fs.Float64("rate", 0.1, "with --trees: shrinkage of each tree")
	minLeaf := fs.Int("min-leaf", 50, "with --trees: least candidates in a leaf")
	skip := fs.String("skip", "", "with --trees: comma-separated features the trees never split on")
	rankerFlag(fs)
	pos, err := parse(fs, args, trainHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q; use --snap and --fixtures", pos)
	}
	if *snap == "" || *fixtures == "" {
		return usagef("--snap and --fixtures are both required")
	}
	if *rounds < 1 {
		return usagef("--rounds must be at least 1 (got %d)", *rounds)
	}
	// Start from the ranker's weights for the tasks mined commits are
	// (--ranker; auto's requests are the formula's), with KNOWING_TUNE.
	r, err := chosenRanker()
	if err != nil {
		return err
	}
	base := r.Tasks
	if base, err = query.ParseTuning(*start, base); err != nil {
		return usagef("--start: %v", err)
	}
	opt := train.Options{Rounds: *rounds, MinGain: *gain}
	if *params != "" {
		for _, p := range strings.Split(*params, ",") {
			p = strings.TrimSpace(p)
			if _, err := query.ParseTuning(p+"=0", base); err != nil {
				return usagef("--params: %v", err)
			}
			opt.Params = append(opt.Params, p)
		}
	}
	if !*quiet {
		opt.Log = stderr
	}
	fx, err := eval.LoadDir(*fixtures)
	if err != nil {
		return err
	}
	if len(fx) == 0 {
		return fmt.Errorf("no fixtures in %s", *fixtures)
	}
	tmpl := &snapTemplate{tmpl: *snap}
	set, err := train.Load(fx, tmpl.key)
	if err != nil {
		return err
	}
	defer set.Close()
	if *folds > 0 && (*folds < 2 || *folds > len(set.Repos)) {
		return usagef("--folds must be between 2 and the number of repositories (%d)", len(set.Repos))
	}
	ctx := context.Background()
	fmt.Fprintf(stderr, "train: %d fixtures, %d snapshots, %d repositories\n", set.Len(), set.Snapshots(), len(set.Repos))
	if *trees > 0 {
		topt := train.TreeOptions{Trees: *trees, Top: *top, Depth: *depth, Rate: *rate, MinLeaf: *minLeaf, Log: opt.Log}
		if *skip != "" {
			topt.Skip = strings.Split(*skip, ",")
		}
		if *top < 2 {
			return usagef("--top must be at least 2 (got %d)", *top)
		}
		return trainTrees(ctx, set, base, *folds, topt, *out, stdout, stderr)
	}
	if *folds > 0 {
		fl, err := train.CrossValidate(ctx, set, base, *folds, opt)
		if err != nil {
			return err
		}
		writeFolds(stdout, fl)
	}
	learned, res, err := train.Ascend(ctx, set, base, nil, opt)
	if err != nil {
		return err
	}
	before, err := set.Evaluate(ctx, base, nil, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "all repositories (trained on): objective %.4f -> %.4f, Acc@10 %.3f -> %.3f, MRR %.3f -> %.3f\n",
		before.Objective, res.Objective, before.Macro.Acc10, res.Macro.Acc10, before.Macro.MRR, res.Macro.MRR)
	// The weights that differ from the formula's defaults: the form a
	// model file holds (query.ParseModel reads it over DefaultTuning),
	// whatever the ascent started from.
	spec := diffSpec(query.DefaultTuning(), learned)
	if *out == "" {
		fmt.Fprintln(stdout, spec)
		return nil
	}
	return os.WriteFile(*out, []byte(spec+"\n"), 0o644)
}

// diffSpec lists the weights of t that differ from base, as ParseTuning
// reads them.
func diffSpec(base, t query.Tuning) string {
	b := strings.Split(base.String(), ",")
	var d []string
	for i, kv := range strings.Split(t.String(), ",") {
		if i >= len(b) || kv != b[i] {
			d = append(d, kv)
		}
	}
	return strings.Join(d, ",")
}

// writeFolds prints the validation table: per held-out fold, the
// starting and learned weights' macro figures there.
func writeFolds(w io.Writer, folds []train.Fold) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "held out\tN\tAcc@1\tAcc@10\tR@10\tMRR\t→ Acc@1\tAcc@10\tR@10\tMRR\t")
	row := func(name, n string, b, a train.Scores) {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, n,
			b.Acc1, b.Acc10, b.R10, b.MRR, a.Acc1, a.Acc10, a.R10, a.MRR)
	}
	// The mean over every left-out repository: the folds' per-repository
	// figures, each repository alike.
	var before, after []train.Scores
	for _, f := range folds {
		row(strings.Join(f.Held, ","), fmt.Sprint(f.Before.Macro.Count), f.Before.Macro, f.After.Macro)
		for i := range f.Before.Repos {
			if f.Before.Repos[i].Count > 0 {
				before = append(before, f.Before.Repos[i])
				after = append(after, f.After.Repos[i])
			}
		}
	}
	row("repo mean", "", train.Macro(before), train.Macro(after))
	tw.Flush()
}

// trainTrees is train --trees: collect the candidates' features with
// the weights base, validate by folds of repositories (each checkpoint
// of trees against the formula's order), then learn on every
// repository and write the model.
func trainTrees(ctx context.Context, set *train.Set, base query.Tuning, folds int, opt train.TreeOptions, out string, stdout, stderr io.Writer) error {
	qs, err := train.Collect(ctx, set, base, opt.Top, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "train: features of the best %d candidates of %d fixtures collected\n", opt.Top, len(qs.Q))
	if folds > 0 {
		checks := []int{}
		for _, c := range []int{10, 25, 50, 100, 200, 400, 800} {
			if c < opt.Trees {
				checks = append(checks, c)
			}
		}
		checks = append(checks, opt.Trees)
		before := []train.Scores{}
		after := make([][]train.Scores, len(checks))
		for f := 0; f < folds; f++ {
			held := make([]bool, len(qs.Repos))
			learn := make([]bool, len(qs.Repos))
			for i := range qs.Repos {
				held[i] = i%folds == f
				learn[i] = !held[i]
			}
			forest, err := train.Boost(ctx, qs, learn, opt)
			if err != nil {
				return err
			}
			b := train.EvaluateForest(qs, nil, held)
			for i := range b.Repos {
				if held[i] && b.Repos[i].Count > 0 {
					before = append(before, b.Repos[i])
				}
			}
			for k, c := range checks {
				a := train.EvaluateForest(qs, forest.Cut(c), held)
				for i := range a.Repos {
					if held[i] && a.Repos[i].Count > 0 {
						after[k] = append(after[k], a.Repos[i])
					}
				}
			}
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "held out (repo mean)\ttrees\tP@10\tAcc@1\tAcc@5\tAcc@10\tR@10\tMRR\t")
		row := func(name string, n int, m train.Scores) {
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, n, m.P10, m.Acc1, m.Acc5, m.Acc10, m.R10, m.MRR)
		}
		row("formula", 0, train.Macro(before))
		for k, c := range checks {
			row("trees", c, train.Macro(after[k]))
		}
		tw.Flush()
	}
	forest, err := train.Boost(ctx, qs, nil, opt)
	if err != nil {
		return err
	}
	b, a := train.EvaluateForest(qs, nil, nil), train.EvaluateForest(qs, forest, nil)
	fmt.Fprintf(stdout, "all repositories (trained on): Acc@10 %.3f -> %.3f, MRR %.3f -> %.3f\n", b.Macro.Acc10, a.Macro.Acc10, b.Macro.MRR, a.Macro.MRR)
	skip := ""
	if len(opt.Skip) > 0 {
		skip = " --skip " + strings.Join(opt.Skip, ",")
	}
	comment := fmt.Sprintf("knowing train --ranker %s --trees %d --top %d --depth %d --rate %g --min-leaf %d%s\nover %d fixtures of %d repositories (eval/train/README.md)",
		rankerName(), opt.Trees, opt.Top, opt.Depth, opt.Rate, opt.MinLeaf, skip, len(qs.Q), len(qs.Repos))
	if out == "" {
		return forest.WriteModel(stdout, comment)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := forest.WriteModel(f, comment); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
