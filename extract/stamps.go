package extract

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	"github.com/knowing-dev/knowing/internal/fswalk"
	"github.com/knowing-dev/knowing/snapshot"
)

// treeStamps gathers, during a build's walk, what the staleness check
// compares the tree with later (snapshot.Stamps).
type treeStamps struct {
	root    string
	start   time.Time
	dirs    []snapshot.DirStamp
	ignores []string // the .gitignore files of the folders walked
}

// listed records a folder the walk entered, with the time it has now
// (after the walk read it: a folder changed in between has a time close
// to the walk's, which the check treats as racy and lists).
func (t *treeStamps) listed(rel string, entries []fs.DirEntry) {
	var mtime int64
	if st, err := os.Stat(filepath.Join(t.root, filepath.FromSlash(rel))); err == nil {
		mtime = st.ModTime().UnixNano()
	}
	t.dirs = append(t.dirs, snapshot.DirStamp{Path: rel, ModTime: mtime})
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			t.ignores = append(t.ignores, path.Join(rel, ".gitignore"))
		}
	}
}

// stamps completes the stamps of g, whose files carry their own: the
// folders walked, the extensions and size limit of the walk, and the
// other files the build read (ignore files, and the manifests and other
// files extraction read, with the fingerprints of the bytes read).
func (t *treeStamps) stamps(g *snapshot.Graph, maxFileSize int64, read map[string]uint64) *snapshot.Stamps {
	st := &snapshot.Stamps{WalkStart: t.start.UnixNano(), MaxFileSize: maxFileSize, Exts: Extensions(), Dirs: t.dirs}
	sources := make(map[string]bool, len(g.Files))
	for _, f := range g.Files {
		sources[f.Path] = true
	}
	for _, p := range append(t.ignores, ".git/info/exclude") {
		if b, err := fswalk.ReadMeta(t.root, filepath.Join(t.root, filepath.FromSlash(p))); err == nil {
			read[p] = snapshot.Fingerprint(b)
		}
	}
	for p, h := range read {
		if sources[p] {
			continue // stamped as a source
		}
		fi, err := os.Stat(filepath.Join(t.root, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		st.Deps = append(st.Deps, snapshot.DepStamp{Path: p, Size: uint64(fi.Size()), ModTime: fi.ModTime().UnixNano(), Hash: h})
	}
	sort.Slice(st.Deps, func(i, j int) bool { return st.Deps[i].Path < st.Deps[j].Path })
	sort.Slice(st.Dirs, func(i, j int) bool { return st.Dirs[i].Path < st.Dirs[j].Path })
	return st
}
