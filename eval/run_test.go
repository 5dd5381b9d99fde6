package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sample is a small deterministic run: two repos, three tiers.
func sampleFixtures() []Fixture {
	return []Fixture{
		{ID: "jk-easy-1", Repo: "jekyll", Tier: "easy", Description: "Add a Liquid filter",
			GroundTruth: []string{"Jekyll::Filters", "Jekyll::Filters.markdownify"}},
		{ID: "go-hard-1", Repo: "gostd", Tier: "hard", Description: "Serve HTTP",
			GroundTruth: []string{"http.Server.Serve", "http.ListenAndServe"}},
		{ID: "go-easy-1", Repo: "gostd", Tier: "easy", Description: "Parse a URL query",
			GroundTruth: []string{"url.Values"}},
		{ID: "jk-medium-1", Repo: "jekyll", Tier: "medium", Description: "Something   with\nspaces",
			GroundTruth: []string{"Jekyll::Site.process"}},
	}
}

var sampleAnswers = map[string][]string{
	// P = 1/2, R = 1/2, MRR = 1/2, NDCG: DCG = 1/log2(3) = 0.6309; IDCG(2) = 1.6309 → 0.3869
	"jk-easy-1": {"Jekyll.Utils", "Jekyll.Filters.markdownify"},
	// P = 2/3, R = 1, MRR = 1, NDCG: DCG = 1 + 0.5 = 1.5; IDCG(2) = 1.6309 → 0.9197
	"go-hard-1": {"net/http.Server.Serve", "net/http.Client", "net/http.ListenAndServe"},
	// nothing relevant: all 0, zero hit
	"go-easy-1": {"net/url.URL", "net/url.URL.Query", "net/url.parse", "net/url.Error", "net/url.escape", "net/url.unescape"},
}

func sampleRetriever(ctx context.Context, f Fixture) ([]string, time.Duration, error) {
	if f.ID == "jk-medium-1" {
		return nil, 2 * time.Millisecond, errors.New("index not loaded")
	}
	ms := map[string]time.Duration{"jk-easy-1": 4, "go-hard-1": 10, "go-easy-1": 1}[f.ID]
	return sampleAnswers[f.ID], ms * time.Millisecond, nil
}

func sampleReport(t *testing.T) *Report {
	t.Helper()
	var order []string
	rep, err := Run(context.Background(), sampleFixtures(), sampleRetriever, Options{
		OnResult: func(r FixtureResult) { order = append(order, r.ID) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(order, ",") != "jk-easy-1,go-hard-1,go-easy-1,jk-medium-1" {
		t.Errorf("run order %v", order)
	}
	return rep
}

func TestRun(t *testing.T) {
	rep := sampleReport(t)
	if rep.Matcher != "strict" || rep.K != 10 || len(rep.Fixtures) != 4 {
		t.Fatalf("report header %s %d %d", rep.Matcher, rep.K, len(rep.Fixtures))
	}
	e := rep.Fixtures[3]
	if e.Error != "index not loaded" || !e.ZeroHit || e.LatencyMS != 2 || e.P10 != 0 {
		t.Errorf("errored fixture: %+v", e)
	}
	var tiers, repos []string
	for _, s := range rep.Tiers {
		tiers = append(tiers, fmt.Sprintf("%s:%d:%d", s.Name, s.Count, s.ZeroHits))
	}
	for _, s := range rep.Repos {
		repos = append(repos, fmt.Sprintf("%s:%d:%d", s.Name, s.Count, s.ZeroHits))
	}
	if strings.Join(tiers, " ") != "easy:2:1 medium:1:1 hard:1:0" {
		t.Errorf("tiers %v", tiers)
	}
	if strings.Join(repos, " ") != "gostd:2:1 jekyll:2:1" {
		t.Errorf("repos %v", repos)
	}
	o := rep.Overall
	// P: (0.5 + 2/3 + 0 + 0) / 4 = 0.2916667; R: (0.5 + 1) / 4 = 0.375;
	// MRR: (0.5 + 1) / 4 = 0.375; latencies 4 10 1 2 → p50 = 2nd of 1 2 4 10 = 2, p99 = 10.
	if o.Count != 4 || o.ZeroHits != 2 || o.Errors != 1 || !near(o.P10, (0.5+2.0/3)/4) ||
		!near(o.R10, 0.375) || !near(o.MRR, 0.375) || o.LatencyP50MS != 2 || o.LatencyP99MS != 10 {
		t.Errorf("overall %+v", o)
	}
	hard := rep.Tiers[2]
	if !near(hard.NDCG, 1.5/(1+1/1.5849625007211562)) {
		t.Errorf("hard NDCG %v", hard.NDCG)
	}
}

func TestRunLenient(t *testing.T) {
	// Leniently Jekyll.Utils is no hit either, but Jekyll.Filters.markdownify
	// now also counts for Jekyll::Filters: R = 2/2 for jk-easy-1.
	rep, err := Run(context.Background(), sampleFixtures()[:1], sampleRetriever, Options{Matcher: Lenient})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Matcher != "lenient" || rep.Fixtures[0].R10 != 1 || rep.Fixtures[0].P10 != 0.5 {
		t.Errorf("lenient: %+v", rep.Fixtures[0])
	}
}

func TestRunFailFastAndCancel(t *testing.T) {
	_, err := Run(context.Background(), sampleFixtures(), sampleRetriever, Options{FailFast: true})
	if err == nil || !strings.Contains(err.Error(), "jk-medium-1") || !strings.Contains(err.Error(), "index not loaded") {
		t.Errorf("fail fast: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = Run(ctx, sampleFixtures(), func(ctx context.Context, f Fixture) ([]string, time.Duration, error) {
		calls++
		cancel()
		return nil, 0, nil
	}, Options{})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("cancel: err %v after %d calls", err, calls)
	}
}

func TestRunMeasuresLatencyWhenNotGiven(t *testing.T) {
	rep, err := Run(context.Background(), sampleFixtures()[:1], func(ctx context.Context, f Fixture) ([]string, time.Duration, error) {
		time.Sleep(time.Millisecond)
		return nil, 0, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fixtures[0].LatencyMS <= 0 {
		t.Errorf("latency %v", rep.Fixtures[0].LatencyMS)
	}
}

func TestRunNoFixtures(t *testing.T) {
	rep, err := Run(context.Background(), nil, sampleRetriever, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "null") {
		t.Errorf("empty report has null lists:\n%s", b.String())
	}
	for _, w := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return rep.WriteText(b) },
		func(b *bytes.Buffer) error { return rep.WriteMarkdown(b) },
	} {
		b.Reset()
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReportText(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport(t).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"matcher: strict  k: 10  fixtures: 4  zero-hit: 2  errors: 1\n",
		"FIXTURE      TIER      P@10    R@10     MRR    NDCG         MS\n",
		"jk-easy-1    easy     0.500   0.500   0.500   0.387        4.0\n",
		"go-hard-1    hard     0.667   1.000   1.000   0.920       10.0\n",
		"go-easy-1    easy     0.000   0.000   0.000   0.000        1.0\n",
		"TIER        N  ZERO    P@10    R@10     MRR    NDCG     P50 MS     P99 MS\n",
		"easy        2     1   0.250   0.250   0.250   0.193        1.0        4.0\n",
		"REPO        N  ZERO",
		"gostd       2     1   0.333   0.500   0.500   0.460        1.0       10.0\n",
		"OVERALL     4     2   0.292   0.375   0.375   0.327        2.0       10.0\n",
		"errors:\n  jk-medium-1: index not loaded\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestReportMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport(t).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# Retrieval eval\n",
		"Matcher: `strict` · K = 10 · 4 fixtures · 2 zero-hit · 1 errors\n",
		"| scope | n | zero-hit | P@10 | R@10 | MRR | NDCG@10 | p50 ms | p99 ms |\n",
		"| overall | 4 | 2 | 0.292 | 0.375 | 0.375 | 0.327 | 2.0 | 10.0 |\n",
		"| hard | 1 | 0 | 0.667 | 1.000 | 1.000 | 0.920 | 10.0 | 10.0 |\n",
		"| jekyll | 2 | 1 |",
		"| go-hard-1 | gostd | hard | 0.667 | 1.000 | 1.000 | 0.920 | 2/2 | 10.0 |\n",
		"## Zero-hit fixtures\n",
		"### go-easy-1 (gostd, easy)\n\n> Parse a URL query\n\nGround truth:\n\n- `url.Values`\n\nTop 5 returned (of 6):\n\n1. `net/url.URL`\n2. `net/url.URL.Query`\n3. `net/url.parse`\n4. `net/url.Error`\n5. `net/url.escape`\n\n",
		"### jk-medium-1 (jekyll, medium)\n\n> Something with spaces\n\nError: `index not loaded`\n\nGround truth:\n\n- `Jekyll::Site.process`\n\nTop 5 returned (of 0):\n\n(nothing returned)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "net/url.unescape") {
		t.Error("markdown shows more than the top 5 of a zero-hit fixture")
	}
	if strings.Contains(out, "### jk-easy-1") {
		t.Error("a fixture with hits is listed as zero-hit")
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	rep := sampleReport(t)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, key := range []string{`"matcher": "strict"`, `"k": 10`, `"fixtures": [`, `"tiers": [`, `"repos": [`, `"overall": {`,
		`"p_at_10":`, `"r_at_10":`, `"mrr":`, `"ndcg_at_10":`, `"zero_hit": true`, `"latency_ms": 10`,
		`"latency_p50_ms":`, `"latency_p99_ms":`, `"zero_hits": 2`, `"error": "index not loaded"`,
		`"ground_truth": [`, `"top": [`, `"rank": 1`, `"relevant": true`, `"found": [`, `"missed": [`, `"returned": 3`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	back, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep, back) {
		t.Errorf("JSON round trip differs:\n%+v\n%+v", rep, back)
	}
}

// TestReportBugReports mixes tasks with bug reports: the bug reports get
// a table of Acc@k of their own, the tasks' tables stay as they were.
func TestReportBugReports(t *testing.T) {
	fixtures := append(sampleFixtures()[:1],
		Fixture{ID: "lib-1", Repo: "lib", Tier: "swe", Description: "parse fails", GroundTruth: []string{"Parser.parse"}},
		Fixture{ID: "lib-2", Repo: "lib", Tier: "swe", Description: "render is wrong", GroundTruth: []string{"render", "Parser.render"}},
		Fixture{ID: "app-1", Repo: "app", Tier: "mined", Description: "Fix the cache key", GroundTruth: []string{"cache.key"}},
	)
	answers := map[string][]string{
		"jk-easy-1": sampleAnswers["jk-easy-1"],
		"lib-1":     {"lib.Parser.parse"},                                              // rank 1
		"lib-2":     {"lib.render", "a", "b", "c", "d", "e", "lib.Parser.render", "f"}, // all by rank 7
		"app-1":     {"x", "y", "z", "app.cache.key"},                                  // rank 4
	}
	rep, err := Run(context.Background(), fixtures, func(ctx context.Context, f Fixture) ([]string, time.Duration, error) {
		return answers[f.ID], time.Millisecond, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.BugOverall
	// Acc@1 1/3, Acc@5 2/3, Acc@10 3/3; MRR (1 + 1 + 1/4) / 3.
	if b == nil || b.Count != 3 || !near(b.Acc1, 1.0/3) || !near(b.Acc5, 2.0/3) || !near(b.Acc10, 1) || !near(b.MRR, 2.25/3) {
		t.Fatalf("bug overall %+v", b)
	}
	if len(rep.BugRepos) != 2 || rep.BugRepos[0].Name != "app" || rep.BugRepos[1].Name != "lib" || rep.BugRepos[1].Count != 2 {
		t.Errorf("bug repos %+v", rep.BugRepos)
	}
	var tiers []string
	for _, s := range rep.Tiers {
		tiers = append(tiers, s.Name)
	}
	if strings.Join(tiers, " ") != "easy swe mined" {
		t.Errorf("tier order %v", tiers)
	}
	var txt bytes.Buffer
	if err := rep.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"bug reports and mined commits (Acc@k: every ground-truth symbol within the top k)\n",
		"TIER        N   ACC@1   ACC@5  ACC@10    R@10     MRR\n",
		"swe         2   0.500   0.500   1.000   1.000   1.000\n",
		"mined       1   0.000   1.000   1.000   1.000   0.250\n",
		"OVERALL     3   0.333   0.667   1.000   1.000   0.750\n",
		"OVERALL     4     0   ", // the task table's overall keeps its columns
	} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, txt.String())
		}
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| overall | 3 | 0.333 | 0.667 | 1.000 | 1.000 | 0.750 |\n") {
		t.Errorf("markdown lacks the bug-report overall:\n%s", md.String())
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"bug_overall": {`, `"bug_repos": [`, `"acc_at_1":`, `"acc_at_5":`, `"acc_at_10":`, `"full_rank": 7`} {
		if !strings.Contains(js.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}

	// Tasks alone: no bug-report table, no bug fields in the JSON.
	txt.Reset()
	js.Reset()
	plain := sampleReport(t)
	if err := plain.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if err := plain.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(txt.String(), "ACC@1") || strings.Contains(js.String(), "bug_") {
		t.Error("a report of tasks alone shows the bug-report summaries")
	}
}
