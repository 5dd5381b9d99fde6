package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildRepo builds a snapshot of a repository made of files.
func buildRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "repo"), files)
	snap := filepath.Join(dir, "x.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", filepath.Join(dir, "repo"), snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	return snap
}

// TestQueryCommandLine: the mistakes a newcomer makes on the command line
// get the obvious behaviour or a hint with the command that works.
func TestQueryCommandLine(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	snap := buildRepo(t, map[string]string{"srv/srv.go": "package srv\n\n// Serve answers requests on the listener.\nfunc Serve() {}\n\n// Hello greets.\nfunc Hello() {}\n"})
	dir := filepath.Dir(snap)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"query", "cookies", snap}, 2, "the snapshot comes first: knowing query " + snap},
		{[]string{"why", "task", snap, "Serve"}, 2, "the snapshot comes first"},
		{[]string{"query", dir, "task"}, 1, "knowing build --repo " + dir},
		{[]string{"query", "--limit", "0", snap, "task"}, 2, "--limit must be at least 1"},
		{[]string{"query", "--limit", "-1", snap, "task"}, 2, "--limit must be at least 1"},
		{[]string{"query", "--budget", "-5", snap, "task"}, 2, "--budget must be at least 1"},
	} {
		code, _, errs := knowing(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	notSnap := filepath.Join(dir, "notes.txt")
	os.WriteFile(notSnap, []byte("some notes"), 0o644)
	if code, _, errs := knowing(t, "", "query", notSnap, "task"); code != 1 || !strings.Contains(errs, "not a knowing snapshot; make one with") || strings.Contains(errs, "magic") {
		t.Errorf("not a snapshot: %d %q", code, errs)
	}

	// Unquoted task words are one task.
	_, quoted, _ := knowing(t, "", "query", "--json", snap, "answers requests on the listener")
	_, unquoted, _ := knowing(t, "", "query", "--json", snap, "answers", "requests", "on", "the", "listener")
	strip := func(s string) string { return s[:strings.Index(s, `"stats"`)] }
	if !strings.Contains(quoted, "srv.Serve") || strip(quoted) != strip(unquoted) {
		t.Errorf("unquoted words answer differently:\n%s\n%s", quoted, unquoted)
	}
	// A one-word task that is a stop word but names a symbol.
	if _, out, _ := knowing(t, "", "query", snap, "Hello"); !strings.Contains(out, "srv.Hello") {
		t.Errorf("Hello: %q", out)
	}
	// A task over the stdin limit is refused, not cut.
	big := strings.Repeat("serve ", maxStdinTask/6+10)
	if code, _, errs := knowing(t, big, "query", snap, "-"); code != 1 || !strings.Contains(errs, "over 4 MiB") {
		t.Errorf("huge stdin task: %d %q", code, errs)
	}
}

// TestQueryOutputs: JSON carries the repository root and every documented
// field even when empty; text and markdown escape control characters, show
// a Python summary as a Python comment and fence code with its language.
func TestQueryOutputs(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	snap := buildRepo(t, map[string]string{
		"pkg/mod.py":         "def plain():\n    return 1\n\n\ndef greet():\n    \"\"\"Say hello \x1b]0;owned\x07 to the user.\"\"\"\n    return 2\n",
		"pkg/\x1b[31mred.py": "def tinted():\n    return 3\n",
	})
	code, out, errs := knowing(t, "", "query", "--json", snap, "`plain`")
	if code != 0 {
		t.Fatal(errs)
	}
	var res struct {
		Repo    string           `json:"repo"`
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Repo == "" || len(res.Results) == 0 {
		t.Fatalf("no repo or results: %s", out)
	}
	for _, f := range []string{"symbol", "name", "kind", "lang", "file", "line", "end_line", "signature", "doc", "score", "tokens", "seed"} {
		if _, ok := res.Results[0][f]; !ok {
			t.Errorf("field %q missing from %v", f, res.Results[0])
		}
	}
	for _, format := range []string{"text", "markdown"} {
		_, out, _ := knowing(t, "", "query", "--format", format, snap, "greet the user tinted")
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s output holds control characters: %q", format, out)
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("%s output does not show the escaped characters: %q", format, out)
		}
		if format == "text" && !strings.Contains(out, "# Say hello") {
			t.Errorf("a Python summary is not shown as a Python comment: %q", out)
		}
		if format == "markdown" && !strings.Contains(out, "```python") {
			t.Errorf("markdown fences carry no language: %q", out)
		}
	}
}

// TestQueryRefusesDamage: a damaged snapshot is refused with the rebuild
// command, never answered from.
func TestQueryRefusesDamage(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	snap := buildRepo(t, map[string]string{"srv/srv.go": "package srv\n\n// Serve serves.\nfunc Serve() {}\n"})
	b, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x20
	if err := os.WriteFile(snap, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := knowing(t, "", "query", snap, "serve")
	if code != 1 || out != "" || !strings.Contains(errs, "damaged") || !strings.Contains(errs, "knowing build") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
