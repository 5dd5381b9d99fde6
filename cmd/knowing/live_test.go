//go:build cgo

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// editFile rewrites a file of repo with old replaced by new.
func editFile(t *testing.T, repo, rel, old, new string) {
	t.Helper()
	p := filepath.Join(repo, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// resolves reports whether the snapshot file at snap, opened afresh, has
// the symbol ref.
func resolves(t *testing.T, snap, ref string) bool {
	t.Helper()
	return resolvesB(snap, ref)
}

func resolvesB(snap, ref string) bool {
	s, err := snapshot.Open(snap)
	if err != nil {
		return false
	}
	defer s.Close()
	e, err := query.New(s)
	if err != nil {
		return false
	}
	_, err = e.Resolve(ref)
	return err == nil
}

// eventually polls cond every 10 ms until it holds, failing after limit.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("after %s: %s", limit, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

// TestWatch runs knowing watch on a copied test repository: an edit, a
// new folder with a file, and a removal each show in the snapshot file
// within seconds, and each rebuild prints a line.
func TestWatch(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out syncBuffer
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- watchRepo(ctx, repo, snap, 50*time.Millisecond, time.Second, &out, func(*live) { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("watch ended: %v\n%s", err, out.String())
	}
	if !resolves(t, snap, "MemoryStore.Get") {
		t.Fatal("the first build is not published")
	}
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(")
	took := eventually(t, 20*time.Second, "the edit is not in the snapshot", func() bool { return resolves(t, snap, "MemoryStore.Fetch") })
	t.Logf("an edit reached the snapshot in %s", took)
	if resolves(t, snap, "MemoryStore.Get") {
		t.Error("the old name is still there")
	}
	// A new folder, its file written right after it is made.
	if err := os.MkdirAll(filepath.Join(repo, "audit", "log"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "audit", "log", "log.go"), []byte("package log\n\nfunc Record() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the file in a new folder is not in the snapshot", func() bool { return resolves(t, snap, "log.Record") })
	// A file in the new folder, once its watch is in place.
	if err := os.WriteFile(filepath.Join(repo, "audit", "log", "more.go"), []byte("package log\n\nfunc Flush() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "a second file in the new folder is not in the snapshot", func() bool { return resolves(t, snap, "log.Flush") })
	if err := os.Remove(filepath.Join(repo, "server", "chain.go")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the removal is not in the snapshot", func() bool {
		s, err := snapshot.Open(snap)
		if err != nil {
			return false
		}
		defer s.Close()
		for i := 0; i < s.NumFiles(); i++ {
			if s.FilePath(i) == "server/chain.go" {
				return false
			}
		}
		return true
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := out.String()
	if !strings.Contains(lines, "is up to date") || strings.Count(lines, " rebuilt ") < 3 || !strings.Contains(lines, "1 removed") {
		t.Errorf("watch printed:\n%s", lines)
	}
	// The snapshot left behind is fresh, and a build of it is incremental.
	code, _, errs := knowing(t, "", "query", "--stale-budget", "10s", snap, "record flush")
	if code != 0 || errs != "" {
		t.Errorf("query after watch: %d %s", code, errs)
	}
	if s := buildJSON(t, "--repo", repo, snap); s.Incremental == nil || s.Incremental.Parsed != 0 {
		t.Errorf("a build after watch: %+v", s.Incremental)
	}
}

// TestLiveReaders: readers holding the previous snapshot keep answering
// from it while rebuilds publish new ones; its mapping goes when the last
// of them lets go. Run with -race.
func TestLiveReaders(t *testing.T) {
	repo, _, l := startedLive(t)
	ctx := context.Background()
	old := l.acquire()
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(")
	rep, err := l.rebuild(ctx)
	if err != nil || rep.stats.Parsed != 1 || rep.stats.Changed != 1 {
		t.Fatalf("rebuild: %v %+v", err, rep)
	}
	cur := l.acquire()
	if cur == old {
		t.Fatal("the rebuild published nothing")
	}
	if _, err := old.e.Resolve("MemoryStore.Get"); err != nil {
		t.Errorf("the previous snapshot, still held: %v", err)
	}
	if _, err := cur.e.Resolve("MemoryStore.Fetch"); err != nil {
		t.Errorf("the new snapshot: %v", err)
	}
	cur.release()

	// Readers and rebuilds at once.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ls := l.acquire()
				res, err := ls.e.Query(ctx, "memory store", query.Options{Limit: 5})
				if err != nil || len(res.Results) == 0 {
					t.Errorf("a query during rebuilds: %v", err)
				}
				for _, it := range res.Results {
					_ = ls.s.QName(it.ID) // reads the mapping
				}
				ls.release()
			}
		}()
	}
	for i := 0; i < 6; i++ {
		name := []string{"Fetch", "Get"}[i%2]
		other := []string{"Get", "Fetch"}[i%2]
		editFile(t, repo, "store/memory.go", "func (m *MemoryStore) "+name+"(", "func (m *MemoryStore) "+other+"(")
		if _, err := l.rebuild(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if old.s.NumNodes() == 0 {
		t.Fatal("the held snapshot was closed under its reader")
	}
	old.release()
	if old.s.NumNodes() != 0 {
		t.Error("the last release did not close the previous snapshot")
	}
}

// TestLiveFailures: a rebuild that fails leaves the previous snapshot, in
// memory and on disk; a file saved with a syntax error keeps its previous
// symbols, is reported, and shows as stale until it parses again.
func TestLiveFailures(t *testing.T) {
	repo, snap, l := startedLive(t)
	ctx := context.Background()
	// Never over a file that is not a snapshot.
	notSnap := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notSnap, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other, err := newLive(repo, notSnap, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.start(ctx); err == nil || !strings.Contains(err.Error(), "not a knowing snapshot") {
		t.Errorf("start over a text file: %v", err)
	}
	other.close()
	if b, _ := os.ReadFile(notSnap); string(b) != "my notes\n" {
		t.Error("the text file was replaced")
	}
	before, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	moved := repo + ".away"
	if err := os.Rename(repo, moved); err != nil {
		t.Fatal(err)
	}
	if _, err := l.rebuild(ctx); err == nil {
		t.Error("a rebuild of a missing repository succeeded")
	}
	after, _ := os.ReadFile(snap)
	if !bytes.Equal(before, after) {
		t.Error("a failed rebuild changed the snapshot file")
	}
	ls := l.acquire()
	if _, err := ls.e.Resolve("MemoryStore.Get"); err != nil {
		t.Errorf("after a failed rebuild: %v", err)
	}
	ls.release()
	if err := os.Rename(moved, repo); err != nil {
		t.Fatal(err)
	}

	// A syntax error: the previous symbols stay.
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(x {{{ (")
	rep, err := l.rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.stats.Kept) != 1 || !strings.HasPrefix(rep.stats.Kept[0], "store/memory.go:") || !strings.Contains(rep.String(), "kept the previous symbols of store/memory.go") {
		t.Fatalf("kept %v (%s)", rep.stats.Kept, rep)
	}
	ls = l.acquire()
	if _, err := ls.e.Resolve("MemoryStore.Get"); err != nil {
		t.Errorf("the previous symbols of the broken file: %v", err)
	}
	r, err := ls.s.Stale(repo, 0)
	if err != nil || len(r.Changed) != 1 || r.Changed[0] != "store/memory.go" {
		t.Errorf("the broken file is not reported stale: %+v %v", r, err)
	}
	ls.release()
	// Fixed: parsed again, the new symbols in.
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Fetch(x {{{ (", "func (m *MemoryStore) Fetch(")
	if rep, err = l.rebuild(ctx); err != nil || len(rep.stats.Kept) != 0 || rep.stats.Parsed != 1 {
		t.Fatalf("after the fix: %v %+v", err, rep)
	}
	ls = l.acquire()
	defer ls.release()
	if _, err := ls.e.Resolve("MemoryStore.Fetch"); err != nil {
		t.Errorf("after the fix: %v", err)
	}
	if r, err := ls.s.Stale(repo, 0); err != nil || r.Stale() {
		t.Errorf("after the fix the snapshot is stale: %+v %v", r, err)
	}
}

// TestMCPFollowsEdits: the MCP server answers from the tree as it is
// when the call comes, an edit made between two calls included.
func TestMCPFollowsEdits(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	cs, _ := mcpClientFor(t, repo)
	var def struct{ Symbol, File string }
	if msg := call(t, cs, "symbol", map[string]any{"symbol": "MemoryStore.Get"}, &def); msg != "" {
		t.Fatal(msg)
	}
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(")
	eventually(t, 20*time.Second, "the server does not see the edit", func() bool {
		return call(t, cs, "symbol", map[string]any{"symbol": "MemoryStore.Fetch"}, &def) == ""
	})
	if def.Symbol != "example.com/shop/store.MemoryStore.Fetch" {
		t.Errorf("symbol: %+v", def)
	}
	if msg := call(t, cs, "symbol", map[string]any{"symbol": "MemoryStore.Get"}, &def); msg == "" {
		t.Error("the old name still answers")
	}
}

// startedLive copies the Go test repository, starts a live index of it on
// a snapshot in a temporary folder and closes it when the test ends.
func startedLive(t *testing.T) (repo, snap string, l *live) {
	t.Helper()
	repo = extracttest.CopyTree(t, "../../testdata/go")
	snap = filepath.Join(t.TempDir(), "shop.snap")
	l, err := newLive(repo, snap, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	if _, err := l.start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return repo, snap, l
}
