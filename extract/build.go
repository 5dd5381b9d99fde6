package extract

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/internal/fswalk"
	"github.com/knowing-dev/knowing/snapshot"
)

// Options control a build.
type Options struct {
	Root        string
	MaxFileSize int64     // 0: 1 MiB
	Workers     int       // 0: all cores
	Progress    io.Writer // progress bar target (a terminal), or nil
	Warn        io.Writer // unreadable files and other warnings, or nil
	// ParseOnly parses every file and stops: no extraction, no graph. It
	// measures what tree-sitter alone costs on the same files and cores.
	ParseOnly bool
	// NodesDone, when not nil, is called once during resolving, when every
	// package, file and symbol node is in the graph with its final name,
	// qualified name, kind, file, signature and doc (the generated,
	// vendored and minified flags too); external nodes, edges and test
	// flags come after. It may start work that reads those fields, such as
	// snapshot.StartTextIndex, but must not keep the graph to read
	// anything else until Build returns.
	NodesDone func(*snapshot.Graph)
	// History bounds the git history read for history evidence (its
	// MaxCommits negative: none).
	History HistoryOptions
	// SkipUnchanged makes BuildIncremental stop after its checks, with a
	// nil graph and Stats.Unchanged, when the walk found exactly the
	// prior's files, each with its stat unchanged, and every answer
	// holds: the graph would be the prior build's. (Folder times and
	// files other than sources may still have changed.)
	SkipUnchanged bool
	// KeepOnError makes an incremental build keep the prior extraction
	// of a file that extracted without syntax errors before and now has
	// some, or can no longer be read, instead of the new one: a file
	// saved halfway through an edit keeps its symbols. The file keeps its
	// prior stamps, so the snapshot reports it stale; Stats.Kept lists
	// it. The graph then differs from a full build's.
	KeepOnError bool
}

// Stats summarise a build.
type Stats struct {
	Files       int
	Skipped     int
	TooLarge    int // source files skipped for being over MaxFileSize
	SourceBytes int64
	Symbols     int
	Nodes       int
	Edges       int
	ParseErrors int // files whose tree had syntax errors (kept anyway)
	Commits     int // commits of git history read (history.go)
	// FirstErrors locates the first syntax error of the first few files
	// with one, in walk order: "path:line".
	FirstErrors []string
	Elapsed     time.Duration
	// Phases of Elapsed: walking, parsing and extracting the files (on
	// all cores), then resolving names into the graph. Walk is the part
	// of Parse before the first file is parsed (with a prior build, the
	// checks of what it left too).
	Parse, Resolve, Walk time.Duration
	// Reused files kept a prior build's extraction; Parsed were parsed.
	Reused, Parsed int
	// Changed, Added and Removed compare the files with a prior build's:
	// bytes that differ, new paths, paths gone.
	Changed, Added, Removed int
	// Kept lists the files whose prior extraction was kept although they
	// changed (Options.KeepOnError), each "path:line" of its first syntax
	// error, or "path: unreadable".
	Kept []string
	// Unchanged: with Options.SkipUnchanged, nothing was built.
	Unchanged bool
	// Resolved: the prior build's resolution was reused (resolution.go).
	Resolved bool
	// Relanguages names the languages whose every file was parsed again
	// because an answer their extraction depends on changed, with the
	// first such change ("python: src/pkg/__init__.py").
	Relanguages []string
	// CPU time of the same phases, all threads (0 where unknown).
	ParseCPU, ResolveCPU time.Duration
}

// Build walks, parses and resolves the repository at opt.Root.
func Build(ctx context.Context, opt Options) (*snapshot.Graph, *Stats, error) {
	g, st, _, err := BuildIncremental(ctx, opt, nil)
	return g, st, err
}

// BuildIncremental is Build reusing what an earlier build of the same
// repository left (prior, from that build's BuildIncremental; nil builds
// everything): a file whose bytes are the ones prior extracted, in a
// language whose every question to the file system (see deps.go) still
// gets the answer prior recorded, keeps its extraction; the others are
// parsed. Resolving and the graph are whole, so the graph equals Build's
// on the same tree. It returns what this build leaves for the next one.
func BuildIncremental(ctx context.Context, opt Options, prior *Prior) (*snapshot.Graph, *Stats, *Prior, error) {
	start, cpu0 := time.Now(), ProcessCPU()
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("repository %s: %w", opt.Root, err)
	}
	if !st.IsDir() {
		return nil, nil, nil, fmt.Errorf("repository %s is not a directory", opt.Root)
	}
	if opt.MaxFileSize == 0 { // the limit the walk, the Prior and the stamps record
		opt.MaxFileSize = fswalk.DefaultMaxFileSize
	}
	head := gitHead(root) // read once: the dirty check, the history and Meta agree
	exts := map[string]bool{}
	for e := range byExt {
		exts[e] = true
	}
	var files []fswalk.File
	stats := &Stats{}
	repos := newRepoSet(root)
	wopt := fswalk.Options{MaxFileSize: opt.MaxFileSize, Exts: exts}
	if prior != nil && !opt.ParseOnly && prior.root == root {
		wopt.Known = prior.known // files seen before need no binary sniff
	}
	tree := &treeStamps{root: root, start: time.Now()}
	var dirty func() *bool
	if !opt.ParseOnly {
		// Parsing alone looks nothing up and records nothing.
		dirty = gitDirty(ctx, root, head)
		wopt.Listed = func(rel string, entries []fs.DirEntry) {
			repos.base.Listed(rel, entries)
			tree.listed(rel, entries)
		}
	}
	err = fswalk.Walk(root, wopt,
		func(f fswalk.File) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			files = append(files, f)
			return nil
		},
		func(s fswalk.Skipped) {
			if s.Reason == fswalk.ReasonIgnoreBudget {
				if opt.Warn != nil {
					fmt.Fprintf(opt.Warn, "knowing: the ignore patterns took too long to match (at %s); from there on, patterns with many stars no longer exclude files\n", s.Path)
				}
				return
			}
			stats.Skipped++
			if s.Reason == fswalk.ReasonTooLarge {
				stats.TooLarge++
			}
			if opt.Warn != nil && strings.HasPrefix(s.Reason, "unreadable") {
				fmt.Fprintf(opt.Warn, "knowing: skipped %s: %s\n", s.Path, s.Reason)
			}
		})
	if err != nil {
		return nil, nil, nil, err
	}
	if opt.ParseOnly {
		prior = nil
	}
	repos.base.countExts(files) // before any language's Repo is made
	plan := prior.plan(root, opt, files, repos)
	stats.Walk = time.Since(start)
	if opt.SkipUnchanged && plan.unchanged() {
		stats.Unchanged, stats.Reused, stats.Files = true, len(files), len(files)
		stats.Elapsed = time.Since(start)
		return nil, stats, prior, nil
	}
	// git reads the history while the files parse.
	var hist *history
	var histErr error
	histDone := make(chan struct{})
	if opt.ParseOnly {
		close(histDone)
	} else {
		go func() {
			defer close(histDone)
			hist, histErr = readHistory(ctx, root, head, opt.History)
		}()
	}
	parsed, errLines, perr := parseAll(ctx, repos, plan.parse, opt)
	<-histDone
	if perr == nil {
		// Canceled once the files were parsed, while git read the
		// history: the history is cut short, and so would the graph be.
		perr = ctx.Err()
	}
	if perr != nil {
		return nil, nil, nil, perr
	}
	results, next := plan.merge(parsed, errLines, opt, stats)
	if histErr != nil && opt.Warn != nil {
		fmt.Fprintf(opt.Warn, "knowing: git history left out: %v\n", histErr)
	}
	if hist != nil {
		stats.Commits = len(hist.commits)
	}
	attachHistory(hist, results)
	stats.Parse = time.Since(start)
	cpu1 := ProcessCPU()
	stats.ParseCPU = cpu1 - cpu0
	if opt.ParseOnly {
		stats.Files = len(results)
		stats.Elapsed = time.Since(start)
		return &snapshot.Graph{}, stats, nil, nil
	}
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "\r\033[Kresolving calls, imports and inheritance across %d files…", len(results))
	}
	g := next.resolve(prior, results, opt.NodesDone, stats)
	if opt.Progress != nil {
		fmt.Fprint(opt.Progress, "\r\033[K")
	}
	stats.Resolve = time.Since(start) - stats.Parse
	stats.ResolveCPU = ProcessCPU() - cpu1
	g.Meta.RepoRoot = root
	g.Meta.GitCommit = head
	g.Meta.GitDirty = dirty()
	g.Stamps = tree.stamps(g, opt.MaxFileSize, next.readFiles())
	next.walkStart = g.Stamps.WalkStart
	g.Meta.BuildTime = time.Now().UTC()
	g.Meta.Files = len(g.Files)
	g.Meta.Nodes = len(g.Nodes)
	g.Meta.Edges = len(g.Edges)
	g.Meta.SourceBytes = stats.SourceBytes
	stats.Files = len(results)
	stats.Nodes = len(g.Nodes)
	stats.Edges = len(g.Edges)
	for _, r := range results {
		stats.Symbols += len(r.Symbols)
	}
	stats.Elapsed = time.Since(start)
	return g, stats, next, nil
}

// ExtractFiles parses the given files (paths relative to root) and
// resolves them, without walking. Tests use it.
func ExtractFiles(root string, paths []string) (*snapshot.Graph, error) {
	var files []fswalk.File
	for _, p := range paths {
		abs := filepath.Join(root, filepath.FromSlash(p))
		st, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		files = append(files, fswalk.File{Path: p, Abs: abs, Size: st.Size()})
	}
	repos := newRepoSet(root)
	repos.base.countExts(files)
	results, _, err := parseAll(context.Background(), repos, files, Options{})
	if err != nil {
		return nil, err
	}
	return Resolve(compact(results)), nil
}

// compact drops the nil results (files not parsed).
func compact(results []*FileResult) []*FileResult {
	out := results[:0:0]
	for _, r := range results {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// parseAll parses and extracts files on opt.Workers goroutines, each
// with the Repo of its language. results[i] is files[i]'s (nil when it
// was not parsed: no language, unreadable), errLine[i] the line of its
// first syntax error (0: none).
func parseAll(ctx context.Context, repos *repoSet, files []fswalk.File, opt Options) (results []*FileResult, errLine []uint32, err error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results = make([]*FileResult, len(files))
	var next, done atomic.Int64
	errLine = make([]uint32, len(files))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	if opt.Progress != nil {
		go progress(opt.Progress, len(files), &done, stop)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parsers := map[string]*sitter.Parser{}
			var sc scratch
			defer func() {
				for _, p := range parsers {
					p.Close()
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				r, errAt := parseOne(repos, files[i], parsers, &sc, opt.Warn, opt.ParseOnly)
				results[i], errLine[i] = r, errAt
				if scribbleSource {
					clear(sc.src[:cap(sc.src)])
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	if opt.Progress != nil {
		fmt.Fprint(opt.Progress, "\r\033[K")
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return results, errLine, nil
}

func progress(w io.Writer, total int, done *atomic.Int64, stop chan struct{}) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			d := int(done.Load())
			const width = 30
			fill := 0
			if total > 0 {
				fill = d * width / total
			}
			fmt.Fprintf(w, "\r\033[Kparsing [%s%s] %d/%d files", strings.Repeat("#", fill), strings.Repeat(".", width-fill), d, total)
		}
	}
}

// parseOne parses and extracts one file. errLine is the line of its first
// syntax error, 0 if it has none.
func parseOne(repos *repoSet, f fswalk.File, parsers map[string]*sitter.Parser, sc *scratch, warn io.Writer, parseOnly bool) (r *FileResult, errLine uint32) {
	lang, ext := langOf(f.Path)
	if lang == nil {
		return nil, 0
	}
	repo := repos.of(lang.Lang)
	src, mtime, err := sc.read(f.Abs)
	if err != nil {
		if warn != nil {
			fmt.Fprintf(warn, "knowing: skipped %s: %v\n", f.Path, err)
		}
		return nil, 0
	}
	gname := lang.Grammars[ext]
	if lang.Pick != nil {
		if l, g := lang.Pick(repo, f.Path, src); l != nil {
			lang, gname = l, g
		}
	}
	p := parsers[gname]
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(grammar(gname)); err != nil {
			if warn != nil {
				fmt.Fprintf(warn, "knowing: grammar %s: %v\n", gname, err)
			}
			return nil, 0
		}
		parsers[gname] = p
	}
	tree := ParseSource(p, src)
	if tree == nil {
		return nil, 1
	}
	defer tree.Close()
	root := tree.RootNode()
	r = &FileResult{Path: f.Path, Lang: lang.Lang, Size: int64(len(src)), ModTime: mtime, Hash: snapshot.Fingerprint(src)}
	if parseOnly {
		return r, firstErrorLine(root)
	}
	r.Flags = fileFlags(f.Path, src, lang.Lang)
	sc.lend(r)
	defer sc.settle(r)
	func() {
		defer func() {
			// An extractor bug on one odd file must not fail the build.
			if e := recover(); e != nil {
				if warn != nil {
					fmt.Fprintf(warn, "knowing: extractor failed on %s: %v\n", f.Path, e)
				}
				r.Symbols, r.Refs, r.Imports, r.Includes = nil, nil, nil, nil
			}
		}()
		lang.Extract(&File{Path: f.Path, Src: src, Root: root, Repo: repo}, r)
	}()
	addBodyWords(r, src)
	if n := capNesting(r, MaxNesting); n > 0 && warn != nil {
		fmt.Fprintf(warn, "knowing: %s: left out %d symbols nested more than %d deep\n", f.Path, n, MaxNesting)
	}
	return r, firstErrorLine(root)
}

// maxFirstErrors is how many files Stats.FirstErrors locates.
const maxFirstErrors = 3

// firstErrorLine returns the 1-based line of the first ERROR or MISSING
// node under root, 0 if the tree has none.
func firstErrorLine(root *sitter.Node) uint32 {
	if !root.HasError() {
		return 0
	}
	n := root
	for {
		if n.IsError() || n.IsMissing() {
			break
		}
		var next *sitter.Node
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c.HasError() {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return uint32(n.StartPosition().Row) + 1
}

// scratch holds a parse worker's buffers for the symbols and references
// of the file at hand. Extractors append to them; the file then keeps a
// copy of exactly its length. Appending to fresh slices instead cost the
// Go standard library's build 0.5 s of CPU in growing and zeroing them,
// and the slack of their doubling stayed on the heap until resolve.
type scratch struct {
	syms []Symbol
	refs []Ref
	src  []byte // the file at hand; what extraction keeps is copied out
}

// read reads the file at path into sc.src, which it reuses from file to
// file: a fresh buffer for every file was, with the collector deferred,
// as many fresh pages as the repository has source bytes. mtime is the
// file's modification time (nanoseconds since the Unix epoch) seen just
// before the read.
func (sc *scratch) read(path string) (b []byte, mtime int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if need := int(min(st.Size(), 1<<30)) + 1; cap(sc.src) < need {
		sc.src = make([]byte, 0, need)
	}
	buf, err := fswalk.ReadRest(f, sc.src[:0])
	if err != nil {
		return nil, 0, err
	}
	sc.src = buf[:0]
	return buf, st.ModTime().UnixNano(), nil
}

// scribbleSource makes workers overwrite their read buffer after each
// file, so a test can show that no result refers to it.
var scribbleSource = false

// lend gives r the buffers.
func (sc *scratch) lend(r *FileResult) {
	r.Symbols, r.Refs = sc.syms[:0], sc.refs[:0]
}

// settle takes the buffers back, grown as the extractor left them, and
// gives r exact copies. The buffers are not cleared: the next file
// overwrites them, and what they hold of this one until then dies with
// the worker.
func (sc *scratch) settle(r *FileResult) {
	if cap(r.Symbols) > cap(sc.syms) {
		sc.syms = r.Symbols[:0]
	}
	if cap(r.Refs) > cap(sc.refs) {
		sc.refs = r.Refs[:0]
	}
	r.Symbols, r.Refs = exact(r.Symbols), exact(r.Refs)
}

// exact copies s into a slice of its length, nil when empty.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
