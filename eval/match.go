package eval

import "strings"

// Matcher decides whether a returned qualified name is relevant to one
// ground-truth entry. Implementations must be safe for concurrent use and
// must not depend on anything but the two strings.
type Matcher interface {
	// Name is the matcher's stable identifier, recorded in reports and
	// checked by [Floor.Check]: "strict" or "lenient" for the built-ins.
	Name() string
	// Match reports whether result (a returned qualified name) matches
	// groundTruth (one entry of a fixture's ground_truth, as written).
	Match(result, groundTruth string) bool
}

// Strict is the default matcher; see the package documentation.
var Strict Matcher = strictMatcher{}

// Lenient is the looser matcher: a returned member also counts for its
// ground-truth container, and a method for a same-named method of a type
// that shares a qualifier; see the package documentation.
var Lenient Matcher = lenientMatcher{}

// MatcherByName returns the built-in matcher called name ("strict" or
// "lenient"; "" means strict), or nil.
func MatcherByName(name string) Matcher {
	switch name {
	case "", "strict":
		return Strict
	case "lenient":
		return Lenient
	}
	return nil
}

type strictMatcher struct{}

func (strictMatcher) Name() string { return "strict" }

func (strictMatcher) Match(result, groundTruth string) bool {
	p := compile(groundTruth)
	return p.strict(Normalize(result))
}

type lenientMatcher struct{}

func (lenientMatcher) Name() string { return "lenient" }

func (lenientMatcher) Match(result, groundTruth string) bool {
	p := compile(groundTruth)
	return p.lenient(Normalize(result))
}

// Normalize rewrites a qualified name into the dotted form both matchers
// compare: surrounding space is trimmed; Ruby "::" and "#" become "."; a
// generic parameter list "<...>" that directly follows an identifier is
// removed ("HttpRegistry<'gctx>.start_fetch" → "HttpRegistry.start_fetch",
// "Map<K, Vec<V>>.get" → "Map.get"); a Java constructor "X.<init>" becomes
// "X.X". Angle brackets that do not follow an identifier character are
// kept, so Ruby operator methods such as "Comparable#<=>" survive as
// "Comparable.<=>". A Go major-version element ending an import path is
// dropped ("github.com/caddyserver/caddy/v2.Context" →
// "github.com/caddyserver/caddy.Context"), so the path ends with the
// package name as it does for other modules. Names that need none of this
// are returned unchanged without allocating.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/v") {
		s = stripMajorVersion(s)
	}
	if !strings.ContainsAny(s, ":#<") {
		return s
	}
	if strings.Contains(s, "::") {
		s = strings.ReplaceAll(s, "::", ".")
	}
	if strings.Contains(s, "#") {
		s = strings.ReplaceAll(s, "#", ".")
	}
	if strings.Contains(s, "<") {
		s = stripGenerics(s)
		s = expandInit(s)
	}
	return s
}

// stripMajorVersion removes a Go major-version element "/vN" (N ≥ 2) that
// ends an import path, so the path ends with the package name:
// "github.com/caddyserver/caddy/v2.Context" → "github.com/caddyserver/caddy.Context".
func stripMajorVersion(s string) string {
	for off := 0; ; {
		i := strings.Index(s[off:], "/v")
		if i < 0 {
			return s
		}
		i += off
		j := i + 2
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if i > 0 && j > i+2 && j < len(s) && s[j] == '.' && (j > i+3 || s[i+2] >= '2') && s[i+2] != '0' {
			return s[:i] + s[j:]
		}
		off = i + 2
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// stripGenerics removes balanced "<...>" lists that follow an identifier
// character. A '>' preceded by '-' (Rust "->" inside Fn types) does not
// close a list. An unbalanced list is left as it is.
func stripGenerics(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '<' && i > 0 && isIdentByte(s[i-1]) {
			if end := closeAngle(s, i); end > 0 {
				i = end + 1
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// closeAngle returns the index of the '>' closing the '<' at open, or -1.
func closeAngle(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '<':
			depth++
		case '>':
			if j > 0 && s[j-1] == '-' {
				continue
			}
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// expandInit turns every "X.<init>" into "X.X".
func expandInit(s string) string {
	const init = ".<init>"
	for {
		i := strings.Index(s, init)
		if i <= 0 {
			return s
		}
		start := strings.LastIndexAny(s[:i], "./") + 1
		owner := s[start:i]
		if owner == "" {
			return s
		}
		s = s[:i+1] + owner + s[i+len(init):]
	}
}

// pattern is a compiled ground-truth entry.
type pattern struct {
	norm string
	// cands are the suffixes of norm a result may end with: norm itself
	// and norm with leading dot-parts dropped while at least two parts
	// remain.
	cands []string
	// final is the last identifier of norm (after the last '.' or '/'):
	// every strictly matching result ends with it.
	final string
	// terminal is the last dot-part; quals are the identifiers of the
	// other parts (split on '.' and '/'), used by the lenient matcher.
	terminal string
	quals    []string
}

func compile(g string) pattern {
	n := Normalize(g)
	p := pattern{norm: n, cands: []string{n}}
	slash := strings.LastIndexByte(n, '/')
	// Dots at or after the last slash separate parts; the first part is
	// the import path with its package name ("net/http").
	var dots []int
	for i := slash + 1; i < len(n); i++ {
		if n[i] == '.' {
			dots = append(dots, i)
		}
	}
	for i := 0; i+2 <= len(dots); i++ {
		p.cands = append(p.cands, n[dots[i]+1:])
	}
	p.final = n[strings.LastIndexAny(n, "./")+1:]
	if len(dots) > 0 {
		last := dots[len(dots)-1]
		p.terminal = n[last+1:]
		p.quals = strings.FieldsFunc(n[:last], isSep)
	} else {
		p.terminal = n
	}
	return p
}

func isSep(r rune) bool { return r == '.' || r == '/' }

// endsAt reports whether q ends with c at a part boundary: q == c, or the
// byte before the suffix c is '.' or '/'.
func endsAt(q, c string) bool {
	if !strings.HasSuffix(q, c) {
		return false
	}
	if len(q) == len(c) {
		return true
	}
	b := q[len(q)-len(c)-1]
	return b == '.' || b == '/'
}

// strict matches a normalised result name.
func (p *pattern) strict(q string) bool {
	if p.norm == "" || q == "" {
		return false
	}
	for _, c := range p.cands {
		if endsAt(q, c) {
			return true
		}
	}
	return false
}

// lenient matches a normalised result name.
func (p *pattern) lenient(q string) bool {
	if p.strict(q) {
		return true
	}
	if p.norm == "" || q == "" {
		return false
	}
	// A member of the ground-truth entry: q carries one of the candidate
	// forms at a part boundary, followed by ".member".
	for _, c := range p.cands {
		if containsMember(q, c) {
			return true
		}
	}
	// A same-named member of another container sharing a qualifier.
	if len(p.quals) == 0 {
		return false
	}
	qt := strings.LastIndexAny(q, "./")
	if qt < 0 || q[qt+1:] != p.terminal {
		return false
	}
	for _, qq := range strings.FieldsFunc(q[:qt], isSep) {
		for _, gq := range p.quals {
			if qq == gq {
				return true
			}
		}
	}
	return false
}

// containsMember reports whether q has c at a part boundary followed by
// '.' and at least one more byte.
func containsMember(q, c string) bool {
	for off := 0; off < len(q); {
		i := strings.Index(q[off:], c)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(c)
		startOK := i == 0 || q[i-1] == '.' || q[i-1] == '/'
		if startOK && end+1 < len(q) && q[end] == '.' {
			return true
		}
		off = i + 1
	}
	return false
}
