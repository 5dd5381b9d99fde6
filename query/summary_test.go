package query

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSummary(t *testing.T) {
	long := strings.Repeat("word ", 80)
	for _, c := range []struct{ name, doc, want string }{
		{"one line", "Serve accepts connections.", "Serve accepts connections."},
		{"first paragraph", "Register a function\nto run before each request.\n\nFor example ...", "Register a function to run before each request."},
		{"leading blank lines", "\n\n  Indented   text\n", "Indented text"},
		{"tags before the prose", "@experimental\n `css` is an experimental feature.", "`css` is an experimental feature."},
		{"javadoc params end it", "Map the route for POST\n @param path the path", "Map the route for POST"},
		{"sphinx fields end it", "Open a resource.\n:param name: the name", "Open a resource."},
		{"google sections end it", "Build the app.\nReturns: the app", "Build the app."},
		{"rst directive ends it", "Send a file.\n.. versionadded:: 0.5", "Send a file."},
		{"only tags", "@template T\n@returns x", ""},
		{"empty", "", ""},
		{"cut at a sentence", "First sentence is here and it is long enough to keep. " + long, "First sentence is here and it is long enough to keep."},
		{"cut at a word", long, strings.TrimSpace(long[:SummaryMax]) + "…"},
	} {
		if got := Summary(c.doc); got != c.want {
			t.Errorf("%s: Summary(%q) = %q, want %q", c.name, c.doc, got, c.want)
		}
	}
	// Multi-byte text is cut on a rune boundary and stays within bounds.
	s := Summary(strings.Repeat("é", 400))
	if !utf8.ValidString(s) || len(s) > SummaryMax+len("…") {
		t.Errorf("Summary of a long non-ASCII doc: %d bytes, valid %v", len(s), utf8.ValidString(s))
	}
}
