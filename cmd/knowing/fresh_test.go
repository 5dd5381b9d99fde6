package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// freshnessOf runs a command with --json and a budget that covers the
// small test repositories, and returns its freshness field, its whole
// output decoded, and its stderr.
func freshnessOf(t *testing.T, args ...string) (*freshnessJSON, map[string]any, string) {
	t.Helper()
	args = append([]string{args[0], "--json", "--stale-budget", "10s"}, args[1:]...)
	code, out, errs := knowing(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: %d %s", args, code, errs)
	}
	var v struct {
		Freshness *freshnessJSON `json:"freshness"`
	}
	var all map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	json.Unmarshal([]byte(out), &all)
	return v.Freshness, all, errs
}

// fileStates collects the file_state of every result in a command's
// JSON output, by file.
func fileStates(v any, into map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		if f, ok := x["file"].(string); ok {
			if st, ok := x["file_state"].(string); ok {
				into[f] = st
			} else if _, seen := into[f]; !seen {
				into[f] = ""
			}
		}
		for _, y := range x {
			fileStates(y, into)
		}
	case []any:
		for _, y := range x {
			fileStates(y, into)
		}
	}
}

// TestStaleness edits, adds, removes and renames files of a copied test
// repository and checks what every command that answers from the
// snapshot says: the counts on stderr and in JSON, and the marks on
// results from changed or removed files.
func TestStaleness(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", repo, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	commands := [][]string{
		{"query", snap, "memory store get item"},
		{"def", snap, "MemoryStore.Get"},
		{"callers", snap, "MemoryStore.Put"},
		{"callees", snap, "server.Server.HandleGet"},
		{"refs", snap, "store.Store"},
		{"outline", snap, "store/memory.go"},
		{"impact", snap, "MemoryStore.Get"},
		{"changes", snap, "--files", "store/memory.go"},
	}
	for _, c := range commands {
		fr, _, errs := freshnessOf(t, c...)
		if fr == nil || fr.Stale || !fr.Complete || fr.Files != 6 || fr.Checked != 6 || errs != "" {
			t.Fatalf("%s on a fresh snapshot: %+v, stderr %q", c[0], fr, errs)
		}
	}

	write := func(p, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(p)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(repo, "store", "memory.go"))
	if err != nil {
		t.Fatal(err)
	}
	write("store/memory.go", "// A line above shifts every symbol.\n"+string(b))
	write("store/extra.go", "package store\n\nfunc Extra() {}\n")
	if err := os.Remove(filepath.Join(repo, "server", "chain.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(repo, "server", "base.go"), filepath.Join(repo, "server", "base2.go")); err != nil {
		t.Fatal(err)
	}
	want := freshnessJSON{Stale: true, Complete: true, Files: 6, Checked: 6, Changed: 1, Added: 2, Removed: 2,
		ChangedFiles: []string{"store/memory.go"}, AddedFiles: []string{"server/base2.go", "store/extra.go"},
		RemovedFiles: []string{"server/base.go", "server/chain.go"}, OtherChanged: []string{},
		Rebuild: "knowing build --repo " + shellQuote(repo) + " " + shellQuote(snap)}
	marked := map[string]string{}
	for _, c := range commands {
		fr, all, errs := freshnessOf(t, c...)
		if fr == nil {
			t.Fatalf("%s: no freshness", c[0])
		}
		fr.ElapsedUS = 0
		if !reflect.DeepEqual(*fr, want) {
			t.Errorf("%s: freshness\n got %+v\nwant %+v", c[0], *fr, want)
		}
		if !strings.Contains(errs, "the snapshot is stale: 1 file changed, 2 added, 2 removed since the build; rebuild with: "+want.Rebuild) ||
			strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: stderr %q", c[0], errs)
		}
		states := map[string]string{}
		fileStates(all, states)
		for f, st := range states {
			wantSt := map[string]string{"store/memory.go": "changed", "server/chain.go": "removed", "server/base.go": "removed"}[f]
			if st != wantSt {
				t.Errorf("%s: results from %s marked %q, want %q", c[0], f, st, wantSt)
			}
			marked[f] = st
		}
	}
	if marked["store/memory.go"] != "changed" || marked["server/base.go"] != "removed" && marked["server/chain.go"] != "removed" {
		t.Errorf("the commands never showed a changed and a removed file: %v", marked)
	}

	// Text output marks the results; the line goes to stderr.
	code, out, errs := knowing(t, "", "query", "--stale-budget", "10s", snap, "memory store get item")
	if code != 0 || !strings.Contains(out, "store/memory.go:") || !strings.Contains(out, "[changed]") || !strings.Contains(errs, "is stale") {
		t.Errorf("text: %d\n%s\n%s", code, out, errs)
	}
	// --stale-budget 0: no check, no field, no line.
	code, out, errs = knowing(t, "", "query", "--json", "--stale-budget", "0", snap, "memory store get item")
	if code != 0 || strings.Contains(out, "freshness") || strings.Contains(out, "file_state") || errs != "" {
		t.Errorf("--stale-budget 0: %d\n%s\n%s", code, out, errs)
	}
	// The manifest too.
	write("go.mod", "module example.com/shop2\n")
	fr, _, errs := freshnessOf(t, "query", snap, "memory store")
	if !reflect.DeepEqual(fr.OtherChanged, []string{"go.mod"}) || !strings.Contains(errs, "go.mod changed") {
		t.Errorf("go.mod changed: %+v, %q", fr, errs)
	}
}

// TestStaleLine: the line for a check its budget cut short.
func TestStaleLine(t *testing.T) {
	r := &snapshot.StaleReport{Stamped: true, Files: 6823, Checked: 367, Elapsed: 2 * time.Millisecond}
	if got := staleLine(r, ""); got != "knowing: staleness check skipped: 367 of 6823 files checked within 2ms (raise --stale-budget to check them all)" {
		t.Errorf("skipped: %q", got)
	}
	r.Changed = []string{"a.go"}
	if got := staleLine(r, "knowing build --repo R S"); !strings.Contains(got, "1 file changed since the build at least (the check stopped after 367 of 6823 files); rebuild with: knowing build --repo R S") {
		t.Errorf("partial: %q", got)
	}
	r.Complete, r.Checked = true, 6823
	if got := staleLine(&snapshot.StaleReport{Stamped: true, Complete: true}, ""); got != "" {
		t.Errorf("fresh: %q", got)
	}
	if shellQuote("/a b/it's") != `'/a b/it'\''s'` || shellQuote("/a/b.snap") != "/a/b.snap" {
		t.Error("shellQuote")
	}
}

// TestMarkFromCheck: marks taken from a check that has ended (what it
// found of each file) are the ones a stat of each file gives, for a
// changed, a removed and an unchanged file.
func TestMarkFromCheck(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", repo, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	if err := os.WriteFile(filepath.Join(repo, "store", "memory.go"), []byte("package store\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, "server", "chain.go")); err != nil {
		t.Fatal(err)
	}
	s, e, err := openEngine(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := map[string]string{"store/memory.go": "changed", "server/chain.go": "removed", "store/store.go": ""}
	var items []query.Item
	for f := range want {
		fid, err := e.FileNode(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range e.Outline(fid) {
			items = append(items, o.Item)
		}
	}
	fr := startFreshness(s, snap, time.Minute)
	fr.wait()
	if fr.rep.State(0) == snapshot.FileUnchecked {
		t.Fatal("the check reached no file")
	}
	for i := range items {
		fr.mark(&items[i])
	}
	fr.finish(io.Discard)
	for _, it := range items {
		if want[it.File] != it.FileState {
			t.Errorf("%s in %s: file_state %q, want %q", it.Symbol, it.File, it.FileState, want[it.File])
		}
	}
}
