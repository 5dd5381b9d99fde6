package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"strings"
	"sync"
	"unsafe"

	mmap "github.com/edsrzf/mmap-go"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/csr"
	"github.com/knowing-dev/knowing/internal/fst"
)

// Snapshot is an open snapshot file. It is immutable and safe for
// concurrent use by any number of goroutines; the iterators it hands out
// (KeyIter, NeighborIter) belong to one goroutine each.
//
// Strings returned by Name, QName and FilePath point into the file's
// memory mapping: they are valid until Close and must not be used after
// it. Node returns heap copies that outlive Close. Using a Snapshot after
// Close, or calling Close while other goroutines still use it, is a bug in
// the caller.
type Snapshot struct {
	path   string
	mm     mmap.MMap
	data   []byte
	flags  uint32
	nNodes int
	nFiles int
	nEdges int
	secs   [numSectionIDs]section
	extra  []extraSection // sections this reader does not know

	strs, files, nodes []byte
	graph              *csr.Graph
	names, parts       fst.View
	nameIDs, partIDs   []byte
	coldIdx, coldData  []byte
	coldRanks          []byte // the rank groups at the end of cold.index
	stamps             stampsView

	bm25, body lazyIndex // the two BM25 indexes, opened on first use
	history    []byte    // the history section (4 bytes a node), or nil

	infoOnce sync.Once
	info     *Info
	infoErr  error

	cold coldCache
}

// section is one entry of the section table.
type section struct {
	off, n  uint64
	crc     uint32
	present bool
}

type extraSection struct {
	id sectionID
	section
}

// Info is the snapshot's metadata section: the build's Meta plus facts
// about the file.
type Info struct {
	Meta          Meta             `json:"meta"`
	FormatVersion int              `json:"format_version"`
	NameKeys      int              `json:"name_keys"` // distinct lower-cased names
	PartKeys      int              `json:"part_keys"` // keys of the parts index (see FORMAT.md)
	ColdBlocks    int              `json:"cold_blocks"`
	BM25          *bm25.Params     `json:"bm25,omitempty"` // nil when built without BM25
	Sections      map[string]int64 `json:"sections"`       // byte size of every section but meta
}

// SectionInfo describes one section of the file.
type SectionInfo struct {
	Name     string
	Offset   uint64
	Length   uint64
	Checksum uint32 // CRC-32C (Castagnoli) of the section's bytes
}

// Open maps the snapshot at path read-only. It checks the header and the
// section table only, so its cost does not depend on the file's size;
// Verify checks every byte. Errors wrap ErrTruncated, ErrBadMagic,
// ErrVersion (*VersionError), ErrChecksum (*ChecksumError, for the header)
// or ErrCorrupt, or the error from the file system, and name the path.
func Open(path string) (*Snapshot, error) {
	// A FIFO would block the open until a writer came; only a regular
	// file can be a snapshot.
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	} else if !st.IsDir() && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("snapshot: open %s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("snapshot: open %s: is a folder", path)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("snapshot: open %s: %w (empty file)", path, ErrTruncated)
	}
	if int64(int(st.Size())) != st.Size() {
		return nil, fmt.Errorf("snapshot: open %s: %d bytes do not fit in memory", path, st.Size())
	}
	mm, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("snapshot: map %s: %w", path, err)
	}
	s, err := openBytes(mm)
	if err != nil {
		var ve *VersionError
		if errors.As(err, &ve) {
			ve.Path, ve.Repo = path, recordedRepo(mm)
		}
		mm.Unmap()
		return nil, fmt.Errorf("snapshot: open %s: %w", path, err)
	}
	s.mm, s.path = mm, path
	return s, nil
}

// openBytes views data as a snapshot, checking the header and section
// table only.
func openBytes(data []byte) (*Snapshot, error) {
	if len(data) < len(magic) {
		if strings.HasPrefix(magic, string(data)) {
			return nil, fmt.Errorf("%w: %d bytes", ErrTruncated, len(data))
		}
		return nil, ErrBadMagic
	}
	if string(data[hMagic:hMagic+len(magic)]) != magic {
		return nil, ErrBadMagic
	}
	if len(data) < hVersion+4 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTruncated, len(data))
	}
	if v := le.Uint32(data[hVersion:]); v != FormatVersion {
		return nil, &VersionError{Found: v}
	}
	if len(data) < headerSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrTruncated, len(data), headerSize)
	}
	nsec := le.Uint32(data[hSections:])
	if nsec > maxSections {
		return nil, corruptf("section count %d exceeds %d", nsec, maxSections)
	}
	tableEnd := headerSize + int(nsec)*tableEntry
	if len(data) < tableEnd {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the header and section table (%d)", ErrTruncated, len(data), tableEnd)
	}
	var zero [4]byte
	crc := crc32.Update(0, castagnoli, data[:hCRC])
	crc = crc32.Update(crc, castagnoli, zero[:])
	crc = crc32.Update(crc, castagnoli, data[hCRC+4:tableEnd])
	if stored := le.Uint32(data[hCRC:]); stored != crc {
		return nil, &ChecksumError{Section: "header", Stored: stored, Computed: crc, Length: uint64(tableEnd)}
	}
	fileLen := le.Uint64(data[hFileLen:])
	if uint64(len(data)) < fileLen {
		return nil, fmt.Errorf("%w: %d bytes, the header says %d", ErrTruncated, len(data), fileLen)
	}
	if uint64(len(data)) > fileLen {
		return nil, corruptf("%d bytes, the header says %d", len(data), fileLen)
	}

	s := &Snapshot{data: data, flags: le.Uint32(data[hFlags:])}
	nNodes, nFiles, nEdges := le.Uint32(data[hNodes:]), le.Uint32(data[hFiles:]), le.Uint64(data[hEdges:])
	if nNodes == 1<<32-1 || nFiles >= 1<<31 || nEdges >= 1<<40 {
		return nil, corruptf("counts out of range (%d nodes, %d files, %d edges)", nNodes, nFiles, nEdges)
	}
	s.nNodes, s.nFiles, s.nEdges = int(nNodes), int(nFiles), int(nEdges)

	for i := 0; i < int(nsec); i++ {
		e := data[headerSize+i*tableEntry:]
		id := sectionID(le.Uint32(e))
		sec := section{crc: le.Uint32(e[4:]), off: le.Uint64(e[8:]), n: le.Uint64(e[16:]), present: true}
		if sec.off < uint64(tableEnd) || sec.n > fileLen || sec.off > fileLen-sec.n {
			return nil, corruptf("section %s (%d bytes at %d) outside the file's %d bytes", id, sec.n, sec.off, fileLen)
		}
		if id == 0 || id >= numSectionIDs {
			// A section from a later writer: skip it, but keep its place
			// and checksum for Verify.
			s.extra = append(s.extra, extraSection{id, sec})
			continue
		}
		if s.secs[id].present {
			return nil, corruptf("section %s listed twice", id)
		}
		s.secs[id] = sec
	}
	// Sections must not overlap: sort the (few) known ones by offset.
	var order [numSectionIDs]sectionID
	k := 0
	for id := sectionID(1); id < numSectionIDs; id++ {
		if !s.secs[id].present {
			return nil, corruptf("required section %s missing", id)
		}
		j := k
		for ; j > 0 && after(s.secs[order[j-1]], s.secs[id]); j-- {
			order[j] = order[j-1]
		}
		order[j] = id
		k++
	}
	for i := 1; i < k; i++ {
		a, b := s.secs[order[i-1]], s.secs[order[i]]
		if a.off+a.n > b.off {
			return nil, corruptf("sections %s and %s overlap", order[i-1], order[i])
		}
	}

	s.strs = s.sec(secStrings)
	s.files = s.sec(secFiles)
	s.nodes = s.sec(secNodes)
	if uint64(len(s.nodes)) != uint64(s.nNodes)*nodeRecSize {
		return nil, corruptf("nodes section of %d bytes for %d nodes", len(s.nodes), s.nNodes)
	}
	if uint64(len(s.files)) != uint64(s.nFiles)*fileRecSize {
		return nil, corruptf("files section of %d bytes for %d files", len(s.files), s.nFiles)
	}
	s.history = s.sec(secHistory)
	if h := uint64(len(s.history)); h != 0 && h != 4*uint64(s.nNodes) {
		return nil, corruptf("history section of %d bytes for %d nodes", h, s.nNodes)
	}
	out, in := s.sec(secGraphOut), s.sec(secGraphIn)
	g, err := csr.NewGraph(s.nNodes, out, in)
	if err != nil {
		return nil, corruptWrap(err, "graph")
	}
	// Each edge takes at least a byte in each row.
	if uint64(s.nEdges) > uint64(g.Out.DataLen()) || uint64(s.nEdges) > uint64(g.In.DataLen()) {
		return nil, corruptf("graph sections too small for %d edges", s.nEdges)
	}
	s.graph = g
	if s.names, err = fst.New(s.sec(secNamesFST), ErrCorrupt); err != nil {
		return nil, fmt.Errorf("names: %w", err)
	}
	if s.parts, err = fst.New(s.sec(secPartsFST), ErrCorrupt); err != nil {
		return nil, fmt.Errorf("parts: %w", err)
	}
	s.nameIDs, s.partIDs = s.sec(secNamesIDs), s.sec(secPartsIDs)
	s.coldIdx, s.coldData = s.sec(secColdIndex), s.sec(secColdData)
	ranks := coldRankSize * ((uint64(s.nNodes) + 63) / 64)
	if uint64(len(s.coldIdx)) < ranks || (uint64(len(s.coldIdx))-ranks)%coldIdxSize != 0 {
		return nil, corruptf("cold index of %d bytes", len(s.coldIdx))
	}
	s.coldIdx, s.coldRanks = s.coldIdx[:uint64(len(s.coldIdx))-ranks], s.coldIdx[uint64(len(s.coldIdx))-ranks:]
	if s.stamps, err = checkStamps(s.sec(secStamps), s.nFiles); err != nil {
		return nil, err
	}
	if s.secs[secMeta].n == 0 {
		return nil, corruptf("empty meta section")
	}
	return s, nil
}

// after orders sections by offset, empty ones first at equal offsets.
func after(a, b section) bool { return a.off > b.off || a.off == b.off && a.n > b.n }

// sec returns a known section's bytes; the table was checked by openBytes.
func (s *Snapshot) sec(id sectionID) []byte {
	e := s.secs[id]
	if !e.present || uint64(len(s.data)) < e.off+e.n {
		return nil
	}
	return s.data[e.off : e.off+e.n : e.off+e.n]
}

// Close unmaps the file. Strings obtained from the mapping become invalid.
func (s *Snapshot) Close() error {
	var err error
	if s.mm != nil {
		err = s.mm.Unmap()
		s.mm = nil
	}
	s.data, s.strs, s.files, s.nodes = nil, nil, nil, nil
	s.nameIDs, s.partIDs, s.coldIdx, s.coldData, s.coldRanks = nil, nil, nil, nil, nil
	s.stamps = stampsView{}
	s.names, s.parts = fst.View{}, fst.View{}
	s.secs, s.extra = [numSectionIDs]section{}, nil
	s.nNodes, s.nFiles, s.nEdges = 0, 0, 0
	s.graph = &csr.Graph{}
	s.cold.clear()
	s.bm25.close()
	s.body.close()
	s.history = nil
	return err
}

// Path is the file the snapshot was opened from ("" for one in memory).
func (s *Snapshot) Path() string { return s.path }

// Size is the file's size in bytes.
func (s *Snapshot) Size() int64 { return int64(len(s.data)) }

// NumNodes is the number of nodes; ids are 0..NumNodes()-1.
func (s *Snapshot) NumNodes() int { return s.nNodes }

// NumFiles is the number of files.
func (s *Snapshot) NumFiles() int { return s.nFiles }

// NumEdges is the number of edges.
func (s *Snapshot) NumEdges() int { return s.nEdges }

// Sections lists the section table in id order.
func (s *Snapshot) Sections() []SectionInfo {
	var out []SectionInfo
	for id := sectionID(1); id < numSectionIDs; id++ {
		if e := s.secs[id]; e.present {
			out = append(out, SectionInfo{Name: id.String(), Offset: e.off, Length: e.n, Checksum: e.crc})
		}
	}
	return out
}

// Info decodes the metadata section on first use.
func (s *Snapshot) Info() (Info, error) {
	s.infoOnce.Do(func() {
		var in Info
		if err := json.Unmarshal(s.sec(secMeta), &in); err != nil {
			s.infoErr = corruptf("meta: %v", err)
			return
		}
		s.info = &in
	})
	if s.infoErr != nil {
		return Info{}, s.infoErr
	}
	in := *s.info
	in.Meta.Extra = maps.Clone(in.Meta.Extra)
	in.Sections = maps.Clone(in.Sections)
	if in.BM25 != nil {
		p := *in.BM25
		in.BM25 = &p
	}
	return in, nil
}

// Meta is the build's description, decoded on first use.
func (s *Snapshot) Meta() (Meta, error) {
	in, err := s.Info()
	return in.Meta, err
}

// The single door to node and file records and to the strings section:
// every read of them goes through rec, frec and str, which check bounds.

func (s *Snapshot) rec(id uint32) []byte {
	if uint64(id) >= uint64(s.nNodes) {
		return nil
	}
	o := int(id) * nodeRecSize
	if o+nodeRecSize > len(s.nodes) {
		return nil
	}
	return s.nodes[o : o+nodeRecSize : o+nodeRecSize]
}

func (s *Snapshot) frec(i int) []byte {
	if i < 0 || i >= s.nFiles {
		return nil
	}
	o := i * fileRecSize
	if o+fileRecSize > len(s.files) {
		return nil
	}
	return s.files[o : o+fileRecSize : o+fileRecSize]
}

// str returns the string at off, n in the strings section, or "" when it
// does not fit. The string shares the mapping's memory.
func (s *Snapshot) str(off, n uint64) string {
	if n == 0 || off+n > uint64(len(s.strs)) {
		return ""
	}
	return unsafe.String(&s.strs[off], int(n))
}

// qnameRef and nameRef locate a record's qualified name and name in the
// strings section. The name is the last bytes of the qualified name or,
// with nameFollows, the bytes right after it.
func qnameRef(r []byte) (off, n uint64) {
	return uint64(le.Uint32(r[nQName:])), uint64(le.Uint16(r[nQLen:]))
}

func nameRef(r []byte) (off, n uint64, ok bool) {
	qoff, qn := qnameRef(r)
	nl := le.Uint16(r[nNameLen:])
	n = uint64(nl &^ nameFollows)
	if nl&nameFollows != 0 {
		return qoff + qn, n, true
	}
	if n > qn {
		return 0, 0, false
	}
	return qoff + qn - n, n, true
}

// Name is node id's own name ("" for an id out of range). The string is
// valid until Close.
func (s *Snapshot) Name(id uint32) string {
	r := s.rec(id)
	if r == nil {
		return ""
	}
	off, n, ok := nameRef(r)
	if !ok {
		return ""
	}
	return s.str(off, n)
}

// QName is node id's qualified name, valid until Close.
func (s *Snapshot) QName(id uint32) string {
	r := s.rec(id)
	if r == nil {
		return ""
	}
	return s.str(qnameRef(r))
}

// Kind is node id's kind.
func (s *Snapshot) Kind(id uint32) Kind {
	if r := s.rec(id); r != nil {
		return Kind(r[nKind])
	}
	return KindUnknown
}

// History is what the build's git history window says of node id (see
// Node.Changed and Node.Churn): zeros when no commit of the window
// changed it, or when the build read no history (HasHistory).
func (s *Snapshot) History(id uint32) (changed, churn uint16) {
	b := s.history
	if i := 4 * uint64(id); i+4 <= uint64(len(b)) {
		return le.Uint16(b[i:]), le.Uint16(b[i+2:])
	}
	return 0, 0
}

// HasHistory reports whether the build read git history.
func (s *Snapshot) HasHistory() bool { return len(s.history) > 0 }

// Lang is node id's language.
func (s *Snapshot) Lang(id uint32) Lang {
	if r := s.rec(id); r != nil {
		return Lang(r[nLang])
	}
	return LangUnknown
}

// Flags are node id's flags.
func (s *Snapshot) Flags(id uint32) Flags {
	if r := s.rec(id); r != nil {
		return Flags(le.Uint16(r[nFlags:]))
	}
	return 0
}

// FileIndex is the index of node id's file, or −1.
func (s *Snapshot) FileIndex(id uint32) int32 {
	if r := s.rec(id); r != nil {
		return int32(le.Uint32(r[nFile:]))
	}
	return -1
}

// Lines are node id's first and last lines.
func (s *Snapshot) Lines(id uint32) (start, end uint32) {
	if r := s.rec(id); r != nil {
		return le.Uint32(r[nStart:]) & lineMask, le.Uint32(r[nEnd:]) & lineMask
	}
	return 0, 0
}

// SignatureLen is the length in bytes of node id's signature, known
// without decompressing it (for token estimates).
func (s *Snapshot) SignatureLen(id uint32) int {
	r := s.rec(id)
	if r == nil {
		return 0
	}
	if n := le.Uint16(r[nSigLen:]); n != sigLenMore {
		return int(n)
	}
	sig, _ := s.coldPart(id, partSig) // a signature of 64 KiB or more: rare
	return len(sig)
}

// Signature decompresses node id's signature. The returned string does not
// point into the mapping.
func (s *Snapshot) Signature(id uint32) (string, error) {
	return s.coldPart(id, partSig)
}

// Doc decompresses node id's doc comment.
func (s *Snapshot) Doc(id uint32) (string, error) {
	return s.coldPart(id, partDoc)
}

// Node returns a copy of node id whose strings are independent of the
// mapping. Body, Text and History are not stored as text: they are empty.
func (s *Snapshot) Node(id uint32) (Node, error) {
	r := s.rec(id)
	if r == nil {
		return Node{}, fmt.Errorf("snapshot: node %d out of range [0,%d)", id, s.nNodes)
	}
	sig, doc, err := s.coldText(id)
	if err != nil {
		return Node{}, err
	}
	start, end := s.Lines(id)
	changed, churn := s.History(id)
	return Node{
		Changed:   changed,
		Churn:     churn,
		Name:      strings.Clone(s.Name(id)),
		QName:     strings.Clone(s.QName(id)),
		Kind:      s.Kind(id),
		Lang:      s.Lang(id),
		Flags:     s.Flags(id),
		File:      s.FileIndex(id),
		StartLine: start,
		EndLine:   end,
		Signature: sig,
		Doc:       doc,
	}, nil
}

// FilePath is file i's slash-separated path, valid until Close.
func (s *Snapshot) FilePath(i int) string {
	r := s.frec(i)
	if r == nil {
		return ""
	}
	return s.str(uint64(le.Uint32(r[fPath:])), uint64(le.Uint32(r[fPathLen:])))
}

// FileLang is file i's language.
func (s *Snapshot) FileLang(i int) Lang {
	if r := s.frec(i); r != nil {
		return Lang(r[fLang])
	}
	return LangUnknown
}

// FileFlags are file i's flags.
func (s *Snapshot) FileFlags(i int) Flags {
	if r := s.frec(i); r != nil {
		return Flags(le.Uint16(r[fFlags:]))
	}
	return 0
}

// FileSize is file i's size in bytes.
func (s *Snapshot) FileSize(i int) uint64 {
	if r := s.frec(i); r != nil {
		return le.Uint64(r[fSize:])
	}
	return 0
}

// File returns a copy of file i.
func (s *Snapshot) File(i int) (File, error) {
	if s.frec(i) == nil {
		return File{}, fmt.Errorf("snapshot: file %d out of range [0,%d)", i, s.nFiles)
	}
	mtime, hash := s.FileStamp(i)
	return File{Path: strings.Clone(s.FilePath(i)), Lang: s.FileLang(i), Flags: s.FileFlags(i), Size: s.FileSize(i), ModTime: mtime, Hash: hash}, nil
}

// Graph is the CSR graph, a view over the mapping valid until Close. Edge
// attribute bytes unpack with AttrType and AttrConfidence.
func (s *Snapshot) Graph() *csr.Graph { return s.graph }

// Direction selects the edges of a node to walk.
type Direction uint8

const (
	Out Direction = iota // edges from the node
	In                   // edges to the node
)

// Neighbors iterates the edges of node id in direction dir, in ascending
// order of the other node. It does not allocate.
//
//	it := s.Neighbors(id, snapshot.Out)
//	for it.Next() {
//		use(it.Node(), it.Type(), it.Confidence())
//	}
func (s *Snapshot) Neighbors(id uint32, dir Direction) NeighborIter {
	var it NeighborIter
	it.n = uint32(s.nNodes)
	if dir == In {
		it.it.Reset(s.graph.In, id)
	} else {
		it.it.Reset(s.graph.Out, id)
	}
	return it
}

// Degree is the number of edges of node id in direction dir.
func (s *Snapshot) Degree(id uint32, dir Direction) int {
	if dir == In {
		return s.graph.In.Degree(id)
	}
	return s.graph.Out.Degree(id)
}

// NeighborIter walks one node's edges; see Snapshot.Neighbors.
type NeighborIter struct {
	it  csr.Iter
	n   uint32
	bad bool
}

// Next advances to the next edge.
func (it *NeighborIter) Next() bool {
	if !it.it.Next() {
		return false
	}
	if it.it.Node >= it.n {
		it.bad = true
		for it.it.Next() {
		}
		return false
	}
	return true
}

// Node is the node at the other end of the current edge.
func (it *NeighborIter) Node() uint32 { return it.it.Node }

// Type is the current edge's type.
func (it *NeighborIter) Type() EdgeType { return AttrType(it.it.Attr) }

// Confidence is the current edge's confidence, quantized to eighths.
func (it *NeighborIter) Confidence() float32 { return AttrConfidence(it.it.Attr) }

// Attr is the current edge's packed attribute byte.
func (it *NeighborIter) Attr() uint8 { return it.it.Attr }

// Len is the number of edges not yet returned.
func (it *NeighborIter) Len() int { return it.it.Len() }

// Err reports a corrupt row met while iterating.
func (it *NeighborIter) Err() error {
	if err := it.it.Err(); err != nil {
		return corruptWrap(err, "graph row")
	}
	if it.bad {
		return corruptf("graph row names a node beyond the last")
	}
	return nil
}

// BM25 opens the BM25 index on first use. The index reads the mapping in
// place and is valid until Close; searches need a bm25.Searcher each. An
// error about the index's bytes matches ErrCorrupt and bm25.ErrCorrupt; a
// Searcher reports what it meets through its Err, as bm25.ErrCorrupt.
func (s *Snapshot) BM25() (*bm25.Index, error) {
	return s.bm25.open(s, "BM25 index", secBM25Terms, secBM25Postings, secBM25Stats)
}

// Body opens the body index on first use: the words callables' bodies use
// (fields BodyFieldCode and BodyFieldText), read in place like BM25's.
func (s *Snapshot) Body() (*bm25.Index, error) {
	return s.body.open(s, "body index", secBodyTerms, secBodyPostings, secBodyStats)
}

// lazyIndex is a BM25 index of the snapshot, opened once, on first use.
type lazyIndex struct {
	once sync.Once
	ix   *bm25.Index
	err  error
}

func (l *lazyIndex) open(s *Snapshot, what string, terms, postings, stats sectionID) (*bm25.Index, error) {
	l.once.Do(func() {
		if s.flags&flagNoBM25 != 0 {
			l.err = ErrNoBM25
			return
		}
		l.ix, l.err = openBM25(what, s.sec(terms), s.sec(postings), s.sec(stats))
	})
	return l.ix, l.err
}

// close makes every later open fail with ErrClosed.
func (l *lazyIndex) close() {
	l.once.Do(func() {})
	l.ix, l.err = nil, ErrClosed
}

func openBM25(what string, terms, postings, stats []byte) (ix *bm25.Index, err error) {
	defer func() {
		if r := recover(); r != nil {
			ix, err = nil, corruptWrap(fmt.Errorf("%w: %v", bm25.ErrCorrupt, r), what)
		}
	}()
	ix, err = bm25.Open(terms, postings, stats)
	if err != nil {
		return nil, corruptWrap(err, what)
	}
	return ix, nil
}

// recordedRepo finds the repository root in the metadata of a snapshot of
// another format version, for the message that asks to rebuild it: every
// version so far keeps its metadata as JSON with a "repo_root" string.
// Best effort; "" when it is not found.
func recordedRepo(data []byte) string {
	key := []byte(`"repo_root":`)
	i := bytes.LastIndex(data, key)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(data[i+len(key):], " ")
	end := bytes.IndexByte(rest, '}')
	if end < 0 || end > 1<<16 {
		end = min(len(rest), 1<<16)
	}
	var repo string
	dec := json.NewDecoder(bytes.NewReader(rest[:end]))
	if err := dec.Decode(&repo); err != nil {
		return ""
	}
	return repo
}
