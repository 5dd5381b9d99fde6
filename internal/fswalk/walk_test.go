package fswalk

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

type walkResult struct {
	kept    []string
	skipped map[string]string // path -> reason
	files   map[string]File
}

func walkAll(t *testing.T, root string, opt Options) walkResult {
	t.Helper()
	r := walkResult{skipped: map[string]string{}, files: map[string]File{}}
	done := make(chan error, 1)
	go func() {
		done <- Walk(root, opt, func(f File) error {
			r.kept = append(r.kept, f.Path)
			r.files[f.Path] = f
			return nil
		}, func(s Skipped) {
			if old, dup := r.skipped[s.Path]; dup {
				t.Errorf("skipped %q twice: %q and %q", s.Path, old, s.Reason)
			}
			r.skipped[s.Path] = s.Reason
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Walk: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Walk did not finish (symlink loop?)")
	}
	return r
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// makeTree builds the test repository and returns its root.
func makeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	w := func(p, content string) { writeFile(t, filepath.Join(root, filepath.FromSlash(p)), content) }
	w(".gitignore", "*.log\n/generated/\n!important.log\nsecret*\n")
	w("a.go", "package a\n")
	w("b.py", "print(1)\n")
	w("README.md", "# readme\n")
	w("debug.log", "log\n")
	w("important.log", "keep me\n")
	w("generated/x.go", "package gen\n")
	w("src/.gitignore", "*.tmp\n!keep.tmp\n/local.go\n")
	w("src/main.go", "package main\n")
	w("src/local.go", "package main\n")
	w("src/x.tmp", "tmp\n")
	w("src/keep.tmp", "tmp\n")
	w("src/deep/local.go", "package deep\n")
	w("src/deep/secret.go", "package deep\n")
	w("vendor/dep.go", "package dep\n")
	w("node_modules/m/index.js", "module.exports = 1\n")
	w("src/node_modules/x.js", "1\n")
	w("big.txt", strings.Repeat("x", 2000))
	w("img.bin", "GIF89a\x00\x01\x02")
	w("a-b/x.go", "package ab\n")
	w("a/x.go", "package a\n")
	w("a.b/x.go", "package ab\n")
	w("Z.go", "package z\n")
	symlink(t, ".", filepath.Join(root, "loop"))               // dir symlink to its parent
	symlink(t, "..", filepath.Join(root, "src", "deep", "up")) // to an ancestor
	symlink(t, "src/deep", filepath.Join(root, "linkdir"))     // to a folder inside
	symlink(t, "a.go", filepath.Join(root, "link.go"))         // file inside root
	symlink(t, "nowhere.go", filepath.Join(root, "broken.go")) // broken
	symlink(t, "self.go", filepath.Join(root, "self.go"))      // loops on itself
	outside := filepath.Join(t.TempDir(), "outside.go")
	writeFile(t, outside, "package out\n")
	symlink(t, outside, filepath.Join(root, "out.go"))
	return root
}

func TestWalkTree(t *testing.T) {
	root := makeTree(t)
	r := walkAll(t, root, Options{MaxFileSize: 1000})

	wantKept := []string{
		".gitignore",
		"README.md",
		"Z.go",
		"a-b/x.go",
		"a.b/x.go",
		"a.go",
		"a/x.go",
		"b.py",
		"important.log",
		"link.go",
		"src/.gitignore",
		"src/deep/local.go",
		"src/keep.tmp",
		"src/main.go",
	}
	if !reflect.DeepEqual(r.kept, wantKept) {
		t.Errorf("kept:\n got %q\nwant %q", r.kept, wantKept)
	}
	if !sort.StringsAreSorted(r.kept) {
		t.Errorf("kept files not in lexical order: %q", r.kept)
	}
	wantSkipped := map[string]string{
		"big.txt":            ReasonTooLarge,
		"broken.go":          ReasonBrokenLink,
		"debug.log":          ReasonIgnored,
		"generated":          ReasonIgnored,
		"img.bin":            ReasonBinary,
		"linkdir":            ReasonSymlinkDir,
		"loop":               ReasonSymlinkDir,
		"node_modules":       ReasonSkipDir,
		"out.go":             ReasonOutsideRoot,
		"self.go":            ReasonSymlinkLoop,
		"src/deep/secret.go": ReasonIgnored,
		"src/deep/up":        ReasonSymlinkDir,
		"src/local.go":       ReasonIgnored,
		"src/node_modules":   ReasonSkipDir,
		"src/x.tmp":          ReasonIgnored,
		"vendor":             ReasonSkipDir,
	}
	if !reflect.DeepEqual(r.skipped, wantSkipped) {
		t.Errorf("skipped:\n got %v\nwant %v", r.skipped, wantSkipped)
	}
	f := r.files["src/main.go"]
	if f.Abs != filepath.Join(root, "src", "main.go") || f.Size != int64(len("package main\n")) {
		t.Errorf("File = %+v", f)
	}
	if !filepath.IsAbs(f.Abs) {
		t.Errorf("Abs %q is not absolute", f.Abs)
	}
}

func TestWalkFollowSymlinks(t *testing.T) {
	root := makeTree(t)
	r := walkAll(t, root, Options{MaxFileSize: 1000, FollowSymlinks: true, Exts: map[string]bool{".go": true}})
	wantKept := []string{
		"Z.go", "a-b/x.go", "a.b/x.go", "a.go", "a/x.go", "link.go",
		"linkdir/local.go",   // src/.gitignore's "/local.go" is anchored to src/, not linkdir/
		"linkdir/up/main.go", // linkdir/up is src, entered once through the link
		"src/deep/local.go", "src/main.go",
	}
	if !reflect.DeepEqual(r.kept, wantKept) {
		t.Errorf("kept:\n got %q\nwant %q", r.kept, wantKept)
	}
	wantSkipped := map[string]string{
		"broken.go":               ReasonBrokenLink,
		"generated":               ReasonIgnored,
		"linkdir/secret.go":       ReasonIgnored,
		"linkdir/up/deep":         ReasonSymlinkLoop, // the folder linkdir already walks
		"linkdir/up/local.go":     ReasonIgnored,
		"linkdir/up/node_modules": ReasonSkipDir,
		"loop":                    ReasonSymlinkLoop,
		"node_modules":            ReasonSkipDir,
		"out.go":                  ReasonOutsideRoot,
		"self.go":                 ReasonSymlinkLoop,
		"src/deep/secret.go":      ReasonIgnored,
		"src/deep/up":             ReasonSymlinkLoop,
		"src/local.go":            ReasonIgnored,
		"src/node_modules":        ReasonSkipDir,
		"vendor":                  ReasonSkipDir,
	}
	if !reflect.DeepEqual(r.skipped, wantSkipped) {
		t.Errorf("skipped:\n got %v\nwant %v", r.skipped, wantSkipped)
	}
}

func TestWalkExts(t *testing.T) {
	root := makeTree(t)
	r := walkAll(t, root, Options{MaxFileSize: 1000, Exts: map[string]bool{".py": true, ".md": true}})
	if want := []string{"README.md", "b.py"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q", r.kept, want)
	}
	for p, reason := range r.skipped {
		if !strings.HasSuffix(p, ".py") && !strings.HasSuffix(p, ".md") && reason != ReasonSkipDir &&
			reason != ReasonIgnored && reason != ReasonSymlinkDir {
			t.Errorf("file with another extension reported: %s (%s)", p, reason)
		}
		if reason == ReasonIgnored && strings.HasSuffix(p, ".log") {
			t.Errorf("ignored file with another extension reported: %s", p)
		}
	}
	// Upper-case extensions match their lower-case key.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "X.PY"), "x\n")
	r = walkAll(t, dir, Options{Exts: map[string]bool{".py": true}})
	if want := []string{"X.PY"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q", r.kept, want)
	}
}

func TestWalkSkipDirsOption(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "vendor", "v.go"), "x\n")
	writeFile(t, filepath.Join(root, "third_party", "t.go"), "x\n")
	writeFile(t, filepath.Join(root, ".git", "config"), "x\n")
	writeFile(t, filepath.Join(root, "sub", ".git"), "gitdir: elsewhere\n")
	r := walkAll(t, root, Options{SkipDirs: []string{"third_party"}})
	if want := []string{"vendor/v.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q", r.kept, want)
	}
	if r.skipped["third_party"] != ReasonSkipDir || r.skipped[".git"] != ReasonSkipDir {
		t.Errorf("skipped %v", r.skipped)
	}
	r = walkAll(t, root, Options{SkipDirs: []string{}})
	if want := []string{"third_party/t.go", "vendor/v.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q (.git is never entered)", r.kept, want)
	}
}

func TestWalkInfoExclude(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "info", "exclude"), "*.md\n/local/\n")
	writeFile(t, filepath.Join(root, ".gitignore"), "!README.md\n")
	writeFile(t, filepath.Join(root, "README.md"), "x\n")
	writeFile(t, filepath.Join(root, "NOTES.md"), "x\n")
	writeFile(t, filepath.Join(root, "local", "a.go"), "x\n")
	writeFile(t, filepath.Join(root, "x", "local", "b.go"), "x\n")
	r := walkAll(t, root, Options{})
	if want := []string{".gitignore", "README.md", "x/local/b.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q", r.kept, want)
	}
	if r.skipped["NOTES.md"] != ReasonIgnored || r.skipped["local"] != ReasonIgnored {
		t.Errorf("skipped %v", r.skipped)
	}
}

func TestWalkLexicalOrder(t *testing.T) {
	root := t.TempDir()
	names := []string{"a/x", "a-b/x", "a.b/x", "a0/x", "a/b/c", "a/b-c/d", "ab", "a", "A/x", "b/a", "a/b.c", "_/x", "a/b/c-d"}
	for _, n := range names {
		if n == "a" {
			continue // a is a folder here
		}
		writeFile(t, filepath.Join(root, filepath.FromSlash(n)), "x\n")
	}
	r := walkAll(t, root, Options{})
	if !sort.StringsAreSorted(r.kept) {
		t.Errorf("not sorted: %q", r.kept)
	}
	if len(r.kept) != len(names)-1 {
		t.Errorf("kept %d files, want %d: %q", len(r.kept), len(names)-1, r.kept)
	}
}

func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop reads")
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok.go"), "x\n")
	writeFile(t, filepath.Join(root, "secret.go"), "x\n")
	writeFile(t, filepath.Join(root, "closed", "in.go"), "x\n")
	writeFile(t, filepath.Join(root, "z.go"), "x\n")
	if err := os.Chmod(filepath.Join(root, "secret.go"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "closed"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "closed"), 0o755) })
	r := walkAll(t, root, Options{})
	if want := []string{"ok.go", "z.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("kept %q, want %q", r.kept, want)
	}
	for _, p := range []string{"secret.go", "closed"} {
		if got := r.skipped[p]; !strings.HasPrefix(got, ReasonUnreadable) || !strings.Contains(got, "permission denied") {
			t.Errorf("skipped[%q] = %q, want unreadable: permission denied", p, got)
		}
	}
}

func TestWalkRootErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	err := Walk(missing, Options{}, func(File) error { return nil }, nil)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing root: err = %v", err)
	}
	file := filepath.Join(t.TempDir(), "file.go")
	writeFile(t, file, "x\n")
	err = Walk(file, Options{}, func(File) error { return nil }, nil)
	if err == nil || !errors.Is(err, ErrNotDir) || !strings.Contains(err.Error(), file) {
		t.Errorf("file root: err = %v", err)
	}
	t.Logf("errors read: %v", err)
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		os.Chmod(dir, 0)
		defer os.Chmod(dir, 0o755)
		err = Walk(dir, Options{}, func(File) error { return nil }, nil)
		if err == nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), dir) {
			t.Errorf("unreadable root: err = %v", err)
		}
	}
}

func TestWalkCallbackErrors(t *testing.T) {
	root := makeTree(t)
	stop := errors.New("stop")
	n := 0
	err := Walk(root, Options{}, func(File) error { n++; return stop }, nil)
	if err != stop || n != 1 {
		t.Errorf("err %v after %d calls, want stop after 1", err, n)
	}
	n = 0
	err = Walk(root, Options{}, func(File) error { n++; return fs.SkipAll }, nil)
	if err != nil || n != 1 {
		t.Errorf("SkipAll: err %v after %d calls", err, n)
	}
	var got []string
	err = Walk(root, Options{}, func(f File) error {
		got = append(got, f.Path)
		if f.Path == "src/.gitignore" { // skips the rest of src/
			return fs.SkipDir
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != ".gitignore README.md Z.go a-b/x.go a.b/x.go a.go a/x.go b.py big.txt important.log link.go src/.gitignore" {
		t.Errorf("SkipDir: %q", got)
	}
}

func TestWalkMaxFileSize(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "small.go"), strings.Repeat("x", 100))
	writeFile(t, filepath.Join(root, "large.go"), strings.Repeat("x", DefaultMaxFileSize+1))
	r := walkAll(t, root, Options{})
	if want := []string{"small.go"}; !reflect.DeepEqual(r.kept, want) || r.skipped["large.go"] != ReasonTooLarge {
		t.Errorf("default limit: kept %q skipped %v", r.kept, r.skipped)
	}
	r = walkAll(t, root, Options{MaxFileSize: -1})
	if want := []string{"large.go", "small.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("no limit: kept %q", r.kept)
	}
	r = walkAll(t, root, Options{MaxFileSize: 100})
	if want := []string{"small.go"}; !reflect.DeepEqual(r.kept, want) {
		t.Errorf("limit 100 (inclusive): kept %q", r.kept)
	}
}

func TestBinary(t *testing.T) {
	if IsBinary([]byte("package main\n")) || IsBinary(nil) {
		t.Error("text reported binary")
	}
	if !IsBinary([]byte("abc\x00def")) {
		t.Error("NUL not detected")
	}
	late := append(bytes.Repeat([]byte("a"), SniffSize), 0)
	if IsBinary(late) {
		t.Error("NUL past SniffSize counted")
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "late.go"), string(late))
	writeFile(t, filepath.Join(root, "early.go"), string(late[SniffSize-1:])+"more")
	writeFile(t, filepath.Join(root, "empty.go"), "")
	r := walkAll(t, root, Options{})
	if want := []string{"empty.go", "late.go"}; !reflect.DeepEqual(r.kept, want) || r.skipped["early.go"] != ReasonBinary {
		t.Errorf("kept %q skipped %v", r.kept, r.skipped)
	}
}

func TestReadContent(t *testing.T) {
	root := t.TempDir()
	contents := map[string]string{
		"empty.go":  "",
		"small.go":  "package small\n",
		"exact.go":  strings.Repeat("e", SniffSize),
		"exact1.go": strings.Repeat("f", SniffSize-1),
		"large.go":  strings.Repeat("0123456789", 3*SniffSize/10+7),
	}
	for n, c := range contents {
		writeFile(t, filepath.Join(root, n), c)
	}
	for _, keep := range []bool{false, true} {
		r := walkAll(t, root, Options{KeepHead: keep})
		if len(r.kept) != len(contents) {
			t.Fatalf("kept %q", r.kept)
		}
		for _, p := range r.kept {
			f := r.files[p]
			want := contents[p]
			if f.Size != int64(len(want)) {
				t.Errorf("%s: Size %d, want %d", p, f.Size, len(want))
			}
			head := f.Head()
			if keep {
				n := min(len(want), SniffSize)
				if string(head) != want[:n] {
					t.Errorf("%s: Head is %d bytes, want the first %d", p, len(head), n)
				}
			} else if head != nil {
				t.Errorf("%s: Head without KeepHead", p)
			}
			got, err := f.ReadContent()
			if err != nil || string(got) != want {
				t.Errorf("%s (KeepHead %v): ReadContent = %d bytes, %v; want %d bytes", p, keep, len(got), err, len(want))
			}
		}
		// Small files are served from memory with KeepHead.
		if keep {
			small := r.files["small.go"]
			os.Remove(small.Abs)
			if got, err := small.ReadContent(); err != nil || string(got) != contents["small.go"] {
				t.Errorf("small file reread from disk: %q, %v", got, err)
			}
			writeFile(t, small.Abs, contents["small.go"])
		}
	}
}

func TestGoPackageNamedBuildIsWalked(t *testing.T) {
	root := t.TempDir()
	mk := func(p, body string) {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("go/build/build.go", "package build\n")
	mk("web/build/app.js", "var x = 1;\n")
	mk("web/dist/bundle.js", "var y = 2;\n")
	var got []string
	err := Walk(root, Options{}, func(f File) error { got = append(got, f.Path); return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "go/build/build.go" {
		t.Fatalf("walked %v, want only go/build/build.go", got)
	}
}

func TestInSkippedFolder(t *testing.T) {
	for p, want := range map[string]bool{
		"src/lib.rs":               false,
		"build/probe.rs":           true,
		"crates/x/build/gen.py":    true,
		"node_modules/a/index.js":  true,
		"vendor/github.com/x/y.go": true,
		"go/build/build.go":        false, // a Go package named build
		"cmd/dist/main.go":         false,
		"dist/bundle.js":           true,
		"buildtools/make.py":       false,
		"build.rs":                 false,
		"docs/.venv/lib/site.py":   true,
		"pkg/__pycache__/mod.py":   true,
	} {
		if got := InSkippedFolder(p); got != want {
			t.Errorf("InSkippedFolder(%q) = %v, want %v", p, got, want)
		}
	}
}
