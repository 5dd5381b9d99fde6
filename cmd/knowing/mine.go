//go:build cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/internal/fswalk"
	"github.com/knowing-dev/knowing/snapshot"
)

const mineHelp = `Usage: knowing mine [--repo DIR] [flags] OUT

Turns the git history of the repository in DIR (default: .) into task
fixtures in the folder OUT, one YAML file per qualifying commit, newest
first, in the format 'knowing eval' reads (tier mined):

  description   the commit message, subject and body (trailers such as
                Signed-off-by left out)
  ground_truth  the symbols whose lines the commit changed, named as in
                the parent commit's tree: the innermost function, method,
                type, or top-level constant or variable around each
                changed line (a field or constant inside a type or function
                counts as its container). Lines are compared ignoring
                whitespace. A symbol the commit adds is not ground truth;
                lines it adds inside an existing function make that
                function ground truth.
  base_commit   the parent commit: the tree to answer the task from
  commit        the commit itself

Only the files a commit changes are parsed, in a folder holding the
parent's tree (then the commit's), so mining costs little more than git.

A commit is skipped when it is a merge or a root commit, a revert, a
version bump or release, a formatter run, by a bot (the author's name or
address), when its message has fewer than --min-words words, when it
changes no symbol of a source file or more than 15, or (with --fixes)
when its subject does not say it fixes a bug: fix, bug, crash, error,
wrong, incorrect, broken, regression, fail, panic or exception in their
usual forms, and not typo, nor a docs:, ci:, test: or build: subject.
Test and example code is never ground truth; a commit that changed only
tests is skipped, or with --tests kept as tier mined-test.

Measure knowing on them with
  knowing eval --mined DIR --fixtures OUT
or mine and measure in one step with 'knowing eval --mined DIR'.

Flags:
`

// maxChangedFiles bounds the source files of a commit considered for
// mining: a commit changing more cannot change 15 symbols or fewer in a
// useful way, and parsing them would cost for nothing.
const maxChangedFiles = 40

// maxGroundTruth is the most symbols a mined commit may change.
const maxGroundTruth = 15

func cmdMine(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mine", flag.ContinueOnError)
	repo := fs.String("repo", ".", "git repository `folder` to mine (a work tree or a bare repository)")
	quiet := fs.Bool("quiet", false, "print nothing but errors")
	mf := mineFlagsOf(fs)
	pos, err := parse(fs, args, mineHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one output folder, e.g. knowing mine --repo . mined/ (got %d arguments)", len(pos))
	}
	if *mf.max < 1 || *mf.minWords < 0 {
		return usagef("--max must be at least 1 and --min-words 0 or more")
	}
	if err := checkRepo(*repo); err != nil {
		return err
	}
	out := pos[0]
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	var progress io.Writer
	if f, ok := stderr.(*os.File); ok && isTerminal(f) && !*quiet {
		progress = stderr
	}
	fx, st, err := mineRepo(ctx, *repo, mf, progress)
	if err != nil {
		return err
	}
	for _, f := range fx {
		if err := writeFixture(filepath.Join(out, f.ID+".yaml"), f); err != nil {
			return err
		}
	}
	if !*quiet {
		fmt.Fprintf(stderr, "mined %d fixtures into %s from %d commits; skipped: %s\n", len(fx), out, st.seen, st)
	}
	return nil
}

// mineStats counts the commits seen and why each skipped one was.
type mineStats struct {
	seen    int
	skipped map[string]int
}

func (s mineStats) String() string {
	if len(s.skipped) == 0 {
		return "none"
	}
	var reasons []string
	for r := range s.skipped {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if s.skipped[reasons[i]] != s.skipped[reasons[j]] {
			return s.skipped[reasons[i]] > s.skipped[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", s.skipped[r], r)
	}
	return strings.Join(parts, ", ")
}

// repoName is the name fixtures carry for the repository in dir: the
// folder's name, or its parent's for a bare repository kept as "repo" or
// ".git".
func repoName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	name := filepath.Base(abs)
	if name == "repo" || name == ".git" {
		name = filepath.Base(filepath.Dir(abs))
	}
	return strings.TrimSuffix(name, ".git")
}

// mineRepo walks the history of dir, newest first, and returns a fixture
// for each qualifying commit, up to *mf.max.
func mineRepo(ctx context.Context, dir string, mf mineFlags, progress io.Writer) ([]eval.Fixture, mineStats, error) {
	name := *mf.name
	if name == "" {
		name = repoName(dir)
	}
	st := mineStats{skipped: map[string]int{}}
	td, err := newTreeDir(dir, 1<<20)
	if err != nil {
		return nil, st, err
	}
	defer td.Close()
	var out []eval.Fixture
	var ferr, firstBad error
	err = listCommits(dir, *mf.rev, *mf.since, func(c commitInfo) bool {
		if ctx.Err() != nil {
			ferr = ctx.Err()
			return false
		}
		st.seen++
		if r := skipReason(&c, *mf.fixes, *mf.minWords); r != "" {
			st.skipped[r]++
			return true
		}
		f, reason, err := mineCommit(td, c, *mf.tests)
		if err != nil {
			// A commit git cannot read (a blob missing from a partial
			// copy) is skipped, not the rest of the history.
			if firstBad == nil {
				firstBad = fmt.Errorf("commit %s: %w", c.Hash, err)
			}
			st.skipped["unreadable"]++
			return true
		}
		if reason != "" {
			st.skipped[reason]++
			return true
		}
		f.ID = name + "-" + c.Hash[:12]
		f.Repo = name
		out = append(out, f)
		if progress != nil {
			fmt.Fprintf(progress, "\r\033[Kmined %d of %d: %s", len(out), *mf.max, c.Hash[:12])
		}
		return len(out) < *mf.max
	})
	if progress != nil && len(out) > 0 {
		fmt.Fprint(progress, "\r\033[K")
	}
	if err == nil {
		err = ferr
	}
	if err == nil && len(out) == 0 && firstBad != nil {
		err = firstBad // nothing could be read: say why
	}
	return out, st, err
}

// changedSymbol is a symbol a commit changed, as named at its parent.
type changedSymbol struct {
	qname string
	aux   bool // test or example code
}

// mineCommit works out the ground truth of one commit: the fixture, or
// the reason it does not qualify.
func mineCommit(td *treeDir, c commitInfo, tests bool) (eval.Fixture, string, error) {
	parent := c.Parents[0]
	changes, err := commitChanges(td.repo, parent, c.Hash)
	if err != nil {
		return eval.Fixture{}, "", err
	}
	var src []fileChange
	for _, ch := range changes {
		if (minable(ch.OldPath) || minable(ch.NewPath)) && (len(ch.Old) > 0 || len(ch.New) > 0) {
			src = append(src, ch)
		}
	}
	if len(src) == 0 {
		// Source files that changed in whitespace alone: a formatting
		// commit.
		names, err := git(td.repo, nil, nil, "diff", "--name-only", "-z", "--no-renames", parent, c.Hash, "--")
		if err != nil {
			return eval.Fixture{}, "", err
		}
		for _, p := range strings.Split(string(names), "\x00") {
			if minable(p) {
				return eval.Fixture{}, "formatting", nil
			}
		}
		return eval.Fixture{}, "no source change", nil
	}
	if len(src) > maxChangedFiles {
		return eval.Fixture{}, "too many files", nil
	}
	syms, err := changedSymbols(td, parent, c.Hash, src)
	if err != nil {
		return eval.Fixture{}, "", err
	}
	var gt, auxGT []string
	for _, s := range syms {
		if s.aux {
			auxGT = append(auxGT, s.qname)
		} else {
			gt = append(gt, s.qname)
		}
	}
	desc := taskText(c.Message)
	if strings.TrimSpace(desc) == "" {
		return eval.Fixture{}, "short message", nil
	}
	tier := "mined"
	switch {
	case len(gt) == 0 && len(auxGT) == 0:
		return eval.Fixture{}, "no symbol changed", nil
	case len(gt) == 0 && !tests:
		return eval.Fixture{}, "tests only", nil
	case len(gt) == 0:
		tier, gt = "mined-test", auxGT
	}
	if len(gt) > maxGroundTruth {
		return eval.Fixture{}, "too many symbols", nil
	}
	var files []string
	for _, ch := range src {
		p := ch.OldPath
		if p == "" {
			p = ch.NewPath
		}
		files = append(files, p)
	}
	return eval.Fixture{
		Tier:        tier,
		Description: desc,
		GroundTruth: gt,
		BaseCommit:  parent,
		Commit:      c.Hash,
		Files:       files,
		Source:      "mined",
		GTMethod:    "changed-lines-at-parent",
	}, "", nil
}

// minable reports a path whose symbols a build indexes: a source file
// of a supported language outside the folders every build skips
// (vendored code, build output: fswalk.InSkippedFolder), so that no
// ground truth names a symbol no snapshot holds.
func minable(p string) bool {
	return p != "" && extract.Supported(p) && !fswalk.InSkippedFolder(p)
}

// changedSymbols maps a commit's changed lines to the symbols of the
// parent's tree, parsing only the changed files: first at the parent (the
// lines the commit removes or replaces), then at the commit (the lines it
// adds, which count for the parent's symbol of the same name).
func changedSymbols(td *treeDir, parent, commit string, src []fileChange) ([]changedSymbol, error) {
	var oldPaths, newPaths []string
	for _, ch := range src {
		if minable(ch.OldPath) {
			oldPaths = append(oldPaths, ch.OldPath)
		}
		if minable(ch.NewPath) && len(ch.New) > 0 {
			newPaths = append(newPaths, ch.NewPath)
		}
	}
	if err := td.moveTo(parent); err != nil {
		return nil, err
	}
	before, err := extractPresent(td.dir, oldPaths)
	if err != nil {
		return nil, err
	}
	var after *fileSymbols
	if len(newPaths) > 0 {
		if err := td.moveTo(commit); err != nil {
			return nil, err
		}
		if after, err = extractPresent(td.dir, newPaths); err != nil {
			return nil, err
		}
	}
	var out []changedSymbol
	seen := map[string]bool{}
	add := func(id int) {
		n := &before.g.Nodes[id]
		if seen[n.QName] {
			return
		}
		seen[n.QName] = true
		out = append(out, changedSymbol{qname: n.QName, aux: n.Flags&(snapshot.FlagTest|snapshot.FlagExample) != 0})
	}
	for _, ch := range src {
		if ch.OldPath != "" {
			for _, sp := range ch.Old {
				for _, id := range before.innermost(ch.OldPath, sp) {
					if id = before.target(id); id >= 0 {
						add(id)
					}
				}
			}
		}
		if after == nil || ch.NewPath == "" {
			continue
		}
		for _, sp := range ch.New {
			for _, id := range after.innermost(ch.NewPath, sp) {
				// The symbol the added lines belong to, as the parent has
				// it. A symbol the commit adds is no ground truth, and
				// neither is the type it is added to; lines added to an
				// existing function (a new closure or a new field it
				// assigns too) are that function's change.
				n := &after.g.Nodes[id]
				if !n.Kind.IsCallable() && !n.Kind.IsType() {
					if old, ok := before.byName[n.QName]; ok {
						if t := before.target(old); t >= 0 {
							add(t)
						}
						continue
					}
					if id = after.target(id); id < 0 || !after.g.Nodes[id].Kind.IsCallable() {
						continue // a new member of a type, a new constant
					}
				}
				for cur := id; cur >= 0; cur = after.parent[cur] {
					if old, ok := before.byName[after.g.Nodes[cur].QName]; ok {
						if t := before.target(old); t >= 0 {
							add(t)
						}
						break
					}
					p := after.parent[cur]
					if !after.g.Nodes[cur].Kind.IsCallable() || p < 0 || !after.g.Nodes[p].Kind.IsCallable() {
						break
					}
				}
			}
		}
	}
	return out, nil
}

// fileSymbols is the graph of a few files with the lookups mining needs.
type fileSymbols struct {
	g      *snapshot.Graph
	byFile map[string][]int // path → its symbol nodes
	parent []int            // node → the symbol containing it, -1 for none
	byName map[string]int   // qualified name → node
}

// extractPresent parses the files of paths that the folder holds (one
// larger than the tree folder keeps, or lacking from the repository, is
// left out) and indexes their symbols.
func extractPresent(root string, paths []string) (*fileSymbols, error) {
	var have []string
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil && st.Mode().IsRegular() {
			have = append(have, p)
		}
	}
	fs := &fileSymbols{g: &snapshot.Graph{}, byFile: map[string][]int{}, byName: map[string]int{}}
	if len(have) > 0 {
		g, err := extract.ExtractFiles(root, have)
		if err != nil {
			return nil, err
		}
		fs.g = g
	}
	fs.parent = make([]int, len(fs.g.Nodes))
	for i := range fs.parent {
		fs.parent[i] = -1
	}
	for _, e := range fs.g.Edges {
		if e.Type == snapshot.EdgeContains && isSymbol(fs.g.Nodes[e.From].Kind) && int(e.To) < len(fs.parent) {
			fs.parent[e.To] = int(e.From)
		}
	}
	for i, n := range fs.g.Nodes {
		if !isSymbol(n.Kind) || n.File < 0 || n.Flags.Noise() {
			continue
		}
		p := fs.g.Files[n.File].Path
		fs.byFile[p] = append(fs.byFile[p], i)
		if _, dup := fs.byName[n.QName]; !dup {
			fs.byName[n.QName] = i
		}
	}
	return fs, nil
}

// isSymbol reports the kinds of node that are declarations in a file.
func isSymbol(k snapshot.Kind) bool {
	return k != snapshot.KindFile && k != snapshot.KindPackage && k != snapshot.KindExternal && k != snapshot.KindUnknown
}

// innermost returns the symbols of file p whose lines overlap sp and that
// hold no other such symbol.
func (fs *fileSymbols) innermost(p string, sp lineSpan) []int {
	var hit []int
	for _, id := range fs.byFile[p] {
		n := &fs.g.Nodes[id]
		if int(n.StartLine) <= sp.End && int(n.EndLine) >= sp.Start {
			hit = append(hit, id)
		}
	}
	outer := map[int]bool{}
	for _, id := range hit {
		for p := fs.parent[id]; p >= 0; p = fs.parent[p] {
			outer[p] = true
		}
	}
	out := hit[:0]
	for _, id := range hit {
		if !outer[id] {
			out = append(out, id)
		}
	}
	return out
}

// target is the ground-truth symbol for a changed symbol: a callable or
// type itself; a field, constant or variable, the smallest callable or
// type of its file whose lines hold it (a field that a constructor
// assigns belongs to its class, but a change of it is the constructor's);
// a constant or variable outside any, itself. -1 for none.
func (fs *fileSymbols) target(id int) int {
	n := &fs.g.Nodes[id]
	if n.Kind.IsCallable() || n.Kind.IsType() {
		return id
	}
	best, bestLen := -1, uint32(0)
	if n.File >= 0 {
		for _, o := range fs.byFile[fs.g.Files[n.File].Path] {
			m := &fs.g.Nodes[o]
			if o == id || !(m.Kind.IsCallable() || m.Kind.IsType()) || m.StartLine > n.StartLine || m.EndLine < n.EndLine {
				continue
			}
			if l := m.EndLine - m.StartLine; best < 0 || l < bestLen {
				best, bestLen = o, l
			}
		}
	}
	if best >= 0 {
		return best
	}
	if n.Kind == snapshot.KindConstant || n.Kind == snapshot.KindVariable {
		return id
	}
	return -1
}

// writeFixture writes one mined fixture as YAML.
func writeFixture(path string, f eval.Fixture) error {
	type out struct {
		ID          string   `yaml:"id"`
		Repo        string   `yaml:"repo"`
		Tier        string   `yaml:"tier"`
		Description string   `yaml:"description"`
		GroundTruth []string `yaml:"ground_truth"`
		Files       []string `yaml:"files,omitempty"`
		BaseCommit  string   `yaml:"base_commit"`
		Commit      string   `yaml:"commit"`
		Source      string   `yaml:"source"`
		GTMethod    string   `yaml:"gt_method"`
	}
	b, err := yaml.Marshal(out{f.ID, f.Repo, f.Tier, f.Description, f.GroundTruth, f.Files, f.BaseCommit, f.Commit, f.Source, f.GTMethod})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// evalMined is eval --mined: the fixtures mined from repo (or read from
// fixturesDir), each answered from a snapshot of its parent commit built
// in a temporary folder.
func evalMined(repo, fixturesDir, repoFilter string, mf mineFlags, cfg evalFlags, stdout, stderr io.Writer) error {
	if err := checkRepo(repo); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	var fx []eval.Fixture
	var err error
	if fixturesDir != "" {
		if fx, err = eval.LoadDir(fixturesDir); err != nil {
			return err
		}
	} else {
		var st mineStats
		if fx, st, err = mineRepo(ctx, repo, mf, nil); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "mined %d commits of %s from %d; skipped: %s\n", len(fx), repo, st.seen, st)
	}
	if repoFilter != "" {
		fx = eval.FilterRepo(fx, repoFilter)
	}
	if len(fx) == 0 {
		return fmt.Errorf("no mined commits to measure in %s", repo)
	}
	for _, f := range fx {
		if f.BaseCommit == "" {
			return fmt.Errorf("fixture %s has no base_commit: --mined needs fixtures written by knowing mine", f.ID)
		}
	}
	td, err := newTreeDir(repo, 0)
	if err != nil {
		return err
	}
	defer td.Close()
	src := &minedSource{td: td, ctx: ctx, trees: map[string]string{}}
	if cfg.replay != nil {
		inCommitOrder(repo, fx) // a replay follows the fixes in the order they were made
	}
	// Fixtures of one tree are answered from one snapshot: group them,
	// in the order their trees first appear.
	var order []string
	groups := map[string][]eval.Fixture{}
	for _, f := range fx {
		k := src.key(f)
		if k == "" {
			return fmt.Errorf("fixture %s: commit %s is not in %s", f.ID, f.BaseCommit, repo)
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	fx = fx[:0]
	for _, k := range order {
		fx = append(fx, groups[k]...)
	}
	if len(order) > 1 && cfg.baseline == "" && !cfg.asJSON {
		fmt.Fprintf(stderr, "building %d snapshots, one per parent tree\n", len(order))
	}
	return runEval(fx, src, cfg, stdout, stderr)
}

// minedSource builds the snapshot of a fixture's base commit on demand.
type minedSource struct {
	td    *treeDir
	ctx   context.Context
	trees map[string]string // commit → tree
}

func (m *minedSource) key(f eval.Fixture) string {
	t, ok := m.trees[f.BaseCommit]
	if !ok {
		b, err := git(m.td.repo, nil, nil, "rev-parse", "--verify", "--quiet", f.BaseCommit+"^{tree}")
		if err == nil {
			t = strings.TrimSpace(string(b))
		}
		m.trees[f.BaseCommit] = t
	}
	return t
}

func (m *minedSource) open(tree string) (string, string, func(), error) {
	if err := m.td.moveTo(tree); err != nil {
		return "", "", nil, err
	}
	g, st, err := extract.Build(m.ctx, extract.Options{Root: m.td.dir})
	if err != nil {
		return "", "", nil, err
	}
	if st.Files == 0 {
		return "", "", nil, fmt.Errorf("tree %s holds no source file knowing reads", tree)
	}
	g.Meta.ToolVersion = version
	snap := filepath.Join(filepath.Dir(m.td.dir), "parent.snap")
	if err := snapshot.Write(snap, g, nil); err != nil {
		return "", "", nil, err
	}
	snapshot.MarkChecked(snap) // the writer computed its checksums
	return snap, m.td.dir, func() { os.Remove(snap) }, nil
}
