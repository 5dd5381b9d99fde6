//go:build unix && cgo

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestWatchStopsOnSIGTERM: knowing watch, sent SIGTERM (as kill and
// service managers do), stops as on an interrupt: it exits 0 and keeps
// the extraction for the next build.
func TestWatchStopsOnSIGTERM(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	cmd := exec.Command(os.Args[0], "watch", "--repo", repo, snap)
	cmd.Env = append(os.Environ(), "KNOWING_RUN_AS_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "is up to date") {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("watch ended before its first build")
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no first build within a minute")
	}
	stopsOnSIGTERM(t, cmd)
	if _, err := os.Stat(priorPath(snap)); err != nil {
		t.Errorf("the extraction was not kept for the next build: %v", err)
	}
}

// TestMCPStopsOnSIGTERM: the MCP server, sent SIGTERM while its client
// still holds stdin open, exits 0.
func TestMCPStopsOnSIGTERM(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "go.snap")
	cmd := exec.Command(os.Args[0], "mcp", "--repo", "../../testdata/go", "--snap", snap)
	cmd.Env = append(os.Environ(), "KNOWING_RUN_AS_MAIN=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Serving: it answers the client's first request.
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		cmd.Process.Kill()
		t.Fatalf("no answer to initialize: %q %v", line, err)
	}
	stopsOnSIGTERM(t, cmd)
}

// stopsOnSIGTERM sends cmd SIGTERM and fails unless it exits 0 within
// 30 s.
func stopsOnSIGTERM(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s after SIGTERM: %v (want exit 0)", cmd.Args[1], err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s did not stop within 30 s of SIGTERM", cmd.Args[1])
	}
}

// TestBuildStopsOnSIGTERM: knowing build, sent SIGTERM once its files are
// parsed while git still reads the history, exits non-zero, says it was
// interrupted, and writes neither the snapshot nor a temporary file.
func TestBuildStopsOnSIGTERM(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	repo := extracttest.CopyTree(t, "../../testdata/go")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "shop"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	// A git whose log blocks until killed, after leaving a mark.
	bin, mark := t.TempDir(), filepath.Join(t.TempDir(), "log-started")
	script := "#!/bin/sh\nfor a; do if [ \"$a\" = log ]; then : > '" + mark + "'; exec sleep 60; fi; done\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	snap := filepath.Join(out, "shop.snap")
	cmd := exec.Command(os.Args[0], "build", "--repo", repo, snap)
	cmd.Env = append(os.Environ(), "KNOWING_RUN_AS_MAIN=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("git log did not start within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("build did not stop within 30 s of SIGTERM")
	}
	if err == nil || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("build after SIGTERM: %v, stderr %q; want a failure that says it was interrupted", err, errb.String())
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("left %v in the output folder", ents)
	}
}
