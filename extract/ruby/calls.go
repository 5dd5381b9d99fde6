package ruby

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// Calls: the receiver they are made on, as the resolver reads it, and the
// receiverless calls that declare something (require, include, attr_*,
// RSpec blocks).

// identifier records a bare identifier that is no local, let or attribute
// read: a receiverless call. In a class body private and public set the
// visibility of the defs that follow.
func (x *extractor) identifier(n int32) {
	name := x.Text(n)
	if _, ok := x.vars.lookup(name); ok {
		return
	}
	if x.fn == nil && x.cls != nil {
		switch name {
		case "private", "protected":
			x.cls.private = true
			return
		case "public", "module_function":
			x.cls.private = false
			return
		}
	}
	if _, ok := x.letType(name); ok {
		return
	}
	if x.cls != nil {
		if _, ok := x.cls.fields[name]; ok && x.fieldIsAttr(name) {
			return // an attribute read
		}
	}
	x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
}

// fieldIsAttr reports a field of the current class declared by attr_*.
func (x *extractor) fieldIsAttr(name string) bool {
	id := x.cls.fields[name]
	return id >= 0 && strings.HasPrefix(x.R.Symbols[id].Signature, "attr")
}

// superCall records a call of the method of the same name in a base.
func (x *extractor) superCall(n int32) {
	if x.fn != nil {
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: x.fn.name, Qual: "super", Line: x.Line(n)})
	}
}

// Receiver classes.
const (
	rNone    = iota
	rSelf    // self
	rConst   // Foo: a constant named directly
	rTyped   // a typed local, Foo.new, Foo::Bar
	rChain   // through attributes or results of other calls
	rUntyped // an untyped local or an unknown expression
	rLiteral // a literal or core value: calls on it are core methods
	rGuess   // a parameter typed by its name only
)

// local describes a local variable receiver of type t.
func local(name, t string) (string, string, int) {
	switch {
	case t == "":
		return name, "", rUntyped
	case t == coreValue:
		return "", "", rLiteral
	case t[0] == '?':
		return name, t[1:], rGuess
	}
	return name, t, rTyped
}

// receiver describes the object a call is made on, as Qual and QualType.
func (x *extractor) receiver(n int32, depth int) (qual, qualType string, class int) {
	if depth > 5 {
		return "", "", rUntyped
	}
	switch x.Code(n) {
	case kSelf:
		return "self", "", rSelf
	case kIdentifier:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok {
			return local(name, t)
		}
		if t, ok := x.letType(name); ok {
			return local(name, t)
		}
		return "self." + name, "", rChain
	case kIVar:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok && t != "" {
			return local(name, t)
		}
		return "self." + strings.TrimPrefix(name, "@"), "", rChain
	case kConstant:
		p := x.Text(n)
		if x.external(p) {
			return "", "", rLiteral
		}
		if isAllCaps(p) {
			return p, "", rGuess // a value constant: its type is not known
		}
		return p, "", rConst
	case kScopeRes:
		p := x.constPath(n)
		if p == "" {
			return "", "", rUntyped
		}
		if x.external(p) {
			return "", "", rLiteral
		}
		if !strings.Contains(p, ".") {
			return p, "", rConst
		}
		return strings.ReplaceAll(p, ".", "::"), p, rTyped
	case kParenthesized:
		if c := x.FirstNamed(n); c >= 0 && x.NextNamed(c) < 0 {
			return x.receiver(c, depth+1)
		}
		return "", "", rUntyped
	case kCall:
		recv := x.Field(n, fReceiver)
		m := x.Field(n, fMethod)
		if m < 0 {
			return "", "", rUntyped
		}
		mname := x.Text(m)
		if recv < 0 {
			if x.Code(m) == kSuper || kernelCalls[mname] {
				return "", "", rUntyped
			}
			if t, ok := x.letType(mname); ok && t != "" {
				return mname, t, rTyped
			}
			return "self." + mname, "", rChain
		}
		if mname == "new" {
			if p := x.constPath(recv); p != "" {
				if x.external(p) {
					return "", "", rLiteral
				}
				return strings.ReplaceAll(p, ".", "::"), p, rTyped
			}
		}
		if mname == "class" && x.Code(recv) == kSelf {
			return "self", "", rSelf // self.class.m: a method of the own class
		}
		if coreResults[mname] {
			return "", "", rLiteral
		}
		q, qt, c := x.receiver(recv, depth+1)
		switch c {
		case rLiteral, rNone:
			return "", "", rLiteral
		case rUntyped:
			return "", "", rUntyped
		}
		if c == rConst && x.externals[extract.FirstName(q)] {
			return "", "", rLiteral
		}
		if mname == "class" {
			return q, qt, c // x.class.m: a class method of x's type
		}
		if strings.Count(q, ".") >= 4 {
			return "", "", rUntyped
		}
		return q + "." + mname, qt, rChain
	case kString, kSymbol, kLiteral, kArray, kHash:
		return "", "", rLiteral
	}
	return "", "", rUntyped
}

// call records a method call with what is known of its receiver, and visits
// the receiver, arguments and block.
func (x *extractor) call(n int32) {
	recv := x.Field(n, fReceiver)
	m := x.Field(n, fMethod)
	args := x.Field(n, fArguments)
	blk := x.Field(n, fBlock)
	if m < 0 {
		x.visitKids(n)
		return
	}
	line := x.Line(n)
	if x.Code(m) == kSuper {
		x.superCall(n)
		x.visit(args)
		x.visit(blk)
		return
	}
	mname := x.Text(m)
	if recv < 0 {
		if x.special(n, mname, args, blk) {
			return
		}
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Line: line})
		x.visit(args)
		x.visit(blk)
		return
	}
	if mname == "describe" && x.Code(recv) == kConstant && x.Text(recv) == "RSpec" {
		x.describe(n, args, blk)
		return
	}
	if mname == "new" {
		if p := x.constPath(recv); p != "" {
			x.typeRef(p, recv)
			if !x.external(p) {
				if strings.Contains(p, ".") {
					x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: "initialize",
						Qual: strings.ReplaceAll(p, ".", "::"), QualType: p, Line: line})
				} else {
					x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: "initialize", Qual: p, Line: line})
				}
			}
			x.visit(args)
			x.visit(blk)
			return
		}
	}
	q, qt, class := x.receiver(recv, 0)
	if class == rTyped && strings.HasPrefix(qt, "call:") {
		class = rChain // the result of a call: often not known after all
	}
	if class == rSelf && mname == "class" {
		class = rLiteral // self.class: Kernel#class
	}
	switch class {
	case rLiteral:
	case rSelf, rConst, rTyped:
		x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Qual: q, QualType: qt, Line: line})
	default:
		if !coreMethods[mname] {
			if q == "" {
				q = "?"
			}
			x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: mname, Qual: q, QualType: qt, Line: line})
		}
	}
	x.visit(recv)
	x.visit(args)
	x.visit(blk)
}

// special handles receiverless calls that declare something: require,
// attr_*, include, visibility, delegators, define_method, RSpec blocks.
// It reports whether the call was consumed.
func (x *extractor) special(n int32, mname string, args, blk int32) bool {
	switch mname {
	case "require", "require_relative", "load":
		if s := x.firstString(args); s != "" {
			x.require(mname, s)
			return true
		}
	case "autoload":
		if cs := x.argNodes(args); len(cs) == 2 {
			if s := x.stringValue(cs[1]); s != "" {
				x.require("require", s)
				return true
			}
		}
	case "attr_reader", "attr_writer", "attr_accessor", "attr":
		if x.cls != nil && x.fn == nil {
			x.attrs(n, args)
			return true
		}
	case "include", "extend", "prepend":
		if x.cls != nil && x.fn == nil {
			for _, a := range x.argNodes(args) {
				if p := x.constPath(a); p != "" {
					s := &x.R.Symbols[x.cls.sym]
					s.Implements = append(s.Implements, p)
					x.external(p)
				}
			}
			return true
		}
	case "private", "protected", "public", "module_function", "private_class_method",
		"public_class_method", "private_constant":
		if x.cls != nil {
			x.visibility(mname, args)
			return true
		}
	case "def_delegators", "def_delegator", "delegate", "def_instance_delegators", "def_instance_delegator":
		if x.cls != nil && x.fn == nil {
			x.delegators(n, mname, args)
			return true
		}
	case "alias_method":
		if x.cls != nil && x.fn == nil {
			if cs := x.argNodes(args); len(cs) == 2 {
				x.alias(n, x.symbolValue(cs[0]), x.symbolValue(cs[1]))
				return true
			}
		}
	case "define_method":
		if blk >= 0 {
			if cs := x.argNodes(args); len(cs) >= 1 {
				if name := x.symbolValue(cs[0]); name != "" {
					x.defineMethod(n, name, blk)
					return true
				}
			}
		}
	case "sig":
		if blk >= 0 && args < 0 {
			x.sorbetSig(n, blk)
			return true
		}
	case "let", "let!", "subject", "subject!", "given", "given!":
		if blk >= 0 && (x.test || len(x.specs) > 0) {
			x.let(mname, args, blk)
			return true
		}
	}
	if rspecGroups[mname] && blk >= 0 && (x.test || len(x.specs) > 0 || mname == "describe") {
		x.describe(n, args, blk)
		return true
	}
	if rspecExamples[mname] && blk >= 0 && (x.test || len(x.specs) > 0) {
		x.example(n, mname, args, blk)
		return true
	}
	return false
}

// argNodes lists the arguments of an argument list (args may be -1),
// comments aside.
func (x *extractor) argNodes(args int32) []int32 {
	var out []int32
	for c := x.FirstNamed(args); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) != kComment {
			out = append(out, c)
		}
	}
	return out
}

// stringValue is the text of a plain string literal, or "".
func (x *extractor) stringValue(n int32) string {
	if x.Code(n) != kString {
		return ""
	}
	if x.FirstNamed(n) < 0 {
		return ""
	}
	var b strings.Builder
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "string_content" {
			return ""
		}
		b.WriteString(x.Text(c))
	}
	return b.String()
}

// descText is the text of a description argument: a string (with
// interpolations kept as written), a symbol or a constant.
func (x *extractor) descText(n int32) string {
	switch x.Code(n) {
	case kString:
		return strings.Trim(x.Text(n), `"'`)
	case kSymbol:
		return strings.TrimPrefix(x.Text(n), ":")
	}
	return x.Text(n)
}

// firstString is the value of the first argument when it is a plain string,
// or "".
func (x *extractor) firstString(args int32) string {
	cs := x.argNodes(args)
	if len(cs) == 0 {
		return ""
	}
	return x.stringValue(cs[0])
}

// symbolValue is the name in :name or "name".
func (x *extractor) symbolValue(n int32) string {
	switch x.Code(n) {
	case kSymbol:
		return strings.Trim(strings.TrimPrefix(x.Text(n), ":"), `"'`)
	case kString:
		return x.stringValue(n)
	}
	return ""
}
