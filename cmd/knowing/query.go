package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

const queryHelp = `Usage: knowing query [flags] SNAP "task"

Prints the symbols a task needs, best first. The task is plain words, a
bug report, a stack trace or an error message; "-" reads it from stdin.
Names in backticks, dotted names the snapshot has (app.use,
strconv.ParseInt), stack-trace frames and file:line positions are taken
as exact references.

A damaged snapshot is refused, never answered from: the first query on a
snapshot file checks every section's checksum (tens of milliseconds on a
large one) and records the file's identity under the user's cache folder;
later queries skip the check until the file changes (snapshot/FORMAT.md,
"The checked open"). knowing inspect checks every byte and structure.

Each result carries the opening of its doc comment (its first paragraph,
at most 240 bytes; --docs=false leaves it out). A result's tokens count
its qualified name, kind, signature and that summary.

Output formats:
  text      rank, score, kind, symbol, file:line, then signature and doc
            summary (default)
  json      {"results": [{"symbol", "name", "kind", "lang", "file", "line",
            "end_line", "signature", "doc", "score", "tokens", "seed"}],
             "stats": {"elapsed_us", "keywords", "candidates", "seeds",
             "walked", "pushes", "packed", "tokens", "message"}}
            symbol is the qualified name; file is relative to the repo root.
  markdown  a block to paste into a model's prompt

With --source the best results also carry their code, read from the
repository, while what the results leave of the budget has room (about
four bytes a token); in JSON as "sources": [{"rank", "symbol", "code",
"changed", "note"}]. A file that changed since the build is marked.
` + staleHelp + `
Flags:
`

// openEngine opens a snapshot, checked against damage, and makes an
// engine, with errors that say what to do.
func openEngine(path string) (*snapshot.Snapshot, *query.Engine, error) {
	s, err := openSnapshot(path, true)
	if err != nil {
		return nil, nil, err
	}
	e, err := newEngine(s)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, e, nil
}

// ranker is the ranker engines rank with (--ranker, or $KNOWING_RANKER
// when no flag set it).
var ranker = ""

// rankerFlag adds --ranker to a command's flags.
func rankerFlag(fs *flag.FlagSet) {
	fs.Func("ranker", "the `ranker`: trees (the formula's best 50 re-ordered by a tree model learned from mined commits), formula (weights set by hand), learned (weights learned from mined commits) or auto (formula for requests, learned for reports of over 40 words); see 'knowing train'; default "+query.DefaultRanker, func(v string) error {
		if _, err := query.RankerByName(v); err != nil {
			return err
		}
		ranker = v
		return nil
	})
}

// rankerName is the ranker chosen: --ranker, $KNOWING_RANKER, else the
// default.
func rankerName() string {
	if ranker != "" {
		return ranker
	}
	if name := os.Getenv("KNOWING_RANKER"); name != "" {
		return name
	}
	return query.DefaultRanker
}

// chosenRanker is the ranker chosen, with $KNOWING_TUNE's overrides
// ("match=0.3,hitsSeed=0.1"; knowing why prints every weight in this
// form) applied to each of its weights, for experiments.
func chosenRanker() (query.Ranker, error) {
	r, err := query.RankerByName(rankerName())
	if err != nil {
		return r, fmt.Errorf("KNOWING_RANKER: %w", err)
	}
	if path := os.Getenv("KNOWING_MODEL"); path != "" {
		// A tree model file for experiments: it re-orders every task.
		data, err := os.ReadFile(path)
		if err != nil {
			return r, fmt.Errorf("KNOWING_MODEL: %w", err)
		}
		if r.Model, err = query.ParseTrees(string(data)); err != nil {
			return r, fmt.Errorf("KNOWING_MODEL %s: %w", path, err)
		}
	}
	spec := os.Getenv("KNOWING_TUNE")
	if spec == "" {
		return r, nil
	}
	if r.Tasks, err = query.ParseTuning(spec, r.Tasks); err != nil {
		return r, fmt.Errorf("KNOWING_TUNE: %w", err)
	}
	if r.Reports != nil {
		t, err := query.ParseTuning(spec, *r.Reports)
		if err != nil {
			return r, fmt.Errorf("KNOWING_TUNE: %w", err)
		}
		r.Reports = &t
	}
	return r, nil
}

// newEngine makes an engine over s with the chosen ranker.
func newEngine(s *snapshot.Snapshot) (*query.Engine, error) {
	r, err := chosenRanker()
	if err != nil {
		return nil, err
	}
	return query.New(s, r.Options()...)
}

// openSnapshot opens a snapshot: with checked, through
// snapshot.OpenChecked, so that a damaged file is refused rather than
// answered from. Its errors say what to do: a missing or foreign file gets
// the command that makes a snapshot, a folder the build command for it, a
// damaged one the rebuild.
func openSnapshot(path string, checked bool) (*snapshot.Snapshot, error) {
	open := snapshot.Open
	if checked {
		open = snapshot.OpenChecked
	}
	s, err := open(path)
	if err == nil {
		return s, nil
	}
	if st, serr := os.Stat(path); serr == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a snapshot; to index the repository there: knowing build --repo %s repo.snap", path, path)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("snapshot %s does not exist; create it with: knowing build --repo DIR %s", path, path)
	case errors.Is(err, snapshot.ErrBadMagic):
		return nil, fmt.Errorf("%s is not a knowing snapshot; make one with: knowing build --repo DIR OUT.snap", path)
	case errors.Is(err, snapshot.ErrCorrupt), errors.Is(err, snapshot.ErrTruncated):
		return nil, fmt.Errorf("snapshot %s is damaged, so nothing is answered from it (%v); rebuild it with: knowing build --repo DIR %s", path, err, path)
	}
	return nil, err
}

// maxStdinTask bounds a task read from stdin.
const maxStdinTask = 4 << 20

func readTask(arg string, stdin io.Reader) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxStdinTask+1))
	if err != nil {
		return "", fmt.Errorf("reading the task from stdin: %w", err)
	}
	if len(b) > maxStdinTask {
		return "", fmt.Errorf("the task on stdin is over %d MiB; give its first part, e.g. head -c 1000000", maxStdinTask>>20)
	}
	return string(b), nil
}

// snapAndTask reads a command line of SNAP and a task (and, for why, tail
// more arguments after it) as a user types it: the task's words may come
// unquoted ("knowing query x.snap where are cookies parsed"), and a
// snapshot given after the task is pointed out.
func snapAndTask(cmd string, pos []string, tail int, usage string) (snap, task string, rest []string, err error) {
	if len(pos) < 2+tail {
		return "", "", nil, usagef("%s (got %d arguments)", usage, len(pos))
	}
	snap, rest = pos[0], pos[len(pos)-tail:]
	task = strings.Join(pos[1:len(pos)-tail], " ")
	if _, err := os.Stat(snap); err != nil {
		for _, p := range pos[1:] {
			if strings.HasSuffix(p, ".snap") {
				if _, err := os.Stat(p); err == nil {
					return "", "", nil, usagef("the snapshot comes first: knowing %s %s \"%s\"", cmd, p, snap)
				}
			}
		}
	}
	return snap, task, rest, nil
}

// openTask reads the task argument ("-" for stdin) and opens the
// snapshot's engine; the caller closes the snapshot.
func openTask(snap, taskArg string, stdin io.Reader) (string, *snapshot.Snapshot, *query.Engine, error) {
	task, err := readTask(taskArg, stdin)
	if err != nil {
		return "", nil, nil, err
	}
	s, e, err := openEngine(snap)
	return task, s, e, err
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func cmdQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	limit := fs.Int("limit", 20, "number of results")
	budget := fs.Int("budget", 50000, "token budget the results are packed into")
	asJSON := fs.Bool("json", false, "JSON output (same as --format json)")
	format := fs.String("format", "text", "output `format`: text, json or markdown")
	vector := fs.Bool("vector", false, "add the hashed character-trigram vector channel (off by default: it lowered caddy, cargo and gostd; see EVAL.md)")
	docs := fs.Bool("docs", true, "give each result the opening of its doc comment")
	withSource := fs.Bool("source", false, "also give the code of the best results, read from the repository, while the budget has room")
	staleBudget := staleFlag(fs)
	rankerFlag(fs)
	pos, err := parse(fs, args, queryHelp, stderr)
	if err != nil {
		return err
	}
	snap, taskArg, _, err := snapAndTask("query", pos, 0, `want SNAP and "task"`)
	if err != nil {
		return err
	}
	if *limit < 1 {
		return usagef("--limit must be at least 1 (got %d)", *limit)
	}
	if *budget < 1 {
		return usagef("--budget must be at least 1 token (got %d)", *budget)
	}
	if err := checkFormat(asJSON, format); err != nil {
		return err
	}
	// One query allocates its workspace (about 60 bytes a node) and
	// exits: a collection would find nothing to free (see deferGC).
	deferGC(gcDeferLimit)
	task, s, e, err := openTask(snap, taskArg, stdin)
	if err != nil {
		return err
	}
	defer s.Close()
	fr := startFreshness(s, snap, *staleBudget)
	defer fr.wait()
	res, err := e.Query(context.Background(), task, query.Options{Limit: *limit, Budget: *budget, Vector: *vector, Docs: *docs})
	if err != nil {
		return err
	}
	for i := range res.Results {
		fr.mark(&res.Results[i])
	}
	out := queryJSON{Result: res, Freshness: fr.finish(stderr)}
	if m, err := s.Meta(); err == nil {
		out.Repo = m.RepoRoot
	}
	if *withSource {
		out.Sources = sourcesFor(s, out.Repo, res.Results, *budget-res.Stats.Tokens)
		for _, src := range out.Sources {
			if src.Note != "" {
				fmt.Fprintf(stderr, "knowing: %s: %s\n", src.Symbol, src.Note)
			}
		}
	}
	switch *format {
	case "json":
		return writeJSON(stdout, out)
	case "markdown":
		writeMarkdown(stdout, task, res, out.Sources)
	default:
		writeText(stdout, res, out.Sources)
		if res.Stats.Message != "" {
			fmt.Fprintln(stderr, "knowing:", res.Stats.Message)
		}
	}
	return nil
}

// queryJSON is query's --json output: the result with the root of the
// repository its files are relative to.
type queryJSON struct {
	Repo string `json:"repo"`
	*query.Result
	// Sources, with --source: the code of the best results, by rank,
	// while the budget has room.
	Sources []RankedSource `json:"sources,omitempty"`
	// Freshness is what the staleness check found (see staleHelp).
	Freshness *freshnessJSON `json:"freshness,omitempty"`
}

// RankedSource is the code of the result at Rank (1-based).
type RankedSource struct {
	Rank   int    `json:"rank"`
	Symbol string `json:"symbol"`
	Source
}

// sourcesFor reads the code of results, best first, each whose code fits
// in what is left of the budget (a token is about four bytes), skipping
// the ones that do not fit or cannot be read.
func sourcesFor(s *snapshot.Snapshot, root string, results []query.Item, left int) []RankedSource {
	var out []RankedSource
	r := newSourceReader(s, root)
	for i, it := range results {
		src, err := r.read(it.ID)
		if err != nil || src.Code == "" {
			continue
		}
		if t := codeTokens(src.Code); t <= left {
			left -= t
			out = append(out, RankedSource{Rank: i + 1, Symbol: it.Symbol, Source: src})
		}
	}
	return out
}

// codeTokens is what code costs of a token budget: a token is about four
// bytes.
func codeTokens(code string) int {
	return (len(code) + 3) / 4
}

// sourceOf returns the code given for rank (1-based), or nil.
func sourceOf(sources []RankedSource, rank int) *Source {
	for i := range sources {
		if sources[i].Rank == rank {
			return &sources[i].Source
		}
	}
	return nil
}

func writeText(w io.Writer, res *query.Result, sources []RankedSource) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, it := range res.Results {
		fmt.Fprintf(tw, "%d\t%.3f\t%s\t%s\t%s:%d%s\n", i+1, it.Score, it.Kind, clean(it.Symbol), clean(it.File), it.Line, fileMark(&it))
		// The signature and the summary are each a line's last cell,
		// which tabwriter leaves out of the column widths.
		if it.Signature != "" {
			fmt.Fprintf(tw, "\t\t\t  %s\n", clean(it.Signature))
		}
		if it.Doc != "" {
			fmt.Fprintf(tw, "\t\t\t  %s %s\n", commentMarker(it.Lang), clean(it.Doc))
		}
		if src := sourceOf(sources, i+1); src != nil {
			tw.Flush()
			fmt.Fprint(w, cleanCode(src.Code))
		}
	}
	tw.Flush()
	code := 0
	for _, src := range sources {
		code += codeTokens(src.Code)
	}
	fmt.Fprintf(w, "# %d results, %d tokens", len(res.Results), res.Stats.Tokens)
	if len(sources) > 0 {
		fmt.Fprintf(w, " and %d of code for %d of them", code, len(sources))
	}
	fmt.Fprintf(w, ", %d µs\n", res.Stats.ElapsedUS)
}

func writeMarkdown(w io.Writer, task string, res *query.Result, sources []RankedSource) {
	t := strings.TrimSpace(task)
	if len(t) > 200 {
		t = t[:200] + "…"
	}
	fmt.Fprintf(w, "## Code relevant to: %s\n\n", clean(strings.ReplaceAll(t, "\n", " ")))
	for i, it := range res.Results {
		fmt.Fprintf(w, "%d. `%s` (%s) — `%s:%d`%s\n", i+1, clean(it.Symbol), it.Kind, clean(it.File), it.Line, fileMark(&it))
		if it.Doc != "" {
			fmt.Fprintf(w, "   %s\n", clean(it.Doc))
		}
		if src := sourceOf(sources, i+1); src != nil {
			fmt.Fprintf(w, "\n```%s\n%s```\n\n", fenceLang(it.Lang), cleanCode(src.Code))
		} else if it.Signature != "" {
			fmt.Fprintf(w, "   ```%s\n   %s\n   ```\n", fenceLang(it.Lang), clean(it.Signature))
		}
	}
}

// clean makes text from the repository safe for a terminal: control
// characters (an escape sequence in a file name or a doc comment could
// retitle the terminal, or worse) and invalid UTF-8 are written as Go
// escapes.
func clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError
}

// commentMarker is how the language writes a line comment, to show a doc
// summary as a reader of that language would see it.
func commentMarker(lang string) string {
	switch lang {
	case "python", "ruby":
		return "#"
	}
	return "//"
}

// fenceLang names a language for a markdown code fence.
func fenceLang(lang string) string {
	switch lang {
	case "go", "python", "javascript", "typescript", "rust", "java", "ruby", "csharp", "c", "cpp":
		return lang
	}
	return ""
}

const whyHelp = `Usage: knowing why [flags] SNAP "task" SYMBOL

Runs the task and explains how SYMBOL (a qualified name, a Type.member
suffix, or a bare name) was found and scored: the seed channels and its
rank in each, its fused rank, whether it seeded the walk, its walk score,
HITS authority and hub, and every component of the final score with its
weight. The score is (Σ component × weight + authority adjustment) × kind
factor × test penalty (tests, examples and benchmarks, unless the task
is about them), plus a share of its container's (or, for a type,
its best member's) score.

It also prints every weight the engine ranks with (the defaults, or
those $KNOWING_TUNE overrides: "match=0.3,hitsSeed=0.1"), in the form
KNOWING_TUNE takes.

Output formats:
  text   one block per symbol with that name, then the weights
  json   {"explanations": [{"symbol", "kind", "file", "line", "channels",
          "fused_score", "fused_rank", "seed", "seed_rank", "walk_score",
          "hits_authority", "hits_hub", "blast_radius", "confidence",
          "recency", "distance", "match", "cover", "authority_adjustment",
          "test_penalty", "kind_factor", "member_boost", "weights",
          "score", "final_rank", "notes"}],
          "tuning": {"blast", "confidence", ...: every weight}}

Flags:
`

func cmdWhy(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("why", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "JSON output")
	rankerFlag(fs)
	pos, err := parse(fs, args, whyHelp, stderr)
	if err != nil {
		return err
	}
	snap, taskArg, rest, err := snapAndTask("why", pos, 1, `want SNAP, "task" and SYMBOL`)
	if err != nil {
		return err
	}
	deferGC(gcDeferLimit) // as in cmdQuery
	task, s, e, err := openTask(snap, taskArg, stdin)
	if err != nil {
		return err
	}
	defer s.Close()
	exps, err := e.Why(context.Background(), task, rest[0], query.Options{})
	if err != nil {
		return err
	}
	tuning := e.TuningFor(task)
	if *asJSON {
		return writeJSON(stdout, whyReport{Explanations: exps, Tuning: tuning})
	}
	for _, x := range exps {
		fmt.Fprintf(stdout, "%s (%s) %s:%d\n", x.Symbol, x.Kind, x.File, x.Line)
		if len(x.Channels) == 0 {
			fmt.Fprintln(stdout, "  channels:      none")
		}
		for _, c := range x.Channels {
			fmt.Fprintf(stdout, "  channel %-12s rank %d\n", c.Channel+":", c.Rank)
		}
		fmt.Fprintf(stdout, "  fused:         rank %d, score %.5f\n", x.FusedRank, x.FusedScore)
		fmt.Fprintf(stdout, "  seed:          %v (rank %d)\n", x.Seed, x.SeedRank)
		fmt.Fprintf(stdout, "  walk score:    %.6f\n", x.WalkScore)
		fmt.Fprintf(stdout, "  HITS:          authority %.4f, hub %.4f\n", x.Authority, x.Hub)
		w := x.Weights
		fmt.Fprintf(stdout, "  components:    blast radius %.3f (×%.2f), confidence %.3f (×%.2f), recency %.2f (×%.2f; neutral: no data source), distance %.2f (×%.2f), match %.3f (×%.2f), cover %.3f (×%.2f), authority adj %+.4f\n",
			x.Blast, w.Blast, x.Confidence, w.Confidence, x.Recency, w.Recency, x.Distance, w.Distance, x.Match, w.Match, x.Cover, w.Cover, x.AuthorityAdj)
		if x.KindFactor != 0 {
			fmt.Fprintf(stdout, "  multipliers:   kind ×%.2f, test penalty ×%.1f; then member/type boost %+.4f\n", x.KindFactor, x.TestPenalty, x.MemberBoost)
		}
		fmt.Fprintf(stdout, "  score:         %.4f\n", x.Score)
		if x.FinalRank > 0 {
			fmt.Fprintf(stdout, "  final rank:    %d\n", x.FinalRank)
		} else {
			fmt.Fprintln(stdout, "  final rank:    not ranked")
		}
		for _, n := range x.Notes {
			fmt.Fprintf(stdout, "  note:          %s\n", n)
		}
	}
	writeTuning(stdout, tuning)
	return nil
}

// whyReport is why's JSON output.
type whyReport struct {
	Explanations []*query.Explanation `json:"explanations"`
	Tuning       query.Tuning         `json:"tuning"`
}

// writeTuning prints the weights in KNOWING_TUNE's form, a few to a line.
func writeTuning(w io.Writer, t query.Tuning) {
	fmt.Fprintln(w, "weights (KNOWING_TUNE form):")
	line := ""
	for _, kv := range strings.Split(t.String(), ",") {
		if line != "" && len(line)+1+len(kv) > 72 {
			fmt.Fprintf(w, "  %s,\n", line)
			line = ""
		}
		if line != "" {
			line += ","
		}
		line += kv
	}
	fmt.Fprintf(w, "  %s\n", line)
}

const inspectHelp = `Usage: knowing inspect [--json] SNAP

Verifies every section checksum and prints what the snapshot holds: build
metadata, counts by language, kind and edge type, and section sizes.

Flags:
`

type inspectReport struct {
	Path      string                 `json:"path"`
	Bytes     int64                  `json:"bytes"`
	Meta      snapshot.Meta          `json:"meta"`
	Verified  bool                   `json:"verified"`
	Nodes     int                    `json:"nodes"`
	Edges     int                    `json:"edges"`
	Files     int                    `json:"files"`
	Languages map[string]int         `json:"languages"`
	Kinds     map[string]int         `json:"kinds"`
	EdgeTypes map[string]int         `json:"edge_types"`
	Sections  []snapshot.SectionInfo `json:"sections"`
}

func cmdInspect(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "JSON output")
	pos, err := parse(fs, args, inspectHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one snapshot path (got %d arguments)", len(pos))
	}
	s, err := openSnapshot(pos[0], false)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	meta, err := s.Meta()
	if err != nil {
		return err
	}
	r := inspectReport{Path: pos[0], Bytes: s.Size(), Meta: meta, Verified: true, Nodes: s.NumNodes(), Edges: s.NumEdges(), Files: s.NumFiles(),
		Languages: map[string]int{}, Kinds: map[string]int{}, EdgeTypes: map[string]int{}, Sections: s.Sections()}
	for id := 0; id < s.NumNodes(); id++ {
		k := s.Kind(uint32(id))
		r.Kinds[k.String()]++
		if k != snapshot.KindPackage && k != snapshot.KindFile && k != snapshot.KindExternal {
			r.Languages[s.Lang(uint32(id)).String()]++
		}
		it := s.Neighbors(uint32(id), snapshot.Out)
		for it.Next() {
			r.EdgeTypes[it.Type().String()]++
		}
	}
	if *asJSON {
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "%s: %s, checksums verified\n", r.Path, humanBytes(r.Bytes))
	fmt.Fprintf(stdout, "repo %s", meta.RepoRoot)
	if meta.GitCommit != "" {
		fmt.Fprintf(stdout, " @ %s", meta.GitCommit)
		if meta.GitDirty != nil && *meta.GitDirty {
			fmt.Fprint(stdout, " with uncommitted changes")
		}
	}
	fmt.Fprintf(stdout, ", built %s by knowing %s\n", meta.BuildTime.Format("2006-01-02 15:04:05Z"), meta.ToolVersion)
	fmt.Fprintf(stdout, "%d files, %d nodes, %d edges\n", r.Files, r.Nodes, r.Edges)
	printCounts(stdout, "symbols by language", r.Languages)
	printCounts(stdout, "nodes by kind", r.Kinds)
	printCounts(stdout, "edges by type", r.EdgeTypes)
	fmt.Fprintln(stdout, "sections:")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, sec := range r.Sections {
		fmt.Fprintf(tw, "  %s\t%d\t%08x\t\n", sec.Name, sec.Length, sec.Checksum)
	}
	tw.Flush()
	return nil
}

func printCounts(w io.Writer, title string, m map[string]int) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	fmt.Fprintf(w, "%s:", title)
	for _, k := range keys {
		fmt.Fprintf(w, " %s %d", k, m[k])
	}
	fmt.Fprintln(w)
}
