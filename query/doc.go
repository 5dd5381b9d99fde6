// Package query turns a task in plain words into the code symbols that
// matter, ranked and packed into a token budget, over a memory-mapped
// snapshot.
//
// # The pipeline
//
// Engine.Query (engine.go) runs a task through these steps, in this
// order, one file each; read them in order to follow a task through the
// code. EVAL.md holds the measurements behind the choices, and the
// variants tried and dropped.
//
//  1. Task reading, keywords.go: ExtractKeywords reads exact names
//     (backticks), compounds, components, paths, the names the task
//     writes as code, and whether it is about tests or examples, with
//     the tokenizer of tokens.go and the word lists of vocabulary.go;
//     frames.go parses stack frames (Python, Java, Go, Ruby, C#,
//     JavaScript) and file:line positions. No index is needed.
//  2. Refinement against the index, refine.go (Engine.refine): words in
//     too many documents go, words nothing matches give their places to
//     the task's next words, and the acronyms, dotted names, stack frames
//     and file:line positions the index confirms become exact keywords.
//  3. Seed channels, each a ranked list (Engine.channels): tiered name
//     matching through the name FSTs, BM25 over the multi-field index
//     and path context (types in folders the task names), channels.go;
//     equivalence classes (concept phrases → symbol names), equiv.go;
//     graph-derived aliases, aliases.go; hashed character-trigram
//     vectors, off by default, vector.go.
//  4. Fusion, fusion.go (Engine.fuse): weighted reciprocal-rank fusion
//     (k = 60), then the implementors of matched interfaces and traits.
//  5. Seed selection, seeds.go (Engine.selectSeeds): noise filtering,
//     a seed count that grows with the graph, focus on the package with
//     most of the evidence, type seeds preferred on large graphs; what
//     the task writes as code is never demoted.
//  6. The walk, walk.go (Engine.walkFrom): random walk with restart
//     (forward push, alpha 0.2) from the seeds and, at low weight, the
//     path context; HITS on the top 200 walk nodes.
//  7. Scoring, score.go (Engine.score): blast radius (walk score),
//     confidence, recency (no data source yet: neutral), distance,
//     match, cover and HITS adjustments, weighted; the kind factors; the
//     penalty on tests, examples and benchmarks unless the task is about
//     them; member and type boosts.
//     With Options.Session, step 7b, session.go (Engine.sessionBoost):
//     the symbols earlier answers of the session returned are raised.
//  8. Packing, pack.go (Engine.pack): density packing into the token
//     budget, then doc summaries (summary.go) in what the budget leaves.
//
// Beside the steps: engine.go holds the Engine, its per-query workspace
// and the API types (Options, Item, Stats, Result); tuning.go the
// weights an engine ranks with (Tuning); trace.go the explanation of one
// symbol's score (Engine.Why).
//
// # Ownership and concurrency
//
// An Engine reads one open snapshot, which it does not own: the caller
// closes the snapshot after the last query. The Engine's Tuning is fixed
// when it is made (New, WithTuning). An Engine is safe for concurrent
// use; each query borrows a workspace (candidate bookkeeping over every
// node, reused across queries) from a pool. Results are deterministic:
// the same snapshot, tuning and task give the same ranking at any
// GOMAXPROCS.
//
// # Dependencies
//
// query is the reader side and stays pure Go (it builds with
// CGO_ENABLED=0). It imports snapshot, bm25 and walk (and csr through
// them), and the standard library; it must not import extract (the
// tree-sitter parsers, cgo), eval or cmd, and reads no environment:
// configuration comes in through New and Options.
package query
