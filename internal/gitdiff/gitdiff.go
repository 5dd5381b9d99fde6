// Package gitdiff reads the headers of a unified diff (git diff, diff -u):
// the range of a hunk header and the path of a ---/+++ line. What a reader
// does with malformed ones is its own rule.
package gitdiff

import (
	"strconv"
	"strings"
)

// Hunk parses a hunk header "@@ -a[,b] +c[,d] @@…": the old side starts
// at line a and spans b lines, the new side at c for d (a count left out
// is 1). ok is false for a line that is no such header.
func Hunk(line string) (a, b, c, d int, ok bool) {
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return 0, 0, 0, 0, false
	}
	old, rest, ok := strings.Cut(rest, " +")
	if !ok {
		return 0, 0, 0, 0, false
	}
	nw, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return 0, 0, 0, 0, false
	}
	a, b, ok1 := span(old)
	c, d, ok2 := span(nw)
	if !ok1 || !ok2 {
		return 0, 0, 0, 0, false
	}
	return a, b, c, d, true
}

// span parses "start[,count]", decimal digits below 1<<31.
func span(s string) (start, count int, ok bool) {
	startS, countS, hasCount := strings.Cut(s, ",")
	a, err := strconv.ParseUint(startS, 10, 31)
	if err != nil {
		return 0, 0, false
	}
	n := uint64(1)
	if hasCount {
		if n, err = strconv.ParseUint(countS, 10, 31); err != nil {
			return 0, 0, false
		}
	}
	return int(a), int(n), true
}

// Path is the path a ---/+++ line names after its "--- " or "+++ ": cut
// at a tab (diff -u's timestamp, git's mark of a name with a space),
// unquoted when git C-quoted it, and without prefix ("a/" or "b/"); ""
// for /dev/null.
func Path(p, prefix string) string {
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	p = Unquote(p)
	if p == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(p, prefix)
}

// Unquote undoes git's C-style quoting of a path with unusual bytes; a
// path that is not quoted is returned as it is.
func Unquote(p string) string {
	if len(p) >= 2 && p[0] == '"' {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}
