// Command knowing finds the code a task needs.
//
//	knowing build [--repo DIR] OUT.snap     index a repository into a snapshot
//	knowing watch [--repo DIR] SNAP         keep a snapshot up to date
//	knowing query SNAP "task"               ranked symbols for a task
//	knowing why SNAP "task" SYMBOL          how one symbol scored
//	knowing inspect SNAP                    what a snapshot holds
//	knowing eval --snap SNAP --fixtures DIR retrieval quality on task fixtures
//	knowing mine --repo DIR OUT             task fixtures from a git history
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
)

// version is the tool version recorded in snapshots.
const version = "0.1.0"

const usage = `knowing — find the code a task needs.

Index a repository once, then ask in plain words; knowing answers from a
memory-mapped snapshot in about a millisecond.

Usage:
  knowing build [--repo DIR] OUT.snap       index DIR (default: .) into OUT.snap
                                            (incrementally when OUT is a snapshot of DIR)
  knowing watch [--repo DIR] SNAP           keep SNAP up to date as DIR changes
  knowing query [flags] SNAP "task"         ranked symbols for the task
  knowing why [flags] SNAP "task" SYMBOL    how one symbol was found and scored
  knowing def SNAP SYMBOL                   a symbol's kind, place, signature and doc
  knowing callers|callees SNAP SYMBOL       who calls it, what it calls (--depth N)
  knowing refs SNAP SYMBOL                  every edge into it, by type
  knowing outline SNAP FILE                 a file's symbols, nested
  knowing impact SNAP SYMBOL...             what a change to them may break, tests included
  knowing changes SNAP --diff F|--git R     a change's symbols and what they may break
  knowing mcp [--repo DIR]                  serve the repository to an agent over MCP (stdio)
  knowing inspect [--json] SNAP             counts, sections, checksums
  knowing eval --snap SNAP --fixtures DIR   P@10, R@10, MRR, NDCG on fixtures
  knowing eval --mined DIR                  how well knowing finds what DIR's commits changed
  knowing mine [--repo DIR] OUT             task fixtures from DIR's git history
  knowing train --snap T --fixtures DIR     learn the ranking weights from mined commits
  knowing version

Examples:
  knowing build --repo "$(go env GOROOT)/src/net/http" http.snap
  knowing query http.snap "add a middleware that limits request body size"
  knowing query --json --limit 5 http.snap "where are cookies parsed?"
  git log -1 --format=%B | knowing query repo.snap -     # task from stdin

Run 'knowing COMMAND --help' for a command's flags.
`

func main() {
	os.Exit(profiled(func() int { return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }))
}

// profiled runs f, writing a CPU profile to $KNOWING_CPUPROFILE and an
// allocation profile to $KNOWING_MEMPROFILE when they are set (for
// measuring builds; see BENCHMARKS.md).
func profiled(f func() int) int {
	if path := os.Getenv("KNOWING_MEMPROFILE"); path == "" {
		// The runtime samples allocations for the profile by default; its
		// first sample allocates a 1.4 MB table that it reads before
		// writing, so every page of it is faulted twice (a copy-on-write of
		// the zero page, with a TLB flush on every core).
		runtime.MemProfileRate = 0
	} else {
		defer func() {
			out, err := os.Create(path)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(out, 0)
				out.Close()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "knowing: memory profile:", err)
			}
		}()
	}
	path := os.Getenv("KNOWING_CPUPROFILE")
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "knowing: cpu profile:", err)
		return f()
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintln(os.Stderr, "knowing: cpu profile:", err)
		return f()
	}
	defer pprof.StopCPUProfile()
	return f()
}

// run is main without the exit, for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	ranker = "" // set by a command's --ranker; run may be called again (tests)
	var err error
	switch cmd {
	case "build":
		err = cmdBuild(rest, stdout, stderr)
	case "watch":
		err = cmdWatch(rest, stdout, stderr)
	case "query":
		err = cmdQuery(rest, stdin, stdout, stderr)
	case "why":
		err = cmdWhy(rest, stdin, stdout, stderr)
	case "inspect":
		err = cmdInspect(rest, stdout, stderr)
	case "eval":
		err = cmdEval(rest, stdout, stderr)
	case "mine":
		err = cmdMine(rest, stdout, stderr)
	case "train":
		err = cmdTrain(rest, stdout, stderr)
	case "def":
		err = cmdDef(rest, stdout, stderr)
	case "callers", "callees":
		err = cmdCalls(cmd, rest, stdout, stderr)
	case "refs":
		err = cmdRefs(rest, stdout, stderr)
	case "outline":
		err = cmdOutline(rest, stdout, stderr)
	case "impact":
		err = cmdImpact(rest, stdout, stderr)
	case "changes":
		err = cmdChanges(rest, stdin, stdout, stderr)
	case "mcp":
		err = cmdMCP(rest, stdin, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "knowing", version)
		return 0
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		if near := nearest(cmd, commands); near != "" {
			fmt.Fprintf(stderr, "knowing: unknown command %q; did you mean %q?\nRun 'knowing --help' for the commands.\n", cmd, near)
			return 2
		}
		fmt.Fprintf(stderr, "knowing: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "knowing %s: %v\nRun 'knowing %s --help' for usage.\n", cmd, err, cmd)
		return 2
	default:
		fmt.Fprintf(stderr, "knowing %s: %v\n", cmd, err)
		return 1
	}
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// parse parses flags that may come before, between or after positional
// arguments ("knowing query SNAP task --json" works).
//
// An unknown flag is a usage error naming the nearest known flag; --help
// (or -h) prints the help. Nothing else is printed here: the caller
// reports the error once.
func parse(fs *flag.FlagSet, args []string, help string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	printHelp := func() error {
		fs.SetOutput(stderr)
		fmt.Fprint(stderr, help)
		fs.PrintDefaults()
		return flag.ErrHelp
	}
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "h" || name == "help" {
			return nil, printHelp()
		}
		f := fs.Lookup(name)
		if f == nil {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if near := nearest(name, names); near != "" {
				return nil, usagef("unknown flag %s; did you mean --%s?", a, near)
			}
			return nil, usagef("unknown flag %s", a)
		}
		if hasValue {
			continue
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, printHelp()
		}
		return nil, usageError{err.Error()}
	}
	return pos, nil
}

// commands are knowing's commands, for suggestions.
var commands = []string{"build", "watch", "query", "why", "def", "callers", "callees", "refs", "outline", "impact", "changes", "mcp", "inspect", "eval", "mine", "train", "version", "help"}

// nearest returns the option closest to word when it is a likely typo
// (at most two edits, and fewer than half of word's letters), else "".
func nearest(word string, options []string) string {
	best, bestD := "", 3
	for _, o := range options {
		if d := editDistance(strings.ToLower(word), o); d < bestD && 2*d < len(word) {
			best, bestD = o, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbours that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// checkRepo fails early when dir is not a readable folder.
func checkRepo(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return fmt.Errorf("repository folder %s does not exist", dir)
		}
		return fmt.Errorf("cannot read repository folder %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder; --repo takes the repository's root folder", dir)
	}
	if _, err := os.ReadDir(dir); err != nil {
		return fmt.Errorf("cannot read repository folder %s: %w", dir, err)
	}
	return nil
}

// interruptContext is a context that ends on an interrupt (Ctrl-C) or a
// SIGTERM (what kill, service managers and container runtimes send), so
// that long commands stop the same way for both: writes in flight finish
// or are removed, and what is kept for the next build is saved.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
