package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// stringArg is the first argument of a call when it is a string literal.
func (x *extractor) stringArg(args int32) string {
	a := x.first(args)
	if x.kind(a) != kString {
		return ""
	}
	return unquote(x.text(a))
}

func (x *extractor) addImport(im extract.Import) {
	x.r.Imports = append(x.r.Imports, im)
}

// sideImport records a module imported for its effects (or required in an
// expression): an imports edge, no local name.
func (x *extractor) sideImport(spec string) {
	key, _, _ := x.rc.resolve(x.dir, spec)
	if key != "" {
		x.addImport(extract.Import{Path: key, Alias: "(import)"})
	}
}

// bindImport imports the export `name` of spec as local ("default" for a
// default import, "" for the module itself).
func (x *extractor) bindImport(spec, name, local string) {
	key, file, inRepo := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	if !inRepo {
		x.bindFile(local, binding{kind: bExternal})
		if name == "default" {
			name = ""
		}
		x.addImport(extract.Import{Path: key, Name: name, Alias: local})
		return
	}
	if name == "" {
		x.bindFile(local, binding{kind: bModule})
		x.addImport(extract.Import{Path: key, Alias: local})
		return
	}
	x.bindFile(local, binding{kind: bImport})
	if file == "" {
		// Not a source file (JSON, CSS, a missing module).
		if name == "default" {
			name = local
		}
		x.addImport(extract.Import{Path: key, Name: name, Alias: local})
		return
	}
	cands := x.rc.exportCands(file, key, name, 0, nil)
	if len(cands) == 0 {
		// No default export found: assume it is named like the import.
		if name == "default" {
			name = local
		}
		cands = append(cands, cand{key, name})
	}
	direct := false
	for _, c := range cands {
		x.addImport(extract.Import{Path: c.key, Name: c.name, Alias: local})
		if c.key == key {
			direct = true
		}
	}
	if !direct {
		// The imports edge to the module named in the statement.
		x.addImport(extract.Import{Path: key, Alias: "(import)"})
	}
}

func (x *extractor) importStmt(n int32) {
	spec := unquote(x.text(x.field(n, x.g.fSource)))
	bound := false
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case kImportClause:
			for k := x.first(c); k >= 0; k = x.next(k) {
				switch x.kind(k) {
				case kIdentifier:
					x.bindImport(spec, "default", x.text(k))
					bound = true
				case kNamespaceImport:
					if id := x.firstKid(k); id >= 0 {
						x.bindImport(spec, "", x.text(id))
						bound = true
					}
				case kNamedImports:
					for s := x.first(k); s >= 0; s = x.next(s) {
						if x.kind(s) != kImportSpecifier {
							continue
						}
						name, local := x.specifierNames(s)
						x.bindImport(spec, name, local)
						bound = true
					}
				}
			}
		case kImportRequireClause:
			if id := x.firstKid(c); id >= 0 && x.kind(id) == kIdentifier {
				if spec == "" {
					spec = unquote(x.text(x.field(c, x.g.fSource)))
				}
				x.requireBind(spec, x.text(id))
				bound = true
			}
		}
	}
	if !bound && spec != "" {
		x.sideImport(spec)
	}
}

// requireBind handles const local = require(spec): the module's
// `module.exports` value when it names a class or function, else the
// module as a namespace.
func (x *extractor) requireBind(spec, local string) {
	key, file, inRepo := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	if !inRepo {
		x.bindFile(local, binding{kind: bExternal})
		x.addImport(extract.Import{Path: key, Alias: local})
		return
	}
	kind := bModule
	if file != "" {
		for _, c := range x.rc.exportCands(file, key, "default", 0, nil) {
			if c.name != "" {
				x.addImport(extract.Import{Path: c.key, Name: c.name, Alias: local})
				kind = bImport
			}
		}
	}
	x.bindFile(local, binding{kind: kind})
	x.addImport(extract.Import{Path: key, Alias: local})
}

// requireDecl handles declarators whose value is require("x"),
// require("x").name or await import("x"); it reports whether it did.
func (x *extractor) requireDecl(nameN, value int32) bool {
	v := x.unwrap(value)
	member := ""
	if x.kind(v) == kMember {
		member = x.text(x.field(v, x.g.fProperty))
		v = x.unwrap(x.field(v, x.g.fObject))
	}
	if x.kind(v) != kCall {
		return false
	}
	fn := x.callee(x.field(v, x.g.fFunction))
	isReq := x.kind(fn) == kIdentifier && x.text(fn) == "require"
	if !isReq && x.kind(fn) != kImportKw {
		return false
	}
	spec := x.stringArg(x.field(v, x.g.fArguments))
	if spec == "" {
		return false
	}
	switch x.kind(nameN) {
	case kIdentifier:
		local := x.text(nameN)
		switch {
		case member != "":
			x.bindImport(spec, member, local)
		case isReq:
			x.requireBind(spec, local)
		default:
			x.bindImport(spec, "", local)
		}
	case kObjectPattern:
		for p := x.first(nameN); p >= 0; p = x.next(p) {
			switch x.kind(p) {
			case kShorthandPattern:
				x.bindImport(spec, x.text(p), x.text(p))
			case kPairPattern:
				k, val := x.propName(x.field(p, x.g.fKey)), x.field(p, x.g.fValue)
				if x.kind(val) == kIdentifier && k != "" {
					x.bindImport(spec, k, x.text(val))
				}
			case kObjectAssignPattern:
				if f := x.firstKid(p); f >= 0 {
					x.bindImport(spec, x.text(f), x.text(f))
				}
			}
		}
	default:
		x.sideImport(spec)
	}
	return true
}

func (x *extractor) dynamicImport(args int32, local string) {
	if spec := x.stringArg(args); spec != "" {
		if local != "" {
			x.bindImport(spec, "", local)
		} else {
			x.sideImport(spec)
		}
	}
}

// ---------------------------------------------------------------- exports

func (x *extractor) export(n int32, parent int32) {
	if src := x.field(n, x.g.fSource); src >= 0 {
		x.reexport(n, unquote(x.text(src)))
		return
	}
	isDefault := x.hasToken(n, kwDefault)
	name := ""
	if isDefault {
		name = defaultName(x.path)
	}
	if d := x.field(n, x.g.fDeclaration); d >= 0 {
		x.declaration(d, n, parent, snapshot.FlagExported, name)
		return
	}
	if v := x.field(n, x.g.fValue); v >= 0 {
		vv := x.unwrap(v)
		switch x.kind(vv) {
		case kIdentifier:
			x.exported = append(x.exported, x.text(vv))
		case kArrow, kFunctionExpr:
			if own := x.text(x.field(vv, x.g.fName)); own != "" {
				name = own
			}
			x.function(vv, n, parent, snapshot.FlagExported, name)
		case kClassExpr:
			x.class(vv, n, parent, snapshot.FlagExported, name)
		case kObject:
			x.objectExports(vv, parent)
		case kCall:
			x.wrapperExport(vv)
			x.walk(v, parent)
		default:
			x.walk(v, parent)
		}
		return
	}
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case kExportClause:
			for s := x.first(c); s >= 0; s = x.next(s) {
				if x.kind(s) == kExportSpecifier {
					x.exported = append(x.exported, x.text(x.field(s, x.g.fName)))
				}
			}
		case kIdentifier:
			x.exported = append(x.exported, x.text(c)) // export = Foo
		}
	}
}

// wrapperExport marks Component exported in export default connect(…)(Component).
func (x *extractor) wrapperExport(call int32) {
	for a := x.first(x.field(call, x.g.fArguments)); a >= 0; a = x.next(a) {
		if x.kind(a) == kIdentifier {
			x.exported = append(x.exported, x.text(a))
		}
	}
	if fn := x.callee(x.field(call, x.g.fFunction)); x.kind(fn) == kCall {
		x.wrapperExport(fn)
	}
}

// reexport handles export … from "spec": the names become imports of this
// module (so a barrel links to what it re-exports).
func (x *extractor) reexport(n int32, spec string) {
	key, _, _ := x.rc.resolve(x.dir, spec)
	if key == "" {
		return
	}
	some := false
	for c := x.first(n); c >= 0; c = x.next(c) {
		switch x.kind(c) {
		case kExportClause:
			for s := x.first(c); s >= 0; s = x.next(s) {
				if x.kind(s) != kExportSpecifier {
					continue
				}
				name, local := x.specifierNames(s)
				if name == "default" {
					x.bindImport(spec, "default", local)
				} else {
					x.addImport(extract.Import{Path: key, Name: name, Alias: local})
				}
				some = true
			}
		case kNamespaceExport:
			if id := x.firstKid(c); id >= 0 {
				x.addImport(extract.Import{Path: key, Alias: x.text(id)})
				some = true
			}
		}
	}
	if !some {
		x.addImport(extract.Import{Path: key, Name: "*"})
	}
}

// objectExports declares the functions of an exported object literal
// (module.exports = {…}, export default {…}) as top-level functions.
func (x *extractor) objectExports(obj int32, parent int32) {
	for m := x.first(obj); m >= 0; m = x.next(m) {
		switch x.kind(m) {
		case kMethodDef:
			name := x.propName(x.field(m, x.g.fName))
			x.function(m, m, parent, snapshot.FlagExported, name)
		case kPair:
			name := x.propName(x.field(m, x.g.fKey))
			val := x.field(m, x.g.fValue)
			v := x.unwrap(val)
			switch x.kind(v) {
			case kArrow, kFunctionExpr:
				x.function(v, m, parent, snapshot.FlagExported, name)
			case kIdentifier:
				x.exported = append(x.exported, x.text(v))
			default:
				if name != "" && !x.requireDecl(x.field(m, x.g.fKey), val) {
					x.walk(val, parent)
				}
			}
		case kShorthandProp:
			x.exported = append(x.exported, x.text(m))
		default:
			x.walk(m, parent)
		}
	}
}

// topAssign handles module-level assignments of CommonJS and pre-class
// code: module.exports = …, exports.f = function, Foo.prototype.m =
// function, Foo.m = function.
func (x *extractor) topAssign(n, stmt int32) {
	lefts := []int32{x.field(n, x.g.fLeft)}
	right := x.field(n, x.g.fRight)
	for x.kind(x.unwrap(right)) == kAssign {
		r := x.unwrap(right)
		lefts = append(lefts, x.field(r, x.g.fLeft))
		right = x.field(r, x.g.fRight)
	}
	v := x.unwrap(right)
	vk := x.kind(v)
	isFn := vk == kArrow || vk == kFunctionExpr
	handled := false
	for _, l := range lefts {
		c := x.chain(l)
		switch {
		case c == "":
			continue
		case c == "module.exports" || c == "exports":
			switch {
			case isFn || vk == kClassExpr:
				name := x.text(x.field(v, x.g.fName))
				if name == "" {
					name = defaultName(x.path)
				}
				if isFn {
					x.function(v, stmt, -1, snapshot.FlagExported, name)
				} else {
					x.class(v, stmt, -1, snapshot.FlagExported, name)
				}
				return
			case vk == kIdentifier:
				x.exported = append(x.exported, x.text(v))
			case vk == kObject:
				x.objectExports(v, -1)
				return
			}
		case strings.HasPrefix(c, "module.exports.") || strings.HasPrefix(c, "exports."):
			name := extract.LastPart(c)
			if strings.Count(c, ".") > 2 || strings.HasPrefix(c, "exports.") && strings.Count(c, ".") > 1 {
				break
			}
			switch {
			case isFn:
				x.function(v, stmt, -1, snapshot.FlagExported, name)
				return
			case vk == kClassExpr:
				x.class(v, stmt, -1, snapshot.FlagExported, name)
				return
			case vk == kIdentifier:
				x.exported = append(x.exported, x.text(v))
			}
		default:
			if handled {
				continue
			}
			recv, name := "", c
			if i := strings.LastIndexByte(c, '.'); i >= 0 {
				recv, name = c[:i], c[i+1:]
			}
			switch {
			case recv == "":
				if t := x.inferType(right); t != "" {
					x.setType(name, t)
				}
			case isFn:
				x.methodOn(recv, name, v, stmt)
				handled = true
			case name == "prototype" && vk == kObject:
				x.prototypeObject(recv, v)
				handled = true
			case name == "prototype" && vk == kCall:
				// A.prototype = Object.create(B.prototype)
				if x.chain(x.callee(x.field(v, x.g.fFunction))) == "Object.create" {
					if a := x.first(x.field(v, x.g.fArguments)); a >= 0 {
						base := strings.TrimSuffix(x.chain(a), ".prototype")
						x.addBase(recv, base)
					}
				}
			}
		}
	}
	if handled {
		return
	}
	for _, l := range lefts {
		if x.kind(l) != kIdentifier {
			x.walk(l, -1)
		}
	}
	x.walk(right, -1)
}

// owner finds the class a pre-class method is attached to: a top-level
// class, or a function that thereby becomes one.
func (x *extractor) owner(recv string) int32 {
	if strings.Contains(recv, ".") {
		return -1
	}
	id, ok := x.topNames[recv]
	if !ok {
		return -1
	}
	s := &x.r.Symbols[id]
	switch s.Kind {
	case snapshot.KindFunction:
		s.Kind = snapshot.KindClass
		return id
	case snapshot.KindClass:
		return id
	}
	return -1
}

func (x *extractor) addBase(recv, base string) {
	if base == "" {
		return
	}
	if id := x.owner(recv); id >= 0 {
		x.r.Symbols[id].Extends = append(x.r.Symbols[id].Extends, base)
	}
}

// methodOn declares fn assigned to recv.name (Foo.prototype.m = function,
// Foo.m = function, app.handle = function).
func (x *extractor) methodOn(recv, name string, fn, stmt int32) {
	proto := strings.TrimSuffix(recv, ".prototype")
	if id := x.owner(proto); id >= 0 {
		saved := x.cls
		x.cls = &classCtx{id: id, members: map[string]bool{}, methods: map[string]bool{}}
		doc := x.doc(stmt)
		mid := x.add(extract.Symbol{
			Name: name, Kind: snapshot.KindMethod, Parent: id, Flags: x.r.Symbols[id].Flags & snapshot.FlagExported,
			Start: x.t.Line(stmt), End: x.t.EndLine(stmt),
			Signature: x.sig(stmt, x.field(fn, x.g.fBody)), Doc: doc,
			Type: x.typeName(x.field(fn, x.g.fReturnType)),
		})
		x.jsdoc(mid, doc)
		x.fnBody(fn, mid, extract.RefTypeHint)
		x.cls = saved
		return
	}
	// The object is not a class of this file: keep its name as qualifier.
	flags := snapshot.Flags(0)
	if b, ok := x.lookup(firstPart(proto)); ok && b.kind == bLocal {
		if id, ok := x.topNames[firstPart(proto)]; ok {
			flags = x.r.Symbols[id].Flags & snapshot.FlagExported
		}
	}
	mid := x.add(extract.Symbol{
		Name: name, Qual: proto, Kind: snapshot.KindFunction, Parent: -1, Flags: flags,
		Start: x.t.Line(stmt), End: x.t.EndLine(stmt),
		Signature: x.sig(stmt, x.field(fn, x.g.fBody)), Doc: x.doc(stmt),
	})
	x.fnBody(fn, mid, extract.RefTypeHint)
}

// prototypeObject declares the methods of Foo.prototype = {…}.
func (x *extractor) prototypeObject(recv string, obj int32) {
	for m := x.first(obj); m >= 0; m = x.next(m) {
		switch x.kind(m) {
		case kMethodDef:
			x.methodOn(recv+".prototype", x.propName(x.field(m, x.g.fName)), m, m)
		case kPair:
			if v := x.unwrap(x.field(m, x.g.fValue)); x.kind(v) == kArrow || x.kind(v) == kFunctionExpr {
				x.methodOn(recv+".prototype", x.propName(x.field(m, x.g.fKey)), v, m)
				continue
			}
			x.walk(m, -1)
		default:
			x.walk(m, -1)
		}
	}
}

// finish applies what needed the whole file: names exported by separate
// statements, callbacks named before their declaration.
func (x *extractor) finish() {
	refs := x.r.Refs[:0]
	for _, r := range x.r.Refs {
		if r.Name != "" {
			refs = append(refs, r)
		}
	}
	x.r.Refs = refs
	var late map[int32]bool
	for _, name := range x.exported {
		if id, ok := x.topNames[name]; ok && x.r.Symbols[id].Flags&snapshot.FlagExported == 0 {
			x.r.Symbols[id].Flags |= snapshot.FlagExported
			if k := x.r.Symbols[id].Kind; k == snapshot.KindClass || k == snapshot.KindInterface || k == snapshot.KindEnum {
				if late == nil {
					late = map[int32]bool{}
				}
				late[id] = true
			}
		}
	}
	// Members of a class exported by a later statement are exported too
	// (the classes of JavaScript have no other visibility than #names).
	for i := range x.r.Symbols {
		s := &x.r.Symbols[i]
		if s.Parent >= 0 && late[s.Parent] && !strings.HasPrefix(s.Name, "#") &&
			!strings.HasPrefix(s.Signature, "private ") && !strings.HasPrefix(s.Signature, "protected ") {
			s.Flags |= snapshot.FlagExported
		}
	}
	for _, ref := range x.deferred {
		if id, ok := x.topNames[ref.Name]; ok {
			if k := x.r.Symbols[id].Kind; k.IsCallable() || k == snapshot.KindClass {
				x.r.Refs = append(x.r.Refs, ref)
			}
		}
	}
}

// specifierNames reads an import or export specifier: the name it takes
// from the other module (a string name's content when quoted) and the
// local name it is bound to, the alias when there is one.
func (x *extractor) specifierNames(s int32) (name, local string) {
	name = x.propName(x.field(s, x.g.fName))
	if name == "" {
		name = x.text(x.field(s, x.g.fName))
	}
	local = name
	if a := x.field(s, x.g.fAlias); a >= 0 {
		local = x.text(a)
	}
	return name, local
}
