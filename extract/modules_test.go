package extract

import (
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// A MemoMap computes a key once when asked in turn, lets compute ask for
// other keys, and gives every caller of a key the same value.
func TestMemoMap(t *testing.T) {
	var m MemoMap[int, int]
	var calls atomic.Int32
	var fib func(n int) int
	fib = func(n int) int {
		return m.Get(n, func() int {
			calls.Add(1)
			if n < 2 {
				return n
			}
			return fib(n-1) + fib(n-2)
		})
	}
	if got := fib(30); got != 832040 {
		t.Fatalf("fib(30) = %d", got)
	}
	if n := calls.Load(); n != 31 {
		t.Errorf("%d computations for 31 keys", n)
	}

	var p MemoMap[string, *int]
	got := make([]*int, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = p.Get("k", func() *int { v := i; return &v })
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatalf("callers got different values for one key")
		}
	}
}

func TestListDir(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/sub", "a/linked"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a", "f.ts"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("linked", filepath.Join(root, "a", "ln")); err != nil {
		t.Skip(err)
	}
	r := NewRepo(filepath.Join(root, "a"))
	want := map[string]bool{"sub": true, "linked": true, "f.ts": false, "ln": true}
	for _, dir := range []string{"", ".", "/"} {
		if got := r.ListDir(dir); !maps.Equal(got, want) {
			t.Errorf("ListDir(%q) = %v, want %v", dir, got, want)
		}
	}
	for _, dir := range []string{"..", "../a", "sub/../..", "missing"} {
		if got := r.ListDir(dir); len(got) != 0 {
			t.Errorf("ListDir(%q) = %v, want none", dir, got)
		}
	}
	if got := (*Repo)(nil).ListDir(""); len(got) != 0 {
		t.Errorf("nil Repo lists %v", got)
	}
}
