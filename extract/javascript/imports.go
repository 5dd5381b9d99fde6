package javascript

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// stringArg is the first argument of a call when it is a string literal.
func (x *extractor) stringArg(args int32) string {
	a := x.FirstNamed(args)
	if x.Code(a) != kString {
		return ""
	}
	return unquote(x.Text(a))
}

func (x *extractor) addImport(im extract.Import) {
	x.R.Imports = append(x.R.Imports, im)
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
	spec := unquote(x.Text(x.Field(n, x.g.fSource)))
	bound := false
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Code(c) {
		case kImportClause:
			for k := x.FirstNamed(c); k >= 0; k = x.NextNamed(k) {
				switch x.Code(k) {
				case kIdentifier:
					x.bindImport(spec, "default", x.Text(k))
					bound = true
				case kNamespaceImport:
					if id := x.firstKid(k); id >= 0 {
						x.bindImport(spec, "", x.Text(id))
						bound = true
					}
				case kNamedImports:
					for s := x.FirstNamed(k); s >= 0; s = x.NextNamed(s) {
						if x.Code(s) != kImportSpecifier {
							continue
						}
						name, local := x.specifierNames(s)
						x.bindImport(spec, name, local)
						bound = true
					}
				}
			}
		case kImportRequireClause:
			if id := x.firstKid(c); id >= 0 && x.Code(id) == kIdentifier {
				if spec == "" {
					spec = unquote(x.Text(x.Field(c, x.g.fSource)))
				}
				x.requireBind(spec, x.Text(id))
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
	if x.Code(v) == kMember {
		member = x.Text(x.Field(v, x.g.fProperty))
		v = x.unwrap(x.Field(v, x.g.fObject))
	}
	if x.Code(v) != kCall {
		return false
	}
	fn := x.callee(x.Field(v, x.g.fFunction))
	isReq := x.Code(fn) == kIdentifier && x.Text(fn) == "require"
	if !isReq && x.Code(fn) != kImportKw {
		return false
	}
	spec := x.stringArg(x.Field(v, x.g.fArguments))
	if spec == "" {
		return false
	}
	switch x.Code(nameN) {
	case kIdentifier:
		local := x.Text(nameN)
		switch {
		case member != "":
			x.bindImport(spec, member, local)
		case isReq:
			x.requireBind(spec, local)
		default:
			x.bindImport(spec, "", local)
		}
	case kObjectPattern:
		for p := x.FirstNamed(nameN); p >= 0; p = x.NextNamed(p) {
			switch x.Code(p) {
			case kShorthandPattern:
				x.bindImport(spec, x.Text(p), x.Text(p))
			case kPairPattern:
				k, val := x.propName(x.Field(p, x.g.fKey)), x.Field(p, x.g.fValue)
				if x.Code(val) == kIdentifier && k != "" {
					x.bindImport(spec, k, x.Text(val))
				}
			case kObjectAssignPattern:
				if f := x.firstKid(p); f >= 0 {
					x.bindImport(spec, x.Text(f), x.Text(f))
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
	if src := x.Field(n, x.g.fSource); src >= 0 {
		x.reexport(n, unquote(x.Text(src)))
		return
	}
	isDefault := x.hasToken(n, kwDefault)
	name := ""
	if isDefault {
		name = defaultName(x.F.Path)
	}
	if d := x.Field(n, x.g.fDeclaration); d >= 0 {
		x.declaration(d, n, parent, snapshot.FlagExported, name)
		return
	}
	if v := x.Field(n, x.g.fValue); v >= 0 {
		vv := x.unwrap(v)
		switch x.Code(vv) {
		case kIdentifier:
			x.exported = append(x.exported, x.Text(vv))
		case kArrow, kFunctionExpr:
			if own := x.Text(x.Field(vv, x.g.fName)); own != "" {
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
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Code(c) {
		case kExportClause:
			for s := x.FirstNamed(c); s >= 0; s = x.NextNamed(s) {
				if x.Code(s) == kExportSpecifier {
					x.exported = append(x.exported, x.Text(x.Field(s, x.g.fName)))
				}
			}
		case kIdentifier:
			x.exported = append(x.exported, x.Text(c)) // export = Foo
		}
	}
}

// wrapperExport marks Component exported in export default connect(…)(Component).
func (x *extractor) wrapperExport(call int32) {
	for a := x.FirstNamed(x.Field(call, x.g.fArguments)); a >= 0; a = x.NextNamed(a) {
		if x.Code(a) == kIdentifier {
			x.exported = append(x.exported, x.Text(a))
		}
	}
	if fn := x.callee(x.Field(call, x.g.fFunction)); x.Code(fn) == kCall {
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
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Code(c) {
		case kExportClause:
			for s := x.FirstNamed(c); s >= 0; s = x.NextNamed(s) {
				if x.Code(s) != kExportSpecifier {
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
				x.addImport(extract.Import{Path: key, Alias: x.Text(id)})
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
	for m := x.FirstNamed(obj); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kMethodDef:
			name := x.propName(x.Field(m, x.g.fName))
			x.function(m, m, parent, snapshot.FlagExported, name)
		case kPair:
			name := x.propName(x.Field(m, x.g.fKey))
			val := x.Field(m, x.g.fValue)
			v := x.unwrap(val)
			switch x.Code(v) {
			case kArrow, kFunctionExpr:
				x.function(v, m, parent, snapshot.FlagExported, name)
			case kIdentifier:
				x.exported = append(x.exported, x.Text(v))
			default:
				if name != "" && !x.requireDecl(x.Field(m, x.g.fKey), val) {
					x.walk(val, parent)
				}
			}
		case kShorthandProp:
			x.exported = append(x.exported, x.Text(m))
		default:
			x.walk(m, parent)
		}
	}
}

// topAssign handles module-level assignments of CommonJS and pre-class
// code: module.exports = …, exports.f = function, Foo.prototype.m =
// function, Foo.m = function.
func (x *extractor) topAssign(n, stmt int32) {
	lefts := []int32{x.Field(n, x.g.fLeft)}
	right := x.Field(n, x.g.fRight)
	for x.Code(x.unwrap(right)) == kAssign {
		r := x.unwrap(right)
		lefts = append(lefts, x.Field(r, x.g.fLeft))
		right = x.Field(r, x.g.fRight)
	}
	v := x.unwrap(right)
	vk := x.Code(v)
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
				name := x.Text(x.Field(v, x.g.fName))
				if name == "" {
					name = defaultName(x.F.Path)
				}
				if isFn {
					x.function(v, stmt, -1, snapshot.FlagExported, name)
				} else {
					x.class(v, stmt, -1, snapshot.FlagExported, name)
				}
				return
			case vk == kIdentifier:
				x.exported = append(x.exported, x.Text(v))
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
				x.exported = append(x.exported, x.Text(v))
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
				// proto.m = function, with const proto = Foo.prototype.
				recv, alias := x.viaAlias(recv)
				x.methodOn(recv, name, v, stmt, alias)
				handled = true
			case name == "prototype" && vk == kObject:
				x.prototypeObject(recv, v)
				handled = true
			case name == "prototype" && vk == kCall:
				// A.prototype = Object.create(B.prototype)
				if x.chain(x.callee(x.Field(v, x.g.fFunction))) == "Object.create" {
					if a := x.FirstNamed(x.Field(v, x.g.fArguments)); a >= 0 {
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
		if x.Code(l) != kIdentifier {
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
	s := &x.R.Symbols[id]
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
		x.R.Symbols[id].Extends = append(x.R.Symbols[id].Extends, base)
	}
}

// methodOn declares fn assigned to recv.name (Foo.prototype.m = function,
// Foo.m = function, app.handle = function).
func (x *extractor) methodOn(recv, name string, fn, stmt int32, alias string) {
	proto := strings.TrimSuffix(recv, ".prototype")
	if id := x.owner(proto); id >= 0 {
		saved := x.cls
		x.cls = &classCtx{id: id, members: map[string]bool{}, methods: map[string]bool{}}
		doc := x.doc(stmt)
		mid := x.Add(extract.Symbol{
			Name: name, Kind: snapshot.KindMethod, Parent: id, Flags: x.R.Symbols[id].Flags & snapshot.FlagExported,
			Start: x.Line(stmt), End: x.EndLine(stmt),
			Signature: x.Signature(stmt, x.Field(fn, x.g.fBody)), Doc: doc,
			Type: x.typeName(x.Field(fn, x.g.fReturnType)),
		})
		x.jsdoc(mid, doc)
		x.fnBody(fn, mid, extract.RefTypeHint)
		x.cls = saved
		return
	}
	// The object is not a class of this file: keep its name (or the
	// alias the method was put on) as qualifier.
	flags := snapshot.Flags(0)
	if b, ok := x.lookup(firstPart(proto)); ok && b.kind == bLocal {
		if id, ok := x.topNames[firstPart(proto)]; ok {
			flags = x.R.Symbols[id].Flags & snapshot.FlagExported
		}
	}
	if alias != "" {
		proto = alias
	}
	x.looseMethod(proto, name, fn, stmt, flags)
}

// looseMethod declares a function put on an object that is no class of
// the file, at file level, qualified by the object's name.
func (x *extractor) looseMethod(qual, name string, fn, stmt int32, flags snapshot.Flags) {
	mid := x.Add(extract.Symbol{
		Name: name, Qual: qual, Kind: snapshot.KindFunction, Parent: -1, Flags: flags,
		Start: x.Line(stmt), End: x.EndLine(stmt),
		Signature: x.Signature(stmt, x.Field(fn, x.g.fBody)), Doc: x.doc(stmt),
	})
	x.fnBody(fn, mid, extract.RefTypeHint)
}

// prototypeObject declares the methods of Foo.prototype = {…}.
func (x *extractor) prototypeObject(recv string, obj int32) {
	for m := x.FirstNamed(obj); m >= 0; m = x.NextNamed(m) {
		switch x.Code(m) {
		case kMethodDef:
			x.methodOn(recv+".prototype", x.propName(x.Field(m, x.g.fName)), m, m, "")
		case kPair:
			if v := x.unwrap(x.Field(m, x.g.fValue)); x.Code(v) == kArrow || x.Code(v) == kFunctionExpr {
				x.methodOn(recv+".prototype", x.propName(x.Field(m, x.g.fKey)), v, m, "")
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
	refs := x.R.Refs[:0]
	for _, r := range x.R.Refs {
		if r.Name != "" {
			refs = append(refs, r)
		}
	}
	x.R.Refs = refs
	var late map[int32]bool
	for _, name := range x.exported {
		if id, ok := x.topNames[name]; ok && x.R.Symbols[id].Flags&snapshot.FlagExported == 0 {
			x.R.Symbols[id].Flags |= snapshot.FlagExported
			if k := x.R.Symbols[id].Kind; k == snapshot.KindClass || k == snapshot.KindInterface || k == snapshot.KindEnum ||
				k == snapshot.KindConstant || k == snapshot.KindVariable { // an object's members (see objectMembers)
				if late == nil {
					late = map[int32]bool{}
				}
				late[id] = true
			}
		}
	}
	// Members of a class exported by a later statement are exported too
	// (the classes of JavaScript have no other visibility than #names).
	for i := range x.R.Symbols {
		s := &x.R.Symbols[i]
		if s.Parent >= 0 && late[s.Parent] && !strings.HasPrefix(s.Name, "#") &&
			!strings.HasPrefix(s.Signature, "private ") && !strings.HasPrefix(s.Signature, "protected ") {
			s.Flags |= snapshot.FlagExported
		}
	}
	for _, ref := range x.deferred {
		if id, ok := x.topNames[ref.Name]; ok {
			if k := x.R.Symbols[id].Kind; k.IsCallable() || k == snapshot.KindClass {
				x.R.Refs = append(x.R.Refs, ref)
			}
		}
	}
}

// specifierNames reads an import or export specifier: the name it takes
// from the other module (a string name's content when quoted) and the
// local name it is bound to, the alias when there is one.
func (x *extractor) specifierNames(s int32) (name, local string) {
	name = x.propName(x.Field(s, x.g.fName))
	if name == "" {
		name = x.Text(x.Field(s, x.g.fName))
	}
	local = name
	if a := x.Field(s, x.g.fAlias); a >= 0 {
		local = x.Text(a)
	}
	return name, local
}
