package bm25

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

func build(t testing.TB, p Params, ids []uint32, docs []Doc) (*Index, *Encoded) {
	t.Helper()
	b := NewBuilder(p)
	for i := range docs {
		b.Add(ids[i], &docs[i])
	}
	enc, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Verify(); err != nil {
		t.Fatal(err)
	}
	return ix, enc
}

func seqIDs(n int) []uint32 {
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(i)
	}
	return ids
}

func doc(name, concepts, qname, sig, path, text string) Doc {
	return Doc{Fields: [NumFields]string{name, concepts, qname, sig, path, text}}
}

func docIDs(hs []Hit) []uint32 {
	var ids []uint32
	for _, h := range hs {
		ids = append(ids, h.Doc)
	}
	return ids
}

func search(ix *Index, k int, q ...QueryTerm) ([]Hit, error) {
	s := NewSearcher(ix)
	hs := s.Search(q, k)
	return append([]Hit(nil), hs...), s.Err()
}

func term(text string) QueryTerm { return QueryTerm{Text: text} }

// filler returns unrelated documents so that idf values are meaningful:
// their words (qx followed by letters) occur in no test query.
func filler(n int) []Doc {
	r := rand.New(rand.NewPCG(99, 99))
	w := func() string { return fmt.Sprintf("qx%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26)) }
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = doc(w()+"_"+w(), w(), "qxpkg."+w(), "func "+w()+"(a "+w()+")", "qxdir/"+w()+".go", w()+" "+w()+" "+w())
	}
	return docs
}

func TestFieldWeightsRank(t *testing.T) {
	docs := append(filler(50),
		doc("renderWidget", "", "", "", "", "does things"),
		doc("doThings", "", "", "", "", "renders the widget for frobnication"),
		doc("frobnicate", "", "", "", "", "the main entry"),
	)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	hs, err := search(ix, 10, term("frobnicate"), term("frobnication"))
	if err != nil {
		t.Fatal(err)
	}
	// "frobnicate" in FieldName (weight 10) beats "frobnication" in FieldDoc (3).
	if got, want := docIDs(hs), []uint32{52, 51}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	hs, _ = search(ix, 10, term("widget"))
	if got, want := docIDs(hs), []uint32{50, 51}; !reflect.DeepEqual(got, want) {
		t.Fatalf("widget: got %v, want %v", got, want)
	}
}

func TestRarerTermsWeighMore(t *testing.T) {
	var docs []Doc
	for i := 0; i < 30; i++ {
		docs = append(docs, doc(fmt.Sprintf("common%c", 'A'+i%26), "", "", "", "", "plain common words here"))
	}
	docs = append(docs,
		doc("alpha", "", "", "", "", "rare"),  // 30: the rare word "rare"
		doc("beta", "", "", "", "", "common"), // 31: only the common word
	)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	hs, _ := search(ix, 3, term("common"), term("rare"))
	if len(hs) == 0 || hs[0].Doc != 30 {
		t.Fatalf("rare match should rank first: %v", hs)
	}
	if ix.DocFreq("common") != 31 || ix.DocFreq("rare") != 1 {
		t.Fatalf("DocFreq common %d rare %d", ix.DocFreq("common"), ix.DocFreq("rare"))
	}
}

func TestFieldMask(t *testing.T) {
	docs := append(filler(20),
		doc("parseConfig", "", "", "", "", ""),         // 20
		doc("", "", "", "", "", "parse the config"),    // 21
		doc("", "", "", "", "cmd/parse/config.go", ""), // 22
	)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	cases := []struct {
		mask uint8
		want []uint32
	}{
		{0, []uint32{20, 22, 21}},
		{1 << FieldName, []uint32{20}},
		{1 << FieldDoc, []uint32{21}},
		{1<<FieldDoc | 1<<FieldPath, []uint32{22, 21}},
		{1 << FieldSignature, nil},
		{1 << 7, nil}, // no known field: matches nothing
	}
	for _, c := range cases {
		hs, _ := search(ix, 10, QueryTerm{Text: "config", Fields: c.mask})
		var got []uint32
		for _, h := range hs {
			if h.Doc >= 20 {
				got = append(got, h.Doc)
			}
		}
		if len(got) != len(hs) {
			t.Errorf("mask %#x: filler matched: %v", c.mask, hs)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("mask %#x: got %v, want %v", c.mask, got, c.want)
		}
	}
}

func TestBoost(t *testing.T) {
	docs := append(filler(30),
		doc("alphaThing", "", "", "", "", ""), // 30
		doc("betaThing", "", "", "", "", ""),  // 31
		doc("betaOther", "", "", "", "", ""),  // 32
	)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	one, _ := search(ix, 5, term("beta"))
	two, _ := search(ix, 5, QueryTerm{Text: "beta", Boost: 2})
	if len(one) != 2 || len(two) != 2 {
		t.Fatalf("got %v and %v", one, two)
	}
	for i := range one {
		if one[i].Doc != two[i].Doc || two[i].Score != 2*one[i].Score {
			t.Errorf("boost 2: %v vs %v", two[i], one[i])
		}
	}
	// Boosting one term reorders: alpha (single doc) vs beta.
	a, _ := search(ix, 1, QueryTerm{Text: "alpha"}, QueryTerm{Text: "beta", Boost: 10})
	b, _ := search(ix, 1, QueryTerm{Text: "alpha", Boost: 10}, QueryTerm{Text: "beta"})
	if a[0].Doc == 30 || b[0].Doc != 30 {
		t.Errorf("boosts ignored: %v %v", a, b)
	}
	// Boost 0 means 1; a NaN boost contributes nothing.
	z, _ := search(ix, 5, QueryTerm{Text: "beta", Boost: 0})
	if !reflect.DeepEqual(z, one) {
		t.Errorf("boost 0: %v, want %v", z, one)
	}
	n, _ := search(ix, 5, QueryTerm{Text: "beta", Boost: float32(math.NaN())})
	if len(n) != 0 {
		t.Errorf("NaN boost: %v", n)
	}
}

func TestKAndTies(t *testing.T) {
	var docs []Doc
	var ids []uint32
	for i := 0; i < 10; i++ {
		ids = append(ids, uint32(100+7*i))
		docs = append(docs, doc("sameName", "", "", "", "", ""))
	}
	ids = append(ids, 500)
	docs = append(docs, doc("other", "", "", "", "", ""))
	ix, _ := build(t, DefaultParams(), ids, docs)
	if ix.NumDocs() != 11 || ix.DocLimit() != 501 {
		t.Fatalf("NumDocs %d DocLimit %d", ix.NumDocs(), ix.DocLimit())
	}
	s := NewSearcher(ix)
	for _, k := range []int{0, -1, 1, 3, 10, 50} {
		hs := s.Search([]QueryTerm{term("same")}, k)
		want := min(max(k, 0), 10)
		if len(hs) != want {
			t.Fatalf("k=%d: %d hits", k, len(hs))
		}
		for i, h := range hs {
			if h.Doc != ids[i] || h.Score != hs[0].Score {
				t.Fatalf("k=%d: tie order %v", k, hs)
			}
		}
	}
	// Repeated searches give identical results.
	first := append([]Hit(nil), s.Search([]QueryTerm{term("same"), term("name")}, 5)...)
	for i := 0; i < 3; i++ {
		if got := s.Search([]QueryTerm{term("same"), term("name")}, 5); !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d: %v, want %v", i, got, first)
		}
	}
}

func TestSearchEdgeCases(t *testing.T) {
	docs := filler(40)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	s := NewSearcher(ix)
	for _, q := range [][]QueryTerm{nil, {}, {term("")}, {term("no-such-term-anywhere")}} {
		if hs := s.Search(q, 10); len(hs) != 0 || s.Err() != nil {
			t.Errorf("%v: %v %v", q, hs, s.Err())
		}
	}
	var nilS = NewSearcher(nil)
	if hs := nilS.Search([]QueryTerm{term("x")}, 3); len(hs) != 0 {
		t.Errorf("nil index: %v", hs)
	}
	// Duplicated query terms count twice.
	one, _ := search(ix, 3, term(ix.ExpandPrefix("", nil, 1)[0]))
	two, _ := search(ix, 3, term(ix.ExpandPrefix("", nil, 1)[0]), term(ix.ExpandPrefix("", nil, 1)[0]))
	if len(one) == 0 || two[0].Score != 2*one[0].Score {
		t.Errorf("duplicate terms: %v %v", one, two)
	}
}

func TestEmptyIndex(t *testing.T) {
	ix, _ := build(t, DefaultParams(), nil, nil)
	if ix.NumDocs() != 0 || ix.NumTerms() != 0 {
		t.Fatalf("NumDocs %d NumTerms %d", ix.NumDocs(), ix.NumTerms())
	}
	if hs := NewSearcher(ix).Search([]QueryTerm{term("x")}, 5); len(hs) != 0 {
		t.Fatal(hs)
	}
	if got := ix.ExpandPrefix("", nil, 5); len(got) != 0 {
		t.Fatal(got)
	}
	// Documents with no terms at all.
	ix, _ = build(t, DefaultParams(), []uint32{3, 9}, []Doc{{}, {}})
	if ix.NumDocs() != 2 || ix.DocLimit() != 10 {
		t.Fatalf("NumDocs %d DocLimit %d", ix.NumDocs(), ix.DocLimit())
	}
}

func TestBuilderErrors(t *testing.T) {
	b := NewBuilder(DefaultParams())
	b.Add(5, &Doc{})
	b.Add(5, &Doc{})
	if _, err := b.Finish(); err == nil {
		t.Error("duplicate id accepted")
	}
	b = NewBuilder(DefaultParams())
	b.Add(5, &Doc{})
	b.Add(4, &Doc{})
	if _, err := b.Finish(); err == nil {
		t.Error("decreasing id accepted")
	}
	b = NewBuilder(DefaultParams())
	b.Add(math.MaxUint32, &Doc{})
	if _, err := b.Finish(); err == nil {
		t.Error("id 2^32-1 accepted")
	}
	b = NewBuilder(DefaultParams())
	b.Add(1, nil)
	if _, err := b.Finish(); err != nil {
		t.Error(err)
	}
	b.Add(2, nil)
	if _, err := b.Finish(); err == nil {
		t.Error("Add after Finish accepted")
	}
	b = NewBuilder(DefaultParams())
	b.Add(3, nil)
	b.Index()
	b.Add(2, nil)
	if _, err := b.Finish(); err == nil {
		t.Error("an id below one indexed before accepted")
	}
	for _, p := range []Params{
		{K1: -1, B: 0.5},
		{K1: 1, B: 1.5},
		{K1: float32(math.NaN()), B: 0.5},
		{K1: 1, B: 0.5, Weights: [NumFields]float32{-1}},
		{K1: 1, B: 0.5, Weights: [NumFields]float32{float32(math.Inf(1))}},
	} {
		if _, err := NewBuilder(p).Finish(); err == nil {
			t.Errorf("params %+v accepted", p)
		}
	}
}

// randomDocs returns n documents with increasing ids with gaps, drawn from a
// small vocabulary so that terms repeat across documents and fields.
func randomDocs(seed uint64, n int) ([]uint32, []Doc) {
	c := newCorpus(seed, 150)
	docs := c.docs(n)
	r := rand.New(rand.NewPCG(seed, 1))
	ids := make([]uint32, n)
	id := uint32(r.IntN(3))
	for i := range ids {
		ids[i] = id
		id += 1 + uint32(r.IntN(3))
	}
	// Some documents straddle a roaring container boundary.
	if n > 10 {
		ids[n-1] = 1<<16 + 5 + uint32(n)
		ids[n-2] = 1<<16 - 1
	}
	return ids, docs
}

// checkAgainstRef compares a search with the brute-force model.
func checkAgainstRef(t *testing.T, s *Searcher, ref *refIndex, q []QueryTerm, k int) {
	t.Helper()
	hs := s.Search(q, k)
	if err := s.Err(); err != nil {
		t.Fatalf("%v: %v", q, err)
	}
	sc := ref.scores(q)
	want := refTop(sc, k)
	if len(hs) != len(want) {
		t.Fatalf("%v k=%d: %d hits, want %d\n got %v\nwant %v", q, k, len(hs), len(want), hs, want)
	}
	tol := func(x float64) float64 { return 1e-4*math.Abs(x) + 1e-6 }
	for i, h := range hs {
		r, ok := sc[h.Doc]
		if !ok {
			t.Fatalf("%v: hit %d (doc %d) does not match", q, i, h.Doc)
		}
		if math.Abs(float64(h.Score)-r) > tol(r) {
			t.Fatalf("%v: doc %d score %v, want %v", q, h.Doc, h.Score, r)
		}
		if i > 0 && worse(hs[i-1], h) {
			t.Fatalf("%v: hits out of order: %v", q, hs)
		}
	}
	if len(hs) == k && k > 0 {
		// No document left out scores clearly better than the last hit.
		last := float64(hs[len(hs)-1].Score)
		in := map[uint32]bool{}
		for _, h := range hs {
			in[h.Doc] = true
		}
		for d, r := range sc {
			if !in[d] && r > last+tol(last) {
				t.Fatalf("%v: doc %d (%v) left out, last hit %v", q, d, r, last)
			}
		}
	}
}

func TestRoundTripAgainstBruteForce(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		ids, docs := randomDocs(seed, 400)
		p := DefaultParams()
		if seed == 3 {
			p = Params{K1: 2, B: 0.3, Weights: [NumFields]float32{1, 0, 2, 0.5, 7, 1}}
		}
		ix, _ := build(t, p, ids, docs)
		ref := newRef(p, ids, docs)
		if ix.NumTerms() != len(ref.vocab) {
			t.Fatalf("NumTerms %d, want %d", ix.NumTerms(), len(ref.vocab))
		}
		if ix.Params() != p {
			t.Fatalf("Params %+v, want %+v", ix.Params(), p)
		}
		s := NewSearcher(ix)
		r := rand.New(rand.NewPCG(seed, 2))
		// Every term alone, with every document: all postings are found.
		for _, tm := range ref.vocab {
			masks := []uint8{0, uint8(1 << r.IntN(NumFields)), uint8(r.IntN(64))}
			for _, m := range masks {
				checkAgainstRef(t, s, ref, []QueryTerm{{Text: tm, Fields: m}}, len(docs)+1)
			}
			if got, want := ix.DocFreq(tm), len(ref.terms[tm].docs); got != want {
				t.Fatalf("DocFreq(%q) = %d, want %d", tm, got, want)
			}
		}
		// Random multi-term queries, small k (pruning) and large k.
		for i := 0; i < 300; i++ {
			var q []QueryTerm
			for n := 1 + r.IntN(4); n > 0; n-- {
				qt := QueryTerm{Text: ref.vocab[r.IntN(len(ref.vocab))]}
				if r.IntN(4) == 0 {
					qt.Fields = uint8(r.IntN(64))
				}
				if r.IntN(4) == 0 {
					qt.Boost = 0.5 + r.Float32()*3
				}
				q = append(q, qt)
			}
			checkAgainstRef(t, s, ref, q, []int{1, 5, 20, 1000}[r.IntN(4)])
		}
	}
}

// TestPruningIsExact checks that the MaxScore cut never changes a result:
// pruned and exhaustive searches agree bit for bit.
func TestPruningIsExact(t *testing.T) {
	c := newCorpus(11, 400)
	docs := c.docs(30_000)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	a, b := NewSearcher(ix), NewSearcher(ix)
	b.exhaustive = true
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 400; i++ {
		q := c.query(1 + r.IntN(5))
		if r.IntN(3) == 0 {
			q[0].Boost = 4
		}
		if r.IntN(5) == 0 {
			q[len(q)-1].Fields = 1<<FieldName | 1<<FieldDoc
		}
		k := []int{1, 3, 10, 20, 64}[r.IntN(5)]
		x := append([]Hit(nil), a.Search(q, k)...)
		y := b.Search(q, k)
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%v k=%d:\npruned     %v\nexhaustive %v", q, k, x, y)
		}
	}
}

func TestExpandPrefix(t *testing.T) {
	ids, docs := randomDocs(4, 300)
	ix, _ := build(t, DefaultParams(), ids, docs)
	ref := newRef(DefaultParams(), ids, docs)
	for _, prefix := range []string{"", "a", "b", "ge", "zz", "\xff", "nosuchprefix"} {
		var want []string
		for _, v := range ref.vocab {
			if strings.HasPrefix(v, prefix) {
				want = append(want, v)
			}
		}
		for _, max := range []int{0, 1, 5, 1 << 20} {
			got := ix.ExpandPrefix(prefix, []string{"x"}, max)
			w := want
			if len(w) > max {
				w = w[:max]
			}
			if !reflect.DeepEqual(got[1:], w) && !(len(got) == 1 && len(w) == 0) {
				t.Errorf("ExpandPrefix(%q, %d) = %q, want %q", prefix, max, got[1:], w)
			}
			if got[0] != "x" {
				t.Errorf("dst not kept")
			}
		}
	}
	if !sort.StringsAreSorted(ix.ExpandPrefix("", nil, 1<<20)) {
		t.Error("not in key order")
	}
}

func TestAllocs(t *testing.T) {
	c := newCorpus(21, 800)
	docs := c.docs(20_000)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	var qs [][]QueryTerm
	for i := 0; i < 32; i++ {
		qs = append(qs, c.query(3))
	}
	s := NewSearcher(ix)
	for _, q := range qs { // warm-up: grow the searcher's slices
		s.Search(q, 20)
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		s.Search(qs[i%len(qs)], 20)
		i++
	})
	if allocs != 0 {
		t.Fatalf("Search allocates %v times per call", allocs)
	}
}

func TestConcurrentSearchers(t *testing.T) {
	c := newCorpus(31, 300)
	docs := c.docs(5_000)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	var qs [][]QueryTerm
	var want [][]Hit
	s := NewSearcher(ix)
	for i := 0; i < 50; i++ {
		q := c.query(2)
		qs = append(qs, q)
		want = append(want, append([]Hit(nil), s.Search(q, 10)...))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := NewSearcher(ix)
			for rep := 0; rep < 5; rep++ {
				for i, q := range qs {
					if got := s.Search(q, 10); !reflect.DeepEqual(got, want[i]) {
						errs <- fmt.Errorf("query %d differs", i)
						return
					}
					ix.DocFreq(q[0].Text)
					ix.ExpandPrefix(q[0].Text[:1], nil, 3)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestOpenErrors(t *testing.T) {
	ids, docs := randomDocs(5, 50)
	_, enc := build(t, DefaultParams(), ids, docs)
	check := func(name string, terms, postings, stats []byte) {
		t.Helper()
		if _, err := Open(terms, postings, stats); err == nil {
			t.Errorf("%s: Open succeeded", name)
		} else if !errors.Is(err, ErrCorrupt) && !strings.Contains(err.Error(), "version") {
			t.Errorf("%s: %v does not wrap ErrCorrupt", name, err)
		}
	}
	check("no stats", enc.Terms, enc.Postings, nil)
	check("short terms", enc.Terms[:len(enc.Terms)-1], enc.Postings, enc.Stats)
	check("short postings", enc.Terms, enc.Postings[:len(enc.Postings)-1], enc.Stats)
	check("swapped", enc.Postings, enc.Terms, enc.Stats)
	st := append([]byte(nil), enc.Stats...)
	st[offVersion] = 9
	check("version", enc.Terms, enc.Postings, st)
	st = append([]byte(nil), enc.Stats...)
	st[offNumDocs] ^= 1
	check("stats bit flip", enc.Terms, enc.Postings, st)
}

// TestAppendTermDocs checks the documents of every term and field against
// the documents' tokens.
func TestAppendTermDocs(t *testing.T) {
	c := newCorpus(5, 60)
	docs := c.docs(3000)
	b := NewBuilder(DefaultParams())
	want := map[string]map[Field][]uint32{}
	for i := range docs {
		id := uint32(3 * i)
		b.Add(id, &docs[i])
		for f := Field(0); f < NumFields; f++ {
			for _, tok := range AppendTokens(nil, docs[i].Fields[f]) {
				if !indexed(f, tok) {
					continue
				}
				m := want[tok]
				if m == nil {
					m = map[Field][]uint32{}
					want[tok] = m
				}
				if l := m[f]; len(l) == 0 || l[len(l)-1] != id {
					m[f] = append(l, id)
				}
			}
		}
	}
	enc, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
	if err != nil {
		t.Fatal(err)
	}
	for tok, m := range want {
		v, ok, err := ix.dict.Get(tok)
		if !ok || err != nil {
			t.Fatalf("term %q missing", tok)
		}
		for f := Field(0); f < NumFields; f++ {
			got, ok := ix.appendFieldDocs(v, f, nil)
			if !ok || !slices.Equal(got, m[f]) {
				t.Fatalf("term %q field %d: %v %v, want %v", tok, f, ok, got, m[f])
			}
			got, found := ix.AppendTermDocs(tok, f, nil)
			if !found || !slices.Equal(got, m[f]) {
				t.Fatalf("AppendTermDocs(%q, %d): %v %v, want %v", tok, f, found, got, m[f])
			}
		}
	}
	if got, found := ix.AppendTermDocs("nosuchterm", FieldName, nil); found || len(got) != 0 {
		t.Fatalf("AppendTermDocs of a missing term: %v %v", found, got)
	}
}

// TestQNamePathNotIndexed: a qualified name's whole-path term names one
// symbol; it is not indexed, its parts are, and paths in other fields are.
func TestQNamePathNotIndexed(t *testing.T) {
	docs := append(filler(10),
		doc("Serve", "", "net/http.Server.Serve", "", "", "see net/http.Server.Serve"),
	)
	ix, _ := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	if n := ix.DocFreq("net/http.server.serve"); n != 1 {
		t.Errorf("doc-field path term: DocFreq %d, want 1", n)
	}
	hs, _ := search(ix, 5, QueryTerm{Text: "net/http.server.serve", Fields: 1 << FieldQName})
	if len(hs) != 0 {
		t.Errorf("qualified-name path term indexed: %v", hs)
	}
	hs, _ = search(ix, 5, QueryTerm{Text: "http", Fields: 1 << FieldQName})
	if got := docIDs(hs); !reflect.DeepEqual(got, []uint32{10}) {
		t.Errorf("qualified-name part: got %v, want [10]", got)
	}
}

// TestTrickyTextAgainstRef: the builder tokenizes a unit at a time and
// each distinct segment once; on text full of the tokenizer's edge cases,
// repeated across documents and fields, its index still holds exactly
// the terms, frequencies and lengths of AppendTokens.
func TestTrickyTextAgainstRef(t *testing.T) {
	var docs []Doc
	for i, a := range trickyTexts {
		for j, b := range trickyTexts {
			var d Doc
			for f := range d.Fields {
				d.Fields[f] = []string{a, b, a + " " + b, ""}[(i+j+f)%4]
			}
			docs = append(docs, d)
		}
	}
	ids := seqIDs(len(docs))
	ix, _ := build(t, DefaultParams(), ids, docs)
	ref := newRef(DefaultParams(), ids, docs)
	if ix.NumTerms() != len(ref.vocab) {
		t.Fatalf("NumTerms %d, want %d", ix.NumTerms(), len(ref.vocab))
	}
	s := NewSearcher(ix)
	for _, tm := range ref.vocab {
		checkAgainstRef(t, s, ref, []QueryTerm{{Text: tm}}, len(docs)+1)
		for f := range NumFields {
			checkAgainstRef(t, s, ref, []QueryTerm{{Text: tm, Fields: 1 << f}}, len(docs)+1)
		}
	}
}

// TestBuildIndependentOfWorkers: Finish tokenizes on GOMAXPROCS workers;
// the encoded index is the same bytes for any number of them.
func TestBuildIndependentOfWorkers(t *testing.T) {
	docs := newCorpus(7, 6000).docs(30000)
	var want *Encoded
	for _, procs := range []int{1, 2, 3, 5} {
		old := runtime.GOMAXPROCS(procs)
		b := NewBuilder(DefaultParams())
		for i := range docs {
			b.Add(uint32(2*i+1), &docs[i])
		}
		enc, err := b.Finish()
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = enc
			ix, err := Open(enc.Terms, enc.Postings, enc.Stats)
			if err != nil {
				t.Fatal(err)
			}
			if ix.NumTerms() < 5*4096 {
				t.Fatalf("%d terms: too few for several encoding workers", ix.NumTerms())
			}
			continue
		}
		if !bytes.Equal(enc.Terms, want.Terms) || !bytes.Equal(enc.Postings, want.Postings) || !bytes.Equal(enc.Stats, want.Stats) {
			t.Fatalf("GOMAXPROCS %d: the index differs from one worker's", procs)
		}
	}
}

// Grow is a capacity hint: an index built after it, with fewer or more
// documents than hinted, is the same bytes.
func TestGrowSameIndex(t *testing.T) {
	docs := filler(300)
	_, want := build(t, DefaultParams(), seqIDs(len(docs)), docs)
	for _, hint := range []int{0, 10, 300, 5000} {
		b := NewBuilder(DefaultParams())
		b.Grow(hint)
		for i := range docs {
			b.Add(uint32(i), &docs[i])
		}
		got, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Grow(%d): the index differs from one built without it", hint)
		}
	}
}

// TestIndexThenFinish: calling Index before Finish, once or between
// batches of Adds, changes nothing in the encoding, for index sizes on
// either side of the multi-worker threshold, and with batches that leave
// a tail of a few documents, as the snapshot writer's external nodes do.
func TestIndexThenFinish(t *testing.T) {
	for _, n := range []int{0, 1, 300, 3000} {
		docs := newCorpus(11, benchParts).docs(n)
		want, err := buildDocs(docs)
		if err != nil {
			t.Fatal(err)
		}
		for _, cuts := range [][]int{{n}, {n / 2, n}, {n - min(n, 7), n}, {n / 3, n / 3, 2 * n / 3}} {
			b := NewBuilder(DefaultParams())
			added := 0
			for _, c := range cuts {
				for ; added < c; added++ {
					b.Add(uint32(added), &docs[added])
				}
				b.Index()
			}
			b.Index() // nothing new: does nothing
			for ; added < n; added++ {
				b.Add(uint32(added), &docs[added])
			}
			got, err := b.Finish()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Terms, want.Terms) || !bytes.Equal(got.Postings, want.Postings) || !bytes.Equal(got.Stats, want.Stats) {
				t.Fatalf("%d documents indexed in batches up to %v: encodes differently from Finish alone", n, cuts)
			}
		}
	}
}

// TestRoaringLowerBound: the bound the encoder uses to skip building a
// bitmap is never above the bitmap's serialized size, for sparse, dense,
// run-heavy and multi-container sets.
func TestRoaringLowerBound(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	bm := roaring.New()
	for round := 0; round < 3000; round++ {
		var ids []uint32
		span := uint32(1) << (4 + r.IntN(20))
		n := 1 + r.IntN(3000)
		runny := r.IntN(3) == 0
		for len(ids) < n {
			x := r.Uint32N(span) + uint32(r.IntN(4))<<16
			if runny {
				for k := r.IntN(50); k > 0 && len(ids) < n; k-- {
					ids = append(ids, x)
					x++
				}
				continue
			}
			ids = append(ids, x)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		bm.Clear()
		bm.AddMany(ids)
		bm.RunOptimize()
		if lb, rs := roaringLowerBound(ids), bm.GetSerializedSizeInBytes(); lb > rs {
			t.Fatalf("%d ids over %d: bound %d above the serialized %d", len(ids), span, lb, rs)
		}
	}
}
