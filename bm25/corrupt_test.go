package bm25

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/knowing-dev/knowing/internal/fst"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/blevesearch/vellum"
)

// corruptIndex is a mid-sized index whose posting lists use all three
// roaring container kinds: "hot" is in nearly every document (bitmap
// containers), "run" in consecutive ones (runs), the rest sparse (arrays).
var corruptIndex = sync.OnceValue(func() *Encoded {
	c := newCorpus(77, 120)
	docs := c.docs(9000)
	b := NewBuilder(DefaultParams())
	for i := range docs {
		d := docs[i]
		if i%9 != 0 {
			d.Fields[FieldDoc] += " hot"
		}
		if i >= 3000 && i < 3400 {
			d.Fields[FieldName] += " runner"
		}
		id := uint32(i)
		if i >= 8000 {
			id += 1 << 16 // a second container
		}
		b.Add(id, &d)
	}
	enc, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return enc
})

// tinyIndex is the fuzzing seed: a handful of documents.
func tinyIndex() *Encoded {
	b := NewBuilder(DefaultParams())
	docs := []Doc{
		doc("getUser", "user store", "store.Store.getUser", "func (s *Store) getUser(id int) (*User, error)", "store/user.go", "getUser returns the user."),
		doc("putUser", "user store", "store.Store.putUser", "func (s *Store) putUser(u *User) error", "store/user.go", "putUser saves a user."),
		doc("HTTPServer", "server", "net.HTTPServer", "type HTTPServer struct", "net/server.go", ""),
		doc("serveHTTP", "server", "net.HTTPServer.serveHTTP", "func (s *HTTPServer) serveHTTP()", "net/server.go", "serveHTTP serves requests."),
	}
	for i := range docs {
		b.Add(uint32(3*i+1), &docs[i])
	}
	enc, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return enc
}

// exercise runs every reader entry point; none may panic.
func exercise(ix *Index, words []string) {
	s := NewSearcher(ix)
	var q []QueryTerm
	for i, w := range words {
		q = append(q, QueryTerm{Text: w})
		if i%2 == 1 {
			q[i].Fields = uint8(1<<FieldName | 1<<FieldDoc)
		}
	}
	for _, k := range []int{1, 20, 1 << 20} {
		s.Search(q, k)
		_ = s.Err()
	}
	for _, w := range words {
		s.Search([]QueryTerm{{Text: w}}, 10)
		ix.DocFreq(w)
		if v, ok, err := ix.dict.Get(w); ok && err == nil {
			for f := Field(0); f <= NumFields; f++ {
				ix.appendFieldDocs(v, f, nil)
			}
		}
		for f := Field(0); f <= NumFields; f++ {
			ix.AppendTermDocs(w, f, nil)
		}
		if len(w) > 0 {
			ix.ExpandPrefix(w[:1], nil, 20)
		}
	}
	ix.ExpandPrefix("", nil, 50)
	_ = ix.Verify()
}

var corruptWords = []string{"hot", "runner", "get", "user", "new", "config", "parse", "string", "server", "http", "store", "zzz"}

// fixStats returns stats patched so that Open accepts terms and postings:
// lengths, term count and checksums recomputed. It reports false when stats
// itself is unusable.
func fixStats(stats, terms, postings []byte) ([]byte, bool) {
	if len(stats) != statsSize {
		return nil, false
	}
	st := bytes.Clone(stats)
	le := func(off int, v uint64, n int) {
		for i := 0; i < n; i++ {
			st[off+i] = byte(v >> (8 * i))
		}
	}
	le(offTermsLen, uint64(len(terms)), 8)
	le(offPostingsLen, uint64(len(postings)), 8)
	le(offTermsCRC, uint64(crc32.Checksum(terms, castagnoli)), 4)
	le(offPostingsCRC, uint64(crc32.Checksum(postings, castagnoli)), 4)
	n, ok := fstLen(terms)
	if !ok {
		return nil, false
	}
	le(offNumTerms, uint64(n), 4)
	le(offStatsCRC, uint64(crc32.Checksum(st[:offStatsCRC], castagnoli)), 4)
	if idLimit := uint32(st[offIDLimit]) | uint32(st[offIDLimit+1])<<8 | uint32(st[offIDLimit+2])<<16 | uint32(st[offIDLimit+3])<<24; idLimit > 1<<20 {
		return nil, false // a searcher would need gigabytes
	}
	return st, true
}

func fstLen(terms []byte) (n int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	fst, err := vellum.Load(terms)
	if err != nil {
		return 0, false
	}
	return fst.Len(), true
}

func TestCorruptSections(t *testing.T) {
	enc := corruptIndex()
	ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
	if err != nil {
		t.Fatal(err)
	}
	exercise(ix, corruptWords) // the intact index first
	r := rand.New(rand.NewPCG(1, 2))
	iters := 150
	if testing.Short() {
		iters = 30
	}
	for sec := 0; sec < 3; sec++ {
		for it := 0; it < iters; it++ {
			secs := [3][]byte{bytes.Clone(enc.Terms), bytes.Clone(enc.Postings), bytes.Clone(enc.Stats)}
			b := secs[sec]
			what := ""
			if it%4 == 3 { // truncate
				n := r.IntN(len(b))
				secs[sec] = b[:n]
				what = fmt.Sprintf("truncated to %d", n)
			} else { // overwrite 1..4 bytes
				for n := 1 + r.IntN(4); n > 0; n-- {
					i := r.IntN(len(b))
					b[i] ^= byte(1 + r.IntN(255))
				}
				what = "mutated"
			}
			name := fmt.Sprintf("section %d %s (iteration %d)", sec, what, it)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s: panic: %v", name, p)
					}
				}()
				if ix, err := Open(secs[0], secs[1], secs[2]); err == nil {
					if sec != 2 && ix.Verify() == nil {
						t.Errorf("%s: Verify passed", name)
					}
					exercise(ix, corruptWords)
				}
				// With the stats patched to match, the damaged bytes reach
				// the readers.
				if sec == 2 {
					return
				}
				if st, ok := fixStats(enc.Stats, secs[0], secs[1]); ok {
					if ix, err := Open(secs[0], secs[1], st); err == nil {
						exercise(ix, corruptWords)
					}
				}
			}()
		}
	}
}

// TestCorruptSearchReports checks that a search meeting damaged postings
// reports it and still returns what it found.
func TestCorruptSearchReports(t *testing.T) {
	enc := corruptIndex()
	ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
	if err != nil {
		t.Fatal(err)
	}
	before, err := search(ix, 5, term("hot"))
	if err != nil || len(before) != 5 {
		t.Fatal(before, err)
	}
	// Break the cookie of every roaring bitmap in the postings.
	post := bytes.Clone(enc.Postings)
	for i := 0; i+1 < len(post); i++ {
		if post[i] == 0x3a && post[i+1] == 0x30 || post[i] == 0x3b && post[i+1] == 0x30 { // 12346, 12347
			post[i] = 0
		}
	}
	st, _ := fixStats(enc.Stats, enc.Terms, post)
	ix, err = Open(enc.Terms, post, st)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher(ix)
	s.Search([]QueryTerm{term("hot")}, 5)
	if s.Err() == nil {
		t.Fatal("no error reported")
	}
	if ix.Verify() == nil {
		t.Fatal("Verify passed")
	}
	// The searcher is clean for the next query on a sound index.
	ix, _ = Open(enc.Terms, enc.Postings, enc.Stats)
	s.ix = ix
	if got := s.Search([]QueryTerm{term("hot")}, 5); fmt.Sprint(got) != fmt.Sprint(before) || s.Err() != nil {
		t.Fatalf("after corruption: %v %v, want %v", got, s.Err(), before)
	}
}

func FuzzOpenSearch(f *testing.F) {
	enc := tinyIndex()
	f.Add(enc.Terms, enc.Postings, enc.Stats, "getUser server")
	f.Fuzz(func(t *testing.T, terms, postings, stats []byte, query string) {
		words := AppendTokens(nil, query)
		if len(words) > 8 {
			words = words[:8]
		}
		words = append(words, query)
		if ix, err := Open(terms, postings, stats); err == nil {
			exercise(ix, words)
		}
		if st, ok := fixStats(stats, terms, postings); ok {
			if ix, err := Open(terms, postings, st); err == nil {
				exercise(ix, words)
			}
		}
	})
}

// TestWriteFuzzSeeds regenerates testdata/fuzz/FuzzOpenSearch when
// BM25_WRITE_SEEDS is set.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("BM25_WRITE_SEEDS") == "" {
		t.Skip("set BM25_WRITE_SEEDS=1 to regenerate the seed corpus")
	}
	enc := tinyIndex()
	flip := func(b []byte, i int) []byte {
		b = bytes.Clone(b)
		b[i%len(b)] ^= 0x55
		return b
	}
	seeds := map[string][4]any{
		"valid":          {enc.Terms, enc.Postings, enc.Stats, "getUser server"},
		"postings-flip":  {enc.Terms, flip(enc.Postings, 7), enc.Stats, "user store http"},
		"terms-flip":     {flip(enc.Terms, len(enc.Terms)/2), enc.Postings, enc.Stats, "serve"},
		"terms-footer":   {flip(enc.Terms, len(enc.Terms)-3), enc.Postings, enc.Stats, "put"},
		"truncated":      {enc.Terms[:len(enc.Terms)/2], enc.Postings[:len(enc.Postings)/3], enc.Stats, "get"},
		"empty":          {[]byte{}, []byte{}, []byte{}, ""},
		"stats-only":     {[]byte{}, []byte{}, enc.Stats, "x"},
		"garbage-record": {enc.Terms, bytes.Repeat([]byte{0xbf}, len(enc.Postings)), enc.Stats, "user"},
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzOpenSearch")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, v := range seeds {
		var buf bytes.Buffer
		buf.WriteString("go test fuzz v1\n")
		for _, x := range v[:3] {
			fmt.Fprintf(&buf, "[]byte(%s)\n", strconv.Quote(string(x.([]byte))))
		}
		fmt.Fprintf(&buf, "string(%s)\n", strconv.Quote(v[3].(string)))
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// packedLists returns, for each term whose record holds a list of delta
// uvarint ids, the term and the offset in Postings of that list's ids.
func packedLists(t *testing.T, enc *Encoded) (terms []string, at []int, roaring, uniform int) {
	ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
	if err != nil {
		t.Fatal(err)
	}
	var w fst.Walk
	for w.Reset(&ix.dict, ""); w.Next(); {
		k, v := w.Key(), w.Value()
		if v&valInline == 0 && enc.Postings[v]&recSingleton == 0 {
			p := enc.Postings[v:]
			_, n := binary.Uvarint(p[1:])
			pos := 1 + n
			nl := popcount(p[0] & recMaskBits)
			if p[0]&recCombined != 0 {
				nl++
			}
			for ; nl > 0; nl-- {
				l, ok := parseList(p, pos)
				if !ok {
					break
				}
				if l.packed && len(l.docs) > 0 {
					terms = append(terms, string(k))
					start := cap(enc.Postings) - cap(l.docs) // l.docs views Postings
					at = append(at, start, start+len(l.docs))
					break
				}
				if !l.packed {
					roaring++
				}
				if len(l.imps) > 0 && &l.imps[0] == &allMax[0] {
					uniform++
				}
				pos = l.end
			}
		}
	}
	return terms, at, roaring, uniform
}

// TestCorruptPackedList damages the ids of delta-uvarint lists: a search
// reading one reports it, Verify fails, and nothing panics.
func TestCorruptPackedList(t *testing.T) {
	enc := corruptIndex()
	terms, at, roaring, uniform := packedLists(t, enc)
	if len(terms) < 10 || roaring == 0 || uniform == 0 {
		t.Fatalf("%d packed lists, %d roaring lists, %d with uniform impacts: want all kinds", len(terms), roaring, uniform)
	}
	for i := 0; i < len(terms) && i < 40; i++ {
		at := at[2*i:]
		for _, bad := range []string{"all", "last"} { // runaway uvarints; the last one cut
			post := bytes.Clone(enc.Postings)
			docs := post[at[0]:at[1]]
			if bad == "all" {
				for j := range docs {
					docs[j] = 0xff
				}
			} else {
				docs[len(docs)-1] |= 0x80
			}
			st, _ := fixStats(enc.Stats, enc.Terms, post)
			ix, err := Open(enc.Terms, post, st)
			if err != nil {
				t.Fatal(err)
			}
			if ix.Verify() == nil {
				t.Errorf("term %q, %s: Verify passed", terms[i], bad)
			}
			s := NewSearcher(ix)
			found := false
			for _, m := range []uint8{allFields, 1, 2, 4, 8, 16, 32} { // one reads the damaged list
				s.Search([]QueryTerm{{Text: terms[i], Fields: m}}, 10)
				found = found || s.Err() != nil
			}
			if !found {
				t.Errorf("term %q, %s: search reported nothing", terms[i], bad)
			}
			exercise(ix, []string{terms[i]})
		}
	}
}
