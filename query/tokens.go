package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens and identifiers for task reading (step 1): a task splits into
// tokens that keep dotted, slashed and :: paths whole, and an identifier
// into its words.

// token is one run of identifier-ish characters with what follows it.
type token struct {
	text      string // as written: letters, digits, _ . : / - $ ? !
	parenNext bool   // followed by "("
	quoted    bool   // inside quotes
	brk       bool   // a sentence or line break comes before it
}

// tokenize splits text on white space and punctuation, keeping dotted,
// slashed and :: paths together.
func tokenize(s string) []token {
	var out []token
	i := 0
	quote := false
	brk := true
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == '"' || r == '\'' && (i == 0 || !isWordRune(prevRune(s, i))) {
			quote = !quote
			brk = true
		}
		if !isWordRune(r) {
			if r != ' ' && r != '\t' && r != '-' {
				brk = true
			}
			i += w
			continue
		}
		j := i
		for j < len(s) {
			r2, w2 := utf8.DecodeRuneInString(s[j:])
			if isWordRune(r2) || (r2 == '.' || r2 == '/' || r2 == ':' || r2 == '-') && j+w2 < len(s) && isWordRuneAt(s, j+w2) ||
				(r2 == ':' && j+1 < len(s) && s[j+1] == ':') {
				j += w2
				continue
			}
			break
		}
		t := strings.Trim(s[i:j], ".:/-")
		if t != "" {
			// Code calls have the parenthesis right after the name;
			// "parameters (properly escaped)" is prose.
			out = append(out, token{text: t, parenNext: j < len(s) && s[j] == '(', quoted: quote, brk: brk})
			brk = false
		}
		if j == i {
			j += w
		}
		i = j
	}
	return out
}

func prevRune(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

func isWordRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordRuneAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r) || r == ':'
}

func isNumber(s string) bool {
	if strings.HasPrefix(s, "0x") {
		return true
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && r != '.' && r != 'x' {
			return false
		}
	}
	return true
}

// splitQualified returns the identifier and, for a qualified one, its
// terminal and Container.member forms: "flask.app.Flask.route" →
// [flask.app.Flask.route Flask.route route].
func splitQualified(s string) []string {
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.ReplaceAll(s, "#", ".")
	s = strings.Trim(s, ".()")
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '/' })
	if len(parts) <= 1 {
		return []string{s}
	}
	out := []string{parts[len(parts)-1]}
	if q := strings.ToLower(parts[len(parts)-2]); q == "self" || q == "this" || q == "cls" || q == "super" {
		return out
	}
	if len(parts) >= 2 {
		out = append([]string{parts[len(parts)-2] + "." + parts[len(parts)-1]}, out...)
	}
	return out
}

// allDigits reports a non-empty run of ASCII digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) && i > 0) {
			return false
		}
	}
	return s != ""
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// isCompound reports identifiers made of several words.
func isCompound(s string) bool {
	if strings.ContainsAny(s, "_") && strings.Trim(s, "_") != "" {
		return len(splitWords(s)) > 1
	}
	return len(splitWords(s)) > 1
}

// splitWords splits an identifier on case changes, underscores and
// hyphens; digits stay with the letters before them.
func splitWords(s string) []string {
	var out []string
	rs := []rune(s)
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, string(rs[start:end]))
		}
		start = end
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' || r == '-' || r == '$' || r == '?' || r == '!' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if nextLower && i+2 == len(rs) && rs[i+1] == 's' {
				nextLower = false // a plural acronym: URIs, IDs
			}
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush(i)
			}
		}
	}
	flush(len(rs))
	return out
}

func camel(w string) string {
	if w == "" {
		return w
	}
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}

// hyphenated reports a word of letters joined by hyphens (server-sent,
// cross-origin, X-Forwarded-For).
func hyphenated(s string) bool {
	if !strings.Contains(s, "-") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '-' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
