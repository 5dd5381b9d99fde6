package extract

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/knowing-dev/knowing/snapshot"
)

// A Prior is kept between runs of knowing build in a file of its own
// (the command keeps it under the user's cache folder): the magic, a
// version, then
//
//	str id                  who wrote it (the caller's; a Prior of another id is refused)
//	str root, varint max file size, str extensions, varint walk start
//	uvarint languages, each: u8 lang, uvarint questions, each: u8 kind,
//	        str path, u64 answer; uvarint files read, each: str path, u64 fingerprint
//	uvarint symbols, refs and imports of all the files (room to decode them in)
//	uvarint files, each: uvarint error line, u64 resolution key, then the FileResult
//	u8 1 and the resolved graph (priorGraph.encode), or 0
//
// and last the CRC-32C of what follows the version (a trailer, so that
// the file is written as a stream: a file decoded from a prior and kept
// as it was is copied from the old bytes, without a buffer of the
// whole). str is a uvarint length and the bytes, and a FileResult is its
// fields in order (see enc.result). The encoding is this package's own:
// it changes with FileResult, and a file of another version is refused
// (the next build is then a full one). It is not compressed: on the Go
// standard library it is 33 MB, which zstd's fastest level made 8.7 MB
// for 0.2 s of CPU to write and 0.1 s to read, a fifth of an
// incremental build's CPU besides resolving and writing the snapshot.

const (
	priorMagic   = "KNOWPRIO"
	priorVersion = 5
)

// ErrPrior is wrapped by the errors of UnmarshalPrior: the bytes are not
// a Prior this build can use.
var ErrPrior = errors.New("not a usable prior build")

// Marshal encodes p, tagged with id (say, the version of the program
// that made it).
func (p *Prior) Marshal(id string) ([]byte, error) {
	var b bytes.Buffer
	err := p.Write(&b, id)
	return b.Bytes(), err
}

// crcWriter writes to w and keeps the CRC-32C of what it wrote.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(b []byte) (int, error) {
	c.crc = crc32.Update(c.crc, castagnoli, b)
	return c.w.Write(b)
}

// Write writes what Marshal returns to w, as a stream.
func (p *Prior) Write(w io.Writer, id string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString(priorMagic); err != nil {
		return err
	}
	var v [4]byte
	binary.LittleEndian.PutUint32(v[:], priorVersion)
	bw.Write(v[:])
	cw := &crcWriter{w: bw}
	e := enc{b: make([]byte, 0, 1<<16)}
	// flush hands what e holds to the writer, once it holds enough.
	flush := func(min int) error {
		if len(e.b) < min {
			return nil
		}
		_, err := cw.Write(e.b)
		e.b = e.b[:0]
		return err
	}
	e.str(id)
	e.str(p.root)
	e.varint(p.maxFileSize)
	e.str(p.exts)
	e.varint(p.walkStart)
	e.uvarint(uint64(len(p.langs)))
	for _, l := range slices.Sorted(maps.Keys(p.langs)) {
		pl := p.langs[l]
		e.b = append(e.b, byte(l))
		e.uvarint(uint64(len(pl.deps)))
		for _, k := range sortedDeps(pl.deps) {
			e.b = append(e.b, byte(k.kind))
			e.str(k.path)
			e.b = binary.LittleEndian.AppendUint64(e.b, pl.deps[k])
			if err := flush(1 << 16); err != nil {
				return err
			}
		}
		e.uvarint(uint64(len(pl.read)))
		for _, f := range slices.Sorted(maps.Keys(pl.read)) {
			e.str(f)
			e.b = binary.LittleEndian.AppendUint64(e.b, pl.read[f])
		}
	}
	var syms, refs, imps int
	for _, pf := range p.files {
		syms, refs, imps = syms+len(pf.r.Symbols), refs+len(pf.r.Refs), imps+len(pf.r.Imports)
		if pf.r.Refs == nil {
			refs += pf.nrefs
		}
	}
	e.uvarint(uint64(syms))
	e.uvarint(uint64(refs))
	e.uvarint(uint64(imps))
	e.uvarint(uint64(len(p.files)))
	for _, f := range slices.Sorted(maps.Keys(p.files)) {
		pf := p.files[f]
		if pf.raw != nil {
			// Files decoded from a prior's bytes and kept as they were
			// are copied as they were encoded.
			if err := flush(0); err != nil {
				return err
			}
			if _, err := cw.Write(pf.raw); err != nil {
				return err
			}
			continue
		}
		e.uvarint(uint64(pf.errLine))
		e.b = binary.LittleEndian.AppendUint64(e.b, pf.key)
		e.result(pf.r, pf.refs)
		if err := flush(1 << 16); err != nil {
			return err
		}
	}
	if p.graph == nil {
		e.b = append(e.b, 0)
	} else {
		e.b = append(e.b, 1)
		if err := p.graph.encode(&e, p.sortedResults(), flush); err != nil {
			return err
		}
	}
	if err := flush(0); err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(v[:], cw.crc)
	bw.Write(v[:])
	return bw.Flush()
}

// priorHeader is the magic and the version; priorTrailer the CRC.
const (
	priorHeader  = len(priorMagic) + 4
	priorTrailer = 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// UnmarshalPrior decodes a Prior that Marshal encoded with the same id.
// The strings of the Prior point into b, which must not change
// afterwards. Damaged or foreign bytes give an error wrapping ErrPrior,
// never a panic.
func UnmarshalPrior(b []byte, id string) (p *Prior, err error) {
	if len(b) < priorHeader+priorTrailer || string(b[:len(priorMagic)]) != priorMagic {
		return nil, fmt.Errorf("%w: no magic", ErrPrior)
	}
	if v := binary.LittleEndian.Uint32(b[len(priorMagic):]); v != priorVersion {
		return nil, fmt.Errorf("%w: version %d", ErrPrior, v)
	}
	raw := b[priorHeader : len(b)-priorTrailer]
	if crc32.Checksum(raw, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-priorTrailer:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrPrior)
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%w: %v", ErrPrior, r)
		}
	}()
	d := dec{b: raw}
	if got := d.str(); got != id {
		return nil, fmt.Errorf("%w: made by %q, not %q", ErrPrior, got, id)
	}
	p = &Prior{root: d.str(), maxFileSize: d.varint(), exts: d.str(), walkStart: d.varint(),
		langs: map[snapshot.Lang]*priorLang{}}
	for n := d.count(); n > 0; n-- {
		l := snapshot.Lang(d.byte())
		pl := &priorLang{deps: map[depKey]uint64{}, read: map[string]uint64{}}
		for m := d.count(); m > 0; m-- {
			k := depKey{kind: depKind(d.byte()), path: d.str()}
			pl.deps[k] = d.u64()
		}
		for m := d.count(); m > 0; m-- {
			f := d.str()
			pl.read[f] = d.u64()
		}
		p.langs[l] = pl
	}
	d.syms = make([]Symbol, d.count())
	d.count() // the references are decoded when a build needs them (see priorFile.refs)
	d.lazy = true
	d.imps = make([]Import, d.count())
	nf := d.count()
	p.files = make(map[string]*priorFile, nf)
	for ; nf > 0; nf-- {
		at := d.b
		pf := &priorFile{errLine: uint32(d.uvarint()), key: d.u64()}
		pf.r = d.result()
		pf.raw = at[:len(at)-len(d.b)]
		pf.refs, pf.nrefs = d.lazyRefs, d.lazyN
		p.files[pf.r.Path] = pf
	}
	if d.byte() == 1 {
		p.graph = d.graph()
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPrior, d.err)
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the end", ErrPrior, len(d.b))
	}
	return p, nil
}

// enc appends a Prior's fields.
type enc struct{ b []byte }

func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }

func (e *enc) strs(s []string) {
	e.uvarint(uint64(len(s)))
	for _, x := range s {
		e.str(x)
	}
}

// result appends a FileResult: every field, in declaration order. refs,
// when not nil, is the encoding of its references if r has none decoded.
func (e *enc) result(r *FileResult, refs []byte) {
	e.str(r.Path)
	e.b = append(e.b, byte(r.Lang))
	e.uvarint(uint64(r.Flags))
	e.varint(r.Size)
	e.varint(r.ModTime)
	e.b = binary.LittleEndian.AppendUint64(e.b, r.Hash)
	e.str(r.Package)
	e.str(r.Scope)
	e.uvarint(uint64(len(r.Symbols)))
	for i := range r.Symbols {
		s := &r.Symbols[i]
		e.str(s.Name)
		e.str(s.Qual)
		e.b = append(e.b, byte(s.Kind))
		e.uvarint(uint64(s.Flags))
		e.varint(int64(s.Parent))
		e.str(s.Receiver)
		e.uvarint(uint64(s.Start))
		e.uvarint(uint64(s.End))
		e.str(s.Signature)
		e.str(s.Doc)
		e.str(s.Type)
		e.strs(s.Extends)
		e.strs(s.Implements)
		if s.Decl {
			e.b = append(e.b, 1)
		} else {
			e.b = append(e.b, 0)
		}
		e.str(s.Body)
		e.str(s.Text)
		// Commits and History are not extraction's: every build
		// attaches them anew (history.go).
	}
	if r.Refs == nil && refs != nil {
		e.b = append(e.b, refs...)
	} else {
		e.refs(r.Refs)
	}
	e.uvarint(uint64(len(r.Imports)))
	for i := range r.Imports {
		im := &r.Imports[i]
		e.str(im.Path)
		e.str(im.Name)
		e.str(im.Alias)
	}
	e.strs(r.Includes)
}

// refs appends a file's references: their count, then each.
func (e *enc) refs(refs []Ref) {
	e.uvarint(uint64(len(refs)))
	for i := range refs {
		f := &refs[i]
		e.varint(int64(f.From))
		e.b = append(e.b, byte(f.Kind))
		e.str(f.Name)
		e.str(f.Qual)
		e.str(f.QualType)
		e.uvarint(uint64(f.Line))
	}
}

// dec reads what enc wrote; the first error sticks and later reads
// return zero values.
type dec struct {
	b   []byte
	err error
	// Room for the files' symbols, refs and imports, which take their
	// slices from it (each capped at its length).
	syms []Symbol
	refs []Ref
	imps []Import
	// lazy: result leaves the references encoded, in lazyRefs (their
	// count and entries, lazyN of them) for the file it decoded last.
	lazy     bool
	lazyRefs []byte
	lazyN    int
}

// take cuts n elements off the front of *room, or allocates them when it
// has fewer (a damaged count).
func take[T any](room *[]T, n int) []T {
	if n > len(*room) {
		return make([]T, n)
	}
	s := (*room)[:n:n]
	*room = (*room)[n:]
	return s
}

func (d *dec) fail(what string) {
	if d.err == nil {
		d.err = errors.New(what)
	}
	d.b = nil
}

func (d *dec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	d.took(n, "bad uvarint")
	return v // 0 when n <= 0
}

func (d *dec) varint() int64 {
	v, n := binary.Varint(d.b)
	d.took(n, "bad varint")
	return v // 0 when n <= 0
}

// took drops the n bytes a varint read; n <= 0 (truncated, or over 64
// bits, when binary's readers return 0) fails with what.
func (d *dec) took(n int, what string) {
	if n <= 0 {
		d.fail(what)
		return
	}
	d.b = d.b[n:]
}

// count reads a count of items, each at least a byte long.
func (d *dec) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("count beyond the data")
		return 0
	}
	return int(n)
}

func (d *dec) byte() byte {
	if len(d.b) < 1 {
		d.fail("truncated")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *dec) u64() uint64 {
	if len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// str returns a string sharing the decoded buffer.
func (d *dec) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string beyond the data")
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.b[0], int(n))
	d.b = d.b[n:]
	return s
}

// skip passes over a string.
func (d *dec) skip() {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string beyond the data")
		return
	}
	d.b = d.b[n:]
}

// refList decodes len(refs) references into refs.
func (d *dec) refList(refs []Ref) {
	for i := range refs {
		f := &refs[i]
		f.From, f.Kind = d.i32(), RefKind(d.byte())
		f.Name, f.Qual, f.QualType = d.str(), d.str(), d.str()
		f.Line = d.u32()
	}
}

// materialize decodes the references of pf's file, if they were left
// encoded (a decoded prior's are until a build resolves them: a build
// whose resolution is the prior's never reads them). The FileResult may
// be shared with the prior pf was kept from: it gets the same
// references, once; builds sharing a prior run one at a time.
func (pf *priorFile) materialize() {
	if pf.refs == nil || pf.r.Refs != nil {
		return
	}
	d := dec{b: pf.refs}
	refs := make([]Ref, d.count())
	d.refList(refs)
	if d.err == nil {
		pf.r.Refs = refs
	}
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *dec) i32() int32 {
	v := d.varint()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail("int32 out of range")
	}
	return int32(v)
}

func (d *dec) u32() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		d.fail("uint32 out of range")
	}
	return uint32(v)
}

func (d *dec) result() *FileResult {
	r := &FileResult{Path: d.str(), Lang: snapshot.Lang(d.byte()), Flags: snapshot.Flags(d.uvarint()),
		Size: d.varint(), ModTime: d.varint(), Hash: d.u64(), Package: d.str(), Scope: d.str()}
	if n := d.count(); n > 0 {
		r.Symbols = take(&d.syms, n)
		for i := range r.Symbols {
			s := &r.Symbols[i]
			s.Name, s.Qual = d.str(), d.str()
			s.Kind, s.Flags = snapshot.Kind(d.byte()), snapshot.Flags(d.uvarint())
			s.Parent, s.Receiver = d.i32(), d.str()
			s.Start, s.End = d.u32(), d.u32()
			s.Signature, s.Doc, s.Type = d.str(), d.str(), d.str()
			s.Extends, s.Implements = d.strs(), d.strs()
			s.Decl = d.byte() != 0
			s.Body, s.Text = d.str(), d.str()
		}
	}
	at := d.b
	d.lazyRefs, d.lazyN = nil, 0
	if n := d.count(); n > 0 {
		if d.lazy {
			for i := 0; i < n; i++ {
				d.varint()
				d.byte()
				d.skip()
				d.skip()
				d.skip()
				d.uvarint()
			}
			d.lazyRefs, d.lazyN = at[:len(at)-len(d.b)], n
		} else {
			r.Refs = take(&d.refs, n)
			d.refList(r.Refs)
		}
	}
	if n := d.count(); n > 0 {
		r.Imports = take(&d.imps, n)
		for i := range r.Imports {
			im := &r.Imports[i]
			im.Path, im.Name, im.Alias = d.str(), d.str(), d.str()
		}
	}
	r.Includes = d.strs()
	return r
}
