package python

import (
	"path"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// Import statements: what they mean, what they bind in the file, and the
// Imports they give the resolver.

// rawImport is one import statement's meaning, before resolution.
type rawImport struct {
	level  int    // leading dots of a relative import
	module string // dotted module after the dots
	from   bool   // from-import (names) or plain import
	star   bool
	names  []nameAlias // from-import names, or the one plain import
}

// nameAlias is a name an import statement names, with its alias.
type nameAlias struct{ name, alias string }

// readImport turns an import statement node of b into a rawImport list.
func readImport(b *extract.Base, n int32) []rawImport {
	var out []rawImport
	switch b.Code(n) {
	case kImport:
		for ch := b.FirstChild(n); ch >= 0; ch = b.N[ch].Next {
			name, alias := "", ""
			switch b.Code(ch) {
			case kDottedName:
				name = b.Text(ch)
			case kAliasedImport:
				name = b.Text(b.Field(ch, fName))
				alias = b.Text(b.Field(ch, fAlias))
			default:
				continue
			}
			if name != "" {
				out = append(out, rawImport{module: stripSpace(name), names: []nameAlias{{alias: alias}}})
			}
		}
	case kImportFrom:
		ri := rawImport{from: true}
		for ch := b.FirstChild(n); ch >= 0; ch = b.N[ch].Next {
			switch field := b.N[ch].Field; {
			case field == fModuleName:
				if b.Code(ch) == kRelativeImport {
					for rc := b.FirstChild(ch); rc >= 0; rc = b.N[rc].Next {
						switch b.Code(rc) {
						case kImportPrefix:
							ri.level = strings.Count(b.Text(rc), ".")
						case kDottedName:
							ri.module = stripSpace(b.Text(rc))
						}
					}
				} else {
					ri.module = stripSpace(b.Text(ch))
				}
			case field == fName:
				switch b.Code(ch) {
				case kDottedName:
					ri.names = append(ri.names, nameAlias{name: stripSpace(b.Text(ch))})
				case kAliasedImport:
					ri.names = append(ri.names, nameAlias{name: stripSpace(b.Text(b.Field(ch, fName))), alias: b.Text(b.Field(ch, fAlias))})
				}
			case b.Code(ch) == kWildcard:
				ri.star = true
			}
		}
		if ri.module == "__future__" && ri.level == 0 {
			return nil
		}
		out = append(out, ri)
	}
	return out
}

// stripSpace removes the white space and line continuations in a dotted
// name.
func stripSpace(s string) string {
	if strings.ContainsAny(s, " \t\n\\") {
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\\' }), "")
	}
	return s
}

// relativeBase is the package a relative import of the given level means,
// as a key and a folder, from a module with key modKey in folder dir.
func relativeBase(modKey string, isInit bool, dir string, level int) (string, string) {
	key := modKey
	if !isInit {
		key, _ = extract.SplitName(key)
	}
	for i := 1; i < level; i++ {
		key, _ = extract.SplitName(key)
		nd := path.Dir(dir)
		if nd == "." {
			nd = ""
		}
		dir = nd
	}
	return key, dir
}

// binding is what an import binds a local name to.
type binding struct {
	key    string // module key; for a name, the module defining it
	fs     string // module path without extension
	name   string // imported name, "" for a module
	inRepo bool
}

// emit adds im to the file's Imports, once.
func (x *extractor) emit(im extract.Import) {
	if im.Path == "" || x.seenImp[im] {
		return
	}
	x.seenImp[im] = true
	x.R.Imports = append(x.R.Imports, im)
}

// absolute locates the absolute module dotted, imported from this file.
func (x *extractor) absolute(dotted string) modLoc {
	if x.c == nil {
		return modLoc{key: dotted, inRepo: true}
	}
	return x.c.absolute(x.dir, dotted)
}

// addImport binds the names an import statement brings into the file and
// emits its Imports.
func (x *extractor) addImport(ri rawImport) {
	if !ri.from {
		if len(ri.names) == 0 || ri.module == "" {
			return
		}
		if alias := ri.names[0].alias; alias != "" {
			loc := x.absolute(ri.module)
			x.emit(extract.Import{Path: loc.key, Alias: alias})
			x.bind[alias] = &binding{key: loc.key, fs: loc.fs, inRepo: loc.inRepo}
			return
		}
		// `import a.b.c` binds a; the resolver reads a.b.c.f() through it.
		top, _, dotted := strings.Cut(ri.module, ".")
		tl := x.absolute(top)
		im := extract.Import{Path: tl.key}
		if tl.key != top {
			im.Alias = top
		}
		x.emit(im)
		if b := x.bind[top]; b == nil || b.name != "" || b.key != tl.key {
			x.bind[top] = &binding{key: tl.key, fs: tl.fs, inRepo: tl.inRepo}
		}
		if dotted {
			// The module itself, under a name no code can spell, for the
			// import edge.
			loc := x.absolute(ri.module)
			x.emit(extract.Import{Path: loc.key, Alias: ri.module})
		}
		return
	}
	var base modLoc
	if ri.level > 0 {
		k, d := relativeBase(x.mod, x.isInit, x.dir, ri.level)
		base = modLoc{key: extract.JoinName(k, ri.module), fs: d, inRepo: true}
		if ri.module != "" {
			base.fs = joinRel(d, strings.ReplaceAll(ri.module, ".", "/"))
		}
	} else {
		base = x.absolute(ri.module)
	}
	if base.key == "" {
		return
	}
	if ri.star {
		x.emit(extract.Import{Path: base.key, Name: "*"})
		if base.inRepo && x.c != nil && x.c.isPkgDir(base.fs) {
			re := x.c.reexportsOf(base.fs, base.key)
			locals := make([]string, 0, len(re.names))
			for l := range re.names {
				locals = append(locals, l)
			}
			sort.Strings(locals)
			for _, l := range locals {
				x.fromName(base, l, "")
			}
			for _, s := range re.stars {
				x.emit(extract.Import{Path: s.key, Name: "*"})
			}
		}
		return
	}
	for _, na := range ri.names {
		if na.name == "" || strings.Contains(na.name, ".") {
			continue
		}
		x.fromName(base, na.name, na.alias)
	}
}

// fromName handles `from base import name [as alias]`: a submodule, a
// name re-exported by a package (followed to its definition), or a name.
func (x *extractor) fromName(base modLoc, name, alias string) {
	local := alias
	if local == "" {
		local = name
	}
	if base.inRepo && x.c != nil {
		sub := joinRel(base.fs, name)
		if base.fs != "" && x.c.isModule(sub) {
			key := extract.JoinName(base.key, name)
			x.emit(extract.Import{Path: key, Alias: local})
			x.bind[local] = &binding{key: key, fs: sub, inRepo: true}
			return
		}
		if x.c.isPkgDir(base.fs) {
			if t, ok := x.c.reexport(base.fs, base.key, name); ok {
				switch {
				case !t.inRepo:
					x.emit(extract.Import{Path: base.key, Name: name, Alias: alias})
					x.bind[local] = &binding{key: t.key, name: name}
				case t.name == "":
					x.emit(extract.Import{Path: t.key, Alias: local})
					x.bind[local] = &binding{key: t.key, fs: t.fs, inRepo: true}
				default:
					im := extract.Import{Path: t.key, Name: t.name}
					if local != t.name {
						im.Alias = local
					}
					x.emit(im)
					x.bind[local] = &binding{key: t.key, fs: t.fs, name: t.name, inRepo: true}
				}
				return
			}
			// Names a package re-exports with *: each source may hold it
			// (the resolver takes the first that does).
			defer func() {
				for _, s := range x.c.reexportsOf(base.fs, base.key).stars {
					x.emit(extract.Import{Path: s.key, Name: name, Alias: alias})
				}
			}()
		}
	}
	x.emit(extract.Import{Path: base.key, Name: name, Alias: alias})
	x.bind[local] = &binding{key: base.key, fs: base.fs, name: name, inRepo: base.inRepo}
}
