package snapshot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// stampTree writes files under a new folder and a snapshot of them with
// stamps as a build records them, its walk started now; the files' and
// folders' times are set age before (an hour: only files changed later
// are racy).
func stampTree(t *testing.T, files map[string]string, age time.Duration) (root string, s *Snapshot) {
	t.Helper()
	root = t.TempDir()
	walk := time.Now()
	old := walk.Add(-age)
	g := &Graph{Meta: Meta{RepoRoot: root}, Stamps: &Stamps{WalkStart: walk.UnixNano(), MaxFileSize: 1 << 20, Exts: []string{".go"}}}
	dirs := map[string]bool{"": true}
	for _, p := range sortedKeys(files) {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, old, old); err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(p) {
		case ".go":
			g.Files = append(g.Files, File{Path: p, Lang: LangGo, Size: uint64(len(files[p])), ModTime: old.UnixNano(), Hash: Fingerprint([]byte(files[p]))})
			for d := filepath.ToSlash(filepath.Dir(p)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
				dirs[d] = true
			}
		case ".mod":
			g.Stamps.Deps = append(g.Stamps.Deps, DepStamp{Path: p, Size: uint64(len(files[p])), ModTime: old.UnixNano(), Hash: Fingerprint([]byte(files[p]))})
		}
	}
	for _, d := range sortedKeys(dirs) {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(d)), old, old); err != nil {
			t.Fatal(err)
		}
		g.Stamps.Dirs = append(g.Stamps.Dirs, DirStamp{Path: d, ModTime: old.UnixNano()})
	}
	s = writeOpen(t, g, &WriteOptions{NoBM25: true})
	return root, s
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

func write(t *testing.T, root, p, content string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

type staleWant struct{ changed, removed, added, deps []string }

func checkStale(t *testing.T, s *Snapshot, root string, want staleWant) *StaleReport {
	t.Helper()
	r, err := s.Stale(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Stamped || !r.Complete || r.Checked != s.NumFiles() {
		t.Fatalf("report %+v: want stamped, complete, every file checked", r)
	}
	got := staleWant{r.Changed, r.Removed, r.Added, r.Deps}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stale:\n got changed %q removed %q added %q deps %q\nwant changed %q removed %q added %q deps %q",
			got.changed, got.removed, got.added, got.deps, want.changed, want.removed, want.added, want.deps)
	}
	if r.Stale() != (len(want.changed)+len(want.removed)+len(want.added)+len(want.deps) > 0) {
		t.Fatal("Stale() disagrees with the lists")
	}
	return r
}

// TestStale edits, adds, removes and renames files of a stamped tree and
// checks what Stale reports after each step.
func TestStale(t *testing.T) {
	root, s := stampTree(t, map[string]string{
		"go.mod":     "module example.com/x\n",
		"a.go":       "package x\n",
		"sub/b.go":   "package sub\n",
		"sub/c.go":   "package sub\n\nfunc C() {}\n",
		".gitignore": "gen/\n",
		"notes.txt":  "not a source\n",
	}, time.Hour)
	checkStale(t, s, root, staleWant{})

	write(t, root, "sub/b.go", "package sub\n\nfunc B() {}\n")
	r := checkStale(t, s, root, staleWant{changed: []string{"sub/b.go"}})
	for i := 0; i < s.NumFiles(); i++ {
		want := FileFresh
		if s.FilePath(i) == "sub/b.go" {
			want = FileChanged
		}
		if r.State(i) != want {
			t.Errorf("%s: state %v, want %v", s.FilePath(i), r.State(i), want)
		}
	}

	// Added: a source in a known folder and in a new one; not an ignored
	// one, nor a file of another extension.
	write(t, root, "sub/d.go", "package sub\n")
	write(t, root, "newpkg/deep/e.go", "package deep\n")
	write(t, root, "gen/f.go", "package gen\n")
	write(t, root, "sub/g.txt", "text\n")
	checkStale(t, s, root, staleWant{changed: []string{"sub/b.go"}, added: []string{"newpkg/deep/e.go", "sub/d.go"}})

	// Removed, and a rename: the old name removed, the new one added.
	if err := os.Remove(filepath.Join(root, "a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "sub", "c.go"), filepath.Join(root, "sub", "c2.go")); err != nil {
		t.Fatal(err)
	}
	r = checkStale(t, s, root, staleWant{changed: []string{"sub/b.go"}, removed: []string{"a.go", "sub/c.go"},
		added: []string{"newpkg/deep/e.go", "sub/c2.go", "sub/d.go"}})
	if r.State(0) != FileRemoved || r.State(-1) != FileUnchecked {
		t.Errorf("a.go: %v", r.State(0))
	}
	for i := 0; i < s.NumFiles(); i++ {
		if got := s.CheckFile(root, i); got != r.State(i) {
			t.Errorf("CheckFile(%s) = %v, Stale says %v", s.FilePath(i), got, r.State(i))
		}
	}
	if s.CheckFile(root, s.NumFiles()) != FileUnchecked {
		t.Error("CheckFile out of range")
	}

	// A manifest the build read.
	write(t, root, "go.mod", "module example.com/y\n")
	checkStale(t, s, root, staleWant{changed: []string{"sub/b.go"}, removed: []string{"a.go", "sub/c.go"},
		added: []string{"newpkg/deep/e.go", "sub/c2.go", "sub/d.go"}, deps: []string{"go.mod"}})
}

// TestStaleRacy: a file rewritten with the same size and time is told
// by its content when its time is close to the build's walk, and not
// otherwise (the check only stats files of older times).
func TestStaleRacy(t *testing.T) {
	for _, racy := range []bool{true, false} {
		age := time.Hour
		if racy {
			age = RacyWindow / 2
		}
		root, s := stampTree(t, map[string]string{"a.go": "package a\n"}, age)
		abs := filepath.Join(root, "a.go")
		st, err := os.Stat(abs)
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, "a.go", "package b\n")
		if err := os.Chtimes(abs, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		var want []string
		if racy {
			want = []string{"a.go"}
		}
		checkStale(t, s, root, staleWant{changed: want})
	}
}

// TestStaleBudget: a budget too small for the tree stops the check, which
// says so.
func TestStaleBudget(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("p%d/f.go", i)] = "package p\n"
	}
	root, s := stampTree(t, files, time.Hour)
	r, err := s.Stale(root, time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Checked >= s.NumFiles() || r.State(s.NumFiles()-1) != FileUnchecked {
		t.Fatalf("a 1 ns budget checked %d of %d files (complete %v)", r.Checked, s.NumFiles(), r.Complete)
	}
	if r, err = s.Stale(root, time.Minute); err != nil || !r.Complete || r.Stale() {
		t.Fatalf("a minute: %+v, %v", r, err)
	}
	if _, err := s.Stale(filepath.Join(root, "missing"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing root: %v", err)
	}
}

// TestStampsDamage: a stamps section whose counts disagree with its
// length is refused by Open; a name reference outside it passes Open,
// reads as "" and fails Verify.
func TestStampsDamage(t *testing.T) {
	g := randomGraph(3, 10, 100, 300)
	img, err := encode(g, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	good := img.sec[secStamps]
	for name, mutate := range map[string]func(b []byte) []byte{
		"short":          func(b []byte) []byte { return b[:len(b)-1] },
		"long":           func(b []byte) []byte { return append(b, 0) },
		"file count":     func(b []byte) []byte { le.PutUint32(b[stFiles:], 11); return b },
		"folder count":   func(b []byte) []byte { le.PutUint32(b[stDirs:], 1<<31); return b },
		"names length":   func(b []byte) []byte { le.PutUint32(b[stNames:], le.Uint32(b[stNames:])+8); return b },
		"header missing": func(b []byte) []byte { return b[:stHeader-1] },
	} {
		img.sec[secStamps] = mutate(append([]byte(nil), good...))
		if _, err := openFileBytes(t, img.bytes()); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Open: %v", name, err)
		}
	}
	bad := append([]byte(nil), good...)
	r := bad[stHeader+stFileRec*10:] // the first folder record
	le.PutUint32(r, 1<<30)
	img.sec[secStamps] = bad
	s, err := openFileBytes(t, img.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := s.Stamps(); !ok || st.Dirs[0].Path != "" {
		t.Errorf("a name outside the section read as %q", st.Dirs[0].Path)
	}
	if err := s.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
}
