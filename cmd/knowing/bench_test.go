package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// BenchmarkQueryFixtures measures in-process query latency over fixture
// tasks on a snapshot:
//
//	KNOWING_BENCH_SNAP=/tmp/cargo.snap KNOWING_BENCH_FIXTURES=../../../shared/bench/fixtures \
//	KNOWING_BENCH_REPO=cargo go test ./cmd/knowing -run xxx -bench QueryFixtures -benchmem
//
// It reports p50 and p99 per query (µs) over all tasks, and allocations
// per query. Without KNOWING_BENCH_SNAP it builds the Go standard library
// and uses the gostd fixtures.
func BenchmarkQueryFixtures(b *testing.B) {
	fixtures := os.Getenv("KNOWING_BENCH_FIXTURES")
	if fixtures == "" {
		fixtures = "../../testdata/eval/gostd"
	}
	_, e := benchEngine(b)
	fx, err := eval.LoadDir(fixtures)
	if err != nil {
		b.Fatal(err)
	}
	if r := os.Getenv("KNOWING_BENCH_REPO"); r != "" {
		fx = eval.FilterRepo(fx, r)
	}
	ctx := context.Background()
	// KNOWING_BENCH_DOCS=1 adds the doc summaries, as the CLI does.
	opt := query.Options{Limit: 10, Docs: os.Getenv("KNOWING_BENCH_DOCS") != ""}
	for _, f := range fx { // warm the page cache and the workspace pool
		e.Query(ctx, f.Description, opt)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := fx[i%len(fx)]
		start := time.Now()
		if _, err := e.Query(ctx, f.Description, opt); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkGraphCommands measures what def, callers and callees cost in
// process on a snapshot (KNOWING_BENCH_SNAP, else the Go standard library
// built for the run): resolving the symbol and reading its edges, for a
// few well-known symbols in turn.
//
//	KNOWING_BENCH_SNAP=/tmp/gostd.snap go test ./cmd/knowing -run xxx -bench GraphCommands
func BenchmarkGraphCommands(b *testing.B) {
	_, e := benchEngine(b)
	syms := []string{"net/http.Server.Serve", "net/http.readCookies", "strconv.ParseInt", "fmt.Sprintf", "Server.ListenAndServe"}
	for _, name := range []string{"def", "callers", "callees", "callers-depth2", "refs", "impact"} {
		b.Run(name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				start := time.Now()
				id, err := e.Resolve(syms[i%len(syms)])
				if err != nil {
					b.Fatal(err)
				}
				switch name {
				case "def":
					e.Definition(id)
				case "callers":
					e.Callers(id, 1, 100)
				case "callees":
					e.Callees(id, 1, 100)
				case "callers-depth2":
					e.Callers(id, 2, 100)
				case "refs":
					e.Refs(id, 200)
				case "impact":
					e.Impact([]uint32{id}, 3, 50, 8000, false)
				}
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkOutline measures outline on the Go standard library's largest
// files (KNOWING_BENCH_SNAP as for BenchmarkGraphCommands).
func BenchmarkOutline(b *testing.B) {
	_, e := benchEngine(b)
	files := []string{"net/http/server.go", "net/http/h2_bundle.go", "strconv/atoi.go", "fmt/print.go"}
	lat := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		id, err := e.FileNode(files[i%len(files)])
		if err != nil {
			b.Fatal(err)
		}
		e.Outline(id)
		lat = append(lat, time.Since(start))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// benchEngine opens $KNOWING_BENCH_SNAP, or a snapshot of the Go standard
// library built for the run, and makes an engine over it; the snapshot is
// closed when the benchmark ends.
func benchEngine(b *testing.B) (*snapshot.Snapshot, *query.Engine) {
	b.Helper()
	snap := os.Getenv("KNOWING_BENCH_SNAP")
	if snap == "" {
		snap = filepath.Join(b.TempDir(), "gostd.snap")
		var errb strings.Builder
		if code := run([]string{"build", "--quiet", "--repo", filepath.Join(runtime.GOROOT(), "src"), snap}, nil, &errb, &errb); code != 0 {
			b.Fatal(errb.String())
		}
	}
	s, err := snapshot.Open(snap)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	e, err := newEngine(s)
	if err != nil {
		b.Fatal(err)
	}
	return s, e
}
