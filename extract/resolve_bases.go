package extract

import (
	"strings"
	"unicode"

	"github.com/knowing-dev/knowing/snapshot"
)

func (r *resolver) resolveBases() {
	for fi, f := range r.files {
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if len(s.Extends) == 0 && len(s.Implements) == 0 {
				continue
			}
			id := r.symID[fi][si]
			for _, b := range s.Extends {
				ids, c := r.resolveType(fi, s.Parent, b)
				for _, t := range ids {
					if t == id {
						continue
					}
					r.bases[id] = append(r.bases[id], t)
					et := snapshot.EdgeExtends
					if r.g.Nodes[t].Kind == snapshot.KindInterface && r.g.Nodes[id].Kind != snapshot.KindInterface {
						et = snapshot.EdgeImplements
					}
					r.addEdge(id, t, et, c)
				}
				if len(ids) == 0 {
					r.externalType(fi, b, id, snapshot.EdgeExtends)
				}
			}
			for _, b := range s.Implements {
				ids, c := r.resolveType(fi, s.Parent, b)
				for _, t := range ids {
					if t != id {
						r.bases[id] = append(r.bases[id], t)
						r.addEdge(id, t, snapshot.EdgeImplements, c)
					}
				}
				if len(ids) == 0 {
					r.externalType(fi, b, id, snapshot.EdgeImplements)
				}
			}
		}
	}
}

// resolveType finds the type nodes a type name written in file fi, inside
// symbol si, refers to.
func (r *resolver) resolveType(fi int, si int32, name string) ([]uint32, float32) {
	name = cleanTypeName(name)
	if name == "" {
		return nil, 0
	}
	f := r.files[fi]
	if strings.Contains(name, ".") {
		if ids := r.keep(r.qname[name], typesOnly); len(ids) > 0 {
			return ids, confScope
		}
		first, rest, _ := strings.Cut(name, ".")
		for _, im := range f.Imports {
			if im.LocalName() != first {
				continue
			}
			target := im.Path
			if im.Name != "" && im.Name != "*" {
				target += "." + im.Name
			}
			if ids := r.keep(r.qnameOf(target, rest), typesOnly); len(ids) > 0 {
				return ids, confScope
			}
		}
		// Relative to an enclosing container or the package.
		if ids, c := r.lexical(fi, si, name, typesOnly); len(ids) > 0 {
			return ids, c
		}
		name = LastPart(name)
	}
	if ids, c := r.lexical(fi, si, name, typesOnly); len(ids) > 0 {
		return ids, c
	}
	if ids := r.lookupScope(scopeOf(f), name, typesOnly); len(ids) > 0 {
		return ids, confScope
	}
	if ids := r.fromImports(f, name, typesOnly); len(ids) > 0 {
		return ids, confScope
	}
	if ids := r.included(fi, name, typesOnly); len(ids) > 0 {
		return ids, confScope
	}
	if ids := r.keep(r.byName[name], typesOnly); len(ids) == 1 {
		return ids, confUnique
	}
	return nil, 0
}

// lexical looks name up in the enclosing containers of symbol si, innermost
// first, then in the file's package.
func (r *resolver) lexical(fi int, si int32, name string, fl filter) ([]uint32, float32) {
	f := r.files[fi]
	for si >= 0 {
		q := r.g.Nodes[r.symID[fi][si]].QName
		if ids := r.keep(r.qnameOf(q, name), fl); len(ids) > 0 {
			return ids, confScope
		}
		if t, ok := r.receiverOf(fi, si); ok {
			// A C++ method defined outside its class sees the class.
			if ids := r.keep(r.qnameOf(r.g.Nodes[t].QName, name), fl); len(ids) > 0 {
				return ids, confScope
			}
		}
		si = f.Symbols[si].Parent
	}
	if f.Package != "" {
		if ids := r.keep(r.qnameOf(f.Package, name), fl); len(ids) > 0 {
			return ids, confScope
		}
	}
	return nil, 0
}

// cleanTypeName strips pointers, references, generic arguments, array and
// optional markers: "*pkg.Foo[T]" → "pkg.Foo", "Vec<Foo>" → "Vec",
// "&'a mut Foo" → "Foo", "Foo::Bar" → "Foo.Bar".
func cleanTypeName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "<[("); i > 0 {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.TrimLeft(s, "*&[]?. ")
	s = strings.TrimPrefix(s, "mut ")
	if strings.HasPrefix(s, "'") {
		if _, after, ok := strings.Cut(s, " "); ok {
			s = strings.TrimPrefix(strings.TrimSpace(after), "mut ")
		}
	}
	s = strings.TrimRight(s, "?!*& ")
	for _, c := range s {
		if !(c == '.' || c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return ""
		}
	}
	return s
}
