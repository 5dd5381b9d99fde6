package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/eval"
)

// TestEvalSnapshotTemplate answers each fixture from the snapshot its
// fields name: the Go task's ground truth exists only in the Go
// snapshot, the Python task's only in the Python one.
func TestEvalSnapshotTemplate(t *testing.T) {
	snaps := t.TempDir()
	for _, lang := range []string{"go", "python"} {
		if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", "../../testdata/"+lang, filepath.Join(snaps, lang+".snap")); code != 0 {
			t.Fatalf("build %s: %s", lang, errs)
		}
	}
	fixtures := t.TempDir()
	for name, body := range map[string]string{
		"go.yaml":   "id: go-1\nrepo: go\ntier: swe\ndescription: the memory store that keeps items in a map\nground_truth: [example.com/shop/store.MemoryStore]\nbase_commit: 0123\n",
		"py.yaml":   "id: py-1\nrepo: python\ntier: swe\ndescription: get an item from the memory store by key\nground_truth: [shop.store.MemoryStore.get]\n",
		"rust.yaml": "id: rs-1\nrepo: rust\ntier: swe\ndescription: get an item\nground_truth: [x]\n",
	} {
		if err := os.WriteFile(filepath.Join(fixtures, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := knowing(t, "", "eval", "--json", "--snap", filepath.Join(snaps, "{repo}.snap"), "--fixtures", fixtures)
	if code != 0 {
		t.Fatalf("eval: %d %s", code, errs)
	}
	rep, err := eval.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Fixtures {
		switch f.ID {
		case "go-1", "py-1":
			if f.Error != "" || f.R10 != 1 || f.Acc10 != 1 {
				t.Errorf("%s from its own snapshot: R@10 %v error %q top %v", f.ID, f.R10, f.Error, f.Top)
			}
		case "rs-1":
			if !strings.Contains(f.Error, "rust.snap") {
				t.Errorf("rs-1 has no snapshot, error %q", f.Error)
			}
		}
	}
	if rep.BugOverall == nil || rep.BugOverall.Count != 3 || rep.BugOverall.Errors != 1 {
		t.Errorf("bug overall %+v", rep.BugOverall)
	}

	// An unknown placeholder: with one snapshot for the run, the run
	// fails at once.
	code, _, errs = knowing(t, "", "eval", "--quiet", "--snap", filepath.Join(snaps, "{base_commit}{nope}.snap"), "--fixtures", fixtures, "--repo", "go")
	if code != 1 || !strings.Contains(errs, "only {id}, {repo} and {base_commit} are replaced") {
		t.Errorf("template with an unknown placeholder: exit %d: %s", code, errs)
	}
	// The body baseline reads each snapshot's own tree.
	code, out, errs = knowing(t, "", "eval", "--json", "--baseline", "body", "--snap", filepath.Join(snaps, "{repo}.snap"), "--fixtures", fixtures, "--repo", "python")
	if code != 0 {
		t.Fatalf("eval --baseline body: %s", errs)
	}
	if rep, err = eval.ReadJSON(strings.NewReader(out)); err != nil || len(rep.Fixtures) != 1 || rep.Fixtures[0].Returned == 0 {
		t.Errorf("body baseline: %v %+v", err, rep)
	}
}
