package snapshot

import (
	"os"
	"testing"
)

// BenchmarkStale measures the staleness check of KNOWING_BENCH_SNAP (the
// Go standard library's snapshot) against its repository, unchanged, and
// reports the files statted per millisecond.
//
//	KNOWING_BENCH_SNAP=/tmp/gostd.snap go test ./snapshot -run xxx -bench Stale
func BenchmarkStale(b *testing.B) {
	p := os.Getenv("KNOWING_BENCH_SNAP")
	if p == "" {
		b.Skip("set KNOWING_BENCH_SNAP to a snapshot built by this version")
	}
	s, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Meta(); err != nil {
		b.Fatal(err)
	}
	st, _ := s.Stamps()
	b.ResetTimer()
	var r *StaleReport
	for i := 0; i < b.N; i++ {
		if r, err = s.Stale("", 0); err != nil {
			b.Fatal(err)
		}
	}
	if !r.Complete {
		b.Fatal("incomplete")
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(float64(r.Checked)/(perOp/1e6), "files/ms")
	b.ReportMetric(float64(r.Checked), "files")
	b.ReportMetric(float64(len(st.Dirs)), "folders")
	b.ReportMetric(float64(len(r.Changed)+len(r.Added)+len(r.Removed)), "stale")
}
