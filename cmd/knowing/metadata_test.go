package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildWithin runs a build and fails the test when it does not finish in
// time (a FIFO read would block it forever).
func buildWithin(t *testing.T, repo, out string) (int, string) {
	t.Helper()
	done := make(chan struct{})
	var code int
	var errs string
	go func() {
		defer close(done)
		code, _, errs = knowing(t, "", "build", "--quiet", "--repo", repo, out)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("build of %s hung", repo)
	}
	return code, errs
}

// symbols lists the qualified names in a snapshot (from a query that
// matches the one function every repository here has).
func symbols(t *testing.T, snap string) string {
	t.Helper()
	code, out, errs := knowing(t, "", "query", "--json", snap, "`Serve`")
	if code != 0 {
		t.Fatalf("query: %s", errs)
	}
	return out
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMetadataFilesBounded: go.mod and other manifests are read only when
// they are regular files inside the repository; a FIFO (here and in a
// folder above the root), a link to /dev/zero or a link out of the root is
// left alone, and the build finishes.
func TestMetadataFilesBounded(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "elsewhere")
	writeFiles(t, outside, map[string]string{"go.mod": "module evil.example/everything\n"})
	cases := map[string]func(root string){
		"fifo": func(root string) {
			if err := syscall.Mkfifo(filepath.Join(root, "go.mod"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"devzero": func(root string) {
			if err := os.Symlink("/dev/zero", filepath.Join(root, "go.mod")); err != nil {
				t.Fatal(err)
			}
		},
		"outside": func(root string) {
			if err := os.Symlink(filepath.Join(outside, "go.mod"), filepath.Join(root, "go.mod")); err != nil {
				t.Fatal(err)
			}
		},
		"fifo-above": func(root string) {
			if err := syscall.Mkfifo(filepath.Join(filepath.Dir(root), "go.mod"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(top, name, "repo")
			writeFiles(t, root, map[string]string{"srv/srv.go": "package srv\n\n// Serve serves.\nfunc Serve() {}\n"})
			plant(root)
			snap := filepath.Join(top, name+".snap")
			if code, errs := buildWithin(t, root, snap); code != 0 {
				t.Fatalf("build: %s", errs)
			}
			if got := symbols(t, snap); !strings.Contains(got, `"symbol": "srv.Serve"`) || strings.Contains(got, "evil.example") {
				t.Errorf("want srv.Serve named from its folder, got %s", got)
			}
		})
	}
}

// TestGitHeadNeverLeaks: a HEAD naming a file outside .git, or holding
// anything but a commit, gives no commit; a real ref gives its hash.
func TestGitHeadNeverLeaks(t *testing.T) {
	const secret = "hunter2-very-secret"
	const hash = "0123456789abcdef0123456789abcdef01234567"
	top := t.TempDir()
	writeFiles(t, top, map[string]string{"secret": secret + "\n"})
	for _, tc := range []struct{ name, head, want string }{
		{"traversal", "ref: ../../../secret\n", ""},
		{"deep-traversal", "ref: refs/../../../../secret\n", ""},
		{"absolute", "ref: " + filepath.Join(top, "secret") + "\n", ""},
		{"junk", secret + "\n", ""},
		{"detached", hash + "\n", hash},
		{"branch", "ref: refs/heads/main\n", hash},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(top, tc.name, "a", "b", "repo")
			writeFiles(t, root, map[string]string{
				"srv/srv.go":           "package srv\n\nfunc Serve() {}\n",
				".git/HEAD":            tc.head,
				".git/refs/heads/main": hash + "\n",
			})
			snap := filepath.Join(top, tc.name+".snap")
			if code, errs := buildWithin(t, root, snap); code != 0 {
				t.Fatalf("build: %s", errs)
			}
			code, out, errs := knowing(t, "", "inspect", "--json", snap)
			if code != 0 {
				t.Fatal(errs)
			}
			var info struct {
				Meta struct {
					GitCommit string `json:"git_commit"`
				} `json:"meta"`
			}
			if err := json.Unmarshal([]byte(out), &info); err != nil {
				t.Fatal(err)
			}
			if info.Meta.GitCommit != tc.want {
				t.Errorf("git_commit %q, want %q", info.Meta.GitCommit, tc.want)
			}
			if b, _ := os.ReadFile(snap); strings.Contains(string(b), secret) {
				t.Errorf("the snapshot holds the secret")
			}
		})
	}
}
