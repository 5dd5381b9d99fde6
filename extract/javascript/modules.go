package javascript

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
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

	mu    sync.Mutex
	dirs  map[string]map[string]bool // dir → entry name → is a folder
	found map[string]string          // joined specifier path → file ("" none)
	sums  map[string]*summary
	cfgs  map[string]*tsconfig

	cfgOf  map[string]*tsconfig // folder → governing config (nil: none)
	wsOnce sync.Once
	ws     []workspace
}

// cacheKey keys the repoCache in the build's Repo (see extract.Memo).
type cacheKey struct{}

// cacheFor returns the cache of a build, which lives as long as its Repo.
func cacheFor(repo *extract.Repo) *repoCache {
	return extract.Memo(repo, cacheKey{}, func() *repoCache {
		return &repoCache{repo: repo, dirs: map[string]map[string]bool{}, found: map[string]string{},
			sums: map[string]*summary{}, cfgs: map[string]*tsconfig{}}
	})
}

// list returns the entries of a folder (relative, "" is the root).
func (c *repoCache) list(dir string) map[string]bool {
	if dir == "." {
		dir = ""
	}
	c.mu.Lock()
	m, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok {
		return m
	}
	m = map[string]bool{}
	if c.repo != nil {
		abs := filepath.Join(c.repo.Root, filepath.FromSlash(dir))
		ents, _ := os.ReadDir(abs)
		for _, e := range ents {
			isDir := e.IsDir()
			if e.Type()&os.ModeSymlink != 0 {
				if st, err := os.Stat(filepath.Join(abs, e.Name())); err == nil {
					isDir = st.IsDir()
				}
			}
			m[e.Name()] = isDir
		}
	}
	c.mu.Lock()
	c.dirs[dir] = m
	c.mu.Unlock()
	return m
}

func (c *repoCache) isFile(dir, name string) bool {
	d, ok := c.list(dir)[name]
	return ok && !d
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
	c.mu.Lock()
	r, ok := c.found[joined]
	c.mu.Unlock()
	if ok {
		return r, r != ""
	}
	r = c.lookFile(joined)
	c.mu.Lock()
	c.found[joined] = r
	c.mu.Unlock()
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

// tsconfig is the module resolution part of a tsconfig.json.
type tsconfig struct {
	dir     string // folder of the config file
	base    string // baseUrl (or the config folder), relative to the root
	hasBase bool
	paths   []pathAlias
}

type pathAlias struct {
	prefix, suffix string
	wildcard       bool
	targets        []string
}

func (p pathAlias) match(spec string) (string, bool) {
	if !p.wildcard {
		return "", spec == p.prefix
	}
	if len(spec) < len(p.prefix)+len(p.suffix) || !strings.HasPrefix(spec, p.prefix) || !strings.HasSuffix(spec, p.suffix) {
		return "", false
	}
	return spec[len(p.prefix) : len(spec)-len(p.suffix)], true
}

type rawTSConfig struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// config finds the tsconfig.json or jsconfig.json governing dir.
func (c *repoCache) config(dir string) *tsconfig {
	if c.repo == nil {
		return nil
	}
	c.mu.Lock()
	cfg, hit := c.cfgOf[dir]
	c.mu.Unlock()
	if hit {
		return cfg
	}
	cfg = c.loadFor(dir)
	c.mu.Lock()
	if c.cfgOf == nil {
		c.cfgOf = map[string]*tsconfig{}
	}
	c.cfgOf[dir] = cfg
	c.mu.Unlock()
	return cfg
}

func (c *repoCache) loadFor(dir string) *tsconfig {
	cfgDir, data, ok := c.repo.FindUp(dir, "tsconfig.json")
	if !ok {
		cfgDir, data, ok = c.repo.FindUp(dir, "jsconfig.json")
	}
	if !ok {
		return nil
	}
	c.mu.Lock()
	cfg, hit := c.cfgs[cfgDir]
	c.mu.Unlock()
	if hit {
		return cfg
	}
	cfg = &tsconfig{dir: cfgDir, base: cfgDir}
	c.loadConfig(cfg, cfgDir, data, 0, true, true)
	c.mu.Lock()
	c.cfgs[cfgDir] = cfg
	c.mu.Unlock()
	return cfg
}

// loadConfig fills cfg from one config file and the files it extends;
// settings nearer the starting file win.
func (c *repoCache) loadConfig(cfg *tsconfig, dir string, data []byte, depth int, wantBase, wantPaths bool) {
	var raw rawTSConfig
	if json.Unmarshal(cleanJSON(data), &raw) != nil {
		return
	}
	if wantBase && raw.CompilerOptions.BaseURL != nil {
		cfg.base, cfg.hasBase = path.Clean(path.Join(dir, *raw.CompilerOptions.BaseURL)), true
		wantBase = false
	}
	if wantPaths && len(raw.CompilerOptions.Paths) > 0 {
		base := dir
		if raw.CompilerOptions.BaseURL != nil {
			base = path.Join(dir, *raw.CompilerOptions.BaseURL)
		} else if cfg.hasBase {
			base = cfg.base
		}
		for k, ts := range raw.CompilerOptions.Paths {
			p := pathAlias{targets: make([]string, 0, len(ts))}
			if i := strings.IndexByte(k, '*'); i >= 0 {
				p.prefix, p.suffix, p.wildcard = k[:i], k[i+1:], true
			} else {
				p.prefix = k
			}
			for _, t := range ts {
				p.targets = append(p.targets, path.Join(base, t))
			}
			cfg.paths = append(cfg.paths, p)
		}
		// Longest prefix first, as TypeScript matches.
		for i := 1; i < len(cfg.paths); i++ {
			for j := i; j > 0 && len(cfg.paths[j].prefix) > len(cfg.paths[j-1].prefix); j-- {
				cfg.paths[j], cfg.paths[j-1] = cfg.paths[j-1], cfg.paths[j]
			}
		}
		wantPaths = false
	}
	if (wantBase || wantPaths) && depth < 3 && len(raw.Extends) > 0 {
		var ext string
		if json.Unmarshal(raw.Extends, &ext) == nil && isRelative(ext) {
			p := path.Join(dir, ext)
			if !strings.HasSuffix(p, ".json") {
				p += ".json"
			}
			if b, err := c.repo.ReadMeta(p); err == nil {
				c.loadConfig(cfg, path.Dir(p), b, depth+1, wantBase, wantPaths)
			}
		}
	}
}

// cleanJSON removes comments and trailing commas (tsconfig files are JSONC).
func cleanJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		ch := b[i]
		if inStr {
			out = append(out, ch)
			if ch == '\\' && i+1 < len(b) {
				out = append(out, b[i+1])
				i++
			} else if ch == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case ch == '"':
			inStr = true
			out = append(out, ch)
		case ch == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case ch == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case ch == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, ch)
		default:
			out = append(out, ch)
		}
	}
	return out
}

// summary is what a module exports, read off its text without parsing:
// enough to bind default imports and to follow re-exports of barrels.
type summary struct {
	def    string // name of the symbol exported as default ("" unknown)
	defObj bool   // the default export is an object or the exports object
	own    map[string]bool
	local  map[string]string   // export { local as name }: name → local
	re     map[string]reexport // export { a as name } from "…": name → a there
	star   []reexport
	imp    map[string]reexport // import { a as local } from "…": local → a there
}

type reexport struct {
	key, file string // the module re-exported from
	name      string // its exported name; "" the module itself
}

// summary reads (once) the exports of the module in file rel.
func (c *repoCache) summary(rel string) *summary {
	c.mu.Lock()
	s, ok := c.sums[rel]
	c.mu.Unlock()
	if ok {
		return s
	}
	s = &summary{}
	if c.repo != nil {
		if b, err := c.repo.ReadMeta(rel); err == nil {
			c.scan(s, rel, b)
		}
	}
	c.mu.Lock()
	c.sums[rel] = s
	c.mu.Unlock()
	return s
}

func (c *repoCache) scan(s *summary, rel string, b []byte) {
	dir := path.Dir(rel)
	for len(b) > 0 {
		line := b
		i := bytes.IndexByte(b, '\n')
		if i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) < 7 {
			continue
		}
		switch line[0] {
		case 'e', 'm', 'i':
		default:
			continue
		}
		l := string(bytes.TrimRight(line, "\r"))
		switch {
		case strings.HasPrefix(l, "export default "):
			c.scanDefault(s, rel, strings.TrimSpace(l[len("export default "):]))
		case strings.HasPrefix(l, "export = "):
			if id := ident(strings.TrimSpace(l[len("export = "):])); id != "" {
				s.def = id
			}
		case strings.HasPrefix(l, "module.exports = ") || strings.HasPrefix(l, "module.exports=") ||
			strings.HasPrefix(l, "exports = module.exports = ") || strings.HasPrefix(l, "module.exports = exports = "):
			rest := l[strings.IndexByte(l, '=')+1:]
			rest = strings.TrimSpace(rest)
			for _, p := range []string{"module.exports = ", "exports = "} {
				rest = strings.TrimPrefix(rest, p)
			}
			c.scanDefault(s, rel, rest)
		case strings.HasPrefix(l, "exports.") || strings.HasPrefix(l, "module.exports."):
			rest := strings.TrimPrefix(strings.TrimPrefix(l, "module."), "exports.")
			if id := ident(rest); id != "" {
				s.own = addSet(s.own, id)
				if s.def == "" {
					s.defObj = true
				}
			}
		case strings.HasPrefix(l, "export * from ") || strings.HasPrefix(l, "export * as "):
			spec := quoted(l)
			if spec == "" {
				continue
			}
			key, file, _ := c.resolve(dir, spec)
			if strings.HasPrefix(l, "export * as ") {
				if id := ident(l[len("export * as "):]); id != "" {
					s.re = addRe(s.re, id, reexport{key: key, file: file})
				}
				continue
			}
			if len(s.star) < 32 {
				s.star = append(s.star, reexport{key: key, file: file})
			}
		case strings.HasPrefix(l, "import ") && !strings.HasPrefix(l, "import type "):
			// Imports matter when the module exports what it imported.
			if !strings.Contains(l, "from") && !strings.Contains(l, "{") {
				continue
			}
			for !strings.Contains(l, " from ") && len(b) > 0 {
				j := bytes.IndexByte(b, '\n')
				if j < 0 {
					l += " " + string(b)
					b = nil
				} else {
					l += " " + string(b[:j])
					b = b[j+1:]
				}
			}
			c.scanImport(s, dir, l)
		case strings.HasPrefix(l, "export {") || strings.HasPrefix(l, "export type {"):
			// Possibly spanning lines up to the closing brace.
			for !strings.Contains(l, "}") && len(b) > 0 {
				j := bytes.IndexByte(b, '\n')
				if j < 0 {
					l += " " + string(b)
					b = nil
				} else {
					l += " " + string(b[:j])
					b = b[j+1:]
				}
			}
			open, close := strings.IndexByte(l, '{'), strings.IndexByte(l, '}')
			if open < 0 || close < open {
				continue
			}
			list := l[open+1 : close]
			spec := quoted(l[close:])
			var key, file string
			if spec != "" {
				key, file, _ = c.resolve(dir, spec)
			}
			for _, item := range strings.Split(list, ",") {
				f := strings.Fields(item)
				if len(f) > 0 && f[0] == "type" && len(f) > 1 {
					f = f[1:]
				}
				if len(f) == 0 {
					continue
				}
				name, as := f[0], f[0]
				if len(f) == 3 && f[1] == "as" {
					as = f[2]
				}
				if spec == "" {
					if as == "default" {
						s.def = name
					} else if name != as {
						if s.local == nil {
							s.local = map[string]string{}
						}
						s.local[as] = name
					} else {
						s.own = addSet(s.own, as)
					}
					continue
				}
				s.re = addRe(s.re, as, reexport{key: key, file: file, name: name})
			}
		case strings.HasPrefix(l, "export "):
			// export [declare] [async] function|class|const|... NAME
			f := strings.Fields(l[len("export "):])
			for len(f) > 1 && (f[0] == "declare" || f[0] == "async" || f[0] == "abstract" || f[0] == "default") {
				f = f[1:]
			}
			if len(f) > 1 {
				switch f[0] {
				case "function", "function*", "class", "const", "let", "var", "interface", "type", "enum", "namespace":
					if id := ident(strings.TrimPrefix(f[1], "*")); id != "" {
						s.own = addSet(s.own, id)
					}
				}
			}
		}
	}
}

// scanImport records the names an import statement binds.
func (c *repoCache) scanImport(s *summary, dir, l string) {
	i := strings.LastIndex(l, " from ")
	if i < 0 {
		return
	}
	spec := quoted(l[i:])
	if spec == "" {
		return
	}
	key, file, _ := c.resolve(dir, spec)
	clause := strings.TrimSpace(l[len("import "):i])
	add := func(local string, r reexport) {
		if local == "" {
			return
		}
		if s.imp == nil {
			s.imp = map[string]reexport{}
		}
		s.imp[local] = r
	}
	if open := strings.IndexByte(clause, '{'); open >= 0 {
		close := strings.IndexByte(clause, '}')
		if close > open {
			for _, item := range strings.Split(clause[open+1:close], ",") {
				f := strings.Fields(item)
				if len(f) > 1 && f[0] == "type" {
					f = f[1:]
				}
				switch {
				case len(f) == 1:
					add(f[0], reexport{key: key, file: file, name: f[0]})
				case len(f) == 3 && f[1] == "as":
					add(f[2], reexport{key: key, file: file, name: f[0]})
				}
			}
		}
		clause = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(clause[:open]), ","))
	}
	if rest, ok := strings.CutPrefix(clause, "* as "); ok {
		add(ident(strings.TrimSpace(rest)), reexport{key: key, file: file})
	} else if id := ident(clause); id != "" {
		add(id, reexport{key: key, file: file, name: "default"})
	}
}

func addSet(m map[string]bool, k string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[k] = true
	return m
}

func addRe(m map[string]reexport, k string, r reexport) map[string]reexport {
	if m == nil {
		m = map[string]reexport{}
	}
	m[k] = r
	return m
}

// scanDefault reads the expression after `export default` or
// `module.exports =`.
func (c *repoCache) scanDefault(s *summary, rel, rest string) {
	w := rest
	for _, p := range []string{"abstract ", "async "} {
		w = strings.TrimPrefix(w, p)
	}
	switch {
	case strings.HasPrefix(w, "class"):
		w = strings.TrimSpace(w[len("class"):])
		if id := ident(w); id != "" && id != "extends" && id != "implements" {
			s.def = id
		} else {
			s.def = defaultName(rel)
		}
	case strings.HasPrefix(w, "function"):
		w = strings.TrimSpace(strings.TrimPrefix(w[len("function"):], "*"))
		if id := ident(w); id != "" {
			s.def = id
		} else {
			s.def = defaultName(rel)
		}
	case strings.HasPrefix(w, "{"):
		s.defObj = true
	case strings.HasPrefix(w, "("):
		s.def = defaultName(rel)
	case strings.HasPrefix(w, "new "):
		if id := ident(strings.TrimSpace(w[4:])); id != "" {
			s.def = id
		}
	case strings.HasPrefix(w, "require("):
		// module.exports = require("./impl"): a re-export of that module.
		if spec := quoted(w); spec != "" {
			key, file, _ := c.resolve(path.Dir(rel), spec)
			s.re = addRe(s.re, "default", reexport{key: key, file: file, name: "default"})
		}
	default:
		id := ident(w)
		if id == "" {
			return
		}
		after := strings.TrimSpace(w[len(id):])
		if strings.HasPrefix(after, "(") || strings.HasPrefix(after, "<") {
			// A wrapper call: export default connect(a)(Component).
			if i := strings.LastIndexByte(after, '('); i >= 0 {
				inner := after[i+1:]
				if j := strings.IndexByte(inner, ')'); j >= 0 {
					if a := strings.TrimSpace(inner[:j]); a != "" && ident(a) == a {
						s.def = a
					}
				}
			}
			return
		}
		if strings.HasPrefix(after, "=>") {
			s.def = defaultName(rel)
			return
		}
		if after == "" || after[0] == ';' || after[0] == ',' || strings.HasPrefix(after, "//") || strings.HasPrefix(after, "as ") {
			s.def = id
		}
	}
}

// ident is the identifier at the start of s.
func ident(s string) string {
	for i, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return s[:i]
	}
	return s
}

// quoted is the first quoted string in s.
func quoted(s string) string {
	i := strings.IndexAny(s, `"'`)
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i+1:], s[i])
	if j < 0 {
		return ""
	}
	return s[i+1 : i+1+j]
}

// cand is a place an imported name may be declared: module key and name
// there ("" the module itself).
type cand struct{ key, name string }

// exportCands lists, most likely first, where the name exported by module
// file (key) is declared, following re-exports of barrel files.
func (c *repoCache) exportCands(file, key, name string, depth int, out []cand) []cand {
	if file == "" || depth > 4 {
		return append(out, cand{key, name})
	}
	s := c.summary(file)
	if name == "default" {
		switch {
		case s.def != "":
			if r, ok := s.imp[s.def]; ok {
				return c.follow(r, depth, out)
			}
			return append(out, cand{key, s.def})
		case s.defObj:
			return append(out, cand{key, ""})
		}
		if r, ok := s.re["default"]; ok {
			return c.exportCands(r.file, r.key, r.name, depth+1, out)
		}
		return out
	}
	if l, ok := s.local[name]; ok {
		if r, ok := s.imp[l]; ok {
			return c.follow(r, depth, out)
		}
		return append(out, cand{key, l})
	}
	if r, ok := s.imp[name]; ok {
		// import { X } from "./x"; export { X }
		return c.follow(r, depth, out)
	}
	if r, ok := s.re[name]; ok {
		if r.name == "" {
			return append(out, cand{r.key, ""})
		}
		return c.exportCands(r.file, r.key, r.name, depth+1, out)
	}
	if s.own[name] || len(s.star) == 0 {
		return append(out, cand{key, name})
	}
	for _, st := range s.star {
		if len(out) >= 16 {
			break
		}
		out = c.exportCands(st.file, st.key, name, depth+1, out)
	}
	return append(out, cand{key, name})
}

func (c *repoCache) follow(r reexport, depth int, out []cand) []cand {
	if r.name == "" {
		return append(out, cand{r.key, ""})
	}
	return c.exportCands(r.file, r.key, r.name, depth+1, out)
}

// workspace is a package of a monorepo: its name and folder.
type workspace struct {
	name, dir string
	entries   []string // package.json source/types/module/main, in that order
}

// workspaces reads (once) the packages a monorepo declares: package.json
// "workspaces", pnpm-workspace.yaml, lerna.json.
func (c *repoCache) workspaces() []workspace {
	c.wsOnce.Do(func() {
		if c.repo == nil {
			return
		}
		var globs []string
		if b, err := c.repo.ReadMeta("package.json"); err == nil {
			var pj struct {
				Workspaces json.RawMessage `json:"workspaces"`
			}
			if json.Unmarshal(b, &pj) == nil && len(pj.Workspaces) > 0 {
				var list []string
				var obj struct {
					Packages []string `json:"packages"`
				}
				if json.Unmarshal(pj.Workspaces, &list) == nil {
					globs = append(globs, list...)
				} else if json.Unmarshal(pj.Workspaces, &obj) == nil {
					globs = append(globs, obj.Packages...)
				}
			}
		}
		if b, err := c.repo.ReadMeta("lerna.json"); err == nil {
			var lj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(cleanJSON(b), &lj) == nil {
				globs = append(globs, lj.Packages...)
			}
		}
		if b, err := c.repo.ReadMeta("pnpm-workspace.yaml"); err == nil {
			in := false
			for _, line := range strings.Split(string(b), "\n") {
				t := strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(line, "packages:"):
					in = true
				case in && strings.HasPrefix(t, "- "):
					globs = append(globs, strings.Trim(strings.TrimSpace(t[2:]), `"'`))
				case in && t != "" && !strings.HasPrefix(t, "#"):
					in = false
				}
			}
		}
		seen := map[string]bool{}
		for _, g := range globs {
			if strings.HasPrefix(g, "!") {
				continue
			}
			for _, d := range c.expand(strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")) {
				if seen[d] {
					continue
				}
				seen[d] = true
				if ws, ok := c.readPackage(d); ok {
					c.ws = append(c.ws, ws)
				}
			}
		}
		// Longest name first, so "@a/b-c" wins over "@a/b".
		for i := 1; i < len(c.ws); i++ {
			for j := i; j > 0 && len(c.ws[j].name) > len(c.ws[j-1].name); j-- {
				c.ws[j], c.ws[j-1] = c.ws[j-1], c.ws[j]
			}
		}
	})
	return c.ws
}

// expand lists the folders a workspace glob names ("packages/*",
// "apps/**", "tools/cli").
func (c *repoCache) expand(g string) []string {
	star := strings.IndexByte(g, '*')
	if star < 0 {
		return []string{g}
	}
	base := strings.TrimSuffix(g[:star], "/")
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		for name, isDir := range c.list(dir) {
			if !isDir || name == "node_modules" || strings.HasPrefix(name, ".") {
				continue
			}
			sub := path.Join(dir, name)
			out = append(out, sub)
			if strings.Contains(g, "**") && depth < 3 {
				walk(sub, depth+1)
			}
		}
	}
	walk(base, 0)
	return out
}

func (c *repoCache) readPackage(dir string) (workspace, bool) {
	b, err := c.repo.ReadMeta(path.Join(dir, "package.json"))
	if err != nil {
		return workspace{}, false
	}
	var pj struct {
		Name    string `json:"name"`
		Source  string `json:"source"`
		Types   string `json:"types"`
		Typings string `json:"typings"`
		Module  string `json:"module"`
		Main    string `json:"main"`
	}
	if json.Unmarshal(b, &pj) != nil || pj.Name == "" {
		return workspace{}, false
	}
	ws := workspace{name: pj.Name, dir: dir}
	for _, e := range []string{pj.Source, pj.Types, pj.Typings, pj.Module, pj.Main} {
		if e != "" {
			ws.entries = append(ws.entries, e)
		}
	}
	return ws, true
}

// workspaceFile resolves a bare specifier naming a package of the
// repository's own monorepo ("@acme/core", "@acme/core/utils") to a file.
func (c *repoCache) workspaceFile(spec string) (string, bool) {
	for _, ws := range c.workspaces() {
		if spec != ws.name && !strings.HasPrefix(spec, ws.name+"/") {
			continue
		}
		rest := strings.TrimPrefix(spec[len(ws.name):], "/")
		if rest != "" {
			for _, d := range []string{ws.dir, ws.dir + "/src"} {
				if f, ok := c.findFile(path.Join(d, rest)); ok {
					return f, true
				}
			}
			return "", false
		}
		for _, e := range ws.entries {
			if f, ok := c.findFile(path.Join(ws.dir, e)); ok {
				return f, true
			}
			// Built output is not in the repository: its sources are.
			e = strings.TrimPrefix(e, "./")
			for _, out := range []string{"dist/", "lib/", "build/", "esm/", "cjs/", "out/"} {
				if rest, ok := strings.CutPrefix(e, out); ok {
					rest = strings.TrimSuffix(strings.TrimSuffix(rest, ".d.ts"), path.Ext(rest))
					if f, ok := c.findFile(path.Join(ws.dir, "src", rest)); ok {
						return f, true
					}
				}
			}
		}
		for _, d := range []string{ws.dir + "/src/index", ws.dir + "/index", ws.dir + "/src"} {
			if f, ok := c.findFile(d); ok {
				return f, true
			}
		}
		return "", false
	}
	return "", false
}
