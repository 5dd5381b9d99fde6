package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func (x *extractor) iface(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	s := x.declSymbol(snapshot.KindInterface, name, parent, flags, outer, body)
	var typeArgs []int32
	for c := x.first(n); c >= 0; c = x.next(c) {
		if x.kind(c) != kExtendsTypeClause {
			continue
		}
		for t := x.first(c); t >= 0; t = x.next(t) {
			if tn := x.typeName(t); tn != "" {
				s.Extends = append(s.Extends, tn)
			}
			if x.kind(t) == kGenericType {
				typeArgs = append(typeArgs, x.field(t, x.g.fTypeArguments))
			}
		}
	}
	id := x.add(s)
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
	for m := x.first(body); m >= 0; m = x.next(m) {
		switch x.kind(m) {
		case kPropertySig:
			name := x.propName(x.field(m, x.g.fName))
			ann := x.field(m, x.g.fType)
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
			x.add(extract.Symbol{
				Name: name, Kind: snapshot.KindField, Parent: owner, Flags: fl,
				Start: x.t.Line(m), End: x.t.EndLine(m),
				Signature: extract.FirstLine(x.text(m)), Doc: x.doc(m), Type: x.typeName(ann),
			})
			x.typeRefs(ann, owner, extract.RefType)
		case kMethodSig:
			name := x.propName(x.field(m, x.g.fName))
			if name == "" {
				continue
			}
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			id := x.add(extract.Symbol{
				Name: name, Kind: snapshot.KindMethod, Parent: owner, Flags: fl,
				Start: x.t.Line(m), End: x.t.EndLine(m),
				Signature: extract.FirstLine(x.text(m)), Doc: x.doc(m),
				Type: x.typeName(x.field(m, x.g.fReturnType)),
			})
			x.fnBody(m, id, extract.RefTypeHint)
		case kOtherSig:
			x.typeRefs(m, owner, extract.RefType)
		}
	}
}

func (x *extractor) typeAlias(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	value := x.field(n, x.g.fValue)
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindTypeAlias, Parent: parent, Flags: flags,
		Start: x.t.Line(outer), End: x.t.EndLine(outer),
		Signature: extract.FirstLine(x.text(outer)), Doc: x.doc(outer), Type: x.typeName(value),
	})
	x.top(name, id, parent)
	tp := x.pushTypeParams(n)
	if x.kind(value) == kObjectType {
		x.typeMembers(value, id, flags&snapshot.FlagExported != 0)
	} else {
		x.typeRefs(value, id, extract.RefType)
	}
	x.typeParams = x.typeParams[:tp]
}

func (x *extractor) enum(n, outer int32, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	id := x.add(x.declSymbol(snapshot.KindEnum, name, parent, flags, outer, body))
	x.top(name, id, parent)
	for m := x.first(body); m >= 0; m = x.next(m) {
		var mn string
		switch x.kind(m) {
		case kEnumAssignment:
			mn = x.propName(x.field(m, x.g.fName))
		case kComment:
			continue
		default:
			mn = x.propName(m)
		}
		if mn == "" {
			continue
		}
		x.add(extract.Symbol{Name: mn, Kind: snapshot.KindConstant, Parent: id, Flags: flags,
			Start: x.t.Line(m), End: x.t.EndLine(m), Signature: extract.FirstLine(x.text(m)), Doc: x.doc(m)})
	}
}

func (x *extractor) namespace(n, outer int32, parent int32, flags snapshot.Flags) {
	full := x.chain(x.field(n, x.g.fName))
	if full == "" {
		return
	}
	qual, name := "", full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		qual, name = full[:i], full[i+1:]
	}
	body := x.field(n, x.g.fBody)
	s := x.declSymbol(snapshot.KindModule, name, parent, flags, outer, body)
	s.Qual = qual
	id := x.add(s)
	if qual == "" {
		x.top(name, id, parent)
	}
	if body >= 0 {
		x.statements(body, id)
	}
}

func (x *extractor) pushTypeParams(n int32) int {
	before := len(x.typeParams)
	tp := x.field(n, x.g.fTypeParameters)
	for p := x.first(tp); p >= 0; p = x.next(p) {
		if x.kind(p) == kTypeParameter {
			x.typeParams = append(x.typeParams, x.text(x.field(p, x.g.fName)))
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
		switch x.kind(n) {
		case kTypeAnnotation, kParenType, kArrayType:
			n = x.firstKid(n)
		case kTypeIdentifier, kIdentifier:
			name := x.text(n)
			if builtinTypes[name] || x.isTypeParam(name) {
				return ""
			}
			return name
		case kNestedTypeIdentifier:
			return strings.Join(strings.Fields(x.text(n)), "")
		case kGenericType:
			base := x.field(n, x.g.fName)
			if typeWrappers[x.text(base)] {
				n = x.firstKid(x.field(n, x.g.fTypeArguments))
				continue
			}
			return x.typeName(base)
		case kUnionType:
			found := ""
			for k := x.first(n); k >= 0; k = x.next(k) {
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

// typeRefs records references to the named types inside a type.
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.kind(n) {
	case kTypeIdentifier:
		name := x.text(n)
		if !builtinTypes[name] && !x.isTypeParam(name) {
			x.ref(from, kind, name, "", "", n)
		}
		return
	case kNestedTypeIdentifier:
		mod, name := x.field(n, x.g.fModule), x.field(n, x.g.fName)
		if q := x.chain(mod); q != "" && name >= 0 {
			if b, ok := x.lookup(firstPart(q)); ok && b.kind == bExternal {
				return
			}
			x.ref(from, kind, x.text(name), q, "", n)
		}
		return
	case kTypeQuery, kPredefinedType, kLiteralType, kString, kComment, kNumber:
		return
	case kTypePredicate:
		// x is Foo: only the type.
		if t := x.field(n, x.g.fType); t >= 0 {
			x.typeRefs(t, from, kind)
		}
		for k := x.first(n); k >= 0; k = x.next(k) {
			if x.kind(k) == kTypePredicate {
				x.typeRefs(k, from, kind)
			}
		}
		return
	case kStatementBlock:
		return
	}
	for k := x.first(n); k >= 0; k = x.next(k) {
		x.typeRefs(k, from, kind)
	}
}
