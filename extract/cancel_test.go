//go:build unix

package extract

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestBuildCanceledWhileHistoryReads: a build canceled while git reads
// the history (the files already parsed) fails with the cancellation; it
// does not go on to a graph without the history.
func TestBuildCanceledWhileHistoryReads(t *testing.T) {
	dir, commit := gitRepo(t)
	commit(map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n"}, "add A")
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	// A git whose log blocks until killed, after leaving a mark; every
	// other command is the real git's.
	bin, mark := t.TempDir(), filepath.Join(t.TempDir(), "log-started")
	script := "#!/bin/sh\nfor a; do if [ \"$a\" = log ]; then : > '" + mark + "'; exec sleep 60; fi; done\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := Build(ctx, Options{Root: dir})
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("git log did not start within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Build canceled while reading the history: %v, want %v", err, context.Canceled)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Build did not return within 30 s of its cancellation")
	}
}
