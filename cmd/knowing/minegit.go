package main

// The git side of mining: listing commits, the filters on a commit's
// message and author, a commit's changed line ranges, and a folder that
// holds one commit's tree at a time. Everything goes through the git
// command line (plumbing where there is one), never through the user's
// configured diff drivers or prefixes.

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/internal/gitdiff"
)

// mineFlags are the flags mine and eval --mined share.
type mineFlags struct {
	max      *int
	since    *string
	fixes    *bool
	tests    *bool
	minWords *int
	name     *string
	rev      *string
}

func mineFlagsOf(fs *flag.FlagSet) mineFlags {
	return mineFlags{
		max:      fs.Int("max", 50, "mine at most this many qualifying commits, newest first"),
		since:    fs.String("since", "", "only commits after this `date` (anything git log --since reads: 2024-01-01, \"6 months ago\")"),
		fixes:    fs.Bool("fixes", false, "only bug fixes: commits whose subject says fix, bug, crash, error, wrong, ... (see 'knowing mine --help')"),
		tests:    fs.Bool("tests", false, "also keep commits that changed only tests, as tier mined-test"),
		minWords: fs.Int("min-words", 4, "skip commits whose message has fewer `words`"),
		name:     fs.String("name", "", "repo `name` written in the fixtures (default: the repository folder's name)"),
		rev:      fs.String("rev", "HEAD", "walk the history back from this `commit` (a branch, tag or hash)"),
	}
}

// runGit runs git in the repository dir (env added to the process's,
// stdin its input; nil for none) and returns its standard output, or the
// error and what git wrote on its standard error, trimmed. The commands
// that run git to completion go through it and word its errors each
// their own way.
func runGit(dir string, env []string, stdin io.Reader, args ...string) ([]byte, string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, strings.TrimSpace(errb.String()), err
	}
	return out.Bytes(), "", nil
}

// git runs git in the repository dir and returns its standard output;
// its errors are mining's.
func git(dir string, env []string, stdin io.Reader, args ...string) ([]byte, error) {
	out, msg, err := runGit(dir, env, stdin, args...)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("mining needs the git command, which is not on PATH")
		}
		if msg == "" {
			msg = err.Error()
		}
		sub := args[0] // the subcommand: the first word that is no option
		for i := 0; i < len(args); i++ {
			if args[i] == "-c" {
				i++
			} else if !strings.HasPrefix(args[i], "-") {
				sub = args[i]
				break
			}
		}
		return nil, fmt.Errorf("git %s: %s", sub, msg)
	}
	return out, nil
}

// commitInfo is one commit of the log.
type commitInfo struct {
	Hash    string
	Parents []string
	Author  string // name <email>
	Message string // subject and body as written
}

// Subject is the message's first line.
func (c *commitInfo) Subject() string {
	s, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	return strings.TrimSpace(s)
}

// listCommits runs git log from rev, newest first, and calls visit for
// each commit until it returns false.
func listCommits(dir, rev, since string, visit func(commitInfo) bool) error {
	args := []string{"-C", dir, "log", "--no-color", "--format=%H%x1f%P%x1f%an <%ae>%x1f%B%x1e"}
	if since != "" {
		args = append(args, "--since="+since)
	}
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return fmt.Errorf("--rev %q is not a commit", rev)
	}
	args = append(args, rev, "--")
	cmd := exec.Command("git", args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New("mining needs the git command, which is not on PATH")
		}
		return err
	}
	br := bufio.NewReaderSize(out, 1<<16)
	stopped := false
	for {
		rec, err := br.ReadString('\x1e')
		if rec = strings.TrimLeft(rec, "\n"); strings.HasSuffix(rec, "\x1e") {
			f := strings.SplitN(strings.TrimSuffix(rec, "\x1e"), "\x1f", 4)
			if len(f) == 4 && !visit(commitInfo{Hash: f[0], Parents: strings.Fields(f[1]), Author: f[2], Message: f[3]}) {
				stopped = true
				break
			}
		}
		if err != nil {
			break
		}
	}
	if stopped {
		cmd.Process.Kill()
		cmd.Wait()
		return nil
	}
	if err := cmd.Wait(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if strings.Contains(msg, "does not have any commits") {
			return nil
		}
		return fmt.Errorf("git log in %s: %s", dir, msg)
	}
	return nil
}

// The filters on a commit's message and author. Each returns the reason a
// commit is skipped, "" to keep it. They compile on first use: compiled
// when the package starts, they cost every knowing process (a query
// too) about 2 ms and 50 page faults.
var (
	revertRe = lazyRegexp(`(?i)^revert\b|\bthis reverts commit [0-9a-f]{7,}`)
	// A version bump or release: the subject starts with release, bump,
	// prepare, version or a version number, or says it bumps or sets the
	// version, or names a release of a version, or is a conventional
	// release or dependency chore.
	versionRe = lazyRegexp(`(?i)^\[?(release|bump|prepare|version)\b|^v?\d+\.\d+(\.\d+)*\b|\b(bump(ed|s)?|update[sd]?|set)\s+(the\s+)?version\b|\b(release|version)\s+v?\d+\.\d+|^chore\((release|deps)\)`)
	// A formatter run: the subject says it ran or applied a formatter, or
	// reformats, or is a conventional style or fmt commit. (A change of
	// whitespace alone is caught by the diff, which ignores whitespace.)
	formatRe = lazyRegexp(`(?i)\breformat(s|ted|ting)?\b|\b(run|ran|apply|applied|with|using)\s+(black|prettier|gofmt|go fmt|rustfmt|cargo fmt|isort|ruff format|clang-format|autopep8|yapf|standardrb)\b|^(style|fmt)(\(.*?\))?:`)
	// A bot author: GitHub's "[bot]" accounts, a name or address with the
	// word bot, and the dependency and CI services by name.
	botRe = lazyRegexp(`(?i)\[bot\]|(^|[^a-z])bot([^a-z]|$)|dependabot|renovate|github-actions|pre-commit-ci|greenkeeper|allcontributors|snyk|imgbot`)
	// A bug fix (--fixes): the subject says fix, bug, crash, error,
	// wrong, incorrect, broken, regression, fail, panic or exception, in
	// any of their usual forms, and is not about a typo, documentation,
	// tests or CI alone.
	fixRe    = lazyRegexp(`(?i)\b(fix(es|ed|ing)?|bug(s|fix(es)?)?|crash(es|ed|ing)?|errors?|wrong(ly)?|incorrect(ly)?|broken|regressions?|fail(s|ed|ing|ure|ures)?|panic(s|ked)?|exceptions?)\b`)
	notFixRe = lazyRegexp(`(?i)\btypos?\b|^(docs?|ci|tests?|build)(\(.*?\))?:`)
	// trailerRe is a trailer line dropped from the task.
	trailerRe = lazyRegexp(`(?i)^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|cc|change-id):`)
	wordRe    = lazyRegexp(`\pL[\pL\pN_'-]*`)
)

// skipReason applies the message and author filters: merges, reverts,
// version bumps, formatter runs, bot authors, short messages, and, with
// fixes, anything that is not a bug fix.
func skipReason(c *commitInfo, fixes bool, minWords int) string {
	subj := c.Subject()
	switch {
	case len(c.Parents) > 1:
		return "merge"
	case len(c.Parents) == 0:
		return "root commit"
	case revertRe().MatchString(c.Message):
		return "revert"
	case versionRe().MatchString(subj):
		return "version bump"
	case formatRe().MatchString(subj):
		return "formatting"
	case botRe().MatchString(c.Author):
		return "bot"
	case len(wordRe().FindAllString(taskText(c.Message), -1)) < minWords:
		return "short message"
	case fixes && (!fixRe().MatchString(subj) || notFixRe().MatchString(subj)):
		return "not a fix"
	}
	return ""
}

// taskText is a commit message as a task: subject and body, without
// trailers (Signed-off-by and the like) and cherry-pick notes, with
// runs of blank lines closed up.
func taskText(msg string) string {
	var b strings.Builder
	blank := false
	for _, line := range strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		if trailerRe().MatchString(t) || strings.HasPrefix(t, "(cherry picked from commit ") {
			continue
		}
		if t == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteString("\n\n")
		} else if b.Len() > 0 {
			b.WriteByte('\n')
		}
		blank = false
		b.WriteString(strings.TrimRight(line, " \t"))
	}
	return b.String()
}

// lineSpan is lines Start to End, 1-based, inclusive.
type lineSpan struct{ Start, End int }

// fileChange is one file of a commit's diff: its path before and after
// ("" when the commit adds or deletes it), the line ranges of the parent's
// version the commit removes or replaces (Old), and those of the commit's
// version it adds or replaces with (New).
type fileChange struct {
	OldPath, NewPath string
	Old, New         []lineSpan
}

// commitChanges returns the changed line ranges of commit against parent,
// ignoring changes of whitespace and blank lines (a reformatted line is no
// change), with renames followed.
func commitChanges(dir, parent, commit string) ([]fileChange, error) {
	out, err := git(dir, nil, nil, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
		"-U0", "-w", "--ignore-blank-lines", "-M", "--src-prefix=a/", "--dst-prefix=b/", parent, commit, "--")
	if err != nil {
		return nil, err
	}
	return parseChanges(out)
}

// parseChanges reads a unified diff with both sides' paths and hunks.
func parseChanges(diff []byte) ([]fileChange, error) {
	var out []fileChange
	var cur *fileChange
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			out = append(out, fileChange{})
			cur = &out[len(out)-1]
		case cur == nil:
		case strings.HasPrefix(line, "--- "):
			cur.OldPath = gitdiff.Path(line[4:], "a/")
		case strings.HasPrefix(line, "+++ "):
			cur.NewPath = gitdiff.Path(line[4:], "b/")
		case strings.HasPrefix(line, "rename from "):
			cur.OldPath = gitdiff.Unquote(line[len("rename from "):])
		case strings.HasPrefix(line, "rename to "):
			cur.NewPath = gitdiff.Unquote(line[len("rename to "):])
		case strings.HasPrefix(line, "@@ "):
			a, b, c, d, ok := gitdiff.Hunk(line)
			if !ok {
				return nil, fmt.Errorf("diff: bad hunk header %q", line)
			}
			// A count of 0 gives an empty span (End < Start).
			o, n := lineSpan{a, a + b - 1}, lineSpan{c, c + d - 1}
			if o.End >= o.Start {
				cur.Old = append(cur.Old, o)
			}
			if n.End >= n.Start {
				cur.New = append(cur.New, n)
			}
		}
	}
	return out, sc.Err()
}

// treeDir is a folder holding the files of one tree of a repository at a
// time, moved from tree to tree by writing and removing only the files
// that differ. It holds the blobs no larger than maxBlob (larger files are
// never parsed) and leaves out blobs the repository lacks (a partial
// fetch) and submodules.
type treeDir struct {
	repo    string
	gitDir  string // the repository's git folder, absolute
	dir     string
	index   string            // a private index file: the repository's own is never touched
	maxBlob int64             // 0: no limit
	cur     map[string]string // path → mode and object name of what dir holds
	tree    string            // the tree dir holds, "" for none yet
}

func newTreeDir(repo string, maxBlob int64) (*treeDir, error) {
	gd, err := git(repo, nil, nil, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return nil, fmt.Errorf("%s is not a git repository: %w", repo, err)
	}
	dir, err := os.MkdirTemp("", "knowing-tree-*")
	if err != nil {
		return nil, err
	}
	return &treeDir{repo: repo, gitDir: strings.TrimSpace(string(gd)), dir: filepath.Join(dir, "tree"), index: filepath.Join(dir, "index"), maxBlob: maxBlob, cur: map[string]string{}}, nil
}

// Close removes the folder.
func (t *treeDir) Close() error { return os.RemoveAll(filepath.Dir(t.dir)) }

// moveTo makes the folder hold the tree of commit (any tree-ish).
func (t *treeDir) moveTo(commit string) error {
	treeB, err := git(t.repo, nil, nil, "rev-parse", "--verify", "--quiet", commit+"^{tree}")
	if err != nil {
		return fmt.Errorf("no tree for %s: %w", commit, err)
	}
	tree := strings.TrimSpace(string(treeB))
	if tree == t.tree {
		return nil
	}
	ls, err := git(t.repo, nil, nil, "ls-tree", "-r", "-l", "-z", "--full-tree", tree)
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, rec := range bytes.Split(ls, []byte{0}) {
		// <mode> SP <type> SP <object> SP+ <size> TAB <path>
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 || f[1] != "blob" || f[3] == "BAD" || f[3] == "-" {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || t.maxBlob > 0 && size > t.maxBlob {
			continue
		}
		want[string(p)] = f[0] + " " + f[2]
	}
	for p, id := range t.cur {
		if want[p] != id {
			abs := filepath.Join(t.dir, filepath.FromSlash(p))
			if err := os.Remove(abs); err != nil && !os.IsNotExist(err) {
				return err
			}
			removeEmptyParents(t.dir, path.Dir(p))
			delete(t.cur, p)
		}
	}
	var list bytes.Buffer
	for p, id := range want {
		if t.cur[p] != id {
			list.WriteString(p)
			list.WriteByte(0)
		}
	}
	// The tree goes into a private index, and from there into the
	// folder as a work tree of its own (a bare repository has none).
	env := []string{"GIT_INDEX_FILE=" + t.index}
	if _, err := git(t.repo, env, nil, "--git-dir="+t.gitDir, "read-tree", tree); err != nil {
		return err
	}
	if list.Len() > 0 {
		if err := os.MkdirAll(t.dir, 0o755); err != nil {
			return err
		}
		if _, err := git(t.repo, env, &list, "--git-dir="+t.gitDir, "--work-tree="+t.dir, "checkout-index", "-f", "-z", "--stdin"); err != nil {
			return err
		}
	}
	t.cur, t.tree = want, tree
	return nil
}

// removeEmptyParents removes folder rel under root and its parents while
// they are empty.
func removeEmptyParents(root, rel string) {
	for rel != "." && rel != "/" && rel != "" {
		if os.Remove(filepath.Join(root, filepath.FromSlash(rel))) != nil {
			return
		}
		rel = path.Dir(rel)
	}
}

// lazyRegexp returns a function that compiles pattern the first time it is
// called and returns that regexp from then on.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
