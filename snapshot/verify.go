package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blevesearch/vellum"

	"github.com/knowing-dev/knowing/internal/fst"
)

// Verify checks every byte of the snapshot: the CRC-32C of each section
// (a mismatch is a *ChecksumError naming the section), then the structure
// of each: records point inside their sections, every graph row decodes,
// the FSTs walk to the right number of keys with values that name real
// nodes, every name key matches its nodes, every cold block decodes, the
// metadata parses and the BM25 index opens. Its cost is linear in the
// file's size; Open does none of it.
func (s *Snapshot) Verify() error {
	if s.data == nil {
		return ErrClosed
	}
	if err := s.VerifyChecksums(); err != nil { // the CRCs and the padding
		return err
	}
	checks := []func() error{
		s.verifyRecords, s.verifyGraph, s.verifyNames, s.verifyParts,
		s.verifyCold, s.verifyMeta, s.verifyBM25, s.stamps.verify,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// verifyPadding checks that the bytes between sections are zero, so every
// byte of the file is covered by a checksum or known to be zero.
func (s *Snapshot) verifyPadding() error {
	used := make([][2]uint64, 0, numSectionIDs+1)
	used = append(used, [2]uint64{0, headerSize + uint64(le.Uint32(s.data[hSections:]))*tableEntry})
	for id := sectionID(1); id < numSectionIDs; id++ {
		e := s.secs[id]
		used = append(used, [2]uint64{e.off, e.off + e.n})
	}
	for _, x := range s.extra {
		used = append(used, [2]uint64{x.off, x.off + x.n})
	}
	// Insertion sort: a handful of entries.
	for i := 1; i < len(used); i++ {
		for j := i; j > 0 && used[j-1][0] > used[j][0]; j-- {
			used[j-1], used[j] = used[j], used[j-1]
		}
	}
	pos := uint64(0)
	for _, u := range append(used, [2]uint64{uint64(len(s.data)), uint64(len(s.data))}) {
		if u[0] > pos {
			for _, c := range s.data[pos:u[0]] {
				if c != 0 {
					return corruptf("non-zero byte between sections at %d..%d", pos, u[0])
				}
			}
		}
		if u[1] > pos {
			pos = u[1]
		}
	}
	return nil
}

func (s *Snapshot) verifyRecords() error {
	ns := uint64(len(s.strs))
	for i := 0; i < s.nFiles; i++ {
		r := s.frec(i)
		if uint64(le.Uint32(r[fPath:]))+uint64(le.Uint32(r[fPathLen:])) > ns {
			return corruptf("file %d: path outside the strings section", i)
		}
	}
	for id := uint32(0); id < uint32(s.nNodes); id++ {
		r := s.rec(id)
		qoff, qn := qnameRef(r)
		noff, nn, ok := nameRef(r)
		if !ok || noff+nn > ns || qoff+qn > ns {
			return corruptf("node %d: name outside the strings section", id)
		}
		if f := int32(le.Uint32(r[nFile:])); f < -1 || int(f) >= s.nFiles {
			return corruptf("node %d: file %d outside [-1,%d)", id, f, s.nFiles)
		}
	}
	return nil
}

func (s *Snapshot) verifyGraph() error {
	if err := s.graph.Validate(); err != nil {
		return corruptWrap(err, "graph")
	}
	n := 0
	for u := 0; u < s.nNodes; u++ {
		n += s.graph.Out.Degree(uint32(u))
	}
	if n != s.nEdges {
		return corruptf("graph holds %d edges, the header says %d", n, s.nEdges)
	}
	return nil
}

// walkKeys walks every key of an FST, checking order, count and values,
// and calls visit with each key and its nodes.
func (s *Snapshot) walkKeys(name string, f *fst.View, ids []byte, maxKeys uint64, visit func(key []byte, nodes []uint32) error) error {
	if err := loadWithVellum(f.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f.Count() > maxKeys {
		return corruptf("%s: %d keys, at most %d possible", name, f.Count(), maxKeys)
	}
	var w fst.Walk
	w.Reset(f, "")
	var prev []byte
	var nodes []uint32
	count := uint64(0)
	for w.Next() {
		count++
		if count > f.Count() {
			return corruptf("%s: more keys than the %d its footer counts", name, f.Count())
		}
		if count > 1 && bytes.Compare(prev, w.Key()) >= 0 {
			return corruptf("%s: keys out of order at %q", name, w.Key())
		}
		prev = append(prev[:0], w.Key()...)
		var err error
		if nodes, err = s.checkIDs(name, w.Value(), ids, nodes[:0]); err != nil {
			return err
		}
		if err := visit(w.Key(), nodes); err != nil {
			return err
		}
	}
	if w.Err() != nil {
		return fmt.Errorf("%s: %w", name, w.Err())
	}
	if count != f.Count() {
		return corruptf("%s: %d keys, its footer counts %d", name, count, f.Count())
	}
	return nil
}

// checkIDs decodes a value strictly: ids in range and ascending, lists
// inside their section and longer than one.
func (s *Snapshot) checkIDs(name string, v uint64, ids []byte, dst []uint32) ([]uint32, error) {
	if v&1 == 1 {
		var cnt uint64
		var ok bool
		dst, cnt, ok = appendIDList(dst, ids, v>>1, uint64(s.nNodes))
		if !ok || uint64(len(dst)) != cnt || len(dst) < 2 {
			return nil, corruptf("%s: bad id list at %d", name, v>>1)
		}
	} else {
		dst = s.appendIDs(dst, v, ids)
	}
	if len(dst) == 0 {
		return nil, corruptf("%s: value %d names no node", name, v)
	}
	for i := 1; i < len(dst); i++ {
		if dst[i-1] >= dst[i] {
			return nil, corruptf("%s: id list not ascending", name)
		}
	}
	return dst, nil
}

func (s *Snapshot) verifyNames() error {
	seen := make([]bool, s.nNodes)
	err := s.walkKeys("names.fst", &s.names, s.nameIDs, uint64(s.nNodes), func(key []byte, nodes []uint32) error {
		for _, id := range nodes {
			if seen[id] || strings.ToLower(s.Name(id)) != string(key) {
				return corruptf("names.fst: key %q names node %d (%q)", key, id, s.Name(id))
			}
			seen[id] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	for id, ok := range seen {
		if !ok && strings.ToLower(s.Name(uint32(id))) != "" {
			return corruptf("names.fst: node %d (%q) missing", id, s.Name(uint32(id)))
		}
	}
	return nil
}

func (s *Snapshot) verifyParts() error {
	// A generous bound on the key count, only to stop walks of corrupt
	// bytes early: parts come from names, lists from the ids section.
	max := 64*uint64(s.nNodes) + 4*uint64(len(s.strs)) + uint64(len(s.partIDs))
	return s.walkKeys("parts.fst", &s.parts, s.partIDs, max, func([]byte, []uint32) error { return nil })
}

// loadWithVellum makes sure vellum itself accepts the FST, guarding its
// decoder, which does not check bounds.
func loadWithVellum(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = corruptf("vellum: %v", r)
		}
	}()
	f, err := vellum.Load(b)
	if err != nil {
		return corruptf("vellum: %v", err)
	}
	return f.Close()
}

func (s *Snapshot) verifyCold() error {
	nBlocks := len(s.coldIdx) / coldIdxSize
	entries := make([]int, nBlocks)
	pos := uint64(0)
	for i := 0; i < nBlocks; i++ {
		e := s.coldIdx[i*coldIdxSize:]
		if off := le.Uint64(e); off != pos {
			return corruptf("cold block %d at %d, expected %d", i, off, pos)
		}
		pos += uint64(le.Uint32(e[8:])) + uint64(le.Uint32(e[16:]))
		sig, err := decodeColdBlock(s.coldIdx, s.coldData, uint32(i), partSig)
		if err != nil {
			return err
		}
		doc, err := decodeColdBlock(s.coldIdx, s.coldData, uint32(i), partDoc)
		if err != nil {
			return err
		}
		if sig.n() != doc.n() {
			return corruptf("cold block %d: %d signatures, %d docs", i, sig.n(), doc.n())
		}
		entries[i] = sig.n()
	}
	if pos != uint64(len(s.coldData)) {
		return corruptf("cold blocks cover %d of %d bytes", pos, len(s.coldData))
	}
	// Entries are numbered across the blocks in order: each block's first
	// entry follows the previous block's last.
	total := uint64(0)
	for i := 0; i < nBlocks; i++ {
		if first := le.Uint32(s.coldIdx[i*coldIdxSize+coldFirst:]); uint64(first) != total {
			return corruptf("cold block %d starts at entry %d, expected %d", i, first, total)
		}
		total += uint64(entries[i])
	}
	// The rank groups: each counts the entries before it, and each entry
	// belongs to exactly one node, in node order.
	k := uint64(0)
	var cur *coldBlock
	for g := 0; g < len(s.coldRanks)/coldRankSize; g++ {
		e := s.coldRanks[g*coldRankSize:]
		bits, base := le.Uint64(e), le.Uint32(e[8:])
		if uint64(base) != k {
			return corruptf("cold rank group %d counts %d entries before it, expected %d", g, base, k)
		}
		if n := s.nNodes - 64*g; n < 64 && bits>>n != 0 {
			return corruptf("cold rank group %d marks nodes beyond the last", g)
		}
		for j := 0; j < 64 && 64*g+j < s.nNodes; j++ {
			id := uint32(64*g + j)
			r := s.rec(id)
			if bits>>j&1 == 0 {
				if le.Uint16(r[nSigLen:]) != 0 {
					return corruptf("node %d: signature length without cold data", id)
				}
				continue
			}
			if k >= total {
				return corruptf("node %d: cold entry %d of %d", id, k, total)
			}
			blk, slot := s.coldBlockOf(uint32(k))
			k++
			if cur == nil || cur.key != uint64(blk)<<1 {
				var err error
				if cur, err = decodeColdBlock(s.coldIdx, s.coldData, blk, partSig); err != nil {
					return err
				}
			}
			if slot < 0 || slot >= cur.n() {
				return corruptf("node %d: cold entry beyond its block", id)
			}
			if got := len(cur.text(slot)); min(got, sigLenMore) != int(le.Uint16(r[nSigLen:])) {
				return corruptf("node %d: signature of %d bytes, record says %d", id, got, le.Uint16(r[nSigLen:]))
			}
		}
	}
	if k != total {
		return corruptf("cold blocks hold %d entries, nodes use %d", total, k)
	}
	return nil
}

func (s *Snapshot) verifyMeta() error {
	var in Info
	if err := json.Unmarshal(s.sec(secMeta), &in); err != nil {
		return corruptf("meta: %v", err)
	}
	if in.Meta.Nodes != s.nNodes || in.Meta.Files != s.nFiles || in.Meta.Edges != s.nEdges {
		return corruptf("meta counts (%d nodes, %d files, %d edges) differ from the header", in.Meta.Nodes, in.Meta.Files, in.Meta.Edges)
	}
	if in.FormatVersion != FormatVersion {
		return corruptf("meta says format version %d", in.FormatVersion)
	}
	return nil
}

func (s *Snapshot) verifyBM25() error {
	if s.flags&flagNoBM25 != 0 {
		return nil
	}
	for _, x := range []struct {
		name                   string
		terms, postings, stats sectionID
	}{
		{"BM25 index", secBM25Terms, secBM25Postings, secBM25Stats},
		{"body index", secBodyTerms, secBodyPostings, secBodyStats},
	} {
		ix, err := openBM25(x.name, s.sec(x.terms), s.sec(x.postings), s.sec(x.stats))
		if err != nil {
			return err
		}
		// Not every node has a document (see searchable), but every
		// document must name a node.
		if ix.NumDocs() > s.nNodes || ix.DocLimit() > s.nNodes {
			return corruptf("%s of %d documents (ids below %d) for %d nodes", x.name, ix.NumDocs(), ix.DocLimit(), s.nNodes)
		}
		if err := ix.Verify(); err != nil {
			return corruptWrap(err, x.name)
		}
	}
	return nil
}
