//go:build cgo

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

const buildHelp = `Usage: knowing build [--repo DIR] OUT.snap

Parses every supported source file under DIR (Go, Python, JavaScript,
TypeScript, Rust, Java, C#, Ruby, C, C++), honouring .gitignore and skipping
vendor/, node_modules/, binary and oversized files, and writes the code
graph to OUT.snap atomically. On a terminal a progress bar shows on stderr;
one summary line closes the build. With --json the summary goes to stdout
as one JSON object instead:

  {"snapshot", "repo", "files", "skipped", "source_bytes", "nodes",
   "edges", "snapshot_bytes", "seconds", "phases": {"parse", "resolve",
   "write"} (seconds), "syntax_error_files", "first_syntax_errors",
   "commits"}

With --parse-only, "snapshot" is empty and nothing is written.

In a git work tree, build also reads the repository's recent history
(git log, at most --history-commits commits, merges left out): the
subjects of the commits that changed a symbol become searchable with it,
and symbols changed together in two or more small commits get a
co_change edge. Without git, or with --no-history, nothing of this is
read and the snapshot is the same as for a plain folder. The JSON
summary's "commits" says how many commits were read.

A build is incremental when OUT is a snapshot of the same repository and
the build that wrote it left its extraction in the user's cache folder
(knowing/prior/): the files whose bytes are unchanged keep their
extraction, unless something their language's extraction read changed
(a go.mod, a package.json, a module another file imports: then that
language's files are all parsed again); only changed and new files are
parsed, and the graph is resolved whole (unless the prior resolution
serves); the sections of OUT whose inputs are unchanged are copied. The snapshot equals a full build's.
--full parses everything. The summary of an incremental build adds
  "incremental": {"reused", "parsed", "reparsed_languages", "sections_copied",
   "resolution_reused"}
(the groups of sections copied from OUT, whose inputs did not change;
whether the prior build's resolution served, no file's names,
references or imports having changed).

The folder of extractions is bounded: after each build, entries unused
for 30 days go, then the least recently used until it is within
KNOWING_CACHE_LIMIT (1GB by default; 500MB, 2GB...); the one just kept
stays, however large. KNOWING_CACHE_LIMIT=0 keeps none: every build
parses every file.

An existing OUT is replaced only when it is a knowing snapshot: build
refuses to write over any other file (a source file named by mistake, a
link, a FIFO, a device). --force replaces a regular file of any content;
it never replaces anything but a regular file.

Flags:
`

func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	repo := fs.String("repo", ".", "repository `folder` to index")
	maxSize := fs.Int64("max-file-size", 1<<20, "skip source files larger than this many `bytes`")
	workers := fs.Int("workers", 0, "parser goroutines (0: one per core)")
	quiet := fs.Bool("quiet", false, "no progress and no summary")
	parseOnly := fs.Bool("parse-only", false, "measure: parse every file with tree-sitter and stop (writes nothing)")
	timings := fs.Bool("timings", false, "print how long each phase took (parse, resolve, write)")
	asJSON := fs.Bool("json", false, "print the summary to stdout as JSON (see above)")
	noHistory := fs.Bool("no-history", false, "read no git history (see above)")
	histCommits := fs.Int("history-commits", extract.DefaultHistoryCommits, "read at most this many `commits` of git history, newest first")
	histSince := fs.Duration("history-since", 0, "leave out commits older than this `age` (e.g. 8760h for a year; 0: no limit)")
	force := fs.Bool("force", false, "replace OUT even when it is a regular file that is not a knowing snapshot")
	full := fs.Bool("full", false, "parse every file, reusing nothing of the build that wrote OUT")
	pos, err := parse(fs, args, buildHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) == 2 && !isFlagSet(fs, "repo") {
		if st, err := os.Stat(pos[0]); err == nil && st.IsDir() {
			return usagef("the repository is given with --repo: knowing build --repo %s %s", pos[0], pos[1])
		}
	}
	if len(pos) != 1 {
		return usagef("want exactly one output path, e.g. knowing build --repo . repo.snap (got %d arguments)", len(pos))
	}
	out := pos[0]
	if err := checkRepo(*repo); err != nil {
		return err
	}
	cacheLimit, err := priorCacheLimit()
	if err != nil {
		return err
	}
	if !*parseOnly {
		if err := checkWritable(out, *force); err != nil {
			return err
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	gcDeferred := deferGC(gcDeferLimit)
	opt := extract.Options{Root: *repo, MaxFileSize: *maxSize, Workers: *workers, Warn: stderr, ParseOnly: *parseOnly,
		History: extract.HistoryOptions{MaxCommits: *histCommits, Since: *histSince}}
	if *noHistory || *histCommits <= 0 {
		opt.History.MaxCommits = -1
	}
	// The BM25 index, the write's longest part, is tokenized while the
	// resolver works out the edges: resolving leaves a core idle. Only
	// while the collector is deferred: on a larger heap the index's memory
	// stays live through resolving, and the collections it adds cost what
	// the overlap saves (the Go standard library: peak RSS +170 MB for no
	// gain in time).
	var text *snapshot.TextIndex
	var reuse *snapshot.Reuse // the sections of OUT an incremental build may copy
	opt.NodesDone = func(g *snapshot.Graph) {
		if gcDeferred() && reuse == nil {
			text = snapshot.StartTextIndex(g, nil)
		}
	}
	if f, ok := stderr.(*os.File); ok && isTerminal(f) && !*quiet {
		opt.Progress = stderr
	}
	start := time.Now()
	var prior *extract.Prior
	why := "--full"
	if !*full && !*parseOnly {
		prior, why = loadPrior(out, *repo)
		if prior != nil {
			reuse = openReuse(out)
		}
	}
	defer reuse.Close()
	loaded := time.Since(start)
	g, st, next, err := extract.BuildIncremental(ctx, opt, prior)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted before writing %s", out)
	}
	if err != nil {
		return err
	}
	if st.Files == 0 && st.TooLarge > 0 {
		return fmt.Errorf("no source files small enough in %s: %d are larger than --max-file-size (%s); raise it, e.g. --max-file-size %d", *repo, st.TooLarge, humanBytes(*maxSize), 4**maxSize)
	}
	if st.Files == 0 {
		return fmt.Errorf("no source files found in %s (knowing reads %s)", *repo, strings.Join(extract.Extensions(), " "))
	}
	sum := buildSummary{Repo: *repo, Files: st.Files, Skipped: st.Skipped, SourceBytes: st.SourceBytes,
		SyntaxErrorFiles: st.ParseErrors, FirstSyntaxErrors: append([]string{}, st.FirstErrors...), Commits: st.Commits}
	if prior != nil {
		sum.Incremental = &incrementalSummary{Reused: st.Reused, Parsed: st.Parsed, Relanguages: append([]string{}, st.Relanguages...), Resolved: st.Resolved}
	}

	sum.Phases.Parse, sum.Phases.Resolve = st.Parse.Seconds(), st.Resolve.Seconds()
	if *parseOnly {
		if *asJSON {
			sum.Seconds = st.Elapsed.Seconds()
			return writeJSON(stdout, sum)
		}
		fmt.Fprintf(stderr, "parsed %d files (%s) in %.2fs; nothing written\n", st.Files, humanBytes(st.SourceBytes), st.Elapsed.Seconds())
		return nil
	}
	g.Meta.ToolVersion = version
	// What resolving left behind (the parsed files, its indexes) is
	// garbage now: collecting it before the write lets the write reuse
	// that memory instead of faulting in fresh pages, which costs more
	// than the collection (−0.1 s and −100 MB on the Go standard library).
	// A heap still under gcDeferLimit is not worth a collection.
	if !gcDeferred() {
		runtime.GC()
	}
	wstart, wcpu := time.Now(), extract.ProcessCPU()
	// The extraction is kept for the next build while the snapshot is
	// written, on the other core: the two are independent (the next
	// build checks the snapshot it copies sections from against the
	// memo written after it, not against the prior).
	kept := make(chan error, 1)
	go func() { kept <- savePrior(out, next, cacheLimit) }()
	defer func() {
		if kept != nil {
			<-kept
		}
	}()
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "\r\033[Kwriting %d symbols and %d edges to %s…", len(g.Nodes), len(g.Edges), out)
	}
	memo := &snapshot.Memo{}
	err = snapshot.Write(out, g, &snapshot.WriteOptions{Text: text, Reuse: reuse, Memo: memo})
	if opt.Progress != nil {
		fmt.Fprint(opt.Progress, "\r\033[K")
	}
	if err != nil {
		return err
	}
	// The writer computed every checksum from the bytes it wrote: the
	// first query need not check them again (see snapshot.OpenChecked).
	snapshot.MarkChecked(out)
	wall := time.Since(wstart)
	pstart := time.Now()
	if err := saveMemo(out, memo, cacheLimit); err != nil {
		dropPrior(out)
	}
	err = <-kept
	kept = nil
	if err != nil {
		dropPrior(out)
		fmt.Fprintf(stderr, "knowing: could not keep this build's extraction for the next one (%v); the next build of %s parses everything\n", err, out)
	}
	if *timings {
		wcpu = extract.ProcessCPU() - wcpu
		fmt.Fprintf(stderr, "timings (wall/cpu): walk+parse+extract %.3fs/%.3fs (walk and checks %.3fs), resolve %.3fs/%.3fs, write %.3fs, keep the extraction %.3fs, write+keep %.3fs cpu, total %.3fs/%.3fs\n",
			st.Parse.Seconds(), st.ParseCPU.Seconds(), st.Walk.Seconds(), st.Resolve.Seconds(), st.ResolveCPU.Seconds(),
			wall.Seconds(), time.Since(pstart).Seconds(), wcpu.Seconds(), time.Since(start).Seconds(), (st.ParseCPU + st.ResolveCPU + wcpu).Seconds())
		if prior != nil {
			fmt.Fprintf(stderr, "incremental: the prior build read in %.3fs; %d files parsed, %d reused; resolution reused: %v; sections copied: %s", loaded.Seconds(), st.Parsed, st.Reused, st.Resolved, strings.Join(reuse.Reused(), " "))
			if len(st.Relanguages) > 0 {
				fmt.Fprintf(stderr, "; parsed again: %s", strings.Join(st.Relanguages, "; "))
			}
			fmt.Fprintln(stderr)
		} else {
			fmt.Fprintf(stderr, "full build: %s\n", why)
		}
	}
	if sum.Incremental != nil {
		sum.Incremental.Copied = reuse.Reused()
	}
	info, err := os.Stat(out)
	if err != nil {
		return err
	}
	if *asJSON {
		sum.Snapshot, sum.SnapshotBytes = out, info.Size()
		sum.Nodes, sum.Edges = len(g.Nodes), len(g.Edges)
		sum.Seconds, sum.Phases.Write = time.Since(start).Seconds(), wall.Seconds()
		return writeJSON(stdout, sum)
	}
	if !*quiet {
		inc := ""
		if prior != nil {
			inc = fmt.Sprintf(" (incremental: %d parsed, %d reused)", st.Parsed, st.Reused)
		}
		fmt.Fprintf(stderr, "built %s: %d files, %d symbols, %d edges in %.1fs%s; snapshot %s for %s of source\n",
			out, st.Files, len(g.Nodes), len(g.Edges), time.Since(start).Seconds(), inc, humanBytes(info.Size()), humanBytes(st.SourceBytes))
		if st.ParseErrors > 0 {
			more := ""
			if st.ParseErrors > len(st.FirstErrors) {
				more = ", …"
			}
			fmt.Fprintf(stderr, "note: %d files had syntax errors, e.g. at %s%s; what parsed was kept\n",
				st.ParseErrors, strings.Join(st.FirstErrors, ", "), more)
		}
	}
	return nil
}

// buildSummary is build's --json output.
type buildSummary struct {
	Snapshot      string  `json:"snapshot"` // "" with --parse-only
	Repo          string  `json:"repo"`
	Files         int     `json:"files"`
	Commits       int     `json:"commits"` // git history commits read
	Skipped       int     `json:"skipped"` // walk entries left out: ignored, skipped folders, too large, binary, unreadable
	SourceBytes   int64   `json:"source_bytes"`
	Nodes         int     `json:"nodes"`
	Edges         int     `json:"edges"`
	SnapshotBytes int64   `json:"snapshot_bytes"`
	Seconds       float64 `json:"seconds"`
	Phases        struct {
		Parse   float64 `json:"parse"` // walk, parse and extract
		Resolve float64 `json:"resolve"`
		Write   float64 `json:"write"`
	} `json:"phases"`
	SyntaxErrorFiles  int      `json:"syntax_error_files"`  // kept: what parsed is in the graph
	FirstSyntaxErrors []string `json:"first_syntax_errors"` // "path:line" of the first few
	// Incremental, when the build reused a prior one's extraction.
	Incremental *incrementalSummary `json:"incremental,omitempty"`
}

// incrementalSummary is what an incremental build reused.
type incrementalSummary struct {
	Reused      int      `json:"reused"`
	Parsed      int      `json:"parsed"`
	Relanguages []string `json:"reparsed_languages"` // "python: src/pkg/__init__.py"
	// Copied names the groups of snapshot sections copied from the
	// earlier snapshot, their inputs unchanged ("graph", "keys", "bm25",
	// "body", "cold").
	Copied []string `json:"sections_copied"`
	// Resolved: the prior build's resolution served (no file's names,
	// references or imports changed).
	Resolved bool `json:"resolution_reused"`
}

// checkWritable fails early, before a long parse, when the output cannot
// be written or must not be replaced: an existing OUT is replaced only when
// it is a regular file holding a knowing snapshot (any regular file with
// force), never when it is a folder, a link, a FIFO or a device.
func checkWritable(out string, force bool) error {
	if st, err := os.Lstat(out); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("output %s is a folder; give a file name such as %s", out, filepath.Join(out, "repo.snap"))
		case !st.Mode().IsRegular():
			return fmt.Errorf("output %s exists and is not a regular file (%s); knowing build replaces only snapshots, pick another name", out, fileType(st.Mode()))
		case !force && st.Size() > 0: // an empty file holds nothing to lose
			ok, err := snapshot.IsSnapshot(out)
			if err != nil {
				return fmt.Errorf("output %s exists and cannot be read to check what it is: %w", out, err)
			}
			if !ok {
				return fmt.Errorf("output %s exists and is not a knowing snapshot; refusing to replace it (pick another name, or add --force to replace it)", out)
			}
		}
	}
	dir := filepath.Dir(out)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output folder %s does not exist", dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("output folder %s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".knowing-check-*")
	if err != nil {
		return fmt.Errorf("cannot write to output folder %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// fileType names a file mode's type for an error message.
func fileType(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// isFlagSet reports whether the command line set the named flag.
func isFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
