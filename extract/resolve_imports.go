package extract

import (
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// resolveImports links files to the packages they import.
func (r *resolver) resolveImports() {
	for fi, f := range r.files {
		for _, im := range f.Imports {
			target, ok := r.pkgNode[im.Path]
			if !ok && im.Name != "" && im.Name != "*" {
				if ids := r.qnameOf(im.Path, im.Name); len(ids) > 0 {
					target, ok = ids[0], true
				}
			}
			if !ok {
				continue
			}
			r.addEdge(r.fileID[fi], target, snapshot.EdgeImports, confScope)
		}
	}
}

func (r *resolver) fromImports(f *FileResult, name string, fl filter) []uint32 {
	for _, im := range f.Imports {
		if im.Name == "*" {
			if ids := r.keep(r.qnameOf(im.Path, name), fl); len(ids) > 0 {
				return ids
			}
			continue
		}
		if im.Name != "" && im.LocalName() == name {
			if ids := r.keep(r.qnameOf(im.Path, im.Name), fl); len(ids) > 0 {
				return ids
			}
			if ids := r.keep(r.pkgTop[im.Path][im.Name], fl); len(ids) > 0 {
				return ids
			}
		}
	}
	return nil
}

// externalType links from to a node standing for a type outside the
// repository, when the name is qualified by an import (http.Handler).
// Shared external types connect the code that uses them.
func (r *resolver) externalType(fi int, name string, from uint32, t snapshot.EdgeType) {
	name = cleanTypeName(name)
	first, rest, ok := strings.Cut(name, ".")
	if !ok || rest == "" {
		return
	}
	for _, im := range r.files[fi].Imports {
		if im.LocalName() != first || im.Name != "" {
			continue
		}
		if _, inRepo := r.pkgNode[im.Path]; inRepo {
			return
		}
		q := im.Path + "." + rest
		id, ok := r.external[q]
		if !ok {
			id = r.addNode(snapshot.Node{Name: LastPart(rest), QName: q, Kind: snapshot.KindExternal,
				Lang: r.files[fi].Lang, Flags: snapshot.FlagExternal, File: -1}, -1, -1)
			r.external[q] = id
		}
		if t == snapshot.EdgeTypeHintOf {
			r.addEdge(id, from, t, confScope)
		} else {
			r.addEdge(from, id, t, confScope)
		}
		return
	}
}

// externalRoot reports a call chain whose first name is a package import
// (Go's time, fmt) of a package the repository does not have. A name
// imported from a module is not judged: barrels and re-exports make its
// path an unreliable key.
func (r *resolver) externalRoot(fi int, chain string) bool {
	first := chain
	if i := strings.IndexAny(chain, ".("); i >= 0 {
		first = chain[:i]
	}
	for _, im := range r.files[fi].Imports {
		if im.Name != "" || im.LocalName() != first {
			continue
		}
		if _, ok := r.pkgTop[im.Path]; ok {
			return false
		}
		return true
	}
	return false
}
