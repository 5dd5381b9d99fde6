package fswalk

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"testing"
)

type ignoreCheck struct {
	path string
	dir  bool
	want bool
}

type ignoreCase struct {
	name string
	// files maps an ignore file's path (".gitignore", "a/.gitignore",
	// ".git/info/exclude") to its content.
	files  map[string]string
	checks []ignoreCheck
}

// f, d: a file or a folder that must be ignored (true) or not.
func f(p string, want bool) ignoreCheck { return ignoreCheck{path: p, want: want} }
func d(p string, want bool) ignoreCheck { return ignoreCheck{path: p, dir: true, want: want} }

func root(content string) map[string]string { return map[string]string{".gitignore": content} }

var ignoreCases = []ignoreCase{
	// Plain names match the base name at any depth.
	{"name", root("foo\n"), []ignoreCheck{
		f("foo", true), f("a/foo", true), d("b/foo", true), f("foobar", false), f("a/xfoo", false), f("FOO", false),
	}},
	{"blank lines and comments", root("\n# foo\n#bar\n\n"), []ignoreCheck{
		f("# foo", false), f("#bar", false), f("foo", false),
	}},
	{"escaped hash", root("\\#foo\n"), []ignoreCheck{f("#foo", true), f("foo", false)}},
	{"escaped bang", root("\\!imp\n"), []ignoreCheck{f("!imp", true), f("imp", false)}},
	{"trailing spaces trimmed", root("foo   \nbar\t\n"), []ignoreCheck{
		f("foo", true), f("foo   ", false), f("bar", false), f("bar\t", true),
	}},
	{"escaped trailing space kept", root("foo\\ \n"), []ignoreCheck{f("foo ", true), f("foo", false)}},
	{"leading space kept", root(" lead\n"), []ignoreCheck{f(" lead", true), f("lead", false)}},
	{"crlf", root("foo\r\nbar\r\n"), []ignoreCheck{f("foo", true), f("bar", true)}},
	{"bom", root("\xEF\xBB\xBFfoo\n"), []ignoreCheck{f("foo", true)}},
	{"no final newline", root("foo\nbar"), []ignoreCheck{f("bar", true)}},

	// Negation: the last matching pattern wins.
	{"negation", root("*.log\n!keep.log\n"), []ignoreCheck{
		f("a.log", true), f("keep.log", false), f("x/keep.log", false), f("x/b.log", true),
	}},
	{"negation order", root("!keep.log\n*.log\n"), []ignoreCheck{f("keep.log", true)}},
	{"bare bang and slash match nothing", root("!\n/\n"), []ignoreCheck{f("x", false), d("y", false)}},

	// Directory-only patterns.
	{"dir only", root("out/\n"), []ignoreCheck{
		d("out", true), d("a/out", true), f("a/out/x.go", true), f("b/c/out/d/y.go", true), f("out2", false),
	}},
	{"dir only skips files", root("out/\n"), []ignoreCheck{f("out", false), f("a/out", false)}},
	{"dir only negated", root("tmp*\n!tmpkeep/\n"), []ignoreCheck{
		d("tmpkeep", false), f("tmpkeep/x", false), f("a/tmpkeep", true), f("tmpx", true),
	}},

	// Anchoring: a leading or middle slash ties the pattern to the
	// .gitignore's folder.
	{"anchored", root("/foo\n"), []ignoreCheck{f("foo", true), f("a/foo", false), d("b/foo", false)}},
	{"middle slash", root("doc/frotz\n"), []ignoreCheck{
		f("doc/frotz", true), f("a/doc/frotz", false),
	}},
	{"middle slash folder", root("doc/frotz\n"), []ignoreCheck{d("doc/frotz", true), f("doc/frotz/x", true)}},
	{"middle slash dir only", root("doc/frotz/\n"), []ignoreCheck{
		d("doc/frotz", true), d("a/doc/frotz", false), f("doc/frotz/y", true),
	}},
	{"middle slash file not dir", root("doc/frotz/\n"), []ignoreCheck{f("doc/frotz", false)}},
	{"anchored glob", root("/*.c\n"), []ignoreCheck{f("x.c", true), f("a/x.c", false)}},

	// Wildcards.
	{"star", root("*.go\n"), []ignoreCheck{f("a.go", true), f("a/b/c.go", true), f("a.go.txt", false), f(".go", true)}},
	{"star no slash", root("a/*.go\n"), []ignoreCheck{f("a/x.go", true), f("a/b/x.go", false)}},
	{"star segment", root("a/*/b\n"), []ignoreCheck{f("a/x/b", true), f("a/x/y/b", false), f("a/b", false)}},
	{"question", root("?.c\n"), []ignoreCheck{f("a.c", true), f("ab.c", false), f(".c", false)}},
	{"question no slash", root("a?b\n"), []ignoreCheck{f("axb", true), f("a/b", false)}},
	{"range", root("[a-c].txt\n"), []ignoreCheck{f("b.txt", true), f("d.txt", false), f("-.txt", false)}},
	{"negated range", root("[!a-c].txt\n[^x]y\n"), []ignoreCheck{
		f("d.txt", true), f("b.txt", false), f("zy", true), f("xy", false),
	}},
	{"class", root("[[:digit:]]x\n[[:upper:]][[:lower:]]\n"), []ignoreCheck{
		f("1x", true), f("ax", false), f("Ab", true), f("ab", false),
	}},
	{"bracket specials", root("[]a]z\n[a-]q\n[\\*]w\n"), []ignoreCheck{
		f("]z", true), f("az", true), f("bz", false), f("-q", true), f("aq", true), f("*w", true), f("\\w", false),
	}},
	{"escaped star", root("\\*star\n"), []ignoreCheck{f("*star", true), f("xstar", false)}},
	{"ends with", root("*.min.js\n"), []ignoreCheck{f("a.min.js", true), f("x/y/.min.js", true), f("a.js", false)}},

	// "**".
	{"leading starstar", root("**/foo\n"), []ignoreCheck{
		f("foo", true), f("a/b/foo", true), d("c/foo", true), f("xfoo", false),
	}},
	{"leading starstar two", root("**/foo/bar\n"), []ignoreCheck{
		f("foo/bar", true), f("x/y/foo/bar", true), f("foo/x/bar", false), f("bar", false),
	}},
	{"trailing starstar", root("abc/**\n"), []ignoreCheck{
		d("abc", false), f("abc/x", true), f("abc/y/z", true), f("x/abc/y", false),
	}},
	{"middle starstar", root("a/**/b\n"), []ignoreCheck{
		f("a/b", true), f("a/x/b", true), f("a/x/y/b", true), f("a/xb", false), f("x/a/b", false),
	}},
	{"starstar dir only", root("a/**/\n"), []ignoreCheck{d("a/x", true), f("a/y", false)}},
	{"starstar alone", root("**\n"), []ignoreCheck{f("x", true), d("y", true), f("z/w", true)}},
	{"starstar in name is a star", root("a**b\n"), []ignoreCheck{f("axyb", true), f("ab", true)}},
	{"starstar after text is a star", root("a/**b\n"), []ignoreCheck{
		f("a/xb", true), f("a/b", true), f("a/x/yb", false),
	}},
	{"starstar after literal prefix", root("/foo**/x\n"), []ignoreCheck{
		f("foox/x", true), f("foo/a/b/x", true),
	}},

	// Folders: an excluded folder cannot have files re-included.
	{"excluded folder wins", root("dir/\n!dir/keep\n"), []ignoreCheck{d("dir", true), f("dir/keep", true)}},
	{"folder contents can be re-included", root("dir/*\n!dir/keep\n"), []ignoreCheck{
		d("dir", false), f("dir/keep", false), f("dir/other", true),
	}},
	{"gitignore doc example", root("/*\n!/foo\n/foo/*\n!/foo/bar\n"), []ignoreCheck{
		d("foo/bar", false), f("foo/baz", true), f("x", true), f("foo/bar/deep", false),
	}},
	{"whitelist", root("*\n!*/\n!*.go\n"), []ignoreCheck{
		f("x/y.go", false), f("x/y.txt", true), f("z.go", false), f("z", true),
	}},

	// Nested .gitignore files: rules apply below their folder, deeper
	// files take precedence.
	{"nested negation", map[string]string{".gitignore": "*.gen\n", "a/.gitignore": "!keep.gen\n"}, []ignoreCheck{
		f("keep.gen", true), f("a/keep.gen", false), f("a/b/keep.gen", false), f("a/x.gen", true),
	}},
	{"nested anchored", map[string]string{"a/.gitignore": "/x\nb/y\n"}, []ignoreCheck{
		f("a/x", true), f("x", false), f("a/b/x", false), f("a/b/y", true), f("b/y", false), f("a/c/b/y", false),
	}},
	{"nested precedence", map[string]string{".gitignore": "!foo.txt\n", "a/.gitignore": "*.txt\n"}, []ignoreCheck{
		f("a/foo.txt", true), f("foo.txt", false),
	}},
	{"nested does not apply to its folder", map[string]string{"a/.gitignore": "a\n"}, []ignoreCheck{
		d("a", false), f("a/a", true),
	}},
	{"nested cannot re-include from ignored folder", map[string]string{".gitignore": "a/\n", "a/.gitignore": "!keep\n"}, []ignoreCheck{
		f("a/keep", true),
	}},
	{"nested middle starstar", map[string]string{"a/.gitignore": "b/**/c\n"}, []ignoreCheck{
		f("a/b/c", true), f("a/b/x/c", true), f("b/c", false),
	}},
	{"deep nested", map[string]string{".gitignore": "*.o\n", "a/b/.gitignore": "!*.o\n", "a/b/c/.gitignore": "x.o\n"}, []ignoreCheck{
		f("a/y.o", true), f("a/b/y.o", false), f("a/b/c/y.o", false), f("a/b/c/x.o", true),
	}},
	{"info exclude has lowest precedence", map[string]string{".git/info/exclude": "*.md\n", ".gitignore": "!README.md\n"}, []ignoreCheck{
		f("README.md", false), f("other.md", true), f("sub/x.md", true),
	}},
}

// buildMatcher adds a case's ignore files to a Matcher, .git/info/exclude
// first.
func buildMatcher(files map[string]string) *Matcher {
	m := NewMatcher()
	if c, ok := files[".git/info/exclude"]; ok {
		m.Add("", []byte(c))
	}
	var names []string
	for n := range files {
		if n != ".git/info/exclude" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		m.Add(path.Dir(n), []byte(files[n]))
	}
	return m
}

func TestMatcher(t *testing.T) {
	for _, c := range ignoreCases {
		m := buildMatcher(c.files)
		for _, ch := range c.checks {
			if got := m.Match(ch.path, ch.dir); got != ch.want {
				t.Errorf("%s: Match(%q, dir=%v) = %v, want %v (files %q)", c.name, ch.path, ch.dir, got, ch.want, c.files)
			}
		}
	}
}

// TestMatcherAgainstGit builds each table case as a real repository and
// asks git check-ignore, so the table itself is checked against git.
func TestMatcherAgainstGit(t *testing.T) {
	if gitPath() == "" {
		t.Skip("git not installed")
	}
	env := gitEnv(t)
	for _, c := range ignoreCases {
		dir := t.TempDir()
		gitInit(t, env, dir)
		for n, content := range c.files {
			writeFile(t, filepath.Join(dir, n), content)
		}
		var paths []string
		for _, ch := range c.checks {
			p := filepath.Join(dir, filepath.FromSlash(ch.path))
			if ch.dir {
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, p, "x\n")
			}
			paths = append(paths, ch.path)
		}
		ignored := gitCheckIgnore(t, env, dir, paths)
		for _, ch := range c.checks {
			if ignored[ch.path] != ch.want {
				t.Errorf("%s: git says %q ignored=%v, table says %v", c.name, ch.path, ignored[ch.path], ch.want)
			}
		}
	}
}

func TestMatcherPathForms(t *testing.T) {
	m := NewMatcher()
	m.AddPatterns("", "out/", "# c", "*.tmp")
	for _, tc := range []struct {
		path string
		dir  bool
		want bool
	}{
		{"out/", false, true}, // trailing slash marks a folder
		{"./out", true, true},
		{"out/x.go", false, true},
		{"x.tmp", false, true},
		{"", true, false},
		{".", true, false},
	} {
		if got := m.Match(tc.path, tc.dir); got != tc.want {
			t.Errorf("Match(%q, %v) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
	var zero Matcher
	if zero.Match("anything", false) {
		t.Error("zero Matcher ignores")
	}
}

func TestWildmatch(t *testing.T) {
	for _, tc := range []struct {
		pat, text string
		want      bool
	}{
		{"foo", "foo", true},
		{"foo", "bar", false},
		{"", "", true},
		{"???", "abc", true},
		{"*", "foo", true},
		{"*", "", true},
		{"f*", "foo", true},
		{"*f", "foo", false},
		{"*foo*", "foo", true},
		{"*ob*a*r*", "foobar", true},
		{"*ab", "aaaaaaabababab", true},
		{"foo\\*", "foo*", true},
		{"foo\\*bar", "foobar", false},
		{"f\\\\oo", "f\\oo", true},
		{"*[al]?", "ball", true},
		{"[ten]", "ten", false},
		{"**[!te]", "ten", true},
		{"**[!ten]", "ten", false},
		{"t[a-g]n", "ten", true},
		{"t[!a-g]n", "ten", false},
		{"t[!a-g]n", "ton", true},
		{"t[^a-g]n", "ton", true},
		{"a[]]b", "a]b", true},
		{"a[]-]b", "a-b", true},
		{"a[]-]b", "a]b", true},
		{"a[]-]b", "aab", false},
		{"a[]a-]b", "aab", true},
		{"]", "]", true},
		{"foo*bar", "foo/baz/bar", false},
		{"foo**bar", "foo/baz/bar", false},
		{"foo/**/bar", "foo/baz/bar", true},
		{"foo/**/bar", "foo/b/a/z/bar", true},
		{"foo/**/bar", "foo/bar", true},
		{"foo/**/**/bar", "foo/b/a/z/bar", true},
		{"**/foo", "foo", true},
		{"**/foo", "x/y/foo", true},
		{"**/foo", "xfoo", false},
		{"foo/**", "foo/x/y", true},
		{"foo/**", "foo", false},
		{"*/foo", "x/foo", true},
		{"*/foo", "x/y/foo", false},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
		{"[[:digit:][:upper:][:space:]]", "a", false},
		{"[[:digit:][:upper:][:space:]]", "A", true},
		{"[[:digit:][:upper:][:space:]]", " ", true},
		{"[[:xdigit:]]", "f", true},
		{"[[:xdigit:]]", "g", false},
		{"[[:foo:]]", "f", false}, // malformed class
		{"[a-c", "b", false},      // unterminated
		{"a?b", "a/b", false},
		{"a[/]b", "a/b", false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
		{"*/*/*", "foo/bb/aa/rr", false},
		{"**/**/**", "foo/bb/aa/rr", true},
		{"*X*i", "abcXdefXghi", true},
		{"*/*X*/*/*i", "ab/cXd/efXg/hi", true},
		{"**/*X*/**/*i", "ab/cXd/efXg/hi", true},
	} {
		if got := wildmatch(tc.pat, tc.text); got != tc.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tc.pat, tc.text, got, tc.want)
		}
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a":       "a",
		"a  ":     "a",
		"a\\ ":    "a\\ ",
		"a\\  ":   "a\\ ",
		"a b ":    "a b",
		"   ":     "",
		"a\\":     "a\\",
		"a\t":     "a\t",
		"\\ \\  ": "\\ \\ ",
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("trimTrailingSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
