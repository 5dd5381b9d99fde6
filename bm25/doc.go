// Package bm25 is a multi-field BM25 index whose postings are read in place
// from borrowed bytes (a memory-mapped snapshot), with no allocation per
// query once a Searcher is warm.
//
// # Use
//
// A Builder takes documents (six text fields each, ids increasing) and
// Finish encodes them into three byte sections, Terms, Postings and Stats.
// Open views those sections without copying or decoding them; an Index is
// immutable and shared by all goroutines, and each goroutine queries through
// its own Searcher, a reusable workspace. Query terms are strings as
// AppendTokens produces them, each with an optional field mask and boost.
// AppendTermDocs lists the documents whose given field holds a term (the
// snapshot package answers name-part lookups with it).
//
// # Scoring
//
// Each field is scored as its own BM25 collection. For term t, field f and
// document d with term frequency tf (occurrences of t among the tokens of
// field f of d) and field length len (number of tokens of that field):
// every token counts toward len, but the whole-path token of the
// qualified-name field (net/http.server.serve) gets no posting, since it
// names a single symbol that the snapshot's name index finds exactly.
//
//	idf_f(t) = ln(1 + (N_f − df_f(t) + 0.5) / (df_f(t) + 0.5))
//	impact   = idf_f(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen_f))
//	score(d) = Σ over query terms, Σ over selected fields: impact · w_f · boost
//
// where N_f is the number of documents whose field f is non-empty, df_f(t)
// the number of those containing t in f, avglen_f their mean field length.
// Because the collection is immutable, impacts are computed at build time,
// so k1 and b are build-time parameters; they and the field weights w_f are
// recorded in Stats, and queries use the recorded weights. Impacts are
// stored quantized (a byte per posting times a scale per list, or a bf16
// for a term in one document: see FORMAT.md) and a query adds the stored
// values, in float32, in an order fixed by the query and the index:
//
//   - a term that occurs in one document contributes Σ_f bf16_f·w_f, summed
//     in field order over the selected fields, times boost;
//   - a list posting contributes float32(q) · (scale · w_f · boost) for a
//     field list and float32(q) · (scale · boost) for a combined list (whose
//     impacts already include the weights), which a query uses whenever its
//     mask selects every field the term occurs in.
//
// # Encoding
//
// Terms, Postings and Stats are the snapshot's bm25.terms, bm25.postings
// and bm25.stats sections, specified byte by byte, with the format's
// version history, in snapshot/FORMAT.md (format.go holds the constants).
// In short: Terms is an FST from each term to an inline posting or the
// offset of its record in Postings; a record holds a list of documents and
// quantized impacts per field, and for common multi-field terms a
// combined list; Stats holds the counts, the parameters, the field
// statistics and the CRC-32C of all three sections.
//
// # Query evaluation
//
// A Searcher adds postings term-at-a-time into a dense score array and
// ranks the scored documents with a bounded heap. Posting lists are taken
// in decreasing order of their largest contribution, and once the k-th best
// score exceeds what the remaining lists could add, those lists only update
// documents that can still reach the top k (an exact MaxScore cut: the
// result is that of exhaustive evaluation). See Searcher.Search.
//
// # Integrity
//
// Open checks the Stats section (magic, version, its CRC, value ranges), that
// the section lengths match Stats and that the FST header and footer load;
// that costs the same for any index size. Search checks every length,
// offset, document id and impact it reads; on malformed bytes it stops,
// ranks what it has and reports the problem through Searcher.Err, and it
// never panics. internal/fst writes and reads Terms: it checks every
// state it decodes, allocates nothing and ends on any bytes. Verify checks
// the section CRCs and every record and bitmap strictly; callers whose
// bytes are not already checksummed should run it once after Open. Every
// error about malformed bytes wraps ErrCorrupt.
//
// # What it owns
//
// The tokenizer (AppendTokens), the scoring, the encoding of the three
// sections and their readers. Document ids are the caller's. Beyond the
// standard library it imports internal/fst and the roaring library only,
// and must not import csr, snapshot or any package above them.
package bm25
