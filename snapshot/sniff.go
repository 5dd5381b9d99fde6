package snapshot

import (
	"errors"
	"io"
	"os"
)

// IsSnapshot reports whether the regular file at path begins with a knowing
// snapshot's magic bytes, whatever its version; it reads only those bytes.
// Tools use it before replacing a file, so that a path given by mistake (a
// source file, a document) is never overwritten by a snapshot. A path
// that is not a regular file is not a snapshot and is never opened: a
// FIFO would block the read.
func IsSnapshot(path string) (bool, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() {
		return false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var b [len(magic)]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return false, nil
		}
		return false, err
	}
	return string(b[:]) == magic, nil
}
