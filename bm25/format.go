package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// The constants below name the places and bounds of the three sections
// that snapshot/FORMAT.md, their normative description, specifies.

// formatVersion is the BM25 format version written, and the only one
// Open reads; FORMAT.md lists every version and what it changed.
const formatVersion = 2

// The low bits of a list's length field: bit 0 says how the list stores
// its document ids, bit 1 that its impacts are all quantMax and omitted.
const (
	docsPacked  = 0 // delta uvarints
	docsRoaring = 1 // portable roaring bitmap
	listUniform = 2
)

// allMax stands for the omitted impacts of a uniform list, which may be
// this long at most.
var allMax = func() *[256]byte {
	var a [256]byte
	for i := range a {
		a[i] = quantMax
	}
	return &a
}()

// Stats section layout (all little-endian); statsSize bytes.
const (
	statsMagic     = "BM25"
	offMagic       = 0   // [4]byte "BM25"
	offVersion     = 4   // uint32 formatVersion
	offNumDocs     = 8   // uint32 documents added
	offIDLimit     = 12  // uint32 largest document id + 1 (0 when empty)
	offNumTerms    = 16  // uint32 keys in the Terms FST
	offFlags       = 20  // uint32 0 (reserved)
	offTermsLen    = 24  // uint64 len(Terms)
	offPostingsLen = 32  // uint64 len(Postings)
	offK1          = 40  // float32
	offB           = 44  // float32
	offWeights     = 48  // [6]float32
	offAvgLen      = 72  // [6]float32 mean field length over docs with the field
	offFieldDocs   = 96  // [6]uint32 docs whose field is non-empty
	offTermsCRC    = 120 // uint32 CRC-32C of Terms
	offPostingsCRC = 124 // uint32 CRC-32C of Postings
	offStatsCRC    = 128 // uint32 CRC-32C of Stats[0:128]
	statsSize      = 132
)

// FST values (vellum uint64).
const (
	valInline     = 1 << 63 // set: an inline single posting
	inlineDocMask = 1<<32 - 1
	inlineImpSh   = 32 // bits 32..47: bfloat16 impact
	inlineFieldSh = 48 // bits 48..50: field
	maxRecordOff  = 1<<62 - 1
)

// Term record flags byte.
const (
	recSingleton = 0x80 // one document; bfloat16 impacts follow its id
	recCombined  = 0x40 // a combined all-fields list precedes the field lists
	recMaskBits  = allFields
)

// Roaring portable-format constants (RoaringFormatSpec).
const (
	roaringCookieNoRun   = 12346
	roaringCookieRun     = 12347
	roaringNoOffsetLimit = 4
	roaringArrayMax      = 4096
	roaringBitmapBytes   = 8192
)

// Quantization: impacts of one posting list are bytes 1..255 times the
// list's scale; the list maximum maps to 255.
const quantMax = 255

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about malformed index bytes,
// including those the term dictionary's reader (internal/fst) finds. A
// caller that reads the index from a larger file wraps such errors in its
// own sentinel as well (snapshot.ErrCorrupt), so that they match both.
var ErrCorrupt = errors.New("bm25: corrupt index")

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// stats is the decoded Stats section.
type stats struct {
	numDocs, idLimit, numTerms uint32
	termsLen, postingsLen      uint64
	params                     Params
	avgLen                     [NumFields]float32
	fieldDocs                  [NumFields]uint32
	termsCRC, postingsCRC      uint32
}

func (s *stats) encode() []byte {
	b := make([]byte, statsSize)
	le := binary.LittleEndian
	copy(b[offMagic:], statsMagic)
	le.PutUint32(b[offVersion:], formatVersion)
	le.PutUint32(b[offNumDocs:], s.numDocs)
	le.PutUint32(b[offIDLimit:], s.idLimit)
	le.PutUint32(b[offNumTerms:], s.numTerms)
	le.PutUint64(b[offTermsLen:], s.termsLen)
	le.PutUint64(b[offPostingsLen:], s.postingsLen)
	le.PutUint32(b[offK1:], math.Float32bits(s.params.K1))
	le.PutUint32(b[offB:], math.Float32bits(s.params.B))
	for f := 0; f < NumFields; f++ {
		le.PutUint32(b[offWeights+4*f:], math.Float32bits(s.params.Weights[f]))
		le.PutUint32(b[offAvgLen+4*f:], math.Float32bits(s.avgLen[f]))
		le.PutUint32(b[offFieldDocs+4*f:], s.fieldDocs[f])
	}
	le.PutUint32(b[offTermsCRC:], s.termsCRC)
	le.PutUint32(b[offPostingsCRC:], s.postingsCRC)
	le.PutUint32(b[offStatsCRC:], crc32.Checksum(b[:offStatsCRC], castagnoli))
	return b
}

func decodeStats(b []byte) (stats, error) {
	var s stats
	if len(b) != statsSize {
		return s, corruptf("stats section is %d bytes, want %d", len(b), statsSize)
	}
	if string(b[offMagic:offMagic+4]) != statsMagic {
		return s, corruptf("bad stats magic %q", b[offMagic:offMagic+4])
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[offVersion:]); v != formatVersion {
		return s, fmt.Errorf("bm25: unsupported format version %d (want %d)", v, formatVersion)
	}
	if got, want := crc32.Checksum(b[:offStatsCRC], castagnoli), le.Uint32(b[offStatsCRC:]); got != want {
		return s, corruptf("stats checksum %08x, want %08x", got, want)
	}
	s.numDocs = le.Uint32(b[offNumDocs:])
	s.idLimit = le.Uint32(b[offIDLimit:])
	s.numTerms = le.Uint32(b[offNumTerms:])
	s.termsLen = le.Uint64(b[offTermsLen:])
	s.postingsLen = le.Uint64(b[offPostingsLen:])
	s.params.K1 = math.Float32frombits(le.Uint32(b[offK1:]))
	s.params.B = math.Float32frombits(le.Uint32(b[offB:]))
	for f := 0; f < NumFields; f++ {
		s.params.Weights[f] = math.Float32frombits(le.Uint32(b[offWeights+4*f:]))
		s.avgLen[f] = math.Float32frombits(le.Uint32(b[offAvgLen+4*f:]))
		s.fieldDocs[f] = le.Uint32(b[offFieldDocs+4*f:])
	}
	s.termsCRC = le.Uint32(b[offTermsCRC:])
	s.postingsCRC = le.Uint32(b[offPostingsCRC:])
	if le.Uint32(b[offFlags:]) != 0 {
		return s, corruptf("unknown stats flags")
	}
	if s.numDocs > s.idLimit || (s.numDocs == 0) != (s.idLimit == 0) {
		return s, corruptf("%d documents below id limit %d", s.numDocs, s.idLimit)
	}
	if err := s.params.validate(); err != nil {
		return s, corruptf("%v", err)
	}
	for f := 0; f < NumFields; f++ {
		if s.fieldDocs[f] > s.numDocs || !finite(s.avgLen[f]) || s.avgLen[f] < 0 {
			return s, corruptf("bad statistics for field %d", f)
		}
	}
	return s, nil
}

func (p *Params) validate() error {
	if !finite(p.K1) || p.K1 < 0 {
		return fmt.Errorf("bm25: k1 %v out of range", p.K1)
	}
	if !finite(p.B) || p.B < 0 || p.B > 1 {
		return fmt.Errorf("bm25: b %v out of range [0,1]", p.B)
	}
	for f, w := range p.Weights {
		if !finite(w) || w < 0 {
			return fmt.Errorf("bm25: weight %v of field %d out of range", w, f)
		}
	}
	return nil
}

func finite(x float32) bool {
	return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
}

// toBF16 rounds x to bfloat16 (the top 16 bits of a float32), to nearest even.
func toBF16(x float32) uint16 {
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

func fromBF16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// validImpact reports whether an impact decoded from the index is usable.
func validImpact(x float32) bool { return x > 0 && x <= math.MaxFloat32 }

// idf is the BM25 inverse document frequency of a term in df of n documents.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// impact is one posting's unweighted BM25 contribution.
func impact(idf float64, tf, length int, avg float64, k1, b float64) float64 {
	norm := 1 - b
	if avg > 0 {
		norm += b * float64(length) / avg
	}
	t := float64(tf)
	return idf * t * (k1 + 1) / (t + k1*norm)
}
