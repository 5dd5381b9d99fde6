package fswalk

import "strings"

// This file is a faithful port of git's wildmatch.c (the matcher behind
// .gitignore patterns), always in WM_PATHNAME mode: '*', '?' and bracket
// expressions never match '/', while "**" bounded by slashes (or the ends
// of the pattern) matches across directories.

const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
)

// wildmatch reports whether text matches the glob pattern, with git's
// pathname semantics.
func wildmatch(pattern, text string) bool {
	w := wild{p: pattern, t: text}
	return w.match(0, 0) == wmMatch
}

// wildmatchBudget is wildmatch drawing the steps past memoAfter from b.
func wildmatchBudget(pattern, text string, b *budget) bool {
	w := wild{p: pattern, t: text, b: b}
	return w.match(0, 0) == wmMatch
}

// wild is one wildmatch call. git's matcher backtracks: a pattern with
// many stars against a name it almost matches (ten '*' against forty
// letters) takes time exponential in the stars. The answer of every
// recursive step depends only on where it starts in the pattern and in the
// text, so once a call has taken more than memoAfter steps, wild records
// each step's answer and each star's scan, and no state is computed twice:
// at most (len(p)+1)·(len(t)+1) steps and as many scans, each scan position
// visited once. Calls that finish sooner, nearly all, allocate nothing.
type wild struct {
	p, t  string
	steps int     // calls of match so far (tests bound it)
	b     *budget // steps left over the whole walk, or nil
	memo  []int8  // per (pi, ti): 0 unknown, else the answer + memoBias
	scan  []int8  // per (pi, ti): the answer of a star's scan from ti
}

// memoAfter is a variable for the tests, which compare answers with the
// memo on from the first step and never on.
var memoAfter = 64

const memoBias = 3 // answers range over -2..1

func (w *wild) state(pi, ti int) int { return pi*(len(w.t)+1) + ti }

// match is git's dowild on w.p[pi:] and w.t[ti:].
func (w *wild) match(pi, ti int) int {
	w.steps++
	if w.b != nil && w.steps > memoAfter {
		if w.b.left <= 0 {
			w.b.spent = true
			return wmAbortAll
		}
		w.b.left--
	}
	if w.memo == nil && w.steps > memoAfter {
		n := (len(w.p) + 1) * (len(w.t) + 1)
		w.memo, w.scan = make([]int8, n), make([]int8, n)
	}
	if w.memo != nil {
		k := w.state(pi, ti)
		if m := w.memo[k]; m != 0 {
			return int(m) - memoBias
		}
		r := w.dowild(pi, ti)
		w.memo[k] = int8(r + memoBias)
		return r
	}
	return w.dowild(pi, ti)
}

// at returns s[i], or 0 past the end (wildmatch.c reads NUL-terminated
// strings; paths never contain NUL).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func (w *wild) dowild(pi, ti int) int {
	p, text := w.p, w.t
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		tch := at(text, ti)
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			// Literal match with the following character.
			pi++
			if tch != at(p, pi) {
				return wmNoMatch
			}
			continue
		default:
			if tch != pch {
				return wmNoMatch
			}
			continue
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			matchSlash := false
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')) {
					// "**/" may match nothing: try the rest of the
					// pattern right here (foo/**/bar matches foo/bar).
					if at(p, pi) == '/' && w.match(pi+1, ti) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi == len(p) {
				// Trailing "**" matches everything; trailing "*" only
				// if no slash is left.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			} else if !matchSlash && p[pi] == '/' {
				// A single '*' followed by '/' matches up to the next
				// slash, which the loop's post statement consumes.
				slash := strings.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue
			}
			return w.star(pi, ti, matchSlash)
		case '[':
			pi++
			pch = at(p, pi)
			if pch == '^' {
				pch = '!'
			}
			negated := pch == '!'
			if negated {
				pi++
				pch = at(p, pi)
			}
			var prev byte
			matched := false
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				switch {
				case pch == '\\':
					pi++
					pch = at(p, pi)
					if pi >= len(p) {
						return wmAbortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					pch = p[pi]
					if pch == '\\' {
						pi++
						pch = at(p, pi)
						if pi >= len(p) {
							return wmAbortAll
						}
					}
					if tch <= pch && tch >= prev {
						matched = true
					}
					pch = 0 // so that prev becomes 0
				case pch == '[' && at(p, pi+1) == ':':
					pi += 2
					s := pi
					for pi < len(p) && p[pi] != ']' {
						pi++
					}
					if pi >= len(p) {
						return wmAbortAll
					}
					if i := pi - s - 1; i < 0 || p[pi-1] != ':' {
						// No ":]": treat the '[' as a plain member.
						pi = s - 2
						pch = '['
						if tch == pch {
							matched = true
						}
					} else {
						ok, known := charClass(p[s:s+i], tch)
						if !known {
							return wmAbortAll // malformed [:class:]
						}
						if ok {
							matched = true
						}
						pch = 0
					}
				default:
					if tch == pch {
						matched = true
					}
				}
				prev = pch
				pi++
				pch = at(p, pi)
				if pch == ']' {
					break
				}
			}
			if matched == negated || tch == '/' {
				return wmNoMatch
			}
			continue
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// star is the scan after a star: try the rest of the pattern, w.p[pi:],
// at each text position from ti on. Its answer depends only on (pi, ti)
// (matchSlash is fixed by the star before pi), and every position the
// scan passes leads to the same answer, so with the memo on each (pi, ti)
// is scanned once.
func (w *wild) star(pi, ti int, matchSlash bool) int {
	p, text := w.p, w.t
	start := ti
	r := wmAbortAll
	for ti < len(text) {
		if w.scan != nil {
			if m := w.scan[w.state(pi, ti)]; m != 0 {
				r = int(m) - memoBias
				break
			}
		}
		tch := at(text, ti)
		if !isGlobSpecial(p[pi]) {
			// Skip ahead to the next occurrence of the literal
			// that follows the star.
			pch := p[pi]
			for ti < len(text) && (matchSlash || text[ti] != '/') {
				if text[ti] == pch {
					break
				}
				ti++
			}
			tch = at(text, ti)
			if tch != pch {
				r = wmNoMatch
				break
			}
		}
		if m := w.match(pi, ti); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				r = m
				break
			}
		} else if !matchSlash && tch == '/' {
			r = wmAbortToStarStar
			break
		}
		ti++
	}
	if w.scan != nil {
		for i := start; i < ti && i < len(text); i++ {
			w.scan[w.state(pi, i)] = int8(r + memoBias)
		}
	}
	return r
}

// charClass evaluates a POSIX character class (ASCII, as git does).
func charClass(name string, c byte) (match, known bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	isAlpha := isUpper || isLower
	isPrint := c >= 0x20 && c < 0x7f
	isSpace := c == ' ' || (c >= '\t' && c <= '\r')
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && c != ' ', true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && c != ' ' && !isAlpha && !isDigit, true
	case "space":
		return isSpace, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
