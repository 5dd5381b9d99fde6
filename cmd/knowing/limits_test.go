package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestingSizeBound: a file of deeply nested functions gives a
// snapshot linear in its size. Every qualified name holds its ancestors'
// names, so without a cap 3,000 nested functions cost 3,000² bytes of
// names and postings (10,000 of them made 373 MB); symbols below
// MaxNesting are left out, with a note.
func TestNestingSizeBound(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	const depth = 3000
	var b strings.Builder
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, "function level%d() {\n", i)
	}
	b.WriteString(strings.Repeat("}\n", depth))
	writeFiles(t, repo, map[string]string{"deep.js": b.String(), "shallow.js": "function Serve() { return 1 }\n"})
	snap := filepath.Join(dir, "x.snap")
	code, _, errs := knowing(t, "", "build", "--repo", repo, snap)
	if code != 0 {
		t.Fatalf("build: %s", errs)
	}
	if !strings.Contains(errs, "deep.js: left out") {
		t.Errorf("no note about the symbols left out: %q", errs)
	}
	st, err := os.Stat(snap)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(4 * b.Len()); st.Size() > limit {
		t.Errorf("snapshot %d bytes for %d bytes of source; want at most %d", st.Size(), b.Len(), limit)
	}
	if got := symbols(t, snap); !strings.Contains(got, `"symbol": "shallow.Serve"`) {
		t.Errorf("shallow.Serve not found: %s", got)
	}
	code, out, _ := knowing(t, "", "query", "--json", snap, "`level5`")
	if code != 0 || !strings.Contains(out, "level5") {
		t.Errorf("a function within the cap is not found: %s", out)
	}
}

// TestOnlyTooLargeFiles: a repository whose only source files are over the
// size limit is told so, with the flag that lets them in.
func TestOnlyTooLargeFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "repo"), map[string]string{"a.go": "package a\n" + strings.Repeat("// x\n", 400)})
	code, _, errs := knowing(t, "", "build", "--max-file-size", "1000", "--repo", filepath.Join(dir, "repo"), filepath.Join(dir, "x.snap"))
	if code != 1 || !strings.Contains(errs, "larger than --max-file-size") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
