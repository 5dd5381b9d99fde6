package snapshot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knowing-dev/knowing/internal/fileread"
	"github.com/knowing-dev/knowing/internal/fswalk"
)

// FileState is what the staleness check found of one file of a snapshot.
type FileState uint8

const (
	FileUnchecked FileState = iota // the budget ran out first, or the snapshot has no stamps
	FileFresh                      // as the build saw it
	FileChanged                    // its size, time or content differ
	FileRemoved                    // gone, or no longer a regular file
)

func (st FileState) String() string {
	return [...]string{"unchecked", "fresh", "changed", "removed"}[min(st, FileRemoved)]
}

// StaleReport says how the repository differs from the tree a snapshot
// was built from, as far as Stale could tell in its budget.
type StaleReport struct {
	Root string // the repository checked
	// Stamped is false for a snapshot whose build recorded no stamps:
	// nothing was checked.
	Stamped bool
	// Complete says every file, folder and other file the build read was
	// checked; false when the budget ran out first (the lists then hold
	// what was found until then).
	Complete bool
	Files    int // source files in the snapshot
	Checked  int // of them, how many were checked
	Changed  []string
	Removed  []string
	// Added are the source files a build would parse now that the
	// snapshot does not have.
	Added []string
	// Deps are the other files the build read (ignore files, manifests)
	// that changed or are gone.
	Deps    []string
	Elapsed time.Duration

	states []FileState // by file index
}

// Stale reports whether anything changed.
func (r *StaleReport) Stale() bool {
	return len(r.Changed)+len(r.Removed)+len(r.Added)+len(r.Deps) > 0
}

// State is what the check found of file i of the snapshot.
func (r *StaleReport) State(i int) FileState {
	if r == nil || i < 0 || i >= len(r.states) {
		return FileUnchecked
	}
	return r.states[i]
}

// Stale compares the repository at root ("" for the one recorded in the
// metadata) with the tree the snapshot was built from, by stat calls: a
// source file whose size or modification time differs is changed, one
// that is gone is removed; a folder whose time differs is listed, under
// the build's ignore rules, extensions and size limit, and the files it
// holds that the snapshot lacks are added (with those of new folders in
// it); the other files the build read (ignore files, manifests) are
// checked like sources. A file whose recorded time is within RacyWindow
// of the build is read and its fingerprint compared. Open stays O(1):
// this is the separate, linear check.
//
// budget bounds the time spent (0: no bound); past it, Stale returns
// what it found with Complete false. The error is for a root that cannot
// be read; a snapshot without stamps gives a report with Stamped false.
func (s *Snapshot) Stale(root string, budget time.Duration) (*StaleReport, error) {
	start := time.Now()
	root, err := s.staleRoot(root)
	if err != nil {
		return nil, err
	}
	r := &StaleReport{Root: root, Files: s.nFiles}
	v := &s.stamps
	if !v.stamped() {
		r.Elapsed = time.Since(start)
		return r, nil
	}
	if st, err := os.Stat(root); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, &fs.PathError{Op: "stale", Path: root, Err: fswalk.ErrNotDir}
	}
	r.Stamped = true
	c := s.staleCheck(root)
	c.r = r
	if budget > 0 {
		c.deadline = start.Add(budget)
	}
	r.states = make([]FileState, s.nFiles)
	r.Complete = c.files() && c.deps() && c.dirs()
	sort.Strings(r.Added)
	r.Elapsed = time.Since(start)
	return r, nil
}

// CheckFile compares file i of the snapshot with the file under root (""
// for the root recorded in the metadata) as Stale does, without a budget:
// a stat call, and for a file stamped close to the build a read. It
// returns FileUnchecked for a snapshot without stamps or an i out of
// range.
func (s *Snapshot) CheckFile(root string, i int) FileState {
	if !s.stamps.stamped() || i < 0 || i >= s.nFiles {
		return FileUnchecked
	}
	root, err := s.staleRoot(root)
	if err != nil {
		return FileUnchecked
	}
	c := s.staleCheck(root)
	mt, h := s.stamps.file(i)
	return c.state(s.FilePath(i), s.FileSize(i), mt, h)
}

// staleRoot is root, or when it is "" the repository root the metadata
// records.
func (s *Snapshot) staleRoot(root string) (string, error) {
	if root != "" {
		return root, nil
	}
	m, err := s.Meta()
	if err != nil {
		return "", err
	}
	return m.RepoRoot, nil
}

// staleCheck starts a check of s's stamped files against root.
func (s *Snapshot) staleCheck(root string) staleCheck {
	v := &s.stamps
	return staleCheck{s: s, v: v, root: root, racy: int64(le.Uint64(v.b[stWalk:])) - RacyWindow,
		maxSize: int64(le.Uint64(v.b[stMaxSize:]))}
}

// staleCheck is one run of Stale.
type staleCheck struct {
	s        *Snapshot
	v        *stampsView
	r        *StaleReport
	root     string
	racy     int64 // recorded times above this are read
	maxSize  int64
	deadline time.Time
	calls    int
}

// late reports a run past its deadline, looking at the clock every 16
// calls.
func (c *staleCheck) late() bool {
	c.calls++
	return !c.deadline.IsZero() && c.calls%16 == 0 && time.Now().After(c.deadline)
}

// state compares a file on disk with its record.
func (c *staleCheck) state(rel string, size uint64, mtime int64, hash uint64) FileState {
	abs := filepath.Join(c.root, filepath.FromSlash(rel))
	st, err := os.Stat(abs)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist), err == nil && !st.Mode().IsRegular():
		return FileRemoved
	case err != nil:
		return FileChanged // unreadable now
	case uint64(st.Size()) != size || st.ModTime().UnixNano() != mtime:
		return FileChanged
	case mtime > c.racy:
		max := c.maxSize
		if max <= 0 || int64(size) > max {
			max = int64(size)
		}
		b, err := fileread.Regular(abs, max)
		if err != nil || Fingerprint(b) != hash {
			return FileChanged
		}
	}
	return FileFresh
}

// staleWorkers is how many goroutines stat a large snapshot's files: the
// cost is system calls, which run in parallel.
var staleWorkers = runtime.GOMAXPROCS(0)

// files checks the snapshot's source files, in blocks of 64 taken in
// order by up to staleWorkers goroutines.
func (c *staleCheck) files() bool {
	const block = 64
	workers := min(staleWorkers, (c.s.nFiles+block-1)/block)
	var next atomic.Int64
	var late atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !late.Load() {
				lo := int(next.Add(block)) - block
				if lo >= c.s.nFiles {
					return
				}
				if !c.deadline.IsZero() && time.Now().After(c.deadline) {
					late.Store(true)
					return
				}
				for i := lo; i < min(lo+block, c.s.nFiles); i++ {
					mt, h := c.v.file(i)
					c.r.states[i] = c.state(c.s.FilePath(i), c.s.FileSize(i), mt, h)
				}
			}
		}()
	}
	wg.Wait()
	for i, st := range c.r.states {
		switch st {
		case FileUnchecked:
			continue
		case FileChanged:
			c.r.Changed = append(c.r.Changed, c.s.FilePath(i))
		case FileRemoved:
			c.r.Removed = append(c.r.Removed, c.s.FilePath(i))
		}
		c.r.Checked++
	}
	return !late.Load()
}

// deps checks the other files the build read.
func (c *staleCheck) deps() bool {
	for i := 0; i < c.v.deps; i++ {
		if c.late() {
			return false
		}
		d := c.v.dep(i)
		if c.state(d.Path, d.Size, d.ModTime, d.Hash) != FileFresh {
			c.r.Deps = append(c.r.Deps, d.Path)
		}
	}
	return true
}

// dirs lists the folders whose time changed, for files the snapshot
// lacks.
func (c *staleCheck) dirs() bool {
	var changed []string
	for i := 0; i < c.v.dirs; i++ {
		if c.late() {
			return false
		}
		d := c.v.dir(i)
		st, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(d.Path)))
		if err != nil || !st.IsDir() {
			continue // its files are reported removed
		}
		if st.ModTime().UnixNano() != d.ModTime || d.ModTime > c.racy {
			changed = append(changed, d.Path)
		}
	}
	if len(changed) == 0 {
		return true
	}
	known := make(map[string]bool, c.s.nFiles)
	for i := 0; i < c.s.nFiles; i++ {
		known[c.s.FilePath(i)] = true
	}
	dirs := make(map[string]bool, c.v.dirs)
	for i := 0; i < c.v.dirs; i++ {
		dirs[c.v.dir(i).Path] = true
	}
	exts := map[string]bool{}
	for i := 0; i < c.v.ext; i++ {
		exts[c.v.extension(i)] = true
	}
	l, err := fswalk.NewLister(c.root, fswalk.Options{MaxFileSize: c.maxSize, Exts: exts})
	if err != nil {
		return true
	}
	l.Omit = func(rel string) bool { return known[rel] }
	for len(changed) > 0 {
		if c.late() {
			return false
		}
		dir := changed[len(changed)-1]
		changed = changed[:len(changed)-1]
		files, sub, err := l.List(dir, nil)
		if err != nil {
			continue
		}
		for _, f := range files {
			c.r.Added = append(c.r.Added, f.Path)
		}
		for _, d := range sub {
			if !dirs[d] { // a new folder: everything in it is new
				dirs[d] = true
				changed = append(changed, d)
			}
		}
	}
	return true
}
