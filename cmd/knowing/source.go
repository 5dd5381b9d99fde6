package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// Source is a symbol's code as the repository holds it now.
type Source struct {
	Code string `json:"code"`
	// Changed says the file is not the one the snapshot was built from
	// (its size differs, or it is gone): the lines may have moved.
	Changed bool   `json:"changed"`
	Note    string `json:"note,omitempty"`
}

// maxSourceBytes bounds the code Source returns.
const maxSourceBytes = 64 << 10

// readSource reads id's lines from its file under root (the repository the
// snapshot was built from, Meta.RepoRoot), at most 64 KB of them. A file
// whose size differs from the snapshot's record is read all the same and
// marked Changed.
func readSource(s *snapshot.Snapshot, root string, id uint32) (Source, error) {
	fi := s.FileIndex(id)
	if fi < 0 {
		return Source{}, fmt.Errorf("%s has no file", s.QName(id))
	}
	path := filepath.Join(root, filepath.FromSlash(s.FilePath(int(fi))))
	st, err := os.Stat(path)
	if err != nil {
		return Source{Changed: true, Note: "the file is gone since the snapshot was built"}, nil
	}
	if !st.Mode().IsRegular() || st.Size() > 64<<20 {
		return Source{}, fmt.Errorf("%s: not a regular source file", path)
	}
	var out Source
	if uint64(st.Size()) != s.FileSize(int(fi)) {
		out.Changed = true
		out.Note = "the file changed since the snapshot was built: these lines may have moved (rebuild the snapshot)"
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Source{}, err
	}
	lo, hi := s.Lines(id)
	lines := strings.SplitAfter(string(b), "\n")
	if int(lo) < 1 || int(lo) > len(lines) {
		out.Changed, out.Note = true, "the file is shorter than the symbol's lines: it changed since the snapshot was built"
		return out, nil
	}
	code := strings.Join(lines[lo-1:min(int(hi), len(lines))], "")
	if len(code) > maxSourceBytes {
		code = code[:maxSourceBytes]
		out.Note = strings.TrimSpace(out.Note + " cut at 64 KB")
	}
	out.Code = code
	return out, nil
}
