package query

import (
	"context"
	"strings"
	"testing"
)

// The embedded model parses, and it is not the formula (else the learned
// ranker would be a second name for the same thing).
func TestRankers(t *testing.T) {
	f, err := RankerTuning("formula")
	if err != nil || f != DefaultTuning() {
		t.Fatalf("formula: %v", err)
	}
	l, err := RankerTuning("learned")
	if err != nil {
		t.Fatalf("learned: %v", err)
	}
	if l == f {
		t.Error("the learned weights equal the formula's")
	}
	if r, err := RankerByName("auto"); err != nil || r.Tasks != f || r.Reports == nil || *r.Reports != l {
		t.Errorf("auto: the formula for requests, the learned weights for reports: %v", err)
	}
	for _, name := range Rankers {
		if _, err := RankerByName(name); err != nil {
			t.Errorf("ranker %q: %v", name, err)
		}
	}
	if r, err := RankerByName("trees"); err != nil || r.Tasks != f || r.Model == nil || r.Model.Top != 50 || r.Model.Trees() == 0 {
		t.Errorf("trees: the formula, re-ordered by the embedded model: %v", err)
	}
	if _, err := RankerByName(DefaultRanker); err != nil {
		t.Errorf("default ranker %q: %v", DefaultRanker, err)
	}
	if _, err := RankerTuning("gbdt"); err == nil || !strings.Contains(err.Error(), "formula") {
		t.Errorf("unknown ranker: %v", err)
	}
	for _, bad := range []string{
		"knowing-ranker 2\nbody=1\n",         // another version
		"knowing-ranker 1\nnosuch=1\n",       // a weight this binary lacks
		"# only a comment\n",                 // nothing
		"knowing-ranker 1\nbody=1\nbody=2\n", // two weight lines
		"ranker 1\nbody=1\n",                 // no header
	} {
		if _, err := ParseModel(bad); err == nil {
			t.Errorf("model %q parsed", bad)
		}
	}
	if tt, err := ParseModel("# trained\nknowing-ranker 1\nbody=3\n"); err != nil || tt.Body != 3 || tt.Blast != DefaultTuning().Blast {
		t.Errorf("a one-weight model: %v %+v", err, tt)
	}
}

func TestIsReport(t *testing.T) {
	words := func(n int, sep string) string { return strings.TrimSpace(strings.Repeat("word"+sep, n)) }
	for _, c := range []struct {
		task string
		want bool
	}{
		{words(ReportWords, " "), false},
		{words(ReportWords+1, " "), true},
		{words(ReportWords+1, "\n"), true},
		{"  " + words(ReportWords, " \t\r\n ") + "   ", false},
		{"", false},
		{strings.Repeat("x", 10000), false}, // one long word
	} {
		if got := IsReport(c.task); got != c.want {
			t.Errorf("IsReport(%d bytes) = %v, want %v", len(c.task), got, c.want)
		}
	}
	long := words(500, " ")
	if n := testing.AllocsPerRun(100, func() { IsReport(long) }); n != 0 {
		t.Errorf("IsReport allocates %v times", n)
	}
}

// An engine with report weights ranks a report exactly as an engine
// with those weights alone, and a request as its own weights say.
func TestReportTuning(t *testing.T) {
	shop := newShop()
	other := DefaultTuning()
	other.Cover, other.Blast, other.Tiered = 0, 1, 0.5
	both := shop.engine(t, WithReportTuning(other))
	plain := shop.engine(t)
	alone := shop.engine(t, WithTuning(other))
	request := "check the API key before each request"
	report := request + strings.Repeat(" and then the store returns the wrong item price to the server", 5)
	if !IsReport(report) || IsReport(request) {
		t.Fatal("the test's tasks are not what they claim")
	}
	ctx := context.Background()
	same := func(a, b *Engine, task string) bool {
		ra, err := a.Query(ctx, task, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Query(ctx, task, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ra.Results) != len(rb.Results) {
			return false
		}
		for i := range ra.Results {
			if ra.Results[i].Symbol != rb.Results[i].Symbol || ra.Results[i].Score != rb.Results[i].Score {
				return false
			}
		}
		return true
	}
	if !same(both, alone, report) {
		t.Error("a report does not rank with the report weights")
	}
	if !same(both, plain, request) {
		t.Error("a request does not rank with the engine's own weights")
	}
	if same(plain, alone, report) {
		t.Error("the two weightings rank the report alike: the test shows nothing")
	}
	if both.TuningFor(report) != other || both.TuningFor(request) != DefaultTuning() || plain.TuningFor(report) != DefaultTuning() {
		t.Error("TuningFor gives the wrong weights")
	}
}
