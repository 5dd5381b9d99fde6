package javascript

import (
	"path"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/extract"
)

// PackageOf is the qualified-name prefix of the module at path p (relative,
// slash-separated): the path without its extension, "/" → ".", an index
// file naming its folder: "src/router/index.ts" → "src.router".
func PackageOf(p string) string {
	p = stripExt(p)
	if base := path.Base(p); base == "index" {
		if d := path.Dir(p); d != "." && d != "/" {
			p = d
		}
	}
	return strings.ReplaceAll(strings.TrimPrefix(p, "./"), "/", ".")
}

// jsExts are the extensions of files this package parses, in the order a
// specifier without extension is tried.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

func stripExt(p string) string {
	ext := path.Ext(p)
	switch strings.ToLower(ext) {
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts":
		return p[:len(p)-len(ext)]
	}
	return p
}

// defaultName names an anonymous default export (`export default function
// () {}`, `module.exports = class {}`) after its module: the file name, or
// the folder of an index file.
func defaultName(rel string) string {
	return extract.LastPart(PackageOf(rel))
}

// repoCache memoises, for one build, directory listings, specifier
// resolution, tsconfig path aliases and the export summaries of modules.
// It reads repository files through its Repo (see extract.Repo.ReadMeta);
// without one (a nil Repo) it reads nothing and resolves relative paths
// alone.
type repoCache struct {
	repo *extract.Repo

	dirs  extract.MemoMap[string, map[string]bool] // dir → entry name → is a folder
	found extract.MemoMap[string, string]          // joined specifier path → file ("" none)
	sums  extract.MemoMap[string, *summary]        // file → its exports
	cfgs  extract.MemoMap[string, *tsconfig]       // config folder → its config
	cfgOf extract.MemoMap[string, *tsconfig]       // folder → governing config (nil: none)

	wsOnce sync.Once
	ws     []workspace
}

// cacheKey keys the repoCache in the build's Repo (see extract.Memo).
type cacheKey struct{}

// cacheFor returns the cache of a build, which lives as long as its Repo.
func cacheFor(repo *extract.Repo) *repoCache {
	return extract.Memo(repo, cacheKey{}, func() *repoCache {
		return &repoCache{repo: repo}
	})
}

// list returns the entries of a folder (relative, "" is the root).
func (c *repoCache) list(dir string) map[string]bool {
	if dir == "." {
		dir = ""
	}
	return c.dirs.Get(dir, func() map[string]bool { return c.repo.ListDir(dir) })
}

// findFile finds the source file a module path (joined, relative, without
// or with extension) names, as the module loaders of Node and TypeScript
// would: the file itself, with an added extension, a .ts file for a .js
// specifier, or the folder's index file.
func (c *repoCache) findFile(joined string) (string, bool) {
	joined = path.Clean(joined)
	if joined == "." {
		// The root folder: its index file.
		ents := c.list("")
		for _, e := range jsExts {
			if isDir, ok := ents["index"+e]; ok && !isDir {
				return "index" + e, true
			}
		}
		return "", false
	}
	if joined == ".." || strings.HasPrefix(joined, "../") || strings.HasPrefix(joined, "/") {
		return "", false
	}
	r := c.found.Get(joined, func() string { return c.lookFile(joined) })
	return r, r != ""
}

func (c *repoCache) lookFile(joined string) string {
	dir, base := path.Split(joined)
	dir = strings.TrimSuffix(dir, "/")
	ents := c.list(dir)
	join := func(name string) string {
		if dir == "" {
			return name
		}
		return dir + "/" + name
	}
	ext := strings.ToLower(path.Ext(base))
	if isDir, ok := ents[base]; ok && !isDir && stripExt(base) != base {
		return join(base)
	}
	switch ext {
	case ".js", ".jsx", ".mjs", ".cjs":
		// TypeScript sources are imported with the extension of their output.
		stem := base[:len(base)-len(ext)]
		for _, e := range []string{".ts", ".tsx", ".mts", ".cts"} {
			if isDir, ok := ents[stem+e]; ok && !isDir {
				return join(stem + e)
			}
		}
	}
	for _, e := range jsExts {
		if isDir, ok := ents[base+e]; ok && !isDir {
			return join(base + e)
		}
	}
	if isDir, ok := ents[base]; ok && isDir {
		sub := c.list(joined)
		for _, e := range jsExts {
			if isDir, ok := sub["index"+e]; ok && !isDir {
				return joined + "/index" + e
			}
		}
	}
	return ""
}

func isRelative(spec string) bool {
	return spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// resolve maps an import specifier written in folder fromDir to a module
// key (a Package) and the file it names. local is false for a package
// outside the repository ("react"), whose key is the specifier itself.
func (c *repoCache) resolve(fromDir, spec string) (key, file string, local bool) {
	if spec == "" {
		return "", "", false
	}
	if fromDir == "." {
		fromDir = ""
	}
	if isRelative(spec) || strings.HasPrefix(spec, "/") {
		joined := path.Join(fromDir, spec)
		if strings.HasPrefix(spec, "/") {
			joined = strings.TrimPrefix(spec, "/")
		}
		if f, ok := c.findFile(joined); ok {
			return PackageOf(f), f, true
		}
		return PackageOf(path.Clean(joined)), "", true
	}
	if strings.HasPrefix(spec, "node:") {
		return spec, "", false
	}
	if f, ok := c.workspaceFile(spec); ok {
		return PackageOf(f), f, true
	}
	// Path aliases of the governing tsconfig.json / jsconfig.json.
	if cfg := c.config(fromDir); cfg != nil {
		for _, p := range cfg.paths {
			rest, ok := p.match(spec)
			if !ok {
				continue
			}
			for _, t := range p.targets {
				cand := strings.Replace(t, "*", rest, 1)
				if f, ok := c.findFile(cand); ok {
					return PackageOf(f), f, true
				}
			}
		}
		if cfg.hasBase {
			if f, ok := c.findFile(path.Join(cfg.base, spec)); ok {
				return PackageOf(f), f, true
			}
		}
		if len(cfg.paths) == 0 {
			if f, ok := c.aliasGuess(cfg.dir, spec); ok {
				return PackageOf(f), f, true
			}
		}
	} else if f, ok := c.aliasGuess("", spec); ok {
		return PackageOf(f), f, true
	}
	return spec, "", false
}

// aliasGuess follows the common "@/x" and "~/x" aliases for "src/x".
func (c *repoCache) aliasGuess(dir, spec string) (string, bool) {
	rest, ok := strings.CutPrefix(spec, "@/")
	if !ok {
		rest, ok = strings.CutPrefix(spec, "~/")
	}
	if !ok {
		return "", false
	}
	if f, ok := c.findFile(path.Join(dir, "src", rest)); ok {
		return f, true
	}
	return c.findFile(path.Join(dir, rest))
}
