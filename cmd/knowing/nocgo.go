//go:build !cgo

package main

import (
	"errors"
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
