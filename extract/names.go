package extract

import "strings"

// Helpers for the names extractors read and write: dotted names (a
// qualifier and a name, as JoinName makes them) and the word lists a
// language keeps of its builtins and keywords.

// SplitName splits a dotted name at its last dot: "a.b.c" gives "a.b" and
// "c"; a name without a dot gives "" and the name. It undoes JoinName.
func SplitName(s string) (qual, name string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// FirstName is the part of a dotted name before its first dot: "a" of
// "a.b.c".
func FirstName(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return s
}

// LastName is the part of a dotted name after its last dot: "c" of
// "a.b.c".
func LastName(s string) string {
	_, name := SplitName(s)
	return name
}

// WordSet is the set of the words given; an argument may hold several,
// separated by white space:
//
//	var keywords = WordSet("if else", "for", `while
//	break continue`)
func WordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		for _, f := range strings.Fields(w) {
			m[f] = true
		}
	}
	return m
}
