package eval

import (
	"math"
	"sort"
	"strings"
	"time"
)

// K is the cut-off: only the first K returned names are scored.
const K = 10

// Hit is one of the top K returned names.
type Hit struct {
	Rank     int    `json:"rank"` // 1-based
	Name     string `json:"name"`
	Relevant bool   `json:"relevant"`
}

// FixtureResult is the score of one fixture.
type FixtureResult struct {
	ID          string   `json:"id"`
	Repo        string   `json:"repo"`
	Tier        string   `json:"tier"`
	Description string   `json:"description"`
	GroundTruth []string `json:"ground_truth"` // distinct entries, in fixture order
	// Returned is how many names the retriever returned (before the cut).
	Returned int   `json:"returned"`
	Top      []Hit `json:"top"` // the first min(K, Returned) names
	// Found and Missed partition GroundTruth: entries matched by some
	// name in Top, and the rest.
	Found  []string `json:"found"`
	Missed []string `json:"missed"`

	P10  float64 `json:"p_at_10"`
	R10  float64 `json:"r_at_10"`
	MRR  float64 `json:"mrr"`
	NDCG float64 `json:"ndcg_at_10"`
	// FullRank is the rank by which every ground-truth entry has been
	// matched, 0 when some entry is not matched in Top. Acc1, Acc5 and
	// Acc10 are strict Acc@k, 1 when FullRank is within k, else 0: the
	// metric bug-localization papers report.
	FullRank int     `json:"full_rank"`
	Acc1     float64 `json:"acc_at_1"`
	Acc5     float64 `json:"acc_at_5"`
	Acc10    float64 `json:"acc_at_10"`
	ZeroHit  bool    `json:"zero_hit"` // no relevant name in Top
	// LatencyMS is the retrieval time in milliseconds.
	LatencyMS float64 `json:"latency_ms"`
	// Error is the retriever's error, if it failed; the metrics are then 0.
	Error string `json:"error,omitempty"`
}

// Score scores one fixture given the ranked names a retriever returned.
//
//   - A name is relevant when it matches (per m) any ground-truth entry.
//     Ground-truth entries are deduplicated first (exact text after trimming
//     space), so a fixture that lists an entry twice counts it once.
//   - P@10 = relevant names in the top K / min(K, returned); 0 when nothing
//     is returned. Two names matching the same entry both count.
//   - R@10 = distinct ground-truth entries matched by the top K / distinct
//     ground-truth entries. A name matching two entries credits both.
//   - MRR = 1 / rank of the first relevant name in the top K, else 0.
//   - NDCG@10 = DCG / IDCG with binary gains: DCG = Σ rel_i / log2(i+1) over
//     ranks i = 1..K; IDCG is the DCG of n relevant names at ranks 1..n with
//     n = min(K, max(distinct entries, relevant names in the top K)). The max
//     matters only when more names are relevant than there are entries
//     (duplicate matches): it keeps NDCG within [0, 1].
//   - Acc@k (k = 1, 5, 10) = 1 when every distinct ground-truth entry is
//     matched by one of the first k names, else 0 (strict in the sense of
//     the localization papers: a fix that changed three functions counts
//     only when all three are found).
func Score(f Fixture, names []string, m Matcher, latency time.Duration) FixtureResult {
	if m == nil {
		m = Strict
	}
	gt := distinct(f.GroundTruth)
	r := FixtureResult{
		ID:          f.ID,
		Repo:        f.Repo,
		Tier:        f.Tier,
		Description: f.Description,
		GroundTruth: gt,
		Returned:    len(names),
		Found:       []string{},
		Missed:      []string{},
		LatencyMS:   float64(latency) / float64(time.Millisecond),
	}
	top := names
	if len(top) > K {
		top = top[:K]
	}
	found := make([]bool, len(gt))
	nfoundAt := 0 // distinct entries matched so far
	relevant := 0
	dcg := 0.0
	r.Top = make([]Hit, len(top))
	for i, name := range top {
		rel := false
		for j, g := range gt {
			if m.Match(name, g) {
				rel = true
				if !found[j] {
					found[j] = true
					nfoundAt++
				}
			}
		}
		if r.FullRank == 0 && len(gt) > 0 && nfoundAt == len(gt) {
			r.FullRank = i + 1
		}
		r.Top[i] = Hit{Rank: i + 1, Name: name, Relevant: rel}
		if rel {
			relevant++
			dcg += 1 / math.Log2(float64(i+2))
			if r.MRR == 0 {
				r.MRR = 1 / float64(i+1)
			}
		}
	}
	for j, ok := range found {
		if ok {
			r.Found = append(r.Found, gt[j])
		} else {
			r.Missed = append(r.Missed, gt[j])
		}
	}
	if len(top) > 0 {
		r.P10 = float64(relevant) / float64(len(top))
	}
	if len(gt) > 0 {
		r.R10 = float64(nfoundAt) / float64(len(gt))
	}
	ideal := min(K, max(len(gt), relevant))
	idcg := 0.0
	for i := range ideal {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if idcg > 0 {
		r.NDCG = dcg / idcg
	}
	r.ZeroHit = relevant == 0
	for _, a := range []struct {
		k   int
		dst *float64
	}{{1, &r.Acc1}, {5, &r.Acc5}, {10, &r.Acc10}} {
		if r.FullRank > 0 && r.FullRank <= a.k {
			*a.dst = 1
		}
	}
	return r
}

func distinct(gt []string) []string {
	out := make([]string, 0, len(gt))
	seen := make(map[string]bool, len(gt))
	for _, g := range gt {
		g = strings.TrimSpace(g)
		if g == "" || seen[g] {
			continue
		}
		seen[g] = true
		out = append(out, g)
	}
	return out
}

// Summary aggregates fixture results: means of the metrics, counts and
// latency percentiles.
type Summary struct {
	// Name is the tier, the repository, or "overall".
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	ZeroHits int     `json:"zero_hits"`
	Errors   int     `json:"errors"`
	P10      float64 `json:"p_at_10"`
	R10      float64 `json:"r_at_10"`
	MRR      float64 `json:"mrr"`
	NDCG     float64 `json:"ndcg_at_10"`
	// Strict Acc@1, Acc@5, Acc@10: the share of fixtures with every
	// ground-truth entry within the top 1, 5, 10.
	Acc1  float64 `json:"acc_at_1"`
	Acc5  float64 `json:"acc_at_5"`
	Acc10 float64 `json:"acc_at_10"`
	// Latency percentiles in milliseconds, nearest-rank: the value at
	// position ceil(p·n) of the n latencies sorted ascending.
	LatencyP50MS float64 `json:"latency_p50_ms"`
	LatencyP99MS float64 `json:"latency_p99_ms"`
}

// Summarize aggregates results under name. Fixtures whose retrieval
// failed count with zero metrics.
func Summarize(name string, results []FixtureResult) Summary {
	s := Summary{Name: name, Count: len(results)}
	if len(results) == 0 {
		return s
	}
	lat := make([]float64, 0, len(results))
	for _, r := range results {
		s.P10 += r.P10
		s.R10 += r.R10
		s.MRR += r.MRR
		s.NDCG += r.NDCG
		s.Acc1 += r.Acc1
		s.Acc5 += r.Acc5
		s.Acc10 += r.Acc10
		if r.ZeroHit {
			s.ZeroHits++
		}
		if r.Error != "" {
			s.Errors++
		}
		lat = append(lat, r.LatencyMS)
	}
	n := float64(len(results))
	s.P10 /= n
	s.R10 /= n
	s.MRR /= n
	s.NDCG /= n
	s.Acc1 /= n
	s.Acc5 /= n
	s.Acc10 /= n
	sort.Float64s(lat)
	s.LatencyP50MS = percentile(lat, 50)
	s.LatencyP99MS = percentile(lat, 99)
	return s
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}
