package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBuildRefusesToReplace: build never writes its snapshot over a file
// that is not one (a source file named by mistake, a FIFO, a device, a
// link); it replaces an earlier snapshot, an empty file, and with --force
// a regular file.
func TestBuildRefusesToReplace(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	const code = "package main\n\nfunc main() {}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(args ...string) (int, string) {
		t.Helper()
		done := make(chan struct{})
		var c int
		var errs string
		go func() {
			defer close(done)
			c, _, errs = knowing(t, "", append([]string{"build", "--quiet", "--repo", "../../testdata/go"}, args...)...)
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("build %v hung", args)
		}
		return c, errs
	}
	if c, errs := build(src); c == 0 || !strings.Contains(errs, "not a knowing snapshot") || !strings.Contains(errs, "--force") {
		t.Errorf("build over main.go: exit %d, %q", c, errs)
	}
	if b, _ := os.ReadFile(src); string(b) != code {
		t.Fatalf("main.go was changed: %q", b)
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.snap")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link, "/dev/null"} {
		for _, force := range []bool{false, true} {
			args := []string{p}
			if force {
				args = []string{"--force", p}
			}
			if c, errs := build(args...); c == 0 || !strings.Contains(errs, "not a regular file") {
				t.Errorf("build %v: exit %d, %q", args, c, errs)
			}
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}

	// A snapshot is replaced, and so is an empty file.
	snap := filepath.Join(dir, "x.snap")
	for i := 0; i < 2; i++ {
		if c, errs := build(snap); c != 0 {
			t.Fatalf("build %d: %s", i, errs)
		}
	}
	empty := filepath.Join(dir, "empty.snap")
	os.WriteFile(empty, nil, 0o644)
	if c, errs := build(empty); c != 0 {
		t.Errorf("build over an empty file: %s", errs)
	}
	// --force replaces a regular file of any content.
	if c, errs := build("--force", src); c != 0 {
		t.Errorf("build --force: %s", errs)
	}
	if b, _ := os.ReadFile(src); !strings.HasPrefix(string(b), "KNOWSNAP") {
		t.Errorf("--force did not write the snapshot")
	}
}

// TestBuildRepoAsPositional: the repository given without --repo gets a
// hint with the command that works.
func TestBuildRepoAsPositional(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.snap")
	c, _, errs := knowing(t, "", "build", "../../testdata/go", out)
	if c != 2 || !strings.Contains(errs, "--repo ../../testdata/go") {
		t.Errorf("exit %d, %q", c, errs)
	}
}
