package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestChangesRecall measures knowing changes on real history: for the
// last KNOWING_RECALL_N (default 30) non-merge commits of the git clone
// $KNOWING_RECALL_REPO that change files matching $KNOWING_RECALL_PATHS
// (default "*.py"), it builds a snapshot at the commit's parent, gives
// changes the commit's diff, and counts how many of the changed symbols'
// direct callers (knowing callers on the same snapshot) are in the
// context. It reports the recall and fails below 0.8.
//
//	KNOWING_RECALL_REPO=~/src/flask go test ./cmd/knowing -run TestChangesRecall -v
func TestChangesRecall(t *testing.T) {
	repo := os.Getenv("KNOWING_RECALL_REPO")
	if repo == "" {
		t.Skip("set KNOWING_RECALL_REPO to a git clone with history")
	}
	n := 30
	if v := os.Getenv("KNOWING_RECALL_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	paths := os.Getenv("KNOWING_RECALL_PATHS")
	if paths == "" {
		paths = "*.py"
	}
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	commits := strings.Fields(git("log", "--no-merges", "--format=%H", "-n", "400", "--", paths))
	tmp := t.TempDir()
	used, callers, found := 0, 0, 0
	for _, c := range commits {
		if used == n {
			break
		}
		tree := filepath.Join(tmp, "tree")
		os.RemoveAll(tree)
		os.MkdirAll(tree, 0o755)
		arch := exec.Command("sh", "-c", "git -C \"$1\" archive \"$2\" | tar -x -C \"$3\"", "sh", repo, c+"^", tree)
		if err := arch.Run(); err != nil {
			continue // a root commit
		}
		snap := filepath.Join(tmp, "p.snap")
		os.Remove(snap)
		if code, _, _ := knowing(t, "", "build", "--quiet", "--repo", tree, snap); code != 0 {
			continue
		}
		diff := git("diff", "-U0", "--no-color", c+"^", c, "--", paths)
		code, out, _ := knowing(t, diff, "changes", "--json", "--diff", "-", snap)
		var rep changesReport
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Changed) == 0 {
			continue
		}
		context, changed := map[string]bool{}, map[string]bool{}
		for _, x := range rep.Changed {
			context[x.Symbol], changed[x.Symbol] = true, true
		}
		for _, x := range rep.Impact {
			context[x.Symbol] = true
		}
		want := map[string]bool{}
		for s := range changed {
			code, out, _ := knowing(t, "", "callers", "--json", "--limit", "1000", snap, s)
			var cr callsReport
			if code == 0 && json.Unmarshal([]byte(out), &cr) == nil {
				for _, h := range cr.Results {
					if !changed[h.Symbol] {
						want[h.Symbol] = true
					}
				}
			}
		}
		hit := 0
		for s := range want {
			if context[s] {
				hit++
			}
		}
		used++
		callers += len(want)
		found += hit
		t.Logf("%.10s changed %3d, direct callers %3d, in the context %3d", c, len(rep.Changed), len(want), hit)
	}
	recall := float64(found) / float64(max(1, callers))
	t.Logf("%d commits: %d of %d direct callers in the context: recall %.3f", used, found, callers, recall)
	if recall < 0.8 {
		t.Errorf("recall %.3f below 0.8", recall)
	}
}
