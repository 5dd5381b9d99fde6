package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// selfMinedRev is the commit whose history TestMinedSelf mines: fixed, so
// that the set stays the same as the repository grows.
const selfMinedRev = "9fbc3c1"

// TestMinedSelf answers the 30 newest qualifying commits of knowing's own
// history before selfMinedRev, each from a snapshot of its parent, and
// holds the figures to testdata/eval/self-mined/floor.yaml. It needs this
// repository's history: it skips in a shallow clone, or where git or the
// commit is missing.
func TestMinedSelf(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 30 snapshots")
	}
	out, err := exec.Command("git", "-C", "../..", "rev-parse", "--is-shallow-repository").Output()
	if err != nil || strings.TrimSpace(string(out)) != "false" {
		t.Skipf("needs this repository's git history (shallow or no git: %q %v)", out, err)
	}
	if err := exec.Command("git", "-C", "../..", "cat-file", "-e", selfMinedRev+"^{commit}").Run(); err != nil {
		t.Skipf("commit %s is not in this clone", selfMinedRev)
	}
	code, stdout, errs := knowing(t, "", "eval", "--mined", "../..", "--rev", selfMinedRev, "--max", "30",
		"--quiet", "--floor", "../../testdata/eval/self-mined/floor.yaml")
	t.Log(stdout)
	if code != 0 {
		t.Fatalf("eval --mined on knowing's own history: exit %d\n%s", code, errs)
	}
	// The table's columns are as wide as its longest name, the clone's
	// folder name among them.
	if !regexp.MustCompile(`(?m)^mined +30 `).MatchString(stdout) {
		t.Errorf("want 30 mined commits scored:\n%s", stdout)
	}
}
