package rust

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// prelude names are in scope in every module without an import; they are
// never repository items unless a module declares or imports the name.
var prelude = extract.WordSet(`Option Some None Result Ok Err Vec String Box ToString ToOwned
	Default Clone Copy Send Sync Sized Unpin Drop Fn FnMut FnOnce Iterator IntoIterator
	DoubleEndedIterator ExactSizeIterator Extend FromIterator From Into TryFrom TryInto AsRef AsMut
	PartialEq Eq PartialOrd Ord Debug Hash`)

// wrappers are generic types whose methods are reached through their first
// type argument (by deref), or whose value is used after `?`/unwrap.
var wrappers = extract.WordSet(
	`Box Rc Arc Option Result Cow Pin NonNull ManuallyDrop MutexGuard Ref RefMut`,
	// Interior mutability: reached through borrow()/lock()/get(), which
	// the extractor sees through.
	`RefCell Cell Mutex RwLock OnceCell OnceLock LazyCell LazyLock`,
)

// lastSegment is the last name of a path as written: "Result" of
// "io::Result", the path itself when it has no "::".
func lastSegment(p string) string {
	if i := strings.LastIndex(p, "::"); i >= 0 {
		return p[i+2:]
	}
	return p
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
	mod, name := extract.SplitName(abs)
	r := x.resolveItem(mod, name, 0, false)
	abs = extract.JoinName(r.mod, r.name)
	return typeInfo{abs: abs, ext: x.external(abs)}
}

// pathSegs flattens a path expression or type path.
func (x *extractor) pathSegs(n int32, out []string) ([]string, bool) {
	if n < 0 {
		return out, false
	}
	switch x.Kind(n) {
	case "identifier", "type_identifier", "crate", "self", "super", "metavariable", "primitive_type":
		return append(out, x.Text(n)), true
	case "scoped_identifier", "scoped_type_identifier":
		p := x.Field(n, fPath)
		if p < 0 {
			out = append(out, "::")
		} else {
			var ok bool
			if out, ok = x.pathSegs(p, out); !ok {
				return out, false
			}
		}
		name := x.Field(n, fName)
		if name < 0 {
			return out, false
		}
		return append(out, x.Text(name)), true
	case "generic_type":
		return x.pathSegs(x.Field(n, fType), out)
	case "bracketed_type":
		// <T as Trait>::f, <T>::f: the type T.
		c := x.FirstNamed(n)
		if c >= 0 && x.Kind(c) == "qualified_type" {
			c = x.Field(c, fType)
		}
		return x.pathSegs(c, out)
	}
	return out, false
}

// principal is the type a value of type n is used as: references, smart
// pointers, Option and Result are seen through (`?` and unwrap are
// everywhere), trait objects and `impl Trait` are their trait.
func (x *extractor) principal(n int32) typeInfo {
	for n >= 0 {
		switch x.Kind(n) {
		case "type_identifier", "identifier":
			return x.namedType(x.Text(n))
		case "scoped_type_identifier", "scoped_identifier":
			segs, ok := x.pathSegs(n, nil)
			if !ok {
				return typeInfo{}
			}
			return x.pathType(segs)
		case "generic_type":
			base := x.Field(n, fType)
			name := lastSegment(x.Text(base))
			if wrappers[name] || strings.HasSuffix(name, "Result") {
				if arg := x.firstTypeArg(n); arg >= 0 {
					n = arg
					continue
				}
			}
			n = base
		case "reference_type", "pointer_type":
			n = x.Field(n, fType)
		case "dynamic_type", "abstract_type":
			n = x.Field(n, fTrait)
		case "bounded_type":
			n = x.FirstNamed(n)
		default:
			return typeInfo{}
		}
	}
	return typeInfo{}
}

// firstTypeArg is the first type argument of a generic type, or -1.
func (x *extractor) firstTypeArg(n int32) int32 {
	for a := x.FirstNamed(x.Field(n, fTypeArguments)); a >= 0; a = x.NextNamed(a) {
		if x.Kind(a) != "lifetime" {
			return a
		}
	}
	return -1
}

// implTarget resolves the type of an impl block (no wrapper is seen through).
func (x *extractor) implTarget(n int32) typeInfo {
	for n >= 0 {
		switch x.Kind(n) {
		case "generic_type":
			n = x.Field(n, fType)
		case "reference_type", "pointer_type":
			n = x.Field(n, fType)
		case "dynamic_type":
			n = x.Field(n, fTrait)
		case "type_identifier", "scoped_type_identifier":
			return x.principal(n)
		default:
			return typeInfo{}
		}
	}
	return typeInfo{}
}

// implName is the last name of the type of an impl block, as written.
func (x *extractor) implName(n int32) string {
	for n >= 0 {
		switch x.Kind(n) {
		case "generic_type", "reference_type", "pointer_type":
			n = x.Field(n, fType)
		case "dynamic_type":
			n = x.Field(n, fTrait)
		case "scoped_type_identifier":
			n = x.Field(n, fName)
		case "type_identifier", "primitive_type":
			return x.Text(n)
		default:
			return ""
		}
	}
	return ""
}

// typeRefs records a reference to every named type in a type expression.
func (x *extractor) typeRefs(n int32, from int32, refKind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.Kind(n) {
	case "type_identifier":
		name := x.Text(n)
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
		base := x.Field(n, fType)
		name := lastSegment(x.Text(base))
		if !wrappers[name] && !strings.HasSuffix(name, "Result") {
			x.typeRefs(base, from, refKind)
		}
		x.typeRefs(x.Field(n, fTypeArguments), from, refKind)
		return
	case "primitive_type", "lifetime", "block", "string_literal", "integer_literal":
		return
	}
	for kid := x.FirstNamed(n); kid >= 0; kid = x.NextNamed(kid) {
		x.typeRefs(kid, from, refKind)
	}
}

func (x *extractor) typeRef(t typeInfo, written string, from int32, refKind extract.RefKind, n int32) {
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
	mod, last := extract.SplitName(name)
	x.AddRef(extract.Ref{From: from, Kind: refKind, Name: last, Qual: mod, Line: x.Line(n)})
}
