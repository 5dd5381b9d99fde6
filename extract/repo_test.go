package extract

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/knowing-dev/knowing/extract/fswalk"
)

// TestRepoStatFromListings checks Stat against the file system for paths
// the walk listed, paths under missing folders and files, and paths in a
// folder the walk skipped; and that a listed folder is answered from its
// listing (a file created after the walk is not seen there).
func TestRepoStatFromListings(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pkg/__init__.py", "pkg/mod.py", "node_modules/lib/index.js", "top.py"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := NewRepo(root)
	err := fswalk.Walk(root, fswalk.Options{Listed: repo.Listed}, func(fswalk.File) error { return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel     string
		dir, ok bool
	}{
		{"top.py", false, true},
		{"pkg", true, true},
		{"pkg/", true, true},
		{"pkg/mod.py", false, true},
		{"pkg/missing.py", false, false},
		{"missing/deeper/__init__.py", false, false},
		{"top.py/child", false, false},
		{"node_modules", true, true},
		{"node_modules/lib/index.js", false, true}, // skipped folder: asks the file system
		{"node_modules/lib/other.js", false, false},
		{"", true, true},
		{"../" + filepath.Base(root) + "/top.py", false, true},
	} {
		dir, ok := repo.Stat(tc.rel)
		if dir != tc.dir || ok != tc.ok {
			t.Errorf("Stat(%q) = %v, %v; want %v, %v", tc.rel, dir, ok, tc.dir, tc.ok)
		}
	}

	// After the walk: a listed folder answers from its listing, a skipped
	// one from the file system.
	for _, f := range []string{"pkg/late.py", "node_modules/lib/late.js"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := repo.Stat("pkg/late.py"); ok {
		t.Error("pkg/late.py was created after the walk; the listing should not have it")
	}
	if _, ok := repo.Stat("node_modules/lib/late.js"); !ok {
		t.Error("node_modules/lib/late.js: a folder the walk skipped should be asked of the file system")
	}
	// A repository without listings asks the file system for everything.
	bare := NewRepo(root)
	if _, ok := bare.Stat("pkg/late.py"); !ok {
		t.Error("a Repo without listings should see pkg/late.py")
	}
}
