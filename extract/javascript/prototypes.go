package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Methods put on objects rather than declared in classes:
//
//	const proto = Clock.prototype   // an alias of a prototype
//	proto.shift = function (d) {…}  // Clock.shift
//
//	export default (options, Clock, clock) => {   // a plugin
//	  const proto = Clock.prototype
//	  proto.tz = function (zone) {…}               // proto.tz
//	  clock.tz = function (t, zone) {…}            // clock.tz
//	}
//
//	const locale = { name: "de", ordinal: (n) => `${n}.` }  // locale.ordinal
//
// A method put on a prototype through an alias is the class's when the
// class is the file's; otherwise (a plugin's parameter) it is a file-level
// function qualified by the alias. Functions put on a prototype or on a
// parameter inside a function (a plugin's body) are symbols of their own
// the same way; and the members of a module-level object literal with
// functions are its functions and fields. Object.assign(Clock.prototype,
// {…}) declares Clock's methods, as Clock.prototype = {…} does.

// maxObjectFields bounds the data members of an object literal that become
// fields: a longer literal is a table, not an interface.
const maxObjectFields = 40

// protoOf returns the chain whose prototype the value v is: Clock for
// Clock.prototype, "" for any other value.
func (x *extractor) protoOf(v int32) string {
	if v < 0 {
		return ""
	}
	if p, ok := strings.CutSuffix(x.chain(x.unwrap(v)), ".prototype"); ok && p != "" {
		return p
	}
	return ""
}

// viaAlias rewrites a receiver chain that starts with a prototype alias
// (proto, with const proto = Clock.prototype) as the prototype's own
// (Clock.prototype), and returns the alias too; other chains come back
// as they are, with no alias.
func (x *extractor) viaAlias(recv string) (string, string) {
	first := firstPart(recv)
	if b, ok := x.lookup(first); ok && b.proto != "" {
		return b.proto + ".prototype" + recv[len(first):], first
	}
	return recv, ""
}

// memberFunction declares the function of an assignment inside a function
// body, recv.name = function () {…} or an arrow, when recv is a prototype
// (Foo.prototype, or an alias of one) or a parameter of an enclosing
// function (the object a plugin receives), and reports whether it did. In
// test files such assignments stay part of the test.
func (x *extractor) memberFunction(n int32, from int32) bool {
	if x.test || from < 0 {
		return false
	}
	fn := x.unwrap(x.Field(n, x.g.fRight))
	if k := x.Code(fn); k != kArrow && k != kFunctionExpr {
		return false
	}
	c := x.chain(x.Field(n, x.g.fLeft))
	recv, name := extract.SplitName(c)
	if recv == "" {
		return false
	}
	recv, alias := x.viaAlias(recv)
	stmt := n
	if p := x.N[n].Parent; p >= 0 && x.Code(p) == kExpressionStatement {
		stmt = p
	}
	switch {
	case strings.HasSuffix(recv, ".prototype"):
		if owner := strings.TrimSuffix(recv, ".prototype"); !strings.Contains(owner, ".") {
			if b, ok := x.lookup(owner); !ok || b.kind != bLocal {
				// A class or function of the file (or an import): its
				// method, as at the top of the module.
				x.methodOn(recv, name, fn, stmt, alias)
				return true
			}
		}
		qual := alias
		if qual == "" {
			qual = strings.TrimSuffix(recv, ".prototype")
		}
		x.looseMethod(qual, name, fn, stmt, x.topFlags(from))
		return true
	case !strings.Contains(recv, "."):
		if b, ok := x.lookup(recv); ok && b.param {
			x.looseMethod(recv, name, fn, stmt, x.topFlags(from))
			return true
		}
	}
	return false
}

// topFlags returns the exported flag of the module-level symbol that holds
// symbol id.
func (x *extractor) topFlags(id int32) snapshot.Flags {
	for id >= 0 && x.R.Symbols[id].Parent >= 0 {
		id = x.R.Symbols[id].Parent
	}
	if id < 0 {
		return 0
	}
	return x.R.Symbols[id].Flags & snapshot.FlagExported
}

// objectMembers declares the members of an object literal with functions
// bound to the module-level symbol owner (outside tests): its functions
// (methods and function-valued properties) and, for a literal of at most
// maxObjectFields properties, its data properties named by identifiers
// as fields ("/users": handler is a table's row). An object of data alone
// (options, a lookup table) declares nothing. Member names are bound in a
// scope of their own: ordinal: (n) => … declares no function ordinal of
// the file.
func (x *extractor) objectMembers(obj int32, owner int32, flags snapshot.Flags) {
	pairs, fns := 0, 0
	for m := x.FirstNamed(obj); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kPair:
			pairs++
			if v := x.unwrap(x.Field(m, x.g.fValue)); x.Code(v) == kArrow || x.Code(v) == kFunctionExpr {
				fns++
			}
		case kMethodDef:
			fns++
		}
	}
	if x.test || fns == 0 {
		// Test fixtures, and objects of data alone (options, tables).
		x.walk(obj, owner)
		return
	}
	x.push()
	defer x.pop()
	for m := x.FirstNamed(obj); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kMethodDef:
			x.function(m, m, owner, flags, x.propName(x.Field(m, x.g.fName)))
		case kPair:
			key, val := x.propName(x.Field(m, x.g.fKey)), x.Field(m, x.g.fValue)
			if v := x.unwrap(val); key != "" && (x.Code(v) == kArrow || x.Code(v) == kFunctionExpr) {
				x.function(v, m, owner, flags, key)
				continue
			}
			if pairs <= maxObjectFields && ident(key) == key && key != "" {
				x.Add(extract.Symbol{Name: key, Kind: snapshot.KindField, Parent: owner, Flags: flags,
					Start: x.Line(m), End: x.EndLine(m), Signature: extract.FirstLine(x.Text(m)), Doc: x.doc(m)})
			}
			x.walk(m, owner)
		default:
			x.walk(m, owner)
		}
	}
}

// assignPrototype declares the methods of the objects a module-level
// Object.assign(Foo.prototype, {…}, …) copies onto a prototype (or an
// alias of one), as Foo.prototype = {…} declares them, and reports
// whether call was such a call.
func (x *extractor) assignPrototype(call int32) bool {
	if x.chain(x.callee(x.Field(call, x.g.fFunction))) != "Object.assign" {
		return false
	}
	args := x.Field(call, x.g.fArguments)
	target := x.FirstNamed(args)
	if target < 0 {
		return false
	}
	recv, _ := x.viaAlias(x.chain(target))
	owner, ok := strings.CutSuffix(recv, ".prototype")
	if !ok || owner == "" {
		return false
	}
	for a := x.NextNamed(target); a >= 0; a = x.NextNamed(a) {
		if x.Code(a) == kObject {
			x.prototypeObject(owner, a)
		} else {
			x.walk(a, -1)
		}
	}
	return true
}
