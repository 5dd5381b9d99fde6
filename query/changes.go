package query

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Hunk is a changed range of a file: lines Start to End of its version the
// snapshot was built from (a hunk that only adds lines names the line it
// adds them after). End 0 means the whole file.
type Hunk struct {
	Path       string
	Start, End int
}

// ParseDiff reads a unified diff (git diff, diff -u) and returns its hunks
// on the old side: the lines the change removes or replaces, or, for a
// pure insertion, the line it comes after. Files the diff creates have no
// old side and are left out; renamed files keep their old path.
func ParseDiff(r io.Reader) ([]Hunk, error) {
	var out []Hunk
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	path := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- "):
			p := strings.TrimSpace(strings.TrimPrefix(line, "--- "))
			if i := strings.IndexByte(p, '\t'); i >= 0 {
				p = p[:i]
			}
			if p == "/dev/null" {
				path = ""
				continue
			}
			path = strings.TrimPrefix(p, "a/")
		case strings.HasPrefix(line, "@@ ") && path != "":
			// @@ -start[,count] +start[,count] @@
			f := strings.Fields(line)
			if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
				return nil, fmt.Errorf("diff: bad hunk header %q", line)
			}
			spec := strings.TrimPrefix(f[1], "-")
			startS, countS, hasCount := strings.Cut(spec, ",")
			start, err := strconv.Atoi(startS)
			if err != nil {
				return nil, fmt.Errorf("diff: bad hunk header %q", line)
			}
			count := 1
			if hasCount {
				if count, err = strconv.Atoi(countS); err != nil {
					return nil, fmt.Errorf("diff: bad hunk header %q", line)
				}
			}
			end := start + count - 1
			if count == 0 {
				end = start
			}
			out = append(out, Hunk{Path: path, Start: max(start, 1), End: max(end, 1)})
		}
	}
	return out, sc.Err()
}

// Changed returns the symbols the hunks touch: in each hunk's file, the
// innermost symbols whose lines overlap it (a whole-file hunk: every
// symbol of the file), each once, in hunk order. Paths are matched as
// FileNode matches them; a path the snapshot does not have is returned in
// unknown.
func (e *Engine) Changed(hunks []Hunk) (ids []uint32, unknown []string) {
	seen := map[uint32]bool{}
	trees := map[string][]treeNode{}
	overlaps := func(n treeNode, h Hunk) bool {
		lo, hi := e.s.Lines(n.id)
		return h.End == 0 || !(int(hi) < h.Start || int(lo) > h.End)
	}
	for _, h := range hunks {
		tree, ok := trees[h.Path]
		if !ok {
			if fid, err := e.FileNode(h.Path); err == nil {
				tree = e.fileTree(fid)
			} else {
				unknown = append(unknown, h.Path)
			}
			trees[h.Path] = tree
		}
		for i, n := range tree {
			if !overlaps(n, h) {
				continue
			}
			// Innermost: skip a symbol when a member of it overlaps too.
			inner := false
			for j := i + 1; j < len(tree) && tree[j].depth > n.depth; j++ {
				if overlaps(tree[j], h) {
					inner = h.End > 0
					break
				}
			}
			if !inner && !seen[n.id] {
				seen[n.id] = true
				ids = append(ids, n.id)
			}
		}
	}
	return ids, slices.Compact(unknown)
}
