package extract

import (
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// Body evidence: what a callable does, as words. A symbol's name, signature
// and doc say what it is called; the identifiers its body uses (calls,
// fields, variables, types) and the words of its string literals and
// comments (error and log messages, explanations) say what it does, and
// that is what a bug report quotes. The snapshot indexes both in a BM25
// index of their own (FORMAT.md, "body").
//
// The words come from a small lexer over the lines of the symbol's span,
// not from the syntax tree: it only has to tell code from string literals
// and comments, which two comment styles and a few quote rules cover in
// every language knowing reads, and it costs one pass over the bytes.

// Caps on a symbol's body words: each distinct word is kept once, the
// first ones in source order, so the index stays bounded however long the
// function is. Keeping a word up to three times (term frequency) scored
// the same on the eval sets and made a larger index (EVAL.md, "Body
// evidence").
const (
	MaxBodyCodeWords = 192
	MaxBodyTextWords = 128
)

// bodyLexer holds a file's line offsets and a set reused from symbol to
// symbol.
type bodyLexer struct {
	src   []byte
	lines []uint32 // byte offset of each line's start; lines[0] = 0
	hash  bool     // '#' starts a comment (Python, Ruby)
	// single is true where a single quote opens a string (Python, Ruby,
	// JavaScript, TypeScript); elsewhere it is a character literal or a
	// Rust lifetime.
	single   bool
	backtick bool                // `…` is a string (Go raw strings, JavaScript templates)
	triple   bool                // """…""" and '''…''' (Python)
	seen     map[string]struct{} // code words so far
	seenText map[string]struct{} // text words so far
	// code and text collect a symbol's words; the strings returned are
	// exact-size copies (a strings.Builder's string keeps its slack).
	code, text []byte
}

// addBodyWords fills the Body and Text of r's callables from src.
func addBodyWords(r *FileResult, src []byte) {
	any := false
	for i := range r.Symbols {
		if callable(r.Symbols[i].Kind) {
			any = true
			break
		}
	}
	if !any {
		return
	}
	lx := &bodyLexer{src: src, seen: make(map[string]struct{}, 256), seenText: make(map[string]struct{}, 128)}
	switch r.Lang {
	case snapshot.LangPython:
		lx.hash, lx.single, lx.triple = true, true, true
	case snapshot.LangRuby:
		lx.hash, lx.single = true, true
	case snapshot.LangJavaScript, snapshot.LangTypeScript:
		lx.single, lx.backtick = true, true
	case snapshot.LangGo:
		lx.backtick = true
	}
	lx.lines = append(lx.lines, 0)
	for i, c := range src {
		if c == '\n' {
			lx.lines = append(lx.lines, uint32(i+1))
		}
	}
	for i := range r.Symbols {
		s := &r.Symbols[i]
		if !callable(s.Kind) || s.Start == 0 || s.End < s.Start {
			continue
		}
		from, to := lx.span(s.Start, s.End)
		s.Body, s.Text = lx.words(src[from:to])
	}
}

func callable(k snapshot.Kind) bool {
	return k == snapshot.KindFunction || k == snapshot.KindMethod || k == snapshot.KindConstructor
}

// span is the byte range of lines start … end (1-based, inclusive).
func (lx *bodyLexer) span(start, end uint32) (int, int) {
	n := uint32(len(lx.lines))
	if start > n {
		return len(lx.src), len(lx.src)
	}
	from := int(lx.lines[start-1])
	to := len(lx.src)
	if end < n {
		to = int(lx.lines[end])
	}
	return from, to
}

// words lexes b and returns its distinct code identifiers and its
// distinct literal and comment words, each space-separated, in source
// order, capped.
func (lx *bodyLexer) words(b []byte) (code, text string) {
	clear(lx.seen)
	clear(lx.seenText)
	lx.code, lx.text = lx.code[:0], lx.text[:0]
	nc, nt := 0, 0
	add := func(w []byte, isText bool) {
		if isText {
			if nt >= MaxBodyTextWords {
				return
			}
		} else if nc >= MaxBodyCodeWords || keyword(w) {
			return
		}
		seen := lx.seen
		if isText {
			seen = lx.seenText
		}
		if _, ok := seen[string(w)]; ok { // a lookup by string(w) does not allocate
			return
		}
		seen[string(w)] = struct{}{}
		if isText {
			if nt > 0 {
				lx.text = append(lx.text, ' ')
			}
			lx.text = append(lx.text, w...)
			nt++
		} else {
			if nc > 0 {
				lx.code = append(lx.code, ' ')
			}
			lx.code = append(lx.code, w...)
			nc++
		}
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case isIdentStart(c):
			j := i + 1
			for j < len(b) && isIdentByte(b[j]) {
				j++
			}
			add(b[i:j], false)
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(b) && isIdentByte(b[j]) {
				j++
			}
			i = j
		case c == '#' && lx.hash:
			i = lx.textUntil(b, i+1, "\n", false, add)
		case c == '/' && !lx.hash && i+1 < len(b) && b[i+1] == '/':
			i = lx.textUntil(b, i+2, "\n", false, add)
		case c == '/' && !lx.hash && i+1 < len(b) && b[i+1] == '*':
			i = lx.textUntil(b, i+2, "*/", false, add)
		case c == '"' || (c == '\'' && lx.single):
			q := string(c)
			if lx.triple && i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				i = lx.textUntil(b, i+3, strings.Repeat(q, 3), true, add)
			} else {
				i = lx.textUntil(b, i+1, q, true, add)
			}
		case c == '`' && lx.backtick:
			i = lx.textUntil(b, i+1, "`", false, add)
		case c == '\'':
			// A character literal ('a', '\n') is skipped; anything else
			// (a Rust lifetime, a stray quote) is a single byte.
			j := i + 1
			if j < len(b) && b[j] == '\\' {
				j++
			}
			j++
			if j < len(b) && b[j] == '\'' && j-i <= 3 {
				i = j + 1
			} else {
				i++
			}
		default:
			i++
		}
	}
	return string(lx.code), string(lx.text)
}

// textUntil adds the words of b from i up to the closing delimiter end
// (a single-line string stops at a newline too) and returns the offset
// after the delimiter. Backslash escapes are skipped in strings.
func (lx *bodyLexer) textUntil(b []byte, i int, end string, escapes bool, add func([]byte, bool)) int {
	oneLine := escapes && len(end) == 1
	for i < len(b) {
		c := b[i]
		switch {
		case c == end[0] && strings.HasPrefix(string(b[i:min(len(b), i+len(end))]), end):
			return i + len(end)
		case oneLine && c == '\n':
			return i + 1
		case escapes && c == '\\':
			// \n, \t and the like are no words: skip the escaped letter.
			i += 2
		case isIdentStart(c):
			j := i + 1
			for j < len(b) && isIdentByte(b[j]) {
				j++
			}
			if j-i >= 2 {
				add(b[i:j], true)
			}
			i = j
		default:
			i++
		}
	}
	return i
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// keyword reports the reserved words and literals of the languages knowing
// reads that say nothing about what a function does.
func keyword(w []byte) bool {
	if len(w) < 2 || len(w) > 10 {
		return len(w) < 2
	}
	return keywords[string(w)]
}

var keywords = WordSet(`
		if else elif elsif for while do loop break continue return yield
		switch case default when try catch except finally raise throw
		throws rescue ensure begin end then unless until in is not and or
		func function fn def lambda let var val const static final pub public private
		protected internal package import from use mod module namespace using
		class struct enum interface trait impl typeof instanceof extends
		implements new self this super Self nil null None true false
		True False undefined void async await go defer chan select range
		mut ref where as with pass global nonlocal del assert readonly
		override virtual abstract sealed unsafe dyn crate extern
		goto sizeof volatile register signed unsigned auto inline`)
