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
// stored quantized (see below) and a query adds the stored values, in
// float32, in an order fixed by the query and the index:
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
// All integers are little-endian. "uvarint" is encoding/binary's unsigned
// varint. "bf16" is a bfloat16: the top 16 bits of an IEEE float32, rounded
// to nearest even. Document ids are the caller's uint32 ids.
//
// Stats (132 bytes, fixed):
//
//	off  size  field
//	  0     4  magic "BM25"
//	  4     4  format version, 2
//	  8     4  number of documents
//	 12     4  document id limit: largest id + 1 (0 when empty)
//	 16     4  number of terms (keys in the Terms FST)
//	 20     4  flags, 0 (reserved)
//	 24     8  length of Terms in bytes
//	 32     8  length of Postings in bytes
//	 40     4  k1 (float32)
//	 44     4  b (float32)
//	 48    24  field weights w_f, 6 × float32, in Field order
//	 72    24  avglen_f, 6 × float32
//	 96    24  N_f, 6 × uint32
//	120     4  CRC-32C (Castagnoli) of Terms
//	124     4  CRC-32C of Postings
//	128     4  CRC-32C of Stats bytes 0..127
//
// Terms is a vellum FST (github.com/blevesearch/vellum, format v1: 16-byte
// header, states, 16-byte footer) with one key per distinct term, the
// term's bytes, in byte order. Its uint64 value is either
//
//	bit 63 = 1: one inline posting — the term occurs in one document and one
//	            field: bits 0..31 document id, bits 32..47 impact as bf16,
//	            bits 48..50 field, bits 51..62 zero; or
//	bit 63 = 0: the byte offset of the term's record in Postings.
//
// Postings is the concatenation of term records, in key order, with no
// header or padding. A record starts with a flags byte: bits 0..5 are the
// mask of fields where the term occurs (never 0), bit 6 says a combined list
// is present, bit 7 marks a singleton, a term that occurs in exactly one
// document:
//
//	flags     1 byte   0x80 | field mask
//	doc       uvarint  document id
//	impacts   2 bytes per field in the mask, ascending field order: bf16
//
// Any other term's record is
//
//	flags     1 byte   field mask, | 0x40 when the mask has two or more fields
//	df        uvarint  documents containing the term in any field (≥ 2)
//	then, if bit 6 is set, the combined list, whose impact for a document is
//	Σ_f w_f · impact_f over the fields where the document has the term;
//	then, for each field in the mask in ascending order, that field's list.
//
// A list is
//
//	scale     4 bytes  float32: the list's largest impact / 255
//	n         uvarint  number of documents in the list (≥ 1)
//	dlen      uvarint  length of the ids in bytes << 2 | uniform << 1 | kind
//	ids       dlen>>2 bytes, the list's document ids, ascending:
//	          kind 0, packed: n uvarints, the first id, then each id minus
//	                  the previous one minus 1;
//	          kind 1, roaring: a roaring bitmap in the portable
//	                  serialization format (RoaringFormatSpec; written by
//	                  github.com/RoaringBitmap/roaring/v2 after RunOptimize,
//	                  so array, bitmap and run containers all occur)
//	q         n bytes  quantized impacts in increasing document order:
//	                   round(impact / largest · 255), at least 1 for a
//	                   non-zero impact (0 only in a combined list whose
//	                   weights are all zero, whose scale is then 0);
//	                   absent when uniform is 1: every q is then 255
//	                   (n ≤ 256)
//
// The writer packs a list of at most 4,096 documents when that is no
// larger than its roaring bitmap (a bitmap costs at least 18 bytes, so every
// short list is packed), and writes longer lists as roaring bitmaps, whose
// containers a query adds faster than it decodes uvarints. Readers accept
// either kind at any length. A list whose impacts all quantize to 255 (the
// same weight in every document of the list, common in short lists) is
// written uniform, without its q bytes.
//
// A query term costs one FST lookup plus, unless the term is inline, a
// sequential read of its record; lists a query does not use are skipped by
// their lengths. The combined list makes an all-fields query read each
// matching document once instead of once per field, for about 45% more
// Postings bytes.
//
// On the benchmark's synthetic corpus (250,000 code-like documents, 397,000
// distinct terms) Terms is 6.5 MB and Postings 23.6 MB (27.9 MB in format
// 1, where every list was a roaring bitmap). On the Go standard library
// (237,000 nodes) Postings is 11.0 MB, down from 15.0 MB in format 1.
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
// never panics. internal/fst writes Terms, in vellum's encoding, and reads
// them: it checks every state it decodes, allocates nothing and ends on
// any bytes.
// Verify checks the section CRCs and every record and bitmap strictly;
// callers whose bytes are not already checksummed should run it once after
// Open.
package bm25
