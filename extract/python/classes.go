package python

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Classes: their kind and bases, and the fields their bodies and methods
// assign.

// class declares a class (def, decorated from outer) with its kind, bases
// and docs, and walks its decorators, keyword arguments and body.
func (x *extractor) class(def, outer int32, decos []int32, c ctx) {
	name := x.Text(x.Field(def, fName))
	if name == "" {
		return
	}
	kind := snapshot.KindClass
	var ext []string
	var rest []int32
	repoBase := false // a base that may be in the repository
	if sup := x.Field(def, fSuperclasses); sup >= 0 {
		for a := x.FirstNamed(sup); a >= 0; a = x.NextNamed(a) {
			base := a
			switch x.Code(base) {
			case kSubscript:
				base = x.Field(base, fValue)
			case kKeywordArg:
				if x.Text(x.Field(a, fName)) == "metaclass" && extract.LastName(x.chain(x.Field(a, fValue))) == "ABCMeta" {
					kind = snapshot.KindInterface
				}
				rest = append(rest, a)
				continue
			}
			ch := x.chain(base)
			if ch == "" {
				rest = append(rest, a)
				continue
			}
			switch extract.LastName(ch) {
			case "Protocol", "ABC":
				if kind == snapshot.KindClass {
					kind = snapshot.KindInterface
				}
			case "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag":
				kind = snapshot.KindEnum
			case "NamedTuple", "TypedDict":
				kind = snapshot.KindStruct
			}
			if x.maybeRepoType(ch) {
				repoBase = true
			}
			if lp := extract.LastName(ch); lp == "ABC" || typingNames[lp] && !x.maybeRepoType(ch) {
				continue // object, Generic, Protocol, TypedDict: no base worth an edge
			}
			ext = append(ext, x.baseName(ch))
		}
	}
	s := x.defSymbol(def, outer, decos, name, kind, c)
	s.Extends = ext
	id := x.Add(s)
	x.define(name, id, c, false)
	if kind == snapshot.KindEnum {
		x.enums[id] = true
	}
	if !repoBase {
		x.closed[id] = true
	}
	dc := ctx{from: id, parent: c.parent, class: c.class, sc: c.sc}
	for _, deco := range decos {
		x.decorator(deco, dc)
	}
	for _, a := range rest {
		x.walk(a, dc)
	}
	if body := x.Field(def, fBody); body >= 0 {
		x.walk(body, ctx{from: id, parent: id, class: id, sc: c.sc})
	}
}

// maybeRepoType reports whether the class named ch may be defined in the
// repository: not one imported from outside, nor a builtin or typing name
// the file does not define.
func (x *extractor) maybeRepoType(ch string) bool {
	first, _, dotted := strings.Cut(ch, ".")
	if b := x.bind[first]; b != nil {
		return b.inRepo
	}
	if !dotted && (builtins[first] || typingNames[first]) && !x.defined[first] {
		return false
	}
	return true
}

// baseName rewrites a base class written through a module alias to the
// module that defines it (flask.Flask → flask.app.Flask).
func (x *extractor) baseName(ch string) string {
	first, rest, ok := strings.Cut(ch, ".")
	if !ok {
		return ch
	}
	b := x.bind[first]
	if b == nil || b.name != "" || !b.inRepo {
		return ch
	}
	mid, name := extract.SplitName(rest)
	q, _, nm, ok := x.viaModule(b, first, mid, name)
	if !ok {
		return ch
	}
	return q + "." + nm
}

// noteFieldType remembers fields that hold objects from outside the
// repository (dicts, lists, library objects): calls on them are not
// guessed.
func (x *extractor) noteFieldType(cls int32, name, vt string) {
	m := x.fieldExt[cls]
	if m == nil {
		m = map[string]bool{}
		x.fieldExt[cls] = m
	}
	switch {
	case vt == vExt:
		if _, seen := m[name]; !seen {
			m[name] = true
		}
	case vt != "":
		m[name] = false
	}
}

// classAttr declares name, assigned in the body of class cls, as a field
// (an enum member as a constant), or types the field declared before; -1
// when name is a method.
func (x *extractor) classAttr(cls int32, name string, stmt, right, typ int32, vt string) int32 {
	x.noteFieldType(cls, name, vt)
	if fs := x.fields[cls]; fs != nil {
		if id, ok := fs[name]; ok {
			if x.R.Symbols[id].Type == "" {
				x.R.Symbols[id].Type = typeOnly(vt)
			}
			return id
		}
	}
	if _, ok := x.methods[cls][name]; ok {
		return -1
	}
	kind := snapshot.KindField
	if x.enums[cls] && typ < 0 && !isDunder(name) && !strings.HasPrefix(name, "_") {
		kind = snapshot.KindConstant // an enum member is an instance of its enum
		vt = x.R.Symbols[cls].Name
	}
	return x.newField(cls, name, kind, stmt, vt)
}

// newField declares field name of class cls, assigned by statement stmt.
func (x *extractor) newField(cls int32, name string, kind snapshot.Kind, stmt int32, vt string) int32 {
	id := x.Add(extract.Symbol{
		Name: name, Kind: kind, Parent: cls, Start: x.Line(stmt), End: x.EndLine(stmt),
		Signature: extract.FirstLine(x.Text(stmt)), Doc: x.attrDoc(stmt), Type: typeOnly(vt), Flags: x.exported(name, cls),
	})
	fs := x.fields[cls]
	if fs == nil {
		fs = map[string]int32{}
		x.fields[cls] = fs
	}
	fs[name] = id
	return id
}

// instanceField declares self.name, assigned in a method, on the class.
func (x *extractor) instanceField(cls int32, name string, stmt int32, vt string) {
	if cls < 0 || name == "" {
		return
	}
	x.noteFieldType(cls, name, vt)
	if id, ok := x.fields[cls][name]; ok {
		s := &x.R.Symbols[id]
		if s.Type == "" {
			s.Type = typeOnly(vt)
		}
		return
	}
	if _, ok := x.methods[cls][name]; ok {
		return
	}
	x.newField(cls, name, snapshot.KindField, stmt, vt)
}

// typedField reports a field of class cls whose type is known.
func (x *extractor) typedField(cls int32, name string) bool {
	id, ok := x.fields[cls][name]
	return ok && x.R.Symbols[id].Type != ""
}
