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
package extract
