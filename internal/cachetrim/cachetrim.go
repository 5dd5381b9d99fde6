// Package cachetrim keeps a cache folder bounded. knowing keeps two
// caches under the user's cache folder: the prior builds that make the
// next build incremental (knowing/prior/, megabytes each), and the stamps
// that spare a snapshot's checksums on later opens (knowing/checked/, a
// line each). Both gain an entry for every new snapshot path, and
// snapshots are often built in folders that are thrown away (a test's, an
// agent's scratch folder): without a bound they grow for ever. Losing an
// entry costs only time (one full build, one checksum pass), so the bound
// is a plain one: entries not written or used for a while go, then the
// least recently used until the folder is under its size and count.
package cachetrim

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Policy is what Trim keeps. A zero field sets no bound of its kind.
type Policy struct {
	MaxBytes   int64         // the entries' total size
	MaxEntries int           // how many entries
	MaxAge     time.Duration // entries last used longer ago go
	// Empty keeps no entry but Keep, whatever the bounds say: a bound
	// of none, which a zero field cannot set.
	Empty bool
	// Keep names an entry that stays whatever the bounds say: the one
	// just written.
	Keep string
	// Now is the time the ages are measured from; zero: time.Now().
	Now time.Time
}

// TempAge is how old a writer's temporary file (".NAME.tmp-…") must be
// for Trim to take it for one left by a writer that died: writing a cache
// entry takes well under a second.
const TempAge = time.Hour

// Entry is the name of the entry a file belongs to: its name up to the
// first dot ("ab12.prior" and "ab12.memo" are one entry, "ab12"). Trim
// leaves names that start with a dot to its temporary-file rule.
func Entry(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

// Result is what Trim removed.
type Result struct {
	Entries, Files int   // entries (and their files) removed
	Bytes          int64 // their size
	Temps          int   // dead temporary files removed
	Kept           int   // entries left
	KeptBytes      int64 // their size
}

// Touch marks the cache file at path as used now, so that Trim keeps it
// before entries used longer ago. It writes only when the mark is older
// than an hour: most uses cost no write. Errors are ignored: a missed
// mark only makes the entry go sooner.
func Touch(path string) {
	if st, err := os.Stat(path); err == nil {
		MarkUsed(path, st.ModTime())
	}
}

// MarkUsed is Touch for a caller that has the file's modification time
// already (from the open it read the file through).
func MarkUsed(path string, modified time.Time) {
	if time.Since(modified) < time.Hour {
		return
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now)
}

// Due reports whether a trim of dir is due, at most one per period: it
// is when the folder's mark (a file ".trimmed") is missing or older than
// period, and Due then sets the mark to now. It lets a folder whose
// writes are on a command's critical path pay for a trim (ReadDir and a
// stat per file: 7 ms for 1,000 files) once a period instead of at every
// write; the folder may then exceed its bounds by what one period adds.
func Due(dir string, period time.Duration) bool {
	mark := filepath.Join(dir, ".trimmed")
	st, err := os.Stat(mark)
	if err != nil {
		// No mark yet; where none can be kept, never trim rather than
		// always.
		return os.WriteFile(mark, nil, 0o600) == nil
	}
	// A mark from the future (a clock once set wrong) is due: it would
	// hold trims off until that date.
	if age := time.Since(st.ModTime()); age >= 0 && age < period {
		return false
	}
	now := time.Now()
	return os.Chtimes(mark, now, now) == nil
}

// Trim removes from dir the entries p does not keep, and the temporary
// files older than TempAge. An entry's last use is the newest
// modification time among its files (Touch sets it). Files that vanish
// meanwhile (another process trimming the same folder) are skipped:
// Trim only ever removes, so two trims at once are harmless.
func Trim(dir string, p Policy) (Result, error) {
	var res Result
	ents, err := os.ReadDir(dir)
	if err != nil {
		return res, err
	}
	now := p.Now
	if now.IsZero() {
		now = time.Now()
	}
	type entry struct {
		name  string
		files []string
		size  int64
		used  time.Time
	}
	byName := map[string]*entry{}
	var all []*entry
	for _, de := range ents {
		if !de.Type().IsRegular() {
			continue
		}
		name := de.Name()
		info, err := de.Info()
		if err != nil {
			continue
		}
		if strings.HasPrefix(name, ".") {
			if strings.Contains(name, ".tmp-") && now.Sub(info.ModTime()) > TempAge {
				if os.Remove(filepath.Join(dir, name)) == nil {
					res.Temps++
				}
			}
			continue
		}
		id := Entry(name)
		e := byName[id]
		if e == nil {
			e = &entry{name: id}
			byName[id] = e
			all = append(all, e)
		}
		e.files = append(e.files, name)
		e.size += info.Size()
		if t := info.ModTime(); t.After(e.used) {
			e.used = t
		}
	}
	// Newest first; the kept entry before all others.
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if (a.name == p.Keep) != (b.name == p.Keep) {
			return a.name == p.Keep
		}
		if !a.used.Equal(b.used) {
			return a.used.After(b.used)
		}
		return a.name < b.name
	})
	listed()
	// Least recently used last: once one entry is over a bound, it and
	// every entry used before it go. The kept entry, first, never is.
	cut := false
	for _, e := range all {
		if e.name != p.Keep && !cut {
			cut = p.Empty ||
				p.MaxAge > 0 && now.Sub(e.used) > p.MaxAge ||
				p.MaxEntries > 0 && res.Kept >= p.MaxEntries ||
				p.MaxBytes > 0 && res.KeptBytes+e.size > p.MaxBytes
		}
		if !cut {
			res.Kept++
			res.KeptBytes += e.size
			continue
		}
		if usedSince(dir, e.files, e.used) {
			// Written or used since the listing, by another process:
			// it is that process's newest entry, not a stale one.
			res.Kept++
			res.KeptBytes += e.size
			continue
		}
		res.Entries++
		res.Bytes += e.size
		for _, f := range e.files {
			if os.Remove(filepath.Join(dir, f)) == nil {
				res.Files++
			}
		}
	}
	return res, nil
}

// listed is called once Trim has listed the folder; tests use it to act
// as another process would between the listing and the removals.
var listed = func() {}

// usedSince reports whether a file of an entry, whose last use the
// listing found at used, was written or touched since, or appeared.
// It leaves a race as short as a stat call where there was one as long
// as the listing of the whole folder.
func usedSince(dir string, files []string, used time.Time) bool {
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.ModTime().After(used) {
			return true
		}
	}
	return false
}
