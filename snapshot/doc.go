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
// # Freshness
//
// A snapshot records the stamps of the tree its build read: each file's
// modification time and content [Fingerprint], the folders walked, the
// manifests and ignore files read. [Snapshot.Stale] compares the
// repository with them by stat calls, within a time budget, and reports
// the files changed, added and removed since; [Snapshot.CheckFile] checks
// one file. Neither is part of Open, which stays O(1).
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
// # What it owns
//
// The file and everything in it but three encodings: the header and
// section table, the node and file records, the strings, the name and part
// indexes, the cold signatures and docs, the metadata, the stamps and the
// staleness check (which walks with internal/fswalk), and the model they
// record (Kind, Lang, Flags, EdgeType, PackAttr). The graph sections are
// encoded by package csr, the BM25 sections by package bm25 (this package
// builds the documents and reads the index only through bm25's API), and
// the FSTs by internal/fst. It must not import the packages above it
// (walk, query, cmd/knowing) nor extract, and nothing that needs cgo.
//
// # Format
//
// FORMAT.md in this package's folder is the normative, byte-by-byte
// description of the file, with its version history and compatibility
// policy.
package snapshot
