package query

import (
	"slices"
	"sort"
	"strings"
	"unicode"
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

// stopWords are English function words and words every task uses.
var stopWords = set(`a an the and or but if then else of to in on at by for from with without into onto
over under about as is are was were be been being do does did done doing has have had having it its
this that these those there here which what when where why how who whom whose i we you he she they me
us them my our your his her their not no nor so than too very can could should would will shall may
might must also just only some any all each every both either neither other another such same own
more most less least many much few lot lots one two three first second last new old like via per
etc eg ie e.g i.e way ways thing things something anything everything nothing let lets make makes made
need needs needed want wants wanted use used uses using get gets got getting see sees seen look looks
happen happens happened currently now instead still even really actually always never sometimes
work works working worked case cases because while until after before since though although whether
able unable properly correctly correct wrong right good bad better best please thanks thank hi hello
code codebase project repo repository file files function functions method methods class classes
support supports supported supporting part parts
don doesn didn isn aren wasn weren won shouldn couldn wouldn hasn haven`)

// programWords are programming words too common in code to point anywhere.
var programWords = set(`func fn def var let const type types err nil null none true false
return returns new self this`)

// hookWords name when a lifecycle hook runs; they are stop words alone.
var hookWords = set(`before after`)

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

// actionVerbs open a task; the noun after one is the task's focus. They
// say what to do to the code, not what it does: verbs that name a
// capability (validate, register, convert, migrate) are the task's
// subject, as Validator, RegisterModule and Converter are, and stay
// keywords. "configure" stays here: "how does X configure logging" is
// about logging.
var actionVerbs = set(`add adds adding implement implements implementing build create creates creating
make write writes fix fixes fixing update updates updating refactor refactors refactoring change changes
modify remove removes removing delete deletes rename renames move moves extract replace replaces
improve improves optimize optimise speed support handle handles debug investigate find show explain
understand check checks ensure allow allows enable enables disable disables prevent prevents introduce
extend expose document test tests configure
where how`)

// abbreviations expand short forms developers type into the words code uses.
var abbreviations = map[string][]string{
	"ctx": {"context"}, "cfg": {"config", "configuration"}, "conf": {"config"}, "config": {"configuration"},
	"svc": {"service"}, "srv": {"server"}, "req": {"request"}, "res": {"response"}, "resp": {"response"},
	"msg": {"message"}, "err": {"error"}, "auth": {"authentication", "authorization"}, "authn": {"authentication"},
	"authz": {"authorization"}, "db": {"database"}, "repo": {"repository"}, "env": {"environment"},
	"args": {"arguments"}, "arg": {"argument"}, "params": {"parameters"}, "param": {"parameter"},
	"dir": {"directory"}, "dirs": {"directories"}, "init": {"initialize"}, "impl": {"implementation"},
	"info": {"information"}, "conn": {"connection"}, "tx": {"transaction"}, "txn": {"transaction"},
	"addr": {"address"}, "buf": {"buffer"}, "fmt": {"format"}, "idx": {"index"}, "len": {"length"},
	"num": {"number"}, "pkg": {"package"}, "tmpl": {"template"}, "tpl": {"template"}, "util": {"utility"},
	"utils": {"utilities"}, "val": {"value"}, "async": {"asynchronous"}, "sync": {"synchronize"},
	"deps": {"dependencies"}, "dep": {"dependency"}, "perm": {"permission"}, "perms": {"permissions"},
	"cli": {"command"}, "cmd": {"command"}, "opts": {"options"}, "opt": {"option"}, "doc": {"document"},
	"docs": {"documentation"}, "ws": {"websocket"}, "url": {"uri"}, "uri": {"url"}, "tls": {"ssl"},
	"ssl": {"tls"}, "jwt": {"token"}, "api": {"endpoint"}, "mw": {"middleware"}, "gc": {"garbage"},
	"io": {"input", "output"}, "fs": {"filesystem"}, "regex": {"regexp"}, "regexp": {"regex"},
	"stdin": {"input"}, "stdout": {"output"}, "stderr": {"error"}, "k8s": {"kubernetes"},
	"maximum": {"max"}, "minimum": {"min"}, "limit": {"max"}, "limits": {"max"},
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// IsStopWord reports words that carry no search signal.
func IsStopWord(w string) bool {
	w = strings.ToLower(w)
	return stopWords[w] || programWords[w]
}

// ExtractKeywords reads a task description. It is linear in the text and
// examines at most the first 64 KiB.
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
	b.frames(task)
	toks := tokenize(task)
	b.codePatterns(toks)
	b.words(toks)
	return b.finish()
}

// testWords mark a task about tests.
var testWords = set(`test tests testing tested unittest unittests spec specs fixture fixtures mock mocks
assert assertion assertions coverage benchmark benchmarks`)

// exampleWords mark a task about examples, demos or benchmarks: code
// that uses the project (snapshot.FlagExample). "example" after "for"
// ("for example, …") does not count.
var exampleWords = set(`example examples demo demos tutorial tutorials sample samples benchmark benchmarks bench`)

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

// contractions are the short forms code gives words a task writes in
// full: "query parameters" are queryParams, a "directory listing" is a
// dirListing. They are used in bigrams only, after the bigrams as
// written: alone, most are names of hundreds of unrelated symbols (err,
// req, str, id), and adding them as components lowered dev P@10 on three
// of five repositories (EVAL.md).
var contractions = map[string][]string{
	"directory": {"dir"}, "directories": {"dirs"}, "message": {"msg"}, "messages": {"msgs"},
	"context": {"ctx"}, "configuration": {"config", "cfg"}, "argument": {"arg"}, "arguments": {"args"},
	"parameter": {"param"}, "parameters": {"params"}, "initialize": {"init"}, "initialization": {"init"},
	"information": {"info"}, "connection": {"conn"}, "connections": {"conns"}, "address": {"addr"},
	"buffer": {"buf"}, "length": {"len"}, "number": {"num"}, "package": {"pkg"}, "packages": {"pkgs"},
	"template": {"tmpl"}, "temporary": {"temp", "tmp"}, "utility": {"util"}, "utilities": {"utils"},
	"dependency": {"dep"}, "dependencies": {"deps"}, "permission": {"perm"}, "permissions": {"perms"},
	"command": {"cmd"}, "option": {"opt"}, "options": {"opts"}, "environment": {"env"},
	"repository": {"repo"}, "database": {"db"}, "request": {"req"}, "response": {"resp"},
	"error": {"err"}, "implementation": {"impl"}, "specification": {"spec"}, "reference": {"ref"},
	"references": {"refs"}, "attribute": {"attr"}, "attributes": {"attrs"}, "expression": {"expr"},
	"previous": {"prev"}, "source": {"src"}, "destination": {"dst", "dest"}, "position": {"pos"},
	"statistics": {"stats"}, "allocate": {"alloc"}, "allocation": {"alloc"}, "character": {"char"},
	"characters": {"chars"}, "execute": {"exec"}, "generate": {"gen"}, "pointer": {"ptr"},
	"sequence": {"seq"}, "string": {"str"}, "function": {"func", "fn"}, "variable": {"var"},
	"object": {"obj"}, "document": {"doc"}, "synchronize": {"sync"}, "asynchronous": {"async"},
	"application": {"app"}, "authentication": {"auth"}, "authorization": {"auth"}, "library": {"lib"},
	"identifier": {"id"}, "maximum": {"max"}, "minimum": {"min"}, "integer": {"int"},
	"boolean": {"bool"}, "description": {"desc"}, "signature": {"sig"}, "certificate": {"cert"},
	"certificates": {"certs"}, "credentials": {"creds"}, "administrator": {"admin"},
	"hexadecimal": {"hex"}, "calculate": {"calc"}, "manager": {"mgr"}, "value": {"val"},
	"values": {"vals"}, "iterator": {"iter"}, "index": {"idx"}, "current": {"cur"},
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

var codeExt = set(`go py rb rs java cs js ts tsx jsx mjs cjs kt scala c h cc cpp hpp php swift erb yaml yml toml json md
lock txt cfg ini xml html htm css scss sh gradle properties gemspec sql proto`)

// allDigits reports a non-empty run of ASCII digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
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

// verbCues are the words after which an action verb is a verb: "to
// build", "and update", "should handle", "we check". After anything else
// it names a thing: "parallel build jobs", "the update loop", "a file
// handle", "health check".
var verbCues = set(`to and or then please should must can could will would shall may might also not
never always dont don't cannot i we you they let lets just first`)

// determiners make the word after them a noun: "the update loop".
var determiners = set(`the a an this that these those our my your its their each every any some no`)

// auxiliaries open a question whose verb comes after its subject: "how
// does caddy build a TLS configuration".
var auxiliaries = set(`does do did can could should would will is are`)

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

func camel(w string) string {
	if w == "" {
		return w
	}
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}

func (b *kwBuilder) finish() Keywords {
	var k Keywords
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

// httpStatus names the HTTP status codes tasks cite by number.
var httpStatus = map[string]string{
	"301": "MovedPermanently", "304": "NotModified", "400": "BadRequest", "401": "Unauthorized",
	"403": "Forbidden", "404": "NotFound", "405": "MethodNotAllowed", "408": "RequestTimeout",
	"409": "Conflict", "413": "RequestEntityTooLarge", "415": "UnsupportedMediaType",
	"429": "TooManyRequests", "500": "InternalServerError", "502": "BadGateway",
	"503": "ServiceUnavailable", "504": "GatewayTimeout",
}

// statusWordsBefore and statusWordsAfter are the words around a number
// that make it an HTTP status: "return a 404", "404 page", "status 500".
var (
	statusWordsBefore = set(`a an the return returns returning returned send sends respond responds responding
with status http code codes raise raises throw throws and or`)
	statusWordsAfter = set(`response responses error errors status page pages code codes not and or for
when instead unauthorized forbidden internal bad`)
)

// statusContext reports whether toks[i], a number, reads as an HTTP
// status code: "500 requests" does not, "returns 500" and "500 errors" do.
func statusContext(toks []token, i int) bool {
	if i > 0 && !toks[i].brk && statusWordsBefore[strings.ToLower(toks[i-1].text)] {
		return true
	}
	return i+1 < len(toks) && !toks[i+1].brk && statusWordsAfter[strings.ToLower(toks[i+1].text)]
}
