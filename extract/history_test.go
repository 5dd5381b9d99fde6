package extract

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// gitRepo makes a git repository in a temporary folder and returns its
// path and a function that writes files and commits them with a message
// ("" leaves the change uncommitted).
func gitRepo(t *testing.T) (string, func(files map[string]string, msg string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	return dir, func(files map[string]string, msg string) {
		t.Helper()
		for p, src := range files {
			abs := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if msg != "" {
			git("add", ".")
			git("commit", "-q", "-m", msg)
		}
	}
}

// goFile is a Go file of the functions named, each three lines, after
// pre extra lines at the top; body gives a function's return value.
func goFile(pre int, funcs []string, body map[string]string) string {
	var b strings.Builder
	b.WriteString("package p\n")
	for i := 0; i < pre; i++ {
		b.WriteString("// padding\n")
	}
	for _, f := range funcs {
		v := body[f]
		if v == "" {
			v = "0"
		}
		b.WriteString("\nfunc " + f + "() int {\n\treturn " + v + "\n}\n")
	}
	return b.String()
}

// TestHistory checks that commits are attributed to the symbols whose
// lines they changed, through later commits that moved those lines and
// through uncommitted edits, and that symbols changed together get a
// co-change edge.
func TestHistory(t *testing.T) {
	dir, commit := gitRepo(t)
	funcs := []string{"Alpha", "Beta", "Gamma", "Delta"}
	body := map[string]string{}
	commit(map[string]string{"p.go": goFile(0, funcs, body), "q.go": "package p\n\nfunc Other() int {\n\treturn 1\n}\n"}, "start the package")
	body["Beta"] = "2"
	commit(map[string]string{"p.go": goFile(0, funcs, body)}, "fix Beta overflow")
	// Lines move down by five; Gamma and Delta change together twice.
	body["Gamma"], body["Delta"] = "3", "4"
	commit(map[string]string{"p.go": goFile(5, funcs, body)}, "gamma and delta agree on units")
	body["Gamma"], body["Delta"] = "30", "40"
	commit(map[string]string{"p.go": goFile(5, funcs, body)}, "scale gamma and delta")
	// Uncommitted: two more lines at the top, and Alpha's body.
	body["Alpha"] = "100"
	commit(map[string]string{"p.go": goFile(7, funcs, body)}, "")

	g, _, err := Build(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	hist := map[string]string{}
	id := map[string]uint32{}
	for i, n := range g.Nodes {
		hist[n.Name], id[n.Name] = n.History, uint32(i)
	}
	want := map[string]string{
		"Alpha": "start the package",
		"Beta":  "fix Beta overflow\nstart the package",
		"Gamma": "scale gamma and delta\ngamma and delta agree on units\nstart the package",
		"Delta": "scale gamma and delta\ngamma and delta agree on units\nstart the package",
		"Other": "start the package",
	}
	for name, w := range want {
		if hist[name] != w {
			t.Errorf("%s: history %q, want %q", name, hist[name], w)
		}
	}
	// Commits newest first: 0 scale, 1 agree on units, 2 fix Beta, 3 start.
	for name, w := range map[string][2]uint16{"Alpha": {4, 1}, "Beta": {3, 2}, "Gamma": {1, 3}, "Delta": {1, 3}} {
		n := g.Nodes[id[name]]
		if n.Changed != w[0] || n.Churn != w[1] {
			t.Errorf("%s: changed %d churn %d, want %d and %d", name, n.Changed, n.Churn, w[0], w[1])
		}
	}
	co := map[[2]uint32]bool{}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeCoChange {
			co[[2]uint32{e.From, e.To}] = true
		}
	}
	pair := func(a, b string) [2]uint32 {
		x, y := id[a], id[b]
		if x > y {
			x, y = y, x
		}
		return [2]uint32{x, y}
	}
	if !co[pair("Gamma", "Delta")] {
		t.Errorf("no co-change edge between Gamma and Delta: %v", co)
	}
	// Alpha and Beta changed together once only (the first commit).
	if co[pair("Alpha", "Beta")] {
		t.Errorf("a co-change edge between Alpha and Beta, changed together once")
	}

	// A new commit moves HEAD: the next build reads it (the log of the
	// last build is not reused).
	commit(map[string]string{"p.go": goFile(7, funcs, body)}, "alpha returns a hundred")
	g3, _, err := Build(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g3.Nodes {
		if n.Name == "Alpha" && n.History != "alpha returns a hundred\nstart the package" {
			t.Errorf("Alpha after a new commit: history %q", n.History)
		}
	}

	// Without history, no node has any and there is no co-change edge.
	g2, _, err := Build(context.Background(), Options{Root: dir, History: HistoryOptions{MaxCommits: -1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g2.Nodes {
		if n.History != "" {
			t.Fatalf("%s has history with history off: %q", n.Name, n.History)
		}
	}
	for _, e := range g2.Edges {
		if e.Type == snapshot.EdgeCoChange {
			t.Fatal("a co-change edge with history off")
		}
	}
	if len(g2.Edges) != len(g.Edges)-len(co) {
		t.Errorf("%d edges without history, %d with (%d co-change)", len(g2.Edges), len(g.Edges), len(co))
	}
}

func TestStepBack(t *testing.T) {
	// A commit that replaced old lines 3-4 by new lines 3-5 and inserted
	// two lines after old line 10 (new 12-13): a replaced line keeps its
	// place in the hunk.
	m := stepBack(identity, []hunk{{3, 2, 3, 3}, {10, 0, 12, 2}}, false)
	for _, c := range []struct {
		line uint32
		want int64 // work-tree line, -1 gone
	}{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 6}, {10, 11}, {11, 14}, {100, 103}} {
		got := int64(-1)
		for _, s := range m {
			if c.line >= s.from && c.line < s.to {
				got = int64(c.line) + s.off
			}
		}
		if got != c.want {
			t.Errorf("parent line %d → %d, want %d (map %v)", c.line, got, c.want, m)
		}
	}
	// Old lines 3-6 became new line 3, old line 8 was deleted.
	m = stepBack(identity, []hunk{{3, 4, 3, 1}, {8, 1, 4, 0}}, false)
	for _, c := range []struct {
		line uint32
		want int64
	}{{2, 2}, {3, 3}, {6, 3}, {7, 4}, {8, -1}, {9, 5}} {
		got := int64(-1)
		for _, s := range m {
			if c.line >= s.from && c.line < s.to {
				got = int64(c.line) + s.off
			}
		}
		if got != c.want {
			t.Errorf("shrinking: parent line %d → %d, want %d (map %v)", c.line, got, c.want, m)
		}
	}
	if len(stepBack(m, nil, true)) != 0 {
		t.Error("a file the commit added still maps lines before it")
	}
}

// TestHistorySpacedPath checks that a file whose path holds a space gets
// its commits: git ends such a path on a ---/+++ line with a tab, which
// is no part of the name.
func TestHistorySpacedPath(t *testing.T) {
	dir, commit := gitRepo(t)
	commit(map[string]string{"my dir/a b.go": goFile(0, []string{"Alpha"}, nil)}, "add alpha")
	commit(map[string]string{"my dir/a b.go": goFile(0, []string{"Alpha"}, map[string]string{"Alpha": "2"})}, "change alpha")
	h, err := readHistory(context.Background(), dir, "HEAD", HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		t.Fatal("no history read")
	}
	ch := h.touched["my dir/a b.go"]
	if len(ch) == 0 {
		var paths []string
		for p := range h.touched {
			paths = append(paths, strconv.Quote(p))
		}
		t.Fatalf("no changes under %q; paths touched: %v", "my dir/a b.go", paths)
	}
}
