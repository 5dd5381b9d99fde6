package fswalk

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// listAll lists a tree folder by folder with a Lister, from the root
// down, and returns the files kept and the reasons of what was skipped.
func listAll(t *testing.T, root string, opt Options) (kept []string, skipped map[string]string, files map[string]File) {
	t.Helper()
	l, err := NewLister(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	skipped, files = map[string]string{}, map[string]File{}
	queue := []string{""}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		fs, dirs, err := l.List(dir, func(s Skipped) { skipped[s.Path] = s.Reason })
		if err != nil {
			t.Fatalf("List(%q): %v", dir, err)
		}
		for _, f := range fs {
			kept = append(kept, f.Path)
			files[f.Path] = f
		}
		queue = append(queue, dirs...)
	}
	sort.Strings(kept)
	return kept, skipped, files
}

// TestListerAsWalk: listing every folder the Lister says the walk enters
// keeps and skips what the walk does, on trees with nested ignore files,
// skipped folders, large and binary files.
func TestListerAsWalk(t *testing.T) {
	for name, root := range map[string]string{"git": makeGitTree(t), "tree": makeTree(t)} {
		for _, opt := range []Options{{}, {MaxFileSize: 1000, Exts: map[string]bool{".go": true, ".txt": true, ".py": true}}} {
			w := walkAll(t, root, opt)
			want := append([]string(nil), w.kept...)
			sort.Strings(want)
			got, skipped, files := listAll(t, root, opt)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %+v: listed %q\nwalked %q", name, opt, got, want)
			}
			if !reflect.DeepEqual(skipped, w.skipped) {
				t.Errorf("%s %+v: list skipped %v\nwalk skipped %v", name, opt, skipped, w.skipped)
			}
			for p, f := range files {
				if wf := w.files[p]; f.Size != wf.Size || f.ModTime != wf.ModTime || f.ModTime == 0 {
					t.Errorf("%s: %s listed as %d bytes at %d, walked as %d at %d", name, p, f.Size, f.ModTime, wf.Size, wf.ModTime)
				}
			}
			if len(want) < 5 {
				t.Fatalf("%s: tree too small (%d files)", name, len(want))
			}
		}
	}
}

// TestListerDeepFolder lists a folder deep in the tree first: the
// ignore files above it still apply.
func TestListerDeepFolder(t *testing.T) {
	root := makeGitTree(t)
	l, err := NewLister(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := l.List("lib/sub/q", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	// lib/.gitignore: sub/**/x.txt; lib/sub/.gitignore: *.txt, !y.txt.
	if want := []string{"lib/sub/q/y.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("lib/sub/q: got %q, want %q", got, want)
	}
	if _, _, err := l.List("no/such/folder", nil); err == nil {
		t.Error("listing a missing folder gave no error")
	}
	if err := os.WriteFile(filepath.Join(root, "lib", "sub", "q", "new.go"), []byte("package q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _, _ = l.List("lib/sub/q", nil)
	if len(files) != 2 || files[0].Path != "lib/sub/q/new.go" {
		t.Errorf("a file added since: listed %v", files)
	}
}

// TestListerOmit: omitted files are neither kept nor reported.
func TestListerOmit(t *testing.T) {
	root := makeGitTree(t)
	l, err := NewLister(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := l.List("", nil)
	if err != nil || len(all) < 3 {
		t.Fatalf("root lists %d files (%v)", len(all), err)
	}
	l.Omit = func(rel string) bool { return rel == all[0].Path }
	some, _, _ := l.List("", nil)
	if len(some) != len(all)-1 || some[0].Path == all[0].Path {
		t.Errorf("omitting %s: listed %d of %d files, first %s", all[0].Path, len(some), len(all), some[0].Path)
	}
}

// TestWalkKnown: a file the caller knows (by size and time) is kept
// without the binary sniff; one it does not know is sniffed as before.
func TestWalkKnown(t *testing.T) {
	root := t.TempDir()
	bin := []byte("package x\x00\x00 not text")
	for _, name := range []string{"known.go", "unknown.go"} {
		if err := os.WriteFile(filepath.Join(root, name), bin, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(filepath.Join(root, "known.go"))
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	r := walkAll(t, root, Options{Known: func(rel string, size, mtime int64) bool {
		asked++
		return rel == "known.go" && size == st.Size() && mtime == st.ModTime().UnixNano()
	}})
	if !reflect.DeepEqual(r.kept, []string{"known.go"}) || r.skipped["unknown.go"] != ReasonBinary || asked != 2 {
		t.Errorf("kept %v, skipped %v, asked %d", r.kept, r.skipped, asked)
	}
	if f := r.files["known.go"]; f.Size != st.Size() || f.ModTime != st.ModTime().UnixNano() {
		t.Errorf("known.go: %+v", f)
	}
}
