//go:build unix

package snapshot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAbandonedTempsRemoved: the next write in a folder removes what a
// killed writer left there, and leaves a live writer's file, other
// programs' files and unrelated names alone.
func TestAbandonedTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	img := smallImage(t)
	dead := filepath.Join(dir, ".repo.snap.tmp-123456")
	deadEmpty := filepath.Join(dir, ".other.snap.tmp-42")
	notOurs := filepath.Join(dir, ".notes.txt.tmp-99")
	oddName := filepath.Join(dir, ".repo.snap.tmp-abc")
	os.WriteFile(dead, img[:len(img)/2], 0o644)
	os.WriteFile(deadEmpty, nil, 0o644)
	os.WriteFile(notOurs, []byte("a draft"), 0o644)
	os.WriteFile(oddName, img, 0o644)
	live := filepath.Join(dir, ".repo.snap.tmp-777")
	os.WriteFile(live, img[:100], 0o644)
	lf, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	lockTemp(lf) // a writer still at work

	g := randomGraph(5, 20, 400, 1500)
	if err := Write(filepath.Join(dir, "new.snap"), g, testOptions()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, deadEmpty: false, notOurs: true, oddName: true, live: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
