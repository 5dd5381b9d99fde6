package query

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// The rankers an engine can rank with: the formula (Engine.Why) with
// different weights, or re-ordered by a tree model.
//
//   - "formula": DefaultTuning, set by hand on the dev tasks (short
//     feature requests);
//   - "learned": DefaultTuning with the weights of learned.tune, learned
//     from 2,000 commit messages of 20 other repositories by `knowing
//     train` (eval/train/README.md has the training set and the command);
//   - "auto": the formula for requests, the learned weights for reports:
//     tasks of more than ReportWords words (bug reports, pasted logs,
//     long commit messages).
//   - "trees": the formula, its best 50 candidates re-ordered by the
//     embedded tree model (trees.model, Model), learned from the same
//     commits by `knowing train --trees`.
var Rankers = []string{"auto", "formula", "learned", "trees"}

// DefaultRanker is the ranker the command line and the MCP server use
// unless told otherwise (EVAL.md, "Tree ranker", has the measurements
// that chose it). An engine New makes without options ranks with the
// formula; RankerByName(DefaultRanker).Options() gives the default's.
const DefaultRanker = "trees"

// ReportWords: a task of more words is a report, not a request. No dev
// task has more than 34 words; a pasted bug report has hundreds.
const ReportWords = 40

// IsReport reports whether task has more than ReportWords words
// (separated by white space). It allocates nothing.
func IsReport(task string) bool {
	return countWords(task, ReportWords+1) > ReportWords
}

// Ranker is a ranker's weights: Tasks for every task, or, when Reports
// is set, for requests only and Reports for reports (IsReport).
type Ranker struct {
	Tasks   Tuning
	Reports *Tuning
	// Model re-orders the best candidates of every task (nil: none).
	Model *Model
}

// Options are the engine options that rank with r.
func (r Ranker) Options() []EngineOption {
	opts := []EngineOption{WithTuning(r.Tasks), WithModel(r.Model)}
	if r.Reports != nil {
		opts = append(opts, WithReportTuning(*r.Reports))
	}
	return opts
}

// RankerByName returns the named ranker (Rankers).
func RankerByName(name string) (Ranker, error) {
	switch name {
	case "auto":
		l, err := learned()
		if err != nil {
			return Ranker{}, err
		}
		return Ranker{Tasks: DefaultTuning(), Reports: &l}, nil
	case "formula", "learned":
		t, err := RankerTuning(name)
		return Ranker{Tasks: t}, err
	case "trees":
		m, err := trees()
		return Ranker{Tasks: DefaultTuning(), Model: m}, err
	}
	return Ranker{}, fmt.Errorf("unknown ranker %q: the rankers are %s", name, strings.Join(Rankers, ", "))
}

// learnedModel is the learned ranker's model file: '#' comment lines,
// a header line "knowing-ranker VERSION", then one line of weights as
// ParseTuning reads them. VERSION changes when the weights' meaning does
// (a component or channel changes what it computes); a binary refuses a
// model of another version, as it refuses a snapshot of another format.
//
//go:embed learned.tune
var learnedModel string

// learned is the embedded model's weights, read once.
var learned = sync.OnceValues(func() (Tuning, error) { return ParseModel(learnedModel) })

// treesModel is the tree model file (Model), learned by `knowing train
// --trees` (eval/train/README.md).
//
//go:embed trees.model
var treesModel string

// trees is the embedded tree model, read once.
var trees = sync.OnceValues(func() (*Model, error) { return ParseTrees(treesModel) })

// rankerVersion is the model version this binary reads.
const rankerVersion = 1

// RankerTuning returns the weights of the formula or the learned
// ranker.
func RankerTuning(name string) (Tuning, error) {
	switch name {
	case "formula":
		return DefaultTuning(), nil
	case "learned":
		return learned()
	}
	return Tuning{}, fmt.Errorf("unknown ranker %q: the rankers are formula and learned", name)
}

// ParseModel reads a model file (see learnedModel) into weights over
// DefaultTuning.
func ParseModel(model string) (Tuning, error) {
	var lines []string
	for _, l := range strings.Split(model, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		return Tuning{}, fmt.Errorf("ranker model: want a header line and a line of weights, got %d lines", len(lines))
	}
	var v int
	if _, err := fmt.Sscanf(lines[0], "knowing-ranker %d", &v); err != nil {
		return Tuning{}, fmt.Errorf("ranker model: header %q: want \"knowing-ranker VERSION\"", lines[0])
	}
	if v != rankerVersion {
		return Tuning{}, fmt.Errorf("ranker model: version %d; this knowing reads version %d", v, rankerVersion)
	}
	t, err := ParseTuning(lines[1], DefaultTuning())
	if err != nil {
		return Tuning{}, fmt.Errorf("ranker model: %w", err)
	}
	return t, nil
}
