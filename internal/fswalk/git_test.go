package fswalk

import (
	"io/fs"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// gitTree is a repository exercising most rule types at once.
var gitTree = map[string]string{
	".git/info/exclude": "*.swp\n/scratch/\n",
	".gitignore": "# comment\n*.o\n/bin/\nbuild/\n!keep/build/\n*.log\n!important.log\n" +
		"docs/**/*.html\n**/tmp\ncache*/\n\\#hash\ntrail  \n\\!bang\n[Tt]humbs.db\n",
	"lib/.gitignore":            "!*.o\n/generated.go\nsub/**/x.txt\n",
	"lib/sub/.gitignore":        "*.txt\n!y.txt\n",
	"web/.gitignore":            "node_stuff/\n*.min.js\n!vendor.min.js\n",
	"web/node_stuff/.gitignore": "!*\n",
	"white/.gitignore":          "*\n!*/\n!*.go\n",
}

var gitTreeFiles = []string{
	"a.o", "lib/a.o", "lib/b/c.o", "bin/tool", "x/bin/tool", "build/out", "keep/build/out", "x/keep/build/out",
	"a.log", "important.log", "sub/important.log", "sub/other.log",
	"docs/a.html", "docs/x/y/z.html", "docs/x/y/z.md", "x/docs/a/b.html",
	"tmp/t", "a/tmp/t", "a/tmpx/t", "cache1/x", "cache.go", "#hash", "trail", "!bang", "Thumbs.db", "x/thumbs.db",
	"lib/generated.go", "lib/x/generated.go", "lib/sub/x.txt", "lib/sub/y.txt", "lib/sub/q/x.txt", "lib/sub/q/z.txt",
	"lib/sub/q/y.txt", "web/node_stuff/a.js", "web/app.min.js", "web/vendor.min.js", "web/app.js",
	"scratch/s.go", "a/scratch/s.go", "file.swp", "lib/file.swp", "src/main.go", "README.md",
	"white/a.go", "white/a.txt", "white/d/b.go", "white/d/b.md",
}

func makeGitTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range gitTree {
		writeFile(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
	for _, p := range gitTreeFiles {
		writeFile(t, filepath.Join(root, filepath.FromSlash(p)), "content of "+p+"\n")
	}
	return root
}

// walkNotIgnored lists the files the walk does not exclude by ignore rules
// (kept, or skipped for another reason), with no SkipDirs, size or
// extension limits.
func walkNotIgnored(t *testing.T, root string) (notIgnored []string, ignoredRoots []string) {
	t.Helper()
	err := Walk(root, Options{SkipDirs: []string{}, MaxFileSize: -1}, func(f File) error {
		notIgnored = append(notIgnored, f.Path)
		return nil
	}, func(s Skipped) {
		switch {
		case s.Reason == ReasonIgnored:
			ignoredRoots = append(ignoredRoots, s.Path)
		case s.Path == ".git":
		case s.Dir:
			t.Errorf("unexpected skipped folder %s: %s", s.Path, s.Reason)
		default:
			notIgnored = append(notIgnored, s.Path)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(notIgnored)
	return notIgnored, ignoredRoots
}

// TestWalkAgainstGit compares the walk with git ls-files and git
// check-ignore on the same repository.
func TestWalkAgainstGit(t *testing.T) {
	if gitPath() == "" {
		t.Skip("git not installed")
	}
	env := gitEnv(t)
	root := makeGitTree(t)
	gitInit(t, env, root) // keeps our .git/info/exclude

	walked, ignoredRoots := walkNotIgnored(t, root)
	want := gitUntracked(t, env, root)
	sort.Strings(want)
	if !reflect.DeepEqual(walked, want) {
		t.Errorf("files not ignored:\nwalk %q\n git %q", walked, want)
	}
	if len(walked) < 15 || len(ignoredRoots) < 15 {
		t.Fatalf("tree too degenerate: %d kept, %d ignored", len(walked), len(ignoredRoots))
	}

	// Every path on disk, folders included, through check-ignore, the
	// walk's decisions and a Matcher built from all the ignore files.
	var paths []string
	isDir := map[string]bool{}
	m := buildMatcher(gitTree)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if rel == ".git" {
			return filepath.SkipDir
		}
		paths = append(paths, rel)
		isDir[rel] = d.IsDir()
		return nil
	})
	gitIgnored := gitCheckIgnore(t, env, root, paths)
	walkIgnored := func(p string) bool {
		for _, r := range ignoredRoots {
			if p == r || strings.HasPrefix(p, r+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range paths {
		g := gitIgnored[p]
		if w := walkIgnored(p); w != g {
			t.Errorf("%s (dir %v): walk ignored=%v, git check-ignore %v", p, isDir[p], w, g)
		}
		if mm := m.Match(p, isDir[p]); mm != g {
			t.Errorf("%s (dir %v): Matcher %v, git check-ignore %v", p, isDir[p], mm, g)
		}
	}
}

// TestMatcherRandomAgainstGit compares the Matcher with git check-ignore on
// random patterns over a small alphabet, to shake out wildcard corner
// cases.
func TestMatcherRandomAgainstGit(t *testing.T) {
	if gitPath() == "" {
		t.Skip("git not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	env := gitEnv(t)
	rng := rand.New(rand.NewSource(1))
	names := []string{"a", "b", "ab", "ba", "a.c", "b.c", "aa", ".x", "#a", "!b", "a "}
	tokens := []string{"a", "b", "c", ".", ".c", "*", "*", "?", "**", "/", "/", "[ab]", "[!a]", "[a-b]", "[^b]",
		"[[:lower:]]", "[]a]", "\\*", "\\a", "\\#", "\\!", "#", "!", " ", "\\ ", "**/", "/**", "/**/"}

	// A fixed tree: folders a, b, ab and a/b, b/a, a/b/a; every name as a
	// file in each, except where the name is a folder.
	dirs := []string{"", "a", "b", "ab", "a/b", "b/a", "a/b/a", "ba/aa"}
	dirSet := map[string]bool{}
	for _, d := range dirs {
		for p := d; p != "" && p != "."; p = path.Dir(p) {
			dirSet[p] = true
		}
	}
	var files []string
	for _, d := range dirs {
		for _, n := range names {
			p := path.Join(d, n)
			if !dirSet[p] {
				files = append(files, p)
			}
		}
	}
	var all []string
	for d := range dirSet {
		all = append(all, d)
	}
	all = append(all, files...)
	sort.Strings(all)

	randPattern := func() string {
		var b strings.Builder
		if rng.Intn(5) == 0 {
			b.WriteString("!")
		}
		for n := 1 + rng.Intn(4); n > 0; n-- {
			b.WriteString(tokens[rng.Intn(len(tokens))])
		}
		if rng.Intn(4) == 0 {
			b.WriteString("/")
		}
		return b.String()
	}

	rounds := 60
	if n, err := strconv.Atoi(os.Getenv("FSWALK_GIT_ROUNDS")); err == nil && n > 0 {
		rounds = n // for a longer hunt
	}
	mismatches, ignoredSeen, checked := 0, 0, 0
	for round := 0; round < rounds; round++ {
		root := t.TempDir()
		gitInit(t, env, root)
		for _, f := range files {
			writeFile(t, filepath.Join(root, filepath.FromSlash(f)), "x\n")
		}
		ignoreFiles := map[string]string{}
		for _, d := range []string{"", "a", "a/b"} {
			if d != "" && rng.Intn(2) == 0 {
				continue
			}
			var lines []string
			for n := 1 + rng.Intn(5); n > 0; n-- {
				lines = append(lines, randPattern())
			}
			ignoreFiles[path.Join(d, ".gitignore")] = strings.Join(lines, "\n") + "\n"
		}
		for p, c := range ignoreFiles {
			writeFile(t, filepath.Join(root, filepath.FromSlash(p)), c)
		}
		m := buildMatcher(ignoreFiles)
		gitIgnored := gitCheckIgnore(t, env, root, all)
		ignoredSeen += len(gitIgnored)
		checked += len(all)
		for _, p := range all {
			if got := m.Match(p, dirSet[p]); got != gitIgnored[p] {
				mismatches++
				if mismatches <= 20 {
					t.Errorf("round %d: %s (dir %v): Matcher %v, git %v; ignore files %q", round, p, dirSet[p], got, gitIgnored[p], ignoreFiles)
				}
			}
		}
		// The walk agrees with git ls-files too.
		walked, _ := walkNotIgnored(t, root)
		want := gitUntracked(t, env, root)
		sort.Strings(want)
		if !reflect.DeepEqual(walked, want) && (len(walked) > 0 || len(want) > 0) {
			mismatches++
			t.Errorf("round %d: walk %q, git ls-files %q; ignore files %q", round, walked, want, ignoreFiles)
		}
	}
	t.Logf("%d rounds: %d of %d path checks ignored by git", rounds, ignoredSeen, checked)
}
