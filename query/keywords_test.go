package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestKeywordsCompoundsAndParts(t *testing.T) {
	k := ExtractKeywords("add a before_request hook that checks API keys")
	if !slices.Contains(k.Compounds, "before_request") {
		t.Errorf("compounds %v lack before_request", k.Compounds)
	}
	for _, w := range []string{"request", "hook", "api", "keys"} {
		if !slices.Contains(k.Components, w) {
			t.Errorf("components %v lack %q", k.Components, w)
		}
	}
	if slices.Contains(k.Components, "add") || slices.Contains(k.Components, "that") {
		t.Errorf("verbs or stop words kept: %v", k.Components)
	}
	if i, j := slices.Index(k.Components, "api"), slices.Index(k.Components, "endpoint"); j >= 0 && i > j {
		t.Errorf("expansion before its source: %v", k.Components)
	}
}

// Verbs that name what the code does (validate → Validator, register →
// RegisterModule, convert → Converter) are the task's subject, not its
// edit: they stay keywords wherever they stand. Edit verbs do not.
func TestKeywordsDomainVerbs(t *testing.T) {
	for _, c := range []struct {
		task, verb string
		kept       bool
	}{
		{"validate the JSON body against a schema", "validate", true},
		{"register a custom URL converter", "register", true},
		{"convert markdown pages to HTML", "convert", true},
		{"migrate the schema on startup", "migrate", true},
		{"add a JSON body parser", "add", false},
		{"fix the JSON body parser", "fix", false},
		{"configure structured logging per site", "configure", false},
	} {
		k := ExtractKeywords(c.task)
		if got := slices.Contains(k.Components, c.verb); got != c.kept {
			t.Errorf("%q: %q kept %v, want %v (components %v)", c.task, c.verb, got, c.kept, k.Components)
		}
	}
}

func TestKeywordsAcronyms(t *testing.T) {
	has := func(k Keywords, a string) bool {
		for _, x := range k.Acronyms {
			if x.Text == a {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		task, acronym string
		want          bool
	}{
		{"stream server-sent events to the client", "sse", true},
		{"add cross-origin resource sharing headers", "cors", true},
		{"protect forms against cross-site request forgery", "csrf", true},
		{"sign a JSON web token for the user", "jwt", true},
		{"walk the abstract syntax tree", "ast", true},
		{"read the X-Forwarded-For header", "xff", true},
		{"sign a token for the web user", "twu", false},  // across a stop word
		{"the server sent. events follow", "sse", false}, // across a sentence
		{"add server-sent events", "ase", false},         // an edit verb is no content word
		{"log the 3 recent used entries", "ru", false},   // two letters: never
	} {
		k := ExtractKeywords(c.task)
		if got := has(k, c.acronym); got != c.want {
			t.Errorf("%q: acronym %q %v, want %v (acronyms %v)", c.task, c.acronym, got, c.want, k.Acronyms)
		}
	}
	k := ExtractKeywords("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen")
	if len(k.Acronyms) > maxAcronyms {
		t.Errorf("%d acronyms, at most %d", len(k.Acronyms), maxAcronyms)
	}
}

func TestKeywordsHTTPStatus(t *testing.T) {
	for _, c := range []struct {
		task, name string
		want       bool
	}{
		{"return a 404 response when no route matches", "NotFound", true},
		{"custom pages for 404 and 500 errors", "InternalServerError", true},
		{"reject big uploads with 413", "RequestEntityTooLarge", true},
		{"respond with status 429 when a client sends too much", "TooManyRequests", true},
		{"limit uploads to 500 files", "InternalServerError", false},
		{"wait 503 ms before retrying", "ServiceUnavailable", false},
	} {
		k := ExtractKeywords(c.task)
		if got := slices.Contains(k.Compounds, c.name); got != c.want {
			t.Errorf("%q: %s in compounds %v, want %v (%v)", c.task, c.name, got, c.want, k.Compounds)
		}
	}
}

func TestKeywordsExpansions(t *testing.T) {
	k := ExtractKeywords("add a middleware that limits the cfg size")
	for _, w := range []string{"limits", "max", "cfg", "config"} {
		if !slices.Contains(k.Components, w) {
			t.Errorf("components %v lack %q", k.Components, w)
		}
	}
	if i, j := slices.Index(k.Components, "limits"), slices.Index(k.Components, "max"); i > j {
		t.Errorf("expansion before its source: %v", k.Components)
	}
}

func TestKeywordsPriorityNounAndBigrams(t *testing.T) {
	k := ExtractKeywords("add a new MCP tool for snapshot diffing")
	if k.Components[0] != "mcp" {
		t.Errorf("priority noun not first: %v", k.Components)
	}
	for _, c := range []string{"SnapshotDiffing", "snapshot_diffing"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("bigram %s missing from %v", c, k.Compounds)
		}
	}
	k = ExtractKeywords("Parse the config. Server starts late")
	if slices.Contains(k.Compounds, "ConfigServer") {
		t.Errorf("bigram across a period: %v", k.Compounds)
	}
}

// TestKeywordsContractedBigrams: a bigram of words code contracts also
// comes in its contracted forms, after the bigrams as written; the short
// forms are no components of their own.
func TestKeywordsContractedBigrams(t *testing.T) {
	k := ExtractKeywords("read and parse query parameters from the directory listing")
	for _, c := range []string{"QueryParams", "query_params", "DirListing", "dir_listing", "QueryParameters"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("bigram %s missing from %v", c, k.Compounds)
		}
	}
	if i, j := slices.Index(k.Compounds, "DirectoryListing"), slices.Index(k.Compounds, "QueryParams"); i < 0 || i > j {
		t.Errorf("a contracted bigram before one as written: %v", k.Compounds)
	}
	for _, w := range []string{"params", "dir"} {
		if slices.Contains(k.Components, w) {
			t.Errorf("short form %q is a component: %v", w, k.Components)
		}
	}
}

func TestKeywordsExactAndCodePatterns(t *testing.T) {
	k := ExtractKeywords("Fix `Scaffold.errorhandler` so register_error_handler() and QuerySet.annotate() accept subclasses, e.g. in 3.9")
	for _, e := range []string{"Scaffold.errorhandler", "errorhandler"} {
		if !slices.Contains(k.Exact, e) {
			t.Errorf("exact %v lacks %s", k.Exact, e)
		}
	}
	for _, c := range []string{"register_error_handler", "QuerySet.annotate", "annotate"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("compounds %v lack %s", k.Compounds, c)
		}
	}
	for _, c := range k.Compounds {
		if c == "3.9" || strings.EqualFold(c, "e.g") {
			t.Errorf("prose or version taken as code: %v", k.Compounds)
		}
	}
}

func TestKeywordsSplitting(t *testing.T) {
	cases := map[string][]string{
		"HTTPServer":      {"HTTP", "Server"},
		"getUserById":     {"get", "User", "By", "Id"},
		"SearchBM25Nodes": {"Search", "BM25", "Nodes"},
		"URIs":            {"URIs"},
		"before_request":  {"before", "request"},
	}
	for in, want := range cases {
		if got := splitWords(in); !slices.Equal(got, want) {
			t.Errorf("splitWords(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestKeywordsEmptyAndHuge(t *testing.T) {
	if k := ExtractKeywords("the and of to"); !k.Empty() {
		t.Errorf("stop words only: %+v", k)
	}
	if k := ExtractKeywords("how do we add tests for the router"); !k.Tests {
		t.Error("test intent not seen")
	}
	huge := strings.Repeat("the connection pool leaks sockets under load when retries happen ", 2000) // ~130 KB
	k := ExtractKeywords(huge)
	if len(k.Components) > maxComponents || len(k.Compounds) > maxCompounds {
		t.Errorf("caps not applied: %d components, %d compounds", len(k.Components), len(k.Compounds))
	}
	if !slices.Contains(k.Components, "connection") {
		t.Errorf("lost the content words: %v", k.Components)
	}
}

func TestAboutTests(t *testing.T) {
	cases := map[string]bool{
		"add tests for the router":                       true,
		"why does this spec fail":                        true,
		"make 'cargo test --release' expand to an alias": false,
		"the `test` subcommand is slow":                  false,
		"latest version of the resolver":                 false,
		"contest results page":                           false,
	}
	for task, want := range cases {
		if got, _ := intents(task); got != want {
			t.Errorf("intents(%q) tests = %v, want %v", task, got, want)
		}
	}
}

func TestIntents(t *testing.T) {
	cases := []struct {
		task            string
		tests, examples bool
	}{
		{"add an example app for the router", false, true},
		{"the demo crashes on start", false, true},
		{"speed up the benchmarks", true, true},
		{"the router is slow, for example on long paths", false, false},
		{"For example, a nil map panics", false, false},
		{"run the 'examples' target", false, false},
		{"add tests for the sample parser", true, true},
		{"validate API keys", false, false},
	}
	for _, c := range cases {
		if tests, examples := intents(c.task); tests != c.tests || examples != c.examples {
			t.Errorf("intents(%q) = %v, %v, want %v, %v", c.task, tests, examples, c.tests, c.examples)
		}
	}
}

func TestKeywordsHooksShoutingAndFileNames(t *testing.T) {
	k := ExtractKeywords("Add a before filter that checks headers")
	for _, c := range []string{"BeforeFilter", "before_filter"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("hook bigram %s missing from %v", c, k.Compounds)
		}
	}
	if slices.Contains(k.Components, "before") {
		t.Errorf("hook word kept alone: %v", k.Components)
	}

	k = ExtractKeywords("Add a new GET endpoint that returns JSON")
	if !slices.Contains(k.Components, "get") {
		t.Errorf("a word in capitals was dropped as a stop word: %v", k.Components)
	}
	k = ExtractKeywords("get the endpoint")
	if slices.Contains(k.Components, "get") {
		t.Errorf("a stop word in prose was kept: %v", k.Components)
	}

	k = ExtractKeywords("Fix a Cargo.lock merge conflict")
	if !slices.Contains(k.Paths, "Cargo.lock") {
		t.Errorf("file name not taken as a path: %v", k.Paths)
	}
	if slices.Contains(k.Compounds, "Cargo.lock") || slices.Contains(k.Compounds, "lock") {
		t.Errorf("file name taken as Type.member: %v", k.Compounds)
	}
	if slices.Contains(k.Components, "lock") || slices.Contains(k.Components, "cargo") || slices.Contains(k.Compounds, "CargoLock") {
		t.Errorf("a file name's words taken as the task's subject: %v %v", k.Components, k.Compounds)
	}
	if !slices.Contains(k.Components, "merge") || !slices.Contains(k.Compounds, "MergeConflict") {
		t.Errorf("the words after a file name lost: %v %v", k.Components, k.Compounds)
	}
}

func TestKeywordsContractions(t *testing.T) {
	k := ExtractKeywords("nested handlers don't propagate errors")
	for _, c := range k.Compounds {
		if strings.Contains(strings.ToLower(c), "don") {
			t.Errorf("a contraction formed a compound: %v", k.Compounds)
		}
	}
	if slices.Contains(k.Components, "don") {
		t.Errorf("contraction kept: %v", k.Components)
	}
}

// An action verb is dropped where it stands as a verb, and kept where it
// names a thing: "parallel build jobs" is about builds.
func TestActionVerbAsNoun(t *testing.T) {
	cases := []struct {
		task string
		word string
		kept bool
	}{
		{"Add a new configuration field that controls the number of parallel build jobs", "build", true},
		{"the update loop stalls when the queue is full", "update", true},
		{"close the file handle when the reader fails", "handle", true},
		{"a failing health check marks the upstream down", "check", true},
		{"Build a parser for config files", "build", false},
		{"How does caddy build a TLS configuration for incoming connections", "build", false},
		{"How does caddy's static file server handle HTTP requests", "handle", false},
		{"we need to update the session cache", "update", false},
		{"parse the flags and update the settings", "update", false},
		{"Fix the flaky tests in the scheduler", "tests", false},
	}
	for _, c := range cases {
		k := ExtractKeywords(c.task)
		if got := slices.Contains(k.Components, c.word); got != c.kept {
			t.Errorf("%q: %q kept = %v, want %v (components %v)", c.task, c.word, got, c.kept, k.Components)
		}
	}
	// A verb standing as a noun is weaker evidence than a plain noun.
	k := ExtractKeywords("Add a new configuration field that controls the number of parallel build jobs")
	if i, j := slices.Index(k.Components, "build"), slices.Index(k.Components, "jobs"); i < j {
		t.Errorf("build (a verb as a noun) before jobs: %v", k.Components)
	}
}

func TestReferences(t *testing.T) {
	kw := ExtractKeywords("site.process fails after Cargo.lock changes in version 1.2.3, e.g. when res.cookie() runs")
	if want := []string{"site.process", "res.cookie"}; !slices.Equal(kw.References, want) {
		t.Errorf("references %q, want %q", kw.References, want)
	}
}

// TestFeatureIsAWord checks that "feature" is a keyword: it names a
// concept in many codebases (cargo's features, feature flags), and in a
// task that uses it loosely ("add a feature") the index's statistics
// weigh it down.
func TestFeatureIsAWord(t *testing.T) {
	k := ExtractKeywords("debug unexpected feature unification in dev-dependencies")
	if !slices.Contains(k.Components, "feature") {
		t.Errorf("components %q lack feature", k.Components)
	}
}

// A bug report's quoted messages and exception lines are kept whole, as
// messages, wherever they stand; single words in quotes, apostrophes and
// names are not messages.
func TestKeywordsMessages(t *testing.T) {
	task := "When I load the schema it's broken.\n" +
		"I get the error \"Unknown field in nested schema\" from load, and 'id' is ignored.\n" +
		"Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n" +
		"marshmallow.exceptions.ValidationError: Not a valid integer for key {}\n"
	k := ExtractKeywords(task)
	want := []string{"Unknown field in nested schema", "Not a valid integer for key {}"}
	for _, w := range want {
		if !slices.Contains(k.Messages, w) {
			t.Errorf("messages %q lack %q", k.Messages, w)
		}
	}
	for _, m := range k.Messages {
		if m == "id" || m == "app.py" || strings.HasPrefix(m, "s broken") {
			t.Errorf("not a message: %q (all: %q)", m, k.Messages)
		}
	}
	if k := ExtractKeywords(strings.Repeat("say \"one two three\" and \"four five six\" ", 10)); len(k.Messages) != 2 {
		t.Errorf("repeated messages kept more than once: %q", k.Messages)
	}
	var many strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&many, "then \"message number %d here\"\n", i)
	}
	if k := ExtractKeywords(many.String()); len(k.Messages) != maxMessages || k.Messages[0] != "message number 0 here" {
		t.Errorf("want the first %d of 20 messages, got %q", maxMessages, k.Messages)
	}
}
