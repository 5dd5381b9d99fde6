//go:build cgo

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	mmap "github.com/edsrzf/mmap-go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/internal/cachetrim"
	"github.com/knowing-dev/knowing/snapshot"
)

// What a build leaves for the next build of the same output (an
// extract.Prior: every file's extraction and what it depended on) is
// kept under the user's cache folder, in knowing/prior/, named by the
// first 12 bytes of the SHA-256 of the snapshot's absolute path. It is a
// cache: a missing, damaged or foreign one only makes the next build a
// full one.
//
// The folder is bounded, since every new snapshot path leaves an entry
// (the Go standard library's is 74 MB) and snapshots are often built in
// folders that are later thrown away: after each save, the entries not
// used for priorAge go, then the least recently used until the folder
// holds at most KNOWING_CACHE_LIMIT bytes (priorLimit by default; 0 keeps
// no prior build, and every build is a full one). The entry just saved
// always stays.

// priorLimit is the prior folder's default bound, in bytes: a dozen
// repositories the size of the Go standard library, hundreds of smaller
// ones.
const priorLimit = 1 << 30

// priorAge is how long an entry nobody used is kept.
const priorAge = 30 * 24 * time.Hour

// cacheLimitEnv names the variable that sets the prior folder's bound.
const cacheLimitEnv = "KNOWING_CACHE_LIMIT"

// priorCacheLimit returns the prior folder's bound in bytes, from
// KNOWING_CACHE_LIMIT when it is set: a number of bytes with an optional
// unit (KB, MB, GB: powers of 1024; 1.5GB is allowed).
func priorCacheLimit() (int64, error) {
	v := strings.TrimSpace(os.Getenv(cacheLimitEnv))
	if v == "" {
		return priorLimit, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %v; want a size such as 500MB or 2GB, or 0 to keep no prior build (every build then parses every file)", cacheLimitEnv, v, err)
	}
	return n, nil
}

// parseSize reads a size: digits (a decimal point allowed) and an
// optional unit B, KB, MB, GB or TB (powers of 1024, any case).
func parseSize(v string) (int64, error) {
	u := strings.ToUpper(v)
	mult := int64(1)
	for _, unit := range []struct {
		suffix string
		mult   int64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, unit.suffix) {
			u, mult = strings.TrimSpace(strings.TrimSuffix(u, unit.suffix)), unit.mult
			break
		}
	}
	if strings.Trim(u, "0123456789.") != "" {
		return 0, fmt.Errorf("not a size")
	}
	f, err := strconv.ParseFloat(u, 64)
	if err != nil || f*float64(mult) >= 1<<62 {
		return 0, fmt.Errorf("not a size")
	}
	if f > 0 && f*float64(mult) < 1 {
		return 0, fmt.Errorf("less than a byte") // not a quiet 0, which keeps nothing
	}
	return int64(f * float64(mult)), nil
}

// priorPath is where the prior build of the snapshot at out is kept; ""
// when there is no cache folder.
func priorPath(out string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, "knowing", "prior", hex.EncodeToString(sum[:12])+".prior")
}

// priorID names the extractor a prior build came from: this version of
// knowing, and this very executable (its size and time), so that a
// rebuilt knowing, whose extraction may differ, starts afresh.
func priorID() string {
	id := "knowing " + version
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %d %d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return id
}

// loadPrior returns the prior build of out, when out is a snapshot built
// from the repository at root and its prior build is in the cache; else
// nil, with the reason why not (for --timings).
func loadPrior(out, root string) (*extract.Prior, string) {
	s, err := snapshot.Open(out)
	if err != nil {
		return nil, "no snapshot to update"
	}
	m, err := s.Meta()
	s.Close()
	if err != nil {
		return nil, "no snapshot to update"
	}
	abs, err := filepath.Abs(root)
	if err != nil || m.RepoRoot != abs {
		return nil, "the snapshot is of another repository"
	}
	return readPrior(out)
}

// readPrior returns the prior build of out kept in the cache, or nil
// with the reason why not; the caller knows out is a snapshot of the
// repository being built.
func readPrior(out string) (*extract.Prior, string) {
	p := priorPath(out)
	if p == "" {
		return nil, "no cache folder"
	}
	b, err := readCached(p)
	if err != nil {
		return nil, "no prior build in the cache"
	}
	prior, err := extract.UnmarshalPrior(b, priorID())
	if err != nil {
		return nil, err.Error()
	}
	cachetrim.Touch(p)
	return prior, ""
}

// savePrior keeps next for the next build of out, atomically, and trims
// the folder to limit (priorCacheLimit, read once by the command); a
// failure only makes that build a full one.
func savePrior(out string, next *extract.Prior, limit int64) error {
	p := priorPath(out)
	if p == "" || next == nil {
		return nil
	}
	if limit == 0 {
		// None kept: not this build's, nor those left by builds made
		// under a larger limit.
		dropPrior(out)
		_, _ = cachetrim.Trim(filepath.Dir(p), cachetrim.Policy{Empty: true})
		return nil
	}
	if err := writeFileAtomic(p, func(w io.Writer) error { return next.Write(w, priorID()) }); err != nil {
		return err
	}
	_, _ = cachetrim.Trim(filepath.Dir(p), cachetrim.Policy{MaxBytes: limit, MaxAge: priorAge, Keep: cachetrim.Entry(filepath.Base(p))})
	return nil
}

// writeFileAtomic writes what write writes to p (in the cache: private)
// under a temporary name, and renames it.
func writeFileAtomic(p string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// dropPrior forgets the prior build of out.
func dropPrior(out string) {
	if p := priorPath(out); p != "" {
		os.Remove(p)
		os.Remove(memoPath(p))
	}
}

// Beside the prior build, the cache keeps what the sections of the
// snapshot were built from (a snapshot.Memo), so that the next build
// copies those whose inputs did not change (see snapshot/reuse.go).

// memoPath is where the memo of the snapshot whose prior is at prior is kept.
func memoPath(prior string) string {
	return strings.TrimSuffix(prior, ".prior") + ".memo"
}

// openReuse returns the sections of the snapshot at out with the memo
// kept for it, or nil when there is none (the next write builds every
// section).
func openReuse(out string) *snapshot.Reuse {
	p := priorPath(out)
	if p == "" {
		return nil
	}
	b, err := os.ReadFile(memoPath(p))
	if err != nil {
		return nil
	}
	m, err := snapshot.UnmarshalMemo(b, priorID())
	if err != nil {
		return nil
	}
	cachetrim.Touch(memoPath(p))
	r, err := snapshot.OpenReuse(out, m)
	if err != nil {
		return nil
	}
	return r
}

// saveMemo keeps m, the memo of the snapshot just written at out, unless
// limit keeps no prior build.
func saveMemo(out string, m *snapshot.Memo, limit int64) error {
	p := priorPath(out)
	if p == "" || limit == 0 {
		return nil
	}
	return writeFileAtomic(memoPath(p), func(w io.Writer) error {
		_, err := w.Write(m.Marshal(priorID()))
		return err
	})
}

// readCached returns the bytes of the prior build at p. Where a mapped
// file can be replaced (not on Windows) they are a read-only mapping,
// which is never unmapped: the prior's strings point into it, and the
// graph's after them. A mapping costs no copy and no fresh memory
// (the Go standard library's prior is 74 MB; read into the heap, its
// pages were a quarter of an incremental build's system time). The
// cache is written by renaming a new file over the old one, never in
// place, so the mapped bytes do not change.
func readCached(p string) ([]byte, error) {
	if runtime.GOOS == "windows" {
		return os.ReadFile(p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, nil
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return os.ReadFile(p)
	}
	return m, nil
}
