//go:build cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// live keeps the snapshot of one repository up to date in process: it
// rebuilds it incrementally (keeping the extraction of the files that did
// not change in memory between builds), publishes each new file
// atomically, and hands readers the snapshot current when they ask,
// which stays mapped until the last of them is done. `knowing watch` and
// the MCP server use it.
type live struct {
	repo, snap string
	warn       io.Writer
	cacheLimit int64 // the prior folder's bound (priorCacheLimit)

	mu    sync.Mutex // one rebuild at a time; guards prior and memo
	prior *extract.Prior
	memo  *snapshot.Memo // what the sections of the current file were built from

	cmu sync.Mutex // guards cur, for readers taking a reference
	cur *liveSnap

	gen   atomic.Int64 // changes seen in the tree (watch events)
	built atomic.Int64 // the changes the current snapshot includes

	saves    chan *extract.Prior // the newest prior to keep on disk
	saveDone chan struct{}
}

// newLive makes the live snapshot of repo, kept at snap. Call start
// before acquire, and close at the end.
func newLive(repo, snap string, warn io.Writer) (*live, error) {
	abs, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	limit, err := priorCacheLimit()
	if err != nil {
		return nil, err
	}
	if warn == nil {
		warn = io.Discard
	}
	l := &live{repo: abs, snap: snap, warn: warn, cacheLimit: limit, saves: make(chan *extract.Prior, 1), saveDone: make(chan struct{})}
	go l.saver()
	return l, nil
}

// saver keeps the newest prior on disk, for a later knowing build.
func (l *live) saver() {
	defer close(l.saveDone)
	for p := range l.saves {
		if err := savePrior(l.snap, p, l.cacheLimit); err != nil {
			dropPrior(l.snap)
		}
	}
}

// rebuildReport is what one rebuild did.
type rebuildReport struct {
	stats     *extract.Stats
	unchanged bool
	full      bool // nothing to reuse: every file parsed
	elapsed   time.Duration
}

func (r *rebuildReport) String() string {
	st := r.stats
	if r.full {
		return fmt.Sprintf("built in full: %d files, %d symbols; %s", st.Files, st.Nodes, r.elapsed.Round(time.Millisecond))
	}
	if r.unchanged {
		return fmt.Sprintf("no change to the sources (%d files checked in %s)", st.Files, r.elapsed.Round(time.Millisecond))
	}
	s := fmt.Sprintf("%d changed, %d added, %d removed; %d parsed, %d reused; %d symbols; %s",
		st.Changed, st.Added, st.Removed, st.Parsed, st.Reused, st.Nodes, r.elapsed.Round(time.Millisecond))
	if len(st.Relanguages) > 0 {
		s += "; parsed again: " + strings.Join(st.Relanguages, ", ")
	}
	if len(st.Kept) > 0 {
		s += "; kept the previous symbols of " + strings.Join(st.Kept, ", ") + " (syntax errors or unreadable)"
	}
	return s
}

// start opens the snapshot when it is one of this repository, with the
// prior build kept on disk, and brings it up to date; a missing or
// foreign one is built in full.
func (l *live) start(ctx context.Context) (*rebuildReport, error) {
	if err := os.MkdirAll(filepath.Dir(l.snap), 0o755); err != nil {
		return nil, err
	}
	if err := checkWritable(l.snap, false); err != nil {
		return nil, err // not a snapshot, or a folder that cannot be written
	}
	l.mu.Lock()
	if s, err := snapshot.Open(l.snap); err == nil {
		if m, err := s.Meta(); err == nil && m.RepoRoot == l.repo {
			if e, err := newEngine(s); err == nil {
				l.cur = newLiveSnap(s, e)
				l.prior, _ = readPrior(l.snap)
			}
		}
		if l.cur == nil {
			s.Close()
		}
	}
	l.mu.Unlock()
	return l.rebuild(ctx)
}

// rebuild builds the snapshot again, incrementally when it can, and
// publishes it. On failure the current snapshot stays, and so does the
// file on disk (the writer replaces it atomically).
func (l *live) rebuild(ctx context.Context) (*rebuildReport, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start := time.Now()
	gen := l.gen.Load()
	opt := extract.Options{Root: l.repo, Warn: l.warn, SkipUnchanged: l.cur != nil, KeepOnError: l.cur != nil}
	g, st, next, err := extract.BuildIncremental(ctx, opt, l.prior)
	if err != nil {
		return nil, err
	}
	rep := &rebuildReport{stats: st, full: l.prior == nil}
	if st.Unchanged {
		l.built.Store(gen)
		rep.unchanged, rep.elapsed = true, time.Since(start)
		return rep, nil
	}
	if st.Files == 0 {
		return nil, fmt.Errorf("no source files found in %s", l.repo)
	}
	g.Meta.ToolVersion = version
	if err := os.MkdirAll(filepath.Dir(l.snap), 0o755); err != nil {
		return nil, err
	}
	// The sections whose inputs did not change are copied from the
	// snapshot being replaced.
	var reuse *snapshot.Reuse
	if l.memo != nil {
		reuse, _ = snapshot.OpenReuse(l.snap, l.memo)
	} else if l.prior != nil {
		reuse = openReuse(l.snap)
	}
	memo := &snapshot.Memo{}
	err = snapshot.Write(l.snap, g, &snapshot.WriteOptions{Reuse: reuse, Memo: memo})
	reuse.Close()
	if err != nil {
		l.memo = nil
		return nil, err
	}
	l.memo = memo
	if saveMemo(l.snap, memo, l.cacheLimit) != nil {
		dropPrior(l.snap)
	}
	snapshot.MarkChecked(l.snap)
	s, err := snapshot.Open(l.snap)
	if err != nil {
		return nil, err
	}
	e, err := newEngine(s)
	if err != nil {
		s.Close()
		return nil, err
	}
	ls := newLiveSnap(s, e)
	l.cmu.Lock()
	old := l.cur
	l.cur = ls
	l.cmu.Unlock()
	if old != nil {
		old.release()
	}
	l.prior = next
	l.built.Store(gen)
	if l.saves != nil {
		select { // the newest prior replaces one not saved yet
		case <-l.saves:
		default:
		}
		l.saves <- next
	}
	rep.elapsed = time.Since(start)
	return rep, nil
}

// acquire returns the current snapshot with a reference; the caller
// releases it when done. Nil before the first build.
func (l *live) acquire() *liveSnap {
	l.cmu.Lock()
	defer l.cmu.Unlock()
	if l.cur != nil {
		l.cur.refs.Add(1)
	}
	return l.cur
}

// stale reports changes seen since the current snapshot was built.
func (l *live) stale() bool { return l.gen.Load() != l.built.Load() }

// fresh returns the current snapshot, rebuilt first when the tree
// changed since (as far as the watch saw; without a watch, as far as a
// stamp check within budget sees: a check the budget cuts short counts
// what it found). A rebuild that fails leaves the
// current snapshot, which is returned with the error.
func (l *live) fresh(ctx context.Context, watching bool, budget time.Duration) (*liveSnap, error) {
	if !watching {
		if ls := l.acquire(); ls != nil {
			r, err := ls.s.Stale(l.repo, budget)
			ls.release()
			if err == nil && r.Stale() {
				l.gen.Add(1)
			}
		}
	}
	var err error
	if l.stale() {
		_, err = l.rebuild(ctx)
	}
	ls := l.acquire()
	if ls == nil {
		if err == nil {
			err = errors.New("no snapshot")
		}
		return nil, err
	}
	return ls, err
}

// close waits for the prior to be saved and drops the live's reference
// to the current snapshot (readers still holding one keep it mapped).
func (l *live) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.saves != nil {
		close(l.saves)
		<-l.saveDone
		l.saves = nil
	}
	l.cmu.Lock()
	old := l.cur
	l.cur = nil
	l.cmu.Unlock()
	if old != nil {
		old.release()
	}
}
