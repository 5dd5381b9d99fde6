package eval

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestVerifyNames(t *testing.T) {
	fixtures := []Fixture{
		{ID: "a", Repo: "jekyll", GroundTruth: []string{"Jekyll::Filters", "Jekyll::Filters.markdownify", "Jekyll::Filters.nope"}},
		{ID: "b", Repo: "gostd", GroundTruth: []string{"http.Server.Serve", "main", "FilterImpl.<init>", "HttpRegistry<'gctx>.start_fetch"}},
		{ID: "c", Repo: "gostd", GroundTruth: []string{"url.Values", "url.Values"}},
		{ID: "d", Repo: "x", GroundTruth: []string{"Library.filter"}},
	}
	names := []string{
		"Jekyll.Filters",
		"Jekyll.Filters.markdownify",
		"Jekyll.Utils.nope",
		"net/http.Server.Serve",
		"cargo.bin.main_helper",
		"spark.FilterImpl.FilterImpl",
		"cargo.sources.registry.http_remote.HttpRegistry.start_fetch",
		"net/url.Values",
		"django.db.models.QuerySet.filter",
	}
	got := VerifyNames(fixtures, slices.Values(names))
	want := []Unverified{
		{ID: "a", Repo: "jekyll", Missing: []string{"Jekyll::Filters.nope"}},
		{ID: "b", Repo: "gostd", Missing: []string{"main"}},
		{ID: "d", Repo: "x", Missing: []string{"Library.filter"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("VerifyNames = %+v\nwant %+v", got, want)
	}

	// Stops reading names once everything is found.
	read := 0
	seq := func(yield func(string) bool) {
		for _, n := range []string{"net/url.Values", "x.y", "z"} {
			read++
			if !yield(n) {
				return
			}
		}
	}
	if got := VerifyNames(fixtures[2:3], seq); len(got) != 0 || read != 1 {
		t.Errorf("early stop: %v after %d names", got, read)
	}
}

// TestVerifyNamesScale checks a 300K-name index against every bench
// fixture: each ground-truth entry planted once among 300K decoys is
// found, and an absent one is reported. No timing is asserted.
func TestVerifyNamesScale(t *testing.T) {
	if _, err := os.Stat(benchFixtures); err != nil {
		t.Skipf("bench fixtures not present: %v", err)
	}
	fs, err := LoadDir(benchFixtures)
	if err != nil {
		t.Fatal(err)
	}
	var planted []string
	for _, f := range fs {
		for _, g := range f.GroundTruth {
			planted = append(planted, "corpus.pkg."+Normalize(g))
		}
	}
	fs = append(fs, Fixture{ID: "absent", Repo: "x", GroundTruth: []string{"Nowhere.to_be_found"}})
	const n = 300_000
	var names iter.Seq[string] = func(yield func(string) bool) {
		for i := range n {
			if i%(n/len(planted)) == 0 && i/(n/len(planted)) < len(planted) {
				if !yield(planted[i/(n/len(planted))]) {
					return
				}
			}
			if !yield(fmt.Sprintf("corpus.mod%d.Type%d.method%d", i%97, i%1013, i)) {
				return
			}
		}
	}
	got := VerifyNames(fs, names)
	if len(got) != 1 || got[0].ID != "absent" || got[0].Missing[0] != "Nowhere.to_be_found" {
		t.Errorf("VerifyNames at scale = %+v", got)
	}
}

func TestFloor(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "floor.yaml")
	if err := os.WriteFile(p, []byte("# gate\np_at_10: 0.25\nr_at_10: 0.4\nmrr: 0.375\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadFloor(p)
	if err != nil {
		t.Fatal(err)
	}
	if f != (Floor{P10: 0.25, R10: 0.4, MRR: 0.375}) {
		t.Errorf("floor %+v", f)
	}
	rep := sampleReport(t) // overall P 0.2917, R 0.375, MRR 0.375, NDCG 0.327
	err = f.Check(rep)
	if err == nil {
		t.Fatal("no error below floor")
	}
	msg := err.Error()
	if !strings.Contains(msg, "R@10 0.3750 < floor 0.4000") || strings.Contains(msg, "P@10") || strings.Contains(msg, "MRR") {
		t.Errorf("check: %v", err)
	}
	f = Floor{P10: 0.3, R10: 0.5, MRR: 0.4, NDCG: 0.5}
	err = f.Check(rep)
	for _, want := range []string{"P@10 0.2917 < floor 0.3000", "R@10", "MRR", "NDCG@10"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check lists every metric below: %v lacks %s", err, want)
		}
	}
	if err := (Floor{P10: 0.29, R10: 0.375, MRR: 0.375}).Check(rep); err != nil {
		t.Errorf("at floor: %v", err)
	}
	if err := (Floor{}).Check(rep); err != nil {
		t.Errorf("zero floor: %v", err)
	}
	if err := (Floor{Matcher: "lenient"}).Check(rep); err == nil || !strings.Contains(err.Error(), "lenient") {
		t.Errorf("matcher mismatch: %v", err)
	}
	// Acc@10 gates the bug tiers; a report without them is below it.
	if err := (Floor{Acc10: 0.1}).Check(rep); err == nil || !strings.Contains(err.Error(), "Acc@10 0.0000 < floor 0.1000") {
		t.Errorf("Acc@10 floor on a report without bug tiers: %v", err)
	}
	bug := NewReport("strict", []FixtureResult{{ID: "a", Repo: "r", Tier: "mined", Acc10: 1}, {ID: "b", Repo: "r", Tier: "mined"}})
	if err := (Floor{Acc10: 0.5}).Check(bug); err != nil {
		t.Errorf("Acc@10 0.5 at its floor: %v", err)
	}
	if err := (Floor{Acc10: 0.6}).Check(bug); err == nil || !strings.Contains(err.Error(), "Acc@10 0.5000") {
		t.Errorf("Acc@10 below its floor: %v", err)
	}
	if f, err := ParseFloor("f.yaml", []byte("acc_at_10: 0.4\n")); err != nil || f.Acc10 != 0.4 {
		t.Errorf("acc_at_10 read: %+v %v", f, err)
	}

	for body, want := range map[string]string{
		"p10: 0.3\n":        "field p10 not found",
		"mrr: 1.5\n":        "outside [0, 1]",
		"matcher: fuzzy\n":  "unknown matcher",
		"mrr: [1]\n":        ":1: cannot unmarshal",
		"mrr: 0.1\n mrr:\n": "floor.yaml:",
	} {
		if _, err := ParseFloor("floor.yaml", []byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFloor(%q) = %v, want %q", body, err, want)
		}
	}
	if f, err := ParseFloor("empty.yaml", nil); err != nil || f != (Floor{}) {
		t.Errorf("empty floor: %+v %v", f, err)
	}
}
