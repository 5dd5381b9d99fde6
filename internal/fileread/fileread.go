// Package fileread reads small files a tool did not make and must not
// trust: a repository's manifests, task fixtures. It reads only regular
// files (a FIFO would block forever, a device such as /dev/zero would
// never end) and at most a given number of bytes.
//
// It imports only the standard library, so both the extractors and the
// pure-Go reader side (eval) use it.
package fileread

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is returned for a path that is not a regular file once
// links are followed.
var ErrNotRegular = errors.New("not a regular file")

// Regular reads the file at path, following links, when it is a regular
// file of at most max bytes; otherwise it returns an error (wrapping
// ErrNotRegular for a FIFO, a device, a socket or a folder) without
// opening it.
func Regular(path string, max int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this file may have", path, st.Size(), max)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been swapped between the check and the open.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes this file may have", path, max)
	}
	return b, nil
}
