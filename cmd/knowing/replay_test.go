package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/eval"
)

// replayRun runs eval --json on snap and fixtures with extra flags and
// returns each fixture's top names and MRR, in run order.
func replayRun(t *testing.T, snap, fixtures string, flags ...string) ([][]string, []float64) {
	t.Helper()
	code, out, errs := knowing(t, "", append([]string{"eval", "--json", "--snap", snap, "--fixtures", fixtures}, flags...)...)
	if code != 0 {
		t.Fatalf("eval %v: %s", flags, errs)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var tops [][]string
	var mrr []float64
	for _, f := range rep.Fixtures {
		var names []string
		for _, h := range f.Top {
			names = append(names, h.Name)
		}
		tops = append(tops, names)
		mrr = append(mrr, f.MRR)
	}
	return tops, mrr
}

// TestEvalReplay: a replay of weight 0 answers as the plain run does;
// one fed the first task's ground truth raises it for the second, a
// related task.
func TestEvalReplay(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "go.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/go", snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	const task = "get an item from the memory store"
	dir := t.TempDir()
	write := func(name, truth string) {
		y := fmt.Sprintf("id: %s\nrepo: shop\ntier: medium\ndescription: %q\nground_truth:\n  - %s\n", name, task, truth)
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "nothing.Here")
	tops, _ := replayRun(t, snap, dir)
	if len(tops[0]) < 8 {
		t.Fatalf("too few results: %v", tops[0])
	}
	truth := tops[0][7]
	write("a", truth)
	write("b", truth)
	plainTops, plain := replayRun(t, snap, dir)
	zeroTops, _ := replayRun(t, snap, dir, "--replay", "--session-weight", "0")
	for i := range plainTops {
		if !slices.Equal(plainTops[i], zeroTops[i]) {
			t.Errorf("fixture %d: a replay of weight 0 answers %v, the plain run %v", i, zeroTops[i], plainTops[i])
		}
	}
	_, fed := replayRun(t, snap, dir, "--replay", "--replay-feed", "truth", "--session-weight", "3")
	if fed[0] != plain[0] || fed[1] <= plain[1] {
		t.Errorf("MRR fed the first task's truth: %v, plain %v: want the first equal, the second higher", fed, plain)
	}
	_, shown := replayRun(t, snap, dir, "--replay", "--replay-feed", "shown:1", "--session-weight", "3")
	if shown[1] != plain[1] {
		t.Errorf("fed only the top result, already first, the second task's MRR moved: %v, plain %v", shown, plain)
	}
}

// TestInCommitOrder: mined fixtures are replayed oldest commit first.
func TestInCommitOrder(t *testing.T) {
	dir := t.TempDir()
	gitc := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), append([]string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}, env...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	gitc(nil, "init", "-q")
	var commits []string
	for i, date := range []string{"2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z", "2022-01-01T00:00:00Z"} {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte{byte('a' + i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		gitc(nil, "add", "f")
		gitc([]string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date}, "commit", "-q", "-m", date)
		commits = append(commits, gitc(nil, "rev-parse", "HEAD"))
	}
	fx := []eval.Fixture{{ID: "new", Commit: commits[2]}, {ID: "unknown", Commit: "0123456789abcdef0123456789abcdef01234567"}, {ID: "old", Commit: commits[0]}, {ID: "mid", BaseCommit: commits[1]}}
	inCommitOrder(dir, fx)
	var ids []string
	for _, f := range fx {
		ids = append(ids, f.ID)
	}
	if want := []string{"old", "mid", "new", "unknown"}; !slices.Equal(ids, want) {
		t.Errorf("order %v, want %v", ids, want)
	}
}
