package python

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// Annotations: the type one is about (a local's or a result's value type)
// and the types it names (type references).

// typeName reduces an annotation to the type it is about: Optional[Foo],
// Foo | None and "Foo" are Foo; containers give "". vExt marks a type
// outside the repository.
func (x *extractor) typeName(n int32) string {
	for depth := 0; n >= 0 && depth < 8; depth++ {
		switch x.Code(n) {
		case kType, kParenExpr:
			n = x.FirstNamed(n)
			continue
		case kIdentifier, kAttribute:
			ch := x.chain(n)
			if ch == "" {
				return ""
			}
			return x.typeChain(ch)
		case kMemberType:
			return x.typeChain(stripSpace(x.Text(n)))
		case kString:
			return x.stringType(x.Text(n))
		case kSubscript:
			v := x.chain(x.Field(n, fValue))
			lp := extract.LastName(v)
			if wrapperTypes[lp] {
				n = x.firstTypeArg(n, fSubscript)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kGenericType:
			first := x.FirstNamed(n)
			if first < 0 {
				return ""
			}
			v := x.chain(first)
			lp := extract.LastName(v)
			if second := x.NextNamed(first); wrapperTypes[lp] && second >= 0 {
				n = x.firstTypeArg(second, 0)
				continue
			}
			if typingNames[lp] {
				return opaqueType(lp)
			}
			return x.typeChain(v)
		case kBinaryOp, kUnionType:
			next := int32(-1)
			for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
				if k := x.Code(ch); k != kNone && !(k == kType && x.Code(x.only(ch)) == kNone) {
					next = ch
					break
				}
			}
			n = next
			continue
		}
		return ""
	}
	return ""
}

// firstTypeArg is the first argument of a subscript or type parameter
// list that is not None: a named child, in the given field unless field
// is 0.
func (x *extractor) firstTypeArg(n int32, field uint16) int32 {
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		if field != 0 && x.N[ch].Field != field {
			continue
		}
		switch x.Code(ch) {
		case kNone, kComment:
			continue
		}
		return ch
	}
	return -1
}

// stringType is the type a string annotation ("Foo | None") is about.
func (x *extractor) stringType(lit string) string {
	s := strings.Trim(lit, `"'`)
	for _, nm := range dottedNames(s) {
		lp := extract.LastName(nm)
		if wrapperTypes[lp] || lp == "None" {
			continue
		}
		if typingNames[lp] {
			return opaqueType(lp)
		}
		return x.typeChain(nm)
	}
	return ""
}

// typeChain checks a type name against the file's imports: builtins and
// typing give "", names from outside the repository vExt, names through a
// module alias the module that defines them.
func (x *extractor) typeChain(ch string) string {
	first, rest, dotted := strings.Cut(ch, ".")
	b := x.bind[first]
	if b == nil {
		if !dotted && (typingNames[first] || builtins[first]) && !x.defined[first] {
			return opaqueType(first)
		}
		return ch
	}
	if !b.inRepo {
		if dotted && typingModules[b.key] {
			return opaqueType(extract.LastName(rest))
		}
		if !dotted && typingModules[b.key] {
			return opaqueType(b.name)
		}
		return vExt
	}
	if b.name == "" && dotted {
		mid, name := extract.SplitName(rest)
		q, _, nm, ok := x.viaModule(b, first, mid, name)
		if !ok {
			return vExt
		}
		return q + "." + nm
	}
	return ch
}

// opaqueType is the value type of a builtin or typing name: Any and object
// say nothing, Self is the enclosing class, the rest are types outside the
// repository (str, dict, Callable).
func opaqueType(name string) string {
	switch name {
	case "Any", "object", "":
		return ""
	case "Self":
		return "Self"
	}
	return vExt
}

// typeRefs records the types named in an annotation.
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.Code(n) {
	case kIdentifier, kAttribute:
		if ch := x.chain(n); ch != "" {
			x.typeRef(ch, from, kind, x.Line(n))
		}
		return
	case kString:
		line := x.Line(n)
		for _, nm := range dottedNames(strings.Trim(x.Text(n), `"'`)) {
			x.typeRef(nm, from, kind, line)
		}
		return
	case kSubscript:
		v := x.Field(n, fValue)
		x.typeRefs(v, from, kind)
		if extract.LastName(x.chain(v)) == "Literal" {
			return
		}
		for ch := x.FirstChild(n); ch >= 0; ch = x.N[ch].Next {
			if x.N[ch].Field == fSubscript {
				x.typeRefs(ch, from, kind)
			}
		}
		return
	case kGenericType:
		if first := x.FirstNamed(n); first >= 0 && extract.LastName(x.chain(first)) == "Literal" {
			return
		}
	case kCall, kLambda, kInteger, kFloat, kNone, kComment, kEllipsis:
		return
	}
	for ch := x.FirstNamed(n); ch >= 0; ch = x.NextNamed(ch) {
		x.typeRefs(ch, from, kind)
	}
}

// typeRef records a use of the type named ch, read through the file's
// imports; builtins, typing names, outside types and Self are left out.
func (x *extractor) typeRef(ch string, from int32, kind extract.RefKind, line uint32) {
	t := x.typeChain(ch)
	if t == "" || t == vExt || t == "Self" {
		return
	}
	qual, name := extract.SplitName(t)
	if name == "" || name == "None" {
		return
	}
	x.ref(from, kind, name, qual, "", line)
}
