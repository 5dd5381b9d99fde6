package fswalk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/knowing-dev/knowing/internal/fileread"
)

// MaxMetaFile caps what ReadMeta reads: no manifest, ignore file or git
// ref a build needs is anywhere near this size.
const MaxMetaFile = 4 << 20

// ErrNotMeta is returned by ReadMeta for a path that is not a regular file
// inside its folder: a FIFO, a device, a folder, a link that leads out.
var ErrNotMeta = errors.New("not a regular file inside the repository")

// ReadMeta reads a repository's metadata file (go.mod, Cargo.toml,
// package.json, Gemfile, .gitignore, .git/HEAD and the like) with the
// checks a build needs on a tree it does not trust:
//   - only a regular file is opened: a FIFO would block the build forever
//     and a device such as /dev/zero would never end;
//   - a link is followed only when it resolves inside within (the
//     repository root, or the folder the file is in when it is above the
//     root), so a link cannot pull another tree's file into the snapshot;
//   - at most MaxMetaFile bytes are read; a larger file is an error.
//
// within must hold path. A missing file gives an error that wraps
// fs.ErrNotExist.
func ReadMeta(within, path string) ([]byte, error) {
	if aw, err := filepath.Abs(within); err != nil {
		return nil, err
	} else if ap, err := filepath.Abs(path); err != nil {
		return nil, err
	} else if !inside(aw, ap) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotMeta)
	}
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, err
		}
		top, err := filepath.EvalSymlinks(within)
		if err != nil {
			return nil, err
		}
		if !inside(top, real) {
			return nil, fmt.Errorf("%s: %w (a link to %s)", path, ErrNotMeta, real)
		}
		if st, err = os.Stat(real); err != nil {
			return nil, err
		}
		path = real
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotMeta)
	}
	b, err := fileread.Regular(path, MaxMetaFile)
	if errors.Is(err, fileread.ErrNotRegular) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotMeta)
	}
	return b, err
}

// inside reports whether p is top or below it (both absolute and clean).
func inside(top, p string) bool {
	if p == top {
		return true
	}
	sep := string(os.PathSeparator)
	return strings.HasPrefix(p, strings.TrimSuffix(top, sep)+sep)
}
