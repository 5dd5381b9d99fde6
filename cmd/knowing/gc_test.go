package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestDeferGC checks that the collector stays off below the limit and
// that crossing it restores the defaults.
func TestDeferGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: deferGC leaves the collector alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	deferred := deferGC(int64(ms.HeapAlloc) + 64<<20)
	if !deferred() {
		t.Fatal("deferGC: not deferred right after the call")
	}
	runtime.ReadMemStats(&ms)
	cycles := ms.NumGC
	var keep [][]byte
	for i := 0; i < 16; i++ { // 16 MB: well under the limit
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC != cycles || !deferred() {
		t.Fatalf("collector ran below the limit: %d cycles", ms.NumGC-cycles)
	}
	// Past the limit the first collection switches the defaults back.
	deadline := time.Now().Add(10 * time.Second)
	for deferred() && time.Now().Before(deadline) {
		keep = append(keep[:0], make([]byte, 1<<20))
	}
	if deferred() {
		t.Fatal("still deferred after allocating past the limit")
	}
	if old := debug.SetGCPercent(100); old != 100 {
		t.Errorf("GC percent after the limit = %d, want 100", old)
	}
	if lim := debug.SetMemoryLimit(-1); lim < 1<<62 {
		t.Errorf("memory limit after the limit = %d, want none", lim)
	}
	runtime.KeepAlive(keep)
}
