//go:build cgo

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkWatchLatency measures, on a copy of a repository that the
// benchmark may edit (KNOWING_WATCH_REPO, e.g. a copy of the Go standard
// library), the time from saving an edit of KNOWING_WATCH_FILE (default
// net/http/cookie.go) that renames a function to a snapshot file, opened
// afresh, that has the new name: watch's debounce, the incremental
// rebuild and the publication together. Each iteration is one edit.
//
//	KNOWING_WATCH_REPO=/tmp/gostd go test ./cmd/knowing -run xxx -bench WatchLatency -benchtime 5x
func BenchmarkWatchLatency(b *testing.B) {
	repo := os.Getenv("KNOWING_WATCH_REPO")
	if repo == "" {
		b.Skip("set KNOWING_WATCH_REPO to a copy of a repository the benchmark may edit")
	}
	rel := os.Getenv("KNOWING_WATCH_FILE")
	if rel == "" {
		rel = "net/http/cookie.go"
	}
	path := filepath.Join(repo, filepath.FromSlash(rel))
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(path, orig, 0o644)
	const name = "func readSetCookies("
	if !strings.Contains(string(orig), name) && rel == "net/http/cookie.go" {
		b.Fatalf("%s has no %s", rel, name)
	}
	snap := filepath.Join(b.TempDir(), "watch.snap")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- watchRepo(ctx, repo, snap, 200*time.Millisecond, 2*time.Second, io.Discard, func(*live) { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-done:
		b.Fatal(err)
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fn := "readSetCookiesV" + string(rune('a'+i%26))
		src := strings.Replace(string(orig), name, "func "+fn+"(", 1)
		start := time.Now()
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		for !resolvesB(snap, fn) {
			if time.Since(start) > 5*time.Minute {
				b.Fatal("the edit never reached the snapshot")
			}
			time.Sleep(5 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Milliseconds()), "max-ms")
	cancel()
	<-done
}
