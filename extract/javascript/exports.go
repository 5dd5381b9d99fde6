package javascript

import (
	"bytes"
	"path"
	"strings"
)

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
	return c.sums.Get(rel, func() *summary {
		s := &summary{}
		if c.repo != nil {
			if b, err := c.repo.ReadMeta(rel); err == nil {
				c.scan(s, rel, b)
			}
		}
		return s
	})
}

var newline = []byte{'\n'}

// scan reads the exports and imports of module rel, a line at a time:
// statements at the start of a line, the few that span lines followed to
// their end.
func (c *repoCache) scan(s *summary, rel string, b []byte) {
	dir := path.Dir(rel)
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, newline)
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
				var more []byte
				more, b, _ = bytes.Cut(b, newline)
				l += " " + string(more)
			}
			c.scanImport(s, dir, l)
		case strings.HasPrefix(l, "export {") || strings.HasPrefix(l, "export type {"):
			// Possibly spanning lines up to the closing brace.
			for !strings.Contains(l, "}") && len(b) > 0 {
				var more []byte
				more, b, _ = bytes.Cut(b, newline)
				l += " " + string(more)
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
