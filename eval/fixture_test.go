package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchFixtures is the shared bench, beside the repository: ../shared
// relative to the repository root, which is one level above this
// package's folder.
const benchFixtures = "../../shared/bench/fixtures"

func TestLoadBenchFixtures(t *testing.T) {
	if _, err := os.Stat(benchFixtures); err != nil {
		t.Skipf("bench fixtures not present: %v", err)
	}
	fs, err := LoadDir(benchFixtures)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 100 {
		t.Fatalf("loaded %d fixtures, want 100", len(fs))
	}
	repos := map[string]int{}
	for i, f := range fs {
		repos[f.Repo]++
		if f.ID == "" || f.Description == "" || len(f.GroundTruth) == 0 || f.Path == "" {
			t.Errorf("fixture %d incomplete: %+v", i, f)
		}
		if tierRank(f.Tier) >= len(Tiers) {
			t.Errorf("%s: tier %q", f.ID, f.Tier)
		}
		if i > 0 && fs[i-1].Path >= f.Path {
			t.Errorf("not in path order: %s before %s", fs[i-1].Path, f.Path)
		}
	}
	want := map[string]int{"caddy": 20, "cargo": 22, "flask": 18, "jekyll": 20, "spark-java": 20}
	for r, n := range want {
		if repos[r] != n {
			t.Errorf("repo %s: %d fixtures, want %d", r, repos[r], n)
		}
	}
	if n := len(FilterRepo(fs, "cargo")); n != 22 {
		t.Errorf("FilterRepo(cargo) = %d fixtures, want 22 (19 + 3 cross-cutting)", n)
	}
	if n := len(FilterRepo(fs, "flask", "jekyll")); n != 38 {
		t.Errorf("FilterRepo(flask, jekyll) = %d", n)
	}
	if n := len(FilterRepo(fs)); n != 100 {
		t.Errorf("FilterRepo() = %d", n)
	}
	// Deterministic: a second load gives the same order.
	again, err := LoadDir(benchFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		if fs[i].ID != again[i].ID {
			t.Fatalf("order differs at %d: %s vs %s", i, fs[i].ID, again[i].ID)
		}
	}
}

func TestLoadFileFields(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "f.yaml", `id: x-easy-001
repo: x
tier: easy
description: "Do a thing"
source: manual
extra_field: {whatever: [1, 2]}
ground_truth:
  - Jekyll::Filters.markdownify
  - FilterImpl.<init>
tags: [a, b]
notes: "n"
`)
	f, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != "x-easy-001" || f.Repo != "x" || f.Tier != "easy" || f.Description != "Do a thing" ||
		len(f.GroundTruth) != 2 || f.GroundTruth[1] != "FilterImpl.<init>" || len(f.Tags) != 2 ||
		f.Notes != "n" || f.Source != "manual" || f.Path != p {
		t.Errorf("loaded %+v", f)
	}
}

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, body string
		line       int    // 0: no line expected
		msg        string // substring of the message
	}{
		// Lines are yaml.v3's: exact for scanner errors, the start of the
		// enclosing construct for some parser errors.
		{"syntax.yaml", "id: a\ndescription: d: e\nground_truth: [A]\n", 2, "mapping values are not allowed"},
		{"indicator.yaml", "id: a\ndescription: d\nground_truth:\n  - A.b\n  bad: [\n", 3, "did not find expected '-' indicator"},
		{"tab.yaml", "id: a\n\tdescription: d\n", 2, "tab character"},
		{"quote.yaml", "id: a\ndescription: 'unterminated\n", 2, "unexpected end of stream"},
		{"type.yaml", "id: a\ndescription: d\ntags: [x]\nground_truth:\n  - {A: b}\n", 5, "cannot unmarshal"},
		{"tagstype.yaml", "id: a\ndescription: d\ntags: {x: y}\nground_truth: [A]\n", 3, "cannot unmarshal"},
		{"noid.yaml", "description: d\nground_truth: [A]\n", 0, "missing id"},
		{"nodesc.yaml", "id: a\nground_truth: [A]\n", 0, "missing description"},
		{"emptygt.yaml", "id: a\ndescription: d\nground_truth: []\n", 3, "empty or missing ground_truth"},
		{"nogt.yaml", "id: a\ndescription: d\n", 0, "empty or missing ground_truth"},
		{"blankentry.yaml", "id: a\ndescription: d\nground_truth:\n  - A\n  - \"\"\n", 5, "entry 2 is empty"},
		{"tier.yaml", "id: a\ntier: meduim\ndescription: d\nground_truth: [A]\n", 2, "unknown tier"},
		{"list.yaml", "- a\n- b\n", 1, "must be a YAML mapping"},
		{"empty.yaml", "", 0, "empty fixture file"},
		{"two.yaml", "id: a\ndescription: d\nground_truth: [A]\n---\nid: b\n", 4, "more than one YAML document"},
		{"dupkey.yaml", "id: a\nid: b\ndescription: d\nground_truth: [A]\n", 2, "already defined"},
	} {
		p := write(t, dir, c.name, c.body)
		_, err := LoadFile(p)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("%s: error %T %v is not a *LoadError", c.name, err, err)
			continue
		}
		if le.Path != p || le.Line != c.line || !strings.Contains(le.Msg, c.msg) {
			t.Errorf("%s: got %q (line %d), want line %d containing %q", c.name, err, le.Line, c.line, c.msg)
		}
		// The text names the file, and the line when there is one.
		prefix := p + ": "
		if c.line > 0 {
			prefix = p + ":" + itoa(c.line) + ": "
		}
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: %q does not start with %q", c.name, err, prefix)
		}
	}
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

func TestLoadTypeErrorsAll(t *testing.T) {
	// Two type errors: both reported, each as path:line.
	dir := t.TempDir()
	p := write(t, dir, "f.yaml", "id: [a]\ndescription: d\ntags: x\nground_truth: [A]\n")
	_, err := LoadFile(p)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{p + ":1: ", p + ":3: "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b/2.yaml", "id: b2\nrepo: b\ndescription: d\nground_truth: [A]\n")
	write(t, dir, "a/z.yml", "id: az\nrepo: a\ndescription: d\nground_truth: [A]\n")
	write(t, dir, "a/1.yaml", "id: a1\nrepo: a\ndescription: d\nground_truth: [A]\n")
	write(t, dir, "a/readme.md", "not a fixture")
	write(t, dir, ".hidden/x.yaml", "broken: [")
	write(t, dir, "a/floor.yaml", "p_at_10: 0.2\n") // a gate file, not a fixture
	fs, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	if strings.Join(ids, ",") != "a1,az,b2" {
		t.Errorf("ids = %v", ids)
	}
	if got := FilterRepo(fs, "b"); len(got) != 1 || got[0].ID != "b2" {
		t.Errorf("FilterRepo(b) = %v", got)
	}

	// A bad file stops the load and is named.
	bad := write(t, dir, "c/bad.yaml", "id: c\ndescription: d\nground_truth:\n  - A\n  - x: y: z\n")
	if _, err := LoadDir(dir); err == nil || !strings.HasPrefix(err.Error(), bad+":5: ") {
		t.Errorf("LoadDir with bad file: %v", err)
	}
	os.Remove(bad)

	// Duplicate ids name both files.
	dup := write(t, dir, "c/dup.yaml", "id: a1\ndescription: d\nground_truth: [A]\n")
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), dup) || !strings.Contains(err.Error(), "a/1.yaml") {
		t.Errorf("LoadDir with duplicate id: %v", err)
	}

	if _, err := LoadDir(filepath.Join(dir, "absent")); err == nil {
		t.Error("LoadDir of a missing folder: no error")
	}
}

func TestLoadRepoTestdata(t *testing.T) {
	dir := "../testdata/eval"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no testdata: %v", err)
	}
	fs, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Error("no fixtures in testdata/eval")
	}
}

func TestLoadBugReport(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "swe.yaml", `id: lib__lib-1
repo: lib
tier: swe
description: "parse fails on an empty string\n## Expected\r\nno error"
ground_truth:
  - "Parser.parse"
files: ["src/lib/parser.py"]
classes: ["Parser"]
base_commit: 14e1a23a3166b9a645a16de96f694c77a5d4abb7
source: swe-bench-lite-dev
gt_method: ast-at-base-commit
`)
	f, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.Tier != "swe" || f.BaseCommit != "14e1a23a3166b9a645a16de96f694c77a5d4abb7" || f.Files[0] != "src/lib/parser.py" ||
		f.Classes[0] != "Parser" || f.GTMethod != "ast-at-base-commit" || f.Source != "swe-bench-lite-dev" {
		t.Errorf("loaded %+v", f)
	}
	for _, tier := range []string{"mined", "mined-test"} {
		if _, err := LoadFile(write(t, dir, tier+".yaml", "id: a\ntier: "+tier+"\ndescription: d\nground_truth: [A]\ncommit: abc\n")); err != nil {
			t.Errorf("tier %s: %v", tier, err)
		}
	}
	if _, err := LoadFile(write(t, dir, "bad.yaml", "id: a\ntier: bug\ndescription: d\nground_truth: [A]\n")); err == nil || !strings.Contains(err.Error(), "unknown tier") {
		t.Errorf("tier bug: %v", err)
	}
}

// sweFixtures is the shared set of real bug reports.
const sweFixtures = "../../shared/bench/swe-dev/fixtures"

func TestLoadSWEDevFixtures(t *testing.T) {
	if _, err := os.Stat(sweFixtures); err != nil {
		t.Skipf("swe-dev fixtures not present: %v", err)
	}
	fs, err := LoadDir(sweFixtures)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 21 {
		t.Errorf("loaded %d swe-dev fixtures, want 21", len(fs))
	}
	for _, f := range fs {
		if f.Tier != "swe" || len(f.BaseCommit) != 40 || len(f.Files) == 0 {
			t.Errorf("%s: tier %q base %q files %v", f.ID, f.Tier, f.BaseCommit, f.Files)
		}
	}
}
