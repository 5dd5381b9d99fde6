package python

import (
	"path"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/extract"
)

// Python modules are named by the dotted path from their package root: the
// highest folder of an unbroken chain of folders holding __init__.py. A
// file outside any package is named by its path. Imports are turned into
// the same key space: relative imports against the importing module, and
// absolute ones by finding the top-level package the way sys.path would
// (the importing file's non-package ancestors, each also with src/, then
// the repository root), so that Import.Path matches the Package of the
// file that defines the module.

// repoCache answers the questions of module layout for one build: where
// a package starts, where an absolute import's top-level name lives, what
// a package's __init__.py re-exports. What it works out is kept in the
// build's Repo (extract.Memo), so that it lives as long as the build and
// is shared by all its files. A nil repoCache (no Repo) knows no files.
type repoCache struct {
	repo *extract.Repo
}

// The keys of what a repoCache keeps in the Repo.
type (
	cacheKey  struct{}
	topKey    [2]string // import base, top-level name → topResult
	pkgTopKey string    // folder → highest package folder above it ("" none)
	reexKey   string    // package folder → *reexports of its __init__.py
)

// cacheFor returns the cache of a repository build, nil for none.
func cacheFor(repo *extract.Repo) *repoCache {
	if repo == nil {
		return nil
	}
	return extract.Memo(repo, cacheKey{}, func() *repoCache { return &repoCache{repo: repo} })
}

const (
	statNone uint8 = iota + 1
	statFile
	statDir
)

// topResult is where an absolute import's top-level name lives.
type topResult struct {
	base string // folder holding the top-level module ("" is the root)
	kind uint8  // topNone, topPkg, topMod, topNS
}

const (
	topNone uint8 = iota
	topPkg        // base/top/__init__.py
	topMod        // base/top.py
	topNS         // base/top/ without __init__.py (namespace package at the root)
)

// joinRel joins name to folder dir, "" or "." being the root.
func joinRel(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

// stat tells whether rel is a file (statFile), a folder (statDir) or
// neither.
func (c *repoCache) stat(rel string) uint8 {
	if c == nil {
		return statNone
	}
	isDir, ok := c.repo.Stat(rel) // cached by the Repo
	switch {
	case !ok:
		return statNone
	case isDir:
		return statDir
	}
	return statFile
}

// isFile reports a file at rel.
func (c *repoCache) isFile(rel string) bool { return c.stat(rel) == statFile }

// isPkgDir reports a folder holding __init__.py.
func (c *repoCache) isPkgDir(dir string) bool {
	if dir == "" || dir == "." {
		return c.isFile("__init__.py")
	}
	return c.isFile(dir + "/__init__.py")
}

// isModule reports whether fs (a module path without extension) is a
// module or package.
func (c *repoCache) isModule(fs string) bool {
	return c.isFile(fs+".py") || c.isFile(fs+".pyi") || c.isPkgDir(fs)
}

// topPkgDir is the highest folder at or above dir that holds __init__.py
// (folders in between may lack it: namespace sub-packages like
// flask/sansio). The repository root itself does not count.
func (c *repoCache) topPkgDir(dir string) (string, bool) {
	if c == nil || dir == "" || dir == "." {
		return "", false
	}
	t := extract.Memo(c.repo, pkgTopKey(dir), func() string {
		t, found := c.topPkgDir(parentDir(dir))
		if !found && c.isPkgDir(dir) {
			t, found = dir, true
		}
		if !found {
			t = ""
		}
		return t
	})
	return t, t != ""
}

// parentDir is the folder holding d, "" for the root.
func parentDir(d string) string {
	nd := path.Dir(d)
	if nd == "." || nd == "/" {
		return ""
	}
	return nd
}

// moduleKey is the dotted module name of a file, and whether the file is
// a package's __init__.
func moduleKey(c *repoCache, p string) (string, bool) {
	dir := parentDir(p)
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	isInit := base == "__init__"
	rel := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	if isInit {
		rel = dir
	}
	if top, ok := c.topPkgDir(dir); ok {
		if pd := parentDir(top); pd != "" {
			rel = strings.TrimPrefix(rel, pd+"/")
		}
	}
	return strings.ReplaceAll(rel, "/", "."), isInit
}

// importBase is the folder absolute imports start from: the folder holding
// the file's top-level package, or the file's own folder.
func (c *repoCache) importBase(dir string) string {
	if top, ok := c.topPkgDir(dir); ok {
		return parentDir(top)
	}
	return dir
}

// locateTop finds where an absolute import's top-level name lives, as seen
// from a file in fileDir.
func (c *repoCache) locateTop(fileDir, top string) topResult {
	if c == nil {
		return topResult{}
	}
	// The search starts at the file's import base and depends on nothing
	// else of fileDir: the files of one package share their results.
	base := c.importBase(fileDir)
	return extract.Memo(c.repo, topKey{base, top}, func() topResult { return c.findTop(base, top) })
}

// findTop searches for top from the import base d up to the root.
func (c *repoCache) findTop(d, top string) topResult {
	try := func(base string) uint8 {
		p := joinRel(base, top)
		switch {
		case c.isPkgDir(p):
			return topPkg
		case c.isFile(p+".py") || c.isFile(p+".pyi"):
			return topMod
		}
		return topNone
	}
	for {
		if k := try(d); k != topNone {
			return topResult{d, k}
		}
		if k := try(joinRel(d, "src")); k != topNone {
			return topResult{joinRel(d, "src"), k}
		}
		if d == "" {
			break
		}
		d = parentDir(d)
	}
	if c.stat(top) == statDir {
		return topResult{"", topNS}
	}
	return topResult{}
}

// modLoc is a module as the import system finds it.
type modLoc struct {
	key    string // dotted module key, matching the Package of its file
	fs     string // module path without extension ("src/flask/json")
	inRepo bool
}

// absolute locates an absolute dotted module name imported from fileDir.
func (c *repoCache) absolute(fileDir, dotted string) modLoc {
	top, rest, _ := strings.Cut(dotted, ".")
	t := c.locateTop(fileDir, top)
	if t.kind == topNone {
		return modLoc{key: dotted}
	}
	fs := joinRel(t.base, strings.ReplaceAll(dotted, ".", "/"))
	key := dotted
	if t.kind == topMod && t.base != "" {
		// A plain module in a folder outside any package: its key is its
		// path, which includes the folder.
		key = strings.ReplaceAll(t.base, "/", ".") + "." + top
		if rest != "" {
			key += "." + rest
		}
	}
	return modLoc{key: key, fs: fs, inRepo: true}
}

// target is what a name imported from a module stands for.
type target struct {
	key    string // module that defines the name (or the module itself)
	fs     string
	name   string // the name in that module; "" when the name is a module
	inRepo bool
}

// reexports are the names a package's __init__.py imports from elsewhere:
// `from .app import Flask as Flask` makes flask.Flask mean flask.app.Flask.
type reexports struct {
	once  sync.Once
	names map[string]target
	stars []target
}

// reexport follows a name through the __init__.py of the package at fs
// (key pkgKey) to the module that defines it. ok is false when the package
// does not import that name.
func (c *repoCache) reexport(fs, pkgKey, name string) (target, bool) {
	t, ok := c.reexportDepth(fs, pkgKey, name, 0)
	return t, ok
}

// reexportDepth is reexport through at most four packages.
func (c *repoCache) reexportDepth(fs, pkgKey, name string, depth int) (target, bool) {
	if c == nil || depth > 4 {
		return target{}, false
	}
	re := c.reexportsOf(fs, pkgKey)
	t, ok := re.names[name]
	if !ok {
		return target{}, false
	}
	if t.name != "" && t.inRepo && c.isPkgDir(t.fs) {
		if t2, ok := c.reexportDepth(t.fs, t.key, t.name, depth+1); ok {
			return t2, true
		}
	}
	return t, true
}

// reexportsOf returns the re-exports of the package at fs, read once per
// build.
func (c *repoCache) reexportsOf(fs, pkgKey string) *reexports {
	re := extract.Memo(c.repo, reexKey(fs), func() *reexports { return &reexports{} })
	re.once.Do(func() { re.names = c.readReexports(fs, pkgKey, re) })
	return re
}

// readReexports reads the __init__.py of the package at fs for the names it
// imports: at its top level and in if, try and with blocks.
func (c *repoCache) readReexports(fs, pkgKey string, re *reexports) map[string]target {
	names := map[string]target{}
	src, err := c.repo.ReadMeta(joinRel(fs, "__init__.py"))
	if err != nil || len(src) == 0 {
		return names
	}
	tree := extract.ParseLang("python", src)
	if tree == nil {
		return names
	}
	b := newBase(tree.RootNode(), src)
	tree.Close()
	defer b.Release()
	var visit func(n int32, depth int)
	visit = func(n int32, depth int) {
		for ch := b.FirstChild(n); ch >= 0; ch = b.N[ch].Next {
			switch b.Code(ch) {
			case kImport, kImportFrom:
				for _, ri := range readImport(&b, ch) {
					c.addReexport(fs, pkgKey, ri, names, re)
				}
			case kIf, kTry, kElse, kElif, kExcept, kFinally, kBlock, kWith:
				if depth < 4 {
					visit(ch, depth+1)
				}
			}
		}
	}
	visit(0, 0) // the root
	return names
}

// addReexport adds the names import ri of the package at fs binds to names,
// and the modules it imports with * to re.stars.
func (c *repoCache) addReexport(fs, pkgKey string, ri rawImport, names map[string]target, re *reexports) {
	if !ri.from {
		for _, na := range ri.names {
			if na.alias == "" {
				continue // `import a.b` binds a: not a re-export of interest
			}
			loc := c.absolute(fs, ri.module)
			names[na.alias] = target{key: loc.key, fs: loc.fs, inRepo: loc.inRepo}
		}
		return
	}
	var base modLoc
	if ri.level > 0 {
		k, d := relativeBase(pkgKey, true, fs, ri.level)
		base = modLoc{key: extract.JoinName(k, ri.module), fs: joinRel(d, strings.ReplaceAll(ri.module, ".", "/")), inRepo: true}
		if ri.module == "" {
			base.fs = d
		}
	} else {
		base = c.absolute(fs, ri.module)
	}
	if ri.star {
		if base.inRepo && len(re.stars) < 8 {
			re.stars = append(re.stars, target{key: base.key, fs: base.fs, inRepo: true})
		}
		return
	}
	for _, na := range ri.names {
		local := na.alias
		if local == "" {
			local = na.name
		}
		if base.inRepo && c.isModule(joinRel(base.fs, na.name)) {
			names[local] = target{key: extract.JoinName(base.key, na.name), fs: joinRel(base.fs, na.name), inRepo: true}
			continue
		}
		names[local] = target{key: base.key, fs: base.fs, name: na.name, inRepo: base.inRepo}
	}
}
