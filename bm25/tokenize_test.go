package bm25

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestAppendTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"lower-cased", "Hello WORLD", []string{"hello", "world"}},
		{"camelCase", "getUserById", []string{"getuserbyid", "get", "user", "id"}}, // "by" is a stop word
		{"PascalCase", "ParseConfigFile", []string{"parseconfigfile", "parse", "config", "file"}},
		{"acronym then word", "HTTPServer", []string{"httpserver", "http", "server"}},
		{"acronym in the middle", "getHTTPResponse", []string{"gethttpresponse", "get", "http", "response", "httpresponse"}},
		{"two-letter acronym", "IOError", []string{"ioerror", "io", "error"}},
		{"mixed-case word", "SQLiteStore", []string{"sqlitestore", "sq", "lite", "sqlite", "store"}},
		{"trailing acronym", "parseJSON", []string{"parsejson", "parse", "json"}},
		{"digits stay attached", "SearchBM25Nodes", []string{"searchbm25nodes", "search", "bm25", "nodes", "node"}},
		{"utf8", "utf8", []string{"utf8"}},
		{"base64", "base64", []string{"base64"}},
		{"digits then word", "utf8String", []string{"utf8string", "utf8", "string"}},
		{"leading digits", "64bit", []string{"64bit"}},
		{"acronym digits word", "HTTP2Server", []string{"http2server", "http2", "server"}},
		{"snake_case", "before_request", []string{"before_request", "before", "request"}},
		{"SCREAMING_SNAKE", "MAX_RETRY_COUNT", []string{"max_retry_count", "max", "retry", "count"}},
		{"dunder", "__init__", []string{"__init__", "init"}},
		{"kebab-case", "my-component", []string{"my-component", "my", "component"}},
		{"hyphen as punctuation", "a - b -flag x->y", []string{"flag"}},
		{"dotted path", "os.path.join", []string{"os.path.join", "os", "path", "join"}},
		{"slashed path", "net/http", []string{"net/http", "net", "http"}},
		{"file path", "src/UserService.go", []string{"src/userservice.go", "src", "userservice", "user", "service", "go"}},
		{"path with call", "os.path.join(a, b)", []string{"os.path.join", "os", "path", "join"}},
		{"qualified name", "pkg.Server.ServeHTTP", []string{"pkg.server.servehttp", "pkg", "server", "servehttp", "serve", "http"}},
		{"path of 64 bytes is whole", strings.Repeat("abcdefg.", 7) + "abcdefgz",
			append([]string{strings.Repeat("abcdefg.", 7) + "abcdefgz"}, append(seven("abcdefg"), "abcdefgz")...)},
		{"path of 65 bytes is not", strings.Repeat("abcdefg.", 7) + "abcdefgzz",
			append(seven("abcdefg"), "abcdefgzz")},
		{"punctuation splits", "a,b;c=d&e|f!g?h*i[j]k{l}m<n>o'p\"q:r(s)t",
			nil},
		{"punctuation splits words", "foo,bar;baz=qux&quux|corge!grault?garply*waldo[fred]plugh{xyzzy}thud<x1>'it'\"s\":tt(uu)vv",
			[]string{"foo", "bar", "baz", "qux", "quux", "corge", "grault", "garply", "waldo", "fred", "plugh", "xyzzy", "thud", "x1", "tt", "uu", "vv"}},
		{"sentence end is not a path", "Returns the user. Then", []string{"returns", "return", "user", "then"}},
		{"stop words dropped", "the map of a key to an item is in it as well", []string{"map", "key", "item", "well"}},
		{"programming words kept", "if not get set new", []string{"if", "not", "get", "set", "new"}},
		{"short terms dropped", "x y z i", nil},
		{"plural s", "headers", []string{"headers", "header"}},
		{"plural sses", "classes", []string{"classes", "class"}},
		{"plural ches", "matches", []string{"matches", "match"}},
		{"plural xes", "indexes", []string{"indexes", "index"}},
		{"plural ies", "dependencies", []string{"dependencies", "dependency"}},
		{"plural ses", "responses", []string{"responses", "response"}},
		{"no singular for ss us is", "process status analysis", []string{"process", "status", "analysis"}},
		{"no singular for short words", "uses does bits", []string{"uses", "does", "bits"}},
		{"singular of a part", "getHeaders", []string{"getheaders", "get", "headers", "header"}},
		{"repeats kept", "get get Get", []string{"get", "get", "get"}},
		{"unicode letters", "Größe straße ÜberCache", []string{"größe", "straße", "übercache", "über", "cache"}},
		{"url", "https://github.com/foo/bar", []string{"https", "http", "github.com/foo/bar", "github", "com", "foo", "bar"}},
		{"signature", "func (s *Searcher) Search(q []QueryTerm, k int) []Hit",
			[]string{"func", "searcher", "search", "queryterm", "query", "term", "int", "hit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendTokens(nil, tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AppendTokens(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func seven(s string) []string { return strings.Fields(strings.Repeat(s+" ", 7)) }

func TestAppendTokensAppends(t *testing.T) {
	dst := []string{"keep"}
	got := AppendTokens(dst, "fooBar")
	want := []string{"keep", "foobar", "foo", "bar"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestAppendTokensProperties(t *testing.T) {
	inputs := []string{
		"getUserById HTTPServer SQLiteStore os.path.join net/http",
		"\xff\xfe invalid utf-8 \xc3",
		"ÀÉÎ ǅungla ΣΑΣ 東京タワー",
		strings.Repeat("a.", 40),
		"-_-_- ___ --- ...///:::",
	}
	for _, in := range inputs {
		a := AppendTokens(nil, in)
		b := AppendTokens(nil, in)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("not deterministic for %q", in)
		}
		for _, tok := range a {
			if len(tok) < 2 || len(tok) > MaxTermLen {
				t.Errorf("%q: term %q has bad length", in, tok)
			}
			if isStopWord(tok) {
				t.Errorf("%q: stop word %q emitted", in, tok)
			}
			if tok != strings.ToLower(tok) {
				t.Errorf("%q: term %q not lower-cased", in, tok)
			}
			// Query terms round-trip: tokenizing a term yields it again.
			if got := AppendTokens(nil, tok); len(got) == 0 || got[0] != tok {
				t.Errorf("%q: term %q tokenizes to %q", in, tok, got)
			}
		}
	}
}

func TestAppendTokensLongInputLinear(t *testing.T) {
	inputs := map[string]string{
		"one identifier": strings.Repeat("aB", 50_000),
		"one path":       strings.Repeat("ab.", 34_000),
		"snake":          strings.Repeat("a_", 50_000),
		"kebab":          strings.Repeat("ab-", 34_000),
		"acronyms":       strings.Repeat("ABCd", 25_000),
		"words":          strings.Repeat("parse the configFile headers ", 3_500),
		"digits":         strings.Repeat("9", 100_000),
	}
	for name, in := range inputs {
		start := time.Now()
		toks := AppendTokens(nil, in)
		// A generous bound: quadratic behaviour on 100 KB takes seconds.
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: %v for %d bytes", name, d, len(in))
		}
		for _, tok := range toks {
			if len(tok) > MaxTermLen {
				t.Fatalf("%s: term of %d bytes", name, len(tok))
			}
		}
	}
}

// TestAppendTokensOneCopy: ASCII text is lower-cased once and its terms
// cut from the copy (a fresh one, or the builder's reused scratch); the
// terms must be exactly those of lower-casing term by term, the path
// non-ASCII text takes.
func TestAppendTokensOneCopy(t *testing.T) {
	const alphabet = "aeiouxyzAEIOUXYZsS09_-./ \t:(),*#'"
	r := rand.New(rand.NewPCG(5, 6))
	inputs := []string{
		"func (srv *Server) ListenAndServeTLS(certFile, keyFile string) error",
		"HTTPServer SQLiteStore getUserByID utf8String 64bit SearchBM25Nodes",
		"net/http.Server.Serve os.path.join src/cli/commandLineParser.ts",
		"Dependencies classes matches headers statuses analysis",
		strings.Repeat("ABCdef.", 60),
	}
	for i := 0; i < 5000; i++ {
		b := make([]byte, r.IntN(80))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	inputs = append(inputs, "ÀÉÎ ǅungla ΣΑΣ getÜber", "")
	var scratch []byte
	for _, in := range inputs {
		want := appendTokens(nil, in, "")
		if got := AppendTokens(nil, in); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, term by term %q", in, got, want)
		}
		if got := appendTokensScratch(nil, in, &scratch); !slices.Equal(got, want) {
			t.Fatalf("%q: %q with the scratch, term by term %q", in, got, want)
		}
	}
}

// trickyTexts exercise the tokenizer's edges: case splits, kebab-case,
// paths of many segments and over MaxPathTerm, non-ASCII text and paths,
// invalid UTF-8.
var trickyTexts = []string{
	"getUserById HTTPServer SQLiteStore os.path.join net/http",
	"flask.sansio.scaffold.Scaffold.before_request",
	"def before_request(self, f: T_before_request) -> T_before_request",
	"x-request-id a-_b -leading trailing- a--b 3d-model",
	strings.Repeat("seg.", 20) + "end",
	strings.Repeat("LongSegmentName.", 6) + "Tail",
	"Ünïcode.Päth/Straße ΣΑΣ.σας 東京.タワー ǅungla.Ǆ",
	"\xff\xfe invalid utf-8 \xc3 a.\xff.b",
	"HTTPServer.ServeHTTP/v2.JSONEncoder.encodeUTF8String",
	"-_-_- ___ --- ...///::: a. .b a/ /b",
}

// TestUnitsTokenizeAlone: a text's terms are its units' terms, each unit
// tokenized by itself, which the index builder's memo relies on.
func TestUnitsTokenizeAlone(t *testing.T) {
	for _, in := range trickyTexts {
		var got []string
		var ends [16]int
		for i := 0; i < len(in); {
			start, end, _ := nextUnit(in, i, &ends)
			if start == end {
				break
			}
			got = AppendTokens(got, in[start:end])
			i = end
		}
		if want := AppendTokens(nil, in); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: by units %q, whole %q", in, got, want)
		}
	}
}
