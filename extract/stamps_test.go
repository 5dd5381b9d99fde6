package extract_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/extracttest"
	_ "github.com/knowing-dev/knowing/extract/langs"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestBuildStamps: a build stamps every file with the time and the
// fingerprint of the bytes on disk, records every folder it entered, and
// the manifests and ignore files it read.
func TestBuildStamps(t *testing.T) {
	for lang, deps := range map[string][]string{
		"go":         {"go.mod"},
		"javascript": {".gitignore", "package.json", "tsconfig.json"},
		"rust":       {"Cargo.toml"},
	} {
		root := extracttest.CopyTree(t, filepath.Join("..", "testdata", lang))
		if lang == "javascript" {
			if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("dist/\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		g, _, err := extract.Build(context.Background(), extract.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		st := g.Stamps
		if st == nil || st.WalkStart == 0 || st.MaxFileSize != 1<<20 || len(st.Exts) < 10 {
			t.Fatalf("%s: stamps %+v", lang, st)
		}
		dirs := map[string]bool{}
		for _, d := range st.Dirs {
			dirs[d.Path] = true
			if d.ModTime == 0 {
				t.Errorf("%s: folder %q has no time", lang, d.Path)
			}
		}
		for _, f := range g.Files {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			fi, _ := os.Stat(filepath.Join(root, filepath.FromSlash(f.Path)))
			if f.Hash != snapshot.Fingerprint(b) || f.ModTime != fi.ModTime().UnixNano() {
				t.Errorf("%s: %s stamped %d %x, on disk %d %x", lang, f.Path, f.ModTime, f.Hash, fi.ModTime().UnixNano(), snapshot.Fingerprint(b))
			}
			if d := filepath.ToSlash(filepath.Dir(f.Path)); !dirs[strings.TrimPrefix(d, ".")] {
				t.Errorf("%s: the folder of %s is not recorded", lang, f.Path)
			}
		}
		got := map[string]bool{}
		for _, d := range st.Deps {
			got[d.Path] = true
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
			if err != nil || d.Hash != snapshot.Fingerprint(b) || d.Size != uint64(len(b)) {
				t.Errorf("%s: dependency %s stamped %+v (%v)", lang, d.Path, d, err)
			}
		}
		for _, want := range deps {
			if !got[want] {
				t.Errorf("%s: %s is not among the recorded dependencies %v", lang, want, st.Deps)
			}
		}
		if g.Meta.GitDirty != nil {
			t.Errorf("%s: not a git work tree, but dirty is %v", lang, *g.Meta.GitDirty)
		}
	}
}

// TestBuildGitDirty: in a git work tree the metadata says whether the
// tree differs from its commit.
func TestBuildGitDirty(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := extracttest.CopyTree(t, filepath.Join("..", "testdata", "go"))
	home := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	for _, dirty := range []bool{false, true} {
		if dirty {
			if err := os.WriteFile(filepath.Join(root, "store", "new.go"), []byte("package store\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		g, _, err := extract.Build(context.Background(), extract.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		if g.Meta.GitCommit == "" || g.Meta.GitDirty == nil || *g.Meta.GitDirty != dirty {
			t.Errorf("dirty %v: commit %q, dirty %v", dirty, g.Meta.GitCommit, g.Meta.GitDirty)
		}
	}
}
