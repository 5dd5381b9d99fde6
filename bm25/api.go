package bm25

// This file holds the exported types of the API contract that the snapshot
// package compiles against. Builder lives in build.go, Index in index.go,
// Searcher in search.go, AppendTokens in tokenize.go.

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

// allFields is the field mask with every field set.
const allFields = 1<<NumFields - 1

// Params are the BM25 parameters. K1 and B are applied at build time
// (impacts are precomputed); Weights scale each field's contribution. All
// three are stored in the Stats section; a query uses the stored ones.
type Params struct {
	K1, B   float32
	Weights [NumFields]float32
}

// DefaultParams: k1 1.2, b 0.75, field weights name 10, concepts 5, qname 3,
// signature 1, path 4, doc 3. EVAL.md records the alternatives tried:
// doc 5, or signature 2 with path 2, each lowered the dev set's P@10.
func DefaultParams() Params {
	return Params{K1: 1.2, B: 0.75, Weights: [NumFields]float32{10, 5, 3, 1, 4, 3}}
}

// Doc is one document's field texts.
type Doc struct{ Fields [NumFields]string }

// Encoded is a finished index as three byte sections, whose layout
// snapshot/FORMAT.md specifies.
type Encoded struct{ Terms, Postings, Stats []byte }

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
