package eval

import "github.com/knowing-dev/knowing/internal/fileread"

// maxFixtureFile bounds a fixture or floor file: a task with its ground
// truth is a few kilobytes.
const maxFixtureFile = 1 << 20

// readSmall reads a fixture or floor file: a regular file (a FIFO would
// block the run, a link to /dev/zero would never end) of at most
// maxFixtureFile bytes; links to regular files are followed.
func readSmall(path string) ([]byte, error) { return fileread.Regular(path, maxFixtureFile) }
