package javascript

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func (x *extractor) iface(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	s := extract.Symbol{
		Name: name, Kind: snapshot.KindInterface, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	}
	var typeArgs []*sitter.Node
	for _, c := range x.kids(n) {
		c := c
		if x.kind(&c) != kExtendsTypeClause {
			continue
		}
		for _, t := range x.kids(&c) {
			t := t
			if tn := x.typeName(&t); tn != "" {
				s.Extends = append(s.Extends, tn)
			}
			if x.kind(&t) == kGenericType {
				typeArgs = append(typeArgs, x.field(&t, x.g.fTypeArguments))
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
func (x *extractor) typeMembers(body *sitter.Node, owner int32, exported bool) {
	for _, m := range x.kids(body) {
		m := m
		switch x.kind(&m) {
		case kPropertySig:
			name := x.propName(x.field(&m, x.g.fName))
			ann := x.field(&m, x.g.fType)
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
				Start: extract.Line(&m), End: extract.EndLine(&m),
				Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m), Type: x.typeName(ann),
			})
			x.typeRefs(ann, owner, extract.RefType)
		case kMethodSig:
			name := x.propName(x.field(&m, x.g.fName))
			if name == "" {
				continue
			}
			fl := snapshot.Flags(0)
			if exported {
				fl = snapshot.FlagExported
			}
			id := x.add(extract.Symbol{
				Name: name, Kind: snapshot.KindMethod, Parent: owner, Flags: fl,
				Start: extract.Line(&m), End: extract.EndLine(&m),
				Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m),
				Type: x.typeName(x.field(&m, x.g.fReturnType)),
			})
			x.fnBody(&m, id, extract.RefTypeHint)
		case kOtherSig:
			x.typeRefs(&m, owner, extract.RefType)
		}
	}
}

func (x *extractor) typeAlias(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	value := x.field(n, x.g.fValue)
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindTypeAlias, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
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

func (x *extractor) enum(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	name := x.text(x.field(n, x.g.fName))
	if name == "" {
		return
	}
	body := x.field(n, x.g.fBody)
	id := x.add(extract.Symbol{
		Name: name, Kind: snapshot.KindEnum, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	})
	x.top(name, id, parent)
	for _, m := range x.kids(body) {
		m := m
		var mn string
		switch x.kind(&m) {
		case kEnumAssignment:
			mn = x.propName(x.field(&m, x.g.fName))
		case kComment:
			continue
		default:
			mn = x.propName(&m)
		}
		if mn == "" {
			continue
		}
		x.add(extract.Symbol{Name: mn, Kind: snapshot.KindConstant, Parent: id, Flags: flags,
			Start: extract.Line(&m), End: extract.EndLine(&m), Signature: extract.FirstLine(x.text(&m)), Doc: x.doc(&m)})
	}
}

func (x *extractor) namespace(n, outer *sitter.Node, parent int32, flags snapshot.Flags) {
	full := x.chain(x.field(n, x.g.fName))
	if full == "" {
		return
	}
	qual, name := "", full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		qual, name = full[:i], full[i+1:]
	}
	body := x.field(n, x.g.fBody)
	id := x.add(extract.Symbol{
		Name: name, Qual: qual, Kind: snapshot.KindModule, Parent: parent, Flags: flags,
		Start: extract.Line(outer), End: extract.EndLine(outer),
		Signature: extract.Signature(x.f, outer, body), Doc: x.doc(outer),
	})
	if qual == "" {
		x.top(name, id, parent)
	}
	if body != nil {
		x.statements(body, id)
	}
}

func (x *extractor) pushTypeParams(n *sitter.Node) int {
	before := len(x.typeParams)
	tp := x.field(n, x.g.fTypeParameters)
	if tp == nil {
		return before
	}
	for _, p := range x.kids(tp) {
		p := p
		if x.kind(&p) == kTypeParameter {
			x.typeParams = append(x.typeParams, x.text(x.field(&p, x.g.fName)))
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
func (x *extractor) typeName(n *sitter.Node) string {
	for n != nil {
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
			for _, k := range x.kids(n) {
				k := k
				if t := x.typeName(&k); t != "" {
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
func (x *extractor) typeRefs(n *sitter.Node, from int32, kind extract.RefKind) {
	if n == nil {
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
		if q := x.chain(mod); q != "" && name != nil {
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
		if t := x.field(n, x.g.fType); t != nil {
			x.typeRefs(t, from, kind)
		}
		for _, k := range x.kids(n) {
			k := k
			if x.kind(&k) == kTypePredicate {
				x.typeRefs(&k, from, kind)
			}
		}
		return
	case kStatementBlock:
		return
	}
	for _, k := range x.kids(n) {
		k := k
		x.typeRefs(&k, from, kind)
	}
}
