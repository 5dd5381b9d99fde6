package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitHead: the commit comes from a detached HEAD, a loose ref or
// packed-refs; a HEAD naming anything but a valid ref under refs/, or a
// ref holding anything but an object name, gives "".
func TestGitHead(t *testing.T) {
	sha1 := strings.Repeat("ab12", 10)
	sha256 := strings.Repeat("0f", 32)
	other := strings.Repeat("cd34", 10)
	for _, c := range []struct {
		name  string
		files map[string]string // under .git/
		want  string
	}{
		{"detached", map[string]string{"HEAD": sha1 + "\n"}, sha1},
		{"detached sha256", map[string]string{"HEAD": sha256}, sha256},
		{"loose ref", map[string]string{"HEAD": "ref: refs/heads/main\n", "refs/heads/main": sha1 + "\n"}, sha1},
		{"packed ref", map[string]string{"HEAD": "ref: refs/heads/main\n",
			"packed-refs": "# pack-refs with: peeled\n" + other + " refs/heads/dev\n" + sha1 + " refs/heads/main\n"}, sha1},
		{"loose before packed", map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": sha1,
			"packed-refs": other + " refs/heads/main\n"}, sha1},
		{"missing ref", map[string]string{"HEAD": "ref: refs/heads/main"}, ""},
		{"ref outside refs/", map[string]string{"HEAD": "ref: config", "config": sha1}, ""},
		{"ref climbing out", map[string]string{"HEAD": "ref: refs/../../secret"}, ""},
		{"not a hash", map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": "[core]\n"}, ""},
		{"short hash", map[string]string{"HEAD": sha1[:12]}, ""},
		{"upper-case hash", map[string]string{"HEAD": strings.ToUpper(sha1)}, ""},
		{"no .git", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, content := range c.files {
				p := filepath.Join(root, ".git", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := gitHead(root); got != c.want {
				t.Errorf("gitHead = %q, want %q", got, c.want)
			}
		})
	}
}

func TestValidRef(t *testing.T) {
	for ref, want := range map[string]bool{
		"refs/heads/main":          true,
		"refs/heads/feature/x-1.2": true,
		"refs/tags/v1.0":           true,
		"HEAD":                     false,
		"config":                   false,
		"refs/":                    false,
		"refs/heads/":              false,
		"refs//main":               false,
		"refs/heads/../main":       false,
		"refs/heads/.hidden":       false,
		"refs/heads/main.lock":     false,
		"refs/heads/a@{1}":         false,
		"refs/heads/a b":           false,
		"refs/heads/a~1":           false,
		"refs/heads/a^":            false,
		"refs/heads/a:b":           false,
		"refs/heads/a?":            false,
		"refs/heads/a*":            false,
		"refs/heads/a[":            false,
		"refs/heads/a\\b":          false,
		"refs/heads/a\x01":         false,
		"refs/heads/a\x7f":         false,
	} {
		if got := validRef(ref); got != want {
			t.Errorf("validRef(%q) = %v, want %v", ref, got, want)
		}
	}
}
