package extract

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/knowing-dev/knowing/internal/fswalk"
)

// gitHead is the commit the work tree at root has checked out, or "" when
// it cannot tell. Every file is read through fswalk.ReadMeta inside .git/,
// a ref must be a valid ref name under refs/, and only a commit hash is
// returned: a HEAD that names some other file never copies that file's
// contents into the snapshot.
func gitHead(root string) string {
	gitDir := filepath.Join(root, ".git")
	b, err := fswalk.ReadMeta(gitDir, filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	ref, ok := strings.CutPrefix(s, "ref: ")
	if !ok {
		return commitHash(s)
	}
	if !validRef(ref) {
		return ""
	}
	if h, err := fswalk.ReadMeta(gitDir, filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return commitHash(strings.TrimSpace(string(h)))
	}
	if packed, err := fswalk.ReadMeta(gitDir, filepath.Join(gitDir, "packed-refs")); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			if h, name, ok := strings.Cut(line, " "); ok && name == ref {
				return commitHash(h)
			}
		}
	}
	return ""
}

// commitHash returns s when it is a SHA-1 or SHA-256 object name, else "".
func commitHash(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return ""
		}
	}
	return s
}

// validRef checks a symbolic ref the way git's check-ref-format does, for
// the refs HEAD may name: under refs/, no empty, "." or ".."-bearing
// component, no component starting with '.' or ending in ".lock", no
// control character, space or any of ~^:?*[\.
func validRef(ref string) bool {
	if !strings.HasPrefix(ref, "refs/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "..") || strings.Contains(ref, "@{") {
		return false
	}
	for _, part := range strings.Split(ref, "/") {
		if part == "" || part[0] == '.' || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	for i := 0; i < len(ref); i++ {
		if c := ref[i]; c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	return true
}

// gitDirty starts asking git whether the work tree at root differs from
// its checked-out commit head (modified, staged or untracked files) and
// returns a function that waits for the answer: nil when root is not the
// top of a git work tree, git is not installed, or it failed.
func gitDirty(ctx context.Context, root, head string) func() *bool {
	if head == "" {
		return func() *bool { return nil }
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	done := make(chan *bool, 1)
	go func() {
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "-z", "--untracked-files=normal")
		out, err := cmd.Output()
		if err != nil {
			done <- nil
			return
		}
		dirty := len(out) > 0
		done <- &dirty
	}()
	return func() *bool { return <-done }
}
