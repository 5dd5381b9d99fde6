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
	return dowild(pattern, text) == wmMatch
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

func dowild(p, text string) int {
	pi, ti := 0, 0
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
					if at(p, pi) == '/' && dowild(p[pi+1:], text[ti:]) == wmMatch {
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
			for ti < len(text) {
				if !isGlobSpecial(p[pi]) {
					// Skip ahead to the next occurrence of the literal
					// that follows the star.
					pch = p[pi]
					for ti < len(text) && (matchSlash || text[ti] != '/') {
						if text[ti] == pch {
							break
						}
						ti++
					}
					tch = at(text, ti)
					if tch != pch {
						return wmNoMatch
					}
				}
				if m := dowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
				tch = at(text, ti)
			}
			return wmAbortAll
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
