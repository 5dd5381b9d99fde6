package rust

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// recv is what the extractor knows of the value a method is called on.
type recv struct {
	chain string // for Ref.Qual: "self", "x", "self.gctx", "()" for any other expression
	qt    string // for Ref.QualType: the type of the chain's first element
	ext   bool   // its type is outside the repository
	known bool   // the type is known (qt set, or self)
}

// peel are methods whose result is (for the resolver) their receiver.
var peel = extract.WordSet(`unwrap expect unwrap_or_default clone to_owned as_ref as_mut as_deref
	borrow borrow_mut lock get_or_init read write`)

// stdMethods are method names of the standard library; called on a value
// of unknown type they are not reported (the resolver would otherwise try
// a repository method of the same name).
var stdMethods = extract.WordSet(`clone to_string to_owned into iter iter_mut into_iter unwrap expect
	unwrap_or unwrap_or_else unwrap_or_default map map_err and_then or_else ok_or ok_or_else ok err
	is_some is_none is_ok is_err as_ref as_mut as_str as_slice as_deref as_path as_bytes len is_empty
	push push_str pop insert remove get get_mut contains contains_key entry or_insert or_insert_with
	or_default extend collect filter filter_map find any all fold chain zip rev enumerate skip take
	next last first join split splitn rsplit trim trim_start trim_end starts_with ends_with strip_prefix
	strip_suffix replace to_lowercase to_uppercase parse borrow borrow_mut lock read write cloned copied
	sort sort_by sort_by_key sort_unstable dedup retain drain clear keys values values_mut with_context
	context display exists is_file is_dir parent file_name file_stem extension to_str to_string_lossy
	to_path_buf lines chars bytes flatten flat_map count sum max min cmp partial_cmp eq ne hash fmt
	default from try_from try_into new with_capacity append truncate split_off position map_or
	map_or_else unwrap_err expect_err take_while skip_while peekable step_by windows chunks
	binary_search send recv spawn await poll as_os_str components display_order is_absolute
	write_all write_fmt flush read_to_string read_to_end finish build capacity reserve resize swap
	get_or_insert_with copied into_inner inspect filter_map for_each nth unzip product max_by_key
	min_by_key first_mut last_mut sort_unstable_by concat to_vec iter_mut split_whitespace
	char_indices find_map matches rfind into_owned exists_ok canonicalize metadata is_symlink`)

// body records the calls, type uses and typed locals of a function body or
// an initializer.
func (x *extractor) body(n int32, from int32) {
	switch x.Kind(n) {
	case "call_expression":
		x.call(n, from)
		return
	case "macro_invocation":
		x.macro(n, from)
		return
	case "let_declaration":
		x.let(n, from)
		return
	case "struct_expression":
		if name := x.Field(n, fName); name >= 0 {
			if x.Kind(name) == "generic_type_with_turbofish" {
				name = x.Field(name, fType)
			}
			x.typeRefs(name, from, extract.RefType)
		}
		if b := x.Field(n, fBody); b >= 0 {
			x.body(b, from)
		}
		return
	case "type_cast_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
		if v := x.Field(n, fValue); v >= 0 {
			x.body(v, from)
		}
		return
	case "function_item":
		// A nested function: its calls are the enclosing function's.
		if b := x.Field(n, fBody); b >= 0 {
			x.body(b, from)
		}
		return
	case "closure_expression":
		if ps := x.Field(n, fParameters); ps >= 0 && x.locals != nil {
			for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
				switch x.Kind(p) {
				case "identifier":
					x.locals[x.Text(p)] = local{}
				case "parameter":
					if pat := x.Field(p, fPattern); pat >= 0 && x.Kind(pat) == "identifier" {
						x.locals[x.Text(pat)] = x.localOf(x.principal(x.Field(p, fType)))
					}
				}
			}
		}
		if b := x.Field(n, fBody); b >= 0 {
			x.body(b, from)
		}
		return
	case "use_declaration":
		if arg := x.Field(n, fArgument); arg >= 0 && x.sc != nil {
			for _, e := range parseUse(x.Text(arg)) {
				x.use(x.sc, e)
			}
		}
		return
	case "impl_item", "trait_item", "mod_item", "struct_item", "enum_item", "union_item", "type_item",
		"macro_definition", "attribute_item", "line_comment", "block_comment", "string_literal",
		"raw_string_literal", "const_item", "static_item":
		return
	}
	for kid := x.FirstNamed(n); kid >= 0; kid = x.NextNamed(kid) {
		x.body(kid, from)
	}
}

func (x *extractor) let(n int32, from int32) {
	typ := x.Field(n, fType)
	val := x.Field(n, fValue)
	if typ >= 0 {
		x.typeRefs(typ, from, extract.RefType)
	}
	if val >= 0 {
		x.body(val, from)
	}
	if alt := x.Field(n, fAlternative); alt >= 0 {
		x.body(alt, from)
	}
	pat := x.Field(n, fPattern)
	if pat < 0 || x.locals == nil {
		return
	}
	if x.Kind(pat) != "identifier" {
		// Names bound by a pattern: unknown types.
		x.unbind(pat)
		return
	}
	name := x.Text(pat)
	switch {
	case typ >= 0:
		x.locals[name] = x.localOf(x.principal(typ))
	case val >= 0:
		r := x.exprInfo(val)
		switch {
		case r.ext:
			x.locals[name] = local{ext: true}
		case r.chain == "()" || r.chain == "":
			x.locals[name] = local{qualType: r.qt}
		default:
			x.locals[name] = local{alias: r.chain, qualType: r.qt}
		}
	default:
		x.locals[name] = local{}
	}
}

// unbind forgets the types of the names a pattern binds.
func (x *extractor) unbind(n int32) {
	if x.Kind(n) == "identifier" {
		x.locals[x.Text(n)] = local{}
		return
	}
	for kid := x.FirstNamed(n); kid >= 0; kid = x.NextNamed(kid) {
		x.unbind(kid)
	}
}

func (x *extractor) selfRecv() recv {
	if x.selfAttached {
		return recv{chain: "self", known: true}
	}
	if x.selfType.abs == "" {
		return recv{chain: "self"}
	}
	return recv{chain: "self", qt: x.selfType.abs, ext: x.selfType.ext, known: true}
}

// exprInfo finds what the extractor knows of the value of an expression.
func (x *extractor) exprInfo(n int32) recv {
	for n >= 0 {
		switch x.Kind(n) {
		case "self":
			return x.selfRecv()
		case "identifier":
			return x.varRecv(x.Text(n))
		case "field_expression":
			field := x.Field(n, fField)
			if field < 0 || x.Kind(field) != "field_identifier" {
				return recv{chain: "()"}
			}
			r := x.exprInfo(x.Field(n, fValue))
			if r.chain == "" {
				return recv{chain: "()"}
			}
			r.chain += "." + x.Text(field)
			return r
		case "call_expression":
			fn := x.Field(n, fFunction)
			if fn >= 0 && x.Kind(fn) == "field_expression" {
				if f := x.Field(fn, fField); f >= 0 && peel[x.Text(f)] {
					n = x.Field(fn, fValue)
					continue
				}
			}
			if qt, ext := x.callType(n); ext {
				return recv{chain: "()", ext: true}
			} else if qt != "" {
				return recv{chain: "()", qt: qt, known: true}
			}
			return recv{chain: "()"}
		case "struct_expression":
			name := x.Field(n, fName)
			if name >= 0 && x.Kind(name) == "generic_type_with_turbofish" {
				name = x.Field(name, fType)
			}
			t := x.principal(name)
			if t.self {
				return x.selfRecv()
			}
			if t.abs == "" {
				return recv{chain: "()"}
			}
			return recv{chain: "()", qt: t.abs, ext: t.ext, known: true}
		case "try_expression", "parenthesized_expression", "unary_expression", "await_expression":
			n = x.FirstNamed(n)
		case "reference_expression":
			n = x.Field(n, fValue)
		default:
			return recv{chain: "()"}
		}
	}
	return recv{chain: "()"}
}

// varRecv is what a variable name stands for.
func (x *extractor) varRecv(name string) recv {
	if l, ok := x.locals[name]; ok {
		r := recv{chain: name, qt: l.qualType, ext: l.ext, known: l.qualType != ""}
		if l.alias != "" {
			r.chain = l.alias
			if strings.HasPrefix(l.alias, "self") {
				s := x.selfRecv()
				r.qt, r.ext, r.known = s.qt, s.ext, true
			}
		}
		return r
	}
	return recv{chain: name}
}

// callType is the QualType ("call:...") for the result of a call, or "".
// ext reports a call known to leave the repository.
func (x *extractor) callType(n int32) (string, bool) {
	fn := x.Field(n, fFunction)
	if fn >= 0 && x.Kind(fn) == "generic_function" {
		fn = x.Field(fn, fFunction)
	}
	if fn < 0 {
		return "", false
	}
	switch x.Kind(fn) {
	case "identifier":
		qual, name, ok := x.bareRef(x.Text(fn))
		if !ok {
			return "", true
		}
		return "call:" + extract.JoinName(qual, name), false
	case "scoped_identifier":
		segs, ok := x.pathSegs(x.Field(fn, fPath), nil)
		name := x.Text(x.Field(fn, fName))
		if !ok || name == "" {
			return "", false
		}
		qual, name, kind := x.pathRef(segs, name)
		if kind != refCall {
			return "", kind == refExternal
		}
		return "call:" + extract.JoinName(qual, name), false
	case "field_expression":
		field := x.Field(fn, fField)
		if field < 0 {
			return "", false
		}
		r := x.exprInfo(x.Field(fn, fValue))
		if r.ext {
			return "", true
		}
		return x.methodResult(r, x.Text(field)), false
	}
	return "", false
}

// methodResult renders "call:Q.m" for a method m called on r, when the
// resolver can evaluate Q without a QualType.
func (x *extractor) methodResult(r recv, m string) string {
	first, rest, _ := strings.Cut(r.chain, ".")
	if rest != "" {
		rest = "." + rest
	}
	switch {
	case first == "self" && r.qt == "" && x.selfAttached:
		return "call:" + r.chain + "." + m
	case r.qt != "" && !strings.HasPrefix(r.qt, "call:"):
		return "call:" + x.typeToken(r.qt) + rest + "." + m
	case strings.HasPrefix(r.qt, "call:"):
		// A call on what a call returned (a builder chain, or a local
		// bound to a call): the resolver follows "call:T.f().m" one call
		// at a time.
		return r.qt + "()" + rest + "." + m
	}
	return ""
}

// Kinds of path calls.
const (
	refCall     = iota // a call to report
	refType            // a constructor of a tuple struct or variant: a type use
	refExternal        // outside the repository
	refUnknown
)

// bareRef is the Qual and Name to report for a call of a bare name; ok is
// false when the call is not to report.
func (x *extractor) bareRef(name string) (qual, callName string, ok bool) {
	if _, local := x.locals[name]; local {
		return "", "", false
	}
	if x.sc == nil {
		return "", name, true
	}
	if b, found := x.lookup(x.sc, name); found {
		if b.ext {
			return "", "", false
		}
		if k, own := x.sc.items[name]; own && k != itemMod {
			return "", name, true
		}
		mod, n := extract.SplitName(b.abs)
		if mod == "" || mod == x.R.Package {
			return "", n, true
		}
		return x.modToken(mod), n, true
	}
	if prelude[name] {
		return "", "", false
	}
	return "", name, true
}

// pathRef is the Qual and Name to report for a call of a path a::b::f.
func (x *extractor) pathRef(segs []string, name string) (qual, callName string, kind int) {
	if len(segs) == 0 || len(segs) == 1 && segs[0] == "self" {
		q, n, ok := x.bareRef(name)
		if !ok {
			return "", "", refExternal
		}
		return q, n, refCall
	}
	if len(segs) == 1 {
		if segs[0] == "Self" {
			if x.selfType.abs == "" || x.selfType.ext {
				return "", "", refExternal
			}
			if x.selfAttached {
				return "Self", name, refCall
			}
			return x.typeToken(x.selfType.abs), name, refCall
		}
		if t, ok := x.generics[segs[0]]; ok {
			if t.ext || t.abs == "" {
				return "", "", refExternal
			}
			return x.typeToken(t.abs), name, refCall
		}
	}
	if x.sc == nil {
		return "", "", refUnknown
	}
	abs, ext := x.absPath(segs, x.sc)
	if abs == "" || ext {
		return "", "", refExternal
	}
	mod, last := extract.SplitName(abs)
	r := x.resolveItem(mod, last, 0, false)
	target := extract.JoinName(r.mod, r.name)
	if x.external(target) {
		return "", "", refExternal
	}
	if !r.isMod && startsUpper(r.name) {
		// A type: an associated function, or a variant constructor.
		if startsUpper(name) {
			return target, name, refType
		}
		if len(segs) == 1 {
			if k, own := x.sc.items[segs[0]]; own && k == itemType {
				return segs[0], name, refCall
			}
		}
		return x.typeToken(target), name, refCall
	}
	ri := x.resolveItem(target, name, 0, true)
	if x.external(ri.mod) {
		return "", "", refExternal
	}
	if ri.mod == x.R.Package {
		// The file's own module (crate::f() in lib.rs, super::f() in a
		// child module): a bare name, without an import of itself.
		return "", ri.name, refCall
	}
	return x.modToken(ri.mod), ri.name, refCall
}

// typeToken is a Qual standing for a type of the repository: a unique
// token bound by a synthetic import of the type, so that the resolver finds
// the type exactly. A name without a module is returned as is.
func (x *extractor) typeToken(abs string) string {
	mod, name := extract.SplitName(abs)
	if mod == "" {
		return abs
	}
	tok := "<" + strings.ReplaceAll(abs, ".", "::") + ">"
	if !x.tokens[tok] {
		x.tokens[tok] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: mod, Name: name, Alias: tok})
	}
	return tok
}

// modToken is a Qual standing for a module: a unique token bound by a
// synthetic import of the module. The resolver then finds the function in
// that module (and an imports edge links the file to it).
func (x *extractor) modToken(mod string) string {
	tok := "::" + strings.ReplaceAll(mod, ".", "::")
	if !x.tokens[tok] {
		x.tokens[tok] = true
		x.R.Imports = append(x.R.Imports, extract.Import{Path: mod, Alias: tok})
	}
	return tok
}

func (x *extractor) call(n int32, from int32) {
	fn := x.Field(n, fFunction)
	if fn >= 0 && x.Kind(fn) == "generic_function" {
		x.typeRefs(x.Field(fn, fTypeArguments), from, extract.RefType)
		fn = x.Field(fn, fFunction)
	}
	line := x.Line(n)
	if fn >= 0 {
		switch x.Kind(fn) {
		case "identifier":
			x.bareCall(x.Text(fn), from, line)
		case "scoped_identifier":
			segs, ok := x.pathSegs(x.Field(fn, fPath), nil)
			if ok {
				x.pathCall(segs, x.Text(x.Field(fn, fName)), from, line)
			}
			if p := x.Field(fn, fPath); p >= 0 && x.Kind(p) == "generic_type" {
				x.typeRefs(x.Field(p, fTypeArguments), from, extract.RefType)
			}
		case "field_expression":
			if field := x.Field(fn, fField); field >= 0 && x.Kind(field) == "field_identifier" {
				value := x.Field(fn, fValue)
				x.methodCall(x.exprInfo(value), x.Text(field), from, line)
			}
			x.body(x.Field(fn, fValue), from)
		default:
			x.body(fn, from)
		}
	}
	if args := x.Field(n, fArguments); args >= 0 {
		x.body(args, from)
	}
}

func (x *extractor) bareCall(name string, from int32, line uint32) {
	if startsUpper(name) {
		// A tuple struct or variant constructor: a use of the type.
		if t := x.namedType(name); t.abs != "" && !t.ext && !t.self {
			mod, last := extract.SplitName(t.abs)
			x.AddRef(extract.Ref{From: from, Kind: extract.RefType, Name: last, Qual: mod, Line: line})
		}
		return
	}
	qual, n, ok := x.bareRef(name)
	if !ok {
		return
	}
	x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: n, Qual: qual, Line: line})
}

func (x *extractor) pathCall(segs []string, name string, from int32, line uint32) {
	if name == "" {
		return
	}
	qual, n, kind := x.pathRef(segs, name)
	switch kind {
	case refCall:
		x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: n, Qual: qual, Line: line})
	case refType:
		mod, last := extract.SplitName(qual)
		x.AddRef(extract.Ref{From: from, Kind: extract.RefType, Name: last, Qual: mod, Line: line})
	}
}

func (x *extractor) methodCall(r recv, name string, from int32, line uint32) {
	if r.ext || !r.known && stdMethods[name] {
		return
	}
	if peel[name] && (r.chain != "self" || x.sc == nil || !x.sc.methods[x.selfName][name]) {
		// clone(), unwrap(), borrow(), lock(): seen through, not reported.
		return
	}
	if x.selfAttached && x.sc != nil && strings.HasPrefix(r.chain, "self") && r.qt == "" {
		field := extract.FirstName(strings.TrimPrefix(r.chain, "self."))
		switch {
		case r.chain == "self":
			// A standard method (self.clone(), self.to_string()) unless
			// the type's own impl blocks declare it.
			if stdMethods[name] && !x.sc.methods[x.selfName][name] {
				return
			}
		case x.sc.fields[x.selfName] != nil:
			// A method of a field of an external type (self.map.insert()).
			if t, ok := x.sc.fields[x.selfName][field]; ok && (t.ext || t.abs == "" && stdMethods[name]) {
				return
			}
		}
	}
	qual := r.chain
	if qual == "" {
		qual = "()"
	}
	qt := r.qt
	if strings.Contains(qt, "()") && !stdMethods[name] {
		// A builder chain: typed if its types stay in the repository,
		// else found by name, as a call on an unknown receiver is.
		qt = extract.OrName(qt)
	}
	x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: name, Qual: qual, QualType: qt, Line: line})
}

// macro reports the invocation of a macro of the repository and the calls
// written in its arguments (assert_eq!(f(x), 1), format!("{}", p.name())).
func (x *extractor) macro(n int32, from int32) {
	if m := x.Field(n, fMacro); m >= 0 && x.Kind(m) == "identifier" && x.sc != nil {
		name := x.Text(m)
		if b, ok := x.lookup(x.sc, name); ok && !b.ext && (b.kind == itemMacro || b.kind == itemUnknown || b.kind == itemFn) {
			if k, own := x.sc.items[name]; own && k == itemMacro {
				x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)})
			} else if !own {
				// An imported macro: #[macro_export] puts it at the crate
				// root whatever module declares it, so the name is left to
				// the resolver alone.
				_, last := extract.SplitName(b.abs)
				x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: last, Line: x.Line(n)})
			}
		}
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "token_tree" {
			x.tokenTree(c, from)
		}
	}
}

// rustKeywords can precede a parenthesised token tree without being calls.
var rustKeywords = extract.WordSet(`if while match for in return let fn loop else as move mut ref
	where impl dyn break continue async await`)

// tokenTree finds calls in the tokens of a macro argument: name(...),
// a::b::name(...), recv.name(...). The tokens are all the children of the
// tree, anonymous ones included; tokenCall reads back from the name.
func (x *extractor) tokenTree(tt int32, from int32) {
	for c := x.FirstChild(tt); c >= 0; c = x.N[c].Next {
		if x.Kind(c) != "token_tree" {
			continue
		}
		start := x.N[c].Start
		if p := x.N[c].Prev; p >= 0 && x.Kind(p) == "identifier" && start < uint32(len(x.Src)) && x.Src[start] == '(' {
			x.tokenCall(p, from)
		}
		x.tokenTree(c, from)
	}
}

// tokenCall reports the call of the identifier token id, reading the
// tokens before it (through Prev) for a path or a receiver.
func (x *extractor) tokenCall(id int32, from int32) {
	name := x.Text(id)
	if rustKeywords[name] {
		return
	}
	line := x.Line(id)
	before := x.N[id].Prev
	if before < 0 {
		x.bareCall(name, from, line)
		return
	}
	switch x.Kind(before) {
	case "::":
		var segs []string
		k := before
		for k >= 0 && x.Kind(k) == "::" {
			p := x.N[k].Prev
			if p < 0 {
				break
			}
			switch x.Kind(p) {
			case "identifier", "self", "super", "crate":
				segs = append(segs, x.Text(p))
			default:
				return
			}
			k = x.N[p].Prev
		}
		for a, b := 0, len(segs)-1; a < b; a, b = a+1, b-1 {
			segs[a], segs[b] = segs[b], segs[a]
		}
		if len(segs) > 0 {
			x.pathCall(segs, name, from, line)
		}
	case ".":
		var segs []string
		k := before
		for k >= 0 && x.Kind(k) == "." {
			p := x.N[k].Prev
			if p < 0 || x.Kind(p) != "identifier" && x.Kind(p) != "self" {
				break
			}
			segs = append(segs, x.Text(p))
			k = x.N[p].Prev
		}
		if len(segs) == 0 || k >= 0 && x.Kind(k) == "." {
			// The receiver is an expression: a call, an index.
			x.methodCall(recv{chain: "()"}, name, from, line)
			return
		}
		for a, b := 0, len(segs)-1; a < b; a, b = a+1, b-1 {
			segs[a], segs[b] = segs[b], segs[a]
		}
		var r recv
		if segs[0] == "self" {
			r = x.selfRecv()
		} else {
			r = x.varRecv(segs[0])
		}
		for _, s := range segs[1:] {
			r.chain += "." + s
		}
		x.methodCall(r, name, from, line)
	case "!", "#", "$", "fn":
		return
	default:
		x.bareCall(name, from, line)
	}
}
