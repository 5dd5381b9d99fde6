package fswalk

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func goSrc(b *testing.B) string {
	src := filepath.Join(runtime.GOROOT(), "src")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		b.Skipf("GOROOT/src not found at %s", src)
	}
	return src
}

// BenchmarkWalkGoroot walks $GOROOT/src keeping .go files, as knowing build
// would (binary sniff included, file contents otherwise unread).
func BenchmarkWalkGoroot(b *testing.B) {
	src := goSrc(b)
	exts := map[string]bool{".go": true}
	var files, skipped int
	for i := 0; i < b.N; i++ {
		files, skipped = 0, 0
		err := Walk(src, Options{Exts: exts}, func(File) error { files++; return nil }, func(Skipped) { skipped++ })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files/op")
	b.ReportMetric(float64(skipped), "skipped/op")
}

// BenchmarkWalkGorootAll keeps every file (no extension filter).
func BenchmarkWalkGorootAll(b *testing.B) {
	src := goSrc(b)
	var files int
	for i := 0; i < b.N; i++ {
		files = 0
		err := Walk(src, Options{}, func(File) error { files++; return nil }, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files/op")
}

func BenchmarkMatcher(b *testing.B) {
	m := buildMatcher(gitTree)
	paths := []string{"lib/sub/q/x.txt", "docs/x/y/z.html", "src/deep/path/to/main.go", "web/app.min.js", "a/b/c/d/e/f.o"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			m.Match(p, false)
		}
	}
}
