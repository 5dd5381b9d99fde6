package bm25

import (
	"runtime"
	"sync"
	"testing"
)

const (
	benchDocs  = 250_000
	benchParts = 4000
)

var bench struct {
	once sync.Once
	docs []Doc
	enc  *Encoded
	ix   *Index
	qs   [][]QueryTerm
	err  error
}

func benchIndex(b *testing.B) {
	bench.once.Do(func() {
		c := newCorpus(42, benchParts)
		bench.docs = c.docs(benchDocs)
		bench.enc, bench.err = buildDocs(bench.docs)
		if bench.err != nil {
			return
		}
		bench.ix, bench.err = Open(bench.enc.Terms, bench.enc.Postings, bench.enc.Stats)
		for i := 0; i < 256; i++ {
			bench.qs = append(bench.qs, c.query(3))
		}
		runtime.GC() // do not bill the build's garbage to the first benchmark
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
}

func buildDocs(docs []Doc) (*Encoded, error) {
	bl := NewBuilder(DefaultParams())
	for i := range docs {
		bl.Add(uint32(i), &docs[i])
	}
	return bl.Finish()
}

func reportSizes(b *testing.B, enc *Encoded) {
	b.ReportMetric(float64(len(enc.Terms)), "terms-bytes")
	b.ReportMetric(float64(len(enc.Postings)), "postings-bytes")
	b.ReportMetric(float64(len(enc.Stats)), "stats-bytes")
}

// BenchmarkSearch3Terms runs 3-term queries for the top 20 over 250,000
// documents, all fields. Query terms are drawn from the corpus's own Zipf
// distribution of word parts, so frequent parts (in up to 60% of the
// documents) are frequent in queries too: a pessimistic mix.
func BenchmarkSearch3Terms(b *testing.B) {
	benchIndex(b)
	s := NewSearcher(bench.ix)
	for _, q := range bench.qs {
		s.Search(q, 20)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Search(bench.qs[i%len(bench.qs)], 20)
	}
	b.StopTimer()
	reportSizes(b, bench.enc)
	b.ReportMetric(float64(bench.ix.NumTerms()), "terms")
}

// BenchmarkSearch3TermsNameField is BenchmarkSearch3Terms restricted to
// FieldName, which reads the per-field lists instead of the combined ones.
func BenchmarkSearch3TermsNameField(b *testing.B) {
	benchIndex(b)
	qs := make([][]QueryTerm, len(bench.qs))
	for i, q := range bench.qs {
		qs[i] = append([]QueryTerm(nil), q...)
		for j := range qs[i] {
			qs[i][j].Fields = 1 << FieldName
		}
	}
	s := NewSearcher(bench.ix)
	for _, q := range qs {
		s.Search(q, 20)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Search(qs[i%len(qs)], 20)
	}
}

// BenchmarkBuild indexes the 250,000 synthetic documents (tokenizing
// included) and encodes them.
func BenchmarkBuild(b *testing.B) {
	benchIndex(b)
	b.ReportAllocs()
	b.ResetTimer()
	var enc *Encoded
	for i := 0; i < b.N; i++ {
		var err error
		if enc, err = buildDocs(bench.docs); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportSizes(b, enc)
}

// BenchmarkOpen measures Open on the 250,000-document index.
func BenchmarkOpen(b *testing.B) {
	benchIndex(b)
	e := bench.enc
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Open(e.Terms, e.Postings, e.Stats); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokenize tokenizes the fields of 1,000 synthetic documents.
func BenchmarkTokenize(b *testing.B) {
	benchTokenize(b, func(dst []string, text string) []string { return AppendTokens(dst, text) })
}

// BenchmarkTokenizeScratch is BenchmarkTokenize as the index builder
// tokenizes: lower-casing into a reused buffer.
func BenchmarkTokenizeScratch(b *testing.B) {
	var scratch []byte
	benchTokenize(b, func(dst []string, text string) []string { return appendTokensScratch(dst, text, &scratch) })
}

func benchTokenize(b *testing.B, tokenize func(dst []string, text string) []string) {
	docs := newCorpus(7, benchParts).docs(1000)
	var n int64
	for i := range docs {
		for _, f := range docs[i].Fields {
			n += int64(len(f))
		}
	}
	b.SetBytes(n)
	b.ReportAllocs()
	var toks []string
	for i := 0; i < b.N; i++ {
		for j := range docs {
			for _, f := range docs[j].Fields {
				toks = tokenize(toks[:0], f)
			}
		}
	}
}
