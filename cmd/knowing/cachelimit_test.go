//go:build cgo

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"0", 0}, {"123", 123}, {"512B", 512}, {"1KB", 1024}, {"500MB", 500 << 20}, {"2gb", 2 << 30}, {"1.5GB", 3 << 29}, {"1 TB", 1 << 40}} {
		if got, err := parseSize(c.in); err != nil || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "lots", "-1", "1e9", "Inf", "NaN", "0x10", "+5", "GB", "1.2.3", "5PB", "99999999999TB", "0.5", "0.1B"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// priorDir is where the test run's builds keep their prior extractions
// (TestMain points the cache folder at a folder of its own).
func priorDir(t *testing.T) string {
	t.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache folder:", err)
	}
	return filepath.Join(dir, "knowing", "prior")
}

// TestPriorCacheBounded: a build trims the prior folder to
// KNOWING_CACHE_LIMIT, least recently used first, and keeps its own
// entry, so its next build is still incremental.
func TestPriorCacheBounded(t *testing.T) {
	dir := priorDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Two old entries of 3 MB and a dead writer's temporary file.
	old := time.Now().Add(-2 * time.Hour)
	for _, name := range []string{"0000000000000000000000aa.prior", "0000000000000000000000aa.memo", "0000000000000000000000bb.prior", ".0000000000000000000000cc.prior.tmp-42"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, 3<<20), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(cacheLimitEnv, "1MB")
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	buildJSON(t, "--repo", repo, snap)
	ents, _ := os.ReadDir(dir)
	var total int64
	have := map[string]bool{}
	for _, e := range ents {
		have[e.Name()] = true
		if info, err := e.Info(); err == nil && !strings.HasPrefix(e.Name(), ".") {
			total += info.Size()
		}
	}
	mine := priorPath(snap)
	if !have[filepath.Base(mine)] || !have[filepath.Base(memoPath(mine))] {
		t.Fatalf("this build's entry is gone: %v", have)
	}
	for _, name := range []string{"0000000000000000000000aa.prior", "0000000000000000000000aa.memo", "0000000000000000000000bb.prior", ".0000000000000000000000cc.prior.tmp-42"} {
		if have[name] {
			t.Errorf("%s is still there", name)
		}
	}
	if total > 1<<20 {
		t.Errorf("the folder holds %d bytes, over the 1 MB limit", total)
	}
	if s := buildJSON(t, "--repo", repo, snap); s.Incremental == nil {
		t.Fatal("the build after a trim is not incremental")
	}
}

// TestPriorCacheOff: KNOWING_CACHE_LIMIT=0 keeps no prior build (and
// removes the one there was), so every build parses every file; a
// malformed limit is refused before anything is built.
func TestPriorCacheOff(t *testing.T) {
	repo := extracttest.CopyTree(t, "../../testdata/go")
	snap := filepath.Join(t.TempDir(), "shop.snap")
	buildJSON(t, "--repo", repo, snap)
	if _, err := os.Stat(priorPath(snap)); err != nil {
		t.Fatalf("no prior build kept by default: %v", err)
	}
	t.Setenv(cacheLimitEnv, "0")
	if s := buildJSON(t, "--repo", repo, snap); s.Incremental == nil {
		t.Fatal("the prior kept before the limit was set did not serve")
	}
	for _, p := range []string{priorPath(snap), memoPath(priorPath(snap))} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s kept with %s=0", filepath.Base(p), cacheLimitEnv)
		}
	}
	if s := buildJSON(t, "--repo", repo, snap); s.Incremental != nil {
		t.Fatalf("incremental with no cache: %+v", s.Incremental)
	}
	// Nor does it keep what builds under a larger limit left.
	t.Setenv(cacheLimitEnv, "")
	other := filepath.Join(t.TempDir(), "other.snap")
	buildJSON(t, "--repo", repo, other)
	t.Setenv(cacheLimitEnv, "0")
	buildJSON(t, "--repo", repo, snap)
	for _, p := range []string{priorPath(other), memoPath(priorPath(other))} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("another snapshot's %s kept with %s=0", filepath.Base(p), cacheLimitEnv)
		}
	}
	t.Setenv(cacheLimitEnv, "lots")
	other = filepath.Join(t.TempDir(), "malformed.snap")
	code, _, errs := knowing(t, "", "build", "--repo", repo, other)
	if code == 0 || !strings.Contains(errs, cacheLimitEnv) || !strings.Contains(errs, "500MB") {
		t.Fatalf("malformed limit: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(other); err == nil {
		t.Fatal("a snapshot was written with a malformed limit")
	}
}

// TestMCPCachedSnapshotsAge: a server started for a repository without
// .git keeps its snapshot under the cache folder, marks it used, and
// removes the other snapshots there unused for 30 days.
func TestMCPCachedSnapshotsAge(t *testing.T) {
	repo := t.TempDir() // no .git
	snap := defaultSnapPath(repo)
	dir := filepath.Dir(snap)
	if filepath.Base(dir) != "snapshots" {
		t.Fatalf("the default snapshot of a folder without .git is %s", snap)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-40 * 24 * time.Hour)
	recent := time.Now().Add(-2 * 24 * time.Hour)
	files := map[string]time.Time{
		filepath.Base(snap):             long,   // this server's: kept, marked used
		"0000000000000000000000aa.snap": long,   // unused for 40 days: removed
		"0000000000000000000000bb.snap": recent, // kept
	}
	for name, when := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	keepCachedSnapshot(snap)
	if _, err := os.Stat(filepath.Join(dir, "0000000000000000000000aa.snap")); err == nil {
		t.Error("a snapshot unused for 40 days is still there")
	}
	if _, err := os.Stat(filepath.Join(dir, "0000000000000000000000bb.snap")); err != nil {
		t.Errorf("a snapshot used two days ago was removed: %v", err)
	}
	if st, err := os.Stat(snap); err != nil || time.Since(st.ModTime()) > time.Hour {
		t.Errorf("the server's own snapshot: %v, not marked used", err)
	}
	// A snapshot kept in the repository's .git is left alone, and so is
	// its folder.
	gitDir := filepath.Join(t.TempDir(), ".git")
	old := filepath.Join(gitDir, "old.snap")
	if err := os.MkdirAll(gitDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	keepCachedSnapshot(filepath.Join(gitDir, "knowing.snap"))
	if _, err := os.Stat(old); err != nil {
		t.Errorf("a file beside a snapshot in .git was removed: %v", err)
	}
}

// TestMCPRefusesMalformedCacheLimit: the MCP server refuses a malformed
// KNOWING_CACHE_LIMIT when it starts, where the client shows why, not
// at each tool call.
func TestMCPRefusesMalformedCacheLimit(t *testing.T) {
	cmd := exec.Command(os.Args[0], "mcp", "--repo", "../../testdata/go", "--snap", filepath.Join(t.TempDir(), "go.snap"))
	cmd.Env = append(os.Environ(), "KNOWING_RUN_AS_MAIN=1", cacheLimitEnv+"=lots")
	cmd.Stdin = strings.NewReader("") // a client that leaves at once
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	if err == nil || !strings.Contains(errb.String(), cacheLimitEnv) {
		t.Fatalf("mcp with %s=lots: %v, stderr %q; want a refusal naming it", cacheLimitEnv, err, errb.String())
	}
}
