package extract

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/snapshot"
)

// What extraction asked of the file system, beyond the files it parsed,
// and what it was told: a file's FileResult depends on its own bytes and
// on these answers alone (a go.mod, whether a Python module exists, the
// exports of a JavaScript module it imports). An incremental build reuses
// a file's result only when every answer its language was given is still
// the same.

// depKind is the kind of question.
type depKind uint8

const (
	depStat  depKind = 'S' // Stat(rel): 0 none, 1 a file, 2 a folder
	depRead  depKind = 'R' // a read of rel (ReadMeta, FindUp): its fingerprint, or readMissing, readFailed
	depList  depKind = 'L' // ListDir(dir): a fingerprint of the listing
	depDir   depKind = 'D' // ReadDir(dir): a fingerprint of the entries
	depAbove depKind = 'A' // FindAbove(name): a fingerprint of the folder and bytes found, or 0
	// ReadDerived(rel, d): the fingerprint of what d takes from the
	// bytes, or readMissing, readFailed. The path is d's name, a zero
	// byte, and rel.
	depDerived depKind = 'V'
)

// A Derivation names what an extractor takes from a file it reads
// besides the one it parses (a Rust module's declarations, not its
// bytes): Key returns those facts as bytes, the same for any two files
// from which the extractor would take the same. An incremental build
// then checks the key of the file now, and an edit that changes no
// declaration invalidates nothing.
type Derivation struct {
	name string
	key  func([]byte) []byte
}

// derivations are the Derivations by name, for the checks of a later
// build.
var (
	derivationsMu sync.Mutex
	derivations   = map[string]*Derivation{}
)

// NewDerivation registers key under name (unique; extractors call it
// from a package variable's initialiser) and returns it.
func NewDerivation(name string, key func([]byte) []byte) *Derivation {
	derivationsMu.Lock()
	defer derivationsMu.Unlock()
	if derivations[name] != nil || strings.Contains(name, "\x00") {
		panic("extract: derivation " + name + " registered twice or badly named")
	}
	d := &Derivation{name: name, key: key}
	derivations[name] = d
	return d
}

// derivedAnswer is what ReadDerived's result records.
func derivedAnswer(d *Derivation, b []byte, err error) uint64 {
	if err != nil {
		return readAnswer(nil, err)
	}
	return snapshot.Fingerprint(d.key(b))
}

// derivedKey is the question of ReadDerived(rel, d).
func derivedKey(d *Derivation, rel string) depKey {
	return depKey{kind: depDerived, path: d.name + "\x00" + rel}
}

// splitDerived returns the derivation and the file of a depDerived key;
// nil when this build knows no derivation of that name.
func (k depKey) splitDerived() (*Derivation, string) {
	name, rel, _ := strings.Cut(k.path, "\x00")
	derivationsMu.Lock()
	defer derivationsMu.Unlock()
	return derivations[name], rel
}

// Answers of a read that found no bytes. A fingerprint equal to one of
// them (odds 2⁻⁶³) would make a change of that file go unseen.
const (
	readMissing = 0
	readFailed  = 1
)

// depKey is one question.
type depKey struct {
	kind depKind
	path string // the argument as the extractor gave it (a name for depAbove)
}

// depLog records the questions and answers; the zero value is ready.
type depLog struct {
	mu    sync.Mutex
	m     map[depKey]uint64
	files map[string]uint64 // the files read → their fingerprints
}

func (l *depLog) add(kind depKind, p string, answer uint64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if l.m == nil {
		l.m = map[depKey]uint64{}
	}
	l.m[depKey{kind, p}] = answer
	l.mu.Unlock()
}

// readAnswer is what a read's result records.
func readAnswer(b []byte, err error) uint64 {
	switch {
	case err == nil:
		return snapshot.Fingerprint(b)
	case errors.Is(err, fs.ErrNotExist):
		return readMissing
	}
	return readFailed
}

// aboveAnswer is what FindAbove's result records.
func aboveAnswer(dir string, data []byte, ok bool) uint64 {
	if !ok {
		return 0
	}
	return snapshot.Fingerprint(append([]byte(dir+"\x00"), data...))
}

// listAnswer fingerprints a folder listing: name → is a folder.
func listAnswer(m map[string]bool) uint64 {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		if m[n] {
			b.WriteString("/")
		}
		b.WriteByte(0)
	}
	return snapshot.Fingerprint([]byte(b.String()))
}

// dirAnswer fingerprints entries as os.ReadDir returns them, or a failed
// read.
func dirAnswer(ents []fs.DirEntry, err error) uint64 {
	if err != nil {
		return readAnswer(nil, err)
	}
	var b []byte
	for _, e := range ents {
		b = append(b, e.Name()...)
		b = append(b, 0, byte(e.Type()>>24))
	}
	return snapshot.Fingerprint(b)
}

// statAnswer is what Stat's result records.
func statAnswer(isDir, ok bool) uint64 {
	switch {
	case !ok:
		return 0
	case isDir:
		return 2
	}
	return 1
}

// ask puts a question again to r, which records nothing, and returns the
// answer now.
func (k depKey) ask(r *Repo) uint64 {
	switch k.kind {
	case depStat:
		return statAnswer(r.Stat(k.path))
	case depRead:
		return readAnswer(r.ReadMeta(k.path))
	case depList:
		return listAnswer(r.ListDir(k.path))
	case depDir:
		return dirAnswer(r.ReadDir(k.path))
	case depAbove:
		return aboveAnswer(r.FindAbove(k.path))
	case depDerived:
		if d, rel := k.splitDerived(); d != nil {
			b, err := r.ReadMeta(rel)
			return derivedAnswer(d, b, err)
		}
	}
	return 1<<64 - 1 // a kind this build does not know: never the same
}

// read records a file read (relative to the root, "../" steps for one
// above it) and the fingerprint of its bytes, for the staleness stamps.
func (l *depLog) read(p string, b []byte) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if l.files == nil {
		l.files = map[string]uint64{}
	}
	l.files[path.Clean(p)] = snapshot.Fingerprint(b)
	l.mu.Unlock()
}
