package ruby

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Declarations made by calls in a class body: attr_*, instance
// variables, visibility, delegators, alias_method and define_method.

// attrs declares the fields an attr_reader, attr_writer, attr_accessor or
// attr call n names.
func (x *extractor) attrs(n, args int32) {
	line := x.Line(n)
	doc := x.doc(line)
	yard := parseYard(doc)
	sig := x.signature(n, x.N[n].End)
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	for _, a := range x.argNodes(args) {
		name := x.symbolValue(a)
		if name == "" {
			continue
		}
		if id, ok := x.cls.fields[name]; ok {
			if strings.HasPrefix(x.R.Symbols[id].Signature, "@") {
				x.R.Symbols[id].Signature = sig
			}
			continue
		}
		id := x.Add(extract.Symbol{Name: name, Kind: snapshot.KindField, Parent: x.cls.sym, Start: line,
			End: x.EndLine(n), Signature: sig, Doc: doc, Flags: flags, Type: yard.returns})
		x.cls.fields[name] = id
	}
}

// ivar notes an instance variable assignment: the field it stands for
// gets the assigned type, and a field symbol is made for variables
// assigned in initialize or with a known type.
func (x *extractor) ivar(name, typ string, n int32) {
	if x.cls == nil || x.cls.singleton {
		return
	}
	bare := strings.TrimPrefix(name, "@")
	if bare == "" {
		return
	}
	typ = declType(typ)
	if id, ok := x.cls.fields[bare]; ok {
		if typ != "" && x.R.Symbols[id].Type == "" {
			x.R.Symbols[id].Type = typ
		}
		return
	}
	if typ == "" && (x.fn == nil || x.fn.name != "initialize") {
		return
	}
	id := x.Add(extract.Symbol{Name: bare, Kind: snapshot.KindField, Parent: x.cls.sym,
		Start: x.Line(n), End: x.Line(n), Signature: x.signature(n, x.N[n].End), Type: typ})
	x.cls.fields[bare] = id
}

// visibility reads private, public and their kin: without arguments they
// set the visibility of the defs that follow; with names or defs, of those.
func (x *extractor) visibility(mname string, args int32) {
	cs := x.argNodes(args)
	if len(cs) == 0 {
		switch mname {
		case "private", "protected":
			x.cls.private = true
		case "public", "module_function":
			x.cls.private = false
		}
		return
	}
	private := mname == "private" || mname == "protected" || mname == "private_class_method" ||
		mname == "private_constant"
	for _, a := range cs {
		switch x.Code(a) {
		case kMethod, kSingletonMethod:
			x.method(a, private)
			continue
		case kSymbol, kString:
			name := x.symbolValue(a)
			id, ok := x.cls.methods[name]
			if !ok {
				id, ok = x.cls.fields[name]
			}
			if !ok {
				id, ok = x.constByName(name)
			}
			if ok {
				if private {
					x.R.Symbols[id].Flags &^= snapshot.FlagExported
				} else {
					x.R.Symbols[id].Flags |= snapshot.FlagExported
				}
			}
			continue
		}
		x.visit(a)
	}
}

// constByName finds the symbol named name this file declares in the current
// class.
func (x *extractor) constByName(name string) (int32, bool) {
	for i := len(x.R.Symbols) - 1; i > int(x.cls.sym); i-- {
		s := &x.R.Symbols[i]
		if s.Parent == x.cls.sym && s.Name == name {
			return int32(i), true
		}
	}
	return 0, false
}

// delegators declares the methods Forwardable (def_delegators :@obj, :a)
// and ActiveSupport (delegate :a, to: :obj) generate, each calling the
// method of the same name on the target.
func (x *extractor) delegators(n int32, mname string, args int32) {
	cs := x.argNodes(args)
	line := x.Line(n)
	doc := x.doc(line)
	sig := x.signature(n, x.N[n].End)
	target := ""
	var names [][2]string // declared name, called name
	switch mname {
	case "delegate":
		for _, a := range cs {
			if x.Code(a) == kPair {
				k, v := x.Field(a, fKey), x.Field(a, fValue)
				if k >= 0 && v >= 0 && strings.TrimSuffix(strings.TrimPrefix(x.Text(k), ":"), ":") == "to" {
					target = x.symbolValue(v)
				}
				continue
			}
			if nm := x.symbolValue(a); nm != "" {
				names = append(names, [2]string{nm, nm})
			}
		}
	case "def_delegator", "def_instance_delegator":
		if len(cs) >= 2 {
			target = x.symbolValue(cs[0])
			called := x.symbolValue(cs[1])
			decl := called
			if len(cs) >= 3 {
				decl = x.symbolValue(cs[2])
			}
			names = append(names, [2]string{decl, called})
		}
	default:
		if len(cs) >= 2 {
			target = x.symbolValue(cs[0])
			for _, a := range cs[1:] {
				if nm := x.symbolValue(a); nm != "" {
					names = append(names, [2]string{nm, nm})
				}
			}
		}
	}
	qual := ""
	switch {
	case target == "" || target == "self":
		qual = "self"
	case strings.HasPrefix(target, "@@"):
	case strings.HasPrefix(target, "@"):
		qual = "self." + target[1:]
	default:
		qual = "self." + target
	}
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	for _, nm := range names {
		if nm[0] == "" || nm[1] == "" {
			continue
		}
		id := x.Add(extract.Symbol{Name: nm[0], Kind: snapshot.KindMethod, Parent: x.cls.sym, Start: line,
			End: x.EndLine(n), Signature: sig, Doc: doc, Flags: flags})
		x.cls.methods[nm[0]] = id
		x.fileMethod[nm[0]] = true
		if qual != "" && !coreMethods[nm[1]] {
			x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: nm[1], Qual: qual, Line: line})
		}
	}
}

// alias declares alias_method :new, :old as a method calling old.
func (x *extractor) alias(n int32, newName, old string) {
	if newName == "" || old == "" {
		return
	}
	line := x.Line(n)
	flags := snapshot.Flags(0)
	if !x.cls.private {
		flags = snapshot.FlagExported
	}
	id := x.Add(extract.Symbol{Name: newName, Kind: snapshot.KindMethod, Parent: x.cls.sym, Start: line,
		End: x.EndLine(n), Signature: x.signature(n, x.N[n].End), Doc: x.doc(line), Flags: flags})
	x.cls.methods[newName] = id
	x.fileMethod[newName] = true
	x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: old, Qual: "self", Line: line})
}

// defineMethod declares define_method(:name) { ... } as a method whose body
// is the block.
func (x *extractor) defineMethod(n int32, name string, blk int32) {
	line := x.Line(n)
	kind := snapshot.KindMethod
	if x.cls == nil {
		kind = snapshot.KindFunction
	}
	flags := snapshot.Flags(0)
	if x.cls != nil && !x.cls.private {
		flags = snapshot.FlagExported
	}
	id := x.Add(extract.Symbol{Name: name, Kind: kind, Parent: x.container(), Start: line,
		End: x.EndLine(n), Signature: x.signature(n, x.N[blk].Start), Doc: x.doc(line), Flags: flags})
	if x.cls != nil {
		x.cls.methods[name] = id
	}
	x.fileMethod[name] = true
	savedFn, savedFrom := x.fn, x.from
	x.fn, x.from = &fnCtx{sym: id, name: name}, id
	x.block(blk, nil)
	x.fn, x.from = savedFn, savedFrom
}
