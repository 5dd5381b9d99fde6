// Package fswalk finds the source files of a repository: it walks a folder
// tree in lexical path order, honouring .gitignore files (and
// .git/info/exclude), skipping dependency and tool folders, large files,
// binary files and unreadable entries, and surviving symlink loops.
//
// It imports only the standard library and internal/fileread, and nothing
// in it knows a language: package extract walks with it to build, and the
// snapshot package, on the reader side, to tell whether a snapshot is
// still fresh.
package fswalk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// DefaultMaxFileSize is the size limit used when Options.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// SniffSize is how many leading bytes IsBinary looks at.
const SniffSize = 8 << 10

// DefaultSkipDirs are the folder names skipped when Options.SkipDirs is nil.
// "build" and "dist" also name real Go packages (go/build, cmd/dist); a
// folder of build output never holds Go sources, so such a folder is
// entered when it has a .go file at its top level (see isGoPackage).
var DefaultSkipDirs = []string{".git", ".hg", ".svn", "vendor", "node_modules", "dist", "build", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".idea", ".vscode", "bower_components"}

// Reasons given in Skipped.Reason. Unreadable entries get
// ReasonUnreadable followed by the error, e.g. "unreadable: permission denied".
const (
	ReasonIgnored     = "ignored"              // excluded by .gitignore or .git/info/exclude
	ReasonSkipDir     = "skipped folder"       // base name in SkipDirs
	ReasonTooLarge    = "too large"            // over MaxFileSize
	ReasonBinary      = "binary"               // NUL byte in the first SniffSize bytes
	ReasonUnreadable  = "unreadable: "         // prefix; the error follows, e.g. "permission denied"
	ReasonSymlinkLoop = "symlink loop"         // symlink that resolves to itself or to a folder being walked
	ReasonSymlinkDir  = "symlink to directory" // not entered unless FollowSymlinks
	ReasonOutsideRoot = "symlink outside root" // symlinked file resolving outside the root
	ReasonBrokenLink  = "broken symlink"       // symlink to nothing
	ReasonNotRegular  = "not a regular file"   // device, FIFO, socket...
	// ReasonIgnoreBudget is reported once, for the path at which the
	// ignore patterns' steps ran out (MatchBudget): from there on, glob
	// matches that need many steps count as no match, and the path itself
	// was walked, not skipped.
	ReasonIgnoreBudget = "ignore patterns too costly"
)

// ErrNotDir is wrapped by the error Walk returns when root is not a
// directory.
var ErrNotDir = errors.New("not a directory")

// Options tunes Walk. The zero value is ready to use.
type Options struct {
	// MaxFileSize: files larger are skipped ("too large"); 0 means
	// DefaultMaxFileSize, a negative value means no limit.
	MaxFileSize int64
	// SkipDirs are folder base names never entered; nil means
	// DefaultSkipDirs. A ".git" folder is never entered in any case.
	SkipDirs []string
	// Exts are the lower-case extensions to keep (".go", ".py"); nil keeps
	// every file. Files with other extensions are dropped silently: they
	// are not reported as skipped.
	Exts map[string]bool
	// FollowSymlinks enters symlinked folders (a folder already being
	// walked is reported as a "symlink loop"). By default they are
	// reported as "symlink to directory" and not entered; symlinked files
	// are kept when they resolve inside the root, in either mode.
	FollowSymlinks bool
	// KeepHead makes each File carry the bytes read for the binary sniff
	// (up to SniffSize), so File.ReadContent need not reread them and for
	// files smaller than SniffSize need not open the file again. It costs
	// up to SniffSize bytes of memory per kept File for as long as the
	// caller holds it.
	KeepHead bool
	// Listed, when set, receives every folder's entries as read, before
	// any of them is filtered (rel is "" for the root), on the walking
	// goroutine. Callers that look up project files (go.mod, __init__.py)
	// can answer from these listings instead of asking the file system
	// again. A folder that could not be read whole is not passed.
	Listed func(rel string, entries []fs.DirEntry)
	// Known, when set, is asked about each regular file (not a symlink)
	// with its size and modification time (nanoseconds since the Unix
	// epoch) from a stat call; a file it knows is kept as it is, without
	// being opened for the binary sniff: a caller that saw the same file
	// before (an incremental build) saves three system calls a file.
	Known func(rel string, size, modTime int64) bool
}

// File is a kept source file.
type File struct {
	Path string // slash-separated, relative to the root
	Abs  string // absolute path on disk
	Size int64  // bytes, as seen by the walk
	// ModTime is the file's modification time, in nanoseconds since the
	// Unix epoch, as the walk saw it (from the open file, before its
	// first bytes were read).
	ModTime int64

	head     []byte // sniffed leading bytes, with Options.KeepHead
	complete bool   // head is the whole file
}

// Head returns the leading bytes read by the binary sniff (at most
// SniffSize), or nil unless the walk ran with Options.KeepHead.
func (f File) Head() []byte { return f.head }

// ReadContent returns the file's content. With Options.KeepHead it reuses
// the sniffed bytes: a file smaller than SniffSize is returned without
// touching the disk again, and a larger one is read from where the sniff
// stopped. Otherwise it reads the whole file.
func (f File) ReadContent() ([]byte, error) {
	if f.complete {
		return f.head, nil
	}
	if f.head == nil {
		return os.ReadFile(f.Abs)
	}
	fh, err := os.Open(f.Abs)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if _, err := fh.Seek(int64(len(f.head)), io.SeekStart); err != nil {
		return nil, err
	}
	n := int(f.Size) + 1
	if n < len(f.head)+512 {
		n = len(f.head) + 512
	}
	buf := make([]byte, len(f.head), n)
	copy(buf, f.head)
	return ReadRest(fh, buf)
}

// ReadRest appends what is left of f to buf and returns it. buf's spare
// capacity is used first (one byte past the file's size lets a full read
// see EOF at once); it grows only if the file is longer.
func ReadRest(f *os.File, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Skipped is an entry the walk left out.
type Skipped struct {
	Path   string // slash-separated, relative to the root
	Reason string // one of the Reason constants; "unreadable: …" carries the error
	Dir    bool   // the entry is a folder (nothing below it was visited)
}

// IsBinary reports whether data looks binary: a NUL byte in its first
// SniffSize bytes (git's heuristic).
func IsBinary(head []byte) bool {
	if len(head) > SniffSize {
		head = head[:SniffSize]
	}
	return bytes.IndexByte(head, 0) >= 0
}

// Walk walks the folder tree at root and calls fn for each kept file, in
// lexical order of File.Path (byte-wise string order of the full relative
// paths), and skip (which may be nil) for each entry left out: ignored by
// .gitignore rules, a SkipDirs folder, too large, binary, unreadable, a
// symlinked folder not followed, a symlink loop. Entries inside a skipped
// folder and files whose extension is not in Exts are not reported.
//
// The .gitignore of every folder walked applies to the paths below it, and
// root/.git/info/exclude, if present, to the whole tree (gitignore files
// above root and the user's global excludes file are not read). Only the
// first SniffSize bytes of a file are read, to detect binaries.
//
// Unreadable folders and files are reported through skip and the walk
// carries on. Walk returns an error only when root cannot be read or is not
// a directory, or when fn returns one: the walk then stops and returns it,
// except fs.SkipAll, which stops it and returns nil, and fs.SkipDir, which
// skips the rest of the current file's folder.
func Walk(root string, opt Options, fn func(File) error, skip func(Skipped)) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("fswalk: root %q: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("fswalk: root %q: %w", root, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("fswalk: root %q: %w", root, ErrNotDir)
	}
	w := &walker{
		given: root,
		root:  abs,
		opt:   opt,
		fn:    fn,
		skip:  skip,
		match: budget{left: walkBudget},
	}
	if w.opt.MaxFileSize == 0 {
		w.opt.MaxFileSize = DefaultMaxFileSize
	}
	w.skipDirs = skipSet(opt.SkipDirs)
	if w.opt.FollowSymlinks {
		w.ancestors = []ancestor{{abs: abs, info: st}}
	}
	var sets []*ruleSet
	if data, err := ReadMeta(abs, filepath.Join(abs, ".git", "info", "exclude")); err == nil {
		if rs := parseRules("", data); rs != nil {
			sets = append(sets, rs)
		}
	}
	err = w.walkDir(abs, "", sets, true)
	if err == fs.SkipAll || err == fs.SkipDir {
		err = nil
	}
	return err
}

// outputDirs are skip folders that usually hold build output but may be a
// Go package of that name.
var outputDirs = map[string]bool{"build": true, "dist": true}

// skipSet is the set of folder names a walk skips by name: names (nil:
// DefaultSkipDirs), and .git always.
func skipSet(names []string) map[string]bool {
	if names == nil {
		names = DefaultSkipDirs
	}
	set := map[string]bool{".git": true}
	for _, d := range names {
		set[d] = true
	}
	return set
}

// skipsFolder reports whether a walk skipping the names in skip skips the
// folder named name; goPackage, asked only of an output folder's name,
// says whether it is a Go package (then it is entered).
func skipsFolder(skip map[string]bool, name string, goPackage func() bool) bool {
	return skip[name] && !(outputDirs[name] && goPackage())
}

// isGoPackage reports a folder with a .go file directly in it.
func isGoPackage(abs string) bool {
	ents, err := os.ReadDir(abs)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

type walker struct {
	given     string // root as passed to Walk, for messages
	root      string // absolute
	realRoot  string // root with symlinks resolved, computed on first need
	realErr   error
	opt       Options
	skipDirs  map[string]bool
	fn        func(File) error
	skip      func(Skipped)
	buf       [SniffSize]byte
	ancestors []ancestor // folders on the current path, with FollowSymlinks
	followed  int        // symlinked folders on the current path
	match     budget     // steps left for ignore patterns (MatchBudget)
	// shallow lists one folder: the subfolders the walk would enter are
	// passed to subdir instead of being walked (see Lister).
	shallow bool
	subdir  func(rel string)
	omit    func(rel string) bool // files left out unseen (Lister.Omit)
}

// walkBudget is MatchBudget, a variable for the tests.
var walkBudget int64 = MatchBudget

// ignored reports whether the ignore rules exclude rel, and the first
// time the patterns' budget runs out, reports that through skip.
func (w *walker) ignored(sets []*ruleSet, rel string, isDir bool) bool {
	spent := w.match.spent
	ig := matchSets(sets, rel, isDir, &w.match)
	if w.match.spent && !spent && w.skip != nil {
		w.skip(Skipped{Path: rel, Reason: ReasonIgnoreBudget})
	}
	return ig
}

type ancestor struct {
	abs  string
	info fs.FileInfo // nil until needed
}

// item is a directory entry prepared for sorting and processing.
type item struct {
	name string
	key  string // name, plus "/" for folders: sorts like the full paths
	dir  bool
	link bool        // a symlink (resolved into dir / info)
	info fs.FileInfo // target of a symlink
	err  error       // why a symlink could not be resolved
	mode fs.FileMode // type bits of a non-symlink
}

func (w *walker) report(rel, reason string, dir bool) {
	if w.skip != nil {
		w.skip(Skipped{Path: rel, Reason: reason, Dir: dir})
	}
}

// join appends name to the slash-separated relative path dir.
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// walkDir walks the folder abs (rel relative to the root; "" for the
// root) whose applicable rule sets, in precedence order, are sets.
func (w *walker) walkDir(abs, rel string, sets []*ruleSet, isRoot bool) error {
	entries, err := os.ReadDir(abs)
	if err != nil {
		if isRoot {
			return fmt.Errorf("fswalk: root %q: %w", w.given, unwrapPath(err))
		}
		w.report(rel, unreadable(err), true)
		if len(entries) == 0 {
			return nil
		}
	} else if w.opt.Listed != nil {
		w.opt.Listed(rel, entries)
	}

	items := make([]item, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		t := e.Type()
		if name == ".gitignore" && t.IsRegular() {
			data, err := ReadMeta(abs, abs+string(os.PathSeparator)+name)
			if err != nil {
				w.report(join(rel, name), unreadable(err), false)
			} else if rs := parseRules(rel, data); rs != nil {
				sets = append(sets[:len(sets):len(sets)], rs)
			}
		}
		it := item{name: name, key: name, mode: t}
		switch {
		case t.IsDir():
			it.dir = true
		case t&fs.ModeSymlink != 0:
			it.link = true
			info, err := os.Stat(abs + string(os.PathSeparator) + name)
			if err != nil {
				it.err = err // reported when the entry is reached in order
				break
			}
			it.info = info
			it.dir = info.IsDir()
		default:
			if w.opt.Exts != nil && !w.opt.Exts[lowerExt(name)] {
				continue
			}
		}
		if it.dir {
			it.key = name + "/"
		}
		items = append(items, it)
	}
	// os.ReadDir sorts by name; sorting folders as "name/" makes the
	// output follow the lexical order of the full paths ("a-b/x" < "a/x").
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })

	for i := range items {
		it := &items[i]
		childAbs := abs + string(os.PathSeparator) + it.name
		childRel := join(rel, it.name)
		if it.dir {
			if err := w.visitDir(it, childAbs, childRel, sets); err != nil {
				return err
			}
			continue
		}
		if err := w.visitFile(it, childAbs, childRel, sets); err != nil {
			if err == fs.SkipDir {
				return nil
			}
			return err
		}
	}
	return nil
}

func (w *walker) visitDir(it *item, abs, rel string, sets []*ruleSet) error {
	if w.shallow {
		if w.enters(it, abs, rel, sets) {
			w.subdir(rel)
		}
		return nil
	}
	if skipsFolder(w.skipDirs, it.name, func() bool { return isGoPackage(abs) }) {
		w.report(rel, ReasonSkipDir, true)
		return nil
	}
	if len(sets) > 0 && w.ignored(sets, rel, true) {
		w.report(rel, ReasonIgnored, true)
		return nil
	}
	if it.link && !w.opt.FollowSymlinks {
		w.report(rel, ReasonSymlinkDir, true)
		return nil
	}
	if w.opt.FollowSymlinks {
		// Once a symlink has been followed, even a plain folder may be
		// one the walk is already inside.
		info := it.info
		if info == nil && (it.link || w.followed > 0) {
			st, err := os.Stat(abs)
			if err != nil {
				w.report(rel, unreadable(err), true)
				return nil
			}
			info = st
		}
		if info != nil && w.onPath(info) {
			w.report(rel, ReasonSymlinkLoop, true)
			return nil
		}
		if it.link {
			w.followed++
			defer func() { w.followed-- }()
		}
		w.ancestors = append(w.ancestors, ancestor{abs: abs, info: info})
		defer func() { w.ancestors = w.ancestors[:len(w.ancestors)-1] }()
	}
	return w.walkDir(abs, rel, sets, false)
}

// enters reports whether the walk, not following symlinks, would enter
// the folder it (abs, rel), reporting it as visitDir does when it would
// not.
func (w *walker) enters(it *item, abs, rel string, sets []*ruleSet) bool {
	switch {
	case skipsFolder(w.skipDirs, it.name, func() bool { return isGoPackage(abs) }):
		w.report(rel, ReasonSkipDir, true)
	case len(sets) > 0 && w.ignored(sets, rel, true):
		w.report(rel, ReasonIgnored, true)
	case it.link:
		w.report(rel, ReasonSymlinkDir, true)
	default:
		return true
	}
	return false
}

// onPath reports whether the folder info is one of the folders being
// walked (the root and the folders leading to the current one).
func (w *walker) onPath(info fs.FileInfo) bool {
	for i := range w.ancestors {
		a := &w.ancestors[i]
		if a.info == nil {
			st, err := os.Stat(a.abs)
			if err != nil {
				continue
			}
			a.info = st
		}
		if os.SameFile(a.info, info) {
			return true
		}
	}
	return false
}

func (w *walker) visitFile(it *item, abs, rel string, sets []*ruleSet) error {
	if it.name == ".git" { // a gitfile (worktree or submodule link)
		return nil
	}
	if w.opt.Exts != nil && !w.opt.Exts[lowerExt(it.name)] {
		return nil
	}
	if w.omit != nil && w.omit(rel) {
		return nil
	}
	if len(sets) > 0 && w.ignored(sets, rel, false) {
		w.report(rel, ReasonIgnored, false)
		return nil
	}
	if it.link {
		if err := it.err; err != nil {
			switch {
			case isLoop(err):
				w.report(rel, ReasonSymlinkLoop, false)
			case errors.Is(err, fs.ErrNotExist):
				w.report(rel, ReasonBrokenLink, false)
			default:
				w.report(rel, unreadable(err), false)
			}
			return nil
		}
		if !it.info.Mode().IsRegular() {
			w.report(rel, ReasonNotRegular, false)
			return nil
		}
		if !w.inRoot(abs) {
			w.report(rel, ReasonOutsideRoot, false)
			return nil
		}
	} else if !it.mode.IsRegular() {
		w.report(rel, ReasonNotRegular, false)
		return nil
	} else if w.opt.Known != nil && !w.opt.KeepHead {
		if st, err := os.Lstat(abs); err == nil && st.Mode().IsRegular() && (w.opt.MaxFileSize <= 0 || st.Size() <= w.opt.MaxFileSize) &&
			w.opt.Known(rel, st.Size(), st.ModTime().UnixNano()) {
			return w.fn(File{Path: rel, Abs: abs, Size: st.Size(), ModTime: st.ModTime().UnixNano()})
		}
	}

	f, err := os.Open(abs)
	if err != nil {
		w.report(rel, unreadable(err), false)
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		w.report(rel, unreadable(err), false)
		return nil
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		f.Close()
		w.report(rel, ReasonNotRegular, false)
		return nil
	}
	if w.opt.MaxFileSize > 0 && size > w.opt.MaxFileSize {
		f.Close()
		w.report(rel, ReasonTooLarge, false)
		return nil
	}
	// Read the head straight into a buffer of its own when the caller keeps
	// it, so small files are read once and never copied.
	buf := w.buf[:]
	if w.opt.KeepHead && size < SniffSize {
		buf = make([]byte, size+1)
	}
	n, eof, err := readHead(f, buf)
	f.Close()
	if err != nil {
		w.report(rel, unreadable(err), false)
		return nil
	}
	head := buf[:n]
	if IsBinary(head) {
		w.report(rel, ReasonBinary, false)
		return nil
	}
	file := File{Path: rel, Abs: abs, Size: size, ModTime: st.ModTime().UnixNano()}
	if w.opt.KeepHead {
		if &buf[0] == &w.buf[0] {
			head = bytes.Clone(head)
		}
		file.head, file.complete = head, eof
		if eof {
			file.Size = int64(n)
		}
	}
	return w.fn(file)
}

// readHead fills buf from f; eof reports that the whole file was read.
func readHead(f *os.File, buf []byte) (n int, eof bool, err error) {
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return n, true, nil
		}
		if err != nil {
			return n, false, err
		}
		if m == 0 {
			return n, false, io.ErrNoProgress
		}
	}
	return n, false, nil
}

// inRoot reports whether the symlink at abs resolves inside the root.
func (w *walker) inRoot(abs string) bool {
	if w.realRoot == "" && w.realErr == nil {
		w.realRoot, w.realErr = filepath.EvalSymlinks(w.root)
	}
	if w.realErr != nil {
		return false
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false
	}
	if target == w.realRoot {
		return true
	}
	prefix := w.realRoot
	if !strings.HasSuffix(prefix, string(os.PathSeparator)) {
		prefix += string(os.PathSeparator)
	}
	return strings.HasPrefix(target, prefix)
}

func lowerExt(name string) string {
	ext := path.Ext(name)
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(ext)
		}
	}
	return ext
}

func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP)
}

// unwrapPath drops the *PathError wrapper (whose message repeats the
// path) but keeps the underlying error for errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func unreadable(err error) string {
	return ReasonUnreadable + unwrapPath(err).Error()
}

// InSkippedFolder reports whether rel, a slash-separated path below a
// walk's root, lies in a folder Walk skips by name with DefaultSkipDirs:
// what a build never reads whatever its .gitignore says. A Go file in a
// build or dist folder counts as read (such a folder is entered when it
// is a Go package, which a path alone cannot tell).
func InSkippedFolder(rel string) bool {
	goFile := func() bool { return strings.HasSuffix(rel, ".go") }
	for d := range strings.SplitSeq(path.Dir(rel), "/") {
		if skipsFolder(defaultSkip, d, goFile) {
			return true
		}
	}
	return false
}

// defaultSkip is skipSet(nil).
var defaultSkip = skipSet(nil)
