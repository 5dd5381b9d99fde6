//go:build cgo

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

// buildJSON runs knowing build --json and decodes its summary.
func buildJSON(t *testing.T, args ...string) buildSummary {
	t.Helper()
	code, out, errs := knowing(t, "", append([]string{"build", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("build %v: %d %s", args, code, errs)
	}
	var s buildSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return s
}

// TestIncrementalBuild: a second build of the same output reuses the
// extraction of the files that did not change, answers from the new
// tree, and --full, another repository or a damaged prior make a full
// build.
func TestIncrementalBuild(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	if s := buildJSON(t, "--repo", repo, snap); s.Incremental != nil {
		t.Fatalf("the first build is incremental: %+v", s.Incremental)
	}
	b, err := os.ReadFile(filepath.Join(repo, "store", "memory.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(", 1)
	if err := os.WriteFile(filepath.Join(repo, "store", "memory.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := buildJSON(t, "--repo", repo, snap)
	if s.Incremental == nil || s.Incremental.Parsed != 1 || s.Incremental.Reused != 5 || len(s.Incremental.Relanguages) != 0 {
		t.Fatalf("after one edit: %+v", s.Incremental)
	}
	if code, out, errs := knowing(t, "", "def", snap, "MemoryStore.Fetch"); code != 0 || !strings.Contains(out, "store/memory.go") {
		t.Fatalf("the edit is not in the snapshot: %d %s %s", code, out, errs)
	}
	if s := buildJSON(t, "--full", "--repo", repo, snap); s.Incremental != nil {
		t.Errorf("--full reused: %+v", s.Incremental)
	}
	// The output built from another repository: a full build.
	other := extracttest.CopyTree(t, "../../testdata/go")
	if s := buildJSON(t, "--repo", other, snap); s.Incremental != nil {
		t.Errorf("another repository reused: %+v", s.Incremental)
	}
	// A damaged prior: a full build, and a good prior again after it.
	p := priorPath(snap)
	if err := os.WriteFile(p, []byte("KNOWPRIO\x01\x00\x00\x00garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := buildJSON(t, "--repo", other, snap); s.Incremental != nil {
		t.Errorf("a damaged prior reused: %+v", s.Incremental)
	}
	if s := buildJSON(t, "--repo", other, snap); s.Incremental == nil || s.Incremental.Reused != 6 {
		t.Errorf("after a full build: %+v", s.Incremental)
	}
	code, _, errs := knowing(t, "", "build", "--timings", "--repo", other, snap)
	if code != 0 || !strings.Contains(errs, "; 0 files parsed, 6 reused") {
		t.Errorf("--timings: %d %s", code, errs)
	}
}

// sectionChecksums returns the checksum of every section of the snapshot
// at path but meta and stamps (which record when and how it was built).
func sectionChecksums(t *testing.T, path string) map[string]uint32 {
	t.Helper()
	s, err := snapshot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]uint32{}
	for _, sec := range s.Sections() {
		if sec.Name != "meta" && sec.Name != "stamps" {
			out[sec.Name] = sec.Checksum
		}
	}
	return out
}

// TestIncrementalCopiesSections: an incremental build copies the sections
// of the snapshot whose inputs an edit left alone (all of them for a
// comment at the end of a file, fewer when symbols move), and the
// snapshot is a full build's each time.
func TestIncrementalCopiesSections(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	dir := t.TempDir()
	snap, fullSnap := filepath.Join(dir, "inc.snap"), filepath.Join(dir, "full.snap")
	buildJSON(t, "--repo", repo, snap)
	file := filepath.Join(repo, "store", "memory.go")
	edits := []struct {
		name string
		edit func(string) string
		want []string
	}{
		{"a comment at the end", func(s string) string { return s + "// a comment\n" }, []string{"graph", "keys", "bm25", "body", "cold"}},
		{"a line at the start", func(s string) string { return "// a comment\n" + s }, []string{"graph", "keys", "bm25", "body", "cold"}},
		{"a body", func(s string) string {
			return strings.Replace(s, "\treturn ", "\t// bodyWordAddedByTheTest\n\treturn ", 1)
		}, []string{"graph", "keys", "bm25", "cold"}},
		{"a function", func(s string) string { return s + "\nfunc AddedByTheTest() {}\n" }, nil},
	}
	for _, e := range edits {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(e.edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		s := buildJSON(t, "--repo", repo, snap)
		if s.Incremental == nil || s.Incremental.Parsed != 1 {
			t.Fatalf("%s: %+v", e.name, s.Incremental)
		}
		if e.want != nil && strings.Join(s.Incremental.Copied, " ") != strings.Join(e.want, " ") {
			t.Errorf("%s: copied %v, want %v", e.name, s.Incremental.Copied, e.want)
		}
		t.Logf("%s: copied %v", e.name, s.Incremental.Copied)
		buildJSON(t, "--full", "--repo", repo, fullSnap)
		want, got := sectionChecksums(t, fullSnap), sectionChecksums(t, snap)
		for name, sum := range want {
			if got[name] != sum {
				t.Errorf("%s: section %s differs from a full build's", e.name, name)
			}
		}
	}
}
