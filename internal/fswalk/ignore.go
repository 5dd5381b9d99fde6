package fswalk

import (
	"bytes"
	"strings"
)

// Matcher decides whether paths are ignored by gitignore rules. It holds
// rule sets, each read from one .gitignore (or .git/info/exclude) and
// applying to the paths below that file's folder, with git's semantics:
//
//   - blank lines and lines starting with '#' are ignored; "\#" and "\!"
//     escape a leading '#' or '!'; trailing spaces are trimmed unless
//     escaped with a backslash; a CR before the LF and a UTF-8 BOM are
//     dropped;
//   - '!' negates a pattern (re-includes what an earlier one excluded);
//   - a trailing '/' makes the pattern match directories only;
//   - a pattern with a slash at its start or in its middle is anchored to
//     the folder of its .gitignore and matched against the path relative
//     to it; otherwise it matches the base name at any depth below;
//   - '*', '?', '[a-z]', '[!a-z]', '[[:alpha:]]' never match '/'; a leading
//     "**/", a trailing "/**" and a middle "/**/" match across folders;
//   - within a set, the last matching pattern decides; a set from a
//     deeper folder takes precedence over one from a shallower folder, and
//     for the same folder a set added later takes precedence (so add
//     .git/info/exclude before the root .gitignore);
//   - a path inside an ignored folder is ignored, whatever negations say
//     (git never looks inside an excluded folder).
//
// The zero Matcher ignores nothing. A Matcher is not safe for concurrent
// modification; Match may be called concurrently once it is built.
type Matcher struct {
	sets   []*ruleSet // in precedence order, lowest first
	budget budget     // steps left for glob patterns (MatchBudget)
}

// ruleSet is the rules of one ignore file.
type ruleSet struct {
	base  string // folder of the file, relative, "" or ending in '/'
	depth int    // number of path elements in base
	rules []rule
}

type ruleKind uint8

const (
	kindGlob     ruleKind = iota // wildmatch the whole pattern
	kindLiteral                  // no wildcard: plain comparison
	kindEndsWith                 // "*literal" on a base name
)

type rule struct {
	pattern string // without '!', the trailing '/', and (for anchored rules) the leading '/'
	prefix  int    // length of the leading part without wildcards
	kind    ruleKind
	negate  bool
	dirOnly bool
	base    bool // no slash in the pattern: match the base name at any depth
}

// NewMatcher returns an empty Matcher.
func NewMatcher() *Matcher { return &Matcher{budget: budget{left: MatchBudget}} }

// Add parses the content of an ignore file found in the folder dir
// (slash-separated, relative to the walk root, "" or "." for the root)
// and adds its rules.
func (m *Matcher) Add(dir string, content []byte) {
	if rs := parseRules(dir, content); rs != nil {
		m.insert(rs)
	}
}

// AddPatterns is Add for patterns given one per element.
func (m *Matcher) AddPatterns(dir string, lines ...string) {
	m.Add(dir, []byte(strings.Join(lines, "\n")))
}

func (m *Matcher) insert(rs *ruleSet) {
	i := len(m.sets)
	for i > 0 && m.sets[i-1].depth > rs.depth {
		i--
	}
	m.sets = append(m.sets, nil)
	copy(m.sets[i+1:], m.sets[i:])
	m.sets[i] = rs
}

// Match reports whether relPath (slash-separated, relative to the root)
// is ignored; isDir says whether it names a folder. A trailing slash on
// relPath also marks a folder. The path is ignored when it, or any folder
// containing it, is excluded by the rules.
func (m *Matcher) Match(relPath string, isDir bool) bool {
	relPath = strings.TrimPrefix(relPath, "./")
	if strings.HasSuffix(relPath, "/") {
		relPath = strings.TrimRight(relPath, "/")
		isDir = true
	}
	if relPath == "" || relPath == "." || len(m.sets) == 0 {
		return false
	}
	for i := 0; i < len(relPath); i++ {
		if relPath[i] == '/' && matchSets(m.sets, relPath[:i], true, &m.budget) {
			return true
		}
	}
	return matchSets(m.sets, relPath, isDir, &m.budget)
}

// MatchBudget bounds the steps glob patterns may take over one walk (or
// one Matcher's life). The memo keeps each match polynomial, but a
// hostile ignore file (10,000 lines of many-star patterns) still costs
// tens of milliseconds a path; past the budget, a glob match that needs
// more than memoAfter steps is taken as no match: the walk goes on and
// keeps the file rather than stalling. Ordinary repositories spend a few
// thousand steps in all.
const MatchBudget = 1 << 27

// budget is steps left for glob matching; spent reports a budget run out.
type budget struct {
	left  int64
	spent bool
}

// matchSets reports whether path itself is excluded by the sets (in
// precedence order, lowest first), without looking at its parents. Glob
// patterns draw their steps from b.
func matchSets(sets []*ruleSet, path string, isDir bool, b *budget) bool {
	name := path[strings.LastIndexByte(path, '/')+1:]
	for i := len(sets) - 1; i >= 0; i-- {
		rs := sets[i]
		if len(path) <= len(rs.base) || path[:len(rs.base)] != rs.base {
			continue // rules of a .gitignore apply below its folder only
		}
		rel := path[len(rs.base):]
		for j := len(rs.rules) - 1; j >= 0; j-- {
			r := &rs.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			if r.match(rel, name, b) {
				return !r.negate
			}
		}
	}
	return false
}

// match tests one rule against rel (the path relative to the rule's
// folder) and name (its base name), as git's match_basename and
// match_pathname do.
func (r *rule) match(rel, name string, b *budget) bool {
	if r.base {
		switch r.kind {
		case kindLiteral:
			return name == r.pattern
		case kindEndsWith:
			return strings.HasSuffix(name, r.pattern[1:])
		}
		return wildmatchBudget(r.pattern, name, b)
	}
	if r.prefix > 0 {
		if r.prefix > len(rel) || rel[:r.prefix] != r.pattern[:r.prefix] {
			return false
		}
		if r.kind == kindLiteral {
			return len(rel) == r.prefix
		}
		// Like git, match only the rest after the literal prefix (this
		// matters for "**" right after it: "/foo**" matches foo/bar).
		return wildmatchBudget(r.pattern[r.prefix:], rel[r.prefix:], b)
	}
	return wildmatchBudget(r.pattern, rel, b)
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// parseRules parses an ignore file; it returns nil if it has no rules.
func parseRules(dir string, content []byte) *ruleSet {
	dir = strings.Trim(dir, "/")
	if dir == "." {
		dir = ""
	}
	rs := &ruleSet{}
	if dir != "" {
		rs.base = dir + "/"
		rs.depth = strings.Count(dir, "/") + 1
	}
	content = bytes.TrimPrefix(content, utf8BOM)
	for len(content) > 0 {
		var line []byte
		line, content, _ = bytes.Cut(content, []byte{'\n'})
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if r, ok := parseRule(trimTrailingSpaces(string(line))); ok {
			rs.rules = append(rs.rules, r)
		}
	}
	if len(rs.rules) == 0 {
		return nil
	}
	return rs
}

// trimTrailingSpaces drops trailing spaces not escaped by a backslash
// (git's trim_trailing_spaces).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// parseRule parses one pattern line (git's parse_path_pattern).
func parseRule(p string) (rule, bool) {
	var r rule
	if strings.HasPrefix(p, "!") {
		r.negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	if p == "" {
		return r, false
	}
	r.base = strings.IndexByte(p, '/') < 0
	endsWith := p[0] == '*' && simpleLength(p[1:]) == len(p)-1
	if !r.base && p[0] == '/' {
		p = p[1:] // anchored: the leading slash only marks it so
		if p == "" {
			return r, false
		}
	}
	r.pattern = p
	r.prefix = simpleLength(p)
	switch {
	case r.prefix == len(p):
		r.kind = kindLiteral
	case r.base && endsWith:
		r.kind = kindEndsWith
	}
	return r, true
}

// simpleLength is the length of the leading part of p without glob
// special characters.
func simpleLength(p string) int {
	for i := 0; i < len(p); i++ {
		if isGlobSpecial(p[i]) {
			return i
		}
	}
	return len(p)
}
