package extract

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/internal/fileread"
	"github.com/knowing-dev/knowing/internal/fswalk"
	"github.com/knowing-dev/knowing/snapshot"
)

// Incremental builds. A build leaves a Prior: every file's extraction
// with the stamps of the bytes it came from, and, per language, the
// questions its extraction asked of the file system with their answers
// (deps.go). The next build of the same repository walks the tree, keeps
// the extraction of each file whose bytes are unchanged in a language
// whose answers are all unchanged, parses the rest, and resolves the
// whole graph again, so that it equals a full build's.

// Prior is what a build leaves for the next build of the same
// repository to reuse. It is immutable once returned: builds only read
// it, and one Prior may serve several.
type Prior struct {
	root        string
	maxFileSize int64
	exts        string // the extensions parsed, joined by spaces
	walkStart   int64  // nanoseconds since the Unix epoch
	files       map[string]*priorFile
	langs       map[snapshot.Lang]*priorLang
	graph       *priorGraph // the graph resolved from files, or nil
}

// priorFile is one file's extraction.
type priorFile struct {
	r       *FileResult
	errLine uint32 // its first syntax error's line, 0 if none
	key     uint64 // its resolution key (resolution.go), 0 until known
	// refs is the encoding of r's references while they are not decoded
	// (r.Refs nil; nrefs of them): see materialize.
	refs  []byte
	nrefs int
	raw   []byte // its encoding, when it was decoded from one (see Marshal)
	// kept: the file changed, and this is the extraction of its earlier
	// bytes (Options.KeepOnError); its stamps are not the file's.
	kept bool
}

// priorLang is what the extraction of one language's files asked and
// read.
type priorLang struct {
	deps map[depKey]uint64
	read map[string]uint64 // files read (manifests, modules) → fingerprints
}

// Files is the number of files whose extraction p holds.
func (p *Prior) Files() int {
	if p == nil {
		return 0
	}
	return len(p.files)
}

// Root is the repository p was built from (absolute).
func (p *Prior) Root() string {
	if p == nil {
		return ""
	}
	return p.root
}

// known reports a file the prior extracted whose size and time are the
// ones it saw, and not close enough to its walk to be racy: its bytes are
// the ones the prior read (a text file, then).
func (p *Prior) known(rel string, size, modTime int64) bool {
	pf := p.files[rel]
	return pf != nil && !pf.kept && pf.r.Size == size && pf.r.ModTime == modTime && modTime <= p.walkStart-snapshot.RacyWindow
}

// repoLang is the language whose Repo a language's files share:
// TypeScript's is JavaScript's, as their module resolution is one.
func repoLang(l snapshot.Lang) snapshot.Lang {
	if l == snapshot.LangTypeScript {
		return snapshot.LangJavaScript
	}
	return l
}

// repoSet is a build's Repos: base holds the walk's folder listings, and
// each language gets a Repo of its own over them, recording what its
// extraction asks (so that a change invalidates that language alone).
type repoSet struct {
	base *Repo
	mu   sync.Mutex
	by   map[snapshot.Lang]*Repo
}

func newRepoSet(root string) *repoSet {
	return &repoSet{base: NewRepo(root), by: map[snapshot.Lang]*Repo{}}
}

// of returns language l's Repo, made on first use (after the walk).
func (s *repoSet) of(l snapshot.Lang) *Repo {
	l = repoLang(l)
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.by[l]
	if r == nil {
		r = s.view()
		r.deps = &depLog{}
		s.by[l] = r
	}
	return r
}

// view is a Repo over the walk's listings that records nothing.
func (s *repoSet) view() *Repo {
	r := NewRepo(s.base.Root)
	r.listed = s.base.listed
	r.exts = s.base.exts
	return r
}

// buildPlan is what a build parses and what it keeps of a prior build.
type buildPlan struct {
	prior  *Prior
	repos  *repoSet
	files  []fswalk.File // every file walked, in walk order
	keep   []*priorFile  // by walked file: the extraction kept, or nil
	parse  []fswalk.File // the files to parse
	valid  map[snapshot.Lang]bool
	reason map[snapshot.Lang]string // why a language is parsed again
}

// extsKey is the extensions parsed, as a Prior records them.
func extsKey() string { return strings.Join(Extensions(), " ") }

// plan decides, for the files walked, which extractions of p to keep. A
// nil p, or one of another root, size limit or language set, keeps none.
func (p *Prior) plan(root string, opt Options, files []fswalk.File, repos *repoSet) *buildPlan {
	pl := &buildPlan{prior: p, repos: repos, files: files, keep: make([]*priorFile, len(files)),
		valid: map[snapshot.Lang]bool{}, reason: map[snapshot.Lang]string{}}
	maxSize := opt.MaxFileSize
	if p == nil || p.root != root || p.maxFileSize != maxSize || p.exts != extsKey() {
		pl.prior = nil
		pl.parse = files
		return pl
	}
	// Files whose bytes are unchanged: by their stat when it matches and
	// is not racy, else by their fingerprint.
	same := map[string]bool{}
	wanted := map[snapshot.Lang]bool{}
	for i, f := range files {
		pf := p.files[f.Path]
		if pf == nil {
			continue
		}
		r := pf.r
		if pf.kept {
			continue // extracted from earlier bytes: parse the file again
		}
		if p.known(f.Path, f.Size, f.ModTime) {
			pl.keep[i], same[f.Path] = pf, true
		} else if b, err := fileread.Regular(f.Abs, max(maxSize, f.Size)); err == nil && int64(len(b)) == r.Size && snapshot.Fingerprint(b) == r.Hash {
			nr := *r
			nr.ModTime = f.ModTime
			pl.keep[i], same[f.Path] = &priorFile{r: &nr, errLine: pf.errLine, refs: pf.refs, nrefs: pf.nrefs}, true
		}
		if pl.keep[i] != nil {
			wanted[repoLang(r.Lang)] = true
		}
	}
	// Languages whose answers all hold.
	check := repos.view()
	for l := range wanted {
		pl.valid[l] = true
		pll := p.langs[l]
		if pll == nil {
			continue
		}
		for _, k := range sortedDeps(pll.deps) {
			if k.kind == depRead && same[path.Clean(k.path)] {
				continue // a source file read whole: its stamp says it is the same
			}
			if k.kind == depDerived {
				if _, rel := k.splitDerived(); same[path.Clean(rel)] {
					continue // likewise
				}
			}
			if k.ask(check) != pll.deps[k] {
				pl.valid[l] = false
				pl.reason[l] = fmt.Sprintf("%s: %s", l, k)
				break
			}
		}
	}
	for i, f := range files {
		if pl.keep[i] != nil && !pl.valid[repoLang(pl.keep[i].r.Lang)] {
			pl.keep[i] = nil
		}
		if pl.keep[i] == nil {
			pl.parse = append(pl.parse, f)
		}
	}
	return pl
}

// unchanged reports a plan that parses nothing and keeps every file of
// the prior as it was: the graph would be the prior build's.
func (pl *buildPlan) unchanged() bool {
	if pl.prior == nil || len(pl.parse) > 0 || len(pl.files) != len(pl.prior.files) {
		return false
	}
	for i, f := range pl.files {
		if pl.keep[i] != pl.prior.files[f.Path] {
			return false // a file touched, its bytes the same: its stamp changed
		}
	}
	return true
}

// sortedDeps lists a log's questions in a fixed order, so that the
// reason given for a language's parse does not vary from run to run.
func sortedDeps(m map[depKey]uint64) []depKey {
	keys := make([]depKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].path != keys[j].path {
			return keys[i].path < keys[j].path
		}
		return keys[i].kind < keys[j].kind
	})
	return keys
}

// String says what a question is about, for messages.
func (k depKey) String() string {
	switch k.kind {
	case depStat:
		return "whether " + k.path + " exists"
	case depRead:
		return k.path
	case depList, depDir:
		return "the listing of " + k.path + "/"
	case depAbove:
		return k.path + " above the root"
	case depDerived:
		name, rel, _ := strings.Cut(k.path, "\x00")
		return rel + " (" + name + ")"
	}
	return k.path
}

// merge puts the parsed files (parsed[i] is pl.parse[i]'s result) and
// the kept ones together in walk order, fills the build's file counts,
// and makes the Prior of this build.
func (pl *buildPlan) merge(parsed []*FileResult, errLines []uint32, opt Options, stats *Stats) ([]*FileResult, *Prior) {
	results := make([]*FileResult, 0, len(pl.files))
	next := &Prior{root: pl.repos.base.Root, maxFileSize: opt.MaxFileSize, exts: extsKey(),
		files: make(map[string]*priorFile, len(pl.files)), langs: map[snapshot.Lang]*priorLang{}}
	j := 0
	langs := map[snapshot.Lang]bool{}
	for i, f := range pl.files {
		pf := pl.keep[i]
		var old *priorFile
		if pl.prior != nil {
			old = pl.prior.files[f.Path]
		}
		if pf != nil {
			stats.Reused++
			// This build's own record: the prior's stays as it was.
			pf = &priorFile{r: pf.r, errLine: pf.errLine, key: pf.key, raw: pf.raw, refs: pf.refs, nrefs: pf.nrefs}
		} else {
			pf = &priorFile{r: parsed[j], errLine: errLines[j]}
			j++
			if pf.r != nil {
				stats.Parsed++
			}
			switch {
			case opt.KeepOnError && old != nil && old.errLine == 0 && (pf.r == nil || pf.errLine > 0) && langOfKnown(f.Path):
				what := f.Path + ": unreadable"
				if pf.r != nil {
					what = fmt.Sprintf("%s:%d", f.Path, pf.errLine)
				}
				stats.Kept = append(stats.Kept, what)
				pf = &priorFile{r: old.r, errLine: old.errLine, raw: old.raw, refs: old.refs, nrefs: old.nrefs, kept: true}
			case old == nil && pf.r != nil:
				stats.Added++
			case old != nil && pf.r != nil && pf.r.Hash != old.r.Hash:
				stats.Changed++
			}
		}
		if pf.r == nil {
			continue
		}
		results = append(results, pf.r)
		next.files[pf.r.Path] = pf
		langs[repoLang(pf.r.Lang)] = true
		stats.SourceBytes += pf.r.Size
		if pf.errLine > 0 {
			stats.ParseErrors++
			if len(stats.FirstErrors) < maxFirstErrors {
				stats.FirstErrors = append(stats.FirstErrors, fmt.Sprintf("%s:%d", pf.r.Path, pf.errLine))
			}
		}
	}
	if pl.prior != nil {
		for p := range pl.prior.files {
			if next.files[p] == nil {
				stats.Removed++
			}
		}
	}
	for l := range langs {
		pll := &priorLang{deps: map[depKey]uint64{}, read: map[string]uint64{}}
		if pl.prior != nil && pl.valid[l] {
			if old := pl.prior.langs[l]; old != nil {
				for k, a := range old.deps {
					pll.deps[k] = a
				}
				for p, h := range old.read {
					pll.read[p] = h
				}
			}
		}
		if r := pl.repos.by[l]; r != nil {
			r.deps.mu.Lock()
			for k, a := range r.deps.m {
				pll.deps[k] = a
			}
			for p, h := range r.deps.files {
				pll.read[p] = h
			}
			r.deps.mu.Unlock()
		}
		// A source file read through ReadDerived may have changed
		// without changing its key: its fingerprint is the one of the
		// bytes now, which this build parsed (the stamps record it).
		for p := range pll.read {
			if pf := next.files[p]; pf != nil && !pf.kept {
				pll.read[p] = pf.r.Hash
			}
		}
		next.langs[l] = pll
	}
	for l, why := range pl.reason {
		if langs[l] {
			stats.Relanguages = append(stats.Relanguages, why)
		}
	}
	sort.Strings(stats.Relanguages)
	return results, next
}

// resolve resolves results into the graph, reusing the prior build's
// resolution when every file's resolution key is the one it was resolved
// from, and keeps it in p (this build's Prior) for the next build.
func (p *Prior) resolve(prior *Prior, results []*FileResult, nodesDone func(*snapshot.Graph), stats *Stats) *snapshot.Graph {
	sort.Slice(results, func(i, j int) bool { return results[i].Path < results[j].Path })
	keys := make([]uint64, len(results))
	onAllCores(len(results), func() func(int) {
		return func(i int) {
			pf := p.files[results[i].Path]
			if pf == nil || pf.r != results[i] {
				keys[i] = resolutionKey(results[i])
				return
			}
			if pf.key == 0 {
				pf.materialize()
				pf.key = resolutionKey(pf.r)
			}
			keys[i] = pf.key
		}
	})
	if prior != nil && prior.graph != nil {
		if g := prior.graph.reuse(results, keys); g != nil {
			stats.Resolved = true
			if nodesDone != nil {
				nodesDone(g)
			}
			if p != nil {
				// Its encoding is the prior's: the keys, files and
				// edges are, and so are the nodes but for the lines and
				// texts that are not encoded.
				p.graph = &priorGraph{keys: keys, files: prior.graph.files, nodes: g.Nodes, symFile: prior.graph.symFile, symIdx: prior.graph.symIdx, edges: g.Edges, raw: prior.graph.raw}
			}
			return g
		}
	}
	onAllCores(len(results), func() func(int) {
		return func(i int) { p.files[results[i].Path].materialize() }
	})
	r := resolveAll(results, nodesDone)
	if p != nil {
		p.graph = &priorGraph{keys: keys, files: slices.Clone(r.g.Files), nodes: r.g.Nodes, symFile: r.symFile, symIdx: r.symIdx, edges: r.g.Edges}
	}
	return r.g
}

// readFiles is every file the extraction of p's files read, with its
// fingerprint.
func (p *Prior) readFiles() map[string]uint64 {
	out := map[string]uint64{}
	if p == nil {
		return out
	}
	for _, l := range p.langs {
		maps.Copy(out, l.read)
	}
	return out
}

// langOfKnown reports a path some language parses.
func langOfKnown(p string) bool {
	l, _ := langOf(p)
	return l != nil
}
