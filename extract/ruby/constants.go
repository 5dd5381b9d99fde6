package ruby

import (
	"github.com/knowing-dev/knowing/extract"
)

// Constants: their dotted paths, their uses as types, and whether one
// lies outside the repository (Ruby's core, a gem the project depends on).

// constPath renders a constant or scope resolution dotted: Foo::Bar →
// "Foo.Bar", ::Foo → "Foo". Anything else gives "".
func (x *extractor) constPath(n int32) string {
	switch x.Code(n) {
	case kConstant:
		return x.Text(n)
	case kScopeRes:
		name := x.Field(n, fName)
		scope := x.Field(n, fScope)
		if name < 0 {
			return ""
		}
		if scope < 0 {
			return x.Text(name)
		}
		s := x.constPath(scope)
		if s == "" {
			return ""
		}
		return s + "." + x.Text(name)
	}
	return ""
}

// typeRef records a use of a constant as a type.
func (x *extractor) typeRef(path string, n int32) {
	if path == "" {
		return
	}
	first := extract.FirstName(path)
	if isAllCaps(extract.LastName(path)) || x.outside(first) {
		return
	}
	k := typeRefKey{x.from, path}
	if x.typeRefs[k] {
		return
	}
	x.typeRefs[k] = true
	q, name := extract.SplitName(path)
	x.AddRef(extract.Ref{From: x.from, Kind: extract.RefType, Name: name, Qual: q, Line: x.Line(n)})
}

// scopeRef records Foo::Bar as a use of a type; the parts of expr::Const
// are visited.
func (x *extractor) scopeRef(n int32) {
	if p := x.constPath(n); p != "" {
		x.typeRef(p, n)
		return
	}
	x.visitKids(n) // expr::Const
}

// isAllCaps reports value-constant names like SYNTAX or DEFAULT_OPTS.
func isAllCaps(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// external marks the first constant of a path as outside the repository
// when it is a Ruby core or standard library constant not declared in the
// file, by giving the file an import of it; the resolver then does not
// look for its methods in the repository.
func (x *extractor) external(p string) bool {
	first := extract.FirstName(p)
	if !x.outside(first) {
		return x.externals[first]
	}
	if !x.externals[first] {
		x.externals[first] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: first})
	}
	return true
}

// outside reports a top constant of Ruby's core or of a gem the project
// depends on, unless the file declares it.
func (x *extractor) outside(first string) bool {
	if x.topTypes[first] {
		return false
	}
	return coreConstants[first] || x.deps[normConst(first)]
}
