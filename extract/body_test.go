package extract

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// bodyOf runs the body lexer over src as one function of lang spanning
// every line.
func bodyOf(lang snapshot.Lang, src string) (code, text string) {
	r := &FileResult{Lang: lang, Symbols: []Symbol{{Name: "f", Kind: snapshot.KindFunction, Start: 1, End: uint32(strings.Count(src, "\n") + 1)}}}
	addBodyWords(r, []byte(src))
	return r.Symbols[0].Body, r.Symbols[0].Text
}

// TestBodyWords tells code from literals and comments in each language
// family; words of one letter and keywords are left out.
func TestBodyWords(t *testing.T) {
	for _, c := range []struct {
		name       string
		lang       snapshot.Lang
		src        string
		code, text string
	}{
		{"go", snapshot.LangGo, "func f(n int) error {\n\t// reject what the quota does not allow\n\tif n > quotaLimit {\n\t\treturn fmt.Errorf(\"request quota exhausted for %s\\n\", tenant)\n\t}\n\tr := '\"'\n\treturn nil\n}",
			"int error quotaLimit fmt Errorf tenant", "reject what the quota does not allow request exhausted for"},
		{"python", snapshot.LangPython, "def f(self, key):\n    \"\"\"Look the key up.\n    Twice.\"\"\"\n    # a hash comment\n    raise KeyError(f'no value for {key!r}')  # trailing\n",
			"key KeyError", "Look the key up Twice hash comment no value for trailing"},
		{"rust", snapshot.LangRust, "fn f<'a>(s: &'a str) -> char {\n    let c = 'x';\n    /* block\n comment */ s.chars().next().unwrap_or(c)\n}",
			"str char chars next unwrap_or", "block comment"},
		{"javascript", snapshot.LangJavaScript, "function f(user) {\n  return `hello ${user.name}` + 'bye' // done\n}",
			"user", "hello user name bye done"},
		{"ruby", snapshot.LangRuby, "def f(path)\n  # expand it\n  File.expand_path(path, \"~/root\")\nend",
			"path File expand_path", "expand it root"},
	} {
		code, text := bodyOf(c.lang, c.src)
		if code != c.code || text != c.text {
			t.Errorf("%s:\n code %q\n want %q\n text %q\n want %q", c.name, code, c.code, text, c.text)
		}
	}
}

// TestBodyWordsCapped keeps each word once and at most the caps.
func TestBodyWordsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("func f() {\n")
	for i := 0; i < 3*MaxBodyCodeWords; i++ {
		b.WriteString("\txx = v" + strings.Repeat("a", i%7+1) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + " // word" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + "\n")
	}
	b.WriteString("}\n")
	code, text := bodyOf(snapshot.LangGo, b.String())
	cw, tw := strings.Fields(code), strings.Fields(text)
	if len(cw) != MaxBodyCodeWords || len(tw) != MaxBodyTextWords {
		t.Fatalf("%d code words, %d text words; want %d and %d", len(cw), len(tw), MaxBodyCodeWords, MaxBodyTextWords)
	}
	seen := map[string]bool{}
	for _, w := range cw {
		if seen[w] {
			t.Fatalf("code word %q twice", w)
		}
		seen[w] = true
	}
	if cw[0] != "xx" {
		t.Errorf("first code word %q, want xx (source order)", cw[0])
	}
}

// TestBodyWordsCallablesOnly leaves types, fields and spanless symbols
// without body words.
func TestBodyWordsCallablesOnly(t *testing.T) {
	src := "type T struct {\n\tname string // the name\n}\nfunc (t T) Get() string { return t.name }\n"
	r := &FileResult{Lang: snapshot.LangGo, Symbols: []Symbol{
		{Name: "T", Kind: snapshot.KindStruct, Start: 1, End: 3},
		{Name: "name", Kind: snapshot.KindField, Start: 2, End: 2},
		{Name: "Get", Kind: snapshot.KindMethod, Start: 4, End: 4},
		{Name: "Lost", Kind: snapshot.KindFunction, Start: 9, End: 12},
	}}
	addBodyWords(r, []byte(src))
	for i, want := range []string{"", "", "Get string name", ""} {
		if got := r.Symbols[i].Body; got != want {
			t.Errorf("%s: body %q, want %q", r.Symbols[i].Name, got, want)
		}
	}
}
