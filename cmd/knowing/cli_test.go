package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// knowing runs the command in-process and returns its exit code and output.
func knowing(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func goroot(t *testing.T) string {
	if r := runtime.GOROOT(); r != "" {
		if _, err := os.Stat(filepath.Join(r, "src")); err == nil {
			return r
		}
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no GOROOT")
	}
	return strings.TrimSpace(string(out))
}

func TestBuildQueryInspectWhy(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "shop.snap")
	code, _, errs := knowing(t, "", "build", "--timings", "--repo", "../../testdata/go", snap)
	if code != 0 {
		t.Fatalf("build: %d %s", code, errs)
	}
	if !strings.Contains(errs, "timings (wall/cpu): walk+parse+extract") || !strings.Contains(errs, "built "+snap) {
		t.Errorf("build --timings printed no phases or no summary:\n%s", errs)
	}
	code, out, errs := knowing(t, "", "query", snap, "call MemoryStore.Get to fetch an item", "--json", "--limit", "5")
	if code != 0 {
		t.Fatalf("query: %d %s", code, errs)
	}
	var res struct {
		Results []struct {
			Symbol, Name, Kind, File string
			Line                     int
			Score                    float64
		}
		Stats struct {
			ElapsedUS int64 `json:"elapsed_us"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(res.Results) == 0 || len(res.Results) > 5 {
		t.Fatalf("%d results", len(res.Results))
	}
	found := false
	for _, r := range res.Results {
		if r.Symbol == "example.com/shop/store.MemoryStore.Get" {
			found = true
			if r.File != "store/memory.go" || r.Line == 0 {
				t.Errorf("file/line: %s:%d", r.File, r.Line)
			}
		}
	}
	if !found {
		t.Errorf("MemoryStore.Get not in results: %+v", res.Results)
	}

	// Text and markdown formats.
	if code, out, _ := knowing(t, "", "query", snap, "memory store get"); code != 0 || !strings.Contains(out, "MemoryStore") {
		t.Errorf("text query: %d %s", code, out)
	}
	if code, out, _ := knowing(t, "", "query", "--format", "markdown", snap, "memory store get"); code != 0 || !strings.Contains(out, "## Code relevant to") {
		t.Errorf("markdown query: %d %s", code, out)
	}
	// Doc summaries: in every format unless --docs=false.
	const memDoc = "MemoryStore keeps items in a map; it implements Store."
	for _, format := range []string{"text", "markdown", "json"} {
		_, out, _ := knowing(t, "", "query", "--format", format, snap, "memory store")
		if !strings.Contains(out, memDoc) {
			t.Errorf("%s query has no doc summary:\n%s", format, out)
		}
		_, out, _ = knowing(t, "", "query", "--docs=false", "--format", format, snap, "memory store")
		if strings.Contains(out, memDoc) {
			t.Errorf("%s query --docs=false has a doc summary:\n%s", format, out)
		}
	}
	// Task from stdin.
	if code, out, _ := knowing(t, "memory store get", "query", snap, "-"); code != 0 || !strings.Contains(out, "MemoryStore") {
		t.Errorf("stdin query: %d %s", code, out)
	}

	code, out, errs = knowing(t, "", "inspect", snap)
	if code != 0 || !strings.Contains(out, "checksums verified") || !strings.Contains(out, "calls") {
		t.Errorf("inspect: %d %s %s", code, out, errs)
	}
	code, out, errs = knowing(t, "", "why", snap, "fetch an item from the memory store", "MemoryStore.Get")
	if code != 0 || !strings.Contains(out, "walk score") || !strings.Contains(out, "final rank") {
		t.Errorf("why: %d %s %s", code, out, errs)
	}
	if !strings.Contains(out, "match=0.3,") || !strings.Contains(out, "commonDF=0.2") {
		t.Errorf("why prints no weights:\n%s", out)
	}
	code, out, errs = knowing(t, "", "why", "--json", snap, "fetch an item from the memory store", "MemoryStore.Get")
	var why struct {
		Explanations []struct {
			Symbol    string
			FinalRank int `json:"final_rank"`
		}
		Tuning map[string]float64
	}
	if code != 0 || json.Unmarshal([]byte(out), &why) != nil {
		t.Fatalf("why --json: %d %s %s", code, out, errs)
	}
	if len(why.Explanations) != 1 || why.Explanations[0].Symbol != "example.com/shop/store.MemoryStore.Get" || why.Explanations[0].FinalRank == 0 {
		t.Errorf("why --json explanations: %+v", why.Explanations)
	}
	if why.Tuning["match"] != 0.3 || why.Tuning["blast"] != 0.35 {
		t.Errorf("why --json tuning: %v", why.Tuning)
	}
	// KNOWING_TUNE overrides weights, for experiments; a name that is
	// no weight is an error.
	t.Setenv("KNOWING_TUNE", "match=0.5")
	if code, out, errs = knowing(t, "", "why", snap, "fetch an item from the memory store", "MemoryStore.Get"); code != 0 || !strings.Contains(out, "match=0.5,") {
		t.Errorf("why with KNOWING_TUNE=match=0.5: %d %s %s", code, out, errs)
	}
	t.Setenv("KNOWING_TUNE", "mach=0.5")
	if code, _, errs = knowing(t, "", "query", snap, "memory store"); code != 1 || !strings.Contains(errs, "KNOWING_TUNE") {
		t.Errorf("query with KNOWING_TUNE=mach=0.5: %d %s", code, errs)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "--repo", filepath.Join(dir, "nope"), filepath.Join(dir, "x.snap")}, 1, "does not exist"},
		{[]string{"build", "--repo", "../../testdata/go", filepath.Join(dir, "missing", "x.snap")}, 1, "output folder"},
		{[]string{"build", "--repo", dir, filepath.Join(dir, "x.snap")}, 1, "no source files"},
		{[]string{"build"}, 2, "output path"},
		{[]string{"query", filepath.Join(dir, "none.snap"), "task"}, 1, "knowing build"},
		{[]string{"inspect", filepath.Join(dir, "none.snap")}, 1, "knowing build"},
		{[]string{"why", filepath.Join(dir, "none.snap"), "task", "Sym"}, 1, "knowing build"},
		{[]string{"query", "only-one-arg"}, 2, "want SNAP"},
		{[]string{"frobnicate"}, 2, "unknown command"},
	}
	for _, c := range cases {
		code, _, errs := knowing(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	// A snapshot of another format version is refused with the fix.
	good := filepath.Join(dir, "good.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/go", good); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(good)
	b[8] = 99 // the little-endian format version follows the 8-byte magic
	future := filepath.Join(dir, "future.snap")
	os.WriteFile(future, b, 0o644)
	if code, _, errs := knowing(t, "", "query", future, "task"); code != 1 || !strings.Contains(errs, "rebuild") {
		t.Errorf("future version: %d %q", code, errs)
	}
	// A corrupt snapshot is a clear error, not a panic.
	bad := filepath.Join(dir, "bad.snap")
	os.WriteFile(bad, []byte("not a snapshot at all, just some bytes"), 0o644)
	if code, _, errs := knowing(t, "", "query", bad, "task"); code != 1 || errs == "" {
		t.Errorf("corrupt snapshot: %d %q", code, errs)
	}
	// An empty task is an error; a task without words returns nothing.
	snap := filepath.Join(dir, "shop.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/go", snap); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := knowing(t, "", "query", snap, "   "); code != 1 || !strings.Contains(errs, "empty") {
		t.Errorf("empty task: %d %q", code, errs)
	}
	if code, out, errs := knowing(t, "", "query", snap, "the of and"); code != 0 || !strings.Contains(errs, "no words") || !strings.Contains(out, "0 results") {
		t.Errorf("wordless task: %d %q %q", code, out, errs)
	}
	// A 100 KB task finishes.
	big := strings.Repeat("the memory store returns items by id and the server renders them ", 1600)
	if code, _, errs := knowing(t, "", "query", snap, big); code != 0 {
		t.Errorf("huge task: %d %s", code, errs)
	}
}

// TestGoStdEval is the regression gate: build the Go standard library and
// score the gostd fixtures against the floor in the repo.
func TestGoStdEval(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go standard library")
	}
	src := filepath.Join(goroot(t), "src")
	snap := filepath.Join(t.TempDir(), "gostd.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", src, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	code, out, errs := knowing(t, "", "eval", "--quiet", "--snap", snap, "--fixtures", "../../testdata/eval/gostd",
		"--floor", "../../testdata/eval/gostd/floor.yaml")
	t.Logf("gostd eval:\n%s", out)
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
}

// TestSelfEval builds knowing's own source and scores the self fixtures
// against their floor.
func TestSelfEval(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "self.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../..", snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	code, out, errs := knowing(t, "", "eval", "--quiet", "--snap", snap, "--fixtures", "../../testdata/eval/self",
		"--floor", "../../testdata/eval/self/floor.yaml")
	t.Logf("self eval:\n%s", out)
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
}

// TestDeterminism: the same snapshot and task give byte-identical results
// (timings aside) on every run and at any GOMAXPROCS.
func TestDeterminism(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "self.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../..", snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	tasks := []string{"add a new edge type for decorators", "where are snapshot offsets bounds-checked?",
		"speed up the random walk on hubs", "Traceback:\n  File \"x.py\", line 3, in resolve_call\nKeyError"}
	answer := func() string {
		var all strings.Builder
		for _, task := range tasks {
			// No staleness check: how far it gets in its budget is timing.
			code, out, errs := knowing(t, "", "query", "--json", "--limit", "20", "--stale-budget", "0", snap, task)
			if code != 0 {
				t.Fatalf("%s: %s", task, errs)
			}
			var res map[string]any
			json.Unmarshal([]byte(out), &res)
			delete(res["stats"].(map[string]any), "elapsed_us")
			b, _ := json.Marshal(res)
			all.Write(b)
		}
		return all.String()
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	want := answer()
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for i := 0; i < 3; i++ {
			if got := answer(); got != want {
				t.Fatalf("results differ at GOMAXPROCS=%d run %d", procs, i)
			}
		}
	}
}

// TestSyntaxErrorNote checks that a file that does not parse is kept, and
// that the summary says where its first error is.
func TestSyntaxErrorNote(t *testing.T) {
	dir, snap := repoOf(t, map[string]string{
		"good.py":   "def fine():\n    return 1\n",
		"broken.py": "def ok():\n    pass\n\ndef bad(:\n    return 2\n",
		"worse.rb":  "class A\n  def b\n    [1, 2\n  end\nend\n",
	})
	code, _, errs := knowing(t, "", "build", "--repo", dir, snap)
	if code != 0 {
		t.Fatalf("build failed: %s", errs)
	}
	for _, want := range []string{"note: 2 files had syntax errors, e.g. at broken.py:4, worse.rb:", "what parsed was kept"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "good.py:") || strings.Contains(errs, "…") {
		t.Errorf("note names a file without errors or promises more:\n%s", errs)
	}
	code, out, _ := knowing(t, "", "query", "--json", snap, "ok")
	if code != 0 || !strings.Contains(out, "broken.ok") {
		t.Errorf("what parsed before the error was not kept: %s", out)
	}
}

// repoOf writes files (name → text) into a new repository folder and
// returns it with a path for its snapshot.
func repoOf(t *testing.T, files map[string]string) (dir, snap string) {
	t.Helper()
	dir = t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(t.TempDir(), "x.snap")
}

// TestBuildJSON checks build's --json summary against the snapshot it
// describes, and that it replaces the human summary line.
func TestBuildJSON(t *testing.T) {
	files := map[string]string{
		"app.py":    "def serve():\n    return handle()\n\ndef handle():\n    return 1\n",
		"broken.py": "def bad(:\n    return 2\n",
		"data.bin":  "\x00\x01",
	}
	dir, snap := repoOf(t, files)
	code, out, errs := knowing(t, "", "build", "--json", "--repo", dir, snap)
	if code != 0 {
		t.Fatalf("build failed: %s", errs)
	}
	if strings.Contains(errs, "built ") || strings.Contains(errs, "note:") {
		t.Errorf("--json still printed the human summary:\n%s", errs)
	}
	var sum buildSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	s, err := snapshot.Open(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := os.Stat(snap)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Snapshot != snap || sum.Repo != dir || sum.Files != 2 || sum.SourceBytes != int64(len(files["app.py"])+len(files["broken.py"])) {
		t.Errorf("summary %+v: want snapshot %s, repo %s, 2 files of source", sum, snap, dir)
	}
	if sum.Nodes != s.NumNodes() || sum.Edges != s.NumEdges() || sum.SnapshotBytes != info.Size() {
		t.Errorf("summary says %d nodes, %d edges, %d bytes; the snapshot has %d, %d, %d",
			sum.Nodes, sum.Edges, sum.SnapshotBytes, s.NumNodes(), s.NumEdges(), info.Size())
	}
	if sum.SyntaxErrorFiles != 1 || len(sum.FirstSyntaxErrors) != 1 || !strings.HasPrefix(sum.FirstSyntaxErrors[0], "broken.py:") {
		t.Errorf("syntax errors %d %v, want broken.py's", sum.SyntaxErrorFiles, sum.FirstSyntaxErrors)
	}
	if sum.Seconds <= 0 || sum.Phases.Parse <= 0 || sum.Phases.Write <= 0 || sum.Phases.Parse+sum.Phases.Resolve+sum.Phases.Write > sum.Seconds {
		t.Errorf("timings %+v of %.6fs", sum.Phases, sum.Seconds)
	}

	code, out, errs = knowing(t, "", "build", "--json", "--parse-only", "--repo", dir, snap)
	if code != 0 {
		t.Fatalf("parse-only failed: %s", errs)
	}
	sum = buildSummary{}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Snapshot != "" || sum.Files != 2 || sum.Nodes != 0 {
		t.Errorf("parse-only summary %+v (%v):\n%s", sum, err, out)
	}
}
