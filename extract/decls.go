package extract

import (
	"iter"
	"strings"
)

// Helpers for reading declarations that more than one language extractor
// needs and that assume no one grammar: the children of one kind, where
// a declaration's head ends, type names by their first letter, text and
// signatures on one line. (Dotted names and grammar ids are in names.go.)

// OfKind yields the named children of n (n may be -1) whose kind is kind,
// in order:
//
//	for d := range x.OfKind(n, "variable_declarator") { ... }
func (t *FlatTree) OfKind(n int32, kind string) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := t.FirstNamed(n); c >= 0; c = t.NextNamed(c) {
			if t.Kind(c) == kind && !yield(c) {
				return
			}
		}
	}
}

// HeadEnd is where the head of declaration n ends: at the start of its
// body, or at its end when body is -1.
func (t *FlatTree) HeadEnd(n, body int32) uint32 {
	if body >= 0 {
		return t.N[body].Start
	}
	return t.N[n].End
}

// StartsUpper reports whether s starts with an ASCII upper-case letter,
// which in Java, C# and Rust marks a type (and in Go an exported name).
func StartsUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// maxSignature is the longest Symbol.Signature in bytes, "…" aside.
const maxSignature = 240

// OneLine is src[start:end] with its white space folded to single spaces,
// or "" when the span is not inside src.
func OneLine(src []byte, start, end uint32) string {
	if end > uint32(len(src)) || start > end {
		return ""
	}
	return strings.Join(strings.Fields(string(src[start:end])), " ")
}

// TextLine is the text of n on one line, its white space folded to single
// spaces ("" for -1).
func (t *FlatTree) TextLine(n int32) string {
	if n < 0 {
		return ""
	}
	return OneLine(t.Src, t.N[n].Start, t.N[n].End)
}

// CapSignature cuts a signature longer than Signature makes one (240
// bytes) and marks the cut with "…".
func CapSignature(s string) string {
	if len(s) > maxSignature {
		return s[:maxSignature] + "…"
	}
	return s
}
