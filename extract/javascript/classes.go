package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func (x *extractor) class(n, outer int32, parent int32, flags snapshot.Flags, name string) int32 {
	if nn := x.Text(x.Field(n, x.g.fName)); nn != "" && (name == "" || x.Code(n) == kClassDecl) {
		name = nn
	}
	body := x.Field(n, x.g.fBody)
	if name == "" {
		x.walk(body, parent)
		return -1
	}
	s := x.declSymbol(snapshot.KindClass, name, parent, flags, outer, body)
	var typeArgs []int32
	for h := x.FirstNamed(n); h >= 0; h = x.NextNamed(h) {
		if x.Code(h) != kClassHeritage {
			continue
		}
		for c := x.FirstNamed(h); c >= 0; c = x.NextNamed(c) {
			switch x.Code(c) {
			case kExtendsClause:
				x.heritage(x.Field(c, x.g.fValue), &s.Extends)
				if ta := x.Field(c, x.g.fTypeArguments); ta >= 0 {
					typeArgs = append(typeArgs, ta)
				}
			case kImplementsClause:
				typeArgs = x.typeList(c, &s.Implements, typeArgs)
			case kComment:
			default:
				x.heritage(c, &s.Extends)
			}
		}
	}
	id := x.Add(s)
	x.top(name, id, parent)
	if parent < 0 {
		x.bindFile(name, binding{kind: bSymbol})
	} else {
		x.bind(name, binding{kind: bSymbol})
	}
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Code(d) == kDecorator {
			x.walk(d, id)
		}
	}
	tp := x.pushTypeParams(n)
	for _, ta := range typeArgs {
		x.typeRefs(ta, id, extract.RefType)
	}
	x.classBody(body, id, flags&snapshot.FlagExported != 0)
	x.typeParams = x.typeParams[:tp]
	return id
}

// heritage records the base class expression of `extends`.
func (x *extractor) heritage(v int32, out *[]string) {
	v = x.unwrap(v)
	if c := x.chain(v); c != "" {
		*out = append(*out, c)
		return
	}
	if x.Code(v) == kCall {
		// A mixin application: extends mixin(Base, Other).
		for a := x.FirstNamed(x.Field(v, x.g.fArguments)); a >= 0; a = x.NextNamed(a) {
			if c := x.chain(a); c != "" {
				*out = append(*out, c)
			}
		}
	}
}

func (x *extractor) classBody(body int32, cls int32, exported bool) {
	if body < 0 {
		return
	}
	saved := x.cls
	x.cls = &classCtx{id: cls, members: map[string]bool{}, methods: map[string]bool{}}
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kMethodDef:
			x.method(m, m, cls, exported, "")
		case kFieldDef:
			x.classField(m, cls, exported)
		case kMethodSig:
			if nx := x.NextNamed(m); nx >= 0 {
				if nk := x.Code(nx); (nk == kMethodDef || nk == kMethodSig) &&
					x.Text(x.Field(m, x.g.fName)) == x.Text(x.Field(nx, x.g.fName)) {
					continue // an overload signature
				}
			}
			x.method(m, m, cls, exported, "")
		case kAbstractMethodSig:
			x.method(m, m, cls, exported, "")
		case kStaticBlock, kDecorator:
			x.walk(m, cls)
		case kOtherSig:
			x.typeRefs(m, cls, extract.RefType)
		}
	}
	// this.#m() names a member of this very class: when the class has
	// none, drop the call rather than let it be guessed onto another
	// class's #m.
	for _, i := range x.cls.thisRefs {
		name := x.R.Refs[i].Name
		if strings.HasPrefix(name, "#") && !x.cls.members[name] && !x.hasPending(name) {
			x.R.Refs[i].Name = ""
		}
	}
	// this.m passed as an argument is a call of m only when m is a method
	// (this.npm, this.state are values).
	for _, i := range x.cls.cbRefs {
		if !x.cls.methods[x.R.Refs[i].Name] {
			x.R.Refs[i].Name = ""
		}
	}
	for _, p := range x.cls.pending {
		if x.cls.members[p.name] {
			continue
		}
		x.cls.members[p.name] = true
		fl := snapshot.Flags(0)
		if exported && !p.private && !strings.HasPrefix(p.name, "#") {
			fl = snapshot.FlagExported
		}
		x.Add(extract.Symbol{Name: p.name, Kind: snapshot.KindField, Parent: cls, Flags: fl,
			Start: p.line, End: p.line, Signature: p.sig, Type: p.typ})
	}
	x.cls = saved
}

func (x *extractor) memberFlags(m int32, name string, exported bool) snapshot.Flags {
	if !exported || strings.HasPrefix(name, "#") {
		return 0
	}
	for k := x.FirstNamed(m); k >= 0; k = x.NextNamed(k) {
		if x.Code(k) == kAccessibility && x.Text(k) != "public" {
			return 0
		}
	}
	return snapshot.FlagExported
}

// method declares a class method (fn is the function node, m the member).
func (x *extractor) method(m, fn int32, cls int32, exported bool, name string) {
	if name == "" {
		name = x.propName(x.Field(m, x.g.fName))
	}
	if name == "" {
		x.fnBody(fn, cls, extract.RefType)
		return
	}
	kind := snapshot.KindMethod
	if name == "constructor" {
		kind = snapshot.KindConstructor
	}
	body := x.Field(fn, x.g.fBody)
	doc := x.doc(m)
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Flags: x.memberFlags(m, name, exported),
		Start: x.Line(m), End: x.EndLine(m),
		Signature: x.Signature(m, body), Doc: doc,
		Type: x.typeName(x.Field(fn, x.g.fReturnType)),
	})
	x.jsdoc(id, doc)
	if x.cls != nil {
		x.cls.members[name] = true
		if !x.hasToken(m, kwGet) && !x.hasToken(m, kwSet) {
			x.cls.methods[name] = true // a getter's value is no callback
		}
	}
	var props *[]pendingField
	if kind == snapshot.KindConstructor && x.cls != nil {
		props = &x.cls.pending
	}
	savedRet := x.retSym
	x.retSym = id
	defer func() { x.retSym = savedRet }()
	x.push()
	tp := x.pushTypeParams(fn)
	x.params(fn, id, extract.RefTypeHint, props)
	if rt := x.Field(fn, x.g.fReturnType); rt >= 0 {
		x.typeRefs(rt, id, extract.RefTypeHint)
	}
	if body >= 0 {
		x.walk(body, id)
	}
	x.typeParams = x.typeParams[:tp]
	x.pop()
}

func (x *extractor) classField(m int32, cls int32, exported bool) {
	nameN := x.Field(m, x.g.fName)
	if nameN < 0 {
		nameN = x.Field(m, x.g.fProperty)
	}
	name := x.propName(nameN)
	value := x.Field(m, x.g.fValue)
	if v := x.unwrap(value); x.Code(v) == kArrow || x.Code(v) == kFunctionExpr {
		x.method(m, v, cls, exported, name)
		return
	}
	for d := x.FirstNamed(m); d >= 0; d = x.NextNamed(d) {
		if x.Code(d) == kDecorator {
			x.walk(d, cls)
		}
	}
	if name == "" {
		x.walk(value, cls)
		return
	}
	ann := x.Field(m, x.g.fType)
	typ := x.typeName(ann)
	kind := snapshot.KindField
	if t := x.firstKid(ann); x.Code(t) == kFunctionType {
		// onError: (err: Error) => void — a method-like property.
		kind, typ = snapshot.KindMethod, x.typeName(x.Field(t, x.g.fReturnType))
	}
	if typ == "" && kind == snapshot.KindField {
		typ = symType(x.inferType(value))
	}
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Flags: x.memberFlags(m, name, exported),
		Start: x.Line(m), End: x.EndLine(m),
		Signature: extract.FirstLine(x.Text(m)), Doc: x.doc(m), Type: typ,
	})
	if x.cls != nil {
		x.cls.members[name] = true
	}
	if ann >= 0 {
		x.typeRefs(ann, cls, extract.RefType)
	}
	if value >= 0 {
		x.walk(value, id)
	}
}
