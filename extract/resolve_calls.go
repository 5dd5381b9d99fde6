package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/knowing-dev/knowing/snapshot"
)

// resolveCall finds what a call refers to, by scope.
func (r *resolver) resolveCall(fi int, lang *Language, ref Ref) ([]uint32, float32) {
	if t, ok := strings.CutPrefix(ref.QualType, CallOrName); ok {
		// Typed when the chain leads to the method, else resolved as a
		// call on an unknown receiver, unless the chain starts in a
		// package from outside the repository (time.Now().Format()).
		typed := ref
		typed.QualType = "call:" + t
		if ids, c := r.resolveCall(fi, lang, typed); len(ids) > 0 {
			return ids, c
		}
		if r.externalRoot(fi, t) {
			return nil, 0
		}
		if lang != nil && lang.ChainByName {
			// The chain broke (a generic result, an extension method):
			// when the repository has one method of its last call's
			// name, that method's result is the receiver; else the call
			// is left unresolved rather than guessed by its name.
			i := strings.LastIndex(t, "().")
			if i < 0 {
				return nil, 0
			}
			last := t[i+3:]
			if last == "" || strings.IndexByte(last, '.') >= 0 {
				return nil, 0 // fields after the call: their types are unknown
			}
			// "(expr)" names nothing: the call is found by its name, if unique.
			typed.QualType = "call:(expr)." + last
			return r.resolveCall(fi, lang, typed)
		}
		ref.QualType = ""
	}
	f := r.files[fi]
	q := ref.Qual
	var self []string
	var super []string
	if lang != nil {
		self, super = lang.SelfNames, lang.SuperNames
	}
	encl, hasEncl := uint32(0), false
	if ref.From >= 0 {
		encl, hasEncl = r.parentType(fi, ref.From)
	}
	if q == "" {
		if hasEncl && lang != nil && lang.ImplicitSelf {
			if ids := r.memberOf(encl, ref.Name, callables); len(ids) > 0 {
				return ids, confScope
			}
		}
		if ids, c := r.lexical(fi, ref.From, ref.Name, callables); len(ids) > 0 {
			return ids, c
		}
		if ids := r.lookupScope(scopeOf(f), ref.Name, callables); len(ids) > 0 {
			return ids, confScope
		}
		if ids := r.fromImports(f, ref.Name, callables); len(ids) > 0 {
			return ids, confScope
		}
		if ids := r.included(fi, ref.Name, callables); len(ids) > 0 {
			return ids, confScope
		}
		if ids, _ := r.lexical(fi, ref.From, ref.Name, anyKind); len(ids) > 0 {
			return nil, 0 // the name is a variable in scope, not a callable
		}
		if ids := r.lookupScope(scopeOf(f), ref.Name, anyKind); len(ids) > 0 {
			return nil, 0
		}
		return r.ownUnique(fi, ref.Name, false)
	}
	first, rest, _ := strings.Cut(q, ".")
	// The object the call is made on, as a type, when it can be known.
	var recv []uint32
	conf := float32(confTyped)
	switch {
	case strings.HasPrefix(ref.QualType, "call:"):
		recv = r.resultTypes(fi, lang, ref.From, strings.TrimPrefix(ref.QualType, "call:"))
		if recv == nil {
			return nil, 0 // the call's result type is not in the repository
		}
	case ref.QualType != "":
		recv, _ = r.resolveType(fi, ref.From, ref.QualType)
		if recv == nil {
			return nil, 0 // a declared type outside the repository
		}
	case isIn(first, self) && hasEncl:
		recv, conf = r.one(encl), confScope
	case isIn(first, super) && hasEncl:
		recv, conf = r.bases[encl], confScope
	default:
		// Every import binding the name is tried (re-exports and barrels
		// give several); a package none of them finds is external.
		imported := false
		for _, im := range f.Imports {
			if im.LocalName() != first {
				continue
			}
			imported = true
			if im.Name == "" || im.Name == "*" {
				pkg := im.Path
				if rest != "" {
					pkg += "." + rest
				}
				if ids := r.keep(r.pkgTop[pkg][ref.Name], callables); len(ids) > 0 {
					return ids, confScope
				}
				if ids := r.keep(r.qnameOf(pkg, ref.Name), callables); len(ids) > 0 {
					return ids, confScope
				}
				continue
			}
			if t := r.keep(r.qnameOf(im.Path, im.Name), typesOnly); len(t) > 0 {
				recv, conf = t, confScope
				break
			}
			if rest == "" {
				// An imported object's own function: import locale from
				// "./de"; locale.ordinal(n).
				if ids := r.keep(r.qnameOf(im.Path+"."+im.Name, ref.Name), callables); len(ids) > 0 {
					return ids, confScope
				}
			}
		}
		if imported && recv == nil {
			return nil, 0 // imported from outside the repository
		}
		if recv == nil {
			// A type named directly: Foo.bar(), Foo::new().
			if ids, _ := r.resolveType(fi, ref.From, first); len(ids) > 0 && startsUpper(first) {
				recv, conf = ids, confScope
			}
		}
	}
	if recv != nil {
		out, ok := r.callOn(recv, rest, ref.Name)
		if !ok {
			return nil, 0 // a field chain into types outside the repository
		}
		if len(out) > 0 {
			return out, conf
		}
		if rest == "" && ref.Name == LastPart(first) {
			// new Foo() on a class that declares no constructor.
			for _, t := range recv {
				if r.g.Nodes[t].Name == ref.Name {
					out = append(out, t)
				}
			}
			if len(out) > 0 {
				return out, conf
			}
		}
		// The receiver's type is known and has no such member (it comes
		// from outside the repository): do not guess by name.
		return nil, 0
	}
	if startsUpper(first) && rest == "" && ref.QualType == "" {
		// A type or constant that did not resolve: an external one.
		return nil, 0
	}
	return r.ownUnique(fi, ref.Name, true)
}

// parentType returns the type symbol si of file fi belongs to: si itself
// or its nearest enclosing type, or the type a method's Receiver names in
// the file's scope; false when there is none.
func (r *resolver) parentType(fi int, si int32) (uint32, bool) {
	f := r.files[fi]
	for si >= 0 {
		s := &f.Symbols[si]
		if s.Kind.IsType() {
			return r.symID[fi][si], true
		}
		if s.Receiver != "" {
			if t, ok := r.receiverOf(fi, si); ok {
				return t, true
			}
			if ts := r.lookupScope(scopeOf(f), s.Receiver, typesOnly); len(ts) > 0 {
				return ts[0], true
			}
			return 0, false
		}
		si = s.Parent
	}
	return 0, false
}

// callOn finds the methods named name of the types recv, or of the types
// of the field chain fields ("a.b") of recv; ok is false when the fields
// lead outside the repository.
func (r *resolver) callOn(recv []uint32, fields, name string) (out []uint32, ok bool) {
	if fields != "" {
		if recv = r.followFields(recv, fields); recv == nil {
			return nil, false
		}
	}
	out, _ = r.groupMembers(recv, name, callables)
	return out, true
}

// groupMembers is memberOf over types, each group of declarations of one
// type (seenGroup) asked once; owned is joinIDs's: whether out is a
// fresh slice rather than one memberOf returned.
func (r *resolver) groupMembers(types []uint32, name string, fl filter) (out []uint32, owned bool) {
	var buf [8]uint32
	seen := buf[:0]
	for _, t := range types {
		var dup bool
		if seen, dup = r.seenGroup(seen, t); dup {
			continue
		}
		out, owned = joinIDs(out, owned, r.memberOf(t, name, fl))
	}
	return out, owned
}

// joinIDs appends ids to out. Lists from the resolver's tables are
// shared and read-only, so the first non-empty one is taken as it is and
// only a second one makes a copy (owned says out is a copy). Most calls
// and field chains resolve through one list: no allocation.
func joinIDs(out []uint32, owned bool, ids []uint32) ([]uint32, bool) {
	switch {
	case len(ids) == 0:
		return out, owned
	case len(out) == 0:
		return ids, false
	case !owned:
		joined := make([]uint32, 0, len(out)+len(ids))
		return append(append(joined, out...), ids...), true
	}
	return append(out, ids...), true
}

// resultTypes finds the type of the value a call returns: the result type
// declared on the called function, or the class itself when a class (or
// its constructor) is called. call is "f", "pkg.f" or "Type.f".
//
// A call made on the result of another call is written with "()" after
// the inner call, and the fields between: "Type.f().g" is g called on
// what Type.f returns, "Type.f().field.g" g on a field of it. Each level
// is resolved as a QualType "call:Type.f" is, up to maxCallChain levels.
func (r *resolver) resultTypes(fi int, lang *Language, from int32, call string) []uint32 {
	if fi >= len(r.chains) || !strings.Contains(call, "()") {
		return r.resultTypesOf(fi, lang, from, call)
	}
	key := chainKey{from, call}
	if out, ok := r.chains[fi][key]; ok {
		return out
	}
	out := r.resultTypesOf(fi, lang, from, call)
	if r.chains[fi] == nil {
		r.chains[fi] = map[chainKey][]uint32{}
	}
	r.chains[fi][key] = out
	return out
}

// maxCallChain bounds the calls of a chain followed to its last one
// (builders: p.cargo("build").with_stderr(..).run()).
const maxCallChain = 8

// chainKey is a call of a chain as seen from one symbol of a file.
type chainKey struct {
	from int32
	call string
}

// resultTypesOf is resultTypes without the memo.
func (r *resolver) resultTypesOf(fi int, lang *Language, from int32, call string) []uint32 {
	qual, name := "", call
	if i := strings.LastIndexByte(call, '.'); i >= 0 {
		qual, name = call[:i], call[i+1:]
	}
	var ids []uint32
	if i := strings.LastIndex(qual, "()"); i >= 0 {
		// The limit counts the calls of the chain itself, so that what a
		// chain resolves to does not depend on who asks.
		if i == 0 || strings.Count(qual, "()") > maxCallChain {
			return nil
		}
		recv := r.resultTypes(fi, lang, from, qual[:i])
		ids, _ = r.callOn(recv, strings.TrimPrefix(qual[i+2:], "."), name)
	} else {
		ids, _ = r.resolveCall(fi, lang, Ref{From: from, Kind: RefCall, Name: name, Qual: qual})
	}
	var out []uint32
	for _, id := range ids {
		n := &r.g.Nodes[id]
		if n.Kind.IsType() {
			out = append(out, id)
			continue
		}
		if n.Kind == snapshot.KindConstructor {
			if p, ok := r.parentType(int(r.symFile[id]), r.files[r.symFile[id]].Symbols[r.symIdx[id]].Parent); ok {
				out = append(out, p)
			}
			continue
		}
		sf, si := r.symFile[id], r.symIdx[id]
		if sf < 0 || si < 0 {
			continue
		}
		s := &r.files[sf].Symbols[si]
		if s.Type == "" {
			continue
		}
		if t, ok := r.parentType(int(sf), si); ok && (s.Type == "Self" || s.Type == "self") {
			out = append(out, t)
			continue
		}
		ts, _ := r.resolveType(int(sf), si, s.Type)
		out = append(out, ts...)
	}
	return out
}

// followFields walks a chain of field names from a type, through the
// declared types of the fields.
func (r *resolver) followFields(types []uint32, chain string) []uint32 {
	for last := false; !last; { // the fields of chain, as strings.Split gives them
		fieldName := chain
		if i := strings.IndexByte(chain, '.'); i >= 0 {
			fieldName, chain = chain[:i], chain[i+1:]
		} else {
			last = true
		}
		var next []uint32
		owned := false
		fields, _ := r.groupMembers(types, fieldName, anyKind)
		for _, fid := range fields {
			fi, si := r.symFile[fid], r.symIdx[fid]
			if fi < 0 || si < 0 {
				continue
			}
			typ := r.files[fi].Symbols[si].Type
			if typ == "" {
				continue
			}
			ids, _ := r.resolveType(int(fi), r.files[fi].Symbols[si].Parent, typ)
			next, owned = joinIDs(next, owned, ids)
		}
		if len(next) == 0 {
			return nil
		}
		if owned {
			// Fields of one struct declared per platform, each typed
			// with a type declared per platform, multiply: drop repeats.
			next = uniqueIDs(next)
		}
		types = next
	}
	return types
}

// seenGroup tells whether a type of t's group (the declarations of one
// qualified name, see sameType) is in seen, and returns seen with the
// group added when it is not. Member lookups answer the same for every type of a group, so
// receivers naming one type declared in 33 platform files are looked up
// once, not 33 times with 33 times the answer. Past 64 groups it stops
// recording (and callers repeat some lookups).
func (r *resolver) seenGroup(seen []uint32, t uint32) ([]uint32, bool) {
	g := t
	if dups, ok := r.dupTypes[t]; ok {
		g = dups[0]
	}
	if slices.Contains(seen, g) {
		return seen, true
	}
	if len(seen) < 64 {
		seen = append(seen, g)
	}
	return seen, false
}

// uniqueIDs drops the repeats from ids in place, keeping first occurrences
// in order.
func uniqueIDs(ids []uint32) []uint32 {
	if len(ids) <= 32 {
		out := ids[:0]
		for _, id := range ids {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	seen := make(map[uint32]struct{}, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			seen[id] = struct{}{}
			out = append(out, id)
		}
	}
	return out
}

// unique resolves a name defined exactly once among the repository's
// callables (methods, functions, constructors); anything else is left
// unresolved rather than guessed.
func (r *resolver) unique(name string, methodsOnly bool) ([]uint32, float32) {
	if len(name) < 4 {
		return nil, 0
	}
	if r.uniqueMemo == nil {
		return r.uniqueScan(name, methodsOnly)
	}
	k := memberKey{name: name}
	if methodsOnly {
		k.t = 1
	}
	ids := r.uniqueMemo.get(k, func() []uint32 {
		ids, _ := r.uniqueScan(name, methodsOnly)
		return slices.Clip(ids)
	})
	if ids == nil {
		return nil, 0
	}
	return ids, confUnique
}

func (r *resolver) uniqueScan(name string, methodsOnly bool) ([]uint32, float32) {
	ids := r.keep(r.byName[name], callables)
	var fns []uint32
	for _, id := range ids {
		n := &r.g.Nodes[id]
		if !n.Kind.IsCallable() || n.Flags&snapshot.FlagTest != 0 {
			continue
		}
		if methodsOnly && n.Kind == snapshot.KindFunction {
			continue // obj.m() calls a method, not a free function
		}
		fns = append(fns, id)
	}
	if len(fns) > 0 && r.distinctNames(fns) == 1 {
		return fns, confUnique // one symbol, or the overloads of one
	}
	return nil, 0
}

// distinctNames counts the qualified names among ids: the overloads of one
// method (Java, C#) count once.
func (r *resolver) distinctNames(ids []uint32) int {
	if len(ids) <= 1 {
		return len(ids)
	}
	n := 0
	for i, id := range ids {
		dup := false
		for _, prev := range ids[:i] {
			if r.g.Nodes[prev].QName == r.g.Nodes[id].QName {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}

func isIn(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

func startsUpper(s string) bool {
	for _, c := range s {
		return unicode.IsUpper(c)
	}
	return false
}
