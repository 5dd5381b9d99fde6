package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// The build's phases in process, on the repository in $KNOWING_BUILD_REPO
// (the testdata Go repository without it):
//
//	KNOWING_BUILD_REPO=~/corpus/caddy go test ./cmd/knowing -run xxx -bench 'Build(Extract|Write)' -benchmem
//
// BenchmarkBuildExtract walks, parses, extracts and resolves (set
// KNOWING_BUILD_PARSE_ONLY=1 for parsing alone); BenchmarkBuildWrite
// extracts once, then measures snapshot.Write of that graph. They run with
// the Go runtime's default collector, not the CLI's deferred one, so
// their allocation figures, not their times, are what compares with a
// whole build.
func benchRepo() string {
	if dir := os.Getenv("KNOWING_BUILD_REPO"); dir != "" {
		return dir
	}
	return "../../testdata/go"
}

func BenchmarkBuildExtract(b *testing.B) {
	opt := extract.Options{Root: benchRepo(), ParseOnly: os.Getenv("KNOWING_BUILD_PARSE_ONLY") != ""}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := extract.Build(context.Background(), opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildWrite(b *testing.B) {
	g, _, err := extract.Build(context.Background(), extract.Options{Root: benchRepo()})
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "bench.snap")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := snapshot.Write(out, g, nil); err != nil {
			b.Fatal(err)
		}
	}
}
