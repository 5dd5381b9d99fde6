package rust

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
)

// prelude names are in scope in every module without an import; they are
// never repository items unless a module declares or imports the name.
var prelude = map[string]bool{
	"Option": true, "Some": true, "None": true, "Result": true, "Ok": true, "Err": true,
	"Vec": true, "String": true, "Box": true, "ToString": true, "ToOwned": true,
	"Default": true, "Clone": true, "Copy": true, "Send": true, "Sync": true, "Sized": true,
	"Unpin": true, "Drop": true, "Fn": true, "FnMut": true, "FnOnce": true,
	"Iterator": true, "IntoIterator": true, "DoubleEndedIterator": true, "ExactSizeIterator": true,
	"Extend": true, "FromIterator": true, "From": true, "Into": true, "TryFrom": true, "TryInto": true,
	"AsRef": true, "AsMut": true, "PartialEq": true, "Eq": true, "PartialOrd": true, "Ord": true,
	"Debug": true, "Hash": true,
}

// wrappers are generic types whose methods are reached through their first
// type argument (by deref), or whose value is used after `?`/unwrap.
var wrappers = map[string]bool{
	"Box": true, "Rc": true, "Arc": true, "Option": true, "Result": true, "Cow": true,
	"Pin": true, "NonNull": true, "ManuallyDrop": true, "MutexGuard": true, "Ref": true, "RefMut": true,
	// Interior mutability: reached through borrow()/lock()/get(), which
	// the extractor sees through.
	"RefCell": true, "Cell": true, "Mutex": true, "RwLock": true, "OnceCell": true, "OnceLock": true,
	"LazyCell": true, "LazyLock": true,
}

// namedType resolves a type written as one name.
func (x *extractor) namedType(name string) typeInfo {
	if name == "Self" {
		if x.selfType.abs == "" {
			return typeInfo{}
		}
		return typeInfo{abs: x.selfType.abs, ext: x.selfType.ext, self: true}
	}
	if t, ok := x.generics[name]; ok {
		return t
	}
	if x.sc != nil {
		if b, ok := x.lookupNS(x.sc, name, true); ok {
			return typeInfo{abs: b.abs, ext: b.ext}
		}
	}
	if prelude[name] {
		return typeInfo{abs: name, ext: true}
	}
	return typeInfo{abs: name}
}

// pathType resolves a type written as a path, following re-exports.
func (x *extractor) pathType(segs []string) typeInfo {
	if len(segs) == 1 {
		return x.namedType(segs[0])
	}
	if x.sc == nil {
		return typeInfo{}
	}
	abs, ext := x.absPath(segs, x.sc)
	if abs == "" {
		return typeInfo{}
	}
	if ext {
		return typeInfo{abs: abs, ext: true}
	}
	mod, name := splitLast(abs)
	r := x.resolveItem(mod, name, 0, false)
	abs = joinMod(r.mod, r.name)
	return typeInfo{abs: abs, ext: x.external(abs)}
}

// pathSegs flattens a path expression or type path.
func (x *extractor) pathSegs(n *sitter.Node, out []string) ([]string, bool) {
	if n == nil {
		return out, false
	}
	switch kind(n) {
	case "identifier", "type_identifier", "crate", "self", "super", "metavariable", "primitive_type":
		return append(out, x.f.Text(n)), true
	case "scoped_identifier", "scoped_type_identifier":
		p := fld(n, "path")
		if p == nil {
			out = append(out, "::")
		} else {
			var ok bool
			if out, ok = x.pathSegs(p, out); !ok {
				return out, false
			}
		}
		name := fld(n, "name")
		if name == nil {
			return out, false
		}
		return append(out, x.f.Text(name)), true
	case "generic_type":
		return x.pathSegs(fld(n, "type"), out)
	case "bracketed_type":
		// <T as Trait>::f, <T>::f: the type T.
		c := n.NamedChild(0)
		if c != nil && kind(c) == "qualified_type" {
			c = fld(c, "type")
		}
		return x.pathSegs(c, out)
	}
	return out, false
}

// principal is the type a value of type n is used as: references, smart
// pointers, Option and Result are seen through (`?` and unwrap are
// everywhere), trait objects and `impl Trait` are their trait.
func (x *extractor) principal(n *sitter.Node) typeInfo {
	for n != nil {
		switch kind(n) {
		case "type_identifier", "identifier":
			return x.namedType(x.f.Text(n))
		case "scoped_type_identifier", "scoped_identifier":
			segs, ok := x.pathSegs(n, nil)
			if !ok {
				return typeInfo{}
			}
			return x.pathType(segs)
		case "generic_type":
			base := fld(n, "type")
			name := x.f.Text(base)
			if i := strings.LastIndex(name, "::"); i >= 0 {
				name = name[i+2:]
			}
			if wrappers[name] || strings.HasSuffix(name, "Result") {
				if arg := firstTypeArg(n); arg != nil {
					n = arg
					continue
				}
			}
			n = base
		case "reference_type", "pointer_type":
			n = fld(n, "type")
		case "dynamic_type", "abstract_type":
			n = fld(n, "trait")
		case "bounded_type":
			n = n.NamedChild(0)
		default:
			return typeInfo{}
		}
	}
	return typeInfo{}
}

func firstTypeArg(n *sitter.Node) *sitter.Node {
	args := fld(n, "type_arguments")
	if args == nil {
		return nil
	}
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if a := args.NamedChild(i); kind(a) != "lifetime" {
			return a
		}
	}
	return nil
}

// implTarget resolves the type of an impl block (no wrapper is seen through).
func (x *extractor) implTarget(n *sitter.Node) typeInfo {
	for n != nil {
		switch kind(n) {
		case "generic_type":
			n = fld(n, "type")
		case "reference_type", "pointer_type":
			n = fld(n, "type")
		case "dynamic_type":
			n = fld(n, "trait")
		case "type_identifier", "scoped_type_identifier":
			return x.principal(n)
		default:
			return typeInfo{}
		}
	}
	return typeInfo{}
}

// implName is the last name of the type of an impl block, as written.
func (x *extractor) implName(n *sitter.Node) string {
	for n != nil {
		switch kind(n) {
		case "generic_type", "reference_type", "pointer_type":
			n = fld(n, "type")
		case "dynamic_type":
			n = fld(n, "trait")
		case "scoped_type_identifier":
			n = fld(n, "name")
		case "type_identifier", "primitive_type":
			return x.f.Text(n)
		default:
			return ""
		}
	}
	return ""
}

// typeRefs records a reference to every named type in a type expression.
func (x *extractor) typeRefs(n *sitter.Node, from int32, refKind extract.RefKind) {
	if n == nil {
		return
	}
	switch kind(n) {
	case "type_identifier":
		name := x.f.Text(n)
		if _, generic := x.generics[name]; generic || name == "Self" {
			return
		}
		x.typeRef(x.namedType(name), name, from, refKind, n)
		return
	case "scoped_type_identifier":
		segs, ok := x.pathSegs(n, nil)
		if ok && segs[0] != "Self" {
			x.typeRef(x.pathType(segs), strings.Join(segs, "."), from, refKind, n)
		}
		return
	case "generic_type":
		// Result-like and pointer wrappers (CargoResult<T>, Box<T>) are
		// not recorded: only what they wrap. A repository's result alias
		// would otherwise be a hint of every fallible function.
		base := fld(n, "type")
		name := x.f.Text(base)
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		if !wrappers[name] && !strings.HasSuffix(name, "Result") {
			x.typeRefs(base, from, refKind)
		}
		x.typeRefs(fld(n, "type_arguments"), from, refKind)
		return
	case "primitive_type", "lifetime", "block", "string_literal", "integer_literal":
		return
	}
	for _, kid := range x.kids(n) {
		x.typeRefs(kid, from, refKind)
	}
}

func (x *extractor) typeRef(t typeInfo, written string, from int32, refKind extract.RefKind, n *sitter.Node) {
	if t.abs == "" || t.self {
		return
	}
	name := t.abs
	if t.ext {
		// Kept only when written with a module qualifier: the resolver
		// links it to a node standing for the external type when the
		// qualifier is an imported module (fmt::Display).
		if !strings.Contains(written, ".") {
			return
		}
		name = written
	}
	mod, last := splitLast(name)
	x.r.Refs = append(x.r.Refs, extract.Ref{From: from, Kind: refKind, Name: last, Qual: mod, Line: extract.Line(n)})
}
