package ruby

import (
	"path"
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// What a file loads (require) and which libraries lie outside the
// repository (the gems the project depends on).

// exists reports a file at rel in the repository.
func (x *extractor) exists(rel string) bool { return x.F.Repo.Exists(rel) }

// require records `require "a/b"` (or require_relative): when the file
// is in the repository, as an import of the module the path names by
// convention (a/b → A::B, so the import links to it when it exists);
// otherwise as an outside library whose top constant is the camelised
// first path element.
func (x *extractor) require(how, p string) {
	p = strings.TrimSuffix(p, ".rb")
	dir := path.Dir(x.F.Path)
	internal := ""
	if how == "require_relative" {
		internal = path.Clean(path.Join(dir, p))
		if strings.HasPrefix(internal, "../") {
			internal = ""
		}
	} else if x.F.Repo != nil && !strings.HasPrefix(p, ".") {
		cands := []string{"lib/" + p}
		if gemDir, _, ok := x.F.Repo.FindUp(dir, "Gemfile"); ok && gemDir != "" {
			cands = append([]string{gemDir + "/lib/" + p}, cands...)
		}
		cands = append(cands, p)
		for _, c := range cands {
			if x.exists(c + ".rb") {
				internal = c
				break
			}
		}
	}
	if internal == "" && how == "require_relative" {
		x.R.Imports = append(x.R.Imports, extract.Import{Path: p})
		return
	}
	if internal == "" {
		first, _, _ := strings.Cut(p, "/")
		alias := camelize(first)
		if alias == "" || x.topTypes[alias] {
			x.R.Imports = append(x.R.Imports, extract.Import{Path: p})
			return
		}
		// An outside library: the import stands for its top constant
		// (minitest/autorun → Minitest), so that its types become
		// external nodes named as Ruby names them (Minitest.Test) and
		// calls on it are not looked for in the repository.
		x.externals[alias] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: alias})
		return
	}
	// Drop the load-path folder: lib/jekyll/filters → jekyll/filters.
	if i := strings.LastIndex(internal, "lib/"); i >= 0 && (i == 0 || internal[i-1] == '/') {
		internal = internal[i+4:]
	}
	segs := strings.Split(internal, "/")
	for i, s := range segs {
		segs[i] = camelize(s)
	}
	if len(segs) < 2 {
		x.R.Imports = append(x.R.Imports, extract.Import{Path: internal})
		return
	}
	x.R.Imports = append(x.R.Imports, extract.Import{
		Path: strings.Join(segs[:len(segs)-1], "."), Name: segs[len(segs)-1]})
}

// camelize turns a file name into the constant it conventionally defines:
// entry_filter → EntryFilter, jekyll-feed → JekyllFeed.
func camelize(s string) string {
	var b strings.Builder
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
				return ""
			}
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}

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
	if entries, err := repo.ReadDir(gemDir); err == nil {
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
