package fswalk

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Helpers to compare with the real git, when it is installed.

// gitPath returns the git binary, or "" when it is not installed.
func gitPath() string {
	p, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	return p
}

// gitEnv isolates git from the user's and the system's configuration
// (a global core.excludesFile would change its answers).
func gitEnv(t *testing.T) []string {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
	)
}

func runGit(t *testing.T, env []string, dir string, stdin []byte, args ...string) (out []byte, exitCode int) {
	t.Helper()
	cmd := exec.Command(gitPath(), args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return out, ee.ExitCode()
		}
		t.Fatalf("git %v: %v\n%s", args, err, stderr.String())
	}
	return out, 0
}

func gitInit(t *testing.T, env []string, dir string) {
	t.Helper()
	if _, code := runGit(t, env, dir, nil, "init", "-q", "."); code != 0 {
		t.Fatalf("git init failed in %s", dir)
	}
}

// gitCheckIgnore returns the subset of paths git considers ignored.
func gitCheckIgnore(t *testing.T, env []string, dir string, paths []string) map[string]bool {
	t.Helper()
	in := []byte(strings.Join(paths, "\x00") + "\x00")
	out, code := runGit(t, env, dir, in, "check-ignore", "--no-index", "--stdin", "-z")
	if code != 0 && code != 1 { // 1: nothing ignored
		t.Fatalf("git check-ignore exited %d", code)
	}
	got := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			got[p] = true
		}
	}
	return got
}

// gitUntracked lists the files git would offer to add: not ignored, with
// every folder recursed.
func gitUntracked(t *testing.T, env []string, dir string) []string {
	t.Helper()
	out, code := runGit(t, env, dir, nil, "ls-files", "--others", "--exclude-standard", "-z")
	if code != 0 {
		t.Fatalf("git ls-files exited %d", code)
	}
	var files []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			files = append(files, p)
		}
	}
	return files
}
