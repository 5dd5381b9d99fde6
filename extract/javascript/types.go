package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// typeList appends the names of the types a clause lists (extends A,
// B<T>; implements C) to names, and the type arguments of the generic
// ones to typeArgs, which it returns.
func (x *extractor) typeList(clause int32, names *[]string, typeArgs []int32) []int32 {
	for t := x.FirstNamed(clause); t >= 0; t = x.NextNamed(t) {
		if tn := x.typeName(t); tn != "" {
			*names = append(*names, tn)
		}
		if x.Code(t) == kGenericType {
			typeArgs = append(typeArgs, x.Field(t, x.g.fTypeArguments))
		}
	}
	return typeArgs
}

func (x *extractor) iface(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.Text(x.Field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.Field(n, x.g.fBody)
	s := x.declSymbol(snapshot.KindInterface, name, parent, flags, outer, body)
	var typeArgs []int32
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) == kExtendsTypeClause {
			typeArgs = x.typeList(c, &s.Extends, typeArgs)
		}
	}
	id := x.Add(s)
	x.top(name, id, parent)
	tp := x.pushTypeParams(n)
	for _, ta := range typeArgs {
		x.typeRefs(ta, id, extract.RefType)
	}
	x.typeMembers(body, id, flags&snapshot.FlagExported != 0)
	x.typeParams = x.typeParams[:tp]
}

// typeMembers declares the members of an interface or object type.
func (x *extractor) typeMembers(body int32, owner int32, exported bool) {
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kPropertySig:
			name := x.propName(x.Field(m, x.g.fName))
			ann := x.Field(m, x.g.fType)
			if name == "" {
				x.typeRefs(ann, owner, extract.RefType)
				continue
			}
			// A function-typed property (onClick?: () => void) stays a
			// field: typings declare hundreds, and as methods every
			// extending interface would inherit them all.
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			x.Add(extract.Symbol{
				Name: name, Kind: snapshot.KindField, Parent: owner, Flags: fl,
				Start: x.Line(m), End: x.EndLine(m),
				Signature: extract.FirstLine(x.Text(m)), Doc: x.doc(m), Type: x.typeName(ann),
			})
			x.typeRefs(ann, owner, extract.RefType)
		case kMethodSig:
			name := x.propName(x.Field(m, x.g.fName))
			if name == "" {
				continue
			}
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			id := x.Add(extract.Symbol{
				Name: name, Kind: snapshot.KindMethod, Parent: owner, Flags: fl,
				Start: x.Line(m), End: x.EndLine(m),
				Signature: extract.FirstLine(x.Text(m)), Doc: x.doc(m),
				Type: x.typeName(x.Field(m, x.g.fReturnType)),
			})
			x.fnBody(m, id, extract.RefTypeHint)
		case kOtherSig:
			x.typeRefs(m, owner, extract.RefType)
		}
	}
}

func (x *extractor) typeAlias(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.Text(x.Field(n, x.g.fName))
	if name == "" {
		return
	}
	value := x.Field(n, x.g.fValue)
	id := x.Add(extract.Symbol{
		Name: name, Kind: snapshot.KindTypeAlias, Parent: parent, Flags: flags,
		Start: x.Line(outer), End: x.EndLine(outer),
		Signature: extract.FirstLine(x.Text(outer)), Doc: x.doc(outer), Type: x.typeName(value),
	})
	x.top(name, id, parent)
	tp := x.pushTypeParams(n)
	if x.Code(value) == kObjectType {
		x.typeMembers(value, id, flags&snapshot.FlagExported != 0)
	} else {
		x.typeRefs(value, id, extract.RefType)
	}
	x.typeParams = x.typeParams[:tp]
}

func (x *extractor) enum(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.Text(x.Field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.Field(n, x.g.fBody)
	id := x.Add(x.declSymbol(snapshot.KindEnum, name, parent, flags, outer, body))
	x.top(name, id, parent)
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		var mn string
		switch x.Code(m) {
		case kEnumAssignment:
			mn = x.propName(x.Field(m, x.g.fName))
		case kComment:
			continue
		default:
			mn = x.propName(m)
		}
		if mn == "" {
			continue
		}
		x.Add(extract.Symbol{Name: mn, Kind: snapshot.KindConstant, Parent: id, Flags: flags,
			Start: x.Line(m), End: x.EndLine(m), Signature: extract.FirstLine(x.Text(m)), Doc: x.doc(m)})
	}
}

func (x *extractor) namespace(n, outer int32, parent int32, flags snapshot.Flags) {
	full := x.chain(x.Field(n, x.g.fName))
	if full == "" {
		return
	}
	qual, name := "", full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		qual, name = full[:i], full[i+1:]
	}
	body := x.Field(n, x.g.fBody)
	s := x.declSymbol(snapshot.KindModule, name, parent, flags, outer, body)
	s.Qual = qual
	id := x.Add(s)
	if qual == "" {
		x.top(name, id, parent)
	}
	if body >= 0 {
		x.statements(body, id)
	}
}

func (x *extractor) pushTypeParams(n int32) int {
	before := len(x.typeParams)
	tp := x.Field(n, x.g.fTypeParameters)
	for p := x.FirstNamed(tp); p >= 0; p = x.NextNamed(p) {
		if x.Code(p) == kTypeParameter {
			x.typeParams = append(x.typeParams, x.Text(x.Field(p, x.g.fName)))
		}
	}
	return before
}

func (x *extractor) isTypeParam(name string) bool {
	if len(name) == 1 {
		return true
	}
	for _, t := range x.typeParams {
		if t == name {
			return true
		}
	}
	return false
}

// typeWrappers are generic types whose argument is the interesting type.
var typeWrappers = map[string]bool{
	"Promise": true, "Array": true, "ReadonlyArray": true, "Partial": true, "Readonly": true,
	"Required": true, "NonNullable": true, "Awaited": true, "PromiseLike": true, "Observable": true,
	"Ref": false,
}

// typeName reduces a type (or annotation) to the name of its class or
// interface: "Promise<User[]> | null" → "User".
func (x *extractor) typeName(n int32) string {
	for n >= 0 {
		switch x.Code(n) {
		case kTypeAnnotation, kParenType, kArrayType:
			n = x.firstKid(n)
		case kTypeIdentifier, kIdentifier:
			name := x.Text(n)
			if builtinTypes[name] || x.isTypeParam(name) {
				return ""
			}
			return name
		case kNestedTypeIdentifier:
			return strings.Join(strings.Fields(x.Text(n)), "")
		case kGenericType:
			base := x.Field(n, x.g.fName)
			if typeWrappers[x.Text(base)] {
				n = x.firstKid(x.Field(n, x.g.fTypeArguments))
				continue
			}
			return x.typeName(base)
		case kUnionType:
			found := ""
			for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
				if t := x.typeName(k); t != "" {
					if found != "" {
						return ""
					}
					found = t
				}
			}
			return found
		default:
			return ""
		}
	}
	return ""
}

// typeRefs records references to the named types inside a type (n may be
// -1: none).
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	switch x.Code(n) {
	case kTypeIdentifier:
		if name := x.Text(n); !builtinTypes[name] && !x.isTypeParam(name) {
			x.ref(from, kind, name, "", "", n)
		}
	case kNestedTypeIdentifier:
		mod, name := x.Field(n, x.g.fModule), x.Field(n, x.g.fName)
		if q := x.chain(mod); q != "" && name >= 0 {
			if b, ok := x.lookup(firstPart(q)); !ok || b.kind != bExternal {
				x.ref(from, kind, x.Text(name), q, "", n)
			}
		}
	case kTypeQuery, kPredefinedType, kLiteralType, kString, kComment, kNumber, kStatementBlock:
		// No type named: typeof names a value, a body is code.
	case kTypePredicate:
		// x is Foo: only the type.
		if t := x.Field(n, x.g.fType); t >= 0 {
			x.typeRefs(t, from, kind)
		}
		for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
			if x.Code(k) == kTypePredicate {
				x.typeRefs(k, from, kind)
			}
		}
	default:
		for k := x.FirstNamed(n); k >= 0; k = x.NextNamed(k) {
			x.typeRefs(k, from, kind)
		}
	}
}
