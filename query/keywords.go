package query

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Keywords is what the task text says, sorted by how specific it is.
type Keywords struct {
	// Exact are identifiers the user marked as code: `before_request`.
	Exact []string
	// Compounds are multi-part identifiers: CamelCase, snake_case,
	// dotted paths, code patterns, stack-frame names and bigrams of
	// adjacent words ("blast radius" → BlastRadius, blast_radius).
	Compounds []string
	// Components are single words: parts of identifiers, prose nouns,
	// abbreviation expansions. The priority noun after an action verb
	// comes first, then the words in the order the task uses them.
	Components []string
	// Paths are file paths or folder names the text mentions.
	Paths []string
	// Code holds the names of identifiers the task writes as code:
	// backticks, stack frames, calls, Type.member (the member's name).
	Code []string
	// Tests is true when the task is about tests.
	Tests bool
	// Examples is true when the task is about examples, demos or
	// benchmarks.
	Examples bool
	// Pos is the index among the task's content words where each
	// component first appears: tasks usually name their subject first.
	// The engine adds the member names of confirmed References (at 0):
	// its keys are the words a symbol's name can cover.
	Pos map[string]int
	// Acronyms are the initials of three or four adjacent content words
	// ("server-sent events" → sse, "cross-origin resource sharing" →
	// cors), with the Pos of their first word. Code names such ideas by
	// their acronym; the engine keeps those its index has.
	Acronyms []Acronym
	// References are dotted names written as plain words, such as
	// app.use, res.cookie or site.process: a reference to a member when
	// the index has a symbol whose qualified name ends with it, prose
	// otherwise. The engine promotes the confirmed ones to Exact.
	References []string
	// Frames are the stack-trace lines that name a function and the
	// file it is in (Python, Ruby, JavaScript): the engine resolves each
	// to the symbol of that name in that file.
	Frames []Frame
	// Locations are file:line positions the task quotes (a Rust panic's
	// src/walk.rs:1200:9, a Go trace's waitgroup.go:64, a compiler's
	// error): the engine resolves each to the innermost symbol there.
	Locations []Location
	// Messages are the texts the task quotes that read as messages, not
	// names: quoted spans of two words or more, and the messages of
	// exception lines ("ValueError: invalid value for x"). A body that
	// formats such a message holds its words as literals.
	Messages []string

	// spare are the task's content words beyond maxComponents, in order,
	// with their Pos: the engine puts them in the places of components
	// its index cannot match.
	spare    []string
	sparePos []int
}

// Acronym is a candidate acronym of the task and where its words start.
type Acronym struct {
	Text string
	Pos  int
}

// Primary is Exact followed by Compounds.
func (k *Keywords) Primary() []string {
	out := make([]string, 0, len(k.Exact)+len(k.Compounds))
	out = append(out, k.Exact...)
	return append(out, k.Compounds...)
}

// Empty reports a task with nothing to search for.
func (k *Keywords) Empty() bool {
	return len(k.Exact)+len(k.Compounds)+len(k.Components)+len(k.Paths) == 0
}

// Limits keep a long task (a pasted bug report) from drowning the query.
const (
	maxScan       = 64 << 10 // bytes of task text examined
	maxExact      = 8
	maxCompounds  = 12
	maxComponents = 14
	maxSpare      = 16 // words kept beyond maxComponents to fill its gaps
	maxPaths      = 6
)

// shouted reports a word written in capitals (GET, POST, URL): the writer
// means the identifier or constant, even when the word is a stop word in
// prose.
func shouted(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// IsStopWord reports words that carry no search signal.
func IsStopWord(w string) bool {
	w = strings.ToLower(w)
	return stopWords[w] || programWords[w]
}

// ExtractKeywords reads a task description (step 1); it needs no index.
// It is linear in the text and examines at most the first 64 KiB.
func ExtractKeywords(task string) Keywords {
	if len(task) > maxScan {
		cut := maxScan
		for cut > 0 && !utf8.RuneStart(task[cut]) {
			cut--
		}
		task = task[:cut]
	}
	var b kwBuilder
	b.init()
	b.tests, b.examples = intents(task)

	b.backticks(task)
	b.messages(task)
	b.frames(task)
	toks := tokenize(withoutNativeArgs(task))
	b.codePatterns(toks)
	b.words(toks)
	return b.finish()
}

// intents reports whether the task talks about tests and about examples,
// outside quoted spans: "make 'cargo test' faster" quotes a command, it
// does not ask for tests.
func intents(task string) (tests, examples bool) {
	inQuote := rune(0)
	var word strings.Builder
	prev := ""
	check := func() {
		if word.Len() == 0 {
			return
		}
		w := strings.ToLower(word.String())
		word.Reset()
		tests = tests || testWords[w]
		if exampleWords[w] && !(prev == "for" && strings.HasPrefix(w, "example")) {
			examples = true
		}
		prev = w
	}
	for i, r := range task {
		switch {
		case inQuote != 0:
			if r == inQuote {
				inQuote = 0
			}
			continue
		case r == '`' || r == '"' || r == '\'' && (i == 0 || !isWordRune(prevRune(task, i))):
			check()
			inQuote = r
			continue
		}
		if isWordRune(r) {
			word.WriteRune(r)
			continue
		}
		check()
	}
	check()
	return tests, examples
}

type kwBuilder struct {
	seen                      map[string]bool
	exact, comp, parts, paths []string
	compShort                 []string // bigrams with a word contracted (WalkDir)
	priority                  []string
	expanded                  map[string]bool // components that came only from abbreviations, or are action verbs standing as nouns: weaker evidence, ordered last
	freq                      map[string]int
	order                     map[string]int
	tests, examples           bool
	code                      []string // names the task writes as code
	run                       []string // adjacent content words so far
	acronyms                  []Acronym
	refs                      []string // dotted names in prose (Keywords.References)
	locations                 []Location
	traceFrames               []Frame
	msgs                      []string // Keywords.Messages
}

// maxAcronyms bounds the candidate acronyms of one task.
const maxAcronyms = 16

// content records the next content word of a run of adjacent ones, and
// the acronyms the run's last three and four words make.
func (b *kwBuilder) content(w string) {
	b.run = append(b.run, w)
	for _, n := range [2]int{3, 4} {
		if len(b.run) < n || len(b.acronyms) == maxAcronyms {
			continue
		}
		var a [4]byte
		ok := true
		for i, x := range b.run[len(b.run)-n:] {
			c := x[0]
			if c < 'a' || c > 'z' {
				ok = false
				break
			}
			a[i] = c
		}
		if ok {
			pos, known := b.order[b.run[len(b.run)-n]]
			if !known {
				pos = len(b.order)
			}
			b.acronyms = append(b.acronyms, Acronym{Text: string(a[:n]), Pos: pos})
		}
	}
}

func (b *kwBuilder) init() {
	b.seen = map[string]bool{}
	b.freq = map[string]int{}
	b.order = map[string]int{}
	b.expanded = map[string]bool{}
}

func (b *kwBuilder) add(list *[]string, w string, tag string) {
	if len(w) < 2 || len(w) > 100 {
		return
	}
	key := tag + strings.ToLower(w)
	if b.seen[key] {
		return
	}
	b.seen[key] = true
	*list = append(*list, w)
}

// addCode adds an identifier the task writes as code (a stack frame, a
// call, Type.member) and remembers its name: such a match is the task's
// strongest evidence.
func (b *kwBuilder) addCode(list *[]string, w, tag string) {
	b.add(list, w, tag)
	if name := w[strings.LastIndexByte(w, '.')+1:]; len(name) >= 2 && !IsCode(b.code, name) {
		b.code = append(b.code, name)
	}
}

// IsCode reports whether name is one of the task's code names, ignoring
// case.
func IsCode(code []string, name string) bool {
	for _, c := range code {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

// contracted adds the bigrams of content words x and y with either or
// both contracted (walk + directory: WalkDir, walk_dir).
func (b *kwBuilder) contracted(x, y string) {
	xs, ys := contractions[x], contractions[y]
	if len(xs) == 0 && len(ys) == 0 {
		return
	}
	// Form 0 is the word as written, form i > 0 its (i-1)th short form.
	form := func(w string, short []string, i int) string {
		if i == 0 {
			return w
		}
		return short[i-1]
	}
	for i := 0; i <= len(xs); i++ {
		for j := 0; j <= len(ys); j++ {
			if i > 0 || j > 0 {
				cx, cy := form(x, xs, i), form(y, ys, j)
				b.add(&b.compShort, camel(cx)+camel(cy), "c")
				b.add(&b.compShort, cx+"_"+cy, "c")
			}
		}
	}
}

func (b *kwBuilder) addPart(w string) {
	lw := strings.ToLower(w)
	if len(lw) < 2 || IsStopWord(lw) && !shouted(w) || isNumber(lw) {
		return
	}
	b.freq[lw]++
	delete(b.expanded, lw)
	if _, ok := b.order[lw]; !ok {
		b.order[lw] = len(b.order)
	}
	b.add(&b.parts, lw, "p")
	for _, e := range abbreviations[lw] {
		if _, ok := b.order[e]; !ok {
			b.order[e] = len(b.order)
		}
		if !b.seen["p"+e] {
			b.expanded[e] = true
		}
		b.add(&b.parts, e, "p")
	}
}

// backticks takes `identifier` spans as exact symbol references.
func (b *kwBuilder) backticks(s string) {
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return
		}
		s = s[i+1:]
		if strings.HasPrefix(s, "``") { // a fenced block: its identifiers count as code
			s = s[2:]
			continue
		}
		j := strings.IndexByte(s, '`')
		if j < 0 {
			return
		}
		span := strings.TrimSpace(s[:j])
		s = s[j+1:]
		span = strings.TrimSuffix(span, "()")
		if span == "" || len(span) > 100 || strings.ContainsAny(span, " \t\n") {
			continue
		}
		for _, part := range splitQualified(span) {
			b.addCode(&b.exact, part, "e")
		}
		b.splitInto(span)
	}
}

func (b *kwBuilder) addPath(p string) {
	p = strings.Trim(p, "\"'`()[]<>,;")
	if i := strings.IndexByte(p, ':'); i > 0 && strings.Contains(p[:i], ".") {
		b.addLocation(p[:i], leadingInt(p[i+1:]))
		p = p[:i] // file.go:64
	}
	if p == "" {
		return
	}
	b.add(&b.paths, p, "f")
}

// isFileName reports a dotted token ending in a known file extension
// ("Cargo.lock", "setup.py").
func isFileName(s string) bool {
	i := strings.LastIndexByte(s, '.')
	return i > 0 && i < len(s)-1 && codeExt[strings.ToLower(s[i+1:])]
}

// codePatterns picks tokens that are clearly code: calls with parens,
// Class.method, dotted paths with underscores, a::b paths, file paths.
func (b *kwBuilder) codePatterns(toks []token) {
	for _, t := range toks {
		s := t.text
		if f := stripLine(s); f != s && isFileName(f) {
			b.addPath(s) // Service.java:120, app.py:12:5
			continue
		}
		if strings.Contains(s, "/") || strings.Contains(s, ".") && codeExt[strings.ToLower(s[strings.LastIndexByte(s, '.')+1:])] {
			if strings.ContainsAny(s, "/.") && !strings.Contains(s, "://") {
				if ext := s[strings.LastIndexByte(s, '.')+1:]; strings.Contains(s, ".") && codeExt[strings.ToLower(ext)] || strings.Count(s, "/") >= 1 {
					b.addPath(s)
					continue
				}
			}
		}
		switch {
		case strings.Contains(s, "::"):
			for _, p := range splitQualified(s) {
				b.addCode(&b.comp, p, "c")
			}
		case strings.Contains(s, "."):
			if t.parenNext && strings.Contains(s, "$") {
				if s = javaFrameName(s); !strings.Contains(s, ".") { // Outer$Inner.read(
					continue
				}
			}
			parts := strings.Split(s, ".")
			if isVersionLike(parts) || isAbbrev(s) {
				continue
			}
			left := parts[len(parts)-2]
			if t.parenNext || strings.Contains(s, "_") || startsUpper(left) && len(parts) == 2 {
				for _, p := range splitQualified(s) {
					b.addCode(&b.comp, p, "c")
				}
			}
			if len(b.refs) < maxReferences && !isFileName(s) && allIdents(parts) && !slices.Contains(b.refs, s) {
				b.refs = append(b.refs, s)
			}
		case t.parenNext && isIdent(s) && len(s) >= 3 && !IsStopWord(s) && !actionVerbs[strings.ToLower(s)]:
			b.addCode(&b.comp, s, "c")
		}
	}
}

// maxReferences bounds the dotted names of one task the engine checks.
const maxReferences = 8

// allIdents reports whether every part is an identifier.
func allIdents(parts []string) bool {
	for _, p := range parts {
		if !isIdent(p) {
			return false
		}
	}
	return true
}

func isVersionLike(parts []string) bool {
	for _, p := range parts {
		if !isNumber(p) {
			return false
		}
	}
	return true
}

func isAbbrev(s string) bool {
	l := strings.ToLower(s)
	return l == "e.g" || l == "i.e" || l == "etc" || len(s) <= 4
}

// splitInto adds the word parts of an identifier as components.
func (b *kwBuilder) splitInto(ident string) {
	for _, seg := range strings.FieldsFunc(ident, func(r rune) bool { return r == '.' || r == '/' || r == ':' }) {
		for _, w := range splitWords(seg) {
			b.addPart(w)
		}
	}
}

// words handles prose: compounds as written, components, the noun after an
// action verb, and bigrams of adjacent content words.
func (b *kwBuilder) words(toks []token) {
	prevContent := ""
	// apart ends both the bigram and the acronym a word could join.
	apart := func() {
		prevContent = ""
		b.run = b.run[:0]
	}
	verbSeen := false
	priorityTaken := false
	for i, t := range toks {
		s := t.text
		if t.brk {
			apart()
		}
		if strings.ContainsAny(s, "/") || isFileName(s) {
			// A path or a file name ("Cargo.lock") is matched as a path;
			// its words are no subject of the task.
			apart()
			continue
		}
		for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ':' }) {
			lw := strings.ToLower(seg)
			if i == 0 || !verbSeen && actionVerbs[lw] && i < 3 && !determiners[strings.ToLower(toks[i-1].text)] {
				if actionVerbs[lw] {
					verbSeen = true
					apart()
					continue
				}
			}
			if isCompound(seg) {
				b.add(&b.comp, seg, "c")
				if verbSeen && !priorityTaken {
					priorityTaken = true
				}
				b.splitInto(seg)
				prevContent = ""
				if hyphenated(seg) {
					// server-sent events → sse
					for _, p := range strings.Split(lw, "-") {
						if p != "" {
							b.content(p)
						}
					}
				} else {
					b.run = b.run[:0]
				}
				continue
			}
			if programWords[lw] && !stopWords[lw] && len(lw) >= 4 && prevContent != "" {
				// "query string", "error value": a programming word joins a
				// bigram but is no keyword on its own.
				b.add(&b.comp, camel(prevContent)+camel(lw), "c")
				b.add(&b.comp, prevContent+"_"+lw, "c")
				prevContent = ""
				b.content(lw)
				continue
			}
			if hookWords[lw] {
				// "before filter", "after request": lifecycle hooks are
				// named so in every framework (before_request,
				// BeforeFilter, afterEach); the word joins a bigram but is
				// no keyword on its own.
				prevContent = lw
				b.run = b.run[:0]
				continue
			}
			if name, ok := httpStatus[lw]; ok && statusContext(toks, i) {
				// "returns 404" is about NotFound, as every web
				// framework names it.
				b.add(&b.comp, name, "c")
				if w := splitWords(name); len(w) > 1 {
					b.add(&b.comp, strings.ToLower(strings.Join(w, "_")), "c")
				} else {
					b.addPart(name)
				}
			}
			if IsStopWord(lw) && !shouted(seg) || isNumber(lw) || len(lw) < 2 {
				apart()
				continue
			}
			if actionVerbs[lw] && verbPosition(toks, i, lw) {
				apart()
				continue
			}
			if verbSeen && !priorityTaken {
				priorityTaken = true
				b.priority = append(b.priority, lw)
			}
			b.addPart(seg)
			if actionVerbs[lw] {
				// A verb standing as a noun ("parallel build jobs") is
				// weaker evidence than a word that is only a noun: it
				// goes after them (measured: first, it cost a jekyll and
				// a cross-cutting task their top results).
				b.expanded[lw] = true
			}
			b.content(lw)
			if prevContent != "" && len(prevContent) >= 3 && len(lw) >= 3 && (len(prevContent) >= 4 || len(lw) >= 4) {
				b.add(&b.comp, camel(prevContent)+camel(lw), "c")
				b.add(&b.comp, prevContent+"_"+lw, "c")
				b.contracted(prevContent, lw)
			}
			prevContent = lw
		}
	}
}

// verbPosition reports whether the action verb at toks[i] stands where a
// verb does: opening a sentence or clause, after a verb cue, or as the
// first action verb after an auxiliary in its sentence. "test" and "tests"
// always count as verbs: the Tests flag carries them.
func verbPosition(toks []token, i int, lw string) bool {
	if i == 0 || toks[i].brk || lw == "test" || lw == "tests" {
		return true
	}
	if verbCues[strings.ToLower(toks[i-1].text)] {
		return true
	}
	// The subject between the auxiliary and the verb is a few words
	// ("caddy's static file server"); an apostrophe breaks tokens, so
	// breaks do not end the search.
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		w := strings.ToLower(toks[j].text)
		if actionVerbs[w] {
			return false // the sentence's verb came earlier
		}
		if auxiliaries[w] {
			return true
		}
	}
	return false
}

func (b *kwBuilder) finish() Keywords {
	var k Keywords
	k.Messages = b.msgs
	k.Tests = b.tests
	k.Examples = b.examples
	k.Code = b.code
	k.Exact = capList(b.exact, maxExact)
	// Identifiers from code patterns and frames come before bigrams: they
	// were added first. Keep the first ones.
	k.Compounds = capList(append(b.comp, b.compShort...), maxCompounds)
	k.Paths = capList(b.paths, maxPaths)
	// Components: priority nouns, then in order of first appearance (a
	// task names its subject first; measured better than by frequency
	// and length).
	prio := map[string]bool{}
	for _, p := range b.priority {
		prio[p] = true
	}
	parts := append([]string(nil), b.parts...)
	sort.SliceStable(parts, func(i, j int) bool {
		a, c := parts[i], parts[j]
		if prio[a] != prio[c] {
			return prio[a]
		}
		if b.expanded[a] != b.expanded[c] {
			return !b.expanded[a]
		}
		return b.order[a] < b.order[c]
	})
	k.Components = capList(parts, maxComponents)
	k.Pos = make(map[string]int, len(k.Components))
	for _, c := range k.Components {
		k.Pos[c] = b.order[c]
	}
	if len(parts) > maxComponents {
		for _, c := range parts[maxComponents:] {
			if len(k.spare) == maxSpare {
				break
			}
			if b.expanded[c] {
				continue // an abbreviation's expansion: weak
			}
			k.spare = append(k.spare, c)
			k.sparePos = append(k.sparePos, b.order[c])
		}
	}
	k.Acronyms = b.acronyms
	k.References = b.refs
	k.Locations = b.locations
	k.Frames = b.traceFrames
	return k
}

func capList(l []string, n int) []string {
	if len(l) > n {
		l = l[:n]
	}
	return l
}

// statusContext reports whether toks[i], a number, reads as an HTTP
// status code: "500 requests" does not, "returns 500" and "500 errors" do.
func statusContext(toks []token, i int) bool {
	if i > 0 && !toks[i].brk && statusWordsBefore[strings.ToLower(toks[i-1].text)] {
		return true
	}
	return i+1 < len(toks) && !toks[i+1].brk && statusWordsAfter[strings.ToLower(toks[i+1].text)]
}

// maxMessages bounds Keywords.Messages; maxMessage is the longest quoted
// span taken as a message.
const (
	maxMessages = 6
	maxMessage  = 200
)

// messages collects the quoted spans of two words or more and the
// messages of exception lines (Keywords.Messages).
func (b *kwBuilder) messages(s string) {
	add := func(m string) {
		m = strings.TrimSpace(m)
		if len(b.msgs) == maxMessages || len(m) < 5 || len(m) > maxMessage || !strings.ContainsAny(m, " \t") {
			return
		}
		for _, x := range b.msgs {
			if x == m {
				return
			}
		}
		b.msgs = append(b.msgs, m)
	}
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\r\n")
		if len(b.msgs) == maxMessages {
			return
		}
		t := strings.TrimSpace(line)
		// An exception line: Name(Error|Exception|Warning): message.
		if i := strings.Index(t, ": "); i > 0 && i < 80 {
			name := t[:i]
			if j := strings.LastIndexAny(name, ". "); j >= 0 {
				name = name[j+1:]
			}
			if strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Warning") {
				add(t[i+2:])
				continue
			}
		}
		// Quoted spans within the line.
		for q := 0; q < len(line); q++ {
			c := line[q]
			if c != '"' && c != '\'' && c != '`' {
				continue
			}
			if c == '\'' && q > 0 && isWordByte(line[q-1]) {
				continue // an apostrophe
			}
			end := strings.IndexByte(line[q+1:], c)
			if end < 0 {
				break
			}
			add(line[q+1 : q+1+end])
			q += end + 1
		}
	}
}
