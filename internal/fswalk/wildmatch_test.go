package fswalk

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pathological is git's worst case: many stars against a name that almost
// matches. Backtracking takes time exponential in the stars: git's own
// algorithm, run without the memo, takes 929 million steps (9 s) here.
var pathological = struct{ pat, text string }{
	strings.Repeat("*a", 10),
	strings.Repeat("a", 39) + "b",
}

// TestWildmatchStepBound: a match takes at most one step per (pattern,
// text) position pair once the memo is on, however many stars.
func TestWildmatchStepBound(t *testing.T) {
	cases := []struct{ pat, text string }{
		pathological,
		{strings.Repeat("*", 10) + "x", strings.Repeat("y", 40)},
		{strings.Repeat("a*", 12) + "/b", strings.Repeat("a", 30) + "/c"}, // 71 million steps without the memo
		{"**/" + strings.Repeat("*a", 8) + "/**/z", strings.Repeat("aa/", 12) + "q"},
	}
	for _, c := range cases {
		w := wild{p: c.pat, t: c.text}
		got := w.match(0, 0) == wmMatch
		limit := memoAfter + (len(c.pat)+1)*(len(c.text)+1)
		if w.steps > limit {
			t.Errorf("wildmatch(%q, %q): %d steps, want at most %d", c.pat, c.text, w.steps, limit)
		}
		if got {
			t.Errorf("wildmatch(%q, %q) matched", c.pat, c.text)
		}
	}
}

// TestWildmatchMemoSameAnswers: the memo changes the work, never the
// answer. Random patterns over a small alphabet with many stars, slashes
// and brackets, each matched with the memo on from the first step and
// with it never on.
func TestWildmatchMemoSameAnswers(t *testing.T) {
	defer func(n int) { memoAfter = n }(memoAfter)
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "b", "/", "*", "**", "?", "[ab]", "[!a]", "\\*", "**/", "/**"}
	letters := "ab/*"
	for i := 0; i < 20000; i++ {
		var pb, tb strings.Builder
		for n := rng.Intn(9); n >= 0; n-- {
			pb.WriteString(pieces[rng.Intn(len(pieces))])
		}
		for n := rng.Intn(14); n >= 0; n-- {
			tb.WriteByte(letters[rng.Intn(len(letters))])
		}
		pat, text := pb.String(), tb.String()
		memoAfter = 1 << 62
		plain := wild{p: pat, t: text}
		want := plain.match(0, 0)
		memoAfter = 0
		memo := wild{p: pat, t: text}
		if got := memo.match(0, 0); got != want {
			t.Fatalf("wildmatch(%q, %q): %d with the memo, %d without", pat, text, got, want)
		}
	}
}

// BenchmarkWildmatchPathological: git takes seconds here; the memo keeps it
// to microseconds.
func BenchmarkWildmatchPathological(b *testing.B) {
	for i := 0; i < b.N; i++ {
		wildmatch(pathological.pat, pathological.text)
	}
}

// BenchmarkMatcherHostileIgnoreFile: a 10,000-line ignore file of
// pathological patterns against one 40-letter name (git itself would take
// hours).
func BenchmarkMatcherHostileIgnoreFile(b *testing.B) {
	var lines []string
	for i := 0; i < 10000; i++ {
		lines = append(lines, strings.Repeat("*a", 10)+string(rune('c'+i%20)))
	}
	m := NewMatcher()
	m.AddPatterns("", lines...)
	name := "src/" + pathological.text
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Match(name, false)
	}
}

// TestIgnoreWorkBounded: a hostile ignore file cannot hold the walk past
// MatchBudget steps of glob matching in all; the budget's end is reported
// once, and the walk finishes with every file it did not exclude.
func TestIgnoreWorkBounded(t *testing.T) {
	root := t.TempDir()
	var lines []string
	for i := 0; i < 2000; i++ {
		lines = append(lines, strings.Repeat("*a", 10)+"*c")
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		name := filepath.Join(root, strings.Repeat("a", 39)+strconv.Itoa(i)+".go")
		if err := os.WriteFile(name, []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(n int64) { walkBudget = n }(walkBudget)
	walkBudget = 1 << 20
	files, reported := 0, 0
	err := Walk(root, Options{Exts: map[string]bool{".go": true}}, func(File) error { files++; return nil }, func(s Skipped) {
		if s.Reason == ReasonIgnoreBudget {
			reported++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 40 || reported != 1 {
		t.Errorf("%d files walked, budget reported %d times; want 40 and 1", files, reported)
	}
}
