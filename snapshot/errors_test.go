package snapshot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/csr"
)

func smallImage(t testing.TB) []byte {
	t.Helper()
	img, err := encode(randomGraph(5, 20, 400, 1500), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return img.bytes()
}

func openFileBytes(t *testing.T, b []byte) (*Snapshot, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.snap")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(p)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

func TestTruncated(t *testing.T) {
	data := smallImage(t)
	for _, cut := range []int{0, 1, 4, 7, 8, 11, 12, 40, headerSize - 1, headerSize, headerSize + 30, 500, len(data) / 2, len(data) - 1} {
		_, err := openFileBytes(t, data[:cut])
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d: %v, want ErrTruncated", cut, err)
		}
	}
}

func TestBadMagic(t *testing.T) {
	data := smallImage(t)
	for _, b := range [][]byte{append([]byte("KNOWSNAQ"), data[8:]...), []byte("PK\x03\x04"), []byte("hello world, this is not a snapshot at all")} {
		if _, err := openFileBytes(t, b); !errors.Is(err, ErrBadMagic) {
			t.Errorf("%q: %v, want ErrBadMagic", b[:4], err)
		}
	}
}

func TestFutureVersion(t *testing.T) {
	data := smallImage(t)
	le.PutUint32(data[hVersion:], 7)
	_, err := openFileBytes(t, data)
	var ve *VersionError
	if !errors.Is(err, ErrVersion) || !errors.As(err, &ve) || ve.Found != 7 {
		t.Fatalf("%v, want a VersionError for 7", err)
	}
	if !strings.Contains(err.Error(), "knowing build") || !strings.Contains(err.Error(), "upgrade knowing") {
		t.Fatalf("message %q does not say to upgrade or rebuild", err)
	}
}

// TestOlderVersion: a snapshot of an older format asks for a rebuild with
// the command, naming the repository its metadata records.
func TestOlderVersion(t *testing.T) {
	s := writeOpen(t, randomGraph(5, 20, 400, 1500), testOptions())
	path := s.path
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le.PutUint32(data[hVersion:], 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Found != 1 {
		t.Fatalf("%v, want a VersionError for 1", err)
	}
	want := "knowing build --repo /src/repo " + path
	if !strings.Contains(err.Error(), "older knowing") || !strings.Contains(err.Error(), want) {
		t.Fatalf("message %q, want it to hold %q", err, want)
	}
}

// TestOpenFIFO: a FIFO given as a snapshot is refused at once, not waited
// on.
func TestOpenFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := Open(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("%v, want a refusal", err)
	}
}

func TestHeaderChecksum(t *testing.T) {
	data := smallImage(t)
	data[hNodes] ^= 1
	_, err := openFileBytes(t, data)
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Section != "header" || !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%v, want a header ChecksumError", err)
	}
}

func TestTrailingBytes(t *testing.T) {
	data := append(smallImage(t), 0)
	if _, err := openFileBytes(t, data); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%v, want ErrCorrupt", err)
	}
}

func TestFlippedByteEachSection(t *testing.T) {
	clean := smallImage(t)
	s, err := openBytes(clean)
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, sec := range s.Sections() {
		if sec.Length == 0 {
			continue
		}
		data := append([]byte(nil), clean...)
		data[sec.Offset+sec.Length/2] ^= 0x10
		s, err := openFileBytes(t, data)
		if err != nil {
			t.Errorf("%s: Open: %v", sec.Name, err)
			continue
		}
		err = s.Verify()
		var ce *ChecksumError
		if !errors.As(err, &ce) || ce.Section != sec.Name || !errors.Is(err, ErrChecksum) {
			t.Errorf("%s: Verify: %v, want a ChecksumError naming it", sec.Name, err)
		}
		tested++
	}
	if tested < 10 {
		t.Fatalf("only %d sections tested", tested)
	}
}

func TestFlippedPadding(t *testing.T) {
	data := smallImage(t)
	s, _ := openBytes(data)
	var gap uint64
	for _, sec := range s.Sections() {
		if end := sec.Offset + sec.Length; end%sectionAlign != 0 {
			gap = end
			break
		}
	}
	if gap == 0 {
		t.Skip("no padding in this image")
	}
	data[gap] = 1
	s, err := openBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%v, want ErrCorrupt", err)
	}
}

func TestOpenMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope", "missing.snap")
	_, err := Open(p)
	if err == nil || !strings.Contains(err.Error(), p) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v: want a not-exist error naming %s", err, p)
	}
	if _, err := Open(t.TempDir()); err == nil {
		t.Fatal("opened a folder")
	}
}

func TestAtomicWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "repo.snap")
	g := randomGraph(6, 10, 100, 300)
	if err := Write(p, g, testOptions()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)

	for name, bad := range map[string]*Graph{
		"edge":       {Nodes: g.Nodes, Edges: []Edge{{From: 0, To: uint32(len(g.Nodes))}}},
		"file":       {Nodes: []Node{{Name: "x", File: 3}}},
		"edge type":  {Nodes: g.Nodes, Edges: []Edge{{From: 0, To: 1, Type: 200}}},
		"confidence": {Nodes: g.Nodes, Edges: []Edge{{From: 0, To: 1, Confidence: float32(nan())}}},
	} {
		err := Write(p, bad, testOptions())
		if err == nil {
			t.Errorf("%s: invalid graph written", name)
		}
		after, _ := os.ReadFile(p)
		if string(after) != string(before) {
			t.Fatalf("%s: a failed write replaced the snapshot", name)
		}
	}
	// A failure after the temporary file is written (here the rename, over
	// a non-empty folder) removes it too.
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(filepath.Join(sub, "x"), 0o755)
	if err := Write(sub, g, testOptions()); err == nil {
		t.Fatal("wrote over a folder")
	}
	os.RemoveAll(sub)
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("folder holds %v, want only repo.snap", names)
	}
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
}

func nan() float64 {
	z := 0.0
	return z / z
}

func TestWriteUnwritable(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "plainfile")
	os.WriteFile(f, []byte("x"), 0o644)
	err := Write(filepath.Join(f, "repo.snap"), &Graph{}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("%v: want a not-a-folder error", err)
	}
	err = Write(filepath.Join(dir, "missing", "repo.snap"), &Graph{}, nil)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v: want a not-exist error", err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o500)
		err = Write(filepath.Join(ro, "repo.snap"), &Graph{}, nil)
		if err == nil || !strings.Contains(err.Error(), "cannot create") {
			t.Fatalf("%v: want a cannot-create error", err)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temp file %s left behind", e.Name())
		}
	}
}

func TestClosedIsInert(t *testing.T) {
	s := writeOpen(t, randomGraph(8, 5, 50, 100), testOptions())
	it := s.NewNameIter()
	it.Reset("")
	it.Next()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.NumNodes() != 0 || s.Name(0) != "" || len(s.LookupName("x", nil)) != 0 || it.Next() {
		t.Fatal("closed snapshot still answers")
	}
	nb := s.Neighbors(0, In)
	if nb.Next() {
		t.Fatal("closed snapshot has edges")
	}
	if err := s.Verify(); err != ErrClosed {
		t.Fatalf("Verify after Close: %v", err)
	}
	if _, err := s.BM25(); err != ErrClosed {
		t.Fatalf("BM25 after Close: %v", err)
	}
}

// TestUnknownSection: a section from a later writer is skipped by Open
// and still checked by Verify.
func TestUnknownSection(t *testing.T) {
	img, err := encode(tinyGraph(), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	img.extra = []extraImage{{id: 99, data: []byte("an optional index")}}
	data := img.bytes()
	s, err := openFileBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if ids := s.LookupName("parseargs", nil); len(ids) != 1 || s.QName(ids[0]) != "cli.parseArgs" {
		t.Fatalf("lookup: %v", ids)
	}
	data[len(data)-8] ^= 1 // inside the extra section
	s, err = openFileBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	var ce *ChecksumError
	if err := s.Verify(); !errors.As(err, &ce) || ce.Section != "section#99" {
		t.Fatalf("Verify: %v, want a checksum error in section#99", err)
	}
}

// TestCorruptIDLists damages the uvarint id lists behind names.fst with
// the checksums repaired: Verify reports it as corruption, and lookups and
// iterators return what they can without panicking.
func TestCorruptIDLists(t *testing.T) {
	g := randomGraph(4, 20, 600, 1000)
	img, err := encode(g, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	clean := img.bytes()
	s, err := openBytes(clean)
	if err != nil {
		t.Fatal(err)
	}
	var ids SectionInfo
	for _, sec := range s.Sections() {
		if sec.Name == "names.ids" {
			ids = sec
		}
	}
	if ids.Length < 8 {
		t.Fatalf("names.ids of %d bytes", ids.Length)
	}
	for i := uint64(0); i < ids.Length; i += 1 + ids.Length/40 {
		for _, bad := range []byte{0x00, 0xff} { // a repeated id; a runaway uvarint
			data := append([]byte(nil), clean...)
			data[ids.Offset+i] = bad
			if data[ids.Offset+i] == clean[ids.Offset+i] {
				continue
			}
			data = fixChecksums(data)
			s, err := openBytes(data)
			if err != nil {
				t.Fatalf("byte %d: Open: %v", i, err)
			}
			exercise(data)
			if err := s.Verify(); err == nil && bad == 0xff {
				t.Errorf("byte %d = %#x: Verify passed", i, bad)
			} else if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("byte %d = %#x: %v, want ErrCorrupt", i, bad, err)
			}
		}
	}
}

// TestCorruptColdRanks damages the rank groups at the end of cold.index,
// with the checksums repaired: Verify reports corruption and reading the
// texts neither panics nor misreports quietly.
func TestCorruptColdRanks(t *testing.T) {
	g := randomGraph(6, 20, 700, 500)
	img, err := encode(g, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	clean := img.bytes()
	s, err := openBytes(clean)
	if err != nil {
		t.Fatal(err)
	}
	var idx SectionInfo
	for _, sec := range s.Sections() {
		if sec.Name == "cold.index" {
			idx = sec
		}
	}
	groups := uint64((len(g.Nodes) + 63) / 64)
	ranks := idx.Offset + idx.Length - coldRankSize*groups
	for gi := uint64(0); gi < groups; gi++ {
		for _, at := range []uint64{0, 3, 8} { // the bitset; the count before the group
			data := append([]byte(nil), clean...)
			data[ranks+gi*coldRankSize+at] ^= 0x24
			data = fixChecksums(data)
			s, err := openBytes(data)
			if err != nil {
				t.Fatalf("group %d byte %d: Open: %v", gi, at, err)
			}
			if err := s.Verify(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("group %d byte %d: Verify: %v, want ErrCorrupt", gi, at, err)
			}
			for id := uint32(0); id < uint32(s.NumNodes()); id++ {
				s.Signature(id)
				s.SignatureLen(id)
			}
		}
	}
}

// damaged returns a copy of data whose section name f has changed, with
// every section checksum and the header repaired, so that only the layer
// that decodes the section can notice.
func damaged(t *testing.T, data []byte, name string, f func(sec []byte)) []byte {
	t.Helper()
	s, err := openBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range s.Sections() {
		if sec.Name == name {
			out := append([]byte(nil), data...)
			f(out[sec.Offset : sec.Offset+sec.Length])
			return fixChecksums(out)
		}
	}
	t.Fatalf("no section %s", name)
	return nil
}

// TestLowerLayerCorruption: corruption that csr, bm25 or internal/fst
// finds in a snapshot reaches the caller of the snapshot API as
// ErrCorrupt, and still matches the sentinel of the package that found it.
func TestLowerLayerCorruption(t *testing.T) {
	needBM25(t)
	clean := smallImage(t)
	both := func(what string, err, lower error) {
		t.Helper()
		if !errors.Is(err, ErrCorrupt) || !errors.Is(err, lower) {
			t.Errorf("%s: %v, want ErrCorrupt and %v", what, err, lower)
		}
	}

	// A csr row: every byte of graph.out's rows made a runaway uvarint.
	data := damaged(t, clean, "graph.out", func(sec []byte) {
		head := csr.HeaderSize(int(le.Uint32(clean[hNodes:])), int(le.Uint32(sec)), uint(sec[4]))
		for i := head; i < uint64(len(sec)); i++ {
			sec[i] = 0xff
		}
	})
	s, err := openBytes(data)
	if err != nil {
		t.Fatalf("csr row: Open: %v", err)
	}
	both("csr row: Verify", s.Verify(), csr.ErrCorrupt)
	it := s.Neighbors(0, Out)
	for it.Next() {
	}
	both("csr row: NeighborIter.Err", it.Err(), csr.ErrCorrupt)

	// A bm25 section: postings whose checksum in bm25.stats no longer
	// holds; the stats section itself damaged.
	data = damaged(t, clean, "bm25.postings", func(sec []byte) { sec[len(sec)/2] ^= 0x10 })
	if s, err = openBytes(data); err != nil {
		t.Fatalf("bm25 postings: Open: %v", err)
	}
	both("bm25 postings: Verify", s.Verify(), bm25.ErrCorrupt)
	data = damaged(t, clean, "bm25.stats", func(sec []byte) { sec[8] ^= 1 })
	if s, err = openBytes(data); err != nil {
		t.Fatalf("bm25 stats: Open: %v", err)
	}
	_, err = s.BM25()
	both("bm25 stats: BM25", err, bm25.ErrCorrupt)
	both("bm25 stats: Verify", s.Verify(), bm25.ErrCorrupt)

	// An FST: the term dictionary's root address (the last 8 bytes of its
	// footer) outside the FST, which internal/fst finds for bm25.
	data = damaged(t, clean, "bm25.terms", func(sec []byte) { le.PutUint64(sec[len(sec)-8:], 1<<40) })
	if s, err = openBytes(data); err != nil {
		t.Fatalf("bm25 terms: Open: %v", err)
	}
	_, err = s.BM25()
	both("bm25 terms FST: BM25", err, bm25.ErrCorrupt)
	both("bm25 terms FST: Verify", s.Verify(), bm25.ErrCorrupt)
	// The same in names.fst, which internal/fst reads for this package.
	data = damaged(t, clean, "names.fst", func(sec []byte) { le.PutUint64(sec[len(sec)-8:], 1<<40) })
	if _, err = openBytes(data); !errors.Is(err, ErrCorrupt) {
		t.Errorf("names FST: Open: %v, want ErrCorrupt", err)
	}
}
