//go:build cgo

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCutSource: code over the limit is cut after its last whole line,
// or, for one long line, at a character boundary.
func TestCutSource(t *testing.T) {
	if got := cutSource("ab\ncd\nef\n", 7); got != "ab\ncd\n" {
		t.Errorf("lines: %q", got)
	}
	if got := cutSource("short\n", 64); got != "short\n" {
		t.Errorf("under the limit: %q", got)
	}
	long := strings.Repeat("é", 10) // 2 bytes each
	for max := 1; max < len(long); max++ {
		got := cutSource(long, max)
		if len(got) > max || !utf8.ValidString(got) || len(got) < max-1 {
			t.Errorf("max %d: %q (%d bytes)", max, got, len(got))
		}
	}
}

// TestDefSourceFileBecameFolder: a symbol's file replaced by a folder is
// gone, as the staleness check says, not an error.
func TestDefSourceFileBecameFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	writeFiles(t, dir, map[string]string{"a/a.go": "package a\n\nfunc One() int { return 1 }\n", "a/b.go": "package a\n\nfunc Two() int { return 2 }\n"})
	snap := filepath.Join(t.TempDir(), "a.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", dir, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	p := filepath.Join(dir, "a", "a.go")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := knowing(t, "", "def", "--source", "--json", snap, "One")
	var rep struct{ Source Source }
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || !rep.Source.Changed || !strings.Contains(rep.Source.Note, "gone") {
		t.Fatalf("def --source on a file that became a folder: %d %s %s", code, out, errs)
	}
}
