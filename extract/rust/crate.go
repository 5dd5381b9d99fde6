package rust

import (
	"bytes"
	"encoding/binary"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/knowing-dev/knowing/extract"
)

// This file knows the layout of Cargo projects: which crate a file belongs
// to, the module path of a file, where the file of a module is, and what a
// module re-exports (`pub use`). Module paths are dotted and start with the
// crate name: src/core/compiler/mod.rs of crate cargo is "cargo.core.compiler".
//
// Re-exports matter: Rust code imports most items through the module that
// re-exports them (`use crate::core::Package` where Package is declared in
// core/package.rs). The extractor follows them to the declaring module, so
// the imports it reports name the Package of the file that declares the item.
// To do that it reads the module files it needs with a cheap line scan
// (cached per build), independent of the order files are parsed in.

// crateInfo is what a Cargo.toml says.
type crateInfo struct {
	dir     string // folder of the Cargo.toml, relative ("" at the root)
	name    string // crate name with - turned into _, "" when not a package
	libDir  string // folder of the library root file, relative to the repo
	libFile string // base name of the library root file
	// binPath is the first [[bin]] path outside src/, relative to the
	// repo, "" for none; libSet is true when [lib] names its path.
	binPath   string
	libSet    bool
	members   []string
	workspace bool            // has a [workspace] table
	deps      map[string]bool // dependency names, - turned into _
}

// rootInfo locates the files of a crate root module (a library, a binary, a
// test target).
type rootInfo struct {
	dir  string // folder of the root file, relative to the repo
	file string // base name of the root file
	ci   *crateInfo
}

// modInfo is what a line scan of a module file found at column 0.
type modInfo struct {
	items map[string]bool   // declared item names (functions, types, ...)
	mods  map[string]bool   // declared child modules
	named map[string]string // re-exported name → absolute path of the target
	globs []string          // glob re-exported modules
}

type itemKey struct {
	mod, name string
	value     bool
}

type itemRes struct {
	mod, name    string
	found, isMod bool
}

// repoCache holds per-build knowledge shared by the workers.
type repoCache struct {
	repo *extract.Repo

	mu         sync.Mutex
	crates     map[string]*crateInfo             // by folder of Cargo.toml
	roots      map[string]rootInfo               // crate root module → files
	known      map[string]bool                   // crate names of the repository
	modFiles   extract.MemoMap[string, string]   // module path → file ("" none)
	mods       extract.MemoMap[string, *modInfo] // module path → scan (nil: no file)
	items      extract.MemoMap[itemKey, itemRes]
	canon      extract.MemoMap[string, string]
	workspaces map[string]*sync.Once // by folder: reads the members once
}

// cacheKey keys the repoCache in the build's Repo (see extract.Memo).
type cacheKey struct{}

// cacheFor returns the cache of a build, which lives as long as its Repo.
func cacheFor(r *extract.Repo) *repoCache {
	return extract.Memo(r, cacheKey{}, func() *repoCache {
		return &repoCache{repo: r, crates: map[string]*crateInfo{}, roots: map[string]rootInfo{},
			known: map[string]bool{}, workspaces: map[string]*sync.Once{}}
	})
}

// parseCargo reads the few Cargo.toml keys the extractor needs.
func parseCargo(dir string, data []byte) *crateInfo {
	ci := &crateInfo{dir: dir, deps: map[string]bool{}}
	section := ""
	pkgName, libName, libPath := "", "", ""
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			section = strings.Trim(line, "[] \t")
			if section == "workspace" {
				ci.workspace = true
			}
			if d := depSection(section); d != "" && d != section {
				// [dependencies.foo]
				ci.deps[strings.ReplaceAll(unquote(d), "-", "_")] = true
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if depSection(section) == section {
			name, _, _ := strings.Cut(key, ".")
			ci.deps[strings.ReplaceAll(unquote(name), "-", "_")] = true
			continue
		}
		switch section + "." + key {
		case "package.name":
			pkgName = unquote(val)
		case "lib.name":
			libName = unquote(val)
		case "lib.path":
			libPath = unquote(val)
			ci.libSet = true
		case "bin.path":
			if p := path.Clean(strings.TrimPrefix(unquote(val), "./")); ci.binPath == "" && !strings.HasPrefix(p, "src/") && strings.HasSuffix(p, ".rs") {
				ci.binPath = joinPath(dir, p)
			}
		case "workspace.members":
			// An array, possibly over several lines.
			for !strings.Contains(val, "]") && i+1 < len(lines) {
				i++
				val += " " + strings.TrimSpace(lines[i])
			}
			val = strings.Trim(val, "[] ")
			for _, m := range strings.Split(val, ",") {
				if c, _, _ := strings.Cut(m, "#"); strings.TrimSpace(c) != "" {
					ci.members = append(ci.members, unquote(strings.TrimSpace(c)))
				}
			}
		}
	}
	if pkgName == "" {
		return ci
	}
	name := libName
	if name == "" {
		name = pkgName
	}
	ci.name = strings.ReplaceAll(name, "-", "_")
	if libPath == "" {
		libPath = "src/lib.rs"
	}
	libPath = path.Clean(strings.TrimPrefix(libPath, "./"))
	ci.libDir = joinPath(dir, path.Dir(libPath))
	ci.libFile = path.Base(libPath)
	return ci
}

// depSection returns, for a dependency table header, the part after the
// table name: section itself for [dependencies], "foo" for
// [dev-dependencies.foo], "" for other tables.
func depSection(section string) string {
	if strings.HasPrefix(section, "workspace.") {
		return ""
	}
	for _, t := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
		if section == t || strings.HasSuffix(section, "."+t) {
			return section
		}
		if i := strings.Index(section, t+"."); i >= 0 && (i == 0 || section[i-1] == '.') {
			return section[i+len(t)+1:]
		}
	}
	return ""
}

func unquote(s string) string {
	if c, _, ok := strings.Cut(s, "#"); ok && !strings.Contains(c, `"`) {
		s = c
	}
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
			return s[1 : j+1]
		}
	}
	return s
}

// joinPath joins relative slash paths, "" and "." meaning the root.
func joinPath(a, b string) string {
	if a == "" || a == "." {
		if b == "." {
			return ""
		}
		return b
	}
	if b == "" || b == "." {
		return a
	}
	return a + "/" + b
}

// crateFor returns the crate governing folder dir, or nil. The crates of
// its workspace are read with it, so that what a file sees of the other
// crates does not depend on the order files are parsed in.
func (c *repoCache) crateFor(dir string) *crateInfo {
	ci := c.parseAt(dir)
	if ci != nil {
		c.ensureWorkspace(ci.dir)
	}
	return ci
}

// parseAt parses the Cargo.toml governing folder dir (cached) and
// registers the crate roots of its package.
func (c *repoCache) parseAt(dir string) *crateInfo {
	cdir, data, ok := c.repo.FindUp(dir, "Cargo.toml")
	if !ok {
		return nil
	}
	c.mu.Lock()
	ci, hit := c.crates[cdir]
	c.mu.Unlock()
	if hit {
		return ci
	}
	ci = parseCargo(cdir, data)
	if !ci.libSet && ci.binPath != "" && !c.repo.Exists(joinPath(ci.libDir, "lib.rs")) && !c.repo.Exists(joinPath(ci.libDir, "main.rs")) {
		// A package that is one binary kept outside src/ (ripgrep's
		// crates/core/main.rs): its modules hang under the package name,
		// as src/main.rs's would.
		ci.libDir, ci.libFile = path.Dir(ci.binPath), path.Base(ci.binPath)
	}
	roots := c.targetRoots(ci)
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, hit := c.crates[cdir]; hit {
		return prev
	}
	c.crates[cdir] = ci
	for root, ri := range roots {
		if _, ok := c.roots[root]; !ok {
			c.roots[root] = ri
		}
	}
	return ci
}

// targetRoots lists the crate roots of a package: the library, build.rs,
// and the binaries, tests, benches and examples found by Cargo's layout.
func (c *repoCache) targetRoots(ci *crateInfo) map[string]rootInfo {
	if ci.name == "" {
		return nil
	}
	roots := map[string]rootInfo{ci.name: c.libRoot(ci)}
	if c.repo.Exists(joinPath(ci.dir, "build.rs")) {
		roots[ci.name+".build_script"] = rootInfo{dir: ci.dir, file: "build.rs", ci: ci}
	}
	for _, t := range [][2]string{{"src/bin", "bin"}, {"tests", "tests"}, {"benches", "benches"}, {"examples", "examples"}} {
		d := joinPath(ci.dir, t[0])
		if isDir, _ := c.repo.Stat(d); !isDir {
			continue // most packages have no benches or examples
		}
		ents, err := c.repo.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			switch {
			case !e.IsDir() && strings.HasSuffix(name, ".rs"):
				roots[ci.name+"."+t[1]+"."+sanitize(strings.TrimSuffix(name, ".rs"))] = rootInfo{dir: d, file: name, ci: ci}
			case e.IsDir():
				roots[ci.name+"."+t[1]+"."+sanitize(name)] = rootInfo{dir: joinPath(d, name), file: "main.rs", ci: ci}
			}
		}
	}
	return roots
}

// libRoot finds the library root file of a crate (lib.rs, else main.rs).
func (c *repoCache) libRoot(ci *crateInfo) rootInfo {
	ri := rootInfo{dir: ci.libDir, file: ci.libFile, ci: ci}
	if ri.file == "lib.rs" && !c.repo.Exists(joinPath(ri.dir, "lib.rs")) && c.repo.Exists(joinPath(ri.dir, "main.rs")) {
		ri.file = "main.rs"
	}
	return ri
}

// ensureWorkspace reads, once, the workspace the crate in folder dir
// belongs to (the nearest Cargo.toml at or above it with a [workspace]
// table): its members are the crates of the repository that paths like
// `use other_crate::x` may name.
func (c *repoCache) ensureWorkspace(dir string) {
	ws := c.parseAt(dir)
	for ws != nil && !ws.workspace {
		if ws.dir == "" {
			return
		}
		parent := path.Dir(ws.dir)
		if parent == "." {
			parent = ""
		}
		ws = c.parseAt(parent)
	}
	if ws == nil {
		return
	}
	c.mu.Lock()
	once := c.workspaces[ws.dir]
	if once == nil {
		once = &sync.Once{}
		c.workspaces[ws.dir] = once
	}
	c.mu.Unlock()
	once.Do(func() { c.readWorkspace(ws) })
}

func (c *repoCache) readWorkspace(ws *crateInfo) {
	var names []string
	if ws.name != "" {
		names = append(names, ws.name)
	}
	add := func(dir string) {
		if m := c.parseAt(dir); m != nil && m.dir == dir && m.name != "" {
			names = append(names, m.name)
		}
	}
	for _, m := range ws.members {
		m = joinPath(ws.dir, strings.TrimSuffix(path.Clean(m), "/"))
		if strings.ContainsAny(m, "?[") || strings.Count(m, "*") > 1 {
			continue
		}
		if prefix, ok := strings.CutSuffix(m, "/*"); ok {
			ents, err := c.repo.ReadDir(prefix)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if e.IsDir() && c.repo.Exists(joinPath(prefix, e.Name()+"/Cargo.toml")) {
					add(joinPath(prefix, e.Name()))
				}
			}
			continue
		}
		if !strings.Contains(m, "*") && c.repo.Exists(joinPath(m, "Cargo.toml")) {
			add(m)
		}
	}
	c.mu.Lock()
	for _, n := range names {
		c.known[n] = true
	}
	c.mu.Unlock()
}

// sysroot crates are never the repository's, even when it has a mock
// crate of that name (cargo's tests do).
var sysroot = extract.WordSet(`std core alloc proc_macro test`)

// external reports whether an absolute path leaves the repository's crates.
func (c *repoCache) external(abs string) bool {
	first := extract.FirstName(abs)
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.known[first] || sysroot[first]
}

// visible reports whether a path starting with name, written in crate ci,
// names a crate of the repository: ci itself, or a dependency of ci that
// is in the repository.
func (c *repoCache) visible(ci *crateInfo, name string) bool {
	if sysroot[name] {
		return false
	}
	if ci != nil && name == ci.name {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known[name] {
		return false
	}
	return ci == nil || len(ci.deps) == 0 || ci.deps[name]
}

// locate gives the module path of a file and the module path of its crate
// root (what `crate::` means in it):
//
//	src/lib.rs, src/main.rs            → cargo           (the [lib] path is honoured)
//	src/core/mod.rs, src/core.rs       → cargo.core
//	src/bin/x.rs, src/bin/x/main.rs    → cargo.bin.x     (root cargo.bin.x)
//	src/bin/x/cli.rs                   → cargo.bin.x.cli (root cargo.bin.x)
//	tests/t.rs, tests/t/main.rs        → cargo.tests.t   (also benches, examples)
//	build.rs                           → cargo.build_script
//
// A file under no Cargo.toml with a [package] gets its folder path.
func (c *repoCache) locate(p string) (pkg, root string, ci *crateInfo) {
	pkg, root, ci = c.locateIn(p)
	if ci != nil && ci.name == "" {
		ci = nil
	}
	return pkg, root, ci
}

func (c *repoCache) locateIn(p string) (pkg, root string, ci *crateInfo) {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	ci = c.crateFor(dir)
	rel, name, cdir := p, "", ""
	if ci != nil {
		cdir = ci.dir
		if cdir != "" {
			rel = strings.TrimPrefix(p, cdir+"/")
		}
		name = ci.name
	}
	if name == "" {
		// Not in a package (a fixture under a workspace-only Cargo.toml, a
		// loose script): the file path, from the repository root.
		return modulePath(strings.Split(p, "/")), "", ci
	}
	parts := strings.Split(rel, "/")
	target := func(kind string, sub []string, base string) (string, string, *crateInfo) {
		first := sanitize(strings.TrimSuffix(sub[0], ".rs"))
		root := name + "." + kind + "." + first
		if len(sub) == 1 {
			c.register(root, rootInfo{dir: base, file: sub[0], ci: ci})
			return root, root, ci
		}
		c.register(root, rootInfo{dir: joinPath(base, sub[0]), file: "main.rs", ci: ci})
		if len(sub) == 2 && sub[1] == "main.rs" {
			return root, root, ci
		}
		return extract.JoinName(root, modulePath(sub[1:])), root, ci
	}
	switch {
	case rel == "build.rs":
		root = name + ".build_script"
		c.register(root, rootInfo{dir: cdir, file: "build.rs", ci: ci})
		return root, root, ci
	case len(parts) > 2 && parts[0] == "src" && parts[1] == "bin":
		return target("bin", parts[2:], joinPath(cdir, "src/bin"))
	case len(parts) > 1 && (parts[0] == "tests" || parts[0] == "benches" || parts[0] == "examples"):
		return target(parts[0], parts[1:], joinPath(cdir, parts[0]))
	}
	libRel := strings.TrimPrefix(strings.TrimPrefix(ci.libDir, cdir), "/")
	var sub []string
	switch {
	case libRel == "":
		sub = parts
	case strings.HasPrefix(rel, libRel+"/"):
		sub = strings.Split(rel[len(libRel)+1:], "/")
	case parts[0] == "src" && len(parts) > 1:
		sub = parts[1:]
	default:
		sub = parts
	}
	if len(sub) == 1 && (sub[0] == ci.libFile || sub[0] == "lib.rs" || sub[0] == "main.rs") {
		return name, name, ci
	}
	return extract.JoinName(name, modulePath(sub)), name, ci
}

func (c *repoCache) register(root string, ri rootInfo) {
	c.mu.Lock()
	if _, ok := c.roots[root]; !ok {
		c.roots[root] = ri
	}
	c.mu.Unlock()
}

// modulePath turns file path elements into a module path: a/b.rs and
// a/b/mod.rs → a.b.
func modulePath(parts []string) string {
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		if i == len(parts)-1 {
			p = strings.TrimSuffix(p, ".rs")
			if p == "mod" {
				break
			}
		}
		out = append(out, sanitize(p))
	}
	return strings.Join(out, ".")
}

func sanitize(s string) string {
	if strings.ContainsAny(s, "-.") {
		s = strings.NewReplacer("-", "_", ".", "_").Replace(s)
	}
	return s
}

// rootOf finds the crate root module m belongs to.
func (c *repoCache) rootOf(m string) (string, rootInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := m; ; p, _ = extract.SplitName(p) {
		if ri, ok := c.roots[p]; ok {
			return p, ri, true
		}
		if p == "" {
			return "", rootInfo{}, false
		}
	}
}

// moduleFile returns the file of module m, or "".
func (c *repoCache) moduleFile(m string) string {
	return c.modFiles.Get(m, func() string {
		root, ri, ok := c.rootOf(m)
		if !ok {
			return ""
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(m, root), ".")
		if rest == "" {
			if ri.file != "" {
				return joinPath(ri.dir, ri.file)
			}
			return ""
		}
		base := joinPath(ri.dir, strings.ReplaceAll(rest, ".", "/"))
		if c.repo.Exists(base + ".rs") {
			return base + ".rs"
		}
		if c.repo.Exists(base + "/mod.rs") {
			return base + "/mod.rs"
		}
		return ""
	})
}

// module scans the file of module m (cached); nil when m has no file. The
// file is read through Repo.ReadMeta: a regular file inside the root, of
// bounded size, as every file the walk did not hand over.
func (c *repoCache) module(m string) *modInfo {
	return c.mods.Get(m, func() *modInfo {
		if f := c.moduleFile(m); f != "" {
			if data, err := c.repo.ReadDerived(f, moduleScan); err == nil {
				return c.scanModule(m, data)
			}
		}
		return nil
	})
}

var newline = []byte{'\n'}

// indent returns the width of a line's indentation (a tab counts 4) and
// the rest of the line.
func indent(line []byte) (int, []byte) {
	w := 0
	for i, b := range line {
		switch b {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w, line[i:]
		}
	}
	return w, nil
}

// opensItemMacro reports a line that opens a macro invocation with
// braces, `name! {` or `path::name! {` alone (not macro_rules!).
func opensItemMacro(line []byte) bool {
	s := bytes.TrimRight(line, " \t\r")
	name, ok := bytes.CutSuffix(s, []byte("{"))
	if !ok {
		return false
	}
	name, ok = bytes.CutSuffix(bytes.TrimRight(name, " "), []byte("!"))
	if !ok || len(name) == 0 || string(name) == "macro_rules" {
		return false
	}
	for i, b := range name {
		if !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || i > 0 && (b >= '0' && b <= '9' || b == ':')) {
			return false
		}
	}
	return true
}

// scanItems reads the items declared and the imports (use) at column 0
// of a module file. It is a line scan, not a parse: rustfmt puts top-level items
// at column 0 and everything nested deeper. The items of a macro
// invocation opened at column 0 (cfg_rt! {), one level deeper, are the
// module's too (see macros.go), as are those of invocations nested so and
// of a cfg_if! invocation's branches (if #[cfg(unix)] { ... } else { ... }).
func scanItems(data []byte) (items, mods map[string]bool, uses []string) {
	items, mods = map[string]bool{}, map[string]bool{}
	depth := 0 // the item macros the line is in
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, newline)
		if depth > 0 {
			ind, rest := indent(line)
			switch {
			case ind == 4*(depth-1) && string(bytes.TrimSpace(rest)) == "}":
				depth--
				continue
			case ind != 4*depth:
				// A cfg_if! branch's `} else {` too.
				continue
			}
			line = rest
		}
		if depth < maxMacroRounds && (opensItemMacro(line) || depth > 0 && bytes.HasPrefix(line, []byte("if #[")) &&
			bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte("{"))) {
			depth++
			continue
		}
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '/' || line[0] == '#' || line[0] == '}' {
			continue
		}
		s := string(line)
		if rest, ok := strings.CutPrefix(s, "pub"); ok {
			if strings.HasPrefix(rest, "(") {
				if j := strings.IndexByte(rest, ')'); j >= 0 {
					rest = rest[j+1:]
				}
			}
			s = strings.TrimLeft(rest, " ")
		}
		if rest, ok := strings.CutPrefix(s, "use "); ok {
			// Private imports count too: child modules see them through
			// crate:: and super:: paths.
			// Collect up to the semicolon.
			for !strings.Contains(rest, ";") && len(data) > 0 {
				var next []byte
				next, data, _ = bytes.Cut(data, newline)
				rest += "\n" + string(next)
			}
			rest, _, _ = strings.Cut(rest, ";")
			uses = append(uses, rest)
			continue
		}
		for _, q := range []string{"async ", "unsafe ", "const fn", "extern \"C\" ", "extern \"Rust\" "} {
			if q == "const fn" {
				if strings.HasPrefix(s, q) {
					s = s[len("const "):]
				}
				continue
			}
			s = strings.TrimPrefix(s, q)
		}
		kw, rest, ok := strings.Cut(s, " ")
		if !ok {
			continue
		}
		switch kw {
		case "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod", "macro_rules!":
			name := identPrefix(strings.TrimPrefix(strings.TrimSpace(rest), "mut "))
			if name == "" {
				continue
			}
			if kw == "mod" {
				mods[name] = true
			} else {
				items[name] = true
			}
		}
	}
	return items, mods, uses
}

// moduleScan is what scanModule takes from a module file's bytes; the
// rest of a modInfo comes from the crate's layout.
var moduleScan = extract.NewDerivation("rust.module", func(data []byte) []byte {
	items, mods, uses := scanItems(data)
	var key []byte
	for _, set := range []map[string]bool{items, mods} {
		for _, n := range slices.Sorted(maps.Keys(set)) {
			key = append(append(key, n...), 0)
		}
		key = append(key, 1)
	}
	for _, u := range uses {
		key = append(binary.AppendUvarint(key, uint64(len(u))), u...)
	}
	return key
})

// scanModule reads the items declared and re-exported at column 0 of a
// module file (scanItems) and resolves its imports.
func (c *repoCache) scanModule(m string, data []byte) *modInfo {
	items, mods, uses := scanItems(data)
	mi := &modInfo{items: items, mods: mods, named: map[string]string{}}
	root, ri, _ := c.rootOf(m)
	for _, u := range uses {
		for _, e := range parseUse(u) {
			abs, _ := c.absPath(e.segs, m, root, ri.ci, func(n string) bool { return mi.mods[n] })
			if abs == "" {
				continue
			}
			mod, last := extract.SplitName(abs)
			if last == "*" {
				mi.globs = append(mi.globs, mod)
				continue
			}
			local := e.alias
			if local == "" {
				local = last
			}
			if local != "_" {
				mi.named[local] = abs
			}
		}
	}
	return mi
}

func identPrefix(s string) string {
	s = strings.TrimPrefix(s, "r#")
	i := 0
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return s[:i]
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// absPath makes a use path absolute, seen from module m of crate root root.
// localMod reports the child modules of m (2018 paths may start with one).
// ext is true when the path leaves the repository's known crates.
func (c *repoCache) absPath(segs []string, m, root string, ci *crateInfo, localMod func(string) bool) (abs string, ext bool) {
	if len(segs) == 0 {
		return "", true
	}
	base := ""
	i := 0
	switch segs[0] {
	case "crate", "$crate":
		base, i = root, 1
	case "self":
		base, i = m, 1
	case "super":
		base = m
		for i < len(segs) && segs[i] == "super" {
			base, _ = extract.SplitName(base)
			i++
		}
	case "::":
		i = 1
		if len(segs) < 2 {
			return "", true
		}
		ext = !c.visible(ci, segs[1])
	default:
		if localMod != nil && localMod(segs[0]) {
			base = m
		} else {
			ext = !c.visible(ci, segs[0])
		}
	}
	return extract.JoinName(base, strings.Join(segs[i:], ".")), ext
}

// resolveItem follows re-exports from module m to the module declaring
// name. found is false when neither a declaration nor a re-export was seen
// (m is external, or the item comes from a macro). value asks for the value
// namespace first (a function called), else modules come first (a path
// prefix): `mod version; pub use version::version;` binds both.
func (c *repoCache) resolveItem(m, name string, value bool) itemRes {
	return c.items.Get(itemKey{m, name, value}, func() itemRes {
		return c.resolveItemDepth(m, name, value, 0)
	})
}

func (c *repoCache) resolveItemDepth(m, name string, value bool, depth int) itemRes {
	none := itemRes{mod: m, name: name}
	if depth > 6 {
		return none
	}
	mi := c.module(m)
	if mi == nil {
		return none
	}
	if !value && mi.mods[name] {
		return itemRes{m, name, true, true}
	}
	if mi.items[name] {
		return itemRes{m, name, true, false}
	}
	if t, ok := mi.named[name]; ok {
		tm, tn := extract.SplitName(t)
		if r := c.resolveItemDepth(tm, tn, value, depth+1); r.found {
			return r
		}
		if c.moduleFile(t) != "" {
			return itemRes{tm, tn, true, true}
		}
		// Re-exported from another crate, or made by a macro: the name is
		// bound here all the same.
		return itemRes{mod: tm, name: tn, found: true}
	}
	for _, g := range mi.globs {
		if r := c.resolveItemDepth(g, name, value, depth+1); r.found {
			return r
		}
	}
	if mi.mods[name] || c.moduleFile(extract.JoinName(m, name)) != "" {
		return itemRes{m, name, true, true}
	}
	return none
}

// canonMod follows re-exports along a module path: crate::util::paths,
// where util is `use cargo::util` in the binary's root, is cargo.util.paths.
func (c *repoCache) canonMod(m string) string {
	if m == "" || c.moduleFile(m) != "" {
		return m
	}
	return c.canon.Get(m, func() string {
		parent, last := extract.SplitName(m)
		if parent == "" {
			return m
		}
		p := c.canonMod(parent)
		if r := c.resolveItem(p, last, false); r.found {
			return extract.JoinName(r.mod, r.name)
		}
		return extract.JoinName(p, last)
	})
}

// useEntry is one path of a use tree.
type useEntry struct {
	segs  []string // the path; a glob ends with "*"; a leading "::" is kept
	alias string
}

// parseUse parses the text of a use tree: `crate::a::{b, c::D as E, *}`.
func parseUse(s string) []useEntry {
	p := &useParser{toks: tokenizeUse(s)}
	for p.i < len(p.toks) {
		start := p.i
		p.tree(nil)
		if p.i == start {
			p.i++
		}
	}
	return p.out
}

type useParser struct {
	toks []string
	i    int
	out  []useEntry
}

func (p *useParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *useParser) tree(prefix []string) {
	segs := append([]string(nil), prefix...)
	if p.peek() == "::" {
		p.i++
		if len(segs) == 0 {
			segs = append(segs, "::")
		}
	}
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		switch {
		case t == "{":
			p.i++
			p.list(segs)
			return
		case t == "*":
			p.i++
			p.out = append(p.out, useEntry{segs: append(segs, "*")})
			return
		case isIdentByte(t[0]):
			segs = append(segs, t)
			p.i++
			if p.peek() == "::" {
				p.i++
				continue
			}
			alias := ""
			if p.peek() == "as" {
				p.i++
				if a := p.peek(); a != "" && isIdentByte(a[0]) {
					alias = a
					p.i++
				}
			}
			if len(segs) >= 2 && segs[len(segs)-1] == "self" {
				segs = segs[:len(segs)-1]
			}
			p.out = append(p.out, useEntry{segs: segs, alias: alias})
			return
		default:
			return
		}
	}
}

func (p *useParser) list(prefix []string) {
	for p.i < len(p.toks) {
		switch p.peek() {
		case "}":
			p.i++
			return
		case ",":
			p.i++
			continue
		}
		start := p.i
		p.tree(prefix)
		if p.i == start {
			p.i++
		}
	}
}

func tokenizeUse(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == ' ' || b == '\t' || b == '\n' || b == '\r':
			i++
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return toks
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return toks
			}
			i += j + 4
		case strings.HasPrefix(s[i:], "::"):
			toks = append(toks, "::")
			i += 2
		case b == '{' || b == '}' || b == ',' || b == '*':
			toks = append(toks, s[i:i+1])
			i++
		case b == '#':
			// An attribute inside a use list: skip it.
			depth := 0
			i++
			for i < len(s) {
				if s[i] == '[' {
					depth++
				} else if s[i] == ']' {
					depth--
					if depth <= 0 {
						i++
						break
					}
				}
				i++
			}
		case isIdentByte(b):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '#' && s[i:j] == "r" {
				j++
				k := j
				for k < len(s) && isIdentByte(s[k]) {
					k++
				}
				toks = append(toks, s[j:k])
				i = k
				continue
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			i++
		}
	}
	return toks
}
