package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Helpers for the names extractors read and write: dotted names (a
// qualifier and a name, as JoinName makes them), the word lists a language
// keeps of its builtins and keywords, and the grammar's names of node
// kinds and fields turned into the ids a FlatTree holds.

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

// CommonPrefix is the longest dotted name that each of names (one at
// least) equals or starts with, in whole parts: that of "a.b.c" and
// "a.bc.d" is "a".
func CommonPrefix(names []string) string {
	p := names[0]
	for _, n := range names[1:] {
		for p != "" && n != p && !strings.HasPrefix(n, p+".") {
			p, _ = SplitName(p)
		}
	}
	return p
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

// FieldIDs sets each variable of ids to the grammar's id of the field its
// key names (0 for a name the grammar lacks):
//
//	FieldIDs(lang, map[string]*uint16{"name": &fName, "body": &fBody})
func FieldIDs(lang *sitter.Language, ids map[string]*uint16) {
	for name, id := range ids {
		*id = lang.FieldIdForName(name)
	}
}

// KindCodes is a table for Base.Codes: the code of each named node kind of
// lang by id, from codes by kind name; 0 for the anonymous kinds and those
// codes leaves out. names are lang's kinds by id (KindNames).
func KindCodes(lang *sitter.Language, names []string, codes map[string]uint8) []uint8 {
	tab := make([]uint8, len(names))
	for id, name := range names {
		if lang.NodeKindIsNamed(uint16(id)) {
			tab[id] = codes[name]
		}
	}
	return tab
}
