package ruby

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Modules, classes, methods and constants declared by Ruby's own syntax,
// with their parameters and result types.

// scanTopTypes records the names of the top-level modules and classes the
// file declares, so that a core name reopened here (class String) is not
// taken for the outside one.
func (x *extractor) scanTopTypes(root int32) {
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		if k := x.Code(c); k == kModule || k == kClass {
			if name := x.Field(c, fName); name >= 0 {
				first, _, _ := strings.Cut(x.constPath(name), ".")
				x.topTypes[first] = true
			}
		}
	}
}

// typeDecl declares a module or class and reads its body in a context of
// its own.
func (x *extractor) typeDecl(n int32) {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		x.visitKids(n)
		return
	}
	full := x.constPath(nameNode)
	if full == "" {
		x.visitKids(n)
		return
	}
	qual, name := extract.SplitName(full)
	parent := x.container()
	if x.Code(nameNode) == kScopeRes && x.Field(nameNode, fScope) < 0 {
		parent = -1 // class ::Foo is top level
	}
	s := extract.Symbol{
		Name: name, Qual: qual, Kind: snapshot.KindModule, Parent: parent,
		Start: x.Line(n), End: x.EndLine(n), Doc: x.doc(x.Line(n)),
		Flags: snapshot.FlagExported,
	}
	superExpr := int32(-1)
	if x.Code(n) == kClass {
		s.Kind = snapshot.KindClass
		if sc := x.Field(n, fSuperclass); sc >= 0 {
			if superExpr = x.FirstNamed(sc); superExpr >= 0 {
				if p := x.constPath(superExpr); p != "" {
					s.Extends = []string{p}
					x.external(p)
				}
			}
		}
	}
	end := x.N[nameNode].End
	if sc := x.Field(n, fSuperclass); sc >= 0 {
		end = x.N[sc].End
	}
	s.Signature = x.signature(n, end)
	id := x.Add(s)

	saved, savedFrom, savedVars, savedFn := x.cls, x.from, x.vars, x.fn
	clsName := full
	if saved != nil && parent == saved.sym && saved.name != "" {
		clsName = saved.name + "." + full
	}
	x.cls = &typeCtx{sym: id, fields: map[string]int32{}, methods: map[string]int32{}, name: clsName}
	x.from, x.vars, x.fn = id, &scope{vars: map[string]string{}}, nil
	if superExpr >= 0 && x.Code(superExpr) == kCall {
		// class Point < Struct.new(:x, :y)
		x.structFields(superExpr)
		x.visit(superExpr)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if f := x.N[c].Field; f == fName || f == fSuperclass {
			continue
		}
		x.visit(c)
	}
	x.cls, x.from, x.vars, x.fn = saved, savedFrom, savedVars, savedFn
}

// singletonClass reads `class << self`, whose defs are class methods,
// public unless marked.
func (x *extractor) singletonClass(n int32) {
	if x.cls == nil {
		x.visitKids(n)
		return
	}
	savedSingleton, savedPrivate := x.cls.singleton, x.cls.private
	x.cls.singleton, x.cls.private = true, false
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fValue {
			continue
		}
		x.visit(c)
	}
	x.cls.singleton, x.cls.private = savedSingleton, savedPrivate
}

// method declares a def (or def self.x). forcePrivate marks `private def`.
func (x *extractor) method(n int32, forcePrivate bool) int32 {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		return -1
	}
	name := x.Text(nameNode)
	singleton := x.Code(n) == kSingletonMethod
	params := x.Field(n, fParameters)
	body := x.Field(n, fBody)
	kind := snapshot.KindMethod
	switch {
	case x.cls == nil:
		kind = snapshot.KindFunction
	case name == "initialize" && !singleton && !x.cls.singleton:
		kind = snapshot.KindConstructor
	}
	line := x.Line(n)
	doc := x.doc(line)
	var flags snapshot.Flags
	// private sections do not apply to def self.m.
	if x.cls != nil && (!x.cls.private || singleton) && !forcePrivate {
		flags = snapshot.FlagExported
	}
	var end uint32
	switch {
	case body >= 0:
		end = x.N[body].Start
	case params >= 0:
		end = x.N[params].End
	default:
		end = x.N[nameNode].End
	}
	sig := strings.TrimSpace(strings.TrimSuffix(x.signature(n, end), "="))
	if body >= 0 && x.Code(body) != kBodyStatement {
		// def m(x) = expr: the signature ends before "="
		sig = strings.TrimSpace(strings.TrimSuffix(sig, "="))
	}
	s := extract.Symbol{
		Name: name, Kind: kind, Parent: x.container(), Start: line, End: x.EndLine(n),
		Signature: sig, Doc: doc, Flags: flags,
	}
	yard := parseYard(doc)
	if yard.returns != "" {
		s.Type = yard.returns
	}
	sig2 := x.takeSig(line)
	if sig2 != nil && sig2.returns != "" && s.Type == "" {
		s.Type = sig2.returns
	}
	if sig2 != nil && s.Doc == "" {
		s.Doc = sig2.doc
	}
	id := x.Add(s)
	x.fileMethod[name] = true
	if x.cls != nil {
		x.cls.methods[name] = id
	}
	for _, t := range yard.types {
		x.hint(id, t)
	}
	if sig2 != nil {
		for _, t := range sig2.params {
			x.hint(id, t)
		}
		if sig2.returns != "" {
			x.hint(id, sig2.returns)
		}
	}

	savedFn, savedFrom, savedVars := x.fn, x.from, x.vars
	x.fn, x.from, x.vars = &fnCtx{sym: id, name: name}, id, &scope{vars: map[string]string{}}
	if params >= 0 {
		x.params(params, yard.params, sig2)
	}
	if body >= 0 {
		x.visit(body)
		if x.R.Symbols[id].Type == "" {
			x.R.Symbols[id].Type = x.resultType(body)
		}
	}
	x.fn, x.from, x.vars = savedFn, savedFrom, savedVars
	return id
}

// resultType infers the type of what a method body returns from its last
// expression: Foo.new, self, a typed local, a memoised @x ||= Foo.new.
func (x *extractor) resultType(body int32) string {
	last := body
	if k := x.Code(body); k == kBodyStatement || k == kBlockBody || k == kBegin {
		last = -1
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			switch x.Code(c) {
			case kComment, kRescue, kElse, kEnsure:
				continue
			}
			last = c
		}
	}
	if last < 0 {
		return ""
	}
	if x.Code(last) == kSelf && x.cls != nil {
		return "self"
	}
	// "call:" results are not followed: result types are read as names.
	return declType(x.exprType(last))
}

// hint records typ as a type hint of symbol from; Ruby's core classes are
// left out.
func (x *extractor) hint(from int32, typ string) {
	if typ == "" || coreConstants[extract.FirstName(typ)] {
		return
	}
	q, name := extract.SplitName(typ)
	x.AddRef(extract.Ref{From: from, Kind: extract.RefTypeHint, Name: name, Qual: q,
		Line: x.R.Symbols[from].Start})
}

// params declares the parameters of a method or block as locals, typed by
// YARD, a Sorbet sig or their names (guess).
func (x *extractor) params(n int32, yard map[string]string, sig *sorbetSig) {
	typeOf := func(name string) string {
		if t := yard[name]; t != "" {
			return t
		}
		if sig != nil && sig.params[name] != "" {
			return sig.params[name]
		}
		return x.guess(name)
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Code(c) {
		case kIdentifier:
			name := x.Text(c)
			x.vars.vars[name] = typeOf(name)
		case kOptionalParam, kKeywordParam, kSplatParam, kBlockParam:
			if nm := x.Field(c, fName); nm >= 0 {
				name := x.Text(nm)
				x.vars.vars[name] = typeOf(name)
			}
			if v := x.Field(c, fValue); v >= 0 {
				x.visit(v)
			}
		case kDestructuredParam:
			x.params(c, nil, nil)
		}
	}
}

// guess types a parameter by its name, the Ruby convention for duck-typed
// arguments: site → Site, static_file → StaticFile. The guess only counts
// when the repository has a class of that name, and calls of core methods
// through it are not recorded.
func (x *extractor) guess(name string) string {
	if len(name) < 4 || name[0] < 'a' || name[0] > 'z' {
		return ""
	}
	c := camelize(name)
	if c == "" || x.outside(c) || coreConstants[c] {
		return ""
	}
	return "?" + c
}

// constant declares FOO = value, or a class made by Struct.new, Class.new,
// Module.new or Data.define.
func (x *extractor) constant(n, left, right int32) {
	full := x.constPath(left)
	if full == "" {
		x.visit(right)
		return
	}
	qual, name := extract.SplitName(full)
	line := x.Line(n)
	s := extract.Symbol{Name: name, Qual: qual, Kind: snapshot.KindConstant, Parent: x.container(),
		Start: line, End: x.EndLine(n), Doc: x.doc(line), Flags: snapshot.FlagExported}
	blk, args := int32(-1), int32(-1)
	if x.Code(right) == kCall {
		recv, m := x.Field(right, fReceiver), x.Field(right, fMethod)
		if recv >= 0 && m >= 0 {
			rp, mn := x.constPath(recv), x.Text(m)
			switch {
			case (rp == "Struct" || rp == "Class") && mn == "new", rp == "Data" && mn == "define":
				s.Kind = snapshot.KindClass
			case rp == "Module" && mn == "new":
				s.Kind = snapshot.KindModule
			}
			if s.Kind != snapshot.KindConstant {
				blk, args = x.Field(right, fBlock), x.Field(right, fArguments)
				if rp == "Class" {
					if as := x.argNodes(args); len(as) > 0 {
						if p := x.constPath(as[0]); p != "" {
							s.Extends = []string{p}
						}
					}
				}
			}
		}
	}
	end := x.N[n].End
	if blk >= 0 {
		end = x.N[blk].Start
	}
	s.Signature = x.signature(n, end)
	if s.Kind == snapshot.KindConstant {
		s.Type = declType(x.exprType(right))
	}
	id := x.Add(s)
	if s.Kind == snapshot.KindConstant {
		savedFrom := x.from
		x.from = id
		x.visit(right)
		x.from = savedFrom
		return
	}
	saved, savedFrom, savedVars := x.cls, x.from, x.vars
	x.cls = &typeCtx{sym: id, fields: map[string]int32{}, methods: map[string]int32{}, name: full}
	x.from, x.vars = id, &scope{vars: map[string]string{}}
	if s.Kind == snapshot.KindClass && args >= 0 {
		x.structFields(right)
	}
	if blk >= 0 {
		x.block(blk, nil)
	}
	x.cls, x.from, x.vars = saved, savedFrom, savedVars
}

// structFields declares the members of Struct.new(:a, :b) / Data.define as
// fields of the current class.
func (x *extractor) structFields(call int32) {
	recv, m := x.Field(call, fReceiver), x.Field(call, fMethod)
	if recv < 0 || m < 0 {
		return
	}
	rp, mn := x.constPath(recv), x.Text(m)
	if !(rp == "Struct" && mn == "new" || rp == "Data" && mn == "define") {
		return
	}
	args := x.Field(call, fArguments)
	for _, a := range x.argNodes(args) {
		if x.Code(a) != kSymbol {
			continue
		}
		name := x.symbolValue(a)
		if _, ok := x.cls.fields[name]; ok || name == "" {
			continue
		}
		x.cls.fields[name] = x.Add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: x.cls.sym,
			Start: x.Line(a), End: x.Line(a), Signature: "attr_accessor :" + name,
			Flags: snapshot.FlagExported})
	}
}
