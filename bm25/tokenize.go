package bm25

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Tokenizer limits.
const (
	// MaxPathTerm is the longest dotted or slashed path (in bytes, after
	// lower-casing) that is also emitted as one term.
	MaxPathTerm = 64
	// MaxTermLen is the longest term of any kind; longer compounds (a base64
	// blob, a minified line) are dropped, their parts are still emitted.
	MaxTermLen = 128
)

// AppendTokens appends the index terms of text to dst and returns the
// extended slice. The same function tokenizes documents and queries.
//
// The rules, applied left to right over text:
//
//   - Text is split into identifier segments on whitespace and punctuation
//     (everything that is not a letter, a digit, '_' or an inner '-').
//     A hyphen belongs to a segment only between two letters or digits
//     (kebab-case), elsewhere it separates.
//   - Segments joined by single '.' or '/' form a path (os.path.join,
//     net/http, src/main.go). A path of two or more segments is emitted
//     whole, lower-cased, if it is at most MaxPathTerm bytes; then each
//     segment is emitted as below.
//   - A segment emits its compound, the whole segment lower-cased
//     (before_request, sqlitestore), unless that equals its only part;
//     then its parts in order. Parts split on '_' and '-', and on case:
//     lower→Upper (getUser → get, user); an upper-case run followed by a
//     lower-case letter ends before its last letter (HTTPServer → http,
//     server); digits stay attached to the letters before them (SearchBM25Nodes
//     → search, bm25, nodes; utf8String → utf8, string), and a part that
//     starts with digits keeps the letters after them (64bit).
//   - When that acronym split leaves at least two letters before the split,
//     the run and its lower-case tail are also emitted joined, right after
//     the tail part (SQLiteStore → sqlitestore, sq, lite, sqlite, store), so
//     mixed-case words such as SQLite stay findable whole.
//   - A part made only of letters that is longer than 4 bytes and ends in
//     's' but not in "ss", "us" or "is" is followed by a light singular:
//     "-ies" → "-y" (dependencies → dependency); "-sses", "-xes", "-zzes",
//     "-ches", "-shes" drop "es" (classes → class, matches → match);
//     otherwise the final 's' is dropped (headers → header).
//   - Every term is lower-cased (Unicode simple folding via unicode.ToLower).
//     Terms shorter than 2 bytes or longer than MaxTermLen bytes and the
//     English stop words a, an, the, of, to, in, on, at, for, with, from,
//     by, and, or, is, are, be, this, that, it, as are dropped.
//
// Repeated words are emitted as often as they occur (term frequency counts
// them). The output is a deterministic function of text and the work is
// linear in its length. Returned strings may share memory with text.
func AppendTokens(dst []string, text string) []string {
	// ASCII text is lower-cased once, keeping its offsets, and every term
	// is cut from that copy: one allocation at most, instead of one per
	// term with an upper-case letter.
	low := ""
	if isASCII(text) {
		low = lower(text)
	}
	return appendTokens(dst, text, low)
}

// appendTokensScratch is AppendTokens for a caller that is done with the
// terms before its next call: ASCII text is lower-cased into *scratch,
// which that next call overwrites, so no term is allocated at all.
func appendTokensScratch(dst []string, text string, scratch *[]byte) []string {
	low, ok := lowerASCIIInto(scratch, text)
	if !ok {
		return appendTokens(dst, text, "")
	}
	return appendTokens(dst, text, low)
}

// lowerASCIIInto lower-cases ASCII text into *scratch, which the next call
// overwrites, and returns it; ok is false when text is not ASCII.
func lowerASCIIInto(scratch *[]byte, text string) (low string, ok bool) {
	// One pass copies, lower-cases and checks that the text is ASCII.
	b := slices.Grow((*scratch)[:0], len(text))[:len(text)]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		b[i] = lowerASCII[c]
	}
	*scratch = b
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// lowerInto returns text lower-cased, in *scratch when text is ASCII.
func lowerInto(scratch *[]byte, text string) string {
	if low, ok := lowerASCIIInto(scratch, text); ok {
		return low
	}
	return strings.ToLower(text)
}

// lowerASCII maps an ASCII byte to its lower case.
var lowerASCII = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] = byte(c + 'a' - 'A')
		}
	}
	return t
}()

// appendTokens is AppendTokens given low, text lower-cased when text is
// ASCII (so that offsets agree), or "" to lower-case term by term.
func appendTokens(dst []string, text, low string) []string {
	var ends [16]int
	for i := 0; i < len(text); {
		start, end, segs := nextUnit(text, i, &ends)
		if start == end {
			break
		}
		dst = appendUnit(dst, text, low, start, end, segs, &ends)
		i = end
	}
	return dst
}

// nextUnit finds the first unit of text at or after i: a segment, or a
// path of segments joined by single '.' or '/'. It returns the unit's
// extent (start == end == len(text) when there is none), its number of
// segments and, in ends, the ends of its first 16 segments.
//
// A unit's terms depend on its text alone: the terms of a text are the
// terms of its units, in order, each tokenized by itself; and a unit's
// are its whole-path term (see pathTermOf), then each segment's, each
// segment tokenized by itself. The index builder relies on that to
// tokenize each distinct segment once.
func nextUnit(text string, i int, ends *[16]int) (start, end, segs int) {
	for i < len(text) {
		w, n := wordAt(text, i)
		if w {
			break
		}
		i += n
	}
	if i >= len(text) {
		return len(text), len(text), 0
	}
	start = i
	end = segmentEnd(text, i)
	ends[0] = end
	segs = 1
	for end+1 < len(text) && (text[end] == '.' || text[end] == '/') {
		if w, _ := wordAt(text, end+1); !w {
			break
		}
		end = segmentEnd(text, end+1)
		if segs < len(ends) {
			ends[segs] = end
		}
		segs++
	}
	return start, end, segs
}

// appendUnit emits the terms of the unit text[start:end] found by
// nextUnit: the whole path, then each segment. low is as for appendTokens.
func appendUnit(dst []string, text, low string, start, end, segs int, ends *[16]int) []string {
	if pathTermOf(text[start:end], segs) {
		if low != "" {
			dst = append(dst, low[start:end])
		} else {
			dst = append(dst, lower(text[start:end]))
		}
	}
	for j, k := start, 0; j < end; k++ {
		e := segEnd(text, j, k, ends)
		lowSeg := ""
		if low != "" {
			lowSeg = low[j:e]
		}
		dst = appendSegment(dst, text[j:e], lowSeg)
		j = e + 1 // skip the separator
	}
	return dst
}

// segEnd returns the end of a unit's k-th segment, which starts at j;
// ends is as nextUnit filled it.
func segEnd(text string, j, k int, ends *[16]int) int {
	if k < len(ends) {
		return ends[k]
	}
	return segmentEnd(text, j)
}

// pathTermOf reports whether a unit of segs segments is also emitted
// whole, lower-cased: a path of at most MaxPathTerm bytes. Such a term is
// at least three bytes long and holds a '.' or '/', so neither the length
// limits nor the stop words drop it.
func pathTermOf(unit string, segs int) bool {
	if segs < 2 || len(unit) > 4*MaxPathTerm {
		return false
	}
	if isASCII(unit) {
		return len(unit) <= MaxPathTerm
	}
	return len(lower(unit)) <= MaxPathTerm
}

// wordAt reports whether text[i:] starts with a segment character (letter,
// digit or '_') and the byte length of the rune there.
func wordAt(text string, i int) (bool, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiClass[c] != clsNone, 1
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)), n
}

// alnumAt reports whether text[i:] starts with a letter or digit.
func alnumAt(text string, i int) bool {
	if i >= len(text) || text[i] == '_' {
		return false
	}
	w, _ := wordAt(text, i)
	return w
}

// segmentEnd returns the end of the segment starting at i (a segment
// character): segment characters, plus '-' between two letters or digits.
func segmentEnd(text string, i int) int {
	start := i
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiClass[c] != clsNone {
				i++
				continue
			}
			// The rune before a '-' is a segment character; it must not
			// be '_'.
			if c == '-' && i > start && text[i-1] != '_' && alnumAt(text, i+1) {
				i++
				continue
			}
			return i
		}
		w, n := wordAt(text, i)
		if !w {
			return i
		}
		i += n
	}
	return i
}

// Character classes.
const (
	clsNone  = iota // not in a segment
	clsSep          // '_' or '-' (inside a segment)
	clsUpper        // upper- or title-case letter
	clsLower        // lower-case or caseless letter
	clsDigit
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsLower
		t[c-'a'+'A'] = clsUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	t['_'] = clsSep
	return t
}()

// classAt returns the class of the rune at s[i] inside a segment and its
// length.
func classAt(s string, i int) (int, int) {
	if c := s[i]; c < utf8.RuneSelf {
		if c == '-' {
			return clsSep, 1
		}
		return int(asciiClass[c]), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper, n
	case unicode.IsDigit(r):
		return clsDigit, n
	}
	return clsLower, n
}

// span is a part seg[s:e]; m is the start of the joined acronym word ending
// at e, or -1.
type span struct{ s, e, m int }

// appendSegment emits one identifier segment: compound, then parts.
// lowSeg is seg lower-cased if the caller has it (ASCII text), or "".
func appendSegment(dst []string, seg, lowSeg string) []string {
	var buf [16]span
	parts := splitParts(buf[:0], seg)
	if len(parts) == 0 { // no letters or digits at all
		return dst
	}
	// Lower-casing ASCII keeps byte offsets, so the parts can then be cut
	// from the lower-cased segment without further allocation.
	ascii := lowSeg != "" || isASCII(seg)
	low := lowSeg
	if low == "" && (ascii || len(seg) <= 4*MaxTermLen) {
		low = lower(seg)
	}
	cut := func(s, e int) string {
		if ascii {
			return low[s:e]
		}
		return lower(seg[s:e])
	}
	if len(parts) > 1 || parts[0].s > 0 || parts[0].e < len(seg) {
		dst = appendTerm(dst, low)
	}
	for _, p := range parts {
		w := cut(p.s, p.e)
		dst = appendTerm(dst, w)
		if s, ok := singular(w); ok {
			dst = appendTerm(dst, s)
		}
		if p.m >= 0 {
			if m := cut(p.m, p.e); m != low {
				dst = appendTerm(dst, m)
			}
		}
	}
	return dst
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// splitParts appends the parts of seg to dst in order.
func splitParts(dst []span, seg string) []span {
	// Most segments of prose and many of code are one lower-case word.
	lowerWord := true
	for i := 0; i < len(seg) && lowerWord; i++ {
		lowerWord = 'a' <= seg[i] && seg[i] <= 'z'
	}
	if lowerWord {
		return append(dst, span{0, len(seg), -1})
	}
	ps := -1     // start of the current part, -1 if none
	ms := -1     // start of a pending joined acronym word
	letters := 0 // letters in the current part
	uppers := 0  // length (in runes) of the current part if all upper-case
	prev := clsSep
	prevStart := 0
	flush := func(end int) {
		if ps >= 0 {
			dst = append(dst, span{ps, end, ms})
		}
		ps, ms, letters, uppers = -1, -1, 0, 0
	}
	for i := 0; i < len(seg); {
		c, n := classAt(seg, i)
		switch c {
		case clsSep:
			flush(i)
		case clsDigit:
			if ps < 0 {
				ps = i
			}
			uppers = -1 << 30
		case clsUpper:
			if ps >= 0 && (prev == clsLower || prev == clsDigit && letters > 0) {
				flush(i)
			}
			if ps < 0 {
				ps = i
			}
			letters++
			uppers++
		case clsLower:
			switch {
			case ps >= 0 && prev == clsDigit && letters > 0:
				flush(i)
			case prev == clsUpper && uppers >= 2:
				// An upper-case run followed by lower case: the run's last
				// letter starts the new part.
				start, run := ps, uppers
				flush(prevStart)
				ps = prevStart
				letters = 1
				if run-1 >= 2 {
					ms = start
				}
			}
			if ps < 0 {
				ps = i
			}
			letters++
			uppers = -1 << 30
		}
		prev = c
		prevStart = i
		i += n
	}
	flush(len(seg))
	return dst
}

// singular returns the light singular of a lower-case part, if it has one.
func singular(w string) (string, bool) {
	n := len(w)
	if n <= 4 || w[n-1] != 's' {
		return "", false
	}
	switch w[n-2] {
	case 's', 'u', 'i':
		return "", false
	}
	for i := 0; i < n; i++ {
		if c := w[i]; c >= '0' && c <= '9' {
			return "", false
		}
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y", true
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"),
		strings.HasSuffix(w, "zzes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"):
		return w[:n-2], true
	}
	return w[:n-1], true
}

// appendTerm appends t unless it is too short, too long or a stop word.
func appendTerm(dst []string, t string) []string {
	if len(t) < 2 || len(t) > MaxTermLen || isStopWord(t) {
		return dst
	}
	return append(dst, t)
}

func isStopWord(t string) bool {
	switch t {
	case "a", "an", "the", "of", "to", "in", "on", "at", "for", "with",
		"from", "by", "and", "or", "is", "are", "be", "this", "that", "it", "as":
		return true
	}
	return false
}

// lower returns s lower-cased, s itself when it already is.
func lower(s string) string {
	ascii, upper := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c >= 'A' && c <= 'Z' {
			upper = true
		}
	}
	if !ascii {
		return strings.ToLower(s)
	}
	if !upper {
		return s
	}
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}
