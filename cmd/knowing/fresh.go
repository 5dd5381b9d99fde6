package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// staleBudget is how long a command spends checking, beside its answer,
// whether the repository changed since the snapshot was built.
const staleBudget = 2 * time.Millisecond

// staleHelp explains the check in every command's help.
const staleHelp = `
Every answer is checked against the repository the snapshot was built
from (a stat call per file, beside the answer, within --stale-budget):
when files changed, appeared or went away since, one line on stderr says
how many and gives the rebuild command, the results from changed or
removed files are marked ([changed], [removed]; in JSON "file_state"),
and JSON output carries
  "freshness": {"stale", "complete", "files", "checked", "changed",
                "added", "removed", "changed_files", "added_files",
                "removed_files", "other_changed", "elapsed_us", "rebuild",
                "error"}
complete is false when the budget ran out first (the counts are then
what was found until then); the file lists hold at most 50 paths each;
other_changed lists manifests and ignore files the build read.
`

// staleFlag adds --stale-budget to a command's flags.
func staleFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("stale-budget", staleBudget, "time to spend checking whether the repository changed since the build (0: no check)")
}

// freshness is the staleness check of a command's snapshot, run on
// another goroutine while the command works out its answer. A nil
// *freshness (the check turned off) does nothing.
type freshness struct {
	s          *snapshot.Snapshot
	snap, root string
	done       chan struct{}
	rep        *snapshot.StaleReport
	err        error
	marks      map[int32]snapshot.FileState
}

// startFreshness starts the check of s (opened from snap) within budget.
// The caller must call wait before closing s: defer it right after the
// deferred Close.
func startFreshness(s *snapshot.Snapshot, snap string, budget time.Duration) *freshness {
	if budget <= 0 {
		return nil
	}
	f := &freshness{s: s, snap: snap, done: make(chan struct{}), marks: map[int32]snapshot.FileState{}}
	if m, err := s.Meta(); err == nil {
		f.root = m.RepoRoot
	}
	go func() {
		defer close(f.done)
		f.rep, f.err = s.Stale(f.root, budget)
	}()
	return f
}

// wait waits for the check to end.
func (f *freshness) wait() {
	if f != nil {
		<-f.done
	}
}

// mark sets the file state of items whose file changed or went away
// since the build; their files are checked whatever the budget. When the
// check has ended it takes what the check found of their files, and
// checks only the ones it did not reach; while it runs, it checks them
// all rather than wait.
func (f *freshness) mark(items ...*query.Item) {
	if f == nil {
		return
	}
	var rep *snapshot.StaleReport // nil: the check still runs, or failed
	select {
	case <-f.done:
		rep = f.rep
	default:
	}
	for _, it := range items {
		fi := f.s.FileIndex(it.ID)
		if fi < 0 {
			continue
		}
		st, ok := f.marks[fi]
		if !ok {
			if st = rep.State(int(fi)); st == snapshot.FileUnchecked {
				st = f.s.CheckFile(f.root, int(fi))
			}
			f.marks[fi] = st
		}
		if st == snapshot.FileChanged || st == snapshot.FileRemoved {
			it.FileState = st.String()
		}
	}
}

// fileMark is how text output marks an item's file state.
func fileMark(it *query.Item) string {
	if it.FileState == "" {
		return ""
	}
	return " [" + it.FileState + "]"
}

// freshnessJSON is the "freshness" field of the commands' JSON output.
type freshnessJSON struct {
	Stale        bool     `json:"stale"`
	Complete     bool     `json:"complete"`
	Files        int      `json:"files"`
	Checked      int      `json:"checked"`
	Changed      int      `json:"changed"`
	Added        int      `json:"added"`
	Removed      int      `json:"removed"`
	ChangedFiles []string `json:"changed_files"`
	AddedFiles   []string `json:"added_files"`
	RemovedFiles []string `json:"removed_files"`
	OtherChanged []string `json:"other_changed"`
	ElapsedUS    int64    `json:"elapsed_us"`
	Rebuild      string   `json:"rebuild,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// maxListed bounds each file list of freshnessJSON.
const maxListed = 50

func firstOf(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s[:min(len(s), maxListed)]
}

// finish waits for the check, writes its one line to w when the snapshot
// is stale or the check could not finish, and returns what JSON output
// carries (nil when the check is off or the snapshot has no stamps).
func (f *freshness) finish(w io.Writer) *freshnessJSON {
	if f == nil {
		return nil
	}
	f.wait()
	if f.err != nil {
		fmt.Fprintf(w, "knowing: could not tell whether the snapshot is stale: %v\n", f.err)
		return &freshnessJSON{Error: f.err.Error(), ChangedFiles: []string{}, AddedFiles: []string{}, RemovedFiles: []string{}, OtherChanged: []string{}}
	}
	r := f.rep
	if !r.Stamped {
		return nil
	}
	j := &freshnessJSON{Stale: r.Stale(), Complete: r.Complete, Files: r.Files, Checked: r.Checked,
		Changed: len(r.Changed), Added: len(r.Added), Removed: len(r.Removed),
		ChangedFiles: firstOf(r.Changed), AddedFiles: firstOf(r.Added), RemovedFiles: firstOf(r.Removed),
		OtherChanged: firstOf(r.Deps), ElapsedUS: r.Elapsed.Microseconds()}
	if j.Stale {
		j.Rebuild = "knowing build --repo " + shellQuote(r.Root) + " " + shellQuote(f.snap)
	}
	if line := staleLine(r, j.Rebuild); line != "" {
		fmt.Fprintln(w, line)
	}
	return j
}

// staleLine is the one line a command prints about a stale snapshot, or
// about a check its budget cut short; "" for a fresh one.
func staleLine(r *snapshot.StaleReport, rebuild string) string {
	if !r.Stale() {
		if r.Complete {
			return ""
		}
		return fmt.Sprintf("knowing: staleness check skipped: %d of %d files checked within %s (raise --stale-budget to check them all)",
			r.Checked, r.Files, r.Elapsed.Round(100*time.Microsecond))
	}
	var parts []string
	for _, c := range []struct {
		n    int
		verb string
	}{{len(r.Changed), "changed"}, {len(r.Added), "added"}, {len(r.Removed), "removed"}} {
		switch {
		case c.n == 0:
		case len(parts) == 0:
			parts = append(parts, fmt.Sprintf("%d %s %s", c.n, plural(c.n, "file", "files"), c.verb))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.verb))
		}
	}
	if len(r.Deps) > 0 {
		parts = append(parts, strings.Join(firstOf(r.Deps)[:min(len(r.Deps), 3)], ", ")+" changed")
	}
	at := ""
	if !r.Complete {
		at = fmt.Sprintf(" at least (the check stopped after %d of %d files)", r.Checked, r.Files)
	}
	return fmt.Sprintf("knowing: the snapshot is stale: %s since the build%s; rebuild with: %s", strings.Join(parts, ", "), at, rebuild)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%=", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
