package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/query"
)

// TestTrainLearnsAWeight starts the ascent with the body channel off, on
// tasks only the body channel answers (the variables and messages of
// bodyRepo's functions): training must turn it back on and raise the
// objective, on the repositories it learned from and, validated, on the
// one it left out.
func TestTrainLearnsAWeight(t *testing.T) {
	snap := bodySnapshot(t)
	dir := t.TempDir()
	fx := trainFixtures(t, dir)
	out := filepath.Join(dir, "learned.tune")
	code, stdout, errs := knowing(t, "", "train", "--quiet", "--snap", snap, "--fixtures", fx, "--start", "body=0",
		"--params", "body,cover", "--folds", "2", "--out", out)
	if code != 0 {
		t.Fatalf("train: %d %s", code, errs)
	}
	spec, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(spec), "body=") || strings.Contains(string(spec), "body=0,") {
		t.Errorf("learned weights %q: want the body channel on", spec)
	}
	// The validation table: each fold's left-out repository answers
	// better with the weights learned without it.
	for _, held := range []string{"one", "two"} {
		line := ""
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), held+" ") {
				line = l
			}
		}
		f := strings.Fields(line)
		if len(f) != 10 {
			t.Fatalf("no validation row for %s in:\n%s", held, stdout)
		}
		if f[5] >= f[9] { // MRR before, after
			t.Errorf("fold %s: MRR %s before, %s after: want a rise\n%s", held, f[5], f[9], stdout)
		}
	}
	if !strings.Contains(stdout, "Acc@10 0.500 -> 1.000") {
		t.Errorf("want every task answered after training, half before:\n%s", stdout)
	}
	// Bad input: clear errors.
	if code, _, errs := knowing(t, "", "train", "--snap", snap, "--fixtures", fx, "--params", "nosuch"); code != 2 || !strings.Contains(errs, "nosuch") {
		t.Errorf("unknown weight: %d %s", code, errs)
	}
	if code, _, errs := knowing(t, "", "train", "--snap", snap, "--fixtures", fx, "--folds", "5"); code != 2 || !strings.Contains(errs, "folds") {
		t.Errorf("more folds than repositories: %d %s", code, errs)
	}
}

// trainFixtures writes four mined-style fixtures over bodyRepo's
// functions under dir, two "repositories" answered from the same
// snapshot, so that one can be left out; it returns their folder.
func trainFixtures(t *testing.T, dir string) string {
	t.Helper()
	tasks := []struct{ repo, task, gt string }{
		{"one", "the retry backoff jitter is far too large", "schedule"},
		{"one", "spending allowance exhausted shown to a tenant", "checkQuota"},
		{"two", "jitter of the backoff grows without bound", "schedule"},
		{"two", "allowance exhausted message names the wrong tenant", "checkQuota"},
	}
	fx := filepath.Join(dir, "fixtures")
	for i, k := range tasks {
		d := filepath.Join(fx, k.repo)
		os.MkdirAll(d, 0o755)
		y := fmt.Sprintf("id: %s-%d\nrepo: %s\ntier: mined\ndescription: %q\nground_truth:\n  - %s\n", k.repo, i, k.repo, k.task, k.gt)
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("%d.yaml", i)), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// TestTrainTrees learns a small tree model, validated by folds, writes
// it as a model file the engine reads (KNOWING_MODEL), and refuses bad
// input clearly.
func TestTrainTrees(t *testing.T) {
	snap := bodySnapshot(t)
	dir := t.TempDir()
	fx := trainFixtures(t, dir)
	out := filepath.Join(dir, "trees.model")
	code, stdout, errs := knowing(t, "", "train", "--quiet", "--snap", snap, "--fixtures", fx, "--trees", "5",
		"--top", "5", "--depth", "2", "--min-leaf", "1", "--folds", "2", "--ranker", "formula", "--skip", "churn,hub", "--out", out)
	if code != 0 {
		t.Fatalf("train --trees: %d %s", code, errs)
	}
	if !strings.Contains(stdout, "formula") || !strings.Contains(stdout, "trees") || !strings.Contains(stdout, "all repositories") {
		t.Errorf("no validation table:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := query.ParseTrees(string(data))
	if err != nil {
		t.Fatalf("the written model: %v\n%s", err, data)
	}
	if m.Top != 5 || m.Trees() != 5 {
		t.Errorf("model: top %d, %d trees", m.Top, m.Trees())
	}
	// Its comment is the command that learned it.
	if !strings.HasPrefix(string(data), "# knowing train --ranker formula --trees 5 --top 5 --depth 2 --rate 0.1 --min-leaf 1 --skip churn,hub\n") {
		t.Errorf("the model's comment:\n%.200s", data)
	}
	// The formula's ranker re-orders with the model: why says so.
	t.Setenv("KNOWING_MODEL", out)
	code, stdout, errs = knowing(t, "", "query", "--ranker", "formula", "--json", snap, "backoff jitter")
	var res struct {
		Results []struct{ Symbol string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || len(res.Results) == 0 {
		t.Fatalf("query with the model: %d %v %s", code, err, errs)
	}
	if code, stdout, errs := knowing(t, "", "why", "--ranker", "formula", snap, "backoff jitter", res.Results[0].Symbol); code != 0 || !strings.Contains(stdout, "re-ordered by the tree model") {
		t.Errorf("why with the model: %d %s%s", code, stdout, errs)
	}
	bad := filepath.Join(dir, "bad.model")
	os.WriteFile(bad, []byte("knowing-trees 9\ntop 5\nfeatures rank\n"), 0o644)
	t.Setenv("KNOWING_MODEL", bad)
	if code, _, errs := knowing(t, "", "query", snap, "backoff jitter"); code == 0 || !strings.Contains(errs, "KNOWING_MODEL") || !strings.Contains(errs, "version") {
		t.Errorf("a model of another version: %d %s", code, errs)
	}
	t.Setenv("KNOWING_MODEL", "")
	if code, _, errs := knowing(t, "", "train", "--snap", snap, "--fixtures", fx, "--trees", "5", "--top", "1"); code != 2 || !strings.Contains(errs, "--top") {
		t.Errorf("--top 1: %d %s", code, errs)
	}
	if code, _, errs := knowing(t, "", "train", "--snap", snap, "--fixtures", fx, "--trees", "5", "--skip", "nosuch"); code == 0 || !strings.Contains(errs, "nosuch") {
		t.Errorf("--skip of an unknown feature: %d %s", code, errs)
	}
}
