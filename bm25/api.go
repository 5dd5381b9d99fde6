// Package bm25 is a multi-field BM25 index whose postings are read in place
// from borrowed bytes. THIS FILE IS THE API CONTRACT; the bm25 owner replaces
// the bodies (and may split the file) but keeps these exported signatures.
package bm25

import "errors"

// Field is one text field of a document.
type Field uint8

const (
	FieldName      Field = iota // the symbol's own name
	FieldConcepts               // words of the file name and parent folder
	FieldQName                  // the qualified name
	FieldSignature              // the signature
	FieldPath                   // the file path
	FieldDoc                    // doc comment text
	NumFields      = 6
)

// Params are the BM25 parameters. K1 and B are applied at build time
// (impacts are precomputed); Weights scale each field's contribution.
type Params struct {
	K1, B   float32
	Weights [NumFields]float32
}

// DefaultParams: k1 1.2, b 0.75, field weights name 10, concepts 5, qname 3,
// signature 1, path 4, doc 3 (seed document's BM25 column weights).
func DefaultParams() Params {
	return Params{K1: 1.2, B: 0.75, Weights: [NumFields]float32{10, 5, 3, 1, 4, 3}}
}

// AppendTokens appends the index terms of text to dst.
func AppendTokens(dst []string, text string) []string { return dst }

// Doc is one document's field texts.
type Doc struct{ Fields [NumFields]string }

// Builder accumulates documents.
type Builder struct{}

// NewBuilder starts an index.
func NewBuilder(p Params) *Builder { return &Builder{} }

// Add indexes document id; ids must be added in increasing order.
func (b *Builder) Add(id uint32, d *Doc) {}

// Encoded is a finished index as three byte sections.
type Encoded struct{ Terms, Postings, Stats []byte }

// Finish encodes the index.
func (b *Builder) Finish() (*Encoded, error) { return nil, errors.New("bm25: not implemented") }

// Index is a read-only view over Encoded sections.
type Index struct{}

// Open views encoded sections without copying them.
func Open(terms, postings, stats []byte) (*Index, error) {
	return nil, errors.New("bm25: not implemented")
}

// NumDocs is the number of documents indexed.
func (ix *Index) NumDocs() int { return 0 }

// QueryTerm is one term of a query.
type QueryTerm struct {
	Text   string  // a term as AppendTokens produces it
	Fields uint8   // bit mask of fields to match (1<<Field); 0 means all
	Boost  float32 // multiplier; 0 means 1
}

// Hit is one scored document.
type Hit struct {
	Doc   uint32
	Score float32
}

// Searcher is a reusable per-goroutine workspace.
type Searcher struct{}

// NewSearcher makes a workspace for ix.
func NewSearcher(ix *Index) *Searcher { return &Searcher{} }

// Search returns the k best documents, best first.
func (s *Searcher) Search(q []QueryTerm, k int) []Hit { return nil }
