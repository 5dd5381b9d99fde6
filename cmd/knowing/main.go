// Command knowing finds the code a task needs.
//
//	knowing build [--repo DIR] OUT.snap     index a repository into a snapshot
//	knowing query SNAP "task"               ranked symbols for a task
//	knowing why SNAP "task" SYMBOL          how one symbol scored
//	knowing inspect SNAP                    what a snapshot holds
//	knowing eval --snap SNAP --fixtures DIR retrieval quality on task fixtures
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// version is the tool version recorded in snapshots.
const version = "0.1.0"

const usage = `knowing — find the code a task needs.

Index a repository once, then ask in plain words; knowing answers from a
memory-mapped snapshot in about a millisecond.

Usage:
  knowing build [--repo DIR] OUT.snap       index DIR (default: .) into OUT.snap
  knowing query [flags] SNAP "task"         ranked symbols for the task
  knowing why [flags] SNAP "task" SYMBOL    how one symbol was found and scored
  knowing inspect [--json] SNAP             counts, sections, checksums
  knowing eval --snap SNAP --fixtures DIR   P@10, R@10, MRR, NDCG on fixtures
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
	var err error
	switch cmd {
	case "build":
		err = cmdBuild(rest, stdout, stderr)
	case "query":
		err = cmdQuery(rest, stdin, stdout, stderr)
	case "why":
		err = cmdWhy(rest, stdin, stdout, stderr)
	case "inspect":
		err = cmdInspect(rest, stdout, stderr)
	case "eval":
		err = cmdEval(rest, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "knowing", version)
		return 0
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
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
func parse(fs *flag.FlagSet, args []string, help string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, help)
		fs.PrintDefaults()
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
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // flag.Parse reports it
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
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	return pos, nil
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
