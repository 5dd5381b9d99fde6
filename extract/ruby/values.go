package ruby

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// What names hold: local scopes and assignments, and the type of an
// expression's value when it can be told.

// scope holds local variables and their types ("" unknown). Blocks chain
// to the enclosing scope; method and class bodies start afresh.
type scope struct {
	vars   map[string]string
	parent *scope
}

// bindLocals declares the identifiers of an assignment target list,
// rescue variable or pattern as untyped locals, and visits the rest.
func (x *extractor) bindLocals(n int32) {
	switch x.Code(n) {
	case kIdentifier:
		x.vars.set(x.Text(n), "")
		return
	case kExceptionVar:
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Code(c) == kIdentifier {
				x.vars.set(x.Text(c), coreValue)
			}
		}
		return
	case kCall, kElementRef, kScopeRes, kConstant, kIVar:
		x.visit(n)
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fValue && x.Code(n) == kPair {
			x.bindLocals(c)
			continue
		}
		x.bindLocals(c)
	}
}

// lookup finds a local in s or the scopes around it.
func (s *scope) lookup(name string) (string, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if t, ok := sc.vars[name]; ok {
			return t, true
		}
	}
	return "", false
}

// set assigns a local: an existing one in an enclosing block scope, or a
// new one in the innermost. A known type is not forgotten by a later
// untyped assignment.
func (s *scope) set(name, typ string) {
	for sc := s; sc != nil; sc = sc.parent {
		if old, ok := sc.vars[name]; ok {
			if typ != "" || old == "" {
				sc.vars[name] = typ
			}
			return
		}
	}
	s.vars[name] = typ
}

// block reads a block or lambda in a scope nested in the current one,
// holding preset.
func (x *extractor) block(n int32, preset map[string]string) {
	saved := x.vars
	x.vars = &scope{vars: map[string]string{}, parent: saved}
	for k, v := range preset {
		x.vars.vars[k] = v
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.N[c].Field == fParameters {
			x.params(c, nil, nil)
			continue
		}
		x.visit(c)
	}
	x.vars = saved
}

// assignment reads an assignment: a local or instance variable typed by its
// value, a constant declared, a setter called, or a list of targets bound.
func (x *extractor) assignment(n int32) {
	left, right := x.Field(n, fLeft), x.Field(n, fRight)
	if left < 0 {
		x.visitKids(n)
		return
	}
	switch x.Code(left) {
	case kIdentifier:
		x.visit(right)
		typ := ""
		if right >= 0 {
			typ = x.exprType(right)
		}
		x.vars.set(x.Text(left), typ)
	case kIVar:
		x.visit(right)
		typ := ""
		if right >= 0 {
			typ = x.exprType(right)
		}
		name := x.Text(left)
		if typ != "" && x.fn != nil {
			x.vars.set(name, typ)
		}
		x.ivar(name, typ, n)
	case kConstant, kScopeRes:
		if x.Code(n) == kAssignment && x.fn == nil && right >= 0 {
			x.constant(n, left, right)
			return
		}
		x.visit(right)
	case kCall:
		// A setter: obj.attr = value
		recv, m := x.Field(left, fReceiver), x.Field(left, fMethod)
		if recv >= 0 && m >= 0 {
			q, qt, class := x.receiver(recv, 0)
			name := x.Text(m) + "="
			switch class {
			case rSelf, rConst, rTyped, rChain:
				x.AddRef(extract.Ref{From: x.from, Kind: extract.RefCall, Name: name, Qual: q, QualType: qt,
					Line: x.Line(left)})
			}
			x.visit(recv)
		} else {
			x.visit(left)
		}
		x.visit(right)
	case kLeftList:
		x.bindLocals(left)
		x.visit(right)
	default:
		x.visit(left)
		x.visit(right)
	}
}

// Inferred types are written names ("Foo", "Foo.Bar") or:
//
//	"call:f", "call:self.f", "call:Foo.f"  the result of that call
//	"?Foo"  guessed from a parameter's name (site → Site)
//	"!"     a value of a core class (a literal, File.read(...), x.to_s)
const coreValue = "!"

// declType turns an inferred type into one a symbol can declare, or "".
func declType(t string) string {
	if t == coreValue || strings.HasPrefix(t, "call:") {
		return ""
	}
	return strings.TrimPrefix(t, "?")
}

// coreResults are core methods whose result is surely a core value
// (a string, an array, a hash, a number, a boolean).
var coreResults = extract.WordSet("to_s", "to_str", "to_sym", "to_a", "to_h", "to_i", "to_f", "to_json", "to_yaml",
	"inspect", "map", "collect", "flat_map", "select", "filter", "reject", "filter_map", "keys", "values",
	"split", "join", "gsub", "sub", "strip", "lstrip", "rstrip", "chomp", "downcase", "upcase",
	"capitalize", "size", "length", "count", "group_by", "partition", "sort", "sort_by", "uniq",
	"compact", "flatten", "merge", "zip", "each_slice", "each_with_index", "chars", "lines", "bytes",
	"include?", "key?", "empty?", "nil?", "any?", "all?", "none?", "start_with?", "end_with?",
	"match?", "is_a?", "respond_to?", "tr", "squeeze", "format", "sum", "to_set", "scan", "slice",
	"transform_values", "transform_keys", "each_with_object", "tally", "encode", "force_encoding",
	"freeze_keys", "to_proc", "lazy", "entries", "basename", "dirname", "extname", "expand_path",
	"strftime", "iso8601")

// exprType is the type of the value of an expression when it can be told.
func (x *extractor) exprType(n int32) string {
	switch x.Code(n) {
	case kString, kSymbol, kLiteral, kArray, kHash:
		return coreValue
	case kCall:
		recv, m := x.Field(n, fReceiver), x.Field(n, fMethod)
		if m < 0 {
			return ""
		}
		mname := x.Text(m)
		if recv < 0 {
			if x.Code(m) == kIdentifier {
				if t, ok := x.letType(mname); ok {
					return t
				}
				if !kernelCalls[mname] {
					return "call:" + mname
				}
			}
			return ""
		}
		if mname == "new" && x.Code(recv) == kIdentifier {
			if t, ok := x.letType(x.Text(recv)); ok && !strings.HasPrefix(t, "call:") {
				return t // described_class.new
			}
		}
		if p := x.constPath(recv); p != "" {
			if x.outside(extract.FirstName(p)) {
				if coreConstants[extract.FirstName(p)] {
					return coreValue
				}
				return ""
			}
			if mname == "new" {
				return p
			}
			if !strings.Contains(p, ".") {
				return "call:" + p + "." + mname
			}
			return ""
		}
		switch mname {
		case "dup", "clone", "freeze", "tap", "itself":
			return x.exprType(recv)
		}
		if coreResults[mname] {
			return coreValue
		}
		switch x.Code(recv) {
		case kSelf:
			return "call:self." + mname
		case kIdentifier, kIVar:
			t, ok := x.vars.lookup(x.Text(recv))
			t = strings.TrimPrefix(t, "?")
			if ok && t != "" && t != coreValue && !strings.HasPrefix(t, "call:") && !strings.Contains(t, ".") {
				return "call:" + t + "." + mname
			}
		case kString, kSymbol, kLiteral, kArray, kHash:
			return coreValue
		}
		return ""
	case kConstant, kScopeRes:
		p := x.constPath(n)
		if p == "" || isAllCaps(extract.LastName(p)) || x.outside(extract.FirstName(p)) {
			return ""
		}
		return p
	case kIdentifier:
		name := x.Text(n)
		if t, ok := x.vars.lookup(name); ok {
			return t
		}
		if t, ok := x.letType(name); ok {
			return t
		}
		if x.cls != nil {
			if id, ok := x.cls.fields[name]; ok {
				return x.R.Symbols[id].Type
			}
		}
		if !kernelCalls[name] {
			return "call:" + name
		}
	case kIVar:
		if t, ok := x.vars.lookup(x.Text(n)); ok {
			return t
		}
		if x.cls != nil {
			if id, ok := x.cls.fields[strings.TrimPrefix(x.Text(n), "@")]; ok {
				return x.R.Symbols[id].Type
			}
		}
	case kParenthesized:
		if last := x.LastNamed(n); last >= 0 {
			return x.exprType(last)
		}
	case kAssignment, kOpAssignment:
		if r := x.Field(n, fRight); r >= 0 {
			return x.exprType(r)
		}
	case kBinary:
		// a || b: the type of a (memoisation, defaults)
		if c := x.FirstNamed(n); c >= 0 {
			return x.exprType(c)
		}
	case kSelf:
		if x.cls != nil {
			return x.cls.name
		}
	}
	return ""
}
