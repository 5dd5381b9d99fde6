package snapshot

import (
	"errors"
	"hash/crc32"
	"math"
)

// Fingerprint is the content hash the stamps section records for a file:
// the CRC-32C of b in the high 32 bits and its CRC-32 (IEEE) in the low
// 32. The two polynomials are coprime, so the pair is b's remainder
// modulo their product, a CRC of degree 64: any change of up to 64
// consecutive bits changes it, and a random change escapes it with odd
// 2⁻⁶⁴. It is not meant against an adversary, only to tell an edited
// file; both CRCs run on the processor's CRC instructions (10 and 26
// GB/s here, against 1–2 GB/s for the standard library's 64-bit CRC,
// FNV or SHA-256).
func Fingerprint(b []byte) uint64 {
	return uint64(crc32.Checksum(b, castagnoli))<<32 | uint64(crc32.ChecksumIEEE(b))
}

// RacyWindow is how close to the build's walk a file's modification time
// must be for the staleness check to read the file rather than trust its
// time: file systems keep times in steps (a few milliseconds on Linux,
// up to two seconds on FAT), so a file written again within a step of
// the build's read keeps its time. Git treats its index the same way.
const RacyWindow = 2_000_000_000 // nanoseconds

// encodeStamps writes the stamps section (FORMAT.md, "stamps").
func encodeStamps(g *Graph) ([]byte, error) {
	st := g.Stamps
	if st == nil {
		st = &Stamps{}
	}
	if len(st.Dirs) >= maxStamped || len(st.Deps) >= maxStamped || len(st.Exts) >= maxStamped {
		return nil, errors.New("stamps: too many folders, files or extensions")
	}
	names := 0
	for _, d := range st.Dirs {
		names += len(d.Path)
	}
	for _, d := range st.Deps {
		names += len(d.Path)
	}
	for _, e := range st.Exts {
		names += len(e)
	}
	if names > math.MaxUint32 {
		return nil, errors.New("stamps: more than 4 GiB of names")
	}
	n := stHeader + stFileRec*len(g.Files) + stDirRec*len(st.Dirs) + stDepRec*len(st.Deps) + stExtRec*len(st.Exts)
	b := make([]byte, n, n+names)
	le.PutUint32(b[stFiles:], uint32(len(g.Files)))
	le.PutUint32(b[stDirs:], uint32(len(st.Dirs)))
	le.PutUint32(b[stDeps:], uint32(len(st.Deps)))
	le.PutUint32(b[stExts:], uint32(len(st.Exts)))
	le.PutUint64(b[stWalk:], uint64(st.WalkStart))
	le.PutUint64(b[stMaxSize:], uint64(st.MaxFileSize))
	le.PutUint32(b[stNames:], uint32(names))
	if g.Stamps != nil {
		le.PutUint32(b[stFlags:], stStamped)
	}
	r := b[stHeader:]
	for i := range g.Files {
		le.PutUint64(r[0:], uint64(g.Files[i].ModTime))
		le.PutUint64(r[8:], g.Files[i].Hash)
		r = r[stFileRec:]
	}
	ref := func(r []byte, s string) {
		le.PutUint32(r[0:], uint32(len(b)-n))
		le.PutUint32(r[4:], uint32(len(s)))
		b = append(b, s...)
	}
	for _, d := range st.Dirs {
		ref(r, d.Path)
		le.PutUint64(r[8:], uint64(d.ModTime))
		r = r[stDirRec:]
	}
	for _, d := range st.Deps {
		ref(r, d.Path)
		le.PutUint64(r[8:], d.Size)
		le.PutUint64(r[16:], uint64(d.ModTime))
		le.PutUint64(r[24:], d.Hash)
		r = r[stDepRec:]
	}
	for _, e := range st.Exts {
		ref(r, e)
		r = r[stExtRec:]
	}
	return b, nil
}

// stampsView is the stamps section as Open found it: the counts agree
// with the section's length, so every record is inside it.
type stampsView struct {
	b                      []byte
	files, dirs, deps, ext int
	names                  []byte // the names blob
	recs                   int    // offset of the first folder record
}

// checkStamps checks the stamps section's length against its counts and
// the file count.
func checkStamps(b []byte, nFiles int) (stampsView, error) {
	if len(b) < stHeader {
		return stampsView{}, corruptf("stamps section of %d bytes", len(b))
	}
	v := stampsView{b: b, files: int(le.Uint32(b[stFiles:])), dirs: int(le.Uint32(b[stDirs:])),
		deps: int(le.Uint32(b[stDeps:])), ext: int(le.Uint32(b[stExts:]))}
	if v.files != nFiles {
		return stampsView{}, corruptf("stamps section for %d files, the snapshot has %d", v.files, nFiles)
	}
	if v.dirs >= maxStamped || v.deps >= maxStamped || v.ext >= maxStamped {
		return stampsView{}, corruptf("stamps section counts out of range")
	}
	names := uint64(le.Uint32(b[stNames:]))
	want := uint64(stHeader) + stFileRec*uint64(v.files) + stDirRec*uint64(v.dirs) + stDepRec*uint64(v.deps) + stExtRec*uint64(v.ext) + names
	if want != uint64(len(b)) {
		return stampsView{}, corruptf("stamps section of %d bytes, its counts say %d", len(b), want)
	}
	v.recs = stHeader + stFileRec*v.files
	v.names = b[uint64(len(b))-names:]
	return v, nil
}

// stamped reports a build that recorded stamps.
func (v *stampsView) stamped() bool {
	return len(v.b) >= stHeader && le.Uint32(v.b[stFlags:])&stStamped != 0
}

func (v *stampsView) name(r []byte) string {
	off, n := uint64(le.Uint32(r[0:])), uint64(le.Uint32(r[4:]))
	if off+n > uint64(len(v.names)) {
		return ""
	}
	return string(v.names[off : off+n])
}

func (v *stampsView) file(i int) (mtime int64, hash uint64) {
	if i < 0 || i >= v.files {
		return 0, 0
	}
	r := v.b[stHeader+stFileRec*i:]
	return int64(le.Uint64(r)), le.Uint64(r[8:])
}

func (v *stampsView) dir(i int) DirStamp {
	r := v.b[v.recs+stDirRec*i:]
	return DirStamp{Path: v.name(r), ModTime: int64(le.Uint64(r[8:]))}
}

func (v *stampsView) dep(i int) DepStamp {
	r := v.b[v.recs+stDirRec*v.dirs+stDepRec*i:]
	return DepStamp{Path: v.name(r), Size: le.Uint64(r[8:]), ModTime: int64(le.Uint64(r[16:])), Hash: le.Uint64(r[24:])}
}

func (v *stampsView) extension(i int) string {
	return v.name(v.b[v.recs+stDirRec*v.dirs+stDepRec*v.deps+stExtRec*i:])
}

// verify checks every name reference.
func (v *stampsView) verify() error {
	at := v.recs
	for i, k := range []struct{ n, size int }{{v.dirs, stDirRec}, {v.deps, stDepRec}, {v.ext, stExtRec}} {
		for j := 0; j < k.n; j++ {
			r := v.b[at:]
			off, n := uint64(le.Uint32(r[0:])), uint64(le.Uint32(r[4:]))
			if off+n > uint64(len(v.names)) {
				return corruptf("stamps: %s record %d names bytes %d…%d of %d", [3]string{"folder", "file", "extension"}[i], j, off, off+n, len(v.names))
			}
			at += k.size
		}
	}
	return nil
}

// Stamps returns what the build recorded of the tree it read, and
// whether it recorded anything: a snapshot written from a graph without
// Stamps has none. The files' own stamps are in File and FileStamp.
func (s *Snapshot) Stamps() (*Stamps, bool) {
	v := s.stamps
	if !v.stamped() {
		return nil, false
	}
	st := &Stamps{WalkStart: int64(le.Uint64(v.b[stWalk:])), MaxFileSize: int64(le.Uint64(v.b[stMaxSize:]))}
	st.Dirs = make([]DirStamp, v.dirs)
	for i := range st.Dirs {
		st.Dirs[i] = v.dir(i)
	}
	st.Deps = make([]DepStamp, v.deps)
	for i := range st.Deps {
		st.Deps[i] = v.dep(i)
	}
	st.Exts = make([]string, v.ext)
	for i := range st.Exts {
		st.Exts[i] = v.extension(i)
	}
	return st, true
}

// FileStamp is file i's modification time (nanoseconds since the Unix
// epoch) and content fingerprint as the build saw them; zeros when the
// build recorded no stamps or i is out of range.
func (s *Snapshot) FileStamp(i int) (modTime int64, hash uint64) {
	return s.stamps.file(i)
}
