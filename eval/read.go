package eval

import (
	"fmt"
	"io"
	"os"
)

// maxFixtureFile bounds a fixture or floor file: a task with its ground
// truth is a few kilobytes.
const maxFixtureFile = 1 << 20

// readSmall reads a fixture or floor file: a regular file (a FIFO would
// block the run, a link to /dev/zero would never end) of at most
// maxFixtureFile bytes; links to regular files are followed.
func readSmall(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if st.Size() > maxFixtureFile {
		return nil, fmt.Errorf("%s: %d bytes, more than a fixture may have (%d)", path, st.Size(), maxFixtureFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFixtureFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFixtureFile {
		return nil, fmt.Errorf("%s: more than a fixture may have (%d bytes)", path, maxFixtureFile)
	}
	return b, nil
}
