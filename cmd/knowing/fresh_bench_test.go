package main

import (
	"context"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/query"
)

// BenchmarkFreshness measures a query answered with the staleness check
// beside it, from the check's start to the marks on the results and the
// finish, at the default budget and at one that checks every file
// (KNOWING_BENCH_SNAP as for BenchmarkGraphCommands).
//
//	KNOWING_BENCH_SNAP=/tmp/gostd.snap go test ./cmd/knowing -run xxx -bench Freshness
func BenchmarkFreshness(b *testing.B) {
	s, e := benchEngine(b)
	for _, bc := range []struct {
		name   string
		budget time.Duration
	}{{"default", staleBudget}, {"complete", time.Minute}} {
		b.Run(bc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				start := time.Now()
				fr := startFreshness(s, "bench.snap", bc.budget)
				res, err := e.Query(context.Background(), "parse cookies from a request header", query.Options{Limit: 20})
				if err != nil {
					b.Fatal(err)
				}
				for j := range res.Results {
					fr.mark(&res.Results[j])
				}
				fr.finish(io.Discard)
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
