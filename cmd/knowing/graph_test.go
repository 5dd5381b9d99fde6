package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGraphCommandsNetHTTP answers def, callers and callees on net/http
// from the Go standard library, edges a reader can check in its source.
func TestGraphCommandsNetHTTP(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "http.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", filepath.Join(goroot(t), "src", "net", "http"), snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	calls := func(args ...string) callsReport {
		t.Helper()
		code, out, errs := knowing(t, "", append([]string{args[0], "--json"}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		var r callsReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	has := func(r callsReport, sym string, depth int) bool {
		for _, h := range r.Results {
			if h.Symbol == sym && h.Depth == depth {
				return true
			}
		}
		return false
	}
	// server.go: func Serve(l, handler) calls srv.Serve(l); ListenAndServe
	// calls srv.Serve(ln); the package-level ListenAndServe calls the
	// method ListenAndServe, so it is a caller at depth 2.
	r := calls("callers", "--depth", "2", snap, "net/http.Server.Serve")
	for _, want := range []struct {
		sym   string
		depth int
	}{{"net/http.Serve", 1}, {"net/http.Server.ListenAndServe", 1}, {"net/http.ListenAndServe", 2}} {
		if !has(r, want.sym, want.depth) {
			t.Errorf("callers of Server.Serve: %s at depth %d missing", want.sym, want.depth)
		}
	}
	// cookie.go: readCookies calls parseCookieValue.
	if r := calls("callees", snap, "readCookies"); !has(r, "net/http.parseCookieValue", 1) {
		t.Errorf("callees of readCookies: %+v", r.Results)
	}
	if r := calls("callers", "--limit", "1", snap, "Server.Serve"); len(r.Results) != 1 || r.Cut == 0 {
		t.Errorf("--limit 1: %d results, %d cut", len(r.Results), r.Cut)
	}

	code, out, errs := knowing(t, "", "def", "--json", snap, "cookie.go:380")
	var def map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &def) != nil || def["symbol"] != "net/http.readCookies" || def["file"] != "cookie.go" {
		t.Errorf("def cookie.go:380: %d %s %s", code, out, errs)
	}
	if code, _, errs := knowing(t, "", "def", snap, "Serve"); code != 1 || !strings.Contains(errs, "net/http.Server.Serve") || !strings.Contains(errs, "give more of the qualified name") {
		t.Errorf("ambiguous: %d %q", code, errs)
	}
	if code, _, errs := knowing(t, "", "callers", snap, "readCookiez"); code != 1 || !strings.Contains(errs, "near names: net/http.readCookies") {
		t.Errorf("unknown: %d %q", code, errs)
	}
	if code, _, errs := knowing(t, "", "callers", "--depth", "0", snap, "readCookies"); code != 2 || !strings.Contains(errs, "--depth") {
		t.Errorf("depth 0: %d %q", code, errs)
	}
}

// TestRefsOutline: refs lists the edges into a symbol by type; outline a
// file's symbols nested, in line order, on testdata/go.
func TestRefsOutline(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "go.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/go", snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	code, out, errs := knowing(t, "", "refs", "--json", snap, "store.Store")
	var refs refsReport
	if code != 0 || json.Unmarshal([]byte(out), &refs) != nil {
		t.Fatalf("refs: %d %s", code, errs)
	}
	var got []string
	for _, r := range refs.Results {
		got = append(got, r.Edge+" "+r.Symbol)
	}
	// memory.go: MemoryStore has Store's methods; server.go: Server holds a
	// Store field.
	for _, want := range []string{"contains store/store.go", "implements example.com/shop/store.MemoryStore", "references example.com/shop/server.Server"} {
		if !slices.Contains(got, want) {
			t.Errorf("refs of store.Store: %q missing from %q", want, got)
		}
	}
	code, out, errs = knowing(t, "", "outline", "--json", snap, "store/memory.go")
	var ol outlineReport
	if code != 0 || json.Unmarshal([]byte(out), &ol) != nil {
		t.Fatalf("outline: %d %s", code, errs)
	}
	got = got[:0]
	for _, o := range ol.Results {
		got = append(got, strings.Repeat(">", o.Depth)+o.Name)
	}
	want := []string{">MemoryStore", ">>items", ">>Get", ">>Put", ">NewMemoryStore"}
	if !slices.Equal(got, want) {
		t.Errorf("outline of store/memory.go: %q, want %q", got, want)
	}
	if code, _, errs := knowing(t, "", "outline", snap, "nowhere.go"); code != 1 || !strings.Contains(errs, "nowhere.go") {
		t.Errorf("unknown file: %d %q", code, errs)
	}
}

// TestImpactNetHTTP: a change to readCookies reaches the Request methods
// that call it, the tests that call them, and, three calls away, the
// client's do.
func TestImpactNetHTTP(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "http.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", filepath.Join(goroot(t), "src", "net", "http"), snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	code, out, errs := knowing(t, "", "impact", "--json", snap, "net/http.readCookies")
	var rep impactReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("impact: %d %s", code, errs)
	}
	depth := map[string]int{}
	for _, r := range rep.Results {
		depth[r.Symbol] = r.Depth
	}
	for sym, d := range map[string]int{"net/http.Request.Cookies": 1, "net/http.Request.Cookie": 1, "net/http.TestReadCookies": 1, "net/http.Client.do": 3} {
		if depth[sym] != d {
			t.Errorf("%s at depth %d, want %d (results %v)", sym, depth[sym], d, depth)
		}
	}
	if rep.Results[0].Walk != 1 {
		t.Errorf("the first result's walk mass is %v, want 1 (the best)", rep.Results[0].Walk)
	}
}

// TestChangesNetHTTP: a two-hunk diff to cookie.go touches readSetCookies
// (line 235) and readCookies (line 380); their callers in request.go and
// response.go may break.
func TestChangesNetHTTP(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "http.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", filepath.Join(goroot(t), "src", "net", "http"), snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	diff := "--- a/cookie.go\n+++ b/cookie.go\n@@ -235 +235 @@\n-a\n+b\n@@ -380 +380 @@\n-c\n+d\n"
	code, out, errs := knowing(t, diff, "changes", "--json", "--diff", "-", snap)
	var rep changesReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("changes: %d %s", code, errs)
	}
	var changed []string
	for _, c := range rep.Changed {
		changed = append(changed, c.Symbol)
	}
	if !slices.Equal(changed, []string{"net/http.readSetCookies", "net/http.readCookies"}) {
		t.Errorf("changed %v", changed)
	}
	via := map[string]string{}
	for _, r := range rep.Impact {
		via[r.Symbol] = r.Via + " " + r.From
	}
	for sym, want := range map[string]string{
		"net/http.Request.Cookies":  "calls net/http.readCookies",
		"net/http.Response.Cookies": "calls net/http.readSetCookies",
	} {
		if via[sym] != want {
			t.Errorf("%s: %q, want %q", sym, via[sym], want)
		}
	}
	if code, _, errs := knowing(t, "", "changes", snap); code != 2 || !strings.Contains(errs, "--diff") {
		t.Errorf("no change given: %d %q", code, errs)
	}
}

// TestChangesGit: --git reads the change from the snapshot's repository,
// here one the test makes: a commit that edits one function.
func TestChangesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	writeFiles(t, dir, map[string]string{"a/a.go": "package a\n\nfunc One() int {\n\treturn 1\n}\n\nfunc Two() int {\n\treturn One() + 1\n}\n"})
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "one and two")
	snap := filepath.Join(t.TempDir(), "a.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", dir, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	writeFiles(t, dir, map[string]string{"a/a.go": "package a\n\nfunc One() int {\n\treturn 2\n}\n\nfunc Two() int {\n\treturn One() + 1\n}\n"})
	gitRun("commit", "-q", "-am", "one returns two")
	code, out, errs := knowing(t, "", "changes", "--json", "--git", "HEAD~1..HEAD", snap)
	var rep changesReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("changes --git: %d %s %s", code, out, errs)
	}
	if len(rep.Changed) != 1 || !strings.HasSuffix(rep.Changed[0].Symbol, "a.One") || len(rep.Impact) != 1 || !strings.HasSuffix(rep.Impact[0].Symbol, "a.Two") {
		t.Errorf("changes --git: %s", out)
	}
	// A change whose symbols nobody calls: impact is an empty list, not null.
	if _, out, _ := knowing(t, "", "changes", "--json", "--files", "a/a.go", "--depth", "1", snap); !strings.Contains(out, `"impact": [`) {
		t.Errorf("impact not a list: %s", out)
	}
	if code, _, errs := knowing(t, "", "changes", "--git", "--output=/tmp/x", snap); code != 2 || !strings.Contains(errs, "takes a range") {
		t.Errorf("an option as a range: %d %q", code, errs)
	}
}

// TestDefSource: def --source prints the symbol's code from the
// repository, and says so when the file changed since the build.
func TestDefSource(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	body := "package a\n\n// One is one.\nfunc One() int {\n\treturn 1\n}\n"
	writeFiles(t, dir, map[string]string{"a/a.go": body})
	snap := filepath.Join(t.TempDir(), "a.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", dir, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	code, out, errs := knowing(t, "", "def", "--source", "--json", snap, "One")
	var rep struct {
		Symbol string
		Source Source
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Source.Code != "func One() int {\n\treturn 1\n}\n" || rep.Source.Changed {
		t.Errorf("def --source: %d %s %s", code, out, errs)
	}
	writeFiles(t, dir, map[string]string{"a/a.go": "package a\n\n// extra\n" + body[len("package a\n\n"):]})
	code, out, errs = knowing(t, "", "def", "--source", snap, "One")
	if code != 0 || !strings.Contains(errs, "changed since the snapshot was built") {
		t.Errorf("changed file: %d %q %q", code, out, errs)
	}
}

// TestQuerySource: query --source gives the best results' code while the
// budget has room, and never more than the budget.
func TestQuerySource(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "go.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/go", snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	for _, budget := range []int{60, 400, 50000} {
		code, out, errs := knowing(t, "", "query", "--json", "--source", "--budget", strconv.Itoa(budget), snap, "get an item from the memory store")
		var res queryJSON
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("query --source: %d %s", code, errs)
		}
		used := res.Stats.Tokens
		for _, src := range res.Sources {
			used += (len(src.Code) + 3) / 4
			if src.Rank < 1 || src.Rank > len(res.Results) || res.Results[src.Rank-1].Symbol != src.Symbol || !strings.Contains(src.Code, res.Results[src.Rank-1].Name) {
				t.Errorf("budget %d: source %d (%s) does not match its result", budget, src.Rank, src.Symbol)
			}
		}
		if used > budget {
			t.Errorf("budget %d: %d tokens with the code", budget, used)
		}
		if budget == 50000 && len(res.Sources) != len(res.Results) {
			t.Errorf("a large budget gave code for %d of %d results", len(res.Sources), len(res.Results))
		}
	}
}
