package extract

import (
	"path"
	"slices"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// The phases of languages whose files #include others (C, C++: see
// Language.Includes). They do nothing for other languages' files.
//
// A function or method is one node, at its definition: mergeDecls drops a
// declaration without a body (Symbol.Decl) when the repository defines
// the same qualified name, and gives the definition the declaration's doc
// when it has none. The node keeps both places in the outline: a method
// defined outside its class is contained by the class (attachReceivers)
// and listed by its own file, a function prototyped in a header is
// contained by its own file and listed by the header (containsBoth).
//
// A file sees the top-level names of the files it includes, transitively,
// and the definitions of what they declare (included); its #include lines
// are imports edges to those files (includeEdges).

// includes is what the phases keep for the later lookups.
type includes struct {
	// declared are the definitions that took a file-level declaration in
	// another file: that file lists them too.
	declared []declaredAt
	// closure[fi] lists the files file fi sees, itself included, sorted;
	// nil for files of other languages.
	closure [][]int32
	// named holds the top-level names of those files, and the definitions
	// their declarations were merged into, by name.
	named map[string][]namedIn
	// recv maps a function defined outside its class to the class.
	recv map[uint32]uint32
}

type declaredAt struct {
	file, sym int32 // the definition
	in        int32 // the file of the declaration
}

type namedIn struct {
	file int32
	id   uint32
}

// maxClosure bounds the files one file sees through includes (and the
// memory of the tables: four bytes a file).
const maxClosure = 1024

func includesLang(f *FileResult) bool {
	l := byLang[f.Lang]
	return l != nil && l.Includes
}

// mergeDecls drops the declarations the repository defines (see above).
// It runs before any node is made, on the files' symbols.
func (r *resolver) mergeDecls() {
	type at struct{ f, s int32 }
	var files []int
	for fi, f := range r.files {
		if includesLang(f) {
			files = append(files, fi)
		}
	}
	if len(files) == 0 {
		return
	}
	// The merge edits symbols and references: it edits copies, so that
	// the results an incremental build keeps for the next build stay as
	// extraction made them.
	for _, fi := range files {
		c := *r.files[fi]
		c.Symbols, c.Refs = slices.Clone(c.Symbols), slices.Clone(c.Refs)
		r.files[fi] = &c
	}
	r.inc = &includes{}
	qn := make([][]string, len(r.files))
	defs := map[string][]at{}
	for _, fi := range files {
		f := r.files[fi]
		names, _ := symbolNames(f, 0) // names only: flags are not read
		for si := range f.Symbols {
			s := &f.Symbols[si]
			switch {
			case s.Receiver != "" && s.Parent < 0:
				names[si] = s.Receiver + "." + s.Name
			case s.Parent >= 0 && int(s.Parent) < si && f.Symbols[s.Parent].Receiver != "":
				names[si] = names[s.Parent] + "." + JoinName(s.Qual, s.Name)
			}
			if s.Kind.IsCallable() && !s.Decl {
				defs[names[si]] = append(defs[names[si]], at{int32(fi), int32(si)})
			}
		}
		qn[fi] = names
	}
	sym := func(a at) *Symbol { return &r.files[a.f].Symbols[a.s] }
	// pick chooses the definition of declaration d among cands: the only
	// one, or the one in d's file, with d's number of parameters, in the
	// file named like d's (a.h, a.c), the first. A static function of
	// another file defines nothing a declaration elsewhere names
	// (eligible).
	eligible := func(d, c at) bool {
		cs := sym(c)
		return c.f == d.f || cs.Flags&snapshot.FlagExported != 0 || cs.Receiver != "" || cs.Parent >= 0
	}
	pick := func(d at, cands []at) (at, bool) {
		best, score := at{-1, -1}, -1
		for _, c := range cands {
			if !eligible(d, c) {
				continue
			}
			cs := sym(c)
			sc := 0
			if c.f == d.f {
				sc = 8
			}
			if paramCount(cs.Signature) == paramCount(sym(d).Signature) {
				sc += 4
			}
			if stem(r.files[c.f].Path) == stem(r.files[d.f].Path) {
				sc += 2
			}
			if sc > score {
				best, score = c, sc
			}
		}
		return best, score >= 0
	}
	drop := map[at]bool{}
	for _, fi := range files {
		f := r.files[fi]
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if !s.Decl || !s.Kind.IsCallable() {
				continue
			}
			d := at{int32(fi), int32(si)}
			def, ok := pick(d, defs[qn[fi][si]])
			if !ok {
				continue
			}
			drop[d] = true
			// Every definition of it (one per platform: env_posix.cc,
			// env_windows.cc) takes its doc.
			for _, c := range defs[qn[fi][si]] {
				if cs := sym(c); cs.Doc == "" && eligible(d, c) {
					cs.Doc = s.Doc
				}
			}
			if s.Parent < 0 && def.f != d.f {
				r.inc.declared = append(r.inc.declared, declaredAt{file: def.f, sym: def.s, in: d.f})
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	// Symbol indices shift: renumber the definitions recorded above too.
	for _, fi := range files {
		f := r.files[fi]
		newIdx := dropSymbols(f, func(si int) bool { return drop[at{int32(fi), int32(si)}] })
		if newIdx == nil {
			continue
		}
		for i := range r.inc.declared {
			if d := &r.inc.declared[i]; d.file == int32(fi) {
				d.sym = newIdx[d.sym]
			}
		}
	}
}

// dropSymbols removes the symbols of f that gone reports, and the
// references out of them, and returns each old index's new one (nil when
// none went). What was nested in a dropped symbol moves to its parent.
func dropSymbols(f *FileResult, gone func(si int) bool) []int32 {
	newIdx := make([]int32, len(f.Symbols))
	kept, dropped := int32(0), false
	for i := range f.Symbols {
		if gone(i) {
			newIdx[i], dropped = -1, true
			continue
		}
		newIdx[i] = kept
		kept++
	}
	if !dropped {
		return nil
	}
	keptAncestor := func(i int32) int32 {
		for i >= 0 && int(i) < len(f.Symbols) && newIdx[i] < 0 {
			i = f.Symbols[i].Parent
		}
		if i < 0 || int(i) >= len(f.Symbols) {
			return -1
		}
		return newIdx[i]
	}
	refs := f.Refs[:0]
	for _, ref := range f.Refs {
		if ref.From >= 0 && int(ref.From) < len(newIdx) && newIdx[ref.From] < 0 {
			continue
		}
		ref.From = keptAncestor(ref.From)
		refs = append(refs, ref)
	}
	f.Refs = refs
	syms := f.Symbols
	for i := range syms {
		if newIdx[i] < 0 {
			continue
		}
		s := syms[i]
		s.Parent = keptAncestor(s.Parent)
		syms[newIdx[i]] = s
	}
	f.Symbols = syms[:kept]
	return newIdx
}

// paramCount counts the parameters of the first parameter list of a
// signature: the commas outside brackets, plus one; 0 for "()" and
// "(void)".
func paramCount(sig string) int {
	i := strings.IndexByte(sig, '(')
	if i < 0 {
		return -1
	}
	depth, n, empty := 0, 1, true
	for _, c := range sig[i+1:] {
		switch c {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			if depth == 0 {
				if empty {
					return 0
				}
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case ' ':
			continue
		}
		empty = false
	}
	return n
}

// stem is a path's file name without its extension.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

// attachMembers gives each function defined outside its class (its
// Receiver, the class's dotted qualified name: leveldb.DBImpl) the class
// as parent and qualified-name prefix, or, when the repository has no
// such class, that name as prefix and its file as parent. A method
// attached to a class of another file is listed in its own file's
// outline, and a function declared in another file at file level (a
// header's prototype) in that file's: a contains edge alone, without
// member_of, so that the node keeps one container.
func (r *resolver) attachMembers() {
	if r.inc == nil {
		return
	}
	types := map[string]uint32{} // qualified name → the first type node of that name
	for id := range r.g.Nodes {
		n := &r.g.Nodes[id]
		if n.Kind.IsType() && (n.Lang == snapshot.LangC || n.Lang == snapshot.LangCPP) {
			if _, ok := types[n.QName]; !ok {
				types[n.QName] = uint32(id)
			}
		}
	}
	r.inc.recv = map[uint32]uint32{}
	for fi, f := range r.files {
		if !includesLang(f) {
			continue
		}
		renamed := false
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Receiver == "" || s.Parent >= 0 {
				continue
			}
			id := r.symID[fi][si]
			r.g.Nodes[id].QName = s.Receiver + "." + s.Name
			renamed = true
			t, ok := types[s.Receiver]
			if !ok {
				r.contain(r.fileID[fi], id)
				continue
			}
			r.contain(t, id)
			r.inc.recv[id] = t
			if r.symFile[t] != int32(fi) {
				r.g.Edges = append(r.g.Edges, snapshot.Edge{From: r.fileID[fi], To: id,
					Type: snapshot.EdgeContains, Confidence: confSyntax})
			}
		}
		if renamed {
			// What a renamed type holds (struct DBImpl::Writer's
			// members) follows its name.
			for si := range f.Symbols {
				if p := f.Symbols[si].Parent; p >= 0 && int(p) < si {
					r.g.Nodes[r.symID[fi][si]].QName = r.g.Nodes[r.symID[fi][p]].QName + "." + JoinName(f.Symbols[si].Qual, f.Symbols[si].Name)
				}
			}
		}
	}
	for _, d := range r.inc.declared {
		r.g.Edges = append(r.g.Edges, snapshot.Edge{From: r.fileID[d.in], To: r.symID[d.file][d.sym],
			Type: snapshot.EdgeContains, Confidence: confSyntax})
	}
}

// receiverOf is the class a C or C++ function defined outside it was
// attached to.
func (r *resolver) receiverOf(fi int, si int32) (uint32, bool) {
	if r.inc == nil {
		return 0, false
	}
	t, ok := r.inc.recv[r.symID[fi][si]]
	return t, ok
}

// includeEdges finds the files each file includes, adds an imports edge
// to each, and works out what every file sees. An include names the file
// beside the including one, else the file of the repository whose path
// ends with it and shares the longest folder prefix with the includer.
func (r *resolver) includeEdges() {
	if r.inc == nil {
		return
	}
	byBase := map[string][]int32{}
	for fi, f := range r.files {
		if includesLang(f) {
			b := path.Base(f.Path)
			byBase[b] = append(byBase[b], int32(fi))
		}
	}
	direct := make([][]int32, len(r.files))
	for fi, f := range r.files {
		if !includesLang(f) {
			continue
		}
		dir := path.Dir(f.Path)
		for _, inc := range f.Includes {
			t := r.includeTarget(byBase, dir, inc)
			if t < 0 || t == int32(fi) || slices.Contains(direct[fi], t) {
				continue
			}
			direct[fi] = append(direct[fi], t)
			r.addEdge(r.fileID[fi], r.fileID[t], snapshot.EdgeImports, confScope)
		}
	}
	r.inc.closure = make([][]int32, len(r.files))
	onAllCores(len(r.files), func() func(int) {
		// stamp[t] == fi+1 once file t is in file fi's closure.
		stamp := make([]int32, len(r.files))
		return func(fi int) {
			if !includesLang(r.files[fi]) {
				return
			}
			seen := []int32{int32(fi)}
			stamp[fi] = int32(fi) + 1
			for i := 0; i < len(seen) && len(seen) < maxClosure; i++ {
				for _, t := range direct[seen[i]] {
					if stamp[t] != int32(fi)+1 && len(seen) < maxClosure {
						stamp[t] = int32(fi) + 1
						seen = append(seen, t)
					}
				}
			}
			slices.Sort(seen)
			r.inc.closure[fi] = seen
		}
	})
	r.inc.named = map[string][]namedIn{}
	for fi, f := range r.files {
		if !includesLang(f) {
			continue
		}
		for si := range f.Symbols {
			if s := &f.Symbols[si]; s.Parent < 0 && s.Receiver == "" {
				r.inc.named[s.Name] = append(r.inc.named[s.Name], namedIn{int32(fi), r.symID[fi][si]})
			}
		}
	}
	for _, d := range r.inc.declared {
		id := r.symID[d.file][d.sym]
		name := r.g.Nodes[id].Name
		r.inc.named[name] = append(r.inc.named[name], namedIn{d.in, id})
	}
}

// includeTarget is the file an #include of inc in folder dir names, -1
// when the repository has none.
func (r *resolver) includeTarget(byBase map[string][]int32, dir, inc string) int32 {
	inc = strings.TrimPrefix(path.Clean(inc), "./")
	cands := byBase[path.Base(inc)]
	if len(cands) == 0 {
		return -1
	}
	beside := path.Join(dir, inc)
	best, bestShared := int32(-1), -1
	for _, c := range cands {
		p := r.files[c].Path
		if p == beside {
			return c
		}
		if p != inc && !strings.HasSuffix(p, "/"+inc) {
			continue
		}
		if n := sharedPrefix(dir, path.Dir(p)); n > bestShared {
			best, bestShared = c, n
		}
	}
	return best
}

// sharedPrefix counts the leading folders paths a and b share.
func sharedPrefix(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// included finds what name (maybe dotted: "log.Writer") names among the
// top-level symbols of the files file fi sees through its includes;
// nil for a file of another language.
func (r *resolver) included(fi int, name string, fl filter) []uint32 {
	if r.inc == nil || fi >= len(r.inc.closure) || r.inc.closure[fi] == nil {
		return nil
	}
	sees := func(file int32) bool {
		_, ok := slices.BinarySearch(r.inc.closure[fi], file)
		return ok
	}
	var out []uint32
	first, rest, dotted := strings.Cut(name, ".")
	if dotted {
		// A member of a type the file sees: Foo.Make.
		for _, d := range r.inc.named[first] {
			if sees(d.file) && r.g.Nodes[d.id].Kind.IsType() {
				for _, id := range r.qnameOf(r.g.Nodes[d.id].QName, rest) {
					if !slices.Contains(out, id) {
						out = append(out, id)
					}
				}
			}
		}
		if len(out) > 0 {
			return r.keep(out, fl)
		}
	}
	// A top-level name, or one in a namespace: log.Writer is
	// leveldb.log.Writer.
	for _, d := range r.inc.named[LastPart(name)] {
		if !sees(d.file) {
			continue
		}
		if dotted {
			q := r.g.Nodes[d.id].QName
			if q != name && !strings.HasSuffix(q, "."+name) {
				continue
			}
		}
		if !slices.Contains(out, d.id) {
			out = append(out, d.id)
		}
	}
	return r.keep(out, fl)
}

// ownUnique is unique, except that a C or C++ file's call is not guessed
// to be vendored or generated code when the file is neither (a name none
// of its includes declares and the repository defines once is often the
// system's, close, socket or pthread_create, defined again by a vendored
// library for its own platform shims). inView then drops another file's
// static functions.
func (r *resolver) ownUnique(fi int, name string, methodsOnly bool) ([]uint32, float32) {
	ids, c := r.unique(name, methodsOnly)
	if len(ids) == 0 || r.inc == nil || !includesLang(r.files[fi]) || r.files[fi].Flags&noise != 0 {
		return ids, c
	}
	for _, id := range ids {
		if r.g.Nodes[id].Flags&noise != 0 {
			return nil, 0
		}
	}
	return ids, c
}

// inView drops from what a C or C++ file's call resolved to the static
// functions (and those of anonymous namespaces) of files it does not
// include: C names functions bare, and C++ names two files' helpers in
// one namespace alike, so a lookup by name finds every file's. For other
// languages' files it returns ids as they are.
func (r *resolver) inView(fi int, ids []uint32) []uint32 {
	if len(ids) == 0 || r.inc == nil || fi >= len(r.inc.closure) || r.inc.closure[fi] == nil {
		return ids
	}
	keep := ids
	for i, id := range ids {
		n := &r.g.Nodes[id]
		hidden := n.Kind == snapshot.KindFunction && n.Flags&snapshot.FlagExported == 0 && r.symFile[id] != int32(fi)
		if hidden {
			_, included := slices.BinarySearch(r.inc.closure[fi], r.symFile[id])
			hidden = !included
		}
		switch {
		case hidden && len(keep) == len(ids):
			keep = append([]uint32(nil), ids[:i]...)
		case !hidden && len(keep) != len(ids):
			keep = append(keep, id)
		}
	}
	return keep
}

// noise are the flags of code that is not the repository's own.
const noise = snapshot.FlagVendored | snapshot.FlagGenerated
