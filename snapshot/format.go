package snapshot

import (
	"errors"
	"fmt"
	"hash/crc32"
)

// The constants below name the places and bounds that FORMAT.md, the
// normative description of the file, specifies.

// magic opens every snapshot file.
const magic = "KNOWSNAP"

// FormatVersion is the format version this package writes, and the only
// one it reads: Open rejects any other with a *VersionError asking for a
// rebuild. FORMAT.md lists every version, what it changed, and when the
// version is bumped.
const FormatVersion = 3

// Layout constants.
const (
	headerSize    = 64
	tableEntry    = 24
	maxSections   = 64
	sectionAlign  = 8
	nodeRecSize   = 24
	fileRecSize   = 24
	coldIdxSize   = 28 // u64 offset, u32 × 2 signature frame, u32 × 2 doc frame, u32 first entry
	coldFirst     = 24 // offset of the first entry in a cold.index entry
	coldRankSize  = 12 // u64 bitset of 64 nodes, u32 entries before them
	coldSlotBits  = 8
	maxColdRaw    = 64 << 20  // bound on one decompressed cold frame
	maxColdNode   = 16 << 20  // bound on one node's signature plus doc
	coldBlockSoft = 256 << 10 // the writer starts a new block once one holds this much text

	flagNoBM25 = 1 << 0 // header flags: the BM25 sections are empty
)

// Header field offsets.
const (
	hMagic    = 0
	hVersion  = 8
	hCRC      = 12
	hFileLen  = 16
	hNodes    = 24
	hFiles    = 28
	hEdges    = 32
	hSections = 40
	hFlags    = 44
)

// Node record field offsets (nodeRecSize bytes).
const (
	nQName   = 0  // u32 qualified name: string offset
	nQLen    = 4  // u16 qualified name: length
	nNameLen = 6  // u16 name length (bits 0..14) | nameFollows
	nStart   = 8  // u32 start line (bits 0..23) | kind << 24
	nKind    = 11 // u8, the top byte of the start word
	nEnd     = 12 // u32 end line (bits 0..23) | lang << 24
	nLang    = 15 // u8, the top byte of the end word
	nFile    = 16 // i32 file index, or -1
	nFlags   = 20 // u16 flags
	nSigLen  = 22 // u16 signature length, sigLenMore when 65,535 or more

	nameFollows = 1 << 15 // the name's bytes follow the qualified name's instead of ending them
	maxQNameLen = 1<<16 - 1
	maxNameLen  = 1<<15 - 1
	maxLine     = 1<<24 - 1
	lineMask    = 1<<24 - 1
	sigLenMore  = 1<<16 - 1
)

// File record field offsets.
const (
	fPath    = 0
	fPathLen = 4
	fSize    = 8
	fLang    = 16
	fFlags   = 18
)

// stamps section layout (see FORMAT.md, "stamps").
const (
	stHeader   = 48 // u32 files, u32 folders, u32 deps, u32 exts, i64 walk start, i64 max size, u32 names length, u32 flags, u64 reserved
	stFileRec  = 16 // i64 modification time, u64 fingerprint
	stDirRec   = 16 // u32 name offset, u32 name length, i64 modification time
	stDepRec   = 32 // u32 name offset, u32 name length, u64 size, i64 modification time, u64 fingerprint
	stExtRec   = 8  // u32 name offset, u32 name length
	stFiles    = 0
	stDirs     = 4
	stDeps     = 8
	stExts     = 12
	stWalk     = 16
	stMaxSize  = 24
	stNames    = 32
	stFlags    = 36
	stStamped  = 1 << 0 // stamps flags: the build recorded stamps
	maxStamped = 1 << 31
)

// sectionID names a section in the table.
type sectionID uint32

const (
	secMeta sectionID = iota + 1
	secStrings
	secFiles
	secNodes
	secGraphOut
	secGraphIn
	secNamesFST
	secNamesIDs
	secPartsFST
	secPartsIDs
	secBM25Terms
	secBM25Postings
	secBM25Stats
	secColdIndex
	secColdData
	secBodyTerms
	secBodyPostings
	secBodyStats
	secHistory
	secStamps
	numSectionIDs // one past the last known id
)

var sectionNames = [numSectionIDs]string{
	secMeta:         "meta",
	secStrings:      "strings",
	secFiles:        "files",
	secNodes:        "nodes",
	secGraphOut:     "graph.out",
	secGraphIn:      "graph.in",
	secNamesFST:     "names.fst",
	secNamesIDs:     "names.ids",
	secPartsFST:     "parts.fst",
	secPartsIDs:     "parts.ids",
	secBM25Terms:    "bm25.terms",
	secBM25Postings: "bm25.postings",
	secBM25Stats:    "bm25.stats",
	secColdIndex:    "cold.index",
	secColdData:     "cold.data",
	secBodyTerms:    "body.terms",
	secBodyPostings: "body.postings",
	secBodyStats:    "body.stats",
	secHistory:      "history",
	secStamps:       "stamps",
}

func (id sectionID) String() string {
	if id > 0 && id < numSectionIDs {
		return sectionNames[id]
	}
	return fmt.Sprintf("section#%d", uint32(id))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Errors. Every error from Open and Verify about the file's bytes matches
// one of these with errors.Is; VersionError and ChecksumError carry details
// for errors.As.
var (
	// ErrTruncated: the file is shorter than its header says.
	ErrTruncated = errors.New("snapshot: file truncated")
	// ErrBadMagic: the file is not a knowing snapshot.
	ErrBadMagic = errors.New("snapshot: not a knowing snapshot (its first bytes are not a snapshot's)")
	// ErrVersion: the format version is not one this reader knows.
	ErrVersion = errors.New("snapshot: unsupported format version")
	// ErrChecksum: a section's CRC-32C does not match its bytes. A checksum
	// error is also an ErrCorrupt.
	ErrChecksum = errors.New("snapshot: checksum mismatch")
	// ErrCorrupt: the bytes do not decode. Every error of this package
	// about a file's bytes matches it, whichever layer found the damage;
	// damage that package csr or bm25 found also matches csr.ErrCorrupt
	// or bm25.ErrCorrupt.
	ErrCorrupt = errors.New("snapshot: corrupt file")
	// ErrNoBM25: the snapshot was written without a BM25 index.
	ErrNoBM25 = errors.New("snapshot: built without a BM25 index")
	// ErrClosed: the snapshot was closed.
	ErrClosed = errors.New("snapshot: closed")
)

// VersionError reports a format version this reader does not support.
// Path and Repo, when Open could tell them, name the file and the
// repository it was built from, so the message can give the command that
// rebuilds it.
type VersionError struct {
	Found uint32
	Path  string
	Repo  string
}

func (e *VersionError) Error() string {
	rebuild := "knowing build --repo REPO SNAP"
	if e.Path != "" {
		repo := e.Repo
		if repo == "" {
			repo = "REPO"
		}
		rebuild = fmt.Sprintf("knowing build --repo %s %s", repo, e.Path)
	}
	if e.Found > FormatVersion {
		return fmt.Sprintf("snapshot: made by a newer knowing (format version %d; this one reads version %d): upgrade knowing, or rebuild the snapshot with this one: %s", e.Found, FormatVersion, rebuild)
	}
	return fmt.Sprintf("snapshot: made by an older knowing (format version %d; this one reads version %d): rebuild it with %s", e.Found, FormatVersion, rebuild)
}

// Is makes errors.Is(err, ErrVersion) true.
func (e *VersionError) Is(target error) bool { return target == ErrVersion }

// ChecksumError reports a section whose bytes do not match its checksum.
type ChecksumError struct {
	Section  string // "nodes", "graph.out", …, or "header"
	Stored   uint32
	Computed uint32
	Offset   uint64
	Length   uint64
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("snapshot: checksum mismatch in section %q (%d bytes at offset %d: stored %08x, computed %08x); rebuild the snapshot with `knowing build`",
		e.Section, e.Length, e.Offset, e.Stored, e.Computed)
}

// Is makes errors.Is(err, ErrChecksum) and errors.Is(err, ErrCorrupt) true.
func (e *ChecksumError) Is(target error) bool { return target == ErrChecksum || target == ErrCorrupt }

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// corruptWrap reports corruption that a lower package (csr, bm25) found in
// this file's bytes: the error matches both ErrCorrupt and err's own
// sentinel (csr.ErrCorrupt, bm25.ErrCorrupt).
func corruptWrap(err error, what string) error {
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
}
