package fswalk

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
)

// Lister lists the folders of a tree one at a time, each as Walk would
// see it: the files Walk would keep there and the subfolders it would
// enter, under the same ignore rules (those of .git/info/exclude and of
// the .gitignore files of the folder and every folder above it), skipped
// folders, size limit, binary sniff and extensions. It lets a caller that
// knows which folders changed look at those alone instead of walking the
// whole tree. It does not follow symlinked folders (Options.FollowSymlinks
// is ignored). A Lister is for one goroutine.
type Lister struct {
	// Omit, when set, names files List leaves out without looking at them
	// (no stat, no sniff, not reported): the files a caller knows of
	// already.
	Omit func(rel string) bool

	root     string // absolute
	opt      Options
	skipDirs map[string]bool
	above    map[string][]*ruleSet // folder → the rule sets that apply to its entries, its own .gitignore aside
	match    budget
}

// NewLister makes a Lister of the tree at root.
func NewLister(root string, opt Options) (*Lister, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("fswalk: root %q: %w", root, err)
	}
	if opt.MaxFileSize == 0 {
		opt.MaxFileSize = DefaultMaxFileSize
	}
	opt.FollowSymlinks = false
	l := &Lister{root: abs, opt: opt, skipDirs: skipSet(opt.SkipDirs), above: map[string][]*ruleSet{}, match: budget{left: walkBudget}}
	var sets []*ruleSet
	if data, err := ReadMeta(abs, filepath.Join(abs, ".git", "info", "exclude")); err == nil {
		if rs := parseRules("", data); rs != nil {
			sets = append(sets, rs)
		}
	}
	l.above[""] = sets
	return l, nil
}

// setsAbove returns the rule sets that apply to the entries of folder rel
// before its own .gitignore is read: .git/info/exclude and the .gitignore
// of every folder above rel.
func (l *Lister) setsAbove(rel string) []*ruleSet {
	if sets, ok := l.above[rel]; ok {
		return sets
	}
	parent := path.Dir(rel)
	if parent == "." {
		parent = ""
	}
	sets := l.setsAbove(parent)
	pabs := filepath.Join(l.root, filepath.FromSlash(parent))
	if st, err := os.Lstat(filepath.Join(pabs, ".gitignore")); err == nil && st.Mode().IsRegular() {
		if data, err := ReadMeta(pabs, filepath.Join(pabs, ".gitignore")); err == nil {
			if rs := parseRules(parent, data); rs != nil {
				sets = append(sets[:len(sets):len(sets)], rs)
			}
		}
	}
	l.above[rel] = sets
	return sets
}

// List returns the files Walk would keep in folder rel (slash-separated,
// relative to the root, "" for the root), in Walk's order, and the
// subfolders of rel that Walk would enter (their relative paths). skip,
// which may be nil, hears of each entry left out, as with Walk. rel
// itself is taken as a folder the walk enters: List does not check
// whether a folder above it is ignored. An error means rel could not be
// read.
func (l *Lister) List(rel string, skip func(Skipped)) (files []File, dirs []string, err error) {
	w := &walker{
		given:    rel,
		root:     l.root,
		opt:      l.opt,
		skipDirs: l.skipDirs,
		skip:     skip,
		match:    l.match,
		shallow:  true,
		omit:     l.Omit,
		fn:       func(f File) error { files = append(files, f); return nil },
		subdir:   func(rel string) { dirs = append(dirs, rel) },
	}
	abs := filepath.Join(l.root, filepath.FromSlash(rel))
	err = w.walkDir(abs, rel, l.setsAbove(rel), true)
	l.match = w.match
	if err != nil {
		return nil, nil, err
	}
	return files, dirs, nil
}
