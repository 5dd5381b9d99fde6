package extract

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/internal/fswalk"
	"github.com/knowing-dev/knowing/snapshot"
)

// Repo answers project-level questions extractors share (which go.mod or
// Cargo.toml governs a folder, where a Python package starts), with caches
// safe for concurrent use.
type Repo struct {
	Root string

	mu    sync.Mutex
	found map[string]foundFile // key: name + "\x00" + dir
	memo  map[any]any          // see Memo
	stats map[string]entryKind // Stat's answers from the file system (0: none)

	// listed holds the entries of the folders the build's walk read, by
	// folder: Stat answers from it without a system call. Written before
	// extraction starts, read-only afterwards.
	listed map[string]map[string]entryKind
	// exts counts the files the build parses by extension (lower-case,
	// with its dot). Written before extraction starts, read-only
	// afterwards.
	exts map[string]int
	// deps records what extraction asked and was told (see deps.go); nil
	// records nothing.
	deps *depLog
}

// countExts records the extensions of the files the build parses.
func (r *Repo) countExts(files []fswalk.File) {
	r.exts = map[string]int{}
	for _, f := range files {
		r.exts[strings.ToLower(path.Ext(f.Path))]++
	}
}

// Parses is how many of the files the build parses have the extension
// ext (lower-case, with its dot: ".cc"); 0 for a nil r.
func (r *Repo) Parses(ext string) int {
	if r == nil {
		return 0
	}
	return r.exts[ext]
}

type entryKind uint8

const (
	entryFile    entryKind = iota + 1
	entryDir               // a folder
	entryUnknown           // a symlink or special file: ask the file system
)

// Listed records the entries of folder rel as the walk read them (see
// fswalk.Options.Listed). It must not be called once extraction started.
func (r *Repo) Listed(rel string, entries []fs.DirEntry) {
	if r.listed == nil {
		r.listed = map[string]map[string]entryKind{}
	}
	m := make(map[string]entryKind, len(entries))
	for _, e := range entries {
		switch t := e.Type(); {
		case t.IsDir():
			m[e.Name()] = entryDir
		case t.IsRegular():
			m[e.Name()] = entryFile
		default:
			m[e.Name()] = entryUnknown
		}
	}
	r.listed[rel] = m
}

// Stat reports whether the relative path rel exists under the root and
// whether it is a folder. Paths in folders the walk listed are answered
// from the listing: module lookups probe many names that do not exist
// (a Python import tries X.py, X.pyi and X/__init__.py under each source
// root), and each probe was a system call. Other paths are asked of the
// file system once per build.
func (r *Repo) Stat(rel string) (isDir, ok bool) {
	rel = path.Clean(rel)
	k, known := entryKind(0), false
	if rel != "." && !strings.HasPrefix(rel, "../") && rel != ".." && !path.IsAbs(rel) {
		k, known = r.known(rel)
		known = known && k != entryUnknown
	}
	if !known {
		r.mu.Lock()
		k, known = r.stats[rel]
		r.mu.Unlock()
	}
	if !known {
		k = 0
		if st, err := os.Stat(filepath.Join(r.Root, filepath.FromSlash(rel))); err == nil {
			k = entryFile
			if st.IsDir() {
				k = entryDir
			}
		}
		r.mu.Lock()
		if r.stats == nil {
			r.stats = map[string]entryKind{}
		}
		r.stats[rel] = k
		r.mu.Unlock()
	}
	r.deps.add(depStat, rel, statAnswer(k == entryDir, k != 0))
	return k == entryDir, k != 0
}

// Memo returns the value r keeps for key, calling compute the first time.
// It is where an extractor keeps what it works out once per repository
// rather than once per file: a Go folder's import path, which every file
// of the folder asks for, or a language's whole per-repository cache
// (module layout, manifests read), which then lives exactly as long as the
// build's Repo. A language keys its values with a type of its own, so
// that no two languages share a key:
//
//	type cacheKey struct{}
//	c := extract.Memo(f.Repo, cacheKey{}, newRepoCache) // *repoCache
//
// compute runs outside the lock, so it may use r (and Memo) itself; two
// files may compute a key at once, and then both get the value stored
// first. With a nil r, Memo returns compute's value unshared.
func Memo[T any](r *Repo, key any, compute func() T) T {
	if r == nil {
		return compute()
	}
	r.mu.Lock()
	v, ok := r.memo[key]
	r.mu.Unlock()
	if ok {
		return v.(T)
	}
	w := compute()
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.memo[key]; ok {
		return v.(T)
	}
	if r.memo == nil {
		r.memo = map[any]any{}
	}
	r.memo[key] = w
	return w
}

type foundFile struct {
	dir  string // slash-separated, relative to root ("" is the root)
	data []byte
	ok   bool
}

// NewRepo makes a Repo for the folder root.
func NewRepo(root string) *Repo {
	return &Repo{Root: root, found: map[string]foundFile{}}
}

// FindUp looks for a file named name in dir (relative, slash-separated) and
// its parents up to the root, and returns the folder it is in and its bytes.
func (r *Repo) FindUp(dir, name string) (string, []byte, bool) {
	key := name + "\x00" + dir
	r.mu.Lock()
	f, hit := r.found[key]
	r.mu.Unlock()
	if hit {
		return f.dir, f.data, f.ok
	}
	var b []byte
	var err error = fs.ErrNotExist
	if _, ok := r.Stat(path.Join(dir, name)); ok {
		b, err = fswalk.ReadMeta(r.Root, filepath.Join(r.Root, filepath.FromSlash(dir), name))
		r.deps.add(depRead, path.Join(dir, name), readAnswer(b, err))
		if err == nil {
			r.deps.read(path.Join(dir, name), b)
		}
	}
	if err == nil {
		f = foundFile{dir: dir, data: b, ok: true}
	} else if dir != "" && dir != "." {
		parent := path.Dir(dir)
		if parent == "." {
			parent = ""
		}
		f.dir, f.data, f.ok = r.FindUp(parent, name)
	}
	r.mu.Lock()
	r.found[key] = f
	r.mu.Unlock()
	return f.dir, f.data, f.ok
}

// FindAbove looks for a file named name in the folders above the root (at
// most eight levels, and not past a folder holding .git, which ends a
// repository: the root's own or a parent's) and returns the root's parent
// folder that holds it, as a relative path of "../" steps. Files are read
// through fswalk.ReadMeta: a link there must stay inside its own folder.
func (r *Repo) FindAbove(name string) (string, []byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := name + "\x00^"
	if f, ok := r.found[key]; ok {
		return f.dir, f.data, f.ok
	}
	var f foundFile
	defer func() {
		r.deps.add(depAbove, name, aboveAnswer(f.dir, f.data, f.ok))
		if f.ok {
			r.deps.read(path.Join(f.dir, name), f.data)
		}
	}()
	abs, err := filepath.Abs(r.Root)
	if err == nil {
		rel := ""
		for i := 0; i < 8 && !hasGit(abs); i++ {
			parent := filepath.Dir(abs)
			if parent == abs {
				break
			}
			abs = parent
			rel = path.Join(rel, "..")
			if b, err := fswalk.ReadMeta(abs, filepath.Join(abs, name)); err == nil {
				f = foundFile{dir: rel, data: b, ok: true}
				break
			}
		}
	}
	r.found[key] = f
	return f.dir, f.data, f.ok
}

// hasGit reports whether dir holds a .git folder or file (a work tree's
// top).
func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// RootRel is the path of the root seen from dir, a "../"-relative folder
// above the root: for dir "../.." and root /a/b/c it is "b/c".
func (r *Repo) RootRel(dir string) string {
	abs, err := filepath.Abs(r.Root)
	if err != nil {
		return ""
	}
	up := filepath.Join(abs, filepath.FromSlash(dir))
	rel, err := filepath.Rel(up, abs)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// known looks rel (clean, relative) up in the listings: its kind, 0 when
// it does not exist, and whether the listings tell. A path under a folder
// that does not exist, or under a file, does not exist either.
func (r *Repo) known(rel string) (entryKind, bool) {
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if m, listed := r.listed[dir]; listed {
		return m[name], true
	}
	if dir == "" {
		return 0, false
	}
	if k, ok := r.known(dir); ok && (k == 0 || k == entryFile) {
		return 0, true
	}
	return 0, false
}

// Exists reports whether a relative path exists under the root.
func (r *Repo) Exists(rel string) bool {
	_, ok := r.Stat(rel)
	return ok
}

// testDirs are folder names whose files are tests or test support.
var testDirs = map[string]bool{
	"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true,
	"testdata": true, "testing": false, "e2e": true, "integration_tests": true,
	"testsuite": true, "fixtures": true, "test_helpers": true, "testutil": true,
}

// IsTestPath reports paths that hold tests by the conventions of the
// supported languages.
func IsTestPath(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lower, "_test.go"),
		strings.HasPrefix(lower, "test_") && strings.HasSuffix(lower, ".py"),
		strings.HasSuffix(lower, "_test.py"), lower == "conftest.py",
		strings.Contains(lower, ".test."), strings.Contains(lower, ".spec."),
		strings.HasSuffix(lower, "_spec.rb"), strings.HasSuffix(lower, "_test.rb"),
		strings.HasSuffix(base, "Test.java"), strings.HasSuffix(base, "Tests.java"),
		strings.HasSuffix(base, "Test.cs"), strings.HasSuffix(base, "Tests.cs"):
		return true
	}
	return anyFolder(p, func(seg string) bool {
		return testDirs[seg] || strings.Contains(seg, "test-support") || strings.Contains(seg, "test_support") ||
			strings.Contains(seg, "testutil") || strings.Contains(seg, "test-utils") || strings.Contains(seg, "test_utils")
	})
}

// anyFolder reports whether match holds for the lower-cased name of any
// folder on path p, an organisation's package folders aside (see
// orgFolder).
func anyFolder(p string, match func(seg string) bool) bool {
	for dir := path.Dir(p); dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		if match(strings.ToLower(path.Base(dir))) && !orgFolder(dir) {
			return true
		}
	}
	return false
}

// exampleDirs are folder names whose files use the project rather than
// being part of it: usage examples, sample and demo apps, benchmarks.
var exampleDirs = map[string]bool{
	"example": true, "examples": true, "_examples": true, "sample": true, "samples": true,
	"demo": true, "demos": true, "benchmark": true, "benchmarks": true, "benches": true, "bench": true,
}

// IsExamplePath reports paths inside an examples, samples, demo or
// benchmarks folder.
func IsExamplePath(p string) bool {
	return anyFolder(p, func(seg string) bool { return exampleDirs[seg] })
}

// fileFlags classifies a file as test, example, generated, vendored or
// minified.
func fileFlags(p string, src []byte, lang snapshot.Lang) snapshot.Flags {
	var f snapshot.Flags
	if IsTestPath(p) {
		f |= snapshot.FlagTest
	}
	if IsExamplePath(p) {
		f |= snapshot.FlagExample
	}
	lp := "/" + strings.ToLower(p)
	if strings.Contains(lp, "/vendor/") || strings.Contains(lp, "/third_party/") || strings.Contains(lp, "/node_modules/") {
		f |= snapshot.FlagVendored
	}
	if strings.Contains(lp, ".min.") || strings.Contains(lp, ".bundle.") {
		f |= snapshot.FlagMinified
	} else if (lang == snapshot.LangJavaScript || lang == snapshot.LangTypeScript) && mostlyLongLines(src) {
		f |= snapshot.FlagMinified // minified or packed
	}
	head := src
	if len(head) > 2048 {
		head = head[:2048]
	}
	if bytes.Contains(head, []byte("Code generated")) && bytes.Contains(head, []byte("DO NOT EDIT")) ||
		bytes.Contains(head, []byte("@generated")) || bytes.Contains(head, []byte("<auto-generated")) ||
		bytes.Contains(head, []byte("autogenerated by")) || bytes.Contains(head, []byte("Generated by the protocol buffer compiler")) {
		f |= snapshot.FlagGenerated
	}
	if mockFile(p, f&snapshot.FlagTest != 0, head) {
		f |= snapshot.FlagMock // see roles.go
	}
	return f
}

// mostlyLongLines reports a file over 4 KB most of whose lines are over
// 300 bytes: what minifiers and bundlers write. One long line (a data
// literal, an embedded table) among ordinary code is not enough; nor is
// any line in the languages nobody minifies, which are not asked.
func mostlyLongLines(src []byte) bool {
	if len(src) <= 4096 {
		return false
	}
	lines, long := 0, 0
	for len(src) > 0 {
		n := bytes.IndexByte(src, '\n')
		if n < 0 {
			n = len(src)
		}
		if n > 300 {
			long++
		}
		if n > 0 {
			lines++
		}
		src = src[min(n+1, len(src)):]
	}
	return 2*long >= lines
}

// ReadMeta reads the repository file at rel (slash-separated, relative to
// the root) through fswalk.ReadMeta: a regular file inside the root, at
// most fswalk.MaxMetaFile bytes. Extractors read every manifest and other
// file they did not get from the walk (package.json, Cargo.toml, Gemfile,
// __init__.py) through it.
func (r *Repo) ReadMeta(rel string) ([]byte, error) {
	b, err := fswalk.ReadMeta(r.Root, filepath.Join(r.Root, filepath.FromSlash(rel)))
	r.deps.add(depRead, rel, readAnswer(b, err))
	if err == nil {
		r.deps.read(rel, b)
	}
	return b, err
}

// ReadDerived reads rel as ReadMeta does; but the answer an incremental
// build checks is d's key of the bytes, not the bytes: the caller takes
// from them only what the key holds.
func (r *Repo) ReadDerived(rel string, d *Derivation) ([]byte, error) {
	b, err := fswalk.ReadMeta(r.Root, filepath.Join(r.Root, filepath.FromSlash(rel)))
	if r.deps != nil {
		k := derivedKey(d, rel)
		r.deps.add(k.kind, k.path, derivedAnswer(d, b, err))
	}
	if err == nil {
		r.deps.read(rel, b)
	}
	return b, err
}
