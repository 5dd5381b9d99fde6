// Package snapshot writes and reads knowing's snapshot file: one file
// holding a whole extracted repository, read in place through a read-only
// memory mapping. Opening a snapshot costs the same whatever its size; no
// database and no decoding at open. The package is pure Go (it builds with
// CGO_ENABLED=0), so other tools can embed the reader.
//
// # Writing and reading
//
// The extractor builds a [Graph] and calls [Write], which compiles every
// section in memory and publishes the file atomically (temporary file in
// the same folder, fsync, rename). An extractor that completes its graph in
// steps can start the BM25 index, the costliest section, once the nodes'
// text is final ([StartTextIndex]) and hand it to Write. [Open] maps a file
// and checks its header and section table only; [Snapshot.Verify] checks
// every byte.
//
//	s, err := snapshot.Open(path)
//	...
//	defer s.Close()
//	for _, id := range s.LookupName("parsecommandline", nil) {
//		it := s.Neighbors(id, snapshot.Out)
//		for it.Next() {
//			fmt.Println(s.QName(id), it.Type(), s.QName(it.Node()))
//		}
//	}
//
// # Concurrency and lifetimes
//
// A [Snapshot] is immutable and safe for concurrent use by any number of
// goroutines. Iterators ([KeyIter], [NeighborIter]) and bm25.Searcher
// workspaces belong to one goroutine each and are reused with Reset.
// Strings returned by Name, QName and FilePath, the key of a KeyIter, the
// graph and the BM25 index all point into the mapping: they do not
// allocate, and they are valid until Close. Node and File return copies
// that outlive Close. Signature and Doc decompress on demand (a small
// shared cache keeps recent blocks) and return strings independent of the
// mapping.
//
// Lookups, iteration, neighbour walks and the name and string accessors do
// not allocate (once an iterator's buffers have grown). Nothing panics on
// a corrupt file: every read goes through bounds-checked helpers, and
// corrupt data yields zero values, shortened results or [ErrCorrupt].
//
// # Format
//
// FORMAT.md in this package's folder is the normative, byte-by-byte
// description. In brief, all little-endian:
//
//	header    64 bytes: magic "KNOWSNAP", u32 version (2), u32 CRC-32C of
//	          header and table, u64 file length, u32 nodes, u32 files,
//	          u64 edges, u32 section count, u32 flags, reserved
//	table     per section: u32 id, u32 CRC-32C, u64 offset, u64 length
//	sections  8-byte aligned, zero padded:
//	  strings        names, qualified names, paths (deduplicated)
//	  files          24-byte records: path, size, language, flags
//	  nodes          24-byte records: qname, name length (the name is the
//	                 qname's tail), file, lines, signature length, kind,
//	                 language, flags
//	  graph.out/in   CSR adjacency (package csr); attr = PackAttr(type, conf)
//	  names.fst/ids  vellum FST: lower-cased name → node id or id list
//	  parts.fst/ids  vellum FST: lower-cased name part → node id or id list
//	                 (with BM25, only for nodes without a BM25 document:
//	                 the BM25 name field serves the others)
//	  bm25.*         the bm25 package's terms, postings and stats
//	  cold.index/data zstd blocks of signatures and docs; which nodes have
//	                 an entry (rank groups), so records need no reference
//	  meta           JSON: Meta, counts, BM25 parameters, section sizes
//
// A reader rejects a format version it does not know with a
// [*VersionError] (matching [ErrVersion]) asking for a rebuild with
// `knowing build`; it skips section ids it does not know.
package snapshot
