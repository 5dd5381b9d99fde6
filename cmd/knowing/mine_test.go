package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/eval"
)

// gitRepo is a git repository a test builds commit by commit.
type gitRepo struct {
	t    *testing.T
	dir  string
	tick int // commit dates advance one minute per commit
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

// git runs git in the repository as the author "Dev" (or the author
// given in the environment override), at a fixed, advancing date.
func (r *gitRepo) gitAs(author string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	date := "2024-01-01T00:" + twoDigits(r.tick) + ":00Z"
	name, email, _ := strings.Cut(author, " <")
	email = strings.TrimSuffix(email, ">")
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com", "GIT_COMMITTER_DATE="+date,
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *gitRepo) git(args ...string) string { return r.gitAs("Dev <dev@example.com>", args...) }

func twoDigits(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

func (r *gitRepo) write(path, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// commit commits everything as author with message and returns the hash.
func (r *gitRepo) commitAs(author, message string) string {
	r.t.Helper()
	r.tick++
	r.git("add", "-A")
	r.gitAs(author, "commit", "-q", "--allow-empty", "-m", message)
	return r.git("rev-parse", "HEAD")
}

func (r *gitRepo) commit(message string) string { return r.commitAs("Dev <dev@example.com>", message) }

const calcV1 = `__version__ = "1.0.0"


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


class Parser:
    def __init__(self, sep):
        self.sep = sep

    def parse(self, text):
        return text.split(self.sep)

    def render(self, items):
        return self.sep.join(items)
`

const testV1 = `from calc import add


def test_add():
    assert add(1, 2) == 3
`

// history is the repository the miner tests read, and what each commit is.
type history struct {
	repo                                     *gitRepo
	root, fixAdd, addMul, rename, appendLine string
	format, testOnly, bot, revert, bump      string
	branchFix, merge, short, mixed, initSep  string
	addConst                                 string
}

func buildHistory(t *testing.T) *history {
	r := newGitRepo(t)
	h := &history{repo: r}
	r.write("calc.py", calcV1)
	r.write("test_calc.py", testV1)
	r.write("README.md", "A calculator.\n")
	h.root = r.commit("Start the calculator with add, sub and a parser")

	// An edit inside add.
	calc := strings.Replace(calcV1, "    return a + b\n", "    if b is None:\n        b = 0\n    return a + b\n", 1)
	r.write("calc.py", calc)
	h.fixAdd = r.commit("Fix add when the second operand is missing\n\nA missing operand counts as zero.\n\nSigned-off-by: Dev <dev@example.com>")

	// Only a new function: nothing the parent has changed.
	calc += "\n\ndef mul(a, b):\n    return a * b\n"
	r.write("calc.py", calc)
	h.addMul = r.commit("Add a multiply function for the calculator")

	// A rename: the parent's parse is what changed.
	calc = strings.Replace(calc, "def parse(self, text):", "def tokenize(self, text):", 1)
	r.write("calc.py", calc)
	h.rename = r.commit("Rename the parser's parse method to tokenize")

	// Lines appended at the end of render: render changed.
	calc = strings.Replace(calc, "        return self.sep.join(items)\n", "        out = self.sep.join(items)\n        return out.strip()\n", 1)
	r.write("calc.py", calc)
	h.appendLine = r.commit("Strip the rendered output of the parser")

	// Whitespace only: a formatting commit.
	r.write("calc.py", strings.ReplaceAll(calc, "return a - b", "return a  -  b"))
	h.format = r.commit("Tidy the spacing of the subtraction expression")
	calc = strings.ReplaceAll(calc, "return a - b", "return a  -  b")

	// Tests only.
	r.write("test_calc.py", strings.Replace(testV1, "add(1, 2) == 3", "add(1, 2) == 3\n    assert add(0, 0) == 0", 1))
	h.testOnly = r.commit("Cover adding zero to zero in the tests")

	// A bot's commit.
	calc = strings.Replace(calc, "return a  -  b", "return a - b - 0", 1)
	r.write("calc.py", calc)
	h.bot = r.commitAs("dependabot[bot] <support@github.com>", "Update the subtraction helper for new inputs")

	// A revert of the add fix.
	r.git("revert", "--no-edit", h.fixAdd)
	h.revert = r.git("rev-parse", "HEAD")
	calcB, err := os.ReadFile(filepath.Join(r.dir, "calc.py"))
	if err != nil {
		t.Fatal(err)
	}
	calc = string(calcB)

	// A version bump.
	calc = strings.Replace(calc, `__version__ = "1.0.0"`, `__version__ = "1.1.0"`, 1)
	r.write("calc.py", calc)
	h.bump = r.commit("Bump version to 1.1.0 for the release")

	// A branch with a fix, merged with a merge commit.
	r.git("checkout", "-q", "-b", "fix-sub")
	calc = strings.Replace(calc, "return a - b - 0", "return a - b", 1)
	r.write("calc.py", calc)
	h.branchFix = r.commit("Fix sub returning a wrong result for negative numbers")
	r.git("checkout", "-q", "main")
	r.write("README.md", "A calculator with a parser.\n")
	r.commit("Describe the parser in the readme file")
	r.tick++
	r.git("merge", "-q", "--no-ff", "-m", "Merge branch fix-sub into main for the release", "fix-sub")
	h.merge = r.git("rev-parse", "HEAD")
	calcB, err = os.ReadFile(filepath.Join(r.dir, "calc.py"))
	if err != nil {
		t.Fatal(err)
	}
	calc = string(calcB)

	// Too short a message.
	calc = strings.Replace(calc, "return a + b\n", "return b + a\n", 1)
	r.write("calc.py", calc)
	h.short = r.commit("wip")

	// Code and its test: the test is no ground truth.
	calc = strings.Replace(calc, "return b + a\n", "return (a or 0) + b\n", 1)
	r.write("calc.py", calc)
	r.write("test_calc.py", testV1+"    assert add(None, 1) == 1\n")
	h.mixed = r.commit("Fix add crashing on a None first operand")

	// A constant the commit adds to a class: the class is no ground truth.
	calc = strings.Replace(calc, "class Parser:\n", "class Parser:\n    DEFAULT_SEP = \" \"\n\n", 1)
	r.write("calc.py", calc)
	h.addConst = r.commit("Give the parser class a default separator constant")

	// A field the constructor assigns: the constructor changed.
	calc = strings.Replace(calc, "self.sep = sep\n", "self.sep = sep or \" \"\n", 1)
	r.write("calc.py", calc)
	h.initSep = r.commit("Default the parser separator to a space when none is given")
	return h
}

func mineFixtures(t *testing.T, dir string, args ...string) map[string]eval.Fixture {
	t.Helper()
	out := filepath.Join(t.TempDir(), "mined")
	code, _, errs := knowing(t, "", append(append([]string{"mine", "--repo", dir, "--name", "calc"}, args...), out)...)
	if code != 0 {
		t.Fatalf("mine: %d %s", code, errs)
	}
	fx, err := eval.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	byCommit := map[string]eval.Fixture{}
	for _, f := range fx {
		byCommit[f.Commit] = f
	}
	return byCommit
}

func TestMine(t *testing.T) {
	h := buildHistory(t)
	got := mineFixtures(t, h.repo.dir)
	parent := func(c string) string { return h.repo.git("rev-parse", c+"^") }
	want := map[string][]string{
		h.fixAdd:     {"calc.add"},
		h.rename:     {"calc.Parser.parse"},
		h.appendLine: {"calc.Parser.render"},
		h.branchFix:  {"calc.sub"},
		h.mixed:      {"calc.add"},
		h.initSep:    {"calc.Parser.__init__"},
	}
	names := map[string]string{h.root: "root", h.fixAdd: "fixAdd", h.addMul: "addMul", h.rename: "rename",
		h.appendLine: "appendLine", h.format: "format", h.testOnly: "testOnly", h.bot: "bot", h.revert: "revert",
		h.bump: "bump", h.branchFix: "branchFix", h.merge: "merge", h.short: "short", h.mixed: "mixed", h.initSep: "initSep", h.addConst: "addConst"}
	for c, f := range got {
		w, ok := want[c]
		if !ok {
			t.Errorf("mined commit %s (%s): %v", names[c], c, f.GroundTruth)
			continue
		}
		if !slices.Equal(f.GroundTruth, w) {
			t.Errorf("%s: ground truth %v, want %v", names[c], f.GroundTruth, w)
		}
		if f.BaseCommit != parent(c) || f.Tier != "mined" || f.Repo != "calc" || f.ID != "calc-"+c[:12] {
			t.Errorf("%s: base %s tier %s repo %s id %s", names[c], f.BaseCommit, f.Tier, f.Repo, f.ID)
		}
	}
	for c := range want {
		if _, ok := got[c]; !ok {
			t.Errorf("commit %s not mined", names[c])
		}
	}
	if d := got[h.fixAdd].Description; d != "Fix add when the second operand is missing\n\nA missing operand counts as zero." {
		t.Errorf("task of fixAdd: %q (the trailer must go)", d)
	}

	// Test-only commits as a tier of their own.
	got = mineFixtures(t, h.repo.dir, "--tests")
	if f := got[h.testOnly]; f.Tier != "mined-test" || !slices.Equal(f.GroundTruth, []string{"test_calc.test_add"}) {
		t.Errorf("--tests: test-only commit %+v", f)
	}
	if len(got) != len(want)+1 {
		t.Errorf("--tests mined %d commits, want %d", len(got), len(want)+1)
	}

	// From an older commit back: what came after it is not seen.
	got = mineFixtures(t, h.repo.dir, "--rev", h.bump)
	if k := keysOf(got); !slices.Equal(k, keysOf(map[string]bool{h.fixAdd: true, h.rename: true, h.appendLine: true})) {
		t.Errorf("--rev bump mined %v", k)
	}

	// Bug fixes only, newest first, at most two.
	got = mineFixtures(t, h.repo.dir, "--fixes", "--max", "2")
	if len(got) != 2 || got[h.mixed].ID == "" || got[h.branchFix].ID == "" {
		t.Errorf("--fixes --max 2 mined %v", keysOf(got))
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestMineSkipReasons checks the filters by the reasons mine reports.
func TestMineSkipReasons(t *testing.T) {
	h := buildHistory(t)
	code, _, errs := knowing(t, "", "mine", "--repo", h.repo.dir, filepath.Join(t.TempDir(), "out"))
	if code != 0 {
		t.Fatalf("mine: %s", errs)
	}
	for _, r := range []string{"1 merge", "1 root commit", "1 revert", "1 version bump", "1 formatting", "1 bot",
		"1 short message", "1 tests only", "2 no symbol changed", "1 no source change"} {
		if !strings.Contains(errs, r) {
			t.Errorf("summary lacks %q: %s", r, errs)
		}
	}
	if !strings.Contains(errs, "mined 6 fixtures") {
		t.Errorf("summary: %s", errs)
	}
}

func TestSkipReason(t *testing.T) {
	c := func(author, msg string) *commitInfo {
		return &commitInfo{Hash: "h", Parents: []string{"p"}, Author: author, Message: msg}
	}
	dev := "Dev <dev@example.com>"
	for _, tc := range []struct {
		c     *commitInfo
		fixes bool
		want  string
	}{
		{c(dev, "Fix a crash when the config file is empty"), true, ""},
		{c(dev, "Handle empty config files gracefully now"), true, "not a fix"},
		{c(dev, "Handle empty config files gracefully now"), false, ""},
		{c(dev, "fix typo in the parser documentation comment"), true, "not a fix"},
		{c(dev, "docs: fix the broken link in the guide"), true, "not a fix"},
		{c(dev, "Wrong offset reported for multi-byte characters"), true, ""},
		{c(dev, "Revert \"Add caching to the resolver\"\n\nThis reverts commit 0123456789abcdef."), false, "revert"},
		{c(dev, "Release 2.3.0 with the new parser"), false, "version bump"},
		{c(dev, "v2.3.1"), false, "version bump"},
		{c(dev, "chore(release): publish the packages"), false, "version bump"},
		{c(dev, "Apply black to the whole code base"), false, "formatting"},
		{c(dev, "style: reformat imports in the cli module"), false, "formatting"},
		{c(dev, "Fix black background in the dark theme"), false, ""},
		{c("renovate[bot] <bot@renovateapp.com>", "Update dependency mocha to the next version"), false, "bot"},
		{c("Bot Builder <bb@example.com>", "Regenerate the client for the latest api"), false, "bot"},
		{c("Abbott <abbott@example.com>", "Regenerate the client for the latest api"), false, ""},
		{c(dev, "fix it"), false, "short message"},
		{c(dev, "Fix it\n\nSigned-off-by: Dev <dev@example.com>"), false, "short message"},
		{&commitInfo{Parents: []string{"a", "b"}, Author: dev, Message: "Merge pull request #4 from a/b"}, false, "merge"},
	} {
		if got := skipReason(tc.c, tc.fixes, 4); got != tc.want {
			t.Errorf("skipReason(%q by %s, fixes %v) = %q, want %q", tc.c.Message, tc.c.Author, tc.fixes, got, tc.want)
		}
	}
}

func TestParseChanges(t *testing.T) {
	diff := `diff --git a/old.py b/new.py
similarity index 90%
rename from old.py
rename to new.py
index 1..2 100644
--- a/old.py
+++ b/new.py
@@ -3,2 +3,3 @@ def f():
-    x
-    y
+    x
+    y
+    z
@@ -10,0 +12,2 @@ def g():
+    a
+    b
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1,4 +0,0 @@
-def h():
diff --git "a/sp ace.go" "b/sp ace.go"
--- "a/sp ace.go"
+++ "b/sp ace.go"
@@ -7 +7 @@
-x
+y
`
	got, err := parseChanges([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := []fileChange{
		{OldPath: "old.py", NewPath: "new.py", Old: []lineSpan{{3, 4}}, New: []lineSpan{{3, 5}, {12, 13}}},
		{OldPath: "gone.py", Old: []lineSpan{{1, 4}}},
		{OldPath: "sp ace.go", NewPath: "sp ace.go", Old: []lineSpan{{7, 7}}, New: []lineSpan{{7, 7}}},
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("parseChanges:\n got %s\nwant %s", a, b)
	}
}

// TestEvalMined measures the engine on the mined commits, each from its
// parent's snapshot: the rename's task names tokenize, which the commit
// brings, so none of its answers may carry it.
func TestEvalMined(t *testing.T) {
	h := buildHistory(t)
	code, out, errs := knowing(t, "", "eval", "--mined", h.repo.dir, "--name", "calc", "--json")
	if code != 0 {
		t.Fatalf("eval --mined: %d %s", code, errs)
	}
	rep, err := eval.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Fixtures) != 6 || rep.BugOverall == nil || rep.BugOverall.Count != 6 {
		t.Fatalf("eval --mined scored %d fixtures: %+v", len(rep.Fixtures), rep.BugOverall)
	}
	for _, f := range rep.Fixtures {
		if f.Error != "" {
			t.Errorf("%s: %s", f.ID, f.Error)
		}
		if f.ID != "calc-"+h.rename[:12] {
			continue
		}
		if len(f.Top) == 0 {
			t.Errorf("the rename's task found nothing")
		}
		for _, hit := range f.Top {
			if strings.Contains(hit.Name, "tokenize") {
				t.Errorf("%s: answer %s exists only after the commit", f.ID, hit.Name)
			}
		}
	}
	// The fix to add names add: found first from the parent's snapshot.
	for _, f := range rep.Fixtures {
		if f.ID == "calc-"+h.fixAdd[:12] && (f.FullRank != 1 || f.Acc1 != 1) {
			t.Errorf("fixAdd: %+v", f)
		}
	}
	// Mined fixtures read back from a folder score the same.
	dir := filepath.Join(t.TempDir(), "mined")
	if code, _, errs := knowing(t, "", "mine", "--repo", h.repo.dir, "--name", "calc", dir); code != 0 {
		t.Fatal(errs)
	}
	code, out2, errs := knowing(t, "", "eval", "--mined", h.repo.dir, "--fixtures", dir, "--json")
	if code != 0 {
		t.Fatalf("eval --mined --fixtures: %s", errs)
	}
	rep2, err := eval.ReadJSON(strings.NewReader(out2))
	if err != nil {
		t.Fatal(err)
	}
	a, b := rep.BugOverall, rep2.BugOverall
	if b == nil || a.Count != b.Count || a.Acc1 != b.Acc1 || a.Acc5 != b.Acc5 || a.Acc10 != b.Acc10 || a.R10 != b.R10 || a.MRR != b.MRR {
		t.Errorf("from a folder: %+v, mined in place: %+v", rep2.BugOverall, rep.BugOverall)
	}
}

// A commit git cannot read (a blob missing, as in a partial copy) is
// skipped and counted; the rest of the history is still mined.
func TestMineSkipsUnreadable(t *testing.T) {
	h := buildHistory(t)
	blob := h.repo.git("rev-parse", h.rename+":calc.py")
	if err := os.Remove(filepath.Join(h.repo.dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Skipf("the blob is not a loose object: %v", err)
	}
	out := filepath.Join(t.TempDir(), "mined")
	code, _, errs := knowing(t, "", "mine", "--repo", h.repo.dir, "--name", "calc", out)
	if code != 0 {
		t.Fatalf("mine: %d %s", code, errs)
	}
	if !strings.Contains(errs, "unreadable") {
		t.Errorf("the skipped commits are not reported: %s", errs)
	}
	fx, err := eval.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range fx {
		got[f.Commit] = true
	}
	if got[h.rename] || !got[h.fixAdd] || !got[h.initSep] {
		t.Errorf("mined %v: want fixAdd and initSep, not the unreadable rename", keysOf(got))
	}
}

// A folder every build skips (build output, vendored code) gives no
// ground truth: its symbols are in no snapshot.
func TestMineSkipsSkippedFolders(t *testing.T) {
	r := newGitRepo(t)
	lib := "def load(path):\n    return open(path).read()\n"
	gen := "def generate(spec):\n    return spec.upper()\n"
	r.write("pkg/lib.py", lib)
	r.write("build/gen.py", gen)
	r.commit("Add the loader and the generator")
	r.write("pkg/lib.py", strings.Replace(lib, "open(path)", "open(path, encoding=\"utf-8\")", 1))
	r.write("build/gen.py", strings.Replace(gen, "upper()", "strip().upper()", 1))
	both := r.commit("Read files as UTF-8 and strip generator specs before use")
	r.write("build/gen.py", gen)
	onlyBuild := r.commit("Stop stripping generator specs, the callers already do it")
	// A file moved out of build/ with a change: git sees a rename, whose
	// old side names symbols no snapshot of the parent holds.
	tool := "def render(spec):\n    text = spec.strip()\n    text = text.replace(\"\\t\", \"    \")\n    lines = text.splitlines()\n    return \"\\n\".join(lines)\n\n\ndef width(spec):\n    return max(len(l) for l in spec.splitlines())\n"
	r.write("build/tool.py", tool)
	r.commit("Add the spec renderer")
	r.git("mv", "build/tool.py", "pkg/tool.py")
	r.write("pkg/tool.py", strings.Replace(tool, "spec.strip()", "spec.strip().lower()", 1))
	moved := r.commit("Move the renderer into the package and lower-case rendered specs")
	got := mineFixtures(t, r.dir)
	if f, ok := got[moved]; ok && slices.ContainsFunc(f.GroundTruth, func(g string) bool { return strings.HasPrefix(g, "build.") }) {
		t.Errorf("a file moved out of build/: ground truth %v", f.GroundTruth)
	}
	if f, ok := got[both]; !ok || !slices.Equal(f.GroundTruth, []string{"pkg.lib.load"}) {
		t.Errorf("a commit to pkg/ and build/: %+v", f)
	}
	if f, ok := got[onlyBuild]; ok {
		t.Errorf("a commit to build/ alone was mined: %v", f.GroundTruth)
	}
}

// TestMineRegexpsCompile: the commit filters compile on first use; each
// pattern must compile (MustCompile panics otherwise).
func TestMineRegexpsCompile(t *testing.T) {
	for _, re := range []func() *regexp.Regexp{revertRe, versionRe, formatRe, botRe, fixRe, notFixRe, trailerRe, wordRe} {
		if re() == nil || re() != re() {
			t.Fatal("a filter regexp is not compiled once")
		}
	}
}
