package snapshot

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/csr"
	"github.com/knowing-dev/knowing/internal/fst"
)

// WriteOptions tune Write. The zero value (or a nil pointer) gives the
// defaults.
type WriteOptions struct {
	// BM25 holds the BM25 parameters; a zero K1 means bm25.DefaultParams().
	BM25 bm25.Params
	// NoBM25 writes empty BM25 sections; the snapshot's BM25 method then
	// returns ErrNoBM25.
	NoBM25 bool
	// ColdBlock is how many nodes' signatures and docs are compressed
	// together: 32 when zero, at most 256. A block also closes early once
	// it holds 256 KiB of text. Signatures and docs are separate frames, so
	// the signatures a query prints decode without the docs. Smaller
	// blocks decode faster and compress worse: 32 against 64 made a Go
	// standard library query with doc summaries 5% faster (p50) for a
	// 1.8% larger file.
	ColdBlock int
	// Text is the BM25 index of g's first nodes, started by
	// StartTextIndex on the same graph with the same BM25 parameters;
	// Write indexes the nodes added since and finishes it, so a text
	// index serves one Write. Ignored with NoBM25.
	Text *TextIndex
	// Reuse, when not nil, is an earlier snapshot whose sections are
	// copied where the fields they are built from are unchanged (see
	// reuse.go); the file is the same as without it. Write closes it.
	Reuse *Reuse
	// Memo, when not nil, receives what this write's sections were built
	// from, for a later write's Reuse.
	Memo *Memo
}

// TextIndex is a BM25 index of a graph's first nodes, tokenized in the
// background while the graph is completed (see StartTextIndex).
type TextIndex struct {
	g    *Graph
	n    int // g.Nodes[:n] are indexed
	p    bm25.Params
	b    *bm25.Builder
	done chan struct{} // closed once b.Index returned
}

// StartTextIndex starts tokenizing the BM25 documents of g's nodes, on all
// cores, and returns at once. It is for a caller that completes g in steps:
// once g.Files and every node now in g.Nodes have their final name,
// qualified name, kind, file, signature, doc and generated, vendored and
// minified flags, their text can be indexed while the caller works out the
// edges and appends further nodes. Pass the result to Write in
// WriteOptions.Text, with the same BM25 parameters (nil: the defaults).
//
// It copies what it needs before returning: the caller may change g
// straight away, except for those fields of the nodes already there.
func StartTextIndex(g *Graph, p *bm25.Params) *TextIndex {
	t := &TextIndex{g: g, n: len(g.Nodes), p: bm25.DefaultParams(), done: make(chan struct{})}
	if p != nil && p.K1 != 0 {
		t.p = *p
	}
	t.b = bm25.NewBuilder(t.p)
	addBM25Docs(t.b, g, 0, t.n)
	go func() {
		defer close(t.done)
		t.b.Index()
	}()
	return t
}

// bm25DocBytes is how much of a doc comment the BM25 index sees.
const bm25DocBytes = 400

// Write compiles g into a snapshot file at path. The file is written under
// a temporary name in the same folder, synced and renamed over path, so a
// reader of path sees either the old snapshot or the complete new one; on
// error the temporary file is removed and path is left as it was.
//
// On Windows a file that is mapped cannot be replaced: close the
// snapshots open on path first, or write to a new name.
//
// Write checks g first: every edge must name nodes in range, with a known
// type and a confidence that is not NaN; every node's file index must be
// −1 or in range.
func Write(path string, g *Graph, opt *WriteOptions) error {
	img, err := encode(g, opt)
	if opt != nil {
		if reuseMapped {
			defer opt.Reuse.Close() // the image refers to its mapping
		} else {
			opt.Reuse.Close() // before the rename: a mapped file cannot be replaced
		}
	}
	if err != nil {
		return fmt.Errorf("snapshot: write %s: %w", path, err)
	}
	return writeAtomic(path, img)
}

// image is a snapshot assembled in memory, ready to be laid out.
type image struct {
	sec                 [numSectionIDs][]byte
	nodes, files, edges uint64
	flags               uint32
	// crc[id] is sec[id]'s checksum where crcKnown[id]: a section copied
	// from an earlier snapshot (checked as it was copied) or one a Memo
	// recorded, so that layout does not compute it again.
	crc      [numSectionIDs]uint32
	crcKnown [numSectionIDs]bool
	// extra sections, as a later writer would add them (tests only)
	extra []extraImage
}

type extraImage struct {
	id   uint32
	data []byte
}

// writeOrder is the order of sections in the file: hot before cold.
var writeOrder = []sectionID{
	secStrings, secFiles, secNodes, secGraphOut, secGraphIn,
	secNamesFST, secNamesIDs, secPartsFST, secPartsIDs,
	secBM25Terms, secBM25Postings, secBM25Stats,
	secBodyTerms, secBodyPostings, secBodyStats, secHistory,
	secColdIndex, secColdData, secStamps, secMeta,
}

func align(n uint64) uint64 { return (n + sectionAlign - 1) &^ (sectionAlign - 1) }

// layout computes the header and section table.
func (img *image) layout() (head []byte, offs [numSectionIDs]uint64, total uint64) {
	nsec := int(numSectionIDs) - 1 + len(img.extra) // one table entry per section
	head = make([]byte, headerSize+nsec*tableEntry)
	pos := align(uint64(len(head)))
	for _, id := range writeOrder {
		offs[id] = pos
		pos = align(pos + uint64(len(img.sec[id])))
	}
	extraOff := make([]uint64, len(img.extra))
	for i, x := range img.extra {
		extraOff[i] = pos
		pos = align(pos + uint64(len(x.data)))
	}
	total = pos
	copy(head[hMagic:], magic)
	le := binary.LittleEndian
	le.PutUint32(head[hVersion:], FormatVersion)
	le.PutUint64(head[hFileLen:], total)
	le.PutUint32(head[hNodes:], uint32(img.nodes))
	le.PutUint32(head[hFiles:], uint32(img.files))
	le.PutUint64(head[hEdges:], img.edges)
	le.PutUint32(head[hSections:], uint32(nsec))
	le.PutUint32(head[hFlags:], img.flags)
	for i := 1; i < int(numSectionIDs); i++ { // the table is in id order
		e := head[headerSize+(i-1)*tableEntry:]
		b := img.sec[i]
		crc := img.crc[i]
		if !img.crcKnown[i] {
			crc = checksum(b)
		}
		le.PutUint32(e[0:], uint32(i))
		le.PutUint32(e[4:], crc)
		le.PutUint64(e[8:], offs[i])
		le.PutUint64(e[16:], uint64(len(b)))
	}
	for i, x := range img.extra {
		e := head[headerSize+(int(numSectionIDs)-1+i)*tableEntry:]
		le.PutUint32(e[0:], x.id)
		le.PutUint32(e[4:], checksum(x.data))
		le.PutUint64(e[8:], extraOff[i])
		le.PutUint64(e[16:], uint64(len(x.data)))
	}
	le.PutUint32(head[hCRC:], checksum(head))
	return head, offs, total
}

// writeTo writes the laid-out file.
func (img *image) writeTo(w io.Writer) error {
	head, offs, total := img.layout()
	var zero [sectionAlign]byte
	pos := uint64(len(head))
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, id := range writeOrder {
		if _, err := w.Write(zero[:offs[id]-pos]); err != nil {
			return err
		}
		if _, err := w.Write(img.sec[id]); err != nil {
			return err
		}
		pos = offs[id] + uint64(len(img.sec[id]))
	}
	for _, x := range img.extra {
		next := align(pos)
		if _, err := w.Write(zero[:next-pos]); err != nil {
			return err
		}
		if _, err := w.Write(x.data); err != nil {
			return err
		}
		pos = next + uint64(len(x.data))
	}
	_, err := w.Write(zero[:total-pos])
	return err
}

// bytes returns the whole file in memory (tests and fuzz seeds).
func (img *image) bytes() []byte {
	var buf bytes.Buffer
	_ = img.writeTo(&buf)
	return buf.Bytes()
}

func writeAtomic(dst string, img *image) (err error) {
	dir := filepath.Dir(dst)
	if st, serr := os.Stat(dir); serr != nil {
		return fmt.Errorf("snapshot: cannot write %s: folder: %w", dst, serr)
	} else if !st.IsDir() {
		return fmt.Errorf("snapshot: cannot write %s: %s is not a folder", dst, dir)
	}
	removeAbandoned(dir)
	f, err := os.CreateTemp(dir, "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("snapshot: cannot write %s: cannot create a file in %s: %w", dst, dir, err)
	}
	lockTemp(f)
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// The sections are in memory already: write them as they are, without
	// copying them through a buffer.
	if err = img.writeTo(f); err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		return fmt.Errorf("snapshot: write %s: %w", dst, err)
	}
	// Make the rename durable; not every platform can sync a folder.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// removeAbandoned removes the temporary files that writers killed before
// their rename left in dir (8–29 MB each for the Go standard library): a
// file named as writeAtomic names them, empty or starting as a snapshot
// does, whose writer holds no lock on it any more.
func removeAbandoned(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		i := strings.LastIndex(name, ".tmp-")
		if !strings.HasPrefix(name, ".") || i < 0 || !e.Type().IsRegular() || !allDigits(name[i+len(".tmp-"):]) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := e.Info(); err != nil || st.Size() > 0 {
			if ok, _ := IsSnapshot(p); !ok {
				continue
			}
		}
		if abandoned(p) {
			os.Remove(p)
		}
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// encode builds every section of g in memory.
func encode(g *Graph, opt *WriteOptions) (*image, error) {
	if g == nil {
		return nil, errors.New("nil graph")
	}
	var o WriteOptions
	if opt != nil {
		o = *opt
	}
	if o.BM25.K1 == 0 {
		o.BM25 = bm25.DefaultParams()
	}
	if o.ColdBlock == 0 {
		o.ColdBlock = 32
	}
	if o.ColdBlock < 1 || o.ColdBlock > 1<<coldSlotBits {
		return nil, fmt.Errorf("cold block size %d outside [1,256]", o.ColdBlock)
	}
	if err := validate(g); err != nil {
		return nil, err
	}
	img := &image{nodes: uint64(len(g.Nodes)), files: uint64(len(g.Files)), edges: uint64(len(g.Edges))}
	// With a memo to fill or sections to reuse, every group's fields are
	// fingerprinted first.
	var keys [numGroups]uint64
	var reused [numGroups][][]byte
	var reusedMemo [numGroups]*memoGroup
	if o.Memo != nil || o.Reuse != nil {
		keys = fingerprintGroups(g, &o)
		for grp := range numGroups {
			if !o.builds(grp) {
				continue
			}
			reused[grp], reusedMemo[grp] = o.Reuse.take(grp, keys[grp])
		}
	}
	put := func(grp reuseGroup) {
		for i, id := range groupSections[grp] {
			img.sec[id] = reused[grp][i]
			img.crc[id], img.crcKnown[id] = reusedMemo[grp].crcs[i], true
		}
	}

	// The BM25 index is the costliest part and reads g only: build it
	// alongside the rest. Every return waits for it (done is closed once).
	// Its tokenizing, the start of the write's longest chain, gets all
	// cores; the rest waits until it is done and then runs beside the
	// index's encoding, as three independent pieces so that none of them
	// becomes the longest chain. A text index started early (o.Text) has
	// had its head start: the rest begins at once.
	var bm25Enc *bm25.Encoded
	var bm25Err error
	bm25Done, bm25Indexed := make(chan struct{}), make(chan struct{})
	if o.NoBM25 || reused[groupBM25] != nil {
		if o.Text != nil && !o.NoBM25 {
			<-o.Text.done // its tokens are not needed: let it finish
		}
		close(bm25Done)
		close(bm25Indexed)
	} else {
		if t := o.Text; t != nil {
			switch {
			case t.g != g:
				return nil, errors.New("the text index was started on another graph")
			case t.n > len(g.Nodes):
				return nil, fmt.Errorf("the text index has %d nodes, the graph %d", t.n, len(g.Nodes))
			case t.p != o.BM25:
				return nil, errors.New("the text index was started with other BM25 parameters")
			}
		}
		go func() {
			defer close(bm25Done)
			bm25Enc, bm25Err = buildBM25(g, o.BM25, o.Text, bm25Indexed)
		}()
	}
	defer func() { <-bm25Done }()
	// The body index is independent of the rest: it runs beside it, once
	// the name index has tokenized (both tokenizing at once raised the Go
	// standard library's peak memory by 85 MB and saved no time).
	var bodyEnc *bm25.Encoded
	var bodyErr error
	bodyDone := make(chan struct{})
	if o.NoBM25 || reused[groupBody] != nil {
		close(bodyDone)
	} else {
		go func() {
			defer close(bodyDone)
			<-bm25Indexed
			bodyEnc, bodyErr = buildBody(g)
		}()
	}
	defer func() { <-bodyDone }()
	if o.Text == nil {
		<-bm25Indexed
	}

	var graphErr, keysErr error
	var nameKeys, partKeys int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if reused[groupGraph] != nil {
			put(groupGraph)
			return
		}
		graphErr = encodeGraph(img, g)
	}()
	go func() {
		defer wg.Done()
		if reused[groupKeys] != nil {
			put(groupKeys)
			nameKeys, partKeys = reusedMemo[groupKeys].nameKeys, reusedMemo[groupKeys].partKeys
			return
		}
		nameKeys, partKeys, keysErr = encodeKeys(img, g, !o.NoBM25)
	}()
	img.sec[secHistory] = encodeHistory(g)
	if reused[groupCold] != nil {
		put(groupCold)
	}
	err := encodeRecords(img, g, o.ColdBlock, reused[groupCold] == nil)
	if err == nil {
		img.sec[secStamps], err = encodeStamps(g)
	}
	wg.Wait()
	for _, e := range []error{err, graphErr, keysErr} {
		if e != nil {
			return nil, e
		}
	}

	// BM25
	<-bm25Done
	if o.NoBM25 {
		img.flags |= flagNoBM25
	} else {
		if bm25Err != nil {
			return nil, fmt.Errorf("BM25 index: %w", bm25Err)
		}
		if reused[groupBM25] != nil {
			put(groupBM25)
		} else {
			img.sec[secBM25Terms], img.sec[secBM25Postings], img.sec[secBM25Stats] = bm25Enc.Terms, bm25Enc.Postings, bm25Enc.Stats
		}
		<-bodyDone
		if bodyErr != nil {
			return nil, fmt.Errorf("body index: %w", bodyErr)
		}
		if reused[groupBody] != nil {
			put(groupBody)
		} else {
			img.sec[secBodyTerms], img.sec[secBodyPostings], img.sec[secBodyStats] = bodyEnc.Terms, bodyEnc.Postings, bodyEnc.Stats
		}
	}
	if o.Memo != nil {
		*o.Memo = Memo{}
		for grp := range numGroups {
			if !o.builds(grp) {
				continue
			}
			mg := &o.Memo.groups[grp]
			mg.ok, mg.key = true, keys[grp]
			for _, id := range groupSections[grp] {
				if !img.crcKnown[id] {
					img.crc[id], img.crcKnown[id] = checksum(img.sec[id]), true
				}
				mg.crcs = append(mg.crcs, img.crc[id])
			}
			if grp == groupKeys {
				mg.nameKeys, mg.partKeys = nameKeys, partKeys
			}
		}
	}

	// meta, last: it records the other sections' sizes
	info := Info{
		Meta:          g.Meta,
		FormatVersion: FormatVersion,
		NameKeys:      nameKeys,
		PartKeys:      partKeys,
		ColdBlocks:    (len(img.sec[secColdIndex]) - coldRankSize*((len(g.Nodes)+63)/64)) / coldIdxSize,
		Sections:      make(map[string]int64),
	}
	info.Meta.Files, info.Meta.Nodes, info.Meta.Edges = len(g.Files), len(g.Nodes), len(g.Edges)
	if !o.NoBM25 {
		p := o.BM25
		info.BM25 = &p
	}
	for id := secMeta + 1; id < numSectionIDs; id++ {
		info.Sections[id.String()] = int64(len(img.sec[id]))
	}
	if img.sec[secMeta], err = json.Marshal(&info); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	return img, nil
}

// encodeHistory writes each node's Changed and Churn, two u16 per node,
// or nothing when no node has any (no history was read).
func encodeHistory(g *Graph) []byte {
	any := false
	for i := range g.Nodes {
		if g.Nodes[i].Changed != 0 {
			any = true
			break
		}
	}
	if !any {
		return nil
	}
	b := make([]byte, 4*len(g.Nodes))
	for i := range g.Nodes {
		le.PutUint16(b[4*i:], g.Nodes[i].Changed)
		le.PutUint16(b[4*i+2:], g.Nodes[i].Churn)
	}
	return b
}

// encodeRecords writes the string table, the file and node records and the
// cold data (the node records point into both).
func encodeRecords(img *image, g *Graph, coldBlock int, cold bool) error {
	var st strtab
	st.m = make(map[string]uint32, len(g.Nodes)+len(g.Files))
	// Room for every string once, and the texts the cold data holds: the
	// capacity past what they fill is never touched, while growing by
	// doubling would touch (and discard) as much again.
	room, textBytes := 0, 0
	for i := range g.Files {
		room += len(g.Files[i].Path)
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		room += min(len(n.QName), maxQNameLen) + min(len(n.Name), maxNameLen)
		textBytes += len(n.Signature) + len(n.Doc)
	}
	st.buf = make([]byte, 0, room)

	// files
	fb := make([]byte, fileRecSize*len(g.Files))
	for i, f := range g.Files {
		r := fb[i*fileRecSize:]
		off, n, err := st.add(f.Path)
		if err != nil {
			return fmt.Errorf("file %d: %w", i, err)
		}
		le.PutUint32(r[fPath:], off)
		le.PutUint32(r[fPathLen:], n)
		le.PutUint64(r[fSize:], f.Size)
		r[fLang] = byte(f.Lang)
		le.PutUint16(r[fFlags:], uint16(f.Flags))
	}
	img.sec[secFiles] = fb

	// cold data, then node records
	var cw *coldWriter
	var err error
	if cold { // else the caller has the cold sections
		if cw, err = newColdWriter(coldBlock, textBytes); err != nil {
			return err
		}
	}
	nb := make([]byte, nodeRecSize*len(g.Nodes))
	for i := range g.Nodes {
		n := &g.Nodes[i]
		r := nb[i*nodeRecSize:]
		// Names and qualified names longer than a record holds are cut
		// (at a rune boundary); identifiers are never that long.
		qname, name := clip(n.QName, maxQNameLen), clip(n.Name, maxNameLen)
		nl := uint16(len(name))
		var qoff, qlen uint32
		if strings.HasSuffix(qname, name) {
			qoff, qlen, err = st.add(qname)
		} else {
			// The name follows the qualified name in one string.
			nl |= nameFollows
			qoff, _, err = st.add(qname + name)
			qlen = uint32(len(qname))
		}
		if err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
		if cold {
			if err := cw.add(n.Signature, n.Doc); err != nil {
				return fmt.Errorf("node %d: %w", i, err)
			}
		}
		le.PutUint32(r[nQName:], qoff)
		le.PutUint16(r[nQLen:], uint16(qlen))
		le.PutUint16(r[nNameLen:], nl)
		le.PutUint32(r[nStart:], min(n.StartLine, maxLine)|uint32(n.Kind)<<24)
		le.PutUint32(r[nEnd:], min(n.EndLine, maxLine)|uint32(n.Lang)<<24)
		le.PutUint32(r[nFile:], uint32(n.File))
		le.PutUint16(r[nFlags:], uint16(n.Flags))
		le.PutUint16(r[nSigLen:], uint16(min(len(n.Signature), sigLenMore)))
	}
	if cold {
		if img.sec[secColdIndex], img.sec[secColdData], err = cw.finish(); err != nil {
			return err
		}
	}
	img.sec[secNodes] = nb
	img.sec[secStrings] = st.buf
	return nil
}

// encodeGraph writes the forward and reverse adjacency.
func encodeGraph(img *image, g *Graph) error {
	ce := make([]csr.Edge, len(g.Edges))
	for i, e := range g.Edges {
		ce[i] = csr.Edge{From: e.From, To: e.To, Attr: PackAttr(e.Type, e.Confidence)}
	}
	var err error
	img.sec[secGraphOut], img.sec[secGraphIn], err = csr.Build(len(g.Nodes), ce)
	return err
}

// encodeKeys writes the name and part lookups, through one FST builder,
// and returns their key counts.
func encodeKeys(img *image, g *Graph, withBM25 bool) (nameKeys, partKeys int, err error) {
	names, parts := keyLists(g, withBM25)
	nameKeys = len(names)
	kb := fst.NewBuilder(0)
	if img.sec[secNamesFST], img.sec[secNamesIDs], err = buildKeyIndex(kb, names); err != nil {
		return 0, 0, fmt.Errorf("names index: %w", err)
	}
	img.sec[secNamesFST] = bytes.Clone(img.sec[secNamesFST]) // kb is reused
	partKeys = len(parts)
	if img.sec[secPartsFST], img.sec[secPartsIDs], err = buildKeyIndex(kb, parts); err != nil {
		return 0, 0, fmt.Errorf("parts index: %w", err)
	}
	return nameKeys, partKeys, nil
}

var le = binary.LittleEndian

func validate(g *Graph) error {
	if uint64(len(g.Nodes)) >= math.MaxUint32 {
		return fmt.Errorf("%d nodes: at most %d fit", len(g.Nodes), uint32(math.MaxUint32-1))
	}
	if uint64(len(g.Files)) >= math.MaxInt32 {
		return fmt.Errorf("%d files: at most %d fit", len(g.Files), math.MaxInt32-1)
	}
	nf := int32(len(g.Files))
	for i := range g.Nodes {
		if f := g.Nodes[i].File; f < -1 || f >= nf {
			return fmt.Errorf("node %d (%q) names file %d, outside [-1,%d)", i, g.Nodes[i].QName, f, nf)
		}
	}
	nn := uint32(len(g.Nodes))
	for i, e := range g.Edges {
		if e.From >= nn || e.To >= nn {
			return fmt.Errorf("edge %d (%d→%d) names a node outside [0,%d)", i, e.From, e.To, nn)
		}
		if e.Type >= numEdgeTypes {
			return fmt.Errorf("edge %d (%d→%d) has unknown type %d", i, e.From, e.To, e.Type)
		}
		if e.Confidence != e.Confidence {
			return fmt.Errorf("edge %d (%d→%d) has confidence NaN", i, e.From, e.To)
		}
	}
	return nil
}

// strtab interns strings into one blob.
type strtab struct {
	buf []byte
	m   map[string]uint32
}

func (t *strtab) add(s string) (off, n uint32, err error) {
	if s == "" {
		return 0, 0, nil
	}
	if off, ok := t.m[s]; ok {
		return off, uint32(len(s)), nil
	}
	if uint64(len(t.buf))+uint64(len(s)) > math.MaxUint32 {
		return 0, 0, errors.New("more than 4 GiB of names and paths")
	}
	off = uint32(len(t.buf))
	t.buf = append(t.buf, s...)
	t.m[s] = off
	return off, uint32(len(s)), nil
}

// keyLists maps each lower-cased name, and each lower-cased part of a
// name, to the ascending ids of the nodes that carry it. With BM25 the
// parts index is only the remainder that the BM25 name field and the
// names index do not serve: the parts other than the whole name of the
// nodes without a BM25 document.
func keyLists(g *Graph, withBM25 bool) (names, parts map[string][]uint32) {
	names = make(map[string][]uint32, len(g.Nodes))
	parts = make(map[string][]uint32)
	var toks, mine []string
	for i := range g.Nodes {
		id := uint32(i)
		name := clip(g.Nodes[i].Name, maxNameLen) // as the record holds it
		lower := strings.ToLower(name)
		if lower == "" {
			continue
		}
		names[lower] = append(names[lower], id)
		if withBM25 && searchable(&g.Nodes[i]) {
			continue
		}
		mine = nodeParts(mine[:0], &toks, name, lower)
		if withBM25 {
			mine = mine[1:] // the whole name: the names index has it
		}
		for _, p := range mine {
			parts[p] = append(parts[p], id)
		}
	}
	return names, parts
}

// nodeParts appends the distinct lower-cased parts of a name: its tokens as
// bm25.AppendTokens splits them, and the whole lower-cased name.
func nodeParts(dst []string, toks *[]string, name, lower string) []string {
	*toks = bm25.AppendTokens((*toks)[:0], name)
	dst = append(dst, lower)
	for _, t := range *toks {
		t = strings.ToLower(t)
		if t == "" {
			continue
		}
		dup := false
		for _, p := range dst {
			if p == t {
				dup = true
				break
			}
		}
		if !dup {
			dst = append(dst, t)
		}
	}
	return dst
}

// buildKeyIndex encodes keys as a vellum FST and their id lists. A key with
// one node carries it inline (value id<<1); otherwise the value is
// offset<<1|1, where the list at byte offset of ids is a uvarint count,
// then the first id and each later id's difference from the one before,
// as uvarints.
func buildKeyIndex(b *fst.Builder, m map[string][]uint32) (fstBytes, ids []byte, err error) {
	keys := make([]string, 0, len(m))
	keyBytes := 0
	for k := range m {
		keys = append(keys, k)
		keyBytes += len(k)
	}
	sort.Strings(keys)
	b.Reset(keyBytes + 4*len(keys) + 64) // room an FST of these keys does not outgrow
	var lists []byte
	for _, k := range keys {
		l := m[k]
		var v uint64
		if len(l) == 1 {
			v = uint64(l[0]) << 1
		} else {
			v = uint64(len(lists))<<1 | 1
			lists = binary.AppendUvarint(lists, uint64(len(l)))
			prev := uint32(0)
			for _, id := range l {
				lists = binary.AppendUvarint(lists, uint64(id-prev))
				prev = id
			}
		}
		if err := b.Insert(k, v); err != nil {
			return nil, nil, err
		}
	}
	if err := b.Close(); err != nil {
		return nil, nil, err
	}
	if lists == nil {
		lists = []byte{}
	}
	return b.Bytes(), lists, nil
}

func buildBM25(g *Graph, p bm25.Params, text *TextIndex, indexed chan<- struct{}) (*bm25.Encoded, error) {
	var b *bm25.Builder
	from := 0
	if text != nil {
		<-text.done
		b, from = text.b, text.n
	} else {
		b = bm25.NewBuilder(p)
	}
	addBM25Docs(b, g, from, len(g.Nodes))
	b.Index()
	if indexed != nil {
		close(indexed)
	}
	return b.Finish()
}

// addBM25Docs adds the documents of the searchable nodes g.Nodes[from:to].
func addBM25Docs(b *bm25.Builder, g *Graph, from, to int) {
	b.Grow(to - from) // most nodes are searchable
	var d bm25.Doc
	lastFile, lastConcepts := int32(-1), ""
	for i := from; i < to; i++ {
		n := &g.Nodes[i]
		if !searchable(n) {
			continue
		}
		// A file's symbols are mostly consecutive: their shared concepts
		// string is built once per run.
		if n.File >= 0 && n.File != lastFile && int(n.File) < len(g.Files) {
			lastFile, lastConcepts = n.File, concepts(g.Files[n.File].Path)
		}
		bm25Doc(&d, g, n, lastConcepts)
		b.Add(uint32(i), &d)
	}
}

// The body index's fields: a callable's code identifiers and the words of
// its string literals and comments (Node.Body, Node.Text), and any
// symbol's history (Node.History).
const (
	BodyFieldCode    = bm25.Field(0)
	BodyFieldText    = bm25.Field(1)
	BodyFieldHistory = bm25.Field(2) // Node.History: the subjects of the commits that changed it
)

// BodyParams are the body index's BM25 parameters: the fields weigh 1;
// queries choose their own balance with field masks and boosts.
func BodyParams() bm25.Params {
	return bm25.Params{K1: 1.2, B: 0.75, Weights: [bm25.NumFields]float32{1, 1, 1}}
}

// buildBody indexes the body words of the searchable nodes that have any.
func buildBody(g *Graph) (*bm25.Encoded, error) {
	b := bm25.NewBuilder(BodyParams())
	var d bm25.Doc
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if (n.Body == "" && n.Text == "" && n.History == "") || !searchable(n) {
			continue
		}
		d = bm25.Doc{}
		d.Fields[BodyFieldCode] = n.Body
		d.Fields[BodyFieldText] = n.Text
		d.Fields[BodyFieldHistory] = n.History
		b.Add(uint32(i), &d)
	}
	b.Index()
	return b.Finish()
}

// searchable reports nodes that get a BM25 document. Files, packages and
// generated, vendored or minified code are never query results, so their
// text is not indexed (they stay in the graph and the name indexes).
func searchable(n *Node) bool {
	if n.Kind == KindFile || n.Kind == KindPackage {
		return false
	}
	return n.Flags&(FlagGenerated|FlagVendored|FlagMinified) == 0
}

// bm25Doc fills d with the BM25 document of a node (see FORMAT.md,
// "BM25"); fileConcepts is concepts of the node's file path.
func bm25Doc(d *bm25.Doc, g *Graph, n *Node, fileConcepts string) {
	*d = bm25.Doc{}
	d.Fields[bm25.FieldName] = n.Name
	d.Fields[bm25.FieldQName] = n.QName
	if n.Flags&FlagExternal != 0 {
		return
	}
	d.Fields[bm25.FieldSignature] = n.Signature
	d.Fields[bm25.FieldDoc] = clip(n.Doc, bm25DocBytes)
	if n.File >= 0 && int(n.File) < len(g.Files) {
		d.Fields[bm25.FieldPath] = g.Files[n.File].Path
		d.Fields[bm25.FieldConcepts] = fileConcepts
	}
}

// concepts is a file's base name without extension and its parent folder:
// "src/cli/commandLineParser.ts" → "commandLineParser cli".
func concepts(p string) string {
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	dir := path.Dir(p)
	if dir == "." || dir == "/" {
		return base
	}
	return base + " " + path.Base(dir)
}

// clip cuts s to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// coldWriter packs signatures and docs into zstd-compressed blocks, and
// records which nodes have an entry (the rank groups after the block
// table in cold.index).
type coldWriter struct {
	enc       *zstd.Encoder
	per       int
	idx, data []byte
	buf       []byte // a block's uncompressed frame, reused
	sig, doc  []string
	raw       int
	entries   uint32 // entries in the blocks flushed so far
	ranks     []byte
	bits      uint64 // the current group of 64 nodes
	base      uint32 // entries before the current group
	nodes     int
	total     uint32 // entries so far
}

// newColdWriter starts cold data for texts of about textBytes bytes in
// all: compressed, they fit in that much room, which is reserved once.
func newColdWriter(per, textBytes int) (*coldWriter, error) {
	// The fastest level: on small repositories the default level's
	// compression was the largest single cost of the write (15 ms of
	// spark-java's 30), for 4% less cold data, under 1% of a snapshot.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
		zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		return nil, err
	}
	return &coldWriter{enc: enc, per: per, data: make([]byte, 0, textBytes+textBytes/64+1024)}, nil
}

// add stores the next node's texts, if it has any.
func (w *coldWriter) add(sig, doc string) error {
	if w.nodes%64 == 0 && w.nodes > 0 {
		w.group()
	}
	w.nodes++
	if sig == "" && doc == "" {
		return nil
	}
	if len(sig)+len(doc) > maxColdNode {
		return fmt.Errorf("signature and doc of %d bytes exceed %d", len(sig)+len(doc), maxColdNode)
	}
	if w.total == math.MaxUint32 {
		return errors.New("too many cold entries")
	}
	if len(w.sig) == w.per || w.raw >= coldBlockSoft {
		w.flush()
	}
	w.bits |= 1 << ((w.nodes - 1) % 64)
	w.total++
	w.sig = append(w.sig, sig)
	w.doc = append(w.doc, doc)
	w.raw += len(sig) + len(doc)
	return nil
}

// group closes a rank group of 64 nodes.
func (w *coldWriter) group() {
	w.ranks = le.AppendUint64(w.ranks, w.bits)
	w.ranks = le.AppendUint32(w.ranks, w.base)
	w.base = w.total
	w.bits = 0
}

// flush compresses the pending block as two frames, each u32 count, count
// × u32 length, then the texts: the signatures, then the docs.
func (w *coldWriter) flush() {
	if len(w.sig) == 0 {
		return
	}
	off := len(w.data)
	w.idx = le.AppendUint64(w.idx, uint64(off))
	for _, texts := range [2][]string{w.sig, w.doc} {
		raw := le.AppendUint32(w.buf[:0], uint32(len(texts)))
		for _, t := range texts {
			raw = le.AppendUint32(raw, uint32(len(t)))
		}
		for _, t := range texts {
			raw = append(raw, t...)
		}
		start := len(w.data)
		w.data = w.enc.EncodeAll(raw, w.data)
		w.buf = raw
		w.idx = le.AppendUint32(w.idx, uint32(len(w.data)-start))
		w.idx = le.AppendUint32(w.idx, uint32(len(raw)))
	}
	w.idx = le.AppendUint32(w.idx, w.entries)
	w.entries += uint32(len(w.sig))
	w.sig, w.doc, w.raw = w.sig[:0], w.doc[:0], 0
}

// finish returns cold.index (the block table, then the rank groups) and
// cold.data.
func (w *coldWriter) finish() (idx, data []byte, err error) {
	w.flush()
	if w.nodes > 0 {
		w.group()
	}
	err = w.enc.Close()
	return append(w.idx, w.ranks...), w.data, err
}
