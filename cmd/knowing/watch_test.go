//go:build cgo

package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestWatchCatchesUp: an edit made after the build read the tree but
// before its folders were watched raises no event; the watch still
// rebuilds for it, from what the snapshot's stamps say.
func TestWatchCatchesUp(t *testing.T) {
	repo, snap, l := startedLive(t)
	wt, err := newWatcher(l)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.close()
	editFile(t, repo, "store/memory.go", "func (m *MemoryStore) Get(", "func (m *MemoryStore) Fetch(")
	wt.sync()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reports := make(chan error, 16)
	done := make(chan error, 1)
	go func() {
		done <- wt.run(ctx, 20*time.Millisecond, time.Second, func(_ *rebuildReport, err error) { reports <- err })
	}()
	eventually(t, 10*time.Second, "the edit made before the watch is not in the snapshot", func() bool { return resolves(t, snap, "MemoryStore.Fetch") })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-reports; err != nil {
		t.Errorf("the rebuild: %v", err)
	}
}

// TestWatchSaysWhatItCannotWatch: a folder the watcher cannot watch
// (here: every folder, its fsnotify watcher closed) is said on the
// warning writer, not passed over in silence.
func TestWatchSaysWhatItCannotWatch(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	var warn syncBuffer
	l, err := newLive(repo, filepath.Join(t.TempDir(), "shop.snap"), &warn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	if _, err := l.start(context.Background()); err != nil {
		t.Fatal(err)
	}
	wt, err := newWatcher(l)
	if err != nil {
		t.Fatal(err)
	}
	wt.close()
	if added := wt.sync(); added != 0 {
		t.Errorf("sync watched %d folders with a closed watcher", added)
	}
	if got := warn.String(); !strings.Contains(got, "knowing: cannot watch 3 folders") {
		t.Errorf("the warnings: %q", got)
	}
}
