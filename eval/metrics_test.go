package eval

import (
	"math"
	"reflect"
	"testing"
	"time"
)

const eps = 1e-6

func near(a, b float64) bool { return math.Abs(a-b) < eps }

func checkScore(t *testing.T, name string, r FixtureResult, p, rc, mrr, ndcg float64, zero bool) {
	t.Helper()
	if !near(r.P10, p) || !near(r.R10, rc) || !near(r.MRR, mrr) || !near(r.NDCG, ndcg) || r.ZeroHit != zero {
		t.Errorf("%s: got P=%.6f R=%.6f MRR=%.6f NDCG=%.6f zero=%v; want P=%.6f R=%.6f MRR=%.6f NDCG=%.6f zero=%v",
			name, r.P10, r.R10, r.MRR, r.NDCG, r.ZeroHit, p, rc, mrr, ndcg, zero)
	}
}

func fx(id string, gt ...string) Fixture {
	return Fixture{ID: id, Repo: "r", Tier: "easy", Description: "d", GroundTruth: gt}
}

func TestScoreMixed(t *testing.T) {
	// GT: A.x, B.y, C (3 distinct). Returned 5 names; relevant at ranks
	// 1 (A.x), 3 (B.y) and 4 (A.x again: a duplicate match counts for P).
	//   P@10 = 3 relevant / min(10, 5) = 3/5 = 0.6
	//   R@10 = {A.x, B.y} / 3 = 2/3
	//   MRR  = 1/1
	//   DCG  = 1/log2(2) + 1/log2(4) + 1/log2(5) = 1 + 0.5 + 0.4306766 = 1.9306766
	//   IDCG = n = min(10, max(3, 3)) = 3: 1 + 1/log2(3) + 1/log2(4) = 1 + 0.6309298 + 0.5 = 2.1309298
	//   NDCG = 1.9306766 / 2.1309298 = 0.9060254
	r := Score(fx("a", "A.x", "B.y", "C"),
		[]string{"p.A.x", "noise.one", "p.B.y", "q.A.x", "noise.two"}, Strict, 1500*time.Microsecond)
	checkScore(t, "mixed", r, 0.6, 2.0/3, 1, 1.9306766/2.1309298, false)
	if !reflect.DeepEqual(r.Found, []string{"A.x", "B.y"}) || !reflect.DeepEqual(r.Missed, []string{"C"}) {
		t.Errorf("found %v missed %v", r.Found, r.Missed)
	}
	if r.Returned != 5 || len(r.Top) != 5 || !r.Top[3].Relevant || r.Top[1].Relevant || r.Top[3].Rank != 4 {
		t.Errorf("top = %+v", r.Top)
	}
	if !near(r.LatencyMS, 1.5) {
		t.Errorf("latency = %v ms, want 1.5", r.LatencyMS)
	}
}

func TestScoreEmpty(t *testing.T) {
	// Nothing returned: P is 0 (not 0/0), everything else 0, a zero hit.
	r := Score(fx("e", "A.x"), nil, Strict, 0)
	checkScore(t, "empty", r, 0, 0, 0, 0, true)
	if r.Returned != 0 || len(r.Top) != 0 || r.Found == nil || len(r.Missed) != 1 {
		t.Errorf("empty result: %+v", r)
	}
}

func TestScoreNoHit(t *testing.T) {
	// Three names, none relevant: P = 0/3, R = 0/1, MRR 0, NDCG 0.
	r := Score(fx("n", "A.x"), []string{"a", "b", "A"}, Strict, 0)
	checkScore(t, "nohit", r, 0, 0, 0, 0, true)
}

func TestScoreCutoff(t *testing.T) {
	// 12 names; a.b at rank 4, c.d at rank 11 (beyond K, ignored).
	//   P@10 = 1 / min(10, 12) = 0.1
	//   R@10 = 1/2
	//   MRR  = 1/4
	//   DCG  = 1/log2(5) = 0.4306766
	//   IDCG = n = min(10, max(2, 1)) = 2: 1 + 1/log2(3) = 1.6309298
	//   NDCG = 0.4306766 / 1.6309298 = 0.2640674
	names := []string{"n1", "n2", "n3", "x.a.b", "n5", "n6", "n7", "n8", "n9", "n10", "x.c.d", "n12"}
	r := Score(fx("c", "a.b", "c.d"), names, Strict, 0)
	checkScore(t, "cutoff", r, 0.1, 0.5, 0.25, 0.4306766/1.6309298, false)
	if r.Returned != 12 || len(r.Top) != K {
		t.Errorf("returned %d, top %d", r.Returned, len(r.Top))
	}
}

func TestScoreDuplicateMatchesExceedGroundTruth(t *testing.T) {
	// GT: main (1 entry). Two names match it.
	//   P@10 = 2/3; R@10 = 1/1; MRR = 1
	//   DCG  = 1 + 1/log2(3) = 1.6309298
	//   IDCG = n = min(10, max(1, 2)) = 2: 1.6309298, so NDCG = 1 (not 1.63)
	r := Score(fx("d", "main"), []string{"a.main", "b.main", "c.other"}, Strict, 0)
	checkScore(t, "dupmatch", r, 2.0/3, 1, 1, 1, false)
}

func TestScoreDuplicateGroundTruth(t *testing.T) {
	// GT lists Adapter twice (as caddy-hard-003 does): 2 distinct entries.
	//   P@10 = 1/1; R@10 = 1/2 (not 2/3)
	//   DCG = 1; IDCG = n = 2: 1.6309298; NDCG = 0.6131472
	r := Score(fx("g", "Adapter", "Adapter", "ServerType"), []string{"caddyfile.Adapter"}, Strict, 0)
	checkScore(t, "dupgt", r, 1, 0.5, 1, 1/1.6309298, false)
	if len(r.GroundTruth) != 2 {
		t.Errorf("ground truth = %v", r.GroundTruth)
	}
}

func TestScoreOneResultTwoEntries(t *testing.T) {
	// One name matches two entries: it is one relevant result (P) and
	// credits both entries (R).
	//   P@10 = 1/2; R@10 = 2/3; MRR = 1
	//   DCG = 1; IDCG = n = 3: 2.1309298; NDCG = 0.4692787
	r := Score(fx("t", "Jekyll::Filters.markdownify", "Filters.markdownify", "Other.thing"),
		[]string{"Jekyll.Filters.markdownify", "z"}, Strict, 0)
	checkScore(t, "twoentries", r, 0.5, 2.0/3, 1, 1/2.1309298, false)
}

func TestScoreLenient(t *testing.T) {
	// GT: Filters (a class). Strictly its method is no hit; leniently it
	// is. Lenient: P = 1/2, R = 1/1, MRR = 1/2,
	//   DCG = 1/log2(3) = 0.6309298; IDCG = n = 1: 1; NDCG = 0.6309298
	names := []string{"x.Other", "Jekyll.Filters.markdownify"}
	checkScore(t, "strict", Score(fx("l", "Filters"), names, Strict, 0), 0, 0, 0, 0, true)
	checkScore(t, "lenient", Score(fx("l", "Filters"), names, Lenient, 0), 0.5, 1, 0.5, 1/math.Log2(3), false)
}

func TestSummarize(t *testing.T) {
	rs := []FixtureResult{
		{P10: 1, R10: 0.5, MRR: 1, NDCG: 0.8, LatencyMS: 5},
		{P10: 0, R10: 0, MRR: 0, NDCG: 0, ZeroHit: true, LatencyMS: 1, Error: "boom"},
		{P10: 0.5, R10: 1, MRR: 0.5, NDCG: 0.7, LatencyMS: 3},
		{P10: 0.5, R10: 0.5, MRR: 0.5, NDCG: 0.5, LatencyMS: 2},
		{P10: 0.5, R10: 0.5, MRR: 1, NDCG: 1, LatencyMS: 4},
	}
	s := Summarize("x", rs)
	// Means: P = 2.5/5 = 0.5, R = 2.5/5 = 0.5, MRR = 3/5 = 0.6, NDCG = 3/5 = 0.6.
	// Latencies sorted 1 2 3 4 5: p50 = ceil(2.5) = 3rd = 3; p99 = ceil(4.95) = 5th = 5.
	if s.Count != 5 || s.ZeroHits != 1 || s.Errors != 1 || !near(s.P10, 0.5) || !near(s.R10, 0.5) ||
		!near(s.MRR, 0.6) || !near(s.NDCG, 0.6) || s.LatencyP50MS != 3 || s.LatencyP99MS != 5 {
		t.Errorf("summary = %+v", s)
	}
	if e := Summarize("none", nil); e.Count != 0 || e.P10 != 0 || e.LatencyP99MS != 0 {
		t.Errorf("empty summary = %+v", e)
	}
	// One value: every percentile is that value.
	if one := Summarize("one", rs[:1]); one.LatencyP50MS != 5 || one.LatencyP99MS != 5 {
		t.Errorf("single summary = %+v", one)
	}
}

func TestScoreAccAtK(t *testing.T) {
	// Two entries, found at ranks 2 and 7: every entry is in by rank 7.
	names := []string{"n.a", "p.A.x", "n.b", "n.c", "n.d", "n.e", "q.B.y", "n.f"}
	r := Score(fx("a", "A.x", "B.y"), names, Strict, 0)
	if r.FullRank != 7 || r.Acc1 != 0 || r.Acc5 != 0 || r.Acc10 != 1 {
		t.Errorf("ranks 2 and 7: full rank %d, Acc@1/5/10 %v %v %v", r.FullRank, r.Acc1, r.Acc5, r.Acc10)
	}
	// One entry at rank 1: Acc@1 and all after it.
	r = Score(fx("b", "A.x"), names[1:], Strict, 0)
	if r.FullRank != 1 || r.Acc1 != 1 || r.Acc5 != 1 || r.Acc10 != 1 {
		t.Errorf("rank 1: %+v", r)
	}
	// An entry matched twice and another never: no Acc at any k, though
	// R@10 is 1/2.
	r = Score(fx("c", "A.x", "C"), []string{"p.A.x", "q.A.x"}, Strict, 0)
	if r.FullRank != 0 || r.Acc1+r.Acc5+r.Acc10 != 0 || !near(r.R10, 0.5) {
		t.Errorf("one entry missing: %+v", r)
	}
	// Beyond the cut: rank 11 does not count.
	long := []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "p.A.x"}
	if r = Score(fx("d", "A.x"), long, Strict, 0); r.FullRank != 0 || r.Acc10 != 0 {
		t.Errorf("rank 11: %+v", r)
	}
	s := Summarize("all", []FixtureResult{
		Score(fx("a", "A.x", "B.y"), names, Strict, 0),
		Score(fx("b", "A.x"), names[1:], Strict, 0),
		Score(fx("c", "A.x", "C"), []string{"p.A.x"}, Strict, 0),
		Score(fx("d", "A.x"), []string{"n", "n", "n", "p.A.x"}, Strict, 0),
	})
	if !near(s.Acc1, 0.25) || !near(s.Acc5, 0.5) || !near(s.Acc10, 0.75) {
		t.Errorf("summary Acc@1/5/10 %v %v %v, want 0.25 0.5 0.75", s.Acc1, s.Acc5, s.Acc10)
	}
}
