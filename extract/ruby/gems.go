package ruby

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// The gems a project depends on (Gemfile, *.gemspec) name the outside
// libraries whose constants its code uses: liquid → Liquid, safe_yaml →
// SafeYAML, rspec-mocks → RSpec. Constants are compared normalised: lower
// case, without "_" and "-".

// depsKey keys, in the build's Repo (extract.Memo), the normalised names
// of the gems the project in a folder depends on.
type depsKey string

// normConst normalises a constant or gem name for comparison.
func normConst(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c - 'A' + 'a')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dependencies returns the normalised names of the gems the project that
// holds folder dir depends on.
func dependencies(repo *extract.Repo, dir string) map[string]bool {
	if repo == nil {
		return nil
	}
	gemDir, gemfile, ok := repo.FindUp(dir, "Gemfile")
	if !ok {
		gemDir = ""
	}
	return extract.Memo(repo, depsKey(gemDir), func() map[string]bool { return readDependencies(repo, gemDir, gemfile) })
}

// readDependencies reads the gems named in a Gemfile and in the gemspecs
// of its folder gemDir.
func readDependencies(repo *extract.Repo, gemDir string, gemfile []byte) map[string]bool {
	deps := map[string]bool{}
	var own []string
	add := func(name string) {
		if name == "" {
			return
		}
		deps[normConst(name)] = true
		if first, _, ok := strings.Cut(name, "-"); ok {
			deps[normConst(first)] = true
		}
	}
	for _, line := range strings.Split(string(gemfile), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "gem "); ok {
			add(quoted(rest))
		}
	}
	if entries, err := os.ReadDir(filepath.Join(repo.Root, filepath.FromSlash(gemDir))); err == nil {
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".gemspec") {
				continue
			}
			own = append(own, strings.TrimSuffix(name, ".gemspec"))
			data, err := repo.ReadMeta(path.Join(gemDir, name))
			if err != nil {
				continue
			}
			s := string(data)
			for {
				i := strings.Index(s, "dependency")
				if i < 0 {
					break
				}
				s = s[i+len("dependency"):]
				add(quoted(strings.TrimLeft(s, "( \t")))
			}
		}
	}
	// The project's own namespace is never outside: jekyll-feed reopens
	// module Jekyll.
	for _, o := range own {
		delete(deps, normConst(o))
		if first, _, ok := strings.Cut(o, "-"); ok {
			delete(deps, normConst(first))
		}
	}
	return deps
}

// quoted is the string literal s starts with, or "".
func quoted(s string) string {
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return ""
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return ""
	}
	return s[1 : 1+end]
}
