//go:build !cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// errNoCgo explains a binary built without cgo. Reading snapshots is pure
// Go, so such a binary answers queries; parsing needs tree-sitter's C.
var errNoCgo = errors.New(`this knowing was built without cgo, so it cannot parse source: the
tree-sitter parsers are C. Build it with a C compiler and cgo on
(CGO_ENABLED=1, the default where gcc or clang is installed), e.g.
  CGO_ENABLED=1 go install github.com/knowing-dev/knowing/cmd/knowing@latest
This binary still answers query, why, inspect and eval from snapshots built
by one that has cgo`)

func cmdBuild(args []string, stdout, stderr io.Writer) error { return errNoCgo }

// Mining parses the files each commit changed, and eval --mined builds
// snapshots: both need the parsers.
func cmdMine(args []string, stdout, stderr io.Writer) error { return errNoCgo }

func evalMined(repo, fixturesDir, repoFilter string, mf mineFlags, cfg evalFlags, stdout, stderr io.Writer) error {
	return errNoCgo
}

func cmdWatch(args []string, stdout, stderr io.Writer) error { return errNoCgo }

// mcpState is the server's snapshot: without a parser it is served as it
// is, never rebuilt.
type mcpState struct{ ls *liveSnap }

// acquire opens the snapshot on the first call; it must exist.
func (k *mcpServer) acquire(ctx context.Context) (*liveSnap, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st.ls == nil {
		s, e, err := openEngine(k.snap)
		if err != nil {
			return nil, fmt.Errorf("%w\n(%v)", err, errNoCgo)
		}
		k.st.ls = newLiveSnap(s, e)
	}
	k.st.ls.refs.Add(1)
	return k.st.ls, nil
}

func (k *mcpServer) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st.ls != nil {
		k.st.ls.release()
		k.st.ls = nil
	}
}

// checkCacheLimit: without a parser the server builds nothing and keeps
// no prior extraction, so KNOWING_CACHE_LIMIT does not matter.
func checkCacheLimit() error { return nil }
