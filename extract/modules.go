package extract

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// What the language packages share to resolve modules: folder listings
// and the tables their per-repository caches (see Memo) keep answers in.

// ListDir reads the entries of folder dir (relative, slash-separated, ""
// the root; a leading "/" is the root too): name → is a folder, a link
// counting as what it links to. A folder above the root, one that cannot
// be read, or a nil r has none.
// It reads the file system on every call: a language keeps the answers
// it needs again (see MemoMap).
func (r *Repo) ListDir(dir string) map[string]bool {
	m := map[string]bool{}
	if r == nil {
		return m
	}
	if dir = path.Clean(dir); dir == ".." || strings.HasPrefix(dir, "../") {
		return m
	}
	abs := filepath.Join(r.Root, filepath.FromSlash(dir))
	ents, _ := os.ReadDir(abs)
	for _, e := range ents {
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(abs, e.Name())); err == nil {
				isDir = st.IsDir()
			}
		}
		m[e.Name()] = isDir
	}
	r.deps.add(depList, dir, listAnswer(m))
	return m
}

// ReadDir reads the entries of folder dir (relative, slash-separated, ""
// the root) as os.ReadDir does, in name order. Extractors read folders
// through it (or ListDir) so that an incremental build knows which
// listings a result depends on.
func (r *Repo) ReadDir(dir string) ([]fs.DirEntry, error) {
	ents, err := os.ReadDir(filepath.Join(r.Root, filepath.FromSlash(dir)))
	r.deps.add(depDir, dir, dirAnswer(ents, err))
	return ents, err
}

// MemoMap holds answers a language's repository cache works out once per
// build and key (a folder's listing, the file an import names, a module's
// exports, a package's manifest), safe for concurrent use. The zero value
// is empty and ready; a MemoMap must not be copied after first use.
type MemoMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// Get returns the value for k, calling compute the first time. compute
// runs outside the lock, so it may Get other keys of the same map (a
// module resolved through its parent's); two goroutines may compute k at
// once, and then both get the value stored first.
func (m *MemoMap[K, V]) Get(k K, compute func() V) V {
	m.mu.Lock()
	v, ok := m.m[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	w := compute()
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.m[k]; ok {
		return v
	}
	if m.m == nil {
		m.m = map[K]V{}
	}
	m.m[k] = w
	return w
}
