package extract

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/knowing-dev/knowing/internal/gitdiff"
)

// History evidence: what the commits that changed a symbol said, and which
// symbols changed together. A repository's history is read once per build
// from the git command line (git log -p -U0 over a bounded window), and
// each commit's changed lines are carried forward, through every later
// commit and the uncommitted changes, to the lines of the work tree that
// was parsed: the symbols whose spans hold them are the ones it changed.

// HistoryOptions bound the window of history a build reads.
type HistoryOptions struct {
	// MaxCommits is how many commits, newest first, are read (merges
	// left out); 0 means DefaultHistoryCommits, negative means none.
	MaxCommits int
	// Since leaves out commits older than this; 0 means no age limit.
	Since time.Duration
}

// DefaultHistoryCommits is the window a build reads unless told otherwise.
const DefaultHistoryCommits = 500

// maxHistoryBytes bounds the git output a build reads; the window ends
// where it is reached.
const maxHistoryBytes = 512 << 20

// Commit is one commit of the window.
type Commit struct {
	Hash    string
	Time    int64 // committer time, Unix seconds
	Subject string
}

// history is a window of commits and, per work-tree file, the line ranges
// of the work tree each commit changed.
type history struct {
	commits []Commit
	// touched maps a file path to its changes: commit index and the
	// work-tree lines [from, to) it changed.
	touched map[string][]lineChange
}

type lineChange struct {
	commit   int32
	from, to uint32
}

// hunk is one -U0 diff hunk: old lines [a, a+b), new lines [c, c+d); with
// b == 0 (d == 0) the hunk inserts after old line a (deletes after new
// line c).
type hunk struct{ a, b, c, d uint32 }

// lineMap maps the lines of one file at some commit to the work tree's:
// sorted, disjoint segments; a line in no segment is gone from the work
// tree.
type lineMap []segment

type segment struct {
	from, to uint32 // [from, to) at the commit
	off      int64  // work-tree line = line + off
}

var identity = lineMap{{1, 1 << 31, 0}}

// maxSurplus bounds the old lines of a shrinking hunk that are mapped to
// its last new line; the rest are gone.
const maxSurplus = 64

// readHistory runs git at root, whose checked-out commit is head (gitHead),
// and reads the window. It returns nil, nil when root is not in a git work
// tree or git is not installed.
func readHistory(ctx context.Context, root, head string, opt HistoryOptions) (*history, error) {
	n := opt.MaxCommits
	if n == 0 {
		n = DefaultHistoryCommits
	}
	if n < 0 {
		return nil, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil
	}
	if out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--is-inside-work-tree").Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, nil
	}
	h := &history{touched: map[string][]lineChange{}}
	maps := map[string]lineMap{}
	// The uncommitted changes first: they map HEAD's lines to the work
	// tree's and change nothing a commit said.
	diff := exec.CommandContext(ctx, "git", "-C", root, "-c", "core.quotepath=off", "diff", "HEAD", "--no-color", "--no-ext-diff", "--no-renames", "-U0", "--relative")
	if out, err := diff.Output(); err == nil {
		parseLog(bytes.NewReader(out), func(c *Commit) {}, func(path string, hs []hunk, added, deleted bool) {
			maps[path] = stepBack(mapOf(maps, path), hs, added)
		})
	}
	args := []string{"-C", root, "-c", "core.quotepath=off", "log", "--no-merges", "--no-renames", "--no-color", "--no-ext-diff",
		"-U0", "-p", "--relative", "--format=%x1e%H %ct%n%s%x1f", "-n", strconv.Itoa(n)}
	if opt.Since > 0 {
		args = append(args, "--since="+strconv.FormatInt(time.Now().Add(-opt.Since).Unix(), 10))
	}
	data, err := gitLog(ctx, root, head, args)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	r := bytes.NewReader(data)
	cur := int32(-1)
	parseLog(r, func(c *Commit) {
		h.commits = append(h.commits, *c)
		cur = int32(len(h.commits) - 1)
	}, func(path string, hs []hunk, added, deleted bool) {
		if cur < 0 || deleted {
			return
		}
		m := mapOf(maps, path)
		for _, x := range hs {
			from, to := x.c, x.c+x.d
			if x.d == 0 {
				from, to = max(x.c, 1), max(x.c, 1)+1
			}
			for _, s := range m {
				lo, hi := max(from, s.from), min(to, s.to)
				if lo < hi {
					h.touched[path] = append(h.touched[path], lineChange{cur, uint32(int64(lo) + s.off), uint32(int64(hi) + s.off)})
				}
			}
		}
		maps[path] = stepBack(m, hs, added)
	})
	return h, nil
}

func mapOf(maps map[string]lineMap, path string) lineMap {
	if m, ok := maps[path]; ok {
		return m
	}
	return identity
}

// stepBack turns m, the map of a file's lines at a commit, into the map
// of its lines at the commit's parent, given the commit's hunks for it. A
// file the commit added did not exist before it.
func stepBack(m lineMap, hs []hunk, added bool) lineMap {
	if added || len(m) == 0 {
		return lineMap{}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].a < hs[j].a })
	// The parent's lines and where each lies at the commit: unchanged
	// stretches shift; a replaced line keeps its place in the hunk (the
	// i-th old line is the i-th new one, the surplus of a shrinking hunk
	// the last new line), as blame would see it; lines a hunk only
	// deleted are gone.
	var keep lineMap
	prev := uint32(1) // first parent line not yet placed
	shift := int64(0) // commit line - parent line, past the hunks so far
	for _, x := range hs {
		end := x.a // parent lines before the hunk's removed lines
		if x.b == 0 {
			end = x.a + 1 // an insertion after line a keeps line a
		}
		if end > prev {
			keep = append(keep, segment{prev, end, shift})
		}
		if x.b > 0 && x.d > 0 {
			same := min(x.b, x.d)
			keep = append(keep, segment{x.a, x.a + same, int64(x.c) - int64(x.a)})
			for i := same; i < x.b && i < same+maxSurplus; i++ {
				keep = append(keep, segment{x.a + i, x.a + i + 1, int64(x.c+x.d-1) - int64(x.a+i)})
			}
		}
		if x.b > 0 {
			prev = x.a + x.b
		} else {
			prev = x.a + 1
		}
		shift += int64(x.d) - int64(x.b)
	}
	keep = append(keep, segment{prev, 1 << 31, shift})
	// Compose: parent line → commit line → work-tree line.
	var out lineMap
	for _, k := range keep {
		for _, s := range m {
			lo := max(int64(k.from), int64(s.from)-k.off)
			hi := min(int64(k.to), int64(s.to)-k.off)
			if lo < hi {
				out = append(out, segment{uint32(lo), uint32(hi), k.off + s.off})
			}
		}
	}
	// Sorted, and neighbours with one offset merged: a file changed by
	// many commits keeps a short map.
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	merged := out[:0]
	for _, s := range out {
		if n := len(merged); n > 0 && merged[n-1].to == s.from && merged[n-1].off == s.off {
			merged[n-1].to = s.to
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// parseLog reads git log -p -U0 output in the format readHistory asks
// for (or plain git diff output), calling commit for each commit header
// and file for each file's hunks.
func parseLog(r io.Reader, commit func(*Commit), file func(path string, hs []hunk, added, deleted bool)) {
	br := bufio.NewReaderSize(r, 1<<16)
	var (
		path           string
		hs             []hunk
		added, deleted bool
		inFile         bool
		c              Commit
	)
	flush := func() {
		if inFile && path != "" {
			file(path, hs, added, deleted)
		}
		inFile, path, hs, added, deleted = false, "", hs[:0], false, false
	}
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			switch {
			case line[0] == 0x1e:
				flush()
				head := strings.TrimSpace(string(line[1:]))
				hash, ts, _ := strings.Cut(head, " ")
				c = Commit{Hash: hash}
				c.Time, _ = strconv.ParseInt(ts, 10, 64)
				subj, _ := readLine(br)
				c.Subject = strings.TrimRight(string(subj), "\x1f")
				commit(&c)
			case bytes.HasPrefix(line, []byte("diff --git ")):
				flush()
				inFile = true
			case !inFile:
			case bytes.HasPrefix(line, []byte("new file mode")):
				added = true
			case bytes.HasPrefix(line, []byte("deleted file mode")):
				deleted = true
			case bytes.HasPrefix(line, []byte("+++ ")):
				if p := gitdiff.Path(string(line[4:]), "b/"); p != "" {
					path = p
				}
			case bytes.HasPrefix(line, []byte("--- ")):
				if deleted {
					path = gitdiff.Path(string(line[4:]), "a/")
				}
			case bytes.HasPrefix(line, []byte("@@ -")):
				if a, b, c, d, ok := gitdiff.Hunk(string(line)); ok {
					hs = append(hs, hunk{uint32(a), uint32(b), uint32(c), uint32(d)})
				}
			}
		}
		if err != nil {
			break
		}
	}
	flush()
}

// readLine returns the next line without its newline; a line longer than
// the reader's buffer is cut (only diff headers matter, and they are
// short).
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		return line[:0:0], err
	}
	return bytes.TrimSuffix(line, []byte("\n")), err
}

// String describes the window, for build statistics.
func (h *history) String() string {
	if h == nil {
		return "no history"
	}
	return fmt.Sprintf("%d commits, %d files touched", len(h.commits), len(h.touched))
}

// Caps of what history gives a symbol: the subjects of its most recent
// commits in the window, and co-change pairs only from commits that
// changed few symbols (a sweeping refactor says nothing about which
// symbols belong together).
const (
	MaxHistorySubjects = 8
	maxCoChangeSymbols = 12
	minCoChanges       = 2
)

// attachHistory gives each symbol of results the commits of h that
// changed it: the innermost symbols whose spans hold a changed line.
func attachHistory(h *history, results []*FileResult) {
	// A result an incremental build kept may carry the commits of the
	// build that made it: every build starts from none.
	for _, f := range results {
		for si := range f.Symbols {
			f.Symbols[si].Commits, f.Symbols[si].History = nil, ""
		}
	}
	if h == nil || len(h.commits) == 0 {
		return
	}
	for _, f := range results {
		ch := h.touched[f.Path]
		if len(ch) == 0 || len(f.Symbols) == 0 {
			continue
		}
		for _, c := range ch {
			for si := range f.Symbols {
				s := &f.Symbols[si]
				if s.Start == 0 || s.End < c.from || s.Start >= c.to {
					continue
				}
				if innerHolds(f.Symbols, si, c) {
					continue
				}
				if n := len(s.Commits); n == 0 || s.Commits[n-1] != c.commit {
					s.Commits = append(s.Commits, c.commit)
				}
			}
		}
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if len(s.Commits) == 0 {
				continue
			}
			// Hunks arrive per commit, newest commit first, but one
			// commit's hunks of a file may interleave with none other:
			// the list is in window order already; keep it unique.
			s.Commits = uniqueSorted(s.Commits)
			var b strings.Builder
			for i, k := range s.Commits {
				if i == MaxHistorySubjects {
					break
				}
				if i > 0 {
					b.WriteString("\n")
				}
				b.WriteString(h.commits[k].Subject)
			}
			s.History = b.String()
		}
	}
}

// innerHolds reports whether a symbol nested in symbol si covers every
// line of c that si covers: then the change is the inner symbol's.
func innerHolds(syms []Symbol, si int, c lineChange) bool {
	s := &syms[si]
	lo, hi := max(s.Start, c.from), min(s.End+1, c.to)
	for j := si + 1; j < len(syms); j++ {
		t := &syms[j]
		if t.Start > s.End {
			break
		}
		if !nestedIn(syms, j, si) || t.Start == 0 {
			continue
		}
		if t.Start <= lo && t.End+1 >= hi {
			return true
		}
	}
	return false
}

// nestedIn reports whether symbol j lies inside symbol i by the Parent
// chain.
func nestedIn(syms []Symbol, j, i int) bool {
	for p := syms[j].Parent; p >= 0 && int(p) < len(syms); p = syms[p].Parent {
		if int(p) == i {
			return true
		}
		if int(p) < i {
			return false
		}
	}
	return false
}

func uniqueSorted(a []int32) []int32 {
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	out := a[:0]
	for i, v := range a {
		if i == 0 || v != a[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// logCache keeps the last git log output this process read, by work tree,
// HEAD and arguments: watch and the MCP server rebuild after every save,
// and the log of commits does not change until HEAD moves.
var logCache struct {
	sync.Mutex
	key  string
	data []byte
}

// gitLog runs git with args at root and returns its output, at most
// maxHistoryBytes of it, from logCache when HEAD (head, "" when unknown)
// has not moved.
func gitLog(ctx context.Context, root, head string, args []string) ([]byte, error) {
	key := ""
	if head != "" {
		key = root + "\x00" + head + "\x00" + strings.Join(args, "\x00")
		logCache.Lock()
		if logCache.key == key {
			data := logCache.data
			logCache.Unlock()
			return data, nil
		}
		logCache.Unlock()
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, rerr := io.ReadAll(io.LimitReader(out, maxHistoryBytes))
	io.Copy(io.Discard, out) // past the byte limit: let git finish
	if err := cmd.Wait(); err != nil && (ctx.Err() != nil || len(data) == 0) {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	if key != "" {
		logCache.Lock()
		logCache.key, logCache.data = key, data
		logCache.Unlock()
	}
	return data, nil
}
