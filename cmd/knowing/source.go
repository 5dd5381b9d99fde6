package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/knowing-dev/knowing/internal/fileread"
	"github.com/knowing-dev/knowing/snapshot"
)

// Source is a symbol's code as the repository holds it now.
type Source struct {
	Code string `json:"code"`
	// Changed says the file is not the one the snapshot was built from
	// (its content differs from the build's fingerprint, or, for a
	// snapshot without stamps, its size; or it is gone): the lines may
	// have moved.
	Changed bool   `json:"changed"`
	Note    string `json:"note,omitempty"`
}

// maxSourceBytes bounds the code Source returns.
const maxSourceBytes = 64 << 10

// readSource reads id's lines from its file under root (the repository the
// snapshot was built from, Meta.RepoRoot), at most 64 KB of them. A file
// whose bytes differ from the ones the build read is read all the same and
// marked Changed.
func readSource(s *snapshot.Snapshot, root string, id uint32) (Source, error) {
	return newSourceReader(s, root).read(id)
}

// sourceReader reads symbols' code from the repository, each file once.
type sourceReader struct {
	s     *snapshot.Snapshot
	root  string
	files map[int32]*sourceFile
}

// sourceFile is a file as read: its lines, or why there are none.
type sourceFile struct {
	lines   []string
	changed bool // its bytes are not the ones the snapshot was built from
	gone    bool
	err     error
}

func newSourceReader(s *snapshot.Snapshot, root string) *sourceReader {
	return &sourceReader{s: s, root: root, files: map[int32]*sourceFile{}}
}

func (r *sourceReader) file(fi int32) *sourceFile {
	if f, ok := r.files[fi]; ok {
		return f
	}
	f := &sourceFile{}
	path := filepath.Join(r.root, filepath.FromSlash(r.s.FilePath(int(fi))))
	b, err := fileread.Regular(path, 64<<20)
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, fileread.ErrNotRegular):
		// A file that became a folder (or anything but a file) is gone,
		// as the staleness check says.
		f.gone = true
	case err != nil:
		f.err = err // it names the path
	default:
		f.changed = uint64(len(b)) != r.s.FileSize(int(fi))
		if _, hash := r.s.FileStamp(int(fi)); hash != 0 {
			f.changed = snapshot.Fingerprint(b) != hash
		}
		f.lines = strings.SplitAfter(string(b), "\n")
	}
	r.files[fi] = f
	return f
}

func (r *sourceReader) read(id uint32) (Source, error) {
	fi := r.s.FileIndex(id)
	if fi < 0 {
		return Source{}, fmt.Errorf("%s has no file", r.s.QName(id))
	}
	f := r.file(fi)
	if f.err != nil {
		return Source{}, f.err
	}
	if f.gone {
		return Source{Changed: true, Note: "the file is gone since the snapshot was built"}, nil
	}
	var out Source
	if f.changed {
		out.Changed = true
		out.Note = "the file changed since the snapshot was built: these lines may have moved (rebuild the snapshot)"
	}
	lo, hi := r.s.Lines(id)
	if int(lo) < 1 || int(lo) > len(f.lines) {
		out.Changed, out.Note = true, "the file is shorter than the symbol's lines: it changed since the snapshot was built"
		return out, nil
	}
	code := strings.Join(f.lines[lo-1:min(int(hi), len(f.lines))], "")
	if len(code) > maxSourceBytes {
		code = cutSource(code, maxSourceBytes)
		out.Note = strings.TrimSpace(out.Note + " cut at 64 KB")
	}
	out.Code = code
	return out, nil
}

// cutSource cuts code to at most max bytes: after its last whole line
// that fits, or, when a single line is longer than that, at the last
// character that fits (never inside a UTF-8 sequence).
func cutSource(code string, max int) string {
	if len(code) <= max {
		return code
	}
	if i := strings.LastIndexByte(code[:max], '\n'); i >= 0 {
		return code[:i+1]
	}
	i := max
	for i > 0 && !utf8.RuneStart(code[i]) {
		i--
	}
	return code[:i]
}
