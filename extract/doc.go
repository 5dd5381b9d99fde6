// Package extract parses a repository with tree-sitter and compiles its
// symbols and relations into a snapshot.Graph, ready for snapshot.Write.
//
// Work happens in three steps. The repository walk (package fswalk) lists
// source files, honouring .gitignore. Each file is parsed on a pool of
// workers, one tree-sitter parser per language per worker, and a language
// extractor turns the tree into a FileResult: declarations with their
// nesting and unresolved references. Finally the resolver, which knows no
// language's syntax, gives every symbol a qualified name and resolves
// references by scope: the enclosing type and its bases, the file, the
// package, imported names, typed receivers; a name it cannot place is left
// out rather than guessed.
//
// A syntax error in one file never fails the build: tree-sitter recovers,
// and what parsed is kept.
//
// # What the package owns
//
// The build from a folder to a graph: walking (through fswalk), parsing
// (tree-sitter, through cgo), the extractor base every language embeds
// (Base over a FlatTree), the language-neutral resolver, and the
// snapshot.Graph it hands to package snapshot, which writes it. It imports
// snapshot for the graph's types and nothing of the reader side: never
// walk, query or cmd. In turn nothing below cmd imports extract, so the
// reader builds without cgo.
//
// # Files
//
// The build:
//
//	registry.go  Language, Register and File; the extension and grammar tables, Extensions, Supported
//	build.go     Options, Stats, Build, BuildIncremental and ExtractFiles; the parse workers and their scratch buffers
//	incremental.go Prior: what a build leaves for the next; which files an incremental build keeps; a Repo per language
//	deps.go      what extraction asks of the file system and is told, the answers an incremental build checks
//	prior_codec.go a Prior's bytes, kept between runs of knowing build
//	stamps.go    the stamps the staleness check compares the tree with: folders walked, files read
//	git.go       the commit the work tree has checked out, read without following HEAD out of .git; whether it is dirty
//	limits.go    MaxNesting: symbols nested deeper are left out
//	parse.go     ParseSource (tree-sitter on the bytes in place) and ParseLang (parsers kept for reuse)
//	alloc.go     points tree-sitter's allocator at the C library's
//	cputime_*.go ProcessCPU, for the phase timings in Stats
//
// What extractors use:
//
//	base.go      Base, embedded by every extractor: the file, its FlatTree, the FileResult; JoinName
//	flat.go      FlatTree: a parsed tree copied into Go memory, nodes addressed by int32 index
//	model.go     FileResult, Symbol, Ref, Import: what an extractor hands the resolver
//	names.go     dotted names (SplitName, FirstName, LastName), word sets, field ids and kind codes
//	decls.go     reading declarations: children of a kind (OfKind), HeadEnd, TextLine, one-line signatures
//	repo.go      Repo: folder and manifest lookups, Memo, ReadMeta; test, example and generated files
//	roles.go     test doubles by a file's role (IsMockName), organisation folders, roles that are a project's name
//	modules.go   Repo.ListDir and MemoMap, for the caches a language's module resolution keeps
//	helpers.go   comments, signatures, first lines, the exported flag
//
// The resolver, one file per phase, in the order resolve runs them:
//
//	resolve.go         Resolve, the resolver's tables, adding nodes and edges
//	resolve_declare.go package, file and symbol nodes, qualified names, methods attached to receivers
//	resolve_index.go   the lookup tables (qualified name, name, scope, members) and member lookup through bases
//	resolve_bases.go   type names to types; extends and implements edges
//	resolve_refs.go    every reference resolved on all cores, edges added file by file
//	resolve_calls.go   what a call names: receivers, call and field chains, a name unique in the repository
//	resolve_imports.go imports edges, names imported into a file, types outside the repository
//	resolve_inherit.go inherits and overrides edges; Go's structural implements
//	resolve_tests.go   test flags, tests and tested_by edges
//	resolve_includes.go C and C++: declarations merged into definitions, methods
//	                   attached to their classes, #include edges and the names
//	                   a file sees through them (run before declare, after
//	                   attachReceivers and after index)
//
// # Languages
//
// Each language is a sub-package that registers itself from init: golang,
// python, javascript (JavaScript and TypeScript), java, csharp, ruby, rust
// and cfamily (C and C++). Package langs imports them all; import it for its side effect.
// Package internal/fswalk walks the repository; package extracttest
// builds the test repositories under testdata/ for tests.
//
// A new language:
//
//   - has a snapshot.Lang, and its grammars in registry.go's grammar table;
//   - embeds Base in its extractor, which fills a FileResult per file, and
//     keeps what it works out once per repository with Memo;
//   - registers a Language (its extensions, Extract and how its names
//     resolve) with Register from init;
//   - is imported by extract/langs;
//   - has a test repository testdata/<lang> and its golden graph
//     testdata/golden/<lang>.golden, listed in extract/langs's golden test
//     and written with go test ./extract/... -run Golden -update.
package extract
