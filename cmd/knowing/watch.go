//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/knowing-dev/knowing/internal/fswalk"
)

const watchHelp = `Usage: knowing watch [--repo DIR] SNAP

Keeps SNAP up to date with the repository at DIR (default: .). It first
builds SNAP (incrementally when SNAP is already a snapshot of DIR), then
watches every folder the build walked, and new ones as they appear. Once
changes to source files, manifests or ignore files have been quiet for
--quiet (200 ms; a burst such as a branch switch waits at most --max-wait),
it rebuilds SNAP incrementally, parsing only what changed, and replaces
the file atomically: a query that opened the previous file answers from
it, the next one opens the new one. One line per rebuild on stderr: what
changed, what was parsed, how long it took.

A rebuild that fails leaves the previous snapshot in place. A file saved
with syntax errors (or unreadable) keeps the symbols of its last version
that parsed, and the line says so; the snapshot then reports that file as
changed until it parses again. Stops on an interrupt (Ctrl-C) or a
SIGTERM, once the rebuild under way and the extraction kept for the
next build are written, and exits 0.

Flags:
`

func cmdWatch(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	repo := fs.String("repo", ".", "repository `folder` to watch")
	quiet := fs.Duration("quiet", 200*time.Millisecond, "rebuild once changes have been quiet this long")
	maxWait := fs.Duration("max-wait", 2*time.Second, "rebuild at the latest this long after the first change of a burst")
	pos, err := parse(fs, args, watchHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one snapshot path, e.g. knowing watch --repo . repo.snap (got %d arguments)", len(pos))
	}
	if err := checkRepo(*repo); err != nil {
		return err
	}
	if *quiet <= 0 || *maxWait < *quiet {
		return usagef("--quiet must be positive and --max-wait at least --quiet")
	}
	out := pos[0]
	if err := checkWritable(out, false); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	return watchRepo(ctx, *repo, out, *quiet, *maxWait, stderr, nil)
}

// watchRepo builds snap from repo, then rebuilds it on every quiet burst
// of changes until ctx ends, printing a line per rebuild to w. ready, when
// not nil, is called once the first build is published.
func watchRepo(ctx context.Context, repo, snap string, quiet, maxWait time.Duration, w io.Writer, ready func(*live)) error {
	l, err := newLive(repo, snap, w)
	if err != nil {
		return err
	}
	defer l.close()
	wt, err := newWatcher(l)
	if err != nil {
		return err
	}
	defer wt.close()
	rep, err := l.start(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "knowing: %s is up to date (%s); watching %s\n", snap, rep, l.repo)
	wt.sync()
	if ready != nil {
		ready(l)
	}
	return wt.run(ctx, quiet, maxWait, func(rep *rebuildReport, err error) {
		stamp := time.Now().Format("15:04:05")
		if err != nil {
			fmt.Fprintf(w, "%s knowing: rebuild failed, the previous snapshot stays: %v\n", stamp, err)
			return
		}
		if !rep.unchanged {
			fmt.Fprintf(w, "%s rebuilt %s: %s\n", stamp, snap, rep)
		}
	})
}

// manifestNames are the files besides sources whose change may change a
// build: ignore files and the manifests extractors read.
var manifestNames = map[string]bool{
	".gitignore": true, "go.mod": true, "go.work": true, "package.json": true, "tsconfig.json": true,
	"jsconfig.json": true, "lerna.json": true, "pnpm-workspace.yaml": true, "Cargo.toml": true,
	"Gemfile": true, "pyproject.toml": true, "setup.cfg": true,
}

// watcher feeds a live snapshot the changes fsnotify sees in the folders
// its build walked.
type watcher struct {
	l       *live
	w       *fsnotify.Watcher
	exts    map[string]bool
	names   map[string]bool // base names of the other files that count
	watched map[string]bool // absolute folders
	skip    map[string]bool // folder names the walk never enters
}

func newWatcher(l *live) (*watcher, error) {
	w, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", l.repo, err)
	}
	wt := &watcher{l: l, w: w, exts: map[string]bool{}, names: map[string]bool{}, watched: map[string]bool{}, skip: map[string]bool{".git": true}}
	for n := range manifestNames {
		wt.names[n] = true
	}
	for _, d := range fswalk.DefaultSkipDirs {
		wt.skip[d] = true
	}
	return wt, nil
}

func (wt *watcher) close() { wt.w.Close() }

// sync watches the folders the current snapshot's build walked, and no
// others, and learns its extensions and manifests. It returns how many
// folders it began to watch.
func (wt *watcher) sync() (added int) {
	ls := wt.l.acquire()
	if ls == nil {
		return 0
	}
	defer ls.release()
	st, ok := ls.s.Stamps()
	if !ok {
		return 0
	}
	for _, e := range st.Exts {
		wt.exts[e] = true
	}
	for _, d := range st.Deps {
		wt.names[filepath.Base(d.Path)] = true
	}
	want := map[string]bool{}
	for _, d := range st.Dirs {
		want[filepath.Join(wt.l.repo, filepath.FromSlash(d.Path))] = true
	}
	now := map[string]bool{}
	for _, p := range wt.w.WatchList() {
		now[p] = true
	}
	for p := range now {
		if !want[p] {
			wt.w.Remove(p)
		}
	}
	failed, first := 0, error(nil)
	for p := range want {
		if now[p] {
			continue
		}
		switch err := wt.w.Add(p); {
		case err == nil:
			added++
		case errors.Is(err, fs.ErrNotExist): // a folder gone since the build: its removal was seen
		default:
			if failed++; first == nil {
				first = err
			}
		}
	}
	if failed > 0 {
		fmt.Fprintf(wt.l.warn, "knowing: cannot watch %d %s (%v); changes in them show only after a rebuild for another change\n",
			failed, plural(failed, "folder", "folders"), first)
	}
	wt.watched = want
	return added
}

// missed reports changes the watches cannot have seen: made in a folder
// after the build read it and before sync watched it. The snapshot's
// stamps tell them (a stat call per file).
func (wt *watcher) missed() bool {
	ls := wt.l.acquire()
	if ls == nil {
		return false
	}
	defer ls.release()
	r, err := ls.s.Stale(wt.l.repo, 0)
	return err == nil && r.Stale()
}

// addTree watches a new folder and the folders in it at once, so that
// nothing created in them before the next build's walk goes unseen. It
// skips the folders the walk never enters by name; the next sync drops
// the ignored ones.
func (wt *watcher) addTree(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && wt.skip[d.Name()] {
			return filepath.SkipDir
		}
		if wt.w.Add(p) == nil {
			wt.watched[p] = true
		}
		return nil
	})
}

// relevant reports an event that may change the snapshot: a source file,
// a manifest or ignore file, a folder created or gone.
func (wt *watcher) relevant(ev fsnotify.Event) bool {
	base := filepath.Base(ev.Name)
	if wt.exts[strings.ToLower(filepath.Ext(base))] || wt.names[base] {
		return true
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		return wt.watched[ev.Name]
	}
	if ev.Has(fsnotify.Create) && !wt.skip[base] {
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			wt.addTree(ev.Name)
			return true
		}
	}
	return false
}

// run rebuilds the live snapshot once relevant changes have been quiet
// for quiet (at most maxWait after the first of a burst), calling report
// after each rebuild, until ctx ends.
func (wt *watcher) run(ctx context.Context, quiet, maxWait time.Duration, report func(*rebuildReport, error)) error {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time // the first change of the pending burst
	pending := func() {
		wt.l.gen.Add(1)
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		wait := quiet
		if left := maxWait - now.Sub(first); left < wait {
			wait = max(left, 0)
		}
		timer.Reset(wait)
	}
	// The folders were watched only once the first build had read them.
	if wt.missed() {
		pending()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-wt.w.Events:
			if !ok {
				return nil
			}
			if wt.relevant(ev) {
				pending()
			}
		case err, ok := <-wt.w.Errors:
			if !ok {
				return nil
			}
			// An overflowing queue lost events: rebuild to be sure.
			fmt.Fprintf(wt.l.warn, "knowing: watching %s: %v\n", wt.l.repo, err)
			pending()
		case <-timer.C:
			first = time.Time{}
			if !wt.l.stale() {
				continue // a reader rebuilt it meanwhile
			}
			rep, err := wt.l.rebuild(ctx)
			if err != nil && ctx.Err() != nil {
				return nil // stopped halfway
			}
			report(rep, err)
			if err == nil && wt.sync() > 0 && wt.missed() {
				pending()
			}
		}
	}
}
