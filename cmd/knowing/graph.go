package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/knowing-dev/knowing/internal/fileread"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

const defHelp = `Usage: knowing def [flags] SNAP SYMBOL

Prints one symbol's definition: kind, qualified name, file and line span,
signature and the opening of its doc comment. SYMBOL is a qualified name
(net/http.Server.Serve), a unique suffix of one (Server.Serve,
Scaffold.before_request), a unique bare name, or a file:line position
(server.go:3120, the innermost symbol there). A name several symbols have
lists them; an unknown one suggests near names.

With --source, the symbol's code too, read from the repository the
snapshot was built from; when the file changed since the build (its
content is not the one the build read, or it is gone) the output says
so, since the lines may have moved.

  json  {"symbol", "name", "kind", "lang", "file", "line", "end_line",
         "signature", "doc", "score", "tokens", "seed"}, as one result of
        knowing query --json (score 0); with --source also
        "source": {"code", "changed", "note"}

` + staleHelp + `
Flags:
`

const callsHelp = `Usage: knowing %s [flags] SNAP SYMBOL

Lists the symbols that %s SYMBOL (a qualified name, a unique suffix, a
unique bare name or a file:line position; see knowing def --help),
read from the snapshot's call edges: depth 1 are direct, depth 2 one call
further, and so on. Each symbol once, at its least depth, breadth first,
sorted by name within a level.

  json  {"symbol", "direction", "depth", "results": [{"symbol", "name",
         "kind", "lang", "file", "line", "end_line", "signature", "doc",
         "score", "tokens", "seed", "depth", "from"}], "cut"}
        from is the symbol one call nearer SYMBOL; cut counts results
        left out by --limit

` + staleHelp + `
Flags:
`

// graphCmd is what the graph commands (def, callers, callees, refs,
// outline, impact, changes) share: the --json, --format and
// --stale-budget flags, and the snapshot they answer from with its
// staleness check running beside the answer.
type graphCmd struct {
	fs     *flag.FlagSet
	asJSON *bool
	format *string
	stale  *time.Duration
	s      *snapshot.Snapshot
	e      *query.Engine
	fr     *freshness
}

// newGraphCmd makes the flags of the command name with the shared ones;
// the command adds its own before parse. Defer close right after.
func newGraphCmd(name string) *graphCmd {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return &graphCmd{fs: fs,
		asJSON: fs.Bool("json", false, "JSON output (same as --format json)"),
		format: fs.String("format", "text", "output `format`: text, json or markdown"),
		stale:  staleFlag(fs)}
}

// parse reads the command line: the flags, then the count of positional
// arguments (argc says what is wrong with n of them, or nil), then the
// format.
func (g *graphCmd) parse(args []string, help string, stderr io.Writer, argc func(n int) error) ([]string, error) {
	pos, err := parse(g.fs, args, help, stderr)
	if err != nil {
		return nil, err
	}
	if err := argc(len(pos)); err != nil {
		return nil, err
	}
	return pos, checkFormat(g.asJSON, g.format)
}

// snapAnd is the argument count of a command of SNAP and one what
// (SYMBOL, FILE).
func snapAnd(what string) func(int) error {
	return func(n int) error {
		if n != 2 {
			return usagef("want SNAP and %s (got %d arguments)", what, n)
		}
		return nil
	}
}

// open opens the snapshot at snap (checked against damage) with its
// engine, and starts the staleness check.
func (g *graphCmd) open(snap string) error {
	s, e, err := openEngine(snap)
	if err != nil {
		return err
	}
	g.s, g.e, g.fr = s, e, startFreshness(s, snap, *g.stale)
	return nil
}

// openSymbol opens snap as open does once it has found SYMBOL (ref) in
// it; the errors list the candidates of a shared name or near names of
// an unknown one.
func (g *graphCmd) openSymbol(snap, ref string) (uint32, error) {
	s, e, err := openEngine(snap)
	if err != nil {
		return 0, err
	}
	id, err := e.Resolve(ref)
	if err != nil {
		s.Close()
		return 0, err
	}
	g.s, g.e, g.fr = s, e, startFreshness(s, snap, *g.stale)
	return id, nil
}

// close waits for the staleness check and closes the snapshot, if open
// opened one.
func (g *graphCmd) close() {
	g.fr.wait()
	if g.s != nil {
		g.s.Close()
	}
}

func checkFormat(asJSON *bool, format *string) error {
	if *asJSON {
		*format = "json"
	}
	if *format != "text" && *format != "json" && *format != "markdown" {
		return usagef("unknown format %q: use text, json or markdown", *format)
	}
	return nil
}

// defReport is def's --json output: the item, and with --source its code.
type defReport struct {
	query.Item
	Source    *Source        `json:"source,omitempty"`
	Freshness *freshnessJSON `json:"freshness,omitempty"`
}

// definitionOf is def's answer for id, with its code when withSource.
func definitionOf(e *query.Engine, id uint32, withSource bool) (defReport, error) {
	rep := defReport{Item: e.Definition(id)}
	if withSource {
		m, err := e.Snapshot().Meta()
		if err != nil {
			return defReport{}, err
		}
		src, err := readSource(e.Snapshot(), m.RepoRoot, id)
		if err != nil {
			return defReport{}, err
		}
		rep.Source = &src
	}
	return rep, nil
}

func cmdDef(args []string, stdout, stderr io.Writer) error {
	g := newGraphCmd("def")
	defer g.close()
	withSource := g.fs.Bool("source", false, "also print the symbol's code from the repository")
	pos, err := g.parse(args, defHelp, stderr, snapAnd("SYMBOL"))
	if err != nil {
		return err
	}
	id, err := g.openSymbol(pos[0], pos[1])
	if err != nil {
		return err
	}
	rep, err := definitionOf(g.e, id, *withSource)
	if err != nil {
		return err
	}
	g.fr.mark(&rep.Item)
	rep.Freshness = g.fr.finish(stderr)
	if rep.Source != nil && rep.Source.Note != "" {
		fmt.Fprintln(stderr, "knowing:", rep.Source.Note)
	}
	it, src := rep.Item, rep.Source
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "`%s` (%s) — `%s:%d-%d`%s\n", clean(it.Symbol), it.Kind, clean(it.File), it.Line, it.EndLine, fileMark(&it))
		if it.Doc != "" {
			fmt.Fprintf(stdout, "\n%s\n", clean(it.Doc))
		}
		if src != nil {
			fmt.Fprintf(stdout, "\n```%s\n%s```\n", fenceLang(it.Lang), clean(src.Code))
		} else if it.Signature != "" {
			fmt.Fprintf(stdout, "\n```%s\n%s\n```\n", fenceLang(it.Lang), clean(it.Signature))
		}
	default:
		fmt.Fprintf(stdout, "%s %s  %s:%d-%d%s\n", it.Kind, clean(it.Symbol), clean(it.File), it.Line, it.EndLine, fileMark(&it))
		if it.Signature != "" {
			fmt.Fprintf(stdout, "  %s\n", clean(it.Signature))
		}
		if it.Doc != "" {
			fmt.Fprintf(stdout, "  %s %s\n", commentMarker(it.Lang), clean(it.Doc))
		}
		if src != nil {
			fmt.Fprint(stdout, cleanCode(src.Code))
		}
	}
	return nil
}

// cleanCode escapes the control characters of code for a terminal,
// tabs and line ends aside.
func cleanCode(code string) string {
	var b strings.Builder
	for _, r := range code {
		if r != '\t' && r != '\n' && isControl(r) {
			b.WriteString(clean(string(r)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// callsReport is callers' and callees' --json output.
type callsReport struct {
	Symbol    string         `json:"symbol"`
	Direction string         `json:"direction"`
	Depth     int            `json:"depth"`
	Results   []query.Hop    `json:"results"`
	Cut       int            `json:"cut"`
	Freshness *freshnessJSON `json:"freshness,omitempty"`
}

// callsOf is the answer of callers or callees (direction) for id.
func callsOf(e *query.Engine, id uint32, direction string, depth, limit int) callsReport {
	walk := e.Callers
	if direction == "callees" {
		walk = e.Callees
	}
	hops, total := walk(id, depth, limit)
	return callsReport{Symbol: e.Snapshot().QName(id), Direction: direction, Depth: depth, Results: hops, Cut: total - len(hops)}
}

func cmdCalls(name string, args []string, stdout, stderr io.Writer) error {
	g := newGraphCmd(name)
	defer g.close()
	depth := g.fs.Int("depth", 1, "follow calls this many steps (1: direct only)")
	limit := g.fs.Int("limit", 100, "list at most this many symbols")
	verb := "call"
	if name == "callees" {
		verb = "are called by"
	}
	pos, err := g.parse(args, fmt.Sprintf(callsHelp, name, verb), stderr, snapAnd("SYMBOL"))
	if err != nil {
		return err
	}
	if err := checkDepth(*depth); err != nil {
		return err
	}
	if err := checkLimit(*limit); err != nil {
		return err
	}
	id, err := g.openSymbol(pos[0], pos[1])
	if err != nil {
		return err
	}
	rep := callsOf(g.e, id, name, *depth, *limit)
	for i := range rep.Results {
		g.fr.mark(&rep.Results[i].Item)
	}
	rep.Freshness = g.fr.finish(stderr)
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "## %s of `%s`\n\n", name, clean(rep.Symbol))
		for _, h := range rep.Results {
			fmt.Fprintf(stdout, "- `%s` (%s) — `%s:%d`%s, depth %d\n", clean(h.Symbol), h.Kind, clean(h.File), h.Line, fileMark(&h.Item), h.Depth)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, h := range rep.Results {
		via := ""
		if h.Depth > 1 {
			via = "via " + clean(h.From)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s:%d%s\t%s\n", h.Depth, h.Kind, clean(h.Symbol), clean(h.File), h.Line, fileMark(&h.Item), via)
	}
	tw.Flush()
	limitFooterf(stdout, rep.Cut, "# %d %s of %s", len(rep.Results), name, clean(rep.Symbol))
	return nil
}

// limitFooterf writes the text format's closing count line, and how many
// results --limit cut when it cut any.
func limitFooterf(w io.Writer, cut int, format string, args ...any) {
	fmt.Fprintf(w, format, args...)
	if cut > 0 {
		fmt.Fprintf(w, " (%d more cut by --limit)", cut)
	}
	fmt.Fprintln(w)
}

// checkDepth is the usage error for a --depth outside 1 to 10.
func checkDepth(depth int) error {
	if depth < 1 || depth > 10 {
		return usagef("--depth must be 1 to 10 (got %d)", depth)
	}
	return nil
}

// checkLimit is the usage error for a --limit below 1.
func checkLimit(limit int) error {
	if limit < 1 {
		return usagef("--limit must be at least 1 (got %d)", limit)
	}
	return nil
}

const refsHelp = `Usage: knowing refs [flags] SNAP SYMBOL

Lists every edge into SYMBOL (see knowing def --help for how to name it),
by type: calls (its callers), contains (its container), tests (the tests
that exercise it), overrides, inherits, implements, extends, references
and type_hint_of (for a type), imports (for a package or module).

  json  {"symbol", "results": [{"symbol", "name", "kind", "lang", "file",
         "line", "end_line", "signature", "doc", "score", "tokens", "seed",
         "edge"}], "cut"}

` + staleHelp + `
Flags:
`

const outlineHelp = `Usage: knowing outline [flags] SNAP FILE

Lists the symbols of a file, nested as the code nests them, in line
order. FILE is its path relative to the repository root, or a unique end
of it (server.go, sansio/app.py).

  json  {"file", "results": [{"symbol", "name", "kind", "lang", "file",
         "line", "end_line", "signature", "doc", "score", "tokens", "seed",
         "depth"}]}   depth 1 is the top level

` + staleHelp + `
Flags:
`

// refsReport is refs' --json output.
type refsReport struct {
	Symbol    string         `json:"symbol"`
	Results   []query.Ref    `json:"results"`
	Cut       int            `json:"cut"`
	Freshness *freshnessJSON `json:"freshness,omitempty"`
}

func cmdRefs(args []string, stdout, stderr io.Writer) error {
	g := newGraphCmd("refs")
	defer g.close()
	limit := g.fs.Int("limit", 200, "list at most this many edges")
	pos, err := g.parse(args, refsHelp, stderr, snapAnd("SYMBOL"))
	if err != nil {
		return err
	}
	if err := checkLimit(*limit); err != nil {
		return err
	}
	id, err := g.openSymbol(pos[0], pos[1])
	if err != nil {
		return err
	}
	refs, total := g.e.Refs(id, *limit)
	rep := refsReport{Symbol: g.s.QName(id), Results: refs, Cut: total - len(refs)}
	for i := range rep.Results {
		g.fr.mark(&rep.Results[i].Item)
	}
	rep.Freshness = g.fr.finish(stderr)
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "## References to `%s`\n\n", clean(rep.Symbol))
		for _, r := range rep.Results {
			fmt.Fprintf(stdout, "- %s: `%s` (%s) — `%s:%d`%s\n", r.Edge, clean(r.Symbol), r.Kind, clean(r.File), r.Line, fileMark(&r.Item))
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d%s\n", r.Edge, r.Kind, clean(r.Symbol), clean(r.File), r.Line, fileMark(&r.Item))
	}
	tw.Flush()
	limitFooterf(stdout, rep.Cut, "# %d edges into %s", len(rep.Results), clean(rep.Symbol))
	return nil
}

// outlineReport is outline's --json output.
type outlineReport struct {
	File      string               `json:"file"`
	Results   []query.OutlineEntry `json:"results"`
	Freshness *freshnessJSON       `json:"freshness,omitempty"`
}

// outlineOf is outline's answer for file.
func outlineOf(e *query.Engine, file string) (outlineReport, error) {
	fid, err := e.FileNode(file)
	if err != nil {
		return outlineReport{}, err
	}
	return outlineReport{File: e.Snapshot().QName(fid), Results: e.Outline(fid)}, nil
}

func cmdOutline(args []string, stdout, stderr io.Writer) error {
	g := newGraphCmd("outline")
	defer g.close()
	pos, err := g.parse(args, outlineHelp, stderr, snapAnd("FILE"))
	if err != nil {
		return err
	}
	if err := g.open(pos[0]); err != nil {
		return err
	}
	rep, err := outlineOf(g.e, pos[1])
	if err != nil {
		return err
	}
	for i := range rep.Results {
		g.fr.mark(&rep.Results[i].Item)
	}
	rep.Freshness = g.fr.finish(stderr)
	mark := ""
	if len(rep.Results) > 0 {
		mark = fileMark(&rep.Results[0].Item)
	}
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "## `%s`%s\n\n", clean(rep.File), mark)
		for _, o := range rep.Results {
			fmt.Fprintf(stdout, "%s- `%s` (%s) line %d\n", strings.Repeat("  ", o.Depth-1), clean(o.Name), o.Kind, o.Line)
		}
		return nil
	}
	for _, o := range rep.Results {
		fmt.Fprintf(stdout, "%5d  %s%s %s\n", o.Line, strings.Repeat("  ", o.Depth-1), o.Kind, clean(o.Name))
	}
	fmt.Fprintf(stdout, "# %d symbols in %s%s\n", len(rep.Results), clean(rep.File), mark)
	return nil
}

const impactHelp = `Usage: knowing impact [flags] SNAP SYMBOL...

Lists what a change to the SYMBOLs may break (see knowing def --help for
how to name them): the symbols that call them, transitively up to
--depth edges, override them, implement or extend them, or use them as a
type, and the tests that exercise any of these. Ranked by the mass a
random walk with restart from the SYMBOLs leaves on each, and packed into
--budget tokens.

  json  {"symbols", "results": [{"symbol", "name", "kind", "lang", "file",
         "line", "end_line", "signature", "doc", "score", "tokens", "seed",
         "depth", "via", "from", "walk"}], "cut"}
        via is the edge that reached it (calls, overrides, implements,
        extends, references, tests); walk its walk mass relative to the
        best; cut counts what the budget or --limit left out

` + staleHelp + `
Flags:
`

// impactReport is impact's --json output.
type impactReport struct {
	Symbols   []string         `json:"symbols"`
	Results   []query.Impacted `json:"results"`
	Cut       int              `json:"cut"`
	Freshness *freshnessJSON   `json:"freshness,omitempty"`
}

// impactOf is impact's answer for the symbols refs name.
func impactOf(e *query.Engine, refs []string, depth, limit, budget int) (impactReport, error) {
	if len(refs) == 0 {
		return impactReport{}, errors.New("give at least one symbol")
	}
	var rep impactReport
	var ids []uint32
	for _, ref := range refs {
		id, err := e.Resolve(ref)
		if err != nil {
			return impactReport{}, err
		}
		ids = append(ids, id)
		rep.Symbols = append(rep.Symbols, e.Snapshot().QName(id))
	}
	res, total := e.Impact(ids, depth, limit, budget, false)
	rep.Results, rep.Cut = res, total-len(res)
	return rep, nil
}

func cmdImpact(args []string, stdout, stderr io.Writer) error {
	g := newGraphCmd("impact")
	defer g.close()
	depth := g.fs.Int("depth", 3, "follow dependents this many edges")
	limit := g.fs.Int("limit", 50, "list at most this many symbols")
	budget := g.fs.Int("budget", 8000, "token budget the results are packed into")
	pos, err := g.parse(args, impactHelp, stderr, func(n int) error {
		if n < 2 {
			return usagef("want SNAP and at least one SYMBOL (got %d arguments)", n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := checkDepth(*depth); err != nil {
		return err
	}
	if *limit < 1 || *budget < 1 {
		return usagef("--limit and --budget must be at least 1")
	}
	if err := g.open(pos[0]); err != nil {
		return err
	}
	rep, err := impactOf(g.e, pos[1:], *depth, *limit, *budget)
	if err != nil {
		return err
	}
	for i := range rep.Results {
		g.fr.mark(&rep.Results[i].Item)
	}
	rep.Freshness = g.fr.finish(stderr)
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "## Impact of changing `%s`\n\n", clean(strings.Join(rep.Symbols, "`, `")))
		for _, r := range rep.Results {
			writeImpactedMD(stdout, &r)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for i, r := range rep.Results {
		fmt.Fprintf(tw, "%d\t%.3f\t%s\t%s\t%s:%d%s\t%s %s\n", i+1, r.Walk, r.Kind, clean(r.Symbol), clean(r.File), r.Line, fileMark(&r.Item), r.Via, clean(r.From))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "# %d of %d symbols a change may break", len(rep.Results), len(rep.Results)+rep.Cut)
	if rep.Cut > 0 {
		fmt.Fprintf(stdout, " (%d cut by the budget or --limit)", rep.Cut)
	}
	fmt.Fprintln(stdout)
	return nil
}

const changesHelp = `Usage: knowing changes [flags] SNAP (--diff FILE | --files A,B | --git RANGE)

Context for a change: the symbols it touches and what they may break.
The change is a unified diff (--diff FILE, "-" for stdin: git diff,
diff -u), whole files (--files a.go,b.go: every symbol in them), or a
git range of the snapshot's repository (--git main..HEAD, --git HEAD~3;
read with git diff). Hunks are read on the old side, so build the
snapshot at the change's base (or before the edit). The touched symbols
come first, then what knowing impact finds for them: their callers (to
--depth), overriders, implementers, users and tests, nearest first
(direct callers before their callers) and by walk mass within a depth;
all packed into --budget tokens.

  json  {"changed": [{"symbol", "name", "kind", ...}], "impact": [{...,
         "depth", "via", "from", "walk"}], "unknown_files", "cut"}

` + staleHelp + `
Flags:
`

// changesReport is changes' --json output.
type changesReport struct {
	Changed      []query.Item     `json:"changed"`
	Impact       []query.Impacted `json:"impact"`
	UnknownFiles []string         `json:"unknown_files"`
	Cut          int              `json:"cut"`
	Freshness    *freshnessJSON   `json:"freshness,omitempty"`
}

func cmdChanges(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	g := newGraphCmd("changes")
	defer g.close()
	fs := g.fs
	diff := fs.String("diff", "", "unified diff `file` (\"-\": stdin)")
	files := fs.String("files", "", "comma-separated `paths` of changed files")
	gitRange := fs.String("git", "", "git `range` of the snapshot's repository (main..HEAD)")
	depth := fs.Int("depth", 2, "follow dependents this many edges")
	limit := fs.Int("limit", 300, "list at most this many dependents")
	budget := fs.Int("budget", 8000, "token budget the results are packed into")
	pos, err := g.parse(args, changesHelp, stderr, func(n int) error {
		if n != 1 {
			return usagef("want SNAP and one of --diff, --files, --git (got %d arguments)", n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	given := 0
	for _, v := range []string{*diff, *files, *gitRange} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return usagef("give the change one way: --diff FILE, --files A,B or --git RANGE")
	}
	if *depth < 1 || *depth > 10 || *limit < 1 || *budget < 1 {
		return usagef("--depth must be 1 to 10, --limit and --budget at least 1")
	}
	if err := g.open(pos[0]); err != nil {
		return err
	}
	var hunks []query.Hunk
	switch {
	case *files != "":
		for _, f := range strings.Split(*files, ",") {
			if f = strings.TrimSpace(f); f != "" {
				hunks = append(hunks, query.Hunk{Path: f})
			}
		}
	case *diff != "":
		var r io.Reader = stdin
		if *diff != "-" {
			b, err := readDiffFile(*diff)
			if err != nil {
				return err
			}
			r = strings.NewReader(string(b))
		}
		if hunks, err = query.ParseDiff(r); err != nil {
			return err
		}
	default:
		m, err := g.s.Meta()
		if err != nil {
			return err
		}
		out, err := gitDiff(m.RepoRoot, *gitRange)
		if err != nil {
			return err
		}
		if hunks, err = query.ParseDiff(strings.NewReader(out)); err != nil {
			return err
		}
	}
	rep := changesContext(g.e, hunks, *depth, *limit, *budget)
	for i := range rep.Changed {
		g.fr.mark(&rep.Changed[i])
	}
	for i := range rep.Impact {
		g.fr.mark(&rep.Impact[i].Item)
	}
	rep.Freshness = g.fr.finish(stderr)
	switch *g.format {
	case "json":
		return writeJSON(stdout, rep)
	case "markdown":
		fmt.Fprintf(stdout, "## Changed\n\n")
		for _, it := range rep.Changed {
			fmt.Fprintf(stdout, "- `%s` (%s) — `%s:%d`%s\n", clean(it.Symbol), it.Kind, clean(it.File), it.Line, fileMark(&it))
		}
		fmt.Fprintf(stdout, "\n## May break\n\n")
		for _, r := range rep.Impact {
			writeImpactedMD(stdout, &r)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, it := range rep.Changed {
		fmt.Fprintf(tw, "changed\t%s\t%s\t%s:%d%s\n", it.Kind, clean(it.Symbol), clean(it.File), it.Line, fileMark(&it))
	}
	for _, r := range rep.Impact {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d%s\n", r.Via, r.Kind, clean(r.Symbol), clean(r.File), r.Line, fileMark(&r.Item))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "# %d changed, %d that may break", len(rep.Changed), len(rep.Impact))
	if rep.Cut > 0 {
		fmt.Fprintf(stdout, " (%d cut by the budget or --limit)", rep.Cut)
	}
	if len(rep.UnknownFiles) > 0 {
		fmt.Fprintf(stdout, "; not in the snapshot: %s", clean(strings.Join(rep.UnknownFiles, ", ")))
	}
	fmt.Fprintln(stdout)
	return nil
}

// readDiffFile reads a diff file: a regular file of at most 64 MiB.
func readDiffFile(path string) ([]byte, error) {
	return fileread.Regular(path, 64<<20)
}

// gitDiff runs git diff over rng in the repository at root, with no
// context lines, so that hunks name only changed lines.
func gitDiff(root, rng string) (string, error) {
	if strings.HasPrefix(rng, "-") {
		return "", usagef("--git takes a range such as main..HEAD, not %q", rng)
	}
	out, msg, err := runGit(root, nil, nil, "diff", "--no-color", "--no-ext-diff", "-U0", rng, "--")
	if err != nil {
		return "", fmt.Errorf("git diff %s in %s: %v: %s", rng, root, err, msg)
	}
	return string(out), nil
}

// writeImpactedMD writes r as a markdown list line.
func writeImpactedMD(w io.Writer, r *query.Impacted) {
	fmt.Fprintf(w, "- `%s` (%s, %s `%s`) — `%s:%d`%s\n", clean(r.Symbol), r.Kind, r.Via, clean(r.From), clean(r.File), r.Line, fileMark(&r.Item))
}

// changesContext is what changes answers for hunks: the symbols they
// touch, then their dependents nearest first, packed into budget tokens.
func changesContext(e *query.Engine, hunks []query.Hunk, depth, limit, budget int) changesReport {
	ids, unknown := e.Changed(hunks)
	rep := changesReport{Changed: []query.Item{}, Impact: []query.Impacted{}, UnknownFiles: unknown}
	if rep.UnknownFiles == nil {
		rep.UnknownFiles = []string{}
	}
	left := budget
	for _, id := range ids {
		it := e.Item(id, 0)
		if it.Tokens > left {
			rep.Cut++
			continue
		}
		left -= it.Tokens
		rep.Changed = append(rep.Changed, it)
	}
	if len(ids) > 0 && left > 0 {
		imp, total := e.Impact(ids, depth, limit, left, true)
		if imp != nil {
			rep.Impact = imp
		}
		rep.Cut += total - len(imp)
	}
	return rep
}
